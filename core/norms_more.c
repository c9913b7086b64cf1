/*
 * norms_more.c — group and instance normalisation. group_norm is an op
 * (NativeGroupNormBackward0) whose forward follows ATen's CPU kernel: each
 * (sample, group) row's moments by layer_norm's emulation of ATen's
 * RowwiseMoments, rstd = 1 / sqrt(max(var, 0) + eps), then per channel
 * y = scale * x + bias with scale = rstd * weight and bias = beta - scale * mean
 * (fused multiply-adds, as ATen's AVX2 build compiles them); its backward is a
 * composition of differentiable ops. instance_norm is ATen's composition: the
 * input viewed as one sample of N * C channels through batch_norm, the running
 * statistics averaged back over the batch, the result viewed back
 * (ViewBackward0, as PyTorch). GroupNorm and InstanceNorm1d/2d/3d modules.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_mod_more.h"
#include "nn_layers.h"
#include "nn_scratch.h"


static nn_tensor *dense(nn_tensor *t)
{
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_contiguous(t));
    return c;
}

nn_tensor *nn_group_norm(nn_tensor *x, int64_t G, nn_tensor *w, nn_tensor *b, double eps)
{
    char s1[128], s2[128];
    if (x->ndim < 2)
        return nn_error_set(NN_ERR_RUNTIME, "Expected at least 2 dimensions for input tensor but received %d", x->ndim),
               NULL;
    int64_t N = x->sizes[0], C = x->sizes[1], HW = 1;
    for (int d = 2; d < x->ndim; d++) HW *= x->sizes[d];
    if (G <= 0 || C % G)
        return nn_error_set(NN_ERR_RUNTIME, "Expected number of channels in input to be divisible by num_groups, but got "
                            "input of shape %s and num_groups=%lld", nn_shape_str(x->ndim, x->sizes, s1, sizeof s1),
                            (long long)G),
               NULL;
    nn_tensor *const params[2] = {w, b};
    for (int k = 0; k < 2; k++)
        if (params[k] && (params[k]->ndim != 1 || params[k]->sizes[0] != C))
            return nn_error_set(NN_ERR_RUNTIME, "Expected %s to be a vector of size equal to the number of channels in "
                                "input, but got %s of shape %s and input of shape %s", k ? "bias" : "weight",
                                k ? "bias" : "weight", nn_shape_str(params[k]->ndim, params[k]->sizes, s1, sizeof s1),
                                nn_shape_str(x->ndim, x->sizes, s2, sizeof s2)),
                   NULL;
    if (x->dtype != NN_FLOAT32 && x->dtype != NN_FLOAT64 && x->dtype != NN_BFLOAT16)
        return nn_error_set(NN_ERR_RUNTIME, "\"GroupNormKernelImpl\" not implemented for '%s'",
                            nn_dtype_scalar_name(x->dtype)),
               NULL;
    for (int k = 0; k < 2; k++)
        if (params[k] && params[k]->dtype != x->dtype)
            return nn_error_set(NN_ERR_RUNTIME, "expected scalar type %s but found %s", nn_dtype_short_name(x->dtype),
                                nn_dtype_short_name(params[k]->dtype)),
                   NULL;
    nn_tensor *xc = dense(x), *wc = xc && w ? dense(w) : NULL, *bc = xc && b ? dense(b) : NULL;
    nn_tensor *y = xc && (wc || !w) && (bc || !b) ? nn_empty_on(nn_device_of(xc), x->ndim, x->sizes, x->dtype) : NULL;
    nn_kernel_args ka = {.t = {y, NULL, NULL, xc, wc, bc}, .i = {N, C, G, HW}, .d = {eps}};
    if (y && NN_KERNEL(nn_backend_of(xc), norm, (NN_NORM_GROUP, &ka)) < 0) NN_SET(y, NULL);
    NN_RELEASE(xc);
    NN_RELEASE(wc);
    NN_RELEASE(bc);
    nn_op_params p = {.f = {eps}, .i = {G}, .n_i = 1};
    nn_tensor *in[3] = {x, w, b}, *save[2] = {x, w};
    if (y && nn_record(NN_OP_group_norm, 3, in, 1, &y, 2, save, &p) < 0) NN_SET(y, NULL);
    return y;
}

/* the gradients from differentiable ops, the statistics recomputed from x */
int nn_group_norm_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *w = nn_node_saved(n, 1), *g = gout[0];
    int64_t G = n->p.i[0], N = x->sizes[0], C = x->sizes[1];
    int64_t grouped[3] = {N, G, -1}, wshape[NN_MAX_DIMS];
    int red[NN_MAX_DIMS], n_red = 0, last = 2;
    for (int d = 0; d < x->ndim; d++) {
        wshape[d] = d == 1 ? C : 1;
        if (d != 1) red[n_red++] = d;
    }
    nn_scratch s = {0};
    nn_tensor *xg = NN_KEEP(&s, nn_reshape(x, 3, grouped));
    nn_tensor *mu = NN_KEEP(&s, xg ? nn_mean(xg, 1, &last, true) : NULL);
    nn_tensor *xc = NN_KEEP(&s, mu ? nn_sub(xg, mu) : NULL), *sq = NN_KEEP(&s, xc ? nn_mul(xc, xc) : NULL);
    nn_tensor *var = NN_KEEP(&s, sq ? nn_mean(sq, 1, &last, true) : NULL);
    nn_tensor *ve = NN_KEEP(&s, var ? nn_add_scalar(var, n->p.f[0]) : NULL);
    nn_tensor *rstd = NN_KEEP(&s, ve ? nn_pow_scalar(ve, -0.5) : NULL), *xhat = NN_KEEP(&s, rstd ? nn_mul(xc, rstd) : NULL);
    if (!s.failed && nn_node_needs_input_grad(n, 0)) {
        nn_tensor *gx = g;
        if (w) {
            nn_tensor *wv = NN_KEEP(&s, nn_reshape(w, x->ndim, wshape));
            gx = NN_KEEP(&s, wv ? nn_mul(g, wv) : NULL);
        }
        nn_tensor *gg = NN_KEEP(&s, gx ? nn_reshape(gx, 3, grouped) : NULL);
        nn_tensor *m1 = NN_KEEP(&s, gg ? nn_mean(gg, 1, &last, true) : NULL);
        nn_tensor *gxh = NN_KEEP(&s, m1 ? nn_mul(gg, xhat) : NULL);
        nn_tensor *m2 = NN_KEEP(&s, gxh ? nn_mean(gxh, 1, &last, true) : NULL);
        nn_tensor *t1 = NN_KEEP(&s, m2 ? nn_mul(xhat, m2) : NULL), *t2 = NN_KEEP(&s, t1 ? nn_sub(gg, m1) : NULL);
        nn_tensor *t3 = NN_KEEP(&s, t2 ? nn_sub(t2, t1) : NULL), *t4 = NN_KEEP(&s, t3 ? nn_mul(t3, rstd) : NULL);
        if (t4 && !(gin[0] = nn_reshape(t4, x->ndim, x->sizes))) s.failed = true;
    }
    if (!s.failed && nn_node_needs_input_grad(n, 1)) {
        nn_tensor *xh = NN_KEEP(&s, nn_reshape(xhat, x->ndim, x->sizes)), *p = NN_KEEP(&s, xh ? nn_mul(g, xh) : NULL);
        if (p && !(gin[1] = nn_sum(p, n_red, red, false))) s.failed = true;
    }
    if (!s.failed && nn_node_needs_input_grad(n, 2) && !(gin[2] = nn_sum(g, n_red, red, false))) s.failed = true;
    nn_scratch_free(&s);
    return s.failed ? -1 : 0;
}

/* -------------------------------------------------------- instance_norm */

/* t [C] repeated n times: [n * C] (t.repeat(n)) */
static nn_tensor *repeat_vec(nn_tensor *t, int64_t n)
{
    if (!t) return NULL;
    int64_t big[2] = {n, t->sizes[0]}, flat = n * t->sizes[0];
    nn_tensor *u = nn_unsqueeze(t, 0), *e = u ? nn_expand(u, 2, big) : NULL, *r = e ? nn_reshape(e, 1, &flat) : NULL;
    NN_RELEASE(u);
    NN_RELEASE(e);
    return r;
}

nn_tensor *nn_instance_norm(nn_tensor *x, nn_tensor *running_mean, nn_tensor *running_var, nn_tensor *w, nn_tensor *b,
                            bool use_input_stats, double momentum, double eps)
{
    if (x->ndim < 2)
        return nn_error_set(NN_ERR_RUNTIME, "Expected at least 2 dimensions for input tensor but received %d", x->ndim),
               NULL;
    int64_t N = x->sizes[0], C = x->sizes[1], shape[NN_MAX_DIMS];
    if (use_input_stats) {
        int64_t spatial = 1;
        for (int d = 2; d < x->ndim; d++) spatial *= x->sizes[d];
        if (spatial == 1) {
            char buf[128];
            return nn_error_set(NN_ERR_VALUE, "Expected more than 1 spatial element when training, got input size torch.Size(%s)",
                                nn_shape_str(x->ndim, x->sizes, buf, sizeof buf)),
                   NULL;
        }
    }
    /* batch_norm's checks on the repeated tensors, as PyTorch reports them */
    nn_tensor *const given[4] = {w, b, running_mean, running_var};
    static const char *const names[4] = {"weight", "bias", "running_mean", "running_var"};
    for (int k = 0; k < 4; k++)
        if (given[k] && nn_numel(given[k]) * N != N * C)
            return nn_error_set(NN_ERR_RUNTIME, "%s should contain %lld elements not %lld", names[k], (long long)(N * C),
                                (long long)(nn_numel(given[k]) * N)),
                   NULL;
    shape[0] = 1;
    shape[1] = N * C;
    for (int d = 2; d < x->ndim; d++) shape[d] = x->sizes[d];
    nn_scratch s = {0};
    nn_tensor *xc = NN_KEEP(&s, nn_contiguous(x)), *xr = NN_KEEP(&s, xc ? nn_view(xc, x->ndim, shape) : NULL);
    nn_tensor *w_ = w ? NN_KEEP(&s, repeat_vec(w, N)) : NULL, *b_ = b ? NN_KEEP(&s, repeat_vec(b, N)) : NULL;
    nn_tensor *rm = NULL, *rv = NULL;
    bool prev = nn_set_grad_enabled(false);
    if (running_mean) rm = NN_KEEP(&s, repeat_vec(running_mean, N));
    if (running_var) rv = NN_KEEP(&s, repeat_vec(running_var, N));
    nn_set_grad_enabled(prev);
    nn_tensor *out = s.failed ? NULL : NN_KEEP(&s, nn_batch_norm(xr, rm, rv, w_, b_, use_input_stats, momentum, eps));
    int64_t nc[2] = {N, C};
    int zero = 0;
    prev = nn_set_grad_enabled(false);
    nn_tensor *const back[2][2] = {{running_mean, rm}, {running_var, rv}};
    for (int k = 0; k < 2 && out; k++) {
        if (!back[k][0]) continue;
        nn_tensor *v = NN_KEEP(&s, nn_view(back[k][1], 2, nc)), *m = NN_KEEP(&s, v ? nn_mean(v, 1, &zero, false) : NULL);
        if (!m || nn_copy_(back[k][0], m) < 0) s.failed = true;
    }
    nn_set_grad_enabled(prev);
    nn_tensor *r = s.failed ? NULL : nn_view(out, x->ndim, x->sizes);
    nn_scratch_free(&s);
    return r;
}

/* ------------------------------------------------------------- modules */

static nn_tensor *param(nn_module *m, const char *name)
{
    nn_object *o = nn_module_getattr(m, name);
    if (!o) nn_error_clear();
    return o && nn_is_tensor(o) ? NN_TENSOR(o) : NULL;
}

static int attr_double(nn_module *m, const char *name, double *out)
{
    nn_object *o = nn_module_getattr(m, name);
    if (!o) return -1;
    if (nn_is_none(o)) {
        *out = NAN;
        return 0;
    }
    if (!nn_is_int(o) && !nn_is_float(o) && !nn_is_bool(o))
        return nn_error_set(NN_ERR_TYPE, "%s must be a number, not %s", name, o->type->name);
    *out = nn_is_float(o) ? nn_float_value(o) : (double)nn_int_value(o);
    return 0;
}

static nn_object *group_norm_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_tensor *x = nn_forward_tensor_arg("GroupNorm.forward", args, kwargs, "group_norm", "input", 1);
    double groups = 0, eps = 0;
    if (!x || attr_double(m, "num_groups", &groups) < 0 || attr_double(m, "eps", &eps) < 0) return NULL;
    return (nn_object *)nn_group_norm(x, (int64_t)groups, param(m, "weight"), param(m, "bias"), eps);
}

static char *group_norm_extra_repr(nn_module *m)
{
    return nn_module_format_attrs(m, "{num_groups}, {num_channels}, eps={eps}, affine={affine}");
}

const nn_module_class nn_group_norm_class = {
    .name = "GroupNorm", .forward = group_norm_forward, .extra_repr = group_norm_extra_repr};

static bool flag(nn_module *m, const char *name)
{
    nn_object *o = nn_module_getattr(m, name);
    if (!o) nn_error_clear();
    return o && nn_is_true(o) && !nn_is_none(o);
}

/* _InstanceNorm.forward: its input checks, the unbatched case, F.instance_norm */
static nn_object *instance_norm_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    const char *name = nn_module_name(m);
    const nn_module_class *own = NN_MODULE_SLOT(m->cls, forward);
    int nd = own >= nn_instance_norm_classes && own < nn_instance_norm_classes + 3 ? (int)(own - nn_instance_norm_classes) + 1 : 2;
    char f[64];
    snprintf(f, sizeof f, "%s.forward", name);
    nn_tensor *x = nn_forward_tensor_arg(f, args, kwargs, "instance_norm", "input", 1);
    if (!x) return NULL;
    if (x->ndim != nd + 1 && x->ndim != nd + 2)
        return nn_error_set(NN_ERR_VALUE, "expected %dD or %dD input (got %dD input)", nd + 1, nd + 2, x->ndim), NULL;
    double momentum = 0, eps = 0;
    if (attr_double(m, "momentum", &momentum) < 0 || attr_double(m, "eps", &eps) < 0) return NULL;
    bool track = flag(m, "track_running_stats");
    nn_tensor *in = x->ndim == nd + 1 ? nn_unsqueeze(x, 0) : (nn_tensor *)nn_retain(&x->ob);
    nn_tensor *r = in ? nn_instance_norm(in, param(m, "running_mean"), param(m, "running_var"), param(m, "weight"),
                                         param(m, "bias"), m->training || !track, momentum, eps)
                      : NULL;
    NN_RELEASE(in);
    if (r && x->ndim == nd + 1) {
        nn_tensor *sq = nn_squeeze_dim(r, 0);
        NN_RELEASE(r);
        r = sq;
    }
    return (nn_object *)r;
}

static char *instance_norm_extra_repr(nn_module *m)
{
    return nn_module_format_attrs(
        m, "{num_features}, eps={eps}, momentum={momentum}, affine={affine}, track_running_stats={track_running_stats}");
}

const nn_module_class nn_instance_norm_classes[3] = {
    {.name = "InstanceNorm1d", .forward = instance_norm_forward, .extra_repr = instance_norm_extra_repr,
     .base = &nn_instance_norm_base_class},
    {.name = "InstanceNorm2d", .forward = instance_norm_forward, .extra_repr = instance_norm_extra_repr,
     .base = &nn_instance_norm_base_class},
    {.name = "InstanceNorm3d", .forward = instance_norm_forward, .extra_repr = instance_norm_extra_repr,
     .base = &nn_instance_norm_base_class},
};

static int set_attr(nn_module *m, const char *name, nn_object *v)
{
    int rc = v ? nn_module_setattr(m, name, v) : -1;
    NN_RELEASE(v);
    return rc;
}

nn_module *nn_group_norm_new(int64_t groups, int64_t channels, double eps, bool affine, nn_dtype dtype)
{
    if (groups == 0) return nn_error_set(NN_ERR_ZERO_DIVISION, "integer division or modulo by zero"), NULL;
    if (channels % groups) return nn_error_set(NN_ERR_VALUE, "num_channels must be divisible by num_groups"), NULL;
    nn_module *m = nn_module_new(&nn_group_norm_class);
    if (!m) return NULL;
    int rc = set_attr(m, "num_groups", nn_int_new(groups));
    if (rc == 0) rc = set_attr(m, "num_channels", nn_int_new(channels));
    if (rc == 0) rc = set_attr(m, "eps", nn_float_new(eps));
    if (rc == 0) rc = set_attr(m, "affine", nn_bool_new(affine));
    static const char *const names[2] = {"weight", "bias"};
    for (int k = 0; k < 2 && rc == 0; k++) {
        if (!affine) {
            rc = nn_module_register_parameter(m, names[k], NULL);
            continue;
        }
        nn_tensor *d = k ? nn_zeros(1, &channels, dtype) : nn_ones(1, &channels, dtype);
        nn_tensor *p = d ? nn_parameter_new(d, true) : NULL;
        rc = p ? nn_module_register_parameter(m, names[k], p) : -1;
        NN_RELEASE(d);
        NN_RELEASE(p);
    }
    if (rc < 0) NN_SET(m, NULL);
    return m;
}

nn_module *nn_instance_norm_new(int nd, int64_t num_features, double eps, double momentum, bool affine,
                                bool track_running_stats, nn_dtype dtype)
{
    return nn_norm_base_new(&nn_instance_norm_classes[nd - 1], num_features, eps, momentum, affine, track_running_stats,
                            dtype);
}
