/*
 * mod_host.c — the private module _host: what the machine and the process say
 * of themselves (uname, the C library's version, the host name, the user's
 * name from the password database), for the modules written in the language
 * that CPython builds over os.uname, socket and pwd: platform, socket, getpass
 * (repl/lib/platform.py, socket.py, getpass.py).
 */
#include <errno.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <pwd.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "stdlib_int.h"

/* uname() -> (sysname, nodename, release, version, machine) */
static nn_object *h_uname(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("uname", args, kwargs, 0, 0) < 0) return NULL;
    struct utsname u;
    if (uname(&u) < 0) return repl_mod_os_error(errno, NULL);
    const char *fields[] = {u.sysname, u.nodename, u.release, u.version, u.machine};
    nn_object *t = nn_tuple_new(5);
    for (size_t i = 0; t && i < 5; i++) {
        nn_object *s = nn_str_new(fields[i]);
        if (!s) NN_SET(t, NULL);
        else nn_tuple_set(t, i, s);
    }
    return t;
}

/* libc_version() -> '2.36' */
static nn_object *h_libc_version(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("libc_version", args, kwargs, 0, 0) < 0) return NULL;
    return nn_str_new(gnu_get_libc_version());
}

/* gethostname() -> 'vm', as socket.gethostname */
static nn_object *h_gethostname(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("gethostname", args, kwargs, 0, 0) < 0) return NULL;
    char name[HOST_NAME_MAX + 1];
    if (gethostname(name, sizeof name) < 0) return repl_mod_os_error(errno, NULL);
    name[HOST_NAME_MAX] = 0;
    return nn_str_new(name);
}

/* user_name(uid) -> the password database's name of uid; KeyError as pwd.getpwuid's */
static nn_object *h_user_name(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("user_name", args, kwargs, 1, 1) < 0) return NULL;
    int64_t uid;
    if (repl_mod_int(nn_tuple_get(args, 0), &uid) < 0) return NULL;
    struct passwd pw, *found = NULL;
    char buf[4096];
    if (getpwuid_r((uid_t)uid, &pw, buf, sizeof buf, &found) != 0 || !found) {
        repl_raise_exc(EXC_KeyError, "getpwuid(): uid not found: %lld", (long long)uid);
        return NULL;
    }
    return nn_str_new(found->pw_name);
}

static const repl_mod_fn host_functions[] = {
    {"uname", h_uname, "uname()\n(sysname, nodename, release, version, machine) of the running kernel."},
    {"libc_version", h_libc_version, "libc_version()\nThe GNU C library's version."},
    {"gethostname", h_gethostname, "gethostname()\nThe host name."},
    {"user_name", h_user_name, "user_name(uid)\nThe password database's name of uid."},
};

nn_object *repl_mod_host(void)
{
    nn_object *m = repl_module_new("_host");
    if (m && repl_mod_add_fns(m, host_functions, sizeof host_functions / sizeof *host_functions) < 0) NN_SET(m, NULL);
    return m;
}
