# collections.UserDict, UserList, UserString: subclasses with their .data, as CPython 3.11
import copy, pickle
from collections import UserDict, UserList, UserString
class Config(UserDict):
    def __setitem__(self, key, value):
        super().__setitem__(key.lower(), value)
    def __missing__(self, key):
        return 'missing:' + key
c = Config({'A': 1}, B=2)
c['Cc'] = 3
print(c, c.data, len(c), c['a'], c['zz'], 'a' in c, list(c), c.get('b'), c.get('q', 0), sorted(c.items()), list(c.keys()), list(c.values()))
print(c.pop('a'), c.setdefault('d', 4), c == {'b': 2, 'cc': 3, 'd': 4}, dict(c), c.popitem(), c)
d = UserDict(x=1)
d2 = d.copy(); d2['y'] = 2
print(d, d2, type(d2).__name__, d | {'z': 3}, {'w': 0} | d, UserDict.fromkeys('ab', 0), copy.copy(d), copy.deepcopy(d2))
d |= {'q': 9}; print(d, isinstance(d, UserDict), isinstance(d, dict))
try:
    UserDict()['nope']
except KeyError as e:
    print('KeyError', e)
try:
    hash(d)
except TypeError as e:
    print('TypeError', e)
class Stack(UserList):
    def push(self, x):
        self.append(x)
    def peek(self):
        return self[-1]
s = Stack([1, 2])
s.push(3)
print(s, s.data, s.peek(), len(s), s[0], s[1:], type(s[1:]).__name__, s + [4], [0] + s, s * 2, 2 in s, list(reversed(s)), s == [1, 2, 3], s < [2])
s += [5]; s.extend(Stack([6])); s.insert(0, 0); print(s, s.pop(), s.pop(0), s.index(3), s.count(1))
s.sort(reverse=True); print(s); s.reverse(); print(s, s.copy(), type(s.copy()).__name__); s.remove(2); del s[0]; s[0] = 9; print(s, sorted(s), sum(s), max(s))
u = UserString('Hello')
print(u, repr(u), u.data, len(u), u.upper(), type(u.upper()).__name__, u.lower(), u[1:3], u + '!', '>' + u, u * 2, 'ell' in u, u.find('l'), u.count(UserString('l')), u.startswith('He'), u.split('l'), u.replace('l', 'L'), u.center(9, '*'), u == 'Hello', u < 'Z', hash(u) == hash('Hello'), str(u), f'{u}', u.join(['a', 'b']), u.zfill(7), u.isalpha(), list(u), int(UserString('12')) + 1)
print({u: 1}, sorted([UserString('b'), UserString('a')]), u.format(), UserString('%s-%s') % ('a', 'b'))
print(pickle.loads(pickle.dumps(UserList([1, 2]))), pickle.loads(pickle.dumps(UserDict(a=1))), pickle.loads(pickle.dumps(UserString('s'))))
import torch
print(torch.tensor(UserList([1.0, 2.0]).data), torch.tensor(list(UserList([1, 2]))))
