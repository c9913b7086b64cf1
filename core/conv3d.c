/*
 * conv3d.c — 3-d convolutions as single ops, as PyTorch records them:
 * F.conv3d and F.conv_transpose3d are each one ConvolutionBackward0 node over
 * the conv3d kernels of core/kernels.def (vol2col + the one GEMM site, the
 * CPU's in core/cpu/conv3d.c). A transposed convolution's forward is the
 * convolution's input gradient; its backward is that convolution (input) and the
 * convolution's weight gradient with input and gradient swapped (weight).
 * Half and bfloat16 run through float64 copies, as conv.c does.
 *
 * With create_graph=True (grad mode on inside the backward) the kernels' gradients
 * come from one ConvolutionBackwardBackward0 node (core/conv_grad_graph.c), whose
 * backward uses these gradients written as differentiable ops (conv_grad_graph.c's
 * method in three dims):
 *   gx = conv_transpose3d(gy, w; s, p, output_padding giving x's size, g, d)
 *   gw = conv3d(x', gy'; stride d, padding p, dilation s, groups g) cut to the kernel,
 *        x' = x viewed [C/g, g*N, D, H, W], gy' = gy^T.
 *
 * Params (p.i): stride[3], padding[3], dilation[3], groups, output_padding[3].
 */
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_conv3d.h"
#include "nn_conv_graph.h"
#include "nn_custom_fn.h"
#include "nn_layers.h"
#include "nn_autocast.h"

enum { P_STRIDE = 0, P_PAD = 3, P_DIL = 6, P_GROUPS = 9, P_OUTPAD = 10 };

static nn_op_params conv3d_params(const int64_t *stride, const int64_t *padding, const int64_t *dilation, int64_t groups,
                                  const int64_t *output_padding)
{
    nn_op_params p = {.n_i = 13};
    for (int d = 0; d < 3; d++) {
        p.i[P_STRIDE + d] = stride[d];
        p.i[P_PAD + d] = padding[d];
        p.i[P_DIL + d] = dilation[d];
        p.i[P_OUTPAD + d] = output_padding ? output_padding[d] : 0;
    }
    p.i[P_GROUPS] = groups;
    return p;
}

/* The geometry of the convolution of x [N, C, D, H, W] by w [O, C/g, KD, KH, KW] whose output has
   the spatial sizes out (NULL: the convolution's own). */
static nn_conv3d_geom geom_of(const int64_t *xs, const int64_t *ws, const nn_op_params *p, const int64_t *out)
{
    nn_conv3d_geom s = {.n = xs[0], .c = xs[1], .d = xs[2], .h = xs[3], .w = xs[4],
                        .o = ws[0], .kd = ws[2], .kh = ws[3], .kw = ws[4], .groups = p->i[P_GROUPS]};
    int64_t osz[3];
    for (int d = 0; d < 3; d++) {
        s.stride[d] = p->i[P_STRIDE + d];
        s.padding[d] = p->i[P_PAD + d];
        s.dilation[d] = p->i[P_DIL + d];
        osz[d] = out ? out[d] : (xs[2 + d] + 2 * s.padding[d] - s.dilation[d] * (ws[2 + d] - 1) - 1) / s.stride[d] + 1;
    }
    s.od = osz[0], s.oh = osz[1], s.ow = osz[2];
    return s;
}

static int check_numbers(const nn_op_params *p, bool transposed)
{
    for (int d = 0; d < 3; d++) {
        if (p->i[P_STRIDE + d] < 1) return nn_error_set(NN_ERR_RUNTIME, "non-positive stride is not supported");
        if (p->i[P_PAD + d] < 0) return nn_error_set(NN_ERR_RUNTIME, "negative padding is not supported");
        if (transposed && p->i[P_OUTPAD + d] < 0)
            return nn_error_set(NN_ERR_RUNTIME, "negative output_padding is not supported");
        if (p->i[P_DIL + d] < 1) return nn_error_set(NN_ERR_RUNTIME, "dilation should be greater than zero");
    }
    if (p->i[P_GROUPS] < 1) return nn_error_set(NN_ERR_RUNTIME, "non-positive groups is not supported");
    return 0;
}

/* PyTorch's checks of a batched conv3d / conv_transpose3d's tensors; 0 or -1. */
static int check_tensors(const nn_tensor *x, const nn_tensor *w, const nn_tensor *b, const nn_op_params *p, bool transposed)
{
    char s1[128], s2[128];
    int64_t groups = p->i[P_GROUPS];
    if (w->ndim != 5)
        return nn_error_set(NN_ERR_RUNTIME, "Expected 5-dimensional input for 5-dimensional weight %s, but got "
                            "%d-dimensional input of size %s instead", nn_shape_str(w->ndim, w->sizes, s1, sizeof s1),
                            x->ndim, nn_shape_str(x->ndim, x->sizes, s2, sizeof s2)),
               -1;
    if (!nn_dtype_is_floating(x->dtype) || x->dtype != w->dtype || (b && b->dtype != x->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "expected scalar type %s but found %s", nn_dtype_short_name(x->dtype),
                            nn_dtype_short_name(x->dtype != w->dtype ? w->dtype : b ? b->dtype : x->dtype));
    if (w->sizes[0] % groups)
        return nn_error_set(NN_ERR_RUNTIME, "Given groups=%lld, expected weight to be divisible by %lld at dimension 0, "
                            "but got weight of size %s instead", (long long)groups, (long long)groups,
                            nn_shape_str(w->ndim, w->sizes, s1, sizeof s1));
    int64_t in_ch = transposed ? w->sizes[0] : w->sizes[1] * groups;
    if (x->sizes[1] != in_ch) {
        if (transposed)
            return nn_error_set(NN_ERR_RUNTIME, "Given transposed=1, weight of size %s, expected input%s to have %lld "
                                "channels, but got %lld channels instead", nn_shape_str(w->ndim, w->sizes, s1, sizeof s1),
                                nn_shape_str(x->ndim, x->sizes, s2, sizeof s2), (long long)in_ch, (long long)x->sizes[1]);
        return nn_error_set(NN_ERR_RUNTIME, "Given groups=%lld, weight of size %s, expected input%s to have %lld "
                            "channels, but got %lld channels instead", (long long)groups,
                            nn_shape_str(w->ndim, w->sizes, s1, sizeof s1), nn_shape_str(x->ndim, x->sizes, s2, sizeof s2),
                            (long long)in_ch, (long long)x->sizes[1]);
    }
    int64_t out_ch = transposed ? w->sizes[1] * groups : w->sizes[0];
    if (b && (b->ndim != 1 || b->sizes[0] != out_ch))
        return nn_error_set(NN_ERR_RUNTIME, "Given %sweight of size %s, expected bias to be 1-dimensional with %lld "
                            "elements, but got bias of size %s instead", transposed ? "transposed=1, " : "",
                            nn_shape_str(w->ndim, w->sizes, s1, sizeof s1), (long long)out_ch,
                            nn_shape_str(b->ndim, b->sizes, s2, sizeof s2));
    return 0;
}

/* A contiguous no-grad copy (or view) of t in dtype dt; new reference. */
static nn_tensor *dense_as(nn_tensor *t, nn_dtype dt)
{
    nn_tensor *c = NULL;
    if (!t) return NULL;
    NN_WITH_GRAD_MODE(false, c = t->dtype == dt ? nn_contiguous(t) : nn_to_dtype(t, dt));
    if (c && !nn_is_contiguous(c)) { /* to_dtype keeps a strided layout */
        nn_tensor *d = NULL;
        NN_WITH_GRAD_MODE(false, d = nn_contiguous(c));
        NN_RELEASE(c);
        c = d;
    }
    return c;
}

/* The kernels compute in float32 or float64; half and bfloat16 in float64. */
static nn_dtype compute_dtype(nn_dtype dt) { return dt == NN_FLOAT32 ? NN_FLOAT32 : NN_FLOAT64; }

/* t (no history) back in dtype dt; takes t. */
static nn_tensor *back_to(nn_tensor *t, nn_dtype dt)
{
    if (!t || t->dtype == dt) return t;
    nn_tensor *r = NULL;
    NN_WITH_GRAD_MODE(false, r = nn_to_dtype(t, dt));
    NN_RELEASE(t);
    return r;
}

/* y = conv3d(x, w) + b over s (no history); new reference. */
static nn_tensor *run_forward(const nn_conv3d_geom *s, nn_tensor *x, nn_tensor *w, nn_tensor *b)
{
    nn_device device;
    nn_tensor *operands[3] = {x, w, b};
    if (nn_common_device(3, operands, &device) < 0) return NULL;
    nn_dtype ct = compute_dtype(x->dtype);
    nn_tensor *xc = dense_as(x, ct), *wc = xc ? dense_as(w, ct) : NULL, *bc = wc && b ? dense_as(b, ct) : NULL;
    int64_t sizes[5] = {s->n, s->o, s->od, s->oh, s->ow};
    nn_tensor *y = wc && (bc || !b) ? nn_empty_on(device, 5, sizes, ct) : NULL;
    if (y && nn_numel(y) && NN_KERNEL(nn_backend_of(y), conv3d, (s, xc, wc, bc, y)) < 0) NN_SET(y, NULL);
    NN_RELEASE(xc);
    NN_RELEASE(wc);
    NN_RELEASE(bc);
    return back_to(y, x->dtype);
}

/* gx (x's sizes xs) and gw (w's) of the convolution over s for gy, as wanted, no history,
   in the dtype dt; x is read only for gw (NULL when not wanted). 0 or -1. */
static int run_backward(const nn_conv3d_geom *s, nn_tensor *x, nn_tensor *w, nn_tensor *gy, const int64_t *xs, nn_dtype dt,
                        nn_tensor **gx, nn_tensor **gw)
{
    nn_dtype ct = compute_dtype(dt);
    nn_tensor *wc = dense_as(w, ct), *gc = wc ? dense_as(gy, ct) : NULL, *xc = gc && gw ? dense_as(x, ct) : NULL;
    nn_device device = nn_device_of(w);
    nn_tensor *rx = gc && gx ? nn_empty_on(device, 5, xs, ct) : NULL;
    nn_tensor *rw = gc && gw ? nn_empty_on(device, 5, w->sizes, ct) : NULL;
    int rc = gc && (rx || !gx) && (rw || !gw) && (xc || !gw) ? 0 : -1;
    if (rc == 0 && nn_numel(gc) > 0 && (rx ? nn_numel(rx) : 1) > 0)
        rc = NN_KERNEL(nn_backend_of(gc), conv3d_backward, (s, xc ? xc : gc, wc, gc, rx, rw));
    else if (rc == 0) {
        if (rx) rc = nn_fill_(rx, 0);
        if (rc == 0 && rw) rc = nn_fill_(rw, 0);
    }
    NN_RELEASE(wc);
    NN_RELEASE(gc);
    NN_RELEASE(xc);
    if (rc == 0 && gx && !(*gx = back_to(rx, dt))) rc = -1, rx = NULL;
    else if (rc) NN_RELEASE(rx);
    if (rc == 0 && gw && !(*gw = back_to(rw, dt))) rc = -1, rw = NULL;
    else if (rc) NN_RELEASE(rw);
    return rc;
}

static nn_tensor *record(nn_op_id op, nn_tensor *y, nn_tensor *x, nn_tensor *w, nn_tensor *b, const nn_op_params *p)
{
    nn_tensor *in[3] = {x, w, b}, *save[2] = {x, w};
    if (y && nn_record(op, 3, in, 1, &y, 2, save, p) < 0) NN_SET(y, NULL);
    return y;
}

/* ---------------------------------------------------------------- conv3d */

static nn_tensor *conv3d_batched(nn_tensor *x, nn_tensor *w, nn_tensor *b, const nn_op_params *p)
{
    if (check_tensors(x, w, b, p, false) < 0) return NULL;
    int64_t padded[3], kernel[3];
    for (int d = 0; d < 3; d++) {
        padded[d] = x->sizes[2 + d] + 2 * p->i[P_PAD + d];
        kernel[d] = p->i[P_DIL + d] * (w->sizes[2 + d] - 1) + 1;
    }
    if (padded[0] < kernel[0] || padded[1] < kernel[1] || padded[2] < kernel[2])
        return nn_error_set(NN_ERR_RUNTIME, "Calculated padded input size per channel: (%lld x %lld x %lld). Kernel size: "
                            "(%lld x %lld x %lld). Kernel size can't be greater than actual input size",
                            (long long)padded[0], (long long)padded[1], (long long)padded[2], (long long)kernel[0],
                            (long long)kernel[1], (long long)kernel[2]),
               NULL;
    nn_conv3d_geom s = geom_of(x->sizes, w->sizes, p, NULL);
    return record(NN_OP_conv3d, run_forward(&s, x, w, b), x, w, b, p);
}

/* the unbatched form: a batch of one, then the batch dim dropped (both views, as PyTorch) */
static nn_tensor *maybe_unbatched(const char *name, nn_tensor *x, nn_tensor *w, nn_tensor *b, const nn_op_params *p,
                                  nn_tensor *(*fn)(nn_tensor *, nn_tensor *, nn_tensor *, const nn_op_params *))
{
    if (x->ndim != 4 && x->ndim != 5) {
        char s[128];
        return nn_error_set(NN_ERR_RUNTIME, "Expected 4D (unbatched) or 5D (batched) input to %s, but got input of size: %s",
                            name, nn_shape_str(x->ndim, x->sizes, s, sizeof s)),
               NULL;
    }
    if (x->ndim == 5) return fn(x, w, b, p);
    nn_tensor *u = nn_unsqueeze(x, 0), *y = u ? fn(u, w, b, p) : NULL, *r = y ? nn_squeeze_dim(y, 0) : NULL;
    NN_RELEASE(u);
    NN_RELEASE(y);
    return r;
}

nn_tensor *nn_conv3d(nn_tensor *input, nn_tensor *weight, nn_tensor *bias, const int64_t stride[3],
                     const int64_t padding[3], const int64_t dilation[3], int64_t groups)
{
    NN_AUTOCAST(LOWER, nn_conv3d(ac_[0], ac_[1], ac_[2], stride, padding, dilation, groups), input, weight, bias);
    nn_op_params p = conv3d_params(stride, padding, dilation, groups, NULL);
    if (check_numbers(&p, false) < 0) return NULL;
    return maybe_unbatched("conv3d", input, weight, bias, &p, conv3d_batched);
}

/* ------------------------------------------------------- conv_transpose3d */

static nn_tensor *transpose_batched(nn_tensor *x, nn_tensor *w, nn_tensor *b, const nn_op_params *p)
{
    if (check_tensors(x, w, b, p, true) < 0) return NULL;
    int64_t out[5] = {x->sizes[0], w->sizes[1] * p->i[P_GROUPS], 0, 0, 0};
    for (int d = 0; d < 3; d++) {
        int64_t op = p->i[P_OUTPAD + d];
        if (op >= p->i[P_STRIDE + d] && op >= p->i[P_DIL + d])
            return nn_error_set(NN_ERR_RUNTIME, "output padding must be smaller than either stride or dilation, but got "
                                "output_padding_depth: %lld output_padding_height: %lld output_padding_width: %lld "
                                "stride_depth: %lld stride_height: %lld stride_width: %lld dilation_depth: %lld "
                                "dilation_height: %lld dilation_width: %lld",
                                (long long)p->i[P_OUTPAD], (long long)p->i[P_OUTPAD + 1], (long long)p->i[P_OUTPAD + 2],
                                (long long)p->i[P_STRIDE], (long long)p->i[P_STRIDE + 1], (long long)p->i[P_STRIDE + 2],
                                (long long)p->i[P_DIL], (long long)p->i[P_DIL + 1], (long long)p->i[P_DIL + 2]),
                   NULL;
        out[2 + d] = (x->sizes[2 + d] - 1) * p->i[P_STRIDE + d] - 2 * p->i[P_PAD + d] +
                     p->i[P_DIL + d] * (w->sizes[2 + d] - 1) + op + 1;
    }
    if (out[2] < 1 || out[3] < 1 || out[4] < 1)
        return nn_error_set(NN_ERR_RUNTIME, "Given input size per channel: (%lld x %lld x %lld). Calculated output size per "
                            "channel: (%lld x %lld x %lld). Output size is too small",
                            (long long)x->sizes[2], (long long)x->sizes[3], (long long)x->sizes[4], (long long)out[2],
                            (long long)out[3], (long long)out[4]),
               NULL;
    nn_device device;
    nn_tensor *operands[3] = {x, w, b};
    if (nn_common_device(3, operands, &device) < 0) return NULL;
    /* the convolution of an out-shaped input to x's shape: y is its input gradient for gy = x */
    nn_conv3d_geom s = geom_of(out, w->sizes, p, x->sizes + 2);
    nn_tensor *y = NULL;
    if (run_backward(&s, NULL, w, x, out, x->dtype, &y, NULL) < 0) return NULL;
    if (b) {
        int64_t bs[5] = {1, b->sizes[0], 1, 1, 1};
        nn_tensor *bv = NULL;
        bool prev = nn_set_grad_enabled(false);
        bv = nn_reshape(b, 5, bs);
        if (!bv || nn_add_(y, bv, 1.0) < 0) NN_SET(y, NULL);
        nn_set_grad_enabled(prev);
        NN_RELEASE(bv);
    }
    return record(NN_OP_conv_transpose3d, y, x, w, b, p);
}

nn_tensor *nn_conv_transpose3d(nn_tensor *input, nn_tensor *weight, nn_tensor *bias, const int64_t stride[3],
                               const int64_t padding[3], const int64_t output_padding[3], int64_t groups,
                               const int64_t dilation[3])
{
    nn_op_params p = conv3d_params(stride, padding, dilation, groups, output_padding);
    if (check_numbers(&p, true) < 0) return NULL;
    return maybe_unbatched("conv_transpose3d", input, weight, bias, &p, transpose_batched);
}

/* ------------------------------------------------------------- backwards */

/* gw of y = conv3d(x, w) for gy as differentiable ops (w of sizes ws). New reference or NULL. */
static nn_tensor *grad_weight_graph(nn_tensor *x, nn_tensor *gy, const int64_t *ws, const nn_op_params *p)
{
    int64_t n = x->sizes[0], c = x->sizes[1], g = p->i[P_GROUPS];
    int64_t s6[6] = {n, g, c / g, x->sizes[2], x->sizes[3], x->sizes[4]};
    int64_t s5[5] = {c / g, g * n, x->sizes[2], x->sizes[3], x->sizes[4]};
    int perm[6] = {2, 1, 0, 3, 4, 5};
    nn_tensor *x6 = nn_reshape(x, 6, s6);
    nn_tensor *xp = x6 ? nn_permute(x6, 6, perm) : NULL;
    nn_tensor *xr = xp ? nn_reshape(xp, 5, s5) : NULL;
    nn_tensor *gt = xr ? nn_transpose(gy, 0, 1) : NULL;
    /* [C/g, O, >=KD, >=KH, >=KW] */
    nn_tensor *r = gt ? nn_conv3d(xr, gt, NULL, p->i + P_DIL, p->i + P_PAD, p->i + P_STRIDE, g) : NULL;
    nn_tensor *cut = r;
    if (cut) NN_RETAIN(cut);
    for (int d = 0; d < 3 && cut; d++) {
        nn_tensor *next = nn_slice(cut, 2 + d, 0, ws[2 + d], 1);
        NN_RELEASE(cut);
        cut = next;
    }
    nn_tensor *t = cut ? nn_transpose(cut, 0, 1) : NULL;
    nn_tensor *gw = t ? nn_contiguous(t) : NULL;
    NN_RELEASE(x6);
    NN_RELEASE(xp);
    NN_RELEASE(xr);
    NN_RELEASE(gt);
    NN_RELEASE(r);
    NN_RELEASE(cut);
    NN_RELEASE(t);
    return gw;
}

/* gx of y = conv3d(x, w) for gy as differentiable ops (x of sizes xs). New reference or NULL. */
static nn_tensor *grad_input_graph(nn_tensor *gy, nn_tensor *w, const int64_t *xs, const nn_op_params *p)
{
    int64_t outpad[3];
    for (int d = 0; d < 3; d++)
        outpad[d] = xs[2 + d] - ((gy->sizes[2 + d] - 1) * p->i[P_STRIDE + d] - 2 * p->i[P_PAD + d] +
                                 p->i[P_DIL + d] * (w->sizes[2 + d] - 1) + 1);
    return nn_conv_transpose3d(gy, w, NULL, p->i + P_STRIDE, p->i + P_PAD, outpad, p->i[P_GROUPS], p->i + P_DIL);
}

int nn_conv3d_backward_graph(bool transposed, nn_tensor *x, nn_tensor *w, nn_tensor *g, const nn_op_params *p,
                             bool need_x, bool need_w, nn_tensor **gin)
{
    if (need_x && !(gin[0] = transposed ? nn_conv3d(g, w, NULL, p->i + P_STRIDE, p->i + P_PAD, p->i + P_DIL, p->i[P_GROUPS])
                                        : grad_input_graph(g, w, x->sizes, p)))
        return -1;
    if (need_w && !(gin[1] = transposed ? grad_weight_graph(g, x, w->sizes, p) : grad_weight_graph(x, g, w->sizes, p)))
        return -1;
    return 0;
}

nn_tensor *nn_conv3d_forward_graph(bool transposed, nn_tensor *x, nn_tensor *w, const nn_op_params *p)
{
    return transposed ? nn_conv_transpose3d(x, w, NULL, p->i + P_STRIDE, p->i + P_PAD, p->i + P_OUTPAD, p->i[P_GROUPS],
                                            p->i + P_DIL)
                      : nn_conv3d(x, w, NULL, p->i + P_STRIDE, p->i + P_PAD, p->i + P_DIL, p->i[P_GROUPS]);
}

static int bias_grad(nn_node *n, nn_tensor *gy, nn_tensor **gin)
{
    if (n->n_inputs < 3 || !nn_node_needs_input_grad(n, 2)) return 0;
    return (gin[2] = nn_sum(gy, 4, (int[]){0, 2, 3, 4}, false)) ? 0 : -1;
}

static int conv3d_kernel_grads(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *w = nn_node_saved(n, 1), *gy = gout[0];
    bool need_x = nn_node_needs_input_grad(n, 0), need_w = nn_node_needs_input_grad(n, 1);
    nn_conv3d_geom s = geom_of(x->sizes, w->sizes, &n->p, NULL);
    if (run_backward(&s, x, w, gy, x->sizes, x->dtype, need_x ? &gin[0] : NULL, need_w ? &gin[1] : NULL) < 0) return -1;
    return bias_grad(n, gy, gin);
}

int nn_conv3d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_conv_kernel_grads(n, gout, gin, 3, false, conv3d_kernel_grads);
}

static int transpose3d_kernel_grads(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *w = nn_node_saved(n, 1), *gy = gout[0];
    bool need_x = nn_node_needs_input_grad(n, 0), need_w = nn_node_needs_input_grad(n, 1);
    if (need_x && !(gin[0] = nn_conv3d(gy, w, NULL, n->p.i + P_STRIDE, n->p.i + P_PAD, n->p.i + P_DIL, n->p.i[P_GROUPS])))
        return -1;
    if (need_w) { /* the convolution of gy to x's shape: its weight gradient for output gradient x */
        nn_conv3d_geom s = geom_of(gy->sizes, w->sizes, &n->p, x->sizes + 2);
        if (run_backward(&s, gy, w, x, gy->sizes, x->dtype, NULL, &gin[1]) < 0) return -1;
    }
    return bias_grad(n, gy, gin);
}

int nn_conv_transpose3d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_conv_kernel_grads(n, gout, gin, 3, true, transpose3d_kernel_grads);
}
