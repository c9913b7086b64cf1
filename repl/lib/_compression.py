# _compression — the file objects of bz2 and lzma (BZ2File, LZMAFile) and their
# open(): a file read is decompressed whole on its first read, one written is
# compressed as it closes (as repl/lib/gzip.py's GzipFile). Each subclass gives
# _decompress(data) and _compress(data) and its class name for the messages.
import io
import os

_builtin_open = open
_MODE_READ, _MODE_WRITE = 1, 3


class CompressedFile(io.BytesIO):
    def __init__(self, filename, mode='r'):
        if mode in ('', 'r', 'rb'):
            mode_code = _MODE_READ
        elif mode in ('w', 'wb', 'x', 'xb', 'a', 'ab'):
            mode_code = _MODE_WRITE
        else:
            raise ValueError('Invalid mode: %r' % (mode,))
        if isinstance(filename, (str, bytes)) or hasattr(filename, '__fspath__'):
            mode = mode if 'b' in mode else mode + 'b'
            self._fp = _builtin_open(filename, mode)
            self._own = True
            self.name = os.fspath(filename)
        elif hasattr(filename, 'read') or hasattr(filename, 'write'):
            self._fp = filename
            self._own = False
            self.name = getattr(filename, 'name', '')
        else:
            raise TypeError('filename must be a str, bytes, file or PathLike object')
        self._mode = mode_code
        super().__init__(self._decompress(self._fp.read()) if mode_code == _MODE_READ else None)

    def _check_mode(self, want, op):
        if self.closed:
            raise ValueError('I/O operation on closed file')
        if self._mode != want:
            raise io.UnsupportedOperation('File not open for ' + ('reading' if want == _MODE_READ else 'writing'))

    def read(self, size=-1):
        self._check_mode(_MODE_READ, 'read')
        return super().read(size)

    def read1(self, size=-1):
        return self.read(size)

    def peek(self, n=0):
        self._check_mode(_MODE_READ, 'peek')
        at = self.tell()
        data = super().read(max(n, 1))
        self.seek(at)
        return data

    def readline(self, size=-1):
        self._check_mode(_MODE_READ, 'readline')
        return super().readline(size)

    def write(self, data):
        self._check_mode(_MODE_WRITE, 'write')
        return super().write(data)

    def readable(self):
        return self._mode == _MODE_READ

    def writable(self):
        return self._mode == _MODE_WRITE

    def close(self):
        if self.closed:
            return
        if self._mode == _MODE_WRITE:
            self._fp.write(self._compress(self.getvalue()))
        super().close()
        if self._own:
            self._fp.close()


class TextFile(io.StringIO):
    # open(..., 'rt' / 'wt'): text over a CompressedFile (UTF-8 unless encoding=)
    def __init__(self, binary, encoding, errors):
        self._binary = binary
        self._encoding = encoding or 'utf-8'
        self._errors = errors or 'strict'
        self.encoding = self._encoding
        self.name = binary.name
        super().__init__(binary.read().decode(self._encoding, self._errors) if binary.readable() else None)

    def close(self):
        if self.closed:
            return
        if self._binary.writable():
            self._binary.write(self.getvalue().encode(self._encoding, self._errors))
        super().close()
        self._binary.close()


def open_file(make, filename, mode, encoding, errors, newline):
    if 't' in mode:
        if 'b' in mode:
            raise ValueError('Invalid mode: %r' % (mode,))
    else:
        if encoding is not None:
            raise ValueError("Argument 'encoding' not supported in binary mode")
        if errors is not None:
            raise ValueError("Argument 'errors' not supported in binary mode")
        if newline is not None:
            raise ValueError("Argument 'newline' not supported in binary mode")
    binary = make(filename, mode.replace('t', ''))
    if 't' in mode:
        return TextFile(binary, encoding, errors)
    return binary


class BufferedCompressor:
    """The incremental compressor interface over a one-shot compress_all(data):
    compress() collects the data and returns b'', flush() compresses it all."""

    def __init__(self, compress_all):
        self._compress_all = compress_all
        self._data = []
        self._flushed = False

    def compress(self, data):
        if self._flushed:
            raise ValueError('Compressor has been flushed')
        self._data.append(bytes(data))
        return b''

    def flush(self):
        if self._flushed:
            raise ValueError('Repeated call to flush()')
        self._flushed = True
        return self._compress_all(b''.join(self._data))


class BufferedDecompressor:
    """The incremental decompressor interface over decode(buffer), which gives
    (data, bytes consumed, whether the stream ended) or an error message that
    error is raised with; the stream's data comes out when its end has come."""

    def __init__(self, decode, error, eof_message):
        self._decode, self._error, self._eof_message = decode, error, eof_message
        self._buf = b''
        self.eof = False
        self.unused_data = b''
        self.needs_input = True

    def decompress(self, data, max_length=-1):
        if self.eof:
            raise EOFError(self._eof_message)
        self._buf += bytes(data)
        out = self._decode(self._buf)
        if isinstance(out, str):
            raise self._error(out)
        if not out[2]:
            return b''
        # one stream: what follows its end is unused
        self.eof = True
        self.needs_input = False
        self.unused_data = self._buf[out[1]:]
        return out[0]
