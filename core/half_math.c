/*
 * half_math.c — the bfloat16 formulas where PyTorch 1.13's CPU kernels do not
 * round once: its scalar loops call c10's std:: overloads for BFloat16, which
 * return BFloat16, so a composite formula rounds each intermediate; its
 * vectorized loops (Vectorized<BFloat16>, 16 lanes, two vectors a step)
 * convert to float32 and round the result once. cpu_kernel_vec runs the
 * vectorized loop over each contiguous row's multiples of 32 elements (per
 * at::parallel_for range) and the scalar loop over the rest.
 */
#include <math.h>
#include <stdlib.h>

#include "nn_int.h"
#include "nn_half.h"
#include "nn_parallel.h"
#include "nn_scratch.h"
#include "nn_select_more.h"

/* cpu_kernel_vec's vector step for BFloat16 on AVX2: two Vectorized<BFloat16> of 16 */
#define BF16_VEC_STEP 32

nn_tensor *nn_bf16_scalar_tail_mask(nn_tensor *a)
{
    int64_t n = nn_numel(a), row = nn_is_contiguous(a) ? n : nn_dense_row(a);
    bool *m = malloc(n > 0 ? (size_t)n : 1);
    if (!m) return nn_error_set(NN_ERR_MEMORY, "out of memory"), NULL;
    if (row <= 0) { /* a strided inner dim: the scalar loop everywhere */
        for (int64_t i = 0; i < n; i++) m[i] = true;
    } else {
        /* a contiguous tensor is one row cut into at::parallel_for's ranges;
           a strided one's rows are the inner loops */
        int64_t range = row == n ? nn_aten_range_length(n) : row;
        for (int64_t start = 0; start < n; start += range) {
            int64_t len = n - start < range ? n - start : range, vec = len - len % BF16_VEC_STEP;
            for (int64_t i = 0; i < len; i++) m[start + i] = i >= vec;
        }
    }
    nn_tensor *r = nn_from_data_on(nn_device_of(a), m, a->ndim, a->sizes, NN_BOOL);
    free(m);
    return r;
}

/* where(mask, scalar_form, vector_form) (all borrowed); new reference */
static nn_tensor *split(nn_tensor *a, nn_tensor *scalar_form, nn_tensor *vector_form)
{
    nn_tensor *mask = nn_bf16_scalar_tail_mask(a), *r = mask ? nn_where(mask, scalar_form, vector_form) : NULL;
    NN_RELEASE(mask);
    return r;
}

/* 1 / sqrt(a): the scalar loop's sqrt rounds to bfloat16 first */
nn_tensor *nn_bf16_rsqrt_value(nn_tensor *a, nn_tensor *vector_form)
{
    nn_tensor *s = NULL, *t = NULL, *r = NULL;
    NN_WITH_GRAD_MODE(false, s = nn_sqrt(a); t = s ? nn_reciprocal(s) : NULL; r = t ? split(a, t, vector_form) : NULL);
    NN_RELEASE(s);
    NN_RELEASE(t);
    return r;
}

/* xlogy's kernel is scalar only: nan where y is nan, 0 where x == 0, else
   x * log(y) with log rounded to bfloat16. a, b: already bfloat16, broadcast. */
nn_tensor *nn_bf16_xlogy_value(nn_tensor *a, nn_tensor *b)
{
    nn_tensor *l = NULL, *p = NULL, *zero = NULL, *nan = NULL, *xz = NULL, *yn = NULL, *q = NULL, *r = NULL;
    NN_WITH_GRAD_MODE(false, {
        l = nn_log(b);
        p = l ? nn_mul(a, l) : NULL;
        zero = nn_scalar(0.0, NN_BFLOAT16);
        nan = nn_scalar(NAN, NN_BFLOAT16);
        xz = zero ? nn_compare(a, zero, NN_EQ) : NULL;
        yn = nn_compare(b, b, NN_NE);
        q = p && xz ? nn_where(xz, zero, p) : NULL;
        r = q && yn && nan ? nn_where(yn, nan, q) : NULL;
    });
    NN_RELEASE(l);
    NN_RELEASE(p);
    NN_RELEASE(zero);
    NN_RELEASE(nan);
    NN_RELEASE(xz);
    NN_RELEASE(yn);
    NN_RELEASE(q);
    return r;
}

int nn_refuse_half(const char *kernel, nn_dtype dt, bool bf16_too)
{
    if (dt != NN_FLOAT16 && !(bf16_too && dt == NN_BFLOAT16)) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, nn_dtype_scalar_name(dt));
}

/* log_softmax of bfloat16 a along its last dim d, as 1.13's lastdim kernel:
   in float32, the sum of exp(x - max) and its log each rounded to bfloat16,
   then (x - max) - log rounded once. No autograd; new reference. */
nn_tensor *nn_bf16_log_softmax_lastdim(nn_tensor *a, int d)
{
    nn_scratch s = {0};
    nn_tensor *out = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *x = NN_KEEP(&s, nn_to_dtype(a, NN_FLOAT32));
        nn_tensor *m = x ? NN_KEEP(&s, nn_amax(x, 1, &d, true)) : NULL;
        nn_tensor *dx = m ? NN_KEEP(&s, nn_sub(x, m)) : NULL;
        nn_tensor *e = dx ? NN_KEEP(&s, nn_exp(dx)) : NULL;
        nn_tensor *sum = e ? NN_KEEP(&s, nn_sum(e, 1, &d, true)) : NULL;
        nn_tensor *sb = sum ? NN_KEEP(&s, nn_to_dtype(sum, NN_BFLOAT16)) : NULL;
        nn_tensor *l = sb ? NN_KEEP(&s, nn_log(sb)) : NULL; /* bfloat16: log in float32, rounded */
        nn_tensor *l32 = l ? NN_KEEP(&s, nn_to_dtype(l, NN_FLOAT32)) : NULL;
        nn_tensor *r = l32 ? NN_KEEP(&s, nn_sub(dx, l32)) : NULL;
        out = r ? nn_to_dtype(r, NN_BFLOAT16) : NULL;
    });
    nn_scratch_free(&s);
    return out;
}

/* ------------------------------------------------------ bfloat16 products */

/* Below oneDNN's size (m * n * k <= 4096), or at any size on a CPU where ATen
   does not hand bfloat16 to oneDNN (nn_onednn_bf16), PyTorch 1.13 multiplies
   bfloat16 matrices with cpublas's plain loops: gemm_notrans_/gemm_transb_ (the
   right operand not column-major), the bmm and gemv loops and dot_naive add each
   product, rounded to bfloat16, to a bfloat16 sum, k in order. Above it, and
   gemm_transa_ (a column-major right operand, as nn.Linear's weight.t()), the
   sum is float32 rounded once. */
#define BF16_PLAIN_MAX 4096

bool nn_bf16_plain_product(const nn_tensor *a, const nn_tensor *b, int kind)
{
    int64_t n = 1, k = 1, m = 1, batch = 1;
    switch (kind) {
    case 0: /* mm, bmm: a [(B,) n, k], b [(B,) k, m] */
        if (a->ndim == 3) batch = a->sizes[0];
        n = a->sizes[a->ndim - 2], k = a->sizes[a->ndim - 1], m = b->sizes[b->ndim - 1];
        /* addmm_impl_cpu_'s layout test: row-major first, then column-major (else copied row-major) */
        if (a->ndim == 2 && !(b->strides[1] == 1 && b->strides[0] >= (m > 1 ? m : 1)) && b->strides[0] == 1 &&
            b->strides[1] >= (k > 1 ? k : 1))
            return false; /* column-major right operand: gemm_transa_'s float sum */
        break;
    case 1: /* mv: a [n, k] */
        n = a->sizes[0], k = a->sizes[1];
        break;
    default: /* dot of [k] */
        k = a->sizes[0];
        break;
    }
    return batch * n * k * m <= BF16_PLAIN_MAX || !nn_onednn_bf16();
}

/* out = a @ b as the plain loops (a [(B,) n, k], b [(B,) k, m], both bfloat16;
   out bfloat16 [(B,) n, m]). No autograd; new reference. */
nn_tensor *nn_bf16_plain_matmul(nn_tensor *a, nn_tensor *b)
{
    int da = a->ndim - 1, db = b->ndim - 2;
    int64_t k = a->sizes[da], sizes[3];
    for (int d = 0; d < a->ndim - 1; d++) sizes[d] = a->sizes[d];
    sizes[a->ndim - 1] = b->sizes[b->ndim - 1];
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *acc = nn_zeros_on(nn_device_of(a), a->ndim, sizes, NN_BFLOAT16);
    for (int64_t l = 0; l < k && acc; l++) {
        nn_tensor *col = nn_narrow(a, da, l, 1), *row = col ? nn_narrow(b, db, l, 1) : NULL;
        nn_tensor *p = row ? nn_mul(col, row) : NULL, *s = p ? nn_add(acc, p) : NULL;
        NN_RELEASE(col);
        NN_RELEASE(row);
        NN_RELEASE(p);
        NN_SET(acc, s);
    }
    nn_set_grad_enabled(prev);
    return acc;
}
