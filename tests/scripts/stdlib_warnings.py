# The warnings module as CPython 3.11's (stdout only: what shows on stderr is
# compared through catch_warnings(record=True) and a replaced showwarning), and
# core's warnings (PyTorch's TORCH_WARN) going through the same filters.
import warnings
import torch
import torch.nn as nn

print(issubclass(UserWarning, Warning), issubclass(FutureWarning, Warning), issubclass(Warning, Exception))
print(UserWarning.__mro__)
print([c.__name__ for c in (Warning, UserWarning, DeprecationWarning, PendingDeprecationWarning, SyntaxWarning,
                            RuntimeWarning, FutureWarning, ImportWarning, UnicodeWarning, BytesWarning,
                            ResourceWarning, EncodingWarning) if issubclass(c, Warning)])


def f():
    warnings.warn("careful")


def g():
    warnings.warn("from the caller", stacklevel=2)


with warnings.catch_warnings(record=True) as w:
    for i in range(3):
        f()  # "default": once per place
    g()
    warnings.warn("depr", DeprecationWarning)  # shown in __main__
    warnings.warn(UserWarning("an instance"))
    print(len(w), [str(x.message) for x in w], [x.category.__name__ for x in w], [x.lineno for x in w])
    print(str(w[0]).replace(w[0].filename, 'FILE'))
    print(type(w[0].message).__name__, w[0].filename.endswith("stdlib_warnings.py"), w[0].line)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    f()
    f()
    warnings.simplefilter("once")
    f()
    f()
    print(len(w))

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    warnings.filterwarnings("ignore", message="car")  # a regular expression matched at the start
    warnings.filterwarnings("ignore", message="CAREFUL", category=FutureWarning)  # no: another category
    f()
    warnings.warn("careful", FutureWarning)
    warnings.warn("Careful too", FutureWarning)
    print([(str(x.message), x.category.__name__) for x in w])

with warnings.catch_warnings():
    warnings.filterwarnings("error", category=RuntimeWarning)
    try:
        warnings.warn("boom", RuntimeWarning)
    except RuntimeWarning as e:
        print("raised", repr(e))
    print(warnings.filters[0])


def show(message, category, filename, lineno, file=None, line=None):
    print("SHOW", message, category.__name__, filename.endswith(".py"), lineno, line)


saved = warnings.showwarning
warnings.showwarning = show
warnings.simplefilter("always")
warnings.warn("custom")
warnings.showwarning = saved
print(warnings.formatwarning("m", UserWarning, "f.py", 3, "  x = 1  "), end="")
print(warnings.formatwarning("m", UserWarning, "f.py", 3), end="")
for bad in (int, "UserWarning"):
    try:
        warnings.warn("x", bad)
    except TypeError as e:
        print(e)
try:
    warnings.simplefilter("sometimes")
except AssertionError as e:
    print("AssertionError:", e)
print(repr(warnings.catch_warnings(record=True)))

# core's warnings: recorded, ignored or raised as the filters say
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    nn.init.kaiming_uniform_(torch.empty(0, 3))
    lazy = nn.LazyLinear(2)
    print([str(x.message)[:40] for x in w], [x.category.__name__ for x in w])
with warnings.catch_warnings(record=True) as w:
    warnings.filterwarnings("ignore")
    nn.init.kaiming_uniform_(torch.empty(0, 3))
    print(len(w))
with warnings.catch_warnings():
    warnings.simplefilter("error")
    try:
        nn.init.kaiming_uniform_(torch.empty(0, 3))
    except UserWarning as e:
        print("as an error:", e)
warnings.resetwarnings()
print(warnings.filters)
warnings.filterwarnings("ignore", message="spam", module="__main__")
print(warnings.filters[0])
warnings.resetwarnings()
