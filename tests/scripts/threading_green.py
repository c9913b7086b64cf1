# threading and queue on green threads: threads, locks, events, conditions, queues, timers, local
import threading, queue, time

def worker(n, delay):
    print(f"start {n}")
    time.sleep(delay)
    print(f"end {n}")

threads = [threading.Thread(target=worker, args=(i, 0.05 * (3 - i))) for i in range(3)]
print(threads[0])
for t in threads:
    t.start()
for t in threads:
    t.join()
print("alive", [t.is_alive() for t in threads], threading.active_count())
print(threading.current_thread().name, threading.main_thread() is threading.current_thread())

q = queue.Queue()
results = []
def producer():
    for i in range(5):
        q.put(i)
        time.sleep(0.01)
    q.put(None)
def consumer():
    while True:
        item = q.get()
        if item is None:
            break
        results.append(item * item)
        q.task_done()
c = threading.Thread(target=consumer, name="cons")
p = threading.Thread(target=producer)
c.start(); p.start()
p.join(); c.join()
print(results, c.name, p.name)

lock = threading.Lock()
counter = 0
def inc():
    global counter
    for _ in range(1000):
        with lock:
            counter += 1
ts = [threading.Thread(target=inc) for _ in range(4)]
for t in ts: t.start()
for t in ts: t.join()
print(counter, lock.locked(), repr(lock)[:20])

ev = threading.Event()
log = []
def waiter():
    log.append("waiting")
    ev.wait()
    log.append("got event")
w = threading.Thread(target=waiter, daemon=True)
w.start()
ev.set()
w.join()
print(log, ev.is_set(), ev.wait(0.01), w.daemon)

cond = threading.Condition()
items = []
def cons2():
    with cond:
        cond.wait_for(lambda: items)
        print("consumed", items.pop())
t = threading.Thread(target=cons2); t.start()
with cond:
    items.append(42)
    cond.notify()
t.join()

try:
    queue.Queue().get(timeout=0.01)
except queue.Empty as e:
    print("Empty", repr(e))
try:
    q2 = queue.Queue(1); q2.put(1); q2.put_nowait(2)
except queue.Full:
    print("Full")
pq = queue.PriorityQueue()
for x in [3, 1, 2]: pq.put((x, str(x)))
print([pq.get() for _ in range(3)])
lq = queue.LifoQueue()
for x in [3, 1, 2]: lq.put(x)
print([lq.get() for _ in range(3)], lq.empty())

fired = []
tm = threading.Timer(0.02, lambda: fired.append(1)); tm.start(); tm.join()
t2 = threading.Timer(5, lambda: fired.append(2)); t2.start(); t2.cancel(); t2.join()
print(fired)

loc = threading.local()
loc.x = 1
def setx():
    loc.x = 2
    print("thread sees", loc.x)
t = threading.Thread(target=setx); t.start(); t.join()
print("main sees", loc.x)

sem = threading.Semaphore(2)
active = []
def s(i):
    with sem:
        active.append(i)
        log.append(len(active))
        time.sleep(0.01)
        active.remove(i)
ts = [threading.Thread(target=s, args=(i,)) for i in range(4)]
for t in ts: t.start()
for t in ts: t.join()
print(max(log[-4:]))
try:
    lock.release()
except RuntimeError as e:
    print("RuntimeError", e)
try:
    threading.Thread(target=print).join()
except RuntimeError as e:
    print("RuntimeError", e)
t = threading.Thread(target=len, args=("x",)); t.start()
t.join()
try:
    t.start()
except RuntimeError as e:
    print("RuntimeError", e)
class MyThread(threading.Thread):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.result = None
    def run(self):
        self.result = sum(range(self.n))
m = MyThread(10); m.start(); m.join(); print(m.result, m.name.startswith("Thread-"))
def late():
    time.sleep(0.01)
    print("late thread done")
threading.Thread(target=late).start()
print("main done")
