# json as CPython's (issue 22): integers past 64 bits both ways, NaN / Infinity /
# -Infinity both ways (allow_nan), UTF-8/16/32 bytes (the encoding detected),
# JSONDecodeError's message, pos, lineno and colno at CPython's places, the
# parse_* hooks and strict=False; and the UTF-16 / UTF-32 codecs themselves.
import json

for v in [2**70, -2**70, float('nan'), float('inf'), -float('inf'), {2**70: 1}, [1.5, 2**64, -2**63 - 1],
          {'a': [float('nan'), 2**100]}]:
    print(json.dumps(v))
for v in [float('nan'), [float('inf')], {'x': -float('inf')}]:
    try:
        json.dumps(v, allow_nan=False)
    except ValueError as e:
        print('ValueError', e)

docs = ['123456789012345678901234567890', '-123456789012345678901234567890', '[18446744073709551616, -9223372036854775809]',
        'NaN', '[Infinity, -Infinity, NaN]', '{"a": NaN}', '1e400', '-1e400', '-0', '-0.0', '1E5', '1.5e+3', '2.5E-3',
        '1e', '1.', '1.e5', '-', '--1', '-a', '+1', '.5', '0123', '00', '[1,]', '[,1]', '{"a":1,}', '{"a" 1}', '{"a":}',
        '{1: 2}', "{'a': 1}", '[1 2]', '{"a": 1 "b": 2}', '"abc', '"\\x"', '"\\uZZZZ"', '"\\u12"', '"\\u12"x',
        '"a\x01"', '"a\nb"', '', '  ', '\n\n  x', '{', '[', '[1', '{"a"', '{"a":', '{"a":1', 'nul', 'tru', 'fals',
        'Nan', 'infinity', '-Inf', '[1] x', '[1]\n\n  x', '"\\ud83d\\ude00"', '"\\u00e9\\n\\t\\"\\\\\\/"',
        '{"a": [1, {"b": nan}]}', '"é" x', '["é", "ü", 1 2]', '{"a": 1, "a": 2}', '  [1, 2]  ', '\t{"k": [true, false, null]}\r\n']
for s in docs:
    try:
        print(ascii(s), ascii(json.loads(s)))
    except json.JSONDecodeError as e:
        print(ascii(s), 'JSONDecodeError', e, '|', e.msg, e.pos, e.lineno, e.colno)
try:
    json.loads('\ufeff[1]')
except json.JSONDecodeError as e:
    print('BOM str', e.msg, e.pos)

for enc in ['utf-16', 'utf-16-le', 'utf-16-be', 'utf-32', 'utf-32-le', 'utf-32-be', 'utf-8-sig', 'utf-8']:
    b = '[1, "é€😀", {"k": NaN}]'.encode(enc)
    print(enc, b[:8], ascii(json.loads(b)), ascii(json.loads(bytearray(b))))
for b in [b'12', b'1\x00', b'\x001', b'[\x00', b'\xef\xbb\xbf{}', b'[1,', b'\xff']:
    try:
        print(b, ascii(json.loads(b)))
    except (ValueError, UnicodeDecodeError) as e:
        print(b, type(e).__name__, e)

try:
    json.loads('1' * 5000)
except ValueError as e:
    print('ValueError', str(e)[:40])
print(json.loads('[1.5, 2]', parse_float=str, parse_int=float), json.loads('[NaN, -Infinity]', parse_constant=repr))
print(json.loads('{"b": 1, "a": 2}', object_pairs_hook=list), json.loads('{"a": {"b": 1}}', object_hook=len))
print(ascii(json.loads('"a\tb\x01"', strict=False)))
d = json.JSONDecoder()
print(d.raw_decode('[1, 2] tail'), d.raw_decode('xx{"a": 1}', 2))
for args in [('[1', 0), ('[1]', 5)]:
    try:
        d.raw_decode(*args)
    except json.JSONDecodeError as e:
        print('raw_decode', e)

# the codecs
for enc in ['utf-16', 'utf-16-le', 'utf-16-be', 'utf-32', 'utf-32-le', 'utf-32-be', 'UTF_16', 'utf16', 'utf-8-sig']:
    b = 'aé€😀'.encode(enc)
    print(enc, b, ascii(b.decode(enc)))
print(ascii(b'\xfe\xff\x00a'.decode('utf-16')), ascii(b'a\x00'.decode('utf-16')), ascii(b'abc'.decode('utf-8-sig')))
for b, enc, errors in [(b'a\x00b', 'utf-16', 'strict'), (b'a\x00b', 'utf-16-le', 'replace'), (b'a\x00b', 'utf-16-be', 'ignore'),
                       (b'\x00\xd8a\x00', 'utf-16-le', 'strict'), (b'\x00\xdca\x00', 'utf-16-le', 'strict'),
                       (b'\x00\xdca\x00', 'utf-16-le', 'replace'), (b'\x00\xd8', 'utf-16-le', 'strict'),
                       (b'\x00\x00\x11\x00', 'utf-32-le', 'strict'), (b'\x00\xd8\x00\x00', 'utf-32-le', 'strict'),
                       (b'a\x00\x00', 'utf-32', 'strict'), (b'a\x00\x00\x00', 'utf-32', 'bogus')]:
    try:
        print(b, enc, errors, ascii(b.decode(enc, errors)))
    except (UnicodeDecodeError, LookupError) as e:
        print(b, enc, errors, type(e).__name__, e)
