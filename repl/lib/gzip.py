# gzip, written in the language over zlib (RFC 1952): gzip.open, GzipFile,
# compress, decompress and BadGzipFile, with CPython 3.11's bytes and errors.
# A file read is decompressed whole on its first read (all its members); a
# file written is compressed as it is closed.

import io
import os
import struct
import time
import zlib

__all__ = ['BadGzipFile', 'GzipFile', 'open', 'compress', 'decompress']

_builtin_open = open
READ, WRITE = 1, 2  # GzipFile.mode, as CPython's
_FTEXT, _FHCRC, _FEXTRA, _FNAME, _FCOMMENT = 1, 2, 4, 8, 16


class BadGzipFile(OSError):
    pass


def _extra_flags(compresslevel):
    return b'\x02' if compresslevel == 9 else b'\x04' if compresslevel == 1 else b'\x00'


def _mtime_bytes(mtime):
    return struct.pack('<L', int(time.time() if mtime is None else mtime) & 0xffffffff)


def _skip_header(data, pos, first):
    # the position after the member header at pos, or None at the zero padding that may follow a member
    if data[pos:pos + 2] != b'\x1f\x8b':
        if not first and not data[pos:].strip(b'\x00'):
            return None
        raise BadGzipFile('Not a gzipped file (%r)' % data[pos:pos + 2])
    if len(data) < pos + 10:
        raise EOFError('Compressed file ended before the end-of-stream marker was reached')
    if data[pos + 2] != 8:
        raise BadGzipFile('Unknown compression method')
    flags = data[pos + 3]
    pos += 10
    if flags & _FEXTRA:
        pos += 2 + struct.unpack('<H', data[pos:pos + 2])[0]
    for flag in (_FNAME, _FCOMMENT):
        if flags & flag:
            end = data.find(b'\x00', pos)
            if end < 0:
                raise EOFError('Compressed file ended before the end-of-stream marker was reached')
            pos = end + 1
    if flags & _FHCRC:
        pos += 2
    return pos


def _members(data, detailed):
    # the data of every member of data and the last one's time; a CRC error
    # names both sums when detailed (GzipFile), not in decompress()
    data = bytes(data)
    out = []
    pos = 0
    mtime = None
    first = True
    while pos < len(data):
        start = _skip_header(data, pos, first)
        if start is None:
            break
        d = zlib.decompressobj(-zlib.MAX_WBITS)
        chunk = d.decompress(data[start:])
        if not d.eof or len(d.unused_data) < 8:
            raise EOFError('Compressed file ended before the end-of-stream marker was reached')
        crc, size = struct.unpack('<II', d.unused_data[:8])
        if crc != zlib.crc32(chunk):
            raise BadGzipFile('CRC check failed' + (' %s != %s' % (hex(crc), hex(zlib.crc32(chunk))) if detailed else ''))
        if size != len(chunk) & 0xffffffff:
            raise BadGzipFile('Incorrect length of data produced')
        out.append(chunk)
        mtime = struct.unpack('<L', data[pos + 4:pos + 8])[0]
        pos = len(data) - len(d.unused_data) + 8
        first = False
    return b''.join(out), mtime


def decompress(data):
    """Decompress a gzip compressed string in one shot.
    Return the decompressed string."""
    return _members(data, False)[0]


def compress(data, compresslevel=9, *, mtime=None):
    """Compress data in one shot and return the compressed string."""
    data = bytes(data)
    if mtime == 0:  # zlib's own gzip header: no time, its OS byte (3)
        return zlib.compress(data, compresslevel, wbits=16 + zlib.MAX_WBITS)
    header = b'\x1f\x8b\x08\x00' + _mtime_bytes(mtime) + _extra_flags(compresslevel) + b'\xff'
    body = zlib.compress(data, compresslevel, wbits=-zlib.MAX_WBITS)
    return header + body + struct.pack('<II', zlib.crc32(data), len(data) & 0xffffffff)


class GzipFile(io.BytesIO):
    """A file of gzip's format, read or written as bytes."""

    def __init__(self, filename=None, mode=None, compresslevel=9, fileobj=None, mtime=None):
        if mode and ('t' in mode or 'U' in mode):
            raise ValueError('Invalid mode: %r' % (mode,))
        if mode and 'b' not in mode:
            mode += 'b'
        if fileobj is None:
            fileobj = self._own = _builtin_open(filename, mode or 'rb')
        else:
            self._own = None
        if filename is None:
            filename = getattr(fileobj, 'name', '')
            if not isinstance(filename, (str, bytes)):
                filename = ''
        else:
            filename = os.fspath(filename)
        if mode is None:
            mode = getattr(fileobj, 'mode', 'rb')
        if mode.startswith('r'):
            data, self._read_mtime = _members(fileobj.read(), True)
            super().__init__(data)
            self.mode = READ
        elif mode[:1] in ('w', 'a', 'x'):
            super().__init__()
            self.mode = WRITE
            self._level = compresslevel
            self._mtime = mtime
            self._write_header(filename)
        else:
            raise ValueError('Invalid mode: %r' % (mode,))
        self.name = filename
        self.fileobj = fileobj

    def _write_header(self, filename):
        name = os.path.basename(filename)
        if not isinstance(name, bytes):
            name = name.encode('latin-1')
        if name.endswith(b'.gz'):
            name = name[:-3]
        self._header = (b'\x1f\x8b\x08' + (b'\x08' if name else b'\x00') + _mtime_bytes(self._mtime)
                        + _extra_flags(self._level) + b'\xff' + (name + b'\x00' if name else b''))

    @property
    def mtime(self):
        # the last member's time, once read
        return self._read_mtime

    def __repr__(self):
        return '<gzip ' + repr(self.fileobj) + ' ' + hex(id(self)) + '>'

    def _check_mode(self, mode, op):
        if self.closed:
            raise ValueError('I/O operation on closed file.')
        if self.mode != mode:
            raise OSError(9, op + '() on ' + ('read-only' if self.mode == READ else 'write-only') + ' GzipFile object')

    def read(self, size=-1):
        self._check_mode(READ, 'read')
        return super().read(size)

    def read1(self, size=-1):
        return self.read(size)

    def peek(self, n):
        self._check_mode(READ, 'peek')
        at = self.tell()
        data = super().read(max(n, 1))
        self.seek(at)
        return data

    def readline(self, size=-1):
        self._check_mode(READ, 'readline')
        return super().readline(size)

    def write(self, data):
        self._check_mode(WRITE, 'write')
        return super().write(data)

    def readable(self):
        return self.mode == READ

    def writable(self):
        return self.mode == WRITE

    def flush(self, zlib_mode=None):
        if self.closed:
            raise ValueError('I/O operation on closed file.')

    def close(self):
        if self.closed:
            return
        if self.mode == WRITE:
            data = self.getvalue()
            c = zlib.compressobj(self._level, zlib.DEFLATED, -zlib.MAX_WBITS, zlib.DEF_MEM_LEVEL, 0)
            self.fileobj.write(self._header + c.compress(data) + c.flush()
                               + struct.pack('<II', zlib.crc32(data), len(data) & 0xffffffff))
        super().close()
        if self._own is not None:
            self._own.close()


class _TextFile(io.StringIO):
    # gzip.open(..., 'rt' / 'wt'): text over a GzipFile (UTF-8 unless encoding=)
    def __init__(self, binary, encoding, errors):
        self._binary = binary
        self._encoding = encoding or 'utf-8'
        self._errors = errors or 'strict'
        self.encoding = self._encoding
        self.name = binary.name
        super().__init__(binary.read().decode(self._encoding, self._errors) if binary.mode == READ else None)

    def close(self):
        if self.closed:
            return
        if self._binary.mode == WRITE:
            self._binary.write(self.getvalue().encode(self._encoding, self._errors))
        super().close()
        self._binary.close()


def open(filename, mode='rb', compresslevel=9, encoding=None, errors=None, newline=None):
    """Open a gzip-compressed file in binary or text mode."""
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
    gz_mode = mode.replace('t', '')
    if isinstance(filename, (str, bytes)) or hasattr(filename, '__fspath__'):
        binary = GzipFile(filename, gz_mode, compresslevel)
    elif hasattr(filename, 'read') or hasattr(filename, 'write'):
        binary = GzipFile(None, gz_mode, compresslevel, filename)
    else:
        raise TypeError('filename must be a str or bytes object, or a file')
    if 't' in mode:
        return _TextFile(binary, encoding, errors)
    return binary
