# collections.OrderedDict: construction, CPython 3.11's repr, order-sensitive ==,
# move_to_end, popitem(last=...), dict's methods (copy and | keep the type),
# views, isinstance/type, and the errors CPython raises
import collections
from collections import OrderedDict
from collections import OrderedDict as OD

print(OrderedDict(), OrderedDict([("a", 1), ("b", 2)]), OrderedDict(a=1, b=2), OrderedDict({"x": 1}))
print(OrderedDict([("a", 1)], b=2), OrderedDict(OrderedDict(x=1)), OrderedDict(zip("ab", [1, 2])))
print(OrderedDict([(1, "one"), ((2, 3), None), (None, 1.5)]), OrderedDict(a=[1, 2], b={"x": OrderedDict()}))
print(OrderedDict(a=OrderedDict(b=1)), str(OrderedDict(a=1)), f"{OrderedDict(a=1)}")
print(collections.OrderedDict is OrderedDict, OD is OrderedDict, OrderedDict, repr(collections.OrderedDict))
print(OrderedDict.__name__, OrderedDict.__module__, type(OrderedDict()) is OrderedDict, type(OrderedDict()).__name__)
print(isinstance(OrderedDict(), dict), isinstance(OrderedDict(), OrderedDict), isinstance({}, OrderedDict), issubclass(OrderedDict, dict))

# == compares the order between two OrderedDicts, not with a dict
d = OrderedDict(a=1, b=2)
print(d == OrderedDict(b=2, a=1), d != OrderedDict(b=2, a=1), d == {"b": 2, "a": 1}, {"b": 2, "a": 1} == d)
print(d == OrderedDict(a=1, b=2), OrderedDict(a=1) == OrderedDict(a=1.0), d == OrderedDict(a=1, b=3))

# move_to_end and popitem
d = OrderedDict(a=1, b=2, c=3)
d.move_to_end("a")
print(d)
d.move_to_end("a", last=False)
print(d)
d.move_to_end("b", False)
print(d)
d.move_to_end(key="c", last=True)
print(d)
print(d.popitem(), d.popitem(last=False), d, d.popitem(False), d)

# dict's methods
d = OrderedDict(z=0, a=1)
print(d.setdefault("m", 9), d.setdefault("a", 5), d.pop("z"), d.pop("q", None), d.get("a"), d.get("q"), len(d), "m" in d)
d["b"] = 2
d["a"] = 10
print(d, list(d), [k for k in d], {**d})
del d["m"]
print(d, d["b"])
print(d.keys(), d.values(), d.items(), list(d.keys()), list(d.items()))
for k, v in d.items():
    print(k, v)
d.update([("c", 3)], e=5)
d.update({"f": 6})
print(d)
c = d.copy()
c.move_to_end("a")
print(type(c).__name__, c, d == c, dict(d) == dict(c), type(dict(c)).__name__, dict(c))
print(repr({"b": 2} | OrderedDict(a=1)), repr(OrderedDict(a=1) | {"b": 2}), type({"x": 1} | {"y": 2}).__name__)
x = OrderedDict(a=1)
x |= {"c": 3}
print(x, sorted(OrderedDict(b=1, a=2)), bool(OrderedDict()), bool(x))
x.clear()
print(x, len(x))

# containers that contain themselves print as CPython's ..., [...], {...}
o = OrderedDict()
o["self"] = o
l = [1]
l.append(l)
d = {"l": l}
d["d"] = d
print(o, l, d, OrderedDict(a=[o]), [o, o])
o.clear()  # nnscope collects no reference cycles: break them
l.pop()
d.clear()

# errors
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

attempt(lambda: OrderedDict(1))
attempt(lambda: OrderedDict([(1, 2)], [3]))
attempt(lambda: OrderedDict([[1, 2, 3]]))
attempt(lambda: OrderedDict([(1,)]))
attempt(lambda: OrderedDict([[]]))
attempt(lambda: OrderedDict(a=1).update([[1, 2, 3]]))
attempt(lambda: dict([[1, 2, 3]]))
attempt(lambda: OrderedDict([[[], 1]]))
attempt(lambda: OrderedDict(None))
attempt(lambda: OrderedDict(a=1).move_to_end("zz"))
attempt(lambda: OrderedDict(a=1).move_to_end())
attempt(lambda: OrderedDict(a=1).move_to_end([]))
attempt(lambda: OrderedDict(a=1).move_to_end("a", x=1))
attempt(lambda: OrderedDict(a=1).move_to_end("a", True, last=1))
attempt(lambda: OrderedDict().popitem())
attempt(lambda: OrderedDict(a=1).popitem(1, 2))
attempt(lambda: OrderedDict(a=1).popitem(x=1))
attempt(lambda: {}.popitem())
attempt(lambda: OrderedDict(a=1)["missing"])
attempt(lambda: hash(OrderedDict()))
attempt(lambda: {OrderedDict(): 1})
d = OrderedDict(a=1, b=2)
attempt(lambda: d.move_to_end("zz"))
print(d)
