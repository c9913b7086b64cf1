# Integers of any size, as CPython's: promotion past 64 bits, demotion back,
# Python's rounding, errors and limits; then seeded random-ish big arithmetic.
import sys


def t(name, f):
    try:
        print(name, '->', repr(f()))
    except Exception as e:
        print(name, '->', type(e).__name__, e)


print(2**63, 2**100, -2**100, 10**20, 99999999999999999999, 2**63 - 1, type(2**63 - 1))
print(0xffffffffffffffffffff, 0o7777777777777777777777777, 0b1111111111111111111111111111111111111111111111111111111111111111111, 1_000_000_000_000_000_000_000)
print(2**64 // 2**32, 2**64 % 7, -(2**63), (-2)**63, -(-2**63), 9223372036854775807 + 1, -9223372036854775807 - 2)
f = 1
for i in range(1, 40):
    f *= i
print(f, f // 10**20, f % 1000003, f // f, type(f // f))
print(2**70 == 2.0**70, 2**70 < 1e30, 2**70 + 0.5, 10**400 > 1e308, 2**53 + 1 == 2.0**53, 2**53 + 1 > 2.0**53)
print((2**70) >> 3, 1 << 100, ~(2**70), -(2**70) >> 80, 2**70 & -1, -2**70 | 5, 2**70 ^ 2**69, 5 & 2**70, -1 & 2**70)
print(2**1100 / 2**1000, 1 / 3**700, 10**30 / 7, (2**53 + 1) / 1, 9007199254740993 / 3, -(10**25) / 3, 0 / -(2**70))
d = {2**70: 'a', -2**80: 'b'}
print(d[2**70], d.get(2**69 * 2), d[-2**80], isinstance(2**70, int), type(2**70), 2**70 in {2**70}, (2**70, 1) == (2**70, 1))
print(f'{2**70:,}', f'{2**70:_x}', f'{-2**70:>40}', f'{2**70:e}', f'{2**70:.3f}', '{:#X}'.format(3**50), f'{-3**50:+,}', f'{2**64:040_b}')
print('%d %x %o %f' % (2**70, 2**70, -2**70, 2**70))
print(hex(2**70), oct(2**70), bin(-2**70), hex(-2**64), str(2**100), repr(-2**100))
print(int('123456789012345678901234567890'), int('  -123456789012345678901234567890  '), int('0x' + 'f' * 20, 16),
      int('z' * 20, 36), int('1_000_000_000_000_000_000_000'), int('0o17', 0), int('0b1_01', 0), int('-0x_ff', 16))
print(int(1e300), int(-1e20), float(2**70), float(-3**60), float(2**64 + 1), float(2**54 + 3), float(-(2**1024 - 2**971)))
print(round(2**70, -5), round(2**70), round(1e20), round(-15, -1), round(25, -1), round(35, -1), round(10**30 + 5 * 10**10, -11), round(2**70, 3))
print(abs(-2**70), abs(-9223372036854775807 - 1), pow(2**70, -1, 7), pow(3, 10**20, 1000007), pow(-7, 2**65 + 1, -13), pow(2, 100, 2**70 + 1))
print((2**70).bit_length(), (-2**70).bit_length(), (0).bit_length(), (255).bit_length(), divmod(-2**70, 7), divmod(2**70, -2**35))
print(sum([2**62] * 4), max(2**70, 3), min(-2**70, 5, 2.5), sorted([2**70, 1, -2**65, 3.5]), bool(2**70), bool(-2**70), not 2**70)
print(sys.maxsize, sys.maxsize + 1, -sys.maxsize - 1, 2**63 - 1 == sys.maxsize)
x = 2**64
x += 1
x -= 2**64
print(x, type(x), x == 1)
x = 3
x **= 50
x //= 3**48
print(x, [i * 2**62 for i in range(5)])
t("int('1'*5000)", lambda: int('1' * 5000))
t("int('-'+'1'*4301)", lambda: int('-' + '1' * 4301))
t("int('1_'*2500+'1') % 97", lambda: int('1_' * 2500 + '1') % 97)
t("int('f'*5000, 16) % 97", lambda: int('f' * 5000, 16) % 97)
t("str(10**5000)", lambda: str(10**5000))
t("len(str(10**4299))", lambda: len(str(10**4299)))
t("len(hex(10**5000))", lambda: len(hex(10**5000)))
t("float(10**400)", lambda: float(10**400))
t("10**400/3", lambda: 10**400 / 3)
t("10**400 + 1.0", lambda: 10**400 + 1.0)
t("1 << -1", lambda: 1 << -1)
t("2**63 // 0", lambda: 2**63 // 0)
t("2**63 % 0", lambda: 2**63 % 0)
t("2**70 / 0", lambda: 2**70 / 0)
t("divmod(2**70, 0)", lambda: divmod(2**70, 0))
t("pow(3, -1, 6)", lambda: pow(3, -1, 6))
t("pow(2, 3, 0)", lambda: pow(2, 3, 0))
t("f'{2**70:c}'", lambda: f'{2**70:c}')
t("int('12a')", lambda: int('12a'))
t("int('0x', 16)", lambda: int('0x', 16))
t("int('1__0')", lambda: int('1__0'))
t("int('_10')", lambda: int('_10'))
t("int('010', 0)", lambda: int('010', 0))
t("int('000', 0)", lambda: int('000', 0))
t("int('9'*30, 8)", lambda: int('9' * 30, 8))
t("int(float('inf'))", lambda: int(float('inf')))
t("int(float('nan'))", lambda: int(float('nan')))
t("[1,2][2**70]", lambda: [1, 2][2**70])
t("'ab' * 2**70", lambda: 'ab' * 2**70)
t("2**1024/1", lambda: 2**1024 / 1)
t("float(2**1024)", lambda: float(2**1024))
t("float(2**1024 - 2**970)", lambda: float(2**1024 - 2**970))
t("float(2**1024 - 2**971)", lambda: float(2**1024 - 2**971))
t("1 << 2**70", lambda: 1 << 2**70)
t("0 << 2**70", lambda: 0 << 2**70)
t("2**70 >> 2**70", lambda: 2**70 >> 2**70)
t("-2**70 >> 2**70", lambda: -2**70 >> 2**70)
t("0**-1", lambda: 0**-1)
t("(2**70)**-1", lambda: (2**70)**-1)
t("(10**400)**-1", lambda: (10**400)**-1)
t("2**-70", lambda: 2**-70)
t("1**(2**70)", lambda: 1**(2**70))
t("(-1)**(2**70+1)", lambda: (-1)**(2**70 + 1))
t("10**400 * 1.5", lambda: 10**400 * 1.5)
t("1.5 // 2**70", lambda: 1.5 // 2**70)
t("2**70 % 1.5", lambda: 2**70 % 1.5)
t("2**70 == 2.0**70 + 1", lambda: 2**70 == 2.0**70 + 1)
t("10**400 < float('inf')", lambda: 10**400 < float('inf'))
t("10**400 > float('nan')", lambda: 10**400 > float('nan'))
t("10**400 != float('nan')", lambda: 10**400 != float('nan'))
t("hash(2**63) == hash(2.0**63)", lambda: hash(2**63) == hash(2.0**63))
t("2**70 + 'a'", lambda: 2**70 + 'a')
t("2**70 < 'a'", lambda: 2**70 < 'a')
t("2**70 @ 2", lambda: 2**70 @ 2)
t("1.5 & 2**70", lambda: 1.5 & 2**70)
t("-(2**70)", lambda: -(2**70))
t("(3**100).bit_length()", lambda: (3**100).bit_length())
t("round(2**70, 2**70)", lambda: round(2**70, 2**70))

# seeded random-ish big arithmetic: a linear congruential generator in ints of any size
seed = 20261127
def rnd(bits):
    global seed
    seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
    v = seed
    while v.bit_length() < bits:
        seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
        v = (v << 64) | seed
    v >>= max(0, v.bit_length() - bits)
    return -v if seed & 1 else v

acc = 0
for k in range(300):
    a, b = rnd(1 + k % 200), rnd(1 + (k * 7) % 150)
    if b == 0:
        b = 3
    r = (a + b, a - b, a * b, a // b, a % b, a & b, a | b, a ^ b, a >> (k % 70), a << (k % 70), abs(a) ** (k % 5),
         a < b, a == b, a / b, divmod(a, b), pow(abs(a) + 1, k, abs(b) + 2), -a, ~b, float(a), round(a, -(k % 30)))
    acc ^= a * b + a // b + r[19]
    if k % 25 == 0:
        print(k, r)
print('acc', acc, acc.bit_length())
