# the sys module: sys.argv as python sets it for a script run from tests/scripts
# (['sys_module.py']), sys.maxsize, sys.stdout.write (where print writes) and sys.stderr
import sys
from sys import argv

print(sys.argv, argv is sys.argv, type(sys.argv).__name__)
print(sys.argv[0].endswith(".py"), len(sys.argv[1:]))
n = sys.stdout.write("written by sys.stdout.write, ")
print(n)
print(sys.stdout.write("héllo\n"))
sys.stdout.flush()
sys.stderr.write("to stderr (not compared)\n")
print(sys.maxsize, sys.maxsize == 9223372036854775807)
sys.argv.append("--extra")
import sys as again
print(again.argv)
try:
    sys.stdout.write(3)
except TypeError as e:
    print("TypeError:", e)
