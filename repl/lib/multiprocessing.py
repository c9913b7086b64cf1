# multiprocessing — what PyTorch scripts touch of CPython 3.11's, in this
# process: cpu_count, current_process, the start methods, freeze_support;
# Process runs its target on a green thread (repl/lib/threading.py), Pool runs
# its tasks in order in this process (map, imap, imap_unordered, starmap,
# apply, apply_async, map_async); Queue, Lock, RLock, Event, Semaphore,
# Condition, Barrier are threading's and queue's; Value and Array hold their
# values here. No separate processes: no parallel speed-up, and a child sees the
# parent's objects themselves, not copies.
import os as _os
import threading as _threading
import queue as _queue

__all__ = ['Process', 'current_process', 'active_children', 'parent_process', 'cpu_count', 'Pool', 'Queue',
           'SimpleQueue', 'JoinableQueue', 'Lock', 'RLock', 'Event', 'Semaphore', 'BoundedSemaphore',
           'Condition', 'Barrier', 'Value', 'Array', 'Manager', 'get_context', 'get_start_method',
           'set_start_method', 'get_all_start_methods', 'freeze_support', 'TimeoutError', 'ProcessError',
           'AuthenticationError', 'BufferTooShort']


class ProcessError(Exception):
    pass


class BufferTooShort(ProcessError):
    pass


class TimeoutError(ProcessError):
    pass


class AuthenticationError(ProcessError):
    pass


def cpu_count():
    num = _os.cpu_count()
    if num is None:
        raise NotImplementedError('cannot determine number of cpus')
    return num


_start_method = [None]


def get_all_start_methods():
    return ['fork', 'spawn', 'forkserver']


def get_start_method(allow_none=False):
    if _start_method[0] is None and not allow_none:
        _start_method[0] = 'fork'
    return _start_method[0]


def set_start_method(method, force=False):
    if _start_method[0] is not None and not force:
        raise RuntimeError('context has already been set')
    if method is not None and method not in get_all_start_methods():
        raise ValueError('cannot find context for %r' % method)
    _start_method[0] = method


def freeze_support():
    pass


_counter = [0]
_children = []


class Process:
    _start_method = None

    def __init__(self, group=None, target=None, name=None, args=(), kwargs={}, *, daemon=None):
        assert group is None, 'group argument must be None for now'
        _counter[0] += 1
        self._identity = (_counter[0],)
        self._target = target
        self._args = tuple(args)
        self._kwargs = dict(kwargs)
        self._name = name or 'Process-%d' % _counter[0]
        self._daemonic = bool(daemon)
        self._thread = None
        self._popen = None
        self._parent_pid = _os.getpid()
        self.exitcode = None

    def run(self):
        if self._target:
            self._target(*self._args, **self._kwargs)

    def _bootstrap(self):
        try:
            self.run()
            self.exitcode = 0
        except SystemExit as e:
            self.exitcode = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            import sys
            import traceback
            sys.stderr.write('Process %s:\n' % self._name)
            traceback.print_exc()
            self.exitcode = 1

    def start(self):
        if self._thread is not None:
            raise AssertionError('cannot start a process twice')
        _children.append(self)
        self._thread = _threading.Thread(target=self._bootstrap, name=self._name, daemon=self._daemonic)
        self._thread.start()

    def join(self, timeout=None):
        if self._thread is None:
            raise AssertionError('can only join a started process')
        self._thread.join(timeout)
        if not self._thread.is_alive() and self in _children:
            _children.remove(self)

    def is_alive(self):
        return self._thread is not None and self._thread.is_alive()

    def terminate(self):
        pass

    kill = terminate

    def close(self):
        pass

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, name):
        self._name = name

    @property
    def daemon(self):
        return self._daemonic

    @daemon.setter
    def daemon(self, daemonic):
        self._daemonic = daemonic

    @property
    def pid(self):
        return None if self._thread is None else self._parent_pid + self._identity[0]

    ident = pid

    @property
    def authkey(self):
        return b''

    def __repr__(self):
        if self._thread is None:
            status = 'initial'
        elif self.exitcode is None:
            status = 'started'
        else:
            status = 'stopped' if self.exitcode == 0 else 'stopped exitcode=%s' % self.exitcode
        info = [type(self).__name__, 'name=%r' % self._name]
        if self._thread is not None:
            info.append('pid=%s' % self.pid)
        info.append('parent=%s' % self._parent_pid)
        info.append(status)
        if self._daemonic:
            info.append('daemon')
        return '<%s>' % ' '.join(info)


class _MainProcess(Process):
    def __init__(self):
        self._identity = ()
        self._name = 'MainProcess'
        self._daemonic = False
        self._thread = True
        self._parent_pid = None
        self.exitcode = None

    @property
    def pid(self):
        return _os.getpid()

    def __repr__(self):
        return "<_MainProcess name='MainProcess' parent=None started>"


_main = _MainProcess()


def current_process():
    return _main


def parent_process():
    return None


def active_children():
    return [p for p in _children if p.is_alive()]


class Queue(_queue.Queue):
    def close(self):
        pass

    def join_thread(self):
        pass

    def cancel_join_thread(self):
        pass


JoinableQueue = Queue


class SimpleQueue(_queue.SimpleQueue):
    def close(self):
        pass


Lock = _threading.Lock
RLock = _threading.RLock
Event = _threading.Event
Semaphore = _threading.Semaphore
BoundedSemaphore = _threading.BoundedSemaphore
Condition = _threading.Condition
Barrier = _threading.Barrier


class _Value:
    def __init__(self, typecode_or_type, value, lock=True):
        self._typecode = typecode_or_type
        self.value = value
        self._lock = _threading.RLock()

    def get_lock(self):
        return self._lock

    def get_obj(self):
        return self

    def __repr__(self):
        return '<Synchronized wrapper for c_%s(%r)>' % ({'i': 'int', 'd': 'double', 'f': 'float', 'l': 'long',
                                                        'b': 'byte', 'c': 'char'}.get(self._typecode, 'int'),
                                                       self.value)


def Value(typecode_or_type, *args, lock=True):
    return _Value(typecode_or_type, args[0] if args else 0, lock)


def Array(typecode_or_type, size_or_initializer, *, lock=True):
    if isinstance(size_or_initializer, int):
        return [0.0 if typecode_or_type in ('d', 'f') else 0] * size_or_initializer
    return list(size_or_initializer)


class _AsyncResult:
    def __init__(self, fn, error_callback=None):
        try:
            self._value = fn()
            self._success = True
        except Exception as e:
            self._value = e
            self._success = False
            if error_callback is not None:
                error_callback(e)

    def ready(self):
        return True

    def successful(self):
        return self._success

    def wait(self, timeout=None):
        pass

    def get(self, timeout=None):
        if self._success:
            return self._value
        raise self._value


class Pool:
    def __init__(self, processes=None, initializer=None, initargs=(), maxtasksperchild=None, context=None):
        if processes is None:
            processes = cpu_count()
        if processes < 1:
            raise ValueError('Number of processes must be at least 1')
        if initializer is not None and not callable(initializer):
            raise TypeError('initializer must be a callable')
        self._processes = processes
        _counter[0] += processes  # CPython's workers are processes: they take their numbers
        self._state = 'RUN'
        if initializer is not None:
            initializer(*initargs)

    def _check_running(self):
        if self._state != 'RUN':
            raise ValueError('Pool not running')

    def apply(self, func, args=(), kwds={}):
        self._check_running()
        return func(*args, **kwds)

    def apply_async(self, func, args=(), kwds={}, callback=None, error_callback=None):
        self._check_running()
        r = _AsyncResult(lambda: func(*args, **kwds), error_callback)
        if r._success and callback is not None:
            callback(r._value)
        return r

    def map(self, func, iterable, chunksize=None):
        self._check_running()
        return [func(x) for x in iterable]

    def map_async(self, func, iterable, chunksize=None, callback=None, error_callback=None):
        self._check_running()
        r = _AsyncResult(lambda: [func(x) for x in iterable], error_callback)
        if r._success and callback is not None:
            callback(r._value)
        return r

    def starmap(self, func, iterable, chunksize=None):
        self._check_running()
        return [func(*args) for args in iterable]

    def starmap_async(self, func, iterable, chunksize=None, callback=None, error_callback=None):
        self._check_running()
        r = _AsyncResult(lambda: [func(*args) for args in iterable], error_callback)
        if r._success and callback is not None:
            callback(r._value)
        return r

    def imap(self, func, iterable, chunksize=1):
        self._check_running()
        return (func(x) for x in iterable)

    imap_unordered = imap

    def close(self):
        self._state = 'CLOSE'

    def terminate(self):
        self._state = 'TERMINATE'

    def join(self):
        if self._state == 'RUN':
            raise ValueError('Pool is still running')

    def __enter__(self):
        self._check_running()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.terminate()

    def __repr__(self):
        return '<multiprocessing.pool.Pool state=%s pool_size=%d>' % (self._state, self._processes)


class _Manager:
    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass

    def start(self):
        pass

    def shutdown(self):
        pass

    def list(self, *args):
        return list(*args)

    def dict(self, *args, **kwargs):
        return dict(*args, **kwargs)

    def Queue(self, maxsize=0):
        return Queue(maxsize)

    def Lock(self):
        return Lock()

    def Event(self):
        return Event()

    def Value(self, typecode, value):
        return Value(typecode, value)

    def Namespace(self):
        import types
        return types.SimpleNamespace()


def Manager():
    return _Manager()


class _Context:
    def __init__(self, method):
        self._name = method

    def get_start_method(self):
        return self._name

    def __getattr__(self, name):
        return globals()[name]


def get_context(method=None):
    if method is not None and method not in get_all_start_methods():
        raise ValueError('cannot find context for %r' % method)
    return _Context(method or get_start_method())
