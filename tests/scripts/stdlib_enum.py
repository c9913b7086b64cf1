# enum: Enum (aliases, methods, lookup by value and name, iteration, len, in, __members__), auto, IntEnum, unique, members with __init__, through a metaclass's methods, against CPython 3.11
from enum import Enum, IntEnum, auto, unique
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    CRIMSON = 1
    def describe(self):
        return self.name.lower()
print(Color.RED, repr(Color.GREEN), Color(2), Color['BLUE'], Color.RED.name, Color.RED.value, Color.CRIMSON is Color.RED)
print(list(Color), len(Color), Color.RED in Color, Color, type(Color.RED).__name__, isinstance(Color.RED, Color))
print([c.describe() for c in Color], list(Color.__members__), f'{Color.BLUE}', '%s' % Color.GREEN)
print({Color.RED: 'r'}[Color.RED], Color.RED == Color.RED, Color.RED == 1, Color.RED != Color.BLUE, sorted(Color, key=lambda c: c.value))
class Mode(Enum):
    TRAIN = auto()
    EVAL = auto()
    TEST = auto()
print(list(Mode), Mode.EVAL.value, Mode(3))
class Level(IntEnum):
    LOW = 1
    HIGH = 5
print(Level.HIGH > Level.LOW, Level.LOW == 1, Level.HIGH + 1, int(Level.HIGH), [10, 20, 30, 40, 50, 60][Level.HIGH], repr(Level.LOW), str(Level.LOW), f'{Level.HIGH}')
try:
    Color(7)
except ValueError as e:
    print('ValueError', e)
try:
    Color['PINK']
except KeyError as e:
    print('KeyError', e)
try:
    @unique
    class Dup(Enum):
        A = 1
        B = 1
except ValueError as e:
    print('ValueError', e)
class Planet(Enum):
    EARTH = (5.97e24, 6.37e6)
    MARS = (6.42e23, 3.39e6)
    def __init__(self, mass, radius):
        self.mass = mass
print(Planet.MARS.value, Planet((5.97e24, 6.37e6)))
