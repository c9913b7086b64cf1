# np.random.default_rng: NumPy 1.24's Generator over PCG64, seeded through
# SeedSequence; every draw must be NumPy's number, bit for bit
import numpy as np

for seed in [0, 1, 42, 12345, 2 ** 40 + 7, 2 ** 100, [1, 2, 3]]:
    rng = np.random.default_rng(seed)
    print(seed, rng.random(), rng.random(3).tolist(), rng.integers(10), rng.integers(-5, 5, size=4).tolist())
    print(rng.standard_normal(3).tolist(), rng.normal(), rng.normal(2.0, 0.5, size=2).tolist())

rng = np.random.default_rng(2024)
print(rng.random((2, 3)))
print(rng.random(dtype=np.float32), rng.random(4, dtype=np.float32))
print(rng.integers(0, 2 ** 40, size=3), rng.integers(1, 7, size=(2, 5)))
print(rng.integers(3, 5, endpoint=True, size=6), rng.integers(-2 ** 63, 2 ** 63 - 1, size=2))
print(rng.integers(0, 100, size=5, dtype=np.int32), rng.integers(0, 2 ** 32 - 1, size=3))
print(rng.uniform(), rng.uniform(-1, 1, size=3), rng.normal([0.0, 10.0], 1.0))
z = rng.standard_normal(100000)
print(z[:3], float(z.sum()), float(np.abs(z).max()))
print(rng.normal(size=(2, 2)))

# choice, shuffle, permutation
rng = np.random.default_rng(7)
print(rng.choice(10), rng.choice(10, 5), rng.choice([0.5, 1.5, 2.5], size=4))
print(rng.choice(10, 5, replace=False), rng.choice(10, 10, replace=False))
print(rng.choice(5, 3, replace=False, shuffle=False), rng.choice(100, 7, replace=False))
print(rng.choice(20000, 1000, replace=False)[:8], rng.choice(20000, 100, replace=False)[:5])
print(rng.choice(4, 6, p=[0.1, 0.2, 0.3, 0.4]), rng.choice(4, 3, replace=False, p=[0.1, 0.2, 0.3, 0.4]))
print(rng.choice(np.arange(12).reshape(4, 3), 2))
a = np.arange(10)
rng.shuffle(a)
print(a)
l = list(range(8))
rng.shuffle(l)
print(l)
print(rng.permutation(10), rng.permutation([1.5, 2.5, 3.5]), rng.permutation(np.arange(6).reshape(3, 2)))
m = np.arange(12).reshape(4, 3)
rng.shuffle(m)
print(m)

# the same seed, the same stream; Generator and PCG64 objects
r1, r2 = np.random.default_rng(99), np.random.default_rng(np.random.PCG64(99))
print(r1.random(2).tolist() == r2.random(2).tolist(), np.random.default_rng(r1) is r1)
g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(5)))
print(g.random() == np.random.default_rng(5).random(), type(g).__name__, type(g.bit_generator).__name__)
print(np.random.SeedSequence(42).generate_state(4), np.random.SeedSequence([1, 2]).entropy)

# errors, as NumPy raises them
rng = np.random.default_rng(0)
for call in [lambda: rng.choice(0, 3), lambda: rng.choice([], 3), lambda: rng.choice(5, 6, replace=False),
             lambda: rng.choice(3, p=[0.5, 0.6, 0.1]), lambda: rng.choice(3, p=[0.5, -0.1, 0.6]),
             lambda: rng.choice(3, p=[0.5, 0.5]), lambda: rng.integers(5, 2), lambda: rng.integers(5, 5),
             lambda: rng.normal(0, -1), lambda: rng.choice(3, 2, replace=False, p=[1, 0, 0]),
             lambda: np.random.default_rng(-1)]:
    try:
        call()
    except ValueError as e:
        print('ValueError:', e)
