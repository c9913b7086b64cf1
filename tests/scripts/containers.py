l = [3, 1, 2]
l.append(4)
l.extend([5, 6])
l.insert(0, 0)
l.insert(-1, 9)
print(l, len(l), l.pop(), l.pop(0), l)
l.remove(9)
print(l, l.index(2), l.count(1), 2 in l, 7 not in l)
l.sort()
print(l)
l.sort(reverse=True)
print(l)
l.reverse()
print(l, l.copy() == l, l.copy() is l)
l[1:3] = ["a", "b", "c"]
print(l)
del l[0]
del l[1:3]
print(l)
l[::2] = [0, 0]
print(l, l[-1], l[1:], l[:-1], l[::-1])
l.clear()
print(l)
m = [[1, 2], [3, 4]]
m[0][1] = 20
print(m, [row[1] for row in m], [x for row in m for x in row])
print(sorted([(2, "b"), (1, "z"), (2, "a")]), sorted(["bb", "a", "ccc"], key=len, reverse=True))
t = (1, "two", 3.0)
print(t, t[1], t[-1], t[:2], len(t), t.index("two"), t.count(1), (1,), (), tuple([1, 2]))
a, b = 1, 2
a, b = b, a
print(a, b)
(x, y), z = (1, 2), 3
first, *rest = [1, 2, 3]
*init, last = "abc"
p, *q, r = range(5)
print(x, y, z, first, rest, init, last, p, q, r)
for i, (k, v) in enumerate([("a", 1), ("b", 2)]):
    print(i, k, v)
d = {"a": 1, "b": 2}
d["c"] = 3
print(d, d["a"], len(d), "a" in d, "z" in d, list(d), list(d.keys()), list(d.values()), list(d.items()))
print(d.get("a"), d.get("z"), d.get("z", 0), d.pop("b"), d, d.setdefault("x", 9), d.setdefault("a", 0), d)
d.update({"a": 100, "new": 1})
d.update(k=2)
print(d)
del d["x"]
print(d, d.copy(), dict(a=1, b=2), dict([("x", 1), ("y", 2)]), dict({"q": 0}), {1: "a", **{2: "b"}})
print(d.popitem(), d)
for k, v in d.items():
    print(k, "->", v)
for k in d:
    print(k, end=" ")
print()
d.clear()
print(d, {})
counts = {}
for w in "a b a c b a".split():
    counts[w] = counts.get(w, 0) + 1
print(counts, sorted(counts.items(), key=lambda kv: -kv[1]))
print({x: x * x for x in range(4)}, {(1, 2): "tuple key"}, {1: 1, 1.0: 2, True: 3})
s = {3, 1, 2}
s.add(2)
s.add(5)
print(sorted(s), len(s), 3 in s, 4 in s)
s.discard(5)
s.remove(1)
print(sorted(s), sorted({1, 2, 3} | {3, 4}), sorted({1, 2, 3} & {2, 3, 4}), sorted({1, 2, 3} - {2}), sorted({1, 2} ^ {2, 3}))
print({1, 2} <= {1, 2, 3}, {1, 2} < {1, 2}, {1, 2}.issubset([1, 2, 3]), {1, 2, 3}.issuperset({1}), set(), set([1, 1, 1]))
print(sorted({x % 3 for x in range(10)}), sorted(set("hello")), frozenset([1]) == frozenset([1]), len(frozenset()))
e = set()
e.update([1, 2], [3])
print(sorted(e), sorted(e.union({9})), sorted(e.intersection([1, 9])), sorted(e.difference([1])))
print(list(range(5)), list(range(2, 8, 2)), list(range(5, 0, -1)), range(3), range(1, 10, 3)[1], len(range(0, 10, 3)), 4 in range(0, 10, 2))
print(list(range(10))[2:8:2], range(10)[2:5], list(reversed([1, 2, 3])), list(reversed(range(3))))
print([1, [2, (3, {"k": [4]})]], str([None, True, 1.5]), repr(["q"]))
nested = {"layers": [{"name": "fc", "size": 10}]}
nested["layers"][0]["size"] += 5
print(nested)
ll = [1, 2]
ll2 = ll
ll += [3]
print(ll2, ll is ll2)
tt = (1,)
tt2 = tt
tt += (2,)
print(tt, tt2)
print([0] * 3 == [0, 0, 0], [1, 2] == (1, 2), [1, [2]] == [1, [2]], {"a": [1]} == {"a": [1]}, {1: 2} != {1: 3})
