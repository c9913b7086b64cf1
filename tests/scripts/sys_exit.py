# sys.exit and SystemExit: caught like any BaseException (not by `except Exception`),
# with .code and .args as python's; the uncaught one at the end makes the program exit
# with status 3 and print nothing (tests/scripts compares the "exit 3" line)
import sys

for code in (None, 0, 2, True, "bye", [1, 2]):
    try:
        try:
            sys.exit(code)
        except Exception:
            print("not an Exception")
    except SystemExit as e:
        print(repr(e), e.code, e.args, isinstance(e, BaseException), isinstance(e, Exception))
try:
    sys.exit()
except SystemExit as e:
    print("no argument:", e.code, e.args, repr(str(e)))
try:
    raise SystemExit(5, "two")
except SystemExit as e:
    print(e.code, str(e))
try:
    raise SystemExit
except BaseException as e:
    print(type(e).__name__, e.code)
print("before the exit")
sys.exit(3)
print("never printed")
