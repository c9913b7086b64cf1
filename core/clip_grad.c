/*
 * clip_grad.c — torch.nn.utils' gradient clipping and parameter vectors, with
 * PyTorch 1.13's arithmetic (clip_grad.py, convert_parameters.py): the same ops
 * in the same order, so the total norm and the scaled gradients match bit for
 * bit. Declared in nn_clip_grad.h.
 */
#include <math.h>
#include <stdio.h>

#include "nn_int.h"

nn_tensor *nn_clip_grad_norm_(nn_tensor *const *params, size_t n, double max_norm, double norm_type,
                              bool error_if_nonfinite)
{
    size_t k = 0;
    nn_tensor **grads = nn_malloc((n ? n : 1) * sizeof *grads);
    if (!grads) return NULL;
    for (size_t i = 0; i < n; i++)
        if (params[i]->grad) grads[k++] = params[i]->grad;
    if (k == 0) {
        nn_free(grads);
        return nn_scalar(0.0, nn_default_dtype()); /* torch.tensor(0.) */
    }
    bool prev = nn_set_grad_enabled(false);
    nn_tensor **norms = nn_calloc(k, sizeof *norms), *total = NULL;
    int rc = norms ? 0 : -1;
    /* inf: max of each |grad|.max() (torch.norm(g, inf) is that); else norm(stack(norms)) */
    for (size_t i = 0; rc == 0 && i < k; i++) rc = (norms[i] = nn_norm(grads[i], norm_type, 0, NULL, false)) ? 0 : -1;
    if (rc == 0) {
        nn_tensor *stacked = k == 1 && isinf(norm_type) ? NULL : nn_stack((int)k, norms, 0);
        if (k == 1 && isinf(norm_type)) {
            NN_RETAIN(norms[0]);
            total = norms[0];
        } else total = stacked ? nn_norm(stacked, norm_type, 0, NULL, false) : NULL;
        NN_RELEASE(stacked);
        rc = total ? 0 : -1;
    }
    double tv = 0;
    if (rc == 0 && (rc = nn_item(total, &tv)) == 0 && error_if_nonfinite && !isfinite(tv)) {
        char p[32];
        nn_format_float(norm_type, p, sizeof p);
        rc = nn_error_set(NN_ERR_RUNTIME,
                          "The total norm of order %s for gradients from `parameters` is non-finite, so it cannot be "
                          "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
                          "`error_if_nonfinite=False`",
                          p);
    }
    if (rc == 0) { /* clip_coef = max_norm / (total_norm + 1e-6), clamped to 1, grads *= it */
        nn_tensor *den = nn_add_scalar(total, 1e-6);
        nn_tensor *num = den ? nn_wrapped_number(max_norm, false) : NULL;
        nn_tensor *coef = num ? nn_div(num, den) : NULL;
        nn_tensor *clamped = coef ? nn_clamp(coef, 0, false, 1.0, true) : NULL;
        rc = clamped ? 0 : -1;
        for (size_t i = 0; rc == 0 && i < k; i++) rc = nn_mul_(grads[i], clamped);
        NN_RELEASE(den);
        NN_RELEASE(num);
        NN_RELEASE(coef);
        NN_RELEASE(clamped);
    }
    nn_set_grad_enabled(prev);
    for (size_t i = 0; norms && i < k; i++) NN_RELEASE(norms[i]);
    nn_free(norms);
    nn_free(grads);
    if (rc < 0) NN_SET(total, NULL);
    return total;
}

int nn_clip_grad_value_(nn_tensor *const *params, size_t n, double clip_value)
{
    bool prev = nn_set_grad_enabled(false);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        nn_tensor *g = params[i]->grad;
        if (!g) continue;
        nn_tensor *c = nn_clamp(g, -clip_value, true, clip_value, true);
        rc = c ? nn_copy_(g, c) : -1;
        NN_RELEASE(c);
    }
    nn_set_grad_enabled(prev);
    return rc;
}

nn_tensor *nn_parameters_to_vector(nn_tensor *const *params, size_t n)
{
    nn_tensor **flat = nn_calloc(n ? n : 1, sizeof *flat), *out = NULL;
    if (!flat) return NULL;
    int64_t minus_one = -1;
    size_t i = 0;
    for (; i < n; i++)
        if (!(flat[i] = nn_view(params[i], 1, &minus_one))) break;
    if (i == n) out = nn_cat((int)n, flat, 0);
    for (size_t j = 0; j < i; j++) NN_RELEASE(flat[j]);
    nn_free(flat);
    return out;
}

int nn_vector_to_parameters(nn_tensor *vec, nn_tensor *const *params, size_t n)
{
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) total += nn_numel(params[i]);
    if (vec->ndim != 1 || nn_numel(vec) < total) {
        char buf[64];
        return nn_error_set(NN_ERR_RUNTIME, "vector_to_parameters: a vector of size %s is too short for %lld values",
                            nn_shape_str(vec->ndim, vec->sizes, buf, sizeof buf), (long long)total);
    }
    int64_t at = 0;
    for (size_t i = 0; i < n; i++) { /* param.data = vec[at:at + numel].view_as(param).data */
        nn_tensor *p = params[i];
        if (p->dtype != vec->dtype)
            return nn_error_set(NN_ERR_RUNTIME, "vector_to_parameters: the vector is %s, a parameter %s",
                                nn_dtype_name(vec->dtype), nn_dtype_name(p->dtype));
        vec->storage->refcount++;
        nn_storage_release(p->storage);
        p->storage = vec->storage;
        p->offset = vec->offset + at * vec->strides[0];
        nn_contiguous_strides(p->ndim, p->sizes, p->strides);
        for (int d = 0; d < p->ndim; d++) p->strides[d] *= vec->strides[0];
        at += nn_numel(p);
    }
    return 0;
}
