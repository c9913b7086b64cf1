/*
 * cpu/sample_more.c — the sample kernel's NN_SAMPLE_CAUCHY, NN_SAMPLE_GEOMETRIC and
 * NN_SAMPLE_LOG_NORMAL: one draw per element of t[0] (contiguous), in element
 * order, each in double as PyTorch 1.13's CPU kernels compute it and then rounded
 * to t[0]'s dtype: median + sigma * tan(pi * (u - 0.5)); ceil(log(u) / log(1 - p));
 * exp of a Box-Muller normal (the generator's cached double normal first), with u
 * at::uniform_real_distribution<double>'s draw.
 */
#include <math.h>

#include "nn_cpu.h"

int nn_cpu_sample_more(nn_sample_op op, nn_kernel_args *a)
{
    nn_tensor *t = a->t[0];
    char *d = nn_data_ptr(t);
    size_t es = nn_dtype_size(t->dtype);
    int64_t n = nn_numel(t);
    for (int64_t i = 0; i < n; i++) {
        double v;
        if (op == NN_SAMPLE_CAUCHY)
            v = a->d[0] + a->d[1] * tan(3.14159265358979323846 * (nn_generator_uniform(a->gen) - 0.5));
        else if (op == NN_SAMPLE_GEOMETRIC)
            v = ceil(log(nn_generator_uniform(a->gen)) / log(1.0 - a->d[0]));
        else
            v = exp(nn_cpu_normal_double(a->gen, a->d[0], a->d[1]));
        nn_store_double(d + (size_t)i * es, t->dtype, v);
    }
    return 0;
}
