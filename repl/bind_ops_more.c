/*
 * bind_ops_more.c — more tensor functions as torch functions and tensor
 * methods: prod, amax, amin, aminmax, median, mode, diag, diagonal,
 * diag_embed, index_add (and index_add_), outer, count_nonzero, nonzero,
 * unique, bincount, histc, histogram, einsum, meshgrid, repeat_interleave;
 * out= on the common torch functions (repl_out_call);
 * the legacy typed constructors torch.FloatTensor, DoubleTensor, LongTensor,
 * IntTensor, BoolTensor, HalfTensor, BFloat16Tensor (isinstance and
 * x.type(torch.FloatTensor) included). The ops are core/select_more.c's.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "bytes_int.h"
#include "nn_select.h"
#include "nn_misc_ops.h"
#include "nn_select_more.h"

#define ARGS(n) nn_object *a[n] = {0}
static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

#define no_out repl_no_out

/* ---------------------------------------------------------- reductions */

/* prod(input, *, dtype=None) / prod(input, dim, keepdim=False, *, dtype=None) */
static nn_object *f_prod(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    bool keepdim = false;
    int dtype = -1;
    if (repl_parse_args("prod", "input, dim=, keepdim=, *, dtype=, out=", args, kwargs, a) ||
        repl_arg_tensor("prod", "input", 1, a[0], &x))
        return NULL;
    bool has_dim = a[1] && !nn_is_none(a[1]);
    if ((has_dim && repl_arg_dim("prod", "dim", 2, a[1], x->ndim, &dim)) ||
        repl_arg_bool("prod", "keepdim", 3, a[2], &keepdim) || repl_arg_dtype("prod", "dtype", 0, a[3], &dtype) ||
        no_out("prod", a[4]))
        return NULL;
    return T(nn_prod(x, has_dim, (int)dim, keepdim, dtype));
}

static nn_object *amax_amin(const char *f, nn_object *args, nn_object *kwargs, bool is_max)
{
    ARGS(4);
    nn_tensor *x = NULL;
    int n = 0, dims[NN_MAX_DIMS];
    bool keepdim = false;
    if (repl_parse_args(f, "input, dim=, keepdim=, *, out=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_dims(f, "dim", 2, a[1], &n, dims) || repl_arg_bool(f, "keepdim", 3, a[2], &keepdim) || no_out(f, a[3]))
        return NULL;
    return T(is_max ? nn_amax(x, n, dims, keepdim) : nn_amin(x, n, dims, keepdim));
}

static nn_object *f_amax(void *ud, nn_object *args, nn_object *kwargs) { return amax_amin("amax", args, kwargs, true); }
static nn_object *f_amin(void *ud, nn_object *args, nn_object *kwargs) { return amax_amin("amin", args, kwargs, false); }

static nn_object *f_aminmax(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    bool keepdim = false;
    if (repl_parse_args("aminmax", "input, *, dim=, keepdim=, out=", args, kwargs, a) ||
        repl_arg_tensor("aminmax", "input", 1, a[0], &x))
        return NULL;
    bool has_dim = a[1] && !nn_is_none(a[1]);
    if ((has_dim && repl_arg_dim("aminmax", "dim", 0, a[1], x->ndim, &dim)) ||
        repl_arg_bool("aminmax", "keepdim", 0, a[2], &keepdim) || no_out("aminmax", a[3]))
        return NULL;
    nn_tensor *lo = NULL, *hi = NULL;
    int rc = nn_aminmax(x, has_dim, (int)dim, keepdim, &lo, &hi);
    return repl_return_pair(rc, lo, hi, REPL_RETURN_aminmax);
}

/* median(input) / median(input, dim, keepdim=False) */
static nn_object *f_median(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *v = NULL, *i = NULL;
    int64_t dim = -1;
    bool keepdim = false;
    if (repl_parse_args("median", "input, dim=, keepdim=, *, out=", args, kwargs, a) ||
        repl_arg_tensor("median", "input", 1, a[0], &x) || no_out("median", a[3]))
        return NULL;
    if (!a[1] || nn_is_none(a[1])) return T(nn_median_all(x));
    if (repl_arg_dim("median", "dim", 2, a[1], x->ndim, &dim) || repl_arg_bool("median", "keepdim", 3, a[2], &keepdim))
        return NULL;
    int rc = nn_median_dim(x, (int)dim, keepdim, &v, &i);
    return repl_return_pair(rc, v, i, REPL_RETURN_median);
}

static nn_object *f_mode(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *v = NULL, *i = NULL;
    int64_t dim = -1;
    bool keepdim = false;
    if (repl_parse_args("mode", "input, dim=, keepdim=, *, out=", args, kwargs, a) ||
        repl_arg_tensor("mode", "input", 1, a[0], &x) || repl_arg_dim("mode", "dim", 2, a[1], x->ndim, &dim) ||
        repl_arg_bool("mode", "keepdim", 3, a[2], &keepdim) || no_out("mode", a[3]))
        return NULL;
    int rc = nn_mode(x, (int)dim, keepdim, &v, &i);
    return repl_return_pair(rc, v, i, REPL_RETURN_mode);
}

/* count_nonzero(input, dim=None): (input != 0).sum(dim) */
static nn_object *f_count_nonzero(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    int n = 0, dims[NN_MAX_DIMS];
    if (repl_parse_args("count_nonzero", "input, dim=", args, kwargs, a) ||
        repl_arg_tensor("count_nonzero", "input", 1, a[0], &x) || repl_arg_dims("count_nonzero", "dim", 2, a[1], &n, dims))
        return NULL;
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *z = nn_scalar(0, x->dtype), *m = z ? nn_compare(x, z, NN_NE) : NULL;
    nn_tensor *r = m ? nn_sum(m, n, dims, false) : NULL;
    nn_set_grad_enabled(prev);
    NN_RELEASE(z);
    NN_RELEASE(m);
    return T(r);
}

/* --------------------------------------------------------- diagonals */

static nn_object *f_diag(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t k = 0;
    if (repl_parse_args("diag", "input, diagonal=, *, out=", args, kwargs, a) ||
        repl_arg_tensor("diag", "input", 1, a[0], &x) || repl_arg_int("diag", "diagonal", 2, a[1], &k) ||
        no_out("diag", a[2]))
        return NULL;
    return T(nn_diag(x, k));
}

static nn_object *diagonal_like(const char *f, nn_object *args, nn_object *kwargs, int64_t d1, int64_t d2, bool embed)
{
    ARGS(4);
    nn_tensor *x = NULL;
    int64_t off = 0;
    if (repl_parse_args(f, "input, offset=, dim1=, dim2=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_int(f, "offset", 2, a[1], &off) || repl_arg_int(f, "dim1", 3, a[2], &d1) ||
        repl_arg_int(f, "dim2", 4, a[3], &d2))
        return NULL;
    return T(embed ? nn_diag_embed(x, off, (int)d1, (int)d2) : nn_diagonal(x, off, (int)d1, (int)d2));
}

static nn_object *f_diagonal(void *ud, nn_object *args, nn_object *kwargs)
{
    return diagonal_like("diagonal", args, kwargs, 0, 1, false);
}
static nn_object *f_diag_embed(void *ud, nn_object *args, nn_object *kwargs)
{
    return diagonal_like("diag_embed", args, kwargs, -2, -1, true);
}

/* frexp(input, *, out=None) -> (Tensor mantissa, Tensor exponent) */
static nn_object *f_frexp(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL, *m = NULL, *e = NULL;
    if (repl_parse_args("frexp", "input, *, out=", args, kwargs, a) || repl_arg_tensor("frexp", "input", 1, a[0], &x) ||
        no_out("frexp", a[1]))
        return NULL;
    int rc = nn_frexp(x, &m, &e);
    return repl_return_pair(rc, m, e, REPL_RETURN_frexp);
}

/* as_strided(input, size, stride, storage_offset=None): a view of input's storage */
static nn_object *f_as_strided(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL;
    int nsize = 0, nstride = 0;
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS], offset = INT64_MIN;
    if (repl_parse_args("as_strided", "input, size, stride, storage_offset=", args, kwargs, a) ||
        repl_arg_tensor("as_strided", "input", 1, a[0], &x) || repl_arg_shape("as_strided", "size", a[1], &nsize, sizes) ||
        repl_arg_shape("as_strided", "stride", a[2], &nstride, strides) ||
        (a[3] && !nn_is_none(a[3]) && repl_arg_int("as_strided", "storage_offset", 4, a[3], &offset)))
        return NULL;
    if (nsize != nstride) return nn_error_set(NN_ERR_RUNTIME, "mismatch in length of strides and shape"), NULL;
    return T(nn_as_strided(x, nsize, sizes, strides, offset));
}

/* _nnscope_frombuffer(obj, start, length, dtype, count, offset): torch.frombuffer's tensor over length
   bytes of obj (bytes or bytearray) from start, after 1.13's checks of count and offset (in bytes); it
   shares a bytearray's memory (a copy of bytes, which are immutable, or of a place not aligned for
   dtype). repl/lib/torch._frombuffer.py finds obj, start and length of the buffer. */
nn_object *repl_nnscope_frombuffer(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    int64_t start = 0, len = 0, count = 0, offset = 0;
    int dtype = -1;
    const char *f = "frombuffer";
    if (repl_parse_args("_nnscope_frombuffer", "obj, start, length, dtype, count, offset", args, kwargs, a) ||
        repl_arg_int(f, "start", 2, a[1], &start) || repl_arg_int(f, "length", 3, a[2], &len) ||
        repl_arg_dtype(f, "dtype", 4, a[3], &dtype) || repl_arg_int(f, "count", 5, a[4], &count) ||
        repl_arg_int(f, "offset", 6, a[5], &offset))
        return NULL;
    const unsigned char *p;
    size_t n;
    if (repl_bytes_buffer(a[0], &p, &n) < 0) return NULL;
    if (start < 0 || len < 0 || (uint64_t)(start + len) > n)
        return repl_raise_exc(EXC_ValueError, "frombuffer: a place outside the buffer"), NULL;
    int64_t item = (int64_t)nn_dtype_size((nn_dtype)dtype);
    if (len <= 0 || count == 0)
        return repl_raise_exc(EXC_ValueError, "both buffer length (%lld) and count (%lld) must not be 0", (long long)len,
                              (long long)count), NULL;
    if (offset < 0 || offset > len - 1)
        return repl_raise_exc(EXC_ValueError, "offset (%lld bytes) must be non-negative and no greater than buffer length "
                                              "(%lld bytes) minus 1", (long long)offset, (long long)len), NULL;
    if (count < 0 && (len - offset) % item != 0)
        return repl_raise_exc(EXC_ValueError, "buffer length (%lld bytes) after offset (%lld bytes) must be a multiple "
                                              "of element size (%lld)", (long long)(len - offset), (long long)offset,
                              (long long)item), NULL;
    if (count > 0 && count * item > len - offset)
        return repl_raise_exc(EXC_ValueError, "requested buffer length (%lld * %lld bytes) after offset (%lld bytes) "
                                              "must not be greater than actual buffer length (%lld bytes)",
                              (long long)count, (long long)item, (long long)offset, (long long)len), NULL;
    if (count < 0) count = (len - offset) / item;
    size_t at = (size_t)(start + offset), nbytes = (size_t)(count * item);
    nn_object *o = repl_unwrap_value(a[0]);
    if (o->type == &repl_bytearray_type && (uintptr_t)(p + at) % (uintptr_t)item == 0)
        return T(repl_bytes_lend(o, at, nbytes, (nn_dtype)dtype));
    nn_tensor *t = nn_empty(1, &count, (nn_dtype)dtype);
    if (t && count && nn_host_write(t, p + at) < 0) NN_SET(t, NULL);
    return T(t);
}

/* outer(input, vec2): input.reshape(n, 1) * vec2, as ATen composes it */
static nn_object *outer_impl(const char *f, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *y = NULL;
    if (repl_parse_args(f, "input, vec2, *, out=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_tensor(f, "vec2", 2, a[1], &y) || no_out(f, a[2]))
        return NULL;
    if (x->ndim != 1 || y->ndim != 1) {
        nn_error_set(NN_ERR_RUNTIME, "outer: Expected 1-D argument self, but got %d-D", x->ndim != 1 ? x->ndim : y->ndim);
        if (x->ndim == 1) nn_error_set(NN_ERR_RUNTIME, "outer: Expected 1-D argument vec2, but got %d-D", y->ndim);
        return NULL;
    }
    nn_tensor *col = nn_reshape(x, 2, (int64_t[]){x->sizes[0], 1}), *r = col ? nn_mul(col, y) : NULL;
    NN_RELEASE(col);
    return T(r);
}

static nn_object *f_outer(void *ud, nn_object *args, nn_object *kwargs) { return outer_impl("outer", args, kwargs); }
static nn_object *f_ger(void *ud, nn_object *args, nn_object *kwargs) { return outer_impl("ger", args, kwargs); }

/* ------------------------------------------------------ index-driven */

static nn_tensor *index_add_args(const char *f, nn_object *args, nn_object *kwargs, size_t skip, nn_tensor *self)
{
    ARGS(6); /* input, dim, index, source, alpha, out */
    nn_tensor *x = self, *ix = NULL, *src = NULL;
    int64_t dim = 0;
    double alpha = 1;
    const char *spec = self ? "dim, index, source, *, alpha=" : "input, dim, index, source, *, alpha=, out=";
    nn_object **p = self ? a + 1 : a;
    if (repl_parse_args_from(f, spec, args, skip, kwargs, p) || (!self && repl_arg_tensor(f, "input", 1, a[0], &x)) ||
        repl_arg_dim(f, "dim", 2, a[1], x->ndim, &dim) || repl_arg_tensor(f, "index", 3, a[2], &ix) ||
        repl_arg_tensor(f, "source", 4, a[3], &src) || repl_arg_double(f, "alpha", 0, a[4], &alpha))
        return NULL;
    return nn_index_add(x, (int)dim, ix, src, alpha);
}

static nn_object *f_index_add(void *ud, nn_object *args, nn_object *kwargs)
{
    return T(index_add_args("index_add", args, kwargs, 0, NULL));
}

static nn_object *m_index_add_(nn_object *self, nn_object *args, nn_object *kwargs)
{
    nn_tensor *t = NN_TENSOR(self), *r = index_add_args("index_add_", args, kwargs, 0, t);
    int rc = r ? nn_inplace_from(t, r) : -1;
    NN_RELEASE(r);
    return rc < 0 ? NULL : nn_retain(self);
}

static nn_object *f_nonzero(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    bool as_tuple = false;
    if (repl_parse_args("nonzero", "input, *, out=, as_tuple=", args, kwargs, a) ||
        repl_arg_tensor("nonzero", "input", 1, a[0], &x) || no_out("nonzero", a[1]) ||
        repl_arg_bool("nonzero", "as_tuple", 0, a[2], &as_tuple))
        return NULL;
    if (as_tuple) return repl_nonzero_tuple(x);
    return T(nn_nonzero(x));
}

nn_object *repl_nonzero_tuple(nn_tensor *x)
{
    nn_tensor *nz = nn_nonzero(x);
    if (!nz) return NULL;
    int n = x->ndim ? x->ndim : 1;
    nn_object *tup = nn_tuple_new((size_t)n);
    for (int d = 0; tup && d < n; d++) {
        nn_tensor *col = nn_select(nz, 1, x->ndim ? d : 0), *c = col ? nn_contiguous(col) : NULL;
        NN_RELEASE(col);
        if (!c) NN_SET(tup, NULL);
        else nn_tuple_set(tup, (size_t)d, T(c));
    }
    NN_RELEASE(nz);
    return tup;
}

/* ------------------------------------------------------------ counting */

/* unique / unique_consecutive: the values, then inverse and counts when asked */
static nn_object *unique_impl(const char *f, nn_object *args, nn_object *kwargs, bool consecutive)
{
    ARGS(5);
    nn_tensor *x = NULL, *v = NULL, *inv = NULL, *cnt = NULL;
    bool sorted = true, want_inv = false, want_cnt = false;
    int64_t dim = 0;
    /* a[0] input, a[1] sorted (unique only), a[2] return_inverse, a[3] return_counts, a[4] dim */
    if (consecutive ? repl_parse_args(f, "input, return_inverse=, return_counts=, dim=", args, kwargs, a + 1)
                    : repl_parse_args(f, "input, sorted=, return_inverse=, return_counts=, dim=", args, kwargs, a))
        return NULL;
    if (consecutive) a[0] = a[1], a[1] = NULL; /* shifted by one: input landed in a[1] */
    /* sorted=False sorts too (PyTorch's CPU order is then a hash table's) */
    if (repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_bool(f, "sorted", 2, a[1], &sorted) ||
        repl_arg_bool(f, "return_inverse", 0, a[2], &want_inv) || repl_arg_bool(f, "return_counts", 0, a[3], &want_cnt))
        return NULL;
    bool has_dim = a[4] && !nn_is_none(a[4]);
    if (has_dim && repl_arg_dim(f, "dim", 0, a[4], x->ndim, &dim)) return NULL;
    if (nn_unique(x, consecutive, has_dim, (int)dim, &v, want_inv ? &inv : NULL, want_cnt ? &cnt : NULL) < 0)
        return NULL;
    if (!want_inv && !want_cnt) return T(v);
    nn_object *r = nn_tuple_new(1 + (size_t)want_inv + (size_t)want_cnt);
    if (!r) {
        NN_RELEASE(v);
        NN_RELEASE(inv);
        NN_RELEASE(cnt);
        return NULL;
    }
    size_t k = 0;
    nn_tuple_set(r, k++, T(v));
    if (want_inv) nn_tuple_set(r, k++, T(inv));
    if (want_cnt) nn_tuple_set(r, k++, T(cnt));
    return r;
}

static nn_object *f_unique(void *ud, nn_object *args, nn_object *kwargs) { return unique_impl("unique", args, kwargs, false); }
static nn_object *f_unique_consecutive(void *ud, nn_object *args, nn_object *kwargs)
{
    return unique_impl("unique_consecutive", args, kwargs, true);
}

static nn_object *f_bincount(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *w = NULL;
    int64_t minlength = 0;
    if (repl_parse_args("bincount", "input, weights=, minlength=", args, kwargs, a) ||
        repl_arg_tensor("bincount", "input", 1, a[0], &x) ||
        (a[1] && !nn_is_none(a[1]) && repl_arg_tensor("bincount", "weights", 2, a[1], &w)) ||
        repl_arg_int("bincount", "minlength", 3, a[2], &minlength))
        return NULL;
    return T(nn_bincount(x, w, minlength));
}

static nn_object *f_histc(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL;
    int64_t bins = 100;
    double lo = 0, hi = 0;
    if (repl_parse_args("histc", "input, bins=, min=, max=, *, out=", args, kwargs, a) ||
        repl_arg_tensor("histc", "input", 1, a[0], &x) || repl_arg_int("histc", "bins", 2, a[1], &bins) ||
        repl_arg_double("histc", "min", 3, a[2], &lo) || repl_arg_double("histc", "max", 4, a[3], &hi) ||
        no_out("histc", a[4]))
        return NULL;
    return T(nn_histc(x, bins, lo, hi));
}

static nn_object *f_histogram(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    nn_tensor *x = NULL, *edges = NULL, *w = NULL, *h = NULL, *e = NULL;
    int64_t bins = 100;
    double lo = 0, hi = 0;
    bool density = false, has_range = false;
    if (repl_parse_args("histogram", "input, bins=, *, range=, weight=, density=, out=", args, kwargs, a) ||
        repl_arg_tensor("histogram", "input", 1, a[0], &x))
        return NULL;
    if (a[1] && nn_is_tensor(a[1])) edges = NN_TENSOR(a[1]);
    else if (repl_arg_int("histogram", "bins", 2, a[1], &bins)) return NULL;
    if (a[2] && !nn_is_none(a[2])) {
        bool tup = nn_is_instance(a[2], &nn_tuple_type), seq = tup || nn_is_list(a[2]);
        size_t n = tup ? nn_tuple_len(a[2]) : seq ? nn_list_len(a[2]) : 0;
        if (n != 2)
            return nn_error_set(NN_ERR_TYPE, "histogram(): argument 'range' must be tuple of floats, not %s",
                                repl_type_name(a[2])), NULL;
        nn_object *r0 = tup ? nn_tuple_get(a[2], 0) : nn_list_get(a[2], 0);
        nn_object *r1 = tup ? nn_tuple_get(a[2], 1) : nn_list_get(a[2], 1);
        if (repl_arg_double("histogram", "range", 0, r0, &lo) || repl_arg_double("histogram", "range", 0, r1, &hi))
            return NULL;
        has_range = true;
    }
    if ((a[3] && !nn_is_none(a[3]) && repl_arg_tensor("histogram", "weight", 0, a[3], &w)) ||
        repl_arg_bool("histogram", "density", 0, a[4], &density) || no_out("histogram", a[5]))
        return NULL;
    int rc = nn_histogram(x, edges, bins, has_range, lo, hi, w, density, &h, &e);
    return repl_return_pair(rc, h, e, REPL_RETURN_histogram);
}

/* ----------------------------------------------- einsum, meshgrid, repeats */

/* The tensors of args from skip: varargs, or one list/tuple of tensors. n set;
   ts[] borrowed. */
static int tensor_list(const char *f, nn_object *args, size_t skip, nn_tensor **ts, int max, int *n)
{
    size_t na = nn_tuple_len(args);
    nn_object *seq = na == skip + 1 && !nn_is_tensor(nn_tuple_get(args, skip)) ? nn_tuple_get(args, skip) : NULL;
    bool is_list = seq && nn_is_list(seq), is_tuple = seq && nn_is_instance(seq, &nn_tuple_type);
    if (seq && !is_list && !is_tuple)
        return nn_error_set(NN_ERR_TYPE, "%s(): argument 'tensors' must be tuple of Tensors, not %s", f,
                            repl_type_name(seq));
    size_t cnt = seq ? (is_list ? nn_list_len(seq) : nn_tuple_len(seq)) : na - skip;
    if ((int)cnt > max) return nn_error_set(NN_ERR_RUNTIME, "%s(): at most %d tensors", f, max);
    for (size_t i = 0; i < cnt; i++) {
        nn_object *o = seq ? (is_list ? nn_list_get(seq, i) : nn_tuple_get(seq, i)) : nn_tuple_get(args, skip + i);
        if (!nn_is_tensor(o))
            return nn_error_set(NN_ERR_TYPE, "%s(): argument 'tensors' must be tuple of Tensors, but found element "
                                             "of type %s at pos %zu", f, repl_type_name(o), i + (seq ? 0 : 1));
        ts[i] = NN_TENSOR(o);
    }
    *n = (int)cnt;
    return 0;
}

int repl_tensor_list(const char *f, nn_object *args, size_t skip, nn_tensor **ts, int max, int *n)
{
    return tensor_list(f, args, skip, ts, max, n);
}

static nn_object *f_einsum(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_tensor *ts[16];
    int n = 0;
    if (kwargs && nn_dict_len(kwargs))
        return nn_error_set(NN_ERR_TYPE, "einsum() got an unexpected keyword argument"), NULL;
    if (nn_tuple_len(args) < 1 || !nn_is_str(nn_tuple_get(args, 0)))
        return nn_error_set(NN_ERR_TYPE, "einsum(): argument 'equation' (position 1) must be str, not %s",
                            nn_tuple_len(args) ? repl_type_name(nn_tuple_get(args, 0)) : "nothing"), NULL;
    if (tensor_list("einsum", args, 1, ts, 16, &n)) return NULL;
    return T(nn_einsum(nn_str_cstr(nn_tuple_get(args, 0)), n, ts));
}

/* meshgrid(*tensors, indexing='ij'): each 0-d/1-d tensor viewed along its
   own dim and expanded (ATen's composition: ExpandBackward0); 'xy' swaps the
   first two inputs, and the first two grids back. */
static nn_object *f_meshgrid(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_tensor *ts[NN_MAX_DIMS];
    int n = 0;
    const char *indexing = NULL;
    nn_object *ix = kwargs ? nn_dict_get_str(kwargs, "indexing") : NULL;
    if (kwargs && nn_dict_len(kwargs) > (ix ? 1u : 0u))
        return nn_error_set(NN_ERR_TYPE, "meshgrid() got an unexpected keyword argument"), NULL;
    if ((ix && !nn_is_none(ix) && repl_arg_str("meshgrid", "indexing", 0, ix, &indexing)) ||
        tensor_list("meshgrid", args, 0, ts, NN_MAX_DIMS, &n))
        return NULL;
    if (!indexing) {
        /* raised by _VF.meshgrid called at PyTorch 1.13's torch/functional.py:504 */
        static const nn_warn_place functional_py = {"torch.functional", "torch/functional.py", 504};
        if (nn_warn_at(&functional_py, "UserWarning", "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
                                   "argument. (Triggered internally at ../aten/src/ATen/native/TensorShape.cpp:3190.)") < 0)
            return NULL;
        indexing = "ij";
    }
    bool xy = !strcmp(indexing, "xy");
    if (!xy && strcmp(indexing, "ij"))
        return nn_error_set(NN_ERR_RUNTIME, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %s",
                            indexing), NULL;
    if (n == 0) return nn_error_set(NN_ERR_RUNTIME, "meshgrid expects a non-empty TensorList"), NULL;
    for (int i = 0; i < n; i++) {
        if (ts[i]->ndim > 1)
            return nn_error_set(NN_ERR_RUNTIME, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: %s",
                                "a tensor of more dims"), NULL;
        if (ts[i]->dtype != ts[0]->dtype)
            return nn_error_set(NN_ERR_RUNTIME, "torch.meshgrid: Expected all tensors in the tensor list to have the same "
                                                "dtype"), NULL;
    }
    if (xy && n >= 2) {
        nn_tensor *tmp = ts[0];
        ts[0] = ts[1];
        ts[1] = tmp;
    }
    int64_t grid[NN_MAX_DIMS];
    for (int i = 0; i < n; i++) grid[i] = ts[i]->ndim ? ts[i]->sizes[0] : 1;
    nn_object *tup = nn_tuple_new((size_t)n);
    for (int i = 0; tup && i < n; i++) {
        int64_t shape[NN_MAX_DIMS];
        for (int k = 0; k < n; k++) shape[k] = k == i ? -1 : 1;
        nn_tensor *v = nn_view(ts[i], n, shape), *e = v ? nn_expand(v, n, grid) : NULL;
        NN_RELEASE(v);
        if (!e) NN_SET(tup, NULL);
        else nn_tuple_set(tup, (size_t)(xy && n >= 2 && i < 2 ? 1 - i : i), T(e));
    }
    return tup;
}

/* repeat_interleave(input, repeats, dim=None, *, output_size=None) and
   repeat_interleave(repeats): ATen's composition, an index_select by the
   repeated positions (IndexSelectBackward0). */
static nn_object *f_repeat_interleave(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *rt = NULL;
    int64_t dim = 0, out_size = -1;
    if (repl_parse_args("repeat_interleave", "input, repeats=, dim=, *, output_size=", args, kwargs, a) ||
        repl_arg_tensor("repeat_interleave", "input", 1, a[0], &x) ||
        repl_arg_int("repeat_interleave", "output_size", 0, a[3], &out_size))
        return NULL;
    bool only_repeats = !a[1];
    if (only_repeats) {
        rt = x;
        x = NULL;
    } else if (nn_is_tensor(a[1])) {
        rt = NN_TENSOR(a[1]);
    }
    bool has_dim = a[2] && !nn_is_none(a[2]);
    if (x && has_dim && repl_arg_dim("repeat_interleave", "dim", 3, a[2], x->ndim, &dim)) return NULL;
    int64_t one = 0;
    if (!rt && repl_arg_int("repeat_interleave", "repeats", 2, a[1], &one)) return NULL;
    nn_tensor *input = NULL;
    if (x) {
        input = has_dim ? (nn_tensor *)nn_retain(&x->ob) : nn_flatten(x, 0, -1);
        if (!input) return NULL;
        if (!has_dim) dim = 0;
        if (dim < 0) dim += input->ndim ? input->ndim : 1;
    }
    int64_t len = input ? (input->ndim ? input->sizes[dim] : 1) : 0;
    nn_tensor *rc = NULL;
    if (rt) {
        if (rt->ndim > 1 || nn_dtype_is_floating(rt->dtype) || rt->dtype == NN_BOOL) {
            NN_RELEASE(input);
            return nn_error_set(NN_ERR_RUNTIME, rt->ndim > 1 ? "repeats must be 0-dim or 1-dim tensor"
                                                             : "repeat_interleave only accept 1D vector as repeat"), NULL;
        }
        rc = nn_plain_as(rt, NN_INT64);
    } else {
        rc = nn_full(1, (int64_t[]){1}, (double)one, NN_INT64);
    }
    if (!rc) {
        NN_RELEASE(input);
        return NULL;
    }
    nn_tensor *rh = NULL; /* the repeats on the host (the host-access contract) */
    const int64_t *r = nn_host_read(rc, &rh);
    if (rh) NN_SET(rc, rh);
    if (!r) {
        NN_RELEASE(input);
        NN_RELEASE(rc);
        return NULL;
    }
    int64_t nr = nn_numel(rc), total = 0;
    if (input && nr != 1 && nr != len) {
        NN_RELEASE(input);
        NN_RELEASE(rc);
        return nn_error_set(NN_ERR_RUNTIME, "repeats must have the same size as input along dim"), NULL;
    }
    int64_t positions = input ? len : nr;
    for (int64_t i = 0; i < positions; i++) {
        int64_t k = r[nr == 1 ? 0 : i];
        if (k < 0) {
            NN_RELEASE(input);
            NN_RELEASE(rc);
            return nn_error_set(NN_ERR_RUNTIME, "repeats can not be negative"), NULL;
        }
        total += k;
    }
    if (out_size >= 0 && out_size != total) {
        NN_RELEASE(input);
        NN_RELEASE(rc);
        return nn_error_set(NN_ERR_RUNTIME, "allocated size does not match required size"), NULL;
    }
    /* the indices, made on the host and written to the input's (or the repeats') device */
    nn_tensor *idx = nn_empty_on(input ? nn_device_of(input) : nn_device_of(rt), 1, &total, NN_INT64);
    int64_t *p = idx ? nn_malloc((size_t)(total ? total : 1) * sizeof *p) : NULL, w = 0;
    if (p) {
        for (int64_t i = 0; i < positions; i++)
            for (int64_t k = 0; k < r[nr == 1 ? 0 : i]; k++) p[w++] = i;
    }
    if (!p || nn_host_write(idx, p) < 0) NN_SET(idx, NULL);
    nn_free(p);
    NN_RELEASE(rc);
    if (!input) return T(idx);
    nn_tensor *out = idx ? nn_index_select(input, (int)dim, idx) : NULL;
    NN_RELEASE(idx);
    NN_RELEASE(input);
    return T(out);
}

/* scatter(..., reduce=): 'add' or 'multiply' (PyTorch 1.13's message otherwise) */
nn_object *repl_scatter_reduce(nn_tensor *x, int64_t dim, nn_tensor *index, nn_object *src, nn_object *reduce)
{
    const char *mode = NULL;
    if (repl_arg_str("scatter", "reduce", 0, reduce, &mode)) return NULL;
    bool mul = !strcmp(mode, "multiply");
    if (!mul && strcmp(mode, "add"))
        return nn_error_set(NN_ERR_RUNTIME, "reduce argument must be either add or multiply."), NULL;
    if (!src) return nn_error_set(NN_ERR_TYPE, "scatter() missing 1 required positional argument: 'src'"), NULL;
    if (nn_is_tensor(src)) return T(nn_scatter_reduce_op(x, (int)dim, index, NN_TENSOR(src), 0, mul));
    double v = 0;
    if (repl_arg_double("scatter", "value", 4, src, &v)) return NULL;
    return T(nn_scatter_reduce_op(x, (int)dim, index, NULL, v, mul));
}

/* ------------------------------------------------------------------ out= */

/* torch functions that take out= here: the result computed as without it,
   then written into out (resized with PyTorch's warning when its shape
   differs and it has elements). */
static const char *const out_functions[] = {
    "add", "sub", "mul", "div", "true_divide", "matmul", "mm", "bmm", "mv", "dot", "cat", "stack", "sum", "mean",
    "prod", "exp", "log", "sqrt", "abs", "neg", "sin", "cos", "tan", "tanh", "sigmoid", "clamp", "pow", "maximum",
    "minimum", "cumsum", "cumprod", "where", "floor", "ceil", "round", "sign", "remainder", "fmod", "log2", "log10",
    "log1p", "expm1", "exp2", "rsqrt", "reciprocal", "square", "atan2", "lerp", "logsumexp", "std", "var", "norm",
    "amax", "amin", "outer", "diag", "tril", "triu", "gather", "index_select", "masked_select", "nonzero", "histc",
    "bincount", "zeros", "ones", "full", "arange", "linspace", "eye", "rand", "randn", "randint", "randperm", "erf",
    "erfc", "erfinv", "trunc", "frac", "hypot", "logaddexp", "xlogy", "eq", "ne", "lt", "le", "gt", "ge", "isnan",
    "argmax", "argmin", "addmm", "index_add", "diag_embed", "clamp_min", "clamp_max", "asin", "acos", "atan",
    "sinh", "cosh", "asinh", "acosh", "atanh", "nan_to_num", "floor_divide", "einsum",
};

static const char *shape_text(const nn_tensor *t, char *buf, size_t n)
{
    size_t w = (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < t->ndim && w < n; d++)
        w += (size_t)snprintf(buf + w, n - w, "%s%lld", d ? ", " : "", (long long)t->sizes[d]);
    if (w < n) snprintf(buf + w, n - w, "]");
    return buf;
}

static bool can_cast(nn_dtype from, nn_dtype to)
{
    if (nn_dtype_is_floating(from) && !nn_dtype_is_floating(to)) return false;
    if (from != NN_BOOL && to == NN_BOOL) return false;
    return true;
}

/* out given: the shape's "resized" UserWarning (Resize.cpp:line) when t had elements, then t
   takes r's values (cast to t's dtype) */
static int write_out(nn_tensor *o, nn_tensor *t, const nn_tensor *warn_shape, int line)
{
    bool same = o->ndim == t->ndim && !memcmp(o->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    if (same) return nn_copy_(o, t);
    if (nn_numel(o) > 0) {
        char s1[256], s2[256];
        const char *a = shape_text(o, s1, sizeof s1), *b = shape_text(warn_shape ? warn_shape : t, s2, sizeof s2);
        if (nn_warn("UserWarning",
                    "An output with one or more elements was resized since it had shape %s, which does not match "
                    "the required output shape %s. This behavior is deprecated, and in a future PyTorch release "
                    "outputs will not be resized unless they have zero elements. You can explicitly reuse an out "
                    "tensor t by resizing it, inplace, to zero elements with t.resize_(0). (Triggered internally "
                    "at %saten/src/ATen/native/Resize.cpp:%d.)", a, b, line == 17 ? " ./" : "../", line) < 0)
            return -1;
    }
    nn_tensor *c = nn_to_dtype(t, o->dtype), *cc = c ? nn_clone(c) : NULL;
    int rc = cc ? nn_set_data(o, cc) : -1;
    NN_RELEASE(c);
    NN_RELEASE(cc);
    return rc;
}

/* c10's names of the dtypes, as ATen's "Expected out tensor to have dtype" says them */
static const char *c10_name(nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT32: return "float";
    case NN_FLOAT64: return "double";
    case NN_INT64: return "long int";
    case NN_INT32: return "int";
    case NN_BOOL: return "bool";
    case NN_FLOAT16: return "c10::Half";
    case NN_BFLOAT16: return "c10::BFloat16";
    default: return "?";
    }
}

/* the functions returning (values, indices) or (min, max) that take out=(a, b):
   the result type is NAME_out */
static const struct {
    const char *name;
    repl_return_id type;
} multi_out_functions[] = {
    {"sort", REPL_RETURN_sort_out},       {"topk", REPL_RETURN_topk_out},     {"kthvalue", REPL_RETURN_kthvalue_out},
    {"max", REPL_RETURN_max_out},         {"min", REPL_RETURN_min_out},       {"median", REPL_RETURN_median_out},
    {"mode", REPL_RETURN_mode_out},       {"cummax", REPL_RETURN_cummax_out}, {"cummin", REPL_RETURN_cummin_out},
    {"aminmax", REPL_RETURN_aminmax_out},
};

static nn_object *multi_out_call(const char *name, repl_return_id type, nn_cfunc fn, nn_object *args, nn_object *kwargs,
                                 nn_object *out)
{
    bool is_list = nn_is_list(out), is_tuple = nn_is_instance(out, &nn_tuple_type);
    if (!is_list && !is_tuple)
        return nn_error_set(NN_ERR_TYPE, "%s(): argument 'out' must be tuple of Tensors, not %s", name,
                            repl_type_name(out)), NULL;
    size_t len = is_list ? nn_list_len(out) : nn_tuple_len(out);
    if (len != 2) return nn_error_set(NN_ERR_TYPE, "expected tuple of 2 elements but got %zu", len), NULL;
    nn_tensor *o[2];
    for (size_t i = 0; i < 2; i++) {
        nn_object *e = is_list ? nn_list_get(out, i) : nn_tuple_get(out, i);
        if (!nn_is_tensor(e))
            return nn_error_set(NN_ERR_TYPE, "%s(): argument 'out' must be tuple of Tensors, but found element of type "
                                             "%s at pos %zu", name, repl_type_name(e), i + 1), NULL;
        o[i] = NN_TENSOR(e);
    }
    nn_object *kw = nn_dict_copy(kwargs);
    if (!kw || nn_dict_del_str(kw, "out") < 0) {
        NN_RELEASE(kw);
        return NULL;
    }
    nn_object *r = fn(NULL, args, kw);
    NN_RELEASE(kw);
    if (!r) return NULL;
    if (!nn_is_instance(r, &nn_tuple_type) || nn_tuple_len(r) != 2) {
        NN_RELEASE(r);
        return nn_error_set(NN_ERR_TYPE, "%s(): out= takes one tensor here, not a tuple", name), NULL;
    }
    nn_tensor *t[2] = {NN_TENSOR(nn_tuple_get(r, 0)), NN_TENSOR(nn_tuple_get(r, 1))};
    int rc = 0;
    if ((t[0]->requires_grad || o[0]->requires_grad || o[1]->requires_grad) && nn_grad_enabled())
        rc = nn_error_set(NN_ERR_RUNTIME, "%s(): functions with out=... arguments don't support automatic "
                                          "differentiation, but one of the arguments requires grad.", name);
    for (int i = 0; i < 2 && rc == 0; i++)
        if (o[i]->dtype != t[i]->dtype)
            rc = nn_error_set(NN_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
                              c10_name(t[i]->dtype), c10_name(o[i]->dtype));
    /* kthvalue resizes its outputs to the keepdim shape first */
    nn_tensor *kshape = NULL;
    if (rc == 0 && !strcmp(name, "kthvalue") && nn_tuple_len(args) > 0 && nn_is_tensor(nn_tuple_get(args, 0))) {
        nn_tensor *x = NN_TENSOR(nn_tuple_get(args, 0));
        nn_object *d = nn_tuple_len(args) > 2 ? nn_tuple_get(args, 2) : kwargs ? nn_dict_get_str(kwargs, "dim") : NULL;
        nn_object *k = nn_tuple_len(args) > 3 ? nn_tuple_get(args, 3) : kwargs ? nn_dict_get_str(kwargs, "keepdim") : NULL;
        int64_t dim = d && nn_is_int(d) ? nn_int_value(d) : -1;
        if (x->ndim > 0 && !(k && nn_is_true(k)) && t[0]->ndim == x->ndim - 1) {
            if (dim < 0) dim += x->ndim;
            kshape = dim >= 0 && dim < x->ndim ? nn_unsqueeze(t[0], (int)dim) : NULL;
        }
    }
    for (int i = 0; i < 2 && rc == 0; i++) {
        nn_tensor *shape = kshape && (o[i]->ndim != kshape->ndim || memcmp(o[i]->sizes, kshape->sizes,
                                                                           sizeof(int64_t) * (size_t)kshape->ndim)) ? kshape : NULL;
        rc = write_out(o[i], t[i], shape, 17);
    }
    NN_RELEASE(kshape);
    NN_RELEASE(r);
    if (rc < 0) return NULL;
    nn_object *pair = nn_tuple_new(2);
    if (!pair) return NULL;
    nn_tuple_set(pair, 0, nn_retain(&o[0]->ob));
    nn_tuple_set(pair, 1, nn_retain(&o[1]->ob));
    return repl_return_tuple(type, pair);
}

bool repl_out_call(const char *name, nn_cfunc fn, nn_object *args, nn_object *kwargs, nn_object **result)
{
    nn_object *out = kwargs ? nn_dict_get_str(kwargs, "out") : NULL;
    if (!out || nn_is_none(out)) return false;
    for (size_t i = 0; i < sizeof multi_out_functions / sizeof multi_out_functions[0]; i++)
        if (!strcmp(multi_out_functions[i].name, name)) {
            /* max(input, other, out=t) and max(input) are one-tensor forms */
            bool pair_form = nn_tuple_len(args) > 1 ? nn_is_int(nn_tuple_get(args, 1)) : kwargs && nn_dict_get_str(kwargs, "dim");
            if (strcmp(name, "max") && strcmp(name, "min")) pair_form = true;
            if (!pair_form) break;
            *result = multi_out_call(name, multi_out_functions[i].type, fn, args, kwargs, out);
            return true;
        }
    bool listed = false;
    for (size_t i = 0; i < sizeof out_functions / sizeof out_functions[0] && !listed; i++)
        listed = !strcmp(out_functions[i], name);
    if (!listed) return false;
    *result = NULL;
    if (!nn_is_tensor(out)) {
        nn_error_set(NN_ERR_TYPE, "%s(): argument 'out' must be Tensor, not %s", name, repl_type_name(out));
        return true;
    }
    nn_tensor *o = NN_TENSOR(out);
    nn_object *kw = nn_dict_copy(kwargs);
    if (!kw || nn_dict_del_str(kw, "out") < 0) {
        NN_RELEASE(kw);
        return true;
    }
    nn_object *r = fn(NULL, args, kw);
    NN_RELEASE(kw);
    if (!r) return true;
    if (!nn_is_tensor(r)) {
        NN_RELEASE(r);
        nn_error_set(NN_ERR_TYPE, "%s(): out= takes one tensor here", name);
        return true;
    }
    nn_tensor *t = NN_TENSOR(r);
    if ((t->requires_grad || o->requires_grad) && nn_grad_enabled()) {
        nn_error_set(NN_ERR_RUNTIME, "%s(): functions with out=... arguments don't support automatic differentiation, "
                                     "but one of the arguments requires grad.", name);
        NN_RELEASE(r);
        return true;
    }
    if (!can_cast(t->dtype, o->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                     nn_dtype_scalar_name(t->dtype), nn_dtype_scalar_name(o->dtype));
        NN_RELEASE(r);
        return true;
    }
    int rc = write_out(o, t, NULL, 24);
    NN_RELEASE(r);
    if (rc == 0) *result = nn_retain(out);
    return true;
}

/* ------------------------------------------------------------- tables */

static const repl_function_def ops_more_functions[] = {
    {"prod", f_prod,
     "prod(input, dim=None, keepdim=False, *, dtype=None) -> Tensor\n"
     "Returns the product of all elements in the input tensor, or of each row along dim."},
    {"amax", f_amax,
     "amax(input, dim, keepdim=False, *, out=None) -> Tensor\n"
     "Returns the maximum value of each slice of the input tensor in the given dimension(s) dim."},
    {"amin", f_amin,
     "amin(input, dim, keepdim=False, *, out=None) -> Tensor\n"
     "Returns the minimum value of each slice of the input tensor in the given dimension(s) dim."},
    {"aminmax", f_aminmax,
     "aminmax(input, *, dim=None, keepdim=False, out=None) -> (Tensor min, Tensor max)\n"
     "Computes the minimum and maximum values of the input tensor."},
    {"median", f_median,
     "median(input, dim=None, keepdim=False, *, out=None) -> Tensor or (Tensor, LongTensor)\n"
     "Returns the median of the values in input (the lower of the two medians for an even count)."},
    {"mode", f_mode,
     "mode(input, dim=-1, keepdim=False, *, out=None) -> (Tensor, LongTensor)\n"
     "Returns a namedtuple (values, indices) where values is the mode value of each row of the input tensor in the given dimension dim."},
    {"frexp", f_frexp,
     "frexp(input, *, out=None) -> (Tensor mantissa, Tensor exponent)\n"
     "Decomposes input into mantissa and exponent tensors such that input = mantissa * 2 ** exponent."},
    {"as_strided", f_as_strided,
     "as_strided(input, size, stride, storage_offset=None) -> Tensor\n"
     "Create a view of an existing torch.Tensor input with specified size, stride and storage_offset."},
    {"count_nonzero", f_count_nonzero,
     "count_nonzero(input, dim=None) -> Tensor\n"
     "Counts the number of non-zero values in the tensor input along the given dim."},
    {"diag", f_diag,
     "diag(input, diagonal=0, *, out=None) -> Tensor\n"
     "A 1-D input gives a 2-D tensor with it on the diagonal; a 2-D input gives its diagonal as a 1-D tensor."},
    {"diagonal", f_diagonal,
     "diagonal(input, offset=0, dim1=0, dim2=1) -> Tensor\n"
     "Returns a partial view of input with its diagonal elements with respect to dim1 and dim2 appended as a dimension at the end of the shape."},
    {"diag_embed", f_diag_embed,
     "diag_embed(input, offset=0, dim1=-2, dim2=-1) -> Tensor\n"
     "Creates a tensor whose diagonals of certain 2D planes (specified by dim1 and dim2) are filled by input."},
    {"outer", f_outer,
     "outer(input, vec2, *, out=None) -> Tensor\n"
     "Outer product of input and vec2."},
    {"ger", f_ger,
     "ger(input, vec2, *, out=None) -> Tensor\n"
     "Alias of torch.outer()."},
    {"index_add", f_index_add,
     "index_add(input, dim, index, source, *, alpha=1, out=None) -> Tensor\n"
     "Out-of-place version of torch.Tensor.index_add_()."},
    {"nonzero", f_nonzero,
     "nonzero(input, *, out=None, as_tuple=False) -> LongTensor or tuple of LongTensors\n"
     "The indices of the non-zero elements of input, one row per element (or one tensor per dim)."},
    {"einsum", f_einsum,
     "einsum(equation, *operands) -> Tensor\n"
     "Sums the product of the elements of the input operands along dimensions specified using a notation based on the Einstein summation convention."},
    {"meshgrid", f_meshgrid,
     "meshgrid(*tensors, indexing=None) -> seq\n"
     "Creates grids of coordinates specified by the 1D inputs in tensors ('ij' or 'xy' indexing)."},
    {"repeat_interleave", f_repeat_interleave,
     "repeat_interleave(input, repeats, dim=None, *, output_size=None) -> Tensor\n"
     "Repeat elements of a tensor (repeat_interleave(repeats): the indices each repeated)."},
    {"unique", f_unique,
     "unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None) -> Tensor or tuple\n"
     "Returns the unique elements (or slices along dim) of the input tensor, sorted, with the inverse indices and counts when asked."},
    {"unique_consecutive", f_unique_consecutive,
     "unique_consecutive(input, return_inverse=False, return_counts=False, dim=None) -> Tensor or tuple\n"
     "Eliminates all but the first element from every consecutive group of equivalent elements."},
    {"bincount", f_bincount,
     "bincount(input, weights=None, minlength=0) -> Tensor\n"
     "Count the frequency of each value in an array of non-negative ints (or sum their weights)."},
    {"histc", f_histc,
     "histc(input, bins=100, min=0, max=0, *, out=None) -> Tensor\n"
     "Computes the histogram of a tensor: bins equal-width bins between min and max (both 0: the data's range)."},
    {"histogram", f_histogram,
     "histogram(input, bins, *, range=None, weight=None, density=False, out=None) -> (Tensor, Tensor)\n"
     "Computes a histogram of the values in a tensor; bins is a count of equal bins or a tensor of edges."},
};
#define N_FUNCTIONS (sizeof ops_more_functions / sizeof ops_more_functions[0])

static const repl_method_def ops_more_methods[] = {
    {"index_add_", m_index_add_,
     "index_add_(dim, index, source, *, alpha=1) -> Tensor\n"
     "Accumulate the elements of alpha times source into the self tensor by adding to the indices in the order given in index."},
    {NULL, NULL, NULL},
};

/* --------------------------------------------- legacy typed constructors */

static nn_object *legacy_ctor(void *ud, nn_object *args, nn_object *kwargs);

#define LEGACY(Name, doc) {#Name, "torch." #Name, legacy_ctor, &nn_tensor_type, NULL, #Name "(*size) or " #Name "(data)\n" doc, NULL}
static const repl_class_def legacy_classes[] = {
    LEGACY(FloatTensor, "The legacy constructor of float32 tensors: torch.FloatTensor(2, 3) is uninitialised, torch.FloatTensor([1, 2]) copies."),
    LEGACY(DoubleTensor, "The legacy constructor of float64 tensors."),
    LEGACY(HalfTensor, "The legacy constructor of float16 tensors."),
    LEGACY(BFloat16Tensor, "The legacy constructor of bfloat16 tensors."),
    LEGACY(LongTensor, "The legacy constructor of int64 tensors."),
    LEGACY(IntTensor, "The legacy constructor of int32 tensors."),
    LEGACY(BoolTensor, "The legacy constructor of bool tensors."),
    LEGACY(ByteTensor, "The legacy constructor of uint8 tensors."),
    LEGACY(CharTensor, "The legacy constructor of int8 tensors."),
    LEGACY(ShortTensor, "The legacy constructor of int16 tensors."),
};
#undef LEGACY
static const nn_dtype legacy_dtypes[] = {NN_FLOAT32, NN_FLOAT64, NN_FLOAT16, NN_BFLOAT16, NN_INT64, NN_INT32, NN_BOOL,
                                         NN_UINT8,   NN_INT8,    NN_INT16};
#define N_LEGACY (sizeof legacy_classes / sizeof legacy_classes[0])

int repl_legacy_class_dtype(const nn_object *cls)
{
    if (!repl_is_class(cls)) return -1;
    const repl_class_def *d = repl_class_def_of(cls);
    for (size_t i = 0; i < N_LEGACY; i++)
        if (d == &legacy_classes[i]) return (int)legacy_dtypes[i];
    return -1;
}

/* FloatTensor(*sizes) uninitialised (nn_empty), FloatTensor(sequence) a copy
   in the class's dtype, FloatTensor(tensor) the tensor when its dtype is the
   class's, FloatTensor() an empty 1-d tensor. */
static nn_object *legacy_ctor(void *ud, nn_object *args, nn_object *kwargs)
{
    const repl_class_def *d = ud;
    nn_dtype dt = legacy_dtypes[d - legacy_classes];
    size_t n = nn_tuple_len(args);
    if (kwargs && nn_dict_len(kwargs)) {
        nn_object *k = NULL, *v = NULL;
        size_t pos = 0;
        if (nn_dict_next(kwargs, &pos, &k, &v) && nn_is_str(k) && strcmp(nn_str_cstr(k), "device"))
            return nn_error_set(NN_ERR_TYPE, "new() received an invalid combination of arguments - got an unexpected "
                                             "keyword argument '%s'", nn_str_cstr(k)), NULL;
        if (repl_arg_device(d->name, v)) return NULL;
    }
    if (n == 1 && nn_is_tensor(nn_tuple_get(args, 0))) {
        nn_tensor *t = NN_TENSOR(nn_tuple_get(args, 0));
        if (t->dtype != dt) {
            /* c10's TensorOptions, the dtype named by the C++ type */
            static const char *const cpp[NN_DTYPE_COUNT] = {
                [NN_FLOAT32] = "float",     [NN_FLOAT64] = "double",      [NN_FLOAT16] = "c10::Half",
                [NN_BFLOAT16] = "c10::BFloat16", [NN_INT64] = "long int", [NN_INT32] = "int",
                [NN_BOOL] = "bool",         [NN_UINT8] = "unsigned char", [NN_INT8] = "signed char",
                [NN_INT16] = "short int"};
            static const char *const rest = "device=cpu, layout=Strided, requires_grad=false (default), "
                                            "pinned_memory=false (default), memory_format=(nullopt))";
            nn_error_set(NN_ERR_TYPE, "expected TensorOptions(dtype=%s, %s (got TensorOptions(dtype=%s, %s)", cpp[dt],
                         rest, cpp[t->dtype], rest);
            return NULL;
        }
        return T(nn_detach(t)); /* a new tensor over the same data */
    }
    nn_object *from_np;
    if (n == 1 && repl_numpy_legacy_new(nn_tuple_get(args, 0), dt, &from_np)) return from_np; /* FloatTensor(ndarray) */
    if (n == 1 && !nn_is_int(nn_tuple_get(args, 0)) && !nn_is_instance(nn_tuple_get(args, 0), &repl_size_type))
        return T(nn_tensor_from_nested(nn_tuple_get(args, 0), (int)dt));
    int ndim = 0;
    int64_t sizes[NN_MAX_DIMS] = {0};
    for (size_t i = 0; n > 1 && i < n; i++)
        if (!nn_is_int(nn_tuple_get(args, i)))
            return nn_error_set(NN_ERR_TYPE, "new(): argument 'size' must be tuple of ints, but found element of type "
                                             "%s at pos %zu", repl_type_name(nn_tuple_get(args, i)), i + 1), NULL;
    if (n == 0) {
        ndim = 1;
    } else if (repl_shape_from_args(d->name, args, 0, n, &ndim, sizes)) {
        return NULL;
    }
    return T(nn_empty(ndim, sizes, dt)); /* uninitialised, as PyTorch */
}

/* ------------------------------------------------------------- entries */

int repl_ops_more_add_functions(nn_object *torch)
{
    if (repl_namespace_add_fns(torch, ops_more_functions, N_FUNCTIONS)) return -1;
    return repl_namespace_add_classes(torch, legacy_classes, N_LEGACY);
}

nn_object *repl_ops_more_method(nn_tensor *t, const char *name)
{
    nn_object *m = repl_method_lookup(ops_more_methods, name, &t->ob);
    if (m || nn_error_current() != NN_OK) return m;
    for (size_t i = 0; i < N_FUNCTIONS; i++)
        if (!strcmp(ops_more_functions[i].name, name))
            return repl_bound_function(&ops_more_functions[i], &t->ob);
    return NULL;
}
