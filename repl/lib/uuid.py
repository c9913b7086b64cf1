# uuid: RFC 4122 UUIDs as CPython 3.11's uuid module gives them: the UUID class
# (from hex, bytes, bytes_le, fields or int; its fields, str, repr, urn,
# variant, version, ordering, hashing, immutability), uuid1, uuid3, uuid4,
# uuid5, getnode and the NAMESPACE_* constants. uuid3/uuid5 hash with hashlib.

import os
import time as _time

RESERVED_NCS = 'reserved for NCS compatibility'
RFC_4122 = 'specified in RFC 4122'
RESERVED_MICROSOFT = 'reserved for Microsoft compatibility'
RESERVED_FUTURE = 'reserved for future definition'

_MAX = 1 << 128


class SafeUUID:
    safe = 0
    unsafe = -1
    unknown = None


class UUID:
    def __init__(self, hex=None, bytes=None, bytes_le=None, fields=None, int=None, version=None, *,
                 is_safe=SafeUUID.unknown):
        given = [hex, bytes, bytes_le, fields, int].count(None)
        if given != 4:
            raise TypeError('one of the hex, bytes, bytes_le, fields, or int arguments must be given')
        if hex is not None:
            hex = hex.replace('urn:', '').replace('uuid:', '')
            hex = hex.strip('{}').replace('-', '')
            if len(hex) != 32:
                raise ValueError('badly formed hexadecimal UUID string')
            value = _int(hex, 16)
        elif bytes_le is not None:
            if len(bytes_le) != 16:
                raise ValueError('bytes_le is not a 16-char string')
            b = bytes_le
            value = _int.from_bytes(b[3::-1] + b[5:3:-1] + b[7:5:-1] + b[8:], 'big')
        elif bytes is not None:
            if len(bytes) != 16:
                raise ValueError('bytes is not a 16-char string')
            value = _int.from_bytes(bytes, 'big')
        elif fields is not None:
            if len(fields) != 6:
                raise ValueError('fields is not a 6-tuple')
            time_low, time_mid, time_hi_version, clock_seq_hi_variant, clock_seq_low, node = fields
            for v, bits, n in [(time_low, 32, 1), (time_mid, 16, 2), (time_hi_version, 16, 3),
                               (clock_seq_hi_variant, 8, 4), (clock_seq_low, 8, 5), (node, 48, 6)]:
                if not 0 <= v < 1 << bits:
                    raise ValueError('field %d out of range (need a %d-bit value)' % (n, bits))
            clock_seq = (clock_seq_hi_variant << 8) | clock_seq_low
            value = (time_low << 96) | (time_mid << 80) | (time_hi_version << 64) | (clock_seq << 48) | node
        else:
            value = int
            if not 0 <= value < _MAX:
                raise ValueError('int is out of range (need a 128-bit value)')
        if version is not None:
            if not 1 <= version <= 5:
                raise ValueError('illegal version number')
            value &= ~(0xc000 << 48)
            value |= 0x8000 << 48
            value &= ~(0xf000 << 64)
            value |= version << 76
        self.__dict__['int'] = value
        self.__dict__['is_safe'] = is_safe

    def __setattr__(self, name, value):
        raise TypeError('UUID objects are immutable')

    def __eq__(self, other):
        if isinstance(other, UUID):
            return self.int == other.int
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, UUID):
            return self.int != other.int
        return NotImplemented

    def __lt__(self, other):
        if isinstance(other, UUID):
            return self.int < other.int
        return NotImplemented

    def __gt__(self, other):
        if isinstance(other, UUID):
            return self.int > other.int
        return NotImplemented

    def __le__(self, other):
        if isinstance(other, UUID):
            return self.int <= other.int
        return NotImplemented

    def __ge__(self, other):
        if isinstance(other, UUID):
            return self.int >= other.int
        return NotImplemented

    def __hash__(self):
        return hash(self.int)

    def __int__(self):
        return self.int

    def __repr__(self):
        return '%s(%r)' % (type(self).__name__, str(self))

    def __str__(self):
        h = '%032x' % self.int
        return '%s-%s-%s-%s-%s' % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])

    @property
    def bytes(self):
        return self.int.to_bytes(16, 'big')

    @property
    def bytes_le(self):
        b = self.bytes
        return b[3::-1] + b[5:3:-1] + b[7:5:-1] + b[8:]

    @property
    def fields(self):
        return (self.time_low, self.time_mid, self.time_hi_version, self.clock_seq_hi_variant,
                self.clock_seq_low, self.node)

    @property
    def time_low(self):
        return self.int >> 96

    @property
    def time_mid(self):
        return (self.int >> 80) & 0xffff

    @property
    def time_hi_version(self):
        return (self.int >> 64) & 0xffff

    @property
    def clock_seq_hi_variant(self):
        return (self.int >> 56) & 0xff

    @property
    def clock_seq_low(self):
        return (self.int >> 48) & 0xff

    @property
    def time(self):
        return ((self.time_hi_version & 0x0fff) << 48) | (self.time_mid << 32) | self.time_low

    @property
    def clock_seq(self):
        return ((self.clock_seq_hi_variant & 0x3f) << 8) | self.clock_seq_low

    @property
    def node(self):
        return self.int & 0xffffffffffff

    @property
    def hex(self):
        return '%032x' % self.int

    @property
    def urn(self):
        return 'urn:uuid:' + str(self)

    @property
    def variant(self):
        if not self.int & (0x8000 << 48):
            return RESERVED_NCS
        if not self.int & (0x4000 << 48):
            return RFC_4122
        if not self.int & (0x2000 << 48):
            return RESERVED_MICROSOFT
        return RESERVED_FUTURE

    @property
    def version(self):
        if self.variant == RFC_4122:
            return (self.int >> 76) & 0xf
        return None

    def __reduce__(self):
        return (UUID, (), {'int': self.int})


_int = int
_node = None


def getnode():
    # a random 48-bit node with the multicast bit set (RFC 4122 4.5), as CPython
    # falls back to when it reads no hardware address; the same for the process
    global _node
    if _node is None:
        _node = _int.from_bytes(os.urandom(6), 'big') | (1 << 40)
    return _node


_last_timestamp = None


def uuid1(node=None, clock_seq=None):
    global _last_timestamp
    nanoseconds = _time.time_ns()
    timestamp = nanoseconds // 100 + 0x01b21dd213814000
    if _last_timestamp is not None and timestamp <= _last_timestamp:
        timestamp = _last_timestamp + 1
    _last_timestamp = timestamp
    if clock_seq is None:
        clock_seq = _int.from_bytes(os.urandom(2), 'big') & 0x3fff
    time_low = timestamp & 0xffffffff
    time_mid = (timestamp >> 32) & 0xffff
    time_hi_version = (timestamp >> 48) & 0x0fff
    clock_seq_low = clock_seq & 0xff
    clock_seq_hi_variant = (clock_seq >> 8) & 0x3f
    if node is None:
        node = getnode()
    return UUID(fields=(time_low, time_mid, time_hi_version, clock_seq_hi_variant, clock_seq_low, node), version=1)


def _name_bytes(name):
    return bytes(name, 'utf-8')


def uuid3(namespace, name):
    import hashlib
    digest = hashlib.md5(namespace.bytes + _name_bytes(name)).digest()
    return UUID(bytes=digest[:16], version=3)


def uuid4():
    return UUID(bytes=os.urandom(16), version=4)


def uuid5(namespace, name):
    import hashlib
    digest = hashlib.sha1(namespace.bytes + _name_bytes(name)).digest()
    return UUID(bytes=digest[:16], version=5)


NAMESPACE_DNS = UUID('6ba7b810-9dad-11d1-80b4-00c04fd430c8')
NAMESPACE_URL = UUID('6ba7b811-9dad-11d1-80b4-00c04fd430c8')
NAMESPACE_OID = UUID('6ba7b812-9dad-11d1-80b4-00c04fd430c8')
NAMESPACE_X500 = UUID('6ba7b814-9dad-11d1-80b4-00c04fd430c8')
