# Crafted input to the language's readers of bytes and text (issue 22): each raises
# the exception CPython raises, or reads what CPython reads; nothing crashes.
import base64
import binascii
import datetime
import json
import pickle
import struct


def t(label, f):
    try:
        r = f()
        print(label, 'ok', repr(r)[:60])
    except Exception as e:
        print(label, type(e).__name__)


# pickle
t('empty', lambda: pickle.loads(b''))
t('truncated', lambda: pickle.loads(pickle.dumps([1, 2, 3])[:-3]))
t('bad opcode', lambda: pickle.loads(b'\x80\x04\xff.'))
t('protocol 9', lambda: pickle.loads(b'\x80\x09K\x01.'))
t('huge BINUNICODE8', lambda: pickle.loads(b'\x80\x04\x8d\xff\xff\xff\xff\xff\xff\xff\x7fabc.'))
t('huge BINBYTES', lambda: pickle.loads(b'\x80\x04B\xff\xff\xff\x7fabc.'))
t('memo miss', lambda: pickle.loads(b'\x80\x04h\x05.'))
t('LONG4 short', lambda: pickle.loads(b'\x80\x04\x8b\xff\xff\xff\xff.'))
t('deep lists', lambda: len(pickle.loads(b'\x80\x04' + b']' * 100000 + b'.')))
t('STOP on empty stack', lambda: pickle.loads(b'.'))
t('TUPLE without MARK', lambda: pickle.loads(b'\x80\x04t.'))
t('odd SETITEMS', lambda: pickle.loads(b'\x80\x04}(K\x01u.'))
t('odd DICT', lambda: pickle.loads(b'(K\x01d.'))
t('REDUCE of an int', lambda: pickle.loads(b'\x80\x04K\x01)R.'))
t('short BINFLOAT', lambda: pickle.loads(b'\x80\x04G\x00\x00.'))
t('text INT', lambda: pickle.loads(b'I99999999999999999999999\n.'))
t('bad text INT', lambda: pickle.loads(b'Ixyz\n.'))


def tm(label, f):  # with the message
    try:
        r = f()
        print(label, 'ok', repr(r)[:60])
    except Exception as e:
        print(label, type(e).__name__, repr(str(e)))


tm('FRAME past 2**63', lambda: pickle.loads(b'\x80\x04\x95' + (2**63).to_bytes(8, 'little') + b'N.'))
tm('FRAME 2**64-1', lambda: pickle.loads(b'\x80\x04\x95' + (2**64 - 1).to_bytes(8, 'little') + b'N.'))
tm('FRAME 2**40', lambda: pickle.loads(b'\x80\x04\x95' + (2**40).to_bytes(8, 'little') + b'N.'))
tm('FRAME one byte short', lambda: pickle.loads(b'\x80\x04\x95' + (3).to_bytes(8, 'little') + b'N.'))
tm('FRAME exact', lambda: pickle.loads(b'\x80\x04\x95' + (2).to_bytes(8, 'little') + b'N.'))
# a memo index grows CPython's memo array to twice as many pointers: 32 and 64 GiB
# here, which it gets or not by the machine's memory (MemoryError where it cannot)
def tmem(label, f):
    try:
        r = f()
    except MemoryError as e:
        r = 'MemoryError' if not e.args else e.args
    print(label, r in ('MemoryError', None))


tmem('LONG_BINPUT 0xffffffff', lambda: pickle.loads(b'\x80\x02Nr\xff\xff\xff\xff.'))
tmem('LONG_BINPUT 2**31', lambda: pickle.loads(b'\x80\x02Nr\x00\x00\x00\x80.'))
tmem('LONG_BINPUT then GET', lambda: pickle.loads(b'\x80\x02Nr\x00\x00\x00\x80j\x00\x00\x00\x80.'))
tm('LONG_BINPUT 2**20', lambda: pickle.loads(b'\x80\x02Nr\x00\x00\x10\x00.'))
tm('BINPUT 255 then GET', lambda: pickle.loads(b'\x80\x02K\x07q\xffh\xff\x86.'))
tm('PUT 2**61', lambda: pickle.loads(b'\x80\x02Np2305843009213693952\n.'))
tm('PUT 2**59 then 2**60', lambda: pickle.loads(b'\x80\x02Np576460752303423488\np1152921504606846976\n.'))
tm('PUT past ssize_t', lambda: pickle.loads(b'\x80\x02Np99999999999999999999\n.'))
tm('PUT 10**12', lambda: pickle.loads(b'\x80\x02Np1000000000000\n.'))
tm('PUT -1', lambda: pickle.loads(b'\x80\x02Np-1\n.'))
tm('LONG_BINGET missing', lambda: pickle.loads(b'\x80\x02Nj\xff\xff\xff\xff.'))
# struct
t('unpack short', lambda: struct.unpack('<q', b'123'))
t('huge count', lambda: struct.unpack('999999999999s', b'x'))
t('huge calcsize', lambda: struct.calcsize('9999999999999999999999i'))
t('B out of range', lambda: struct.pack('<B', 300))
t('e out of range', lambda: struct.pack('<e', 1e10))
t('p', lambda: struct.pack('2p', b'abc'))
t('iter_unpack rest', lambda: list(struct.iter_unpack('<i', b'12345')))
t('iter_unpack empty', lambda: list(struct.iter_unpack('', b'12345')))
t('offset -10', lambda: struct.unpack_from('<i', b'1234', offset=-10))
t('offset 2**62', lambda: struct.unpack_from('<i', b'1234', offset=2**62))
# base64 / binascii
t('b64 one char', lambda: base64.b64decode(b'a'))
t('b64 validate', lambda: base64.b64decode(b'ab!c', validate=True))
t('b64 non-ascii str', lambda: base64.b64decode('é'))
t('b16 lower', lambda: base64.b16decode(b'ab'))
t('unhexlify odd', lambda: binascii.unhexlify(b'abc'))
t('fromhex bad', lambda: bytes.fromhex('zz'))
# datetime
t('month 13', lambda: datetime.datetime.fromisoformat('2024-13-01'))
t('year 99999', lambda: datetime.datetime.fromisoformat('99999-01-01'))
t('isoformat', lambda: datetime.datetime.fromisoformat('2024-01-02T03:04:05'))
t('isoformat Z', lambda: datetime.datetime.fromisoformat('2024-01-02T03:04:05Z'))
t('Feb 30', lambda: datetime.datetime.strptime('2024-02-30', '%Y-%m-%d'))
t('timestamp 1e20', lambda: datetime.datetime.fromtimestamp(1e20))
t('timestamp nan', lambda: datetime.datetime.fromtimestamp(float('nan')))
t('10**10 days', lambda: datetime.timedelta(days=10**10))
t('ordinal 0', lambda: datetime.date.fromordinal(0))
t('past date.max', lambda: datetime.date.max + datetime.timedelta(days=1))
# numbers and sizes
t('int 5000 digits', lambda: int('1' * 5000))
t('int base 99', lambda: int('10', 99))
t('int base 1', lambda: int('10', 1))
t('int base 2**40', lambda: int('10', 2**40))
t('float 1e999999', lambda: float('1e999999'))
t('from_bytes middle', lambda: int.from_bytes(b'\xff' * 10, 'middle'))
t('to_bytes overflow', lambda: (2**64).to_bytes(2, 'little'))
t('bytes(2**62)', lambda: bytes(2**62))
t('bytes * 2**62', lambda: b'ab' * 2**62)
t('str * 2**62', lambda: 'ab' * 2**62)
# json
t('json bytes', lambda: json.loads(b'{"a": [1, 2, "\xc3\xa9"]}'))
t('json bytearray', lambda: json.loads(bytearray(b'[1]')))
t('json utf-8 BOM', lambda: json.loads(b'\xef\xbb\xbf[2]'))
t('json bad utf-8', lambda: json.loads(b'\x80[]'))
t('json int', lambda: json.loads(5))
t('json deep', lambda: json.loads('[' * 100000 + ']' * 100000))
t('decode bad', lambda: b'\xff'.decode('utf-8'))
t('decode unknown', lambda: b'x'.decode('nosuch'))
