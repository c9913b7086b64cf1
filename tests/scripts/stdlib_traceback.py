# the traceback module: format_exc, print_exc, format_exception(_only), print_exception, format_tb, against CPython 3.11
import os
import sys


class Relative:  # writes to stdout with the script's absolute path (which tracebacks show) as its name
    def write(self, s):
        return sys.stdout.write(s.replace(os.path.abspath(__file__), os.path.basename(__file__)))

    def flush(self):
        pass


out = Relative()
import traceback, sys
def inner(x):
    return 1 / x
def outer():
    return inner(0)
try:
    outer()
except ZeroDivisionError:
    text = traceback.format_exc()
    out.write(text)
    traceback.print_exc(file=out)
    e = sys.exc_info()[1]
    print(traceback.format_exception_only(type(e), e))
    print(''.join(traceback.format_exception(type(e), e, e.__traceback__)) == text)
    out.write('%d %s' % (len(traceback.format_tb(e.__traceback__)), traceback.format_tb(e.__traceback__)[-1]))
try:
    try:
        {}['k']
    except KeyError as e:
        raise ValueError('bad') from e
except ValueError as e:
    traceback.print_exception(e, file=out)
    print(traceback.format_exception(e, chain=False)[-1], end='')
print(traceback.format_exc(), end='')
