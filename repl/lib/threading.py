# threading — CPython 3.11's threading on cooperative green threads (_green,
# repl/mod_green.c): a thread runs until it blocks (join, Lock.acquire,
# Event.wait, Condition.wait, Queue.get/put, time.sleep) or ends, and a thread
# that waits lets the others run. start() runs the new thread at once until it
# first blocks. No two threads ever run at the same time: no parallel speed-up,
# and a thread that loops without blocking keeps the others waiting until it ends.
# When every thread waits with no timeout, waiting raises RuntimeError (CPython
# would hang). See docs/stdlib.md.
import _green
import time as _time
import sys as _sys

__all__ = ['get_ident', 'active_count', 'Condition', 'current_thread', 'enumerate', 'main_thread',
           'TIMEOUT_MAX', 'Event', 'Lock', 'RLock', 'Semaphore', 'BoundedSemaphore', 'Thread', 'Barrier',
           'BrokenBarrierError', 'Timer', 'ThreadError', 'ExceptHookArgs', 'setprofile', 'settrace', 'local',
           'stack_size', 'excepthook', 'get_native_id', 'getprofile', 'gettrace']

TIMEOUT_MAX = 9223372036.0
ThreadError = RuntimeError
_real_sleep = _time.sleep
_monotonic = _time.monotonic
_live = {}        # green id -> Thread, in start order
_state = [0]      # [progress]: bumped by every change a waiter may wait for
_IDENT_BASE = 139872341000000


def _changed():
    _state[0] += 1


def _wait_until(pred, timeout=None):
    # Blocks the running thread until pred() is true (True) or timeout seconds
    # have passed (False), letting the other threads run meanwhile.
    if pred():
        return True
    deadline = None if timeout is None else _monotonic() + timeout
    me = _green.current()
    if me:
        t = _live[me]
        while True:
            t._deadline = deadline
            _green.suspend()
            t._deadline = None
            if pred():
                _changed()
                return True
            if deadline is not None and _monotonic() >= deadline:
                _changed()
                return False
    while True:
        before = _state[0]
        for gid in list(_live):
            if gid in _live and not _green.running(gid):
                _green.resume(gid)
            if pred():
                return True
        if pred():
            return True
        now = _monotonic()
        if deadline is not None and now >= deadline:
            return False
        if _state[0] == before:
            ends = [t._deadline for t in _live.values() if t._deadline is not None]
            if deadline is not None:
                ends.append(deadline)
            if not ends:
                raise RuntimeError('deadlock: every thread waits and none can wake it (nnscope green threads)')
            _real_sleep(max(0.0, min(ends) - now))


def _sleep(secs):
    if not _live and not _green.current():
        return _real_sleep(secs)
    if secs < 0:
        raise ValueError('sleep length must be non-negative')
    _wait_until(lambda: False, secs)


_time.sleep = _sleep


def _timeout_arg(blocking, timeout):
    if not blocking:
        if timeout != -1 and timeout is not None:
            raise ValueError("can't specify a timeout for a non-blocking call")
        return 0
    if timeout is None or timeout == -1:
        return None
    if timeout < 0:
        raise ValueError('timeout value must be a non-negative number')
    return timeout


def _hex(o):
    return '0x%x' % id(o)


class Lock:
    def __init__(self):
        self._locked = False

    def acquire(self, blocking=True, timeout=-1):
        t = _timeout_arg(blocking, timeout)
        if self._locked:
            if t == 0 or not _wait_until(lambda: not self._locked, t):
                return False
        self._locked = True
        return True

    acquire_lock = acquire

    def release(self):
        if not self._locked:
            raise RuntimeError('release unlocked lock')
        self._locked = False
        _changed()

    release_lock = release

    def locked(self):
        return self._locked

    locked_lock = locked

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()

    def _release_save(self):
        self.release()

    def _acquire_restore(self, state):
        self.acquire()

    def _is_owned(self):
        return self._locked

    def __repr__(self):
        return '<%s _thread.lock object at %s>' % ('locked' if self._locked else 'unlocked', _hex(self))


def allocate_lock():
    return Lock()


class RLock:
    def __init__(self):
        self._owner = None
        self._count = 0

    def acquire(self, blocking=True, timeout=-1):
        me = get_ident()
        if self._owner == me:
            self._count += 1
            return True
        t = _timeout_arg(blocking, timeout)
        if self._owner is not None:
            if t == 0 or not _wait_until(lambda: self._owner is None, t):
                return False
        self._owner = me
        self._count = 1
        return True

    def release(self):
        if self._owner != get_ident():
            raise RuntimeError('cannot release un-acquired lock')
        self._count -= 1
        if not self._count:
            self._owner = None
            _changed()

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()

    def _release_save(self):
        if not self._count:
            raise RuntimeError('cannot release un-acquired lock')
        state = (self._count, self._owner)
        self._count = 0
        self._owner = None
        _changed()
        return state

    def _acquire_restore(self, state):
        _wait_until(lambda: self._owner is None)
        self._count, self._owner = state

    def _is_owned(self):
        return self._owner == get_ident()

    def __repr__(self):
        return '<%s _thread.RLock object owner=%d count=%d at %s>' % (
            'locked' if self._owner is not None else 'unlocked', self._owner or 0, self._count, _hex(self))


class Condition:
    def __init__(self, lock=None):
        if lock is None:
            lock = RLock()
        self._lock = lock
        self.acquire = lock.acquire
        self.release = lock.release
        self._waiters = []

    def __enter__(self):
        return self._lock.__enter__()

    def __exit__(self, *args):
        return self._lock.__exit__(*args)

    def __repr__(self):
        return '<Condition(%s, %d)>' % (self._lock, len(self._waiters))

    def wait(self, timeout=None):
        if not self._lock._is_owned():
            raise RuntimeError('cannot wait on un-acquired lock')
        waiter = [False]
        self._waiters.append(waiter)
        saved = self._lock._release_save()
        try:
            got = _wait_until(lambda: waiter[0], timeout)
        finally:
            self._lock._acquire_restore(saved)
            if not waiter[0]:
                self._waiters.remove(waiter)
        return got

    def wait_for(self, predicate, timeout=None):
        endtime = None
        waittime = timeout
        result = predicate()
        while not result:
            if waittime is not None:
                if endtime is None:
                    endtime = _monotonic() + waittime
                else:
                    waittime = endtime - _monotonic()
                    if waittime <= 0:
                        break
            self.wait(waittime)
            result = predicate()
        return result

    def notify(self, n=1):
        if not self._lock._is_owned():
            raise RuntimeError('cannot notify on un-acquired lock')
        for w in self._waiters[:n]:
            w[0] = True
        del self._waiters[:n]
        _changed()

    def notify_all(self):
        self.notify(len(self._waiters))

    notifyAll = notify_all


class Semaphore:
    def __init__(self, value=1):
        if value < 0:
            raise ValueError('semaphore initial value must be >= 0')
        self._value = value

    def __repr__(self):
        return '<%s.%s at %s: value=%d>' % (self.__class__.__module__, self.__class__.__qualname__, _hex(self),
                                           self._value)

    def acquire(self, blocking=True, timeout=None):
        if not blocking and timeout is not None:
            raise ValueError("can't specify timeout for non-blocking acquire")
        if not self._value:
            if not blocking or not _wait_until(lambda: self._value > 0, timeout):
                return False
        self._value -= 1
        return True

    __enter__ = acquire

    def release(self, n=1):
        if n < 1:
            raise ValueError('n must be one or more')
        self._value += n
        _changed()

    def __exit__(self, t, v, tb):
        self.release()


class BoundedSemaphore(Semaphore):
    def __init__(self, value=1):
        Semaphore.__init__(self, value)
        self._initial_value = value

    def __repr__(self):
        return '<%s.%s at %s: value=%d/%d>' % (self.__class__.__module__, self.__class__.__qualname__, _hex(self),
                                              self._value, self._initial_value)

    def release(self, n=1):
        if n < 1:
            raise ValueError('n must be one or more')
        if self._value + n > self._initial_value:
            raise ValueError('Semaphore released too many times')
        self._value += n
        _changed()


class Event:
    def __init__(self):
        self._flag = False

    def __repr__(self):
        return '<%s.%s at %s: %s>' % (self.__class__.__module__, self.__class__.__qualname__, _hex(self),
                                     'set' if self._flag else 'unset')

    def is_set(self):
        return self._flag

    isSet = is_set

    def set(self):
        self._flag = True
        _changed()

    def clear(self):
        self._flag = False

    def wait(self, timeout=None):
        return _wait_until(lambda: self._flag, timeout)


class BrokenBarrierError(RuntimeError):
    pass


class Barrier:
    def __init__(self, parties, action=None, timeout=None):
        if parties < 1:
            raise ValueError('parties must be > 0')
        self._parties = parties
        self._action = action
        self._timeout = timeout
        self._count = 0
        self._generation = 0
        self._broken = False

    def __repr__(self):
        if self._broken:
            return '<%s.%s at %s: broken>' % (self.__class__.__module__, self.__class__.__qualname__, _hex(self))
        return '<%s.%s at %s: waiters=%d/%d>' % (self.__class__.__module__, self.__class__.__qualname__, _hex(self),
                                                self._count, self._parties)

    def wait(self, timeout=None):
        if timeout is None:
            timeout = self._timeout
        if self._broken:
            raise BrokenBarrierError
        index = self._count
        self._count += 1
        gen = self._generation
        if self._count == self._parties:
            if self._action:
                self._action()
            self._count = 0
            self._generation += 1
            _changed()
            return index
        if not _wait_until(lambda: self._generation != gen or self._broken, timeout):
            self.abort()
        if self._broken:
            raise BrokenBarrierError
        return index

    def reset(self):
        self._count = 0
        self._broken = False
        self._generation += 1
        _changed()

    def abort(self):
        self._broken = True
        _changed()

    @property
    def parties(self):
        return self._parties

    @property
    def n_waiting(self):
        return self._count

    @property
    def broken(self):
        return self._broken


class ExceptHookArgs:
    def __init__(self, exc_type, exc_value, exc_traceback, thread):
        self.exc_type = exc_type
        self.exc_value = exc_value
        self.exc_traceback = exc_traceback
        self.thread = thread

    def __iter__(self):
        return iter((self.exc_type, self.exc_value, self.exc_traceback, self.thread))


def excepthook(args):
    if args.exc_type is SystemExit:
        return
    import traceback
    name = args.thread.name if args.thread is not None else get_ident()
    _sys.stderr.write('Exception in thread %s:\n' % name)
    _sys.stderr.write(''.join(traceback.format_exception(args.exc_value)))
    _sys.stderr.flush()


__excepthook__ = excepthook
_counter = [0]


def _newname(name_template='Thread-%d'):
    _counter[0] += 1
    return name_template % _counter[0]


class Thread:
    _initialized = False

    def __init__(self, group=None, target=None, name=None, args=(), kwargs=None, *, daemon=None):
        assert group is None, 'group argument must be None for now'
        if kwargs is None:
            kwargs = {}
        if name:
            name = str(name)
        else:
            name = _newname('Thread-%d')
            if target is not None:
                try:
                    name += ' (%s)' % target.__name__
                except AttributeError:
                    pass
        self._target = target
        self._name = name
        self._args = args
        self._kwargs = kwargs
        if daemon is not None:
            self._daemonic = daemon
        else:
            self._daemonic = current_thread().daemon
        self._ident = None
        self._gid = 0
        self._started = False
        self._is_stopped = False
        self._deadline = None
        self._initialized = True

    def __repr__(self):
        assert self._initialized, 'Thread.__init__() was not called'
        status = 'initial'
        if self._started:
            status = 'started'
        if self._is_stopped:
            status = 'stopped'
        if self._daemonic:
            status += ' daemon'
        if self._ident is not None:
            status += ' %s' % self._ident
        return '<%s(%s, %s)>' % (self.__class__.__name__, self._name, status)

    def start(self):
        if not self._initialized:
            raise RuntimeError('thread.__init__() not called')
        if self._started:
            raise RuntimeError('threads can only be started once')
        self._gid = _green.spawn(self._bootstrap)
        self._ident = _IDENT_BASE + 4096 * self._gid
        self._started = True
        _live[self._gid] = self
        _green.resume(self._gid)

    def _bootstrap(self):
        try:
            self.run()
        except BaseException as e:
            excepthook(ExceptHookArgs(type(e), e, e.__traceback__, self))
        finally:
            self._is_stopped = True
            del _live[self._gid]
            _changed()

    def run(self):
        try:
            if self._target is not None:
                self._target(*self._args, **self._kwargs)
        finally:
            del self._target, self._args, self._kwargs

    def join(self, timeout=None):
        if not self._initialized:
            raise RuntimeError('Thread.__init__() not called')
        if not self._started:
            raise RuntimeError('cannot join thread before it is started')
        if self is current_thread():
            raise RuntimeError('cannot join current thread')
        if timeout is not None and timeout < 0:
            timeout = 0
        _wait_until(lambda: self._is_stopped, timeout)

    def is_alive(self):
        assert self._initialized, 'Thread.__init__() not called'
        return self._started and not self._is_stopped

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, name):
        self._name = str(name)

    @property
    def ident(self):
        return self._ident

    @property
    def native_id(self):
        return None if self._ident is None else self._ident % 100000

    @property
    def daemon(self):
        return self._daemonic

    @daemon.setter
    def daemon(self, daemonic):
        if not self._initialized:
            raise RuntimeError('Thread.__init__() not called')
        if self._started:
            raise RuntimeError('cannot set daemon status of active thread')
        self._daemonic = daemonic

    def isDaemon(self):
        return self.daemon

    def setDaemon(self, daemonic):
        self.daemon = daemonic

    def getName(self):
        return self.name

    def setName(self, name):
        self.name = name


class _MainThread(Thread):
    def __init__(self):
        self._target = None
        self._name = 'MainThread'
        self._args = ()
        self._kwargs = {}
        self._daemonic = False
        self._ident = _IDENT_BASE
        self._gid = 0
        self._started = True
        self._is_stopped = False
        self._deadline = None
        self._initialized = True


class _DummyThread(Thread):
    pass


_main = _MainThread()


class Timer(Thread):
    def __init__(self, interval, function, args=None, kwargs=None):
        Thread.__init__(self)
        self.interval = interval
        self.function = function
        self.args = args if args is not None else []
        self.kwargs = kwargs if kwargs is not None else {}
        self.finished = Event()

    def cancel(self):
        self.finished.set()

    def run(self):
        self.finished.wait(self.interval)
        if not self.finished.is_set():
            self.function(*self.args, **self.kwargs)
        self.finished.set()


def current_thread():
    gid = _green.current()
    return _live[gid] if gid else _main


currentThread = current_thread


def main_thread():
    return _main


def get_ident():
    return current_thread()._ident


def get_native_id():
    return current_thread().native_id


def active_count():
    return len(_live) + 1


activeCount = active_count


def enumerate():
    return [_main] + list(_live.values())


class local:
    # attributes of its own for each thread
    def __new__(cls, *args, **kw):
        if (args or kw) and cls.__init__ is local.__init__:
            raise TypeError('Initialization arguments are not supported')
        self = object.__new__(cls)
        object.__setattr__(self, '_local__dicts', {get_ident(): {}})
        object.__setattr__(self, '_local__args', (args, kw))
        return self

    def _local__dict(self):
        dicts = object.__getattribute__(self, '_local__dicts')
        me = get_ident()
        if me not in dicts:
            dicts[me] = {}
            args, kw = object.__getattribute__(self, '_local__args')
            init = type(self).__init__
            if init is not object.__init__:
                init(self, *args, **kw)
        return dicts[me]

    def __getattr__(self, name):
        d = self._local__dict()
        if name in d:
            return d[name]
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __setattr__(self, name, value):
        if name == '__dict__':
            raise AttributeError("'%s' object attribute '__dict__' is read-only" % type(self).__name__)
        self._local__dict()[name] = value

    def __delattr__(self, name):
        d = self._local__dict()
        if name not in d:
            raise AttributeError(name)
        del d[name]


def settrace(func):
    pass


def setprofile(func):
    pass


def gettrace():
    return None


def getprofile():
    return None


def stack_size(size=0):
    return 0


def _shutdown():
    # the script ended: its threads that are not daemons run to their end
    while True:
        rest = [t for t in _live.values() if not t._daemonic]
        if not rest:
            return
        try:
            rest[0].join()
        except RuntimeError:
            return


_green.at_exit(_shutdown)
