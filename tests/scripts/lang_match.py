# match statements (PEP 634) as CPython 3.11 runs them: every pattern kind,
# guards, or-patterns, `as`, __match_args__, bindings in functions, errors.
from dataclasses import dataclass
from collections import namedtuple, OrderedDict, defaultdict
import enum


class Color(enum.Enum):
    RED = 1
    GREEN = 2


@dataclass
class Point:
    x: int
    y: int


class Vec:
    __match_args__ = ('a', 'b')

    def __init__(self, a, b):
        self.a = a
        self.b = b


Pair = namedtuple('Pair', 'left right')


def describe(v):
    match v:
        case None:
            return 'none'
        case True:
            return 'true'
        case 0 | 1 | 2:
            return f'small {v}'
        case -3:
            return 'minus three'
        case 1.5:
            return 'one and a half'
        case 'hi' | 'hello':
            return 'greeting'
        case Color.RED:
            return 'red'
        case Point(x=0, y=0):
            return 'origin'
        case Point(0, y):
            return f'on y axis at {y}'
        case Point(x, y) if x == y:
            return f'diagonal {x}'
        case Point():
            return 'some point'
        case Vec(a, b=3):
            return f'vec b3 a={a}'
        case Pair(l, r):
            return f'pair {l} {r}'
        case []:
            return 'empty seq'
        case [x]:
            return f'one {x}'
        case [x, y, *rest] if not rest:
            return f'two {x} {y}'
        case [first, *_, last]:
            return f'first {first} last {last}'
        case {'kind': 'circle', 'r': r}:
            return f'circle {r}'
        case {'kind': k, **others}:
            return f'kind {k} others {others}'
        case {}:
            return 'some mapping'
        case int(n) if n > 100:
            return f'big int {n}'
        case str() as s:
            return f'str {s!r}'
        case (a, b) | [a, b, _, _, _, _]:
            return 'unreached'
        case _:
            return f'other {type(v).__name__}'


for value in [None, True, False, 0, 2, -3, 1.5, 'hi', 'x', Color.RED, Color.GREEN,
              Point(0, 0), Point(0, 5), Point(4, 4), Point(1, 2), Vec(1, 3), Vec(1, 4),
              Pair(7, 8), [], (), [9], (1, 2), [1, 2, 3], range(5), 'abc',
              {'kind': 'circle', 'r': 2}, {'kind': 'sq', 'w': 1, 'h': 2}, {'z': 1}, {},
              OrderedDict(kind='od', n=1), 1000, 3.25, {1, 2}]:
    shown = repr(value) if type(value).__name__ != 'Vec' else 'Vec(%r, %r)' % (value.a, value.b)
    print(shown, '->', describe(value))

# captures bind in the enclosing scope, also when the guard fails
def f(p):
    match p:
        case (x, y) if x > y:
            return 'gt', x, y
        case (x, y):
            pass
    return 'after', x, y
print(f((3, 1)), f((1, 3)))

match (1, [2, 3], {'a': 4}):
    case (one, [two, three], {'a': four}) as whole:
        print(one, two, three, four, whole)

# a top-level open sequence and a tuple subject
match 1, 2, 3:
    case a, *b:
        print('open', a, b)

# or-pattern alternatives bind the same names
for item in [('add', 1), ('sub', 2), ('mul', 3)]:
    match item:
        case ('add', n) | ('sub', n):
            print('additive', n)
        case (op, n):
            print('other', op, n)

# str, bytes are not sequences; dict keys missing mean no match
match 'ab':
    case [a, b]:
        print('seq?')
    case _:
        print('str is no sequence')
match {'a': 1}:
    case {'b': _}:
        print('b?')
    case {'a': 1, **rest}:
        print('rest', rest)
dd = defaultdict(int, a=1)
match dd:
    case {'missing': _}:
        print('defaultdict created a key?')
    case {'a': v}:
        print('defaultdict', v, dict(dd))

# value patterns need a dotted name; a bare name captures
RED = 'not compared'
match Color.GREEN:
    case Color.RED:
        print('red')
    case Color.GREEN:
        print('green')

# class patterns of built-in types match the subject itself
for v in [3, 'x', 2.5, [1], (1,), {'k': 1}, b'by', True]:
    match v:
        case bool(b):
            print('bool', b)
        case int(i):
            print('int', i)
        case float(fl):
            print('float', fl)
        case str(s):
            print('str', s)
        case list(l) | tuple(l):
            print('list/tuple', l)
        case dict(d):
            print('dict', d)
        case bytes(bb):
            print('bytes', bb)

# nothing matches: no binding, no error
match 42:
    case 1:
        print('no')
print('match without a hit is fine')

# match and case stay ordinary names
match = 5
case = [match, 6]
print(match, case, match * 2)
def match_(match):
    return match
print(match_(7))

# errors, as CPython raises them
for src in ['Vec(1, 2, 3)', 'Point(1, x=2)', 'int(1, 2)']:
    try:
        exec(f'match Vec(1, 2):\n    case {src}:\n        pass\n')
    except TypeError as e:
        print('TypeError:', e)
class K:
    A = 'a'
    B = 'a'
try:
    match {'a': 1}:
        case {K.A: 1, K.B: 2}:
            pass
except ValueError as e:
    print('ValueError:', e)
class NoTuple:
    __match_args__ = ['a']
try:
    match NoTuple():
        case NoTuple(x):
            pass
except TypeError as e:
    print('TypeError:', e)
notaclass = 3
try:
    match 3:
        case notaclass():
            pass
except TypeError as e:
    print('TypeError:', e)
for bad in ['match x:\ncase 1: pass\n', 'match x:\n    case 1 as _: pass\n',
            'match x:\n    case f"a": pass\n', 'match x:\n    case {"a": 1, "a": 2}: pass\n',
            'match x:\n    case {1: y, 1: z}: pass\n']:
    try:
        compile(bad, '<s>', 'exec')
    except SyntaxError as e:
        print(type(e).__name__, e)

# torch.Size is a tuple: sequence patterns take it
import torch
for shape in [torch.zeros(2, 3).shape, torch.zeros(4).shape, torch.zeros(1, 2, 3).shape]:
    match shape:
        case (2, n):
            print('two rows of', n)
        case (n,):
            print('a vector of', n)
        case (1, *rest):
            print('batch of one', rest)
