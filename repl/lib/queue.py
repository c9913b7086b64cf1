# queue — CPython 3.11's queue module over threading's green threads
# (repl/lib/threading.py): get and put block by letting the other threads run.
import threading as _threading
from heapq import heappush as _heappush, heappop as _heappop
from collections import deque as _deque
from time import monotonic as _time

__all__ = ['Empty', 'Full', 'Queue', 'PriorityQueue', 'LifoQueue', 'SimpleQueue']


class Empty(Exception):
    'Exception raised by Queue.get(block=0)/get_nowait().'
    pass


class Full(Exception):
    'Exception raised by Queue.put(block=0)/put_nowait().'
    pass


def _wait(block, timeout, ready, exc):
    if not block:
        if not ready():
            raise exc
    elif timeout is None:
        _threading._wait_until(ready)
    elif timeout < 0:
        raise ValueError("'timeout' must be a non-negative number")
    elif not _threading._wait_until(ready, timeout):
        raise exc


class Queue:
    '''Create a queue object with a given maximum size.

    If maxsize is <= 0, the queue size is infinite.
    '''

    def __init__(self, maxsize=0):
        self.maxsize = maxsize
        self._init(maxsize)
        self.mutex = _threading.Lock()
        self.not_empty = _threading.Condition(self.mutex)
        self.not_full = _threading.Condition(self.mutex)
        self.all_tasks_done = _threading.Condition(self.mutex)
        self.unfinished_tasks = 0

    def task_done(self):
        unfinished = self.unfinished_tasks - 1
        if unfinished <= 0:
            if unfinished < 0:
                raise ValueError('task_done() called too many times')
            _threading._changed()
        self.unfinished_tasks = unfinished

    def join(self):
        _threading._wait_until(lambda: not self.unfinished_tasks)

    def qsize(self):
        return self._qsize()

    def empty(self):
        return not self._qsize()

    def full(self):
        return 0 < self.maxsize <= self._qsize()

    def put(self, item, block=True, timeout=None):
        if self.maxsize > 0:
            _wait(block, timeout, lambda: self._qsize() < self.maxsize, Full)
        self._put(item)
        self.unfinished_tasks += 1
        _threading._changed()

    def get(self, block=True, timeout=None):
        _wait(block, timeout, self._qsize, Empty)
        item = self._get()
        _threading._changed()
        return item

    def put_nowait(self, item):
        return self.put(item, block=False)

    def get_nowait(self):
        return self.get(block=False)

    def _init(self, maxsize):
        self.queue = _deque()

    def _qsize(self):
        return len(self.queue)

    def _put(self, item):
        self.queue.append(item)

    def _get(self):
        return self.queue.popleft()


class PriorityQueue(Queue):
    '''Variant of Queue that retrieves open entries in priority order (lowest first).

    Entries are typically tuples of the form:  (priority number, data).
    '''

    def _init(self, maxsize):
        self.queue = []

    def _qsize(self):
        return len(self.queue)

    def _put(self, item):
        _heappush(self.queue, item)

    def _get(self):
        return _heappop(self.queue)


class LifoQueue(Queue):
    '''Variant of Queue that retrieves most recently added entries first.'''

    def _init(self, maxsize):
        self.queue = []

    def _qsize(self):
        return len(self.queue)

    def _put(self, item):
        self.queue.append(item)

    def _get(self):
        return self.queue.pop()


class SimpleQueue:
    '''Simple, unbounded, reentrant FIFO queue.'''

    def __init__(self):
        self._queue = _deque()

    def put(self, item, block=True, timeout=None):
        self._queue.append(item)
        _threading._changed()

    def get(self, block=True, timeout=None):
        _wait(block, timeout, lambda: len(self._queue), Empty)
        return self._queue.popleft()

    def put_nowait(self, item):
        return self.put(item, block=False)

    def get_nowait(self):
        return self.get(False)

    def empty(self):
        return len(self._queue) == 0

    def qsize(self):
        return len(self._queue)
