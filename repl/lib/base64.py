# base64: RFC 4648 encodings over binascii, as CPython 3.11's (b64, urlsafe,
# standard, b16, encodebytes/decodebytes).
import binascii

__all__ = ['b64encode', 'b64decode', 'standard_b64encode', 'standard_b64decode', 'urlsafe_b64encode',
           'urlsafe_b64decode', 'b16encode', 'b16decode', 'encodebytes', 'decodebytes']


def _bytes_from_decode_data(s):
    if isinstance(s, str):
        try:
            return s.encode('ascii')
        except UnicodeEncodeError:
            raise ValueError('string argument should contain only ASCII characters')
    if isinstance(s, (bytes, bytearray)):
        return bytes(s)
    raise TypeError('argument should be a bytes-like object or ASCII string, not ' + repr(type(s).__name__))


def _swap(s, frm, to):
    # each byte of frm becomes the byte of to at its place (two-byte alphabets)
    out = bytearray(s)
    for i in range(len(out)):
        j = frm.find(out[i])
        if j >= 0:
            out[i] = to[j]
    return bytes(out)


def b64encode(s, altchars=None):
    encoded = binascii.b2a_base64(s, newline=False)
    if altchars is not None:
        assert len(altchars) == 2, repr(altchars)
        return _swap(encoded, b'+/', altchars)
    return encoded


def b64decode(s, altchars=None, validate=False):
    s = _bytes_from_decode_data(s)
    if altchars is not None:
        altchars = _bytes_from_decode_data(altchars)
        assert len(altchars) == 2, repr(altchars)
        s = _swap(s, altchars, b'+/')
    return binascii.a2b_base64(s, strict_mode=validate)


def standard_b64encode(s):
    return b64encode(s)


def standard_b64decode(s):
    return b64decode(s)


def urlsafe_b64encode(s):
    return b64encode(s, b'-_')


def urlsafe_b64decode(s):
    return b64decode(_swap(_bytes_from_decode_data(s), b'-_', b'+/'))


def b16encode(s):
    return binascii.hexlify(s).upper()


def b16decode(s, casefold=False):
    s = _bytes_from_decode_data(s)
    if casefold:
        s = s.upper()
    for c in s:
        if c not in b'0123456789ABCDEF':
            raise binascii.Error('Non-base16 digit found')
    return binascii.unhexlify(s)


def encodebytes(s):
    pieces = []
    for i in range(0, len(s), 57):
        pieces.append(binascii.b2a_base64(s[i:i + 57]))
    return b''.join(pieces)


def decodebytes(s):
    return binascii.a2b_base64(s)
