# Methods of the built-in types added in builtin_methods_more.c, against CPython 3.11
print(repr("a\tbc\tdef\n\tx".expandtabs()), repr("ü\tb".expandtabs(4)), repr("a\tb".expandtabs(tabsize=0)), repr("a\r\tb".expandtabs(2)))
print("a.b.c".rpartition("."), "abc".rpartition("x"), "a--b--c".rpartition("--"), "xx".rpartition("x"))
try:
    "a".rpartition("")
except ValueError as e:
    print("ValueError", e)
t = str.maketrans("abc", "xyz", "d"); print(sorted(t.items()), "abcdd-cab".translate(t))
print("hello".translate({ord("l"): None, ord("h"): "J", ord("o"): 0x263a}), "x".translate({}))
print(sorted(str.maketrans({"a": "1", 98: None}).items()))
print("{name} is {age}".format_map({"name": "Ann", "age": 3}))
try:
    str.maketrans("ab", "c")
except ValueError as e:
    print("ValueError", e)
print(dict.fromkeys("abc"), dict.fromkeys(["x", "y"], 0), {}.fromkeys(range(3), []))
from collections import OrderedDict
print(OrderedDict.fromkeys("ab", 1))
s = {1, 2, 3, 4}; s.intersection_update({2, 3, 5}, [3, 2]); print(s)
s = {1, 2, 3}; s.difference_update([1], (2,)); print(s)
s = {1, 2}; s.symmetric_difference_update([2, 3]); print(sorted(s))
print({1, 2}.isdisjoint([3, 4]), {1, 2}.isdisjoint({2}), set().isdisjoint([]))
print((5).real, (5).imag, (5).numerator, (5).denominator, (-5).conjugate(), True.real, (7).as_integer_ratio(), (255).bit_count(), (-(2**70 + 1)).bit_count())
print((2.5).real, (2.5).imag, (2.5).conjugate(), (0.75).as_integer_ratio(), (0.1).as_integer_ratio(), (-3.0).as_integer_ratio())
for x in (1.0, 0.1, -2.5, 0.0, -0.0, 5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, float("inf"), float("nan"), 123456.789):
    h = x.hex(); print(h, float.fromhex(h) == x or x != x)
print(float.fromhex("0x1.8p1"), float.fromhex(" -0X.8P-1 "), float.fromhex("inf"))
try:
    float.fromhex("zz")
except ValueError as e:
    print("ValueError", e)
try:
    (1.5).as_integer_ratio(); float("inf").as_integer_ratio()
except OverflowError as e:
    print("OverflowError", e)
print(1e20 == 1e20, 1e20 < 3e20, 2**60 == 2.0**60, 2**60 + 1 > 2.0**60, float("1e300") >= 1e300)
