/*
 * poisson.c — torch.poisson: one draw per element from the current generator,
 * in element order, with ATen's sample_poisson (NumPy's algorithms: the
 * product of uniforms below rate 10, Hoermann's transformed rejection from
 * 10 up), each uniform a double from random64 as at::uniform_real_distribution
 * draws it; so a seeded run gives PyTorch's numbers: the sample kernel's
 * NN_SAMPLE_POISSON (core/cpu/sample.c).
 */
#include <math.h>

#include "backend.h"
#include "nn_int.h"
#include "nn_ops_extra.h"

nn_tensor *nn_poisson(nn_tensor *rates)
{
    if (!nn_dtype_is_floating(rates->dtype) || rates->dtype == NN_FLOAT16 || rates->dtype == NN_BFLOAT16) {
        nn_error_set(NN_ERR_RUNTIME, "\"poisson_cpu\" not implemented for '%s'", nn_dtype_scalar_name(rates->dtype));
        return NULL;
    }
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_contiguous(rates));
    nn_tensor *out = c ? nn_zeros_on(nn_device_of(c), rates->ndim, rates->sizes, rates->dtype) : NULL;
    nn_kernel_args ka = {.t = {out, c}, .gen = nn_current_generator()};
    if (!out || NN_KERNEL(nn_backend_of(c), sample, (NN_SAMPLE_POISSON, &ka)) < 0) {
        NN_RELEASE(c);
        NN_RELEASE(out);
        return NULL;
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
