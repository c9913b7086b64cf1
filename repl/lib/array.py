# array: CPython 3.11's array module: typed arrays of numbers (typecodes b B u h
# H i I l L q Q f d) kept as their machine bytes in a bytearray, with indexing,
# slicing (a copy), slice assignment and deletion, append/extend/insert/pop/
# remove/index/count/reverse, frombytes/tobytes, fromlist/tolist,
# fromunicode/tounicode, byteswap, buffer_info, +, *, ==/<, repr, and
# CPython's errors. memoryview(a) (_memoryview.py) views the same bytes, so
# writes through either show in the other.

import struct as _struct

typecodes = 'bBuhHiIlLqQfd'

_SIZES = {'b': 1, 'B': 1, 'u': 4, 'h': 2, 'H': 2, 'i': 4, 'I': 4, 'l': 8, 'L': 8, 'q': 8, 'Q': 8, 'f': 4, 'd': 8}
# the struct format of each typecode ('u': a UCS-4 code point)
_FMT = {'u': 'I'}
# CPython's OverflowError texts: (above the maximum, below the minimum)
_LIMITS = {
    'b': (-128, 127, 'signed char is greater than maximum', 'signed char is less than minimum'),
    'B': (0, 255, 'unsigned byte integer is greater than maximum', 'unsigned byte integer is less than minimum'),
    'h': (-2 ** 15, 2 ** 15 - 1, 'signed short integer is greater than maximum',
          'signed short integer is less than minimum'),
    'H': (0, 2 ** 16 - 1, 'unsigned short is greater than maximum', 'unsigned short is less than minimum'),
    'i': (-2 ** 31, 2 ** 31 - 1, 'signed integer is greater than maximum', 'signed integer is less than minimum'),
    'I': (0, 2 ** 32 - 1, 'unsigned int is greater than maximum', "can't convert negative value to unsigned int"),
    'l': (-2 ** 63, 2 ** 63 - 1, 'Python int too large to convert to C long', 'Python int too large to convert to C long'),
    'L': (0, 2 ** 64 - 1, 'Python int too large to convert to C unsigned long',
          "can't convert negative value to unsigned int"),
    'q': (-2 ** 63, 2 ** 63 - 1, 'int too big to convert', 'int too big to convert'),
    'Q': (0, 2 ** 64 - 1, 'int too big to convert', "can't convert negative int to unsigned"),
}


def _index(v):
    if isinstance(v, int):
        return int(v)
    if hasattr(v, '__index__') and not isinstance(v, float):
        return v.__index__()
    raise TypeError("'%s' object cannot be interpreted as an integer" % type(v).__name__)


class array:
    __module__ = 'array'

    def __init__(self, typecode, initializer=None):
        if not isinstance(typecode, str) or len(typecode) != 1:
            raise TypeError('array() argument 1 must be a unicode character, not %s' % type(typecode).__name__)
        if typecode not in _SIZES:
            raise ValueError('bad typecode (must be b, B, u, h, H, i, I, l, L, q, Q, f or d)')
        self._tc = typecode
        self._fmt = _FMT.get(typecode, typecode)
        self._size = _SIZES[typecode]
        self._data = bytearray()
        if initializer is None:
            return
        if isinstance(initializer, str):
            if typecode != 'u':
                raise TypeError("cannot use a str to initialize an array with typecode '%s'" % typecode)
            self.fromunicode(initializer)
        elif isinstance(initializer, (bytes, bytearray)):
            self.frombytes(initializer)
        elif isinstance(initializer, array):
            if initializer._tc == 'u' and typecode != 'u':
                raise TypeError("cannot use a unicode array to initialize an array with typecode '%s'" % typecode)
            self.extend(initializer.tolist())
        else:
            self.extend(initializer)

    # -------------------------------------------------- items as bytes

    def _pack(self, v):
        tc = self._tc
        if tc == 'u':
            if not isinstance(v, str) or len(v) != 1:
                raise TypeError('array item must be unicode character')
            return _struct.pack('I', ord(v))
        if tc in 'fd':
            if isinstance(v, (str, bytes, list, tuple, dict)) or v is None:
                raise TypeError('must be real number, not %s' % type(v).__name__)
            return _struct.pack(tc, float(v))
        if isinstance(v, float):
            raise TypeError("'float' object cannot be interpreted as an integer")
        v = _index(v)
        lo, hi, above, below = _LIMITS[tc]
        if v > hi:
            raise OverflowError(above)
        if v < lo:
            raise OverflowError(below)
        return _struct.pack(tc, v)

    def _get(self, i):
        v = _struct.unpack_from(self._fmt, self._data, i * self._size)[0]
        return chr(v) if self._tc == 'u' else v

    # -------------------------------------------------- attributes

    @property
    def typecode(self):
        return self._tc

    @property
    def itemsize(self):
        return self._size

    def buffer_info(self):
        return (id(self._data), len(self))

    # -------------------------------------------------- sequence protocol

    def __len__(self):
        return len(self._data) // self._size

    def _pos(self, i, msg):
        i = _index(i)
        n = len(self)
        if i < 0:
            i += n
        if i < 0 or i >= n:
            raise IndexError(msg)
        return i

    def __getitem__(self, key):
        if isinstance(key, slice):
            r = array(self._tc)
            idx = range(*key.indices(len(self)))
            k = self._size
            if idx.step == 1:
                r._data = self._data[idx.start * k:max(idx.stop, idx.start) * k]
            else:
                r._data = bytearray(b''.join(bytes(self._data[i * k:i * k + k]) for i in idx))
            return r
        if not isinstance(key, int) and not hasattr(key, '__index__'):
            raise TypeError('array indices must be integers')
        return self._get(self._pos(key, 'array index out of range'))

    def __setitem__(self, key, value):
        k = self._size
        if isinstance(key, slice):
            if not isinstance(value, array):
                raise TypeError('can only assign array (not "%s") to array slice' % type(value).__name__)
            if value._tc != self._tc:
                raise TypeError('bad argument type for built-in operation')
            idx = range(*key.indices(len(self)))
            if idx.step == 1:
                stop = max(idx.stop, idx.start)
                self._data[idx.start * k:stop * k] = bytes(value._data)
                return
            if len(idx) != len(value):
                raise ValueError('attempt to assign array of size %d to extended slice of size %d'
                                 % (len(value), len(idx)))
            src = bytes(value._data)
            for j, i in enumerate(idx):
                self._data[i * k:i * k + k] = src[j * k:j * k + k]
            return
        if not isinstance(key, int) and not hasattr(key, '__index__'):
            raise TypeError('array indices must be integers')
        i = self._pos(key, 'array assignment index out of range')
        self._data[i * k:i * k + k] = self._pack(value)

    def __delitem__(self, key):
        k = self._size
        if isinstance(key, slice):
            idx = range(*key.indices(len(self)))
            for i in sorted(idx, reverse=True):
                del self._data[i * k:i * k + k]
            return
        i = self._pos(key, 'array assignment index out of range')
        del self._data[i * k:i * k + k]

    def __iter__(self):
        for i in range(len(self)):
            yield self._get(i)

    def __reversed__(self):
        for i in range(len(self) - 1, -1, -1):
            yield self._get(i)

    def __contains__(self, v):
        return v in self.tolist()

    # -------------------------------------------------- methods

    def append(self, v):
        self._data += self._pack(v)

    def extend(self, iterable):
        if isinstance(iterable, array):
            if iterable._tc != self._tc:
                raise TypeError('can only extend with array of same kind')
            self._data += bytes(iterable._data)
            return
        for v in iterable:
            self.append(v)

    def insert(self, i, v):
        b = self._pack(v)
        i = _index(i)
        n = len(self)
        if i < 0:
            i = max(i + n, 0)
        i = min(i, n)
        k = self._size
        self._data[i * k:i * k] = b

    def pop(self, i=-1):
        if not len(self):
            raise IndexError('pop from empty array')
        i = self._pos(i, 'pop index out of range')
        v = self._get(i)
        del self[i]
        return v

    def remove(self, v):
        for i, x in enumerate(self):
            if x == v:
                del self[i]
                return
        raise ValueError('array.remove(x): x not in array')

    def index(self, v, start=0, stop=None):
        n = len(self)
        start, stop, _ = slice(start, stop).indices(n)
        for i in range(start, stop):
            if self._get(i) == v:
                return i
        raise ValueError('array.index(x): x not in array')

    def count(self, v):
        return sum(1 for x in self if x == v)

    def reverse(self):
        k = self._size
        b = bytes(self._data)
        self._data[:] = b''.join(b[i * k:i * k + k] for i in range(len(self) - 1, -1, -1))

    def byteswap(self):
        k = self._size
        b = bytes(self._data)
        self._data[:] = b''.join(b[i * k:i * k + k][::-1] for i in range(len(self)))

    def tobytes(self):
        return bytes(self._data)

    def frombytes(self, b):
        if isinstance(b, str):
            raise TypeError("a bytes-like object is required, not 'str'")
        b = bytes(b)
        if len(b) % self._size:
            raise ValueError('bytes length not a multiple of item size')
        self._data += b

    def tolist(self):
        return [self._get(i) for i in range(len(self))]

    def fromlist(self, items):
        if not isinstance(items, list):
            raise TypeError('arg must be list')
        packed = b''.join(self._pack(v) for v in items)  # all or nothing, as CPython
        self._data += packed

    def tounicode(self):
        if self._tc != 'u':
            raise ValueError('tounicode() may only be called on unicode type arrays')
        return ''.join(self)

    def fromunicode(self, s):
        if self._tc != 'u':
            raise ValueError('fromunicode() may only be called on unicode type arrays')
        if not isinstance(s, str):
            raise TypeError('fromunicode() argument must be str, not %s' % type(s).__name__)
        for ch in s:
            self.append(ch)

    def __copy__(self):
        return array(self._tc, self)

    def __deepcopy__(self, memo):
        return array(self._tc, self)

    # -------------------------------------------------- operators

    def __add__(self, other):
        if not isinstance(other, array):
            raise TypeError('can only append array (not "%s") to array' % type(other).__name__)
        if other._tc != self._tc:
            raise TypeError('bad argument type for built-in operation')
        r = array(self._tc)
        r._data = self._data + other._data
        return r

    def __iadd__(self, other):
        if not isinstance(other, array):
            raise TypeError('can only extend array with array (not "%s")' % type(other).__name__)
        self.extend(other)
        return self

    def __mul__(self, n):
        r = array(self._tc)
        r._data = self._data * _index(n)
        return r

    __rmul__ = __mul__

    def __imul__(self, n):
        self._data *= _index(n)
        return self

    def __eq__(self, other):
        if not isinstance(other, array):
            return NotImplemented
        return self.tolist() == other.tolist()

    def __ne__(self, other):
        if not isinstance(other, array):
            return NotImplemented
        return self.tolist() != other.tolist()

    def __lt__(self, other):
        if not isinstance(other, array):
            return NotImplemented
        return self.tolist() < other.tolist()

    def __le__(self, other):
        if not isinstance(other, array):
            return NotImplemented
        return self.tolist() <= other.tolist()

    def __gt__(self, other):
        if not isinstance(other, array):
            return NotImplemented
        return self.tolist() > other.tolist()

    def __ge__(self, other):
        if not isinstance(other, array):
            return NotImplemented
        return self.tolist() >= other.tolist()

    __hash__ = None

    def __bytes__(self):
        return bytes(self._data)

    def __repr__(self):
        if not len(self):
            return "array('%s')" % self._tc
        if self._tc == 'u':
            return "array('u', %r)" % self.tounicode()
        return "array('%s', %r)" % (self._tc, self.tolist())


ArrayType = array
