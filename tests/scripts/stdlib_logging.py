# logging (handlers, formatters, levels, the logger hierarchy), against CPython 3.11
import os
import sys


class Relative:  # writes to stdout with the script's absolute path (which tracebacks show) as its name
    def write(self, s):
        return sys.stdout.write(s.replace(os.path.abspath(__file__), os.path.basename(__file__)))

    def flush(self):
        pass


out = Relative()
import logging, sys
log = logging.getLogger(__name__)
log.warning("no handler: %s", "last resort")
log.info("not shown")
logging.basicConfig(level=logging.INFO, format="%(levelname)s|%(name)s|%(message)s", stream=out)
log.info("epoch %d loss %.3f", 3, 0.12345)
logging.debug("hidden")
logging.warning("root %s", "warn")
child = logging.getLogger("train.data")
parent = logging.getLogger("train")
print(child.parent.name, parent.parent.name, child.getEffectiveLevel(), logging.getLevelName(20), logging.getLevelName("DEBUG"))
parent.setLevel(logging.ERROR)
child.warning("suppressed by parent level")
child.error("shown %s", {"k": 1})
h = logging.StreamHandler(out)
h.setFormatter(logging.Formatter("[{levelname}] {message}", style="{"))
child.addHandler(h)
child.error("twice")
child.propagate = False
child.critical("once")
try:
    1 / 0
except ZeroDivisionError:
    child.exception("failed")
print(logging.getLogger() is logging.root, logging.getLogger("train") is parent, repr(parent), log.isEnabledFor(logging.DEBUG))
logging.getLogger("x").log(logging.WARNING, "log(%s)", "level")
logging.disable(logging.CRITICAL)
logging.error("disabled")
logging.disable(logging.NOTSET)
logging.error("enabled %(a)s", {"a": 1})
f = logging.Formatter("%(asctime)s %(message)s", datefmt="%Y")
r = logging.LogRecord("n", logging.INFO, "p.py", 1, "m %d", (5,), None)
print(f.format(r)[:2], r.getMessage(), r.levelname, r.filename)
