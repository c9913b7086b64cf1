# _memoryview: the built-in memoryview over bytes and bytearray (format 'B', one
# dimension), as CPython 3.11's: indexing and slicing without copying (a slice is
# a view of the same object), writing through to a bytearray, tobytes, tolist,
# hex, bytes(m), ==, iteration, release and `with`, and CPython's errors.
# builtins.memoryview calls this module's memoryview class.

from _bigrange import _indices


def _check_open(m):
    if m._released:
        raise ValueError('operation forbidden on released memoryview object')


class memoryview:
    __module__ = 'builtins'

    def __init__(self, obj):
        if isinstance(obj, memoryview):
            _check_open(obj)
            self._obj, self._start, self._len, self._step = obj._obj, obj._start, obj._len, obj._step
        elif isinstance(obj, (bytes, bytearray)):
            self._obj, self._start, self._len, self._step = obj, 0, len(obj), 1
        else:
            raise TypeError("memoryview: a bytes-like object is required, not '%s'" % type(obj).__name__)
        self._released = False

    @property
    def obj(self):
        _check_open(self)
        return self._obj

    @property
    def readonly(self):
        _check_open(self)
        return not isinstance(self._obj, bytearray)

    @property
    def nbytes(self):
        _check_open(self)
        return self._len

    @property
    def itemsize(self):
        return 1

    @property
    def format(self):
        return 'B'

    @property
    def ndim(self):
        return 1

    @property
    def shape(self):
        _check_open(self)
        return (self._len,)

    @property
    def strides(self):
        _check_open(self)
        return (self._step,)

    @property
    def contiguous(self):
        return self._step == 1

    @property
    def c_contiguous(self):
        return self._step == 1

    @property
    def f_contiguous(self):
        return self._step == 1

    def __len__(self):
        _check_open(self)
        return self._len

    def _at(self, i):
        if not isinstance(i, int):
            raise TypeError('memoryview: invalid slice key')
        if i < 0:
            i += self._len
        if i < 0 or i >= self._len:
            raise IndexError('index out of bounds on dimension 1')
        return self._start + i * self._step

    def __getitem__(self, key):
        _check_open(self)
        if isinstance(key, slice):
            start, stop, step = _indices(key, self._len)
            n = len(range(start, stop, step))
            m = memoryview(self)
            m._start = self._start + start * self._step
            m._len = n
            m._step = self._step * step
            return m
        if isinstance(key, tuple):
            raise TypeError('memoryview: invalid slice key')
        return self._obj[self._at(key)]

    def __setitem__(self, key, value):
        _check_open(self)
        if not isinstance(self._obj, bytearray):
            raise TypeError('cannot modify read-only memory')
        if isinstance(key, slice):
            target = self[key]
            src = value.tobytes() if isinstance(value, memoryview) else value
            if not isinstance(src, (bytes, bytearray)):
                raise TypeError("a bytes-like object is required, not '%s'" % type(value).__name__)
            if len(src) != target._len:
                raise ValueError('memoryview assignment: lvalue and rvalue have different structures')
            for i in range(target._len):
                self._obj[target._start + i * target._step] = src[i]
            return
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("memoryview: invalid type for format 'B'")
        if not 0 <= value <= 255:
            raise ValueError("memoryview: invalid value for format 'B'")
        self._obj[self._at(key)] = value

    def __delitem__(self, key):
        raise TypeError('cannot delete memory')

    def tobytes(self, order=None):
        _check_open(self)
        if self._step == 1:
            return bytes(self._obj[self._start:self._start + self._len])
        return bytes([self._obj[self._start + i * self._step] for i in range(self._len)])

    def __bytes__(self):
        return self.tobytes()

    def tolist(self):
        return list(self.tobytes())

    def hex(self, *args):
        return self.tobytes().hex(*args)

    def cast(self, format, shape=None):
        _check_open(self)
        if format not in ('B', 'b', 'c') or shape is not None:
            raise NotImplementedError("nnscope: memoryview.cast supports the byte formats only")
        return memoryview(self)

    def release(self):
        self._released = True

    def __enter__(self):
        _check_open(self)
        return self

    def __exit__(self, *exc):
        self.release()
        return False

    def __iter__(self):
        _check_open(self)
        return iter(self.tolist())

    def __eq__(self, other):
        if self._released:
            return self is other
        if isinstance(other, memoryview):
            if other._released:
                return False
            return self.tobytes() == other.tobytes()
        if isinstance(other, (bytes, bytearray)):
            return self.tobytes() == bytes(other)
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        if not self.readonly:
            raise ValueError('cannot hash writable memoryview object')
        return hash(self.tobytes())

    def __repr__(self):
        if self._released:
            return '<released memory at 0x%x>' % id(self)
        return '<memory at 0x%x>' % id(self)

