/*
 * unary.c — elementwise unary ops and activations: neg, exp, log, sqrt, abs,
 * floor, ceil, round, sign, tanh, sigmoid, relu, gelu (erf and tanh forms), leaky_relu, elu, silu,
 * softplus, threshold, prelu and clamp, each forward with its backward beside it.
 *
 * Numerics follow what PyTorch 1.13 computes on an x86-64 CPU with AVX2:
 *  - float32 is computed in float32, in PyTorch's order of operations and
 *    with the fused multiply-adds its kernels are compiled with (this file
 *    relies on -std=c11, which turns off implicit contraction: every fma is
 *    written out);
 *  - float32 exp, log and tanh (ATen's vml kernels: SLEEF on every element)
 *    and sigmoid, silu and elu (cpu_kernel_vec around SLEEF's exp, with
 *    glibc's expf in its scalar tail) run cpu/vmath.c's kernels, PyTorch's
 *    bits (unary_sleef below); elsewhere (softplus, the gelu tanh form, a CPU
 *    without AVX2) where PyTorch calls SLEEF we round the double-precision
 *    result, which agrees with it to the bit on 90-99% of inputs and is
 *    otherwise one ulp away; where PyTorch runs its scalar loop
 *    (non-contiguous inputs, and the last n % 16 elements of a contiguous
 *    one) we call the same libm float functions it does;
 *  - gelu (erf form) of a contiguous float32 tensor of more than one element
 *    goes through oneDNN in PyTorch: we evaluate oneDNN's formula (an
 *    Abramowitz-Stegun erf with oneDNN's own exp), forward and backward;
 *  - bfloat16 computes in float32 and rounds once, except gelu and silu,
 *    which PyTorch rounds to bfloat16 after every step; float16 is refused
 *    where PyTorch 1.13 refuses it on the CPU; integer inputs of exp, log,
 *    sqrt, tanh and sigmoid compute in float32.
 * The formulas are the `unary` kernel's op codes (core/unary_ops.def; the
 * CPU's are core/cpu/unary.c, compiled twice, for AVX2+FMA and for baseline
 * x86-64, picked at run time); this file picks the codes and runs the kernel.
 *
 * Backwards are built from differentiable nn_* ops, which reproduce PyTorch's
 * fused backward kernels where the order of operations allows (all but tanh,
 * gelu and silu, whose kernels fuse a multiply-add or use oneDNN). Those three
 * run a direct kernel when grad mode is off during the backward (the usual
 * case) and the composition with create_graph, so higher-order gradients
 * work; the erf inside gelu's derivative is then a gelu node in "cdf" mode
 * (p.flags), whose own derivative is the normal pdf. On bfloat16 the
 * compositions run in float32 and round once, as PyTorch's kernels do.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "nn_parallel.h"
#include "nn_vmath_codes.h"

/* p.flags of a gelu node */
#define GELU_TANH 1 /* the tanh approximation */
#define GELU_CDF 2  /* an internal node computing 0.5 * (1 + erf(x / sqrt 2)) */

/* p.flags of a clamp node */
#define CLAMP_MIN 1
#define CLAMP_MAX 2


/* ------------------------------------------------------------------ kernels */

/* Every kernel computes out = f(a) or out = f(a, b), one formula each: the
   `unary` kernel's op codes (core/unary_ops.def, by their short names); the
   CPU's formulas are core/cpu/unary.c. */
#include "nn_unary_codes.h"

/* the double constants of gelu's tanh form and derivative */
#define PDF_D (M_2_SQRTPI * M_SQRT1_2 * 0.5)
#define BETA_D (M_SQRT2 * M_2_SQRTPI * 0.5)
#define KAPPA_D 0.044715


/* ------------------------------------------------------------- running ops */

/* PyTorch's ScalarType names, as "not implemented for 'Long'" prints them. */
static const char *type_title(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "Float", [NN_FLOAT64] = "Double", [NN_FLOAT16] = "Half", [NN_BFLOAT16] = "BFloat16",
        [NN_INT64] = "Long",    [NN_INT32] = "Int",      [NN_BOOL] = "Bool",
        [NN_UINT8] = "Byte",    [NN_INT8] = "Char",      [NN_INT16] = "Short",
        [NN_COMPLEX64] = "ComplexFloat", [NN_COMPLEX128] = "ComplexDouble",
    };
    return names[dt];
}

static nn_tensor *not_implemented(const char *kernel, nn_dtype dt)
{
    nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, type_title(dt));
    return NULL;
}

/* The kernels that exist for an op, per compute precision. */
typedef struct kset {
    kern f32, f32_vec, bf16, f64, i64;
    bool vec_all;
} kset;

/* A no-grad conversion to dtype (the tensor itself, retained, when it has it). */
static nn_tensor *as_dtype(nn_tensor *t, nn_dtype dt)
{
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *r = nn_to_dtype(t, dt);
    nn_set_grad_enabled(prev);
    return r;
}

static nn_dtype compute_dtype(nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT64: return NN_FLOAT64;
    case NN_FLOAT32: case NN_FLOAT16: case NN_BFLOAT16: return NN_FLOAT32;
    default: return NN_INT64;
    }
}

/* Contiguous, or one value broadcast everywhere (PyTorch's vectorized loops
   take both). */
static bool dense_or_scalar(const nn_tensor *t)
{
    if (nn_is_contiguous(t)) return true;
    for (int d = 0; d < t->ndim; d++)
        if (t->sizes[d] != 1 && t->strides[d] != 0) return false;
    return true;
}

/* Runs the kernel of ks for out_dt over in[0..nin), which broadcast to in[0]'s
   shape, into a new tensor of dtype out_dt; vec: PyTorch runs its vectorized
   loop (a contiguous input). No autograd; inputs borrowed; new reference. */
static nn_tensor *run_kernel(const kset *ks, kctx c, int nin, nn_tensor *const *in, nn_dtype out_dt, bool vec)
{
    for (int k = 0; k < nin; k++)
        if (nn_dtype_is_complex(in[k]->dtype)) { /* complex.c has the complex ops nnscope supports */
            nn_error_set(NN_ERR_NOT_IMPLEMENTED, "this op does not support complex tensors in nnscope");
            return NULL;
        }
    nn_tensor *shape = in[0];
    nn_dtype cd = compute_dtype(out_dt);
    c.k = cd == NN_FLOAT64 ? ks->f64 : cd == NN_INT64 ? ks->i64 : out_dt == NN_BFLOAT16 && ks->bf16 != K_NONE ? ks->bf16 : ks->f32;
    c.vec = vec && cd == NN_FLOAT32 && out_dt == NN_FLOAT32 ? ks->f32_vec : K_NONE;
    c.vec_all = ks->vec_all;
    if (c.k == K_NONE) return not_implemented("unary", out_dt);
    nn_tensor *conv[2] = {NULL, NULL}, *out = NULL, *tmp = NULL;
    for (int k = 0; k < nin; k++) {
        if (!(conv[k] = as_dtype(in[k], cd))) goto done;
        if (c.vec != K_NONE && c.vec_all && !dense_or_scalar(conv[k])) {
            /* oneDNN takes every operand dense */
            nn_tensor *dense = NULL;
            NN_WITH_GRAD_MODE(false, dense = nn_contiguous(conv[k]));
            NN_SET(conv[k], dense);
            if (!dense) goto done;
        }
    }
    nn_device device;
    if (nn_common_device(nin, conv, &device) < 0) goto done;
    for (int k = 0; k < nin; k++) /* a 0-dim CPU operand moves by value */
        if (!(conv[k] = nn_to_op_device(conv[k], device))) goto done;
    out = nn_empty_on(device, shape->ndim, shape->sizes, out_dt);
    nn_tensor *target = out;
    if (out && out_dt != cd) target = tmp = nn_empty_on(device, shape->ndim, shape->sizes, cd);
    if (!target) {
        NN_SET(out, NULL);
        goto done;
    }
    nn_tensor views[2];
    const nn_tensor *ops[3] = {target, NULL, NULL};
    for (int k = 0; k < nin; k++) {
        nn_broadcast_into(conv[k], shape->ndim, shape->sizes, &views[k]);
        ops[k + 1] = &views[k];
    }
    if (NN_KERNEL(nn_backend_of(target), unary, (&c, nin + 1, ops)) < 0) {
        NN_SET(out, NULL);
        goto done;
    }
    if (tmp) {
        bool prev = nn_set_grad_enabled(false);
        if (nn_copy_(out, tmp) < 0) NN_SET(out, NULL);
        nn_set_grad_enabled(prev);
    }
done:
    NN_RELEASE(conv[0]);
    NN_RELEASE(conv[1]);
    NN_RELEASE(tmp);
    return out;
}

static nn_tensor *run1(const kset *ks, kctx c, nn_tensor *a, nn_dtype out_dt, bool vec)
{
    return run_kernel(ks, c, 1, &a, out_dt, vec);
}

/* True when t's elements fill one block of its storage, in some order of its
   dims (a transposed or permuted contiguous tensor). */
static bool dense_permuted(const nn_tensor *t)
{
    int64_t expected = 1;
    bool used[NN_MAX_DIMS] = {false};
    for (int k = 0; k < t->ndim; k++) {
        int best = -1; /* the unused dim of size > 1 with the smallest stride */
        for (int d = 0; d < t->ndim; d++)
            if (!used[d] && t->sizes[d] > 1 && (best < 0 || t->strides[d] < t->strides[best])) best = d;
        if (best < 0) break;
        if (t->strides[best] != expected) return false;
        used[best] = true;
        expected *= t->sizes[best];
    }
    return true;
}

/* For a dense but permuted a: PyTorch lays its result out like a and walks
   both in memory order, vectorized (the order decides which elements fall in
   the scalar tail). We compute over the block in memory order, then lay the
   result out row-major. No autograd; new reference. */
static nn_tensor *run1_in_memory_order(const kset *ks, nn_tensor *a)
{
    int64_t n = nn_numel(a), one = 1;
    nn_tensor *flat = nn_tensor_new_view(a, 1, &n, &one, a->offset);
    nn_tensor *r = flat ? run1(ks, (kctx){0}, flat, a->dtype, true) : NULL;
    nn_tensor *laid = r ? nn_tensor_new_view(r, a->ndim, a->sizes, a->strides, 0) : NULL, *out = NULL;
    if (laid) NN_WITH_GRAD_MODE(false, out = nn_contiguous(laid));
    NN_RELEASE(flat);
    NN_RELEASE(r);
    NN_RELEASE(laid);
    return out;
}

/* A scalar parameter converted to the type a kernel computes in, with
   PyTorch's overflow check (Scalar::to<T>). */
static int param(double v, nn_dtype dt, double *d, float *f, int64_t *i)
{
    const char *name = NULL;
    switch (dt) {
    case NN_FLOAT32: case NN_FLOAT16:
        if (isfinite(v) && fabs(v) > 0x1.fffffep+127) name = "float";
        break;
    case NN_BFLOAT16:
        if (isfinite(v) && fabs(v) > 0x1.fep+127) name = "c10::BFloat16";
        break;
    case NN_INT32:
        if (!(v >= -2147483648.0 && v <= 2147483647.0)) name = "int";
        break;
    case NN_UINT8: case NN_INT8: case NN_INT16: {
        int64_t lo, hi;
        nn_dtype_int_range(dt, &lo, &hi);
        if (!(v >= (double)lo && v <= (double)hi))
            name = dt == NN_UINT8 ? "uint8_t" : dt == NN_INT8 ? "int8_t" : "int16_t";
        break;
    }
    case NN_INT64: case NN_BOOL:
        if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) name = "int64_t";
        break;
    default: break;
    }
    if (name) return nn_error_set(NN_ERR_RUNTIME, "value cannot be converted to type %s without overflow", name);
    *d = v;
    *f = (float)v;
    /* integers truncate toward zero, as static_cast does */
    *i = !nn_dtype_is_floating(dt) ? (int64_t)v : 0;
    return 0;
}

static bool is_float(nn_dtype dt) { return dt == NN_FLOAT32 || dt == NN_FLOAT64 || dt == NN_BFLOAT16; }

/* The float result type of exp, log, ...: integers and bool become the default dtype. */
static nn_dtype float_result(nn_dtype dt) { return nn_dtype_is_floating(dt) ? dt : nn_default_dtype(); }

/* t as float32 when it is bfloat16, else t itself; new reference. PyTorch's
   bfloat16 backward kernels compute in float32 and round once, which the
   gradient's cast back to the input's dtype (by the engine) does here. */
static nn_tensor *widen(nn_tensor *t)
{
    if (t->dtype == NN_BFLOAT16) return nn_to_dtype(t, NN_FLOAT32);
    NN_RETAIN(t);
    return t;
}

/* Stores r (taken) into *slot: 0, or -1 when r is NULL. */
static int give(nn_tensor *r, nn_tensor **slot)
{
    *slot = r;
    return r ? 0 : -1;
}

/* g where cond is keep, else 0 (cond, g borrowed); new reference. */
static nn_tensor *masked(nn_tensor *cond, bool keep, nn_tensor *g)
{
    nn_tensor *zero = cond ? nn_scalar(0.0, g->dtype) : NULL;
    nn_tensor *r = zero ? (keep ? nn_where(cond, g, zero) : nn_where(cond, zero, g)) : NULL;
    NN_RELEASE(zero);
    return r;
}

/* a <op> v for a tensor and a number, as a bool tensor (no autograd). */
static nn_tensor *compare_scalar(nn_tensor *a, double v, nn_cmp op)
{
    nn_tensor *w = nn_wrapped_number(v, false);
    nn_tensor *r = w ? nn_compare(a, w, op) : NULL;
    NN_RELEASE(w);
    return r;
}

/* --------------------------------------------------------------- neg, abs */

nn_tensor *nn_neg(nn_tensor *a)
{
    if (!a) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (a->dtype == NN_BOOL) {
        nn_error_set(NN_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                                     "to invert a mask, use the `~` or `logical_not()` operator instead.");
        return NULL;
    }
    if (nn_dtype_is_complex(a->dtype)) return nn_complex_neg(a);
    static const kset ks = {K_NEG, K_NONE, K_NONE, K_NEG, K_NEG, false};
    nn_tensor *out = run1(&ks, (kctx){0}, a, a->dtype, false);
    if (out && nn_record(NN_OP_neg, 1, &a, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

int nn_neg_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    (void)n;
    return give(nn_neg(gout[0]), &gin[0]);
}

nn_tensor *nn_abs(nn_tensor *a)
{
    if (!a) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (a->dtype == NN_BOOL) return not_implemented("abs_cpu", a->dtype);
    if (nn_dtype_is_complex(a->dtype)) return nn_complex_abs(a);
    static const kset ks = {K_ABS, K_NONE, K_NONE, K_ABS, K_ABS, false};
    nn_tensor *out = run1(&ks, (kctx){0}, a, a->dtype, false);
    if (out && nn_record(NN_OP_abs, 1, &a, 1, &out, 1, &a, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* grad * sgn(a) */
int nn_abs_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    static const kset ks = {K_SIGN, K_NONE, K_NONE, K_SIGN, K_NONE, false};
    nn_tensor *a = nn_node_saved(n, 0);
    nn_tensor *sign = run1(&ks, (kctx){0}, a, a->dtype, false);
    int rc = give(sign ? nn_mul(gout[0], sign) : NULL, &gin[0]);
    NN_RELEASE(sign);
    return rc;
}

/* ------------------------------------------------ floor, ceil, round, sign */

/* The step functions: exact in every dtype (half types compute in float32 and
   round once, which changes nothing) and flat, so their gradient is zero.
   Integers: floor, ceil and round return a copy, sign computes; PyTorch's CPU
   kernels refuse bool and float16 but for sign. */
static nn_tensor *step_op(nn_tensor *a, kern k, const char *kernel, nn_op_id op)
{
    if (!a) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (k != K_SIGN && (a->dtype == NN_BOOL || a->dtype == NN_FLOAT16)) return not_implemented(kernel, a->dtype);
    if (k != K_SIGN && !nn_dtype_is_floating(a->dtype)) return nn_clone(a);
    kset ks = {k, K_NONE, K_NONE, k, k == K_SIGN ? K_SIGN : K_NONE, false};
    nn_tensor *out = run1(&ks, (kctx){0}, a, a->dtype, false);
    if (out && nn_record(op, 1, &a, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_floor(nn_tensor *a) { return step_op(a, K_FLOOR, "floor_vml_cpu", NN_OP_floor); }
nn_tensor *nn_ceil(nn_tensor *a) { return step_op(a, K_CEIL, "ceil_vml_cpu", NN_OP_ceil); }
nn_tensor *nn_round(nn_tensor *a) { return step_op(a, K_ROUND, "round_vml_cpu", NN_OP_round); }
nn_tensor *nn_sign(nn_tensor *a) { return step_op(a, K_SIGN, "sign_cpu", NN_OP_sign); }

static int zero_grad(nn_tensor **gout, nn_tensor **gin) { return give(nn_zeros_like(gout[0]), &gin[0]); }
int nn_floor_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return zero_grad(gout, gin); }
int nn_ceil_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return zero_grad(gout, gin); }
int nn_round_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return zero_grad(gout, gin); }
int nn_sign_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return zero_grad(gout, gin); }

/* ----------------------------------------------- exp, log, sqrt, tanh, sigmoid */

/* The length of t's rows as TensorIterator's inner loop sees them (its
   trailing dims that lie densely in memory, after the last one of stride 1),
   or 0 when the last dim of size > 1 is strided. */
static int64_t dense_row(const nn_tensor *t)
{
    int64_t row = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        if (t->sizes[d] == 1) continue;
        if (t->strides[d] != row) break;
        row *= t->sizes[d];
    }
    return row > 1 ? row : 0;
}

int64_t nn_dense_row(const nn_tensor *t) { return dense_row(t); }

/* A float32 result on the CPU with AVX2+FMA, as ATen computes it (cpu/vmath.c):
   exp, log and tanh are its vml kernels (Sleef on every element, strided or
   not); sigmoid, silu and elu (p: their parameters) its cpu_kernel_vec
   kernels, vectorized over a dense operand (in memory order, and row by row
   for a strided one with dense rows). 1 with *out set, 0 when another path
   computes, -1 on error. No autograd. */
static int unary_sleef(nn_tensor *a, nn_vact act, int vfn, const float *p, nn_tensor **out)
{
    *out = NULL;
    if (float_result(a->dtype) != NN_FLOAT32 || a->dtype == NN_BFLOAT16 || nn_device_of(a).type != NN_CPU)
        return 0;
    int64_t n = nn_numel(a), one = 1, row = 0;
    bool vec = true, permuted = false;
    nn_tensor *x = NULL, *y = NULL;
    if (a->dtype == NN_FLOAT32 && !nn_is_contiguous(a) && vfn < 0) {
        if (dense_permuted(a)) { /* memory order, laid out row-major after */
            x = nn_tensor_new_view(a, 1, &n, &one, a->offset);
            permuted = true;
        } else {
            row = dense_row(a);
            vec = row > 0;
        }
    }
    if (!x) NN_WITH_GRAD_MODE(false, x = nn_to_dtype(a, NN_FLOAT32); if (x) NN_SET(x, nn_contiguous(x)));
    if (x) y = nn_empty_on(NN_DEVICE_CPU, x->ndim, x->sizes, NN_FLOAT32);
    if (!y) {
        NN_RELEASE(x);
        return -1;
    }
    /* the math kernel's vmath codes (cpu/vmath_ops.c): host[0] 0 when this CPU lacks AVX2+FMA */
    nn_kernel_args ka = {.t = {y, x}, .i = {vfn >= 0 ? vfn : (int64_t)act, row, vec, p != NULL}};
    for (int i = 0; p && i < 3; i++) ka.d[i] = p[i];
    int rc = NN_KERNEL(nn_backend_of(x), math, (vfn >= 0 ? NN_MATH_vmath_map : NN_MATH_vmath_act, &ka));
    NN_RELEASE(x);
    if (rc < 0 || ka.host[0] == 0) {
        NN_RELEASE(y);
        return rc < 0 ? -1 : 0;
    }
    if (permuted) {
        nn_tensor *laid = nn_tensor_new_view(y, a->ndim, a->sizes, a->strides, 0);
        NN_RELEASE(y);
        if (laid) NN_WITH_GRAD_MODE(false, y = nn_contiguous(laid));
        NN_RELEASE(laid);
        if (!y) return -1;
    }
    *out = y;
    return 1;
}

/* A float32 activation gradient k(g, a) on the CPU with AVX2+FMA as ATen's
   cpu_kernel_vec computes it (cpu/vmath.c): a contiguous input a of g's shape,
   g contiguous or one broadcast number (the vectorized loop either way). 1 with
   *out set, 0 when another path computes, -1 on error. No autograd. */
static int grad_sleef(nn_vact k, nn_tensor *g, nn_tensor *a, nn_tensor **out)
{
    *out = NULL;
    if (a->dtype != NN_FLOAT32 || g->dtype != NN_FLOAT32 || nn_device_of(a).type != NN_CPU ||
        nn_device_of(g).type != NN_CPU || !nn_is_contiguous(a) || !dense_or_scalar(g) || g->ndim != a->ndim ||
        memcmp(g->sizes, a->sizes, sizeof(int64_t) * (size_t)a->ndim) != 0)
        return 0;
    nn_tensor *gc = NULL, *y = NULL;
    NN_WITH_GRAD_MODE(false, gc = nn_contiguous(g));
    if (gc) y = nn_empty_on(nn_device_of(a), a->ndim, a->sizes, NN_FLOAT32); /* the CPU: not the default device */
    if (!y) {
        NN_RELEASE(gc);
        return -1;
    }
    nn_kernel_args ka = {.t = {y, gc, a}, .i = {k}};
    int rc = NN_KERNEL(nn_backend_of(a), math, (NN_MATH_vmath_act_grad, &ka));
    NN_RELEASE(gc);
    if (rc < 0 || ka.host[0] == 0) {
        NN_RELEASE(y);
        return rc < 0 ? -1 : 0;
    }
    *out = y;
    return 1;
}

/* A float64 exp, log, tanh or sigmoid on the CPU with AVX2+FMA, as ATen computes it
   (cpu/vmath_f64.c); sigmoid's vectorized loop restarts at each dense row of a
   strided input and does not run on one without dense rows. 1 with *out set, 0
   when another path computes, -1 on error. No autograd. */
static int unary_sleef_f64(nn_tensor *a, kern k, nn_tensor **out)
{
    *out = NULL;
    int vfn = k == K_EXP ? NN_VFN_EXP : k == K_LOG ? NN_VFN_LOG : k == K_TANH ? NN_VFN_TANH : -1;
    if (a->dtype != NN_FLOAT64 || nn_device_of(a).type != NN_CPU || (vfn < 0 && k != K_SIGMOID)) return 0;
    int64_t n = nn_numel(a), row = nn_is_contiguous(a) ? n : dense_row(a);
    nn_tensor *x = NULL, *y = NULL;
    NN_WITH_GRAD_MODE(false, x = nn_contiguous(a));
    if (x) y = nn_empty_on(NN_DEVICE_CPU, x->ndim, x->sizes, NN_FLOAT64);
    bool done = false;
    if (y && n > 0 && (vfn >= 0 || row > 0)) {
        /* the math kernel's vmath codes on float64 (cpu/vmath_ops.c): host[0] 0 when not computed */
        nn_kernel_args ka = {.t = {y, x}, .i = {vfn >= 0 ? vfn : (int64_t)NN_VACT_SIGMOID, row}};
        if (NN_KERNEL(nn_backend_of(x), math, (vfn >= 0 ? NN_MATH_vmath_map : NN_MATH_vmath_act, &ka)) < 0) NN_SET(y, NULL);
        done = ka.host[0] != 0;
    }
    NN_RELEASE(x);
    if (!y) return -1;
    if (!done) {
        NN_RELEASE(y);
        return 0;
    }
    *out = y;
    return 1;
}

/* The float ops of PyTorch's unary_float family: integers compute in float32. */
static nn_tensor *float_op(nn_tensor *a, kern k, const char *kernel, nn_op_id op, bool save_output)
{
    if (!a) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (a->dtype == NN_FLOAT16) return not_implemented(kernel, a->dtype);
    if (nn_dtype_is_complex(a->dtype)) {
        int f = k == K_EXP ? NN_CX_EXP : k == K_LOG ? NN_CX_LOG : k == K_SQRT ? NN_CX_SQRT : k == K_TANH ? NN_CX_TANH
              : k == K_SIGMOID ? NN_CX_SIGMOID : -1;
        if (f >= 0) return nn_complex_math((nn_complex_fn)f, a);
        return run1(&(kset){k, K_NONE, K_NONE, k, K_NONE, false}, (kctx){0}, a, a->dtype, false);
    }
    kset ks = {k, K_NONE, K_NONE, k, K_NONE, false};
    nn_tensor *out = NULL;
    int vfn = k == K_EXP ? NN_VFN_EXP : k == K_LOG ? NN_VFN_LOG : k == K_TANH ? NN_VFN_TANH : -1;
    int taken = vfn >= 0 || k == K_SIGMOID ? unary_sleef(a, NN_VACT_SIGMOID, vfn, NULL, &out) : 0;
    if (taken == 0) taken = unary_sleef_f64(a, k, &out);
    if (taken < 0) return NULL;
    if (!taken) out = run1(&ks, (kctx){0}, a, float_result(a->dtype), false);
    if (out && nn_record(op, 1, &a, 1, &out, 1, save_output ? &out : &a, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_exp(nn_tensor *a) { return float_op(a, K_EXP, "exp_vml_cpu", NN_OP_exp, true); }

/* grad * out (while a graph is built, the engine gives the saved output its
   grad_fn back, so the gradient of this one flows on through the node) */
int nn_exp_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return give(nn_mul(gout[0], nn_node_saved(n, 0)), &gin[0]);
}

nn_tensor *nn_log(nn_tensor *a) { return float_op(a, K_LOG, "log_vml_cpu", NN_OP_log, false); }

int nn_log_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return give(nn_div(gout[0], nn_node_saved(n, 0)), &gin[0]);
}

nn_tensor *nn_sqrt(nn_tensor *a) { return float_op(a, K_SQRT, "sqrt_vml_cpu", NN_OP_sqrt, true); }

/* grad / (2 * out) */
int nn_sqrt_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *twice = nn_mul_scalar(nn_node_saved(n, 0), 2.0);
    int rc = give(twice ? nn_div(gout[0], twice) : NULL, &gin[0]);
    NN_RELEASE(twice);
    return rc;
}

nn_tensor *nn_tanh(nn_tensor *a) { return float_op(a, K_TANH, "tanh_vml_cpu", NN_OP_tanh, true); }

/* grad * (1 - out^2); PyTorch's kernel fuses 1 - out * out */
int nn_tanh_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *out = nn_node_saved(n, 0), *g = gout[0];
    if (!nn_grad_enabled()) {
        static const kset ks = {K_TANH_GRAD, K_NONE, K_NONE, K_TANH_GRAD, K_NONE, false};
        nn_tensor *in[2] = {g, out};
        return give(run_kernel(&ks, (kctx){0}, 2, in, out->dtype, false), &gin[0]);
    }
    nn_tensor *y = widen(out), *gw = y ? widen(g) : NULL;
    nn_tensor *sq = gw ? nn_mul(y, y) : NULL, *d = sq ? nn_rsub_scalar(sq, 1.0) : NULL;
    int rc = give(d ? nn_mul(gw, d) : NULL, &gin[0]);
    NN_RELEASE(y);
    NN_RELEASE(gw);
    NN_RELEASE(sq);
    NN_RELEASE(d);
    return rc;
}

nn_tensor *nn_sigmoid(nn_tensor *a) { return float_op(a, K_SIGMOID, "sigmoid_cpu", NN_OP_sigmoid, true); }

/* grad * (1 - out) * out, in PyTorch's order */
int nn_sigmoid_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *y = widen(nn_node_saved(n, 0)), *g = y ? widen(gout[0]) : NULL;
    nn_tensor *d = g ? nn_rsub_scalar(y, 1.0) : NULL, *t = d ? nn_mul(g, d) : NULL;
    int rc = give(t ? nn_mul(t, y) : NULL, &gin[0]);
    NN_RELEASE(y);
    NN_RELEASE(g);
    NN_RELEASE(d);
    NN_RELEASE(t);
    return rc;
}

/* ------------------------------------------------------------------ relu */

nn_tensor *nn_relu(nn_tensor *a)
{
    if (a->dtype == NN_BOOL) {
        nn_error_set(NN_ERR_RUNTIME, "Boolean inputs not supported for relu");
        return NULL;
    }
    if (a->dtype == NN_FLOAT16) return not_implemented("clamp_min_cpu", a->dtype);
    static const kset ks = {K_RELU, K_NONE, K_NONE, K_RELU, K_RELU, false};
    nn_tensor *out = run1(&ks, (kctx){0}, a, a->dtype, false);
    if (out && nn_record(NN_OP_relu, 1, &a, 1, &out, 1, &out, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* 0 where out <= 0, else grad (PyTorch's threshold_backward on the result) */
int nn_relu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *off = compare_scalar(nn_node_saved(n, 0), 0.0, NN_LE);
    int rc = give(off ? masked(off, false, gout[0]) : NULL, &gin[0]);
    NN_RELEASE(off);
    return rc;
}

/* ------------------------------------------------------------------ gelu */

nn_tensor *nn_gelu(nn_tensor *a, nn_gelu_approx approximate)
{
    if (approximate != NN_GELU_NONE && approximate != NN_GELU_TANH) {
        nn_error_set(NN_ERR_RUNTIME, "approximate argument must be either none or tanh.");
        return NULL;
    }
    if (!is_float(a->dtype)) return not_implemented("GeluKernelImpl", a->dtype);
    static const kset erf_ks = {K_GELU, K_GELU_DNNL, K_GELU_BF16, K_GELU, K_NONE, true};
    static const kset tanh_ks = {K_GELU_TANH, K_GELU_TANH_VEC, K_GELU_TANH_BF16, K_GELU_TANH, K_NONE, false};
    bool tanh_form = approximate == NN_GELU_TANH;
    nn_tensor *out = NULL;
    int taken = tanh_form ? unary_sleef(a, NN_VACT_GELU_TANH, -1, NULL, &out) : 0;
    if (taken < 0) return NULL;
    if (taken) {
    } else if (tanh_form && !nn_is_contiguous(a) && dense_permuted(a)) {
        out = run1_in_memory_order(&tanh_ks, a);
    } else if (!tanh_form && a->dtype == NN_BFLOAT16 && nn_is_contiguous(a) && nn_numel(a) > 1 && nn_onednn_bf16()) {
        /* oneDNN's bfloat16 gelu (a contiguous tensor of 2+ elements): its float32 one rounded once
           (without oneDNN's bfloat16, ATen's own kernel below rounds every step) */
        nn_tensor *a32 = as_dtype(a, NN_FLOAT32), *c = NULL, *o32 = NULL;
        if (a32) NN_WITH_GRAD_MODE(false, c = nn_contiguous(a32));
        if (c) o32 = run1(&erf_ks, (kctx){0}, c, NN_FLOAT32, true);
        out = o32 ? as_dtype(o32, NN_BFLOAT16) : NULL;
        NN_RELEASE(a32);
        NN_RELEASE(c);
        NN_RELEASE(o32);
    } else {
        /* PyTorch hands contiguous float32 tensors of 2+ elements to oneDNN (erf form) */
        bool vec = nn_is_contiguous(a) && (tanh_form || nn_numel(a) > 1);
        out = run1(tanh_form ? &tanh_ks : &erf_ks, (kctx){0}, a, a->dtype, vec);
    }
    nn_op_params p = {.flags = tanh_form ? GELU_TANH : 0};
    if (out && nn_record(NN_OP_gelu, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* 0.5 * (1 + erf(a / sqrt 2)) as a gelu node in cdf mode, so that it can be
   differentiated again (used by gelu's backward with create_graph). */
static nn_tensor *gelu_cdf(nn_tensor *a)
{
    static const kset ks = {K_GELU_CDF, K_NONE, K_NONE, K_GELU_CDF, K_NONE, false};
    nn_tensor *out = run1(&ks, (kctx){0}, a, a->dtype, false);
    nn_op_params p = {.flags = GELU_CDF};
    if (out && nn_record(NN_OP_gelu, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* The standard normal density exp(-a^2 / 2) / sqrt(2 pi), differentiably. */
static nn_tensor *normal_pdf(nn_tensor *a)
{
    nn_tensor *sq = nn_mul(a, a), *h = sq ? nn_mul_scalar(sq, -0.5) : NULL, *e = h ? nn_exp(h) : NULL;
    nn_tensor *r = e ? nn_mul_scalar(e, PDF_D) : NULL;
    NN_RELEASE(sq);
    NN_RELEASE(h);
    NN_RELEASE(e);
    return r;
}

/* gelu'(a) = cdf(a) + a * pdf(a), built from differentiable ops */
static nn_tensor *gelu_erf_grad_graph(nn_tensor *a)
{
    nn_tensor *cdf = gelu_cdf(a), *pdf = cdf ? normal_pdf(a) : NULL, *t = pdf ? nn_mul(a, pdf) : NULL;
    nn_tensor *r = t ? nn_add(cdf, t) : NULL;
    NN_RELEASE(cdf);
    NN_RELEASE(pdf);
    NN_RELEASE(t);
    return r;
}

/* The tanh form's derivative as PyTorch's scalar backward writes it:
   0.5 (1 + t) + 0.5 a (1 - t^2) beta (1 + 3 kappa a^2), t = tanh(beta (a + kappa a^3)) */
static nn_tensor *gelu_tanh_grad_graph(nn_tensor *a)
{
    nn_tensor *tmp[14] = {NULL};
    nn_tensor *r = NULL;
    nn_tensor *sq = tmp[0] = nn_mul(a, a);
    nn_tensor *cube = sq ? (tmp[1] = nn_mul(sq, a)) : NULL;
    nn_tensor *kc = cube ? (tmp[2] = nn_mul_scalar(cube, KAPPA_D)) : NULL;
    nn_tensor *sum = kc ? (tmp[3] = nn_add(a, kc)) : NULL;
    nn_tensor *inner = sum ? (tmp[4] = nn_mul_scalar(sum, BETA_D)) : NULL;
    nn_tensor *t = inner ? (tmp[5] = nn_tanh(inner)) : NULL;
    nn_tensor *right = t ? (tmp[6] = nn_add_scalar(t, 1.0)) : NULL;
    nn_tensor *left_d = right ? (tmp[7] = nn_mul_scalar(right, 0.5)) : NULL;
    nn_tensor *t2 = left_d ? (tmp[8] = nn_mul(t, t)) : NULL;
    nn_tensor *tanh_d = t2 ? (tmp[9] = nn_rsub_scalar(t2, 1.0)) : NULL;
    nn_tensor *k3 = tanh_d ? (tmp[10] = nn_mul_scalar(sq, 3.0 * KAPPA_D)) : NULL;
    nn_tensor *k31 = k3 ? (tmp[11] = nn_add_scalar(k3, 1.0)) : NULL;
    nn_tensor *left = k31 ? (tmp[12] = nn_mul_scalar(a, 0.5)) : NULL;
    nn_tensor *lt = left ? (tmp[13] = nn_mul(left, tanh_d)) : NULL;
    nn_tensor *inner_d = lt ? nn_mul_scalar(k31, BETA_D) : NULL;
    nn_tensor *right_d = inner_d ? nn_mul(lt, inner_d) : NULL;
    if (right_d) r = nn_add(left_d, right_d);
    NN_RELEASE(inner_d);
    NN_RELEASE(right_d);
    for (int i = 0; i < 14; i++) NN_RELEASE(tmp[i]);
    return r;
}

int nn_gelu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *g = gout[0];
    nn_tensor *d = NULL;
    if (n->p.flags & GELU_CDF) {
        d = normal_pdf(a);
    } else if (!nn_grad_enabled()) {
        static const kset erf_ks = {K_GELU_GRAD, K_GELU_GRAD_DNNL, K_GELU_GRAD_BF16, K_GELU_GRAD, K_NONE, true};
        static const kset tanh_ks = {K_GELU_TANH_GRAD, K_GELU_TANH_GRAD_VEC, K_GELU_TANH_GRAD_BF16, K_GELU_TANH_GRAD,
                                     K_NONE, false};
        bool tanh_form = n->p.flags & GELU_TANH;
        nn_tensor *r = NULL;
        int taken = tanh_form ? grad_sleef(NN_VACT_GELU_TANH_GRAD, g, a, &r) : 0;
        if (taken) return give(r, &gin[0]);
        nn_tensor *in[2] = {g, a};
        bool vec = nn_is_contiguous(a) && (tanh_form ? dense_or_scalar(g) : nn_numel(a) > 1);
        if (!tanh_form && vec && a->dtype == NN_BFLOAT16 && nn_onednn_bf16()) {
            /* oneDNN's bfloat16 backward: its float32 one rounded once */
            nn_tensor *g32 = as_dtype(g, NN_FLOAT32), *a32 = g32 ? as_dtype(a, NN_FLOAT32) : NULL, *r32 = NULL;
            nn_tensor *in32[2] = {g32, a32};
            if (a32) r32 = run_kernel(&erf_ks, (kctx){0}, 2, in32, NN_FLOAT32, true);
            nn_tensor *r = r32 ? as_dtype(r32, NN_BFLOAT16) : NULL;
            NN_RELEASE(g32);
            NN_RELEASE(a32);
            NN_RELEASE(r32);
            return give(r, &gin[0]);
        }
        return give(run_kernel(tanh_form ? &tanh_ks : &erf_ks, (kctx){0}, 2, in, a->dtype, vec), &gin[0]);
    } else {
        nn_tensor *wide = widen(a);
        d = !wide ? NULL : n->p.flags & GELU_TANH ? gelu_tanh_grad_graph(wide) : gelu_erf_grad_graph(wide);
        NN_RELEASE(wide);
    }
    int rc = give(d ? nn_mul(g, d) : NULL, &gin[0]);
    NN_RELEASE(d);
    return rc;
}

/* ------------------------------------------------- leaky_relu, elu, silu */

/* The activations PyTorch only has for float32, float64 and bfloat16, with
   scalar parameters checked against the tensor's type. */
static nn_tensor *activation(nn_tensor *a, const kset *ks, const char *kernel, int nparams, const double *params,
                             nn_op_id op, nn_op_params *p)
{
    if (!is_float(a->dtype)) return not_implemented(kernel, a->dtype);
    kctx c = {0};
    for (int i = 0; i < nparams; i++) {
        if (param(params[i], a->dtype, &c.d[i], &c.f[i], &c.i[i]) < 0) return NULL;
        p->f[i] = params[i];
    }
    nn_tensor *out = NULL;
    if (ks->f32 == K_SILU || ks->f32 == K_ELU) { /* negcoef, poscoef, negiptcoef (scale 1) */
        float coef[3] = {c.f[0], 1.0f, 1.0f};
        if (unary_sleef(a, ks->f32 == K_SILU ? NN_VACT_SILU : NN_VACT_ELU, -1, coef, &out) < 0) return NULL;
    }
    if (ks->f32 == K_SOFTPLUS) { /* beta, threshold */
        float coef[3] = {c.f[0], c.f[1], 0.0f};
        if (unary_sleef(a, NN_VACT_SOFTPLUS, -1, coef, &out) < 0) return NULL;
    }
    if (!out) out = run1(ks, c, a, a->dtype, false);
    if (out && nn_record(op, 1, &a, 1, &out, 1, &a, p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_leaky_relu(nn_tensor *a, double negative_slope)
{
    static const kset ks = {K_LEAKY_RELU, K_NONE, K_NONE, K_LEAKY_RELU, K_NONE, false};
    nn_op_params p = {0};
    return activation(a, &ks, "leaky_relu_cpu", 1, &negative_slope, NN_OP_leaky_relu, &p);
}

/* grad where a > 0, else grad * slope */
int nn_leaky_relu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *g = gout[0];
    nn_tensor *pos = compare_scalar(a, 0.0, NN_GT), *scaled = pos ? nn_mul_scalar(g, n->p.f[0]) : NULL;
    int rc = give(scaled ? nn_where(pos, g, scaled) : NULL, &gin[0]);
    NN_RELEASE(pos);
    NN_RELEASE(scaled);
    return rc;
}

nn_tensor *nn_elu(nn_tensor *a, double alpha)
{
    static const kset ks = {K_ELU, K_NONE, K_NONE, K_ELU, K_NONE, false};
    nn_op_params p = {0};
    return activation(a, &ks, "elu_cpu", 1, &alpha, NN_OP_elu, &p);
}

/* grad where a > 0, else grad * alpha * exp(a) */
int nn_elu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = widen(nn_node_saved(n, 0)), *g = a ? widen(gout[0]) : NULL;
    nn_tensor *pos = g ? compare_scalar(a, 0.0, NN_GT) : NULL, *ga = pos ? nn_mul_scalar(g, n->p.f[0]) : NULL;
    nn_tensor *e = ga ? nn_exp(a) : NULL, *neg = e ? nn_mul(ga, e) : NULL;
    int rc = give(neg ? nn_where(pos, g, neg) : NULL, &gin[0]);
    NN_RELEASE(a);
    NN_RELEASE(g);
    NN_RELEASE(pos);
    NN_RELEASE(ga);
    NN_RELEASE(e);
    NN_RELEASE(neg);
    return rc;
}

nn_tensor *nn_silu(nn_tensor *a)
{
    static const kset ks = {K_SILU, K_NONE, K_SILU_BF16, K_SILU, K_NONE, false};
    nn_op_params p = {0};
    return activation(a, &ks, "silu_cpu", 0, NULL, NN_OP_silu, &p);
}

/* grad * s * (1 + a * (1 - s)), s = sigmoid(a); PyTorch's kernel fuses the inner multiply-add */
int nn_silu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *g = gout[0];
    if (!nn_grad_enabled()) {
        static const kset ks = {K_SILU_GRAD, K_SILU_GRAD_VEC, K_SILU_GRAD_BF16, K_SILU_GRAD, K_NONE, false};
        nn_tensor *r = NULL;
        if (grad_sleef(NN_VACT_SILU_GRAD, g, a, &r)) return give(r, &gin[0]);
        nn_tensor *in[2] = {g, a};
        bool vec = nn_is_contiguous(a) && dense_or_scalar(g);
        return give(run_kernel(&ks, (kctx){0}, 2, in, a->dtype, vec), &gin[0]);
    }
    nn_tensor *x = widen(a), *gw = x ? widen(g) : NULL;
    nn_tensor *s = gw ? nn_sigmoid(x) : NULL, *oms = s ? nn_rsub_scalar(s, 1.0) : NULL, *t = oms ? nn_mul(x, oms) : NULL;
    nn_tensor *t1 = t ? nn_add_scalar(t, 1.0) : NULL, *gs = t1 ? nn_mul(gw, s) : NULL;
    int rc = give(gs ? nn_mul(gs, t1) : NULL, &gin[0]);
    NN_RELEASE(x);
    NN_RELEASE(gw);
    NN_RELEASE(s);
    NN_RELEASE(oms);
    NN_RELEASE(t);
    NN_RELEASE(t1);
    NN_RELEASE(gs);
    return rc;
}

/* ------------------------------------------------------- softplus, threshold */

nn_tensor *nn_softplus(nn_tensor *a, double beta, double threshold)
{
    static const kset ks = {K_SOFTPLUS, K_NONE, K_NONE, K_SOFTPLUS, K_NONE, false};
    double params[2] = {beta, threshold};
    nn_op_params p = {0};
    return activation(a, &ks, "softplus_cpu", 2, params, NN_OP_softplus, &p);
}

/* grad where a * beta > threshold, else grad * z / (z + 1), z = exp(a * beta) */
int nn_softplus_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = widen(nn_node_saved(n, 0)), *g = a ? widen(gout[0]) : NULL;
    nn_tensor *ab = g ? nn_mul_scalar(a, n->p.f[0]) : NULL, *linear = ab ? compare_scalar(ab, n->p.f[1], NN_GT) : NULL;
    nn_tensor *z = linear ? nn_exp(ab) : NULL, *gz = z ? nn_mul(g, z) : NULL;
    nn_tensor *z1 = gz ? nn_add_scalar(z, 1.0) : NULL, *q = z1 ? nn_div(gz, z1) : NULL;
    int rc = give(q ? nn_where(linear, g, q) : NULL, &gin[0]);
    NN_RELEASE(a);
    NN_RELEASE(g);
    NN_RELEASE(ab);
    NN_RELEASE(linear);
    NN_RELEASE(z);
    NN_RELEASE(gz);
    NN_RELEASE(z1);
    NN_RELEASE(q);
    return rc;
}

nn_tensor *nn_threshold(nn_tensor *a, double threshold, double value)
{
    if (a->dtype == NN_BOOL || a->dtype == NN_FLOAT16) return not_implemented("threshold_cpu", a->dtype);
    static const kset ks = {K_THRESHOLD, K_NONE, K_NONE, K_THRESHOLD, K_THRESHOLD, false};
    kctx c = {0};
    if (param(threshold, a->dtype, &c.d[0], &c.f[0], &c.i[0]) < 0 || param(value, a->dtype, &c.d[1], &c.f[1], &c.i[1]) < 0)
        return NULL;
    nn_tensor *out = run1(&ks, c, a, a->dtype, false);
    nn_op_params p = {.f = {threshold, value}};
    if (out && nn_record(NN_OP_threshold, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* 0 where a <= threshold, else grad */
int nn_threshold_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *off = compare_scalar(nn_node_saved(n, 0), n->p.f[0], NN_LE);
    int rc = give(off ? masked(off, false, gout[0]) : NULL, &gin[0]);
    NN_RELEASE(off);
    return rc;
}

/* ------------------------------------------------------------------ prelu */

/* weight viewed so that it broadcasts along dim 1 of a ([1, C, 1, ...]), or
   as a 0-dim tensor when it has one element; new reference. */
static nn_tensor *prelu_weight_view(nn_tensor *a, nn_tensor *weight)
{
    if (nn_numel(weight) == 1 || a->ndim < 2) return nn_view(weight, 0, NULL);
    int64_t sizes[NN_MAX_DIMS];
    for (int d = 0; d < a->ndim; d++) sizes[d] = d == 1 ? a->sizes[1] : 1;
    return nn_view(weight, a->ndim, sizes);
}

nn_tensor *nn_prelu(nn_tensor *a, nn_tensor *weight)
{
    if (weight->ndim > 1) {
        nn_error_set(NN_ERR_RUNTIME, "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = %d",
                     weight->ndim);
        return NULL;
    }
    int64_t nw = nn_numel(weight), channels = a->ndim >= 2 ? a->sizes[1] : 1;
    if (nw != 1) {
        if (a->ndim == 0) {
            nn_error_set(NN_ERR_RUNTIME, "Not allow zero-dim input tensor.");
            return NULL;
        }
        if (nw != channels) {
            nn_error_set(NN_ERR_RUNTIME,
                         "Mismatch of parameter numbers and input channel size. Found parameter numbers = %lld and "
                         "channel size = %lld.",
                         (long long)nw, (long long)channels);
            return NULL;
        }
    }
    if (weight->dtype != a->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "Found dtype %s but expected %s", type_title(weight->dtype), type_title(a->dtype));
        return NULL;
    }
    if (!is_float(a->dtype)) return not_implemented("prelu_cpu", a->dtype);
    static const kset ks = {K_PRELU, K_NONE, K_NONE, K_PRELU, K_NONE, false};
    nn_tensor *w = NULL;
    NN_WITH_GRAD_MODE(false, w = prelu_weight_view(a, weight));
    if (!w) return NULL;
    nn_tensor *in[2] = {a, w};
    nn_tensor *out = run_kernel(&ks, (kctx){0}, 2, in, a->dtype, false);
    NN_RELEASE(w);
    nn_tensor *inputs[2] = {a, weight};
    if (out && nn_record(NN_OP_prelu, 2, inputs, 1, &out, 2, inputs, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* input: grad where a > 0, else weight * grad;
   weight: the sum of a * grad where a <= 0 over all dims but the channel dim */
int nn_prelu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *weight = nn_node_saved(n, 1), *g = gout[0];
    nn_tensor *pos = compare_scalar(a, 0.0, NN_GT), *w = pos ? prelu_weight_view(a, weight) : NULL;
    int rc = w ? 0 : -1;
    if (rc == 0 && nn_node_needs_input_grad(n, 0)) {
        nn_tensor *wg = nn_mul(w, g);
        rc = give(wg ? nn_where(pos, g, wg) : NULL, &gin[0]);
        NN_RELEASE(wg);
    }
    if (rc == 0 && nn_node_needs_input_grad(n, 1)) {
        nn_tensor *ag = nn_mul(a, g), *zero = ag ? nn_scalar(0.0, ag->dtype) : NULL;
        nn_tensor *contrib = zero ? nn_where(pos, zero, ag) : NULL, *sum = NULL;
        if (contrib) {
            int dims[NN_MAX_DIMS], nd = 0;
            bool per_channel = nn_numel(weight) != 1 && a->ndim >= 2;
            for (int d = 0; d < a->ndim; d++)
                if (!(per_channel && d == 1)) dims[nd++] = d;
            /* a 0-dim input: nothing to reduce */
            if (nd == 0) {
                NN_RETAIN(contrib);
                sum = contrib;
            } else {
                sum = nn_sum(contrib, nd, dims, false);
            }
        }
        rc = give(sum ? nn_reshape(sum, weight->ndim, weight->sizes) : NULL, &gin[1]);
        NN_RELEASE(ag);
        NN_RELEASE(zero);
        NN_RELEASE(contrib);
        NN_RELEASE(sum);
    }
    NN_RELEASE(pos);
    NN_RELEASE(w);
    return rc;
}

/* ------------------------------------------------------------------ clamp */

/* A bound as PyTorch sees a Python number: integral values are ints. */
static bool integral(double v) { return v == floor(v) && fabs(v) < 0x1p53; }

nn_tensor *nn_clamp(nn_tensor *a, double min, bool has_min, double max, bool has_max)
{
    if (!has_min && !has_max) {
        nn_error_set(NN_ERR_RUNTIME, "torch.clamp: At least one of 'min' or 'max' must not be None");
        return NULL;
    }
    /* result_type(a, min, max): a float bound makes an integer tensor float32,
       an int bound makes a bool tensor int64 */
    nn_dtype dt = a->dtype;
    bool float_bound = (has_min && !integral(min)) || (has_max && !integral(max));
    if (!nn_dtype_is_floating(dt) && float_bound) dt = nn_default_dtype();
    else if (dt == NN_BOOL) dt = NN_INT64;
    const char *kernel = has_min && has_max ? "clamp_scalar_cpu" : has_min ? "clamp_min_cpu" : "clamp_max_scalar_cpu";
    if (dt == NN_FLOAT16) return not_implemented(kernel, dt);
    kctx c = {0};
    if ((has_min && param(min, dt, &c.d[0], &c.f[0], &c.i[0]) < 0) ||
        (has_max && param(max, dt, &c.d[1], &c.f[1], &c.i[1]) < 0))
        return NULL;
    kern k = has_min && has_max ? K_CLAMP : has_min ? K_CLAMP_MIN : K_CLAMP_MAX;
    kset ks = {k, K_NONE, K_NONE, k, k, false};
    nn_tensor *out = run1(&ks, c, a, dt, false);
    nn_op_params p = {.f = {min, max}, .flags = (has_min ? CLAMP_MIN : 0) | (has_max ? CLAMP_MAX : 0)};
    if (out && nn_record(NN_OP_clamp, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* grad where min <= a <= max (the bounds given), else 0 */
int nn_clamp_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *g = gout[0];
    nn_tensor *r = g;
    NN_RETAIN(r);
    static const nn_cmp keep[2] = {NN_GE, NN_LE};
    for (int b = 0; b < 2 && r; b++) {
        if (!(n->p.flags & (b == 0 ? CLAMP_MIN : CLAMP_MAX))) continue;
        nn_tensor *mask = compare_scalar(a, n->p.f[b], keep[b]);
        nn_tensor *next = mask ? masked(mask, true, r) : NULL;
        NN_RELEASE(mask);
        NN_SET(r, next);
    }
    return give(r, &gin[0]);
}
