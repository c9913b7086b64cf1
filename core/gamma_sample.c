/*
 * gamma_sample.c — torch._standard_gamma and torch._sample_dirichlet: one
 * standard gamma draw per element from the current generator, in element order,
 * with ATen's sample_gamma (the sample kernel's NN_SAMPLE_GAMMA,
 * core/cpu/sample.c), so a seeded run gives PyTorch's numbers; Dirichlet
 * normalizes float64 draws by their sum over the last dim, as ATen's
 * _s_dirichlet_cpu; binomial is ATen's sample_binomial (inversion, BTRS;
 * NN_SAMPLE_BINOMIAL, no gradient as in PyTorch). Gamma, Beta, Chi2, StudentT,
 * Dirichlet and Binomial sample through
 * them (repl/lib/torch.distributions.py). _standard_gamma's backward is
 * _standard_gamma_grad (core/gamma_grad.c); _sample_dirichlet's raises, as
 * PyTorch's (Dirichlet.rsample differentiates through _dirichlet_grad).
 */
#include <float.h>
#include <math.h>

#include "backend.h"
#include "nn_int.h"
#include "nn_gamma_sample.h"

static int check_dtype(const char *kernel, nn_dtype dt)
{
    if (dt == NN_FLOAT32 || dt == NN_FLOAT64) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, nn_dtype_scalar_name(dt));
}

/* draws at each concentration of alpha into a new tensor of dtype out_dt */
static nn_tensor *draw(nn_tensor *alpha, nn_dtype out_dt, bool as_double)
{
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_contiguous(alpha));
    nn_tensor *out = c ? nn_zeros_on(nn_device_of(c), alpha->ndim, alpha->sizes, out_dt) : NULL;
    nn_kernel_args ka = {.t = {out, c}, .i = {as_double}, .gen = nn_current_generator()};
    if (out && NN_KERNEL(nn_backend_of(c), sample, (NN_SAMPLE_GAMMA, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(c);
    return out;
}

nn_tensor *nn_standard_gamma(nn_tensor *alpha)
{
    if (check_dtype("gamma_cpu", alpha->dtype) < 0) return NULL;
    nn_tensor *out = draw(alpha, alpha->dtype, false);
    if (out && nn_record(NN_OP_standard_gamma, 1, &alpha, 1, &out, 2, (nn_tensor *[]){alpha, out}, NULL) < 0)
        NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_sample_dirichlet(nn_tensor *alpha)
{
    if (check_dtype("dirichlet", alpha->dtype) < 0) return NULL;
    nn_tensor *g = draw(alpha, NN_FLOAT64, true), *sum = NULL, *ratio = NULL, *out = NULL;
    NN_WITH_GRAD_MODE(false, {
        sum = g && alpha->ndim > 0 ? nn_sum(g, 1, (const int[]){-1}, true) : NULL;
        ratio = sum ? nn_div(g, sum) : NULL;
        if (g && alpha->ndim == 0) ratio = nn_div(g, g);
        nn_tensor *cast = ratio ? nn_to_dtype(ratio, alpha->dtype) : NULL;
        /* into [the dtype's smallest normal number, the largest value below 1] */
        double lo = alpha->dtype == NN_FLOAT64 ? DBL_MIN : FLT_MIN;
        double hi = alpha->dtype == NN_FLOAT64 ? nextafter(1.0, 0.0) : (double)nextafterf(1.0f, 0.0f);
        out = cast ? nn_clamp(cast, lo, true, hi, true) : NULL;
        NN_RELEASE(cast);
    });
    NN_RELEASE(g);
    NN_RELEASE(sum);
    NN_RELEASE(ratio);
    if (out && nn_record(NN_OP_sample_dirichlet, 1, &alpha, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_binomial(nn_tensor *count, nn_tensor *prob)
{
    if (check_dtype("binomial_cpu", count->dtype) < 0) return NULL;
    if (prob->dtype != count->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "expected scalar type %s but found %s", nn_dtype_scalar_name(count->dtype),
                     nn_dtype_scalar_name(prob->dtype));
        return NULL;
    }
    int nd;
    int64_t sizes[NN_MAX_DIMS];
    if (nn_broadcast_shapes(count->ndim, count->sizes, prob->ndim, prob->sizes, &nd, sizes) < 0) return NULL;
    nn_tensor *ec = NULL, *ep = NULL, *cc = NULL, *cp = NULL, *out = NULL;
    NN_WITH_GRAD_MODE(false, {
        ec = nn_expand(count, nd, sizes);
        ep = ec ? nn_expand(prob, nd, sizes) : NULL;
        cc = ep ? nn_contiguous(ec) : NULL;
        cp = cc ? nn_contiguous(ep) : NULL;
    });
    if (cp) out = nn_zeros_on(nn_device_of(cc), nd, sizes, count->dtype);
    nn_kernel_args ka = {.t = {out, cc, cp}, .gen = nn_current_generator()};
    if (out && NN_KERNEL(nn_backend_of(cc), sample, (NN_SAMPLE_BINOMIAL, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(ec);
    NN_RELEASE(ep);
    NN_RELEASE(cc);
    NN_RELEASE(cp);
    return out;
}

int nn_sample_dirichlet_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_error_set(NN_ERR_RUNTIME,
                        "derivative for aten::_sample_dirichlet is not implemented");
}
