/*
 * bind_ops_extra.c — more tensor functions as torch functions and tensor
 * methods (core/ops_extra.c): fmod, logit, nansum, nanmean, rot90, take,
 * take_along_dim, cummax, cummin, cross, kron, tensordot, diff,
 * atleast_1d/2d/3d, dstack, column_stack, searchsorted, bucketize; the
 * in-place forms fmod_ and logit_ come from bind_tensor_more.c's list.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "nn_ops_extra.h"

#define ARGS(n) nn_object *a[n] = {0}
static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

/* ------------------------------------------------------- elementwise */

static nn_object *f_fmod(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    if (repl_parse_args("fmod", "input, other", args, kwargs, a) || repl_arg_tensor("fmod", "input", 1, a[0], &x))
        return NULL;
    nn_tensor *y = repl_as_tensor(a[1]);
    if (!y) {
        if (nn_error_current() == NN_OK)
            nn_error_set(NN_ERR_TYPE, "fmod(): argument 'other' (position 2) must be Tensor, not %s",
                         repl_type_name(a[1]));
        return NULL;
    }
    nn_tensor *r = nn_fmod(x, y);
    NN_RELEASE(y);
    return T(r);
}

static nn_object *f_logit(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    double eps = 0;
    bool has_eps = false;
    if (repl_parse_args("logit", "input, eps=", args, kwargs, a) || repl_arg_tensor("logit", "input", 1, a[0], &x))
        return NULL;
    if (a[1] && !nn_is_none(a[1])) {
        if (repl_arg_double("logit", "eps", 2, a[1], &eps)) return NULL;
        has_eps = true;
    }
    return T(nn_logit(x, eps, has_eps));
}

/* ------------------------------------------------------------ reductions */

static nn_object *nan_reduce(const char *f, nn_object *args, nn_object *kwargs, bool mean)
{
    ARGS(4);
    nn_tensor *x = NULL;
    int n = 0, dims[NN_MAX_DIMS], dtype = -1;
    bool keepdim = false;
    if (repl_parse_args(f, "input, dim=, keepdim=, *, dtype=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_dims(f, "dim", 2, a[1], &n, dims) || repl_arg_bool(f, "keepdim", 3, a[2], &keepdim) ||
        repl_arg_dtype(f, "dtype", 0, a[3], &dtype))
        return NULL;
    if (!mean) return T(nn_nansum(x, n, dims, keepdim, dtype));
    nn_tensor *c = dtype >= 0 ? nn_to_dtype(x, (nn_dtype)dtype) : (NN_RETAIN(x), x);
    nn_tensor *r = c ? nn_nanmean(c, n, dims, keepdim) : NULL;
    NN_RELEASE(c);
    return T(r);
}

static nn_object *f_nansum(void *ud, nn_object *args, nn_object *kwargs) { return nan_reduce("nansum", args, kwargs, false); }
static nn_object *f_nanmean(void *ud, nn_object *args, nn_object *kwargs) { return nan_reduce("nanmean", args, kwargs, true); }

static nn_object *cumextreme(const char *f, nn_object *args, nn_object *kwargs, bool is_max)
{
    ARGS(2);
    nn_tensor *x = NULL, *v = NULL, *i = NULL;
    int64_t dim = 0;
    if (repl_parse_args(f, "input, dim", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_int(f, "dim", 2, a[1], &dim))
        return NULL;
    int rc = nn_cumextreme(x, (int)dim, is_max, &v, &i);
    return repl_return_pair(rc, v, i, is_max ? REPL_RETURN_cummax : REPL_RETURN_cummin);
}

static nn_object *f_cummax(void *ud, nn_object *args, nn_object *kwargs) { return cumextreme("cummax", args, kwargs, true); }
static nn_object *f_cummin(void *ud, nn_object *args, nn_object *kwargs) { return cumextreme("cummin", args, kwargs, false); }

/* ------------------------------------------------------------- shapes */

static nn_object *f_rot90(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t k = 1;
    int n = 2, dims[NN_MAX_DIMS] = {0, 1};
    if (repl_parse_args("rot90", "input, k=, dims=", args, kwargs, a) || repl_arg_tensor("rot90", "input", 1, a[0], &x) ||
        repl_arg_int("rot90", "k", 2, a[1], &k) || (a[2] && repl_arg_dims("rot90", "dims", 3, a[2], &n, dims)))
        return NULL;
    return T(nn_rot90(x, k, n, dims));
}

static nn_object *f_take(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL, *ix = NULL;
    if (repl_parse_args("take", "input, index", args, kwargs, a) || repl_arg_tensor("take", "input", 1, a[0], &x) ||
        repl_arg_tensor("take", "index", 2, a[1], &ix))
        return NULL;
    return T(nn_take(x, ix));
}

static nn_object *f_take_along_dim(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *ix = NULL;
    int64_t dim = 0;
    const char *f = "take_along_dim";
    if (repl_parse_args(f, "input, indices, dim=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_tensor(f, "indices", 2, a[1], &ix))
        return NULL;
    bool has_dim = a[2] && !nn_is_none(a[2]);
    if (has_dim && repl_arg_int(f, "dim", 3, a[2], &dim)) return NULL;
    return T(nn_take_along_dim(x, ix, has_dim, (int)dim));
}

static nn_object *cross_impl(const char *f, nn_object *args, nn_object *kwargs, bool linalg)
{
    ARGS(3);
    nn_tensor *x = NULL, *y = NULL;
    int64_t dim = -1;
    if (repl_parse_args(f, linalg ? "input, other, *, dim=" : "input, other, dim=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_tensor(f, "other", 2, a[1], &y))
        return NULL;
    bool has_dim = linalg || (a[2] && !nn_is_none(a[2]));
    if (a[2] && !nn_is_none(a[2]) && repl_arg_int(f, "dim", 3, a[2], &dim)) return NULL;
    return T(nn_cross(x, y, has_dim, (int)dim, linalg));
}

static nn_object *f_cross(void *ud, nn_object *args, nn_object *kwargs) { return cross_impl("cross", args, kwargs, false); }
static nn_object *f_linalg_cross(void *ud, nn_object *args, nn_object *kwargs)
{
    return cross_impl("linalg_cross", args, kwargs, true);
}

static nn_object *f_kron(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL, *y = NULL;
    if (repl_parse_args("kron", "input, other", args, kwargs, a) || repl_arg_tensor("kron", "input", 1, a[0], &x) ||
        repl_arg_tensor("kron", "other", 2, a[1], &y))
        return NULL;
    return T(nn_kron(x, y));
}

/* dims: an int n (a's last n with b's first n), or a pair of dim lists */
static nn_object *f_tensordot(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *y = NULL;
    const char *f = "tensordot";
    if (repl_parse_args(f, "a, b, dims=", args, kwargs, a) || repl_arg_tensor(f, "a", 1, a[0], &x) ||
        repl_arg_tensor(f, "b", 2, a[1], &y))
        return NULL;
    int n = 0, m = 0, da[NN_MAX_DIMS], db[NN_MAX_DIMS];
    nn_object *d = a[2];
    if (!d || nn_is_int(d)) {
        int64_t k = d ? nn_int_value(d) : 2;
        if (k < 0) return nn_error_set(NN_ERR_RUNTIME, "tensordot expects dims >= 0, but got dims=%lld", (long long)k), NULL;
        if (k > x->ndim || k > y->ndim)
            return nn_error_set(NN_ERR_RUNTIME, "tensordot expects dims < ndim_a or ndim_b, but got dims=%lld",
                                (long long)k), NULL;
        for (int i = 0; i < (int)k; i++) da[i] = i - (int)k, db[i] = i; /* as torch.functional: range(-k, 0) */
        n = m = (int)k;
    } else {
        bool is_list = nn_is_list(d), is_tuple = nn_is_instance(d, &nn_tuple_type);
        size_t len = is_list ? nn_list_len(d) : is_tuple ? nn_tuple_len(d) : 0;
        if (len != 2)
            return nn_error_set(NN_ERR_RUNTIME, "tensordot expects dims to be an int or a pair of lists of dims"), NULL;
        nn_object *d0 = is_list ? nn_list_get(d, 0) : nn_tuple_get(d, 0), *d1 = is_list ? nn_list_get(d, 1) : nn_tuple_get(d, 1);
        if (repl_arg_dims(f, "dims", 3, d0, &n, da) || repl_arg_dims(f, "dims", 3, d1, &m, db)) return NULL;
        if (n != m)
            return nn_error_set(NN_ERR_RUNTIME, "both dimension lists should have same length"), NULL;
    }
    return T(nn_tensordot(x, y, n, da, db));
}

static nn_object *f_diff(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL, *pre = NULL, *app = NULL;
    int64_t n = 1, dim = -1;
    const char *f = "diff";
    if (repl_parse_args(f, "input, n=, dim=, prepend=, append=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_int(f, "n", 2, a[1], &n) || repl_arg_int(f, "dim", 3, a[2], &dim) ||
        (a[3] && !nn_is_none(a[3]) && repl_arg_tensor(f, "prepend", 4, a[3], &pre)) ||
        (a[4] && !nn_is_none(a[4]) && repl_arg_tensor(f, "append", 5, a[4], &app)))
        return NULL;
    return T(nn_diff(x, n, (int)dim, pre, app));
}

/* atleast_Nd(t) -> t; atleast_Nd(t1, t2) or ([t1, t2]) -> a tuple */
static nn_object *atleast(const char *f, nn_object *args, nn_object *kwargs, int nd)
{
    nn_tensor *ts[64];
    int n = 0;
    if (kwargs && nn_dict_len(kwargs))
        return nn_error_set(NN_ERR_TYPE, "%s() got an unexpected keyword argument", f), NULL;
    if (nn_tuple_len(args) == 0)
        return nn_error_set(NN_ERR_TYPE, "%s() missing 1 required positional argument: 'tensors'", f), NULL;
    if (repl_tensor_list(f, args, 0, ts, 64, &n)) return NULL;
    bool single = nn_tuple_len(args) == 1 && nn_is_tensor(nn_tuple_get(args, 0));
    if (single) return T(nn_atleast(ts[0], nd));
    nn_object *r = nn_tuple_new((size_t)n);
    for (int i = 0; r && i < n; i++) {
        nn_tensor *t = nn_atleast(ts[i], nd);
        if (!t) NN_SET(r, NULL);
        else nn_tuple_set(r, (size_t)i, T(t));
    }
    return r;
}

static nn_object *f_atleast_1d(void *ud, nn_object *args, nn_object *kwargs) { return atleast("atleast_1d", args, kwargs, 1); }
static nn_object *f_atleast_2d(void *ud, nn_object *args, nn_object *kwargs) { return atleast("atleast_2d", args, kwargs, 2); }
static nn_object *f_atleast_3d(void *ud, nn_object *args, nn_object *kwargs) { return atleast("atleast_3d", args, kwargs, 3); }

static nn_object *stacker(const char *f, nn_object *args, nn_object *kwargs, bool columns)
{
    ARGS(1);
    nn_tensor *ts[256];
    int n = 0;
    if (repl_parse_args(f, "tensors", args, kwargs, a)) return NULL;
    nn_object *one = nn_tuple_new(1);
    if (!one) return NULL;
    nn_tuple_set(one, 0, nn_retain(a[0]));
    int rc = nn_is_tensor(a[0]) ? nn_error_set(NN_ERR_TYPE, "%s(): argument 'tensors' (position 1) must be tuple of "
                                                            "Tensors, not Tensor", f)
                                : repl_tensor_list(f, one, 0, ts, 256, &n);
    NN_RELEASE(one);
    if (rc) return NULL;
    return T(columns ? nn_column_stack(n, ts) : nn_dstack(n, ts));
}

static nn_object *f_dstack(void *ud, nn_object *args, nn_object *kwargs) { return stacker("dstack", args, kwargs, false); }
static nn_object *f_column_stack(void *ud, nn_object *args, nn_object *kwargs)
{
    return stacker("column_stack", args, kwargs, true);
}

/* ------------------------------------------------------ searchsorted */

static nn_object *search(const char *f, nn_tensor *seq, nn_object *vals, bool out_int32, bool right, nn_object *side,
                         nn_object *sorter_o)
{
    if (side && !nn_is_none(side)) {
        const char *s = NULL;
        if (repl_arg_str(f, "side", 0, side, &s)) return NULL;
        if (strcmp(s, "left") && strcmp(s, "right"))
            return nn_error_set(NN_ERR_RUNTIME, "torch.searchsorted(): side can only be 'left' or 'right' but got %s",
                                s), NULL;
        if (right && !strcmp(s, "left"))
            return nn_error_set(NN_ERR_RUNTIME, "torch.searchsorted(): side and right can't be set to opposites, got "
                                                "side of left while right was True"), NULL;
        right = !strcmp(s, "right");
    }
    nn_tensor *sorter = NULL;
    if (sorter_o && !nn_is_none(sorter_o) && repl_arg_tensor(f, "sorter", 0, sorter_o, &sorter)) return NULL;
    nn_tensor *v = nn_is_tensor(vals) ? (NN_RETAIN(NN_TENSOR(vals)), NN_TENSOR(vals)) : repl_as_tensor(vals);
    if (!v) {
        if (nn_error_current() == NN_OK)
            nn_error_set(NN_ERR_TYPE, "%s(): argument 'input' must be Tensor, not %s", f, repl_type_name(vals));
        return NULL;
    }
    if (!nn_is_tensor(vals)) NN_SET(v, nn_to_device(v, nn_device_of(seq))); /* a Scalar goes to the boundaries' device */
    if (!v) return NULL;
    nn_tensor *r = nn_searchsorted(seq, v, right, out_int32, sorter);
    NN_RELEASE(v);
    return T(r);
}

static nn_object *f_searchsorted(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    nn_tensor *seq = NULL;
    bool out_int32 = false, right = false;
    const char *f = "searchsorted";
    if (repl_parse_args(f, "sorted_sequence, input, *, out_int32=, right=, side=, sorter=", args, kwargs, a) ||
        repl_arg_tensor(f, "sorted_sequence", 1, a[0], &seq) || repl_arg_bool(f, "out_int32", 0, a[2], &out_int32) ||
        repl_arg_bool(f, "right", 0, a[3], &right))
        return NULL;
    return search(f, seq, a[1], out_int32, right, a[4], a[5]);
}

static nn_object *f_bucketize(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *b = NULL;
    bool out_int32 = false, right = false;
    const char *f = "bucketize";
    if (repl_parse_args(f, "input, boundaries, *, out_int32=, right=", args, kwargs, a) ||
        repl_arg_tensor(f, "boundaries", 2, a[1], &b) || repl_arg_bool(f, "out_int32", 0, a[2], &out_int32) ||
        repl_arg_bool(f, "right", 0, a[3], &right))
        return NULL;
    if (b->ndim != 1)
        return nn_error_set(NN_ERR_RUNTIME, "boundaries tensor must be 1 dimension, but got dim(%d)", b->ndim), NULL;
    return search(f, b, a[0], out_int32, right, NULL, NULL);
}

/* scatter_reduce(input, dim, index, src, reduce, *, include_self=True) */
static nn_object *f_scatter_reduce(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    nn_tensor *x = NULL, *ix = NULL, *src = NULL;
    int64_t dim = 0;
    const char *reduce = NULL, *f = "scatter_reduce";
    bool include_self = true;
    if (repl_parse_args(f, "input, dim, index, src, reduce, *, include_self=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_int(f, "dim", 2, a[1], &dim) ||
        repl_arg_tensor(f, "index", 3, a[2], &ix) || repl_arg_tensor(f, "src", 4, a[3], &src) ||
        repl_arg_str(f, "reduce", 5, a[4], &reduce) || repl_arg_bool(f, "include_self", 0, a[5], &include_self))
        return NULL;
    int code = nn_scatter_reduce_code(reduce);
    return code < 0 ? NULL : T(nn_scatter_reduce2(x, (int)dim, ix, src, code, include_self));
}

static nn_object *f_cov(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL;
    int64_t correction = 1;
    if (repl_parse_args("cov", "input, *, correction=, fweights=, aweights=", args, kwargs, a) ||
        repl_arg_tensor("cov", "input", 1, a[0], &x) || repl_arg_int("cov", "correction", 0, a[1], &correction))
        return NULL;
    if ((a[2] && !nn_is_none(a[2])) || (a[3] && !nn_is_none(a[3])))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "cov(): fweights= and aweights= are not supported here"), NULL;
    return T(nn_cov(x, correction));
}

static nn_object *f_corrcoef(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *x = NULL;
    if (repl_parse_args("corrcoef", "input", args, kwargs, a) || repl_arg_tensor("corrcoef", "input", 1, a[0], &x))
        return NULL;
    return T(nn_corrcoef(x));
}

/* cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary') */
static nn_object *f_cdist(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x1 = NULL, *x2 = NULL;
    double p = 2;
    const char *mode = NULL;
    if (repl_parse_args("cdist", "x1, x2, p=, compute_mode=", args, kwargs, a) || repl_arg_tensor("cdist", "x1", 1, a[0], &x1) ||
        repl_arg_tensor("cdist", "x2", 2, a[1], &x2) || repl_arg_double("cdist", "p", 3, a[2], &p) ||
        (a[3] && !nn_is_none(a[3]) && repl_arg_str("cdist", "compute_mode", 4, a[3], &mode)))
        return NULL;
    if (mode && strcmp(mode, "use_mm_for_euclid_dist_if_necessary"))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "cdist(): compute_mode='%s' is not supported here", mode), NULL;
    return T(nn_cdist(x1, x2, p));
}

/* quantile(input, q, dim=None, keepdim=False, *, interpolation='linear') */
static nn_object *quantile_impl(const char *f, nn_object *args, nn_object *kwargs, bool ignore_nan)
{
    ARGS(6);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    bool keepdim = false;
    const char *interp = "linear";
    if (repl_parse_args(f, "input, q, dim=, keepdim=, *, interpolation=, out=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_bool(f, "keepdim", 4, a[3], &keepdim) ||
        (a[4] && repl_arg_str(f, "interpolation", 0, a[4], &interp)) || repl_no_out(f, a[5]))
        return NULL;
    bool has_dim = a[2] && !nn_is_none(a[2]);
    if (has_dim && repl_arg_int(f, "dim", 3, a[2], &dim)) return NULL;
    int mode = nn_quantile_mode(interp);
    if (mode < 0) return NULL;
    nn_tensor *q = NULL;
    if (nn_is_tensor(a[1])) {
        q = NN_TENSOR(a[1]);
        NN_RETAIN(q);
    } else {
        double v = 0;
        if (repl_arg_double(f, "q", 2, a[1], &v)) return NULL;
        q = nn_full_on(nn_device_of(x), 0, NULL, v, x->dtype); /* at::scalar_tensor(q, self.options()) */
        if (!q) return NULL;
    }
    nn_tensor *r = nn_quantile(x, q, has_dim, (int)dim, keepdim, mode, ignore_nan);
    NN_RELEASE(q);
    return T(r);
}

static nn_object *f_quantile(void *ud, nn_object *args, nn_object *kwargs) { return quantile_impl("quantile", args, kwargs, false); }
static nn_object *f_nanquantile(void *ud, nn_object *args, nn_object *kwargs)
{
    return quantile_impl("nanquantile", args, kwargs, true);
}

/* poisson(input, generator=None) */
static nn_object *f_poisson(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    nn_generator *g = NULL;
    if (repl_parse_args("poisson", "input, generator=", args, kwargs, a) || repl_arg_tensor("poisson", "input", 1, a[0], &x) ||
        repl_arg_generator("poisson", a[1], &g))
        return NULL;
    nn_generator *prev = nn_generator_use(g);
    nn_tensor *r = nn_poisson(x);
    nn_generator_use(prev);
    return T(r);
}

/* ------------------------------------------------------------- tables */

static const repl_function_def extra_functions[] = {
    {"fmod", f_fmod,
     "fmod(input, other, *, out=None) -> Tensor\n"
     "Applies C++'s std::fmod entrywise: the result has the sign of the dividend input."},
    {"logit", f_logit,
     "logit(input, eps=None, *, out=None) -> Tensor\n"
     "log(z / (1 - z)), z the input clamped to [eps, 1 - eps] when eps is given."},
    {"nansum", f_nansum,
     "nansum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor\n"
     "The sum of the elements, treating Not a Numbers (NaNs) as zero."},
    {"nanmean", f_nanmean,
     "nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None) -> Tensor\n"
     "The mean of all non-NaN elements along the specified dimensions."},
    {"cummax", f_cummax,
     "cummax(input, dim, *, out=None) -> (Tensor, LongTensor)\n"
     "The cumulative maximum of elements of input in the dimension dim, and the index where each was found."},
    {"cummin", f_cummin,
     "cummin(input, dim, *, out=None) -> (Tensor, LongTensor)\n"
     "The cumulative minimum of elements of input in the dimension dim, and the index where each was found."},
    {"rot90", f_rot90,
     "rot90(input, k=1, dims=[0, 1]) -> Tensor\n"
     "Rotate an n-D tensor by 90 degrees in the plane specified by dims axis, k times, from the first towards the second."},
    {"take", f_take,
     "take(input, index) -> Tensor\n"
     "Returns a new tensor with the elements of input at the given indices, input treated as 1-D."},
    {"take_along_dim", f_take_along_dim,
     "take_along_dim(input, indices, dim=None, *, out=None) -> Tensor\n"
     "Selects values from input at the 1-dimensional indices from indices along the given dim."},
    {"cross", f_cross,
     "cross(input, other, dim=None, *, out=None) -> Tensor\n"
     "The cross product of vectors in dimension dim (default: the first of size 3) of input and other."},
    {"kron", f_kron,
     "kron(input, other, *, out=None) -> Tensor\n"
     "The Kronecker product of input and other."},
    {"tensordot", f_tensordot,
     "tensordot(a, b, dims=2, out=None) -> Tensor\n"
     "A contraction of a and b over multiple dimensions (an int: a's last dims with b's first; or two lists)."},
    {"diff", f_diff,
     "diff(input, n=1, dim=-1, prepend=None, append=None) -> Tensor\n"
     "The n-th forward difference along the given dimension."},
    {"atleast_1d", f_atleast_1d,
     "atleast_1d(*tensors) -> Tensor or tuple\n"
     "A 1-dimensional view of each input tensor with zero dimensions; inputs with one or more dimensions are returned as-is."},
    {"atleast_2d", f_atleast_2d,
     "atleast_2d(*tensors) -> Tensor or tuple\n"
     "A 2-dimensional view of each input tensor with fewer dimensions."},
    {"atleast_3d", f_atleast_3d,
     "atleast_3d(*tensors) -> Tensor or tuple\n"
     "A 3-dimensional view of each input tensor with fewer dimensions."},
    {"dstack", f_dstack,
     "dstack(tensors, *, out=None) -> Tensor\n"
     "Stack tensors in sequence depthwise (along the third axis), after atleast_3d."},
    {"column_stack", f_column_stack,
     "column_stack(tensors, *, out=None) -> Tensor\n"
     "Creates a new tensor by horizontally stacking the tensors in tensors (1-d ones as columns)."},
    {"searchsorted", f_searchsorted,
     "searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, out=None, sorter=None) -> Tensor\n"
     "The indices from the innermost dimension of sorted_sequence where values would be inserted to keep it sorted."},
    {"scatter_reduce", f_scatter_reduce,
     "scatter_reduce(input, dim, index, src, reduce, *, include_self=True) -> Tensor\n"
     "Reduces all values from src into input at the indices along dim with sum, prod, mean, amax or amin (beta in 1.13)."},
    {"cov", f_cov,
     "cov(input, *, correction=1, fweights=None, aweights=None) -> Tensor\n"
     "Estimates the covariance matrix of the variables given by the input matrix (rows: variables, columns: observations)."},
    {"corrcoef", f_corrcoef,
     "corrcoef(input) -> Tensor\n"
     "Estimates the Pearson product-moment correlation coefficient matrix of the variables given by the input matrix."},
    {"cdist", f_cdist,
     "cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary') -> Tensor\n"
     "Computes batched the p-norm distance between each pair of the two collections of row vectors."},
    {"quantile", f_quantile,
     "quantile(input, q, dim=None, keepdim=False, *, interpolation='linear', out=None) -> Tensor\n"
     "Computes the q-th quantiles of each row of the input tensor along the dimension dim (linear, lower, higher, midpoint, nearest)."},
    {"nanquantile", f_nanquantile,
     "nanquantile(input, q, dim=None, keepdim=False, *, interpolation='linear', out=None) -> Tensor\n"
     "A variant of torch.quantile() that ignores NaN values, computing the quantiles q as if NaN values in input did not exist."},
    {"poisson", f_poisson,
     "poisson(input, generator=None) -> Tensor\n"
     "A tensor of input's size with each element sampled from a Poisson distribution with the rate in input."},
    {"bucketize", f_bucketize,
     "bucketize(input, boundaries, *, out_int32=False, right=False, out=None) -> Tensor\n"
     "The indices of the buckets to which each value in the input belongs, boundaries setting the buckets."},
};
#define N_FUNCTIONS (sizeof extra_functions / sizeof extra_functions[0])

/* torch functions that are not tensor methods */
static bool function_only(const char *name)
{
    static const char *const names[] = {"tensordot", "atleast_1d", "atleast_2d", "atleast_3d", "dstack",
                                        "column_stack", "searchsorted", "bucketize", "poisson", "cdist"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i], name)) return true;
    return false;
}

static const repl_function_def linalg_functions[] = {
    {"cross", f_linalg_cross,
     "cross(input, other, *, dim=-1, out=None) -> Tensor\n"
     "Computes the cross product of two 3-dimensional vectors (broadcast) along dim."},
};

int repl_ops_extra_add_functions(nn_object *torch)
{
    if (repl_namespace_add_fns(torch, extra_functions, N_FUNCTIONS)) return -1;
    nn_object *linalg = repl_namespace_new("torch.linalg");
    int rc = linalg ? repl_namespace_add_fns(linalg, linalg_functions, sizeof linalg_functions / sizeof *linalg_functions)
                    : -1;
    if (rc == 0) rc = repl_linalg_add_functions(linalg);
    if (rc == 0) rc = repl_linalg_add_torch_functions(torch);
    if (rc == 0) rc = repl_namespace_set(torch, "linalg", linalg);
    NN_RELEASE(linalg);
    return rc;
}

nn_object *repl_ops_extra_method(nn_tensor *t, const char *name)
{
    for (size_t i = 0; i < N_FUNCTIONS; i++)
        if (!strcmp(extra_functions[i].name, name) && !function_only(name))
            return repl_bound_function(&extra_functions[i], &t->ob);
    return repl_linalg_method(t, name);
}
