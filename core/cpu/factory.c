/*
 * cpu/factory.c — the CPU's kernels of the factories whose elements follow
 * from their index (kernels.def `arange`, `linspace`); core/tensor.c checks
 * the arguments and allocates.
 */
#include <math.h>

#include "nn_cpu.h"

int nn_cpu_arange(nn_tensor *t, double start, double step)
{
    char *p = nn_data_ptr(t);
    nn_dtype dt = t->dtype;
    size_t es = nn_dtype_size(dt);
    int64_t size = t->ndim ? t->sizes[0] : 1;
    for (int64_t i = 0; i < size; i++) {
        if (dt == NN_INT64)
            ((int64_t *)p)[i] = (int64_t)start + i * (int64_t)step;
        else
            nn_store_double(p + (size_t)i * es, dt, start + step * (double)i);
    }
    return 0;
}

int nn_cpu_linspace(nn_tensor *t, double start, double end)
{
    char *p = nn_data_ptr(t);
    nn_dtype dtype = t->dtype;
    size_t es = nn_dtype_size(dtype);
    int64_t steps = t->ndim ? t->sizes[0] : 1;
    if (steps == 1) nn_store_double(p, dtype, start);
    if (steps > 1) {
        /* PyTorch's kernel: the first half counts up from start, the second down
           from end, in the result's precision (double for integers). Its AVX2
           path takes blocks of V lanes (8 floats, 4 doubles), two blocks at a
           time: the block base is a fused multiply-add, each lane base + k * step;
           the tail runs the scalar formula, which the compiler fuses too (the file
           is built with FMA: linspace(-1, 1, 7)[3] is -2.98e-08, not 0). Matching
           it gives PyTorch's bits. */
        int64_t half = steps / 2;
        bool single = dtype == NN_FLOAT32 || dtype == NN_FLOAT16 || dtype == NN_BFLOAT16;
        int64_t lanes = single ? 8 : dtype == NN_FLOAT64 ? 4 : 1;
        int64_t vector_end = lanes > 1 ? steps / (2 * lanes) * (2 * lanes) : 0;
        float fs = (float)start, fe = (float)end, fstep = (fe - fs) / (float)(steps - 1);
        double step = (end - start) / (double)(steps - 1);
        for (int64_t i = 0; i < steps; i++) {
            bool vector = i < vector_end;
            int64_t b = vector ? i - i % lanes : i; /* index the lane block starts at */
            int64_t back = steps - b - 1;
            double v;
            if (single) {
                float base = b < half ? fmaf(fstep, (float)b, fs) : fmaf(-fstep, (float)back, fe);
                v = base + (float)(i - b) * fstep;
            } else {
                double base = b < half ? fma(step, (double)b, start) : fma(-step, (double)back, end);
                v = base + (double)(i - b) * step;
            }
            nn_store_double(p + (size_t)i * es, dtype, v);
        }
    }
    return 0;
}

/* v as a value of dt (rounded to it, then read back as a double). */
static double in_dtype(nn_dtype dt, double v)
{
    unsigned char buf[16];
    nn_store_double(buf, dt, v);
    return nn_load_double(buf, dt);
}

int nn_cpu_logspace(nn_tensor *t, double start, double end, double base)
{
    char *p = nn_data_ptr(t);
    nn_dtype dtype = t->dtype;
    size_t es = nn_dtype_size(dtype);
    int64_t steps = t->ndim ? t->sizes[0] : 1;
    if (steps == 1) nn_store_double(p, dtype, pow(base, start));
    if (steps > 1) {
        /* ATen's loop: start and end in the result's type, the step in double, the
           first half counting up from start and the second down from end; an
           integer result takes a float base */
        bool integral = !nn_dtype_is_floating(dtype);
        double s = in_dtype(dtype, start), e = in_dtype(dtype, end);
        double b = integral ? (double)(float)base : base;
        double step = (e - s) / (double)(steps - 1);
        int64_t half = steps / 2;
        for (int64_t i = 0; i < steps; i++) {
            double x = i < half ? s + step * (double)i : e - step * (double)(steps - i - 1);
            nn_store_double(p + (size_t)i * es, dtype, pow(b, x));
        }
    }
    return 0;
}
