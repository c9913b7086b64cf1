# The traceback module: print_exc / format_exc in an except block, format_exception
# of an exception object (and the (type, value, tb) form), chained exceptions,
# format_exception_only, format_tb / print_tb, print_stack / format_stack.
import sys
import traceback


def inner(x):
    return 10 // x


def outer(x):
    return inner(x) + 1


try:
    outer(0)
except ZeroDivisionError:
    text = traceback.format_exc()
    print(text, end="")
    traceback.print_exc(file=sys.stdout)

print(repr(traceback.format_exc()))

try:
    {}["missing"]
except KeyError as e:
    lines = traceback.format_exception(e)
    print(len(lines), lines[0], end="")
    print("".join(lines), end="")
    print(traceback.format_exception(type(e), e, e.__traceback__)[-1], end="")
    print(traceback.format_exception_only(e))
    print(traceback.format_exception_only(type(e), e))
    print("".join(traceback.format_tb(e.__traceback__)), end="")
    traceback.print_tb(e.__traceback__, file=sys.stdout)


def convert(s):
    try:
        return int(s)
    except ValueError as e:
        raise RuntimeError("conversion failed") from e


try:
    convert("x")
except RuntimeError:
    traceback.print_exc(file=sys.stdout)
    print("no chain:")
    traceback.print_exc(file=sys.stdout, chain=False)

try:
    try:
        [][1]
    except IndexError:
        None + 1
except TypeError as e:
    print("".join(traceback.format_exception(e)), end="")

print(traceback.format_exception(ValueError("never raised")))
print(traceback.format_exception_only(None))
print(traceback.format_tb(None))


def where():
    traceback.print_stack(file=sys.stdout)
    return traceback.format_stack()


def caller():
    return where()


stack = caller()
print(len(stack) >= 3, stack[-1].strip().splitlines()[0])


class Broken(Exception):
    def __init__(self, code):
        super().__init__("code %d" % code)
        self.code = code


try:
    raise Broken(7)
except Broken:
    print(traceback.format_exc().splitlines()[-1])

traceback.print_exc(file=sys.stdout)
for bad in (lambda: traceback.format_tb(5), lambda: traceback.format_exception(5)):
    try:
        bad()
    except (AttributeError, TypeError) as e:
        print(type(e).__name__)
