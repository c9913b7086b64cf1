/*
 * cpu/matmul_loop.c — the CPU's `matmul_loop` kernel (core/kernels.def): batched
 * matrix products by plain loops, where PyTorch's CPU kernels use them instead of
 * BLAS: bmm of small float32/float64 matrices (ATen's baddbmm_cpu_kernel: each
 * element a sum from zero in k order, in the dtype) and every integer product
 * (wrapping on overflow). Moved from matmul.c.
 */
#include "nn_cpu.h"

/* out[q] = a[q] @ b[q] in T, each element summed from zero in k order */
#define LOOP_BMM(NAME, T)                                                                        \
    static void NAME(nn_tensor *out, const nn_tensor *a, const nn_tensor *b)                     \
    {                                                                                            \
        int64_t bs = out->sizes[0], is = out->sizes[1], js = out->sizes[2], ks = a->sizes[2];    \
        const T *pa = nn_data_ptr(a), *pb = nn_data_ptr(b);                                      \
        T *po = nn_data_ptr(out);                                                                \
        for (int64_t q = 0; q < bs; q++)                                                         \
            for (int64_t i = 0; i < is; i++)                                                     \
                for (int64_t j = 0; j < js; j++) {                                               \
                    T acc = 0;                                                                   \
                    for (int64_t p = 0; p < ks; p++)                                             \
                        acc += pa[q * a->strides[0] + i * a->strides[1] + p * a->strides[2]] *   \
                               pb[q * b->strides[0] + p * b->strides[1] + j * b->strides[2]];    \
                    po[(q * is + i) * js + j] = acc;                                             \
                }                                                                                \
    }
LOOP_BMM(loop_f32, float)
LOOP_BMM(loop_f64, double)

/* out[q] = a[q] @ b[q] summed in uint64 (wrapping as PyTorch's integer kernels),
   a and b read in their own integer dtypes, stored in out's */
static void loop_int(nn_tensor *out, const nn_tensor *a, const nn_tensor *b)
{
    int64_t bs = out->sizes[0], is = out->sizes[1], js = out->sizes[2], ks = a->sizes[2];
    const char *pa = nn_data_ptr(a), *pb = nn_data_ptr(b);
    char *po = nn_data_ptr(out);
    size_t ea = nn_dtype_size(a->dtype), eb = nn_dtype_size(b->dtype), eo = nn_dtype_size(out->dtype);
    nn_dtype dt = out->dtype;
    for (int64_t q = 0; q < bs; q++)
        for (int64_t i = 0; i < is; i++)
            for (int64_t j = 0; j < js; j++) {
                uint64_t acc = 0;
                for (int64_t p = 0; p < ks; p++)
                    acc += (uint64_t)nn_load_int64(pa + (q * a->strides[0] + i * a->strides[1] + p * a->strides[2]) * (int64_t)ea,
                                            a->dtype) *
                           (uint64_t)nn_load_int64(pb + (q * b->strides[0] + p * b->strides[1] + j * b->strides[2]) * (int64_t)eb,
                                            b->dtype);
                char *o = po + ((q * is + i) * js + j) * (int64_t)eo;
                if (dt == NN_INT64) *(int64_t *)o = (int64_t)acc;
                else if (dt == NN_INT32) *(int32_t *)o = (int32_t)(uint32_t)acc;
                else /* the low bits, as the small types wrap */
                    nn_store_double(o, dt, (double)(int64_t)(acc & 0xffff));
            }
}

int nn_cpu_matmul_loop(nn_tensor *out, const nn_tensor *a, const nn_tensor *b)
{
    if (out->dtype == NN_FLOAT32) loop_f32(out, a, b);
    else if (out->dtype == NN_FLOAT64) loop_f64(out, a, b);
    else loop_int(out, a, b);
    return 0;
}
