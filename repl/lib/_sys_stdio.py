# sys.stdout and sys.stderr (sys.__stdout__ and sys.__stderr__ are the same objects, made
# on first use): CPython 3.11's text streams over descriptors 1 and 2. write(str),
# writelines, flush, fileno, isatty, readable/writable/seekable, name, mode, encoding,
# errors, line_buffering, write_through, closed, reconfigure(...); .buffer is a
# BufferedWriter over .buffer.raw (a FileIO) whose write(bytes) goes out in order with
# what print() and write() wrote (print() itself writes past these objects while sys.stdout
# is the original: the _stdio helpers and print() share the C stream).

import _stdio
import io
from _io_buffered import BufferedWriter as _BufferedWriter

_closed = 'I/O operation on closed file.'


class _WriteOnly:
    # what the raw and the text stream over descriptor _fd answer alike (_check: closed)
    def flush(self):
        self._check()
        _stdio.flush(self._fd)

    def isatty(self):
        self._check()
        return _stdio.isatty(self._fd)

    def readable(self):
        self._check()
        return False

    def writable(self):
        self._check()
        return True

    def seekable(self):
        self._check()
        return False


class FileIO(_WriteOnly):
    __module__ = '_io'

    def __init__(self, fd, name):
        self._fd = fd
        self.name = name
        self.mode = 'wb'
        self.closefd = False
        self.closed = False

    def __repr__(self):
        return '<_io.FileIO name=%r mode=%r closefd=False>' % (self.name, self.mode)

    def _check(self):
        if self.closed:
            raise ValueError(_closed)

    def write(self, b):
        self._check()
        if isinstance(b, str):
            raise TypeError("a bytes-like object is required, not 'str'")
        return _stdio.write(self._fd, bytes(b))

    def fileno(self):
        self._check()
        return self._fd

    def close(self):
        self.closed = True


class BufferedWriter(_BufferedWriter):
    # writes go out at once: in order with print() and the text stream's writes
    __module__ = '_io'

    def write(self, b):
        self._check_open()
        if isinstance(b, str):
            raise TypeError("a bytes-like object is required, not 'str'")
        return self._inner.write(b)

    def isatty(self):
        return self._live().isatty()


class TextIOWrapper(_WriteOnly, io.TextIOWrapper):
    __module__ = '_io'

    def __init__(self, fd, name):
        self._fd = fd
        self.name = name
        self.mode = 'w'
        self.encoding = 'utf-8'
        self.errors = _stdio.errors(fd)
        # python -u (PYTHONUNBUFFERED): no buffer between the text stream and the FileIO
        unbuffered = _stdio.unbuffered()
        self.line_buffering = fd == 2 and not unbuffered
        self.write_through = unbuffered
        self._newline = None
        self.buffer = FileIO(fd, name) if unbuffered else BufferedWriter(FileIO(fd, name))

    def __repr__(self):
        return '<_io.TextIOWrapper name=%r mode=%r encoding=%r>' % (self.name, self.mode, self.encoding)

    @property
    def closed(self):
        return self.buffer.closed

    @property
    def newlines(self):
        return None

    def _check(self, reading=False):
        if self.closed:
            raise ValueError(_closed)
        if reading:
            raise io.UnsupportedOperation('not readable')

    def write(self, s):
        self._check()
        if not isinstance(s, str):
            raise TypeError('write() argument must be str, not ' + type(s).__name__)
        if self._newline not in (None, '', '\n'):
            s = s.replace('\n', self._newline)
        if self.encoding.lower().replace('-', '').replace('_', '') in ('utf8', 'utf8sig'):
            n = _stdio.write(self._fd, s)
        else:
            n = len(s)
            _stdio.write(self._fd, s.encode(self.encoding, self.errors))
        if self.line_buffering and ('\n' in s or '\r' in s):
            _stdio.flush(self._fd)
        return n

    def fileno(self):
        return self._fd

    def tell(self):
        self._check()
        raise io.UnsupportedOperation('underlying stream is not seekable')

    def seek(self, offset, whence=0):
        self._check()
        raise io.UnsupportedOperation('underlying stream is not seekable')

    def detach(self):
        buffer = self.buffer
        self.buffer = None
        return buffer

    def close(self):
        if not self.closed:
            _stdio.flush(self._fd)
            self.buffer.close()

    def reconfigure(self, *args, **kwargs):
        if args:
            raise TypeError('reconfigure() takes no positional arguments')
        for key in kwargs:
            if key not in ('encoding', 'errors', 'newline', 'line_buffering', 'write_through'):
                raise TypeError("'%s' is an invalid keyword argument for reconfigure()" % key)
        encoding, errors = kwargs.get('encoding'), kwargs.get('errors')
        for key in ('encoding', 'errors', 'newline'):
            if kwargs.get(key) is not None and not isinstance(kwargs[key], str):
                raise TypeError('bad argument type for built-in operation')
        if kwargs.get('newline') not in (None, '', '\n', '\r', '\r\n'):
            raise ValueError('illegal newline value: %s' % kwargs['newline'])
        for key in ('line_buffering', 'write_through'):
            value = kwargs.get(key)
            if value is not None and not isinstance(value, int):
                raise TypeError("'%s' object cannot be interpreted as an integer" % type(value).__name__)
        if encoding is not None:
            ''.encode(encoding)  # LookupError: unknown encoding
            self.encoding = encoding
            self.errors = 'strict' if errors is None else errors
        elif errors is not None:
            self.errors = errors
        if 'newline' in kwargs:
            self._newline = kwargs['newline']
        if kwargs.get('line_buffering') is not None:
            self.line_buffering = bool(kwargs['line_buffering'])
            _stdio.line_buffering(self._fd, self.line_buffering)
        if kwargs.get('write_through') is not None:
            self.write_through = bool(kwargs['write_through'])
        self.flush()


stdout = TextIOWrapper(1, '<stdout>')
stderr = TextIOWrapper(2, '<stderr>')
__stdout__ = stdout
__stderr__ = stderr
