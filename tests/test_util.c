/*
 * test_util.c — helpers shared by the cmocka test programs.
 */
#include "test_util.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

nn_tensor *tu_tensor(nn_dtype dtype, int ndim, const int64_t *sizes, const double *values)
{
    nn_tensor *t = nn_empty(ndim, sizes, dtype);
    if (!t) fail_msg("nn_empty: %s", nn_error_message());
    int64_t n = nn_numel(t);
    size_t es = nn_dtype_size(dtype);
    for (int64_t i = 0; i < n; i++) {
        char *p = (char *)t->storage->data + (size_t)i * es;
        switch (dtype) {
        case NN_INT64: *(int64_t *)p = (int64_t)values[i]; break;
        case NN_INT32: *(int32_t *)p = (int32_t)values[i]; break;
        case NN_BOOL: *(uint8_t *)p = values[i] != 0; break;
        case NN_FLOAT64: *(double *)p = values[i]; break;
        case NN_FLOAT32: *(float *)p = (float)values[i]; break;
        case NN_FLOAT16: *(uint16_t *)p = nn_float_to_half((float)values[i]); break;
        case NN_BFLOAT16: *(uint16_t *)p = nn_float_to_bfloat16((float)values[i]); break;
        default: fail_msg("bad dtype");
        }
    }
    return t;
}

void tu_assert_values(const nn_tensor *t, int ndim, const int64_t *sizes, const double *values, double tol)
{
    if (!t) fail_msg("tensor is NULL: %s", nn_error_message());
    assert_int_equal(t->ndim, ndim);
    for (int d = 0; d < ndim; d++) assert_int_equal(t->sizes[d], sizes[d]);
    int64_t n = nn_numel(t);
    double *got = malloc(sizeof(double) * (size_t)(n ? n : 1));
    nn_to_doubles(t, got);
    for (int64_t i = 0; i < n; i++) {
        double want = values[i];
        bool ok = (isnan(want) && isnan(got[i])) || got[i] == want || fabs(got[i] - want) <= tol * (1 + fabs(want));
        if (!ok) {
            double g = got[i];
            free(got);
            fail_msg("element %lld: got %.9g, want %.9g", (long long)i, g, want);
        }
    }
    free(got);
}

void tu_assert_error(nn_error_kind kind, const char *needle)
{
    if (nn_error_current() != kind)
        fail_msg("expected %s, got %s: %s", nn_error_kind_name(kind), nn_error_kind_name(nn_error_current()),
                 nn_error_message());
    if (needle && !strstr(nn_error_message(), needle))
        fail_msg("message '%s' does not contain '%s'", nn_error_message(), needle);
    nn_error_clear();
}

void *tu_ok(void *ptr)
{
    if (!ptr) fail_msg("unexpected failure: %s: %s", nn_error_kind_name(nn_error_current()), nn_error_message());
    return ptr;
}

void tu_check(int status)
{
    if (status != 0) fail_msg("unexpected failure: %s: %s", nn_error_kind_name(nn_error_current()), nn_error_message());
}

char *tu_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) fail_msg("cannot read %s", path);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

nn_dtype tu_dtype(const char *name)
{
    if (!strncmp(name, "torch.", 6)) name += 6;
    for (int d = 0; d < NN_DTYPE_COUNT; d++)
        if (!strcmp(nn_dtype_short_name((nn_dtype)d), name)) return (nn_dtype)d;
    fail_msg("fixture: unknown dtype %s", name);
    return NN_FLOAT32;
}

nn_tensor *tu_parse_tensor(char **p)
{
    char *end;
    while (**p == ' ') (*p)++;
    char dt[16];
    size_t n = strcspn(*p, " ");
    snprintf(dt, sizeof dt, "%.*s", (int)n, *p);
    *p += n;
    int ndim = (int)strtol(*p, &end, 10);
    *p = end;
    int64_t sizes[NN_MAX_DIMS], numel = 1;
    for (int d = 0; d < ndim; d++) {
        sizes[d] = strtoll(*p, &end, 10);
        *p = end;
        numel *= sizes[d];
    }
    double *values = malloc(sizeof(double) * (size_t)(numel ? numel : 1));
    for (int64_t i = 0; i < numel; i++) {
        values[i] = strtod(*p, &end);
        if (end == *p) fail_msg("fixture: short tensor");
        *p = end;
    }
    nn_tensor *t = tu_tensor(tu_dtype(dt), ndim, sizes, values);
    free(values);
    return t;
}

long tu_fail_at = -1, tu_alloc_count;

void *tu_failing_alloc(void *ud, void *ptr, size_t n)
{
    (void)ud;
    if (n == 0) {
        free(ptr);
        return NULL;
    }
    if (++tu_alloc_count == tu_fail_at) return NULL;
    return realloc(ptr, n);
}

void tu_install_failing_alloc(tu_allocator *saved)
{
    nn_get_allocator(&saved->fn, &saved->ud);
    nn_set_allocator(tu_failing_alloc, NULL);
    tu_fail_at = -1;
    tu_alloc_count = 0;
}

void tu_restore_allocator(const tu_allocator *saved) { nn_set_allocator(saved->fn, saved->ud); }

void tu_capture_write(void *ud, const char *s, size_t n)
{
    tu_capture *c = ud;
    if (c->len + n + 1 > c->cap) {
        c->cap = (c->len + n + 1) * 2;
        c->buf = realloc(c->buf, c->cap);
    }
    memcpy(c->buf + c->len, s, n);
    c->len += n;
    c->buf[c->len] = 0;
}

void tu_capture_reset(tu_capture *c)
{
    c->len = 0;
    tu_capture_write(c, "", 0);
}

static char *transcript; /* the lines tu_logf added */
static size_t transcript_len;

void tu_logf(const char *fmt, ...)
{
    char buf[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t n = strlen(buf);
    transcript = realloc(transcript, transcript_len + n + 2);
    memcpy(transcript + transcript_len, buf, n);
    transcript_len += n;
    transcript[transcript_len++] = '\n';
    transcript[transcript_len] = '\0';
}

const char *tu_transcript(void) { return transcript ? transcript : ""; }

void tu_transcript_reset(void)
{
    free(transcript);
    transcript = NULL;
    transcript_len = 0;
}

void tu_transcript_compare(const char *path, double tol)
{
    char *want = tu_read_file(path);
    char *wsave = NULL, *gsave = NULL;
    char *wl = strtok_r(want, "\n", &wsave), *gl = strtok_r(transcript, "\n", &gsave);
    int line = 1;
    for (; wl && gl; wl = strtok_r(NULL, "\n", &wsave), gl = strtok_r(NULL, "\n", &gsave), line++) {
        if (!strncmp(wl, "values ", 7) && !strncmp(gl, "values ", 7)) {
            char *wp = wl + 7, *gp = gl + 7;
            /* same label, then the numbers */
            size_t lw = strcspn(wp, "["), lg = strcspn(gp, "[");
            if (lw != lg || strncmp(wp, gp, lw)) fail_msg("line %d:\n want %s\n got  %s", line, wl, gl);
            wp += lw + 1;
            gp += lg + 1;
            for (;;) {
                char *we, *ge;
                double w = strtod(wp, &we), g = strtod(gp, &ge);
                if (we == wp || ge == gp) {
                    if ((we == wp) != (ge == gp)) fail_msg("line %d: value counts differ\n want %s\n got  %s", line, wl, gl);
                    break;
                }
                if (fabs(w - g) > tol * (1 + fabs(w))) fail_msg("line %d: %.9g vs %.9g\n want %s\n got  %s", line, w, g, wl, gl);
                wp = we;
                gp = ge;
            }
            continue;
        }
        if (strcmp(wl, gl) != 0) fail_msg("line %d:\n want %s\n got  %s", line, wl, gl);
    }
    if (wl || gl) fail_msg("line %d: transcript lengths differ (%s)", line, wl ? "ours is short" : "ours is long");
    free(want);
    tu_transcript_reset();
}

void tu_run_and_kill(void (*child)(const char *path, int notify_fd), const char *path, unsigned max_us)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        child(path, fds[1]);
        _exit(0);
    }
    close(fds[1]);
    char c;
    assert_int_equal(read(fds[0], &c, 1), 1);
    close(fds[0]);
    usleep((useconds_t)(rand() % max_us));
    kill(pid, SIGKILL);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
}

int tu_loopback_setup(void **state)
{
    (void)state;
    nn_loopback_register(true);
    return 0;
}

int tu_loopback_teardown(void **state)
{
    (void)state;
    nn_loopback_unregister();
    return 0;
}
