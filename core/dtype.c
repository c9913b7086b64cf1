/*
 * dtype.c — element types: sizes, names, PyTorch's type promotion, and the
 * conversions of the 16-bit float formats (which compute in float32).
 */
#include <math.h>
#include <string.h>

#include "nn_int.h"

static const struct {
    size_t size;
    const char *name;
    bool floating;
} dtype_info[NN_DTYPE_COUNT] = {
    [NN_FLOAT32] = {4, "float32", true},  [NN_FLOAT64] = {8, "float64", true},
    [NN_FLOAT16] = {2, "float16", true},  [NN_BFLOAT16] = {2, "bfloat16", true},
    [NN_INT64] = {8, "int64", false},     [NN_INT32] = {4, "int32", false},
    [NN_BOOL] = {1, "bool", false},       [NN_UINT8] = {1, "uint8", false},
    [NN_INT8] = {1, "int8", false},       [NN_INT16] = {2, "int16", false},
    [NN_COMPLEX64] = {8, "complex64", false}, [NN_COMPLEX128] = {16, "complex128", false},
};

size_t nn_dtype_size(nn_dtype dt) { return dtype_info[dt].size; }
const char *nn_dtype_short_name(nn_dtype dt) { return dtype_info[dt].name; }
bool nn_dtype_is_floating(nn_dtype dt) { return dtype_info[dt].floating; }
bool nn_dtype_is_integer(nn_dtype dt) { return !dtype_info[dt].floating && dt != NN_BOOL && !nn_dtype_is_complex(dt); }
bool nn_dtype_is_complex(nn_dtype dt) { return dt == NN_COMPLEX64 || dt == NN_COMPLEX128; }
nn_dtype nn_dtype_to_complex(nn_dtype dt) { return dt == NN_FLOAT64 || dt == NN_COMPLEX128 ? NN_COMPLEX128 : NN_COMPLEX64; }
nn_dtype nn_dtype_to_real(nn_dtype dt) { return dt == NN_COMPLEX128 ? NN_FLOAT64 : dt == NN_COMPLEX64 ? NN_FLOAT32 : dt; }

void nn_dtype_int_range(nn_dtype dt, int64_t *min, int64_t *max)
{
    switch (dt) {
    case NN_UINT8: *min = 0, *max = UINT8_MAX; break;
    case NN_INT8: *min = INT8_MIN, *max = INT8_MAX; break;
    case NN_INT16: *min = INT16_MIN, *max = INT16_MAX; break;
    case NN_INT32: *min = INT32_MIN, *max = INT32_MAX; break;
    case NN_BOOL: *min = 0, *max = 1; break;
    default: *min = INT64_MIN, *max = INT64_MAX; break;
    }
}

int nn_check_int_value(double v, nn_dtype dt, bool cpp_name)
{
    /* int64: a double cannot say which int64 it was (2**63 - 1 arrives as 2**63): unchecked */
    if (!nn_dtype_is_integer(dt) || dt == NN_INT64) return 0;
    int64_t lo, hi;
    nn_dtype_int_range(dt, &lo, &hi);
    if (v >= (lo == 0 ? -(double)hi : (double)lo) && v <= (double)hi) return 0;
    static const char *const cpp[NN_DTYPE_COUNT] = {[NN_UINT8] = "uint8_t", [NN_INT8] = "int8_t", [NN_INT16] = "int16_t",
                                                    [NN_INT32] = "int"};
    return nn_error_set(NN_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                        cpp_name ? cpp[dt] : nn_dtype_short_name(dt));
}

const char *nn_dtype_scalar_name(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "Float", [NN_FLOAT64] = "Double", [NN_FLOAT16] = "Half", [NN_BFLOAT16] = "BFloat16",
        [NN_INT64] = "Long",    [NN_INT32] = "Int",      [NN_BOOL] = "Bool",
        [NN_UINT8] = "Byte",    [NN_INT8] = "Char",      [NN_INT16] = "Short",
        [NN_COMPLEX64] = "ComplexFloat", [NN_COMPLEX128] = "ComplexDouble",
    };
    return names[dt];
}

const char *nn_dtype_name(nn_dtype dt)
{
    static const char *const full[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "torch.float32", [NN_FLOAT64] = "torch.float64", [NN_FLOAT16] = "torch.float16",
        [NN_BFLOAT16] = "torch.bfloat16", [NN_INT64] = "torch.int64", [NN_INT32] = "torch.int32",
        [NN_BOOL] = "torch.bool", [NN_UINT8] = "torch.uint8", [NN_INT8] = "torch.int8", [NN_INT16] = "torch.int16",
        [NN_COMPLEX64] = "torch.complex64", [NN_COMPLEX128] = "torch.complex128",
    };
    return full[dt];
}

/* Rank in PyTorch's promotion lattice for the dtypes we have. */
static int rank(nn_dtype dt)
{
    switch (dt) {
    case NN_BOOL: return 0;
    case NN_UINT8: return 1;
    case NN_INT8: return 1;
    case NN_INT16: return 2;
    case NN_INT32: return 3;
    case NN_INT64: return 4;
    case NN_FLOAT16: return 5;
    case NN_BFLOAT16: return 5;
    case NN_FLOAT32: return 6;
    case NN_FLOAT64: return 7;
    case NN_COMPLEX64: return 8;
    case NN_COMPLEX128: return 9;
    default: return 0;
    }
}

nn_dtype nn_promote_types(nn_dtype a, nn_dtype b)
{
    if (a == b) return a;
    /* a complex and a float64 (or complex128) meet in complex128 */
    if (nn_dtype_is_complex(a) || nn_dtype_is_complex(b)) {
        nn_dtype r = nn_dtype_to_real(a), s = nn_dtype_to_real(b);
        return (r == NN_FLOAT64 || s == NN_FLOAT64) ? NN_COMPLEX128 : nn_dtype_is_complex(a) ? a : b;
    }
    if ((a == NN_FLOAT16 && b == NN_BFLOAT16) || (a == NN_BFLOAT16 && b == NN_FLOAT16)) return NN_FLOAT32;
    /* c10's table: unsigned and signed bytes meet in the smallest type holding both */
    if ((a == NN_UINT8 && b == NN_INT8) || (a == NN_INT8 && b == NN_UINT8)) return NN_INT16;
    return rank(a) >= rank(b) ? a : b;
}

/* The dtype a tensor contributes to promotion: a wrapped Python float counts
   as the default dtype, a Python int as int64. */
static nn_dtype participating_dtype(const nn_tensor *t)
{
    if (t->is_wrapped_number) {
        if (nn_dtype_is_complex(t->dtype)) return nn_dtype_to_complex(nn_default_dtype());
        return nn_dtype_is_floating(t->dtype) ? nn_default_dtype() : t->dtype;
    }
    return t->dtype;
}

/* c10's combine_categories: a higher-priority category wins unless the lower one
   is of a higher kind (float over int, int over bool). -1 is "undefined". */
static int combine_categories(int higher, int lower)
{
    if (higher < 0) return lower;
    if (lower < 0) return higher;
    if (nn_dtype_is_complex((nn_dtype)higher)) return higher;
    /* a complex number lifts a float tensor to the complex dtype of its precision */
    if (nn_dtype_is_complex((nn_dtype)lower))
        return nn_dtype_is_floating((nn_dtype)higher) ? (int)nn_dtype_to_complex((nn_dtype)higher) : lower;
    if (nn_dtype_is_floating((nn_dtype)higher)) return higher;
    if (higher == NN_BOOL || nn_dtype_is_floating((nn_dtype)lower))
        return nn_promote_types((nn_dtype)higher, (nn_dtype)lower);
    return higher;
}

nn_dtype nn_result_type(const nn_tensor *a, const nn_tensor *b)
{
    int dim = -1, zero = -1, wrapped = -1;
    const nn_tensor *ts[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        int *slot = ts[k]->is_wrapped_number ? &wrapped : ts[k]->ndim == 0 ? &zero : &dim;
        nn_dtype dt = participating_dtype(ts[k]);
        *slot = *slot < 0 ? (int)dt : (int)nn_promote_types((nn_dtype)*slot, dt);
    }
    return (nn_dtype)combine_categories(dim, combine_categories(zero, wrapped));
}

/* ------------------------------------------------------ 16-bit floats */

float nn_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff, bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else { /* subnormal: normalise */
            int e = -1;
            do {
                e++;
                mant <<= 1;
            } while (!(mant & 0x400));
            bits = sign | ((uint32_t)(127 - 15 - e) << 23) | ((mant & 0x3ff) << 13);
        }
    } else if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

uint16_t nn_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) /* inf or nan */
        return (uint16_t)(sign | 0x7c00 | (absx > 0x7f800000u ? 0x200 : 0));
    if (absx >= 0x477ff000u) return (uint16_t)(sign | 0x7c00); /* overflow -> inf */
    if (absx < 0x38800000u) {                                    /* subnormal or zero */
        float a;
        memcpy(&a, &absx, 4);
        /* round to nearest even at 2^-24 granularity */
        float scaled = a * 16777216.0f;
        return (uint16_t)(sign | (uint16_t)nearbyintf(scaled));
    }
    uint32_t mant = absx & 0x7fffff, exp = (absx >> 23) - 127 + 15;
    uint32_t half = (exp << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) half++;
    return (uint16_t)(sign | half);
}

float nn_bfloat16_to_float(uint16_t b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

uint16_t nn_float_to_bfloat16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if (isnan(f)) return 0x7fc0;
    uint32_t rounding_bias = 0x7fff + ((x >> 16) & 1);
    return (uint16_t)((x + rounding_bias) >> 16);
}

double nn_load_double(const void *p, nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT32: return *(const float *)p;
    case NN_FLOAT64: return *(const double *)p;
    case NN_FLOAT16: return nn_half_to_float(*(const uint16_t *)p);
    case NN_BFLOAT16: return nn_bfloat16_to_float(*(const uint16_t *)p);
    case NN_INT64: return (double)*(const int64_t *)p;
    case NN_INT32: return *(const int32_t *)p;
    case NN_BOOL: return *(const uint8_t *)p ? 1.0 : 0.0;
    case NN_UINT8: return *(const uint8_t *)p;
    case NN_INT8: return *(const int8_t *)p;
    case NN_INT16: return *(const int16_t *)p;
    case NN_COMPLEX64: return *(const float *)p; /* the real part, as PyTorch's casts to a real dtype */
    case NN_COMPLEX128: return *(const double *)p;
    default: return 0;
    }
}

/* Float to integer as C++'s static_cast would on x86 for in-range values;
   out-of-range and NaN give INT64_MIN like the hardware conversion. */
static int64_t to_int64(double v)
{
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
    return (int64_t)v;
}

int64_t nn_load_int64(const void *p, nn_dtype dt)
{
    switch (dt) {
    case NN_INT64: return *(const int64_t *)p;
    case NN_INT32: return *(const int32_t *)p;
    case NN_BOOL: case NN_UINT8: return *(const uint8_t *)p;
    case NN_INT8: return *(const int8_t *)p;
    case NN_INT16: return *(const int16_t *)p;
    default: return to_int64(nn_load_double(p, dt));
    }
}

/* Float to a 32-bit or narrower integer as PyTorch's static_cast compiles on x86:
   through a 32-bit conversion, INT32_MIN when out of its range or NaN; the narrow
   types keep its low bits (3e9 -> int16 0, -1.5 -> uint8 255). */
static int32_t to_int32(double v)
{
    if (!(v > -2147483649.0 && v < 2147483648.0)) return INT32_MIN;
    return (int32_t)v;
}

void nn_store_double(void *p, nn_dtype dt, double v)
{
    switch (dt) {
    case NN_FLOAT32: *(float *)p = (float)v; break;
    case NN_FLOAT64: *(double *)p = v; break;
    case NN_FLOAT16: *(uint16_t *)p = nn_float_to_half((float)v); break;
    case NN_BFLOAT16: *(uint16_t *)p = nn_float_to_bfloat16((float)v); break;
    case NN_INT64: *(int64_t *)p = to_int64(v); break;
    case NN_INT32: *(int32_t *)p = to_int32(v); break;
    case NN_BOOL: *(uint8_t *)p = v != 0; break;
    case NN_UINT8: *(uint8_t *)p = (uint8_t)(uint32_t)to_int32(v); break;
    case NN_INT8: *(int8_t *)p = (int8_t)(uint8_t)(uint32_t)to_int32(v); break;
    case NN_INT16: *(int16_t *)p = (int16_t)(uint16_t)(uint32_t)to_int32(v); break;
    case NN_COMPLEX64: ((float *)p)[0] = (float)v, ((float *)p)[1] = 0; break;
    case NN_COMPLEX128: ((double *)p)[0] = v, ((double *)p)[1] = 0; break;
    default: break;
    }
}
