# uuid as CPython 3.11's: parsing, fields, uuid3/uuid5 digests, uuid1/uuid4 versions, errors; os.urandom
import uuid
u = uuid.UUID('{12345678-1234-5678-1234-567812345678}')
print(u, repr(u), u.hex, u.int, u.urn, u.version, u.variant)
print(u.bytes, u.bytes_le, u.fields, u.time_low, u.time_mid, u.node, u.clock_seq, u.time)
print(uuid.UUID(bytes=u.bytes) == u, uuid.UUID(bytes_le=u.bytes_le) == u, uuid.UUID(fields=u.fields) == u, uuid.UUID(int=u.int) == u)
print(uuid.UUID('urn:uuid:12345678123456781234567812345678') == u, hash(u) == hash(u.int), int(u) == u.int)
print(uuid.uuid3(uuid.NAMESPACE_DNS, 'python.org'), uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org'))
print(uuid.uuid5(uuid.NAMESPACE_URL, 'https://pytorch.org'), uuid.uuid3(uuid.NAMESPACE_OID, '1.2.3'))
try:
    uuid.uuid3(uuid.NAMESPACE_OID, b'1.2.3')
except TypeError as e:
    print('TypeError', e)
import os
print(len(os.urandom(16)), type(os.urandom(0)))
print(uuid.NAMESPACE_X500, uuid.UUID(int=0), uuid.UUID(int=2**128 - 1).variant)
v = uuid.UUID(int=5, version=4)
print(v, v.version, v.variant)
a, b = uuid.UUID(int=1), uuid.UUID(int=2)
print(a < b, a == b, sorted([b, a]), {a: 1}[uuid.UUID(int=1)], str(a) == '00000000-0000-0000-0000-000000000001')
r = uuid.uuid4()
print(type(r).__name__, r.version, r.variant, len(str(r)), r != uuid.uuid4())
t = uuid.uuid1()
print(t.version, t.variant, uuid.uuid1().time >= t.time, isinstance(uuid.getnode(), int))
for bad in [dict(hex='xyz'), dict(hex='g' * 32), dict(bytes=b'abc'), dict(int=-1), dict(int=5, version=9), {}]:
    try:
        uuid.UUID(**bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
try:
    u.int = 5
except TypeError as e:
    print('TypeError', e)
