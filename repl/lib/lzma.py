# lzma — CPython 3.11's lzma over liblzma (_lzma, repl/mod_lzma.c): compress
# (FORMAT_XZ, FORMAT_ALONE; check, preset), decompress (FORMAT_AUTO, XZ,
# ALONE; every stream), LZMAFile and open (whole-file, _compression.py),
# LZMACompressor / LZMADecompressor (output at flush / once the stream is
# whole), LZMAError. Not here: FORMAT_RAW and custom filter chains.
import _lzma
from _compression import BufferedCompressor as _BufferedCompressor, BufferedDecompressor as _BufferedDecompressor
from _compression import CompressedFile as _CompressedFile, open_file as _open_file

__all__ = ['CHECK_NONE', 'CHECK_CRC32', 'CHECK_CRC64', 'CHECK_SHA256', 'CHECK_ID_MAX', 'CHECK_UNKNOWN',
           'FORMAT_AUTO', 'FORMAT_XZ', 'FORMAT_ALONE', 'FORMAT_RAW', 'PRESET_DEFAULT', 'PRESET_EXTREME',
           'LZMACompressor', 'LZMADecompressor', 'LZMAFile', 'LZMAError', 'open', 'compress', 'decompress',
           'is_check_supported']

FORMAT_AUTO, FORMAT_XZ, FORMAT_ALONE, FORMAT_RAW = 0, 1, 2, 3
CHECK_NONE, CHECK_CRC32, CHECK_CRC64, CHECK_SHA256 = 0, 1, 4, 10
CHECK_ID_MAX, CHECK_UNKNOWN = 15, 16
PRESET_DEFAULT, PRESET_EXTREME = 6, 0x80000000


class LZMAError(Exception):
    """Call to liblzma failed."""
    __module__ = '_lzma'


def is_check_supported(check_id):
    return check_id in (CHECK_NONE, CHECK_CRC32, CHECK_CRC64, CHECK_SHA256)


def _formats(format, filters):
    if filters is not None:
        raise ValueError('custom filter chains are not supported here')
    if format == FORMAT_RAW:
        raise ValueError('FORMAT_RAW is not supported here')
    if format not in (FORMAT_AUTO, FORMAT_XZ, FORMAT_ALONE):
        raise ValueError('Invalid container format: %d' % format)


def compress(data, format=FORMAT_XZ, check=-1, preset=None, filters=None):
    _formats(format, filters)
    if format == FORMAT_AUTO:
        raise ValueError('Invalid container format: %d' % format)
    if format != FORMAT_XZ and check not in (-1, CHECK_NONE):
        raise ValueError('Integrity checks are only supported by FORMAT_XZ')
    out = _lzma.compress(data, format, check, PRESET_DEFAULT if preset is None else preset)
    if isinstance(out, str):
        raise LZMAError(out)
    return out


def decompress(data, format=FORMAT_AUTO, memlimit=None, filters=None):
    _formats(format, filters)
    results = []
    data = bytes(data)
    while True:
        out = _lzma.decompress(data, format)
        if isinstance(out, str):
            if results:
                break  # trailing data that is no stream: ignored, as CPython does
            raise LZMAError(out)
        results.append(out[0])
        if not out[2]:
            raise LZMAError('Compressed data ended before the end-of-stream marker was reached')
        data = data[out[1]:]
        if not data:
            break
    return b''.join(results)


class LZMAFile(_CompressedFile):
    def __init__(self, filename=None, mode='r', *, format=None, check=-1, preset=None, filters=None):
        self._lz_format = format
        self._lz_check = check
        self._lz_preset = preset
        super().__init__(filename, mode)

    def _decompress(self, data):
        return decompress(data, FORMAT_AUTO if self._lz_format is None else self._lz_format)

    def _compress(self, data):
        return compress(data, FORMAT_XZ if self._lz_format is None else self._lz_format, self._lz_check, self._lz_preset)


def open(filename, mode='rb', *, format=None, check=-1, preset=None, filters=None, encoding=None, errors=None,
         newline=None):
    return _open_file(lambda f, m: LZMAFile(f, m, format=format, check=check, preset=preset, filters=filters),
                      filename, mode, encoding, errors, newline)


class LZMACompressor(_BufferedCompressor):
    def __init__(self, format=FORMAT_XZ, check=-1, preset=None, filters=None):
        _formats(format, filters)
        super().__init__(lambda data: compress(data, format, check, preset))


class LZMADecompressor(_BufferedDecompressor):
    def __init__(self, format=FORMAT_AUTO, memlimit=None, filters=None):
        _formats(format, filters)
        super().__init__(lambda buf: _lzma.decompress(buf, format), LZMAError, 'Already at end of stream')
        self.check = CHECK_UNKNOWN
