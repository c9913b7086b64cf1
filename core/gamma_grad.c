/*
 * gamma_grad.c — torch._standard_gamma_grad and torch._dirichlet_grad, the
 * reparameterized gradients of the gamma and Dirichlet samplers (the sample
 * kernel's NN_SAMPLE_GAMMA_GRAD / NN_SAMPLE_DIRICHLET_GRAD, core/cpu/gamma_grad_kernel.c),
 * and _standard_gamma's backward through them, as PyTorch 1.13 differentiates
 * Gamma/Chi2/Beta/StudentT.rsample. Operands broadcast, of one float dtype.
 */
#include "backend.h"
#include "nn_int.h"
#include "nn_gamma_sample.h"

/* the n operands broadcast, contiguous, into out[]; the result's empty tensor in out[n] */
static int elementwise_operands(const char *kernel, int n, nn_tensor *const *in, nn_tensor **out)
{
    nn_dtype dt = in[0]->dtype;
    if (dt != NN_FLOAT32 && dt != NN_FLOAT64)
        return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, nn_dtype_scalar_name(dt));
    int nd = in[0]->ndim;
    int64_t sizes[NN_MAX_DIMS];
    for (int d = 0; d < nd; d++) sizes[d] = in[0]->sizes[d];
    for (int k = 1; k < n; k++) {
        if (in[k]->dtype != dt)
            return nn_error_set(NN_ERR_RUNTIME, "Found dtype %s but expected %s", nn_dtype_scalar_name(in[k]->dtype),
                                nn_dtype_scalar_name(dt));
        if (nn_broadcast_shapes(nd, sizes, in[k]->ndim, in[k]->sizes, &nd, sizes) < 0) return -1;
    }
    nn_device dev = nn_device_of(in[0]);
    if (nn_common_device(n, in, &dev) < 0) return -1;
    int rc = 0;
    NN_WITH_GRAD_MODE(false, {
        for (int k = 0; k < n && rc == 0; k++) {
            nn_tensor *e = nn_expand(in[k], nd, sizes);
            out[k] = e ? nn_contiguous(e) : NULL;
            NN_RELEASE(e);
            if (!out[k]) rc = -1;
        }
        if (rc == 0 && !(out[n] = nn_empty_on(dev, nd, sizes, dt))) rc = -1;
    });
    return rc;
}

static nn_tensor *run(nn_sample_op op, const char *kernel, int n, nn_tensor *const *in)
{
    nn_tensor *ops[4] = {0};
    nn_tensor *r = NULL;
    if (elementwise_operands(kernel, n, in, ops) == 0) {
        nn_kernel_args ka = {.t = {ops[n], ops[0], ops[1], ops[2]}};
        if (NN_KERNEL(nn_backend_of(ops[n]), sample, (op, &ka)) == 0) r = ops[n], ops[n] = NULL;
    }
    for (int k = 0; k <= n; k++) NN_RELEASE(ops[k]);
    return r;
}

nn_tensor *nn_standard_gamma_grad(nn_tensor *alpha, nn_tensor *x)
{
    return run(NN_SAMPLE_GAMMA_GRAD, "_standard_gamma_grad_cpu", 2, (nn_tensor *const[]){alpha, x});
}

nn_tensor *nn_dirichlet_grad(nn_tensor *x, nn_tensor *alpha, nn_tensor *total)
{
    return run(NN_SAMPLE_DIRICHLET_GRAD, "_dirichlet_grad_cpu", 3, (nn_tensor *const[]){x, alpha, total});
}

/* PyTorch's derivative: grad * _standard_gamma_grad(self, result) */
int nn_standard_gamma_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *alpha = nn_node_saved(n, 0), *x = nn_node_saved(n, 1);
    nn_tensor *d = nn_standard_gamma_grad(alpha, x);
    gin[0] = d ? nn_mul(gout[0], d) : NULL;
    NN_RELEASE(d);
    return gin[0] ? 0 : -1;
}
