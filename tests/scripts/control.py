for i in range(3):
    print("for", i)
else:
    print("for-else ran")
for i in range(10):
    if i == 2:
        break
else:
    print("not printed")
n = 0
while n < 5:
    n += 1
    if n == 2:
        continue
    if n == 4:
        break
    print("while", n)
else:
    print("not printed either")
while False:
    pass
else:
    print("while-else ran")
for x in []:
    print("never")
for a, b in [(1, 2), (3, 4)]:
    print(a * b, end=" ")
print()
for i, ch in enumerate("xyz", start=1):
    print(i, ch, end=" | ")
print()
for k, v in zip(["a", "b", "c"], range(10)):
    print(k, v, end=" ")
print()
grid = [[r * 3 + c for c in range(3)] for r in range(3)]
print(grid, [row[::-1] for row in grid], [[row[i] for row in grid] for i in range(3)])
print([(x, y) for x in range(3) for y in range(3) if x != y if x + y > 1])
print({k: [v for v in range(k)] for k in range(4)})
print(list(x * 2 for x in range(4)), tuple(i for i in "ab"), sorted(x % 4 for x in range(9)))
x = 10
print([x for x in range(3)], x)
if x > 5:
    print("big")
elif x > 2:
    print("medium")
else:
    print("small")
if not x:
    print("zero")
elif x == 10:
    print("ten")
total = 0
for i in range(1000):
    if i % 3 == 0 or i % 5 == 0:
        total += i
print(total)
primes = []
for cand in range(2, 50):
    for p in primes:
        if cand % p == 0:
            break
    else:
        primes.append(cand)
print(primes)
i = 0
while True:
    i += 1
    if i > 100:
        break
print(i)
data = [5, 3, 8, 1]
for idx in range(len(data)):
    for j in range(len(data) - 1 - idx):
        if data[j] > data[j + 1]:
            data[j], data[j + 1] = data[j + 1], data[j]
print(data)
del data[0]
print(data)
a = b = c = 7
print(a, b, c)
lst = [1, 2, 3]
lst[0] += 10
lst[-1] *= 2
print(lst)
class O:
    pass
o = O()
o.v = 1
o.v += 1
print(o.v)
d = {"k": 1}
d["k"] -= 5
print(d)
assert True
assert 1 < 2, "never shown"
print(Ellipsis, ... is Ellipsis)
s = slice(1, 3)
print(s, [0, 1, 2, 3][s], slice(2))
def nested_loops():
    out = []
    for i in range(3):
        for j in range(3):
            if j == 2:
                break
            if i == 1:
                continue
            out.append((i, j))
    return out
print(nested_loops())
print([i for i in range(20) if i % 2][::3])
x = 0
for x in range(4):
    pass
print(x)
