# codecs, written in the language over str.encode/bytes.decode: lookup (CodecInfo
# with CPython's normalized names), encode/decode (text codecs and the bytes
# codecs hex, base64, zlib and the str codec rot13), getencoder/getdecoder,
# open (a file with the encoding), the BOM constants, lookup_error/register_error.

import binascii as _binascii
import builtins as _builtins
import sys as _sys

BOM_UTF8 = b'\xef\xbb\xbf'
BOM_UTF16_LE = BOM_LE = b'\xff\xfe'
BOM_UTF16_BE = BOM_BE = b'\xfe\xff'
BOM_UTF32_LE = b'\xff\xfe\x00\x00'
BOM_UTF32_BE = b'\x00\x00\xfe\xff'
BOM_UTF16 = BOM = BOM_UTF16_LE if _sys.byteorder == 'little' else BOM_UTF16_BE
BOM_UTF32 = BOM_UTF32_LE if _sys.byteorder == 'little' else BOM_UTF32_BE

# normalized alias (lower case, '-' and ' ' as '_') -> codec name
_ALIASES = {
    'utf_8': 'utf-8', 'utf8': 'utf-8', 'u8': 'utf-8', 'utf': 'utf-8', 'cp65001': 'utf-8',
    'utf_8_sig': 'utf-8-sig',
    'latin_1': 'iso8859-1', 'latin1': 'iso8859-1', 'iso_8859_1': 'iso8859-1', 'iso8859_1': 'iso8859-1',
    'l1': 'iso8859-1', 'latin': 'iso8859-1', '8859': 'iso8859-1', 'cp819': 'iso8859-1',
    'ascii': 'ascii', 'us_ascii': 'ascii', '646': 'ascii',
    'utf_16': 'utf-16', 'utf16': 'utf-16', 'utf_16_le': 'utf-16-le', 'utf_16le': 'utf-16-le',
    'utf_16_be': 'utf-16-be', 'utf_16be': 'utf-16-be',
    'utf_32': 'utf-32', 'utf32': 'utf-32', 'utf_32_le': 'utf-32-le', 'utf_32le': 'utf-32-le',
    'utf_32_be': 'utf-32-be', 'utf_32be': 'utf-32-be',
    'hex': 'hex', 'hex_codec': 'hex', 'base64': 'base64', 'base_64': 'base64', 'base64_codec': 'base64',
    'zlib': 'zlib', 'zip': 'zlib', 'zlib_codec': 'zlib', 'rot13': 'rot-13', 'rot_13': 'rot-13',
}


class CodecInfo(tuple):
    _is_text_encoding = True

    def __new__(cls, encode, decode, streamreader=None, streamwriter=None, incrementalencoder=None,
                incrementaldecoder=None, name=None, *, _is_text_encoding=None):
        self = tuple.__new__(cls, (encode, decode, streamreader, streamwriter))
        self.name = name
        self.encode = encode
        self.decode = decode
        self.incrementalencoder = incrementalencoder
        self.incrementaldecoder = incrementaldecoder
        self.streamwriter = streamwriter
        self.streamreader = streamreader
        if _is_text_encoding is not None:
            self._is_text_encoding = _is_text_encoding
        return self

    def __repr__(self):
        return '<%s.%s object for encoding %s at %#x>' % (self.__class__.__module__, self.__class__.__qualname__,
                                                            self.name, id(self))


def _text_codec(name):
    def encode(input, errors='strict'):
        return input.encode(name, errors), len(input)

    def decode(input, errors='strict'):
        return _builtins.bytes(input).decode(name, errors), len(input)

    return CodecInfo(encode, decode, name=name)


def _rot13(input, errors='strict'):
    out = []
    for c in input:
        if 'a' <= c <= 'z':
            c = chr((ord(c) - 97 + 13) % 26 + 97)
        elif 'A' <= c <= 'Z':
            c = chr((ord(c) - 65 + 13) % 26 + 65)
        out.append(c)
    return ''.join(out), len(input)


def _bytes_codec(name, enc, dec):
    return CodecInfo(lambda input, errors='strict': (enc(input), len(input)),
                     lambda input, errors='strict': (dec(input), len(input)), name=name, _is_text_encoding=False)


def _zlib_compress(b):
    import zlib
    return zlib.compress(b)


def _zlib_decompress(b):
    import zlib
    return zlib.decompress(b)


def _codec(name):
    if name == 'hex':
        return _bytes_codec(name, _binascii.b2a_hex, _binascii.a2b_hex)
    if name == 'base64':
        return _bytes_codec(name, _binascii.b2a_base64, _binascii.a2b_base64)
    if name == 'zlib':
        return _bytes_codec(name, _zlib_compress, _zlib_decompress)
    if name == 'rot-13':
        return CodecInfo(_rot13, _rot13, name=name, _is_text_encoding=False)
    return _text_codec(name)


_cache = {}


def lookup(encoding, /):
    if not isinstance(encoding, str):
        raise TypeError('lookup() argument must be str, not %s' % type(encoding).__name__)
    key = encoding.lower().replace('-', '_').replace(' ', '_')
    if key in _cache:
        return _cache[key]
    name = _ALIASES.get(key)
    if name is None:
        try:
            ''.encode(encoding)
        except LookupError:
            raise LookupError('unknown encoding: %s' % encoding) from None
        name = key.replace('_', '-')
    info = _cache[key] = _codec(name)
    return info


def encode(obj, encoding='utf-8', errors='strict'):
    return lookup(encoding).encode(obj, errors)[0]


def decode(obj, encoding='utf-8', errors='strict'):
    return lookup(encoding).decode(obj, errors)[0]


def getencoder(encoding):
    return lookup(encoding).encode


def getdecoder(encoding):
    return lookup(encoding).decode


def strict_errors(exception, /):
    raise exception


def ignore_errors(exception, /):
    return ('', exception.end)


def replace_errors(exception, /):
    if isinstance(exception, UnicodeDecodeError):
        return ('\ufffd', exception.end)
    return ('?' * (exception.end - exception.start), exception.end)


def backslashreplace_errors(exception, /):
    raise exception


_error_handlers = {'strict': strict_errors, 'ignore': ignore_errors, 'replace': replace_errors,
                   'backslashreplace': backslashreplace_errors}


def lookup_error(name, /):
    try:
        return _error_handlers[name]
    except KeyError:
        raise LookupError("unknown error handler name '%s'" % name) from None


def register_error(errors, handler, /):
    if not callable(handler):
        raise TypeError('handler must be callable')
    _error_handlers[errors] = handler


def register(search_function, /):
    if not callable(search_function):
        raise TypeError('argument must be callable')


def open(filename, mode='r', encoding=None, errors='strict', buffering=-1):
    if encoding is not None and 'b' not in mode:
        return _builtins.open(filename, mode, encoding=encoding, errors=errors)
    return _builtins.open(filename, mode)
