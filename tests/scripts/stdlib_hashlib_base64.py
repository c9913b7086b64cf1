# hashlib, base64 and binascii as CPython 3.11
import base64
import binascii
import hashlib

for name in ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha3_256']:
    h = hashlib.new(name, b'hello world')
    print(name, h.name, h.digest_size, h.block_size, h.hexdigest())
h = hashlib.sha256()
h.update(b'hello ')
c = h.copy()
h.update(b'world')
print(h.hexdigest() == hashlib.sha256(b'hello world').hexdigest(), c.hexdigest() == hashlib.sha256(b'hello ').hexdigest())
print(hashlib.md5(b'').hexdigest(), hashlib.sha1('naïve'.encode()).digest(), hashlib.md5(bytearray(b'x')).hexdigest())
print(hashlib.sha256(b'a' * 1000000).hexdigest(), hashlib.new('SHA256', b'x').name)
for f in [lambda: hashlib.sha256('text'), lambda: hashlib.new('nope'), lambda: hashlib.md5().update('s')]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__ + ':', e)
data = bytes(range(256))
for s in [b'', b'f', b'fo', b'foo', b'foob', b'fooba', b'foobar', data, b'\xfb\xff\xfe']:
    e = base64.b64encode(s)
    print(e[:40], base64.b64decode(e) == s, base64.urlsafe_b64encode(s)[-8:], base64.b16encode(s[:8]))
print(base64.b64decode('Zm9v YmFy\n'), base64.b64decode(b'Zm9vYg=='), base64.b64decode(b'Zm9vYg'+b'=' * 4), base64.urlsafe_b64decode('-_8='))
print(base64.standard_b64encode(b'x'), base64.standard_b64decode(b'eA=='), base64.b64encode(b'\xfb\xff', altchars=b'*!'), base64.b64decode(b'+/8=', b'-_'))
print(base64.encodebytes(b'a' * 60), base64.decodebytes(b'YWJj\n'), base64.b16decode('0aFF'.upper()), base64.b16decode(b'0aff', casefold=True))
print(binascii.hexlify(b'\x01\xab'), binascii.unhexlify('01ab'), binascii.b2a_base64(b'hi'), binascii.a2b_base64(b'aGk='), binascii.b2a_hex(b'ab', '-'))
print(binascii.crc32(b'hello world'), binascii.crc32(b'world', binascii.crc32(b'hello ')), binascii.crc32(b''))
for f in [lambda: base64.b64decode(b'abc'), lambda: base64.b64decode(b'a'), lambda: base64.b64decode(b'ab!c', validate=True),
          lambda: base64.b64encode('text'), lambda: base64.b16decode(b'0g'), lambda: binascii.unhexlify(b'abc'),
          lambda: binascii.a2b_base64(b'ab=c', strict_mode=True), lambda: base64.b64decode('é')]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ':', e, isinstance(e, ValueError))
