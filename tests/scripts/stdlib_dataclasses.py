# dataclasses: @dataclass with defaults, field(default_factory=...), repr/eq/order/frozen, asdict/astuple/replace; plain instances compare by identity
from dataclasses import dataclass, field, FrozenInstanceError, asdict, astuple, fields, replace, is_dataclass
import dataclasses
from typing import List, Optional

@dataclass
class Config:
    lr: float = 1e-3
    epochs: int = 10
    layers: List[int] = field(default_factory=lambda: [64, 32])
    name: Optional[str] = None

c = Config()
print(c, c.lr, c.layers, Config(0.1, 3), Config(epochs=5, name='x'))
print(c == Config(), c == Config(lr=0.5), c != Config(lr=0.5), asdict(c), astuple(c))
print([f.name for f in fields(Config)], is_dataclass(c), is_dataclass(Config), is_dataclass(3))
print(replace(c, epochs=99), c.epochs)
c.epochs = 7; print(c)

@dataclass
class P:
    x: int
    y: int = 0
    tags: list = field(default_factory=list)
p = P(1)
p.tags.append('a'); print(p, P(1).tags)
for f in [lambda: P(), lambda: P(1, 2, [], 4), lambda: P(1, z=3), lambda: P(1, x=2)]:
    try:
        f()
    except TypeError as e:
        print('TypeError', e)
try:
    @dataclass
    class Q:
        a: int = 1
        b: int
except TypeError as e:
    print('TypeError', e)
try:
    @dataclass
    class R:
        a: list = []
except ValueError as e:
    print('ValueError', e)

@dataclass(frozen=True)
class F:
    a: int
    b: str = 'z'
f = F(1)
try:
    f.a = 2
except FrozenInstanceError as e:
    print('FrozenInstanceError', e, isinstance(e, AttributeError))
print(f, hash(f) == hash((1, 'z')), {f: 1}[F(1)])

@dataclass(order=True)
class V:
    major: int
    minor: int = 0
print(sorted([V(2, 1), V(1, 5), V(2, 0)]), V(1) < V(2), V(3) >= V(3, 1))

@dataclass
class WithPost:
    a: int
    b: int = field(init=False)
    def __post_init__(self):
        self.b = self.a * 2
print(WithPost(4))

@dataclass
class Base:
    x: int
@dataclass
class Child(Base):
    y: int = 5
print(Child(1), Child(1, 2), [f.name for f in fields(Child)])

@dataclass
class Nested:
    p: P
    items: list
n = Nested(P(1, 2), [P(3)])
print(asdict(n), astuple(n))

@dataclass
class R2:
    x: int
    hidden: int = field(default=0, repr=False, compare=False)
print(R2(1, 2), R2(1, 2) == R2(1, 3))

@dataclass(eq=False)
class NoEq:
    x: int
a = NoEq(1)
print(a == NoEq(1), a == a)

class Plain:
    pass
try:
    fields(Plain)
except TypeError as e:
    print('TypeError', e)
try:
    asdict(Config)
except TypeError as e:
    print('TypeError', e)
print(dataclasses.MISSING is dataclasses.MISSING)
try:
    dataclasses.nosuch
except AttributeError as e:
    print('AttributeError', e)
