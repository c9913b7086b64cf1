# random.Random instances, getstate/setstate, big-int seeds and getrandbits beyond 64 bits, against CPython 3.11
import random
r = random.Random(3)
print(r.random(), r.randint(1, 100), r.choice('abcdef'), r.gauss(0, 1), r.gauss(0, 1))
random.seed(5)
print(random.random(), random.getrandbits(100), random.getrandbits(64), random.getrandbits(33))
random.seed(2**100 + 7); print(random.random())
random.seed(-(2**80)); print(random.random())
st = random.getstate(); print(st[0], len(st[1]), st[1][-1], sum(st[1]) % 1000003, st[2])
a = [random.random() for _ in range(3)]; random.gauss(0,1)
random.setstate(st); b = [random.random() for _ in range(3)]; print(a == b)
print(random.getstate()[2])
r2 = random.Random(); r2.seed(42); l = list(range(10)); r2.shuffle(l); print(l, r2.sample(range(100), 5))
print(r2.choices('xyz', weights=[1, 2, 3], k=5), r2.uniform(1, 2), r2.expovariate(2), r2.normalvariate())
print(type(r).__name__, isinstance(r, random.Random))
class MyRand(random.Random):
    pass
m = MyRand(7); print(m.random())
try:
    random.setstate((2, (), None))
except ValueError as e: print('ValueError', e)
try:
    r.randint(5, 1)
except ValueError as e: print('ValueError', e)
print(random.Random(0).getrandbits(0), random.Random(1.5).random())
