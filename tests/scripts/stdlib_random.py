# The module random as CPython 3.11's: the same seed gives the same numbers.
import random
from random import randint, choice

random.seed(42)
print(random.random(), random.random())
print([random.randint(1, 10) for _ in range(10)])
print([random.randrange(100) for _ in range(5)], random.randrange(10, 20), random.randrange(0, 100, 7), random.randrange(10, 0, -3))
print(random.choice(['a', 'b', 'c', 'd']), random.choice("hello"), random.choice(range(1000)), choice((1, 2, 3)))
xs = list(range(10))
random.shuffle(xs)
print(xs)
print(random.sample(range(100), 5), random.sample(['x', 'y', 'z'], 3), random.sample(range(10000), 10))
print(random.gauss(0, 1), random.gauss(0, 1), random.gauss(5, 2), random.gauss())
print(random.normalvariate(0, 1), random.normalvariate(10, 0.5), random.normalvariate())
print(random.uniform(1, 2), random.uniform(-5, 5), random.expovariate(2.0))
print(random.getrandbits(1), random.getrandbits(8), random.getrandbits(32), random.getrandbits(40), random.getrandbits(63), random.getrandbits(0))
print(random.choices([1, 2, 3], k=5), random.choices('abc', weights=[10, 1, 1], k=4), random.choices([1, 2], cum_weights=[1, 10], k=3))
# seeds: 0, negative (its magnitude), big, the same seed twice, a float, None
for s in [0, 1, -1, 12345, 2**32 + 5, 2**40 - 1, 9223372036854775807]:
    random.seed(s)
    print(s, random.random(), randint(0, 1000), random.gauss(0, 1))
random.seed(3)
a = [random.random() for _ in range(3)]
random.seed(3)
print(a == [random.random() for _ in range(3)])
random.seed(2.5)
print(random.random())
random.seed(True)
print(random.random())
random.seed()
r = random.random()
print(0 <= r < 1)
random.seed(42)
print(random.gauss(0, 1))
random.seed(42)
print(random.gauss(0, 1))  # seed drops the cached second value
# a simulation as scripts write it
random.seed(0)
data = [(random.uniform(-1, 1), random.uniform(-1, 1)) for _ in range(1000)]
inside = sum(1 for x, y in data if x * x + y * y <= 1)
print(inside, 4 * inside / len(data))
random.seed(1)
deck = [r + s for r in "A23456789TJQK" for s in "shdc"]
random.shuffle(deck)
print(deck[:8], random.sample(deck, 4))
# the errors CPython raises
checks = [
    ("random.randint(1)", lambda: random.randint(1)),
    ("random.random(1)", lambda: random.random(1)),
    ("random.choice([])", lambda: random.choice([])),
    ("random.randrange(0)", lambda: random.randrange(0)),
    ("random.randrange(5, 2)", lambda: random.randrange(5, 2)),
    ("random.randrange(1, 10, 0)", lambda: random.randrange(1, 10, 0)),
    ("random.randrange(1.5)", lambda: random.randrange(1.5)),
    ("random.sample([1, 2], 3)", lambda: random.sample([1, 2], 3)),
    ("random.sample({1, 2}, 1)", lambda: random.sample({1, 2}, 1)),
    ("random.getrandbits(-1)", lambda: random.getrandbits(-1)),
    ("random.seed([1])", lambda: random.seed([1])),
    ("random.shuffle(5)", lambda: random.shuffle(5)),
    ("random.uniform(1)", lambda: random.uniform(1)),
    ("random.gauss(x=1)", lambda: random.gauss(x=1)),
    ("random.choices([1], weights=[0])", lambda: random.choices([1], weights=[0])),
    ("random.choices([1, 2], weights=[1])", lambda: random.choices([1, 2], weights=[1])),
    ("random.choice(5)", lambda: random.choice(5)),
]
for text, f in checks:
    try:
        print(text, "->", f())
    except (ValueError, TypeError, IndexError) as e:
        print(text, "->", type(e).__name__, e)
