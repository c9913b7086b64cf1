# os.kill as CPython: a signal to this process runs the handler the script set
# with signal.signal (SIG_IGN ignores it, SIGINT raises KeyboardInterrupt), a
# missing process is ProcessLookupError; raise_signal with
# the default action of a harmless signal; and the script's paths: __file__ is
# absolute, sys.path[0] is the script's directory with links resolved.
import os
import signal
import sys

got = []
old = signal.signal(signal.SIGUSR1, lambda signum, frame: got.append(signum))
print(old)
os.kill(os.getpid(), signal.SIGUSR1)
os.kill(os.getpid(), int(signal.SIGUSR1))
print(got)
signal.signal(signal.SIGUSR1, signal.SIG_IGN)
os.kill(os.getpid(), signal.SIGUSR1)
print(got)
try:
    os.kill(os.getpid(), signal.SIGINT)
    print("not interrupted")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
os.kill(os.getpid(), 0)
signal.raise_signal(signal.SIGCHLD)  # ignored by default
try:
    os.kill(2**22 + 1, 0)  # beyond Linux's largest pid_max: never a process
except ProcessLookupError as e:
    print(type(e).__name__, e.errno, e.strerror)
for bad in ((os.getpid(), "x"), (os.getpid(),), (os.getpid(), 10**30)):
    try:
        os.kill(*bad)
    except (TypeError, OverflowError) as e:
        print(type(e).__name__, e)

print(os.path.isabs(__file__), os.path.basename(__file__), sys.argv[0])
print(sys.path[0] == os.path.dirname(os.path.realpath(__file__)))

# the rest of CPython's built-in exceptions, and OSError's errno map
for cls in (BlockingIOError, ChildProcessError, InterruptedError, ProcessLookupError, ConnectionError,
            BrokenPipeError, ConnectionAbortedError, ConnectionRefusedError, ConnectionResetError, BufferError,
            FloatingPointError, StopAsyncIteration, UnicodeTranslateError):
    print(cls.__name__, [c.__name__ for c in cls.__mro__[1:]])
print(IOError is OSError, EnvironmentError is OSError)
for errno in (1, 2, 3, 4, 10, 11, 13, 17, 20, 21, 32, 103, 104, 110, 111, 114, 115, 108, 5):
    e = OSError(errno, "message")
    print(errno, type(e).__name__, isinstance(e, IOError))
