# the types module (repl/lib/), against CPython 3.11
import types
from types import SimpleNamespace
ns = SimpleNamespace(lr=0.1, epochs=3, name='run')
print(ns, ns.lr, vars(ns))
ns.batch = 32; print(ns)
print(SimpleNamespace(a=1) == SimpleNamespace(a=1), SimpleNamespace(a=1) == SimpleNamespace(a=2))
cfg = SimpleNamespace(**{'x': 1, 'y': [1, 2]}); print(cfg.y, getattr(cfg, 'z', 'none'), hasattr(cfg, 'x'))
def f(): pass
print(isinstance(f, types.FunctionType), isinstance(lambda: 0, types.LambdaType), isinstance((x for x in []), types.GeneratorType))
try:
    SimpleNamespace({"a": 1})
except TypeError as e:
    print("TypeError", e)
import math; print(isinstance(math, types.ModuleType))
