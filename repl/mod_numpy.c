/*
 * mod_numpy.c — the module numpy: a NumPy subset whose ndarray (written in the
 * language, mod_numpy_src.c) keeps its elements in a core tensor. This file
 * holds what the language side calls into: NumPy's printing (array2string's
 * layout and its float formatting: shortest digits that read back as the same
 * float32/float64, at most 8 decimals, scientific notation past NumPy's
 * thresholds), the legacy RandomState stream (MT19937 with init_genrand /
 * init_by_array seeding, 53-bit doubles, the polar Box-Muller gauss with its
 * cached second value, masked rejection for integers) so seeded scripts draw
 * NumPy's numbers, and the bridge that torch uses: Tensor.numpy(),
 * torch.from_numpy and torch.tensor/as_tensor of an ndarray (repl_numpy_*).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bind_int.h"
#include "stdlib_int.h"

/* np_pcg64.c */
nn_object *repl_np_pcg_seed(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_pcg_draw(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_pcg_dist(void *ud, nn_object *args, nn_object *kwargs);
/* np_scalar.c */
nn_object *repl_np_register_scalar(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_scalar_new(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_type_name(void *ud, nn_object *args, nn_object *kwargs);
/* np_simd.c */
nn_object *repl_np_simd_f32(void *ud, nn_object *args, nn_object *kwargs);
/* np_sort.c */
nn_object *repl_np_argsort_rows(void *ud, nn_object *args, nn_object *kwargs);
/* np_raw.c */
nn_object *repl_np_raw_read(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_npy_save(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_npy_load(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_raw_size(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_raw_write(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_frombytes(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_tobytes(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_raw_map(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_raw_sync(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_np_raw_create(void *ud, nn_object *args, nn_object *kwargs);

#define ARGS(n) nn_object *a[n] = {0}

/* The ndarray class of the module (owned once registered), for the bridge. */
static class_obj *ndarray_cls;

/* _register(ndarray_class): remembers the class for repl_numpy_tensor_of. */
static nn_object *h_register(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("_register", "cls", args, kwargs, a)) return NULL;
    if (a[0]->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "_register() expects a class");
        return NULL;
    }
    if (ndarray_cls) NN_RELEASE(ndarray_cls);
    ndarray_cls = (class_obj *)nn_retain((nn_object *)a[0]);
    return nn_retain(nn_none());
}

/* ------------------------------------------------------------ float digits */

/* The shortest decimal digits of x that read back as the same float32 (f32),
   float16 (f16) or float64: digits into dig (no dot, no sign), the decimal
   exponent of the first digit into *e10; returns the digit count. */
static int shortest_digits(double x, nn_dtype dt, char *dig, int *e10)
{
    char buf[64];
    int p;
    for (p = 0; p < 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p, x);
        double back = strtod(buf, NULL);
        bool same = dt == NN_FLOAT32   ? (float)back == (float)x
                    : dt == NN_FLOAT16 ? nn_half_to_float(nn_float_to_half((float)back)) == (float)x
                    : dt == NN_BFLOAT16 ? nn_bfloat16_to_float(nn_float_to_bfloat16((float)back)) == (float)x
                                       : back == x;
        if (same) break;
    }
    snprintf(buf, sizeof buf, "%.*e", p, fabs(x));
    int n = 0;
    char *s = buf;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9') dig[n++] = *s;
    dig[n] = 0;
    *e10 = atoi(s + 1);
    while (n > 1 && dig[n - 1] == '0') dig[--n] = 0;
    return n;
}

/* buf ("-12.2500") cut at its dot: the int part into ip, the decimals without
   trailing zeros into fp ("-12", "25"). */
static void split_digits(char *buf, char *ip, char *fp)
{
    char *dot = strchr(buf, '.');
    if (dot) {
        *dot = 0;
        size_t l = strlen(dot + 1);
        while (l > 0 && dot[l] == '0') dot[l--] = 0;
        strcpy(fp, dot + 1);
    } else {
        fp[0] = 0;
    }
    strcpy(ip, buf);
}

/* Dragon4 positional, unique digits, at most prec decimals, trimmed of trailing
   zeros but keeping the dot ("1.", "0.5", "-12.25"): int part into ip, fraction
   into fp. */
static void positional(double x, nn_dtype dt, int prec, char *ip, char *fp)
{
    char dig[40], buf[400];
    int e10, n = shortest_digits(x, dt, dig, &e10);
    int frac = n - 1 - e10; /* decimals the shortest digits need */
    if (frac <= prec && x != 0 && isfinite(x) && e10 < 300) {
        /* the shortest digits themselves, zeros past them (float32 123456789 is 123456790.) */
        int k = 0;
        if (signbit(x)) buf[k++] = '-';
        if (e10 < 0) {
            buf[k++] = '0';
            buf[k++] = '.';
            for (int i = 0; i < -e10 - 1; i++) buf[k++] = '0';
            for (int i = 0; i < n; i++) buf[k++] = dig[i];
        } else {
            for (int i = 0; i <= e10; i++) buf[k++] = i < n ? dig[i] : '0';
            buf[k++] = '.';
            for (int i = e10 + 1; i < n; i++) buf[k++] = dig[i];
        }
        buf[k] = 0;
    } else if (frac <= prec) {
        snprintf(buf, sizeof buf, "%.*f", frac > 0 ? frac : 0, x);
    } else {
        snprintf(buf, sizeof buf, "%.*f", prec, x);
    }
    split_digits(buf, ip, fp);
}

/* Dragon4 scientific, unique digits, at most prec decimals of the mantissa and at least
   min_digits (NumPy's min_digits: past the unique digits come the exact value's next ones,
   rounded, not zeros: a float32 1e-44 in an array of 6 decimals is 9.809089e-45):
   sign and first digit into ip, the fraction into fp, the exponent into *ex. */
static void scientific(double x, nn_dtype dt, int prec, int min_digits, char *ip, char *fp, int *ex)
{
    char dig[40], buf[64];
    int e10, n = shortest_digits(x, dt, dig, &e10);
    int frac = n - 1 < prec ? n - 1 : prec;
    snprintf(buf, sizeof buf, "%.*e", frac < min_digits ? min_digits : frac, x);
    char *e = strchr(buf, 'e');
    *ex = atoi(e + 1);
    *e = 0;
    split_digits(buf, ip, fp);
}

/* --------------------------------------------------------- array2string */

typedef struct fmt_state {
    nn_dtype dt;          /* the array's dtype */
    bool is_float, is_bool;
    bool is_unsigned;     /* uint64: the int64 elements are its bit patterns */
    bool plus;            /* a complex array's imaginary parts: '+' before the others */
    const struct fmt_state *imag; /* complex: the format of the imaginary parts (this one the real's) */
    const double *d;      /* float64 copy of the elements (floats) */
    const int64_t *i;     /* int64 copy (ints and bools) */
    /* float format */
    bool exp_format;
    int opt_precision;    /* np.set_printoptions(precision=) */
    int precision, pad_left, pad_right, exp_size;
    int int_width;        /* ints: the widest */
    bool bool_pad;        /* " True" in arrays of 1+ dims */
    /* output */
    char *out;
    size_t len, cap;
    bool oom;
} fmt_state;

static void put(fmt_state *st, const char *s, size_t n)
{
    if (st->oom) return;
    if (st->len + n + 1 > st->cap) {
        size_t cap = st->cap ? st->cap : 256;
        while (st->len + n + 1 > cap) cap *= 2;
        char *p = nn_realloc(st->out, cap);
        if (!p) {
            st->oom = true;
            return;
        }
        st->out = p;
        st->cap = cap;
    }
    memcpy(st->out + st->len, s, n);
    st->len += n;
    st->out[st->len] = 0;
}

static void fmt_elem_part(const fmt_state *st, int64_t k, char *buf, size_t n);

/* ip, the sign and int part of a number, with '+' before it unless it has '-' */
static void plus_sign(char *ip)
{
    if (ip[0] == '-') return;
    memmove(ip + 1, ip, strlen(ip) + 1);
    ip[0] = '+';
}

/* One element formatted, into buf. */
static void fmt_elem(const fmt_state *st, int64_t k, char *buf, size_t n)
{
    if (st->is_bool) {
        snprintf(buf, n, "%s", st->i[k] ? (st->bool_pad ? " True" : "True") : "False");
        return;
    }
    if (!st->is_float) {
        if (st->is_unsigned)
            snprintf(buf, n, "%*llu", st->int_width, (unsigned long long)st->i[k]);
        else
            snprintf(buf, n, "%*lld", st->int_width, (long long)st->i[k]);
        return;
    }
    if (st->imag) { /* NumPy's ComplexFloatingFormat: real, imaginary, the j before its padding */
        fmt_elem_part(st, k, buf, n);
        size_t l = strlen(buf);
        char im[256];
        fmt_elem_part(st->imag, k, im, sizeof im);
        size_t sp = strlen(im);
        while (sp > 0 && im[sp - 1] == ' ') sp--;
        snprintf(buf + l, n - l, "%.*sj%s", (int)sp, im, im + sp);
        return;
    }
    fmt_elem_part(st, k, buf, n);
}

/* One float element (a complex one's real or imaginary part) formatted, into buf. */
static void fmt_elem_part(const fmt_state *st, int64_t k, char *buf, size_t n)
{
    double x = st->d[k];
    char ip[400], fp[64];
    if (!isfinite(x)) {
        const char *r = isnan(x) ? (st->plus ? "+nan" : "nan") : x < 0 ? "-inf" : st->plus ? "+inf" : "inf";
        int w = st->pad_left + st->pad_right + 1;
        snprintf(buf, n, "%*s", w > (int)strlen(r) ? w : (int)strlen(r), r);
        return;
    }
    if (st->exp_format) {
        int ex;
        scientific(x, st->dt, st->precision, st->precision, ip, fp, &ex);
        if (st->plus) plus_sign(ip);
        snprintf(buf, n, "%*s.%-*s", st->pad_left, ip, st->precision, fp);
        /* zero-pad the fraction to precision digits */
        for (char *p = strchr(buf, '.') + 1; *p; p++)
            if (*p == ' ') *p = '0';
        size_t l = strlen(buf);
        snprintf(buf + l, n - l, "e%c%0*d", ex < 0 ? '-' : '+', st->exp_size, ex < 0 ? -ex : ex);
    } else {
        positional(x, st->dt, st->precision, ip, fp);
        if (st->plus) plus_sign(ip);
        snprintf(buf, n, "%*s.%-*s", st->pad_left, ip, st->pad_right, fp);
    }
}

/* Visits the elements shown (all, or edgeitems at each end of each axis when
   summarizing) in order: computes the format from them (fill). */
static void fill_visit(fmt_state *st, const nn_tensor *t, int axis, int64_t base, bool summ, const int64_t *cstr,
                       void (*fn)(fmt_state *, int64_t), fmt_state *arg)
{
    if (axis == t->ndim) {
        fn(arg, base);
        return;
    }
    int64_t n = t->sizes[axis];
    bool show = summ && 2 * 3 < n;
    for (int64_t i = 0; i < n; i++) {
        if (show && i == 3) i = n - 3;
        fill_visit(st, t, axis + 1, base + i * cstr[axis], summ, cstr, fn, arg);
    }
}

typedef struct fill_acc {
    /* floats */
    bool any_finite, any_nonzero, any_nonfinite, neg_inf;
    double max_abs, min_abs;
    int64_t imax, imin;
    bool any;
} fill_acc;

static fill_acc acc;

static void acc_visit(fmt_state *st, int64_t k)
{
    if (st->is_float) {
        double x = st->d[k];
        if (!isfinite(x)) {
            acc.any_nonfinite = true;
            if (isinf(x) && x < 0) acc.neg_inf = true;
            return;
        }
        acc.any_finite = true;
        if (x != 0) {
            double a = fabs(x);
            if (!acc.any_nonzero || a > acc.max_abs) acc.max_abs = a;
            if (!acc.any_nonzero || a < acc.min_abs) acc.min_abs = a;
            acc.any_nonzero = true;
        }
    } else if (st->is_unsigned) { /* the widest is the largest */
        uint64_t v = (uint64_t)st->i[k];
        if (!acc.any || v > (uint64_t)acc.imax) acc.imax = (int64_t)v;
        acc.imin = 0;
        acc.any = true;
    } else {
        int64_t v = st->i[k];
        if (!acc.any || v > acc.imax) acc.imax = v;
        if (!acc.any || v < acc.imin) acc.imin = v;
        acc.any = true;
    }
}

static int max_pl, max_pr, max_exp;

static void pad_visit(fmt_state *st, int64_t k)
{
    double x = st->d[k];
    if (!isfinite(x)) return;
    char ip[400], fp[64];
    if (st->exp_format) {
        int ex;
        scientific(x, st->dt, st->opt_precision, 0, ip, fp, &ex);
        int el = snprintf(NULL, 0, "%02d", ex < 0 ? -ex : ex);
        if (el > max_exp) max_exp = el;
    } else {
        positional(x, st->dt, st->opt_precision, ip, fp);
    }
    if (st->plus) plus_sign(ip);
    if ((int)strlen(ip) > max_pl) max_pl = (int)strlen(ip);
    if ((int)strlen(fp) > max_pr) max_pr = (int)strlen(fp);
}

/* _formatArray's recursion: the text of the sub-array at (axis, base). */
typedef struct layout {
    const char *sep;
    size_t seplen, rsep_len; /* separator, and its length without trailing spaces */
    bool summ;
} layout;

static void append_line(fmt_state *st, char **line, size_t *llen, size_t *lcap, const char *s)
{
    size_t wl = strlen(s);
    if (*llen + wl + 1 > *lcap) {
        size_t cap = (*llen + wl + 1) * 2;
        char *p = nn_realloc(*line, cap);
        if (!p) {
            st->oom = true;
            return;
        }
        *line = p;
        *lcap = cap;
    }
    memcpy(*line + *llen, s, wl + 1);
    *llen += wl;
}

/* NumPy's _extendLine: word onto the line, the line first written out and a new
   one begun at the hanging indent when word would pass width (unless the line
   holds no more than the indent). */
static void extend_line(fmt_state *st, char **line, size_t *llen, size_t *lcap, const char *word, int width,
                        const char *indent, size_t ilen)
{
    bool wrap = (int)(*llen + strlen(word)) > width;
    if (*llen <= ilen) wrap = false;
    if (wrap) {
        size_t l = *llen;
        while (l > 0 && (*line)[l - 1] == ' ') l--;
        put(st, *line, l);
        put(st, "\n", 1);
        *llen = 0;
        (*line)[0] = 0;
        append_line(st, line, llen, lcap, indent);
    }
    append_line(st, line, llen, lcap, word);
}

/* Writes the sub-array's text to st (its first line without the hanging indent,
   as NumPy's recurser after it strips it). */
static void recurse(fmt_state *st, const layout *lo, const nn_tensor *t, const int64_t *cstr, int axis, int64_t base,
                    const char *indent, int width)
{
    if (axis == t->ndim) {
        char buf[512];
        fmt_elem(st, base, buf, sizeof buf);
        put(st, buf, strlen(buf));
        return;
    }
    size_t ilen = strlen(indent);
    char *next_indent = nn_malloc(ilen + 2);
    if (!next_indent) {
        st->oom = true;
        return;
    }
    memcpy(next_indent, indent, ilen);
    next_indent[ilen] = ' ';
    next_indent[ilen + 1] = 0;
    int next_width = width - 1;
    int64_t n = t->sizes[axis];
    bool show = lo->summ && 2 * 3 < n;
    int axes_left = t->ndim - axis;
    put(st, "[", 1);
    if (axes_left == 1) {
        int elem_width = width - (int)(lo->rsep_len > 1 ? lo->rsep_len : 1);
        size_t lcap = ilen + 64, llen = ilen;
        char *line = nn_malloc(lcap);
        if (!line) {
            st->oom = true;
            nn_free(next_indent);
            return;
        }
        memcpy(line, indent, ilen + 1);
        size_t mark = st->len;
        for (int64_t i = 0; i < n; i++) {
            char buf[512];
            if (show && i == 3) {
                extend_line(st, &line, &llen, &lcap, "...", elem_width, indent, ilen);
                append_line(st, &line, &llen, &lcap, lo->sep);
                i = n - 3;
            }
            fmt_elem(st, base + i * cstr[axis], buf, sizeof buf);
            extend_line(st, &line, &llen, &lcap, buf, elem_width, indent, ilen);
            if (i < n - 1) append_line(st, &line, &llen, &lcap, lo->sep);
        }
        put(st, line, llen);
        nn_free(line);
        /* the first line lost its hanging indent: drop it from what was written */
        if (!st->oom && st->len >= mark + ilen) {
            memmove(st->out + mark, st->out + mark + ilen, st->len - mark - ilen + 1);
            st->len -= ilen;
        }
    } else {
        for (int64_t i = 0; i < n; i++) {
            if (show && i == 3) {
                put(st, indent, ilen);
                put(st, "...", 3);
                put(st, lo->sep, lo->rsep_len);
                for (int k = 0; k < axes_left - 1; k++) put(st, "\n", 1);
                i = n - 3;
            }
            if (i > 0) put(st, indent, ilen);
            recurse(st, lo, t, cstr, axis + 1, base + i * cstr[axis], next_indent, next_width);
            if (i < n - 1) {
                put(st, lo->sep, lo->rsep_len);
                for (int k = 0; k < axes_left - 1; k++) put(st, "\n", 1);
            }
        }
    }
    put(st, "]", 1);
    nn_free(next_indent);
}

/* NumPy's FloatingFormat.fillFormat: st's float format from the elements shown (acc, from
   acc_visit over them) */
static void float_format(fmt_state *st, const nn_tensor *t, bool summ, const int64_t *cstr, bool suppress)
{
    if (acc.any_nonzero &&
        (acc.max_abs >= 1e8 || (!suppress && (acc.min_abs < 0.0001 || acc.max_abs / acc.min_abs > 1000.))))
        st->exp_format = true;
    if (!acc.any_finite) {
        st->pad_left = st->pad_right = 0;
        st->exp_size = -1;
        st->precision = st->opt_precision;
    } else {
        max_pl = max_pr = max_exp = 0;
        fill_visit(st, t, 0, 0, summ, cstr, pad_visit, st);
        st->pad_left = max_pl;
        if (st->exp_format) {
            st->exp_size = max_exp;
            st->precision = max_pr;
            st->pad_right = st->exp_size + 2 + st->precision;
        } else {
            st->pad_right = max_pr;
            st->precision = st->opt_precision;
            st->exp_size = -1;
        }
    }
    if (acc.any_nonfinite) {
        int offset = st->pad_right + 1;
        int inflen = 3 + (acc.neg_inf || st->plus);
        if (3 - offset > st->pad_left) st->pad_left = 3 - offset;
        if (inflen - offset > st->pad_left) st->pad_left = inflen - offset;
    }
}

/* _fmt(tensor, separator, prefix_len, linewidth) -> str: NumPy's array2string
   of the elements (the repr's "array(" prefix is prefix_len long; linewidth as
   NumPy's, already less the suffix; unsigned: an int64 tensor holding uint64's bits). */
static nn_object *h_fmt(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(8);
    nn_tensor *t;
    const char *sep;
    int64_t plen = 0, width = 75, prec = 8, threshold = 1000;
    bool suppress = false, is_unsigned = false;
    if (repl_parse_args("_fmt", "t, sep, prefix_len, linewidth, precision=, threshold=, suppress=, unsigned=", args,
                        kwargs, a) ||
        repl_arg_tensor("_fmt", "t", 1, a[0], &t) || repl_arg_str("_fmt", "sep", 2, a[1], &sep) ||
        repl_arg_int("_fmt", "prefix_len", 3, a[2], &plen) || repl_arg_int("_fmt", "linewidth", 4, a[3], &width) ||
        repl_arg_int("_fmt", "precision", 5, a[4], &prec) || repl_arg_int("_fmt", "threshold", 6, a[5], &threshold) ||
        repl_arg_bool("_fmt", "suppress", 7, a[6], &suppress) || repl_arg_bool("_fmt", "unsigned", 8, a[7], &is_unsigned))
        return NULL;
    if (prec < 0 || prec > 40) {
        repl_raise_exc(EXC_ValueError, "precision must be between 0 and 40");
        return NULL;
    }
    fmt_state st = {0};
    st.opt_precision = (int)prec;
    st.dt = t->dtype;
    st.is_float = nn_dtype_is_floating(t->dtype);
    st.is_bool = t->dtype == NN_BOOL;
    st.is_unsigned = is_unsigned && t->dtype == NN_INT64;
    fmt_state st_im = st;
    bool cplx = nn_dtype_is_complex(t->dtype);
    nn_tensor *conv = NULL, *conv_im = NULL, *hold = NULL, *hold_im = NULL;
    const void *data = NULL, *data_im = NULL;
    if (cplx) { /* the real and imaginary parts, each formatted as a float array */
        st.is_float = st_im.is_float = st_im.plus = true;
        st.dt = st_im.dt = nn_dtype_to_real(t->dtype);
        nn_tensor *re = nn_real(t), *im = re ? nn_imag(t) : NULL;
        conv = re ? nn_to_dtype(re, NN_FLOAT64) : NULL;
        conv_im = im ? nn_to_dtype(im, NN_FLOAT64) : NULL;
        NN_RELEASE(re);
        NN_RELEASE(im);
        data_im = conv_im ? nn_host_read(conv_im, &hold_im) : NULL;
        st_im.d = data_im;
        st.imag = &st_im;
    } else {
        conv = nn_to_dtype(t, st.is_float ? NN_FLOAT64 : NN_INT64);
    }
    data = conv ? nn_host_read(conv, &hold) : NULL;
    if (!data || (cplx && !data_im)) {
        NN_RELEASE(hold);
        NN_RELEASE(conv);
        NN_RELEASE(hold_im);
        NN_RELEASE(conv_im);
        return NULL;
    }
    st.d = data;
    st.i = data;
    int64_t numel = nn_numel(t);
    int64_t cstr[NN_MAX_DIMS];
    int64_t s = 1;
    for (int k = t->ndim - 1; k >= 0; k--) {
        cstr[k] = s;
        s *= t->sizes[k];
    }
    bool summ = numel > threshold;
    memset(&acc, 0, sizeof acc);
    fill_visit(&st, t, 0, 0, summ, cstr, acc_visit, &st);
    if (st.is_bool) {
        st.bool_pad = t->ndim > 0;
    } else if (!st.is_float) {
        int w1 = st.is_unsigned ? snprintf(NULL, 0, "%llu", (unsigned long long)acc.imax)
                                : snprintf(NULL, 0, "%lld", (long long)acc.imax),
            w2 = snprintf(NULL, 0, "%lld", (long long)acc.imin);
        st.int_width = w1 > w2 ? w1 : w2;
    } else if (st.imag) { /* complex: the real parts' format, then the imaginary parts' */
        float_format(&st, t, summ, cstr, suppress);
        memset(&acc, 0, sizeof acc);
        fill_visit(&st_im, t, 0, 0, summ, cstr, acc_visit, &st_im);
        float_format(&st_im, t, summ, cstr, suppress);
    } else {
        float_format(&st, t, summ, cstr, suppress);
    }
    layout lo;
    lo.sep = sep;
    lo.seplen = strlen(sep);
    lo.rsep_len = lo.seplen;
    while (lo.rsep_len > 0 && sep[lo.rsep_len - 1] == ' ') lo.rsep_len--;
    lo.summ = summ;
    nn_object *r = NULL;
    if (t->ndim == 0) {
        char buf[512];
        fmt_elem(&st, 0, buf, sizeof buf);
        r = nn_str_new(buf);
    } else {
        char *indent = nn_malloc((size_t)plen + 2);
        if (indent) {
            memset(indent, ' ', (size_t)plen + 1);
            indent[plen + 1] = 0;
            recurse(&st, &lo, t, cstr, 0, 0, indent, (int)width);
            nn_free(indent);
            r = st.oom ? NULL : nn_str_new(st.out ? st.out : "");
        }
    }
    nn_free(st.out);
    NN_RELEASE(hold);
    NN_RELEASE(conv);
    NN_RELEASE(hold_im);
    NN_RELEASE(conv_im);
    if (!r && !nn_error_current()) nn_error_set(NN_ERR_MEMORY, "%s", "");
    return r;
}

/* _scalar_repr(x, dtype_tensor): a NumPy scalar of a float dtype as NumPy 1.x
   prints it: the shortest digits for its dtype, positional between 1e-4 and
   1e16, else scientific, as Python's float repr is for float64. */
static nn_object *h_scalar_repr(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *t;
    if (repl_parse_args("_scalar_repr", "t", args, kwargs, a) || repl_arg_tensor("_scalar_repr", "t", 1, a[0], &t))
        return NULL;
    double x;
    if (nn_item(t, &x)) return NULL;
    if (!nn_dtype_is_floating(t->dtype)) return nn_str_format("%lld", (long long)x);
    if (isnan(x)) return nn_str_new("nan");
    if (isinf(x)) return nn_str_new(x < 0 ? "-inf" : "inf");
    char dig[40];
    int e10, n = shortest_digits(x, t->dtype, dig, &e10);
    char buf[512];
    const char *sg = signbit(x) ? "-" : "";
    if (x != 0 && (e10 < -4 || e10 >= 16)) {
        if (n == 1)
            snprintf(buf, sizeof buf, "%s%ce%c%02d", sg, dig[0], e10 < 0 ? '-' : '+', abs(e10));
        else
            snprintf(buf, sizeof buf, "%s%c.%se%c%02d", sg, dig[0], dig + 1, e10 < 0 ? '-' : '+', abs(e10));
    } else {
        char ip[400], fp[64];
        positional(x, t->dtype, 40, ip, fp);
        snprintf(buf, sizeof buf, "%s.%s", ip, fp[0] ? fp : "0");
    }
    return nn_str_new(buf);
}

/* -------------------------------------------------- the legacy MT19937 */

/* A RandomState's state lives in an int64 tensor of 627 elements: the 624 words
   of the key, the position, has_gauss and the cached gauss (its bits). */
#define MT_N 624
#define MT_M 397
#define MT_LEN 627

typedef struct mt_state {
    int64_t *w;
} mt_state;

static int mt_get(nn_object *o, mt_state *st)
{
    if (!nn_is_tensor(o) || NN_TENSOR(o)->dtype != NN_INT64 || nn_numel(NN_TENSOR(o)) != MT_LEN ||
        !nn_is_contiguous(NN_TENSOR(o)) || nn_device_of(NN_TENSOR(o)).type != NN_CPU) {
        repl_raise_exc(EXC_TypeError, "not a RandomState state");
        return -1;
    }
    st->w = nn_host_borrow(NN_TENSOR(o)); /* a CPU tensor (checked above): host memory */
    return 0;
}

static void mt_init(mt_state *st, uint32_t s)
{
    for (int i = 0; i < MT_N; i++) {
        st->w[i] = s;
        s = (uint32_t)(1812433253UL * (s ^ (s >> 30)) + (uint32_t)i + 1);
    }
    st->w[MT_N] = MT_N;
    st->w[MT_N + 1] = 0;
    st->w[MT_N + 2] = 0;
}

static void mt_init_by_array(mt_state *st, const uint32_t *key, int64_t len)
{
    mt_init(st, 19650218UL);
    int64_t i = 1, j = 0, k = MT_N > len ? MT_N : len;
    uint32_t *m = nn_malloc(MT_N * sizeof *m);
    if (!m) return;
    for (int q = 0; q < MT_N; q++) m[q] = (uint32_t)st->w[q];
    for (; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1664525UL)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            m[0] = m[MT_N - 1];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (k = MT_N - 1; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1566083941UL)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            m[0] = m[MT_N - 1];
            i = 1;
        }
    }
    m[0] = 0x80000000UL;
    for (int q = 0; q < MT_N; q++) st->w[q] = m[q];
    nn_free(m);
}

static uint32_t mt_next32(mt_state *st)
{
    if (st->w[MT_N] >= MT_N) {
        uint32_t mag[2] = {0, 0x9908b0dfUL};
        int kk;
        uint32_t y;
#define W(i) ((uint32_t)st->w[i])
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (W(kk) & 0x80000000UL) | (W(kk + 1) & 0x7fffffffUL);
            st->w[kk] = W(kk + MT_M) ^ (y >> 1) ^ mag[y & 1];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (W(kk) & 0x80000000UL) | (W(kk + 1) & 0x7fffffffUL);
            st->w[kk] = W(kk + (MT_M - MT_N)) ^ (y >> 1) ^ mag[y & 1];
        }
        y = (W(MT_N - 1) & 0x80000000UL) | (W(0) & 0x7fffffffUL);
        st->w[MT_N - 1] = W(MT_M - 1) ^ (y >> 1) ^ mag[y & 1];
#undef W
        st->w[MT_N] = 0;
    }
    uint32_t y = (uint32_t)st->w[st->w[MT_N]++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680UL;
    y ^= (y << 15) & 0xefc60000UL;
    y ^= y >> 18;
    return y;
}

static uint64_t mt_next64(mt_state *st)
{
    uint64_t hi = mt_next32(st);
    return hi << 32 | mt_next32(st);
}

static double mt_double(mt_state *st)
{
    int32_t a = (int32_t)(mt_next32(st) >> 5), b = (int32_t)(mt_next32(st) >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
}

static double mt_gauss(mt_state *st)
{
    if (st->w[MT_N + 1]) {
        double g;
        memcpy(&g, &st->w[MT_N + 2], sizeof g);
        st->w[MT_N + 1] = 0;
        st->w[MT_N + 2] = 0;
        return g;
    }
    double f, x1, x2, r2;
    do {
        x1 = 2.0 * mt_double(st) - 1.0;
        x2 = 2.0 * mt_double(st) - 1.0;
        r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    f = sqrt(-2.0 * log(r2) / r2);
    double keep = f * x1;
    memcpy(&st->w[MT_N + 2], &keep, sizeof keep);
    st->w[MT_N + 1] = 1;
    return f * x2;
}

static uint64_t mask_of(uint64_t v)
{
    v |= v >> 1;
    v |= v >> 2;
    v |= v >> 4;
    v |= v >> 8;
    v |= v >> 16;
    v |= v >> 32;
    return v;
}

/* A value in [0, rng] by masked rejection, as NumPy's bounded_masked draws. */
static uint64_t mt_bounded(mt_state *st, uint64_t rng)
{
    if (rng == 0) return 0;
    uint64_t mask = mask_of(rng), v;
    if (rng <= 0xffffffffULL) {
        if (rng == 0xffffffffULL) return mt_next32(st);
        while ((v = (mt_next32(st) & mask)) > rng) {}
    } else {
        if (rng == UINT64_MAX) return mt_next64(st);
        while ((v = (mt_next64(st) & mask)) > rng) {}
    }
    return v;
}

/* NumPy's buffered draws for 8-, 16- and 1-bit integers (random_bounded_uint8/uint16/bool_fill):
   one 32-bit output serves 4, 2 or 32 values, low bits first; masked rejection on each. */
typedef struct {
    uint32_t buf;
    int left;
} mt_buffer;

static uint64_t mt_buffered(mt_state *st, mt_buffer *b, int bits)
{
    if (b->left == 0) {
        b->buf = mt_next32(st);
        b->left = 32 / bits - 1;
    } else {
        b->buf >>= bits;
        b->left--;
    }
    return b->buf & (bits == 32 ? 0xffffffffu : (1u << bits) - 1);
}

static uint64_t mt_bounded_narrow(mt_state *st, mt_buffer *b, int bits, uint64_t rng)
{
    if (rng == 0) return 0;
    uint64_t full = (1ull << bits) - 1, mask = mask_of(rng), v;
    if (rng == full) return mt_buffered(st, b, bits);
    while ((v = (mt_buffered(st, b, bits) & mask)) > rng) {}
    return v;
}

/* _mt_seed(state, seed): seed an int (init_genrand) or a list of ints (init_by_array). */
static nn_object *h_mt_seed(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    mt_state st;
    if (repl_parse_args("_mt_seed", "state, seed", args, kwargs, a) || mt_get(a[0], &st)) return NULL;
    if (nn_is_none(a[1])) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint32_t key[3] = {(uint32_t)ts.tv_sec, (uint32_t)ts.tv_nsec, (uint32_t)clock()};
        mt_init_by_array(&st, key, 3);
    } else if (nn_is_int(a[1]) || nn_is_bool(a[1])) {
        int64_t s = nn_int_value(a[1]);
        if (s < 0 || s > 0xffffffffLL) {
            repl_raise_exc(EXC_ValueError, "Seed must be between 0 and 2**32 - 1");
            return NULL;
        }
        mt_init(&st, (uint32_t)s);
    } else {
        nn_object *l = repl_to_list(a[1]);
        if (!l) return NULL;
        size_t n = nn_list_len(l);
        if (n == 0) {
            NN_RELEASE(l);
            repl_raise_exc(EXC_ValueError, "Seed must be non-empty");
            return NULL;
        }
        uint32_t *key = nn_malloc(n * sizeof *key);
        if (!key) {
            NN_RELEASE(l);
            return NULL;
        }
        for (size_t i = 0; i < n; i++) {
            nn_object *v = nn_list_get(l, i);
            if (!nn_is_int(v) || nn_int_value(v) < 0 || nn_int_value(v) > 0xffffffffLL) {
                nn_free(key);
                NN_RELEASE(l);
                repl_raise_exc(EXC_ValueError, "Seed must be between 0 and 2**32 - 1");
                return NULL;
            }
            key[i] = (uint32_t)nn_int_value(v);
        }
        mt_init_by_array(&st, key, (int64_t)n);
        nn_free(key);
        NN_RELEASE(l);
    }
    return nn_retain(nn_none());
}

/* _mt_draw(state, kind, n, a, b) -> float64 or int64 tensor of n draws:
   kind 0 random_sample, 1 gauss, 2 integers off a + [0, b] (masked), 3 one
   random_interval(b) as an int, 4/5/6 integers a + [0, b] of an 8-bit/16-bit/bool dtype
   (NumPy's buffered draws). */
static nn_object *h_mt_draw(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    mt_state st;
    int64_t kind, n, lo = 0, rng = 0;
    if (repl_parse_args("_mt_draw", "state, kind, n, a, b", args, kwargs, a) || mt_get(a[0], &st) ||
        repl_arg_int("_mt_draw", "kind", 2, a[1], &kind) || repl_arg_int("_mt_draw", "n", 3, a[2], &n) ||
        repl_arg_int("_mt_draw", "a", 4, a[3], &lo) || repl_arg_int("_mt_draw", "b", 5, a[4], &rng))
        return NULL;
    if (kind == 3) return nn_int_new((int64_t)mt_bounded(&st, (uint64_t)rng));
    int64_t sizes[1] = {n < 0 ? 0 : n};
    nn_tensor *t = nn_empty_on(NN_DEVICE_CPU, 1, sizes, kind >= 2 ? NN_INT64 : NN_FLOAT64); /* numpy's arrays: host memory */
    if (!t) return NULL;
    double *d = nn_host_borrow(t);
    int64_t *iv = nn_host_borrow(t);
    mt_buffer b = {0, 0};
    int bits = kind == 4 ? 8 : kind == 5 ? 16 : 1;
    for (int64_t i = 0; i < sizes[0]; i++) {
        if (kind == 0) d[i] = mt_double(&st);
        else if (kind == 1) d[i] = mt_gauss(&st);
        else if (kind == 2) iv[i] = lo + (int64_t)mt_bounded(&st, (uint64_t)rng);
        else iv[i] = lo + (int64_t)mt_bounded_narrow(&st, &b, bits, (uint64_t)rng);
    }
    return (nn_object *)t;
}

/* ------------------------------------------------------- NumPy's sums */

/* NumPy's pairwise summation (its add.reduce inner loop): eight accumulators up to
   128 elements, halves (at multiples of 8) beyond. In double or in float as dt. */
static double pairwise(const double *a, int64_t n, int64_t stride, bool f32)
{
#define ADD(x, y) (f32 ? (double)((float)(x) + (float)(y)) : (x) + (y))
    if (n < 8) {
        double res = 0.;
        for (int64_t i = 0; i < n; i++) res = ADD(res, a[i * stride]);
        return res;
    }
    if (n <= 128) {
        double r[8];
        int64_t i;
        for (int j = 0; j < 8; j++) r[j] = a[j * stride];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++) r[j] = ADD(r[j], a[(i + j) * stride]);
        double res = ADD(ADD(ADD(r[0], r[1]), ADD(r[2], r[3])), ADD(ADD(r[4], r[5]), ADD(r[6], r[7])));
        for (; i < n; i++) res = ADD(res, a[i * stride]);
        return res;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    double x = pairwise(a, n2, stride, f32), y = pairwise(a + n2 * stride, n - n2, stride, f32);
    return ADD(x, y);
#undef ADD
}

/* _sum(t, axes, chunk) -> tensor: np.add.reduce of a contiguous float32/float64 tensor over
   the axes (a tuple; None: all), in the order NumPy's iterator adds them: through memory,
   each run of elements that the trailing reduced axes make (one pairwise sum, in chunks of
   `chunk` elements when NumPy buffers a cast) added to its output element one after
   another; where the last axis is kept, every element is such a run (row by row sums). */
static nn_object *h_sum(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *t;
    int64_t chunk = 0;
    if (repl_parse_args("_sum", "t, axes, chunk", args, kwargs, a) || repl_arg_tensor("_sum", "t", 1, a[0], &t) ||
        repl_arg_int("_sum", "chunk", 3, a[2], &chunk))
        return NULL;
    if (t->dtype != NN_FLOAT64 && t->dtype != NN_FLOAT32) {
        repl_raise_exc(EXC_TypeError, "_sum() expects a float tensor");
        return NULL;
    }
    bool red[NN_MAX_DIMS], f32 = t->dtype == NN_FLOAT32;
    for (int k = 0; k < t->ndim; k++) red[k] = nn_is_none(a[1]);
    if (!nn_is_none(a[1])) {
        if (a[1]->type != &nn_tuple_type) {
            repl_raise_exc(EXC_TypeError, "_sum(): axes must be a tuple or None");
            return NULL;
        }
        for (size_t i = 0; i < nn_tuple_len(a[1]); i++) {
            int64_t ax;
            if (repl_arg_int("_sum", "axes", 2, nn_tuple_get(a[1], i), &ax)) return NULL;
            if (ax < 0 || ax >= t->ndim) {
                repl_raise_exc(EXC_ValueError, "_sum(): bad axis");
                return NULL;
            }
            red[ax] = true;
        }
    }
    nn_tensor *c = nn_to_dtype(t, NN_FLOAT64);
    if (!c) return NULL;
    nn_tensor *hold = NULL;
    const double *d = nn_host_read(c, &hold);
    if (!d) {
        NN_RELEASE(c);
        return NULL;
    }
    /* per axis: its elements' distance and its output element's distance (kept axes) */
    int64_t n = nn_numel(t), osz[NN_MAX_DIMS], estride[NN_MAX_DIMS], ostride[NN_MAX_DIMS], ond = 0, run = 1;
    for (int k = 0; k < t->ndim; k++)
        if (!red[k]) osz[ond++] = t->sizes[k];
    for (int k = t->ndim - 1, e = 1, o = 1; k >= 0; k--) {
        estride[k] = e;
        ostride[k] = red[k] ? 0 : o;
        e *= t->sizes[k];
        if (!red[k]) o *= t->sizes[k];
    }
    int last = t->ndim - 1;
    while (last >= 0 && (red[last] || t->sizes[last] == 1)) run *= t->sizes[last--]; /* size 1: no axis to NumPy */
    nn_tensor *r = nn_empty_on(NN_DEVICE_CPU, (int)ond, osz, NN_FLOAT64); /* numpy's arrays: host memory */
    if (r) {
        double *o = nn_host_borrow(r);
        int64_t m = nn_numel(r), step = chunk > 0 ? chunk : (run > 0 ? run : 1);
        for (int64_t i = 0; i < m; i++) o[i] = 0.;
        for (int64_t p = 0; p < n; p += run) {
            int64_t oi = 0;
            for (int k = 0; k <= last; k++) oi += (p / estride[k]) % t->sizes[k] * ostride[k];
            for (int64_t i = 0; i < run; i += step) {
                double s = pairwise(d + p + i, run - i < step ? run - i : step, 1, f32);
                o[oi] = f32 ? (double)((float)o[oi] + (float)s) : o[oi] + s;
            }
        }
        if (f32) NN_SET(r, nn_to_dtype(r, NN_FLOAT32));
    }
    NN_RELEASE(hold);
    NN_RELEASE(c);
    return (nn_object *)r;
}

/* _libm(t, name) -> tensor: C's libm function `name` on each element of a float64 tensor.
   NumPy's float64 sin, exp, log, ... call libm per element where the CPU has no AVX-512
   (its SIMD versions need AVX512F/SKX); torch's kernels are SLEEF's, an ulp apart. */
static const struct { const char *name; double (*fn)(double); } libm_fns[] = {
    {"sin", sin},     {"cos", cos},     {"tan", tan},     {"arcsin", asin}, {"arccos", acos},
    {"arctan", atan}, {"sinh", sinh},   {"cosh", cosh},   {"exp", exp},     {"exp2", exp2},
    {"expm1", expm1}, {"log", log},     {"log2", log2},   {"log10", log10}, {"log1p", log1p},
};

static nn_object *h_libm(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *t;
    const char *name;
    if (repl_parse_args("_libm", "t, name", args, kwargs, a) || repl_arg_tensor("_libm", "t", 1, a[0], &t) ||
        repl_arg_str("_libm", "name", 2, a[1], &name))
        return NULL;
    double (*fn)(double) = NULL;
    for (size_t i = 0; i < sizeof libm_fns / sizeof libm_fns[0]; i++)
        if (!strcmp(libm_fns[i].name, name)) fn = libm_fns[i].fn;
    if (!fn || t->dtype != NN_FLOAT64) {
        repl_raise_exc(EXC_ValueError, "_libm() expects a float64 tensor and a libm function's name");
        return NULL;
    }
    nn_tensor *hold = NULL;
    const double *d = nn_host_read(t, &hold);
    if (!d) return NULL;
    nn_tensor *r = nn_empty_on(NN_DEVICE_CPU, t->ndim, t->sizes, NN_FLOAT64); /* numpy's arrays: host memory */
    if (r) {
        double *o = nn_host_borrow(r);
        for (int64_t i = 0, n = nn_numel(t); i < n; i++) o[i] = fn(d[i]);
    }
    NN_RELEASE(hold);
    return (nn_object *)r;
}

/* _slice_parts(k) -> (start, stop, step) of a slice, or None for anything else */
static nn_object *h_slice_parts(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("_slice_parts", "k", args, kwargs, a)) return NULL;
    if (!repl_is_slice(a[0])) return nn_retain(nn_none());
    nn_object *p[3];
    repl_slice_parts(a[0], &p[0], &p[1], &p[2]);
    nn_object *r = nn_tuple_pack(3, p[0], p[1], p[2]);
    for (int i = 0; i < 3; i++) NN_RELEASE(p[i]);
    return r;
}

static const repl_mod_fn helpers[] = {
    {"_npy_save", repl_np_npy_save, NULL}, /* np_raw.c */
    {"_npy_load", repl_np_npy_load, NULL},
    {"_slice_parts", h_slice_parts, NULL},
    {"_sum", h_sum, NULL},
    {"_libm", h_libm, NULL},
    {"_simd_f32", repl_np_simd_f32, NULL}, /* np_simd.c: NumPy's AVX2 float32 exp and log */
    {"_register", h_register, NULL},
    {"_fmt", h_fmt, NULL},
    {"_scalar_repr", h_scalar_repr, NULL},
    {"_mt_seed", h_mt_seed, NULL},
    {"_mt_draw", h_mt_draw, NULL},
    {"_pcg_seed", repl_np_pcg_seed, NULL},   /* np_pcg64.c: default_rng's PCG64 */
    {"_pcg_draw", repl_np_pcg_draw, NULL},
    {"_pcg_dist", repl_np_pcg_dist, NULL}, /* its distributions */
    {"_register_scalar", repl_np_register_scalar, NULL}, /* np_scalar.c: the scalar types */
    {"_scalar_new", repl_np_scalar_new, NULL},
    {"_argsort_rows", repl_np_argsort_rows, NULL}, /* np_sort.c: NumPy's quicksort and heapsort */
    {"_type_name", repl_np_type_name, NULL},
    {"_raw_read", repl_np_raw_read, NULL},   /* np_raw.c: tofile, fromfile, memmap, tobytes, frombuffer */
    {"_raw_size", repl_np_raw_size, NULL},
    {"_raw_write", repl_np_raw_write, NULL},
    {"_frombytes", repl_np_frombytes, NULL},
    {"_tobytes", repl_np_tobytes, NULL},
    {"_raw_map", repl_np_raw_map, NULL},
    {"_raw_sync", repl_np_raw_sync, NULL},
    {"_raw_create", repl_np_raw_create, NULL},
};

extern const char repl_numpy_scalars_source[]; /* mod_numpy_scalars_src.c: np.float64, ..., run first */
extern const char repl_numpy_source[];         /* mod_numpy_src.c */
extern const char repl_numpy_files_source[];   /* mod_numpy_files_src.c: tofile, fromfile, memmap, ... */
extern const char repl_numpy_more_source[];    /* mod_numpy_more_src.c: moveaxis, histogram, loadtxt, linalg.inv, ... */

nn_object *repl_mod_numpy(void)
{
    /* the scalar types and the main source run as one body: each one's functions see the other's names */
    size_t ns = strlen(repl_numpy_scalars_source), nm = strlen(repl_numpy_source);
    char *body = nn_malloc(ns + nm + 1);
    if (!body) return NULL;
    memcpy(body, repl_numpy_scalars_source, ns);
    memcpy(body + ns, repl_numpy_source, nm + 1);
    nn_object *m = repl_mod_from_source("numpy", helpers, sizeof helpers / sizeof *helpers, body);
    nn_free(body);
    if (m && repl_exec_module_source(m, "numpy", repl_numpy_files_source, "<frozen numpy>") < 0) NN_SET(m, NULL);
    if (m && repl_exec_module_source(m, "numpy", repl_numpy_more_source, "<frozen numpy>") < 0) NN_SET(m, NULL);
    /* the parts written wholly in the language (repl/lib/_np_*.py), over the names above: a
       source's functions see the names of the sources run before it, not after */
    static const char *const parts[] = {"_np_linalg", "_np_stats", "_np_index", "_np_npz", "_np_fft"};
    for (size_t i = 0; m && i < sizeof parts / sizeof *parts; i++)
        if (repl_exec_module_source(m, "numpy", repl_pylib_source(parts[i]), "<frozen numpy>") < 0) NN_SET(m, NULL);
    return m;
}

/* numpy's submodules, for `import numpy.linalg`, `from numpy.random import default_rng`,
   `from numpy.fft import fft`: the numpy module's objects of those names */
static nn_object *numpy_part(const char *name)
{
    nn_object *m = repl_stdlib_module("numpy");
    nn_object *v = m ? repl_get_attr(m, name) : NULL;
    NN_RELEASE(m);
    return v;
}

nn_object *repl_mod_numpy_linalg(void) { return numpy_part("linalg"); }
nn_object *repl_mod_numpy_random(void) { return numpy_part("random"); }
nn_object *repl_mod_numpy_fft(void) { return numpy_part("fft"); }

/* ------------------------------------------------------------ the bridge */

nn_tensor *repl_numpy_tensor_of(nn_object *o)
{
    if (!ndarray_cls || !o || o->type != &repl_instance_type) return NULL;
    instance_obj *in = (instance_obj *)o;
    if (!repl_class_is_subclass(in->cls, ndarray_cls)) return NULL;
    nn_object *t = repl_nmap_get(&in->attrs, "_t");
    return t && nn_is_tensor(t) ? NN_TENSOR(t) : NULL;
}

bool repl_numpy_legacy_new(nn_object *o, nn_dtype dt, nn_object **r)
{
    nn_tensor *np = repl_numpy_tensor_of(o);
    if (!np) return false;
    *r = NULL;
    if (repl_numpy_unconvertible(o)) return true;
    nn_tensor *c = nn_to_dtype(np, dt);
    if (c && c == np) NN_SET(c, nn_detach(np)); /* the same dtype: shares the array's memory */
    *r = (nn_object *)c;
    return true;
}

int repl_numpy_unconvertible(nn_object *o)
{
    if (!repl_numpy_tensor_of(o)) return 0;
    nn_object *u = repl_nmap_get(&((instance_obj *)o)->attrs, "_u");
    if (!u || !nn_is_str(u)) return 0;
    return repl_raise_exc(EXC_TypeError,
                          "can't convert np.ndarray of type numpy.%s. The only supported types are: float64, float32, "
                          "float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool.",
                          nn_str_cstr(u));
}

/* numpy's function name (one of the module's), called with args; a new reference or NULL. */
static nn_object *call_numpy(const char *name, nn_object *const *args, int n)
{
    nn_object *m = repl_stdlib_module("numpy");
    if (!m) {
        if (!nn_error_current()) nn_error_set(NN_ERR_MEMORY, "%s", "");
        return NULL;
    }
    nn_object *f = repl_get_attr(m, name);
    NN_RELEASE(m);
    if (!f) return NULL;
    nn_object *r = repl_call_object(f, args, n, NULL);
    NN_RELEASE(f);
    return r;
}

nn_object *repl_numpy_from_tensor(nn_tensor *t)
{
    if (t->requires_grad) {
        repl_raise_exc(EXC_RuntimeError,
                       "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.");
        return NULL;
    }
    if (nn_device_of(t).type != NN_CPU) {
        char buf[32];
        repl_raise_exc(EXC_TypeError,
                       "can't convert %s device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host "
                       "memory first.",
                       nn_device_str(nn_device_of(t), buf, sizeof buf));
        return NULL;
    }
    nn_object *arg = (nn_object *)t;
    return call_numpy("_from_tensor", &arg, 1);
}

static nn_object *m_numpy(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    bool force = false;
    if (repl_parse_args("numpy", "self, *, force=", args, kwargs, a) ||
        repl_arg_bool("numpy", "force", 0, a[0], &force))
        return NULL;
    nn_tensor *t = NN_TENSOR(self);
    if (force) {
        nn_tensor *d = nn_detach(t);
        if (!d) return NULL;
        nn_object *r = repl_numpy_from_tensor(d);
        NN_RELEASE(d);
        return r;
    }
    return repl_numpy_from_tensor(t);
}

static const repl_method_def numpy_methods[] = {
    {"numpy", m_numpy,
     "numpy(*, force=False) -> numpy.ndarray\n"
     "Returns the tensor as a NumPy ndarray that shares its memory (RuntimeError for a tensor that requires grad)."},
    {NULL, NULL, NULL},
};

nn_object *repl_numpy_method(nn_tensor *t, const char *name)
{
    return repl_method_lookup(numpy_methods, name, &t->ob);
}

static nn_object *f_from_numpy(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("from_numpy", "ndarray", args, kwargs, a) || repl_numpy_unconvertible(a[0])) return NULL;
    nn_tensor *t = repl_numpy_tensor_of(a[0]);
    if (!t) {
        repl_raise_exc(EXC_TypeError, "expected np.ndarray (got %s)",
                       repl_numpy_is_scalar(a[0]) ? repl_value_type_name(a[0]) : repl_type_name(a[0]));
        return NULL;
    }
    return (nn_object *)nn_detach(t);
}

static nn_object *f_as_tensor(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    int dtype = -1;
    nn_device dev;
    if (repl_parse_args("as_tensor", "data, dtype=, device=", args, kwargs, a) ||
        repl_arg_device_to("as_tensor", a[2], &dev) || repl_arg_dtype("as_tensor", "dtype", 0, a[1], &dtype) ||
        repl_numpy_unconvertible(a[0]))
        return NULL;
    nn_tensor *src = nn_is_tensor(a[0]) ? NN_TENSOR(a[0]) : repl_numpy_tensor_of(a[0]);
    nn_tensor *t;
    if (src) {
        /* shares the memory when neither dtype nor device changes it */
        t = nn_is_tensor(a[0]) ? (nn_tensor *)nn_retain((nn_object *)src) : nn_detach(src);
        if (t && dtype >= 0) NN_SET(t, nn_to_dtype(t, (nn_dtype)dtype));
    } else {
        nn_object *v = repl_deep_values(a[0]); /* np.array([P(1, 2)]) of namedtuples */
        t = v ? nn_tensor_from_nested(v, dtype) : NULL;
        NN_RELEASE(v);
    }
    return (nn_object *)(a[2] ? repl_tensor_on(t, dev) : t);
}

static const repl_function_def numpy_torch_functions[] = {
    {"from_numpy", f_from_numpy,
     "from_numpy(ndarray) -> Tensor\n"
     "Creates a Tensor from a numpy.ndarray; the two share their memory."},
    {"as_tensor", f_as_tensor,
     "as_tensor(data, dtype=None, device=None) -> Tensor\n"
     "Converts data into a tensor, sharing data (a tensor or an ndarray) when dtype and device allow."},
};

int repl_numpy_add_torch_functions(nn_object *torch)
{
    return repl_namespace_add_fns(torch, numpy_torch_functions,
                                  sizeof numpy_torch_functions / sizeof numpy_torch_functions[0]);
}
