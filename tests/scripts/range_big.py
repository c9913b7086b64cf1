# range() beyond int64 as CPython 3.11: range(2**70) indexes, slices, tests membership and iterates; len() raises OverflowError
r = range(2**70)
print(r, type(r), type(r).__name__)
print(r[5], r[-1], 2**69 in r, -1 in r, 2**70 in r)
try:
    len(r)
except OverflowError as e:
    print("OverflowError", e)
print(r[2**60:2**60+3], list(r[2**60:2**60+3]))
print(r.start, r.stop, r.step, bool(r), bool(range(2**70, 0)))
r2 = range(2**64, 2**64 + 10, 3)
print(r2, len(r2), list(r2), list(reversed(r2)), r2.index(2**64 + 3), r2.count(5), r2[-1], r2[::-1])
for i in range(10**20, 10**20 + 2):
    print(i)
print(range(-2**63, 2**63 - 1)[0], range(10**30)[10**29])
try:
    len(range(-2**63, 2**63 - 1))
except OverflowError as e:
    print('OverflowError', e)
class I:
    def __index__(self): return 4
print(list(range(I())), range(2**70) == range(0, 2**70, 1), range(2**70)[::2**69])
try:
    range(2**70)[2**71]
except IndexError as e:
    print('IndexError', e)
try:
    range(0, 2**70, 0)
except ValueError as e:
    print('ValueError', e)
it = iter(range(2**65, 2**65+2))
print(next(it), next(it))
print(sum(1 for _ in zip(range(2**70), 'abc')))
