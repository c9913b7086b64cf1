/*
 * cpu/vmath_ops.c — the math kernel's vmath codes (core/backend.h): PyTorch's
 * float32 CPU kernels with Sleef and AVX2+FMA (cpu/vmath.c) behind the kernel
 * boundary, for unary.c's exp/log/tanh/sigmoid and activations, their
 * gradients, and binary.c's pow of a number (float64 exp/log/tanh/sigmoid
 * too: cpu/vmath_f64.c). host[0] says whether this CPU ran
 * them (1) or lacks AVX2+FMA (0, the op then computes another way).
 */
#include <math.h>

#include "nn_cpu.h"
#include "nn_vmath.h"

/* float64 operands (cpu/vmath_f64.c): vmath_map of exp, log and tanh, and
   vmath_act of sigmoid over rows of i[1] elements (n > 0) */
static int vmath_f64(nn_math_op op, nn_kernel_args *a)
{
    double *y = nn_data_ptr(a->t[0]);
    const double *x = nn_data_ptr(a->t[1]);
    int64_t n = nn_numel(a->t[0]);
    if (op == NN_MATH_vmath_map) a->host[0] = nn_vmath_map_f64((nn_vfn)a->i[0], y, x, n);
    else if (op == NN_MATH_vmath_act && a->i[0] == NN_VACT_SIGMOID) a->host[0] = nn_vmath_sigmoid_f64(y, x, n, a->i[1]);
    return 0;
}

int nn_cpu_math_vmath(nn_math_op op, nn_kernel_args *a)
{
    a->host[0] = 0;
    if (nn_dtype_is_complex(a->t[0]->dtype)) { /* vmath_map of the nn_vcx i[0] only */
        if (op == NN_MATH_vmath_map)
            a->host[0] = nn_vmath_complex((nn_vcx)a->i[0], a->t[0]->dtype == NN_COMPLEX128, nn_data_ptr(a->t[0]),
                                          nn_data_ptr(a->t[1]), nn_numel(a->t[0])) > 0;
        return 0;
    }
    if (a->t[0]->dtype == NN_FLOAT64) return vmath_f64(op, a);
    if (!nn_vmath_available()) return 0;
    float *y = nn_data_ptr(a->t[0]);
    const float *x = nn_data_ptr(a->t[1]);
    int64_t n = nn_numel(a->t[0]);
    a->host[0] = 1;
    if (n == 0) return 0;
    switch (op) {
    case NN_MATH_vmath_map: nn_vmath_map_f32((nn_vfn)a->i[0], y, x, n); return 0;
    case NN_MATH_vmath_act: {
        const float p[3] = {(float)a->d[0], (float)a->d[1], (float)a->d[2]};
        nn_vmath_act_f32((nn_vact)a->i[0], y, x, n, a->i[1], a->i[3] ? p : NULL, a->i[2] != 0);
        return 0;
    }
    case NN_MATH_vmath_act_grad: nn_vmath_act_grad_f32((nn_vact)a->i[0], y, x, nn_data_ptr(a->t[2]), n, true); return 0;
    case NN_MATH_vmath_pow: {
        double e = a->d[0];
        if (e == 0.5 || e == -0.5 || e == -1)
            for (int64_t i = 0; i < n; i++) y[i] = e == -1 ? 1.0f / x[i] : e > 0 ? sqrtf(x[i]) : 1.0f / sqrtf(x[i]);
        else nn_vmath_pow_f32(y, x, n, e);
        return 0;
    }
    default: break;
    }
    return nn_error_set(NN_ERR_RUNTIME, "math kernel: unknown op code %d", (int)op);
}
