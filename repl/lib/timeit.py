# timeit, written in the language: Timer (a callable or a source string,
# run with exec in its own namespace), timeit, repeat, autorange,
# default_timer (time.perf_counter).

import time

default_timer = time.perf_counter
default_number = 1000000
default_repeat = 5


class Timer:
    def __init__(self, stmt='pass', setup='pass', timer=default_timer, globals=None):
        self.timer = timer
        self._globals = dict(globals) if globals is not None else {}
        if isinstance(setup, str):
            self._setup_code = compile(setup, '<timeit-src>', 'exec')
            self._setup = None
        elif callable(setup):
            self._setup, self._setup_code = setup, None
        else:
            raise ValueError('setup is neither a string nor callable')
        if isinstance(stmt, str):
            self._stmt_code = compile(stmt, '<timeit-src>', 'exec')
            self._stmt = None
        elif callable(stmt):
            self._stmt, self._stmt_code = stmt, None
        else:
            raise ValueError('stmt is neither a string nor callable')

    def timeit(self, number=default_number):
        ns = self._globals
        if self._setup is not None:
            self._setup()
        else:
            exec(self._setup_code, ns)
        stmt, code = self._stmt, self._stmt_code
        t0 = self.timer()
        if stmt is not None:
            for _ in range(number):
                stmt()
        else:
            for _ in range(number):
                exec(code, ns)
        return self.timer() - t0

    def repeat(self, repeat=default_repeat, number=default_number):
        return [self.timeit(number) for _ in range(repeat)]

    def autorange(self, callback=None):
        i = 1
        while True:
            for j in 1, 2, 5:
                number = i * j
                time_taken = self.timeit(number)
                if callback:
                    callback(number, time_taken)
                if time_taken >= 0.2:
                    return (number, time_taken)
            i *= 10


def timeit(stmt='pass', setup='pass', timer=default_timer, number=default_number, globals=None):
    return Timer(stmt, setup, timer, globals).timeit(number)


def repeat(stmt='pass', setup='pass', timer=default_timer, repeat=default_repeat, number=default_number,
           globals=None):
    return Timer(stmt, setup, timer, globals).repeat(repeat, number)
