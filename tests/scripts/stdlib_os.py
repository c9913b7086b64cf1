# The modules os and os.path as CPython 3.11's on POSIX: path strings, directories, the environment.
import os, os.path
from os.path import join, splitext
print(os.path.split("/a/b/c"), os.path.split("c"), os.path.split("/"), os.path.split("//a//b//"), os.path.split("a/"))
print(os.path.basename("/a/b.tar.gz"), os.path.dirname("/a/b/c"), os.path.dirname("c"), os.path.dirname("///a"))
print(os.path.splitext("a/b.tar.gz"), splitext(".bashrc"), splitext("a.b/c"), splitext("..x"), splitext("x."))
for p in ["", ".", "a/./b/../c", "/../a", "//a//b", "///a", "a/../..", "../../x/..", "a/b/../../..", "/a/b/../../../c"]:
    print(repr(p), os.path.normpath(p))
print(os.path.isabs("/a"), os.path.isabs("a"), os.path.abspath("/a/b/../c"), os.path.abspath("x") == os.path.join(os.getcwd(), "x"))
print(os.sep, repr(os.linesep), os.name, os.path.sep, os.path.__name__, os.curdir, os.pardir)
d = "stdlib_os_dir.tmp"
os.makedirs(d + "/sub/deeper", exist_ok=True)
os.makedirs(d + "/sub/deeper", exist_ok=True)
try:
    os.makedirs(d + "/sub")
except FileExistsError as e:
    print(type(e).__name__, e, e.errno, e.filename, isinstance(e, OSError))
try:
    os.listdir("no_such_dir")
except FileNotFoundError as e:
    print(type(e).__name__, e, e.errno, e.strerror)
print(sorted(os.listdir(d)), os.path.exists(d), os.path.isdir(d), os.path.isfile(d), os.path.exists("nope"))
os.mkdir(d + "/two")
os.rename(d + "/two", d + "/three")
print(sorted(os.listdir(d)))
os.rmdir(d + "/three")
os.rmdir(d + "/sub/deeper")
os.rmdir(d + "/sub")
os.rmdir(d)
print(os.path.exists(d))
print(os.environ.get("NO_SUCH_VAR_X"), os.environ.get("NO_SUCH_VAR_X", "dflt"), os.getenv("NO_SUCH_VAR_X", 3), "PATH" in os.environ, type(os.environ["PATH"]).__name__)
print(os.getenv("HOME") == os.environ["HOME"], os.path.expanduser("~/x") == os.environ["HOME"] + "/x", os.path.expanduser("a~"))
print(isinstance(os.cpu_count(), int), os.getpid() > 0)
print(os.path.getsize("stdlib_os.py") > 0, os.path.islink("stdlib_os.py"), os.path.realpath(".") == os.path.abspath("."))
here = os.getcwd()
os.chdir("..")
print(os.path.basename(os.getcwd()), os.path.isdir("scripts"))
os.chdir(here)
print(os.path.basename(os.getcwd()))
for f in [lambda: os.remove("no_such_file.tmp"), lambda: os.unlink("no_such_file.tmp"), lambda: os.rmdir("no_such_dir"),
          lambda: os.path.getsize("no_such_file"), lambda: os.mkdir("stdlib_os.py"), lambda: os.chdir("stdlib_os.py"),
          lambda: os.path.join("a", 1), lambda: os.listdir(5.5), lambda: os.mkdir(1.5)]:
    try:
        f()
    except (NotADirectoryError, IsADirectoryError, PermissionError) as e:
        print("a subclass of OSError:", type(e).__name__, e, e.errno)
    except OSError as e:
        print(type(e).__name__, e, e.errno)
    except TypeError as e:
        print(type(e).__name__, e)
