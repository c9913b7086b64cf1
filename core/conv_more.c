/*
 * conv_more.c — conv1d and the transposed convolutions (1-d and 2-d), each
 * one ConvolutionBackward0 op as in PyTorch, through conv.c's conv2d kernels
 * (core/kernels.def): a 1-d convolution is the 2-d one over a height of 1; a
 * transposed convolution's forward is the 2-d convolution's input gradient,
 * its backward that convolution (input) and its weight gradient with the
 * roles of input and gradient swapped (weight). padding='valid'/'same' for
 * 1 to 3 dims as ATen's _convolution_mode. Module classes Conv1d, Conv2d,
 * ConvTranspose1d and ConvTranspose2d with PyTorch 1.13's parameters,
 * checks, padding modes, initialisation stream and reprs.
 */
#include <stdio.h>
#include <string.h>

#include "nn_conv_graph.h"
#include "nn_mod_more.h"
#include "nn_layers.h"
#include "nn_init.h"
#include "nn_scratch.h"
#include "nn_autocast.h"
#include "nn_conv3d.h"

/* p.i: stride[2], padding[2], dilation[2], groups (conv.c's layout), output_padding[2] */
static nn_op_params conv_params(int dims, const int64_t *stride, const int64_t *padding, const int64_t *dilation,
                                int64_t groups, const int64_t *output_padding)
{
    nn_op_params p = {.n_i = 9, .flags = dims};
    for (int d = 0; d < 2; d++) {
        int k = dims == 1 ? 0 : d; /* 1-d: height 1 (stride 1, no padding) */
        bool h1 = dims == 1 && d == 0;
        p.i[d] = h1 ? 1 : stride[k];
        p.i[2 + d] = h1 ? 0 : padding[k];
        p.i[4 + d] = h1 ? 1 : dilation[k];
        p.i[7 + d] = h1 || !output_padding ? 0 : output_padding[k];
    }
    p.i[6] = groups;
    return p;
}

/* t as 4-d (a height of 1 inserted at dim 2 for a 3-d t): a no-grad view of a contiguous copy; new reference */
static nn_tensor *as4d(nn_tensor *t)
{
    nn_tensor *c = NULL, *r = NULL;
    bool prev = nn_set_grad_enabled(false);
    c = nn_contiguous(t);
    if (c && t->ndim == 3) {
        int64_t s[4] = {t->sizes[0], t->sizes[1], 1, t->sizes[2]};
        r = nn_view(c, 4, s);
        NN_RELEASE(c);
    } else {
        r = c;
    }
    nn_set_grad_enabled(prev);
    return r;
}

/* a 4-d result back to the shape of a 3-d (1-d convolution) or 4-d one; takes t */
static nn_tensor *from4d(nn_tensor *t, int dims)
{
    if (!t || dims == 2) return t;
    int64_t s[3] = {t->sizes[0], t->sizes[1], t->sizes[3]};
    nn_tensor *r = NULL;
    NN_WITH_GRAD_MODE(false, r = nn_reshape(t, 3, s));
    NN_RELEASE(t);
    return r;
}

static int check_common(const char *what, int dims, nn_tensor *x, nn_tensor *w, nn_tensor *b, int64_t groups,
                        bool transposed)
{
    char s1[128], s2[128];
    if (x->ndim != dims + 2)
        return nn_error_set(NN_ERR_RUNTIME, "Expected %dD (unbatched) or %dD (batched) input to %s, but got input of "
                            "size: %s", dims + 1, dims + 2, what, nn_shape_str(x->ndim, x->sizes, s1, sizeof s1));
    if (w->ndim != dims + 2)
        return nn_error_set(NN_ERR_RUNTIME, "Expected %d-dimensional input for %d-dimensional weight %s, but got "
                            "%d-dimensional input of size %s instead", w->ndim, w->ndim,
                            nn_shape_str(w->ndim, w->sizes, s1, sizeof s1), x->ndim,
                            nn_shape_str(x->ndim, x->sizes, s2, sizeof s2));
    if (groups < 1) return nn_error_set(NN_ERR_RUNTIME, "non-positive groups is not supported");
    if (!nn_dtype_is_floating(x->dtype) || x->dtype != w->dtype || (b && b->dtype != x->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "expected scalar type %s but found %s", nn_dtype_short_name(x->dtype),
                            nn_dtype_short_name(x->dtype != w->dtype ? w->dtype : b ? b->dtype : x->dtype));
    int64_t in_ch = transposed ? w->sizes[0] : w->sizes[1] * groups;
    if (x->sizes[1] != in_ch)
        return nn_error_set(NN_ERR_RUNTIME, "Given %s=%lld, weight of size %s, expected input%s to have %lld channels, "
                            "but got %lld channels instead", transposed ? "transposed" : "groups",
                            (long long)(transposed ? 1 : groups), nn_shape_str(w->ndim, w->sizes, s1, sizeof s1),
                            nn_shape_str(x->ndim, x->sizes, s2, sizeof s2), (long long)in_ch, (long long)x->sizes[1]);
    int64_t out_ch = transposed ? w->sizes[1] * groups : w->sizes[0];
    if (b && (b->ndim != 1 || b->sizes[0] != out_ch))
        return nn_error_set(NN_ERR_RUNTIME, "Given weight of size %s, expected bias to be 1-dimensional with %lld "
                            "elements, but got bias of size %s instead", nn_shape_str(w->ndim, w->sizes, s1, sizeof s1),
                            (long long)out_ch, nn_shape_str(b->ndim, b->sizes, s2, sizeof s2));
    return 0;
}

/* the unbatched form: a batch of one, then the batch dim dropped (both views, as PyTorch) */
typedef nn_tensor *(*batched_fn)(nn_tensor *x, nn_tensor *w, nn_tensor *b, const nn_op_params *p);
static nn_tensor *maybe_unbatched(int dims, nn_tensor *x, nn_tensor *w, nn_tensor *b, const nn_op_params *p,
                                  batched_fn fn)
{
    if (x->ndim != dims + 1) return fn(x, w, b, p);
    nn_tensor *u = nn_unsqueeze(x, 0), *y = u ? fn(u, w, b, p) : NULL, *r = y ? nn_squeeze_dim(y, 0) : NULL;
    NN_RELEASE(u);
    NN_RELEASE(y);
    return r;
}

/* ---------------------------------------------------------------- conv1d */

static nn_tensor *conv1d_batched(nn_tensor *x, nn_tensor *w, nn_tensor *b, const nn_op_params *p)
{
    if (check_common("conv1d", 1, x, w, b, p->i[6], false) < 0) return NULL;
    int64_t padded = x->sizes[2] + 2 * p->i[3], kernel = p->i[5] * (w->sizes[2] - 1) + 1;
    if (padded < kernel)
        return nn_error_set(NN_ERR_RUNTIME, "Calculated padded input size per channel: (%lld). Kernel size: (%lld). "
                            "Kernel size can't be greater than actual input size", (long long)padded, (long long)kernel),
               NULL;
    nn_tensor *x4 = as4d(x), *w4 = x4 ? as4d(w) : NULL, *y4 = NULL;
    if (w4) {
        bool prev = nn_set_grad_enabled(false);
        y4 = nn_conv2d(x4, w4, b, p->i, p->i + 2, p->i + 4, p->i[6]);
        nn_set_grad_enabled(prev);
    }
    NN_RELEASE(x4);
    NN_RELEASE(w4);
    nn_tensor *y = from4d(y4, 1), *in[3] = {x, w, b}, *save[2] = {x, w};
    if (y && nn_record(NN_OP_conv1d, 3, in, 1, &y, 2, save, p) < 0) NN_SET(y, NULL);
    return y;
}

nn_tensor *nn_conv1d(nn_tensor *x, nn_tensor *w, nn_tensor *b, int64_t stride, int64_t padding, int64_t dilation,
                     int64_t groups)
{
    NN_AUTOCAST(LOWER, nn_conv1d(ac_[0], ac_[1], ac_[2], stride, padding, dilation, groups), x, w, b);
    if (stride < 1) return nn_error_set(NN_ERR_RUNTIME, "non-positive stride is not supported"), NULL;
    if (padding < 0) return nn_error_set(NN_ERR_RUNTIME, "negative padding is not supported"), NULL;
    if (dilation < 1) return nn_error_set(NN_ERR_RUNTIME, "dilation should be greater than zero"), NULL;
    nn_op_params p = conv_params(1, &stride, &padding, &dilation, groups, NULL);
    if (x->ndim != 2 && x->ndim != 3) {
        char s[128];
        return nn_error_set(NN_ERR_RUNTIME, "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of "
                            "size: %s", nn_shape_str(x->ndim, x->sizes, s, sizeof s)),
               NULL;
    }
    return maybe_unbatched(1, x, w, b, &p, conv1d_batched);
}

nn_tensor *nn_conv_nd(int dims, nn_tensor *x, nn_tensor *w, nn_tensor *b, const int64_t *stride,
                      const int64_t *padding, const int64_t *dilation, int64_t groups)
{
    if (dims == 3) return nn_conv3d(x, w, b, stride, padding, dilation, groups);
    if (dims == 2) return nn_conv2d(x, w, b, stride, padding, dilation, groups);
    return nn_conv1d(x, w, b, stride[0], padding[0], dilation[0], groups);
}

/* ATen's convolution_same on a batched x: each dim's total padding d * (k - 1), its
   half on both sides; where the total is odd, the extra one on the right by
   constant_pad_nd (1.13 warns once about that copy) */
static nn_tensor *conv_same(int dims, nn_tensor *x, nn_tensor *w, nn_tensor *b, const int64_t *stride,
                            const int64_t *dilation, int64_t groups)
{
    char s1[128], s2[128];
    if (w->ndim < 3) return nn_error_set(NN_ERR_RUNTIME, "weight should have at least three dimensions"), NULL;
    if (x->ndim != w->ndim)
        return nn_error_set(NN_ERR_RUNTIME, "Expected %d-dimensional input for %d-dimensional weight%s, but got "
                            "%d-dimensional input of size %s instead", w->ndim, w->ndim,
                            nn_shape_str(w->ndim, w->sizes, s1, sizeof s1), x->ndim,
                            nn_shape_str(x->ndim, x->sizes, s2, sizeof s2)),
               NULL;
    int64_t left[3], extra[6] = {0};
    bool symmetric = true;
    for (int d = 0; d < dims; d++) {
        int64_t total = dilation[d] * (w->sizes[2 + d] - 1);
        left[d] = total / 2;
        extra[2 * (dims - 1 - d) + 1] = total - 2 * left[d]; /* F.pad's order: the last dim first */
        symmetric = symmetric && total % 2 == 0;
    }
    if (symmetric) return nn_conv_nd(dims, x, w, b, stride, left, dilation, groups);
    static bool warned; /* TORCH_WARN_ONCE */
    if (!warned && (warned = true) &&
        nn_warn("UserWarning", "Using padding='same' with even kernel lengths and odd dilation may require a "
                "zero-padded copy of the input be created (Triggered internally at  "
                "./aten/src/ATen/native/Convolution.cpp:895.)") < 0)
        return NULL;
    nn_tensor *xp = nn_constant_pad_nd(x, 2 * dims, extra, 0);
    nn_tensor *y = xp ? nn_conv_nd(dims, xp, w, b, stride, left, dilation, groups) : NULL;
    NN_RELEASE(xp);
    return y;
}

nn_tensor *nn_conv_str(int dims, nn_tensor *x, nn_tensor *w, nn_tensor *b, const char *padding,
                       const int64_t *stride, const int64_t *dilation, int64_t groups)
{
    static const char *const names[4] = {"", "conv1d", "conv2d", "conv3d"};
    if (x->ndim != dims + 1 && x->ndim != dims + 2) { /* batchify */
        char s[128];
        return nn_error_set(NN_ERR_RUNTIME, "Expected %dD (unbatched) or %dD (batched) input to %s, but got input of "
                            "size: %s", dims + 1, dims + 2, names[dims], nn_shape_str(x->ndim, x->sizes, s, sizeof s)),
               NULL;
    }
    bool same = !strcmp(padding, "same");
    if (!same && strcmp(padding, "valid"))
        return nn_error_set(NN_ERR_RUNTIME, "Invalid padding string: '%s'", padding), NULL;
    for (int d = 0; same && d < dims; d++)
        if (stride[d] != 1)
            return nn_error_set(NN_ERR_RUNTIME, "padding='same' is not supported for strided convolutions"), NULL;
    static const int64_t zeros[3] = {0, 0, 0};
    if (!same) return nn_conv_nd(dims, x, w, b, stride, zeros, dilation, groups);
    if (x->ndim == dims + 2) return conv_same(dims, x, w, b, stride, dilation, groups);
    nn_tensor *u = nn_unsqueeze(x, 0), *y = u ? conv_same(dims, u, w, b, stride, dilation, groups) : NULL;
    nn_tensor *r = y ? nn_squeeze_dim(y, 0) : NULL;
    NN_RELEASE(u);
    NN_RELEASE(y);
    return r;
}

static int conv1d_kernel_grads(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *w = nn_node_saved(n, 1);
    bool need_x = nn_node_needs_input_grad(n, 0), need_w = nn_node_needs_input_grad(n, 1);
    bool need_b = n->n_inputs == 3 && nn_node_needs_input_grad(n, 2);
    nn_tensor *x4 = as4d(x), *w4 = x4 ? as4d(w) : NULL, *g4 = w4 ? as4d(gout[0]) : NULL, *r[3] = {NULL, NULL, NULL};
    int rc = g4 ? nn_conv2d_input_weight_grads(x4, w4, g4, &n->p, need_x, need_w, need_b, false, r) : -1;
    NN_RELEASE(x4);
    NN_RELEASE(w4);
    NN_RELEASE(g4);
    gin[0] = from4d(r[0], 1);
    gin[1] = from4d(r[1], 1);
    gin[2] = r[2];
    if (rc == 0 && ((need_x && !gin[0]) || (need_w && !gin[1]))) rc = -1;
    if (rc == 0 && need_b && !gin[2] && !(gin[2] = nn_sum(gout[0], 2, (int[]){0, 2}, false))) rc = -1;
    return rc;
}

int nn_conv1d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_conv_kernel_grads(n, gout, gin, 1, false, conv1d_kernel_grads);
}

/* ------------------------------------------------------ conv_transpose */

static nn_tensor *conv_transpose_batched(nn_tensor *x, nn_tensor *w, nn_tensor *b, const nn_op_params *p)
{
    int dims = p->flags;
    if (check_common(dims == 1 ? "conv_transpose1d" : "conv_transpose2d", dims, x, w, b, p->i[6], true) < 0) return NULL;
    nn_tensor *x4 = as4d(x), *w4 = x4 ? as4d(w) : NULL;
    int64_t out[4] = {x->sizes[0], w->sizes[1] * p->i[6], 0, 0};
    for (int d = 0; d < 2; d++) {
        int64_t in = x4 ? x4->sizes[2 + d] : 0, k = w4 ? w4->sizes[2 + d] : 0;
        out[2 + d] = (in - 1) * p->i[d] - 2 * p->i[2 + d] + p->i[4 + d] * (k - 1) + p->i[7 + d] + 1;
        if (p->i[7 + d] >= p->i[d] && p->i[7 + d] >= p->i[4 + d] && w4) {
            NN_RELEASE(x4);
            NN_RELEASE(w4);
            return nn_error_set(NN_ERR_RUNTIME, "output padding must be smaller than either stride or dilation, but got "
                                "output_padding_height: %lld output_padding_width: %lld stride_height: %lld stride_width: "
                                "%lld dilation_height: %lld dilation_width: %lld",
                                (long long)p->i[7], (long long)p->i[8], (long long)p->i[0], (long long)p->i[1],
                                (long long)p->i[4], (long long)p->i[5]),
                   NULL;
        }
        if (out[2 + d] < 1 && w4) {
            NN_RELEASE(x4);
            NN_RELEASE(w4);
            return nn_error_set(NN_ERR_RUNTIME, "Given input size per channel: (%lld x %lld). Calculated output size per "
                                "channel: (%lld x %lld). Output size is too small",
                                (long long)x4->sizes[2], (long long)x4->sizes[3], (long long)out[2], (long long)out[3]),
                   NULL;
        }
    }
    nn_tensor *shape = w4 ? nn_empty(4, out, x->dtype) : NULL, *r[3] = {NULL, NULL, NULL};
    int rc = shape ? nn_conv2d_input_weight_grads(shape, w4, x4, p, true, false, false, true, r) : -1;
    NN_RELEASE(shape);
    NN_RELEASE(x4);
    NN_RELEASE(w4);
    nn_tensor *y = rc == 0 ? r[0] : NULL;
    if (y && b) {
        int64_t bs[4] = {1, b->sizes[0], 1, 1};
        nn_tensor *bv = NULL;
        bool prev = nn_set_grad_enabled(false);
        bv = nn_reshape(b, 4, bs);
        if (!bv || nn_add_(y, bv, 1.0) < 0) NN_SET(y, NULL);
        nn_set_grad_enabled(prev);
        NN_RELEASE(bv);
    }
    y = from4d(y, dims);
    nn_tensor *in[3] = {x, w, b}, *save[2] = {x, w};
    if (y && nn_record(NN_OP_conv_transpose, 3, in, 1, &y, 2, save, p) < 0) NN_SET(y, NULL);
    return y;
}

nn_tensor *nn_conv_transpose(int dims, nn_tensor *x, nn_tensor *w, nn_tensor *b, const int64_t *stride,
                             const int64_t *padding, const int64_t *output_padding, int64_t groups,
                             const int64_t *dilation)
{
    for (int d = 0; d < dims; d++) {
        if (stride[d] < 1) return nn_error_set(NN_ERR_RUNTIME, "non-positive stride is not supported"), NULL;
        if (padding[d] < 0) return nn_error_set(NN_ERR_RUNTIME, "negative padding is not supported"), NULL;
        if (output_padding[d] < 0) return nn_error_set(NN_ERR_RUNTIME, "negative output_padding is not supported"), NULL;
        if (dilation[d] < 1) return nn_error_set(NN_ERR_RUNTIME, "dilation should be greater than zero"), NULL;
    }
    nn_op_params p = conv_params(dims, stride, padding, dilation, groups, output_padding);
    if (x->ndim != dims + 1 && x->ndim != dims + 2) {
        char s[128];
        return nn_error_set(NN_ERR_RUNTIME, "Expected %dD (unbatched) or %dD (batched) input to conv_transpose%dd, but "
                            "got input of size: %s", dims + 1, dims + 2, dims, nn_shape_str(x->ndim, x->sizes, s, sizeof s)),
               NULL;
    }
    if (x->dtype == NN_FLOAT16 || w->dtype == NN_FLOAT16)
        return nn_error_set(NN_ERR_RUNTIME, "\"slow_conv_transpose2d_out_cpu\" not implemented for 'Half'"), NULL;
    if (x->dtype == NN_BFLOAT16 && w->dtype == NN_BFLOAT16 && (!b || b->dtype == NN_BFLOAT16)) {
        /* computed in float32 and rounded once, as oneDNN's bfloat16 convolution accumulates */
        nn_tensor *x32 = nn_to_dtype(x, NN_FLOAT32), *w32 = x32 ? nn_to_dtype(w, NN_FLOAT32) : NULL;
        nn_tensor *b32 = w32 && b ? nn_to_dtype(b, NN_FLOAT32) : NULL, *y32 = NULL, *y = NULL;
        if (w32 && (!b || b32)) y32 = nn_conv_transpose(dims, x32, w32, b32, stride, padding, output_padding, groups, dilation);
        if (y32) y = nn_to_dtype(y32, NN_BFLOAT16);
        NN_RELEASE(x32);
        NN_RELEASE(w32);
        NN_RELEASE(b32);
        NN_RELEASE(y32);
        return y;
    }
    if (w->dtype != x->dtype || (b && b->dtype != x->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "expected scalar type %s but found %s", nn_dtype_scalar_name(x->dtype),
                            nn_dtype_scalar_name(w->dtype != x->dtype ? w->dtype : b->dtype)), NULL;
    return maybe_unbatched(dims, x, w, b, &p, conv_transpose_batched);
}

static int transpose_kernel_grads(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *w = nn_node_saved(n, 1);
    int dims = n->p.flags;
    bool need_x = nn_node_needs_input_grad(n, 0), need_w = nn_node_needs_input_grad(n, 1);
    int red[3] = {0, 2, 3};
    nn_tensor *x4 = as4d(x), *w4 = x4 ? as4d(w) : NULL, *g4 = w4 ? as4d(gout[0]) : NULL, *r[2] = {NULL, NULL};
    int rc = g4 ? 0 : -1;
    if (rc == 0 && need_x) { /* the convolution of the gradient */
        bool prev = nn_set_grad_enabled(false);
        r[0] = nn_conv2d_slow(g4, w4, &n->p);
        nn_set_grad_enabled(prev);
        if (!r[0]) rc = -1;
    }
    nn_tensor *unused[3] = {NULL, NULL, NULL};
    if (rc == 0 && need_w) { /* that convolution's weight gradient, input and output gradient swapped */
        rc = nn_conv2d_input_weight_grads(g4, w4, x4, &n->p, false, true, false, true, unused);
        r[1] = unused[1];
    }
    NN_RELEASE(x4);
    NN_RELEASE(w4);
    NN_RELEASE(g4);
    gin[0] = from4d(r[0], dims);
    gin[1] = from4d(r[1], dims);
    if (rc == 0 && ((need_x && !gin[0]) || (need_w && !gin[1]))) rc = -1;
    if (rc == 0 && n->n_inputs == 3 && nn_node_needs_input_grad(n, 2) && !(gin[2] = nn_sum(gout[0], dims + 1, red, false)))
        rc = -1;
    return rc;
}

int nn_conv_transpose_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_conv_kernel_grads(n, gout, gin, n->p.flags, true, transpose_kernel_grads);
}

/* ------------------------------------------------------------- modules */

/* an int tuple attribute into v (n values); 0 or -1 */
static int attr_tuple(nn_module *m, const char *name, int n, int64_t *v)
{
    nn_object *t = nn_module_getattr(m, name);
    if (!t) return -1;
    if (!nn_is_instance(t, &nn_tuple_type) || (int)nn_tuple_len(t) != n)
        return nn_error_set(NN_ERR_TYPE, "%s.%s must be a tuple of %d ints", nn_module_name(m), name, n);
    for (int i = 0; i < n; i++) {
        nn_object *e = nn_tuple_get(t, (size_t)i);
        if (!nn_is_int(e)) return nn_error_set(NN_ERR_TYPE, "%s.%s must be a tuple of ints", nn_module_name(m), name);
        v[i] = nn_int_value(e);
    }
    return 0;
}

typedef struct conv_kind {
    int dims;
    bool transposed;
} conv_kind;

static const conv_kind kinds[3] = {{1, false}, {1, true}, {2, true}}, conv2d_kind = {2, false};

const nn_module_class nn_conv_more_classes[3];

/* the kind of m's class or of the core class it derives from (a language subclass of nn.Conv1d) */
static const conv_kind *kind_of(nn_module *m)
{
    for (const nn_module_class *c = m->cls; c; c = c->base) {
        if (c == &nn_conv2d_class) return &conv2d_kind;
        for (int i = 0; i < 3; i++)
            if (c == &nn_conv_more_classes[i]) return &kinds[i];
    }
    return NULL;
}

/* "[7, 9]" into buf */
static const char *int_list(int n, const int64_t *v, char *buf, size_t cap)
{
    size_t len = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < n && len < cap; i++) len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? ", " : "", (long long)v[i]);
    if (len < cap) snprintf(buf + len, cap - len, "]");
    return buf;
}

/* _ConvTransposeNd._output_padding: the output_padding giving output_size (a sequence of
   dims or dims + 2 (batched; dims + 1 unbatched) ints, a torch.Size included), or
   PyTorch's ValueError when it cannot. */
static int output_padding_for(const char *name, int dims, const nn_tensor *x, nn_object *osize, const int64_t *kernel,
                              const int64_t *stride, const int64_t *padding, const int64_t *dilation, int64_t *outpad)
{
    if (x->ndim < dims + 1) return 0; /* the convolution itself refuses it */
    bool tuple = nn_is_instance(osize, &nn_tuple_type);
    if (!tuple && !nn_is_list(osize))
        return nn_error_set(NN_ERR_TYPE, "%s: output_size must be a list or tuple of ints, not %s", name,
                            osize->type->name);
    size_t n = tuple ? nn_tuple_len(osize) : nn_list_len(osize);
    int non_spatial = x->ndim == dims + 2 ? 2 : 1;
    size_t skip = n == (size_t)(non_spatial + dims) ? (size_t)non_spatial : 0;
    if (n - skip != (size_t)dims)
        return nn_error_set(NN_ERR_VALUE, "ConvTranspose%dD: for %dD input, output_size must have %d or %d elements (got %zu)",
                            dims, x->ndim, dims, non_spatial + dims, n);
    int64_t want[2], lo[2], hi[2];
    for (int d = 0; d < dims; d++) {
        nn_object *e = tuple ? nn_tuple_get(osize, skip + (size_t)d) : nn_list_get(osize, skip + (size_t)d);
        if (!nn_is_int(e)) return nn_error_set(NN_ERR_TYPE, "%s: output_size must hold ints, not %s", name, e->type->name);
        want[d] = nn_int_value(e);
        lo[d] = (x->sizes[x->ndim - dims + d] - 1) * stride[d] - 2 * padding[d] + dilation[d] * (kernel[d] - 1) + 1;
        hi[d] = lo[d] + stride[d] - 1;
    }
    for (int d = 0; d < dims; d++)
        if (want[d] < lo[d] || want[d] > hi[d]) {
            /* the requested sizes as Python prints output_size[skip:]: a list, or the tuple's own type's repr */
            char a[96], b[64], c[64], s[96];
            if (tuple) {
                nn_object *slice = nn_tuple_new((size_t)dims);
                if (!slice) return -1;
                for (int i = 0; i < dims; i++) nn_tuple_set(slice, (size_t)i, nn_retain(nn_tuple_get(osize, skip + (size_t)i)));
                slice->type = osize->type; /* torch.Size is a tuple's layout under its own type */
                char *text = nn_repr(slice);
                NN_RELEASE(slice);
                if (!text) return -1;
                snprintf(a, sizeof a, "%s", text);
                nn_free(text);
            } else {
                int_list(dims, want, a, sizeof a);
            }
            return nn_error_set(NN_ERR_VALUE, "requested an output size of %s, but valid sizes range from %s to %s (for an "
                                "input of torch.Size(%s))", a,
                                int_list(dims, lo, b, sizeof b), int_list(dims, hi, c, sizeof c),
                                int_list(x->ndim - 2, x->sizes + 2, s, sizeof s)); /* input.size()[2:] */
        }
    for (int d = 0; d < dims; d++) outpad[d] = want[d] - lo[d];
    return 0;
}

/* an attribute holding n ints, a tuple or a list, into v; 0 or -1 */
static int int_seq_attr(nn_module *m, const char *name, int n, int64_t *v)
{
    nn_object *t = nn_module_getattr(m, name);
    if (!t) return -1;
    bool tuple = nn_is_instance(t, &nn_tuple_type);
    if ((!tuple && !nn_is_list(t)) || (int)(tuple ? nn_tuple_len(t) : nn_list_len(t)) != n)
        return nn_error_set(NN_ERR_TYPE, "%s.%s must be a sequence of %d ints", nn_module_name(m), name, n);
    for (int i = 0; i < n; i++) {
        nn_object *e = tuple ? nn_tuple_get(t, (size_t)i) : nn_list_get(t, (size_t)i);
        if (!nn_is_int(e)) return nn_error_set(NN_ERR_TYPE, "%s.%s must hold ints", nn_module_name(m), name);
        v[i] = nn_int_value(e);
    }
    return 0;
}

static nn_pad_mode pad_mode_of(const char *mode)
{
    return !strcmp(mode, "reflect") ? NN_PAD_REFLECT : !strcmp(mode, "replicate") ? NN_PAD_REPLICATE : NN_PAD_CIRCULAR;
}

nn_tensor *nn_conv_module_forward(nn_module *m, nn_tensor *x, nn_tensor *w, nn_tensor *b)
{
    const conv_kind *k = kind_of(m);
    if (!k || k->transposed) return nn_error_set(NN_ERR_RUNTIME, "not a convolution module"), NULL;
    int dims = k->dims;
    int64_t stride[3], padding[3] = {0, 0, 0}, dilation[3]; /* 3: nn_conv_nd's arrays */
    nn_object *g = nn_module_getattr(m, "groups"), *pad = g ? nn_module_getattr(m, "padding") : NULL;
    nn_object *mode = pad ? nn_module_getattr(m, "padding_mode") : NULL;
    if (!mode || attr_tuple(m, "stride", dims, stride) || attr_tuple(m, "dilation", dims, dilation) ||
        (!nn_is_str(pad) && attr_tuple(m, "padding", dims, padding)))
        return NULL;
    if (!nn_is_int(g) || !nn_is_str(mode))
        return nn_error_set(NN_ERR_TYPE, "%s: groups or padding_mode has the wrong type", nn_module_name(m)), NULL;
    if (strcmp(nn_str_cstr(mode), "zeros")) { /* F.pad(input, _reversed_padding_repeated_twice, mode), no padding */
        int64_t rev[4];
        if (int_seq_attr(m, "_reversed_padding_repeated_twice", 2 * dims, rev)) return NULL;
        static const int64_t zeros[3] = {0, 0, 0};
        nn_tensor *xp = nn_pad(x, 2 * dims, rev, pad_mode_of(nn_str_cstr(mode)), 0);
        nn_tensor *y = xp ? nn_conv_nd(dims, xp, w, b, stride, zeros, dilation, nn_int_value(g)) : NULL;
        NN_RELEASE(xp);
        return y;
    }
    if (nn_is_str(pad)) return nn_conv_str(dims, x, w, b, nn_str_cstr(pad), stride, dilation, nn_int_value(g));
    return nn_conv_nd(dims, x, w, b, stride, padding, dilation, nn_int_value(g));
}

static nn_object *conv_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    const conv_kind *k = kind_of(m);
    if (!k) return nn_error_set(NN_ERR_RUNTIME, "not a convolution module"), NULL;
    char f[64];
    snprintf(f, sizeof f, "%s.forward", nn_module_name(m));
    /* a transposed convolution's forward(input, output_size=None): output_size taken off here */
    nn_object *osize = NULL, *args1 = NULL, *kwargs1 = NULL;
    if (k->transposed && args && nn_tuple_len(args) == 2) {
        osize = nn_tuple_get(args, 1);
        if (!(args1 = nn_tuple_new(1))) return NULL;
        nn_tuple_set(args1, 0, nn_retain(nn_tuple_get(args, 0)));
    }
    if (k->transposed && kwargs && nn_dict_get_str(kwargs, "output_size")) {
        if (osize) {
            NN_RELEASE(args1);
            return nn_error_set(NN_ERR_TYPE, "%s() got multiple values for argument 'output_size'", f), NULL;
        }
        osize = nn_dict_get_str(kwargs, "output_size");
        if (!(kwargs1 = nn_dict_copy(kwargs)) || nn_dict_del_str(kwargs1, "output_size") < 0) {
            NN_RELEASE(kwargs1);
            return NULL;
        }
    }
    static const char *const fns[2][2] = {{"conv1d", "conv2d"}, {"conv_transpose", "conv_transpose"}};
    nn_tensor *x = nn_forward_tensor_arg(f, args1 ? args1 : args, kwargs1 ? kwargs1 : kwargs,
                                         fns[k->transposed][k->dims - 1], "input", 1);
    NN_RELEASE(args1);
    NN_RELEASE(kwargs1);
    if (osize && nn_is_none(osize)) osize = NULL;
    nn_object *w = x ? nn_module_getattr(m, "weight") : NULL, *b = w ? nn_module_getattr(m, "bias") : NULL;
    if (!b) return NULL;
    if (!nn_is_tensor(w) || (!nn_is_none(b) && !nn_is_tensor(b)))
        return nn_error_set(NN_ERR_TYPE, "%s: weight or bias has the wrong type", nn_module_name(m)), NULL;
    nn_tensor *bt = nn_is_none(b) ? NULL : NN_TENSOR(b);
    if (!k->transposed) return (nn_object *)nn_conv_module_forward(m, x, NN_TENSOR(w), bt);
    int64_t stride[2], padding[2], dilation[2], outpad[2] = {0, 0};
    nn_object *g = nn_module_getattr(m, "groups");
    if (!g || attr_tuple(m, "stride", k->dims, stride) || attr_tuple(m, "padding", k->dims, padding) ||
        attr_tuple(m, "dilation", k->dims, dilation) || attr_tuple(m, "output_padding", k->dims, outpad))
        return NULL;
    if (!nn_is_int(g)) return nn_error_set(NN_ERR_TYPE, "%s: groups has the wrong type", nn_module_name(m)), NULL;
    if (osize) {
        nn_tensor *wt = NN_TENSOR(w);
        int64_t kernel[2] = {wt->sizes[2], k->dims == 2 ? wt->sizes[3] : 0};
        if (output_padding_for(f, k->dims, x, osize, kernel, stride, padding, dilation, outpad) < 0) return NULL;
    }
    return (nn_object *)nn_conv_transpose(k->dims, x, NN_TENSOR(w), bt, stride, padding, outpad, nn_int_value(g),
                                          dilation);
}

/* _ConvNd.extra_repr */
static char *conv_extra_repr(nn_module *m)
{
    const conv_kind *k = kind_of(m);
    if (!k) return nn_strdup("");
    char zeros[16], ones[16], fmt[512];
    snprintf(zeros, sizeof zeros, k->dims == 1 ? "(0,)" : "(0, 0)");
    snprintf(ones, sizeof ones, k->dims == 1 ? "(1,)" : "(1, 1)");
    size_t n = (size_t)snprintf(fmt, sizeof fmt, "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}");
    static const char *const names[3] = {"padding", "dilation", "output_padding"};
    for (int i = 0; i < 3; i++) {
        nn_object *v = nn_module_getattr(m, names[i]);
        char *s = v ? nn_str(v) : NULL;
        if (!s) return NULL;
        if (strcmp(s, i == 1 ? ones : zeros)) n += (size_t)snprintf(fmt + n, sizeof fmt - n, ", %s={%s}", names[i], names[i]);
        nn_free(s);
    }
    nn_object *g = nn_module_getattr(m, "groups"), *b = g ? nn_module_getattr(m, "bias") : NULL;
    nn_object *mode = b ? nn_module_getattr(m, "padding_mode") : NULL;
    if (!mode) return NULL;
    if (!nn_is_int(g) || nn_int_value(g) != 1) n += (size_t)snprintf(fmt + n, sizeof fmt - n, ", groups={groups}");
    if (nn_is_none(b)) n += (size_t)snprintf(fmt + n, sizeof fmt - n, ", bias=False");
    if (!nn_is_str(mode) || strcmp(nn_str_cstr(mode), "zeros"))
        snprintf(fmt + n, sizeof fmt - n, ", padding_mode={padding_mode}");
    return nn_module_format_attrs(m, fmt);
}

const nn_module_class nn_conv2d_class = {.name = "Conv2d", .forward = conv_forward, .extra_repr = conv_extra_repr,
                                         .base = &nn_convnd_class};
const nn_module_class nn_conv_more_classes[3] = {
    {.name = "Conv1d", .forward = conv_forward, .extra_repr = conv_extra_repr, .base = &nn_convnd_class},
    {.name = "ConvTranspose1d", .forward = conv_forward, .extra_repr = conv_extra_repr, .base = &nn_conv_transposend_class},
    {.name = "ConvTranspose2d", .forward = conv_forward, .extra_repr = conv_extra_repr, .base = &nn_conv_transposend_class},
};

static nn_object *tuple_of(int n, const int64_t *v)
{
    nn_object *t = nn_tuple_new((size_t)n);
    for (int i = 0; t && i < n; i++) {
        nn_object *e = nn_int_new(v[i]);
        if (!e) {
            NN_SET(t, NULL);
            break;
        }
        nn_tuple_set(t, (size_t)i, e);
    }
    return t;
}

static nn_tensor *add_parameter(nn_module *m, const char *name, int ndim, const int64_t *sizes, nn_dtype dtype)
{
    nn_tensor *data = nn_empty(ndim, sizes, dtype), *p = data ? nn_parameter_new(data, true) : NULL;
    NN_RELEASE(data);
    int rc = p ? nn_module_register_parameter(m, name, p) : -1;
    NN_RELEASE(p);
    return rc ? NULL : p;
}

/* _ConvNd's checks of its arguments (a transposed one's padding_mode first, as _ConvTransposeNd's) */
static int check_spec(const nn_module_class *cls, const conv_kind *k, const nn_conv_spec *s)
{
    if (k->transposed && strcmp(s->padding_mode, "zeros"))
        return nn_error_set(NN_ERR_VALUE, "Only \"zeros\" padding mode is supported for %s", cls->name);
    if (s->groups <= 0) return nn_error_set(NN_ERR_VALUE, "groups must be a positive integer");
    if (s->in % s->groups) return nn_error_set(NN_ERR_VALUE, "in_channels must be divisible by groups");
    if (s->out % s->groups) return nn_error_set(NN_ERR_VALUE, "out_channels must be divisible by groups");
    if (s->padding_str) {
        if (strcmp(s->padding_str, "valid") && strcmp(s->padding_str, "same"))
            return nn_error_set(NN_ERR_VALUE, "Invalid padding string '%s', should be one of {'valid', 'same'}",
                                s->padding_str);
        for (int d = 0; d < k->dims; d++)
            if (!strcmp(s->padding_str, "same") && s->stride[d] != 1)
                return nn_error_set(NN_ERR_VALUE, "padding='same' is not supported for strided convolutions");
    }
    static const char *const modes[4] = {"zeros", "reflect", "replicate", "circular"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(s->padding_mode, modes[i])) return 0;
    return nn_error_set(NN_ERR_VALUE, "padding_mode must be one of {'zeros', 'reflect', 'replicate', 'circular'}, but "
                        "got padding_mode='%s'", s->padding_mode);
}

/* _ConvNd's _reversed_padding_repeated_twice: each dim's left and right padding, the last dim first
   ('same': d * (k - 1) split, the odd one on the right; 'valid': none) */
static nn_object *reversed_padding(const conv_kind *k, const nn_conv_spec *s)
{
    int64_t rev[4] = {0, 0, 0, 0};
    for (int d = 0; d < k->dims; d++) {
        int i = k->dims - 1 - d;
        if (!s->padding_str) {
            rev[2 * i] = rev[2 * i + 1] = s->padding[d];
        } else if (!strcmp(s->padding_str, "same")) {
            int64_t total = s->dilation[d] * (s->kernel[d] - 1);
            rev[2 * i] = total / 2;
            rev[2 * i + 1] = total - total / 2;
        }
    }
    if (!s->padding_str) return tuple_of(2 * k->dims, rev); /* _reverse_repeat_tuple's tuple */
    nn_object *l = nn_list_new(0);
    for (int i = 0; l && i < 2 * k->dims; i++) {
        nn_object *e = nn_int_new(rev[i]);
        if (!e || nn_list_append(l, e) < 0) NN_SET(l, NULL);
        NN_RELEASE(e);
    }
    return l;
}

static nn_module *conv_module_new(const nn_module_class *cls, const conv_kind *k, const nn_conv_spec *s)
{
    if (check_spec(cls, k, s) < 0) return NULL;
    nn_module *m = nn_module_new(cls);
    if (!m) return NULL;
    int64_t zeros[2] = {0, 0};
    nn_object *attrs[] = {nn_int_new(s->in), nn_int_new(s->out), tuple_of(k->dims, s->kernel),
                          tuple_of(k->dims, s->stride),
                          s->padding_str ? nn_str_new(s->padding_str) : tuple_of(k->dims, s->padding),
                          tuple_of(k->dims, s->dilation), nn_bool_new(k->transposed),
                          tuple_of(k->dims, k->transposed ? s->output_padding : zeros), nn_int_new(s->groups),
                          nn_str_new(s->padding_mode), reversed_padding(k, s)};
    static const char *const names[] = {"in_channels", "out_channels", "kernel_size", "stride", "padding",
                                        "dilation", "transposed", "output_padding", "groups", "padding_mode",
                                        "_reversed_padding_repeated_twice"};
    int rc = 0;
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        if (rc == 0) rc = attrs[i] ? nn_module_setattr(m, names[i], attrs[i]) : -1;
        NN_RELEASE(attrs[i]);
    }
    int64_t ws[4] = {k->transposed ? s->in : s->out, (k->transposed ? s->out : s->in) / s->groups, s->kernel[0],
                     k->dims == 2 ? s->kernel[1] : 0};
    nn_tensor *w = rc ? NULL : add_parameter(m, "weight", k->dims + 2, ws, s->dtype), *b = NULL;
    if (!w) rc = -1;
    else if (s->bias && !(b = add_parameter(m, "bias", 1, &s->out, s->dtype))) rc = -1;
    else if (!s->bias) rc = nn_module_register_parameter(m, "bias", NULL);
    if (rc == 0) rc = nn_init_reset_weight_bias(w, b); /* _ConvNd.reset_parameters */
    if (rc) NN_SET(m, NULL);
    return m;
}

nn_module *nn_conv_more_new(int which, const nn_conv_spec *s)
{
    return conv_module_new(&nn_conv_more_classes[which], &kinds[which], s);
}

nn_module *nn_conv2d_module_new(const nn_conv_spec *s) { return conv_module_new(&nn_conv2d_class, &conv2d_kind, s); }

nn_module *nn_conv2d_new(int64_t in_channels, int64_t out_channels, const int64_t kernel_size[2],
                         const int64_t stride[2], const int64_t padding[2], const int64_t dilation[2], int64_t groups,
                         bool bias, nn_dtype dtype)
{
    nn_conv_spec s = {.in = in_channels, .out = out_channels, .groups = groups, .padding_mode = "zeros",
                      .bias = bias, .dtype = dtype};
    for (int d = 0; d < 2; d++) {
        s.kernel[d] = kernel_size[d], s.stride[d] = stride[d], s.padding[d] = padding[d];
        s.dilation[d] = dilation[d];
    }
    return nn_conv2d_module_new(&s);
}
