# glob and fnmatch, against CPython 3.11
import os, glob, fnmatch
base = '/tmp/nnscope_glob_test'
for d in ['', 'a', 'a/b', 'c']:
    os.makedirs(os.path.join(base, d), exist_ok=True)
for f in ['x.py', 'y.txt', '.hidden.py', 'a/z.py', 'a/b/w.py', 'c/v.txt']:
    with open(os.path.join(base, f), 'w') as fh:
        fh.write(f)
rel = lambda ps: sorted(os.path.relpath(p, base) if p.startswith('/') else p for p in ps)
print(rel(glob.glob(base + '/*.py')), rel(glob.glob(base + '/*')), rel(glob.glob(base + '/*/*.py')))
print(rel(glob.glob(base + '/**/*.py', recursive=True)), rel(glob.glob(base + '/[ab]*')), glob.glob(base + '/nothing*'))
print(rel(glob.glob(base + '/x.py')), glob.has_magic('a*'), glob.escape('a*b?[c]'))
print(fnmatch.fnmatch('data.csv', '*.csv'), fnmatch.fnmatch('a.txt', '?.[!p]*'), fnmatch.filter(['a.py', 'b.txt', 'c.py'], '*.py'), fnmatch.translate('*.py'))
print(sorted(os.path.basename(p) for p in glob.iglob(base + '/c/*')))
