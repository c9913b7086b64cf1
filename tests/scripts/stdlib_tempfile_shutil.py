# tempfile and shutil, against CPython 3.11
import os, tempfile, shutil
print(tempfile.gettempdir(), tempfile.gettempprefix())
d = tempfile.mkdtemp(prefix='nn_', suffix='_x')
print(os.path.isdir(d), os.path.basename(d).startswith('nn_'), d.endswith('_x'), len(os.path.basename(d)))
with open(os.path.join(d, 'a.txt'), 'w') as f:
    f.write('alpha\n')
os.makedirs(os.path.join(d, 'sub', 'deeper'))
print(shutil.copy(os.path.join(d, 'a.txt'), os.path.join(d, 'sub')) == os.path.join(d, 'sub', 'a.txt'))
shutil.copyfile(os.path.join(d, 'a.txt'), os.path.join(d, 'sub', 'deeper', 'b.txt'))
shutil.copytree(os.path.join(d, 'sub'), os.path.join(d, 'copy'))
print(sorted(os.listdir(os.path.join(d, 'copy'))), open(os.path.join(d, 'copy', 'deeper', 'b.txt')).read().strip())
print(os.path.basename(shutil.move(os.path.join(d, 'a.txt'), os.path.join(d, 'c.txt'))), sorted(os.listdir(d)))
shutil.rmtree(d)
print(os.path.exists(d))
shutil.rmtree(d, ignore_errors=True)
try:
    shutil.rmtree(d)
except FileNotFoundError as e:
    print('FileNotFoundError', e.errno)
with tempfile.TemporaryDirectory() as t:
    open(os.path.join(t, 'f'), 'w').close()
    kept = t
    print(os.path.isdir(t))
print(os.path.exists(kept))
with tempfile.NamedTemporaryFile('w', suffix='.txt') as f:
    f.write('x')
    name = f.name
    print(name.endswith('.txt'), os.path.exists(name))
print(os.path.exists(name), shutil.which('sh') is not None, shutil.which('no-such-cmd-xyz'))
