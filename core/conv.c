/*
 * conv.c — 2-d convolution: F.conv2d (ConvolutionBackward0) with stride,
 * padding, dilation and groups, and its backward beside it (the Conv2d module
 * class is conv_more.c's).
 *
 * float32 and float64 run through im2col and one GEMM per group over the
 * batch's threads (the conv2d kernel, core/cpu/conv2d.c); bfloat16 and float16 through the direct loops
 * here, over float64 copies accumulating in double (clear, not fast).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_conv_graph.h"
#include "nn_mod_more.h"
#include "nn_autocast.h"

/* The geometry of one convolution (nn_conv.h). */
typedef nn_conv_geom conv_shape;

/* t (half or bfloat16) as a float64 tensor, no history; new reference. The
   products of such values and their sums over a convolution's terms are exact in
   double, so the float64 kernels give the bits of a plain double loop. */
static nn_tensor *as_f64(nn_tensor *t)
{
    nn_tensor *d = NULL;
    if (t) NN_WITH_GRAD_MODE(false, d = nn_to_dtype(t, NN_FLOAT64));
    return d;
}

/* t (float64) in dtype, no history; takes t. New reference. */
static nn_tensor *f64_to(nn_tensor *t, nn_dtype dtype)
{
    nn_tensor *r = NULL;
    if (t) NN_WITH_GRAD_MODE(false, r = nn_to_dtype(t, dtype));
    NN_RELEASE(t);
    return r;
}

/* oneDNN's jit:avx2 forward kernel's register blocking (ur_w output pixels a
   tile) as its init_conf chooses it, and whether that accepts the geometry's
   left and right padding. */
static bool onednn_forward_tiles_ok(const conv_shape *s, int64_t ekw)
{
    int64_t ur_w = s->ow < 3 ? s->ow : 3, tail = s->ow % ur_w, l_pad = s->padding[1], sw = s->stride[1];
    if (l_pad > ur_w || (s->kw > 7 && (s->padding[0] || l_pad) && (sw > 1 || s->stride[0] > 1))) return false;
    int64_t r_pad = (s->ow - tail - 1) * sw + ekw - (s->w + l_pad);
    if (r_pad > ur_w * sw && s->ow / ur_w > 1) {
        ur_w = r_pad / sw + tail < (s->ow < 7 ? s->ow : 7) ? r_pad / sw + tail : (s->ow < 7 ? s->ow : 7);
        tail = s->ow % ur_w;
        r_pad = (s->ow - tail - 1) * sw + ekw - (s->w + l_pad);
        if (ur_w < (l_pad > r_pad ? l_pad : r_pad)) return false;
    }
    return true;
}

/* Marks the float32 convolutions that PyTorch 1.13 runs through oneDNN's
   jit:avx2 kernels, whose order cpu/conv2d_onednn.c reproduces:
   ConvParams::use_mkldnn (a 1x1 kernel only with a stride, a dilation, a batch
   of 16 or more threads; then groups, a kernel above 3x3, a batch of more than
   one or a large input) and the geometries the jit:avx2 kernels accept (one
   stride both ways, padding inside the dilated kernel's reach, kw < 14; groups
   only of multiples of 8 channels each way, or depthwise, one channel each way,
   which oneDNN's jit_dw kernels sum in the same orders: other groups go to
   oneDNN's GEMM). Each pass on its own: the forward only where its tiles take
   the padding; the input gradient not for under 8 channels with kw > 3 and a
   stride, nor a dilation with a stride; the weight and bias gradients not with
   a dilation (those go to oneDNN's GEMM, which nnscope's GEMM stands in for). A
   1x1 kernel without padding goes to oneDNN's jit_1x1 kernels, whose blocks
   cpu/conv2d_onednn.c also follows. */
static void mark_onednn(conv_shape *s)
{
    bool strided = s->stride[0] > 1 || s->stride[1] > 1, dilated = s->dilation[0] > 1 || s->dilation[1] > 1;
    bool mkldnn = (strided || dilated || s->n >= 16 || s->kh != 1 || s->kw != 1 || nn_get_num_threads() > 1) &&
                  (s->groups > 1 || (s->kh > 3 && s->kw > 3) || s->n > 1 || s->n * s->c * s->h * s->w > 20480);
    int64_t cg = s->c / s->groups, og = s->o / s->groups;
    bool depthwise = s->groups > 1 && cg == 1 && og == 1;
    bool groups_ok = s->groups == 1 || (cg % 8 == 0 && og % 8 == 0) || depthwise;
    int64_t ekh = s->dilation[0] * (s->kh - 1) + 1, ekw = s->dilation[1] * (s->kw - 1) + 1; /* the dilated extent */
    int64_t end_h = (s->oh - 1) * s->stride[0] + ekh - s->h - s->padding[0];
    int64_t end_w = (s->ow - 1) * s->stride[1] + ekw - s->w - s->padding[1];
    bool jit = mkldnn && groups_ok && !(dilated && (depthwise || s->kh * s->kw == 1)) &&
               s->stride[0] == s->stride[1] && s->kw < 14 && ekh <= s->h && s->padding[0] < ekh &&
               s->padding[1] < ekw && end_h < ekh && end_w < ekw;
    s->onednn = jit && (!dilated || onednn_forward_tiles_ok(s, ekw));
    s->onednn_input_grad = jit && (depthwise || !(s->c < 8 && s->kw > 3 && s->stride[1] > 1)) && !(dilated && strided);
    s->onednn_weight_grad = jit && !dilated;
}

static void shape_from(conv_shape *s, const nn_tensor *x, const nn_tensor *w, const nn_op_params *p)
{
    s->n = x->sizes[0], s->c = x->sizes[1], s->h = x->sizes[2], s->w = x->sizes[3];
    s->o = w->sizes[0], s->kh = w->sizes[2], s->kw = w->sizes[3];
    for (int d = 0; d < 2; d++) {
        s->stride[d] = p->i[d];
        s->padding[d] = p->i[2 + d];
        s->dilation[d] = p->i[4 + d];
    }
    s->groups = p->i[6];
    s->oh = (s->h + 2 * s->padding[0] - s->dilation[0] * (s->kh - 1) - 1) / s->stride[0] + 1;
    s->ow = (s->w + 2 * s->padding[1] - s->dilation[1] * (s->kw - 1) - 1) / s->stride[1] + 1;
    s->onednn = s->onednn_input_grad = s->onednn_weight_grad = false;
    if (x->dtype == NN_FLOAT32) mark_onednn(s);
}

/* PyTorch's checks of conv2d's arguments (x is 4-d here); 0 or -1. */
static int check_args(const nn_tensor *x, const nn_tensor *w, const nn_tensor *b, const nn_op_params *p)
{
    char s1[128], s2[128];
    if (!nn_dtype_is_floating(x->dtype) || x->dtype != w->dtype || (b && b->dtype != x->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "expected scalar type %s but found %s",
                            nn_dtype_short_name(x->dtype), nn_dtype_short_name(x->dtype != w->dtype ? w->dtype : b->dtype));
    if (w->ndim != 4)
        return nn_error_set(NN_ERR_RUNTIME, "weight should have at least three dimensions");
    for (int d = 0; d < 7; d++)
        if (p->i[d] < (d >= 2 && d < 4 ? 0 : 1))
            return nn_error_set(NN_ERR_RUNTIME, d < 2 ? "non-positive stride is not supported"
                                                : d < 4 ? "negative padding is not supported"
                                                : d < 6 ? "dilation should be greater than zero"
                                                        : "non-positive groups is not supported");
    int64_t groups = p->i[6];
    if (w->sizes[0] % groups)
        return nn_error_set(NN_ERR_RUNTIME, "Given groups=%lld, expected weight to be divisible by %lld at dimension 0, "
                            "but got weight of size %s instead", (long long)groups, (long long)groups,
                            nn_shape_str(w->ndim, w->sizes, s1, sizeof s1));
    if (x->sizes[1] != w->sizes[1] * groups)
        return nn_error_set(NN_ERR_RUNTIME, "Given groups=%lld, weight of size %s, expected input%s to have %lld "
                            "channels, but got %lld channels instead", (long long)groups,
                            nn_shape_str(w->ndim, w->sizes, s1, sizeof s1), nn_shape_str(x->ndim, x->sizes, s2, sizeof s2),
                            (long long)(w->sizes[1] * groups), (long long)x->sizes[1]);
    if (b && (b->ndim != 1 || b->sizes[0] != w->sizes[0]))
        return nn_error_set(NN_ERR_RUNTIME, "Given weight of size %s, expected bias to be 1-dimensional with %lld "
                            "elements, but got bias of size %s instead", nn_shape_str(w->ndim, w->sizes, s1, sizeof s1),
                            (long long)w->sizes[0], nn_shape_str(b->ndim, b->sizes, s2, sizeof s2));
    int64_t ph = x->sizes[2] + 2 * p->i[2], pw = x->sizes[3] + 2 * p->i[3];
    int64_t kh = p->i[4] * (w->sizes[2] - 1) + 1, kw = p->i[5] * (w->sizes[3] - 1) + 1;
    if (ph < kh || pw < kw)
        return nn_error_set(NN_ERR_RUNTIME, "Calculated padded input size per channel: (%lld x %lld). Kernel size: "
                            "(%lld x %lld). Kernel size can't be greater than actual input size",
                            (long long)ph, (long long)pw, (long long)kh, (long long)kw);
    return 0;
}

/* A contiguous no-grad view or copy of t; new reference. */
static nn_tensor *dense(nn_tensor *t)
{
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_contiguous(t));
    return c;
}

/* Records the convolution node for y (new reference, released on failure). */
static nn_tensor *record(nn_tensor *y, nn_tensor *x, nn_tensor *w, nn_tensor *b, const nn_op_params *p)
{
    nn_tensor *in[3] = {x, w, b}, *save[2] = {x, w};
    if (y && nn_record(NN_OP_convolution, 3, in, 1, &y, 2, save, p) < 0) NN_SET(y, NULL);
    return y;
}

/* y of conv2d for float32/float64 x, w, b: im2col + GEMM (the conv2d kernel,
   core/cpu/conv2d.c), not recorded; new reference. */
static nn_tensor *conv2d_4d_gemm(const conv_shape *s, nn_tensor *x, nn_tensor *w, nn_tensor *b, const int64_t out_sizes[4])
{
    nn_device device;
    nn_tensor *operands[3] = {x, w, b};
    if (nn_common_device(3, operands, &device) < 0) return NULL;
    nn_tensor *xc = dense(x), *wc = xc ? dense(w) : NULL, *bc = wc && b ? dense(b) : NULL;
    nn_tensor *y = wc && (bc || !b) ? nn_empty_on(device, 4, out_sizes, x->dtype) : NULL;
    if (y && nn_numel(y) &&
        NN_KERNEL(nn_backend_of(y), conv2d, (s, xc, wc, bc, y)) < 0)
        NN_SET(y, NULL);
    NN_RELEASE(xc);
    NN_RELEASE(wc);
    NN_RELEASE(bc);
    return y;
}

/* conv2d of a 4-d x; records ConvolutionBackward0. Half and bfloat16 run in float64. */
static nn_tensor *conv2d_4d(nn_tensor *x, nn_tensor *w, nn_tensor *b, const nn_op_params *p)
{
    if (check_args(x, w, b, p) < 0) return NULL;
    conv_shape s;
    shape_from(&s, x, w, p);
    int64_t out_sizes[4] = {s.n, s.o, s.oh, s.ow};
    if (x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) return record(conv2d_4d_gemm(&s, x, w, b, out_sizes), x, w, b, p);
    nn_tensor *xd = as_f64(x), *wd = xd ? as_f64(w) : NULL, *bd = wd && b ? as_f64(b) : NULL;
    nn_tensor *y = wd && (bd || !b) ? f64_to(conv2d_4d_gemm(&s, xd, wd, bd, out_sizes), x->dtype) : NULL;
    NN_RELEASE(xd);
    NN_RELEASE(wd);
    NN_RELEASE(bd);
    return record(y, x, w, b, p);
}

nn_tensor *nn_conv2d(nn_tensor *input, nn_tensor *weight, nn_tensor *bias, const int64_t stride[2],
                     const int64_t padding[2], const int64_t dilation[2], int64_t groups)
{
    NN_AUTOCAST(LOWER, nn_conv2d(ac_[0], ac_[1], ac_[2], stride, padding, dilation, groups), input, weight, bias);
    char shape[128];
    if (input->ndim != 3 && input->ndim != 4)
        return nn_error_set(NN_ERR_RUNTIME, "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input "
                            "of size: %s", nn_shape_str(input->ndim, input->sizes, shape, sizeof shape)),
               NULL;
    if (input->dtype == NN_FLOAT16 && weight->dtype == NN_FLOAT16) /* 1.13's CPU convolution lacks float16 */
        return nn_error_set(NN_ERR_RUNTIME, "\"slow_conv2d_cpu\" not implemented for 'Half'"), NULL;
    nn_op_params p = {.n_i = 7};
    for (int d = 0; d < 2; d++) p.i[d] = stride[d], p.i[2 + d] = padding[d], p.i[4 + d] = dilation[d];
    p.i[6] = groups;
    if (input->ndim == 4) return conv2d_4d(input, weight, bias, &p);
    /* unbatched: a batch of one, then the batch dim dropped (both views) */
    nn_tensor *x = nn_unsqueeze(input, 0), *y = x ? conv2d_4d(x, weight, bias, &p) : NULL;
    nn_tensor *r = y ? nn_squeeze_dim(y, 0) : NULL;
    NN_RELEASE(x);
    NN_RELEASE(y);
    return r;
}

/* The float32/float64 gradients through the conv2d kernels into gin[0] and gin[1] (as needed), and the bias
   gradient into gin[2] when need_b and s is marked onednn (else left NULL: the caller sums gy); 0 or -1. */
static int backward_gemm(const conv_shape *s, nn_tensor *x, nn_tensor *w, nn_tensor *gy, bool need_x, bool need_w,
                         bool need_b, nn_tensor **gin)
{
    nn_tensor *xc = dense(x), *wc = xc ? dense(w) : NULL, *gc = NULL;
    if (wc) NN_WITH_GRAD_MODE(false, gc = gy->dtype == x->dtype ? nn_contiguous(gy) : nn_to_dtype(gy, x->dtype));
    nn_tensor *gcc = gc ? dense(gc) : NULL;
    nn_tensor *gx = gcc && need_x ? nn_empty_like(x) : NULL;
    nn_tensor *gw = gcc && need_w ? nn_zeros_like(w) : NULL;
    nn_tensor *gb = gcc && need_b && s->onednn_weight_grad ? nn_zeros_on(nn_device_of(x), 1, &s->o, x->dtype) : NULL;
    int rc = gcc && (gx || !need_x) && (gw || !need_w) && (gb || !need_b || !s->onednn_weight_grad) ? 0 : -1;
    if (rc == 0 && nn_numel(gcc) > 0)
        rc = NN_KERNEL(nn_backend_of(xc), conv2d_backward, (s, xc, wc, gcc, gx, gw, gb));
    else if (rc == 0 && gx)
        rc = nn_fill_(gx, 0);
    if (rc == 0) {
        gin[0] = gx, gin[1] = gw, gin[2] = gb;
        gx = gw = gb = NULL;
    }
    NN_RELEASE(xc);
    NN_RELEASE(wc);
    NN_RELEASE(gc);
    NN_RELEASE(gcc);
    NN_RELEASE(gx);
    NN_RELEASE(gw);
    NN_RELEASE(gb);
    return rc;
}

int nn_conv2d_input_weight_grads(nn_tensor *x, nn_tensor *w, nn_tensor *gy, const nn_op_params *p, bool need_x,
                                 bool need_w, bool need_b, bool slow, nn_tensor **gin)
{
    conv_shape s;
    shape_from(&s, x, w, p);
    if (slow) s.onednn = s.onednn_input_grad = s.onednn_weight_grad = false;
    return backward_gemm(&s, x, w, gy, need_x, need_w, need_b, gin);
}

nn_tensor *nn_conv2d_slow(nn_tensor *x, nn_tensor *w, const nn_op_params *p)
{
    if (check_args(x, w, NULL, p) < 0) return NULL;
    conv_shape s;
    shape_from(&s, x, w, p);
    s.onednn = s.onednn_input_grad = s.onednn_weight_grad = false;
    int64_t out_sizes[4] = {s.n, s.o, s.oh, s.ow};
    return conv2d_4d_gemm(&s, x, w, NULL, out_sizes);
}

int nn_convolution_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *w = nn_node_saved(n, 1);
    conv_shape s;
    shape_from(&s, x, w, &n->p);
    bool need_x = nn_node_needs_input_grad(n, 0), need_w = nn_node_needs_input_grad(n, 1);
    bool need_b = n->n_inputs == 3 && nn_node_needs_input_grad(n, 2);
    if (x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) {
        /* the kernels' gradients; under create_graph (grad mode on) one node for them, as PyTorch's */
        bool graph = nn_grad_enabled();
        int rc = 0;
        NN_WITH_GRAD_MODE(false, {
            rc = backward_gemm(&s, x, w, gout[0], need_x, need_w, need_b, gin);
            if (rc == 0 && need_b && !gin[2] && !(gin[2] = nn_sum(gout[0], 3, (int[]){0, 2, 3}, false))) rc = -1;
        });
        if (rc < 0) {
            for (int k = 0; k < 3; k++) NN_SET(gin[k], NULL);
            return -1;
        }
        return graph ? nn_conv_backward_node(2, false, x, w, gout[0], &n->p, gin) : 0;
    }
    /* half and bfloat16: the float64 kernels, the gradients back in the dtypes */
    nn_tensor *xd = as_f64(x), *wd = xd ? as_f64(w) : NULL, *g64[3] = {NULL, NULL, NULL};
    int rc = wd ? backward_gemm(&s, xd, wd, gout[0], need_x, need_w, false, g64) : -1;
    NN_RELEASE(xd);
    NN_RELEASE(wd);
    if (rc == 0 && need_x && !(gin[0] = f64_to(g64[0], x->dtype))) rc = -1;
    else if (!need_x || rc) NN_RELEASE(g64[0]);
    if (rc == 0 && need_w && !(gin[1] = f64_to(g64[1], w->dtype))) rc = -1;
    else if (!need_w || rc) NN_RELEASE(g64[1]);
    if (rc == 0 && need_b) gin[2] = nn_sum(gout[0], 3, (int[]){0, 2, 3}, false);
    return rc == 0 && (!need_b || gin[2]) ? 0 : -1;
}
