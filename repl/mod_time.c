/*
 * mod_time.c — the module time: the clocks (time, perf_counter, monotonic,
 * process_time and their _ns forms, as floats of seconds or int nanoseconds,
 * from clock_gettime's clocks as CPython's), sleep (Ctrl-C ends it with
 * KeyboardInterrupt), struct_time (a named tuple), localtime, gmtime, mktime,
 * strftime, asctime, ctime. Not here: tm_zone/tm_gmtoff attributes, strptime.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "stdlib_int.h"

static int64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A clock as CPython reads it: CLOCK_REALTIME for time, CLOCK_MONOTONIC for
   perf_counter and monotonic, CLOCK_PROCESS_CPUTIME_ID for process_time. */
#define CLOCKS(X)                                                                  \
    X(time, CLOCK_REALTIME) X(perf_counter, CLOCK_MONOTONIC) X(monotonic, CLOCK_MONOTONIC) \
    X(process_time, CLOCK_PROCESS_CPUTIME_ID)

#define X(name, id)                                                                          \
    static nn_object *t_##name(void *ud, nn_object *args, nn_object *kwargs)                  \
    {                                                                                         \
        if (repl_mod_nargs("time." #name, args, kwargs, 0, 0) < 0) return NULL;               \
        return nn_float_new((double)clock_ns(id) * 1e-9);                                     \
    }                                                                                         \
    static nn_object *t_##name##_ns(void *ud, nn_object *args, nn_object *kwargs)             \
    {                                                                                         \
        if (repl_mod_nargs("time." #name "_ns", args, kwargs, 0, 0) < 0) return NULL;         \
        return nn_int_new(clock_ns(id));                                                      \
    }
CLOCKS(X)
#undef X

static nn_object *t_sleep(void *ud, nn_object *args, nn_object *kwargs)
{
    double secs;
    if (repl_mod_nargs("time.sleep", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *a = nn_tuple_get(args, 0);
    if (!nn_is_int(a) && !nn_is_float(a) && !nn_is_bool(a)) {
        repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(a));
        return NULL;
    }
    secs = nn_float_value(a);
    if (isnan(secs)) {
        repl_raise_exc(EXC_ValueError, "Invalid value NaN (not a number)");
        return NULL;
    }
    if (secs < 0) {
        repl_raise_exc(EXC_ValueError, "sleep length must be non-negative");
        return NULL;
    }
    /* in slices of at most 50 ms, so that Ctrl-C is seen */
    int64_t end = clock_ns(CLOCK_MONOTONIC) + (int64_t)(secs * 1e9);
    for (;;) {
        if (nn_check_interrupt() < 0) return NULL;
        int64_t left = end - clock_ns(CLOCK_MONOTONIC);
        if (left <= 0) break;
        if (left > 50000000) left = 50000000;
        struct timespec ts = {0, (long)left};
        nanosleep(&ts, NULL);
    }
    return nn_retain(nn_none());
}

/* A Python time tuple (9 ints, or a struct_time) into tm; -1 with TypeError/ValueError. */
static int tuple_tm(const char *fname, nn_object *t, struct tm *tm)
{
    nn_object *items = repl_to_list(t);
    if (!items) return -1;
    int64_t v[9];
    bool ok = nn_list_len(items) == 9;
    for (size_t i = 0; ok && i < 9; i++) {
        nn_object *x = nn_list_get(items, i);
        ok = nn_is_int(x) || nn_is_bool(x);
        if (ok) v[i] = nn_int_value(x);
    }
    NN_RELEASE(items);
    if (!ok) return repl_raise_exc(EXC_TypeError, "%s(): illegal time tuple argument", fname);
    *tm = (struct tm){.tm_year = (int)(v[0] - 1900), .tm_mon = (int)(v[1] - 1), .tm_mday = (int)v[2],
                      .tm_hour = (int)v[3], .tm_min = (int)v[4], .tm_sec = (int)v[5],
                      .tm_wday = (int)((v[6] + 1) % 7), .tm_yday = (int)(v[7] - 1), .tm_isdst = (int)v[8]};
    return 0;
}

/* _tm(secs, utc): localtime/gmtime of secs (None: now) as a 9-tuple, Monday = 0
   and days of the year from 1 as Python's struct_time counts them. */
static nn_object *t_tm(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_tm", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *secs = nn_tuple_get(args, 0);
    time_t when = time(NULL);
    if (!nn_is_none(secs)) {
        double d;
        if (repl_mod_real(secs, &d) < 0) return NULL;
        if (!isfinite(d) || fabs(d) > 1e17) {
            repl_raise_exc(isnan(d) ? EXC_ValueError : EXC_OverflowError, isnan(d) ? "Invalid value NaN (not a number)"
                                                                                    : "timestamp out of range for platform time_t");
            return NULL;
        }
        when = (time_t)floor(d);
    }
    struct tm tm;
    if (!(repl_truth(nn_tuple_get(args, 1)) > 0 ? gmtime_r(&when, &tm) : localtime_r(&when, &tm))) {
        repl_raise_exc(EXC_OverflowError, "timestamp out of range for platform time_t");
        return NULL;
    }
    int64_t v[9] = {tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                    (tm.tm_wday + 6) % 7, tm.tm_yday + 1, tm.tm_isdst};
    nn_object *t = nn_tuple_new(9);
    for (size_t i = 0; t && i < 9; i++) {
        nn_object *x = nn_int_new(v[i]);
        if (!x) NN_SET(t, NULL);
        else nn_tuple_set(t, i, x);
    }
    return t;
}

static nn_object *t_mktime(void *ud, nn_object *args, nn_object *kwargs)
{
    struct tm tm;
    if (repl_mod_nargs("mktime", args, kwargs, 1, 1) < 0 || tuple_tm("mktime", nn_tuple_get(args, 0), &tm) < 0) return NULL;
    time_t t = mktime(&tm);
    if (t == (time_t)-1 && tm.tm_year != 69) {
        repl_raise_exc(EXC_OverflowError, "mktime argument out of range");
        return NULL;
    }
    return nn_float_new((double)t);
}

/* strftime(format[, t]): t a time tuple, or the local time now. */
static nn_object *t_strftime(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("strftime", args, kwargs, 1, 2) < 0) return NULL;
    nn_object *f = nn_tuple_get(args, 0);
    if (!nn_is_str(f)) {
        repl_raise_exc(EXC_TypeError, "strftime() argument 1 must be str, not %s", repl_value_type_name(f));
        return NULL;
    }
    struct tm tm;
    if (nn_tuple_len(args) > 1) {
        if (tuple_tm("strftime", nn_tuple_get(args, 1), &tm) < 0) return NULL;
        char zone[8];
        struct tm norm = tm; /* the zone name of that date, as CPython fills it in */
        if (mktime(&norm) != (time_t)-1 && strftime(zone, sizeof zone, "%Z", &norm)) tm.tm_zone = norm.tm_zone;
        tm.tm_gmtoff = norm.tm_gmtoff;
    } else {
        time_t now = time(NULL);
        localtime_r(&now, &tm);
    }
    if (!nn_str_len(f)) return nn_str_new("");
    char buf[1024];
    size_t n = strftime(buf, sizeof buf, nn_str_cstr(f), &tm);
    return nn_str_from(buf, n);
}

#define CLOCK_DEFS(name, id)                                                                        \
    {#name, t_##name, #name "()\nThe clock " #name " in seconds, as a float."},                   \
    {#name "_ns", t_##name##_ns, #name "_ns()\nThe clock " #name " in nanoseconds, as an int."},
static const repl_mod_fn time_functions[] = {
    CLOCKS(CLOCK_DEFS)
    {"sleep", t_sleep, "sleep(seconds, /)\nDelay execution for a given number of seconds (a float for fractions)."},
    {"strftime", t_strftime, "strftime(format[, tuple]) -> string\nConvert a time tuple (the local time now by default) to a string according to a format specification."},
    {"mktime", t_mktime, "mktime(tuple) -> floating point number\nConvert a time tuple in local time to seconds since the Epoch."},
    {"_tm", t_tm, "_tm(secs, utc)\nThe local (or UTC) time of secs as a 9-tuple."},
};

/* source: begin */
static const char source[] =
    "# struct_time, localtime, gmtime, asctime, ctime over the C helpers above.\n"
    "\n"
    "from collections import namedtuple as _namedtuple\n"
    "\n"
    "\n"
    "class struct_time(_namedtuple('struct_time', 'tm_year tm_mon tm_mday tm_hour tm_min tm_sec tm_wday tm_yday tm_isdst')):\n"
    "    def __repr__(self):\n"
    "        return 'time.' + super().__repr__()\n"
    "\n"
    "\n"
    "def localtime(secs=None):\n"
    "    return struct_time(*_tm(secs, False))\n"
    "\n"
    "\n"
    "def gmtime(secs=None):\n"
    "    return struct_time(*_tm(secs, True))\n"
    "\n"
    "\n"
    "_DAYS = ('Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun')\n"
    "_MONTHS = ('Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec')\n"
    "\n"
    "\n"
    "def asctime(t=None):\n"
    "    if t is None:\n"
    "        t = localtime()\n"
    "    return '%s %s %2d %02d:%02d:%02d %d' % (_DAYS[t[6]], _MONTHS[t[1] - 1], t[2], t[3], t[4], t[5], t[0])\n"
    "\n"
    "\n"
    "def ctime(secs=None):\n"
    "    return asctime(localtime(secs))\n";
/* source: end */

nn_object *repl_mod_time(void)
{
    return repl_mod_from_source("time", time_functions, sizeof time_functions / sizeof *time_functions, source);
}
