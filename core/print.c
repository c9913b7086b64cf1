/*
 * print.c — repr(tensor) exactly as PyTorch 1.13 prints it: a port of
 * torch/_tensor_str.py (_Formatter, summarization, line wrapping, nesting,
 * suffixes) and of nn.Parameter's "Parameter containing:" header.
 * Floats are formatted as Python's '{:.Nf}' / '{:.Ne}' format a double.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nn_int.h"

/* torch.set_printoptions(profile='default') */
static nn_print_options options = {.precision = 4, .threshold = 1000, .edgeitems = 3, .linewidth = 80, .sci_mode = -1};

nn_print_options *nn_print_options_get(void) { return &options; }

/* ------------------------------------------------------------ string buffer */

/* ------------------------------------------------------------- value text */

/* Python's "{:.<prec><conv>}".format(v) for conv 'f' or 'e': appended to b, or
   only measured when b is NULL; returns the length. Python spells every NaN
   "nan" (C would print "-nan" for a negative one). */
static int64_t float_text(nn_text *b, char conv, int prec, double v)
{
    const char *special = isnan(v) ? "nan" : isinf(v) ? (v > 0 ? "inf" : "-inf") : NULL;
    if (special) {
        if (b) nn_text_puts(b, special);
        return (int64_t)strlen(special);
    }
    const char *fmt = conv == 'e' ? "%.*e" : "%.*f";
    int n = snprintf(NULL, 0, fmt, prec, v);
    if (b) nn_text_printf(b, fmt, prec, v);
    return n;
}

/* Python's "{}".format(item) of an integer or bool element. */
static int64_t int_text(nn_text *b, nn_dtype dtype, int64_t v)
{
    char buf[32];
    int n = dtype == NN_BOOL ? snprintf(buf, sizeof buf, "%s", v ? "True" : "False")
                             : snprintf(buf, sizeof buf, "%lld", (long long)v);
    if (b) nn_text_add(b, buf, (size_t)n);
    return n;
}

/* ---------------------------------------------------------------- printer */

/* _Formatter: how every element of one tensor is written. */
typedef struct formatter {
    bool floating;
    bool int_mode;
    bool sci_mode;
    int64_t max_width;
    /* the scan of the nonzero finite values */
    bool any;
    double min_abs, max_abs;
} formatter;

typedef struct printer {
    const nn_tensor *t;
    const nn_print_options *o;
    int precision;
    int64_t edge;     /* edgeitems, never negative */
    bool summarize;   /* numel > threshold */
    bool bad_precision;
    formatter f;
    /* a complex tensor: t is its real part, imag its imaginary part (views), with
       the formatter f2 of its own */
    const nn_tensor *imag;
    formatter f2;
    int64_t index[NN_MAX_DIMS];
    nn_text *out;
} printer;

static double value_at(const printer *p) { return nn_get_double(p->t, p->index); }

/* Float text with the precision option; flags a negative precision, which
   Python's format rejects. */
static int64_t option_float_text(printer *p, nn_text *b, char conv, double v)
{
    if (p->precision < 0) {
        p->bad_precision = true;
        return 0;
    }
    return float_text(b, conv, p->precision, v);
}

typedef void (*visit_fn)(printer *p);

/* Calls fn with p->index at every element get_summarized_data keeps (all of
   them when not summarizing). As in PyTorch, a last dim cut with edgeitems 0
   keeps the whole tail (self[-0:]). */
static void visit(printer *p, int dim, visit_fn fn)
{
    const nn_tensor *t = p->t;
    if (dim == t->ndim) {
        fn(p);
        return;
    }
    int64_t n = t->sizes[dim], e = p->edge;
    bool cut = p->summarize && n > 2 * e;
    int64_t head_end = cut ? e : n;
    for (int64_t i = 0; i < head_end; i++) {
        p->index[dim] = i;
        visit(p, dim + 1, fn);
    }
    if (!cut) return;
    int64_t tail = dim == t->ndim - 1 && e == 0 ? 0 : n - e;
    for (int64_t i = tail; i < n; i++) {
        p->index[dim] = i;
        visit(p, dim + 1, fn);
    }
}

static void scan_int_width(printer *p)
{
    int64_t w = int_text(NULL, p->t->dtype, nn_get_int64(p->t, p->index));
    if (w > p->f.max_width) p->f.max_width = w;
}

static void scan_nonzero_finite(printer *p)
{
    double v = value_at(p);
    if (!isfinite(v) || v == 0) return;
    double a = fabs(v);
    if (!p->f.any || a < p->f.min_abs) p->f.min_abs = a;
    if (!p->f.any || a > p->f.max_abs) p->f.max_abs = a;
    p->f.any = true;
    if (v != ceil(v)) p->f.int_mode = false;
}

static void scan_float_width(printer *p)
{
    double v = value_at(p);
    if (!isfinite(v) || v == 0) return;
    int64_t w = p->f.sci_mode ? option_float_text(p, NULL, 'e', v)
                : p->f.int_mode ? float_text(NULL, 'f', 0, v) + 1
                                : option_float_text(p, NULL, 'f', v);
    if (w > p->f.max_width) p->f.max_width = w;
}

/* _Formatter.__init__ over the (summarized) elements. */
static void formatter_init(printer *p)
{
    formatter *f = &p->f;
    *f = (formatter){.floating = nn_dtype_is_floating(p->t->dtype), .int_mode = true, .max_width = 1};
    if (!f->floating) {
        visit(p, 0, scan_int_width);
    } else {
        visit(p, 0, scan_nonzero_finite);
        if (!f->any) return; /* PyTorch returns before applying the sci_mode option */
        double ratio = f->max_abs / f->min_abs;
        f->sci_mode = ratio > 1000.0 || f->max_abs > 1.0e8 || (!f->int_mode && f->min_abs < 1.0e-4);
        visit(p, 0, scan_float_width);
    }
    if (p->o->sci_mode >= 0) f->sci_mode = p->o->sci_mode != 0;
}

/* _Formatter.format of a float v, left-padded to max_width. */
static void put_float(printer *p, nn_text *b, const formatter *f, double v)
{
    if (f->sci_mode) {
        nn_text_chars(b, ' ', f->max_width - option_float_text(p, NULL, 'e', v));
        option_float_text(p, b, 'e', v);
    } else if (f->int_mode) {
        bool dot = isfinite(v);
        nn_text_chars(b, ' ', f->max_width - float_text(NULL, 'f', 0, v) - dot);
        float_text(b, 'f', 0, v);
        if (dot) nn_text_puts(b, ".");
    } else {
        nn_text_chars(b, ' ', f->max_width - option_float_text(p, NULL, 'f', v));
        option_float_text(p, b, 'f', v);
    }
}

/* A complex element: the real part's text, then the imaginary part's with "j",
   its padding stripped and a "+" unless it has a sign (_vector_str's _val_formatter). */
static void put_complex(printer *p)
{
    nn_text *b = p->out, im = {0};
    put_float(p, b, &p->f, value_at(p));
    put_float(p, &im, &p->f2, nn_get_double(p->imag, p->index));
    const char *s = im.buf ? im.buf : "";
    while (*s == ' ') s++;
    if (*s != '+' && *s != '-') nn_text_puts(b, "+");
    nn_text_puts(b, s);
    nn_text_puts(b, "j");
    if (im.failed) b->failed = true;
    nn_free(im.buf);
}

/* _Formatter.format of the element at p->index, left-padded to max_width. */
static void put_value(printer *p)
{
    nn_text *b = p->out;
    const formatter *f = &p->f;
    if (p->imag) {
        put_complex(p);
    } else if (!f->floating) {
        int64_t v = nn_get_int64(p->t, p->index);
        nn_text_chars(b, ' ', f->max_width - int_text(NULL, p->t->dtype, v));
        int_text(b, p->t->dtype, v);
    } else {
        put_float(p, b, f, value_at(p));
    }
}

/* Python's floor(a / b) for b > 0. */
static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* The separator before item k of a dim: ", " or a line break in the last dim,
   "," plus blank lines between slices of the others. */
static void put_separator(printer *p, int dim, int64_t k, int64_t per_line, int64_t indent)
{
    nn_text *b = p->out;
    if (k == 0) return;
    if (dim == p->t->ndim - 1) {
        if (k % per_line != 0) {
            nn_text_puts(b, ", ");
            return;
        }
        nn_text_puts(b, ",\n");
    } else {
        nn_text_puts(b, ",");
        nn_text_chars(b, '\n', p->t->ndim - dim - 1);
    }
    nn_text_chars(b, ' ', indent + 1);
}

/* _tensor_str_with_formatter (with _vector_str for the last dim) of the
   sub-tensor at p->index[0..dim). */
static void tensor_str(printer *p, int dim, int64_t indent)
{
    const nn_tensor *t = p->t;
    nn_text *b = p->out;
    if (t->ndim == 0) {
        put_value(p);
        return;
    }
    int64_t n = t->sizes[dim], e = p->edge;
    bool last = dim == t->ndim - 1;
    bool cut = p->summarize && n > 2 * e;
    /* items: [0, head_end), then when cut "..." and [tail, n) */
    int64_t head_end = cut ? e : n;
    int64_t tail = last && e == 0 ? 0 : n - e;
    int64_t per_line = 1;
    if (last) {
        int64_t element_length = p->f.max_width + 2 + (p->imag ? p->f2.max_width + 1 : 0);
        per_line = floor_div((int64_t)p->o->linewidth - indent, element_length);
        if (per_line < 1) per_line = 1;
    }
    int64_t k = 0;
    nn_text_puts(b, "[");
    for (int part = 0; part < 3 && !b->failed; part++) {
        int64_t from = 0, to = head_end;
        if (part > 0 && !cut) break;
        if (part == 1) {
            put_separator(p, dim, k++, per_line, indent);
            nn_text_puts(b, last ? " ..." : "...");
            continue;
        }
        if (part == 2) from = tail, to = n;
        for (int64_t i = from; i < to && !b->failed; i++) {
            put_separator(p, dim, k++, per_line, indent);
            p->index[dim] = i;
            if (last)
                put_value(p);
            else
                tensor_str(p, dim + 1, indent + 1);
        }
    }
    nn_text_puts(b, "]");
}

/* _add_suffixes: ", suffix" each, or ",\n" + indent + suffix when the line
   would pass linewidth. line_start is where "tensor(" begins in b. */
static void add_suffixes(nn_text *b, size_t line_start, char suffixes[][NN_MAX_DIMS * 24 + 32], int n,
                         int64_t indent, int64_t linewidth)
{
    const char *s = b->buf + line_start;
    size_t len = b->len - line_start;
    const char *nl = NULL;
    for (size_t i = len; i > 0; i--)
        if (s[i - 1] == '\n') {
            nl = s + i - 1;
            break;
        }
    /* len(tensor_str) - tensor_str.rfind("\n") + 1, as PyTorch computes it */
    int64_t last_line_len = (int64_t)len - (nl ? (int64_t)(nl - s) : -1) + 1;
    for (int i = 0; i < n; i++) {
        int64_t suffix_len = (int64_t)strlen(suffixes[i]);
        if (last_line_len + suffix_len + 2 > linewidth) {
            nn_text_puts(b, ",\n");
            nn_text_chars(b, ' ', indent);
            last_line_len = indent + suffix_len;
        } else {
            nn_text_puts(b, ", ");
            last_line_len += suffix_len + 2;
        }
        nn_text_puts(b, suffixes[i]);
    }
    nn_text_puts(b, ")");
}

char *nn_tensor_repr(nn_tensor *t)
{
    const nn_print_options *o = &options;
    nn_text b = {0};
    if (nn_is_instance(&t->ob, &nn_parameter_type)) nn_text_puts(&b, "Parameter containing:\n");
    size_t line_start = b.len;
    const char *prefix = "tensor(";
    int64_t indent = (int64_t)strlen(prefix);
    nn_text_puts(&b, prefix);

    char suffixes[4][NN_MAX_DIMS * 24 + 32];
    int n_suffixes = 0;
    /* as PyTorch 2: no suffix for a tensor on the default device (nn_set_default_device) */
    if (t->storage->device.type == NN_CUDA && !nn_same_device(t->storage->device, nn_default_device()))
        snprintf(suffixes[n_suffixes++], sizeof suffixes[0], "device='cuda:%d'", t->storage->device.index);

    int64_t numel = nn_numel(t);
    if (numel == 0) {
        if (t->ndim != 1) {
            /* str(tuple(shape)) */
            char *s = suffixes[n_suffixes++];
            size_t len = (size_t)snprintf(s, sizeof suffixes[0], "size=(");
            for (int d = 0; d < t->ndim; d++)
                len += (size_t)snprintf(s + len, sizeof suffixes[0] - len, "%s%lld", d ? ", " : "",
                                        (long long)t->sizes[d]);
            snprintf(s + len, sizeof suffixes[0] - len, ")");
        }
        if (t->dtype != nn_default_dtype())
            snprintf(suffixes[n_suffixes++], sizeof suffixes[0], "dtype=%s", nn_dtype_name(t->dtype));
        nn_text_puts(&b, "[]");
    } else {
        if (t->dtype != nn_default_dtype() && t->dtype != nn_dtype_to_complex(nn_default_dtype()) &&
            t->dtype != NN_INT64 && t->dtype != NN_BOOL)
            snprintf(suffixes[n_suffixes++], sizeof suffixes[0], "dtype=%s", nn_dtype_name(t->dtype));
        nn_tensor *re = NULL, *im = NULL; /* a complex tensor's parts, each with its formatter */
        if (nn_dtype_is_complex(t->dtype) && (!(re = nn_real(t)) || !(im = nn_imag(t)))) {
            NN_RELEASE(re);
            nn_free(b.buf);
            return NULL;
        }
        printer p = {
            .t = re ? re : t,
            .o = o,
            .precision = o->precision,
            .edge = o->edgeitems > 0 ? o->edgeitems : 0,
            .summarize = numel > o->threshold,
            .out = &b,
        };
        /* get_summarized_data stacks an empty list when edgeitems is 0 */
        if (p.summarize && p.edge == 0 && t->ndim >= 2) {
            NN_RELEASE(re);
            NN_RELEASE(im);
            nn_free(b.buf);
            nn_error_set(NN_ERR_RUNTIME, "stack expects a non-empty TensorList");
            return NULL;
        }
        if (im) {
            p.t = im;
            formatter_init(&p);
            p.f2 = p.f;
            p.t = re;
            p.imag = im;
        }
        formatter_init(&p);
        tensor_str(&p, 0, indent);
        NN_RELEASE(re);
        NN_RELEASE(im);
        if (p.bad_precision) {
            nn_free(b.buf);
            nn_error_set(NN_ERR_VALUE, "Format specifier missing precision");
            return NULL;
        }
    }

    const char *grad_fn = nn_grad_fn_name(t);
    if (grad_fn)
        snprintf(suffixes[n_suffixes++], sizeof suffixes[0], "grad_fn=<%s>", grad_fn);
    else if (t->requires_grad)
        snprintf(suffixes[n_suffixes++], sizeof suffixes[0], "requires_grad=True");

    if (!b.failed) add_suffixes(&b, line_start, suffixes, n_suffixes, indent, o->linewidth);
    return nn_text_finish(&b);
}
