# inspect as CPython 3.11's: signature() of defs, lambdas, methods, classes, partials and
# torch classes (nanoGPT tests 'fused' in inspect.signature(torch.optim.AdamW).parameters),
# Parameter/Signature reprs and kinds, bind/bind_partial/apply_defaults, getfullargspec,
# the is* predicates, getmembers, cleandoc/getdoc, unwrap; CPython's errors.
import functools
import inspect
import torch


def f(a, /, b: int = 2, *args, c, d=4, **kw) -> str:
    pass


s = inspect.signature(f)
print(repr(s))
print(s)
print(s.parameters)
p = s.parameters['b']
print(repr(p.kind), p.kind, p.kind.description, p.name, p.default, p.annotation)
print(inspect.Parameter.empty, s.return_annotation, s.parameters['a'].default is inspect.Parameter.empty)
print([str(q.kind) for q in s.parameters.values()])
b = s.bind(1, c=3)
print(b, b.arguments, b.args, b.kwargs)
b.apply_defaults()
print(b)
print(s.bind(1, 2, 3, 4, c=5, z=6))
print(s.bind_partial(1))
for args, kwargs in [((1, 2), {}), ((), {'a': 1, 'c': 2}), ((1,), {'c': 2, 'b': 3, 'e': 1})]:
    try:
        print(s.bind(*args, **kwargs))
    except TypeError as e:
        print('TypeError:', e)
print(inspect.getfullargspec(f))
print(repr(inspect.signature(lambda x, y=[1]: 0).parameters['y']))
print(inspect.signature(lambda: 0), inspect.signature(lambda *a, **k: 0))
print('fused' in inspect.signature(torch.optim.AdamW).parameters)
print(list(inspect.signature(torch.optim.AdamW).parameters)[:4])


class A:
    """A class.

        Indented more.
    """

    def __init__(self, x, y=1):
        self.x = x

    def m(self, z, *, w=None):
        return z

    @staticmethod
    def st(q):
        return q

    @classmethod
    def cm(cls, r=3):
        return r

    def __call__(self, t):
        return t


print(inspect.signature(A), inspect.signature(A(1).m), inspect.signature(A.m))
print(inspect.signature(A.st), inspect.signature(A.cm), inspect.signature(A(1)))
print(inspect.signature(functools.partial(f, 1, d=5)))


def deco(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


@deco
def g(u, v=2):
    yield u


print(inspect.signature(g), inspect.signature(g, follow_wrapped=False), inspect.unwrap(g).__name__)
print(inspect.isgeneratorfunction(inspect.unwrap(g)), inspect.isgeneratorfunction(f), inspect.isgenerator(inspect.unwrap(g)(1)))
print(inspect.isclass(A), inspect.isclass(A(1)), inspect.isfunction(f), inspect.isfunction(A(1).m), inspect.ismethod(A(1).m))
print(inspect.ismodule(torch), inspect.isbuiltin(len), inspect.isroutine(f), inspect.isroutine(3))
print(inspect.getdoc(A))
print(repr(inspect.cleandoc('''  first
        second
          third

''')))
print([n for n, _ in inspect.getmembers(A, inspect.isfunction)])
print(inspect.getmro(A) == A.__mro__)
sig = inspect.Signature([inspect.Parameter('x', inspect.Parameter.POSITIONAL_OR_KEYWORD, default=0),
                         inspect.Parameter('k', inspect.Parameter.KEYWORD_ONLY)], return_annotation=int)
print(sig, sig.replace(return_annotation=inspect.Signature.empty), sig == inspect.signature(lambda x=0, *, k: 0))
print(inspect.Parameter('x', inspect.Parameter.POSITIONAL_ONLY).replace(name='y'))
for bad in [lambda: inspect.signature(3),
            lambda: inspect.Parameter('1x', inspect.Parameter.POSITIONAL_ONLY),
            lambda: inspect.Parameter('x', inspect.Parameter.VAR_POSITIONAL, default=1),
            lambda: inspect.Signature([inspect.Parameter('k', inspect.Parameter.KEYWORD_ONLY),
                                       inspect.Parameter('x', inspect.Parameter.POSITIONAL_OR_KEYWORD)])]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ':', e)
