# pickle as CPython 3.11: the bytes of protocols 2-5 for the built-in types, round trips,
# classes by reference (__dict__, __reduce__, __getstate__/__setstate__), errors
import pickle


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        return 'Point(%r, %r)' % (self.x, self.y)


class Money:
    def __init__(self, cents):
        self.cents = cents

    def __reduce__(self):
        return (Money, (self.cents,))

    def __repr__(self):
        return 'Money(%d)' % self.cents


class Counter:
    def __init__(self):
        self.n = 0
        self.cache = {'tmp': 1}

    def __getstate__(self):
        return {'n': self.n}

    def __setstate__(self, state):
        self.n = state['n']
        self.cache = {}


class Empty:
    pass


values = [None, True, False, 0, 1, 255, 256, 65535, 65536, -1, -2 ** 31, 2 ** 31, 2 ** 63, -2 ** 70, 2 ** 300, 1.5, -0.0, 1e300,
          '', 'abc', 'naïve ☃', 'x' * 300, b'', b'abc', b'\x00' * 300, bytearray(b'ba'), (), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4),
          [], [1], [1, [2, 3]], {}, {'a': 1}, {'a': 1, 'b': [1, 2], 3: (4, 5)}, {1, 2, 3}, frozenset([7]), set(), list(range(1001)),
          {i: str(i) for i in range(3)}, [[1, 2]] * 2]
for proto in range(2, 6):
    for v in values:
        data = pickle.dumps(v, proto)
        back = pickle.loads(data)
        if len(data) < 80:
            print(proto, repr(v)[:30], data, back == v, type(back).__name__)
        else:
            print(proto, repr(v)[:30], len(data), data[:24], data[-12:], back == v, type(back).__name__)
shared = [1, 2]
obj = {'a': shared, 'b': shared, 't': (shared, 'x')}
back = pickle.loads(pickle.dumps(obj))
print(back, back['a'] is back['b'], back['t'][0] is back['a'], pickle.dumps(obj))
rec = []
rec.append(rec)
r = pickle.loads(pickle.dumps(rec))
print(pickle.dumps(rec), r[0] is r)
print(pickle.dumps(Point(1, 2)), pickle.loads(pickle.dumps(Point(1, [2]))), pickle.dumps(Point, 2), pickle.loads(pickle.dumps(Point)) is Point)
print(pickle.dumps(Money(5)), pickle.loads(pickle.dumps(Money(5), 2)), pickle.dumps(Empty()), type(pickle.loads(pickle.dumps(Empty()))).__name__)
c = Counter()
c.n = 3
c2 = pickle.loads(pickle.dumps(c))
print(pickle.dumps(c), c2.n, c2.cache)
print(pickle.dumps(len), pickle.loads(pickle.dumps(len)) is len, pickle.dumps([int, str, dict], 2), pickle.loads(pickle.dumps(int)) is int)
print(pickle.HIGHEST_PROTOCOL, pickle.DEFAULT_PROTOCOL, pickle.dumps(1) == pickle.dumps(1, 4), pickle.dumps(1, -1))
with open('stdlib_pickle.tmp', 'wb') as f:
    pickle.dump({'w': [1.0, 2.0]}, f)
with open('stdlib_pickle.tmp', 'rb') as f:
    print(pickle.load(f))
# CPython-made pickles of protocols 0 and 1 read back
print(pickle.loads(b'(dp0\nVa\np1\nI1\nsVb\np2\n(lp3\nF1.5\naI00\nas.'), pickle.loads(b']q\x00(K\x01X\x01\x00\x00\x00aq\x01e.'))
print(pickle.loads(b'\x80\x02c__builtin__\nset\nq\x00]q\x01(K\x01K\x02e\x85q\x02Rq\x03.'), pickle.loads(b'\x80\x02c_codecs\nencode\nq\x00X\x03\x00\x00\x00abcq\x01X\x06\x00\x00\x00latin1q\x02\x86q\x03Rq\x04.'))
for bad in [b'', b'\x80\x04K', b'zz', b'\x80\x09.', b'a.', b'\x80\x04\x95\x05\x00\x00\x00\x00\x00\x00\x00]\x94(K\x01', b'h\x05.',
b'\x80\x04X\xff\xff\xff\xffabc', b'K\x01K\x02R.', b'(.', b'\x8c\x02\xff\xfe.']:
    try:
        print(pickle.loads(bad))
    except Exception as e:
        print(type(e).__name__ + ':', e)
for bad in [lambda: pickle.dumps(lambda: 1), lambda: pickle.loads('text'), lambda: pickle.dumps(1, 6),
            lambda: pickle.loads(b'\x80\x04\x8c\x08__main__\x8c\x04Nope\x93.')]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__ + ':', str(e)[:20])
try:
    pickle.load(open('stdlib_pickle.py', 'rb'))
except pickle.UnpicklingError as e:
    print('UnpicklingError:', e)
try:
    pickle.loads(b'')
except EOFError as e:
    print('EOFError:', e, isinstance(e, Exception))
