# collections: defaultdict, Counter, deque, namedtuple (OrderedDict: ordered_dict.py)
import collections
from collections import namedtuple, Counter, defaultdict, deque, OrderedDict

# namedtuple: fields, _asdict, _replace, _make, repr, unpacking, errors
P = namedtuple('P', 'x y')
p = P(1, 2)
print(p, P.__name__, P, type(p), p._asdict(), p._replace(x=5), P._make([3, 4]), P._fields)
print(p == (1, 2), p[0], p[-1], p + (3,), P.__doc__, p.index(2), p.count(1), len(p), list(p), hash(p) == hash((1, 2)))
x, y = p
print(x, y, p.x, p.y, p < P(1, 3), sorted([P(2, 1), P(1, 5)]))
for f in [lambda: setattr(p, 'x', 3), lambda: setattr(p, 'z', 3), lambda: P(1), lambda: P(1, 2, 3),
          lambda: P(1, x=2), lambda: P(1, q=2), lambda: p.q, lambda: P(), lambda: p._replace(z=1)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
Q = namedtuple('Q', ['a', 'b', 'c'], defaults=[0, 9])
print(Q(1), Q(1, 2), Q(a=5, c=1), Q._field_defaults)
R = namedtuple('R', 'a, def, a', rename=True)
print(R._fields)
for bad in [('R', 'a a'), ('R', '_a'), ('1R', 'a'), ('R', 'class')]:
    try:
        namedtuple(*bad)
    except ValueError as e:
        print('ValueError', e)

# defaultdict
d = defaultdict(list)
d['a'].append(1); d['b'].append(2); d['a'].append(3)
print(d, len(d), 'a' in d, 'z' in d, sorted(d.items()), dict(d), d.default_factory)
words = 'the cat the dog the end'.split()
counts = defaultdict(int)
for w in words:
    counts[w] += 1
print(counts, counts['missing'], len(counts), list(counts.keys()), list(counts.values()))
n = defaultdict(None)
try:
    n['x']
except KeyError as e:
    print('KeyError', e)
try:
    defaultdict(3)
except TypeError as e:
    print('TypeError', e)
nested = defaultdict(lambda: defaultdict(int))
nested['a']['b'] += 2
print(dict(nested['a']), d.get('q'), d.get('a'), d.pop('b'), d, d == {'a': [1, 3]})
print(defaultdict(int, {'k': 1}, z=2))

# Counter
c = Counter('abracadabra')
print(c, c.most_common(2), c.most_common(), c['zz'], 'zz' in c, c.total(), len(c))
print(c - Counter('aaa'), c + c, c | Counter(a=9), c & Counter('abc'), list(c.elements())[:6])
c.update(['a', 'z']); c.update({'b': 3}); c.subtract('r')
print(c, sorted(c), Counter(), Counter({'x': 2, 'y': -1}), +Counter({'x': 2, 'y': -1}), -Counter({'x': 2, 'y': -1}))
c2 = Counter(cats=4, dogs=8)
del c2['cats']; del c2['nothing']
print(c2, Counter([1, 2, 2, 3, 3, 3]).most_common(1)[0], c2 == Counter(dogs=8))
labels = [0, 1, 1, 2, 1, 0]
print(sorted(Counter(labels).items()), max(Counter(labels).values()))

# deque
dq = deque(range(5))
dq.rotate(2); print(dq)
dq.rotate(-3); print(dq)
dq.appendleft(9); print(dq.popleft(), dq.pop(), dq, len(dq), dq[0], dq[-1], 3 in dq)
w = deque(maxlen=3)
for i in range(6):
    w.append(i)
print(w, list(w), w.maxlen, sum(w) / len(w))
w.appendleft(-1); print(w)
w.extend([7, 8]); w.extendleft([0]); print(w, deque(), deque('ab'), deque([1]) == deque([1]))
for f in [lambda: deque().pop(), lambda: deque().popleft(), lambda: deque([1])[5], lambda: deque(maxlen=-1),
          lambda: deque([1]).remove(2)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
dq2 = dq.copy(); dq2.clear(); print(dq, dq2, list(reversed(deque([1, 2, 3]))), deque([1, 2]) + deque([3]))

# OrderedDict is still the built-in one
od = OrderedDict(a=1, b=2)
od.move_to_end('a')
print(od, collections.OrderedDict is OrderedDict, collections.Counter)
try:
    collections.nosuch
except AttributeError as e:
    print('AttributeError', e)
