/*
 * mod_time.c — the module time: the clocks (time, perf_counter, monotonic,
 * process_time and their _ns forms, as floats of seconds or int nanoseconds,
 * from clock_gettime's clocks as CPython's), sleep (Ctrl-C ends it with
 * KeyboardInterrupt) and strftime of the local time now. Not here: struct_time,
 * localtime/gmtime/mktime, strftime of a given time tuple.
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

static nn_object *t_strftime(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("strftime", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *f = nn_tuple_get(args, 0);
    if (!nn_is_str(f)) {
        repl_raise_exc(EXC_TypeError, "strftime() argument 1 must be str, not %s", repl_value_type_name(f));
        return NULL;
    }
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
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
    {"strftime", t_strftime, "strftime(format, /)\nThe local time now as a string in format."},
};

nn_object *repl_mod_time(void)
{
    nn_object *m = repl_module_new("time");
    if (m && repl_mod_add_fns(m, time_functions, sizeof time_functions / sizeof *time_functions) < 0) NN_SET(m, NULL);
    return m;
}
