# Found while hardening (issue 22): exception classes refuse keyword arguments as
# CPython's BaseException.__init__ does (ImportError takes name= and path=), and
# those fields stay out of __dict__; min()/max() take items one at a time (a range
# or a generator is never made into a list first); factories accept zero-size
# shapes whose other dims are huge, with PyTorch's overflow check and strides.
import torch

for cls in (ValueError, Exception, RuntimeError, KeyError, StopIteration, OSError, SystemExit, UnicodeError,
            BaseException, ModuleNotFoundError):
    try:
        cls(x=1)
        print(cls.__name__, "accepted")
    except TypeError as e:
        print(cls.__name__, "TypeError:", e)
for kwargs in ({"name": "n", "path": "p", "x": 1}, {"x": 1}, {"name": "n"}):
    try:
        e = ImportError("m", **kwargs)
        print(e, e.args, e.name, e.path, vars(e))
    except TypeError as err:
        print("TypeError:", err)
print(vars(OSError(2, "No such file", "f.txt")), vars(SyntaxError("m", ("f", 1, 2, "t"))))


class AppError(Exception):
    def __init__(self, msg, code=0):
        super().__init__(msg)
        self.code = code


e = AppError("bad", code=3)
print(e, e.code, e.args, vars(e))
try:
    import no_such_module_here
except ImportError as err:
    print(type(err).__name__, err.name, err.path)
try:
    from os import no_such_name
except ImportError as err:
    print(type(err).__name__, err.name, str(err).split(" (")[0])


def noisy(n):
    for i in range(n):
        print("yield", i)
        yield (i * 7) % 5


def key(v):
    print("key", v)
    return -v


print(max(noisy(4), key=key))
print(min(noisy(3)))
print(max(range(10**12, 10**12 + 5)), min(range(10**15, 10**15 - 9, -3)), max("hello"), min(3, 1, 2))
print(max([], default="empty"), min(iter(()), default=None), max([1, 1.0, True]), max([[1, 2], [1, 3]]))
for call in ("max()", "max([])", "max(1)", "max(1, 2, default=3)", "max([1], foo=2)", "max([1, 'a'])",
             "min([1, 2], key=5)"):
    try:
        print(eval(call))
    except Exception as err:
        print(call, type(err).__name__, err)

for shape in ((2**62, 0), (0, 2**62), (2**62, 0, 2**62), (0, 2**62, 2**62), (3, 0, 2**62, 2**62),
              (2**62, 2**62, 0), (2**61, 4), (2**62, 4)):
    try:
        t = torch.empty(*shape)
        print(shape, t.shape, t.stride(), t.numel(), t.sum())
    except RuntimeError as err:
        print(shape, "RuntimeError:", err)
x = torch.randn(2**62, 0)
print(x.shape, x.t().shape, x.sum(), x.mean(0).shape)
for shape, dim in [((2**62, 0), 0), ((2**62, 3, 0), 1), ((0, 2**62, 2**62), 1), ((3, 0), 1), ((0, 3), 0)]:
    x = torch.empty(*shape)
    print(shape, dim, x.sum(dim).shape, x.mean(dim).shape, x.sum(), x.var(), x.prod(dim).shape, x.std())
