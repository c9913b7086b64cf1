/*
 * bind_sys.c — the built-in module sys: sys.argv (the script and its arguments,
 * as main.c hands them over), sys.exit, sys.maxsize, and sys.stdout / sys.stderr
 * with write() and flush(). sys.stdout writes where print() writes (the
 * notebook's cell capture included), version, version_info (a plain tuple),
 * hexversion, platform, byteorder, maxunicode, path, executable and
 * get/setrecursionlimit. A script may replace sys.stdout (`sys.stdout = io.StringIO()`,
 * contextlib.redirect_stdout): print() then writes to the new object, and
 * sys.__stdout__ keeps the original. Not here: the rest of Python's sys.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bind_int.h"
#include "eval_int.h"
#include "repl.h"

/* Set by repl_bind_set_argv (borrowed: main's argv); none means the notebook's ['']. */
static int script_argc;
static const char *const *script_argv;

void repl_bind_set_argv(int argc, const char *const *argv)
{
    script_argc = argc;
    script_argv = argv;
}

/* write(s) on sys.stdout or sys.stderr: s must be a str; returns its length in characters. */
static nn_object *stream_write(const char *stream, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1] = {0};
    if (repl_parse_args("write", "s", args, kwargs, a)) return NULL;
    if (!nn_is_str(a[0])) {
        nn_error_set(NN_ERR_TYPE, "write() argument must be str, not %s", repl_type_name(a[0]));
        return NULL;
    }
    const char *s = nn_str_cstr(a[0]);
    size_t n = strlen(s), chars = 0;
    if (!strcmp(stream, "stdout")) repl_interp_write(s, n);
    else fwrite(s, 1, n, stderr);
    for (size_t i = 0; i < n; i++) chars += ((unsigned char)s[i] & 0xC0) != 0x80; /* UTF-8 lead bytes */
    return nn_int_new((int64_t)chars);
}

static nn_object *f_stdout_write(void *ud, nn_object *args, nn_object *kwargs)
{
    return stream_write("stdout", args, kwargs);
}
static nn_object *f_stderr_write(void *ud, nn_object *args, nn_object *kwargs)
{
    return stream_write("stderr", args, kwargs);
}

static nn_object *f_flush(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1] = {0};
    if (repl_parse_args("flush", "", args, kwargs, a)) return NULL;
    fflush(stdout);
    fflush(stderr);
    return nn_retain(nn_none());
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

static const repl_function_def stdout_functions[] = {
    {"write", f_stdout_write,
     "write(s, /)\n"
     "Write string s to the stream (where print() writes) and return the number of characters written."},
    {"flush", f_flush,
     "flush()\n"
     "Flush write buffers."},
};
static const repl_function_def stderr_functions[] = {
    {"write", f_stderr_write,
     "write(s, /)\n"
     "Write string s to standard error and return the number of characters written."},
    {"flush", f_flush,
     "flush()\n"
     "Flush write buffers."},
};

static int set_owned(nn_object *ns, const char *name, nn_object *v)
{
    if (!v) return -1;
    int rc = repl_namespace_set(ns, name, v);
    NN_RELEASE(v);
    return rc;
}

static nn_object *stream_new(const char *name, const repl_function_def *fns)
{
    nn_object *ns = repl_namespace_new(name);
    if (ns && repl_namespace_add_fns(ns, fns, 2)) NN_SET(ns, NULL);
    return ns;
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
    char dir[4096] = "";
    if (script_argc && script_argv[0][0]) {
        const char *slash = strrchr(script_argv[0], '/');
        if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - script_argv[0]), script_argv[0]);
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
        set_owned(ns, "executable", executable()) ||
        set_owned(ns, "stdout", stream_new("sys.stdout", stdout_functions)) ||
        set_owned(ns, "stderr", stream_new("sys.stderr", stderr_functions)))
        NN_SET(ns, NULL);
    /* sys.__stdout__ / sys.__stderr__: the original streams, kept when a script replaces them */
    nn_object *out = ns ? repl_get_attr(ns, "stdout") : NULL, *err = out ? repl_get_attr(ns, "stderr") : NULL;
    if (ns && (!err || set_owned(ns, "__stdout__", nn_retain(out)) || set_owned(ns, "__stderr__", nn_retain(err))))
        NN_SET(ns, NULL);
    NN_RELEASE(out);
    NN_RELEASE(err);
    return ns;
}

nn_object *repl_sys_stdout_replacement(void)
{
    nn_object *sys = repl_import_by_name("sys");
    nn_object *cur = sys ? repl_get_attr(sys, "stdout") : NULL, *orig = cur ? repl_get_attr(sys, "__stdout__") : NULL;
    NN_RELEASE(sys);
    if (!orig) {
        nn_object *e = repl_take_exception(); /* a script deleted sys.stdout: print as before */
        NN_RELEASE(e);
    }
    if (!orig || cur == orig) {
        NN_RELEASE(cur);
        NN_RELEASE(orig);
        return NULL;
    }
    NN_RELEASE(orig);
    return cur;
}
