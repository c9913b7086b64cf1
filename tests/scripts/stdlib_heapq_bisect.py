# the heapq and bisect modules (repl/lib/), against CPython 3.11
import heapq, bisect, random
random.seed(3)
h = []
for v in [random.randrange(100) for _ in range(20)]:
    heapq.heappush(h, v)
print(h)
print([heapq.heappop(h) for _ in range(5)], h)
x = [random.random() for _ in range(10)]; heapq.heapify(x); print(x[:3])
print(heapq.heappushpop(h, 1), heapq.heapreplace(h, 99), h)
print(heapq.nlargest(3, [5, 1, 8, 3]), heapq.nsmallest(2, ['bb', 'a', 'ccc'], key=len), list(heapq.merge([1, 4], [2, 3])))
pq = []; heapq.heappush(pq, (2, 'b')); heapq.heappush(pq, (1, 'a')); print(heapq.heappop(pq))
a = [1, 2, 4, 4, 8]
print(bisect.bisect(a, 4), bisect.bisect_left(a, 4), bisect.bisect_right(a, 0), bisect.bisect_left(a, 9, 1, 3))
bisect.insort(a, 5); bisect.insort_left(a, 4); print(a)
recs = [('a', 1), ('b', 3)]; print(bisect.bisect_left(recs, 2, key=lambda r: r[1]))
bisect.insort(recs, ('c', 2), key=lambda r: r[1]); print(recs)
try:
    heapq.heappop([])
except IndexError as e:
    print('IndexError', e)
