/*
 * unpool.c — max_unpool2d (MaxUnpool2DBackward0): each input value written
 * at its flat index of its (sample, channel) output plane, zeros elsewhere,
 * as ATen's CPU kernel; the backward gathers the gradient at the same indices.
 */
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_layers.h"
#include "nn_mod_more.h"

/* x and the int64 indices [N, C, H, W] (or [C, H, W]) into planes of oh * ow */
nn_tensor *nn_max_unpool2d(nn_tensor *x, nn_tensor *indices, int64_t oh, int64_t ow)
{
    char s1[128], s2[128];
    if (indices->dtype != NN_INT64)
        return nn_error_set(NN_ERR_RUNTIME, "elements in indices should be type int64 but got: %s",
                            nn_dtype_scalar_name(indices->dtype)),
               NULL;
    if (x->ndim != indices->ndim || memcmp(x->sizes, indices->sizes, sizeof(int64_t) * (size_t)x->ndim))
        return nn_error_set(NN_ERR_RUNTIME, "Expected shape of indices to be same as that of the input tensor (%s) but "
                            "got indices tensor with shape: %s", nn_shape_str(x->ndim, x->sizes, s1, sizeof s1),
                            nn_shape_str(indices->ndim, indices->sizes, s2, sizeof s2)),
               NULL;
    if (x->ndim != 3 && x->ndim != 4)
        return nn_error_set(NN_ERR_RUNTIME, "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
                            "%d dimensions.", x->ndim),
               NULL;
    if (oh <= 0 || ow <= 0)
        return nn_error_set(NN_ERR_RUNTIME, "There should be exactly two elements (height, width) in output_size, but "
                            "got %lld elements.", (long long)2),
               NULL;
    if (x->dtype != NN_FLOAT32 && x->dtype != NN_FLOAT64)
        return nn_error_set(NN_ERR_RUNTIME, "\"max_unpooling2d_forward_out\" not implemented for '%s'",
                            nn_dtype_scalar_name(x->dtype)),
               NULL;
    int64_t planes = 1, in_plane = x->sizes[x->ndim - 1] * x->sizes[x->ndim - 2], out_plane = oh * ow;
    for (int d = 0; d < x->ndim - 2; d++) planes *= x->sizes[d];
    int64_t sizes[4];
    memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    sizes[x->ndim - 2] = oh, sizes[x->ndim - 1] = ow;
    if (nn_same_device_all(2, (nn_tensor *[]){x, indices}) < 0) return NULL;
    /* the planes flat: y [planes, oh * ow] scattered at the indices [planes, in_plane] from x, by the index kernel */
    const int64_t yflat[2] = {planes, out_plane}, xflat[2] = {planes, in_plane};
    nn_tensor *xc = NULL, *ic = NULL, *y = NULL, *yv = NULL;
    bool prev = nn_set_grad_enabled(false);
    xc = nn_reshape(x, 2, xflat);
    ic = xc ? nn_reshape(indices, 2, xflat) : NULL;
    if (xc) NN_SET(xc, nn_contiguous(xc));
    if (ic) NN_SET(ic, nn_contiguous(ic));
    y = xc && ic ? nn_zeros_on(nn_device_of(x), x->ndim, sizes, x->dtype) : NULL;
    yv = y ? nn_view(y, 2, yflat) : NULL;
    nn_set_grad_enabled(prev);
    if (!yv) NN_SET(y, NULL);
    nn_kernel_args kr = {.t = {NULL, ic}};
    if (y && in_plane * planes > 0 && NN_KERNEL(nn_backend_of(ic), index, (NN_INDEX_INT_RANGE, &kr)) < 0) NN_SET(y, NULL);
    if (y && in_plane * planes > 0 && (kr.i[0] < 0 || kr.i[1] >= out_plane)) {
        /* the last index out of range, in order: the one ATen's kernel reports (it
           notes each it meets and goes on) */
        nn_tensor *hold = NULL;
        const int64_t *idx = nn_host_read(ic, &hold);
        int64_t k = 0;
        for (int64_t i = 0; idx && i < planes * in_plane; i++)
            if (idx[i] < 0 || idx[i] >= out_plane) k = idx[i];
        if (idx)
            nn_error_set(NN_ERR_RUNTIME, "Found an invalid max index: %lld (output volumes are of size %lldx%lld",
                         (long long)k, (long long)oh, (long long)ow);
        NN_RELEASE(hold);
        NN_SET(y, NULL);
    }
    nn_kernel_args ks = {.t = {yv, ic, xc}, .i = {1}};
    if (y && NN_KERNEL(nn_backend_of(yv), index, (NN_INDEX_SCATTER, &ks)) < 0) NN_SET(y, NULL);
    NN_RELEASE(yv);
    NN_RELEASE(xc);
    NN_RELEASE(ic);
    if (y && nn_record(NN_OP_max_unpool2d, 1, &x, 1, &y, 1, &indices, NULL) < 0) NN_SET(y, NULL);
    return y;
}

/* grad_input = grad_output's planes gathered at the indices */
int nn_max_unpool2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *indices = nn_node_saved(n, 0), *g = gout[0];
    int nd = indices->ndim;
    int64_t planes = 1, flat[3], in_plane = indices->sizes[nd - 1] * indices->sizes[nd - 2];
    for (int d = 0; d < nd - 2; d++) planes *= indices->sizes[d];
    flat[0] = planes, flat[1] = g->sizes[nd - 1] * g->sizes[nd - 2];
    int64_t iflat[2] = {planes, in_plane};
    nn_tensor *gv = nn_reshape(g, 2, flat), *iv = gv ? nn_reshape(indices, 2, iflat) : NULL;
    nn_tensor *r = iv ? nn_gather(gv, 1, iv) : NULL;
    gin[0] = r ? nn_reshape(r, nd, indices->sizes) : NULL;
    NN_RELEASE(gv);
    NN_RELEASE(iv);
    NN_RELEASE(r);
    return gin[0] ? 0 : -1;
}

/* F.max_unpool2d: the output size from _unpool_output_size (output_size: None or a sequence of 2 or 4 ints) */
nn_tensor *nn_max_unpool2d_sized(nn_tensor *x, nn_tensor *indices, const int64_t k[2], const int64_t s[2],
                                 const int64_t p[2], nn_object *output_size)
{
    if (x->ndim < 2)
        return nn_error_set(NN_ERR_RUNTIME, "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
                            "%d dimensions.", x->ndim),
               NULL;
    int64_t def[2], out[2];
    for (int d = 0; d < 2; d++) out[d] = def[d] = (x->sizes[x->ndim - 2 + d] - 1) * s[d] + k[d] - 2 * p[d];
    if (output_size && !nn_is_none(output_size)) {
        bool tuple = nn_is_instance(output_size, &nn_tuple_type);
        if (!tuple && !nn_is_list(output_size))
            return nn_error_set(NN_ERR_TYPE, "output_size must be a sequence of ints"), NULL;
        size_t n = tuple ? nn_tuple_len(output_size) : nn_list_len(output_size);
        if (n != 2 && n != 4)
            return nn_error_set(NN_ERR_VALUE, "output_size should be a sequence containing 2 or 4 elements, but it has a "
                                "length of '%zu'", n),
                   NULL;
        for (int d = 0; d < 2; d++) {
            nn_object *e = tuple ? nn_tuple_get(output_size, n - 2 + d) : nn_list_get(output_size, n - 2 + d);
            if (!nn_is_int(e)) return nn_error_set(NN_ERR_TYPE, "output_size must be a sequence of ints"), NULL;
            out[d] = nn_int_value(e);
            if (!(def[d] - s[d] < out[d] && out[d] < def[d] + s[d])) {
                char *text = nn_str(output_size);
                nn_error_set(NN_ERR_VALUE, "invalid output_size \"%s\" (dim %d must be between %lld and %lld)",
                             text ? text : "?", d, (long long)(def[d] - s[d]), (long long)(def[d] + s[d]));
                nn_free(text);
                return NULL;
            }
        }
    }
    return nn_max_unpool2d(x, indices, out[0], out[1]);
}

static int attr_pair(nn_module *m, const char *name, int64_t v[2])
{
    nn_object *t = nn_module_getattr(m, name);
    if (!t) return -1;
    if (!nn_is_instance(t, &nn_tuple_type) || nn_tuple_len(t) != 2 || !nn_is_int(nn_tuple_get(t, 0)) ||
        !nn_is_int(nn_tuple_get(t, 1)))
        return nn_error_set(NN_ERR_TYPE, "MaxUnpool2d.%s must be a pair of ints", name);
    v[0] = nn_int_value(nn_tuple_get(t, 0));
    v[1] = nn_int_value(nn_tuple_get(t, 1));
    return 0;
}

static nn_object *unpool_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    size_t n = args ? nn_tuple_len(args) : 0;
    nn_object *v[3] = {NULL, NULL, NULL};
    static const char *const names[3] = {"input", "indices", "output_size"};
    if (n > 3) return nn_error_set(NN_ERR_TYPE, "MaxUnpool2d.forward() takes from 3 to 4 positional arguments but %zu were given", n + 1), NULL;
    for (size_t i = 0; i < n; i++) v[i] = nn_tuple_get(args, i);
    for (int i = 0; i < 3 && kwargs; i++) {
        nn_object *o = nn_dict_get_str(kwargs, names[i]);
        if (o && v[i]) return nn_error_set(NN_ERR_TYPE, "MaxUnpool2d.forward() got multiple values for argument '%s'", names[i]), NULL;
        if (o) v[i] = o;
    }
    for (int i = 0; i < 2; i++)
        if (!v[i] || !nn_is_tensor(v[i]))
            return nn_error_set(NN_ERR_TYPE, v[i] ? "max_unpool2d(): argument '%s' must be Tensor, not %s"
                                                  : "MaxUnpool2d.forward() missing 1 required positional argument: '%s'",
                                names[i], v[i] ? v[i]->type->name : ""),
                   NULL;
    int64_t k[2], s[2], p[2];
    if (attr_pair(m, "kernel_size", k) || attr_pair(m, "stride", s) || attr_pair(m, "padding", p)) return NULL;
    return (nn_object *)nn_max_unpool2d_sized(NN_TENSOR(v[0]), NN_TENSOR(v[1]), k, s, p, v[2]);
}

static char *unpool_extra_repr(nn_module *m)
{
    return nn_module_format_attrs(m, "kernel_size={kernel_size}, stride={stride}, padding={padding}");
}

const nn_module_class nn_max_unpool2d_class = {
    .name = "MaxUnpool2d", .forward = unpool_forward, .extra_repr = unpool_extra_repr, .base = &nn_max_unpoolnd_class};

static nn_object *pair(const int64_t v[2])
{
    nn_object *a = nn_int_new(v[0]), *b = a ? nn_int_new(v[1]) : NULL, *t = b ? nn_tuple_pack(2, a, b) : NULL;
    NN_RELEASE(a);
    NN_RELEASE(b);
    return t;
}

nn_module *nn_max_unpool2d_module_new(const int64_t k[2], const int64_t s[2], const int64_t p[2])
{
    nn_module *m = nn_module_new(&nn_max_unpool2d_class);
    static const char *const names[3] = {"kernel_size", "stride", "padding"};
    const int64_t *vals[3] = {k, s, p};
    for (int i = 0; m && i < 3; i++) {
        nn_object *t = pair(vals[i]);
        if (!t || nn_module_setattr(m, names[i], t) < 0) NN_SET(m, NULL);
        NN_RELEASE(t);
    }
    return m;
}
