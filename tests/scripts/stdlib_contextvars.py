# contextvars, copyreg, multiprocessing (in-process), pdb importable
import contextvars as cv
v = cv.ContextVar('v', default=1)
print(v.name, v.get(), v.get(7))
t = v.set(5)
print(t.var is v, t.old_value)
ctx = cv.copy_context()
print(len(ctx), ctx[v], list(ctx.keys()) == [v], v in ctx, ctx.get(v))
v.reset(t)
print(v.get())
w = cv.ContextVar('w')
try:
    w.get()
except LookupError as e:
    print('LookupError')
def f(a):
    v.set(a)
    return v.get()
print(ctx.run(f, 9), v.get(), ctx[v])
try:
    v.reset(t)
except RuntimeError as e:
    print('RuntimeError', str(e).endswith('has already been used once'))
print(cv.Token.MISSING)
import copyreg
class P:
    pass
copyreg.pickle(P, lambda p: (P, ()))
print(P in copyreg.dispatch_table, copyreg.__all__)
try:
    copyreg.pickle(P, 3)
except TypeError as e:
    print('TypeError', e)
import multiprocessing as mp
print(mp.cpu_count() >= 1, mp.current_process().name, mp.current_process())
def sq(x):
    return x * x
with mp.Pool(2) as pool:
    print(pool.map(sq, range(5)), pool.starmap(pow, [(2, 3), (3, 2)]), list(pool.imap(sq, [4])))
    r = pool.apply_async(sq, (7,))
    print(r.get(), r.ready(), r.successful())
q = mp.Queue()
def worker(q, n):
    q.put(n * 10)
ps = [mp.Process(target=worker, args=(q, i)) for i in range(3)]
for p in ps:
    p.start()
for p in ps:
    p.join()
print(sorted(q.get() for _ in range(3)), [p.exitcode for p in ps], ps[0].name)
mp.set_start_method('spawn', force=True)
print(mp.get_start_method())
import pdb
print(callable(pdb.set_trace))
