# concurrent.futures — CPython 3.11's executors and futures over threading's
# green threads (repl/lib/threading.py). ThreadPoolExecutor runs its tasks on
# worker threads as CPython does; ProcessPoolExecutor runs them the same way in
# this process (no pickling, no parallel speed-up).
import threading as _threading
import queue as _queue
import itertools as _itertools
from collections import namedtuple as _namedtuple

FIRST_COMPLETED = 'FIRST_COMPLETED'
FIRST_EXCEPTION = 'FIRST_EXCEPTION'
ALL_COMPLETED = 'ALL_COMPLETED'
_AS_COMPLETED = '_AS_COMPLETED'

PENDING = 'PENDING'
RUNNING = 'RUNNING'
CANCELLED = 'CANCELLED'
CANCELLED_AND_NOTIFIED = 'CANCELLED_AND_NOTIFIED'
FINISHED = 'FINISHED'

_STATE_TO_DESCRIPTION_MAP = {
    PENDING: 'pending',
    RUNNING: 'running',
    CANCELLED: 'cancelled',
    CANCELLED_AND_NOTIFIED: 'cancelled',
    FINISHED: 'finished',
}


class Error(Exception):
    """Base class for all future-related exceptions."""
    pass


class CancelledError(Error):
    """The Future was cancelled."""
    pass


TimeoutError = TimeoutError


class InvalidStateError(Error):
    """The operation is not allowed in this state."""
    pass


class BrokenExecutor(RuntimeError):
    """
    Raised when a executor has become non-functional after a severe failure.
    """


class Future:
    """Represents the result of an asynchronous computation."""

    def __init__(self):
        self._state = PENDING
        self._result = None
        self._exception = None
        self._done_callbacks = []

    def _invoke_callbacks(self):
        for callback in self._done_callbacks:
            try:
                callback(self)
            except Exception:
                import sys
                import traceback
                sys.stderr.write('exception calling callback for %r\n' % self)
                sys.stderr.write(traceback.format_exc())

    def __repr__(self):
        if self._state == FINISHED:
            if self._exception:
                return '<%s at %#x state=%s raised %s>' % (
                    self.__class__.__name__, id(self), _STATE_TO_DESCRIPTION_MAP[self._state],
                    self._exception.__class__.__name__)
            return '<%s at %#x state=%s returned %s>' % (
                self.__class__.__name__, id(self), _STATE_TO_DESCRIPTION_MAP[self._state],
                self._result.__class__.__name__)
        return '<%s at %#x state=%s>' % (self.__class__.__name__, id(self), _STATE_TO_DESCRIPTION_MAP[self._state])

    def cancel(self):
        if self._state in [RUNNING, FINISHED]:
            return False
        if self._state in [CANCELLED, CANCELLED_AND_NOTIFIED]:
            return True
        self._state = CANCELLED
        _threading._changed()
        self._invoke_callbacks()
        return True

    def cancelled(self):
        return self._state in [CANCELLED, CANCELLED_AND_NOTIFIED]

    def running(self):
        return self._state == RUNNING

    def done(self):
        return self._state in [CANCELLED, CANCELLED_AND_NOTIFIED, FINISHED]

    def __get_result(self):
        if self._exception:
            raise self._exception
        return self._result

    def add_done_callback(self, fn):
        if not self.done():
            self._done_callbacks.append(fn)
            return
        try:
            fn(self)
        except Exception:
            import sys
            import traceback
            sys.stderr.write('exception calling callback for %r\n' % self)
            sys.stderr.write(traceback.format_exc())

    def _wait(self, timeout):
        # until finished: CancelledError when cancelled, TimeoutError after timeout
        if not self.cancelled() and not _threading._wait_until(self.done, timeout):
            raise TimeoutError()
        if self.cancelled():
            raise CancelledError()

    def result(self, timeout=None):
        self._wait(timeout)
        return self.__get_result()

    def exception(self, timeout=None):
        self._wait(timeout)
        return self._exception

    def set_running_or_notify_cancel(self):
        if self._state == CANCELLED:
            self._state = CANCELLED_AND_NOTIFIED
            return False
        if self._state == PENDING:
            self._state = RUNNING
            return True
        raise RuntimeError('Future in unexpected state')

    def set_result(self, result):
        if self._state in {CANCELLED, CANCELLED_AND_NOTIFIED, FINISHED}:
            raise InvalidStateError('{}: {!r}'.format(self._state, self))
        self._result = result
        self._state = FINISHED
        _threading._changed()
        self._invoke_callbacks()

    def set_exception(self, exception):
        if self._state in {CANCELLED, CANCELLED_AND_NOTIFIED, FINISHED}:
            raise InvalidStateError('{}: {!r}'.format(self._state, self))
        self._exception = exception
        self._state = FINISHED
        _threading._changed()
        self._invoke_callbacks()


DoneAndNotDoneFutures = _namedtuple('DoneAndNotDoneFutures', 'done not_done')


def wait(fs, timeout=None, return_when=ALL_COMPLETED):
    fs = set(fs)

    def ready():
        done = [f for f in fs if f.done()]
        if return_when == FIRST_COMPLETED:
            return len(done) > 0
        if return_when == FIRST_EXCEPTION:
            if any(not f.cancelled() and f._exception is not None for f in done):
                return True
        return len(done) == len(fs)

    _threading._wait_until(ready, timeout)
    done = set(f for f in fs if f.done())
    return DoneAndNotDoneFutures(done, fs - done)


def as_completed(fs, timeout=None):
    if timeout is not None:
        import time
        end_time = timeout + time.monotonic()
    fs = list(dict.fromkeys(fs))
    total = len(fs)
    pending = list(fs)
    while pending:
        wait_timeout = None
        if timeout is not None:
            import time
            wait_timeout = end_time - time.monotonic()
            if wait_timeout < 0:
                wait_timeout = 0
        if not _threading._wait_until(lambda: any(f.done() for f in pending), wait_timeout):
            raise TimeoutError('%d (of %d) futures unfinished' % (len(pending), total))
        for f in [f for f in pending if f.done()]:
            pending.remove(f)
            yield f


class Executor:
    """This is an abstract base class for concrete asynchronous executors."""

    def submit(self, fn, /, *args, **kwargs):
        raise NotImplementedError()

    def map(self, fn, *iterables, timeout=None, chunksize=1):
        if timeout is not None:
            import time
            end_time = timeout + time.monotonic()
        fs = [self.submit(fn, *args) for args in zip(*iterables)]

        def result_iterator():
            try:
                fs.reverse()
                while fs:
                    if timeout is None:
                        yield fs.pop().result()
                    else:
                        import time
                        yield fs.pop().result(end_time - time.monotonic())
            finally:
                for future in fs:
                    future.cancel()
        return result_iterator()

    def shutdown(self, wait=True, *, cancel_futures=False):
        pass

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.shutdown(wait=True)
        return False


class BrokenThreadPool(BrokenExecutor):
    """
    Raised when a worker thread in a ThreadPoolExecutor failed initializing.
    """


class _WorkItem:
    def __init__(self, future, fn, args, kwargs):
        self.future = future
        self.fn = fn
        self.args = args
        self.kwargs = kwargs

    def run(self):
        if not self.future.set_running_or_notify_cancel():
            return
        try:
            result = self.fn(*self.args, **self.kwargs)
        except BaseException as exc:
            self.future.set_exception(exc)
        else:
            self.future.set_result(result)


class ThreadPoolExecutor(Executor):
    _counter = _itertools.count().__next__

    def __init__(self, max_workers=None, thread_name_prefix='', initializer=None, initargs=()):
        if max_workers is None:
            import os
            max_workers = min(32, (os.cpu_count() or 1) + 4)
        if max_workers <= 0:
            raise ValueError('max_workers must be greater than 0')
        if initializer is not None and not callable(initializer):
            raise TypeError('initializer must be a callable')
        self._max_workers = max_workers
        self._work_queue = _queue.SimpleQueue()
        self._idle = 0
        self._threads = set()
        self._broken = False
        self._shutdown = False
        self._thread_name_prefix = thread_name_prefix or ('ThreadPoolExecutor-%d' % self._counter())
        self._initializer = initializer
        self._initargs = initargs

    def submit(self, fn, /, *args, **kwargs):
        if self._broken:
            raise BrokenThreadPool(self._broken)
        if self._shutdown:
            raise RuntimeError('cannot schedule new futures after shutdown')
        f = Future()
        self._work_queue.put(_WorkItem(f, fn, args, kwargs))
        self._adjust_thread_count()
        return f

    def _adjust_thread_count(self):
        if self._idle > 0:
            return
        num_threads = len(self._threads)
        if num_threads < self._max_workers:
            t = _threading.Thread(name='%s_%d' % (self._thread_name_prefix, num_threads), target=self._worker)
            t.daemon = True
            self._threads.add(t)
            t.start()

    def _worker(self):
        if self._initializer is not None:
            try:
                self._initializer(*self._initargs)
            except BaseException:
                self._broken = ('A thread initializer failed, the thread pool is not usable anymore')
                while not self._work_queue.empty():
                    item = self._work_queue.get_nowait()
                    if item is not None:
                        item.future.set_exception(BrokenThreadPool(self._broken))
                return
        while True:
            self._idle += 1
            item = self._work_queue.get()
            self._idle -= 1
            if item is None:
                self._work_queue.put(None)
                return
            item.run()
            del item

    def shutdown(self, wait=True, *, cancel_futures=False):
        self._shutdown = True
        if cancel_futures:
            while not self._work_queue.empty():
                item = self._work_queue.get_nowait()
                if item is not None:
                    item.future.cancel()
        self._work_queue.put(None)
        if wait:
            for t in list(self._threads):
                t.join()


class BrokenProcessPool(BrokenExecutor):
    """
    Raised when a process in a ProcessPoolExecutor terminated abruptly
    while a future was in the running state.
    """


class ProcessPoolExecutor(ThreadPoolExecutor):
    # in this process, on worker threads
    def __init__(self, max_workers=None, mp_context=None, initializer=None, initargs=(), *,
                 max_tasks_per_child=None):
        if max_workers is None:
            import os
            max_workers = os.cpu_count() or 1
        elif max_workers <= 0:
            raise ValueError('max_workers must be greater than 0')
        ThreadPoolExecutor.__init__(self, max_workers, 'ProcessPoolExecutor', initializer, initargs)
