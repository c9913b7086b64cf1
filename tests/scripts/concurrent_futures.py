# concurrent.futures: ThreadPoolExecutor map/submit/as_completed/wait, futures, ProcessPoolExecutor in-process
import concurrent.futures
from concurrent.futures import ThreadPoolExecutor, as_completed, ProcessPoolExecutor, wait
import time

def square(x):
    time.sleep(0.001 * (5 - x))
    return x * x

with ThreadPoolExecutor(max_workers=3) as ex:
    print(list(ex.map(square, range(5))))
    futs = {ex.submit(square, i): i for i in range(5)}
    got = sorted((futs[f], f.result()) for f in as_completed(futs))
    print(got)
    f = ex.submit(pow, 2, 10)
    print(f.result(), f.done(), f.exception(), repr(f).split(' state=')[1])
    bad = ex.submit(int, "x")
    try:
        bad.result()
    except ValueError as e:
        print("ValueError", e)
    print(type(bad.exception()).__name__, repr(bad).split(' state=')[1])
    done, not_done = wait([ex.submit(square, 1)])
    print(len(done), len(not_done))
with ProcessPoolExecutor() as ex:
    print(list(ex.map(square, [1, 2, 3])))
ex = ThreadPoolExecutor(2)
ex.shutdown()
try:
    ex.submit(print)
except RuntimeError as e:
    print("RuntimeError", e)
fut = concurrent.futures.Future()
print(fut.done(), fut.cancel(), fut.cancelled())
try:
    fut.result()
except concurrent.futures.CancelledError:
    print("cancelled")
f2 = concurrent.futures.Future()
f2.add_done_callback(lambda f: print("callback", f.result()))
f2.set_result(3)
print(concurrent.futures.TimeoutError is TimeoutError, issubclass(TimeoutError, OSError))
try:
    concurrent.futures.Future().result(timeout=0.01)
except TimeoutError as e:
    print("TimeoutError", repr(e))
