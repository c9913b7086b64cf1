/*
 * nn_half.h — half_math.c: the bfloat16 formulas where PyTorch 1.13's scalar
 * loop rounds between steps (see half_math.c). Internal to core.
 */
#ifndef NN_HALF_H
#define NN_HALF_H

#include "nn.h"

/* bool, shaped as a: where cpu_kernel_vec runs its scalar loop over a (new reference) */
nn_tensor *nn_bf16_scalar_tail_mask(nn_tensor *a);
/* rsqrt of bfloat16 a: vector_form (borrowed) where the vector loop runs, 1 / bf16(sqrt) elsewhere */
nn_tensor *nn_bf16_rsqrt_value(nn_tensor *a, nn_tensor *vector_form);
/* xlogy of bfloat16 a, b (broadcast alike), log rounded before the product; no autograd */
nn_tensor *nn_bf16_xlogy_value(nn_tensor *a, nn_tensor *b);

/* PyTorch 1.13's CPU kernels that lack float16 (and, bf16_too, bfloat16): -1 with its
   RuntimeError ("kernel" not implemented for 'Half') when dt is one, else 0 */
int nn_refuse_half(const char *kernel, nn_dtype dt, bool bf16_too);

/* log_softmax of bfloat16 a along its last dim d (1.13's rounding steps); no autograd */
nn_tensor *nn_bf16_log_softmax_lastdim(nn_tensor *a, int d);

/* Whether PyTorch 1.13 multiplies these bfloat16 operands with its plain loops
   (kind 0: mm/bmm a @ b, 1: mv of matrix a, 2: dot of vector a) */
bool nn_bf16_plain_product(const nn_tensor *a, const nn_tensor *b, int kind);
/* a @ b (a [(B,) n, k], b [(B,) k, m], bfloat16) as those loops round; no autograd */
nn_tensor *nn_bf16_plain_matmul(nn_tensor *a, nn_tensor *b);

#endif
