# Subclasses of built-in types: bad calls of their slots and constructors raise
# CPython's errors; the built-in methods that make new values (fromkeys, copy, slices).
class D(dict): pass
class L(list): pass
for bad in ['object.__new__(D)', 'dict.__new__(5)', 'int.__new__(D)', 'dict.__init__()', 'dict.__init__(5)',
            'list.__init__(L(), 5)', 'D.__init__(5)', 'D(5)', 'L(5)', 'D(1, 2)', 'L([1], [2])', 'dict.__getitem__(D())',
            'D()[[1]]', 'D().__setitem__([1], 2)', 'L().pop()', 'L()[0]', 'float.__new__(L, 1)', 'type("X", (D, L), {})']:
    try:
        print(bad, eval(bad))
    except (TypeError, KeyError, IndexError, ValueError) as e:
        print(bad, type(e).__name__ + ':', e)
print(D.fromkeys(['a']), type(D.fromkeys('b')).__name__)
d = D(a=1)
d.update(b=2)
d.setdefault('c', 3)
print(d, d.copy(), type(d.copy()).__name__, sorted(d), d.popitem())
l = L([3, 1, 2])
l.sort(key=lambda x: -x)
l.insert(0, 9)
l.remove(1)
print(l, l.copy(), type(l[:1]).__name__, l.index(2))
