# hash() of deeply nested tuples is CPython's value (tuplehash's xxHash rounds),
# computed without recursing once per level
t = ()
for i in range(100000):
    t = (t,)
print(hash(t))
u = (1, 2.5, -3, 2**70, True, -2**63)
for i in range(100000):
    u = (i, u, -i) if i % 3 else (u,)
print(hash(u))
w = ((((), ()), ((), ())),) * 3
for i in range(20):
    w = (w, w)
print(hash(w))
print(hash(((1, 2), 3.5, -7, 2**70)), hash(()), hash(((),)), hash((-1,)), hash((float('inf'), -0.0)))
