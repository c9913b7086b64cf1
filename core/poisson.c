/*
 * poisson.c — torch.poisson: one draw per element from the current generator,
 * in element order, with ATen's sample_poisson (NumPy's algorithms: the
 * product of uniforms below rate 10, Hoermann's transformed rejection from
 * 10 up), each uniform a double from random64 as at::uniform_real_distribution
 * draws it; so a seeded run gives PyTorch's numbers. A host loop: the draws
 * depend on the rates, one after another.
 */
#include <math.h>

#include "nn_int.h"
#include "nn_ops_extra.h"

static int64_t sample_poisson(double lambda, nn_generator *g)
{
    if (lambda >= 10) {
        double slam = sqrt(lambda), loglam = log(lambda);
        double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
        double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
        for (;;) {
            double u = nn_generator_uniform(g) - 0.5, v = nn_generator_uniform(g);
            double us = 0.5 - fabs(u);
            int64_t k = (int64_t)floor((2 * a / us + b) * u + lambda + 0.43);
            if (us >= 0.07 && v <= vr) return k;
            if (k < 0 || (us < 0.013 && v > us)) continue;
            if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lambda + (double)k * loglam - lgamma((double)k + 1))
                return k;
        }
    }
    if (lambda == 0) return 0;
    double enlam = exp(-lambda), prod = 1.0;
    int64_t x = 0;
    for (;;) {
        prod *= nn_generator_uniform(g);
        if (!(prod > enlam)) return x;
        x++;
    }
}

nn_tensor *nn_poisson(nn_tensor *rates)
{
    if (!nn_dtype_is_floating(rates->dtype) || rates->dtype == NN_FLOAT16 || rates->dtype == NN_BFLOAT16) {
        nn_error_set(NN_ERR_RUNTIME, "\"poisson_cpu\" not implemented for '%s'", nn_dtype_scalar_name(rates->dtype));
        return NULL;
    }
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_contiguous(rates));
    nn_tensor *out = c ? nn_zeros(rates->ndim, rates->sizes, rates->dtype) : NULL;
    if (!out) {
        NN_RELEASE(c);
        return NULL;
    }
    int64_t n = nn_numel(c);
    const char *src = nn_data_ptr(c);
    char *dst = nn_data_ptr(out);
    size_t es = nn_dtype_size(c->dtype);
    nn_generator *g = nn_current_generator();
    for (int64_t i = 0; i < n; i++) {
        double lambda = nn_load_double(src + (size_t)i * es, c->dtype);
        if (!(lambda >= 0)) { /* NaN fails the check too, as ATen's TORCH_CHECK(lambda >= 0) */
            nn_error_set(NN_ERR_RUNTIME, "invalid Poisson rate, expected rate to be non-negative");
            NN_RELEASE(c);
            NN_RELEASE(out);
            return NULL;
        }
        nn_store_double(dst + (size_t)i * es, c->dtype, (double)sample_poisson(lambda, g));
    }
    NN_RELEASE(c);
    if (nn_record(NN_OP_poisson, 1, &rates, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* PyTorch's derivative: zeros */
int nn_poisson_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    gin[0] = nn_zeros_like(gout[0]);
    return gin[0] ? 0 : -1;
}
