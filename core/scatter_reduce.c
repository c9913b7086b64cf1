/*
 * scatter_reduce.c — PyTorch 1.13's Tensor.scatter_reduce(dim, index, src,
 * reduce, include_self=True): src scattered into a copy of self along dim
 * with sum, prod, mean, amax or amin, each target reduced in index order as
 * ATen's CPU kernel does (self first unless include_self=False, which starts
 * a touched target from the reduction's identity). Its gradient
 * (ScatterReduceBackward0) is FunctionsManual.cpp's scatter_reduce_backward,
 * built from gather, scatter_add, where and arithmetic.
 */
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_int.h"
#include "nn_ops_extra.h"
#include "nn_scratch.h"
#include "nn_select.h"
#include "nn_select_more.h"

static const char *const reduce_names[] = {"sum", "prod", "mean", "amax", "amin"};

int nn_scatter_reduce_code(const char *name)
{
    for (int i = 0; i < 5; i++)
        if (!strcmp(reduce_names[i], name)) return i;
    return nn_error_set(NN_ERR_RUNTIME, "reduce argument must be either sum, prod, mean, amax or amin.");
}

static int check_args(nn_tensor *a, int d, nn_tensor *index, nn_tensor *src)
{
    if (index->dtype != NN_INT64) return nn_error_set(NN_ERR_RUNTIME, "scatter(): Expected dtype int64 for index");
    if (src->dtype != a->dtype) return nn_error_set(NN_ERR_RUNTIME, "scatter(): Expected self.dtype to be equal to src.dtype");
    if (index->ndim != a->ndim && !(index->ndim <= 1 && a->ndim <= 1))
        return nn_error_set(NN_ERR_RUNTIME, "Index tensor must have the same number of dimensions as self tensor");
    if (src->ndim != index->ndim && !(index->ndim <= 1 && src->ndim <= 1))
        return nn_error_set(NN_ERR_RUNTIME, "Index tensor must have the same number of dimensions as src tensor");
    for (int i = 0; i < index->ndim; i++) {
        int64_t is = index->sizes[i], ss = src->ndim ? src->sizes[i] : 1, as = a->ndim ? a->sizes[i] : 1;
        if (is > ss || (i != d && is > as)) {
            char s1[256], s2[256], s3[256];
            return nn_error_set(NN_ERR_RUNTIME,
                                "Expected index %s to be smaller than self %s apart from dimension %d and to be smaller "
                                "size than src %s",
                                nn_shape_str(index->ndim, index->sizes, s1, sizeof s1),
                                nn_shape_str(a->ndim, a->sizes, s2, sizeof s2), d,
                                nn_shape_str(src->ndim, src->sizes, s3, sizeof s3));
        }
    }
    return 0;
}

nn_tensor *nn_scatter_reduce2(nn_tensor *a, int dim, nn_tensor *index, nn_tensor *src, int code, bool include_self)
{
    static bool warned;
    if (!warned) {
        warned = true; /* TORCH_WARN_ONCE */
        if (nn_warn("UserWarning", "scatter_reduce() is in beta and the API may change at any time. (Triggered "
                                   "internally at  ./aten/src/ATen/native/TensorAdvancedIndexing.cpp:1615.)") < 0)
            return NULL;
    }
    int d;
    if (nn_select_wrap_dim(dim, a, &d) < 0 || check_args(a, d, index, src) < 0) return NULL;
    nn_tensor *out = NULL, *ci = nn_plain_as(index, NN_INT64), *cs = ci ? nn_plain_as(src, a->dtype) : NULL;
    NN_WITH_GRAD_MODE(false, out = cs ? nn_contiguous(a) : NULL);
    if (out && out == a) NN_SET(out, nn_clone(a));
    nn_kernel_args ka = {.t = {out, ci, cs}, .i = {d, code, include_self}};
    int rc = out ? NN_KERNEL(nn_backend_of(out), index, (NN_INDEX_SCATTER_REDUCE, &ka)) : -1;
    NN_RELEASE(ci);
    NN_RELEASE(cs);
    if (rc < 0) NN_SET(out, NULL);
    nn_tensor *in[2] = {a, src}, *save[4] = {a, index, src, out};
    nn_op_params p = {.i = {d, code, include_self}, .n_i = 3};
    if (out && nn_record(NN_OP_scatter_reduce2, 2, in, 1, &out, 4, save, &p) < 0) NN_SET(out, NULL);
    return out;
}

int nn_scatter_reduce2_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *self = nn_node_saved(n, 0), *index = nn_node_saved(n, 1), *src = nn_node_saved(n, 2),
              *result = nn_node_saved(n, 3), *grad = gout[0];
    int d = (int)n->p.i[0], code = (int)n->p.i[1];
    bool include_self = n->p.i[2];
    nn_scratch s = {0};
    nn_tensor *gs = NULL, *gsrc = NULL;
    nn_dtype dt = self->dtype;
    if (code == 0) { /* sum */
        gs = grad;
        gsrc = NN_KEEP(&s, nn_gather(grad, d, index));
    } else if (code == 1) { /* prod, with the exclusive products where an input is zero */
        nn_tensor *zero = NN_KEEP(&s, nn_scalar(0, dt)), *one = NN_KEEP(&s, nn_scalar(1, dt));
        nn_tensor *ms = NN_KEEP(&s, nn_where(NN_KEEP(&s, nn_compare(self, zero, NN_EQ)), one, self));
        nn_tensor *msr = NN_KEEP(&s, nn_scatter_reduce2(ms, d, index, src, 1, include_self));
        gs = NN_KEEP(&s, nn_div(NN_KEEP(&s, nn_mul(grad, msr)), ms));
        nn_tensor *src_zero = NN_KEEP(&s, nn_compare(src, zero, NN_EQ));
        nn_tensor *nz = NN_KEEP(&s, nn_gather(NN_KEEP(&s, nn_scatter_add(NN_KEEP(&s, nn_zeros_like(self)), d, index,
                                                                          NN_KEEP(&s, nn_to_dtype(src_zero, dt)))), d, index));
        nn_tensor *single = NN_KEEP(&s, nn_bitwise_and(src_zero, NN_KEEP(&s, nn_compare(nz, one, NN_EQ))));
        nn_tensor *msrc = NN_KEEP(&s, nn_where(single, one, src));
        nn_tensor *msrc_r = NN_KEEP(&s, nn_scatter_reduce2(self, d, index, msrc, 1, include_self));
        nn_tensor *g1 = NN_KEEP(&s, nn_gather(NN_KEEP(&s, nn_mul(grad, msrc_r)), d, index));
        nn_tensor *g2 = NN_KEEP(&s, nn_div(NN_KEEP(&s, nn_gather(NN_KEEP(&s, nn_mul(grad, result)), d, index)),
                                           NN_KEEP(&s, nn_where(src_zero, one, src))));
        gsrc = NN_KEEP(&s, nn_where(single, g1, g2));
    } else if (code == 2) { /* mean */
        nn_tensor *N = NN_KEEP(&s, include_self ? nn_ones_like(grad) : nn_zeros_like(grad));
        N = NN_KEEP(&s, nn_scatter_add(N, d, index, NN_KEEP(&s, nn_ones_like(src))));
        nn_tensor *zero = NN_KEEP(&s, nn_scalar(0, N ? N->dtype : dt)), *one = NN_KEEP(&s, nn_scalar(1, N ? N->dtype : dt));
        N = NN_KEEP(&s, nn_where(NN_KEEP(&s, nn_compare(N, zero, NN_EQ)), one, N));
        gs = NN_KEEP(&s, nn_div(grad, N));
        gsrc = NN_KEEP(&s, nn_div(NN_KEEP(&s, nn_gather(grad, d, index)), NN_KEEP(&s, nn_gather(N, d, index))));
    } else { /* amax / amin: the gradient shared evenly among the values equal to the result */
        nn_tensor *value = NN_KEEP(&s, nn_gather(result, d, index));
        nn_tensor *self_is = NN_KEEP(&s, nn_to_dtype(NN_KEEP(&s, nn_compare(self, result, NN_EQ)), dt));
        nn_tensor *src_is = NN_KEEP(&s, nn_to_dtype(NN_KEEP(&s, nn_compare(src, value, NN_EQ)), dt));
        nn_tensor *N = NN_KEEP(&s, nn_scatter_add(self_is, d, index, src_is));
        nn_tensor *gd = NN_KEEP(&s, nn_div(grad, N));
        gs = NN_KEEP(&s, nn_mul(self_is, gd));
        gsrc = NN_KEEP(&s, nn_mul(src_is, NN_KEEP(&s, nn_gather(gd, d, index))));
    }
    if (!include_self && gs) gs = NN_KEEP(&s, nn_scatter_value(gs, d, index, 0));
    if (!s.failed && nn_node_needs_input_grad(n, 0)) gin[0] = (NN_RETAIN(gs), gs);
    if (!s.failed && nn_node_needs_input_grad(n, 1)) gin[1] = (NN_RETAIN(gsrc), gsrc);
    bool failed = s.failed;
    nn_scratch_free(&s);
    if (failed) {
        NN_RELEASE(gin[0]);
        NN_RELEASE(gin[1]);
        return -1;
    }
    return 0;
}
