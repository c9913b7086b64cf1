# Data descriptors (a class attribute whose class defines __set__) run on assignment
# to an instance attribute, as CPython's; an Enum mixed with str/int/float (class
# Mode(str, Enum)) makes members that are values of that type; str(b, encoding).


class Doubled:
    def __init__(self, name):
        self.name = '_' + name

    def __get__(self, obj, objtype=None):
        return self if obj is None else getattr(obj, self.name, None)

    def __set__(self, obj, value):
        setattr(obj, self.name, value * 2)


class Positive:
    def __init__(self, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        return obj.__dict__.get(self.name)

    def __set__(self, obj, value):
        if value <= 0:
            raise ValueError(f'{self.name} must be positive, got {value}')
        obj.__dict__[self.name] = value


class Config:
    d = Doubled('d')
    lr = Positive('lr')

    def __init__(self, lr):
        self.lr = lr


c = Config(0.1)
c.d = 4
print(c.d, type(Config.d).__name__, sorted(vars(c)), c.lr)
try:
    c.lr = -1
except ValueError as e:
    print('ValueError:', e)
print(c.lr)
setattr(c, 'd', 5)
print(c.d)

import enum


class Mode(str, enum.Enum):
    TRAIN = 'train'
    EVAL = 'eval'


print(Mode.TRAIN == 'train', Mode('eval') is Mode.EVAL, Mode.TRAIN.value, Mode.EVAL.name, isinstance(Mode.TRAIN, str))
print(Mode.TRAIN.upper(), Mode.TRAIN + '/x', f'{Mode.EVAL.value}', repr(Mode.TRAIN), str(Mode.EVAL), list(Mode))
print({'train': 1}[Mode.TRAIN], Mode['EVAL'], len(Mode), 'train' in [m.value for m in Mode])


class Size(int, enum.Enum):
    SMALL = 1
    LARGE = 10


print(Size.LARGE * 2, Size.SMALL + 1, Size(10) is Size.LARGE, isinstance(Size.SMALL, int), repr(Size.SMALL), [1, 2, 3][Size.SMALL])
try:
    Mode('test')
except ValueError as e:
    print('ValueError:', e)
print(str(b'caf\xc3\xa9', 'utf-8'), str(b'abc', encoding='ascii'), str(bytearray(b'xy'), 'utf-8'), str(b'a\xff', 'utf-8', 'replace'))
for bad in [lambda: str('x', 'utf-8'), lambda: str(5, 'utf-8'), lambda: str(b'\xff', 'utf-8')]:
    try:
        bad()
    except (TypeError, UnicodeDecodeError) as e:
        print(type(e).__name__ + ':', e)
