# bz2 — CPython 3.11's bz2 over libbz2 (_bz2, repl/mod_bz2.c): compress,
# decompress (every stream), BZ2File and open (whole-file, _compression.py),
# BZ2Compressor and BZ2Decompressor (their output comes at flush / once the
# stream is whole).
import _bz2
from _compression import BufferedCompressor as _BufferedCompressor, BufferedDecompressor as _BufferedDecompressor
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


class BZ2Compressor(_BufferedCompressor):
    def __init__(self, compresslevel=9):
        level = _level(compresslevel)
        super().__init__(lambda data: compress(data, level))


class BZ2Decompressor(_BufferedDecompressor):
    def __init__(self):
        super().__init__(_bz2.decompress, OSError, 'End of stream already reached')
