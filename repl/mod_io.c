/*
 * mod_io.c — `import io` and the built-in open(): text files, written in the
 * language (the source below) over four C helpers on file descriptors:
 * _open(path, mode) (OSError subclasses as CPython's), _read(fd) / _readb(fd)
 * (the rest of the file as str / bytes), _write(fd, s) (str or bytes), _close(fd);
 * io.BytesIO and io.StringIO in memory. io.TextIOWrapper over a binary stream and
 * io.BufferedReader/BufferedWriter are repl/lib/_io_text.py and _io_buffered.py.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "bytes_int.h"
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

/* The rest of file fd as a str (bytes: as bytes). */
static nn_object *read_rest(const char *fname, nn_object *args, nn_object *kwargs, bool bytes)
{
    int fd;
    if (repl_mod_nargs(fname, args, kwargs, 1, 1) < 0 || fd_arg(args, &fd) < 0) return NULL;
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
    nn_object *r = NULL;
    if (s || (len == 0 && !b.failed)) r = bytes ? repl_bytes_new(s, len, false) : s ? nn_str_from(s, len) : nn_str_new("");
    nn_free(s);
    return r;
}

static nn_object *io_read(void *ud, nn_object *args, nn_object *kwargs) { return read_rest("_read", args, kwargs, false); }
static nn_object *io_readb(void *ud, nn_object *args, nn_object *kwargs) { return read_rest("_readb", args, kwargs, true); }

/* _readsome(fd, cap): one read of at most cap bytes (b'' at the end of the file). */
static nn_object *io_readsome(void *ud, nn_object *args, nn_object *kwargs)
{
    int fd;
    int64_t cap;
    if (repl_mod_nargs("_readsome", args, kwargs, 2, 2) < 0 || fd_arg(args, &fd) < 0 ||
        repl_mod_int(nn_tuple_get(args, 1), &cap) < 0)
        return NULL;
    if (cap < 0 || cap > (1 << 26)) cap = 1 << 26;
    char *buf = nn_malloc((size_t)cap + 1);
    if (!buf) return NULL;
    ssize_t n;
    do n = read(fd, buf, (size_t)cap);
    while (n < 0 && errno == EINTR);
    nn_object *r = n < 0 ? repl_mod_os_error(errno, "<file>") : repl_bytes_new(buf, (size_t)n, false);
    nn_free(buf);
    return r;
}

/* _utf8_prefix(raw, final) -> (str, rest): raw decoded but for the bytes of a
   last character not all there yet (unless final); UnicodeDecodeError otherwise. */
static nn_object *io_utf8_prefix(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_utf8_prefix", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *raw = nn_tuple_get(args, 0);
    if (!repl_is_bytes(raw)) {
        repl_raise_exc(EXC_TypeError, "_utf8_prefix(bytes, bool)");
        return NULL;
    }
    const unsigned char *p = repl_bytes_data(raw);
    size_t n = repl_bytes_len(raw), cut = n;
    if (!nn_is_true(nn_tuple_get(args, 1))) {
        size_t i = n, k = 0;
        while (i > 0 && k < 3 && (p[i - 1] & 0xC0) == 0x80) i--, k++;
        if (i > 0 && p[i - 1] >= 0xC0) {
            size_t need = p[i - 1] < 0xE0 ? 2 : p[i - 1] < 0xF0 ? 3 : 4;
            if (n - (i - 1) < need) cut = i - 1;
        }
    }
    nn_object *text = repl_bytes_decode(p, cut, "utf-8", NULL);
    nn_object *rest = text ? repl_bytes_new(p + cut, n - cut, false) : NULL;
    nn_object *r = rest ? nn_tuple_pack(2, text, rest) : NULL;
    NN_RELEASE(text);
    NN_RELEASE(rest);
    return r;
}

static nn_object *io_write(void *ud, nn_object *args, nn_object *kwargs)
{
    int fd;
    if (repl_mod_nargs("_write", args, kwargs, 2, 2) < 0 || fd_arg(args, &fd) < 0) return NULL;
    nn_object *s = nn_tuple_get(args, 1);
    if (!nn_is_str(s) && !repl_is_bytes(s)) {
        repl_raise_exc(EXC_TypeError, "write() argument must be str, not %s", repl_value_type_name(s));
        return NULL;
    }
    const char *p = nn_is_str(s) ? nn_str_cstr(s) : (const char *)repl_bytes_data(s);
    size_t left = nn_is_str(s) ? nn_str_len(s) : repl_bytes_len(s);
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

/* _lseek(fd, offset, whence): the new offset, or CPython's OSError ("[Errno 29]
   Illegal seek" on a pipe) */
static nn_object *io_lseek(void *ud, nn_object *args, nn_object *kwargs)
{
    int fd;
    int64_t offset, whence;
    if (repl_mod_nargs("_lseek", args, kwargs, 3, 3) < 0 || fd_arg(args, &fd) < 0 ||
        repl_mod_int(nn_tuple_get(args, 1), &offset) < 0 || repl_mod_int(nn_tuple_get(args, 2), &whence) < 0)
        return NULL;
    off_t at = whence >= 0 && whence <= 2 ? lseek(fd, (off_t)offset, (int)whence) : (errno = EINVAL, (off_t)-1);
    if (at < 0) {
        return repl_mod_os_error(errno, NULL);
    }
    return nn_int_new((int64_t)at);
}

/* _isatty(fd): whether fd is a terminal */
static nn_object *io_isatty(void *ud, nn_object *args, nn_object *kwargs)
{
    int fd;
    if (repl_mod_nargs("_isatty", args, kwargs, 1, 1) < 0 || fd_arg(args, &fd) < 0) return NULL;
    return nn_bool_new(isatty(fd) == 1);
}

/* _fstat(fd): None when fd is open, else CPython's OSError: [Errno 9] Bad file descriptor */
static nn_object *io_fstat(void *ud, nn_object *args, nn_object *kwargs)
{
    int fd;
    if (repl_mod_nargs("_fstat", args, kwargs, 1, 1) < 0 || fd_arg(args, &fd) < 0) return NULL;
    if (fcntl(fd, F_GETFD) < 0) {
        return repl_mod_os_error(errno, NULL);
    }
    return nn_retain(nn_none());
}

static const repl_mod_fn helpers[] = {
    {"_isatty", io_isatty, NULL},
    {"_lseek", io_lseek, NULL},
    {"_fstat", io_fstat, NULL},
    {"_open", io_open, NULL},
    {"_read", io_read, NULL},
    {"_readb", io_readb, NULL},
    {"_readsome", io_readsome, NULL},
    {"_utf8_prefix", io_utf8_prefix, NULL},
    {"_write", io_write, NULL},
    {"_close", io_close, NULL},
};

/* source: begin */
static const char source[] =
    "# io: open() and its text files, written in the language over C helpers on\n"
    "# file descriptors (_open, _read, _write, _close). Writes go to the file at\n"
    "# once (no buffer to lose when a script forgets close()); read() takes the rest\n"
    "# of the file, read(n) and readline() only what they need. Binary modes give BufferedFile (bytes); BytesIO and\n"
    "# StringIO are in-memory files.\n"
    "\n"
    "\n"
    "from _io_buffered import BufferedReader, BufferedWriter\n"
    "\n"
    "\n"
    "class UnsupportedOperation(OSError):\n"
    "    pass\n"
    "\n"
    "\n"
    "class _IOBase:\n"
    "    # what files and in-memory streams share: reading by size and by line, iteration, with\n"
    "    def _slice(self, end, size):\n"
    "        if size is not None and size >= 0:\n"
    "            end = min(end, self._pos + size)\n"
    "        data = self._buf[self._pos:end]\n"
    "        self._pos = max(self._pos, end)\n"
    "        return data\n"
    "\n"
    "    def read(self, size=-1):\n"
    "        self._check(True)\n"
    "        self._fill()\n"
    "        return self._slice(len(self._buf), size)\n"
    "\n"
    "    def _line_end(self):\n"
    "        # the index just past the next line's end in the buffer, or -1; _newline as open()'s\n"
    "        # newline: None (read already made \\n), '' (\\n, \\r or \\r\\n, kept), '\\n', '\\r', '\\r\\n'\n"
    "        buf, pos, nl = self._buf, self._pos, self._newline\n"
    "        if nl == '':\n"
    "            i, j = buf.find('\\n', pos), buf.find('\\r', pos)\n"
    "            if j < 0 or 0 <= i < j:\n"
    "                return -1 if i < 0 else i + 1\n"
    "            return j + 2 if buf[j + 1:j + 2] == '\\n' else j + 1\n"
    "        nl = nl or '\\n'\n"
    "        i = buf.find(nl, pos)\n"
    "        return -1 if i < 0 else i + len(nl)\n"
    "\n"
    "    def readline(self, size=-1):\n"
    "        self._check(True)\n"
    "        self._fill()\n"
    "        end = self._line_end()\n"
    "        return self._slice(len(self._buf) if end < 0 else end, size)\n"
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
    "    def writelines(self, lines):\n"
    "        for line in lines:\n"
    "            self.write(line)\n"
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
    "class TextIOWrapper(_IOBase):\n"
    "    _binary = False\n"
    "    _unreadable = 'not readable'\n"
    "    _unwritable = 'not writable'\n"
    "\n"
    "    def __new__(cls, *args, **kwargs):\n"
    "        # TextIOWrapper(buffer, encoding=..., newline=...) over a binary stream: _io_text's\n"
    "        if cls is TextIOWrapper and not (args and isinstance(args[0], int)):\n"
    "            import _io_text\n"
    "            cls = _io_text.TextIOWrapper\n"
    "        return object.__new__(cls)\n"
    "\n"
    "    def __init__(self, fd, name, mode, closefd=True, newline=None):\n"
    "        self._fd = fd\n"
    "        if not self._binary:\n"
    "            self._newline = newline\n"
    "        self._seen = 0  # the kinds of line end read (newlines)\n"
    "        self._cr = False  # a \\r read last, held back: the \\n of a \\r\\n may come next\n"
    "        self._closefd = closefd\n"
    "        self.name = name\n"
    "        self.mode = mode\n"
    "        self.encoding = 'UTF-8'\n"
    "        self.closed = False\n"
    "        self._buf = None\n"
    "        self._pos = 0\n"
    "        self._eof = False\n"
    "        self._raw = b''  # text: the bytes of a character not all read yet\n"
    "        self._readable = 'r' in mode or '+' in mode\n"
    "        self._writable = 'r' not in mode or '+' in mode\n"
    "\n"
    "    def __repr__(self):\n"
    "        return '<_io.TextIOWrapper name=' + repr(self.name) + ' mode=' + repr(self.mode) + ' encoding=' + repr(self.encoding) + '>'\n"
    "\n"
    "    @property\n"
    "    def newlines(self):\n"
    "        return _NEWLINES[self._seen]\n"
    "\n"
    "    def _decoded(self, text, final):\n"
    "        # universal newlines (newline None or ''): the kinds of line end seen, and for None\n"
    "        # \\r\\n and \\r made \\n; a last \\r waits for the next read unless final\n"
    "        if self._newline is not None and self._newline != '':\n"
    "            return text\n"
    "        if self._cr:\n"
    "            text, self._cr = '\\r' + text, False\n"
    "        if not final and text.endswith('\\r'):\n"
    "            text, self._cr = text[:-1], True\n"
    "        if '\\r' in text or '\\n' in text:\n"
    "            self._seen |= _seen_newlines(text)\n"
    "            if self._newline is None:\n"
    "                text = text.replace('\\r\\n', '\\n').replace('\\r', '\\n')\n"
    "        return text\n"
    "\n"
    "    def _check(self, reading):\n"
    "        if self.closed:\n"
    "            raise ValueError('I/O operation on closed file.')\n"
    "        if reading and not self._readable:\n"
    "            raise UnsupportedOperation(self._unreadable)\n"
    "        if not reading and not self._writable:\n"
    "            raise UnsupportedOperation(self._unwritable)\n"
    "\n"
    "    def _fill(self):\n"
    "        # the rest of the file\n"
    "        if self._buf is None:\n"
    "            self._buf = _readb(self._fd) if self._binary else self._decoded(_read(self._fd), True)\n"
    "            self._pos = 0\n"
    "            self._eof = True\n"
    "        elif not self._eof:\n"
    "            rest = _readb(self._fd)\n"
    "            self._eof = True\n"
    "            self._buf = self._buf[self._pos:] + (rest if self._binary else self._decoded((self._raw + rest).decode('utf-8'), True))\n"
    "            self._raw = b''\n"
    "            self._pos = 0\n"
    "\n"
    "    def _more(self, want):\n"
    "        # one read of the file (at most max(want, 8192) bytes) onto what is left of the buffer\n"
    "        chunk = _readsome(self._fd, max(want, 8192))\n"
    "        self._eof = not chunk\n"
    "        if self._binary:\n"
    "            self._buf = self._buf[self._pos:] + chunk\n"
    "        else:\n"
    "            text, self._raw = _utf8_prefix(self._raw + chunk, self._eof)\n"
    "            self._buf = self._buf[self._pos:] + self._decoded(text, self._eof)\n"
    "        self._pos = 0\n"
    "\n"
    "    def read(self, size=-1):\n"
    "        # read(n) reads no more of the file than n bytes (characters) need: /dev/urandom, pipes\n"
    "        self._check(True)\n"
    "        if size is None or size < 0:\n"
    "            self._fill()\n"
    "        else:\n"
    "            if self._buf is None:\n"
    "                self._buf = b'' if self._binary else ''\n"
    "            while not self._eof and len(self._buf) - self._pos < size:\n"
    "                self._more(size)\n"
    "        return self._slice(len(self._buf), size)\n"
    "\n"
    "    def readline(self, size=-1):\n"
    "        # reads the file up to the line's end only: pipes, terminals, huge files\n"
    "        self._check(True)\n"
    "        if self._buf is None:\n"
    "            self._buf = b'' if self._binary else ''\n"
    "        self._eof = False  # a pipe or terminal may have more after an end of file\n"
    "        while True:\n"
    "            end = self._line_end()\n"
    "            if end >= 0 or self._eof or (size is not None and 0 <= size <= len(self._buf) - self._pos):\n"
    "                break\n"
    "            self._more(0)\n"
    "        return self._slice(len(self._buf) if end < 0 else end, size)\n"
    "\n"
    "    def fileno(self):\n"
    "        if self.closed:\n"
    "            raise ValueError('I/O operation on closed file')\n"
    "        return self._fd\n"
    "\n"
    "    def tell(self):\n"
    "        # the descriptor's offset less what is read ahead and not yet taken (for text, its UTF-8 bytes)\n"
    "        if self.closed:\n"
    "            raise ValueError('I/O operation on closed file.')\n"
    "        pos = _lseek(self._fd, 0, 1)\n"
    "        if self._buf is not None:\n"
    "            rest = self._buf[self._pos:]\n"
    "            pos -= len(rest) if self._binary else len(rest.encode('utf-8', 'surrogatepass'))\n"
    "        return pos - len(self._raw) - self._cr\n"
    "\n"
    "    def seek(self, offset, whence=0):\n"
    "        if self.closed:\n"
    "            raise ValueError('I/O operation on closed file.')\n"
    "        if whence not in (0, 1, 2):\n"
    "            raise ValueError('invalid whence (' + str(whence) + ', should be 0, 1 or 2)')\n"
    "        if not self._binary and whence and offset:\n"
    "            raise UnsupportedOperation(\"can't do nonzero \" + ('cur' if whence == 1 else 'end') + '-relative seeks')\n"
    "        if whence == 0 and offset < 0:\n"
    "            raise ValueError(('negative seek position ' if self._binary else 'Negative seek position ') + str(offset))\n"
    "        if whence == 1:\n"
    "            offset, whence = self.tell() + offset, 0\n"
    "        pos = _lseek(self._fd, offset, whence)\n"
    "        self._buf = None\n"
    "        self._pos = 0\n"
    "        self._eof = False\n"
    "        self._raw = b''\n"
    "        self._cr = False\n"
    "        return pos\n"
    "\n"
    "    def seekable(self):\n"
    "        if self.closed:\n"
    "            raise ValueError('I/O operation on closed file.')\n"
    "        try:\n"
    "            _lseek(self._fd, 0, 1)\n"
    "        except OSError:\n"
    "            return False\n"
    "        return True\n"
    "\n"
    "    def isatty(self):\n"
    "        if self.closed:\n"
    "            raise ValueError('I/O operation on closed file')\n"
    "        return _isatty(self._fd)\n"
    "\n"
    "    def write(self, s):\n"
    "        self._check(False)\n"
    "        if not isinstance(s, str):\n"
    "            raise TypeError('write() argument must be str, not ' + type(s).__name__)\n"
    "        n = len(s)\n"
    "        if self._newline == '\\r' or self._newline == '\\r\\n':\n"
    "            s = s.replace('\\n', self._newline)\n"
    "        _write(self._fd, s)\n"
    "        return n\n"
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
    "            if self._closefd:\n"
    "                _close(self._fd)\n"
    "\n"
    "\n"
    "class BufferedFile(TextIOWrapper):\n"
    "    # a file opened in a binary mode: bytes in and out\n"
    "    _newline = b'\\n'\n"
    "    _binary = True\n"
    "    _unreadable = 'read'\n"
    "    _unwritable = 'write'\n"
    "\n"
    "    def __repr__(self):\n"
    "        kind = 'BufferedReader' if self.mode == 'rb' else 'BufferedRandom' if '+' in self.mode else 'BufferedWriter'\n"
    "        return '<_io.' + kind + ' name=' + repr(self.name) + '>'\n"
    "\n"
    "    def write(self, data):\n"
    "        self._check(False)\n"
    "        if isinstance(data, str):\n"
    "            raise TypeError(\"a bytes-like object is required, not 'str'\")\n"
    "        _write(self._fd, data)\n"
    "        return len(data)\n"
    "\n"
    "\n"
    "class _MemoryIO(_IOBase):\n"
    "    # BytesIO and StringIO: a buffer with a position; _empty is b'' or ''\n"
    "    def __init__(self, initial_value=None):\n"
    "        if isinstance(self._empty, str) and initial_value is not None and not isinstance(initial_value, str):\n"
    "            raise TypeError('initial_value must be str or None, not ' + type(initial_value).__name__)\n"
    "        self._buf = self._empty if initial_value is None else self._take(initial_value)\n"
    "        self._pos = 0\n"
    "        self.closed = False\n"
    "\n"
    "    def _check(self, reading=True):\n"
    "        if self.closed:\n"
    "            raise ValueError('I/O operation on closed file.')\n"
    "\n"
    "    def _fill(self):\n"
    "        pass\n"
    "\n"
    "    def getvalue(self):\n"
    "        self._check()\n"
    "        return self._buf[:]\n"
    "\n"
    "    def write(self, data):\n"
    "        self._check()\n"
    "        n = len(data) if isinstance(data, str) else None  # StringIO: the characters given, before newline translation\n"
    "        data = self._take(data)\n"
    "        pad = self._pos - len(self._buf)\n"
    "        if pad > 0:\n"
    "            self._buf = self._buf + self._pad * pad\n"
    "        self._buf = self._buf[:self._pos] + data + self._buf[self._pos + len(data):]\n"
    "        self._pos += len(data)\n"
    "        return len(data) if n is None else n\n"
    "\n"
    "    def seek(self, pos, whence=0):\n"
    "        self._check()\n"
    "        if whence == 1:\n"
    "            pos = self._pos + pos\n"
    "        elif whence == 2:\n"
    "            pos = len(self._buf) + pos\n"
    "        if pos < 0:\n"
    "            raise ValueError('negative seek value ' + str(pos))\n"
    "        self._pos = pos\n"
    "        return pos\n"
    "\n"
    "    def tell(self):\n"
    "        self._check()\n"
    "        return self._pos\n"
    "\n"
    "    def truncate(self, size=None):\n"
    "        self._check()\n"
    "        size = self._pos if size is None else size\n"
    "        self._buf = self._buf[:size]\n"
    "        return size\n"
    "\n"
    "    def flush(self):\n"
    "        self._check()\n"
    "\n"
    "    def readable(self):\n"
    "        return True\n"
    "\n"
    "    def writable(self):\n"
    "        return True\n"
    "\n"
    "    def seekable(self):\n"
    "        return True\n"
    "\n"
    "    def close(self):\n"
    "        self.closed = True\n"
    "\n"
    "\n"
    "class BytesIO(_MemoryIO):\n"
    "    _empty = b''\n"
    "    _newline = b'\\n'\n"
    "    _pad = b'\\x00'\n"
    "\n"
    "    def _take(self, data):\n"
    "        if isinstance(data, str):\n"
    "            raise TypeError(\"a bytes-like object is required, not 'str'\")\n"
    "        return bytes(data)\n"
    "\n"
    "    def getbuffer(self):\n"
    "        return bytearray(self._buf)\n"
    "\n"
    "\n"
    "class StringIO(_MemoryIO):\n"
    "    _empty = ''\n"
    "    _pad = '\\x00'\n"
    "\n"
    "    def __init__(self, initial_value='', newline='\\n'):\n"
    "        if newline is not None and not isinstance(newline, str):\n"
    "            raise TypeError('newline must be str or None, not ' + type(newline).__name__)\n"
    "        if newline not in _NEWLINE_VALUES:\n"
    "            raise ValueError('illegal newline value: ' + repr(newline))\n"
    "        self._newline = newline\n"
    "        self._seen = 0\n"
    "        _MemoryIO.__init__(self, initial_value)\n"
    "\n"
    "    @property\n"
    "    def newlines(self):\n"
    "        return _NEWLINES[self._seen]\n"
    "\n"
    "    def _take(self, data):\n"
    "        # what is written, newline translated as CPython's StringIO: None and '' note the\n"
    "        # kinds of line end (None makes them \\n), '\\r' and '\\r\\n' write \\n as that\n"
    "        if not isinstance(data, str):\n"
    "            raise TypeError('string argument expected, got ' + repr(type(data).__name__))\n"
    "        nl = self._newline\n"
    "        if nl is None or nl == '':\n"
    "            if '\\r' in data or '\\n' in data:\n"
    "                self._seen |= _seen_newlines(data)\n"
    "                if nl is None:\n"
    "                    data = data.replace('\\r\\n', '\\n').replace('\\r', '\\n')\n"
    "        elif nl != '\\n':\n"
    "            data = data.replace('\\n', nl)\n"
    "        return data\n"
    "\n"
    "\n"
    "_NEWLINE_VALUES = (None, '', '\\n', '\\r', '\\r\\n')\n"
    "# newlines for the kinds of line end seen: 1 \\n, 2 \\r, 4 \\r\\n (CPython's order)\n"
    "_NEWLINES = (None, '\\n', '\\r', ('\\r', '\\n'), '\\r\\n', ('\\n', '\\r\\n'), ('\\r', '\\r\\n'), ('\\r', '\\n', '\\r\\n'))\n"
    "\n"
    "\n"
    "def _seen_newlines(text):\n"
    "    crlf = text.count('\\r\\n')\n"
    "    return (1 if text.count('\\n') > crlf else 0) | (2 if text.count('\\r') > crlf else 0) | (4 if crlf else 0)\n"
    "\n"
    "\n"
    "def open(file, mode='r', buffering=-1, encoding=None, errors=None, newline=None, closefd=True, opener=None):\n"
    "    if hasattr(file, '__fspath__'):\n"
    "        file = file.__fspath__()  # a pathlib.Path, or any os.PathLike\n"
    "    if isinstance(file, bytes):\n"
    "        file = file.decode('utf-8', 'surrogateescape')\n"
    "    if not isinstance(file, (str, int)) or isinstance(file, bool):\n"
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
    "    if newline is not None and not isinstance(newline, str):\n"
    "        raise TypeError(\"open() argument 'newline' must be str or None, not \" + type(newline).__name__)\n"
    "    if 'b' in mode:\n"
    "        if 't' in mode:\n"
    "            raise ValueError(\"can't have text and binary mode at once\")\n"
    "        if newline is not None:\n"
    "            raise ValueError(\"binary mode doesn't take a newline argument\")\n"
    "        return BufferedFile(_fd_of(file, mode.replace('b', ''), closefd), file, mode, closefd)\n"
    "    fd = _fd_of(file, mode, closefd)\n"
    "    if newline not in _NEWLINE_VALUES:\n"
    "        if closefd:\n"
    "            _close(fd)\n"
    "        raise ValueError('illegal newline value: ' + newline)\n"
    "    return TextIOWrapper(fd, file, mode, closefd, newline)\n"
    "\n"
    "\n"
    "def _fd_of(file, mode, closefd):\n"
    "    # open(path) opens the file; open(fd) reads and writes that descriptor (os.pipe(), os.fdopen)\n"
    "    if isinstance(file, str):\n"
    "        if not closefd:\n"
    "            raise ValueError('Cannot use closefd=False with file name')\n"
    "        return _open(file, mode)\n"
    "    if file < 0:\n"
    "        raise ValueError('negative file descriptor')\n"
    "    _fstat(file)\n"
    "    return file\n"
    "\n"
    "\n"
    "def _std_stream(fd, name, mode):\n"
    "    # sys.stdin: the descriptor, never closed by close(); its .buffer reads bytes\n"
    "    f = TextIOWrapper(fd, name, mode, False)\n"
    "    f.encoding = 'utf-8'\n"
    "    f.buffer = BufferedFile(fd, name, mode + 'b', False)\n"
    "    return f\n";
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
