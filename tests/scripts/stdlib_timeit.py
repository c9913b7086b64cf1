# the timeit module(s), against CPython 3.11
import timeit
calls = []
t = timeit.timeit(lambda: calls.append(1), number=50)
print(len(calls), isinstance(t, float), t >= 0)
print(type(timeit.timeit('x = sum(range(10))', number=100)).__name__)
r = timeit.repeat('y = [i * i for i in range(5)]', setup='import math', repeat=3, number=10)
print(len(r), all(v >= 0 for v in r))
n = 0
def f():
    global n
    n += 1
print(timeit.Timer(f).timeit(7) >= 0, n, timeit.default_timer() > 0)
print(timeit.timeit('z + 1', setup='z = 41', number=3) >= 0, timeit.timeit('q * 2', globals={'q': 3}, number=2) >= 0)
num, taken = timeit.Timer('pass').autorange()
print(num >= 1, taken >= 0.2)
