/*
 * sampling_more.c — Tensor.cauchy_, geometric_ and log_normal_: one draw per
 * element from the current generator, in element order, as PyTorch 1.13's CPU
 * kernels draw them (at::cauchy_distribution<double>, geometric_distribution<double>,
 * lognormal_distribution<double>: the sample kernel's NN_SAMPLE_CAUCHY,
 * NN_SAMPLE_GEOMETRIC, NN_SAMPLE_LOG_NORMAL, core/cpu/sample_more.c), so a seeded
 * run gives PyTorch's numbers; PyTorch's argument checks and messages.
 */
#include "backend.h"
#include "nn_int.h"
#include "nn_sampling_more.h"

/* t filled in place by the sample kernel's op (through a contiguous copy when t is not) */
static int fill(nn_tensor *t, nn_sample_op op, double d0, double d1)
{
    nn_tensor *c = nn_is_contiguous(t) ? (nn_tensor *)nn_retain(&t->ob) : nn_empty_on(nn_device_of(t), t->ndim, t->sizes, t->dtype);
    if (!c) return -1;
    nn_kernel_args ka = {.t = {c}, .d = {d0, d1}, .gen = nn_current_generator()};
    int rc = NN_KERNEL(nn_backend_of(c), sample, (op, &ka));
    if (rc == 0 && c != t) NN_WITH_GRAD_MODE(false, rc = nn_copy_(t, c));
    NN_RELEASE(c);
    if (rc == 0 && c == t) nn_bump_version(t);
    return rc;
}

static int float_only(const char *kernel, const nn_tensor *t)
{
    if (nn_dtype_is_floating(t->dtype)) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, nn_dtype_scalar_name(t->dtype));
}

int nn_cauchy_(nn_tensor *t, double median, double sigma)
{
    if (nn_check_inplace(t) < 0 || float_only("cauchy_cpu", t) < 0) return -1;
    return fill(t, NN_SAMPLE_CAUCHY, median, sigma);
}

int nn_geometric_(nn_tensor *t, double p)
{
    if (nn_check_inplace(t) < 0) return -1;
    if (!(p > 0 && p < 1)) return nn_error_set(NN_ERR_RUNTIME, "geometric_ expects p to be in (0, 1), but got p=%g", p);
    if (t->dtype == NN_BOOL) return nn_error_set(NN_ERR_RUNTIME, "\"geometric_cpu\" not implemented for 'Bool'");
    return fill(t, NN_SAMPLE_GEOMETRIC, p, 0);
}

int nn_log_normal_(nn_tensor *t, double mean, double std)
{
    if (nn_check_inplace(t) < 0 || float_only("log_normal_cpu", t) < 0) return -1;
    if (!(std > 0.0)) return nn_error_set(NN_ERR_RUNTIME, "log_normal_ expects std > 0.0, but found std=%g", std);
    return fill(t, NN_SAMPLE_LOG_NORMAL, mean, std);
}
