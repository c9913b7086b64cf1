/*
 * backend.h — core's private kernel boundary: one table of function pointers
 * per device type (ggml's backend interface in spirit). Memory (allocate,
 * free, copies to and from the host, synchronize) and the compute kernels of
 * core/kernels.def go through it; nothing else in core touches a non-host
 * device's memory.
 *
 * How an op reaches a kernel: an op file (core/binary.c, core/matmul.c, ...)
 * validates its arguments, checks that they share a device
 * (nn_check_same_device), promotes and broadcasts, allocates its outputs on
 * that device (nn_empty_on / nn_empty_like), then calls
 * NN_KERNEL(nn_backend_of(t), name, (args)), which runs the backend's kernel or
 * raises NotImplementedError naming the kernel and the backend. The backends:
 *   core/cpu/       the CPU (always registered; kernels nn_cpu_<name>)
 *   core/loopback/  a test device: CPU kernels over memory host code may not
 *                   read (poisoned under AddressSanitizer), registered by tests
 *   core/cuda/      the CUDA backend, compiled only with `make CUDA=1`
 * Only kernels, this file's transfer helpers (core/backend.c) and the
 * host-access contract in nn.h (nn_host_read and friends) dereference a
 * storage's data pointer.
 */
#ifndef NN_BACKEND_H
#define NN_BACKEND_H

#include "nn_conv.h"
#include "nn_conv3d.h"
#include "nn_optim_more.h"

/* The elementwise binary kernel's op codes. */
typedef enum nn_binop {
    NN_BINOP_ADD, NN_BINOP_SUB, NN_BINOP_MUL, NN_BINOP_DIV, NN_BINOP_POW, NN_BINOP_MAX, NN_BINOP_MIN,
    NN_BINOP_FLOORDIV, NN_BINOP_MOD,
    NN_BINOP_AND, NN_BINOP_OR, NN_BINOP_XOR, /* integer operands (float ones: on their truncated values) */
    NN_BINOP_EQ, NN_BINOP_NE, NN_BINOP_LT, NN_BINOP_LE, NN_BINOP_GT, NN_BINOP_GE,
    NN_BINOP_FMOD, /* C's fmod: the dividend's sign (torch.fmod) */
    NN_BINOP_COUNT
} nn_binop;
/* binary_compute's path for a complex operand (core/complex.c) */
nn_tensor *nn_complex_binary(nn_binop op, nn_tensor *a, nn_tensor *b, double alpha, nn_tensor *into);

/* What the random kernel draws. */
typedef enum nn_random_dist {
    NN_RANDOM_UNIFORM,     /* [a, b) */
    NN_RANDOM_NORMAL,      /* mean a, std b */
    NN_RANDOM_BERNOULLI,   /* 1 with probability a */
    NN_RANDOM_INT,         /* base + draw % range, draws of 64 bits when wide */
    NN_RANDOM_PERMUTATION, /* a random permutation of 0..n-1 */
} nn_random_dist;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_RANDOM_DIST_COUNT (NN_RANDOM_PERMUTATION + 1)

typedef struct nn_random_params {
    nn_random_dist dist;
    double a, b;
    int64_t base;
    uint64_t range;
    bool wide;
} nn_random_params;

/* The reduce kernel's op codes. */
typedef enum nn_reduce_op {
    NN_REDUCE_SUM, NN_REDUCE_VAR, NN_REDUCE_STD, NN_REDUCE_MAX, NN_REDUCE_MIN, NN_REDUCE_NORM,
    NN_REDUCE_CASCADE_SUM, /* the losses' sum of one row (outer 1), at::sum's cascade order; mean when p != 0 */
    NN_REDUCE_COLUMNS,     /* values[i] = the sum of column i (float32/float64), at::sum_to's cascade order; mean when p != 0 */
    NN_REDUCE_ROWS,        /* as SUM (p the divisor), float32 rows in ATen's order for sums over trailing dims */
    /* float32 x as it is (any strides, not the [outer, inner] copy) summed over the dims
       whose bit is set in p into values [outer] in TensorIterator's order; p + 2^16
       for a mean (each sum then divided by inner in float) */
    NN_REDUCE_STRIDED,
    /* PyTorch 1.13's CPU orders for float32 (core/reduce_exact.c decides when):
       VAR_ALL/STD_ALL: values (0-dim) = the var (std) of all of x (any strides, inner
       elements, not empty) as std_var_all_cpu: the float32 cascade mean, the squared
       deviations summed in double over x's walk, p the correction;
       NORM_SEQ: values[o] = the p-norm of row o of x [outer, inner] (contiguous) with
       one float32 accumulator in memory order; NORM2_LASTDIM: the 2-norm of each row
       by the vectorized loop of a reduction over the innermost dims */
    NN_REDUCE_VAR_ALL_F32, NN_REDUCE_STD_ALL_F32, NN_REDUCE_NORM_SEQ_F32, NN_REDUCE_NORM2_LASTDIM_F32,
    /* float32 x as it is (any strides, a 0-dim x as one element) multiplied over the
       dims whose bit is set in p into values in the order of 1.13's prod_kernel_impl */
    NN_REDUCE_PROD_STRIDED_F32,
} nn_reduce_op;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_REDUCE_OP_COUNT (NN_REDUCE_PROD_STRIDED_F32 + 1)

/* The unary kernel's op codes (core/unary_ops.def) and parameters. */
typedef enum nn_unary_op {
    NN_UNARY_NONE = -1,
#define UNARY_OP(name) NN_UNARY_##name,
#include "unary_ops.def"
#undef UNARY_OP
} nn_unary_op;
/* the number of codes (tests/core/test_backend.c checks each has a case) */
enum {
    NN_UNARY_COUNT = 0
#define UNARY_OP(name) + 1
#include "unary_ops.def"
#undef UNARY_OP
};

typedef struct nn_unary_params {
    int k;           /* the formula (an nn_unary_op), as PyTorch's scalar loop computes it */
    int vec;         /* its vectorized loop's variant for a dense run, or NN_UNARY_NONE */
    bool vec_all;    /* vec covers every element (oneDNN), not only multiples of 16 */
    double d[2];     /* the op's parameters as double ... */
    float f[2];      /* ... as float ... */
    int64_t i[2];    /* ... and as int64 */
} nn_unary_params;

/* The arguments of the kernels that take an op code and a set of operands
   (loss, norm, index, optim_step): tensors on the kernel's device in t[] (NULL:
   absent), scalars in d[] and i[], each code's slots as its enum's comment says;
   host[] receives the scalars the op needs back on the host (written by the
   kernel: a device's kernel copies them back after its work). */
typedef struct nn_kernel_args {
    nn_tensor *t[8];
    double d[8];
    int64_t i[8];
    double host[2];
    nn_generator *gen; /* the generator of an op that draws (host state, as the random kernel's) */
} nn_kernel_args;

/* The loss kernel's op codes. */
typedef enum nn_loss_op {
    /* nll_loss forward: t[0] out ([N] for reduction none, else 0-dim), t[1] x [N, C]
       contiguous float32/float64, t[2] targets [N] int64, t[3] weight [C] or NULL;
       i[0] N, i[1] C, i[2] ignore_index, i[3] the nn_reduction; host[0] the total
       weight (PyTorch's 8-level cascade sum, as its CPU kernel). IndexError for a
       target out of [0, C). */
    NN_LOSS_NLL,
    /* nll_loss backward's mask: t[0] bool [N, C] (all false on entry) set true at
       [b, target[b]] for each target not ignored; t[2], i[0..2] as NN_LOSS_NLL. */
    NN_LOSS_NLL_MASK,
    /* elementwise, t[0] out = loss(t[1] input, t[2] target), contiguous, of one float
       dtype: binary cross entropy (RuntimeError for an input outside [0, 1]),
       smooth L1 and Huber with beta (delta) d[0] */
    NN_LOSS_BCE, NN_LOSS_SMOOTH_L1, NN_LOSS_HUBER,
    /* mse_loss's unreduced (a - b)^2: t[0] out, t[1] a, t[2] b of out's shape (broadcast
       views), one floating dtype (half rounds after each step as PyTorch's) */
    NN_LOSS_MSE,
} nn_loss_op;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_LOSS_OP_COUNT (NN_LOSS_MSE + 1)

/* The norm kernel's op codes (rows of N elements, contiguous, float32/float64). */
typedef enum nn_norm_op {
    /* layer_norm forward: t[0] y [M, N], t[1] mean [M], t[2] rstd [M], t[3] x, t[4] weight
       [N] or NULL, t[5] bias [N] or NULL; i[0] M, i[1] N, d[0] eps. */
    NN_NORM_LAYER,
    /* its backward: t[0] dx [M, N] or NULL, t[6] dweight [N] or NULL, t[7] dbias [N] or
       NULL, t[1] mean, t[2] rstd, t[3] x, t[4] weight or NULL, t[5] the gradient of y. */
    NN_NORM_LAYER_BACKWARD,
    /* batch_norm forward over x [nb, C, L]: t[0] out, t[3] x, t[4] weight [C] or NULL,
       t[5] bias or NULL, t[6] running mean [C] or NULL, t[7] running var or NULL
       (updated in training with momentum d[0]); training (i[3]): t[1] the batch mean
       and t[2] invstd [C] are written; eval: the running statistics normalize, and
       t[1], t[2] are NULL. i[0] nb, i[1] C, i[2] L, d[1] eps. */
    NN_NORM_BATCH,
    /* its backward: t[0] dx or NULL, t[6] dweight or NULL, t[7] dbias or NULL, t[5]
       the gradient of the output, t[3] x, t[4] weight or NULL, t[1] and t[2] the saved
       batch mean and invstd (training) or running mean and var (eval); i[], d[1] as above. */
    NN_NORM_BATCH_BACKWARD,
    /* group_norm forward over x [N, C, HW]: t[0] y, t[3] x, t[4] weight [C] or NULL,
       t[5] bias or NULL; i[0] N, i[1] C, i[2] G (groups), i[3] HW; d[0] eps. */
    NN_NORM_GROUP,
} nn_norm_op;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_NORM_OP_COUNT (NN_NORM_GROUP + 1)

/* The index kernel's op codes. */
typedef enum nn_index_op {
    /* embedding: t[0] out [k, dim] = t[1] weight [num, dim] rows at t[2] (k int64
       indices), contiguous, any dtype; IndexError for an index out of [0, num). */
    NN_INDEX_EMBEDDING,
    /* its backward: t[0] grad weight [num, dim] (zeros on entry) += t[1] grad rows
       [k, dim] at t[2] in index order, skipping i[0] (padding_idx). */
    NN_INDEX_EMBEDDING_BACKWARD,
    /* rows of contiguous [P, D, Q] by the k int64 positions t[2] (in [0, D)); i[0] P,
       i[1] D, i[2] Q: t[0] [P, k, Q] = t[1] [P, D, Q] at the positions; t[0] [P, D, Q]
       at the positions = t[1] [P, k, Q]; the same with += (repeated positions add
       up in order, in double rounded to the dtype) */
    NN_INDEX_GATHER_ROWS, NN_INDEX_SCATTER_ROWS, NN_INDEX_ADD_ROWS,
    /* t[0] = tril (i[3] != 0) or triu of t[1], contiguous [..., R, C] (i[0] R, i[1] C)
       about diagonal i[2], zeros elsewhere */
    NN_INDEX_TRIANGLE,
    /* t[0] = t[1] (contiguous, t[0]'s shape) reversed along the dims whose bit is set in i[0] */
    NN_INDEX_FLIP,
    /* select.c's ops (core/cpu/select.c): */
    /* sort rows: t[0] values and t[1] int64 indices, [i[0], i[3], i[2]], = the first i[3]
       of each row of t[2] (contiguous [i[0], i[1], i[2]]) sorted along its middle dim,
       stably, descending when i[4], NaN above every number */
    NN_INDEX_SORT,
    /* t[0] = t[1] (contiguous, t[0]'s shape) rolled along each dim k by its shift
       in [0, size k): i[k] for k < 8, d[k - 8] after */
    NN_INDEX_ROLL,
    /* along dim i[0] of t[0] (self) by the int64 index t[1] (all contiguous): gather
       t[2][p] = self[p with index[p] at dim i[0]]; scatter self[...] = t[2][p], or the
       number d[0] when t[2] is NULL; scatter_add self[...] += t[2][p], in index order.
       RuntimeError for an index outside [0, size). */
    NN_INDEX_GATHER, NN_INDEX_SCATTER, NN_INDEX_SCATTER_ADD,
    /* index_select: t[0] [i[0], k, i[2]] = t[1] [i[0], i[1], i[2]] at the k int64 positions
       t[2] (negative ones from the end); IndexError outside [-i[1], i[1]) */
    NN_INDEX_SELECT,
    /* t[0] (int64, contiguous): each negative element plus i[0], in place; with i[1]
       set, first a check that all are in [-i[0], i[0]): i[2] written back 1 and i[3]
       the first one that is not (nothing changed then), else i[2] 0 */
    NN_INDEX_WRAP_NEGATIVE,
    /* host[0] = the number of nonzero elements of t[1] (contiguous, any dtype) */
    NN_INDEX_COUNT_SET,
    /* t[0] [k] = the elements of t[1] where the bool t[2] (of t[1]'s shape) is set, in order */
    NN_INDEX_MASKED_SELECT,
    /* t[0] int64 [k] = the flat positions of the set elements of the bool t[1], in order */
    NN_INDEX_MASK_POSITIONS,
    /* i[0], i[1] written back: the least and greatest element of the int64 t[1] (not empty) */
    NN_INDEX_INT_RANGE,
    /* t[0] (its elements from its storage offset) at the n int64 element offsets t[1] =
       t[2] (contiguous [n], t[0]'s dtype), in order (index_multi.c's write) */
    NN_INDEX_PUT,
    /* select_more.c's ops (core/cpu/select_more.c), over contiguous operands: */
    /* t[0] [i[0], i[2]] = the product of t[1] [i[0], i[1], i[2]] (t[0]'s dtype) along the middle dim */
    NN_INDEX_PROD,
    /* amax/amin: t[0] [i[0]] = the greatest (i[2] != 0) or least element of each row
       of t[1] [i[0], i[1]] (i[1] > 0), a NaN when the row has one */
    NN_INDEX_EXTREME,
    /* median (the lower one, a NaN when the row has one) or mode (the most frequent,
       ATen's tie rule) of each row of t[2] [i[0], i[1], i[2]] along the middle dim:
       t[0] values [i[0], i[2]], t[1] their int64 indices (or NULL); NaN for empty rows */
    NN_INDEX_MEDIAN, NN_INDEX_MODE,
    /* index_add: t[0] [i[0], i[1], i[2]] at the k int64 positions t[2] along the
       middle dim += d[0] * t[1] [i[0], k, i[2]]; IndexError outside [-i[1], i[1]) */
    NN_INDEX_ADD,
    /* scatter(reduce='add' | 'multiply' (i[1] != 0)) into t[0] along dim i[0] by the
       int64 index t[1] (negative from the end) from t[2] (index's ndim) or the number
       d[0] when t[2] is NULL; RuntimeError for an index out of range */
    NN_INDEX_SCATTER_COMBINE,
    /* 1.13's scatter_reduce into t[0] along dim i[0] from t[2] (src) at the int64
       index t[1], reduction i[1] (0 sum, 1 prod, 2 mean, 3 amax, 4 amin), self
       included when i[2], in index order in double as ATen's CPU kernel;
       RuntimeError for an index out of range */
    NN_INDEX_SCATTER_REDUCE,
    /* cummax/cummin: t[0] values and t[1] int64 indices of t[2]'s shape [i[0], i[1], i[2]],
       the running greatest (i[3] != 0) or least along the middle dim (a NaN stays,
       ties take the later index) */
    NN_INDEX_CUMEXTREME,
    /* searchsorted: t[0] (int64 or int32, t[2]'s shape) = the place of each float64
       value of t[2] in its row of the float64 t[1] (rows of i[0]: one row when i[3],
       else one per i[1] values), in the order of the int64 sorter t[3] (t[1]'s shape)
       or NULL; upper bound when i[2]. RuntimeError for a sorter index out of range. */
    NN_INDEX_SEARCHSORTED,
    /* histo.c's ops (core/cpu/histo.c): */
    /* unique slices of t[3] ([i[1] slices of i[2] elements], contiguous), sorted, or runs
       of equal neighbours when i[0]: t[0] [i[1], i[2]] gets the groups' first slices (its
       first host[0] rows written), t[1] int64 [i[1]] each slice's group, t[2] int64 [i[1]]
       the groups' sizes (the first host[0]) */
    NN_INDEX_UNIQUE,
    /* bincount: t[0] (zeros: int64, or the weights' float32/float64) += 1 or the weight
       t[2][i] (NULL: none) at each int64 t[1][i] (in [0, t[0]'s length)) */
    NN_INDEX_BINCOUNT,
    /* host[0], host[1] = the least and greatest element of t[1] (NaN skipped; 0, 0 when none) */
    NN_INDEX_DATA_RANGE,
    /* histc: t[0] [i[0]] = the counts of t[1]'s elements in i[0] equal bins over [d[0], d[1]]
       (float arithmetic for float32, as ATen's kernel) */
    NN_INDEX_HISTC,
    /* histogram: t[0] [i[0]] = the counts (or summed weights t[3], or NULL) of t[1]'s
       elements between the i[0] + 1 edges t[2], one float dtype; a density when i[1] */
    NN_INDEX_HISTOGRAM,
    /* nonzero: t[0] int64 [k, ndim] = the coordinates of t[1]'s nonzero elements, in order */
    NN_INDEX_NONZERO,
    /* core/cpu/index_more.c: */
    /* cumprod's backward where the input has a zero: t[0] [i[0], i[1], i[2]] (t[1]'s
       dtype) = for each element i along the middle dim, the sum over j >= i of
       t[2][j] (the output's gradient) times the product of t[1][k] (the input),
       k <= j, k != i, in double, each product taken in k order */
    NN_INDEX_CUMPROD_GRAD,
} nn_index_op;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_INDEX_OP_COUNT (NN_INDEX_CUMPROD_GRAD + 1)

/* The sample kernel's op codes (core/cpu/sample.c): draws from the generator a->gen
   in the order PyTorch 1.13's CPU kernels draw; operands contiguous. */
typedef enum nn_sample_op {
    /* t[0] (floating) = exponential draws of rate d[0], one per element in order */
    NN_SAMPLE_EXPONENTIAL,
    /* t[0] = 1 or 0 by one uniform per element below t[1] (the probabilities, t[0]'s dtype) */
    NN_SAMPLE_BERNOULLI,
    /* t[0] int64 [i[0], i[2]] = i[2] category indices per row of the probabilities t[1]
       [i[0], i[1]], with replacement (i[3]) or without; PyTorch's errors for invalid rows */
    NN_SAMPLE_MULTINOMIAL,
    /* t[0] = a poisson draw at each rate of t[1] (RuntimeError for a negative or NaN rate) */
    NN_SAMPLE_POISSON,
    /* t[0] = a standard gamma draw at each concentration of t[1] (ATen's sample_gamma:
       Marsaglia-Tsang on double uniforms and Box-Muller normals, in t[1]'s dtype as
       _standard_gamma computes it; i[0] != 0: t[0] float64 draws from the concentrations
       taken as doubles, as _sample_dirichlet's first pass) */
    NN_SAMPLE_GAMMA,
    /* t[0] = a binomial draw for each count t[1] and probability t[2] (one dtype, contiguous),
       ATen's sample_binomial: inversion below 10 expected successes, BTRS from there */
    NN_SAMPLE_BINOMIAL,
    /* no draws (core/cpu/gamma_grad_kernel.c): t[0] = d x / d alpha of the standard gamma draws
       t[2] at the concentrations t[1] (torch._standard_gamma_grad) */
    NN_SAMPLE_GAMMA_GRAD,
    /* t[0] = torch._dirichlet_grad of the draws t[1], concentrations t[2] and totals t[3] */
    NN_SAMPLE_DIRICHLET_GRAD,
    /* t[0] = draws in element order (core/cpu/sample_more.c): Cauchy of median d[0] and scale
       d[1]; geometric of success probability d[0]; log-normal of d[0], d[1] (the normal's) */
    NN_SAMPLE_CAUCHY,
    NN_SAMPLE_GEOMETRIC,
    NN_SAMPLE_LOG_NORMAL,
} nn_sample_op;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_SAMPLE_OP_COUNT (NN_SAMPLE_BINOMIAL + 1)

/* The math kernel's op codes (core/cpu/math.c): operands contiguous, of one
   float dtype (float32 or float64) unless said. */
typedef enum nn_math_op {
    /* t[0] out = f(t[1]) */
    NN_MATH_sin, NN_MATH_cos, NN_MATH_tan, NN_MATH_asin, NN_MATH_acos, NN_MATH_atan, NN_MATH_sinh, NN_MATH_cosh,
    NN_MATH_asinh, NN_MATH_acosh, NN_MATH_atanh, NN_MATH_log2, NN_MATH_log10, NN_MATH_log1p, NN_MATH_expm1,
    NN_MATH_exp2, NN_MATH_erf, NN_MATH_erfc, NN_MATH_erfinv, NN_MATH_rsqrt, NN_MATH_reciprocal, NN_MATH_trunc,
    NN_MATH_frac,
    /* t[0] out = f(t[1], t[2]) */
    NN_MATH_atan2, NN_MATH_hypot, NN_MATH_logaddexp, NN_MATH_xlogy,
    NN_MATH_lerp,       /* t[0] = lerp(t[1], t[2], t[3] or, when NULL, the number d[0]) */
    NN_MATH_nan_to_num, /* t[0] = t[1] with NaN, +inf, -inf replaced by d[0], d[1], d[2] */
    NN_MATH_isfinite,   /* t[0] (bool) = isfinite(t[1]) (float64) */
    NN_MATH_logsumexp,  /* t[0][r] = log(sum(exp(t[1][r, :]))) over rows r < i[0] of i[1] elements */
    /* activations t[0] = f(t[1]) with parameters d[0], d[1]: hardtanh (min, max),
       hardshrink and softshrink (lambda), celu (alpha) */
    NN_MATH_hardtanh, NN_MATH_hardswish, NN_MATH_hardsigmoid, NN_MATH_mish, NN_MATH_logsigmoid,
    NN_MATH_hardshrink, NN_MATH_softshrink, NN_MATH_celu, NN_MATH_selu,
    /* rrelu: t[0] = rrelu(t[1]) with slopes in [d[0], d[1]); training (i[0]): random
       slopes from generator gen, kept in t[2] */
    NN_MATH_rrelu,
    /* strided operands of t[0]'s shape (broadcast views), any dtype: */
    NN_MATH_where,  /* t[0] = t[1] (bool) ? t[2] : t[3] */
    NN_MATH_sign,   /* t[0] = sgn(t[1]): -1, 0 or 1 (0 for NaN) */
    NN_MATH_abs_eq, /* t[0] (bool) = |t[1]| == t[2] or t[1] is NaN (the inf-norm's argmax mask) */
    /* t[0] = the cumulative sum or product of t[1] (contiguous [i[0], i[1], i[2]], t[0]'s
       dtype) along its middle dim */
    NN_MATH_cumsum, NN_MATH_cumprod,
    /* logcumsumexp of t[1] (contiguous [i[0], i[1], i[2]], t[0]'s float dtype) along its
       middle dim, accumulated in double (in float for float16/bfloat16), as ATen's */
    NN_MATH_logcumsumexp,
    /* int64 operands of t[0]'s shape (broadcast views): t[0] = gcd or lcm of t[1] and t[2]
       in the arithmetic of an integer result dtype of i[0] bits (signed when i[1]) */
    NN_MATH_gcd, NN_MATH_lcm,
    /* contiguous t[1..3] of t[0]'s shape and float dtype: t[0] = t[1] + d[0] * t[2] * t[3]
       (addcmul, as ATen: fma(d[0] * t[2], t[3], t[1])) or t[1] + d[0] * t[2] / t[3] (addcdiv) */
    NN_MATH_addcmul, NN_MATH_addcdiv,
    /* torch.special's functions (core/special.c; core/cpu/special.c): t[0] = f(t[1]) (and
       t[2], contiguous of t[0]'s shape, for a binary one) for the nn_special_op i[0], with
       polygamma's order in i[1] */
    NN_MATH_special,
    /* PyTorch's float32 CPU kernels with Sleef and AVX2+FMA (core/cpu/vmath.c,
       through core/cpu/vmath_ops.c), contiguous float32 operands of n elements:
       host[0] written back 1 when computed, 0 when this CPU lacks AVX2+FMA (the op
       then computes another way). vmath_map: t[0] = f(t[1]), f the nn_vfn i[0];
       vmath_act: t[0] = k(t[1]), k the nn_vact i[0], i[1] the row length (0: none),
       i[2] the vectorized loop, i[3] whether d[0..2] hold k's parameters;
       vmath_act_grad: t[0] = k(t[1] the gradient, t[2] the input); vmath_pow:
       t[0] = t[1] ** d[0] (0.5, -0.5 and -1 as sqrt, rsqrt and reciprocal).
       Float64 operands (core/cpu/vmath_f64.c, n > 0): vmath_map of exp, log and
       tanh, and vmath_act of sigmoid with i[1] the row length (0: one row) only;
       complex64 / complex128 operands: vmath_map of the nn_vcx i[0] only (ATen's
       Vectorized<complex> exp and angle); host[0] 0 for any other (or without AVX2+FMA) */
    NN_MATH_vmath_map, NN_MATH_vmath_act, NN_MATH_vmath_act_grad, NN_MATH_vmath_pow,
} nn_math_op;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_MATH_OP_COUNT (NN_MATH_vmath_pow + 1)

/* The special functions of NN_MATH_special, each as ATen 1.13's scalar formula. */
typedef enum nn_special_op {
    NN_SPECIAL_LGAMMA, NN_SPECIAL_DIGAMMA, NN_SPECIAL_POLYGAMMA, NN_SPECIAL_I0, NN_SPECIAL_I0E,
    NN_SPECIAL_I1, NN_SPECIAL_I1E, NN_SPECIAL_NDTR, NN_SPECIAL_NDTRI, NN_SPECIAL_LOG_NDTR,
    NN_SPECIAL_SINC, NN_SPECIAL_ENTR, NN_SPECIAL_ERFCX,
    NN_SPECIAL_XLOG1PY, /* binary: t[1] * log1p(t[2]), 0 where t[1] == 0 */
    NN_SPECIAL_ZETA,    /* binary: Hurwitz zeta(t[1], t[2]) */
} nn_special_op;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_SPECIAL_OP_COUNT (NN_SPECIAL_ZETA + 1)

/* The optim_step kernel's op codes: one parameter's update (contiguous p, its grad
   g of p's dtype, float32 or float64 (SGD and ADAM also float16 and bfloat16, each op
   of PyTorch's chain rounded to it), and state tensors s0..s2 of p's shape, NULL
   where unused), args the op's scalars (host memory). */
typedef enum nn_optim_op {
    NN_OPTIM_STEP_SGD,      /* nn_sgd_step_args; s0 the momentum buffer */
    NN_OPTIM_STEP_ADAM,     /* nn_adam_step_args (Adam and AdamW); s0 exp_avg, s1 exp_avg_sq, s2 max_exp_avg_sq */
    NN_OPTIM_STEP_RMSPROP,  /* nn_rmsprop_args; s0 square_avg, s1 grad_avg, s2 momentum buffer */
    NN_OPTIM_STEP_ADAGRAD,  /* nn_adagrad_args; s0 sum */
    NN_OPTIM_STEP_ADADELTA, /* nn_adadelta_args; s0 square_avg, s1 acc_delta */
} nn_optim_op;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_OPTIM_OP_COUNT (NN_OPTIM_STEP_ADADELTA + 1)

typedef struct nn_sgd_step_args {
    double weight_decay, momentum, one_minus_dampening, neg_lr;
    bool maximize, nesterov, new_buffer;
} nn_sgd_step_args;

typedef struct nn_adam_step_args {
    double decay;                         /* AdamW: 1 - lr * weight_decay */
    double weight_decay;                  /* Adam's L2 term (0 for AdamW) */
    double beta1, one_minus_beta1, beta2, one_minus_beta2;
    double bias_correction2_sqrt, eps, neg_step_size;
    bool maximize, adamw;
} nn_adam_step_args;

/* The pool kernel's geometry: planes (N * C) images of H x W pooled into OH x OW
   with kernel k, stride s, padding p and dilation d (height, width). */
typedef struct nn_pool_geom {
    int64_t planes, H, W, OH, OW;
    int64_t k[2], s[2], p[2], d[2];
} nn_pool_geom;

/* The pool kernel's op codes: contiguous float32/float64 planes, t[0] the
   result, t[2] the input (or the gradient of the output for a backward), t[1]
   the indices (int64, into each input plane) where an op has them. */
typedef enum nn_pool_op {
    NN_POOL_MAX,                   /* max pooling with indices */
    NN_POOL_ADAPTIVE_MAX,          /* adaptive max pooling with indices */
    NN_POOL_MAX_BACKWARD,          /* t[0] (zeros) [t[1]] += t[2], per plane of i[0] inputs and i[1] outputs */
    NN_POOL_AVG,                   /* i[0] count_include_pad, i[1] divisor_override (0: none) */
    NN_POOL_AVG_BACKWARD,          /* t[0] (zeros) += t[2] spread over each window; i[] as NN_POOL_AVG */
    NN_POOL_ADAPTIVE_AVG,
    NN_POOL_ADAPTIVE_AVG_BACKWARD, /* t[0] (zeros) += t[2] spread over each window */
} nn_pool_op;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_POOL_OP_COUNT (NN_POOL_ADAPTIVE_AVG_BACKWARD + 1)

/* The resample kernel's geometry (core/cpu/resample.c): planes contiguous
   images of the last dims (1..3) spatial dims, in[] resampled to out[]. Upsampling:
   nearest (F.interpolate's legacy index), nearest-exact, linear (1..3 dims) or
   cubic (PyTorch's coefficient -0.75), from scale[] (NAN: the sizes' ratio) and
   align_corners; reflect/replicate padding: pad[] the left pad of each dim. */
typedef enum nn_resample_mode {
    NN_RESAMPLE_NEAREST, NN_RESAMPLE_NEAREST_EXACT, NN_RESAMPLE_LINEAR, NN_RESAMPLE_CUBIC,
    NN_RESAMPLE_REFLECT, NN_RESAMPLE_REPLICATE,
} nn_resample_mode;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_RESAMPLE_MODE_COUNT (NN_RESAMPLE_REPLICATE + 1)

typedef struct nn_resample_geom {
    nn_resample_mode mode;
    int dims;
    bool align;
    int64_t planes, in[3], out[3], pad[3];
    double scale[3];
} nn_resample_geom;

/* The linalg kernel's op codes (core/cpu/linalg.c, LAPACK): batches of i[0]
   column-major matrices, contiguous, float32 or float64; i[1] m (rows), i[2] n;
   host[0] receives LAPACK's first positive info over the batch (0: none), host[1]
   the index of that matrix in the batch. */
typedef enum nn_linalg_op {
    NN_LINALG_LU,       /* t[0] [m, m] factored in place, t[1] int32 pivots [batch, m] (1-based) */
    NN_LINALG_LU_DET,   /* t[0] det, t[1] sign, t[2] log|det| ([batch] each, or NULL) of t[3] LU, t[4] pivots; i[1] m */
    NN_LINALG_LU_SOLVE, /* t[0] B [m, n] overwritten by X with A X = B, A's LU t[3] and pivots t[4]; i[3]: Aᵀ's LU */
    NN_LINALG_CHOLESKY, /* t[0] [m, m] overwritten by its factor (i[4]: upper, else lower) */
    /* t[0] [m, n] overwritten by ?geqrf's R and reflectors; t[1] Q [m, i[3]] (i[3] m or min(m, n)) or NULL */
    NN_LINALG_QR,
    /* ?gesdd of t[0] [m, n] (destroyed): t[1] S [min], t[2] U [m, m or min] and t[3] Vh [n or min, n]
       (i[3]: full) or both NULL */
    NN_LINALG_SVD,
    /* ?syevd of t[0] [m, m] (overwritten by the eigenvectors when i[3]; i[4]: the upper triangle, else
       the lower is read), t[1] eigenvalues [m] ascending */
    NN_LINALG_EIGH,
    /* least squares by driver i[3] (0 gels, 1 gelsy, 2 gelsd, 3 gelss), rcond d[0]: t[0] A [m, n]
       (destroyed), t[1] B [max(m, n), i[4]] (the solution in its first n rows), t[2] singular values
       [min] or NULL, t[3] int64 ranks [batch] or NULL */
    NN_LINALG_LSTSQ,
    /* ?geev of t[0] [m, m] (destroyed): t[1] the complex eigenvalues [m] in LAPACK's order, t[2] the
       complex right eigenvectors [m, m] column-major (unit norm, largest component real) when i[3], else
       NULL; t[1] and t[2] of the complex dtype of t[0]'s */
    NN_LINALG_EIG,
} nn_linalg_op;
/* the number of codes (keep it the last + 1: tests/core/test_backend.c checks each has a case) */
#define NN_LINALG_OP_COUNT (NN_LINALG_EIG + 1)

typedef enum nn_kernel_id {
#define KERNEL(name, params, args) NN_KERNEL_##name,
#include "kernels.def"
#undef KERNEL
    NN_KERNEL_COUNT
} nn_kernel_id;
extern const char *const nn_kernel_names[NN_KERNEL_COUNT];

typedef struct nn_backend {
    const char *name;           /* "cpu", "loopback", "cuda": in NotImplementedError messages */
    nn_device_type type;
    /* Memory. alloc returns device memory for nbytes (> 0), or NULL with MemoryError;
       free releases it; to_host/from_host copy nbytes between it and host memory;
       synchronize waits for queued work. */
    void *(*alloc)(size_t nbytes);
    void (*free)(void *data, size_t nbytes);
    int (*to_host)(void *host_dst, const void *src, size_t nbytes);
    int (*from_host)(void *dst, const void *host_src, size_t nbytes);
    int (*synchronize)(void);
    /* (copies within the device are the copy kernel) */
    /* Does the kernel run for tensors of this dtype? (NULL entries never do.) */
    bool (*supports)(nn_kernel_id kernel, nn_dtype dtype);
    /* The kernels (NULL: not provided by this backend). */
#define KERNEL(name, params, args) int (*name) params;
#include "kernels.def"
#undef KERNEL
} nn_backend;

/* The CPU backend (core/cpu/backend.c). */
extern const nn_backend nn_cpu_backend;

/* Registers b for its device type (replacing any); the CPU one is built in. */
void nn_backend_register(const nn_backend *b);
/* Forgets the backend of a device type (tests; the CPU's stays). */
void nn_backend_unregister(nn_device_type type);
/* The backend registered for a device type, or NULL. */
const nn_backend *nn_backend_for_type(nn_device_type type);
/* The backend of t's storage (never NULL: a storage exists only on a registered device). */
static inline const nn_backend *nn_backend_of(const nn_tensor *t)
{
    return t->storage->device.type == NN_CPU ? &nn_cpu_backend : nn_backend_for_type(t->storage->device.type);
}
/* NotImplementedError for a kernel a backend lacks ("Could not run 'gemm' with
   arguments from the 'cuda' backend."); returns -1. */
int nn_kernel_missing(const nn_backend *b, const char *kernel);

/* Calls backend b's kernel name with the parenthesized args: its status, or -1 with
   NotImplementedError when b does not provide it (no fallback to the host). */
#define NN_KERNEL(b, name, args) ((b)->name ? (b)->name args : nn_kernel_missing((b), #name))

/* Storage on a device: the CPU's keeps header and data in one block (the data
   pointer is host memory); other devices' data come from their backend's alloc. */
nn_storage *nn_storage_new_on(nn_device device, size_t nbytes);

/* dst = src (src broadcast to dst's shape, dtype converted) when they live on
   different devices: laid out and converted on the host, one transfer. 0 or -1. */
int nn_copy_across_devices(nn_tensor *dst, const nn_tensor *src);

#endif
