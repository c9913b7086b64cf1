# C functions given a subclass instance see its built-in value, as CPython 3.11's: itertools, zlib, hashlib, struct, binascii, base64, math, bytes methods and indexing, bytes/bytearray subclasses
import itertools, zlib, hashlib, struct, binascii, base64, json, math, operator, functools, collections
class S(str): pass
class B(bytes): pass
class BA(bytearray): pass
class I(int): pass
class F(float): pass
class L(list): pass
class T(tuple): pass
class D(dict): pass
tests = [
 "list(itertools.islice(range(10), I(3)))",
 "list(itertools.repeat('x', I(2)))",
 "list(itertools.combinations(L([1,2,3]), I(2)))",
 "list(itertools.permutations(T((1,2,3)), I(2)))",
 "list(itertools.product(L([1,2]), repeat=I(2)))",
 "list(itertools.chain(L([1]), T((2,))))",
 "list(itertools.accumulate(L([1,2,3])))",
 "list(itertools.zip_longest(S('ab'), L([1])))",
 "list(itertools.count(I(5)))[:0] if False else next(itertools.count(I(5), I(2)))",
 "list(itertools.combinations_with_replacement(S('ab'), I(2)))",
 "list(itertools.compress(S('abc'), L([1,0,1])))",
 "[k for k, g in itertools.groupby(S('aabb'))]",
 "list(itertools.starmap(pow, L([(2, I(3))])))",
 "list(itertools.tee(L([1,2]), I(2))[1])",
 "list(itertools.pairwise(S('abc')))",
 "zlib.crc32(B(b'abc'))",
 "zlib.crc32(b'abc', I(5))",
 "zlib.adler32(BA(b'abc'))",
 "zlib.decompress(zlib.compress(B(b'hello'), I(6)))",
 "zlib.compress(BA(b'x'))[:2]",
 "hashlib.md5(B(b'abc')).hexdigest()",
 "hashlib.sha256(BA(b'abc')).hexdigest()[:16]",
 "hashlib.new(S('sha1'), B(b'a')).hexdigest()[:8]",
 "h = hashlib.sha1(); h.update(B(b'x')); h.hexdigest()[:8]",
 "b'abc'.startswith(B(b'a'))",
 "b'a,b'.split(B(b','))",
 "B(b'a,b').split(b',')",
 "b'abc'.replace(B(b'b'), BA(b'X'))",
 "b'-'.join(L([B(b'a'), BA(b'b')]))",
 "b'abc'.find(B(b'c'), I(1))",
 "b'abc'[I(1)]",
 "bytes(B(b'xy'))",
 "bytearray(B(b'xy'))",
 "B(b'ab') + b'c'",
 "b'ab' + B(b'c')",
 "b'%s' % B(b'z')",
 "b'abc'.count(B(b'a'))",
 "B(b'ab').hex()",
 "b'x' * I(3)",
 "bytes.fromhex(S('0a0b'))",
 "B(b'ab').decode(S('utf-8'))",
 "b'ab'.ljust(I(4), B(b'-'))",
 "b'abc'.index(BA(b'c'))",
 "b'ab' in B(b'xaby')",
 "B(b'x') in b'axb'",
 "binascii.hexlify(B(b'ab'))",
 "base64.b64encode(B(b'ab'))",
 "struct.unpack('<h', B(b'\\x01\\x00'))",
 "struct.unpack_from('<h', BA(b'\\x00\\x01\\x00'), I(1))",
 "int.from_bytes(B(b'\\x01\\x02'), 'big')",
 "math.gcd(I(12), I(18))",
 "math.factorial(I(5))",
 "math.comb(I(5), I(2))",
 "operator.itemgetter(I(1))(L([1,2]))",
 "functools.reduce(operator.add, L([1,2,3]), I(0))",
 "sorted(D({'b': 1, 'a': 2}))",
 "collections.Counter(S('aab'))",
 "collections.deque(L([1,2]), maxlen=I(1))",
 "divmod(I(7), I(2))",
 "round(F(2.567), I(1))",
 "pow(I(2), I(3), I(5))",
 "list(reversed(T((1,2))))",
 "'ab'.center(I(6), S('*'))",
 "format(F(1.5), S('.2f'))",
 "sum(L([1, 2]), I(1))",
 "min(T((3, 1)))",
 "list(zip(S('ab'), T((1, 2))))",
 "dict.fromkeys(S('ab'), I(0))",
 "frozenset(L([1, 1]))",
 "isinstance(I(1), int) and hash(I(3)) == 3",
 "[1, 2, 3].index(I(2))",
 "L([3, 1]).sort() or 'sorted'",
 "'%d %s %.1f' % (I(3), S('s'), F(1.25))",
 "chr(I(97)) + str(B(b'x'))",
]
for t in tests:
    try:
        if t.startswith('h = '):
            ns = {'hashlib': hashlib, 'B': B}
            exec(t.split('; ')[0] + '; ' + t.split('; ')[1], ns)
            print(t, '->', ns['h'].hexdigest()[:8])
        else:
            print(t, '->', repr(eval(t)))
    except Exception as e:
        print(t, '->', type(e).__name__, e)
class Packet(bytes):
    def checksum(self):
        return sum(self) % 256


p = Packet(b'\x01\x02\x03')
print(p, len(p), p[0], p[1:], p.checksum(), isinstance(p, bytes), type(p).__name__, p == b'\x01\x02\x03', list(p))
print(zlib.crc32(p), hashlib.sha1(p).hexdigest()[:10], p.hex(), struct.unpack('3B', p), bytes(p) + p)
buf = BA(b'abc')
buf.append(100)
buf[0] = 65
print(buf, len(buf), bytes(buf), buf.decode(), isinstance(buf, bytearray))
