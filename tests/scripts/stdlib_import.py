# Importing the standard library: a missing module is ModuleNotFoundError as
# CPython says it; a module is made once and every import gives the same object.
for name in ["no_such_module", "no_such_module.linalg", "torch.nosuch", "torch.nn.nosuch.deeper", "no_such_plot.pyplot"]:
    try:
        if name == "no_such_module":
            import no_such_module
        elif name == "no_such_module.linalg":
            import no_such_module.linalg
        elif name == "torch.nosuch":
            import torch.nosuch
        elif name == "torch.nn.nosuch.deeper":
            import torch.nn.nosuch.deeper
        else:
            import no_such_plot.pyplot as plt
    except ModuleNotFoundError as e:
        print(type(e).__name__, e, e.name, isinstance(e, ImportError))
try:
    from no_such_module import array
except ImportError as e:
    print(type(e).__name__, e, e.name)
try:
    from no_such_pkg.core import frame
except ModuleNotFoundError as e:
    print(type(e).__name__, e)
try:
    from math import nosuch
except ImportError as e:
    print(type(e).__name__, e)
import math
import math as m2
from math import sqrt
print(math is m2, sqrt is math.sqrt, type(math).__name__, math.__name__)
math.answer = 42
import math
print(math.answer)
import random, collections
print(random.__name__, collections.OrderedDict.__name__)
