# _memoryview: the built-in memoryview over bytes and bytearray, as CPython 3.11's:
# indexing and slicing without copying (a slice is a view of the same object),
# writing through to a bytearray, cast to another native format ('B', 'b', 'c',
# 'h', 'i', 'q', 'f', 'd', ...) and shape, tolist, tobytes, hex, bytes(m), ==,
# iteration, release and `with`, and CPython's errors; over an array.array
# (array.py) its items, sharing its bytes. builtins.memoryview is this module's
# memoryview class.

import struct as _struct
from _bigrange import _indices

_FORMATS = 'cbB?hHiIlLqQnNfde'
_INT_FORMATS = 'bBhHiIlLqQnN'


def _check_open(m):
    if m._released:
        raise ValueError('operation forbidden on released memoryview object')


def _c_strides(shape, itemsize):
    strides = []
    step = itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


def _product(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class memoryview:
    __module__ = 'builtins'

    def __init__(self, obj):
        self._owner = obj  # what .obj gives: the exporter
        if isinstance(obj, memoryview):
            _check_open(obj)
            self._obj, self._start, self._fmt, self._itemsize = obj._obj, obj._start, obj._fmt, obj._itemsize
            self._shape, self._strides, self._owner = obj._shape, obj._strides, obj._owner
        elif isinstance(obj, (bytes, bytearray)):
            self._obj, self._start, self._fmt, self._itemsize = obj, 0, 'B', 1
            self._shape, self._strides = (len(obj),), (1,)
        elif type(obj).__name__ == 'array' and type(obj).__module__ == 'array':
            # array.array: its bytes, written through (CPython's format 'w' for 'u')
            self._obj, self._start, self._itemsize = obj._data, 0, obj.itemsize
            self._fmt = 'w' if obj.typecode == 'u' else obj.typecode
            self._shape, self._strides = (len(obj),), (obj.itemsize,)
        else:
            raise TypeError("memoryview: a bytes-like object is required, not '%s'" % type(obj).__name__)
        self._released = False

    @property
    def obj(self):
        _check_open(self)
        return self._owner

    @property
    def readonly(self):
        _check_open(self)
        return not isinstance(self._obj, bytearray)

    @property
    def nbytes(self):
        _check_open(self)
        return _product(self._shape) * self._itemsize

    @property
    def itemsize(self):
        _check_open(self)
        return self._itemsize

    @property
    def format(self):
        _check_open(self)
        return self._fmt

    @property
    def ndim(self):
        _check_open(self)
        return len(self._shape)

    @property
    def shape(self):
        _check_open(self)
        return self._shape

    @property
    def strides(self):
        _check_open(self)
        return self._strides

    @property
    def suboffsets(self):
        return ()

    @property
    def c_contiguous(self):
        _check_open(self)
        return _product(self._shape) == 0 or self._strides == _c_strides(self._shape, self._itemsize)

    @property
    def contiguous(self):
        return self.c_contiguous

    @property
    def f_contiguous(self):
        _check_open(self)
        return len(self._shape) <= 1 and self.c_contiguous

    def __len__(self):
        _check_open(self)
        return self._shape[0] if self._shape else 1

    def _offset(self, key):
        # the byte offset of the item at key (an int, or a tuple of one int per dimension)
        keys = key if isinstance(key, tuple) else (key,)
        if len(self._shape) > 1 and not isinstance(key, tuple):
            raise NotImplementedError('multi-dimensional sub-views are not implemented')
        if len(keys) != len(self._shape):
            if len(keys) < len(self._shape):
                raise NotImplementedError('sub-views are not implemented')
            raise TypeError('memoryview: invalid slice key')
        off = self._start
        for dim, (i, n, stride) in enumerate(zip(keys, self._shape, self._strides)):
            if isinstance(i, bool) or not isinstance(i, int):
                if hasattr(i, '__index__'):
                    i = i.__index__()
                else:
                    raise TypeError('memoryview: invalid slice key')
            if i < 0:
                i += n
            if i < 0 or i >= n:
                raise IndexError('index out of bounds on dimension %d' % (dim + 1))
            off += i * stride
        return off

    def _read(self, off):
        if self._fmt == 'B':
            return self._obj[off]
        if self._fmt == 'w':
            raise NotImplementedError('memoryview: format w not supported')
        return _struct.unpack_from(self._fmt, self._obj, off)[0]

    def __getitem__(self, key):
        _check_open(self)
        if isinstance(key, slice):
            start, stop, step = _indices(key, self._shape[0])
            m = memoryview(self)
            m._start = self._start + start * self._strides[0]
            m._shape = (len(range(start, stop, step)),) + self._shape[1:]
            m._strides = (self._strides[0] * step,) + self._strides[1:]
            return m
        if key is Ellipsis:
            return memoryview(self)
        return self._read(self._offset(key))

    def __setitem__(self, key, value):
        _check_open(self)
        if not isinstance(self._obj, bytearray):
            raise TypeError('cannot modify read-only memory')
        if isinstance(key, slice):
            target = self[key]
            src = value if isinstance(value, memoryview) else memoryview(value) if isinstance(
                value, (bytes, bytearray)) else None
            if src is None:
                raise TypeError("a bytes-like object is required, not '%s'" % type(value).__name__)
            if src._fmt != target._fmt or src._shape != target._shape:
                raise ValueError('memoryview assignment: lvalue and rvalue have different structures')
            items = src.tolist()
            for i in range(len(items)):
                target[i] = items[i]
            return
        fmt = self._fmt
        off = self._offset(key)
        if fmt in _INT_FORMATS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError("memoryview: invalid type for format '%s'" % fmt)
        elif fmt in 'fde':
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise TypeError("memoryview: invalid type for format '%s'" % fmt)
        elif fmt == 'c':
            if not isinstance(value, bytes) or len(value) != 1:
                raise ValueError("memoryview: invalid value for format 'c'")
        elif fmt == '?' and not isinstance(value, bool):
            raise TypeError("memoryview: invalid type for format '?'")
        elif fmt == 'w':
            raise NotImplementedError('memoryview: format w not supported')
        if fmt == 'B':
            if not 0 <= value <= 255:
                raise ValueError("memoryview: invalid value for format 'B'")
            self._obj[off] = value
            return
        try:
            _struct.pack_into(fmt, self._obj, off, value)
        except (_struct.error, OverflowError):
            raise ValueError("memoryview: invalid value for format '%s'" % fmt) from None

    def __delitem__(self, key):
        raise TypeError('cannot delete memory')

    def _flat_offsets(self):
        # the byte offsets of the items in C order
        offs = [self._start]
        for n, stride in zip(self._shape, self._strides):
            offs = [o + i * stride for o in offs for i in range(n)]
        return offs

    def tobytes(self, order=None):
        _check_open(self)
        if self.c_contiguous:
            return bytes(self._obj[self._start:self._start + self.nbytes])
        k = self._itemsize
        return b''.join(bytes(self._obj[o:o + k]) for o in self._flat_offsets())

    def __bytes__(self):
        return self.tobytes()

    def tolist(self):
        _check_open(self)
        items = [self._read(o) for o in self._flat_offsets()]
        for n in reversed(self._shape[1:]):
            items = [items[i:i + n] for i in range(0, len(items), n)]
        return items

    def hex(self, *args):
        return self.tobytes().hex(*args)

    def toreadonly(self):
        _check_open(self)
        m = memoryview(self)
        m._obj = bytes(self._obj)
        return m

    def cast(self, format, shape=None):
        _check_open(self)
        if not isinstance(format, str):
            raise TypeError("cast() argument 'format' must be str, not %s" % type(format).__name__)
        fmt = format[1:] if format.startswith('@') else format
        if len(fmt) != 1 or fmt not in _FORMATS:
            raise ValueError("memoryview: destination format must be a native single character format "
                             "prefixed with an optional '@'")
        if not self.c_contiguous:
            raise TypeError('memoryview: casts are restricted to C-contiguous views')
        if shape is not None and not isinstance(shape, (list, tuple)):
            raise TypeError('shape must be a list or a tuple')
        if shape is not None and len(self._shape) != 1 and len(shape) != 1:
            raise TypeError('memoryview: cast must be 1D -> ND or ND -> 1D')
        if self._fmt not in 'Bbc' and fmt not in 'Bbc':
            raise TypeError('memoryview: cannot cast between two non-byte formats')
        itemsize = _struct.calcsize(fmt)
        nbytes = self.nbytes
        if shape is None:
            if nbytes % itemsize:
                raise TypeError('memoryview: length is not a multiple of itemsize')
            shape = (nbytes // itemsize,)
        else:
            shape = tuple(shape)
            if not shape or len(shape) > 64:
                raise ValueError('memoryview: number of dimensions must not exceed 64')
            for n in shape:
                if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
                    raise ValueError('memoryview.cast(): elements of shape must be integers > 0')
            if _product(shape) * itemsize != nbytes:
                raise TypeError('memoryview: product(shape) * itemsize != buffer size')
        m = memoryview(self)
        m._fmt, m._itemsize, m._shape, m._strides = fmt, itemsize, shape, _c_strides(shape, itemsize)
        return m

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
        if len(self._shape) != 1:
            raise NotImplementedError('multi-dimensional sub-views are not implemented')
        return iter(self.tolist())

    def __eq__(self, other):
        if self._released:
            return self is other
        if isinstance(other, (bytes, bytearray)):
            other = memoryview(other)
        if isinstance(other, memoryview):
            if other._released:
                return False
            return self._shape == other._shape and self.tolist() == other.tolist()
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        if not self.readonly:
            raise ValueError('cannot hash writable memoryview object')
        if self._fmt not in 'Bbc':
            raise ValueError("memoryview: hashing is restricted to formats 'B', 'b' or 'c'")
        return hash(self.tobytes())

    def __repr__(self):
        if self._released:
            return '<released memory at 0x%x>' % id(self)
        return '<memory at 0x%x>' % id(self)
