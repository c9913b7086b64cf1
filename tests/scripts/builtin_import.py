# __import__ as scripts call it: the top-level package for a dotted name, the module itself with a
# fromlist, getattr on the result; CPython 3.11's errors for bad names and arguments.
m = __import__('os')
print(m.__name__, m.path.basename('/a/b.txt'))
p = __import__('os.path')
print(p.__name__)
j = __import__('os.path', fromlist=['join'])
print(j.__name__ in ('posixpath', 'os.path'), j.join('a', 'b'))
c = __import__('collections', globals(), locals(), ['OrderedDict'], 0)
print(c.OrderedDict([(1, 2)]))
t = __import__('torch.nn.functional', fromlist=['relu'])
print(t.relu(__import__('torch').tensor([-1.0, 2.0])))
print(__import__('math').sqrt(16.0), __import__('json').dumps({'a': 1}))
for args, kw in [((1,), {}), (('',), {}), (('nosuchmodule_xyz',), {}), (('os',), {'level': 1}), (('os',), {'bad': 1}),
                 ((), {})]:
    try:
        __import__(*args, **kw)
    except Exception as e:
        print(type(e).__name__, e)
