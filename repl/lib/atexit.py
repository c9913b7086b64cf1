# atexit, written in the language: functions registered to run as the interpreter
# ends (after the script, or as the notebook quits: app.c runs _run_exitfuncs when
# atexit was imported), last registered first; an exception in one is reported
# as CPython's "Exception ignored in atexit callback" and the others still run.

_exithandlers = []


def register(func, *args, **kwargs):
    if not callable(func):
        raise TypeError('the first argument must be callable')
    _exithandlers.append((func, args, kwargs))
    return func


def unregister(func):
    # as CPython's, the entry is emptied and still counted by _ncallbacks
    for i, h in enumerate(_exithandlers):
        if h is not None and h[0] == func:
            _exithandlers[i] = None


def _clear():
    del _exithandlers[:]


def _ncallbacks():
    return len(_exithandlers)


def _run_exitfuncs():
    import sys
    while _exithandlers:
        handler = _exithandlers.pop()
        if handler is None:
            continue
        func, args, kwargs = handler
        try:
            func(*args, **kwargs)
        except BaseException as exc:
            import traceback
            print('Exception ignored in atexit callback: %r' % (func,), file=sys.stderr)
            traceback.print_exception(type(exc), exc, exc.__traceback__.tb_next, file=sys.stderr)
