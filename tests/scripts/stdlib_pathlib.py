# the pathlib module(s), against CPython 3.11
from pathlib import Path, PurePath, PurePosixPath
import os
p = Path('data//train/./images') / 'cat.tar.gz'
print(p, repr(p), p.name, p.stem, p.suffix, p.suffixes, p.parent, p.parts, p.parent.parent.name)
print(Path(''), Path('/'), Path('/a') / '/b', 'x' / Path('y'), Path('a', 'b', 'c.txt').with_suffix('.csv'), Path('a/b.txt').with_name('c.py'), Path('a/b.txt').with_stem('z'))
print(Path('/a/b/c').relative_to('/a'), list(Path('/a/b/c').parents), Path('a/b').is_absolute(), Path('/x').is_absolute(), Path('a.txt').suffix, Path('.bashrc').suffix, Path('.bashrc').stem)
print(Path('a') == Path('a/'), Path('a') == 'a', sorted([Path('b'), Path('a/c'), Path('a')]), PurePosixPath('x/y'), Path('x/y.py').match('*.py'), Path('/x/y.py').match('x/*.py'))
base = Path('/tmp/nnscope_pathlib_test')
d = base / 'sub' / 'deep'
d.mkdir(parents=True, exist_ok=True)
f = d / 'note.txt'
print(f.write_text('hello\n'), f.read_text(), f.exists(), f.is_file(), d.is_dir(), (base / 'nope').exists())
(d / 'b.txt').touch()
print(sorted(q.name for q in d.iterdir()), sorted(q.name for q in base.glob('**/*.txt')), sorted(str(q.relative_to(base)) for q in base.rglob('*.txt')))
with f.open() as fh:
    print(fh.read().strip())
f.unlink(); (d / 'b.txt').unlink(); (d / 'gone').unlink(missing_ok=True); d.rmdir()
print(d.exists(), d.parent.exists(), Path.cwd() == Path(os.getcwd()), str(Path('~').expanduser()) == os.path.expanduser('~'))
try:
    Path('a').with_suffix('txt')
except ValueError as e:
    print('ValueError', e)
try:
    Path('/a/b').relative_to('/c')
except ValueError as e:
    print('ValueError', e)
print(type(Path('x')).__name__, isinstance(Path('x'), PurePath), Path('x').absolute().is_absolute(), Path('/usr/bin/../lib').resolve() == Path(os.path.realpath('/usr/bin/../lib')))
