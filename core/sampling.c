/*
 * sampling.c — the samplers beyond random.c's: exponential_, bernoulli with a
 * tensor of probabilities and multinomial, each drawing from the current
 * generator (nn_current_generator: a Generator object's under generator=, else
 * the default) in the order PyTorch 1.13's CPU kernels draw, so a seeded
 * script gives torch's samples.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "nn_int.h"

/* at::exponential_distribution<double>: -1/lambda * log(1 - u), u a double
   uniform; one draw per element in memory order (cpu_serial_kernel). */
int nn_exponential_(nn_tensor *t, double lambd)
{
    if (nn_check_inplace(t) < 0) return -1;
    if (!(lambd >= 0.0))
        return nn_error_set(NN_ERR_RUNTIME, "exponential_ expects lambda >= 0.0, but found lambda=%g", lambd);
    if (!nn_dtype_is_floating(t->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "\"exponential_cpu\" not implemented for '%s'", nn_dtype_scalar_name(t->dtype));
    nn_tensor *c = nn_is_contiguous(t) ? (nn_tensor *)nn_retain(&t->ob) : nn_empty_on(nn_device_of(t), t->ndim, t->sizes, t->dtype);
    if (!c) return -1;
    nn_kernel_args ka = {.t = {c}, .d = {lambd}, .gen = nn_current_generator()};
    if (NN_KERNEL(nn_backend_of(c), sample, (NN_SAMPLE_EXPONENTIAL, &ka)) < 0) {
        NN_RELEASE(c);
        return -1;
    }
    int rc = 0;
    if (c != t) NN_WITH_GRAD_MODE(false, rc = nn_copy_(t, c));
    NN_RELEASE(c);
    if (rc == 0 && c == t) nn_bump_version(t);
    return rc;
}

/* bernoulli_tensor_cpu_kernel: one uniform per element (float for a float
   p, double for a float64 p), 1 when it is below p. */
nn_tensor *nn_bernoulli_tensor(nn_tensor *p)
{
    if (!nn_dtype_is_floating(p->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "\"bernoulli_tensor_cpu_p_\" not implemented for '%s'", nn_dtype_scalar_name(p->dtype));
        return NULL;
    }
    if (p->dtype == NN_FLOAT16) /* torch.bernoulli(p): the result, of p's dtype, is the kernel's self */
        return nn_error_set(NN_ERR_RUNTIME, "\"bernoulli_tensor_cpu_self_\" not implemented for 'Half'"), NULL;
    nn_tensor *pc = NULL;
    NN_WITH_GRAD_MODE(false, pc = nn_contiguous(p));
    if (!pc) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(pc), p->ndim, p->sizes, p->dtype);
    nn_kernel_args ka = {.t = {out, pc}, .gen = nn_current_generator()};
    if (out && NN_KERNEL(nn_backend_of(pc), sample, (NN_SAMPLE_BERNOULLI, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(pc);
    return out;
}

/* ------------------------------------------------------------ multinomial */

nn_tensor *nn_multinomial(nn_tensor *probs, int64_t n_samples, bool replacement)
{
    if (probs->ndim < 1 || probs->ndim > 2) {
        nn_error_set(NN_ERR_RUNTIME, "prob_dist must be 1 or 2 dim");
        return NULL;
    }
    if (!nn_dtype_is_floating(probs->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "multinomial only supports floating-point dtypes for input, got: %s",
                     nn_dtype_scalar_name(probs->dtype));
        return NULL;
    }
    if (probs->dtype == NN_FLOAT16) {
        nn_error_set(NN_ERR_RUNTIME, "multinomial is not implemented for half on CPU");
        return NULL;
    }
    if (n_samples <= 0) {
        nn_error_set(NN_ERR_RUNTIME, "cannot sample n_sample <= 0 samples");
        return NULL;
    }
    int64_t cats = probs->sizes[probs->ndim - 1], rows = probs->ndim == 2 ? probs->sizes[0] : 1;
    if (!replacement && n_samples > cats) {
        nn_error_set(NN_ERR_RUNTIME, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
        return NULL;
    }
    if (cats > (int64_t)1 << 24) {
        nn_error_set(NN_ERR_RUNTIME, "number of categories cannot exceed 2^24");
        return NULL;
    }
    int64_t sizes[2] = {rows, n_samples};
    nn_tensor *out = probs->ndim == 2 ? nn_empty_on(nn_device_of(probs), 2, sizes, NN_INT64)
                                      : nn_empty_on(nn_device_of(probs), 1, &n_samples, NN_INT64);
    if (!out || nn_numel(out) == 0) return out;
    nn_tensor *pc = NULL;
    NN_WITH_GRAD_MODE(false, pc = nn_contiguous(probs));
    if (!pc) {
        NN_RELEASE(out);
        return NULL;
    }
    /* without replacement 1.13's fast path (later versions also take it for one sample with replacement) */
    nn_kernel_args ka = {.t = {out, pc}, .i = {rows, cats, n_samples, replacement}, .gen = nn_current_generator()};
    int rc = NN_KERNEL(nn_backend_of(pc), sample, (NN_SAMPLE_MULTINOMIAL, &ka));
    NN_RELEASE(pc);
    if (rc < 0) NN_SET(out, NULL);
    return out;
}

/* ------------------------------------------------- normal with tensors */

/* normal_out_impl: standard normals of the broadcast shape (mean's dtype, or
   std's when mean is a number) times std, plus mean, each rounded. */
nn_tensor *nn_normal_tensor(nn_tensor *mean, double mean_v, nn_tensor *std, double std_v)
{
    if (std) {
        /* CHECK_NORMAL_TENSOR_STD */
        if (nn_numel(std) > 0) {
            nn_tensor *lo = NULL;
            double v = 0;
            NN_WITH_GRAD_MODE(false, lo = nn_min_all(std));
            int rc = lo ? nn_item(lo, &v) : -1;
            NN_RELEASE(lo);
            if (rc < 0) return NULL;
            if (!(v >= 0)) {
                nn_error_set(NN_ERR_RUNTIME, "normal expects all elements of std >= 0.0");
                return NULL;
            }
        }
    } else if (!(std_v >= 0)) {
        nn_error_set(NN_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", std_v);
        return NULL;
    }
    int ndim = 0;
    int64_t sizes[NN_MAX_DIMS];
    const nn_tensor *like = mean ? mean : std;
    if (mean && std) {
        if (nn_broadcast_shapes(mean->ndim, mean->sizes, std->ndim, std->sizes, &ndim, sizes) < 0) return NULL;
    } else {
        ndim = like->ndim;
        memcpy(sizes, like->sizes, sizeof(int64_t) * (size_t)ndim);
    }
    nn_tensor *z = nn_empty_on(nn_device_of(like), ndim, sizes, like->dtype), *p = NULL, *r = NULL;
    if (!z || nn_normal_(z, 0.0, 1.0) < 0) {
        NN_RELEASE(z);
        return NULL;
    }
    NN_WITH_GRAD_MODE(false, {
        p = std ? nn_mul(z, std) : nn_mul_scalar(z, std_v);
        r = !p ? NULL : mean ? nn_add(p, mean) : nn_add_scalar(p, mean_v);
    });
    NN_RELEASE(p);
    NN_RELEASE(z);
    return r;
}

/* t.bernoulli_(p) with a tensor p broadcast to t: p's draws cast to t's dtype. */
int nn_bernoulli_tensor_(nn_tensor *t, nn_tensor *p)
{
    if (nn_check_inplace(t) < 0) return -1;
    if (t->dtype == NN_FLOAT16 || p->dtype == NN_FLOAT16)
        return nn_error_set(NN_ERR_RUNTIME, "\"bernoulli_tensor_cpu_%s_\" not implemented for 'Half'",
                            t->dtype == NN_FLOAT16 ? "self" : "p");
    nn_tensor *pe = NULL, *s = NULL;
    int rc = -1;
    NN_WITH_GRAD_MODE(false, pe = nn_expand(p, t->ndim, t->sizes));
    if (pe && (s = nn_bernoulli_tensor(pe))) NN_WITH_GRAD_MODE(false, rc = nn_copy_(t, s));
    NN_RELEASE(pe);
    NN_RELEASE(s);
    return rc;
}
