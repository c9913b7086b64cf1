# repr of floats is the shortest string that reads back, as CPython 3.11: also when the
# 16-digit rounding is an exact tie (2**-24 is 5.9604644775390625e-08 exactly; C's
# printf rounds the tie to even, ...062, which reads back to another double).
import random
random.seed(7)
for k in range(-1074, 1024):
    print(repr(2.0 ** k), repr(-3.0 * 2.0 ** (k - 2)))
for i in range(3000):
    e = random.randint(-300, 300)
    print(repr(random.random() * 10.0 ** e), repr(float(random.randint(1, 10**6)) / 7.0 ** random.randint(1, 40)))
print(5.960464477539063e-08, str(2 ** -24), f"{2.0 ** -24!r}")
