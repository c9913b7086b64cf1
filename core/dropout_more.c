/*
 * dropout_more.c — ATen's _dropout_impl for the kinds nn.Dropout does not
 * cover: feature (channel) dropout, alpha dropout and feature alpha dropout.
 * The noise is drawn with bernoulli_(1 - p) from the current generator, so a
 * seeded run drops the same elements (or channels) as PyTorch; feature noise
 * has the input's first two sizes and ones after them.
 */
#include <math.h>
#include <string.h>

#include "nn_mod_more.h"
#include "nn_scratch.h"

#define SELU_ALPHA_DROPOUT 1.7580993408473766

/* input * noise, or input.mul_(noise) in place (returns input retained) */
static nn_tensor *multiply(nn_tensor *x, nn_tensor *noise, bool inplace)
{
    if (!inplace) return nn_mul(x, noise);
    return nn_mul_(x, noise) < 0 ? NULL : (nn_tensor *)nn_retain(&x->ob);
}

nn_tensor *nn_dropout_kind(nn_tensor *x, double p, bool training, bool feature, bool alpha, bool inplace)
{
    if (isnan(p) || p < 0 || p > 1)
        return nn_error_set(NN_ERR_RUNTIME, "dropout probability has to be between 0 and 1, but got %g", p), NULL;
    if (p == 0 || !training || nn_numel(x) == 0) return (nn_tensor *)nn_retain(&x->ob);
    if (inplace && nn_check_inplace(x) < 0) return NULL;
    if (p == 1) {
        nn_tensor *z = nn_zeros_on(nn_device_of(x), 0, NULL, x->dtype), *r = z ? multiply(x, z, inplace) : NULL;
        NN_RELEASE(z);
        return r;
    }
    if (feature && x->ndim < 2)
        return nn_error_set(NN_ERR_RUNTIME, "Feature dropout requires at least 2 dimensions in the input"), NULL;
    int64_t sizes[NN_MAX_DIMS];
    memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    if (feature)
        for (int d = 2; d < x->ndim; d++) sizes[d] = 1;
    nn_scratch s = {0};
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *noise = NN_KEEP(&s, nn_empty_on(nn_device_of(x), x->ndim, sizes, x->dtype)), *b = NULL; /* x's device */
    int rc = noise ? nn_bernoulli_(noise, 1 - p) : -1;
    if (rc == 0 && alpha) {
        double a = 1. / sqrt((SELU_ALPHA_DROPOUT * SELU_ALPHA_DROPOUT * p + 1) * (1 - p));
        nn_tensor *t = NN_KEEP(&s, nn_add_scalar(noise, -1.0));
        nn_tensor *u = NN_KEEP(&s, t ? nn_mul_scalar(t, SELU_ALPHA_DROPOUT * a) : NULL);
        b = NN_KEEP(&s, u ? nn_add_scalar(u, SELU_ALPHA_DROPOUT * a * p) : NULL);
        nn_tensor *an = NN_KEEP(&s, nn_wrapped_number(a, false));
        rc = b && an ? nn_mul_(noise, an) : -1;
    } else if (rc == 0) {
        nn_tensor *keep = NN_KEEP(&s, nn_wrapped_number(1 - p, false));
        rc = keep ? nn_div_(noise, keep) : -1;
    }
    nn_set_grad_enabled(prev);
    nn_tensor *r = rc == 0 ? multiply(x, noise, inplace) : NULL;
    if (r && alpha && nn_add_(r, b, 1.0) < 0) NN_SET(r, NULL);
    nn_scratch_free(&s);
    return r;
}
