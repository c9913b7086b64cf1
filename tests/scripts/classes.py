class Animal:
    kingdom = "animalia"
    count = 0
    def __init__(self, name, sound="..."):
        self.name = name
        self.sound = sound
        Animal.count += 1
    def speak(self):
        return f"{self.name} says {self.sound}"
    def __repr__(self):
        return f"Animal({self.name!r})"
class Dog(Animal):
    def __init__(self, name):
        super().__init__(name, "woof")
        self.tricks = []
    def add_trick(self, t):
        self.tricks.append(t)
        return self
    def speak(self):
        return super().speak() + "!"
    def __str__(self):
        return "Dog " + self.name
a = Animal("cat", "meow")
d = Dog("rex")
d.add_trick("sit").add_trick("roll")
print(a.speak(), d.speak(), d.tricks, Animal.count, d.kingdom, Dog.kingdom)
print(a, d, repr(d), str(a), [a, d], {"k": d})
print(isinstance(d, Dog), isinstance(d, Animal), isinstance(a, Dog), isinstance(d, (int, Animal)), issubclass(Dog, Animal), issubclass(Animal, Dog))
print(type(d).__name__, type(d) is Dog, type(a) == Animal, Dog.__name__, Dog.__base__.__name__, isinstance(d, object))
print(hasattr(d, "tricks"), hasattr(d, "nope"), getattr(d, "name"), getattr(d, "nope", "default"))
setattr(d, "age", 3)
print(d.age, d.__class__.__name__)
del d.age
print(hasattr(d, "age"))
class Vec:
    def __init__(self, *xs):
        self.xs = list(xs)
    def __len__(self):
        return len(self.xs)
    def __getitem__(self, i):
        return self.xs[i]
    def __setitem__(self, i, v):
        self.xs[i] = v
    def __add__(self, other):
        return Vec(*[a + b for a, b in zip(self.xs, other.xs)])
    def __mul__(self, k):
        return Vec(*[a * k for a in self.xs])
    def __rmul__(self, k):
        return self * k
    def __neg__(self):
        return Vec(*[-a for a in self.xs])
    def __eq__(self, other):
        return isinstance(other, Vec) and self.xs == other.xs
    def __hash__(self):
        return hash(tuple(self.xs))
    def __lt__(self, other):
        return sum(self.xs) < sum(other.xs)
    def __contains__(self, x):
        return x in self.xs
    def __bool__(self):
        return any(self.xs)
    def __repr__(self):
        return "Vec(" + ", ".join(str(x) for x in self.xs) + ")"
v = Vec(1, 2, 3)
w = Vec(4, 5, 6)
print(len(v), v[0], v[-1], v[1:], v + w, v * 2, 3 * v, -v, v == Vec(1, 2, 3), v != w, v < w, 2 in v)
v[0] = 10
print(v, bool(Vec(0, 0)), bool(v), sorted([w, v]), max(v, w), {v: "hashable"}[Vec(10, 2, 3)])
print(list(v), [x * 2 for x in v], sum(v))
class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1
print(list(Countdown(3)), [x for x in Countdown(2)])
it = iter(Countdown(2))
print(next(it), next(it), next(it, "done"))
class Adder:
    def __init__(self, k):
        self.k = k
    def __call__(self, x):
        return x + self.k
add5 = Adder(5)
print(add5(10), list(map(add5, [1, 2])), callable(add5))
class Base:
    def hello(self):
        return "base hello from " + self.who()
    def who(self):
        return "Base"
class Mid(Base):
    def who(self):
        return "Mid"
class Leaf(Mid):
    def hello(self):
        return "leaf+" + super().hello()
print(Leaf().hello(), Mid().hello())
class Registry:
    items = []
    @staticmethod
    def helper():
        return "static-ish"
    def register(self, x):
        self.items.append(x)
r1, r2 = Registry(), Registry()
r1.register(1)
r2.register(2)
print(Registry.items, r1.items is r2.items)
class WithClassAttr:
    scale = 2
    def scaled(self, x):
        return x * self.scale
o = WithClassAttr()
print(o.scaled(3))
o.scale = 10
print(o.scaled(3), WithClassAttr.scale, WithClassAttr().scaled(3))
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
p = Point(1, 2)
p.x += 10
print(p.x, p.y, vars(p) if False else p.__dict__)
class Empty:
    pass
e = Empty()
e.anything = 1
print(e.anything, type(e).__name__, isinstance(e, Empty))
print(type(1).__name__, type(1.0).__name__, type("s").__name__, type([]).__name__, type(()).__name__, type({}).__name__, type(None).__name__, type(True).__name__, type(range(1)).__name__, type(set()).__name__)
print(isinstance(1, int), isinstance(True, int), isinstance(1, float), isinstance("s", str), isinstance([], (list, tuple)), isinstance(1.0, (int, float)), isinstance(None, object))
print(int, str, Dog, type(Dog).__name__, type(int) is type)
print(str(Animal.speak)[:22], Animal.speak(a))
