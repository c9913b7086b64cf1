/*
 * bind_sys.c — the built-in module sys: sys.argv (the script and its arguments,
 * as main.c hands them over), sys.exit, sys.maxsize, version, version_info (a plain tuple),
 * hexversion, platform, byteorder, maxunicode, path, executable and
 * get/setrecursionlimit. sys.stdout and sys.stderr are repl/lib/_sys_stdio.py's text
 * streams, over the _stdio helpers here. A script may replace sys.stdout
 * (`sys.stdout = io.StringIO()`, contextlib.redirect_stdout): print() then writes to
 * the new object, and sys.__stdout__ keeps the original. Not here: the rest of Python's sys.
 */
#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bind_int.h"
#include "bytes_int.h"
#include "eval_int.h"
#include "repl.h"
#include "stdlib_int.h"

/* Set by repl_bind_set_argv (borrowed: main's argv); none means the notebook's ['']. */
static int script_argc;
static const char *const *script_argv;

void repl_bind_set_argv(int argc, const char *const *argv)
{
    script_argc = argc;
    script_argv = argv;
}

/* ---------------------------------------------------- _stdio: under sys.stdout / sys.stderr */

/* Line buffering asked by sys.stdout/sys.stderr.reconfigure(line_buffering=True), by descriptor. */
static bool line_buffered[3];

static FILE *stream_of(nn_object *fd_arg)
{
    int64_t fd = nn_is_int(fd_arg) ? nn_int_value(fd_arg) : 0;
    return fd == 1 ? stdout : fd == 2 ? stderr : NULL;
}

/* _stdio.write(fd, data): a str (its UTF-8) or bytes-like data to descriptor 1 (where print()
   writes: the notebook's cell capture included) or 2, in order with print(); the number of
   characters (a str) or bytes written. */
static nn_object *io_write(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("write", args, kwargs, 2, 2) < 0) return NULL;
    FILE *f = stream_of(nn_tuple_get(args, 0));
    nn_object *data = nn_tuple_get(args, 1);
    const unsigned char *p;
    size_t n, count;
    if (nn_is_str(data)) {
        p = (const unsigned char *)nn_str_cstr(data);
        n = nn_str_len(data);
        count = 0;
        for (size_t i = 0; i < n; i++) count += (p[i] & 0xC0) != 0x80; /* UTF-8 lead bytes */
    } else if (repl_bytes_buffer(data, &p, &n) < 0) {
        return NULL;
    } else {
        count = n;
    }
    if (!f) {
        repl_raise_exc(EXC_ValueError, "%s", "bad file descriptor");
        return NULL;
    }
    if (f == stdout) repl_interp_write((const char *)p, n);
    else fwrite(p, 1, n, f);
    if (line_buffered[f == stdout ? 1 : 2] && memchr(p, '\n', n)) fflush(f);
    return nn_int_new((int64_t)count);
}

static nn_object *io_flush(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("flush", args, kwargs, 1, 1) < 0) return NULL;
    FILE *f = stream_of(nn_tuple_get(args, 0));
    if (f) fflush(f);
    return nn_retain(nn_none());
}

static nn_object *io_isatty(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("isatty", args, kwargs, 1, 1) < 0) return NULL;
    FILE *f = stream_of(nn_tuple_get(args, 0));
    return nn_bool_new(f && isatty(fileno(f)));
}

static nn_object *io_line_buffering(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("line_buffering", args, kwargs, 2, 2) < 0) return NULL;
    FILE *f = stream_of(nn_tuple_get(args, 0));
    if (f) line_buffered[f == stdout ? 1 : 2] = repl_truth(nn_tuple_get(args, 1)) > 0;
    return nn_retain(nn_none());
}

/* The error handler CPython 3.11 gives the stream: backslashreplace for stderr;
   surrogateescape for stdout under the C, POSIX or C.UTF-8 locale (or a locale that is
   not installed, which falls back to C), else strict. */
static nn_object *io_errors(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("errors", args, kwargs, 1, 1) < 0) return NULL;
    if (stream_of(nn_tuple_get(args, 0)) == stderr) return nn_str_new("backslashreplace");
    const char *name = NULL;
    static const char *const vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (size_t i = 0; i < 3 && !(name && *name); i++) name = getenv(vars[i]);
    bool c_like = !name || !*name || !strcmp(name, "C") || !strcmp(name, "POSIX") || !strncmp(name, "C.", 2);
    if (!c_like) {
        locale_t l = newlocale(LC_CTYPE_MASK, name, (locale_t)0);
        c_like = !l;
        if (l) freelocale(l);
    }
    return nn_str_new(c_like ? "surrogateescape" : "strict");
}

static nn_object *io_unbuffered(void *ud, nn_object *args, nn_object *kwargs);

static const repl_mod_fn stdio_functions[] = {
    {"write", io_write, "write(fd, data)\nWrites a str (UTF-8) or bytes to descriptor 1 or 2 in order with print(); "
                        "the characters or bytes written."},
    {"flush", io_flush, "flush(fd)\nFlushes the stream of descriptor 1 or 2."},
    {"isatty", io_isatty, "isatty(fd)\nWhether descriptor 1 or 2 is a terminal."},
    {"line_buffering", io_line_buffering, "line_buffering(fd, flag)\nWhether writes of a line end flush the stream."},
    {"errors", io_errors, "errors(fd)\nThe stream's error handler, as CPython chooses it."},
    {"unbuffered", io_unbuffered, "unbuffered()\nWhether PYTHONUNBUFFERED asks for unbuffered streams (python -u)."},
};

nn_object *repl_mod_stdio(void)
{
    nn_object *m = repl_module_new("_stdio");
    if (m && repl_mod_add_fns(m, stdio_functions, sizeof stdio_functions / sizeof *stdio_functions) < 0)
        NN_SET(m, NULL);
    return m;
}

bool repl_sys_stdout_line_buffered(void) { return line_buffered[1]; }

bool repl_python_unbuffered(void)
{
    const char *v = getenv("PYTHONUNBUFFERED");
    if (!v || !*v) return false;
    char *end;
    long n = strtol(v, &end, 10);
    return *end || n != 0; /* CPython: a number below 0, or not a number, counts as 1 */
}

static nn_object *io_unbuffered(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("unbuffered", args, kwargs, 0, 0) < 0) return NULL;
    return nn_bool_new(repl_python_unbuffered());
}

/* sys.exit(status=None): raises SystemExit(status); the program (main.c) exits
   with its status, the notebook reports it and goes on, as IPython does. */
static nn_object *f_exit(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1] = {0};
    if (repl_parse_args("exit", "status=", args, kwargs, a)) return NULL;
    repl_raise_system_exit(a[0]);
    return NULL;
}

/* sys.getrecursionlimit(): the evaluator's fixed depth limit (1000, CPython's default). */
static nn_object *f_getrecursionlimit(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1] = {0};
    if (repl_parse_args("getrecursionlimit", "", args, kwargs, a)) return NULL;
    return nn_int_new(1000);
}

/* sys.setrecursionlimit(n): accepted for scripts that raise it; the limit stays 1000. */
static nn_object *f_setrecursionlimit(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1] = {0};
    if (repl_parse_args("setrecursionlimit", "limit", args, kwargs, a)) return NULL;
    if (!nn_is_int(a[0])) {
        nn_error_set(NN_ERR_TYPE, "'%s' object cannot be interpreted as an integer", repl_type_name(a[0]));
        return NULL;
    }
    if (nn_int_value(a[0]) < 1) {
        nn_error_set(NN_ERR_VALUE, "recursion limit must be greater or equal than 1");
        return NULL;
    }
    return nn_retain(nn_none());
}

static nn_object *f_exc_info(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_parse_args("exc_info", "", args, kwargs, NULL)) return NULL;
    return repl_exc_info();
}

static const repl_function_def sys_functions[] = {
    {"exc_info", f_exc_info,
     "exc_info()\n"
     "Return current exception information: (type, value, traceback)."},
    {"getrecursionlimit", f_getrecursionlimit,
     "getrecursionlimit()\n"
     "Return the current value of the recursion limit (the evaluator's: 1000)."},
    {"setrecursionlimit", f_setrecursionlimit,
     "setrecursionlimit(limit, /)\n"
     "Accepted for compatibility; nnscope's recursion limit stays 1000."},
    {"exit", f_exit,
     "exit(status=None, /)\n"
     "Exit the interpreter by raising SystemExit(status): None is status 0, an integer is the exit status, "
     "anything else is printed to stderr and gives status 1."},
};

static int set_owned(nn_object *ns, const char *name, nn_object *v)
{
    if (!v) return -1;
    int rc = repl_namespace_set(ns, name, v);
    NN_RELEASE(v);
    return rc;
}

/* sys.argv as python builds it: the script path then its arguments; [''] without a script. */
static nn_object *argv_list(void)
{
    nn_object *l = nn_list_new(script_argc ? (size_t)script_argc : 1);
    if (!l) return NULL;
    for (int i = 0; i < (script_argc ? script_argc : 1); i++) {
        nn_object *s = nn_str_new(script_argc ? script_argv[i] : "");
        int rc = s ? nn_list_append(l, s) : -1;
        NN_RELEASE(s);
        if (rc) {
            NN_RELEASE(l);
            return NULL;
        }
    }
    return l;
}

/* sys.version_info as a tuple (3, 11, 0, 'final', 0): comparisons and indexing
   work; .major does not (CPython's is a named struct sequence). */
static nn_object *version_info(void)
{
    nn_object *t = nn_tuple_new(5);
    if (!t) return NULL;
    int64_t v[] = {3, 11, 0};
    for (size_t i = 0; i < 3; i++) nn_tuple_set(t, i, nn_int_new(v[i]));
    nn_tuple_set(t, 3, nn_str_new("final"));
    nn_tuple_set(t, 4, nn_int_new(0));
    for (size_t i = 0; i < 5; i++)
        if (!nn_tuple_get(t, i)) NN_SET(t, NULL);
    return t;
}

static bool little_endian(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

/* sys.path: the script's directory ('' at the prompt), as python's first entry. */
static nn_object *path_list(void)
{
    /* a script's directory with symbolic links resolved, as CPython 3.11 makes
       sys.path[0]; '' for -c, standard input and the notebook */
    char dir[PATH_MAX] = "";
    const char *script = script_argc ? script_argv[0] : "";
    if (script[0] && strcmp(script, "-c") != 0 && strcmp(script, "-") != 0 && !realpath(script, dir)) {
        const char *slash = strrchr(script, '/'); /* the file is gone: its directory as given */
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - script) : 0, script);
    } else if (dir[0]) {
        char *slash = strrchr(dir, '/');
        *(slash == dir ? slash + 1 : slash) = '\0';
    }
    nn_object *l = nn_list_new(1), *d = nn_str_new(dir);
    if (!l || !d || nn_list_append(l, d) < 0) NN_SET(l, NULL);
    NN_RELEASE(d);
    return l;
}

/* sys.executable: the running nnscope program. */
static nn_object *executable(void)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return nn_str_from(buf, n > 0 ? (size_t)n : 0);
}

nn_object *repl_sys_namespace(void)
{
    nn_object *ns = repl_namespace_new("sys");
    if (!ns) return NULL;
    if (repl_namespace_add_fns(ns, sys_functions, sizeof sys_functions / sizeof sys_functions[0]) ||
        set_owned(ns, "argv", argv_list()) || set_owned(ns, "maxsize", nn_int_new(INT64_MAX)) ||
        set_owned(ns, "version", nn_str_new("3.11.0 (nnscope: the Python 3.11 subset of nnscope)")) ||
        set_owned(ns, "version_info", version_info()) || set_owned(ns, "hexversion", nn_int_new(0x030b00f0)) ||
        set_owned(ns, "platform", nn_str_new("linux")) || set_owned(ns, "byteorder", nn_str_new(little_endian() ? "little" : "big")) ||
        set_owned(ns, "maxunicode", nn_int_new(0x10ffff)) || set_owned(ns, "path", path_list()) ||
        set_owned(ns, "executable", executable()))
        NN_SET(ns, NULL);
    return ns; /* stdout, stderr, __stdout__, __stderr__: repl/lib/_sys_stdio.py's, on first use */
}

nn_object *repl_sys_stdout_replacement(void)
{
    /* a script's sys.stdout = f is in sys's own names; until then the stream is _sys_stdio's,
       not made yet (print() does not load it) */
    nn_object *sys = repl_import_by_name("sys");
    nn_object *cur = sys && repl_is_namespace(sys) ? nn_dict_get_str(repl_namespace_attrs(sys), "stdout") : NULL;
    if (cur) NN_RETAIN(cur);
    NN_RELEASE(sys);
    if (!cur) {
        nn_error_clear();
        return NULL;
    }
    nn_object *m = repl_stdlib_module("_sys_stdio"), *orig = m ? repl_get_attr(m, "stdout") : NULL;
    NN_RELEASE(m);
    if (!orig) nn_error_clear();
    if (!orig || cur == orig) { /* sys.stdout = sys.__stdout__ again */
        NN_RELEASE(cur);
        NN_RELEASE(orig);
        return NULL;
    }
    NN_RELEASE(orig);
    return cur;
}

void repl_sys_flush_std_files(void)
{
    nn_object *sys = repl_import_by_name("sys");
    nn_object *attrs = sys && repl_is_namespace(sys) ? repl_namespace_attrs(sys) : NULL;
    nn_error_clear();
    static const char *const names[] = {"stdout", "stderr"};
    for (int i = 0; attrs && i < 2; i++) {
        nn_object *f = nn_dict_get_str(attrs, names[i]);
        nn_object *r = f ? repl_call_method(f, "flush", NULL, 0) : NULL;
        if (r) NN_RELEASE(r);
        else if (f) NN_RELEASE(repl_take_exception());
        nn_error_clear();
    }
    NN_RELEASE(sys);
    fflush(stdout);
}
