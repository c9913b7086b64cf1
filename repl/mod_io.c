/*
 * mod_io.c — `import io` and the built-in open(): text files, written in the
 * language (the source below) over four C helpers on file descriptors:
 * _open(path, mode) (OSError subclasses as CPython's), _read(fd) (the rest of
 * the file as str), _write(fd, s), _close(fd).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "stdlib_int.h"

static nn_object *io_open(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_open", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *path = nn_tuple_get(args, 0), *mode = nn_tuple_get(args, 1);
    if (!nn_is_str(path) || !nn_is_str(mode)) {
        repl_raise_exc(EXC_TypeError, "_open(str, str)");
        return NULL;
    }
    const char *m = nn_str_cstr(mode);
    int flags = strchr(m, '+') ? O_RDWR : strchr(m, 'r') ? O_RDONLY : O_WRONLY;
    if (strchr(m, 'w')) flags |= O_CREAT | O_TRUNC;
    if (strchr(m, 'a')) flags |= O_CREAT | O_APPEND;
    if (strchr(m, 'x')) flags |= O_CREAT | O_EXCL;
    int fd = open(nn_str_cstr(path), flags | O_CLOEXEC, 0666);
    if (fd >= 0 && !strchr(m, 'r') && !strchr(m, '+')) return nn_int_new(fd);
    /* reading a directory fails at the first read on Linux; CPython refuses it at open */
    if (fd >= 0) {
        char c;
        if (pread(fd, &c, 0, 0) < 0 && errno == EISDIR) {
            close(fd);
            fd = -1;
            errno = EISDIR;
        }
    }
    if (fd < 0) return repl_mod_os_error(errno, nn_str_cstr(path));
    return nn_int_new(fd);
}

static int fd_arg(nn_object *args, int *fd)
{
    int64_t v;
    if (repl_mod_int(nn_tuple_get(args, 0), &v) < 0) return -1;
    *fd = (int)v;
    return 0;
}

static nn_object *io_read(void *ud, nn_object *args, nn_object *kwargs)
{
    int fd;
    if (repl_mod_nargs("_read", args, kwargs, 1, 1) < 0 || fd_arg(args, &fd) < 0) return NULL;
    sbuf b = {0};
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            nn_free(repl_sb_finish(&b));
            return repl_mod_os_error(errno, "<file>");
        }
        if (n == 0) break;
        repl_sb_add(&b, chunk, (size_t)n);
    }
    size_t len = b.len;
    char *s = repl_sb_finish(&b);
    nn_object *r = s ? nn_str_from(s, len) : len == 0 && !b.failed ? nn_str_new("") : NULL;
    nn_free(s);
    return r;
}

static nn_object *io_write(void *ud, nn_object *args, nn_object *kwargs)
{
    int fd;
    if (repl_mod_nargs("_write", args, kwargs, 2, 2) < 0 || fd_arg(args, &fd) < 0) return NULL;
    nn_object *s = nn_tuple_get(args, 1);
    if (!nn_is_str(s)) {
        repl_raise_exc(EXC_TypeError, "write() argument must be str, not %s", repl_value_type_name(s));
        return NULL;
    }
    const char *p = nn_str_cstr(s);
    size_t left = nn_str_len(s);
    while (left) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return repl_mod_os_error(errno, "<file>");
        p += n;
        left -= (size_t)n;
    }
    return nn_retain(nn_none());
}

static nn_object *io_close(void *ud, nn_object *args, nn_object *kwargs)
{
    int fd;
    if (repl_mod_nargs("_close", args, kwargs, 1, 1) < 0 || fd_arg(args, &fd) < 0) return NULL;
    close(fd);
    return nn_retain(nn_none());
}

static const repl_mod_fn helpers[] = {
    {"_open", io_open, NULL},
    {"_read", io_read, NULL},
    {"_write", io_write, NULL},
    {"_close", io_close, NULL},
};

/* source: begin */
static const char source[] =
    "# io: open() and its text files, written in the language over C helpers on\n"
    "# file descriptors (_open, _read, _write, _close). Writes go to the file at\n"
    "# once (no buffer to lose when a script forgets close()); the first read takes\n"
    "# the rest of the file. Text only: nnscope has no bytes type.\n"
    "\n"
    "\n"
    "class UnsupportedOperation(OSError):\n"
    "    pass\n"
    "\n"
    "\n"
    "class TextIOWrapper:\n"
    "    def __init__(self, fd, name, mode):\n"
    "        self._fd = fd\n"
    "        self.name = name\n"
    "        self.mode = mode\n"
    "        self.encoding = 'UTF-8'\n"
    "        self.closed = False\n"
    "        self._buf = None\n"
    "        self._pos = 0\n"
    "        self._readable = 'r' in mode or '+' in mode\n"
    "        self._writable = 'r' not in mode or '+' in mode\n"
    "\n"
    "    def __repr__(self):\n"
    "        return '<_io.TextIOWrapper name=' + repr(self.name) + ' mode=' + repr(self.mode) + \" encoding='UTF-8'>\"\n"
    "\n"
    "    def _check(self, reading):\n"
    "        if self.closed:\n"
    "            raise ValueError('I/O operation on closed file.')\n"
    "        if reading and not self._readable:\n"
    "            raise UnsupportedOperation('not readable')\n"
    "        if not reading and not self._writable:\n"
    "            raise UnsupportedOperation('not writable')\n"
    "\n"
    "    def _fill(self):\n"
    "        if self._buf is None:\n"
    "            self._buf = _read(self._fd)\n"
    "            self._pos = 0\n"
    "\n"
    "    def read(self, size=-1):\n"
    "        self._check(True)\n"
    "        self._fill()\n"
    "        if size is None or size < 0:\n"
    "            end = len(self._buf)\n"
    "        else:\n"
    "            end = min(self._pos + size, len(self._buf))\n"
    "        s = self._buf[self._pos:end]\n"
    "        self._pos = end\n"
    "        return s\n"
    "\n"
    "    def readline(self, size=-1):\n"
    "        self._check(True)\n"
    "        self._fill()\n"
    "        i = self._buf.find('\\n', self._pos)\n"
    "        end = len(self._buf) if i < 0 else i + 1\n"
    "        if size is not None and size >= 0:\n"
    "            end = min(end, self._pos + size)\n"
    "        s = self._buf[self._pos:end]\n"
    "        self._pos = end\n"
    "        return s\n"
    "\n"
    "    def readlines(self, hint=-1):\n"
    "        lines = []\n"
    "        while True:\n"
    "            line = self.readline()\n"
    "            if not line:\n"
    "                return lines\n"
    "            lines.append(line)\n"
    "\n"
    "    def __iter__(self):\n"
    "        self._check(True)\n"
    "        return self\n"
    "\n"
    "    def __next__(self):\n"
    "        line = self.readline()\n"
    "        if not line:\n"
    "            raise StopIteration\n"
    "        return line\n"
    "\n"
    "    def write(self, s):\n"
    "        self._check(False)\n"
    "        if not isinstance(s, str):\n"
    "            raise TypeError('write() argument must be str, not ' + type(s).__name__)\n"
    "        _write(self._fd, s)\n"
    "        return len(s)\n"
    "\n"
    "    def writelines(self, lines):\n"
    "        for line in lines:\n"
    "            self.write(line)\n"
    "\n"
    "    def flush(self):\n"
    "        if self.closed:\n"
    "            raise ValueError('I/O operation on closed file.')\n"
    "\n"
    "    def readable(self):\n"
    "        return self._readable\n"
    "\n"
    "    def writable(self):\n"
    "        return self._writable\n"
    "\n"
    "    def close(self):\n"
    "        if not self.closed:\n"
    "            self.closed = True\n"
    "            _close(self._fd)\n"
    "\n"
    "    def __enter__(self):\n"
    "        if self.closed:\n"
    "            raise ValueError('I/O operation on closed file.')\n"
    "        return self\n"
    "\n"
    "    def __exit__(self, *exc):\n"
    "        self.close()\n"
    "        return False\n"
    "\n"
    "\n"
    "def open(file, mode='r', buffering=-1, encoding=None, errors=None, newline=None, closefd=True, opener=None):\n"
    "    if not isinstance(file, str):\n"
    "        raise TypeError('expected str, bytes or os.PathLike object, not ' + type(file).__name__)\n"
    "    if not isinstance(mode, str):\n"
    "        raise TypeError('open() argument \\'mode\\' must be str, not ' + type(mode).__name__)\n"
    "    for ch in mode:\n"
    "        if ch not in 'rwaxbt+' or mode.count(ch) > 1:\n"
    "            raise ValueError('invalid mode: ' + repr(mode))\n"
    "    kinds = sum([ch in mode for ch in 'rwax'])\n"
    "    if kinds != 1:\n"
    "        raise ValueError('Must have exactly one of create/read/write/append mode and at most one plus' if '+' in mode\n"
    "                         else 'must have exactly one of create/read/write/append mode')\n"
    "    if 'b' in mode:\n"
    "        raise ValueError(\"binary mode is not supported (nnscope has no bytes type): \" + repr(mode))\n"
    "    return TextIOWrapper(_open(file, mode), file, mode)\n";
/* source: end */

nn_object *repl_mod_io(void) { return repl_mod_from_source("io", helpers, sizeof helpers / sizeof *helpers, source); }

nn_object *repl_bi_open(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *io = repl_stdlib_module("io");
    nn_object *f = io ? repl_get_attr(io, "open") : NULL;
    NN_RELEASE(io);
    if (!f) return NULL;
    size_t n = args ? nn_tuple_len(args) : 0;
    nn_object *r = repl_call_object(f, n ? ((nn_tuple *)args)->items : NULL, (int)n, kwargs);
    NN_RELEASE(f);
    return r;
}
