/*
 * pad.c — F.pad's modes as PyTorch 1.13 runs them: constant_pad_nd
 * (ConstantPadNdBackward0; negative pads crop), reflection and replication
 * padding of the last 1, 2 or 3 dims (ReflectionPad2DBackward0 ...) and
 * circular padding, which is ATen's composition of slice copies (its grad_fn
 * is CopySlices, as PyTorch's). Reflect and replicate gather through the
 * resample kernel (core/cpu/resample.c: a source index per output position of
 * each padded dim); their backward scatter-adds the gradient through the same
 * indices, an op of its own (resample_grad.c: ReflectionPad2DBackwardBackward0 ...,
 * for double backward).
 */
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_mod_more.h"
#include "nn_resample.h"
#include "nn_scratch.h"
#include "nn_autocast.h"

/* ---------------------------------------------------------- constant */

nn_tensor *nn_constant_pad_nd(nn_tensor *x, int n_pad, const int64_t *pad, double value)
{
    if (n_pad % 2) return nn_error_set(NN_ERR_RUNTIME, "Length of pad must be even but instead it equals %d", n_pad), NULL;
    if (n_pad / 2 > x->ndim)
        return nn_error_set(NN_ERR_RUNTIME, "Length of pad should be no more than twice the number of dimensions of the "
                            "input. Pad length is %d while the input has %d dimensions.", n_pad, x->ndim),
               NULL;
    int64_t sizes[NN_MAX_DIMS];
    memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    for (int j = 0; j < n_pad / 2; j++) {
        int d = x->ndim - 1 - j;
        sizes[d] = x->sizes[d] + pad[2 * j] + pad[2 * j + 1];
        if (sizes[d] < 0)
            return nn_error_set(NN_ERR_RUNTIME, "The input size %lld, plus negative padding %lld and %lld resulted in a "
                                "negative output size, which is invalid. Check dimension %d of your input.",
                                (long long)x->sizes[d], (long long)pad[2 * j], (long long)pad[2 * j + 1], d),
                   NULL;
    }
    nn_tensor *out = nn_full(x->ndim, sizes, value, x->dtype);
    if (!out) return NULL;
    /* the overlap: x cropped by negative pads into out past its positive pads */
    nn_scratch s = {0};
    bool prev = nn_set_grad_enabled(false), empty = false;
    nn_tensor *src = x, *dst = out;
    for (int j = 0; j < n_pad / 2 && !s.failed; j++) {
        int d = x->ndim - 1 - j;
        int64_t l = pad[2 * j], r = pad[2 * j + 1];
        int64_t s0 = l < 0 ? -l : 0, d0 = l > 0 ? l : 0;
        int64_t len = x->sizes[d] - s0 - (r < 0 ? -r : 0);
        if (len <= 0) {
            empty = true;
            break;
        }
        src = NN_KEEP(&s, nn_narrow(src, d, s0, len));
        dst = NN_KEEP(&s, src ? nn_narrow(dst, d, d0, len) : NULL);
    }
    int rc = s.failed ? -1 : empty ? 0 : nn_copy_(dst, src);
    nn_set_grad_enabled(prev);
    nn_scratch_free(&s);
    nn_op_params p = {.n_i = n_pad};
    for (int i = 0; i < n_pad; i++) p.i[i] = pad[i];
    if (rc < 0 || nn_record(NN_OP_constant_pad_nd, 1, &x, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

int nn_constant_pad_nd_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int64_t neg[2 * NN_MAX_DIMS];
    for (int i = 0; i < n->p.n_i; i++) neg[i] = -n->p.i[i];
    gin[0] = nn_constant_pad_nd(gout[0], n->p.n_i, neg, 0);
    return gin[0] ? 0 : -1;
}

/* ------------------------------------------------- reflect / replicate */

/* The resample kernel's geometry of x's last k dims padded by pad (F.pad's order, last dim first). */
static void geom_init(nn_resample_geom *g, const nn_tensor *x, int k, const int64_t *pad, bool reflect)
{
    memset(g, 0, sizeof *g);
    g->mode = reflect ? NN_RESAMPLE_REFLECT : NN_RESAMPLE_REPLICATE;
    g->dims = k;
    g->planes = 1;
    for (int d = 0; d < x->ndim - k; d++) g->planes *= x->sizes[d];
    for (int j = 0; j < k; j++) {
        int d = x->ndim - k + j, q = k - 1 - j;
        g->in[j] = x->sizes[d];
        g->out[j] = x->sizes[d] + pad[2 * q] + pad[2 * q + 1];
        g->pad[j] = pad[2 * q];
    }
}

/* the op of k padded dims (1..3) */
static nn_op_id index_pad_op(int k, bool reflect)
{
    if (reflect) return k == 1 ? NN_OP_reflection_pad1d : k == 2 ? NN_OP_reflection_pad2d : NN_OP_reflection_pad3d;
    return k == 1 ? NN_OP_replication_pad1d : k == 2 ? NN_OP_replication_pad2d : NN_OP_replication_pad3d;
}

static int check_index_pad(const nn_tensor *x, int k, const int64_t *pad, bool reflect)
{
    static const char *const kernels[2][3] = {{"replication_pad1d_cpu", "replication_pad2d_cpu", "replication_pad3d_cpu"},
                                              {"reflection_pad1d", "reflection_pad2d", "reflection_pad3d"}};
    char shape[128];
    bool zero_ok = true;
    for (int d = x->ndim - k - (x->ndim == k + 2 ? 1 : 0); d < x->ndim; d++)
        if (x->sizes[d] == 0) zero_ok = false;
    if (!zero_ok) {
        nn_shape_str(x->ndim, x->sizes, shape, sizeof shape);
        if (reflect)
            return nn_error_set(NN_ERR_RUNTIME, "Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and "
                                "other non-zero dimensions for input, but got: %s", k + 1, k + 2, shape);
        return nn_error_set(NN_ERR_RUNTIME, "Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and other "
                            "non-zero dimensions for input, but got: %s", k + 1, k + 2, shape);
    }
    if (reflect)
        for (int q = 0; q < k; q++) {
            int d = x->ndim - 1 - q;
            if (pad[2 * q] >= x->sizes[d] || pad[2 * q + 1] >= x->sizes[d]) {
                if (k == 1)
                    return nn_error_set(NN_ERR_RUNTIME, "Argument #4: Padding size should be less than the corresponding "
                                        "input dimension, but got: padding (%lld, %lld) at dimension %d of input %s",
                                        (long long)pad[0], (long long)pad[1], d,
                                        nn_shape_str(x->ndim, x->sizes, shape, sizeof shape));
                return nn_error_set(NN_ERR_RUNTIME, "Argument #%d: Padding size should be less than the corresponding "
                                    "input dimension, but got: padding (%lld, %lld) at dimension %d of input %d",
                                    4 + 2 * q, (long long)pad[2 * q], (long long)pad[2 * q + 1], d, x->ndim);
            }
        }
    for (int q = 0; q < k; q++) {
        int d = x->ndim - 1 - q;
        int64_t o = x->sizes[d] + pad[2 * q] + pad[2 * q + 1];
        if (o < 1 || (reflect && (pad[2 * q] <= -x->sizes[d] || pad[2 * q + 1] <= -x->sizes[d])))
            return nn_error_set(NN_ERR_RUNTIME, "input (%c: %lld) is too small. Calculated output %c: %lld",
                                "WHD"[q], (long long)x->sizes[d], "WHD"[q], (long long)o);
    }
    if (x->dtype != NN_FLOAT32 && x->dtype != NN_FLOAT64)
        return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernels[reflect][k - 1],
                            nn_dtype_scalar_name(x->dtype));
    return 0;
}

/* Reflection (reflect) or replication padding of x's last k dims (1..3). */
nn_tensor *nn_index_pad(nn_tensor *x, int k, const int64_t *pad, bool reflect)
{
    if (k < 1 || k > 3 || x->ndim < k + 1 || x->ndim > k + 2)
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Only 2D, 3D, 4D, 5D padding with non-constant padding are "
                            "supported for now"),
               NULL;
    if (!reflect || k < 3) NN_AUTOCAST(FP32, nn_index_pad(ac_[0], k, pad, reflect), x); /* reflection_pad3d is not listed */
    if (check_index_pad(x, k, pad, reflect) < 0) return NULL;
    nn_resample_geom g;
    geom_init(&g, x, k, pad, reflect);
    int64_t sizes[NN_MAX_DIMS];
    memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    for (int j = 0; j < k; j++) sizes[x->ndim - k + j] = g.out[j];
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_contiguous(x));
    nn_tensor *y = c ? nn_empty_on(nn_device_of(x), x->ndim, sizes, x->dtype) : NULL;
    if (y && NN_KERNEL(nn_backend_of(c), resample, (&g, false, y, c)) < 0) NN_SET(y, NULL);
    NN_RELEASE(c);
    nn_op_params p = {.n_i = 2 * k, .flags = reflect};
    for (int i = 0; i < 2 * k; i++) p.i[i] = pad[i];
    nn_op_id op = index_pad_op(k, reflect);
    if (y && nn_record(op, 1, &x, 1, &y, 1, &x, &p) < 0) NN_SET(y, NULL);
    return y;
}

static nn_op_id index_pad_grad_op(int k, bool reflect)
{
    if (reflect)
        return k == 1 ? NN_OP_reflection_pad1d_backward : k == 2 ? NN_OP_reflection_pad2d_backward
                                                                 : NN_OP_reflection_pad3d_backward;
    return k == 1 ? NN_OP_replication_pad1d_backward : k == 2 ? NN_OP_replication_pad2d_backward
                                                               : NN_OP_replication_pad3d_backward;
}

nn_tensor *nn_index_pad_grad(nn_tensor *g, int ndim, const int64_t *sizes, int k, const int64_t *pad, bool reflect)
{
    nn_tensor shape = {.ndim = ndim}; /* geom_init reads the sizes only */
    memcpy(shape.sizes, sizes, sizeof(int64_t) * (size_t)ndim);
    nn_resample_geom geom;
    geom_init(&geom, &shape, k, pad, reflect);
    nn_op_params p = {.n_i = 2 * k, .flags = reflect};
    for (int i = 0; i < 2 * k; i++) p.i[i] = pad[i];
    return nn_resample_backward(g, &geom, ndim, sizes, index_pad_grad_op(k, reflect), &p);
}

static int index_pad_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *g = gout[0], *gc = NULL;
    if (g->dtype != x->dtype) {
        NN_WITH_GRAD_MODE(false, gc = nn_to_dtype(g, x->dtype));
        if (!gc) return -1;
        g = gc;
    }
    gin[0] = nn_index_pad_grad(g, x->ndim, x->sizes, n->p.n_i / 2, n->p.i, n->p.flags);
    NN_RELEASE(gc);
    return gin[0] ? 0 : -1;
}

int nn_reflection_pad1d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward(n, gout, gin); }
int nn_reflection_pad2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward(n, gout, gin); }
int nn_reflection_pad3d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward(n, gout, gin); }
int nn_replication_pad1d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward(n, gout, gin); }
int nn_replication_pad2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward(n, gout, gin); }
int nn_replication_pad3d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward(n, gout, gin); }

/* ------------------------------------------------------------ circular */

static nn_index_item slice_item(int64_t start, int64_t stop)
{
    nn_index_item it = {.kind = NN_INDEX_SLICE, .start = start, .stop = stop, .step = 1, .has_start = true,
                        .has_stop = true};
    return it;
}

/* x[..., dims sliced] for the k padded dims: items[0] is an Ellipsis */
static void full_items(nn_index_item *items, int k)
{
    items[0] = (nn_index_item){.kind = NN_INDEX_ELLIPSIS};
    for (int j = 1; j <= k; j++) items[j] = (nn_index_item){.kind = NN_INDEX_SLICE, .step = 1};
}

/* ATen's _pad_circular: the input copied into the middle of a new tensor, then
   each padded dim's borders (the last dim's first) copied from the other side
   of the tensor itself. */
nn_tensor *nn_circular_pad(nn_tensor *x, int k, const int64_t *pad)
{
    if (k < 1 || k > 3 || x->ndim < k + 1 || x->ndim > k + 2)
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Only 2D, 3D, 4D, 5D padding with non-constant padding are "
                            "supported for now"),
               NULL;
    int64_t sizes[NN_MAX_DIMS];
    memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    for (int q = 0; q < k; q++) {
        int d = x->ndim - 1 - q;
        if (pad[2 * q] > x->sizes[d] || pad[2 * q + 1] > x->sizes[d])
            return nn_error_set(NN_ERR_RUNTIME, "Padding value causes wrapping around more than once."), NULL;
        sizes[d] = x->sizes[d] + pad[2 * q] + pad[2 * q + 1];
        if (sizes[d] <= 0)
            return nn_error_set(NN_ERR_RUNTIME, "Negative padding value is resulting in an empty dimension."), NULL;
    }
    nn_tensor *out = nn_empty(x->ndim, sizes, x->dtype);
    if (!out) return NULL;
    nn_scratch s = {0};
    nn_index_item oi[4], ii[4];
    full_items(oi, k);
    full_items(ii, k);
    for (int j = 0; j < k; j++) {
        int q = k - 1 - j, d = x->ndim - k + j;
        int64_t l = pad[2 * q], r = pad[2 * q + 1];
        oi[1 + j] = slice_item(l > 0 ? l : 0, sizes[d] - (r > 0 ? r : 0));
        ii[1 + j] = slice_item(l < 0 ? -l : 0, x->sizes[d] - (r < 0 ? -r : 0));
    }
    nn_tensor *in_slice = NN_KEEP(&s, nn_index(x, k + 1, ii));
    int rc = in_slice ? nn_index_put_(out, k + 1, oi, in_slice) : -1;
    for (int q = 0; q < k && rc == 0; q++) { /* the last dim first, as ATen (the gradients' sums follow) */
        int j = k - 1 - q, d = x->ndim - 1 - q;
        int64_t l = pad[2 * q], r = pad[2 * q + 1], n = sizes[d];
        int64_t rr = r > 0 ? r : 0, ll = l > 0 ? l : 0;
        full_items(oi, k);
        full_items(ii, k);
        if (l > 0) {
            oi[1 + j] = slice_item(0, l);
            ii[1 + j] = slice_item(n - l - rr, n - rr);
            nn_tensor *src = NN_KEEP(&s, nn_index(out, k + 1, ii));
            rc = src ? nn_index_put_(out, k + 1, oi, src) : -1;
        }
        if (rc == 0 && r > 0) {
            oi[1 + j] = slice_item(n - r, n);
            ii[1 + j] = slice_item(ll, ll + r);
            nn_tensor *src = NN_KEEP(&s, nn_index(out, k + 1, ii));
            rc = src ? nn_index_put_(out, k + 1, oi, src) : -1;
        }
    }
    nn_scratch_free(&s);
    if (rc < 0) NN_SET(out, NULL);
    return out;
}

/* --------------------------------------------------------------- F.pad */

nn_tensor *nn_pad(nn_tensor *x, int n_pad, const int64_t *pad, nn_pad_mode mode, double value)
{
    if (n_pad % 2) return nn_error_set(NN_ERR_RUNTIME, "Padding length must be divisible by 2"), NULL;
    if (n_pad / 2 > x->ndim) return nn_error_set(NN_ERR_RUNTIME, "Padding length too large"), NULL;
    int k = n_pad / 2;
    if (mode == NN_PAD_CONSTANT) return nn_constant_pad_nd(x, n_pad, pad, value);
    if (mode == NN_PAD_CIRCULAR) return nn_circular_pad(x, k, pad);
    return nn_index_pad(x, k, pad, mode == NN_PAD_REFLECT);
}
