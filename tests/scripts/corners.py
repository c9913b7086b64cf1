# odd corners
print([1, 2, 3][-1:-4:-1], "abc"[::-1], list(range(10))[-3:])
def f(*, a=1):
    return a
print(f(), f(a=2))
x = [1, 2]
x[len(x):] = [3]
print(x)
class A:
    def __init__(self):
        self.items = {}
    def __getitem__(self, k):
        return self.items.get(k, 0)
    def __setitem__(self, k, v):
        self.items[k] = v
a = A()
a["z"] += 5
print(a["z"])
print(isinstance(a, A), A.__name__, type(a))
print({1: 'a'} == {1: 'a'}, [x for x in "ab" for _ in range(2)])
print(sorted([3, 1, 2], key=lambda v: (v % 2, v)))
print("%5s|%-5s|" % ("ab", "cd"), "%03d" % 7, "%+.1f" % 2.25)
print(f"{'x'!r:>5}", f"{3:{'>'}{5}}", "{:{}}".format(7, 4))
t = 1,
print(t, (1, 2) + (3,), 3 in (1, 2, 3))
e = None
try:
    raise ValueError("boom")
except ValueError as err:
    e = err
print(repr(e), e.args[0])
print(max("abc"), min([3, 1], default=0), round(-0.0), -0.0, 0.0 == -0.0)
print(1e16, 1.5e16, 123456789012345678.0, 1e-4, 0.0001234, float("1e500"))
print(str(2 ** 0.5), 10 / 3, 2 / 3 * 3, 1 / 7)
class Temp:
    unit = "C"
    def __init__(self, c):
        self._c = c
    @property
    def c(self):
        return self._c
    @c.setter
    def c(self, v):
        self._c = max(v, -273)
    @classmethod
    def freezing(cls):
        return cls(0)
    @staticmethod
    def convert(c):
        return c * 9 / 5 + 32
t = Temp(20)
t.c = -300
print(t.c, Temp.freezing().c, Temp.convert(100), t.convert(0), Temp.unit)
try:
    class Frozen:
        @property
        def v(self):
            return 1
    Frozen().v = 2
except AttributeError as e:
    print("AttributeError", e)
def counter_gen():
    total = 0
    def add(n):
        nonlocal total
        total += n
        return total
    return add
acc = counter_gen()
print([acc(i) for i in range(5)])
print(sorted({"b": 2, "a": 1}.items(), key=lambda kv: kv[1], reverse=True))
print("%s is %d years" % ("x", 3), "%-6.2f|" % 3.14159, "%5.1e" % 12345.0)
