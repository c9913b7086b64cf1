# _bigrange: range() objects whose start, stop, step or length go beyond int64
# (range(2**70)), as CPython 3.11's: indexing, slicing, `in`, iteration, reversed,
# count/index, ==, hash, and len() raising OverflowError when the length does not
# fit in a C ssize_t. builtins.range returns one of these only for such arguments;
# the ordinary range stays the C object.

_SSIZE_MAX = 2 ** 63 - 1


def _index(v):
    if isinstance(v, bool) or isinstance(v, int):
        return int(v)
    if hasattr(v, '__index__'):
        return v.__index__()
    raise TypeError("'%s' object cannot be interpreted as an integer" % type(v).__name__)


def _length(start, stop, step):
    if step > 0 and start < stop:
        return (stop - start - 1) // step + 1
    if step < 0 and start > stop:
        return (start - stop - 1) // (-step) + 1
    return 0


class range:
    __module__ = 'builtins'

    def __init__(self, *args):
        if len(args) == 1:
            start, stop, step = 0, _index(args[0]), 1
        else:
            start, stop = _index(args[0]), _index(args[1])
            step = _index(args[2]) if len(args) == 3 else 1
        if step == 0:
            raise ValueError('range() arg 3 must not be zero')
        self._start, self._stop, self._step = start, stop, step
        self._len = _length(start, stop, step)

    @property
    def start(self):
        return self._start

    @property
    def stop(self):
        return self._stop

    @property
    def step(self):
        return self._step

    def __repr__(self):
        if self._step == 1:
            return 'range(%d, %d)' % (self._start, self._stop)
        return 'range(%d, %d, %d)' % (self._start, self._stop, self._step)

    def __len__(self):
        if self._len > _SSIZE_MAX:
            raise OverflowError('Python int too large to convert to C ssize_t')
        return self._len

    def __bool__(self):
        return self._len != 0

    def __getitem__(self, key):
        if isinstance(key, slice):
            start, stop, step = _indices(key, self._len)
            return _make(self._start + start * self._step, self._start + stop * self._step, self._step * step)
        i = _index(key)
        if i < 0:
            i += self._len
        if i < 0 or i >= self._len:
            raise IndexError('range object index out of range')
        return self._start + i * self._step

    def __contains__(self, value):
        if not isinstance(value, int):
            for v in self:
                if v == value:
                    return True
            return False
        if self._step > 0:
            inside = self._start <= value < self._stop
        else:
            inside = self._stop < value <= self._start
        return inside and (value - self._start) % self._step == 0

    def __iter__(self):
        v, step = self._start, self._step
        for _ in _count(self._len):
            yield v
            v += step

    def __reversed__(self):
        v, step = self._start + (self._len - 1) * self._step, self._step
        for _ in _count(self._len):
            yield v
            v -= step

    def count(self, value):
        return 1 if value in self else 0

    def index(self, value):
        if isinstance(value, int) and value in self:
            return (value - self._start) // self._step
        raise ValueError('%r is not in range' % (value,))

    def __eq__(self, other):
        if not hasattr(other, 'start') or type(other).__name__ != 'range':
            return NotImplemented
        if self._len != _length(other.start, other.stop, other.step):
            return False
        if self._len == 0:
            return True
        if self._start != other.start:
            return False
        return self._len == 1 or self._step == other.step

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        if self._len == 0:
            return hash((0, None, None))
        if self._len == 1:
            return hash((1, self._start, None))
        return hash((self._len, self._start, self._step))

    def __reduce__(self):
        return (range, (self._start, self._stop, self._step))


def _indices(s, length):
    # slice.indices(length) for lengths of any size
    step = 1 if s.step is None else _index(s.step)
    if step == 0:
        raise ValueError('slice step cannot be zero')
    lower, upper = (-1, length - 1) if step < 0 else (0, length)

    def bound(v, default):
        if v is None:
            return default
        v = _index(v)
        if v < 0:
            v += length
            return lower if v < lower else v
        return upper if v > upper else v
    return bound(s.start, upper if step < 0 else lower), bound(s.stop, lower if step < 0 else upper), step


def _count(n):
    i = 0
    while i < n:
        yield i
        i += 1


def _make(start, stop, step):
    return range(start, stop, step)
