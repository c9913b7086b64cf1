/*
 * conv_grad_graph.c — a convolution's backward under create_graph=True (grad mode
 * on inside it): double backward through convolutions (gradient penalties,
 * gradgradcheck). As PyTorch, the gradients are the kernels' (core/kernels.def,
 * the same bits as without create_graph) from one ConvolutionBackwardBackward0 node
 * with edges to the output gradient, the input and the weight, for conv1d/2d/3d and
 * conv_transpose1d/2d/3d; its backward is ATen's _convolution_double_backward,
 * written with the input and weight gradients as differentiable ops (below for one
 * and two dims, core/conv3d.c for three).
 *
 * For y = conv2d(x, w) with stride s, padding p, dilation d, groups g and gy = dL/dy:
 *   gx = conv_transpose2d(gy, w; s, p, d, g), output_padding chosen to give x's size
 *   gw[o, c, k, l] = sum over n, i, j of gy[n, o, i, j] * x[n, G*C/g + c, i*s - p + k*d, ...]
 *      = conv2d(x', gy'; stride d, padding p, dilation s, groups g) cut to the kernel's size,
 *        x' = x viewed [C/g, g*N, H, W] (sample n of group G as channel G*N + n), gy' = gy^T.
 */
#include "nn_conv3d.h"
#include "nn_conv_graph.h"
#include "nn_custom_fn.h"
#include "nn_mod_more.h"
#include "nn_layers.h"

/* gx of y = conv2d(x, w) for gy, x of sizes xsizes (4 dims); p in conv.c's layout
   (p->i: stride[2], padding[2], dilation[2], groups). New reference or NULL. */
static nn_tensor *grad_input_graph(nn_tensor *gy, nn_tensor *w, const int64_t *xsizes, const nn_op_params *p)
{
    int64_t out_pad[2];
    for (int d = 0; d < 2; d++) {
        int64_t least = (gy->sizes[2 + d] - 1) * p->i[d] - 2 * p->i[2 + d] + p->i[4 + d] * (w->sizes[2 + d] - 1) + 1;
        out_pad[d] = xsizes[2 + d] - least;
    }
    return nn_conv_transpose(2, gy, w, NULL, p->i, p->i + 2, out_pad, p->i[6], p->i + 4);
}

/* gw of y = conv2d(x, w) for gy, w of sizes wsizes (4 dims). New reference or NULL. */
static nn_tensor *grad_weight_graph(nn_tensor *x, nn_tensor *gy, const int64_t *wsizes, const nn_op_params *p)
{
    int64_t n = x->sizes[0], c = x->sizes[1], h = x->sizes[2], wd = x->sizes[3], g = p->i[6];
    int64_t s5[5] = {n, g, c / g, h, wd}, s4[4] = {c / g, g * n, h, wd};
    int perm[5] = {2, 1, 0, 3, 4};
    int64_t stride[2] = {p->i[4], p->i[5]}, dilation[2] = {p->i[0], p->i[1]};
    nn_tensor *x5 = nn_reshape(x, 5, s5);
    nn_tensor *xp = x5 ? nn_permute(x5, 5, perm) : NULL;
    nn_tensor *xr = xp ? nn_reshape(xp, 4, s4) : NULL;
    nn_tensor *gt = xr ? nn_transpose(gy, 0, 1) : NULL;
    nn_tensor *r = gt ? nn_conv2d(xr, gt, NULL, stride, p->i + 2, dilation, g) : NULL; /* [C/g, O, >=KH, >=KW] */
    nn_tensor *rh = r ? nn_slice(r, 2, 0, wsizes[2], 1) : NULL;
    nn_tensor *rw = rh ? nn_slice(rh, 3, 0, wsizes[3], 1) : NULL;
    nn_tensor *gw = rw ? nn_transpose(rw, 0, 1) : NULL; /* a view, as PyTorch's (TransposeBackward0) */
    NN_RELEASE(x5);
    NN_RELEASE(xp);
    NN_RELEASE(xr);
    NN_RELEASE(gt);
    NN_RELEASE(r);
    NN_RELEASE(rh);
    NN_RELEASE(rw);
    return gw;
}

/* a 1-d convolution's tensors as 2-d ones of height 1, and back (views that keep the history) */
static nn_tensor *up4(nn_tensor *t, int dims)
{
    if (dims != 1) {
        NN_RETAIN(t);
        return t;
    }
    return nn_unsqueeze(t, 2);
}

static nn_tensor *down(nn_tensor *t, int dims)
{
    if (!t || dims != 1) return t;
    nn_tensor *r = nn_squeeze_dim(t, 2);
    NN_RELEASE(t);
    return r;
}

/* A transposed convolution y of x is the input gradient of the convolution of y-shaped input
   to x-shaped output: its input gradient is that convolution of g, its weight gradient that
   convolution's weight gradient with input g and output gradient x. */
static int backward_graph(int dims, bool transposed, nn_tensor *x, nn_tensor *w, nn_tensor *g, const nn_op_params *p,
                          bool need_x, bool need_w, nn_tensor **gin)
{
    if (dims == 3) return nn_conv3d_backward_graph(transposed, x, w, g, p, need_x, need_w, gin);
    nn_tensor *x4 = up4(x, dims), *w4 = x4 ? up4(w, dims) : NULL, *g4 = w4 ? up4(g, dims) : NULL;
    int rc = g4 ? 0 : -1;
    if (rc == 0 && need_x) {
        nn_tensor *r = transposed ? nn_conv2d(g4, w4, NULL, p->i, p->i + 2, p->i + 4, p->i[6])
                                  : grad_input_graph(g4, w4, x4->sizes, p);
        if (!(gin[0] = down(r, dims))) rc = -1;
    }
    if (rc == 0 && need_w) {
        nn_tensor *r = transposed ? grad_weight_graph(g4, x4, w4->sizes, p)
                                  : grad_weight_graph(x4, g4, w4->sizes, p);
        if (!(gin[1] = down(r, dims))) rc = -1;
    }
    NN_RELEASE(x4);
    NN_RELEASE(w4);
    NN_RELEASE(g4);
    return rc;
}

/* The convolution itself (without bias) of a and b, as differentiable ops. */
static nn_tensor *forward_graph(int dims, bool transposed, nn_tensor *a, nn_tensor *b, const nn_op_params *p)
{
    if (dims == 3) return nn_conv3d_forward_graph(transposed, a, b, p);
    nn_tensor *a4 = up4(a, dims), *b4 = a4 ? up4(b, dims) : NULL, *r = NULL;
    if (b4)
        r = transposed ? nn_conv_transpose(2, a4, b4, NULL, p->i, p->i + 2, p->i + 7, p->i[6], p->i + 4)
                       : nn_conv2d(a4, b4, NULL, p->i, p->i + 2, p->i + 4, p->i[6]);
    NN_RELEASE(a4);
    NN_RELEASE(b4);
    return down(r, dims);
}

/* ------------------------------------------- a convolution's backward as one node */

/* p.flags of a ConvolutionBackwardBackward0 node: which gradients it made (GX, GW, GB),
   transposed or not, and the convolution's dims from bit 4 */
enum { GX = 1, GW = 2, GB = 4, TRANSPOSED = 8, DIMS_SHIFT = 4 };

int nn_conv_backward_node(int dims, bool transposed, nn_tensor *x, nn_tensor *w, nn_tensor *g, const nn_op_params *p,
                          nn_tensor **gin)
{
    nn_tensor *out[3];
    int n_out = 0;
    nn_op_params q = *p;
    q.flags = dims << DIMS_SHIFT | (transposed ? TRANSPOSED : 0);
    for (int k = 0; k < 3; k++)
        if (gin[k]) out[n_out++] = gin[k], q.flags |= 1 << k;
    nn_tensor *in[3] = {g, x, w};
    if (nn_record(NN_OP_convolution_backward, 3, in, n_out, out, 3, in, &q) == 0) return 0;
    for (int k = 0; k < 3; k++) NN_SET(gin[k], NULL);
    return -1;
}

int nn_conv_kernel_grads(nn_node *n, nn_tensor **gout, nn_tensor **gin, int dims, bool transposed,
                         int (*kernels)(nn_node *, nn_tensor **, nn_tensor **))
{
    nn_tensor *x = nn_node_saved(n, 0), *w = nn_node_saved(n, 1);
    bool graph = nn_grad_enabled() && (x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64);
    int rc = 0;
    NN_WITH_GRAD_MODE(false, rc = kernels(n, gout, gin));
    if (rc < 0) {
        for (int k = 0; k < 3; k++) NN_SET(gin[k], NULL);
        return -1;
    }
    return graph ? nn_conv_backward_node(dims, transposed, x, w, gout[0], &n->p, gin) : 0;
}

/* a + b where either may be NULL (taken); NULL with no error when both are */
static nn_tensor *add_taken(nn_tensor *a, nn_tensor *b)
{
    if (!a || !b) return a ? a : b;
    nn_tensor *r = nn_add(a, b);
    NN_RELEASE(a);
    NN_RELEASE(b);
    return r;
}

/* ATen's _convolution_double_backward for gx = Gx(g, w), gw = Gw(x, g), gb = sum(g) of
   y = conv(x, w): to g: conv(ggx, w) + conv(x, ggw) + ggb per channel; to x: Gx(g, ggw);
   to w: Gw(ggx, g), for every convolution (1-3 dims, transposed or not). Differentiable
   ops, so a third backward goes through them. */
int nn_convolution_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *g = nn_node_saved(n, 0), *x = nn_node_saved(n, 1), *w = nn_node_saved(n, 2), *gg[3] = {NULL, NULL, NULL};
    for (int k = 0, o = 0; k < 3; k++)
        if (n->p.flags & (1 << k)) gg[k] = gout[o++];
    int dims = n->p.flags >> DIMS_SHIFT;
    bool transposed = n->p.flags & TRANSPOSED;
    int rc = 0;
    if (nn_node_needs_input_grad(n, 0)) {
        nn_tensor *r = NULL, *t;
        if (gg[0]) {
            if (!(t = forward_graph(dims, transposed, gg[0], w, &n->p))) rc = -1;
            r = add_taken(r, t);
        }
        if (rc == 0 && gg[1]) {
            if (!(t = forward_graph(dims, transposed, x, gg[1], &n->p))) rc = -1;
            r = rc ? r : add_taken(r, t);
        }
        if (rc == 0 && gg[2]) {
            int64_t shape[5] = {1, gg[2]->sizes[0], 1, 1, 1};
            nn_tensor *v = nn_reshape(gg[2], g->ndim, shape);
            nn_tensor *e = v ? nn_expand(v, g->ndim, g->sizes) : NULL;
            NN_RELEASE(v);
            if (!e) rc = -1;
            r = rc ? r : add_taken(r, e);
        }
        if (rc == 0 && !r) r = nn_zeros_like(g);
        gin[0] = rc ? (NN_RELEASE(r), NULL) : r;
        if (!gin[0]) rc = -1;
    }
    nn_tensor *part[2] = {NULL, NULL};
    if (rc == 0 && gg[1] && nn_node_needs_input_grad(n, 1)) {
        rc = backward_graph(dims, transposed, x, gg[1], g, &n->p, true, false, part);
        gin[1] = part[0];
    }
    if (rc == 0 && gg[0] && nn_node_needs_input_grad(n, 2)) {
        rc = backward_graph(dims, transposed, gg[0], w, g, &n->p, false, true, part);
        gin[2] = part[1];
    }
    return rc;
}
