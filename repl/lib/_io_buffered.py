# _io_buffered: io.BufferedReader and io.BufferedWriter over a raw binary stream
# (io.BytesIO, a file opened 'rb'/'wb'), as far as scripts use them: read, read1,
# peek, readline, readinto, iteration; write kept until flush (or buffer_size
# bytes), close, detach, seek/tell, with; CPython's errors. io imports this module.

_CHUNK = 8192


def _unsupported(what):
    import io
    return io.UnsupportedOperation(what)


class _Wrapper:
    # a stream over another (also _io_text's TextIOWrapper): its state and questions go to
    # the inner stream, self._inner (None once detached)
    _detached = 'raw stream has been detached'

    def _live(self):
        if self._inner is None:
            raise ValueError(self._detached)
        return self._inner

    @property
    def closed(self):
        return self._live().closed

    @property
    def name(self):
        return self._live().name

    def readable(self):
        return self._live().readable()

    def writable(self):
        return self._live().writable()

    def seekable(self):
        return self._live().seekable()

    def fileno(self):
        return self._live().fileno()

    def isatty(self):
        return False


class _Buffered(_Wrapper):
    # what BufferedReader and BufferedWriter share
    def __init__(self, raw, buffer_size=_CHUNK):
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, int):
            raise TypeError("'%s' object cannot be interpreted as an integer" % type(buffer_size).__name__)
        if buffer_size <= 0:
            raise ValueError('buffer size must be strictly positive')
        self._inner = raw
        self._size = buffer_size

    @property
    def raw(self):
        return self._inner

    @property
    def mode(self):
        return self._live().mode

    def _check_open(self):
        if self._live().closed:
            raise ValueError('I/O operation on closed file.')

    def tell(self):
        return self._live().tell()

    def seek(self, pos, whence=0):
        self.flush()
        return self._live().seek(pos, whence)

    def flush(self):
        self._check_open()

    def detach(self):
        raw = self._live()
        self.flush()
        self._inner = None
        return raw

    def close(self):
        raw = self._inner
        if raw is not None and not raw.closed:
            try:
                self.flush()
            finally:
                raw.close()

    def __enter__(self):
        self._check_open()
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        try:
            return '<_io.%s name=%r>' % (type(self).__name__, self._live().name)
        except AttributeError:
            return '<_io.%s>' % type(self).__name__


class BufferedReader(_Buffered):
    __module__ = 'io'

    def read(self, size=-1):
        self._check_open()
        if not self._inner.readable():
            raise _unsupported('read')
        return self._inner.read(-1 if size is None else size)

    def read1(self, size=-1):
        return self.read(size)

    def peek(self, size=0):
        self._check_open()
        pos = self._inner.tell()
        data = self._inner.read(max(size, self._size))
        self._inner.seek(pos)
        return data

    def readline(self, size=-1):
        self._check_open()
        return self._inner.readline(-1 if size is None else size)

    def readlines(self, hint=-1):
        return list(self)

    def readinto(self, b):
        data = self.read(len(b))
        b[:len(data)] = data
        return len(data)

    def __iter__(self):
        self._check_open()
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line


class BufferedWriter(_Buffered):
    __module__ = 'io'

    def __init__(self, raw, buffer_size=_CHUNK):
        super().__init__(raw, buffer_size)
        self._pending = b''

    def write(self, b):
        self._check_open()
        if isinstance(b, str):
            raise TypeError("a bytes-like object is required, not 'str'")
        data = bytes(b)
        self._pending += data
        if len(self._pending) >= self._size:
            self.flush()
        return len(data)

    def flush(self):
        self._check_open()
        if self._pending:
            data, self._pending = self._pending, b''
            self._inner.write(data)
        if hasattr(self._inner, 'flush'):
            self._inner.flush()

    def writelines(self, lines):
        for line in lines:
            self.write(line)
