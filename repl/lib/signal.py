# signal, written in the language: the signal numbers (Signals), SIG_DFL/SIG_IGN
# (Handlers), signal/getsignal with CPython 3.11's checks, errors and previous
# handlers, strsignal, valid_signals, default_int_handler, and raise_signal, which
# calls a handler set here. nnscope keeps its own process-level handling: a
# handler set with signal() runs when raise_signal sends its signal, not when the
# operating system delivers one (Ctrl-C still raises KeyboardInterrupt), and
# alarm() schedules nothing (it returns 0).

from enum import IntEnum as _IntEnum

_SIGNALS = [
    ('SIGHUP', 1, 'Hangup'),
    ('SIGINT', 2, 'Interrupt'),
    ('SIGQUIT', 3, 'Quit'),
    ('SIGILL', 4, 'Illegal instruction'),
    ('SIGTRAP', 5, 'Trace/breakpoint trap'),
    ('SIGABRT', 6, 'Aborted'),
    ('SIGBUS', 7, 'Bus error'),
    ('SIGFPE', 8, 'Floating point exception'),
    ('SIGKILL', 9, 'Killed'),
    ('SIGUSR1', 10, 'User defined signal 1'),
    ('SIGSEGV', 11, 'Segmentation fault'),
    ('SIGUSR2', 12, 'User defined signal 2'),
    ('SIGPIPE', 13, 'Broken pipe'),
    ('SIGALRM', 14, 'Alarm clock'),
    ('SIGTERM', 15, 'Terminated'),
    ('SIGSTKFLT', 16, 'Stack fault'),
    ('SIGCHLD', 17, 'Child exited'),
    ('SIGCONT', 18, 'Continued'),
    ('SIGSTOP', 19, 'Stopped (signal)'),
    ('SIGTSTP', 20, 'Stopped'),
    ('SIGTTIN', 21, 'Stopped (tty input)'),
    ('SIGTTOU', 22, 'Stopped (tty output)'),
    ('SIGURG', 23, 'Urgent I/O condition'),
    ('SIGXCPU', 24, 'CPU time limit exceeded'),
    ('SIGXFSZ', 25, 'File size limit exceeded'),
    ('SIGVTALRM', 26, 'Virtual timer expired'),
    ('SIGPROF', 27, 'Profiling timer expired'),
    ('SIGWINCH', 28, 'Window changed'),
    ('SIGIO', 29, 'I/O possible'),
    ('SIGPWR', 30, 'Power failure'),
    ('SIGSYS', 31, 'Bad system call'),
    ('SIGRTMIN', 34, 'Real-time signal 0'),
    ('SIGRTMAX', 64, 'Real-time signal 30'),
]

Signals = _IntEnum('Signals', [(n, v) for n, v, _ in _SIGNALS], module=__name__)
SIGHUP = Signals.SIGHUP
SIGINT = Signals.SIGINT
SIGQUIT = Signals.SIGQUIT
SIGILL = Signals.SIGILL
SIGTRAP = Signals.SIGTRAP
SIGABRT = Signals.SIGABRT
SIGBUS = Signals.SIGBUS
SIGFPE = Signals.SIGFPE
SIGKILL = Signals.SIGKILL
SIGUSR1 = Signals.SIGUSR1
SIGSEGV = Signals.SIGSEGV
SIGUSR2 = Signals.SIGUSR2
SIGPIPE = Signals.SIGPIPE
SIGALRM = Signals.SIGALRM
SIGTERM = Signals.SIGTERM
SIGSTKFLT = Signals.SIGSTKFLT
SIGCHLD = Signals.SIGCHLD
SIGCONT = Signals.SIGCONT
SIGSTOP = Signals.SIGSTOP
SIGTSTP = Signals.SIGTSTP
SIGTTIN = Signals.SIGTTIN
SIGTTOU = Signals.SIGTTOU
SIGURG = Signals.SIGURG
SIGXCPU = Signals.SIGXCPU
SIGXFSZ = Signals.SIGXFSZ
SIGVTALRM = Signals.SIGVTALRM
SIGPROF = Signals.SIGPROF
SIGWINCH = Signals.SIGWINCH
SIGIO = Signals.SIGIO
SIGPWR = Signals.SIGPWR
SIGSYS = Signals.SIGSYS
SIGRTMIN = Signals.SIGRTMIN
SIGRTMAX = Signals.SIGRTMAX

Handlers = _IntEnum('Handlers', [('SIG_DFL', 0), ('SIG_IGN', 1)], module=__name__)
SIG_DFL = Handlers.SIG_DFL
SIG_IGN = Handlers.SIG_IGN

Sigmasks = _IntEnum('Sigmasks', [('SIG_BLOCK', 0), ('SIG_UNBLOCK', 1), ('SIG_SETMASK', 2)], module=__name__)
SIG_BLOCK = Sigmasks.SIG_BLOCK
SIG_UNBLOCK = Sigmasks.SIG_UNBLOCK
SIG_SETMASK = Sigmasks.SIG_SETMASK

NSIG = 65
ITIMER_REAL = 0
ITIMER_VIRTUAL = 1
ITIMER_PROF = 2

_names = {v: d for _, v, d in _SIGNALS}


def default_int_handler(signalnum, frame, /):
    raise KeyboardInterrupt


_handlers = {}


def _initial(signalnum):
    if signalnum == 2:
        return default_int_handler
    if signalnum in (13, 25):
        return SIG_IGN
    return SIG_DFL


def _check(signalnum):
    signalnum = int(signalnum)
    if not 1 <= signalnum < NSIG:
        raise ValueError('signal number out of range')
    return signalnum


def getsignal(signalnum, /):
    signalnum = _check(signalnum)
    return _handlers.get(signalnum, _initial(signalnum))


def signal(signalnum, handler, /):
    signalnum = _check(signalnum)
    if handler is not SIG_DFL and handler is not SIG_IGN and not (handler == 0 or handler == 1):
        if not callable(handler):
            raise TypeError('signal handler must be signal.SIG_IGN, signal.SIG_DFL, or a callable object')
    elif not callable(handler):
        handler = Handlers(int(handler))
    if signalnum in (9, 19) or 32 <= signalnum < 34:
        raise OSError(22, 'Invalid argument')
    old = getsignal(signalnum)
    _handlers[signalnum] = handler
    return old


def strsignal(signalnum, /):
    signalnum = _check(signalnum)
    if signalnum in _names:
        return _names[signalnum]
    if 34 <= signalnum <= 64:
        return 'Real-time signal %d' % (signalnum - 34)
    return None


def valid_signals():
    return {Signals(s) if s in _names else s for s in range(1, NSIG) if s not in (32, 33)}


def raise_signal(signalnum, /):
    signalnum = _check(signalnum)
    handler = getsignal(signalnum)
    if handler is SIG_IGN:
        return
    if handler is SIG_DFL:
        if signalnum in (17, 23, 28):  # ignored by default
            return
        import os
        os.kill(os.getpid(), signalnum)
        return
    handler(signalnum, None)


def alarm(seconds, /):
    return 0


def pause():
    raise NotImplementedError('signal.pause() is not available in nnscope')


def siginterrupt(signalnum, flag, /):
    _check(signalnum)


def set_wakeup_fd(fd, /, *, warn_on_full_buffer=True):
    return -1
