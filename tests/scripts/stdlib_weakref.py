# weakref: ref with callbacks, proxy, WeakValueDictionary, WeakKeyDictionary, WeakSet, finalize, WeakMethod; deaths by refcount and by the cycle collector
import weakref, gc
class A: pass
a = A()
r = weakref.ref(a, lambda r: print('cb', r() is None))
print(r() is a, repr(r)[:12], weakref.getweakrefcount(a))
del a
print(r(), repr(r)[:12], repr(r)[-6:])
b = A(); p = weakref.proxy(b); b.x = 3; print(p.x)
del b
try: p.x
except ReferenceError as e: print('ReferenceError', e)
try: weakref.ref(1)
except TypeError as e: print('TypeError', e)
d = weakref.WeakValueDictionary(); c = A(); d['k'] = c; print(len(d), 'k' in d); del c; print(len(d), list(d))
k = weakref.WeakKeyDictionary(); e = A(); k[e] = 1; print(len(k)); del e; print(len(k))
s = weakref.WeakSet(); f = A(); s.add(f); print(len(s), f in s); del f; print(len(s))
g = A(); fin = weakref.finalize(g, print, 'finalized', 1); print(fin.alive); del g; print(fin.alive)
h = A(); fin2 = weakref.finalize(h, print, 'x'); print(fin2()); print(fin2.alive, fin2())
class B:
    def m(self): return 5
bb = B(); wm = weakref.WeakMethod(bb.m); print(wm()()); del bb; print(wm())
class Node:
    def __init__(self): self.other = None
n1, n2 = Node(), Node(); n1.other = n2; n2.other = n1
wn = weakref.ref(n1, lambda r: print("cycle freed"))
del n1, n2
gc.collect()
print(wn())
try:
    raise ValueError("x")
except ValueError:
    t = A(); weakref.finalize(t, print, "during except"); del t
print("end")
