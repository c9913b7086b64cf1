# bz2 — CPython 3.11's bz2 over libbz2 (_bz2, repl/mod_bz2.c): compress,
# decompress (every stream), BZ2File and open (whole-file, _compression.py),
# BZ2Compressor and BZ2Decompressor (their output comes at flush / once the
# stream is whole).
import _bz2
from _compression import CompressedFile as _CompressedFile, open_file as _open_file

__all__ = ['BZ2File', 'BZ2Compressor', 'BZ2Decompressor', 'open', 'compress', 'decompress']


def _level(compresslevel):
    if not (1 <= compresslevel <= 9):
        raise ValueError('compresslevel must be between 1 and 9')
    return compresslevel


def compress(data, compresslevel=9):
    out = _bz2.compress(data, _level(compresslevel))
    if isinstance(out, str):
        raise OSError(out)
    return out


def decompress(data):
    out = _bz2.decompress(data)
    if isinstance(out, str):
        raise OSError(out)
    if not out[2]:
        raise ValueError('Compressed data ended before the end-of-stream marker was reached')
    return out[0]


class BZ2File(_CompressedFile):
    def __init__(self, filename, mode='r', *, compresslevel=9):
        self._compresslevel = _level(compresslevel)
        super().__init__(filename, mode)

    def _decompress(self, data):
        return decompress(data)

    def _compress(self, data):
        return compress(data, self._compresslevel)


def open(filename, mode='rb', compresslevel=9, encoding=None, errors=None, newline=None):
    return _open_file(lambda f, m: BZ2File(f, m, compresslevel=compresslevel), filename, mode, encoding, errors,
                      newline)


class BZ2Compressor:
    def __init__(self, compresslevel=9):
        self._level = _level(compresslevel)
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
        return compress(b''.join(self._data), self._level)


class BZ2Decompressor:
    def __init__(self):
        self._buf = b''
        self.eof = False
        self.unused_data = b''
        self.needs_input = True

    def decompress(self, data, max_length=-1):
        if self.eof:
            raise EOFError('End of stream already reached')
        self._buf += bytes(data)
        out = _bz2.decompress(self._buf)
        if isinstance(out, str):
            raise OSError(out)
        if not out[2]:
            return b''
        # one stream: what follows its end is unused
        self.eof = True
        self.needs_input = False
        self.unused_data = self._buf[out[1]:]
        return out[0]
