/*
 * mod_os_stat.c — the part of `import os` about files' status and the system,
 * as CPython 3.11's: stat/lstat (os.stat_result), scandir (DirEntry) and walk,
 * access and its F_OK..X_OK, chmod, replace, utime, readlink/symlink, system,
 * umask, getuid/geteuid/getgid/getppid, get_terminal_size, and the constants
 * SEEK_*, devnull, pathsep, extsep, altsep. C helpers below; the classes and
 * walk in the source at the end, run in the os module (repl_mod_os_stat_add).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bytes_int.h"
#include "stdlib_int.h"

/* The path argument i of fname: a str (paths_call has made an os.PathLike one).
   Borrowed, or NULL with CPython's TypeError. */
static const char *path_at(const char *fname, nn_object *args, size_t i)
{
    nn_object *p = nn_tuple_get(args, i);
    if (nn_is_str(p)) return nn_str_cstr(p);
    /* (os.stat takes a file descriptor too, and says so) */
    repl_raise_exc(EXC_TypeError, "%s: path should be string, bytes%s, not %s", fname,
                   strcmp(fname, "stat") ? " or os.PathLike" : ", os.PathLike or integer", repl_value_type_name(p));
    return NULL;
}

static double seconds(struct timespec t) { return (double)t.tv_sec + (double)t.tv_nsec * 1e-9; }
static int64_t nanoseconds(struct timespec t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

/* _stat(path, follow_symlinks): stat_result's fields, in its order: the 10
   of the tuple (times as whole seconds), then st_atime, st_mtime, st_ctime
   (floats), their _ns, st_blksize, st_blocks, st_rdev */
static nn_object *h_stat(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_stat", args, kwargs, 2, 2) < 0) return NULL;
    const char *p = path_at("stat", args, 0);
    if (!p) return NULL;
    struct stat st;
    if ((repl_truth(nn_tuple_get(args, 1)) > 0 ? stat(p, &st) : lstat(p, &st)) < 0)
        return repl_mod_os_error(errno, p);
    nn_object *fields[] = {
        nn_int_new(st.st_mode),         nn_int_new((int64_t)st.st_ino),     nn_int_new((int64_t)st.st_dev),
        nn_int_new((int64_t)st.st_nlink), nn_int_new(st.st_uid),            nn_int_new(st.st_gid),
        nn_int_new((int64_t)st.st_size), nn_int_new(st.st_atim.tv_sec),     nn_int_new(st.st_mtim.tv_sec),
        nn_int_new(st.st_ctim.tv_sec),  nn_float_new(seconds(st.st_atim)), nn_float_new(seconds(st.st_mtim)),
        nn_float_new(seconds(st.st_ctim)), nn_int_new(nanoseconds(st.st_atim)), nn_int_new(nanoseconds(st.st_mtim)),
        nn_int_new(nanoseconds(st.st_ctim)), nn_int_new(st.st_blksize),     nn_int_new(st.st_blocks),
        nn_int_new((int64_t)st.st_rdev),
    };
    size_t n = sizeof fields / sizeof *fields;
    nn_object *t = nn_tuple_new(n);
    for (size_t i = 0; i < n; i++) {
        if (!fields[i]) NN_SET(t, NULL);
        if (t) nn_tuple_set(t, i, fields[i]);
        else NN_RELEASE(fields[i]);
    }
    return t;
}

nn_object *repl_os_dir_entries(const char *p, bool kinds)
{
    DIR *d = opendir(p);
    if (!d) return repl_mod_os_error(errno, p);
    nn_object *l = nn_list_new(0);
    struct dirent *e;
    while (l && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        const char *kind = e->d_type == DT_DIR ? "d" : e->d_type == DT_LNK ? "l" : e->d_type == DT_UNKNOWN ? "?" : "f";
        nn_object *name = nn_str_new(e->d_name), *k = kinds ? nn_str_new(kind) : NULL;
        nn_object *entry = !kinds ? nn_retain(name) : name && k ? nn_tuple_pack(2, name, k) : NULL;
        if (!entry || nn_list_append(l, entry) < 0) NN_SET(l, NULL);
        NN_RELEASE(entry);
        NN_RELEASE(name);
        NN_RELEASE(k);
    }
    closedir(d);
    return l;
}

/* _scandir(path): repl_os_dir_entries with their kinds */
static nn_object *h_scandir(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_scandir", args, kwargs, 1, 1) < 0) return NULL;
    const char *p = path_at("scandir", args, 0);
    return p ? repl_os_dir_entries(p, true) : NULL;
}

/* access(path, mode): whether the process may (no error: False) */
static nn_object *h_access(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t mode;
    if (repl_mod_nargs("access", args, kwargs, 2, 2) < 0 || repl_mod_int(nn_tuple_get(args, 1), &mode) < 0) return NULL;
    const char *p = path_at("access", args, 0);
    return p ? nn_bool_new(access(p, (int)mode) == 0) : NULL;
}

static nn_object *h_chmod(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t mode;
    if (repl_mod_nargs("chmod", args, kwargs, 2, 2) < 0 || repl_mod_int(nn_tuple_get(args, 1), &mode) < 0) return NULL;
    const char *p = path_at("chmod", args, 0);
    if (!p) return NULL;
    return chmod(p, (mode_t)mode) < 0 ? repl_mod_os_error(errno, p) : nn_retain(nn_none());
}

/* replace(src, dst): rename over an existing dst */
static nn_object *h_replace(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("replace", args, kwargs, 2, 2) < 0) return NULL;
    const char *src = path_at("replace", args, 0), *dst = src ? path_at("replace", args, 1) : NULL;
    if (!dst) return NULL;
    return rename(src, dst) < 0 ? repl_mod_os_error(errno, src) : nn_retain(nn_none());
}

/* _utime(path, atime_ns, mtime_ns), or with None for now */
static nn_object *h_utime(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("utime", args, kwargs, 3, 3) < 0) return NULL;
    const char *p = path_at("utime", args, 0);
    if (!p) return NULL;
    struct timespec ts[2];
    for (int i = 0; i < 2; i++) {
        nn_object *t = nn_tuple_get(args, (size_t)i + 1);
        int64_t ns = 0;
        if (nn_is_none(t)) ts[i] = (struct timespec){.tv_nsec = UTIME_NOW};
        else if (repl_mod_int(t, &ns) < 0) return NULL;
        else ts[i] = (struct timespec){.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};
    }
    return utimensat(AT_FDCWD, p, ts, 0) < 0 ? repl_mod_os_error(errno, p) : nn_retain(nn_none());
}

static nn_object *h_readlink(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("readlink", args, kwargs, 1, 1) < 0) return NULL;
    const char *p = path_at("readlink", args, 0);
    if (!p) return NULL;
    char buf[4096];
    ssize_t n = readlink(p, buf, sizeof buf);
    if (n < 0) return repl_mod_os_error(errno, p);
    return nn_str_from(buf, (size_t)n);
}

static nn_object *h_symlink(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("symlink", args, kwargs, 2, 2) < 0) return NULL;
    const char *src = path_at("symlink", args, 0), *dst = src ? path_at("symlink", args, 1) : NULL;
    if (!dst) return NULL;
    return symlink(src, dst) < 0 ? repl_mod_os_error(errno, src) : nn_retain(nn_none());
}

/* system(command): the command's wait status, as CPython's (exit code << 8) */
static nn_object *h_system(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("system", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *cmd = nn_tuple_get(args, 0);
    if (!nn_is_str(cmd))
        return repl_raise_exc(EXC_TypeError, "system() argument 'command' must be str, not %s", repl_value_type_name(cmd)),
               NULL;
    fflush(stdout); /* what the script printed comes before the command's output */
    int status = system(nn_str_cstr(cmd));
    return nn_int_new(status);
}

static nn_object *h_umask(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t mask;
    if (repl_mod_nargs("umask", args, kwargs, 1, 1) < 0 || repl_mod_int(nn_tuple_get(args, 0), &mask) < 0) return NULL;
    return nn_int_new(umask((mode_t)mask));
}

#define ID_FN(name, call)                                                                  \
    static nn_object *h_##name(void *ud, nn_object *args, nn_object *kwargs)               \
    {                                                                                      \
        return repl_mod_nargs(#name, args, kwargs, 0, 0) < 0 ? NULL : nn_int_new(call());  \
    }
ID_FN(getuid, getuid)
ID_FN(geteuid, geteuid)
ID_FN(getgid, getgid)
ID_FN(getppid, getppid)
#undef ID_FN

/* _terminal_size(fd): (columns, lines), or OSError when fd is no terminal */
static nn_object *h_terminal_size(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t fd;
    if (repl_mod_nargs("get_terminal_size", args, kwargs, 1, 1) < 0 || repl_mod_int(nn_tuple_get(args, 0), &fd) < 0)
        return NULL;
    struct winsize ws;
    if (ioctl((int)fd, TIOCGWINSZ, &ws) < 0) {
        return repl_mod_os_error(errno, NULL);
    }
    nn_object *c = nn_int_new(ws.ws_col), *l = nn_int_new(ws.ws_row);
    nn_object *t = c && l ? nn_tuple_pack(2, c, l) : NULL;
    NN_RELEASE(c);
    NN_RELEASE(l);
    return t;
}

static const repl_mod_fn helpers[] = {
    {"_stat", h_stat, NULL},
    {"_scandir", h_scandir, NULL},
    {"_utime", h_utime, NULL},
    {"_terminal_size", h_terminal_size, NULL},
    {"access", h_access, "access(path, mode)\nUse the real uid/gid to test for access to a path."},
    {"chmod", h_chmod, "chmod(path, mode)\nChange the access permissions of a file."},
    {"replace", h_replace, "replace(src, dst)\nRename a file or directory, overwriting the destination."},
    {"readlink", h_readlink, "readlink(path)\nReturn a string representing the path to which the symbolic link points."},
    {"symlink", h_symlink, "symlink(src, dst)\nCreate a symbolic link pointing to src named dst."},
    {"system", h_system, "system(command)\nExecute the command in a subshell."},
    {"umask", h_umask, "umask(mask, /)\nSet the current numeric umask and return the previous umask."},
    {"getuid", h_getuid, "getuid()\nReturn the current process's user id."},
    {"geteuid", h_geteuid, "geteuid()\nReturn the current process's effective user id."},
    {"getgid", h_getgid, "getgid()\nReturn the current process's group id."},
    {"getppid", h_getppid, "getppid()\nReturn the parent's process id."},
};

/* source: begin */
static const char source[] =
    "# os: stat_result, DirEntry, scandir, walk and friends over the C helpers above\n"
    "SEEK_SET, SEEK_CUR, SEEK_END = 0, 1, 2\n"
    "F_OK, R_OK, W_OK, X_OK = 0, 4, 2, 1\n"
    "devnull = '/dev/null'\n"
    "extsep = '.'\n"
    "altsep = None\n"
    "pathsep = ':'\n"
    "defpath = '/bin:/usr/bin'\n"
    "\n"
    "\n"
    "class stat_result:\n"
    "    # a sequence of 10 fields (times as whole seconds) with more as attributes\n"
    "    n_sequence_fields = 10\n"
    "    _names = ('st_mode', 'st_ino', 'st_dev', 'st_nlink', 'st_uid', 'st_gid', 'st_size',\n"
    "              'st_atime', 'st_mtime', 'st_ctime')\n"
    "\n"
    "    def __init__(self, fields):\n"
    "        self._seq = tuple(fields[:10])\n"
    "        (self.st_mode, self.st_ino, self.st_dev, self.st_nlink, self.st_uid, self.st_gid,\n"
    "         self.st_size) = self._seq[:7]\n"
    "        (self.st_atime, self.st_mtime, self.st_ctime, self.st_atime_ns, self.st_mtime_ns,\n"
    "         self.st_ctime_ns, self.st_blksize, self.st_blocks, self.st_rdev) = fields[10:]\n"
    "\n"
    "    def __getitem__(self, i):\n"
    "        return self._seq[i]\n"
    "\n"
    "    def __len__(self):\n"
    "        return 10\n"
    "\n"
    "    def __iter__(self):\n"
    "        return iter(self._seq)\n"
    "\n"
    "    def __eq__(self, other):\n"
    "        return isinstance(other, stat_result) and self._seq == other._seq\n"
    "\n"
    "    def __repr__(self):\n"
    "        return 'os.stat_result(' + ', '.join(n + '=' + repr(v) for n, v in zip(self._names, self._seq)) + ')'\n"
    "\n"
    "\n"
    "def stat(path, *, dir_fd=None, follow_symlinks=True):\n"
    "    return stat_result(_stat(path, follow_symlinks))\n"
    "\n"
    "\n"
    "def lstat(path, *, dir_fd=None):\n"
    "    return stat_result(_stat(path, False))\n"
    "\n"
    "\n"
    "def utime(path, times=None, *, ns=None, dir_fd=None, follow_symlinks=True):\n"
    "    if times is not None and ns is not None:\n"
    "        raise ValueError('utime: you may specify either \\'times\\' or \\'ns\\' but not both')\n"
    "    if times is not None:\n"
    "        if not isinstance(times, tuple) or len(times) != 2:\n"
    "            raise TypeError('utime: \\'times\\' must be either a tuple of two ints or None')\n"
    "        ns = tuple(int(t * 1e9) for t in times)\n"
    "    a, m = ns if ns is not None else (None, None)\n"
    "    _utime(path, a, m)\n"
    "\n"
    "\n"
    "class DirEntry:\n"
    "    # one entry of scandir: its name and path, and what it is (the kind readdir\n"
    "    # gave, a stat when the file system did not say or a link must be followed)\n"
    "    def __init__(self, top, name, kind):\n"
    "        self.name = name\n"
    "        self.path = path.join(top, name)\n"
    "        self._kind = kind\n"
    "\n"
    "    def _mode(self, follow):\n"
    "        try:\n"
    "            return _stat(self.path, follow)[0]\n"
    "        except FileNotFoundError:\n"
    "            return 0\n"
    "\n"
    "    def is_symlink(self):\n"
    "        if self._kind != '?':\n"
    "            return self._kind == 'l'\n"
    "        return self._mode(False) & 0o170000 == 0o120000\n"
    "\n"
    "    def is_dir(self, *, follow_symlinks=True):\n"
    "        if self._kind == 'd' or (self._kind == 'f' or (self._kind == 'l' and not follow_symlinks)):\n"
    "            return self._kind == 'd'\n"
    "        return self._mode(follow_symlinks) & 0o170000 == 0o040000\n"
    "\n"
    "    def is_file(self, *, follow_symlinks=True):\n"
    "        if self._kind == 'd' or (self._kind == 'l' and not follow_symlinks):\n"
    "            return False\n"
    "        if self._kind == 'f':\n"
    "            return self._mode(False) & 0o170000 == 0o100000\n"
    "        return self._mode(follow_symlinks) & 0o170000 == 0o100000\n"
    "\n"
    "    def stat(self, *, follow_symlinks=True):\n"
    "        return stat_result(_stat(self.path, follow_symlinks))\n"
    "\n"
    "    def inode(self):\n"
    "        return _stat(self.path, False)[1]\n"
    "\n"
    "    def __fspath__(self):\n"
    "        return self.path\n"
    "\n"
    "    def __repr__(self):\n"
    "        return '<DirEntry ' + repr(self.name) + '>'\n"
    "\n"
    "\n"
    "class _ScandirIterator:\n"
    "    def __init__(self, top):\n"
    "        self._entries = iter(_scandir(top))\n"
    "        self._top = top\n"
    "\n"
    "    def __iter__(self):\n"
    "        return self\n"
    "\n"
    "    def __next__(self):\n"
    "        name, kind = next(self._entries)\n"
    "        return DirEntry(self._top, name, kind)\n"
    "\n"
    "    def close(self):\n"
    "        self._entries = iter(())\n"
    "\n"
    "    def __enter__(self):\n"
    "        return self\n"
    "\n"
    "    def __exit__(self, *exc):\n"
    "        self.close()\n"
    "        return False\n"
    "\n"
    "\n"
    "def scandir(path='.'):\n"
    "    return _ScandirIterator('.' if path is None else fspath(path))\n"
    "\n"
    "\n"
    "def walk(top, topdown=True, onerror=None, followlinks=False):\n"
    "    # each directory's (path, subdirectory names, other names), the directory before\n"
    "    # its subdirectories when topdown, after them otherwise; links to directories\n"
    "    # are listed with the directories and entered only with followlinks\n"
    "    top = fspath(top)\n"
    "    try:\n"
    "        entries = list(scandir(top))\n"
    "    except OSError as error:\n"
    "        if onerror is not None:\n"
    "            onerror(error)\n"
    "        return\n"
    "    dirs, others, below = [], [], []\n"
    "    for entry in entries:\n"
    "        try:\n"
    "            is_dir = entry.is_dir()\n"
    "        except OSError:\n"
    "            is_dir = False\n"
    "        (dirs if is_dir else others).append(entry.name)\n"
    "        if not topdown and is_dir and (followlinks or not entry.is_symlink()):\n"
    "            below.append(entry.path)\n"
    "    if topdown:\n"
    "        yield top, dirs, others\n"
    "        for name in dirs:  # the caller may have pruned or reordered dirs\n"
    "            sub = path.join(top, name)\n"
    "            if followlinks or not path.islink(sub):\n"
    "                yield from walk(sub, topdown, onerror, followlinks)\n"
    "    else:\n"
    "        for sub in below:\n"
    "            yield from walk(sub, topdown, onerror, followlinks)\n"
    "        yield top, dirs, others\n"
    "\n"
    "\n"
    "def removedirs(name):\n"
    "    rmdir(name)\n"
    "    head, tail = path.split(name)\n"
    "    if not tail:\n"
    "        head, tail = path.split(head)\n"
    "    while head and tail:\n"
    "        try:\n"
    "            rmdir(head)\n"
    "        except OSError:\n"
    "            break\n"
    "        head, tail = path.split(head)\n"
    "\n"
    "\n"
    "class terminal_size:\n"
    "    def __init__(self, columns, lines):\n"
    "        self.columns, self.lines = columns, lines\n"
    "\n"
    "    def __getitem__(self, i):\n"
    "        return (self.columns, self.lines)[i]\n"
    "\n"
    "    def __len__(self):\n"
    "        return 2\n"
    "\n"
    "    def __iter__(self):\n"
    "        return iter((self.columns, self.lines))\n"
    "\n"
    "    def __repr__(self):\n"
    "        return 'os.terminal_size(columns=' + str(self.columns) + ', lines=' + str(self.lines) + ')'\n"
    "\n"
    "\n"
    "def get_terminal_size(fd=1):\n"
    "    return terminal_size(*_terminal_size(fd))\n";
/* source: end */

int repl_mod_os_stat_add(nn_object *os)
{
    if (repl_mod_add_fns(os, helpers, sizeof helpers / sizeof *helpers) < 0) return -1;
    return repl_exec_module_source(os, "os", source, "<frozen os>");
}
