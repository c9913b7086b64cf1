# Deeply nested containers (issue 22): comparison, repr, copy.deepcopy, pickle and
# json.dumps raise RecursionError as CPython does (they count against the
# recursion limit), never a crash or a wrong True; MemoryError has no message.
import copy
import json
import pickle


def nest(kind, n):
    x = kind()
    for _ in range(n):
        x = [x] if kind is list else ({'a': x} if kind is dict else (x,))
    return x


def t(label, f):
    try:
        r = f()
        print(label, 'ok', r)
    except Exception as e:
        print(label, type(e).__name__, str(e))


for kind in (list, dict, tuple):
    for n in (100000, 1100, 900):
        a, b = nest(kind, n), nest(kind, n)
        name = kind.__name__ + ' ' + str(n)
        t(name + ' ==', lambda: a == b)
        t(name + ' !=', lambda: a != b)
        t(name + ' <', lambda: a < b)
        t(name + ' in', lambda: a in [b])
        t(name + ' index', lambda: [b].index(a))
        t(name + ' count', lambda: [b].count(a))
        t(name + ' repr', lambda: len(repr(a)))
        t(name + ' str', lambda: len(str(a)))
        if kind is not tuple or n < 100000:  # a 100,000-deep tuple's hash: test_hardening.c
            # (ASan's larger frames reach the stack guard there, so its answer differs by build)
            t(name + ' hash equal', lambda: hash(a) == hash(b))
        t(name + ' json', lambda: len(json.dumps(a)))
        if n > 1000:  # nearer the limit CPython's pickler counts its own frames
            t(name + ' pickle', lambda: len(pickle.dumps(a)))
    for n in (100000, 550, 450, 350, 300):
        a = nest(kind, n)
        t(kind.__name__ + ' ' + str(n) + ' deepcopy', lambda: type(copy.deepcopy(a)).__name__)

# a shallow comparison still works at depth: inside 900 calls
def down(k):
    return nest(list, 50) == nest(list, 50) if k == 0 else down(k - 1)


t('eq inside 900 calls', lambda: down(900))
t('eq inside 990 calls', lambda: down(990))

for label, f in [('list', lambda: [0] * 2**62), ('bytearray', lambda: bytearray(2**62)), ('str', lambda: 'x' * 2**62),
                 ('tuple', lambda: (0,) * 2**62)]:
    try:
        f()
    except MemoryError as e:
        print(label, 'MemoryError', repr(e), e.args, repr(str(e)))
    except Exception as e:
        print(label, type(e).__name__, e)
