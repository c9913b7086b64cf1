/*
 * mod_os_fd.c — os's functions on file descriptors, as CPython 3.11's:
 * os.pipe() (non-inheritable ends), os.read(fd, n), os.write(fd, data),
 * os.close(fd), os.isatty(fd), os.dup(fd), os.dup2(fd, fd2), os.mkfifo(path[, mode]) and
 * os.fdopen(fd, ...) (io.open of the descriptor). OSError as CPython's
 * ("[Errno 9] Bad file descriptor", no file name).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes_int.h"
#include "stdlib_int.h"

/* argument i as a C int (a file descriptor or a count) */
static int int_arg(nn_object *args, size_t i, int64_t *v)
{
    nn_object *a = nn_tuple_get(args, i);
    if (nn_is_float(a)) {
        repl_raise_exc(EXC_TypeError, "'float' object cannot be interpreted as an integer");
        return -1;
    }
    return repl_mod_int(a, v);
}

static nn_object *os_pipe(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("pipe", args, kwargs, 0, 0) < 0) return NULL;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) return repl_mod_os_error(errno, NULL);
    nn_object *r = nn_int_new(fds[0]), *w = nn_int_new(fds[1]);
    nn_object *t = r && w ? nn_tuple_pack(2, r, w) : NULL;
    NN_RELEASE(r);
    NN_RELEASE(w);
    return t;
}

static nn_object *os_read(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t fd, n;
    if (repl_mod_nargs("read", args, kwargs, 2, 2) < 0 || int_arg(args, 0, &fd) < 0 || int_arg(args, 1, &n) < 0)
        return NULL;
    if (n < 0) {
        repl_raise_exc(EXC_ValueError, "negative count");
        return NULL;
    }
    if (n > (1 << 30)) n = 1 << 30;
    char *buf = nn_malloc((size_t)n + 1);
    if (!buf) return NULL;
    ssize_t got;
    do got = read((int)fd, buf, (size_t)n);
    while (got < 0 && errno == EINTR);
    nn_object *r = got < 0 ? repl_mod_os_error(errno, NULL) : repl_bytes_new(buf, (size_t)got, false);
    nn_free(buf);
    return r;
}

static nn_object *os_write(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t fd;
    if (repl_mod_nargs("write", args, kwargs, 2, 2) < 0 || int_arg(args, 0, &fd) < 0) return NULL;
    nn_object *data = nn_tuple_get(args, 1);
    if (!repl_is_bytes(data)) {
        repl_raise_exc(EXC_TypeError, "a bytes-like object is required, not '%s'", repl_value_type_name(data));
        return NULL;
    }
    ssize_t n;
    do n = write((int)fd, repl_bytes_data(data), repl_bytes_len(data));
    while (n < 0 && errno == EINTR);
    return n < 0 ? repl_mod_os_error(errno, NULL) : nn_int_new(n);
}

static nn_object *os_close(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t fd;
    if (repl_mod_nargs("close", args, kwargs, 1, 1) < 0 || int_arg(args, 0, &fd) < 0) return NULL;
    if (close((int)fd) < 0 && errno != EINTR) return repl_mod_os_error(errno, NULL);
    return nn_retain(nn_none());
}

static nn_object *os_isatty(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t fd;
    if (repl_mod_nargs("isatty", args, kwargs, 1, 1) < 0 || int_arg(args, 0, &fd) < 0) return NULL;
    return nn_bool_new(isatty((int)fd) == 1);
}

static nn_object *os_dup(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t fd;
    if (repl_mod_nargs("dup", args, kwargs, 1, 1) < 0 || int_arg(args, 0, &fd) < 0) return NULL;
    int d = fcntl((int)fd, F_DUPFD_CLOEXEC, 0);
    return d < 0 ? repl_mod_os_error(errno, NULL) : nn_int_new(d);
}

static nn_object *os_dup2(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t fd, fd2;
    if (repl_mod_nargs("dup2", args, kwargs, 2, 3) < 0 || int_arg(args, 0, &fd) < 0 || int_arg(args, 1, &fd2) < 0)
        return NULL;
    bool inheritable = nn_tuple_len(args) < 3 || nn_is_true(nn_tuple_get(args, 2));
    int d = dup3((int)fd, (int)fd2, inheritable ? 0 : O_CLOEXEC);
    if (d < 0 && errno == EINVAL && fd == fd2) d = (int)fd2; /* dup2(fd, fd) */
    return d < 0 ? repl_mod_os_error(errno, NULL) : nn_int_new(d);
}

static nn_object *os_mkfifo(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t mode = 0666;
    if (repl_mod_nargs("mkfifo", args, kwargs, 1, 2) < 0 || (nn_tuple_len(args) == 2 && int_arg(args, 1, &mode) < 0))
        return NULL;
    nn_object *path = nn_tuple_get(args, 0);
    if (!nn_is_str(path)) {
        repl_raise_exc(EXC_TypeError, "mkfifo: path should be string, bytes or os.PathLike, not %s",
                       repl_value_type_name(path));
        return NULL;
    }
    if (mkfifo(nn_str_cstr(path), (mode_t)mode) < 0) return repl_mod_os_error(errno, nn_str_cstr(path));
    return nn_retain(nn_none());
}

/* os.fdopen(fd, *args, **kwargs): open(fd, *args, **kwargs) */
static nn_object *os_fdopen(void *ud, nn_object *args, nn_object *kwargs)
{
    if (!nn_tuple_len(args)) {
        repl_raise_exc(EXC_TypeError, "fdopen() missing required argument 'fd' (pos 1)");
        return NULL;
    }
    if (!nn_is_int(nn_tuple_get(args, 0)) || nn_is_bool(nn_tuple_get(args, 0))) {
        repl_raise_exc(EXC_TypeError, "invalid fd type (%s, expected integer)", repl_value_type_name(nn_tuple_get(args, 0)));
        return NULL;
    }
    return repl_bi_open(ud, args, kwargs);
}

static const repl_mod_fn fd_functions[] = {
    {"pipe", os_pipe, "pipe()\nCreate a pipe: a pair of file descriptors (r, w) both usable for reading and writing."},
    {"read", os_read, "read(fd, length)\nRead from a file descriptor."},
    {"write", os_write, "write(fd, data)\nWrite a bytes object to a file descriptor."},
    {"close", os_close, "close(fd)\nClose a file descriptor."},
    {"isatty", os_isatty, "isatty(fd)\nReturn True if the fd is connected to a terminal."},
    {"dup", os_dup, "dup(fd)\nReturn a duplicate of a file descriptor."},
    {"dup2", os_dup2, "dup2(fd, fd2, inheritable=True)\nDuplicate file descriptor."},
    {"mkfifo", os_mkfifo, "mkfifo(path, mode=0o666)\nCreate a \"fifo\" (a POSIX named pipe)."},
    {"fdopen", os_fdopen, "fdopen(fd, mode='r', buffering=-1, ...)\nReturn an open file object connected to a file descriptor."},
};

int repl_mod_os_fd_add(nn_object *os)
{
    return repl_mod_add_fns(os, fd_functions, sizeof fd_functions / sizeof *fd_functions);
}
