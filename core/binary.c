/*
 * binary.c — elementwise binary ops with broadcasting and PyTorch's type
 * promotion (add, sub, mul, div, pow, maximum, minimum, floor_divide, remainder,
 * comparisons, where, bitwise and/or/xor/not),
 * their in-place forms, and each op's backward beside its forward.
 *
 * Kernels compute in float32, float64 or int64; other dtypes are converted
 * to one of those first (half types compute in float32, as in PyTorch).
 */
#include <math.h>

#include <string.h>

#include "backend.h"
#include "nn_parallel.h"
#include "nn_math.h"
#include "nn_ops_extra.h"

/* The kernel's op codes (core/backend.h) under this file's names. */
typedef nn_binop binop;
#define BIN_ADD NN_BINOP_ADD
#define BIN_SUB NN_BINOP_SUB
#define BIN_MUL NN_BINOP_MUL
#define BIN_DIV NN_BINOP_DIV
#define BIN_POW NN_BINOP_POW
#define BIN_MAX NN_BINOP_MAX
#define BIN_MIN NN_BINOP_MIN
#define BIN_FLOORDIV NN_BINOP_FLOORDIV
#define BIN_MOD NN_BINOP_MOD
#define BIN_EQ NN_BINOP_EQ
#define BIN_NE NN_BINOP_NE
#define BIN_LT NN_BINOP_LT
#define BIN_LE NN_BINOP_LE
#define BIN_GT NN_BINOP_GT
#define BIN_GE NN_BINOP_GE

static bool is_comparison(binop op) { return op >= BIN_EQ && op <= NN_BINOP_GE; }

/* The dtype a kernel computes in for a result dtype. */
static nn_dtype compute_dtype(nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT64: return NN_FLOAT64;
    case NN_FLOAT32: case NN_FLOAT16: case NN_BFLOAT16: return NN_FLOAT32;
    default: return NN_INT64;
    }
}


/* A no-grad conversion to dtype (the operand itself, retained, when it already has it). */
static nn_tensor *as_dtype(nn_tensor *t, nn_dtype dt)
{
    if (t->dtype == dt) {
        NN_RETAIN(t);
        return t;
    }
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *r = nn_to_dtype(t, dt);
    nn_set_grad_enabled(prev);
    return r;
}

/* as_dtype on the given device: a 0-dim CPU operand of a device op is moved there
   by value, as PyTorch allows (nn_common_device let only such operands differ). */
static nn_tensor *as_device_dtype(nn_tensor *t, nn_device device, nn_dtype dt)
{
    return nn_to_op_device(as_dtype(t, dt), device);
}

static const char *type_title(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "Float", [NN_FLOAT64] = "Double", [NN_FLOAT16] = "Half", [NN_BFLOAT16] = "BFloat16",
        [NN_INT64] = "Long",    [NN_INT32] = "Int",      [NN_BOOL] = "Bool",
        [NN_UINT8] = "Byte",    [NN_INT8] = "Char",      [NN_INT16] = "Short",
    };
    return names[dt];
}

/* Can a value of dtype from be written into a tensor of dtype to (PyTorch's canCast)? */
static bool can_cast(nn_dtype from, nn_dtype to)
{
    if (nn_dtype_is_floating(from) && !nn_dtype_is_floating(to)) return false;
    if (from != NN_BOOL && to == NN_BOOL) return false;
    return true;
}

/* Does an integer tensor hold a negative value? */
static bool has_negative(const nn_tensor *t)
{
    if (nn_dtype_is_floating(t->dtype) || t->dtype == NN_BOOL) return false;
    int64_t n = nn_numel(t), index[NN_MAX_DIMS] = {0};
    for (int64_t i = 0; i < n; i++) {
        if (nn_get_int64(t, index) < 0) return true;
        for (int d = t->ndim - 1; d >= 0 && ++index[d] == t->sizes[d]; d--) index[d] = 0;
    }
    return false;
}

/* Does a tensor hold a zero (an integer divisor PyTorch refuses)? */
static bool has_zero(const nn_tensor *t)
{
    int64_t n = nn_numel(t), index[NN_MAX_DIMS] = {0};
    for (int64_t i = 0; i < n; i++) {
        if (nn_get_double(t, index) == 0) return true;
        for (int d = t->ndim - 1; d >= 0 && ++index[d] == t->sizes[d]; d--) index[d] = 0;
    }
    return false;
}

/* Computes op(a, b) into a new tensor, or into `into` (which must have the
   broadcast shape) when given. No autograd. */
static nn_tensor *binary_compute(binop op, nn_tensor *a, nn_tensor *b, double alpha, nn_tensor *into)
{
    if (!a || !b) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (nn_dtype_is_complex(a->dtype) || nn_dtype_is_complex(b->dtype)) return nn_complex_binary(op, a, b, alpha, into);
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(a->ndim, a->sizes, b->ndim, b->sizes, &nd, shape) < 0) return NULL;
    nn_device device = NN_DEVICE_CPU;
    nn_tensor *operands[3] = {a, b, into};
    /* all on the CPU (NN_CPU is 0): the common case skips the device walk */
    if ((a->storage->device.type | b->storage->device.type | (into ? into->storage->device.type : NN_CPU)) != NN_CPU &&
        nn_common_device(into ? 3 : 2, operands, &device) < 0)
        return NULL;
    nn_dtype result = nn_result_type(a, b);
    if (op == BIN_DIV && !nn_dtype_is_floating(result)) result = nn_default_dtype();
    if (op == BIN_POW && !nn_dtype_is_floating(result) && has_negative(b)) {
        nn_error_set(NN_ERR_RUNTIME, "Integers to negative integer powers are not allowed.");
        return NULL;
    }
    nn_dtype cd = compute_dtype(result);
    if ((op == BIN_FLOORDIV || op == BIN_MOD || op == NN_BINOP_FMOD) && cd == NN_INT64 && has_zero(b)) {
        nn_error_set(NN_ERR_RUNTIME, "ZeroDivisionError");
        return NULL;
    }
    nn_dtype out_dtype = is_comparison(op) ? NN_BOOL : result;
    if (into) {
        if (into->ndim != nd || memcmp(into->sizes, shape, sizeof(int64_t) * (size_t)nd) != 0) {
            char s1[256], s2[256];
            nn_error_set(NN_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s",
                         nn_shape_str(into->ndim, into->sizes, s1, sizeof s1), nn_shape_str(nd, shape, s2, sizeof s2));
            return NULL;
        }
        if (!can_cast(out_dtype, into->dtype)) {
            nn_error_set(NN_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                         type_title(out_dtype), type_title(into->dtype));
            return NULL;
        }
    }
    if (nn_numel(a) == 0 || nn_numel(b) == 0) {
        if (into) {
            NN_RETAIN(into);
            return into;
        }
        return nn_empty_on(device, nd, shape, out_dtype);
    }
    /* a half type: TensorIterator casts every operand (a Python number too) to it first */
    nn_tensor *ha = NULL, *hb = NULL;
    if (result == NN_FLOAT16 || result == NN_BFLOAT16) {
        if (a->dtype != result && !(ha = as_dtype(a, result))) return NULL;
        if (b->dtype != result && !(hb = as_dtype(b, result))) {
            NN_RELEASE(ha);
            return NULL;
        }
        alpha = result == NN_FLOAT16 ? nn_half_to_float(nn_float_to_half((float)alpha))
                                     : nn_bfloat16_to_float(nn_float_to_bfloat16((float)alpha));
    }
    nn_tensor *ca = as_device_dtype(ha ? ha : a, device, cd), *cb = ca ? as_device_dtype(hb ? hb : b, device, cd) : NULL;
    NN_RELEASE(ha);
    NN_RELEASE(hb);
    nn_tensor *out = NULL, *tmp = NULL;
    if (!cb) goto done;
    /* write straight into the destination when it has the kernel's layout */
    nn_dtype kernel_out = is_comparison(op) ? NN_BOOL : cd;
    nn_tensor *dest = into;
    if (!dest) dest = out = nn_empty_on(device, nd, shape, out_dtype);
    if (!dest) goto done;
    nn_tensor *target = dest;
    if (dest->dtype != kernel_out || (into && (into == a || into == b) && (ca != a || cb != b))) {
        /* different dtype, or an in-place operand that was converted: compute aside */
        target = tmp = nn_empty_on(device, nd, shape, kernel_out);
        if (!tmp) {
            NN_SET(out, NULL);
            goto done;
        }
    }
    /* operands already of the result's shape go in as they are; others as broadcast views */
    nn_tensor va, vb;
    const nn_tensor *ops[3] = {target, ca, cb};
    if (ca->ndim != nd || memcmp(ca->sizes, shape, sizeof(int64_t) * (size_t)nd) != 0) {
        nn_broadcast_into(ca, nd, shape, &va);
        ops[1] = &va;
    }
    if (cb->ndim != nd || memcmp(cb->sizes, shape, sizeof(int64_t) * (size_t)nd) != 0) {
        nn_broadcast_into(cb, nd, shape, &vb);
        ops[2] = &vb;
    }
    if (NN_KERNEL(nn_backend_of(target), binary, (op, target, ops[1], ops[2], alpha)) < 0) {
        NN_SET(out, NULL);
        goto done;
    }
    if (tmp) {
        bool prev = nn_set_grad_enabled(false);
        /* the raw copy path: dest is fresh or checked by the caller */
        int rc = nn_copy_(dest, tmp);
        nn_set_grad_enabled(prev);
        if (rc < 0) NN_SET(out, NULL);
    }
    if (into && dest == into) {
        NN_RETAIN(into);
        out = into;
    }
done:
    NN_RELEASE(ca);
    NN_RELEASE(cb);
    NN_RELEASE(tmp);
    return out;
}

/* ------------------------------------------------------- out-of-place ops */

nn_tensor *nn_add_scaled(nn_tensor *a, nn_tensor *b, double alpha)
{
    nn_tensor *out = binary_compute(BIN_ADD, a, b, alpha, NULL);
    nn_tensor *in[2] = {a, b};
    if (out && nn_needs_grad(2, in)) { /* the params block is only worth filling when recording */
        nn_op_params p = {.f = {alpha}};
        if (nn_record(NN_OP_add, 2, in, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    }
    return out;
}

nn_tensor *nn_add(nn_tensor *a, nn_tensor *b) { return nn_add_scaled(a, b, 1.0); }

nn_tensor *nn_sub(nn_tensor *a, nn_tensor *b)
{
    if (!a || !b) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (a->dtype == NN_BOOL && b->dtype == NN_BOOL) {
        nn_error_set(NN_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported. "
                                     "Use the `^` or `logical_xor()` operator instead.");
        return NULL;
    }
    nn_tensor *out = binary_compute(BIN_SUB, a, b, 1.0, NULL);
    nn_tensor *in[2] = {a, b};
    if (out && nn_record(NN_OP_sub, 2, in, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* Saves, for a product-like op, each operand only when the other one needs it. */
static nn_tensor *record_product(nn_op_id op, nn_tensor *a, nn_tensor *b, nn_tensor *out, nn_tensor *save_out)
{
    if (!out) return NULL;
    nn_tensor *in[2] = {a, b};
    nn_tensor *save[3] = {b->requires_grad ? a : NULL, a->requires_grad || op == NN_OP_div ? b : NULL, save_out};
    if (out && nn_record(op, 2, in, 1, &out, save_out ? 3 : 2, save, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_mul(nn_tensor *a, nn_tensor *b) { return record_product(NN_OP_mul, a, b, binary_compute(BIN_MUL, a, b, 1, NULL), NULL); }

nn_tensor *nn_div(nn_tensor *a, nn_tensor *b) { return record_product(NN_OP_div, a, b, binary_compute(BIN_DIV, a, b, 1, NULL), NULL); }

nn_tensor *nn_pow(nn_tensor *a, nn_tensor *b)
{
    nn_tensor *out = binary_compute(BIN_POW, a, b, 1, NULL);
    nn_tensor *in[2] = {a, b}, *save[3] = {a, b, out};
    if (out && nn_record(NN_OP_pow_tensor, 2, in, 1, &out, 3, save, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* The bitwise ops: integer and bool operands only; nothing to record. */
static nn_tensor *bitwise(binop op, const char *name, nn_tensor *a, nn_tensor *b)
{
    if (!a || !b) return NULL; /* an operand a nested call failed to make (its error is current) */
    nn_dtype result = nn_result_type(a, b);
    if (nn_dtype_is_floating(result)) {
        nn_error_set(NN_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'", name, type_title(result));
        return NULL;
    }
    return binary_compute(op, a, b, 1, NULL);
}

nn_tensor *nn_bitwise_and(nn_tensor *a, nn_tensor *b) { return bitwise(NN_BINOP_AND, "bitwise_and", a, b); }
nn_tensor *nn_bitwise_or(nn_tensor *a, nn_tensor *b) { return bitwise(NN_BINOP_OR, "bitwise_or", a, b); }
nn_tensor *nn_bitwise_xor(nn_tensor *a, nn_tensor *b) { return bitwise(NN_BINOP_XOR, "bitwise_xor", a, b); }

nn_tensor *nn_bitwise_not(nn_tensor *a)
{
    if (nn_dtype_is_floating(a->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "\"bitwise_not_cpu\" not implemented for '%s'", type_title(a->dtype));
        return NULL;
    }
    /* ~x is x ^ True for bools, x ^ -1 (all bits) for integers, in x's dtype */
    nn_tensor *ones = a->dtype == NN_BOOL ? nn_full_on(nn_device_of(a), 0, NULL, 1, NN_BOOL) : nn_wrapped_number(-1, true);
    nn_tensor *r = ones ? binary_compute(NN_BINOP_XOR, a, ones, 1, NULL) : NULL;
    NN_RELEASE(ones);
    return r;
}

static nn_tensor *with_scalar(double s, nn_tensor *(*fn)(nn_tensor *, nn_tensor *), nn_tensor *a, bool scalar_first)
{
    nn_tensor *w = nn_wrapped_number(s, false);
    if (!w) return NULL;
    nn_tensor *out = scalar_first ? fn(w, a) : fn(a, w);
    NN_RELEASE(w);
    return out;
}

/* x ** 2, x ** 3 and x ** -2 of a float tensor as PyTorch 1.13's pow kernel computes them
   (PowKernel.cpp: base * base, base * base * base, 1 / (base * base)), not through powf
   (glibc's powf(x, 2) is not always x * x rounded). New reference. */
static nn_tensor *pow_by_products(nn_tensor *a, double exponent)
{
    nn_tensor *sq = binary_compute(BIN_MUL, a, a, 1, NULL), *out = NULL;
    if (!sq || exponent == 2) return sq;
    if (exponent == 3) {
        out = binary_compute(BIN_MUL, sq, a, 1, NULL);
    } else {
        nn_tensor *one = nn_wrapped_number(1.0, false);
        out = one ? binary_compute(BIN_DIV, one, sq, 1, NULL) : NULL;
        NN_RELEASE(one);
    }
    NN_RELEASE(sq);
    return out;
}

/* x ** e of a contiguous float32 CPU tensor for the exponents PyTorch's pow kernel
   sends to Vectorized::pow (cpu/vmath.c's nn_vmath_pow_f32), and 0.5, -0.5, -1 as
   its sqrt, rsqrt and reciprocal kernels: correctly rounded sqrt, 1 / sqrt, 1 / x.
   NULL (no error set) when not of that kind. New reference. */
static nn_tensor *pow_float32_aten(nn_tensor *a, double e)
{
    if (a->dtype != NN_FLOAT32 || nn_device_of(a).type != NN_CPU || !nn_is_contiguous(a)) return NULL;
    nn_tensor *out = nn_empty_on(NN_DEVICE_CPU, a->ndim, a->sizes, NN_FLOAT32);
    nn_kernel_args ka = {.t = {out, a}, .d = {e}};
    /* the math kernel's vmath_pow (cpu/vmath_ops.c); host[0] 0 when this CPU lacks AVX2+FMA */
    if (out && (NN_KERNEL(nn_backend_of(a), math, (NN_MATH_vmath_pow, &ka)) < 0 || ka.host[0] == 0)) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_pow_scalar(nn_tensor *a, double exponent)
{
    if (!a) return NULL; /* an operand a nested call failed to make (its error is current) */
    nn_tensor *w = nn_wrapped_number(exponent, exponent == floor(exponent) && fabs(exponent) < 1e15);
    if (!w) return NULL;
    bool by_products = nn_dtype_is_floating(a->dtype) && (exponent == 2 || exponent == 3 || exponent == -2);
    nn_tensor *out = by_products ? pow_by_products(a, exponent) : pow_float32_aten(a, exponent);
    if (!out && !by_products) out = binary_compute(BIN_POW, a, w, 1, NULL);
    NN_RELEASE(w);
    nn_op_params p = {.f = {exponent}};
    if (out && nn_record(NN_OP_pow, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_rpow_scalar(double base, bool integer_base, nn_tensor *a)
{
    nn_tensor *w = nn_wrapped_number(base, integer_base);
    if (!w) return NULL;
    nn_tensor *out = binary_compute(BIN_POW, w, a, 1, NULL);
    NN_RELEASE(w);
    nn_op_params p = {.f = {base}};
    if (out && nn_record(NN_OP_rpow, 1, &a, 1, &out, 1, &out, &p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_rsub(nn_tensor *a, nn_tensor *number)
{
    nn_tensor *out = binary_compute(BIN_SUB, number, a, 1, NULL);
    if (out && nn_record(NN_OP_rsub, 1, &a, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_rsub_scalar(nn_tensor *a, double s)
{
    nn_tensor *w = nn_wrapped_number(s, false);
    nn_tensor *out = w ? nn_rsub(a, w) : NULL;
    NN_RELEASE(w);
    return out;
}

static nn_tensor *extremum(binop op, nn_op_id id, nn_tensor *a, nn_tensor *b)
{
    nn_tensor *out = binary_compute(op, a, b, 1, NULL);
    nn_tensor *in[2] = {a, b};
    if (out && nn_record(id, 2, in, 1, &out, 2, in, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_maximum(nn_tensor *a, nn_tensor *b) { return extremum(BIN_MAX, NN_OP_maximum, a, b); }
nn_tensor *nn_minimum(nn_tensor *a, nn_tensor *b) { return extremum(BIN_MIN, NN_OP_minimum, a, b); }

nn_tensor *nn_add_scalar(nn_tensor *a, double s) { return with_scalar(s, nn_add, a, false); }
nn_tensor *nn_mul_scalar(nn_tensor *a, double s) { return with_scalar(s, nn_mul, a, false); }
nn_tensor *nn_div_scalar(nn_tensor *a, double s) { return with_scalar(s, nn_div, a, false); }

nn_tensor *nn_floor_divide(nn_tensor *a, nn_tensor *b)
{
    /* not differentiable: PyTorch 1.13 records a node whose backward raises */
    nn_tensor *out = binary_compute(BIN_FLOORDIV, a, b, 1, NULL);
    nn_tensor *in[2] = {a, b};
    if (out && nn_record(NN_OP_floor_divide, 2, in, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_fmod(nn_tensor *a, nn_tensor *b)
{
    nn_tensor *out = binary_compute(NN_BINOP_FMOD, a, b, 1, NULL);
    if (!out) return NULL;
    nn_tensor *in[2] = {a, b};
    int rc = b->is_wrapped_number ? nn_record(NN_OP_fmod_scalar, 1, &a, 1, &out, 0, NULL, NULL)
                                  : nn_record(NN_OP_fmod, 2, in, 1, &out, 2, in, NULL);
    if (rc < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_remainder(nn_tensor *a, nn_tensor *b)
{
    nn_tensor *out = binary_compute(BIN_MOD, a, b, 1, NULL);
    if (!out) return NULL;
    int rc;
    if (b->is_wrapped_number) { /* t % 2: PyTorch's Scalar overload, gradient for a only */
        rc = nn_record(NN_OP_remainder_scalar, 1, &a, 1, &out, 0, NULL, NULL);
    } else {
        nn_tensor *in[2] = {a, b}, *save[2] = {a, b};
        rc = nn_record(NN_OP_remainder, 2, in, 1, &out, 2, save, NULL);
    }
    if (rc < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_compare(nn_tensor *a, nn_tensor *b, nn_cmp op)
{
    return binary_compute((binop)(BIN_EQ + (int)op), a, b, 1, NULL);
}

/* ---------------------------------------------------------------- in place */

static int inplace(binop op, nn_op_id id, nn_tensor *a, nn_tensor *b, double alpha)
{
    if (nn_check_inplace(a) < 0) return -1;
    nn_tensor *in[2] = {a, b};
    bool track = nn_needs_grad(2, in);
    /* mul_ and div_ need the value a had before the write for b's gradient */
    nn_tensor *original = NULL;
    if (track && (id == NN_OP_mul || id == NN_OP_div) && b->requires_grad) {
        NN_WITH_GRAD_MODE(false, original = nn_clone(a));
        if (!original) return -1;
    }
    nn_tensor *r = binary_compute(op, a, b, alpha, a);
    if (!r) {
        NN_RELEASE(original);
        return -1;
    }
    NN_RELEASE(r);
    nn_bump_version(a);
    int rc = 0;
    if (track) {
        nn_op_params p = {.f = {alpha}};
        nn_tensor *save[2] = {original, id == NN_OP_mul || id == NN_OP_div ? b : NULL};
        nn_tensor *ins[2] = {a, b};
        rc = nn_record_inplace(id, a, 2, ins, id == NN_OP_add || id == NN_OP_sub ? 0 : 2, save, &p);
    }
    NN_RELEASE(original);
    return rc;
}

int nn_add_(nn_tensor *a, nn_tensor *b, double alpha) { return inplace(BIN_ADD, NN_OP_add, a, b, alpha); }
int nn_sub_(nn_tensor *a, nn_tensor *b) { return inplace(BIN_SUB, NN_OP_sub, a, b, 1.0); }
int nn_mul_(nn_tensor *a, nn_tensor *b) { return inplace(BIN_MUL, NN_OP_mul, a, b, 1.0); }
int nn_div_(nn_tensor *a, nn_tensor *b) { return inplace(BIN_DIV, NN_OP_div, a, b, 1.0); }

/* ------------------------------------------------------------------ where */

nn_tensor *nn_where(nn_tensor *cond, nn_tensor *a, nn_tensor *b)
{
    if (!cond || !a || !b) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (cond->dtype != NN_BOOL) {
        nn_error_set(NN_ERR_RUNTIME, "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
                     nn_dtype_short_name(cond->dtype)[0] == 'f' ? "Float" : type_title(cond->dtype));
        return NULL;
    }
    int nd, nd2;
    int64_t s1[NN_MAX_DIMS], shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(a->ndim, a->sizes, b->ndim, b->sizes, &nd, s1) < 0 ||
        nn_broadcast_shapes(cond->ndim, cond->sizes, nd, s1, &nd2, shape) < 0)
        return NULL;
    nn_dtype dt = nn_result_type(a, b);
    nn_device device;
    nn_tensor *operands[3] = {cond, a, b};
    if (nn_common_device(3, operands, &device) < 0) return NULL;
    nn_tensor *ca = as_device_dtype(a, device, dt), *cb = ca ? as_device_dtype(b, device, dt) : NULL;
    nn_tensor *cc = NULL;
    if (cb) { /* a 0-dim CPU condition moves by value too */
        NN_RETAIN(cond);
        cc = nn_to_op_device(cond, device);
    }
    nn_tensor *out = cc ? nn_empty_on(device, nd2, shape, dt) : NULL;
    if (out) {
        nn_tensor vc, va, vb;
        nn_broadcast_into(cc, nd2, shape, &vc);
        nn_broadcast_into(ca, nd2, shape, &va);
        nn_broadcast_into(cb, nd2, shape, &vb);
        nn_kernel_args ka = {.t = {out, &vc, &va, &vb}};
        nn_tensor *in[3] = {a, b, cond};
        if (NN_KERNEL(nn_backend_of(out), math, (NN_MATH_where, &ka)) < 0 ||
            nn_record(NN_OP_where, 2, in, 1, &out, 1, &cond, NULL) < 0)
            NN_SET(out, NULL);
    }
    NN_RELEASE(ca);
    NN_RELEASE(cb);
    NN_RELEASE(cc);
    return out;
}

/* -------------------------------------------------------------- backwards */

/* grad reduced to input i's shape and dtype; takes g. */
static int to_input(nn_node *n, int i, nn_tensor *g, nn_tensor **slot)
{
    if (!g) return -1;
    nn_input_meta *m = &n->input_meta[i];
    nn_tensor *r = nn_sum_to_size(g, m->ndim, m->sizes);
    NN_RELEASE(g);
    if (!r) return -1;
    *slot = r;
    return 0;
}

static nn_tensor *retained(nn_tensor *t)
{
    NN_RETAIN(t);
    return t;
}

int nn_add_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *g = gout[0];
    if (nn_node_needs_input_grad(n, 0) && to_input(n, 0, retained(g), &gin[0]) < 0) return -1;
    if (nn_node_needs_input_grad(n, 1))
        return to_input(n, 1, n->p.f[0] == 1.0 ? retained(g) : nn_mul_scalar(g, n->p.f[0]), &gin[1]);
    return 0;
}

int nn_sub_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (nn_node_needs_input_grad(n, 0) && to_input(n, 0, retained(gout[0]), &gin[0]) < 0) return -1;
    if (nn_node_needs_input_grad(n, 1)) return to_input(n, 1, nn_neg(gout[0]), &gin[1]);
    return 0;
}

int nn_rsub_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    (void)n;
    gin[0] = nn_neg(gout[0]);
    return gin[0] ? 0 : -1;
}

/* g * conj(x): g * x for a real x (complex autograd's conjugate; nn_conj of a real tensor is itself) */
static nn_tensor *times_conj(nn_tensor *g, nn_tensor *x)
{
    nn_tensor *c = nn_conj(x), *r = c ? nn_mul(g, c) : NULL;
    NN_RELEASE(c);
    return r;
}

/* g / conj(x) */
static nn_tensor *over_conj(nn_tensor *g, nn_tensor *x)
{
    nn_tensor *c = nn_conj(x), *r = c ? nn_div(g, c) : NULL;
    NN_RELEASE(c);
    return r;
}

int nn_mul_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *b = nn_node_saved(n, 1);
    if (nn_node_needs_input_grad(n, 0) && to_input(n, 0, times_conj(gout[0], b), &gin[0]) < 0) return -1;
    if (nn_node_needs_input_grad(n, 1)) return to_input(n, 1, times_conj(gout[0], a), &gin[1]);
    return 0;
}

int nn_div_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *b = nn_node_saved(n, 1);
    if (nn_node_needs_input_grad(n, 0) && to_input(n, 0, over_conj(gout[0], b), &gin[0]) < 0) return -1;
    if (!nn_node_needs_input_grad(n, 1)) return 0;
    /* d(a/b)/db = -a / b^2 */
    nn_tensor *q = nn_div(a, b), *qb = q ? nn_div(q, b) : NULL, *t = qb ? times_conj(gout[0], qb) : NULL;
    NN_RELEASE(q);
    NN_RELEASE(qb);
    nn_tensor *neg = t ? nn_neg(t) : NULL;
    NN_RELEASE(t);
    return to_input(n, 1, neg, &gin[1]);
}

int nn_floor_divide_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_error_set(NN_ERR_RUNTIME, "derivative for aten::floor_divide is not implemented");
}

/* d(a % b)/da = 1, d(a % b)/db = -floor(a / b) */
int nn_remainder_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (nn_node_needs_input_grad(n, 0) && to_input(n, 0, retained(gout[0]), &gin[0]) < 0) return -1;
    if (!nn_node_needs_input_grad(n, 1)) return 0;
    /* the quotient is a constant of the gradient (no NotImplemented node under create_graph) */
    nn_tensor *q = binary_compute(BIN_FLOORDIV, nn_node_saved(n, 0), nn_node_saved(n, 1), 1, NULL);
    nn_tensor *t = q ? nn_mul(gout[0], q) : NULL;
    NN_RELEASE(q);
    nn_tensor *neg = t ? nn_neg(t) : NULL;
    NN_RELEASE(t);
    return to_input(n, 1, neg, &gin[1]);
}

/* torch.fmod: d/da = 1, d/db = -trunc(a / b) (FmodBackward1; a number b: FmodBackward0).
   The first input's part and the scalar form are remainder's. */
int nn_fmod_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!nn_node_needs_input_grad(n, 1)) return nn_remainder_backward(n, gout, gin);
    nn_tensor *q = binary_compute(BIN_DIV, nn_node_saved(n, 0), nn_node_saved(n, 1), 1, NULL);
    nn_tensor *tq = q ? nn_trunc(q) : NULL;
    NN_RELEASE(q);
    nn_tensor *t = tq ? nn_mul(gout[0], tq) : NULL;
    NN_RELEASE(tq);
    nn_tensor *neg = t ? nn_neg(t) : NULL;
    NN_RELEASE(t);
    if (to_input(n, 1, neg, &gin[1]) < 0) return -1;
    return nn_node_needs_input_grad(n, 0) ? to_input(n, 0, retained(gout[0]), &gin[0]) : 0;
}

int nn_fmod_scalar_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return nn_remainder_scalar_backward(n, gout, gin); }

int nn_remainder_scalar_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    (void)n;
    gin[0] = retained(gout[0]);
    return 0;
}

int nn_pow_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    double e = n->p.f[0];
    nn_tensor *a = nn_node_saved(n, 0);
    if (e == 0.0) {
        gin[0] = nn_zeros_like(a);
        return gin[0] ? 0 : -1;
    }
    /* grad * e * a^(e-1) */
    nn_tensor *pw = nn_pow_scalar(a, e - 1.0), *scaled = pw ? nn_mul_scalar(pw, e) : NULL;
    NN_RELEASE(pw);
    gin[0] = scaled ? times_conj(gout[0], scaled) : NULL;
    NN_RELEASE(scaled);
    return gin[0] ? 0 : -1;
}

/* grad * value * log(base), with 0 where base == 0 and the exponent >= 0 (PyTorch's mask). */
static nn_tensor *exponent_grad(nn_tensor *g, nn_tensor *value, nn_tensor *base, nn_tensor *exponent)
{
    nn_tensor *lg = nn_log(base), *t1 = lg ? nn_mul(value, lg) : NULL, *t2 = t1 ? nn_mul(g, t1) : NULL;
    NN_RELEASE(lg);
    NN_RELEASE(t1);
    if (!t2) return NULL;
    nn_tensor *zero = nn_scalar(0.0, base->dtype);
    nn_tensor *base0 = zero ? nn_compare(base, zero, NN_EQ) : NULL;
    nn_tensor *exp_ok = base0 && exponent ? nn_compare(exponent, zero, NN_GE) : NULL;
    nn_tensor *mask = NULL, *out = NULL;
    if (base0 && exponent && exp_ok) mask = binary_compute(BIN_MUL, base0, exp_ok, 1, NULL);
    else if (base0 && !exponent) mask = retained(base0);
    nn_tensor *zeros = mask ? nn_zeros_like(t2) : NULL;
    nn_tensor *mask_b = mask ? as_dtype(mask, NN_BOOL) : NULL;
    if (mask_b && zeros) out = nn_where(mask_b, zeros, t2);
    NN_RELEASE(zero);
    NN_RELEASE(base0);
    NN_RELEASE(exp_ok);
    NN_RELEASE(mask);
    NN_RELEASE(mask_b);
    NN_RELEASE(zeros);
    NN_RELEASE(t2);
    return out;
}

int nn_pow_tensor_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *b = nn_node_saved(n, 1), *out = nn_node_saved(n, 2);
    if (nn_node_needs_input_grad(n, 0)) {
        /* grad * b * a^(b-1) */
        nn_tensor *one = nn_scalar(1.0, b->dtype), *bm1 = one ? nn_sub(b, one) : NULL;
        nn_tensor *pw = bm1 ? nn_pow(a, bm1) : NULL, *t = pw ? nn_mul(b, pw) : NULL;
        NN_RELEASE(one);
        NN_RELEASE(bm1);
        NN_RELEASE(pw);
        if (to_input(n, 0, t ? times_conj(gout[0], t) : NULL, &gin[0]) < 0) {
            NN_RELEASE(t);
            return -1;
        }
        NN_RELEASE(t);
    }
    if (nn_node_needs_input_grad(n, 1)) return to_input(n, 1, exponent_grad(gout[0], out, a, b), &gin[1]);
    return 0;
}

int nn_rpow_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *out = nn_node_saved(n, 0);
    nn_tensor *base = nn_scalar(n->p.f[0], out->dtype);
    if (!base) return -1;
    if (n->p.f[0] == 0.0) {
        /* d(0^a)/da: 0 wherever a >= 0 (PyTorch's convention) */
        gin[0] = nn_zeros_like(out);
    } else {
        nn_tensor *lg = nn_log(base), *t = lg ? nn_mul(out, lg) : NULL;
        gin[0] = t ? nn_mul(gout[0], t) : NULL;
        NN_RELEASE(lg);
        NN_RELEASE(t);
    }
    NN_RELEASE(base);
    return gin[0] ? 0 : -1;
}

/* maximum/minimum: the gradient goes to the winner, split in half on ties. */
static int extremum_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, nn_cmp loses_a)
{
    nn_tensor *a = nn_node_saved(n, 0), *b = nn_node_saved(n, 1), *g = gout[0];
    nn_tensor *half = nn_mul_scalar(g, 0.5), *tie = nn_compare(a, b, NN_EQ);
    nn_tensor *shared = half && tie ? nn_where(tie, half, g) : NULL;
    nn_tensor *zeros = shared ? nn_zeros_like(shared) : NULL;
    int rc = shared && zeros ? 0 : -1;
    for (int i = 0; i < 2 && rc == 0; i++) {
        if (!nn_node_needs_input_grad(n, i)) continue;
        nn_cmp lose = i == 0 ? loses_a : (loses_a == NN_LT ? NN_GT : NN_LT);
        nn_tensor *mask = nn_compare(a, b, lose);
        rc = to_input(n, i, mask ? nn_where(mask, zeros, shared) : NULL, &gin[i]);
        NN_RELEASE(mask);
    }
    NN_RELEASE(half);
    NN_RELEASE(tie);
    NN_RELEASE(shared);
    NN_RELEASE(zeros);
    return rc;
}

int nn_maximum_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return extremum_backward(n, gout, gin, NN_LT); }
int nn_minimum_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return extremum_backward(n, gout, gin, NN_GT); }

int nn_where_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *cond = nn_node_saved(n, 0), *g = gout[0];
    nn_tensor *zeros = nn_zeros_like(g);
    if (!zeros) return -1;
    int rc = 0;
    if (nn_node_needs_input_grad(n, 0)) rc = to_input(n, 0, nn_where(cond, g, zeros), &gin[0]);
    if (rc == 0 && nn_node_needs_input_grad(n, 1)) rc = to_input(n, 1, nn_where(cond, zeros, g), &gin[1]);
    NN_RELEASE(zeros);
    return rc;
}
