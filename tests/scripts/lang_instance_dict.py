# x.__dict__ changed in place writes back to the instance (update, item set/del, pop, setdefault, clear), bypassing __setattr__, against CPython 3.11
class Config:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)
    def __repr__(self):
        return 'Config(' + ', '.join('%s=%r' % kv for kv in self.__dict__.items()) + ')'
c = Config(lr=0.1, epochs=3)
print(c.lr, c.epochs, vars(c), c)
c.__dict__['batch'] = 32
print(c.batch, hasattr(c, 'batch'))
del c.__dict__['epochs']
print(hasattr(c, 'epochs'), c)
print(c.__dict__.pop('lr'), hasattr(c, 'lr'), c.__dict__.setdefault('seed', 0), c.seed, c.__dict__.get('zz', 'd'))
class Frozen:
    def __setattr__(self, k, v):
        raise AttributeError('frozen')
fz = Frozen()
fz.__dict__['x'] = 1
fz.__dict__.update(y=2)
print(fz.x, fz.y)
c.__dict__.clear(); print(vars(c))
try:
    del c.__dict__['nope']
except KeyError as e:
    print('KeyError', e)
class Slots:
    pass
s = Slots(); s.__dict__.update({'a': 1}, b=2); print(s.a, s.b, sorted(vars(s)))
