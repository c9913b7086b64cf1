# enum as CPython 3.11: IntEnum/IntFlag members ARE ints, Flag combinations, auto, StrEnum, the functional API, repr/str/format, re.RegexFlag's repr
import enum, json
from enum import Enum, IntEnum, IntFlag, Flag, auto, unique
class Level(IntEnum):
    LOW = 1
    HIGH = 2
print(isinstance(Level.LOW, int), Level.LOW + 1, Level.HIGH * 3, Level.LOW | 2)
print(repr(Level.LOW), str(Level.LOW), f"{Level.HIGH}", format(Level.LOW, '03d'), '%d' % Level.HIGH)
print(json.dumps({'a': Level.HIGH}), json.dumps([Level.LOW]))
print([10, 20, 30][Level.HIGH], Level(2), Level['LOW'], Level.LOW == 1, hash(Level.LOW) == hash(1))
print(sorted([Level.HIGH, Level.LOW]), max(Level), list(Level), len(Level))
print(type(Level.LOW), Level.LOW.name, Level.LOW.value, Level.__mro__)
class Perm(Flag):
    R = 4
    W = 2
    X = 1
rw = Perm.R | Perm.W
print(repr(rw), str(rw), Perm.R in rw, Perm.X in rw, rw & Perm.R, repr(~Perm.R), list(rw), bool(Perm.R & Perm.X))
print(repr(Perm(0)), list(Perm), len(Perm), rw.value, rw.name)
class Color(Flag):
    RED = auto()
    GREEN = auto()
    BLUE = auto()
print(list(Color), Color.RED | Color.BLUE, repr(Color.RED | Color.BLUE))
class P(IntFlag):
    R = 4
    W = 2
    X = 1
print(repr(P.R | P.W), str(P.R | P.W), P.R | 8, isinstance(P.R, int), P.R + 1, repr(~P.R), P(7), repr(P(7)))
A = Enum('A', 'X Y Z')
print(list(A), A.X.value, repr(A.Y))
B = Enum('B', ['P', 'Q'])
print(list(B))
C = IntEnum('C', 'ONE TWO')
print(C.TWO + 1, repr(C.ONE))
D = Enum('D', {'a': 'x', 'b': 'y'})
print(list(D))
try:
    @unique
    class U(Enum):
        A = 1
        B = 1
except ValueError as e:
    print(e)
class S(enum.StrEnum):
    A = 'a'
    B = auto()
print(repr(S.A), str(S.B), S.A == 'a')
class Num(Enum):
    ONE = 1
print(repr(Num.ONE), str(Num.ONE), f"{Num.ONE}")
print(Level.__members__)
import pickle, copy
class Level(IntEnum):
    LOW = 1
    HIGH = 2
class F(Flag):
    A = 1
    B = 2
    C = 4
class P(IntFlag):
    R = 4
    W = 2
    X = 1
print(repr(P(12)), P(12).name, repr(P(0)), str(P(0)), str(F(0)), repr(F(0)), F(0).name, bool(F(0)), repr(~F.A), repr(~(F.A | F.B | F.C)), repr(~P.R), repr(P(-1)))
print(repr(F(8)), repr(F(9)), repr(F(9) | F.B), repr(P(9)), repr(~P(9)), list(P(9)), list(F.A | F.C), len(P.R | P.W))
print(F.A | F.B == F(3), format(F.A), format(P.R), f'{P.R | P.W}', repr(P.R ^ P.W), repr(F.A ^ F.B), repr(F), repr(P))
print(list(range(Level.HIGH)), 'ab' * Level.HIGH, divmod(Level.HIGH, 2), Level.HIGH // 2, Level.HIGH / 4, -Level.LOW, abs(Level.LOW), Level.LOW << 3)
print(pickle.loads(pickle.dumps(Level.HIGH)) is Level.HIGH, copy.copy(F.A) is F.A, copy.deepcopy(Level.LOW) is Level.LOW)
print(int(Level.HIGH), float(Level.HIGH), str(Level.HIGH), '{:>4}|{}'.format(Level.HIGH, Level.LOW), '%s %r' % (Level.LOW, Level.LOW))
print(isinstance(P.R, int), isinstance(F.A, int), isinstance(Level.LOW, Enum), issubclass(IntEnum, int), issubclass(IntFlag, Flag))
print({Level.LOW: 'a'}[1], {1: 'a'}[Level.LOW], Level.LOW in [1, 2], 2 in {Level.HIGH})
class Shape(Enum):
    CIRCLE = auto()
    SQUARE = auto()
    def area(self, r):
        return 3 * r * r if self is Shape.CIRCLE else r * r
print([s.area(2) for s in Shape], Shape.SQUARE.value, type(Shape).__name__)
Animal = Enum('Animal', 'ANT BEE CAT', start=10)
print(list(Animal), Animal.BEE.value, Animal(12), Animal['ANT'], type(Animal.ANT))
Color = Flag('Color', 'RED GREEN BLUE')
print(list(Color), Color.RED | Color.BLUE)
T = Enum('T', [('X', 5), ('Y', 7)])
print(list(T), T(7))
try:
    F.A | 1
except TypeError as e:
    print('TypeError', e)
try:
    Level(9)
except ValueError as e:
    print('ValueError', e)
try:
    1 in F.A
except TypeError as e:
    print('TypeError', e)
import re
print(type(re.I), repr(re.I), re.I | re.M, type(re.I).__name__, isinstance(re.I, int))
