/*
 * bind_select.c — torch's sorting, scans and index-driven selection as torch
 * functions and tensor methods: sort, argsort, topk, kthvalue (values and
 * indices as torch.return_types), cumsum, cumprod, flip, roll, tril, triu,
 * gather, scatter, scatter_add, index_select, masked_select, chunk, split,
 * unbind; the in-place methods cumsum_, cumprod_, tril_, triu_, scatter_,
 * scatter_add_, masked_fill_; and F.one_hot. The ops are core/select.c's.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"

#define ARGS(n) nn_object *a[n] = {0}
static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

static int no_out(const char *f, nn_object *o)
{
    if (!o || nn_is_none(o)) return 0;
    return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "%s: out= is not supported", f);
}

/* ----------------------------------------------------------- sorting */

static nn_object *f_sort(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL, *v = NULL, *i = NULL;
    int64_t dim = -1;
    bool desc = false, stable = false;
    if (repl_parse_args("sort", "input, dim=, descending=, *, stable=, out=", args, kwargs, a) ||
        repl_arg_tensor("sort", "input", 1, a[0], &x) || repl_arg_dim("sort", "dim", 2, a[1], x->ndim, &dim) ||
        repl_arg_bool("sort", "descending", 3, a[2], &desc) || repl_arg_bool("sort", "stable", 0, a[3], &stable) ||
        no_out("sort", a[4]))
        return NULL;
    int rc = nn_sort(x, (int)dim, desc, &v, &i);
    return repl_return_pair(rc, v, i, REPL_RETURN_sort);
}

static nn_object *f_argsort(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *v = NULL, *i = NULL;
    int64_t dim = -1;
    bool desc = false, stable = false;
    if (repl_parse_args("argsort", "input, dim=, descending=, *, stable=", args, kwargs, a) ||
        repl_arg_tensor("argsort", "input", 1, a[0], &x) || repl_arg_dim("argsort", "dim", 2, a[1], x->ndim, &dim) ||
        repl_arg_bool("argsort", "descending", 3, a[2], &desc) || repl_arg_bool("argsort", "stable", 0, a[3], &stable))
        return NULL;
    bool prev = nn_set_grad_enabled(false);
    int rc = nn_sort(x, (int)dim, desc, &v, &i);
    nn_set_grad_enabled(prev);
    NN_RELEASE(v);
    return rc < 0 ? NULL : T(i);
}

static nn_object *f_topk(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    nn_tensor *x = NULL, *v = NULL, *i = NULL;
    int64_t k = 0, dim = -1;
    bool largest = true, sorted = true;
    if (repl_parse_args("topk", "input, k, dim=, largest=, sorted=, *, out=", args, kwargs, a) ||
        repl_arg_tensor("topk", "input", 1, a[0], &x) || repl_arg_int("topk", "k", 2, a[1], &k) ||
        repl_arg_dim("topk", "dim", 3, a[2], x->ndim, &dim) || repl_arg_bool("topk", "largest", 4, a[3], &largest) ||
        repl_arg_bool("topk", "sorted", 5, a[4], &sorted) || no_out("topk", a[5]))
        return NULL;
    int rc = nn_topk(x, k, (int)dim, largest, &v, &i);
    return repl_return_pair(rc, v, i, REPL_RETURN_topk);
}

static nn_object *f_kthvalue(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL, *v = NULL, *i = NULL;
    int64_t k = 0, dim = -1;
    bool keepdim = false;
    if (repl_parse_args("kthvalue", "input, k, dim=, keepdim=, *, out=", args, kwargs, a) ||
        repl_arg_tensor("kthvalue", "input", 1, a[0], &x) || repl_arg_int("kthvalue", "k", 2, a[1], &k) ||
        repl_arg_dim("kthvalue", "dim", 3, a[2], x->ndim, &dim) || repl_arg_bool("kthvalue", "keepdim", 4, a[3], &keepdim) ||
        no_out("kthvalue", a[4]))
        return NULL;
    int rc = nn_kthvalue(x, k, (int)dim, keepdim, &v, &i);
    return repl_return_pair(rc, v, i, REPL_RETURN_kthvalue);
}

/* ------------------------------------------------------------- scans */

static nn_object *scan(const char *f, nn_object *args, nn_object *kwargs, nn_tensor *(*fn)(nn_tensor *, int, int))
{
    ARGS(4);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    int dtype = -1;
    if (repl_parse_args(f, "input, dim, *, dtype=, out=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_dim(f, "dim", 2, a[1], x->ndim, &dim) || repl_arg_dtype(f, "dtype", 0, a[2], &dtype) || no_out(f, a[3]))
        return NULL;
    return T(fn(x, (int)dim, dtype));
}

static nn_object *f_cumsum(void *ud, nn_object *args, nn_object *kwargs) { return scan("cumsum", args, kwargs, nn_cumsum); }
static nn_object *f_cumprod(void *ud, nn_object *args, nn_object *kwargs) { return scan("cumprod", args, kwargs, nn_cumprod); }

/* ------------------------------------------------------- rearranging */

static nn_object *f_flip(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    int n = 0, dims[NN_MAX_DIMS];
    if (repl_parse_args("flip", "input, dims", args, kwargs, a) || repl_arg_tensor("flip", "input", 1, a[0], &x) ||
        repl_arg_dims("flip", "dims", 2, a[1], &n, dims))
        return NULL;
    return T(nn_flip(x, n, dims));
}

static nn_object *f_roll(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int n = 0, nd = 0, dims[NN_MAX_DIMS];
    int64_t shifts[NN_MAX_DIMS];
    if (repl_parse_args("roll", "input, shifts, dims=", args, kwargs, a) || repl_arg_tensor("roll", "input", 1, a[0], &x))
        return NULL;
    if (nn_is_int(a[1])) {
        n = 1;
        if (repl_arg_int("roll", "shifts", 2, a[1], &shifts[0])) return NULL;
    } else if (repl_arg_shape("roll", "shifts", a[1], &n, shifts)) {
        return NULL;
    }
    if (repl_arg_dims("roll", "dims", 3, a[2], &nd, dims)) return NULL;
    return T(nn_roll(x, n, shifts, nd, dims));
}

static nn_object *triangle(const char *f, nn_object *args, nn_object *kwargs, nn_tensor *(*fn)(nn_tensor *, int64_t))
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t diag = 0;
    if (repl_parse_args(f, "input, diagonal=, *, out=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_int(f, "diagonal", 2, a[1], &diag) || no_out(f, a[2]))
        return NULL;
    return T(fn(x, diag));
}

static nn_object *f_tril(void *ud, nn_object *args, nn_object *kwargs) { return triangle("tril", args, kwargs, nn_tril); }
static nn_object *f_triu(void *ud, nn_object *args, nn_object *kwargs) { return triangle("triu", args, kwargs, nn_triu); }

/* ----------------------------------------------------- index-driven */

static nn_object *f_gather(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL, *ix = NULL;
    int64_t dim = 0;
    if (repl_parse_args("gather", "input, dim, index, *, sparse_grad=, out=", args, kwargs, a) ||
        repl_arg_tensor("gather", "input", 1, a[0], &x) || repl_arg_dim("gather", "dim", 2, a[1], x->ndim, &dim) ||
        repl_arg_tensor("gather", "index", 3, a[2], &ix) || no_out("gather", a[4]))
        return NULL;
    return T(nn_gather(x, (int)dim, ix));
}

static nn_object *f_scatter(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    nn_tensor *x = NULL, *ix = NULL;
    int64_t dim = 0;
    if (repl_parse_args("scatter", "input, dim, index, src=, *, value=, reduce=", args, kwargs, a) ||
        repl_arg_tensor("scatter", "input", 1, a[0], &x) || repl_arg_dim("scatter", "dim", 2, a[1], x->ndim, &dim) ||
        repl_arg_tensor("scatter", "index", 3, a[2], &ix))
        return NULL;
    nn_object *src = a[3] ? a[3] : a[4];
    if (a[5] && !nn_is_none(a[5])) return repl_scatter_reduce(x, dim, ix, src, a[5]); /* bind_ops_more.c */
    if (!src) return nn_error_set(NN_ERR_TYPE, "scatter() missing 1 required positional argument: 'src'"), NULL;
    if (nn_is_tensor(src)) return T(nn_scatter(x, (int)dim, ix, NN_TENSOR(src)));
    double v = 0;
    if (repl_arg_double("scatter", "value", 4, src, &v)) return NULL;
    return T(nn_scatter_value(x, (int)dim, ix, v));
}

static nn_object *f_scatter_add(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *ix = NULL, *src = NULL;
    int64_t dim = 0;
    if (repl_parse_args("scatter_add", "input, dim, index, src", args, kwargs, a) ||
        repl_arg_tensor("scatter_add", "input", 1, a[0], &x) || repl_arg_dim("scatter_add", "dim", 2, a[1], x->ndim, &dim) ||
        repl_arg_tensor("scatter_add", "index", 3, a[2], &ix) || repl_arg_tensor("scatter_add", "src", 4, a[3], &src))
        return NULL;
    return T(nn_scatter_add(x, (int)dim, ix, src));
}

static nn_object *f_index_select(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *ix = NULL;
    int64_t dim = 0;
    if (repl_parse_args("index_select", "input, dim, index, *, out=", args, kwargs, a) ||
        repl_arg_tensor("index_select", "input", 1, a[0], &x) ||
        repl_arg_dim("index_select", "dim", 2, a[1], x->ndim, &dim) ||
        repl_arg_tensor("index_select", "index", 3, a[2], &ix) || no_out("index_select", a[3]))
        return NULL;
    return T(nn_index_select(x, (int)dim, ix));
}

static nn_object *f_masked_select(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *m = NULL;
    if (repl_parse_args("masked_select", "input, mask, *, out=", args, kwargs, a) ||
        repl_arg_tensor("masked_select", "input", 1, a[0], &x) || repl_arg_tensor("masked_select", "mask", 2, a[1], &m) ||
        no_out("masked_select", a[2]))
        return NULL;
    return T(nn_masked_select(x, m));
}

/* torch.masked_fill(input, mask, value): the method's */
static nn_object *f_masked_fill(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    if (repl_parse_args("masked_fill", "input, mask, value", args, kwargs, a) ||
        repl_arg_tensor("masked_fill", "input", 1, a[0], &x))
        return NULL;
    nn_object *m = repl_tensor_getattr(x, "masked_fill"), *rest = m ? nn_tuple_new(2) : NULL, *r = NULL;
    if (rest) {
        nn_tuple_set(rest, 0, nn_retain(a[1]));
        nn_tuple_set(rest, 1, nn_retain(a[2]));
        r = nn_call(m, rest, NULL);
    }
    NN_RELEASE(m);
    NN_RELEASE(rest);
    return r;
}

/* ------------------------------------------------------------ pieces */

/* A tuple of the n views in outs (taken), or NULL when outs is empty (failed). */
static nn_object *tuple_of(int n, nn_tensor **outs, int rc)
{
    nn_object *t = rc == 0 ? nn_tuple_new((size_t)n) : NULL;
    for (int k = 0; k < n && rc == 0; k++) {
        if (t) nn_tuple_set(t, (size_t)k, T(outs[k]));
        else NN_RELEASE(outs[k]);
    }
    return t;
}

/* A tuple of n consecutive views of x along d of lengths len (one node for all:
   SplitWithSizesBackward0 when with_sizes, else SplitBackward0). */
static nn_object *pieces(nn_tensor *x, int d, int n, const int64_t *len, bool with_sizes)
{
    nn_tensor **outs = nn_calloc((size_t)(n ? n : 1), sizeof *outs);
    if (!outs) return NULL;
    nn_object *t = tuple_of(n, outs, nn_split_views(x, d, n, len, with_sizes, outs));
    nn_free(outs);
    return t;
}

/* the dim of x that chunk/split/unbind cut (a 0-dim tensor has none) */
static int cut_dim(const char *f, nn_tensor *x, int64_t dim, int *d)
{
    if (x->ndim == 0) return nn_error_set(NN_ERR_RUNTIME, "%s expects at least a 1-dimensional tensor", f);
    if (dim < -x->ndim || dim >= x->ndim)
        return nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                            -x->ndim, x->ndim - 1, (long long)dim);
    *d = (int)(dim < 0 ? dim + x->ndim : dim);
    return 0;
}

#define MAX_PIECES 65536

static nn_object *f_chunk(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t chunks = 0, dim = 0;
    int d = 0;
    if (repl_parse_args("chunk", "input, chunks, dim=", args, kwargs, a) || repl_arg_tensor("chunk", "input", 1, a[0], &x) ||
        repl_arg_int("chunk", "chunks", 2, a[1], &chunks) || repl_arg_dim("chunk", "dim", 3, a[2], x->ndim, &dim) ||
        cut_dim("chunk", x, dim, &d))
        return NULL;
    if (chunks <= 0)
        return nn_error_set(NN_ERR_RUNTIME, "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks),
               NULL;
    int64_t len = x->sizes[d], size = (len + chunks - 1) / chunks;
    int64_t n = size ? (len + size - 1) / size : chunks;
    if (n > MAX_PIECES) return nn_error_set(NN_ERR_RUNTIME, "chunk: too many pieces"), NULL;
    int64_t *lens = nn_malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    if (!lens) return NULL;
    for (int64_t k = 0; k < n; k++) lens[k] = size ? (k * size + size <= len ? size : len - k * size) : 0;
    nn_object *r = pieces(x, d, (int)n, lens, false);
    nn_free(lens);
    return r;
}

static nn_object *f_split(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    int d = 0;
    if (repl_parse_args("split", "tensor, split_size_or_sections, dim=", args, kwargs, a) ||
        repl_arg_tensor("split", "tensor", 1, a[0], &x) || repl_arg_dim("split", "dim", 3, a[2], x->ndim, &dim) ||
        cut_dim("split", x, dim, &d))
        return NULL;
    int64_t len = x->sizes[d];
    if (nn_is_int(a[1])) {
        int64_t size = 0;
        if (repl_arg_int("split", "split_size", 2, a[1], &size)) return NULL;
        if (size < 0) return nn_error_set(NN_ERR_RUNTIME, "split expects split_size be non-negative, but got split_size=%lld",
                                          (long long)size), NULL;
        if (size == 0 && len != 0)
            return nn_error_set(NN_ERR_RUNTIME, "split_size can only be 0 if dimension size is 0, but got dimension size of %lld",
                                (long long)len), NULL;
        int64_t n = size ? (len + size - 1) / size : 1;
        if (n == 0) n = 1;
        if (n > MAX_PIECES) return nn_error_set(NN_ERR_RUNTIME, "split: too many pieces"), NULL;
        int64_t *lens = nn_malloc(sizeof(int64_t) * (size_t)n);
        if (!lens) return NULL;
        for (int64_t k = 0; k < n; k++) lens[k] = size ? (k * size + size <= len ? size : len - k * size) : 0;
        nn_object *r = pieces(x, d, (int)n, lens, false);
        nn_free(lens);
        return r;
    }
    int n = 0;
    int64_t lens[NN_MAX_DIMS * 8];
    nn_object *seq = a[1];
    size_t count = nn_is_list(seq) ? nn_list_len(seq) : nn_is_instance(seq, &nn_tuple_type) ? nn_tuple_len(seq) : (size_t)-1;
    if (count == (size_t)-1)
        return nn_error_set(NN_ERR_TYPE, "split(): argument 'split_size' must be int or a list of ints, not %s",
                            repl_type_name(seq)), NULL;
    if (count > sizeof lens / sizeof lens[0]) return nn_error_set(NN_ERR_RUNTIME, "split: too many sections"), NULL;
    int64_t total = 0;
    for (size_t k = 0; k < count; k++) {
        nn_object *e = nn_is_list(seq) ? nn_list_get(seq, k) : nn_tuple_get(seq, k);
        if (repl_arg_int("split", "split_size", 2, e, &lens[k])) return NULL;
        if (lens[k] < 0)
            return nn_error_set(NN_ERR_RUNTIME, "split_with_sizes expects split_sizes have only non-negative entries, but got "
                                "split_sizes=%s", "[...]"), NULL;
        total += lens[k];
        n++;
    }
    if (total != len) {
        char buf[256];
        int o = snprintf(buf, sizeof buf, "[");
        for (int k = 0; k < n && o < (int)sizeof buf - 24; k++) o += snprintf(buf + o, sizeof buf - (size_t)o, "%s%lld", k ? ", " : "", (long long)lens[k]);
        snprintf(buf + o, sizeof buf - (size_t)o, "]");
        return nn_error_set(NN_ERR_RUNTIME, "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size "
                            "at dimension %d), but got split_sizes=%s", (long long)len, d, buf), NULL;
    }
    return pieces(x, d, n, lens, true);
}

static nn_object *f_unbind(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    int d = 0;
    if (repl_parse_args("unbind", "input, dim=", args, kwargs, a) || repl_arg_tensor("unbind", "input", 1, a[0], &x) ||
        repl_arg_dim("unbind", "dim", 2, a[1], x->ndim, &dim))
        return NULL;
    if (x->ndim == 0) return nn_error_set(NN_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions"), NULL;
    if (cut_dim("unbind", x, dim, &d)) return NULL;
    int64_t n = x->sizes[d];
    if (n > MAX_PIECES) return nn_error_set(NN_ERR_RUNTIME, "unbind: too many pieces"), NULL;
    nn_tensor **outs = nn_calloc((size_t)(n ? n : 1), sizeof *outs);
    if (!outs) return NULL;
    nn_object *t = tuple_of((int)n, outs, nn_unbind(x, d, outs));
    nn_free(outs);
    return t;
}

/* ---------------------------------------------------- in-place methods */

/* self.<name>_(...): the out-of-place function's result written into self,
   which takes its grad_fn. */
static nn_object *inplace(nn_object *self, nn_object *r)
{
    if (!r) return NULL;
    int rc = nn_inplace_from(NN_TENSOR(self), NN_TENSOR(r));
    NN_RELEASE(r);
    return rc ? NULL : nn_retain(self);
}

/* (self, *args) for a torch function's parser */
static nn_object *with_self(nn_object *self, nn_object *args)
{
    size_t n = nn_tuple_len(args);
    nn_object *t = nn_tuple_new(n + 1);
    if (!t) return NULL;
    nn_tuple_set(t, 0, nn_retain(self));
    for (size_t i = 0; i < n; i++) nn_tuple_set(t, i + 1, nn_retain(nn_tuple_get(args, i)));
    return t;
}

#define INPLACE(name, fn)                                                                                              \
    static nn_object *m_##name##_(nn_object *self, nn_object *args, nn_object *kwargs)                                 \
    {                                                                                                                  \
        nn_object *all = with_self(self, args);                                                                        \
        nn_object *r = all ? fn(NULL, all, kwargs) : NULL;                                                             \
        NN_RELEASE(all);                                                                                               \
        return inplace(self, r);                                                                                       \
    }

INPLACE(cumsum, f_cumsum)
INPLACE(cumprod, f_cumprod)
INPLACE(tril, f_tril)
INPLACE(triu, f_triu)
INPLACE(scatter, f_scatter)
INPLACE(scatter_add, f_scatter_add)

static nn_object *m_masked_fill_(nn_object *self, nn_object *args, nn_object *kwargs)
{
    nn_object *m = repl_tensor_getattr(NN_TENSOR(self), "masked_fill");
    nn_object *r = m ? nn_call(m, args, kwargs) : NULL;
    NN_RELEASE(m);
    return inplace(self, r);
}

/* x.flip(0, 1) as well as x.flip((0, 1)) */
static nn_object *m_flip(nn_object *self, nn_object *args, nn_object *kwargs)
{
    nn_object *all = NULL;
    if (nn_tuple_len(args) > 1 || (nn_tuple_len(args) == 1 && nn_is_int(nn_tuple_get(args, 0)))) {
        nn_object *dims = nn_tuple_new(nn_tuple_len(args));
        for (size_t i = 0; dims && i < nn_tuple_len(args); i++) nn_tuple_set(dims, i, nn_retain(nn_tuple_get(args, i)));
        all = dims ? nn_tuple_new(2) : NULL;
        if (all) {
            nn_tuple_set(all, 0, nn_retain(self));
            nn_tuple_set(all, 1, dims);
        } else {
            NN_RELEASE(dims);
        }
    } else {
        all = with_self(self, args);
    }
    nn_object *r = all ? f_flip(NULL, all, kwargs) : NULL;
    NN_RELEASE(all);
    return r;
}

static const repl_method_def select_methods[] = {
    {"flip", m_flip,
     "flip(*dims) -> Tensor\n"
     "Reverse the order of an n-D tensor along the given axes in dims."},
    {"cumsum_", m_cumsum_,
     "cumsum_(dim, dtype=None) -> Tensor\n"
     "In-place version of cumsum()."},
    {"cumprod_", m_cumprod_,
     "cumprod_(dim, dtype=None) -> Tensor\n"
     "In-place version of cumprod()."},
    {"tril_", m_tril_,
     "tril_(diagonal=0) -> Tensor\n"
     "In-place version of tril()."},
    {"triu_", m_triu_,
     "triu_(diagonal=0) -> Tensor\n"
     "In-place version of triu()."},
    {"scatter_", m_scatter_,
     "scatter_(dim, index, src) -> Tensor\n"
     "Writes all values from the tensor src (or the number value) into self at the indices specified in the index tensor."},
    {"scatter_add_", m_scatter_add_,
     "scatter_add_(dim, index, src) -> Tensor\n"
     "Adds all values from the tensor src into self at the indices specified in the index tensor."},
    {"masked_fill_", m_masked_fill_,
     "masked_fill_(mask, value) -> Tensor\n"
     "Fills elements of self tensor with value where mask is True."},
    {NULL, NULL, NULL},
};

static const repl_function_def select_functions[] = {
    {"sort", f_sort,
     "sort(input, dim=-1, descending=False, stable=False, *, out=None) -> (Tensor, LongTensor)\n"
     "Sorts the elements of the input tensor along a given dimension in ascending order by value."},
    {"argsort", f_argsort,
     "argsort(input, dim=-1, descending=False, stable=False) -> Tensor\n"
     "Returns the indices that sort a tensor along a given dimension in ascending order by value."},
    {"topk", f_topk,
     "topk(input, k, dim=None, largest=True, sorted=True, *, out=None) -> (Tensor, LongTensor)\n"
     "Returns the k largest elements of the given input tensor along a given dimension."},
    {"kthvalue", f_kthvalue,
     "kthvalue(input, k, dim=None, keepdim=False, *, out=None) -> (Tensor, LongTensor)\n"
     "Returns a namedtuple (values, indices) where values is the k th smallest element of each row of the input tensor in the given dimension dim."},
    {"cumsum", f_cumsum,
     "cumsum(input, dim, *, dtype=None, out=None) -> Tensor\n"
     "Returns the cumulative sum of elements of input in the dimension dim."},
    {"cumprod", f_cumprod,
     "cumprod(input, dim, *, dtype=None, out=None) -> Tensor\n"
     "Returns the cumulative product of elements of input in the dimension dim."},
    {"flip", f_flip,
     "flip(input, dims) -> Tensor\n"
     "Reverse the order of an n-D tensor along the given axes in dims."},
    {"roll", f_roll,
     "roll(input, shifts, dims=None) -> Tensor\n"
     "Roll the tensor input along the given dimension(s)."},
    {"tril", f_tril,
     "tril(input, diagonal=0, *, out=None) -> Tensor\n"
     "Returns the lower triangular part of the matrix (2-D tensor) or batch of matrices input, the other elements of the result tensor out are set to 0."},
    {"triu", f_triu,
     "triu(input, diagonal=0, *, out=None) -> Tensor\n"
     "Returns the upper triangular part of a matrix (2-D tensor) or batch of matrices input, the other elements of the result tensor out are set to 0."},
    {"gather", f_gather,
     "gather(input, dim, index, *, sparse_grad=False, out=None) -> Tensor\n"
     "Gathers values along an axis specified by dim."},
    {"scatter", f_scatter,
     "scatter(input, dim, index, src) -> Tensor\n"
     "Out-of-place version of torch.Tensor.scatter_()."},
    {"scatter_add", f_scatter_add,
     "scatter_add(input, dim, index, src) -> Tensor\n"
     "Out-of-place version of torch.Tensor.scatter_add_()."},
    {"index_select", f_index_select,
     "index_select(input, dim, index, *, out=None) -> Tensor\n"
     "Returns a new tensor which indexes the input tensor along dimension dim using the entries in index which is a LongTensor."},
    {"masked_select", f_masked_select,
     "masked_select(input, mask, *, out=None) -> Tensor\n"
     "Returns a new 1-D tensor which indexes the input tensor according to the boolean mask mask which is a BoolTensor."},
    {"masked_fill", f_masked_fill,
     "masked_fill(input, mask, value) -> Tensor\n"
     "Out-of-place version of torch.Tensor.masked_fill_()."},
    {"chunk", f_chunk,
     "chunk(input, chunks, dim=0) -> List of Tensors\n"
     "Attempts to split a tensor into the specified number of chunks. Each chunk is a view of the input tensor."},
    {"split", f_split,
     "split(tensor, split_size_or_sections, dim=0)\n"
     "Splits the tensor into chunks. Each chunk is a view of the original tensor."},
    {"unbind", f_unbind,
     "unbind(input, dim=0) -> seq\n"
     "Removes a tensor dimension and returns a tuple of all slices along it."},
};

static nn_object *f_one_hot(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    int64_t n = -1;
    if (repl_parse_args("one_hot", "tensor, num_classes=", args, kwargs, a) ||
        repl_arg_tensor("one_hot", "tensor", 1, a[0], &x) || repl_arg_int("one_hot", "num_classes", 2, a[1], &n))
        return NULL;
    return T(nn_one_hot(x, n));
}

static const repl_function_def select_functional[] = {
    {"one_hot", f_one_hot,
     "one_hot(tensor, num_classes=-1) -> LongTensor\n"
     "Takes LongTensor with index values of shape (*) and returns a tensor of shape (*, num_classes) that have zeros everywhere except where the index of last dimension matches the corresponding value of the input tensor, in which case it will be 1."},
};

int repl_select_add_functions(nn_object *torch)
{
    return repl_namespace_add_fns(torch, select_functions, sizeof select_functions / sizeof select_functions[0]);
}

int repl_select_functional(nn_object *fns)
{
    return repl_namespace_add_fns(fns, select_functional, sizeof select_functional / sizeof select_functional[0]);
}

nn_object *repl_select_method(nn_tensor *t, const char *name)
{
    nn_object *m = repl_method_lookup(select_methods, name, &t->ob);
    if (m || nn_error_current() != NN_OK) return m;
    for (size_t i = 0; i < sizeof select_functions / sizeof select_functions[0]; i++)
        if (!strcmp(select_functions[i].name, name)) return repl_bound_function(&select_functions[i], &t->ob);
    return NULL;
}

/* For bind_ops_more.c's out= refusals. */
int repl_no_out(const char *f, nn_object *o) { return no_out(f, o); }
