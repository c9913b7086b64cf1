# numpy.random: NumPy's legacy RandomState stream bit for bit (MT19937 seeding,
# 53-bit doubles, the polar gauss with its cached value, masked integers,
# shuffles), module-level and per RandomState.
import numpy as np

np.random.seed(0)
print(np.random.rand(), np.random.rand(3))
print(np.random.randn(2, 3))
print(np.random.randn(), np.random.randn())
print(np.random.randint(10), np.random.randint(5, 10, size=4), np.random.randint(0, 2 ** 40, size=2))
print(np.random.randint(3, size=(2, 3)), np.random.randint(-5, 5, 3, dtype=np.int32))
print(np.random.normal(), np.random.normal(2.0, 0.5, size=3), np.random.uniform(), np.random.uniform(-1, 1, (2, 2)))
print(np.random.random((2,)), np.random.random_sample(), np.random.sample(2))
print(np.random.choice(5), np.random.choice(5, 3), np.random.choice([10, 20, 30], size=4), np.random.choice(6, 3, replace=False))
print(np.random.choice(4, 5, p=[0.1, 0.2, 0.3, 0.4]), np.random.choice(['a', 'b', 'c']) if False else 0)
print(np.random.choice(5, 3, replace=False, p=[0.1, 0.1, 0.2, 0.3, 0.3]))
a = np.arange(10)
np.random.shuffle(a)
print(a, np.random.permutation(8), np.random.permutation(np.array([1.5, 2.5, 3.5])))
m = np.arange(12).reshape(4, 3)
np.random.shuffle(m)
print(m, np.random.permutation(m))
lst = [1, 2, 3, 4, 5]
np.random.shuffle(lst)
print(lst)
np.random.seed(42)
x = np.random.rand(100, 1)
y = 2 + 3 * x + np.random.randn(100, 1)
print(x[:3], y[:3], y.mean())
rs = np.random.RandomState(1234)
print(rs.rand(3), rs.randn(2), rs.randint(0, 100, 5))
rs.seed(7)
print(rs.rand(2))
np.random.seed(2 ** 32 - 1)
print(np.random.rand(2))
np.random.seed([1, 2, 3])
print(np.random.rand(2))
for bad in ['np.random.seed(-1)', 'np.random.randint(5, 5)', 'np.random.choice(3, 5, replace=False)',
            'np.random.choice(3, p=[0.5, 0.6, 0.1])', 'np.random.normal(0, -1)']:
    try:
        eval(bad)
    except Exception as err:
        print(bad, '->', type(err).__name__, err)
