/*
 * pool.c — 2-d pooling over the last two dims of [C, H, W] or [N, C, H, W]:
 * max pooling with indices (kernel, stride, padding, dilation, ceil_mode),
 * average pooling (count_include_pad, divisor_override), adaptive average and
 * adaptive max pooling, each forward with its backward beside it. The 1-d
 * forms are these with a height of 1, as PyTorch 1.13 computes them
 * (unsqueeze(-2), pool, squeeze(-2)).
 *
 * The ops validate, allocate and record; the `pool` kernel (core/cpu/pool.c)
 * computes. Numerics are PyTorch's CPU kernels for contiguous inputs: a window's max
 * takes the first largest element and any NaN; a float32 average sums the
 * window in float32 in row order and divides once (adaptive: by kh, then by kw).
 * Backwards are direct kernels (a max pool's gradient goes to the recorded
 * index, an average's is spread over the window); they are not themselves
 * differentiable (no double backward through pooling).
 * Not here: channels-last layouts, bfloat16/float16, 3-d pooling.
 */
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_int.h"

/* The geometry of one 2-d pooling: planes = N*C images of H x W into OH x OW. */
typedef nn_pool_geom geom;

/* PyTorch's pooling_output_shape: the output length of one dim. 0 or -1. */
static int out_len(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode, int64_t *out)
{
    if (stride == 0) return nn_error_set(NN_ERR_RUNTIME, "stride should not be zero");
    if (pad < 0) return nn_error_set(NN_ERR_RUNTIME, "pad must be non-negative, but got pad: %lld", (long long)pad);
    if (pad > k / 2)
        return nn_error_set(NN_ERR_RUNTIME, "pad should be at most half of kernel size, but got pad=%lld and kernel_size=%lld",
                            (long long)pad, (long long)k);
    int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
    int64_t q = num / stride;
    if ((num % stride != 0) && ((num < 0) != (stride < 0))) q--; /* div_rtn: toward -inf */
    int64_t o = q + 1;
    if (ceil_mode && (o - 1) * stride >= in + pad) o--;
    *out = o;
    return 0;
}

/* Fills g from x's shape and the window; checks as PyTorch's pool2d_shape_check. */
static int make_geom(const char *name, const nn_tensor *x, const int64_t k[2], const int64_t s[2], const int64_t p[2],
                     const int64_t d[2], bool ceil_mode, geom *g)
{
    if (x->ndim != 3 && x->ndim != 4)
        return nn_error_set(NN_ERR_RUNTIME, "non-empty 3D or 4D (batch mode) tensor expected for input");
    g->H = x->sizes[x->ndim - 2];
    g->W = x->sizes[x->ndim - 1];
    g->planes = x->sizes[x->ndim - 3] * (x->ndim == 4 ? x->sizes[0] : 1);
    for (int i = 0; i < 2; i++) g->k[i] = k[i], g->s[i] = s[i], g->p[i] = p[i], g->d[i] = d[i];
    if (out_len(g->H, k[0], p[0], s[0], d[0], ceil_mode, &g->OH) < 0 ||
        out_len(g->W, k[1], p[1], s[1], d[1], ceil_mode, &g->OW) < 0)
        return -1;
    if (k[0] <= 0 || k[1] <= 0)
        return nn_error_set(NN_ERR_RUNTIME, "kernel size should be greater than zero, but got kH: %lld kW: %lld",
                            (long long)k[0], (long long)k[1]);
    if (s[0] <= 0 || s[1] <= 0)
        return nn_error_set(NN_ERR_RUNTIME, "stride should be greater than zero, but got dH: %lld dW: %lld",
                            (long long)s[0], (long long)s[1]);
    if (d[0] <= 0 || d[1] <= 0)
        return nn_error_set(NN_ERR_RUNTIME, "dilation should be greater than zero, but got dilationH: %lld dilationW: %lld",
                            (long long)d[0], (long long)d[1]);
    for (int i = 0; i < x->ndim - 2; i++)
        if (x->sizes[i] == 0 && !(x->ndim == 4 && i == 0))
            return nn_error_set(NN_ERR_RUNTIME, "non-empty 3D or 4D (batch mode) tensor expected for input");
    if (g->OH < 1 || g->OW < 1)
        return nn_error_set(NN_ERR_RUNTIME, "Given input size: (%lldx%lldx%lld). Calculated output size: (%lldx%lldx%lld). "
                            "Output size is too small", (long long)x->sizes[x->ndim - 3], (long long)g->H, (long long)g->W,
                            (long long)x->sizes[x->ndim - 3], (long long)g->OH, (long long)g->OW);
    return 0;
}

/* x's sizes with the last two replaced by oh, ow (into sizes); the ndim. */
static int out_shape(const nn_tensor *x, int64_t oh, int64_t ow, int64_t *sizes)
{
    memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    sizes[x->ndim - 2] = oh;
    sizes[x->ndim - 1] = ow;
    return x->ndim;
}

/* float32, float64 and bfloat16 (which ATen's CPU kernels compute in float and round once) */
static int check_float(const char *kernel, const nn_tensor *x)
{
    if (x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64 || x->dtype == NN_BFLOAT16) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, nn_dtype_scalar_name(x->dtype));
}

/* the dtype the pool kernels run in: bfloat16 computes in float32 */
static nn_dtype compute_dtype(nn_dtype dt) { return dt == NN_BFLOAT16 ? NN_FLOAT32 : dt; }

/* x contiguous in its compute dtype; new reference */
static nn_tensor *compute_copy(nn_tensor *x)
{
    nn_tensor *c = NULL, *r = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_to_dtype(x, compute_dtype(x->dtype)); r = c ? nn_contiguous(c) : NULL);
    NN_RELEASE(c);
    return r;
}

/* t (taken) rounded to dtype dt when it differs; new reference or NULL */
static nn_tensor *rounded_to(nn_tensor *t, nn_dtype dt)
{
    if (!t || t->dtype == dt) return t;
    nn_tensor *r = NULL;
    NN_WITH_GRAD_MODE(false, r = nn_to_dtype(t, dt));
    NN_RELEASE(t);
    return r;
}

/* ------------------------------------------------------------- max pool */



/* A pooling that records each maximum's index (max, adaptive max): runs ff or
   fd over x's planes and records op saving the indices. */
static nn_tensor *index_pool(nn_tensor *x, const geom *g, nn_op_id op, nn_pool_op code, nn_tensor **indices)
{
    int64_t sizes[NN_MAX_DIMS];
    int nd = out_shape(x, g->OH, g->OW, sizes);
    nn_tensor *xc = compute_copy(x), *out = xc ? nn_empty_on(nn_device_of(xc), nd, sizes, xc->dtype) : NULL,
              *idx = out ? nn_empty_on(nn_device_of(xc), nd, sizes, NN_INT64) : NULL;
    if (!idx) goto fail;
    nn_kernel_args ka = {.t = {out, idx, xc}};
    if (NN_KERNEL(nn_backend_of(xc), pool, (code, g, &ka)) < 0) goto fail;
    if (!(out = rounded_to(out, x->dtype))) goto fail;
    if (nn_record(op, 1, &x, 1, &out, 1, &idx, NULL) < 0) goto fail;
    NN_RELEASE(xc);
    if (indices) *indices = idx;
    else NN_RELEASE(idx);
    return out;
fail:
    NN_RELEASE(xc);
    NN_RELEASE(out);
    NN_RELEASE(idx);
    return NULL;
}

nn_tensor *nn_max_pool2d(nn_tensor *x, const int64_t k[2], const int64_t s[2], const int64_t p[2], const int64_t d[2],
                         bool ceil_mode, nn_tensor **indices)
{
    geom g;
    if (make_geom("max_pool2d", x, k, s, p, d, ceil_mode, &g) < 0 || check_float("max_pool2d", x) < 0) return NULL;
    return index_pool(x, &g, NN_OP_max_pool2d, NN_POOL_MAX, indices);
}

/* The input's shape from the node, the gradient scattered to the saved indices. */
static int index_pool_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    const nn_input_meta *m = &n->input_meta[0];
    nn_tensor *idx = nn_node_saved(n, 0), *gc = nn_contiguous(gout[0]);
    nn_dtype cd = compute_dtype(m->dtype);
    nn_tensor *gi = gc ? nn_zeros_on(nn_device_of(gc), m->ndim, m->sizes, cd) : NULL;
    if (gi) {
        geom g = {.planes = 1};
        for (int i = 0; i < m->ndim - 2; i++) g.planes *= m->sizes[i];
        int64_t in_plane = m->sizes[m->ndim - 2] * m->sizes[m->ndim - 1];
        int64_t out_plane = gc->sizes[gc->ndim - 2] * gc->sizes[gc->ndim - 1];
        nn_tensor *gt = nn_to_dtype(gc, cd);
        nn_kernel_args ka = {.t = {gi, idx, gt}, .i = {in_plane, out_plane}};
        if (!gt || NN_KERNEL(nn_backend_of(gi), pool, (NN_POOL_MAX_BACKWARD, &g, &ka)) < 0) NN_SET(gi, NULL);
        NN_RELEASE(gt);
    }
    NN_RELEASE(gc);
    gin[0] = rounded_to(gi, m->dtype);
    return gi ? 0 : -1;
}

int nn_max_pool2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pool_backward(n, gout, gin); }

/* ------------------------------------------------------------- avg pool */


nn_tensor *nn_avg_pool2d(nn_tensor *x, const int64_t k[2], const int64_t s[2], const int64_t p[2], bool ceil_mode,
                         bool count_include_pad, int64_t divisor_override)
{
    static const int64_t one[2] = {1, 1};
    geom g;
    if (make_geom("avg_pool2d", x, k, s, p, one, ceil_mode, &g) < 0 || check_float("avg_pool2d", x) < 0) return NULL;
    int64_t sizes[NN_MAX_DIMS];
    int nd = out_shape(x, g.OH, g.OW, sizes);
    nn_tensor *xc = compute_copy(x), *out = xc ? nn_empty_on(nn_device_of(xc), nd, sizes, xc->dtype) : NULL;
    nn_kernel_args ka = {.t = {out, NULL, xc}, .i = {count_include_pad, divisor_override}};
    if (out && NN_KERNEL(nn_backend_of(xc), pool, (NN_POOL_AVG, &g, &ka)) < 0) NN_SET(out, NULL);
    out = rounded_to(out, x->dtype);
    if (out) {
        nn_op_params prm = {.n_i = 9, .flags = count_include_pad};
        for (int i = 0; i < 2; i++) prm.i[i] = k[i], prm.i[2 + i] = s[i], prm.i[4 + i] = p[i];
        prm.i[6] = divisor_override;
        if (nn_record(NN_OP_avg_pool2d, 1, &x, 1, &out, 0, NULL, &prm) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(xc);
    return out;
}

int nn_avg_pool2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    const nn_input_meta *m = &n->input_meta[0];
    const int64_t *pi = n->p.i;
    geom g = {.planes = 1, .H = m->sizes[m->ndim - 2], .W = m->sizes[m->ndim - 1]};
    for (int i = 0; i < m->ndim - 2; i++) g.planes *= m->sizes[i];
    for (int i = 0; i < 2; i++) g.k[i] = pi[i], g.s[i] = pi[2 + i], g.p[i] = pi[4 + i], g.d[i] = 1;
    nn_tensor *gc = nn_contiguous(gout[0]), *gt = gc ? nn_to_dtype(gc, compute_dtype(m->dtype)) : NULL;
    nn_tensor *gi = gt ? nn_zeros_on(nn_device_of(gt), m->ndim, m->sizes, gt->dtype) : NULL;
    if (gi) {
        g.OH = gt->sizes[gt->ndim - 2];
        g.OW = gt->sizes[gt->ndim - 1];
        nn_kernel_args ka = {.t = {gi, NULL, gt}, .i = {n->p.flags, pi[6]}};
        if (NN_KERNEL(nn_backend_of(gi), pool, (NN_POOL_AVG_BACKWARD, &g, &ka)) < 0) NN_SET(gi, NULL);
    }
    NN_RELEASE(gc);
    NN_RELEASE(gt);
    gin[0] = rounded_to(gi, m->dtype);
    return gin[0] ? 0 : -1;
}

/* ---------------------------------------------------------- adaptive pools */


static int adaptive_check(const char *name, const nn_tensor *x, const int64_t osz[2], geom *g)
{
    if (x->ndim != 3 && x->ndim != 4) {
        char buf[128];
        return nn_error_set(NN_ERR_RUNTIME, "%s(): Expected 3D or 4D tensor, but got %s", name,
                            nn_shape_str(x->ndim, x->sizes, buf, sizeof buf));
    }
    for (int i = 1; i < x->ndim; i++)
        if (x->sizes[i] == 0)
            return nn_error_set(NN_ERR_RUNTIME, "%s(): Expected input to have non-zero size for non-batch dimensions, "
                                "but input has sizes with dimension %d being empty", name, i);
    if (osz[0] < 0 || osz[1] < 0)
        return nn_error_set(NN_ERR_RUNTIME, "%s: elements of output_size must be greater than or equal to 0 but received "
                            "{%lld, %lld}", name, (long long)osz[0], (long long)osz[1]);
    memset(g, 0, sizeof *g);
    g->H = x->sizes[x->ndim - 2];
    g->W = x->sizes[x->ndim - 1];
    g->planes = x->sizes[x->ndim - 3] * (x->ndim == 4 ? x->sizes[0] : 1);
    g->OH = osz[0];
    g->OW = osz[1];
    return check_float(name, x);
}


nn_tensor *nn_adaptive_avg_pool2d(nn_tensor *x, const int64_t osz[2])
{
    geom g;
    if (adaptive_check("adaptive_avg_pool2d", x, osz, &g) < 0) return NULL;
    if (osz[0] == 1 && osz[1] == 1) /* ATen takes the mean (MeanBackward1) */
        return nn_mean(x, 2, (const int[]){-1, -2}, true);
    int64_t sizes[NN_MAX_DIMS];
    int nd = out_shape(x, g.OH, g.OW, sizes);
    nn_tensor *xc = compute_copy(x), *out = xc ? nn_empty_on(nn_device_of(xc), nd, sizes, xc->dtype) : NULL;
    nn_kernel_args ka = {.t = {out, NULL, xc}};
    if (out && NN_KERNEL(nn_backend_of(xc), pool, (NN_POOL_ADAPTIVE_AVG, &g, &ka)) < 0) NN_SET(out, NULL);
    out = rounded_to(out, x->dtype);
    if (out) {
        if (nn_record(NN_OP_adaptive_avg_pool2d, 1, &x, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(xc);
    return out;
}

int nn_adaptive_avg_pool2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    const nn_input_meta *m = &n->input_meta[0];
    geom g = {.planes = 1, .H = m->sizes[m->ndim - 2], .W = m->sizes[m->ndim - 1]};
    for (int i = 0; i < m->ndim - 2; i++) g.planes *= m->sizes[i];
    nn_tensor *gc = nn_contiguous(gout[0]), *gt = gc ? nn_to_dtype(gc, compute_dtype(m->dtype)) : NULL;
    nn_tensor *gi = gt ? nn_zeros_on(nn_device_of(gt), m->ndim, m->sizes, gt->dtype) : NULL;
    if (gi) {
        g.OH = gt->sizes[gt->ndim - 2];
        g.OW = gt->sizes[gt->ndim - 1];
        nn_kernel_args ka = {.t = {gi, NULL, gt}};
        if (NN_KERNEL(nn_backend_of(gi), pool, (NN_POOL_ADAPTIVE_AVG_BACKWARD, &g, &ka)) < 0) NN_SET(gi, NULL);
    }
    NN_RELEASE(gc);
    NN_RELEASE(gt);
    gin[0] = rounded_to(gi, m->dtype);
    return gin[0] ? 0 : -1;
}

nn_tensor *nn_adaptive_max_pool2d(nn_tensor *x, const int64_t osz[2], nn_tensor **indices)
{
    geom g;
    if (adaptive_check("adaptive_max_pool2d", x, osz, &g) < 0) return NULL;
    return index_pool(x, &g, NN_OP_adaptive_max_pool2d, NN_POOL_ADAPTIVE_MAX, indices);
}

int nn_adaptive_max_pool2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return index_pool_backward(n, gout, gin);
}

/* ------------------------------------------------------------- 1-d forms */

/* f over x with a height-1 dim inserted before the last (removed again). */
static nn_tensor *squeezed(nn_tensor *pooled, nn_tensor **indices)
{
    nn_tensor *r = pooled ? nn_squeeze_dim(pooled, -2) : NULL;
    NN_RELEASE(pooled);
    if (indices && *indices) {
        nn_tensor *i = r ? nn_squeeze_dim(*indices, -2) : NULL;
        NN_SET(*indices, NULL);
        *indices = i;
        if (!i) NN_SET(r, NULL);
    }
    return r;
}

static int check_1d(const char *name, const nn_tensor *x)
{
    if (x->ndim == 2 || x->ndim == 3) return 0;
    char buf[128];
    return nn_error_set(NN_ERR_RUNTIME, "%s: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                        "input, but got:%s", name, nn_shape_str(x->ndim, x->sizes, buf, sizeof buf));
}

nn_tensor *nn_max_pool1d(nn_tensor *x, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode, nn_tensor **indices)
{
    if (indices) *indices = NULL;
    if (check_1d("max_pool1d", x) < 0) return NULL;
    nn_tensor *u = nn_unsqueeze(x, -2);
    nn_tensor *r = u ? nn_max_pool2d(u, (int64_t[]){1, k}, (int64_t[]){1, s}, (int64_t[]){0, p}, (int64_t[]){1, d},
                                     ceil_mode, indices)
                     : NULL;
    NN_RELEASE(u);
    return squeezed(r, indices);
}

nn_tensor *nn_avg_pool1d(nn_tensor *x, int64_t k, int64_t s, int64_t p, bool ceil_mode, bool count_include_pad)
{
    if (check_1d("avg_pool1d", x) < 0) return NULL;
    nn_tensor *u = nn_unsqueeze(x, -2);
    nn_tensor *r = u ? nn_avg_pool2d(u, (int64_t[]){1, k}, (int64_t[]){1, s}, (int64_t[]){0, p}, ceil_mode,
                                     count_include_pad, 0)
                     : NULL;
    NN_RELEASE(u);
    return squeezed(r, NULL);
}

nn_tensor *nn_adaptive_avg_pool1d(nn_tensor *x, int64_t osz)
{
    if (x->ndim != 2 && x->ndim != 3) {
        char buf[128];
        nn_error_set(NN_ERR_RUNTIME, "adaptive_avg_pool1d(): Expected 2D or 3D tensor, but got %s",
                     nn_shape_str(x->ndim, x->sizes, buf, sizeof buf));
        return NULL;
    }
    nn_tensor *u = nn_unsqueeze(x, -2);
    nn_tensor *r = u ? nn_adaptive_avg_pool2d(u, (int64_t[]){1, osz}) : NULL;
    NN_RELEASE(u);
    return squeezed(r, NULL);
}
