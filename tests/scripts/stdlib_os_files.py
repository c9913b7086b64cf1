# os.stat, scandir, walk, access, chmod, replace, utime, symlinks and system;
# open(), os and os.path taking pathlib.Path; seek and tell on files.
import os
import shutil
import tempfile
from pathlib import Path

root = Path(tempfile.mkdtemp())
(root / 'data' / 'train').mkdir(parents=True)
(root / 'data' / 'val').mkdir()
for name, text in [('data/train/a.txt', 'alpha\n'), ('data/train/b.txt', 'beta beta\n'), ('data/val/c.txt', 'c\n'),
                   ('data/labels.csv', 'x,y\n1,2\n')]:
    with open(root / name, 'w') as f:
        f.write(text)

st = os.stat(root / 'data' / 'train' / 'b.txt')
print(type(st).__name__, st.st_size, st[6], len(st), oct(st.st_mode & 0o777 & ~0o022), st.st_mode & 0o170000 == 0o100000)
print(isinstance(st.st_mtime, float), isinstance(st[8], int), st[8] == int(st.st_mtime), st.st_mtime_ns // 10**9 == st[8])
print(repr(st).startswith('os.stat_result(st_mode='), repr(st).endswith(')'), list(st)[6])
os.utime(root / 'data' / 'val' / 'c.txt', (1000000000, 1500000000.5))
cst = os.stat(str(root / 'data' / 'val' / 'c.txt'))
print(cst.st_atime, cst.st_mtime, cst.st_mtime_ns, cst[8])
os.utime(root / 'data' / 'val' / 'c.txt', ns=(7, 3 * 10**9 + 25))
print(os.stat(root / 'data' / 'val' / 'c.txt').st_mtime_ns)

# os.walk from the top and from the bottom, with pruning; sizes from DirEntry.stat()
def tree(top, **kw):
    out = []
    for dirpath, dirnames, filenames in os.walk(top, **kw):
        dirnames.sort()
        out.append((os.path.relpath(dirpath, root), sorted(dirnames), sorted(filenames)))
    return out
print(tree(root))
print(sorted(tree(root, topdown=False)))
for dirpath, dirnames, filenames in os.walk(root):
    dirnames[:] = [d for d in dirnames if d != 'val']
    print(os.path.relpath(dirpath, root), sorted(filenames))
print(list(os.walk(root / 'missing')), end=' ')
errors = []
print(list(os.walk(str(root / 'missing'), onerror=errors.append)), type(errors[0]).__name__)
with os.scandir(root / 'data') as it:
    entries = sorted(it, key=lambda e: e.name)
print([(e.name, e.is_dir(), e.is_file(), e.is_symlink()) for e in entries], repr(entries[0]))
print([os.path.relpath(e.path, root) for e in entries], entries[0].stat().st_size == os.stat(entries[0].path).st_size)
print(sum(e.stat().st_size for e in os.scandir(root / 'data' / 'train')), os.fspath(entries[1]) == entries[1].path)
cwd = os.getcwd()
os.chdir(root / 'data')
print(sorted(e.path for e in os.scandir()), sorted(e.path for e in os.scandir('.')))
os.chdir(cwd)

# links, permissions, replace
os.symlink(root / 'data' / 'train', root / 'link')
print(os.readlink(root / 'link') == str(root / 'data' / 'train'), os.path.islink(root / 'link'), Path(root / 'link').is_symlink())
print(os.lstat(root / 'link').st_mode & 0o170000 == 0o120000, os.stat(root / 'link').st_mode & 0o170000 == 0o040000)
print([d for d, _, _ in tree(root) if 'link' in d], [d for d, _, _ in tree(root, followlinks=True) if 'link' in d])
os.chmod(root / 'data' / 'labels.csv', 0o640)
print(oct(os.stat(root / 'data' / 'labels.csv').st_mode & 0o777), os.access(root / 'data' / 'labels.csv', os.R_OK),
      os.access(root / 'nothing', os.F_OK), os.F_OK, os.R_OK, os.W_OK, os.X_OK)
os.replace(root / 'data' / 'labels.csv', root / 'data' / 'val' / 'c.txt')
print(sorted(os.listdir(root / 'data')), (root / 'data' / 'val' / 'c.txt').read_text())
print(os.SEEK_SET, os.SEEK_CUR, os.SEEK_END, os.devnull, os.pathsep, os.extsep, os.altsep)
try:
    os.stat(root / 'nothing')
except FileNotFoundError as e:
    print(type(e).__name__, e.errno, e.filename == str(root / 'nothing'))
    print(e.args, e.strerror, str(e) == "[Errno 2] No such file or directory: " + repr(str(root / 'nothing')))
try:
    os.stat(3.5)
except TypeError as e:
    print(e)

# Path everywhere a path goes; Path's bytes
p = root / 'b.bin'
print(p.write_bytes(b'\x00\x01abc\n'), p.read_bytes(), os.path.getsize(p), os.path.exists(p), os.path.isfile(p))
print(os.fspath(p) == str(p), os.fspath('x'), os.fspath(b'y'))
try:
    os.fspath(3)
except TypeError as e:
    print(e)
with open(p, 'rb') as f:
    print(f.read(2), f.tell(), f.read(), f.tell(), f.seek(1), f.read(3), f.seek(-2, os.SEEK_END), f.read(), f.seekable())
    f.seek(1)
    print(f.seek(2, os.SEEK_CUR), f.read(1), f.tell())
with open(p, 'r+b') as f:
    f.seek(2)
    f.write(b'XY')
    print(f.tell())
print(p.read_bytes())
with open(root / 'data' / 'train' / 'a.txt') as f:
    print(repr(f.readline()), f.tell(), repr(f.read()), f.tell(), f.seek(0), repr(f.read(3)))
    try:
        f.seek(1, os.SEEK_CUR)
    except OSError as e:
        print(type(e).__name__, e)
with open(root / 'u.txt', 'w') as f:
    f.write('é€x\n')
    print(f.tell())
with open(root / 'u.txt') as f:
    print(repr(f.read(1)), f.tell(), repr(f.read(1)), f.tell())
print(os.system('exit 3') >> 8, os.system('true'))
print(os.getuid() == os.geteuid(), isinstance(os.getppid(), int), isinstance(os.getgid(), int))
old = os.umask(0o22)
print(os.umask(old) == 0o22)
os.remove(root / 'link')
shutil.rmtree(root)
print(root.exists())

# OSError as code makes it
e = OSError(2, 'No such file')
print(e, repr(e), e.errno, e.strerror, e.filename, e.args, type(e).__name__)
e = FileNotFoundError(2, 'No such file', 'f.txt')
print(e, e.filename, e.args)
print(OSError('a'), OSError('a').errno, OSError(1, 2, 3, 4, 5, 6), PermissionError(13, 'denied'), OSError(13, 'x').__class__.__name__)
print(OSError(1, 'op', 'a', None, 'b'), OSError(99, 'other').__class__.__name__)
class E(OSError):
    def __init__(self, *args):
        super().__init__(*args)
print(E(5, 'io'), E(5, 'io').errno, E('plain').errno)
try:
    os.read(-1, 1)
except OSError as err:
    print(err, err.errno, err.args)
