# A user class's __getattribute__, as CPython 3.11 calls it: for every attribute lookup on its
# instances (methods included), with object.__getattribute__ / super().__getattribute__ as the
# fallback and __getattr__ when it raises AttributeError; implicit special-method lookups
# (len(x), x + y, print(x), with, x()) go to the class and never call it.
class Tracer:
    def __init__(self):
        self.x = 1
    def m(self):
        return 'm'
    def __getattribute__(self, name):
        print('ga', name)
        return object.__getattribute__(self, name)
t = Tracer()
print(t.x, t.m())
class Fallback:
    y = 5
    def __getattribute__(self, name):
        if name.startswith('hidden'):
            raise AttributeError(name)
        return super().__getattribute__(name)
    def __getattr__(self, name):
        return 'getattr:' + name
f = Fallback()
print(f.y, f.hidden_a, f.other)
print(getattr(f, 'hidden_b'), hasattr(f, 'zzz'))
class P:
    @property
    def p(self):
        raise AttributeError('inner')
    def __getattr__(self, name):
        return 'fallback ' + name
print(P().p)
class Sub(Tracer):
    pass
s = Sub()
print(s.x)
class Late:
    a = 1
l = Late()
print(l.a)
def ga(self, name):
    return 'late ' + name
Late.__getattribute__ = ga
print(l.a, l.b)
class E:
    def __getattribute__(self, name):
        raise KeyError(name)
    def __getattr__(self, name):
        return 1
try:
    E().q
except KeyError as e:
    print('KeyError', e)
class NoGA:
    def __getattribute__(self, name):
        raise AttributeError('no ' + name)
try:
    NoGA().zz
except AttributeError as e:
    print('AE', e)
print(object.__getattribute__(t, 'x'))
class T:
    def __init__(self):
        self.items = [1, 2]
    def __getattribute__(self, name):
        print('ga', name)
        return object.__getattribute__(self, name)
    def __len__(self):
        return 2
    def __repr__(self):
        return 'T()'
    def __iter__(self):
        return iter([1, 2])
    def __add__(self, o):
        return 3
    def __eq__(self, o):
        return True
    def __hash__(self):
        return 1
    def __bool__(self):
        return True
    def __enter__(self):
        return self
    def __exit__(self, *a):
        return False
    def __getitem__(self, k):
        return k
    def __call__(self):
        return 'called'
    def __contains__(self, x):
        return True
t = T()
print(t)
print(len(t), list(t), t + 1, t == 1, hash(t), bool(t), t[3], t(), 2 in t, str(t), repr(t), f'{t}')
with t as u:
    pass
print(t.items, vars(t), t.__class__, t.__dict__)
print(isinstance(t, T), type(t).__name__)
