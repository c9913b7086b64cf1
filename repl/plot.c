/*
 * plot.c — terminal plots of functions on tensors with Unicode braille (each
 * character U+2800+bits is a 2x4 grid of dots), y ticks, x ticks and a legend,
 * optionally with each function's derivative by autograd in a second color.
 * repl_plot builds text only (no terminal size query, no printing); the
 * language's plot() built-in at the end of this file parses its arguments and
 * prints the text.
 */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bind_int.h"
#include "repl.h"

#define MAX_SERIES 64
/* ANSI colors: a function takes palette[2k % 6], its derivative palette[(2k+1) % 6]. */
static const char *const palette[] = {"34", "31", "32", "35", "36", "33"};

void repl_plot_options_default(repl_plot_options *o)
{
    *o = (repl_plot_options){.lo = -3, .hi = 3, .grad = false, .width = 72, .height = 20, .color = false};
}

int repl_plot_sample(const repl_plot_func *f, double lo, double hi, int n, double *y, double *dy)
{
    int rc = -1;
    bool was = nn_set_grad_enabled(true);
    nn_tensor *x = nn_linspace(lo, hi, n, NN_FLOAT32), *out = NULL, *flat = NULL, *s = NULL, *g = NULL;
    if (!x) goto out;
    if (dy && nn_set_requires_grad(x, true) < 0) goto out;
    out = f->module ? nn_module_call1(f->module, x) : f->fn(f->ud, x);
    if (!out) goto out;
    if (nn_numel(out) != n) {
        nn_error_set(NN_ERR_VALUE, "plot: f must return one value per sample");
        goto out;
    }
    if (!(flat = nn_contiguous(out))) goto out;
    nn_to_doubles(flat, y);
    if (dy) {
        if (!out->requires_grad) { /* a function that ignores x: derivative 0 */
            for (int i = 0; i < n; i++) dy[i] = 0;
        } else {
            /* into x.grad only: a module's parameters (PReLU's weight) keep their .grad */
            if (!(s = nn_sum(out, 0, NULL, false)) || nn_backward_inputs(s, NULL, 1, &x) < 0) goto out;
            if (!(g = nn_grad(x))) {
                for (int i = 0; i < n; i++) dy[i] = 0;
            } else {
                nn_to_doubles(g, dy);
            }
        }
    }
    rc = 0;
out:
    nn_set_grad_enabled(was);
    NN_RELEASE(x);
    NN_RELEASE(out);
    NN_RELEASE(flat);
    NN_RELEASE(s);
    NN_RELEASE(g);
    return rc;
}

/* A growing string; `failed` after an allocation failure. */
typedef struct buf {
    char *s;
    size_t len, cap;
    bool failed;
} buf;

static void put(buf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->failed) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1) cap *= 2;
        char *p = nn_realloc(b->s, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

static void put_spaces(buf *b, int n)
{
    for (int i = 0; i < n; i++) put(b, " ");
}

/* A tick label: %.3g, with "-0" printed as "0". */
static void tick(double v, char *out, size_t n)
{
    if (fabs(v) < 5e-324 || v == 0) v = 0;
    snprintf(out, n, "%.3g", v);
}

/* A braille character with bits set, as UTF-8. */
static void braille(unsigned bits, char out[4])
{
    unsigned cp = 0x2800 + bits;
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    out[3] = '\0';
}

static const unsigned dot_bit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};

/* Cell state: the dots and the series that drew last (-1: none). */
typedef struct cell {
    unsigned char bits;
    signed char series;
} cell;

struct repl_braille {
    int cols, rows;
    cell grid[];
};

repl_braille *repl_braille_new(int cols, int rows)
{
    if (cols < 1 || rows < 1 || cols > 4096 || rows > 4096) {
        nn_error_set(NN_ERR_VALUE, "braille canvas: %d x %d characters is out of range", cols, rows);
        return NULL;
    }
    repl_braille *c = nn_calloc(1, sizeof *c + (size_t)cols * rows * sizeof(cell));
    if (!c) return NULL;
    c->cols = cols, c->rows = rows;
    for (int i = 0; i < cols * rows; i++) c->grid[i].series = -1;
    return c;
}

void repl_braille_free(repl_braille *c) { nn_free(c); }

void repl_braille_dot(repl_braille *c, int x, int y, int series)
{
    if (x < 0 || y < 0 || x >= 2 * c->cols || y >= 4 * c->rows) return;
    cell *cl = &c->grid[(y / 4) * c->cols + x / 2];
    cl->bits |= dot_bit[x % 2][y % 4];
    cl->series = (signed char)(series % MAX_SERIES);
}

const char *repl_braille_color(int series) { return palette[series % 6]; }

/* Row r's characters into b: a colour escape where the drawing series changes when color,
   else no trailing blanks. */
static void put_row(buf *b, const repl_braille *c, int r, bool color)
{
    char ch[4];
    int cur = -1;
    size_t start = b->len;
    for (int col = 0; col < c->cols; col++) {
        const cell *cl = &c->grid[r * c->cols + col];
        int want = cl->bits ? cl->series : -1;
        if (color && want != cur) {
            if (want < 0) put(b, "\x1b[0m");
            else {
                char esc[16];
                snprintf(esc, sizeof esc, "\x1b[%sm", palette[want % 6]);
                put(b, esc);
            }
            cur = want;
        }
        braille(cl->bits, ch);
        put(b, cl->bits ? ch : " ");
    }
    if (color && cur >= 0) put(b, "\x1b[0m");
    if (!color && !b->failed)
        while (b->len > start && b->s[b->len - 1] == ' ') b->s[--b->len] = '\0';
}

char *repl_braille_row(const repl_braille *c, int r, bool color)
{
    buf b = {0};
    put(&b, "");
    if (r >= 0 && r < c->rows) put_row(&b, c, r, color);
    if (b.failed) {
        nn_free(b.s);
        return NULL;
    }
    return b.s;
}

static int dot_row(double v, double ymin, double ymax, int dots)
{
    double t = (ymax - v) / (ymax - ymin) * (dots - 1);
    int r = (int)lround(t);
    return r < 0 ? 0 : r >= dots ? dots - 1 : r;
}

char *repl_plot(const repl_plot_func *funcs, size_t n, const repl_plot_options *opts)
{
    repl_plot_options o;
    if (opts) o = *opts;
    else repl_plot_options_default(&o);
    if (!(o.lo < o.hi)) {
        nn_error_set(NN_ERR_VALUE, "plot: lo must be less than hi");
        return NULL;
    }
    if (o.width < 20 || o.width > 500) {
        nn_error_set(NN_ERR_VALUE, "plot: width must be between 20 and 500");
        return NULL;
    }
    if (o.height < 4 || o.height > 200) {
        nn_error_set(NN_ERR_VALUE, "plot: height must be between 4 and 200");
        return NULL;
    }
    if (n == 0 || n > MAX_SERIES / 2) {
        nn_error_set(NN_ERR_VALUE, n ? "plot: at most 32 functions" : "plot: no functions");
        return NULL;
    }
    const int label_w = 9; /* "%.3g" of any finite double fits in 9 ("-1.23e+45") */
    int cols = o.width - label_w - 1, rows = o.height, npts = 2 * cols, dots = 4 * rows;
    size_t nseries = o.grad ? 2 * n : n;
    char *result = NULL;
    buf b = {0};
    double *ys = nn_calloc(nseries * (size_t)npts, sizeof *ys);
    repl_braille *canvas = repl_braille_new(cols, rows);
    char **names = nn_calloc(n, sizeof *names);
    if (!ys || !canvas || !names) goto out;

    for (size_t k = 0; k < n; k++) {
        double *y = ys + (o.grad ? 2 * k : k) * npts, *dy = o.grad ? y + npts : NULL;
        if (repl_plot_sample(&funcs[k], o.lo, o.hi, npts, y, dy) < 0) goto out;
        if (funcs[k].name) names[k] = nn_strdup(funcs[k].name);
        else if (funcs[k].module) {
            names[k] = nn_module_repr(funcs[k].module);
            if (names[k]) names[k][strcspn(names[k], "\n")] = '\0';
        } else names[k] = nn_strdup("f");
        if (!names[k]) goto out;
    }
    double ymin = INFINITY, ymax = -INFINITY;
    for (size_t i = 0; i < nseries * (size_t)npts; i++)
        if (isfinite(ys[i])) {
            if (ys[i] < ymin) ymin = ys[i];
            if (ys[i] > ymax) ymax = ys[i];
        }
    if (!(ymin <= ymax)) ymin = -1, ymax = 1;          /* nothing finite */
    if (ymax - ymin < 1e-12 * fmax(1, fabs(ymax))) {     /* constant: flat line in the middle */
        double c = ymin;
        ymin = c - 1, ymax = c + 1;
    }
    for (size_t sidx = 0; sidx < nseries; sidx++) {
        const double *y = ys + sidx * npts;
        int prev = -1;
        for (int i = 0; i < npts; i++) {
            if (!isfinite(y[i])) {
                prev = -1;
                continue;
            }
            int r = dot_row(y[i], ymin, ymax, dots);
            int a = prev < 0 ? r : prev, lo = a < r ? a : r, hi = a < r ? r : a;
            /* join to the previous sample: half the step on each column */
            for (int d = lo; d <= hi; d++) {
                bool near_prev = prev >= 0 && abs(d - prev) < abs(d - r);
                repl_braille_dot(canvas, near_prev && i > 0 ? i - 1 : i, d, (int)sidx);
            }
            prev = r;
        }
    }
    /* tick rows: max at the top, min at the bottom, 0 where it falls */
    int zero_row = (ymin < 0 && ymax > 0) ? dot_row(0, ymin, ymax, dots) / 4 : -1;
    char label[64];
    for (int r = 0; r < rows; r++) {
        label[0] = '\0';
        if (r == 0) tick(ymax, label, sizeof label);
        else if (r == rows - 1) tick(ymin, label, sizeof label);
        else if (r == zero_row) tick(0, label, sizeof label);
        put_spaces(&b, label_w - (int)strlen(label));
        put(&b, label);
        put(&b, label[0] ? "┤" : "│");
        put_row(&b, canvas, r, o.color);
        put(&b, "\n");
    }
    /* x axis and its ticks: lo at the left, hi at the right, 0 where it falls */
    put_spaces(&b, label_w);
    put(&b, "└");
    for (int c = 0; c < cols; c++) put(&b, "─");
    put(&b, "\n");
    {
        char line[512];
        int w = label_w + 1 + cols;
        memset(line, ' ', (size_t)w);
        line[w] = '\0';
        char t[64];
        tick(o.lo, t, sizeof t);
        memcpy(line + label_w + 1 - strlen(t) / 2, t, strlen(t));
        int lo_end = label_w + 1 - (int)strlen(t) / 2 + (int)strlen(t);
        tick(o.hi, t, sizeof t);
        int hi_at = w - (int)strlen(t);
        memcpy(line + hi_at, t, strlen(t));
        if (o.lo < 0 && o.hi > 0) {
            int zc = label_w + 1 + (int)lround(-o.lo / (o.hi - o.lo) * (cols - 1));
            if (zc > lo_end && zc + 1 < hi_at) line[zc] = '0';
        }
        int end = w;
        while (end > 0 && line[end - 1] == ' ') end--;
        line[end] = '\0';
        put(&b, line);
        put(&b, "\n");
    }
    /* legend: a sample of each series' dots, then its name */
    for (size_t sidx = 0; sidx < nseries; sidx++) {
        size_t k = o.grad ? sidx / 2 : sidx;
        bool deriv = o.grad && sidx % 2;
        char esc[16];
        put_spaces(&b, label_w + 1);
        if (o.color) {
            snprintf(esc, sizeof esc, "\x1b[%sm", palette[sidx % 6]);
            put(&b, esc);
        }
        put(&b, "⠒⠒⠒");
        if (o.color) put(&b, "\x1b[0m");
        put(&b, " ");
        if (deriv) put(&b, "d/dx ");
        /* clip the name to the line (whole UTF-8 characters) */
        int room = o.width - (label_w + 1) - 4 - (deriv ? 5 : 0), used = 0;
        char one[8];
        for (const char *p = names[k]; *p && used < room; used++) {
            size_t len = 1;
            while (p[len] && ((unsigned char)p[len] & 0xC0) == 0x80 && len < 4) len++;
            memcpy(one, p, len);
            one[len] = '\0';
            put(&b, one);
            p += len;
        }
        put(&b, "\n");
    }
    if (!b.failed) result = b.s, b.s = NULL;
out:
    nn_free(b.s);
    nn_free(ys);
    repl_braille_free(canvas);
    for (size_t k = 0; names && k < n; k++) nn_free(names[k]);
    nn_free(names);
    return result;
}

/* ------------------------------------------------------------------ the language's plot() */

/* f(x) for a callable written in the language (or any callable object). */
static nn_tensor *call_object(void *callable, nn_tensor *x)
{
    nn_object *args = nn_tuple_pack(1, x);
    nn_object *y = args ? nn_call(callable, args, NULL) : NULL;
    NN_RELEASE(args);
    if (y && !nn_is_tensor(y)) {
        nn_error_set(NN_ERR_TYPE, "plot: f must return a tensor, not %s", repl_value_type_name(y));
        NN_SET(y, NULL);
    }
    return (nn_tensor *)y;
}

/* One function to draw from a language value; its legend name (a function's
   name from its repr "<function gelu at 0x...>") goes into name[0..n). */
static int plot_func_of(nn_object *o, repl_plot_func *f, char *name, size_t n)
{
    *f = (repl_plot_func){0};
    if (nn_is_module(o)) {
        f->module = (nn_module *)o;
        return 0;
    }
    if (!o->type->call)
        return nn_error_set(NN_ERR_TYPE, "plot: f must be a module, a function of a tensor or a list of them, not %s",
                            repl_value_type_name(o));
    f->fn = call_object;
    f->ud = o;
    char *repr = nn_repr(o);
    if (!repr) return -1;
    static const char *const prefixes[] = {"<function ", "<built-in function "};
    for (size_t i = 0; i < 2; i++) {
        size_t len = strlen(prefixes[i]);
        if (strncmp(repr, prefixes[i], len) == 0) {
            const char *start = repr + len, *end = strstr(start, " at ");
            size_t take = end ? (size_t)(end - start) : strcspn(start, ">");
            snprintf(name, n, "%.*s", (int)take, start);
            f->name = name;
        }
    }
    nn_free(repr);
    return 0;
}

nn_object *repl_builtin_plot(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[7];
    if (repl_parse_args("plot", "f, lo=, hi=, grad=, width=, height=, color=", args, kwargs, a) < 0) return NULL;
    repl_plot_options o;
    repl_plot_options_default(&o);
    o.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    int64_t width = o.width, height = o.height;
    if (repl_arg_double("plot", "lo", 2, a[1], &o.lo) < 0 || repl_arg_double("plot", "hi", 3, a[2], &o.hi) < 0 ||
        repl_arg_bool("plot", "grad", 4, a[3], &o.grad) < 0 || repl_arg_int("plot", "width", 5, a[4], &width) < 0 ||
        repl_arg_int("plot", "height", 6, a[5], &height) < 0 || repl_arg_bool("plot", "color", 7, a[6], &o.color) < 0)
        return NULL;
    o.width = width > 10000 ? 10000 : width < -1 ? -1 : (int)width; /* repl_plot rejects what is out of range */
    o.height = height > 10000 ? 10000 : height < -1 ? -1 : (int)height;
    nn_object *items = NULL;
    if (nn_is_list(a[0]) || a[0]->type == &nn_tuple_type) items = nn_retain(a[0]);
    else items = nn_tuple_pack(1, a[0]);
    if (!items) return NULL;
    size_t n = nn_is_list(items) ? nn_list_len(items) : nn_tuple_len(items);
    repl_plot_func *funcs = nn_calloc(n ? n : 1, sizeof *funcs);
    char (*names)[64] = nn_calloc(n ? n : 1, sizeof *names);
    char *text = NULL;
    int rc = funcs && names ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = plot_func_of(nn_is_list(items) ? nn_list_get(items, i) : nn_tuple_get(items, i), &funcs[i], names[i], 64);
    if (rc == 0) text = repl_plot(funcs, n, &o);
    nn_free(funcs);
    nn_free(names);
    NN_RELEASE(items);
    if (!text) return NULL;
    repl_interp_write(text, strlen(text));
    nn_free(text);
    return nn_retain(nn_none());
}
