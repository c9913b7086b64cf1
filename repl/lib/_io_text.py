# _io_text: io.TextIOWrapper over a binary stream (io.BytesIO, open(path, 'rb'/'wb'),
# an io.BufferedReader), as CPython 3.11's: encoding and errors, newline (None: universal newlines read,
# '\n' written as is; '': lines end at \n, \r or \r\n, kept; '\n', '\r', '\r\n'),
# read, readline, iteration, write (kept until flush, detach or close, or a line
# end with line_buffering=True), detach, and CPython's errors. io.TextIOWrapper(x)
# makes one of these when x is not a file descriptor (io's TextIOWrapper.__new__).

import io as _io
from _io_buffered import _Wrapper

_CHUNK = 8192


class TextIOWrapper(_Wrapper, _io.TextIOWrapper):
    # the same name as the file class it derives from (type(t).__name__)
    __module__ = 'io'
    _detached = 'underlying buffer has been detached'

    def __init__(self, buffer, encoding=None, errors=None, newline=None, line_buffering=False,
                 write_through=False):
        if encoding is not None and not isinstance(encoding, str):
            raise TypeError('TextIOWrapper() argument \'encoding\' must be str or None, not %s'
                            % type(encoding).__name__)
        if newline is not None and not isinstance(newline, str):
            raise TypeError('TextIOWrapper() argument \'newline\' must be str or None, not %s'
                            % type(newline).__name__)
        if newline not in (None, '', '\n', '\r', '\r\n'):
            raise ValueError('illegal newline value: %s' % newline)
        ''.encode(encoding or 'utf-8')  # LookupError: unknown encoding
        self._inner = buffer
        self.encoding = encoding or 'UTF-8'
        self.errors = errors or 'strict'
        self._newline = newline
        self.line_buffering = line_buffering
        self.write_through = write_through
        self._pending = ''
        self._seen = 0  # the kinds of line end read (newlines)
        self._buf = ''
        self._pos = 0
        self._eof = False

    # ---------------------------------------------- state

    @property
    def buffer(self):
        return self._inner

    @property
    def newlines(self):
        return _io._NEWLINES[self._seen]

    def __repr__(self):
        parts = ['<_io.TextIOWrapper']
        if self._inner is not None:
            try:
                parts.append(' name=%r' % (self._inner.name,))
            except AttributeError:
                pass
            mode = getattr(self._inner, 'mode', None)
            if isinstance(mode, str):
                parts.append(' mode=%r' % mode.replace('b', ''))
        parts.append(' encoding=%r>' % self.encoding)
        return ''.join(parts)

    def _check(self, reading):
        b = self._live()
        if b.closed:
            raise ValueError('I/O operation on closed file.')
        if reading and not b.readable():
            raise _io.UnsupportedOperation('not readable')
        if not reading and not b.writable():
            raise _io.UnsupportedOperation('not writable')

    # ---------------------------------------------- writing

    def write(self, s):
        self._check(False)
        if not isinstance(s, str):
            raise TypeError('write() argument must be str, not %s' % type(s).__name__)
        n = len(s)
        if self._newline in ('\r', '\r\n'):
            s = s.replace('\n', self._newline)
        self._pending += s
        self._reset_read()
        if self.write_through or len(self._pending) >= _CHUNK or (self.line_buffering and ('\n' in s or '\r' in s)):
            self.flush()
        return n

    def flush(self):
        b = self._live()
        if b.closed:
            raise ValueError('I/O operation on closed file.')
        if self._pending:
            data = self._pending.encode(self.encoding, self.errors)
            self._pending = ''
            b.write(data)
        b.flush()

    # ---------------------------------------------- reading

    def _reset_read(self):
        # what was read ahead goes back to the buffer's position
        rest = self._buf[self._pos:]
        self._buf, self._pos = '', 0
        if rest and self._inner.seekable():
            self._inner.seek(-len(rest.encode(self.encoding, self.errors)), 1)
        self._eof = False

    def _translate(self, text):
        if (self._newline is None or self._newline == '') and ('\r' in text or '\n' in text):
            self._seen |= _io._seen_newlines(text)
            if self._newline is None:
                return text.replace('\r\n', '\n').replace('\r', '\n')
        return text

    def _fill(self):
        if self._pending:
            self.flush()
        if not self._eof:
            data = self._inner.read()
            self._eof = True
            self._buf = self._buf[self._pos:] + self._translate(data.decode(self.encoding, self.errors))
            self._pos = 0

    def read(self, size=-1):
        self._check(True)
        if size is not None and not isinstance(size, int):
            raise TypeError("argument should be integer or None, not '%s'" % type(size).__name__)
        self._fill()
        return self._slice(len(self._buf), size)

    def _line_end(self):
        # the index just past the next line's end, or -1
        buf, pos, nl = self._buf, self._pos, self._newline
        if nl is None or nl == '\n':
            i = buf.find('\n', pos)
            return -1 if i < 0 else i + 1
        if nl:
            i = buf.find(nl, pos)
            return -1 if i < 0 else i + len(nl)
        for i in range(pos, len(buf)):  # newline='': \n, \r or \r\n
            if buf[i] == '\n':
                return i + 1
            if buf[i] == '\r':
                return i + 2 if buf[i + 1:i + 2] == '\n' else i + 1
        return -1

    def readline(self, size=-1):
        self._check(True)
        if size is not None and not isinstance(size, int):
            raise TypeError("argument should be integer or None, not '%s'" % type(size).__name__)
        self._fill()
        end = self._line_end()
        return self._slice(len(self._buf) if end < 0 else end, size)

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def tell(self):
        b = self._live()
        self.flush()
        rest = self._buf[self._pos:]
        return b.tell() - len(rest.encode(self.encoding, self.errors))

    def seek(self, offset, whence=0):
        b = self._live()
        if b.closed:
            raise ValueError('I/O operation on closed file.')
        if whence not in (0, 1, 2):
            raise ValueError('invalid whence (%d, should be 0, 1 or 2)' % whence)
        if whence and offset:
            raise _io.UnsupportedOperation("can't do nonzero %s-relative seeks" % ('cur' if whence == 1 else 'end'))
        if whence == 0 and offset < 0:
            raise ValueError('Negative seek position %d' % offset)
        self.flush()
        if whence == 1:
            return self.tell()
        self._buf, self._pos, self._eof = '', 0, False
        return b.seek(offset, whence)

    def truncate(self, pos=None):
        self.flush()
        return self._live().truncate(pos)

    # ---------------------------------------------- the end

    def detach(self):
        b = self._live()
        self.flush()
        self._inner = None
        return b

    def close(self):
        b = self._inner
        if b is not None and not b.closed:
            try:
                self.flush()
            finally:
                b.close()
