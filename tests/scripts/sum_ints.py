# sum(): ints add up unboxed while they fit, then big ints, floats and other types as CPython
print(sum([], 5), sum([1, 2], start=10), sum([1, 2.5, 3]), sum([2**63 - 1, 1]), sum([2**63 - 1, 1, -5]))
print(sum([True, True]), sum([1, True, 2**70, -2**70, 3]), sum([0.5, 1, 2]), sum(range(10), 0.5))
print(sum([[1], [2]], []), sum([-2**63, -1]), type(sum([2**64, -2**64])))
def bad():
    yield 1
    raise ValueError("boom")
try:
    sum(bad())
except ValueError as e:
    print("ValueError", e)
try:
    sum([1, "a"])
except TypeError as e:
    print("TypeError", e)
