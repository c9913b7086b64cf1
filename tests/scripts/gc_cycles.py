# The cycle collector (import gc): collect() frees reference cycles and counts
# them; automatic collection by allocation thresholds; enable/disable; the
# thresholds; errors with CPython's messages. Only counts that CPython 3.11
# gives the same are printed as numbers (lists, dicts and instances in cycles);
# for modules and closures, whose objects CPython counts differently, the
# script prints whether something was found.
import gc
import torch
import torch.nn as nn

gc.collect()
print(gc.get_threshold(), gc.isenabled())

a = []
a.append(a)
del a
print("list cycle:", gc.collect())

d = {}
d["self"] = d
del d
print("dict cycle:", gc.collect())

l = [1, 2]
d = {"l": l}
l.append(d)
del l, d
print("list <-> dict:", gc.collect())


class Node:
    def __init__(self, name):
        self.name = name
        self.other = None


a = Node("a")
a.other = a
del a
print("instance cycle:", gc.collect())

a, b = Node("a"), Node("b")
a.other, b.other = b, a
del a, b
print("two instances:", gc.collect())

keep = Node("kept")
keep.other = keep
print("reachable cycle:", gc.collect(), keep.other.name)
del keep
print("after del:", gc.collect())
print("nothing left:", gc.collect())


def make_closure():
    def inner():
        return inner
    return inner


f = make_closure()
del f
print("closure cycle found:", gc.collect() > 0)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)
        self.handle = self.register_forward_hook(self.hook)
        self.calls = 0

    def hook(self, module, inp, out):
        self.calls += 1

    def forward(self, x):
        return self.lin(x)


m = Model()
y = m(torch.ones(2, 4))
print(m.calls, tuple(y.shape))
del m, y
print("forward-hook model found:", gc.collect() > 0)
print("nothing left:", gc.collect())

# disabled: nothing is collected until collect() is called
gc.disable()
print(gc.isenabled())
for i in range(1000):
    a = []
    a.append(a)
del a
print("while disabled:", gc.collect())
gc.enable()

# enabled: the threshold collects most of them on the way
for i in range(10000):
    a = []
    a.append(a)
del a
print("automatic collection kept up:", gc.collect() < 1000)

gc.set_threshold(500, 5)
print(gc.get_threshold())
gc.set_threshold(700, 10, 10)
print(gc.get_threshold())
print(gc.collect(0), gc.collect(1), gc.collect(generation=2))

bad_calls = [
    ("collect(3)", lambda: gc.collect(3)),
    ("collect(-1)", lambda: gc.collect(-1)),
    ("collect('a')", lambda: gc.collect("a")),
    ("set_threshold()", lambda: gc.set_threshold()),
    ("set_threshold(1, 2, 3, 4)", lambda: gc.set_threshold(1, 2, 3, 4)),
    ("set_threshold('a')", lambda: gc.set_threshold("a")),
    ("get_count(1)", lambda: gc.get_count(1)),
    ("enable(1)", lambda: gc.enable(1)),
    ("get_objects(3)", lambda: gc.get_objects(3)),
    ("is_tracked()", lambda: gc.is_tracked()),
    ("collect(x=1)", lambda: gc.collect(x=1)),
]
for text, call in bad_calls:
    try:
        call()
    except Exception as e:
        print(text, "->", type(e).__name__, e)
print(gc.get_threshold(), gc.isenabled())
print(gc.is_tracked(1), gc.is_tracked([]), gc.is_tracked(Node("x")), gc.is_tracked("s"))
print(type(gc.get_objects()).__name__, len(gc.get_count()))
