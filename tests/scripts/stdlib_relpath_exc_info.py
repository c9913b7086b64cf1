# os.path.relpath, normcase and sys.exc_info, against CPython 3.11
import os, sys
for p, s in [('/a/b/c', '/a'), ('/a/b', '/a/b'), ('/a/x', '/a/b/c'), ('/ab/c', '/a'), ('x/y', '.'), ('/', '/a/b'), ('/a', '/')]:
    print(repr(os.path.relpath(p, s)))
print(os.path.relpath(os.getcwd()), os.path.normcase('A/b'))
try:
    os.path.relpath('')
except ValueError as e:
    print('ValueError', e)
print(sys.exc_info())
try:
    raise KeyError('k')
except KeyError:
    t, v, tb = sys.exc_info()
    print(t, repr(v), type(tb).__name__, tb.tb_lineno)
