# numbers, operators and truth
print(1 + 2, 7 - 10, 6 * 7, 7 / 2, 8 / 4, 7 // 2, -7 // 2, 7 // -2, 7 % 3, -7 % 3, 7 % -3)
print(2 ** 10, 2 ** -2, (-2) ** 3, 2.0 ** 0.5, 10 ** 0, 0 ** 0)
print(7.5 // 2, -7.5 // 2, 7.5 % 2, -7.5 % 2, 1e300 * 10, -1e300 * 10)
print(1 / 3, 2 / 3, 0.1 + 0.2, 1e16, 1e-5, 123456789.0, 1.5e-10, 3.0)
print(True + True, True * 3, -True, ~5, ~-1, 5 & 3, 5 | 3, 5 ^ 3, 1 << 10, 1024 >> 3, -9 >> 1)
print(True & False, True | False, True ^ True)
print(9223372036854775807, -9223372036854775807 - 1)
print(abs(-3), abs(2.5), abs(-0.0), divmod(17, 5), divmod(-17, 5), divmod(7.5, 2))
print(pow(2, 10), pow(3, 4, 5), pow(2.0, 3), pow(-7, 3, 10))
print(1 < 2 < 3, 1 < 3 < 2, 3 > 2 == 2, 1 == 1.0, 2 != 2.0, "a" < "b", [1, 2] < [1, 3], (1, 2) >= (1, 2))
x = 5
print(0 < x <= 5, 0 < x < 5, x is x, x is not None, None is None)
print(not 0, not 1, not [], not [0], bool(""), bool("0"), bool(0.0), bool(None), bool({}), bool(()), bool(range(0)))
print(0 or 3, 2 or 3, 0 and 3, 2 and 3, [] or "x", None or 0)
print("yes" if x > 3 else "no", "yes" if x > 10 else "no")
print(int(3.9), int(-3.9), int("42"), int(" -17 "), int("1_000"), int("ff", 16), int("0x1f", 0), int(True))
print(float(3), float("2.5"), float(" -1e3 "), float("inf"), float("-inf"), float("nan"))
print(str(12), str(1.0), str(True), str(None), str([1, 'a']), repr('a'), repr("it's"))
print(round(2.5), round(3.5), round(-2.5), round(0.125, 2), round(2.675, 2), round(1234, -2), round(1250, -2), round(1.5), round(7, 1))
print(round(3.14159, 3), round(-0.5), type(round(2.5)).__name__, type(round(2.5, 0)).__name__)
print(10 == 10, 10 != 11, 3.0 == 3, hash(1) == hash(1.0), 0.1 * 3)
print(max(3, 1, 2), min(3, 1, 2), max([4, 9, 2]), min("hello"), max([], default=-1), max([1, -5, 3], key=abs))
print(sum([1, 2, 3]), sum([0.5, 0.25]), sum([[1], [2]], []), sum(range(101)))
print(chr(65), ord("A"), chr(955), ord("λ"), hex(255) if False else format(255, "x"), format(8, "b"), format(8, "#o"))
a = 10
a += 5
a -= 3
a *= 2
a //= 5
a **= 2
a %= 7
print(a)
b = 2.0
b /= 4
print(b)
print(1_000_000, 0x10, 0o17, 0b101, 1.5e3)
print(3 * "ab", "ab" * 0, [0] * 3, (1, 2) * 2)
