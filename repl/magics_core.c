/*
 * magics_core.c — the notebook's own magics, with IPython 8's output formats:
 * %history %who %whos %time %timeit %reset %run %load %config %help/%magic.
 * The session magics live in app_sessions.c, the inspector's in
 * app_inspect.c; repl_magic_find searches the three tables.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "app.h"

/* ------------------------------------------------------------------ helpers */

static bool starts_with_option(const char **args, const char *opt)
{
    size_t n = strlen(opt);
    if (strncmp(*args, opt, n) != 0 || ((*args)[n] && !isspace((unsigned char)(*args)[n]))) return false;
    *args += n;
    while (isspace((unsigned char)**args)) (*args)++;
    return true;
}

/* The whole of a file as a new nn_malloc'd string, or NULL with errno set. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = nn_malloc((size_t)len + 1)) != NULL) {
        size_t got = fread(buf, 1, (size_t)len, f);
        buf[got] = '\0';
    }
    fclose(f);
    if (!buf) nn_error_clear();
    return buf;
}

/* IPython's _format_time: "1.23 µs", "456 ms", "1min 3s". */
static void format_time(double seconds, char *out, size_t n)
{
    if (seconds >= 60.0) {
        static const struct {
            const char *suffix;
            double length;
        } parts[] = {{"d", 86400}, {"h", 3600}, {"min", 60}, {"s", 1}};
        size_t used = 0;
        double left = seconds;
        out[0] = '\0';
        for (size_t i = 0; i < 4; i++) {
            long long value = (long long)(left / parts[i].length);
            if (value > 0) {
                left = fmod(left, parts[i].length);
                used += (size_t)snprintf(out + used, used < n ? n - used : 0, "%s%lld%s", used ? " " : "", value,
                                         parts[i].suffix);
            }
            if (left < 1) break;
        }
        return;
    }
    static const char *const units[] = {"s", "ms", "\xc2\xb5s", "ns"};
    static const double scale[] = {1, 1e3, 1e6, 1e9};
    int order = 3;
    if (seconds > 0.0) {
        order = -(int)floor(floor(log10(seconds)) / 3);
        if (order > 3) order = 3;
        if (order < 0) order = 0;
    }
    snprintf(out, n, "%.3g %s", seconds * scale[order], units[order]);
}

/* An integer with thousands separators, as Python's "{:,}". */
static void format_thousands(long long v, char *out, size_t n)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%lld", v < 0 ? -v : v);
    size_t o = 0;
    if (v < 0 && o + 1 < n) out[o++] = '-';
    for (int i = 0; i < len && o + 1 < n; i++) {
        out[o++] = digits[i];
        if ((len - i - 1) % 3 == 0 && i != len - 1 && o + 1 < n) out[o++] = ',';
    }
    out[o] = '\0';
}

static double wall_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ %history */

/* One IPython range: "N", "N-M" (inclusive) or "N:M" (M excluded). */
static bool parse_range(const char *word, int64_t last, int64_t *from, int64_t *to)
{
    char *end;
    long long a = strtoll(word, &end, 10);
    if (end == word || a < 0) return false;
    if (*end == '\0') {
        *from = *to = a;
        return true;
    }
    char sep = *end;
    if (sep != '-' && sep != ':') return false;
    const char *rest = end + 1;
    long long b = *rest ? strtoll(rest, &end, 10) : last + (sep == ':');
    if (*rest && (end == rest || *end)) return false;
    *from = a;
    *to = sep == ':' ? b - 1 : b;
    return true;
}

static void history_line(repl_app *app, int64_t i, bool numbered)
{
    nn_object *cell = nn_list_get(app->in_list, (size_t)i);
    if (!nn_is_str(cell)) return; /* In is the user's to change */
    const char *text = nn_str_cstr(cell);
    if (numbered) repl_app_printf(app, "%4lld:%s", (long long)i, strchr(text, '\n') ? "\n" : " ");
    repl_app_printf(app, "%s\n", text);
}

static int magic_history(repl_app *app, const char *args)
{
    bool numbered = starts_with_option(&args, "-n");
    int64_t last = (int64_t)nn_list_len(app->in_list) - 1;
    if (!*args) {
        for (int64_t i = 1; i <= last; i++) history_line(app, i, numbered);
        return 0;
    }
    char word[64];
    for (const char *p = args; *p;) {
        size_t len = strcspn(p, " \t");
        snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), p);
        int64_t from, to;
        if (parse_range(word, last, &from, &to)) /* IPython skips what is not a range */
            for (int64_t i = from < 1 ? 1 : from; i <= to && i <= last; i++) history_line(app, i, numbered);
        p += len;
        while (isspace((unsigned char)*p)) p++;
    }
    return 0;
}

/* ------------------------------------------------------------------ %who, %whos */

/* The user's names, sorted, optionally only those of the types listed in
   args ("%who int Tensor"): a new nn_malloc'd array of *n borrowed names. */
static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static const char **user_names(repl_app *app, const char *types, size_t *n)
{
    size_t total;
    const char **names = repl_global_names(app->interp, &total);
    *n = 0;
    if (!names) return NULL;
    for (size_t i = 0; i < total; i++) {
        const char *name = names[i];
        nn_object *v = repl_get_global(app->interp, name);
        if (repl_app_is_hidden(app, name)) continue;
        if (*types) { /* a type name among the words of types */
            const char *tn = repl_value_type_name(v), *p = types;
            size_t tl = strlen(tn);
            bool match = false;
            while (*p && !match) {
                size_t len = strcspn(p, " \t");
                match = len == tl && !strncmp(p, tn, len);
                p += len;
                while (isspace((unsigned char)*p)) p++;
            }
            if (!match) continue;
        }
        names[(*n)++] = name;
    }
    qsort(names, *n, sizeof *names, cmp_str);
    return names;
}

/* IPython's message when there is nothing to list; true when it printed it. */
static bool nothing_to_list(repl_app *app, size_t n, const char *types)
{
    if (n > 0) return false;
    repl_app_printf(app, "%s\n",
                    *types ? "No variables match your requested type." : "Interactive namespace is empty.");
    return true;
}

static int magic_who(repl_app *app, const char *args)
{
    size_t n;
    const char **names = user_names(app, args, &n);
    if (!names && nn_error_current()) return -1;
    if (!nothing_to_list(app, n, args)) {
        for (size_t i = 0; i < n; i++) {
            repl_app_printf(app, "%s\t ", names[i]);
            if (i % 9 == 8) repl_app_write(app, "\n", 1);
        }
        repl_app_write(app, "\n", 1);
    }
    nn_free(names);
    return 0;
}

/* %whos's Data/Info column for v into a new nn_malloc'd string. */
static char *whos_info(repl_app *app, nn_object *v)
{
    char buf[256];
    if (nn_is_tensor(v)) { /* IPython's line for numpy arrays */
        nn_tensor *t = (nn_tensor *)v;
        char shape[160] = "";
        size_t used = 0;
        for (int d = 0; d < t->ndim && used < sizeof shape; d++)
            used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%lld", d ? "x" : "", (long long)t->sizes[d]);
        long long elems = (long long)nn_numel(t), bytes = elems * (long long)nn_dtype_size(t->dtype);
        int len = snprintf(buf, sizeof buf, "%s: %lld elems, type `%s`, %lld bytes", shape, elems,
                           nn_dtype_short_name(t->dtype), bytes);
        if (bytes >= 100000 && len > 0 && (size_t)len < sizeof buf) { /* the size as Python prints the float */
            bool kb = bytes < 1048576;
            nn_object *size = nn_float_new((double)bytes / (kb ? 1024 : 1048576));
            char *text = size ? nn_repr(size) : NULL;
            NN_RELEASE(size);
            if (!text) return NULL;
            snprintf(buf + len, sizeof buf - (size_t)len, " (%s %s)", text, kb ? "kb" : "Mb");
            nn_free(text);
        }
        return nn_strdup(buf);
    }
    if (nn_is_module(v)) {
        nn_object *params = nn_module_parameters((nn_module *)v, true);
        if (!params) return NULL;
        long long count = 0;
        for (size_t i = 0; i < nn_list_len(params); i++)
            count += (long long)nn_numel((nn_tensor *)nn_list_get(params, i));
        NN_RELEASE(params);
        char num[32];
        format_thousands(count, num, sizeof num);
        snprintf(buf, sizeof buf, "%s parameter%s", num, count == 1 ? "" : "s");
        return nn_strdup(buf);
    }
    if (nn_is_list(v) || nn_is_dict(v) || v->type == &nn_tuple_type) {
        size_t len = nn_is_list(v) ? nn_list_len(v) : nn_is_dict(v) ? nn_dict_len(v) : nn_tuple_len(v);
        snprintf(buf, sizeof buf, "n=%zu", len);
        return nn_strdup(buf);
    }
    char *s = repl_str(app->interp, v);
    if (!s) {
        nn_error_clear();
        return nn_strdup("<object (str() failed)>");
    }
    /* newlines shown as \n; long texts keep their first and last 25 characters */
    size_t len = strlen(s), extra = 0;
    for (size_t i = 0; i < len; i++) extra += s[i] == '\n';
    char *flat = nn_malloc(len + extra + 1);
    if (!flat) {
        nn_free(s);
        return NULL;
    }
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\n') flat[o++] = '\\', flat[o++] = 'n';
        else flat[o++] = s[i];
    }
    flat[o] = '\0';
    nn_free(s);
    if (o >= 50) {
        memmove(flat + 30, flat + o - 25, 26);
        memcpy(flat + 25, "<...>", 5);
    }
    return flat;
}

static int magic_whos(repl_app *app, const char *args)
{
    size_t n;
    const char **names = user_names(app, args, &n);
    if (!names && nn_error_current()) return -1;
    if (nothing_to_list(app, n, args)) {
        nn_free(names);
        return 0;
    }
    size_t name_w = strlen("Variable"), type_w = strlen("Type");
    for (size_t i = 0; i < n; i++) {
        size_t a = strlen(names[i]), b = strlen(repl_value_type_name(repl_get_global(app->interp, names[i])));
        if (a > name_w) name_w = a;
        if (b > type_w) type_w = b;
    }
    name_w += 3;
    type_w += 3;
    repl_app_printf(app, "%-*s%-*s Data/Info\n", (int)name_w, "Variable", (int)type_w, "Type");
    for (size_t i = 0; i < name_w + type_w + strlen("Data/Info") + 1; i++) repl_app_write(app, "-", 1);
    repl_app_write(app, "\n", 1);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        nn_object *v = repl_get_global(app->interp, names[i]);
        char *info = whos_info(app, v);
        if (!info) {
            rc = -1;
            break;
        }
        repl_app_printf(app, "%-*s%-*s %s\n", (int)name_w, names[i], (int)type_w, repl_value_type_name(v), info);
        nn_free(info);
    }
    nn_free(names);
    return rc;
}

/* ------------------------------------------------------------------ %time, %timeit */

static double cpu_seconds(const struct timeval *tv) { return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6; }

static int magic_time(repl_app *app, const char *args)
{
    if (!*args) return repl_app_usage_error(app, "%%time needs a statement: %%time STMT");
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    double wall0 = wall_clock();
    nn_object *value = NULL;
    /* a newline ends the statement as an empty line ends a cell: a compound
       statement (for ...: pass) is complete */
    char *stmt = nn_malloc(strlen(args) + 2);
    if (!stmt) return -1;
    sprintf(stmt, "%s\n", args);
    int rc = repl_app_exec(app, stmt, "<timed exec>", REPL_PARSE_SINGLE, &value);
    nn_free(stmt);
    double wall = wall_clock() - wall0;
    getrusage(RUSAGE_SELF, &after);
    if (rc == -2) {
        rc = repl_app_usage_error(app, "%%time: incomplete statement");
    }
    if (rc != 0) return -1; /* IPython prints the traceback and no times */
    double user = cpu_seconds(&after.ru_utime) - cpu_seconds(&before.ru_utime);
    double sys = cpu_seconds(&after.ru_stime) - cpu_seconds(&before.ru_stime);
    char u[32], s[32], t[32], w[32];
    format_time(user, u, sizeof u);
    format_time(sys, s, sizeof s);
    format_time(user + sys, t, sizeof t);
    format_time(wall, w, sizeof w);
    repl_app_printf(app, "CPU times: user %s, sys: %s, total: %s\nWall time: %s\n", u, s, t, w);
    app->magic_result = value; /* echoed as Out[n], as IPython returns the value */
    return 0;
}

/* The statement runs inside a function, as IPython's timeit template does:
   its assignments are local, it reads the notebook's names; the setup code
   (%%timeit's first line) runs before the clock starts, in each run. */
#define TIMEIT_FUNC "_nnscope_timeit"
#define TIMEIT_CLOCK "_nnscope_clock"

static nn_object *timeit_clock(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud, (void)args, (void)kwargs;
    return nn_float_new(wall_clock());
}

/* text with each of its lines indented by `indent` spaces, appended to b
   (nn_malloc'd, grown as needed at *len / *cap); false on MemoryError. */
static bool append_indented(char **b, size_t *len, size_t *cap, const char *text, int indent)
{
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (*len + n + (size_t)indent + 2 > *cap) {
            size_t c = (*cap + n + (size_t)indent + 2) * 2;
            char *grown = nn_realloc(*b, c);
            if (!grown) return false;
            *b = grown;
            *cap = c;
        }
        *len += (size_t)sprintf(*b + *len, "%*s%.*s\n", n ? indent : 0, "", (int)n, p);
        p += n + (p[n] == '\n');
    }
    return true;
}

/* One run of `number` loops: its seconds into *out. 0 or -1 (the statement raised). */
static int timeit_run(repl_app *app, long long number, double *out)
{
    char call[64];
    snprintf(call, sizeof call, TIMEIT_FUNC "(%lld)", number);
    nn_object *seconds = NULL;
    int rc = repl_app_exec(app, call, "<magic-timeit>", REPL_PARSE_EVAL, &seconds);
    *out = rc == 0 && seconds ? nn_float_value(seconds) : 0;
    NN_RELEASE(seconds);
    return rc;
}

/* Defines the timing function for stmt (and setup, or NULL): 0 or -1. */
static int timeit_define(repl_app *app, const char *setup, const char *stmt)
{
    size_t len = 0, cap = 256;
    char *src = nn_malloc(cap);
    bool ok = src != NULL;
    if (ok) len = (size_t)sprintf(src, "def " TIMEIT_FUNC "(_n):\n");
    if (ok && setup) ok = append_indented(&src, &len, &cap, setup, 4);
    ok = ok && append_indented(&src, &len, &cap, "_t0 = " TIMEIT_CLOCK "()\nfor _i in range(_n):", 4) &&
         append_indented(&src, &len, &cap, stmt, 8) &&
         append_indented(&src, &len, &cap, "return " TIMEIT_CLOCK "() - _t0", 4);
    nn_object *clock = ok ? nn_cfunction_new(TIMEIT_CLOCK, timeit_clock, NULL, NULL) : NULL;
    int rc = clock ? repl_set_global(app->interp, TIMEIT_CLOCK, clock) : -1;
    NN_RELEASE(clock);
    if (rc == 0) rc = repl_app_exec(app, src, "<magic-timeit>", REPL_PARSE_FILE, NULL);
    nn_free(src);
    if (rc == -2) rc = repl_app_usage_error(app, "%%timeit: incomplete statement");
    return rc == 0 ? 0 : -1;
}

/* %timeit's options (-n N, -r R) at the start of *args, which is moved past them. */
static int timeit_options(repl_app *app, const char **args, long long *number, long long *repeat)
{
    while ((*args)[0] == '-' && ((*args)[1] == 'n' || (*args)[1] == 'r')) {
        char which = (*args)[1], *end;
        const char *p = *args + 2;
        while (isspace((unsigned char)*p)) p++;
        long long v = strtoll(p, &end, 10);
        if (end == p || v < 1) return repl_app_usage_error(app, "%%timeit: -%c needs a positive integer", which);
        if (which == 'n') *number = v;
        else *repeat = v;
        *args = end;
        while (isspace((unsigned char)**args)) (*args)++;
    }
    return 0;
}

/* Times stmt as IPython 8's %timeit: R runs (default 7) of N loops (default:
   the first of 1, 10, 100, ... whose run takes at least 0.2 s), then its line. */
static int timeit_stmt(repl_app *app, long long number, long long repeat, const char *setup, const char *stmt)
{
    int rc = timeit_define(app, setup, stmt);
    double *runs = rc == 0 ? nn_malloc((size_t)repeat * sizeof *runs) : NULL, t = 0;
    if (!runs) rc = -1;
    if (rc == 0 && number == 0) { /* IPython: the loop count that takes at least 0.2 s */
        for (int index = 0; index < 10 && rc == 0; index++) {
            number = 1;
            for (int k = 0; k < index; k++) number *= 10;
            rc = timeit_run(app, number, &t);
            if (t >= 0.2) break;
        }
    }
    for (long long r = 0; r < repeat && rc == 0; r++) rc = timeit_run(app, number, &runs[r]);
    repl_del_global(app->interp, TIMEIT_FUNC);
    repl_del_global(app->interp, TIMEIT_CLOCK);
    if (rc == 0) {
        double best = runs[0], worst = runs[0], sum = 0, sq = 0;
        for (long long r = 0; r < repeat; r++) {
            double per = runs[r] / (double)number;
            sum += per;
            if (runs[r] < best) best = runs[r];
            if (runs[r] > worst) worst = runs[r];
        }
        double mean = sum / (double)repeat;
        for (long long r = 0; r < repeat; r++) {
            double d = runs[r] / (double)number - mean;
            sq += d * d;
        }
        double stdev = sqrt(sq / (double)repeat);
        best /= (double)number;
        worst /= (double)number;
        if (worst > 4 * best && best > 0 && worst > 1e-6)
            repl_app_printf(app,
                            "The slowest run took %0.2f times longer than the fastest. This could mean that an "
                            "intermediate result is being cached.\n",
                            worst / best);
        char m[32], s[32], loops[32];
        format_time(mean, m, sizeof m);
        format_time(stdev, s, sizeof s);
        format_thousands(number, loops, sizeof loops);
        repl_app_printf(app, "%s \xc2\xb1 %s per loop (mean \xc2\xb1 std. dev. of %lld run%s, %s loop%s each)\n", m, s,
                        repeat, repeat == 1 ? "" : "s", loops, number == 1 ? "" : "s");
    }
    nn_free(runs);
    return rc == 0 ? 0 : -1;
}

static int magic_timeit(repl_app *app, const char *args)
{
    long long number = 0, repeat = 7;
    if (timeit_options(app, &args, &number, &repeat) < 0) return -1;
    if (!*args) return repl_app_usage_error(app, "%%timeit needs a statement: %%timeit [-n N] [-r R] STMT");
    return timeit_stmt(app, number, repeat, NULL, args);
}

/* %%time: the cell's body, timed as one statement (nothing may follow %%time). */
static int cell_time(repl_app *app, const char *line, const char *body)
{
    if (*line) return repl_app_usage_error(app, "Can't use statement directly after '%%%%time'!");
    return magic_time(app, *body ? body : "pass");
}

/* %%timeit [-n N] [-r R] [SETUP]: the body is the statement, SETUP runs before each run's clock. */
static int cell_timeit(repl_app *app, const char *line, const char *body)
{
    long long number = 0, repeat = 7;
    if (timeit_options(app, &line, &number, &repeat) < 0) return -1;
    return timeit_stmt(app, number, repeat, *line ? line : NULL, *body ? body : "pass");
}

static const struct {
    const char *name;
    int (*run)(repl_app *app, const char *line, const char *body);
} cell_magics[] = {{"time", cell_time}, {"timeit", cell_timeit}};

int repl_app_run_cell_magic(repl_app *app, const char *cell)
{
    const char *name = cell + 2, *nl = strchr(cell, '\n');
    size_t len = 0;
    while (isalnum((unsigned char)name[len]) || name[len] == '_') len++;
    const char *body = nl ? nl + 1 : "";
    size_t line_len = (nl ? (size_t)(nl - name) : strlen(name)) - len;
    char *line = nn_malloc(line_len + 1);
    if (!line) return -1;
    const char *l = name + len;
    while (line_len > 0 && isspace((unsigned char)*l)) l++, line_len--;
    while (line_len > 0 && isspace((unsigned char)l[line_len - 1])) line_len--;
    memcpy(line, l, line_len);
    line[line_len] = '\0';
    int rc = 0;
    bool found = false;
    for (size_t i = 0; i < sizeof cell_magics / sizeof *cell_magics && !found; i++)
        if ((found = len == strlen(cell_magics[i].name) && !strncmp(name, cell_magics[i].name, len)))
            rc = cell_magics[i].run(app, line, body);
    if (!found) {
        size_t shown = strcspn(name, " \t\n");
        rc = repl_app_usage_error(app, "Cell magic `%%%%%.*s` not found.", (int)shown, name);
    }
    nn_free(line);
    return rc;
}

/* ------------------------------------------------------------------ %reset */

static int magic_reset(repl_app *app, const char *args)
{
    bool force = starts_with_option(&args, "-f");
    if (*args) return repl_app_usage_error(app, "%%reset takes only -f, not '%s'", args);
    if (!force && !repl_app_ask_yes_no(app, "Once deleted, variables cannot be recovered. Proceed (y/[n])?")) {
        repl_app_write(app, "Nothing done.\n", 14);
        return 0;
    }
    size_t n;
    const char **names = repl_global_names(app->interp, &n);
    if (!names && n == 0 && nn_error_current()) return -1;
    /* copies: deleting changes the table the borrowed names live in */
    char **copies = nn_calloc(n ? n : 1, sizeof *copies);
    for (size_t i = 0; copies && i < n; i++) copies[i] = nn_strdup(names[i]);
    nn_free(names);
    if (!copies) return -1;
    for (size_t i = 0; i < n; i++) {
        if (copies[i] && (copies[i][0] == '_' || !repl_app_is_hidden(app, copies[i])))
            repl_del_global(app->interp, copies[i]);
        nn_free(copies[i]);
    }
    nn_free(copies);
    repl_app_inspect_reset(app); /* the model is gone: its inspector and breakpoint too */
    /* what the app started with (In, Out, inspect) comes back if it was rebound */
    size_t pos = 0;
    nn_object *key, *value;
    while (nn_dict_next(app->hidden, &pos, &key, &value))
        if (repl_set_global(app->interp, nn_str_cstr(key), value) < 0) return -1;
    return repl_app_clear_outputs(app);
}

/* ------------------------------------------------------------------ %run, %load */

static int magic_run(repl_app *app, const char *args)
{
    if (!*args) return repl_app_usage_error(app, "%%run needs a file: %%run FILE");
    char *source = read_file(args);
    if (!source) return repl_app_usage_error(app, "File `'%s'` not found.", args);
    int rc = repl_app_exec(app, source, args, REPL_PARSE_FILE, NULL);
    nn_free(source);
    return rc == 0 ? 0 : -1;
}

static int magic_load(repl_app *app, const char *args)
{
    if (!*args) return repl_app_usage_error(app, "%%load needs a file: %%load FILE");
    char *source = read_file(args);
    if (!source)
        return repl_app_usage_error(app, "'%s' was not found in history, as a file, url, nor in the user namespace.",
                                    args);
    /* IPython replaces the next input with "# %load FILE" and the file */
    size_t len = strlen(args) + strlen(source) + 16;
    char *text = nn_malloc(len);
    if (!text) {
        nn_free(source);
        return -1;
    }
    size_t n = strlen(source);
    while (n > 0 && source[n - 1] == '\n') source[--n] = '\0';
    snprintf(text, len, "# %%load %s\n%s", args, source);
    nn_free(source);
    if (app->opt.interactive) {
        nn_free(app->pending_input);
        app->pending_input = text;
    } else { /* no next prompt to fill: show what would be loaded */
        repl_app_printf(app, "%s\n", text);
        nn_free(text);
    }
    return 0;
}

/* ------------------------------------------------------------------ %config */

static int magic_config(repl_app *app, const char *args)
{
    if (!*args) {
        repl_app_printf(app,
                        "Settings (change one with %%config NAME=VALUE):\n"
                        "  cache_mb = %zu    memory cap of the Out cache's tensors, in MiB (oldest dropped first)\n",
                        app->cache_bytes_cap >> 20);
        return 0;
    }
    const char *eq = strchr(args, '=');
    size_t name_len = eq ? (size_t)(eq - args) : strlen(args);
    while (name_len > 0 && isspace((unsigned char)args[name_len - 1])) name_len--;
    if (name_len != strlen("cache_mb") || strncmp(args, "cache_mb", name_len) != 0)
        return repl_app_usage_error(app, "unknown setting '%.*s' (settings: cache_mb)", (int)name_len, args);
    if (!eq) {
        repl_app_printf(app, "cache_mb = %zu\n", app->cache_bytes_cap >> 20);
        return 0;
    }
    const char *value = eq + 1;
    while (isspace((unsigned char)*value)) value++;
    char *end;
    errno = 0;
    long long mb = strtoll(value, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    if (end == value || *end || mb < 0 || errno || mb > (long long)(SIZE_MAX >> 21))
        return repl_app_usage_error(app, "cache_mb must be a whole number of MiB >= 0, not '%s'", value);
    repl_app_set_cache_cap(app, (size_t)mb << 20);
    return 0;
}

/* ------------------------------------------------------------------ %help, %magic */

static int magic_help(repl_app *app, const char *args)
{
    const repl_magic *const tables[] = {repl_magics_core, repl_magics_sessions, repl_magics_inspect, repl_magics_shell, repl_magics_paste,
                                        repl_magics_lesson, repl_magics_debug};
    size_t width = 0;
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const repl_magic *m = tables[t]; m->name; m++)
            if (strlen(m->usage) > width) width = strlen(m->usage);
    repl_app_printf(app, "Magics (a line starting with %%; obj? or help(obj) shows an object's documentation):\n");
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const repl_magic *m = tables[t]; m->name; m++)
            repl_app_printf(app, "  %-*s  %s\n", (int)width, m->usage, m->summary);
    repl_app_printf(app, "Built-ins: plot(f, lo=-3, hi=3, grad=False) draws functions; summary(model, input_size) "
                         "tabulates layers.\n");
    return 0;
}

const repl_magic repl_magics_core[] = {
    {"history", "%history [-n] [RANGE ...]", "print the input history (ranges N, N-M, N:M; -n numbers the cells)",
     magic_history},
    {"who", "%who [TYPE ...]", "list the names you defined (optionally only of the given types)", magic_who},
    {"whos", "%whos [TYPE ...]", "table of your names: type, shape and dtype of tensors, parameters of modules",
     magic_whos},
    {"time", "%time STMT", "run STMT once and print its CPU and wall time (%%time: the cell)", magic_time},
    {"timeit", "%timeit [-n N] [-r R] STMT", "time STMT over many loops: mean \xc2\xb1 std. dev. of R runs (%%timeit: the cell)",
     magic_timeit},
    {"reset", "%reset [-f]", "delete every name you defined and the Out cache (-f: without asking)", magic_reset},
    {"run", "%run FILE", "run a script in the notebook's namespace", magic_run},
    {"load", "%load FILE", "put a file's text in the next input", magic_load},
    {"config", "%config [NAME=VALUE]", "list or change settings (cache_mb=N: the Out cache's cap)", magic_config},
    {"help", "%help", "this list", magic_help},
    {"magic", "%magic", "this list", magic_help},
    {NULL, NULL, NULL, NULL},
};

const repl_magic *repl_magic_find(const char *name)
{
    const repl_magic *const tables[] = {repl_magics_core, repl_magics_sessions, repl_magics_inspect, repl_magics_shell, repl_magics_paste,
                                        repl_magics_lesson, repl_magics_debug};
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const repl_magic *m = tables[t]; m->name; m++)
            if (!strcmp(m->name, name)) return m;
    return NULL;
}
