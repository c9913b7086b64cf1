/*
 * mod_os.c — the modules os and os.path as CPython 3.11's on POSIX: the
 * working directory, listdir, mkdir/makedirs(exist_ok=), remove, rmdir,
 * rename, getenv and environ (a dict of the environment at the first import:
 * assigning to it does not change the process's environment), cpu_count,
 * getpid, sep/linesep/name; os.path's string functions as posixpath computes
 * them (join, split, basename, dirname, splitext, normpath, abspath, isabs,
 * expanduser) and its queries of the file system (exists, isfile, isdir,
 * islink, getsize, realpath). Failures raise the OSError subclass of the errno
 * with CPython's "[Errno 2] No such file or directory: 'x'".
 */
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bigint.h"
#include "stdlib_int.h"
#include "bytes_int.h"

extern char **environ;

#define NARGS(args) ((int)nn_tuple_len(args))
#define ARG(args, i) nn_tuple_get(args, i)

/* stdlib_int.h: CPython's OSError for errno e about path */
nn_object *repl_mod_os_error(int e, const char *path)
{
    nn_object *no = nn_int_new(e), *text = nn_str_new(strerror(e)), *p = path ? nn_str_new(path) : NULL;
    nn_object *args = !no || !text || (path && !p) ? NULL : p ? nn_tuple_pack(3, no, text, p) : nn_tuple_pack(2, no, text);
    nn_object *exc = args ? repl_exc_new(repl_oserror_subclass(e), args) : NULL;
    if (exc && repl_oserror_init(exc) == 0) repl_raise_object(exc);
    NN_RELEASE(exc);
    NN_RELEASE(args);
    NN_RELEASE(no);
    NN_RELEASE(text);
    NN_RELEASE(p);
    return NULL;
}

/* A path argument: a str (TypeError naming fname otherwise). Borrowed. */
static const char *path_arg(const char *fname, nn_object *o)
{
    if (nn_is_str(o)) return nn_str_cstr(o);
    /* what each function takes as CPython words it (chdir and listdir take a file descriptor) */
    const char *kinds = !strcmp(fname, "listdir") ? "string, bytes, os.PathLike, integer or None"
                        : !strcmp(fname, "chdir") ? "string, bytes, os.PathLike or integer"
                                                  : "string, bytes or os.PathLike";
    repl_raise_exc(EXC_TypeError, "%s: path should be %s, not %s", fname, kinds, repl_value_type_name(o));
    return NULL;
}

/* The str arguments of os.path's string functions ("join() argument must be str, ..."). */
static const char *str_arg(const char *fname, nn_object *o)
{
    if (nn_is_str(o)) return nn_str_cstr(o);
    repl_raise_exc(EXC_TypeError, "%s() argument must be str, bytes, or os.PathLike object, not '%s'", fname,
                   repl_value_type_name(o));
    return NULL;
}

/* Parses the (name, optional...) arguments of an os function; 0 or -1. */
static int one_path(const char *fname, const char *spec_names[], int n, nn_object *args, nn_object *kwargs,
                    nn_object **out)
{
    for (int i = 0; i < n; i++) out[i] = NULL;
    int argc = NARGS(args);
    if (argc > n)
        return repl_raise_exc(EXC_TypeError, "%s() takes at most %d argument%s (%d given)", fname, n, n == 1 ? "" : "s",
                              argc);
    for (int i = 0; i < argc; i++) out[i] = ARG(args, i);
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        int i = 0;
        while (i < n && strcmp(spec_names[i], nn_str_cstr(k)) != 0) i++;
        if (i == n)
            return repl_raise_exc(EXC_TypeError, "%s() got an unexpected keyword argument '%s'", fname, nn_str_cstr(k));
        out[i] = v;
    }
    return 0;
}

/* ------------------------------------------------------------ os.path: strings */

static nn_object *str_take(char *s)
{
    if (!s) return NULL;
    nn_object *r = nn_str_new(s);
    nn_free(s);
    return r;
}

static char *join2(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *r = nn_malloc(la + lb + 2);
    if (!r) return NULL;
    if (b[0] == '/') memcpy(r, b, lb + 1);
    else if (!la || a[la - 1] == '/') snprintf(r, la + lb + 2, "%s%s", a, b);
    else snprintf(r, la + lb + 2, "%s/%s", a, b);
    return r;
}

static nn_object *p_join(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_kwargs_only("join", kwargs, (const char *const[]){NULL}) < 0) return NULL;
    if (NARGS(args) < 1) {
        repl_raise_exc(EXC_TypeError, "join() missing 1 required positional argument: 'a'");
        return NULL;
    }
    const char *first = str_arg("join", ARG(args, 0));
    char *path = first ? nn_strdup(first) : NULL;
    for (int i = 1; path && i < NARGS(args); i++) {
        const char *b = str_arg("join", ARG(args, i));
        char *next = b ? join2(path, b) : NULL;
        nn_free(path);
        path = next;
    }
    return str_take(path);
}

/* split(p) into head (trailing slashes dropped unless all slashes) and tail. */
static void split_at(const char *p, size_t *head_len, size_t *tail_at)
{
    const char *slash = strrchr(p, '/');
    size_t i = slash ? (size_t)(slash - p) + 1 : 0, h = i;
    bool all_slashes = true;
    for (size_t k = 0; k < i; k++) all_slashes &= p[k] == '/';
    if (h && !all_slashes)
        while (h > 0 && p[h - 1] == '/') h--;
    *head_len = h;
    *tail_at = i;
}

static nn_object *pair(nn_object *a, nn_object *b)
{
    nn_object *t = a && b ? nn_tuple_pack(2, a, b) : NULL;
    NN_RELEASE(a);
    NN_RELEASE(b);
    return t;
}

/* The single str argument of an os.path function; NULL with the error. */
static const char *single(const char *fname, nn_object *args, nn_object *kwargs)
{
    char full[48];
    snprintf(full, sizeof full, "%s", fname);
    if (kwargs && nn_dict_len(kwargs)) {
        repl_raise_exc(EXC_TypeError, "%s() takes no keyword arguments", fname);
        return NULL;
    }
    if (NARGS(args) != 1) {
        repl_raise_exc(EXC_TypeError, "%s() takes 1 positional argument but %d were given", fname, NARGS(args));
        return NULL;
    }
    return str_arg(full, ARG(args, 0));
}

static nn_object *p_split(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *p = single("split", args, kwargs);
    if (!p) return NULL;
    size_t h, t;
    split_at(p, &h, &t);
    return pair(nn_str_from(p, h), nn_str_new(p + t));
}

static nn_object *p_basename(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *p = single("basename", args, kwargs);
    if (!p) return NULL;
    const char *slash = strrchr(p, '/');
    return nn_str_new(slash ? slash + 1 : p);
}

static nn_object *p_dirname(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *p = single("dirname", args, kwargs);
    if (!p) return NULL;
    size_t h, t;
    split_at(p, &h, &t);
    return nn_str_from(p, h);
}

/* splitext: the last dot after the last slash, unless the name is all leading dots. */
static nn_object *p_splitext(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *p = single("splitext", args, kwargs);
    if (!p) return NULL;
    const char *slash = strrchr(p, '/'), *dot = strrchr(p, '.');
    if (dot && (!slash || dot > slash)) {
        for (const char *c = slash ? slash + 1 : p; c < dot; c++)
            if (*c != '.') return pair(nn_str_from(p, (size_t)(dot - p)), nn_str_new(dot));
    }
    return pair(nn_str_new(p), nn_str_new(""));
}

/* posixpath.normpath: "." and empty parts dropped, ".." folded where it can be. */
static char *normpath(const char *path)
{
    if (!*path) return nn_strdup(".");
    int initial = path[0] == '/' ? (path[1] == '/' && path[2] != '/' ? 2 : 1) : 0;
    size_t n = strlen(path);
    char *out = nn_malloc(n + 3);
    size_t *starts = nn_malloc((n / 2 + 2) * sizeof *starts); /* where each kept part starts in out */
    if (!out || !starts) {
        nn_free(out);
        nn_free(starts);
        return NULL;
    }
    size_t len = 0, parts = 0;
    for (int i = 0; i < initial; i++) out[len++] = '/';
    const char *c = path;
    while (*c) {
        while (*c == '/') c++;
        const char *e = c;
        while (*e && *e != '/') e++;
        size_t pl = (size_t)(e - c);
        if (pl == 0 || (pl == 1 && c[0] == '.')) {
            c = e;
            continue;
        }
        bool dotdot = pl == 2 && c[0] == '.' && c[1] == '.';
        bool last_dotdot = parts && len - starts[parts - 1] == 2 && out[starts[parts - 1]] == '.' &&
                           out[starts[parts - 1] + 1] == '.';
        if (!dotdot || (!initial && !parts) || last_dotdot) {
            if (parts) out[len++] = '/';
            starts[parts++] = len;
            memcpy(out + len, c, pl);
            len += pl;
        } else if (parts) {
            len = starts[--parts];
            if (parts) len--; /* its separator */
        }
        c = e;
    }
    if (len == 0) out[len++] = '.';
    out[len] = 0;
    nn_free(starts);
    return out;
}

static nn_object *p_normpath(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *p = single("normpath", args, kwargs);
    return p ? str_take(normpath(p)) : NULL;
}

char *repl_os_abspath(const char *p)
{
    if (p[0] == '/') return normpath(p);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) {
        repl_mod_os_error(errno, ".");
        return NULL;
    }
    char *j = join2(cwd, p), *r = j ? normpath(j) : NULL;
    nn_free(j);
    return r;
}

static nn_object *p_abspath(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *p = single("abspath", args, kwargs);
    return p ? str_take(repl_os_abspath(p)) : NULL;
}

static nn_object *p_isabs(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *p = single("isabs", args, kwargs);
    return p ? nn_bool_new(p[0] == '/') : NULL;
}

static nn_object *p_expanduser(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *p = single("expanduser", args, kwargs);
    if (!p) return NULL;
    if (p[0] != '~' || (p[1] && p[1] != '/')) return nn_str_new(p); /* ~user is left alone */
    const char *home = getenv("HOME");
    if (!home) return nn_str_new(p);
    size_t hl = strlen(home);
    while (hl > 1 && home[hl - 1] == '/') hl--;
    char *r = nn_malloc(hl + strlen(p) + 1);
    if (!r) return NULL;
    memcpy(r, home, hl);
    strcpy(r + hl, p + 1);
    if (!r[0]) strcpy(r, "/");
    return str_take(r);
}

/* ------------------------------------------------------------ os.path: the file system */

/* stat (or lstat) of the one argument: 1 and *st filled, 0 when it fails. -1 for a bad argument. */
static int stat_arg(const char *fname, nn_object *args, nn_object *kwargs, struct stat *st, bool link)
{
    const char *p = single(fname, args, kwargs);
    if (!p) return -1;
    return (link ? lstat(p, st) : stat(p, st)) == 0;
}

#define STAT_PREDICATES(X)                                                     \
    X(exists, false, true) X(isfile, false, S_ISREG(st.st_mode))               \
    X(isdir, false, S_ISDIR(st.st_mode)) X(islink, true, S_ISLNK(st.st_mode))

#define X(name, link, test)                                                         \
    static nn_object *p_##name(void *ud, nn_object *args, nn_object *kwargs)          \
    {                                                                                 \
        struct stat st;                                                               \
        int rc = stat_arg(#name, args, kwargs, &st, link);                            \
        return rc < 0 ? NULL : nn_bool_new(rc == 1 && (test));                        \
    }
STAT_PREDICATES(X)
#undef X

static nn_object *p_getsize(void *ud, nn_object *args, nn_object *kwargs)
{
    struct stat st;
    int rc = stat_arg("getsize", args, kwargs, &st, false);
    if (rc < 0) return NULL;
    if (rc == 0) return repl_mod_os_error(errno, nn_str_cstr(ARG(args, 0)));
    return nn_int_new((int64_t)st.st_size);
}

static nn_object *p_realpath(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *p = single("realpath", args, kwargs);
    if (!p) return NULL;
    char buf[PATH_MAX];
    if (realpath(p, buf)) return nn_str_new(buf);
    return p_abspath(ud, args, kwargs); /* a path that does not exist (yet) */
}

/* relpath(path, start=os.curdir): path from start, both made absolute, as posixpath's */
static nn_object *p_relpath(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("relpath", args, kwargs, 1, 2) < 0) return NULL;
    nn_object *start_arg = NARGS(args) > 1 ? ARG(args, 1) : repl_mod_kwarg(kwargs, "start");
    const char *path = str_arg("relpath", ARG(args, 0));
    const char *start = start_arg && !nn_is_none(start_arg) ? str_arg("relpath", start_arg) : ".";
    if (!path || !start) return NULL;
    if (!*path) {
        repl_raise_exc(EXC_ValueError, "no path specified");
        return NULL;
    }
    char *ap = repl_os_abspath(path), *as = repl_os_abspath(start);
    nn_object *r = NULL;
    if (ap && as) {
        /* the common leading components, whole components only */
        size_t common = 0, i = 0;
        for (; ap[i] && ap[i] == as[i]; i++)
            if (ap[i] == '/') common = i;
        if ((!ap[i] || ap[i] == '/') && (!as[i] || as[i] == '/')) common = i;
        sbuf b = {0};
        for (const char *q = as + common; *q;) { /* one ".." per component of start past the common part */
            while (*q == '/') q++;
            if (!*q) break;
            repl_sb_puts(&b, b.len ? "/.." : "..");
            while (*q && *q != '/') q++;
        }
        const char *rest = ap + common + (ap[common] == '/');
        if (*rest) {
            if (b.len) repl_sb_puts(&b, "/");
            repl_sb_puts(&b, rest);
        }
        if (!b.len) repl_sb_puts(&b, ".");
        r = str_take(repl_sb_finish(&b));
    }
    nn_free(ap);
    nn_free(as);
    return r;
}

static nn_object *p_normcase(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *p = single("normcase", args, kwargs);
    return p ? nn_str_new(p) : NULL;
}

#define STAT_DEFS(name, link, test) \
    {#name, p_##name, #name "(path)\nWhether path " #name " (False for a path that cannot be read)."},
static const repl_mod_fn path_functions[] = {
    {"join", p_join, "join(a, *p)\nJoin two or more pathname components, inserting '/' as needed."},
    {"split", p_split, "split(p)\nSplit a pathname into a tuple (head, tail) where tail is everything after the final slash."},
    {"basename", p_basename, "basename(p)\nReturns the final component of a pathname."},
    {"dirname", p_dirname, "dirname(p)\nReturns the directory component of a pathname."},
    {"splitext", p_splitext, "splitext(p)\nSplit the extension from a pathname: (root, ext)."},
    {"normpath", p_normpath, "normpath(path)\nNormalize path, eliminating double slashes, etc."},
    {"abspath", p_abspath, "abspath(path)\nReturn an absolute path."},
    {"isabs", p_isabs, "isabs(s)\nTest whether a path is absolute."},
    {"expanduser", p_expanduser, "expanduser(path)\nExpand ~ and ~user constructions."},
    STAT_PREDICATES(STAT_DEFS)
    {"getsize", p_getsize, "getsize(filename)\nReturn the size of a file, reported by os.stat()."},
    {"realpath", p_realpath, "realpath(filename)\nReturn the canonical path of the specified filename, eliminating any symbolic links."},
    {"relpath", p_relpath, "relpath(path, start=None)\nReturn a relative version of a path."},
    {"normcase", p_normcase, "normcase(s)\nNormalize case of pathname. Has no effect under Posix."},
};

nn_object *repl_mod_os_path(void)
{
    nn_object *m = repl_module_new("posixpath");
    if (!m) return NULL;
    if (repl_mod_add_fns(m, path_functions, sizeof path_functions / sizeof *path_functions) < 0 ||
        repl_mod_set(m, "sep", nn_str_new("/")) < 0 || repl_mod_set(m, "curdir", nn_str_new(".")) < 0 ||
        repl_mod_set(m, "pardir", nn_str_new("..")) < 0)
        NN_SET(m, NULL);
    return m;
}

/* ------------------------------------------------------------ os */

static nn_object *o_getcwd(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("getcwd", args, kwargs, 0, 0) < 0) return NULL;
    char buf[PATH_MAX];
    if (!getcwd(buf, sizeof buf)) return repl_mod_os_error(errno, ".");
    return nn_str_new(buf);
}

static nn_object *o_chdir(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *names[] = {"path"};
    nn_object *a[1];
    if (one_path("chdir", names, 1, args, kwargs, a) < 0) return NULL;
    const char *p = a[0] ? path_arg("chdir", a[0]) : NULL;
    if (!a[0]) repl_raise_exc(EXC_TypeError, "chdir() missing required argument 'path' (pos 1)");
    if (!p) return NULL;
    if (chdir(p) < 0) return repl_mod_os_error(errno, p);
    return nn_retain(nn_none());
}

/* listdir(path='.'): the names in the directory, in the order readdir gives them. */
static nn_object *o_listdir(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *names[] = {"path"};
    nn_object *a[1];
    if (one_path("listdir", names, 1, args, kwargs, a) < 0) return NULL;
    const char *p = a[0] && !nn_is_none(a[0]) ? path_arg("listdir", a[0]) : ".";
    return p ? repl_os_dir_entries(p, false) : NULL;
}

static int mode_arg(nn_object *o, int64_t *mode)
{
    *mode = 0777;
    return o ? repl_mod_int(o, mode) : 0;
}

static nn_object *o_mkdir(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *names[] = {"path", "mode"};
    nn_object *a[2];
    int64_t mode;
    if (one_path("mkdir", names, 2, args, kwargs, a) < 0 || mode_arg(a[1], &mode) < 0) return NULL;
    if (!a[0]) {
        repl_raise_exc(EXC_TypeError, "mkdir() missing required argument 'path' (pos 1)");
        return NULL;
    }
    const char *p = path_arg("mkdir", a[0]);
    if (!p) return NULL;
    if (mkdir(p, (mode_t)mode) < 0) return repl_mod_os_error(errno, p);
    return nn_retain(nn_none());
}

/* makedirs(name, mode=0o777, exist_ok=False): each missing parent, then name. */
static nn_object *o_makedirs(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *names[] = {"name", "mode", "exist_ok"};
    nn_object *a[3];
    int64_t mode;
    if (one_path("makedirs", names, 3, args, kwargs, a) < 0 || mode_arg(a[1], &mode) < 0) return NULL;
    if (!a[0]) {
        repl_raise_exc(EXC_TypeError, "makedirs() missing 1 required positional argument: 'name'");
        return NULL;
    }
    const char *p = path_arg("makedirs", a[0]);
    if (!p) return NULL;
    int ok = a[2] ? repl_truth(a[2]) : 0;
    if (ok < 0) return NULL;
    char *buf = nn_strdup(p);
    if (!buf) return NULL;
    for (char *c = buf + 1; *c; c++) { /* the parents, quietly where they exist */
        if (*c != '/' || c[-1] == '/') continue;
        *c = 0;
        if (mkdir(buf, 0777) < 0 && errno != EEXIST) {
            int e = errno;
            struct stat st;
            if (stat(buf, &st) < 0 || !S_ISDIR(st.st_mode)) {
                nn_object *r = repl_mod_os_error(e, buf);
                nn_free(buf);
                return r;
            }
        }
        *c = '/';
    }
    nn_free(buf);
    if (mkdir(p, (mode_t)mode) < 0) {
        int e = errno;
        struct stat st;
        if (!(e == EEXIST && ok && stat(p, &st) == 0 && S_ISDIR(st.st_mode))) return repl_mod_os_error(e, p);
    }
    return nn_retain(nn_none());
}

/* remove / unlink / rmdir (path) */
static nn_object *unary_path(const char *fname, int (*fn)(const char *), nn_object *args, nn_object *kwargs)
{
    static const char *names[] = {"path"};
    nn_object *a[1];
    if (one_path(fname, names, 1, args, kwargs, a) < 0) return NULL;
    if (!a[0]) {
        repl_raise_exc(EXC_TypeError, "%s() missing required argument 'path' (pos 1)", fname);
        return NULL;
    }
    const char *p = path_arg(fname, a[0]);
    if (!p) return NULL;
    if (fn(p) < 0) return repl_mod_os_error(errno, p);
    return nn_retain(nn_none());
}
static nn_object *o_remove(void *ud, nn_object *args, nn_object *kwargs) { return unary_path("remove", unlink, args, kwargs); }
static nn_object *o_unlink(void *ud, nn_object *args, nn_object *kwargs) { return unary_path("unlink", unlink, args, kwargs); }
static nn_object *o_rmdir(void *ud, nn_object *args, nn_object *kwargs) { return unary_path("rmdir", rmdir, args, kwargs); }

static nn_object *o_rename(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *names[] = {"src", "dst"};
    nn_object *a[2];
    if (one_path("rename", names, 2, args, kwargs, a) < 0) return NULL;
    if (!a[0] || !a[1]) {
        repl_raise_exc(EXC_TypeError, "rename() missing required argument '%s' (pos %d)", a[0] ? "dst" : "src",
                       a[0] ? 2 : 1);
        return NULL;
    }
    const char *s = path_arg("rename", a[0]), *d = s ? path_arg("rename", a[1]) : NULL;
    if (!d) return NULL;
    if (rename(s, d) < 0) return repl_mod_os_error(errno, s);
    return nn_retain(nn_none());
}

/* getenv(key, default=None): os.environ's value. */
static nn_object *o_getenv(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *names[] = {"key", "default"};
    nn_object *a[2];
    if (one_path("getenv", names, 2, args, kwargs, a) < 0) return NULL;
    if (!a[0]) {
        repl_raise_exc(EXC_TypeError, "getenv() missing 1 required positional argument: 'key'");
        return NULL;
    }
    if (!nn_is_str(a[0])) {
        repl_raise_exc(EXC_TypeError, "str expected, not %s", repl_value_type_name(a[0]));
        return NULL;
    }
    const char *v = getenv(nn_str_cstr(a[0]));
    if (v) return nn_str_new(v);
    return nn_retain(a[1] ? a[1] : nn_none());
}

static nn_object *o_cpu_count(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("cpu_count", args, kwargs, 0, 0) < 0) return NULL;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? nn_int_new(n) : nn_retain(nn_none());
}

static nn_object *o_getpid(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("getpid", args, kwargs, 0, 0) < 0) return NULL;
    return nn_int_new((int64_t)getpid());
}

/* kill(pid, sig). A signal to this process goes through the signal module when
   the language holds a handler for it (a function set with signal.signal,
   SIG_IGN, or SIGINT's default_int_handler, which raises KeyboardInterrupt),
   as CPython runs its handler; with SIG_DFL the operating system acts. */
static nn_object *o_kill(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t pid, sig;
    if (kwargs && nn_dict_len(kwargs)) return repl_raise_exc(EXC_TypeError, "kill() takes no keyword arguments"), NULL;
    if (NARGS(args) != 2)
        return repl_raise_exc(EXC_TypeError, "kill() takes exactly 2 arguments (%d given)", NARGS(args)), NULL;
    if (repl_is_bigint(ARG(args, 1)))
        return repl_raise_exc(EXC_OverflowError, "Python int too large to convert to C ssize_t"), NULL;
    if (repl_mod_int(ARG(args, 0), &pid) < 0 || repl_mod_int(ARG(args, 1), &sig) < 0) return NULL;
    if (pid != (pid_t)pid || sig != (int)sig)
        return repl_raise_exc(EXC_OverflowError, "signed integer is greater than maximum"), NULL;
    if (pid == getpid() && sig > 0 && sig < NSIG) {
        nn_object *signal_mod = repl_import_by_name("signal"), *num = signal_mod ? nn_int_new(sig) : NULL;
        nn_object *handler = num ? repl_call_method(signal_mod, "getsignal", &num, 1) : NULL;
        nn_object *dfl = handler ? repl_get_attr(signal_mod, "SIG_DFL") : NULL;
        nn_object *r = dfl && handler != dfl ? repl_call_method(signal_mod, "raise_signal", &num, 1) : NULL;
        bool raised = !dfl || (handler != dfl && !r);
        NN_RELEASE(dfl);
        NN_RELEASE(handler);
        NN_RELEASE(num);
        NN_RELEASE(signal_mod);
        if (raised) return NULL;
        if (r) return r;
    }
    if (kill((pid_t)pid, (int)sig) < 0) return repl_mod_os_error(errno, NULL);
    return nn_retain(nn_none());
}

/* urandom(size): size bytes from the kernel's random source (getrandom) */
static nn_object *o_urandom(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t n;
    if (repl_mod_nargs("urandom", args, kwargs, 1, 1) < 0 || repl_mod_int(nn_tuple_get(args, 0), &n) < 0) return NULL;
    if (n < 0) {
        repl_raise_exc(EXC_ValueError, "negative argument not allowed");
        return NULL;
    }
    nn_object *r = repl_bytes_new(NULL, (size_t)n, false);
    unsigned char *p = r ? ((bytes_obj *)r)->data : NULL;
    for (int64_t got = 0; r && got < n;) {
        ssize_t k = getrandom(p + got, (size_t)(n - got), 0);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            int e = errno;
            NN_RELEASE(r);
            return repl_mod_os_error(e, NULL);
        }
        got += k;
    }
    return r;
}

/* fspath(path): a str or bytes path as itself; an os.PathLike reaches here as
   its path already (paths_call in stdlib.c) */
static nn_object *o_fspath(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("fspath", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *p = ARG(args, 0);
    if (nn_is_str(p) || repl_is_bytes(p)) return nn_retain(p);
    repl_raise_exc(EXC_TypeError, "expected str, bytes or os.PathLike object, not %s", repl_value_type_name(p));
    return NULL;
}

static const repl_mod_fn os_functions[] = {
    {"fspath", o_fspath, "fspath(path)\nReturn the file system path representation of the object."},
    {"urandom", o_urandom, "urandom(size, /)\nReturn a bytes object containing random bytes suitable for cryptographic use."},
    {"getcwd", o_getcwd, "getcwd()\nReturn a unicode string representing the current working directory."},
    {"chdir", o_chdir, "chdir(path)\nChange the current working directory to the specified path."},
    {"listdir", o_listdir, "listdir(path=None)\nReturn a list containing the names of the files in the directory."},
    {"mkdir", o_mkdir, "mkdir(path, mode=511)\nCreate a directory."},
    {"makedirs", o_makedirs, "makedirs(name, mode=511, exist_ok=False)\nSuper-mkdir; create a leaf directory and all intermediate ones."},
    {"remove", o_remove, "remove(path)\nRemove a file (same as unlink())."},
    {"unlink", o_unlink, "unlink(path)\nRemove a file (same as remove())."},
    {"rmdir", o_rmdir, "rmdir(path)\nRemove a directory."},
    {"rename", o_rename, "rename(src, dst)\nRename a file or directory."},
    {"getenv", o_getenv, "getenv(key, default=None)\nGet an environment variable, return None if it doesn't exist."},
    {"cpu_count", o_cpu_count, "cpu_count()\nReturn the number of CPUs in the system; return None if indeterminable."},
    {"getpid", o_getpid, "getpid()\nReturn the current process id."},
    {"kill", o_kill, "kill(pid, signal, /)\nKill a process with a signal."},
};

static nn_object *environ_dict(void)
{
    nn_object *d = nn_dict_new();
    for (char **e = environ; d && e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq) continue;
        nn_object *k = nn_str_from(*e, (size_t)(eq - *e)), *v = nn_str_new(eq + 1);
        if (!k || !v || nn_dict_set(d, k, v) < 0) NN_SET(d, NULL);
        NN_RELEASE(k);
        NN_RELEASE(v);
    }
    return d;
}

nn_object *repl_mod_os(void)
{
    nn_object *m = repl_module_new("os");
    if (!m) return NULL;
    if (repl_mod_add_fns(m, os_functions, sizeof os_functions / sizeof *os_functions) < 0 ||
        repl_mod_set(m, "environ", environ_dict()) < 0 || repl_mod_set(m, "sep", nn_str_new("/")) < 0 ||
        repl_mod_set(m, "linesep", nn_str_new("\n")) < 0 || repl_mod_set(m, "name", nn_str_new("posix")) < 0 ||
        repl_mod_set(m, "curdir", nn_str_new(".")) < 0 || repl_mod_set(m, "pardir", nn_str_new("..")) < 0 ||
        repl_mod_set(m, "path", repl_stdlib_module("os.path")) < 0 || repl_mod_os_fd_add(m) < 0 ||
        repl_mod_os_stat_add(m) < 0)
        NN_SET(m, NULL);
    return m;
}
