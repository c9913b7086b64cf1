/*
 * complex.c — complex tensors (complex64, complex128: interleaved real and
 * imaginary parts): view_as_real / view_as_complex and the .real / .imag views,
 * torch.complex, the elementwise arithmetic (+ - * / == !=) with PyTorch's
 * promotion, abs, angle, conj, exp, sum / mean and matmul.
 *
 * Elementwise ops run on the host copies the host-access contract gives (no
 * device kernels; complex tensors are small in the scripts that use them) with
 * the formulas of ATen's AVX2 CPU kernels: a product as (ac - bd, ad + bc), a
 * quotient as ((ac + bd) / (c² + d²), (bc - ad) / (c² + d²)), |z| as
 * sqrt(re² + im²) over the vectorized body and hypot over the tail that ATen
 * leaves to its scalar loop, exp through the C library's cexp. Sums, means and
 * matmul go through the real ops on view_as_real.
 * No autograd: complex tensors do not require grad here (nn_requires_grad_ refuses them).
 */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_int.h"

/* re + im i without arithmetic (an inf or nan part stays as it is): C11 lays a complex
   number out as an array of its two parts. Not CMPLX/CMPLXF: glibc defines them for GCC
   only, and clang builds (make asan CC=clang) would not link. */
static float complex make_cf(float re, float im)
{
    float complex z;
    ((float *)&z)[0] = re, ((float *)&z)[1] = im;
    return z;
}

static double complex make_cd(double re, double im)
{
    double complex z;
    ((double *)&z)[0] = re, ((double *)&z)[1] = im;
    return z;
}

static const char *scalar_name(nn_dtype dt) { return nn_dtype_scalar_name(dt); }

/* ------------------------------------------------------------------ views */

static nn_tensor *retyped_view(nn_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset,
                               nn_dtype dt)
{
    nn_tensor *v = nn_tensor_new_view(t, ndim, sizes, strides, offset);
    if (!v) return NULL;
    v->dtype = dt;
    NN_RETAIN(t->base ? t->base : t);
    v->base = t->base ? t->base : t;
    return v;
}

nn_tensor *nn_view_as_real(nn_tensor *z)
{
    if (!nn_dtype_is_complex(z->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "view_as_real is only supported for complex tensors");
        return NULL;
    }
    if (z->ndim == NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "view_as_real: a tensor has at most %d dims", NN_MAX_DIMS);
        return NULL;
    }
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    for (int d = 0; d < z->ndim; d++) sizes[d] = z->sizes[d], strides[d] = 2 * z->strides[d];
    sizes[z->ndim] = 2, strides[z->ndim] = 1;
    return retyped_view(z, z->ndim + 1, sizes, strides, 2 * z->offset, nn_dtype_to_real(z->dtype));
}

nn_tensor *nn_view_as_complex(nn_tensor *t)
{
    if (t->dtype != NN_FLOAT32 && t->dtype != NN_FLOAT64) {
        nn_error_set(NN_ERR_RUNTIME, "view_as_complex is only supported for half, float and double tensors, but got a "
                                     "tensor of scalar type: %s", scalar_name(t->dtype));
        return NULL;
    }
    if (t->ndim == 0 || t->sizes[t->ndim - 1] != 2) {
        nn_error_set(NN_ERR_RUNTIME, "Tensor must have a last dimension of size 2");
        return NULL;
    }
    if (t->strides[t->ndim - 1] != 1) {
        nn_error_set(NN_ERR_RUNTIME, "Tensor must have a last dimension with stride 1");
        return NULL;
    }
    int64_t strides[NN_MAX_DIMS];
    for (int d = 0; d < t->ndim - 1; d++) {
        if (t->strides[d] % 2) {
            nn_error_set(NN_ERR_RUNTIME, "Tensor must have a stride divisible by 2 for all but last dimension");
            return NULL;
        }
        strides[d] = t->strides[d] / 2;
    }
    if (t->offset % 2) {
        nn_error_set(NN_ERR_RUNTIME, "Tensor must have a storage_offset divisible by 2");
        return NULL;
    }
    return retyped_view(t, t->ndim - 1, t->sizes, strides, t->offset / 2, nn_dtype_to_complex(t->dtype));
}

/* .real / .imag: part k of view_as_real; .real of a real tensor is itself */
static nn_tensor *part(nn_tensor *t, int k)
{
    nn_tensor *r = nn_view_as_real(t);
    nn_tensor *p = r ? nn_select(r, r->ndim - 1, k) : NULL;
    NN_RELEASE(r);
    return p;
}

nn_tensor *nn_real(nn_tensor *t)
{
    if (!nn_dtype_is_complex(t->dtype)) return (nn_tensor *)nn_retain(&t->ob);
    return part(t, 0);
}

nn_tensor *nn_imag(nn_tensor *t)
{
    if (!nn_dtype_is_complex(t->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "imag is not implemented for tensors with non-complex dtypes.");
        return NULL;
    }
    return part(t, 1);
}

nn_tensor *nn_complex(nn_tensor *re, nn_tensor *im)
{
    if (!nn_dtype_is_floating(re->dtype) || !nn_dtype_is_floating(im->dtype) || re->dtype == NN_BFLOAT16 ||
        im->dtype == NN_BFLOAT16) {
        nn_error_set(NN_ERR_RUNTIME, "Expected both inputs to be Half, Float or Double tensors but got %s and %s",
                     scalar_name(re->dtype), scalar_name(im->dtype));
        return NULL;
    }
    if (re->dtype != im->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "Expected object of scalar type %s but got scalar type %s for second argument",
                     scalar_name(re->dtype), scalar_name(im->dtype));
        return NULL;
    }
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(re->ndim, re->sizes, im->ndim, im->sizes, &nd, shape) < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(re), nd, shape, nn_dtype_to_complex(re->dtype));
    nn_tensor *r = out ? nn_real(out) : NULL, *i = r ? nn_imag(out) : NULL;
    bool prev = nn_set_grad_enabled(false);
    if (!i || nn_copy_(r, re) < 0 || nn_copy_(i, im) < 0) NN_SET(out, NULL);
    nn_set_grad_enabled(prev);
    NN_RELEASE(r);
    NN_RELEASE(i);
    return out;
}

/* ------------------------------------------------------------ host operands */

/* t as dtype dt broadcast to shape, its elements on the host: a new buffer of
   doubles (two per complex element), or NULL with an error */
static double *host_parts(nn_tensor *t, nn_dtype dt, int nd, const int64_t *shape)
{
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *c = nn_to_dtype(t, dt), *e = c ? nn_expand(c, nd, shape) : NULL;
    nn_set_grad_enabled(prev);
    NN_RELEASE(c);
    if (!e) return NULL;
    int64_t n = nn_numel(e);
    nn_tensor *hold = NULL;
    const char *p = n ? nn_host_read(e, &hold) : NULL;
    double *out = nn_malloc((size_t)(2 * n + 1) * sizeof *out);
    if (out && (p || !n)) {
        nn_dtype part_dt = nn_dtype_to_real(dt);
        size_t ps = nn_dtype_size(part_dt);
        for (int64_t k = 0; k < 2 * n; k++) out[k] = nn_load_double(p + (size_t)k * ps, part_dt);
    } else {
        NN_SET(out, NULL);
    }
    NN_RELEASE(hold);
    NN_RELEASE(e);
    if (!p && n) {
        nn_free(out);
        return NULL;
    }
    return out;
}

/* A new tensor of dtype dt and shape from doubles on the host (two per element
   for a complex dt), on device */
static nn_tensor *from_host(nn_device device, int nd, const int64_t *shape, nn_dtype dt, const double *v)
{
    nn_tensor *out = nn_empty_on(device, nd, shape, dt);
    if (!out) return NULL;
    int64_t n = nn_numel(out) * (nn_dtype_is_complex(dt) ? 2 : 1);
    nn_dtype part_dt = nn_dtype_to_real(dt);
    size_t ps = nn_dtype_size(part_dt);
    char *buf = nn_malloc((size_t)n * ps + 1);
    if (!buf) {
        NN_RELEASE(out);
        return NULL;
    }
    for (int64_t k = 0; k < n; k++) nn_store_double(buf + (size_t)k * ps, part_dt, v[k]);
    if (nn_host_write(out, buf) < 0) NN_SET(out, NULL);
    nn_free(buf);
    return out;
}

/* ---------------------------------------------------------------- binary */

/* the product and quotient in the parts' precision (float for complex64) */
#define PRODUCT(T, ar, ai, br, bi, re, im)                                                                             \
    do {                                                                                                               \
        T a_ = (T)(ar), b_ = (T)(ai), c_ = (T)(br), d_ = (T)(bi);                                                      \
        re = (T)(a_ * c_) - (T)(b_ * d_);                                                                              \
        im = (T)(a_ * d_) + (T)(b_ * c_);                                                                              \
    } while (0)
#define QUOTIENT(T, ar, ai, br, bi, re, im)                                                                            \
    do {                                                                                                               \
        T a_ = (T)(ar), b_ = (T)(ai), c_ = (T)(br), d_ = (T)(bi);                                                      \
        T den_ = (T)(c_ * c_) + (T)(d_ * d_);                                                                          \
        re = ((T)(a_ * c_) + (T)(b_ * d_)) / den_;                                                                     \
        im = ((T)(b_ * c_) - (T)(a_ * d_)) / den_;                                                                     \
    } while (0)

static int refuse_binary(nn_binop op, nn_dtype dt)
{
    static const char *const kernel[NN_BINOP_COUNT] = {
        [NN_BINOP_FLOORDIV] = "div_floor_cpu", [NN_BINOP_MOD] = "remainder_cpu", [NN_BINOP_FMOD] = "fmod_cpu",
        [NN_BINOP_LT] = "lt_cpu",  [NN_BINOP_LE] = "le_cpu", [NN_BINOP_GT] = "gt_cpu", [NN_BINOP_GE] = "ge_cpu",
        [NN_BINOP_AND] = "bitwise_and_cpu", [NN_BINOP_OR] = "bitwise_or_cpu", [NN_BINOP_XOR] = "bitwise_xor_cpu",
    };
    if (op == NN_BINOP_MAX || op == NN_BINOP_MIN)
        return nn_error_set(NN_ERR_RUNTIME, "%s not implemented for complex tensors.", op == NN_BINOP_MAX ? "maximum" : "minimum");
    if (op == NN_BINOP_POW)
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "pow of complex tensors is not supported in nnscope");
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel[op] ? kernel[op] : "binary", scalar_name(dt));
}

nn_tensor *nn_complex_binary(nn_binop op, nn_tensor *a, nn_tensor *b, double alpha, nn_tensor *into)
{
    nn_dtype dt = nn_result_type(a, b);
    bool cmp = op == NN_BINOP_EQ || op == NN_BINOP_NE;
    if (op != NN_BINOP_ADD && op != NN_BINOP_SUB && op != NN_BINOP_MUL && op != NN_BINOP_DIV && !cmp) {
        refuse_binary(op, dt);
        return NULL;
    }
    if (nn_needs_grad(2, (nn_tensor *[]){a, b})) {
        nn_error_set(NN_ERR_NOT_IMPLEMENTED, "autograd through complex tensors is not supported in nnscope");
        return NULL;
    }
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(a->ndim, a->sizes, b->ndim, b->sizes, &nd, shape) < 0) return NULL;
    if (into && !nn_dtype_is_complex(into->dtype) && !cmp) {
        nn_error_set(NN_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", scalar_name(dt),
                     scalar_name(into->dtype));
        return NULL;
    }
    double *x = host_parts(a, dt, nd, shape), *y = x ? host_parts(b, dt, nd, shape) : NULL;
    int64_t n = 1;
    for (int d = 0; d < nd; d++) n *= shape[d];
    double *r = y ? nn_malloc((size_t)(2 * n + 1) * sizeof *r) : NULL;
    nn_tensor *out = NULL;
    if (r) {
        bool single = dt == NN_COMPLEX64;
        for (int64_t k = 0; k < n; k++) {
            double ar = x[2 * k], ai = x[2 * k + 1], br = y[2 * k], bi = y[2 * k + 1], re = 0, im = 0;
            switch (op) {
            case NN_BINOP_ADD:
            case NN_BINOP_SUB: {
                double s = op == NN_BINOP_SUB ? -alpha : alpha; /* alpha * b, then the sum, per part */
                if (single) re = (float)ar + (float)((float)s * (float)br), im = (float)ai + (float)((float)s * (float)bi);
                else re = ar + s * br, im = ai + s * bi;
                break;
            }
            case NN_BINOP_MUL:
                if (single) { float fr, fi; PRODUCT(float, ar, ai, br, bi, fr, fi); re = fr, im = fi; }
                else PRODUCT(double, ar, ai, br, bi, re, im);
                break;
            case NN_BINOP_DIV:
                if (single) { float fr, fi; QUOTIENT(float, ar, ai, br, bi, fr, fi); re = fr, im = fi; }
                else QUOTIENT(double, ar, ai, br, bi, re, im);
                break;
            default: /* == and != */
                r[k] = (ar == br && ai == bi) == (op == NN_BINOP_EQ);
                continue;
            }
            r[2 * k] = re, r[2 * k + 1] = im;
        }
        nn_device device = nn_device_of(a->is_wrapped_number ? b : a);
        out = from_host(device, nd, shape, cmp ? NN_BOOL : dt, r);
    }
    nn_free(x);
    nn_free(y);
    nn_free(r);
    if (out && into) {
        bool prev = nn_set_grad_enabled(false);
        int rc = nn_copy_(into, out);
        nn_set_grad_enabled(prev);
        NN_SET(out, rc < 0 ? NULL : (nn_tensor *)nn_retain(&into->ob));
    }
    return out;
}

/* ----------------------------------------------------------------- unary */

typedef enum { U_ABS, U_ANGLE, U_CONJ, U_EXP, U_NEG } unary_kind;

/* ATen's vectorized loop covers whole blocks of two vectors (8 complex64 or 4
   complex128 with AVX2); the elements after them go through its scalar loop */
static int64_t vector_body(nn_dtype dt, int64_t n)
{
    int64_t block = dt == NN_COMPLEX64 ? 8 : 4;
    return n / block * block;
}

static nn_tensor *complex_unary(unary_kind kind, nn_tensor *z)
{
    if (z->requires_grad) {
        nn_error_set(NN_ERR_NOT_IMPLEMENTED, "autograd through complex tensors is not supported in nnscope");
        return NULL;
    }
    double *x = host_parts(z, z->dtype, z->ndim, z->sizes);
    if (!x) return NULL;
    int64_t n = nn_numel(z), body = vector_body(z->dtype, n);
    bool single = z->dtype == NN_COMPLEX64, real_out = kind == U_ABS || kind == U_ANGLE;
    double *r = nn_malloc((size_t)(2 * n + 1) * sizeof *r);
    nn_tensor *out = NULL;
    if (r) {
        for (int64_t k = 0; k < n; k++) {
            double re = x[2 * k], im = x[2 * k + 1];
            switch (kind) {
            case U_ABS:
                if (single) r[k] = k < body ? sqrtf((float)(re * re) + (float)(im * im)) : hypotf((float)re, (float)im);
                else r[k] = k < body ? sqrt(re * re + im * im) : hypot(re, im);
                break;
            case U_ANGLE: r[k] = single ? atan2f((float)im, (float)re) : atan2(im, re); break;
            case U_CONJ: r[2 * k] = re, r[2 * k + 1] = -im; break;
            case U_NEG: r[2 * k] = -re, r[2 * k + 1] = -im; break;
            case U_EXP:
                if (single) {
                    float complex e = cexpf(make_cf((float)re, (float)im));
                    r[2 * k] = crealf(e), r[2 * k + 1] = cimagf(e);
                } else {
                    double complex e = cexp(make_cd(re, im));
                    r[2 * k] = creal(e), r[2 * k + 1] = cimag(e);
                }
                break;
            }
        }
        out = from_host(nn_device_of(z), z->ndim, z->sizes, real_out ? nn_dtype_to_real(z->dtype) : z->dtype, r);
    }
    nn_free(x);
    nn_free(r);
    return out;
}

nn_tensor *nn_complex_abs(nn_tensor *z) { return complex_unary(U_ABS, z); }
nn_tensor *nn_complex_exp(nn_tensor *z) { return complex_unary(U_EXP, z); }
nn_tensor *nn_complex_neg(nn_tensor *z) { return complex_unary(U_NEG, z); }

nn_tensor *nn_angle(nn_tensor *t)
{
    if (nn_dtype_is_complex(t->dtype)) return complex_unary(U_ANGLE, t);
    /* a real number's angle: 0, or pi for a negative one (NaN stays NaN) */
    nn_tensor *zero = nn_zeros_on(nn_device_of(t), 0, NULL, nn_dtype_is_floating(t->dtype) ? t->dtype : nn_default_dtype());
    nn_tensor *r = zero ? nn_atan2(zero, t) : NULL;
    NN_RELEASE(zero);
    return r;
}

nn_tensor *nn_conj(nn_tensor *t)
{
    if (!nn_dtype_is_complex(t->dtype)) return (nn_tensor *)nn_retain(&t->ob);
    return complex_unary(U_CONJ, t);
}

/* ------------------------------------------------------- sums and matmul */

nn_tensor *nn_complex_sum(nn_tensor *z, int n_dims, const int *dims, bool keepdim, bool mean)
{
    int all[NN_MAX_DIMS], wrapped[NN_MAX_DIMS];
    if (n_dims == 0) { /* every complex dim (not the parts' one) */
        for (int d = 0; d < z->ndim; d++) all[d] = d;
        n_dims = z->ndim;
        dims = all;
    }
    for (int k = 0; k < n_dims; k++)
        if (nn_wrap_dim(dims[k], z->ndim, &wrapped[k]) < 0) return NULL;
    nn_tensor *r = nn_view_as_real(z);
    nn_tensor *s = !r ? NULL : n_dims ? (mean ? nn_mean : nn_sum)(r, n_dims, wrapped, keepdim) : nn_clone(r);
    nn_tensor *c = s ? nn_contiguous(s) : NULL;
    nn_tensor *out = c ? nn_view_as_complex(c) : NULL;
    NN_RELEASE(r);
    NN_RELEASE(s);
    NN_RELEASE(c);
    return out;
}

nn_tensor *nn_complex_matmul(nn_tensor *a, nn_tensor *b)
{
    nn_dtype dt = nn_promote_types(a->dtype, b->dtype);
    if (a->dtype != b->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "expected scalar type %s but found %s", scalar_name(a->dtype), scalar_name(b->dtype));
        return NULL;
    }
    (void)dt;
    /* (Ar + i Ai)(Br + i Bi) = (Ar Br - Ai Bi) + i (Ar Bi + Ai Br) */
    nn_tensor *ar = nn_real(a), *ai = nn_imag(a), *br = nn_real(b), *bi = nn_imag(b);
    nn_tensor *p[4] = {0};
    if (ar && ai && br && bi) {
        p[0] = nn_matmul(ar, br), p[1] = nn_matmul(ai, bi), p[2] = nn_matmul(ar, bi), p[3] = nn_matmul(ai, br);
    }
    nn_tensor *re = p[0] && p[1] ? nn_sub(p[0], p[1]) : NULL, *im = p[2] && p[3] ? nn_add(p[2], p[3]) : NULL;
    nn_tensor *out = re && im ? nn_complex(re, im) : NULL;
    nn_tensor *all[] = {ar, ai, br, bi, p[0], p[1], p[2], p[3], re, im};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++) NN_RELEASE(all[k]);
    return out;
}

/* ------------------------------------------------------------------ items */

int nn_complex_item(const nn_tensor *z, double *re, double *im)
{
    int64_t n = nn_numel(z);
    if (n != 1)
        return nn_error_set(NN_ERR_RUNTIME, "a Tensor with %lld elements cannot be converted to Scalar", (long long)n);
    nn_tensor *r = nn_view_as_real((nn_tensor *)z);
    if (!r) return -1;
    int64_t index[NN_MAX_DIMS] = {0};
    *re = nn_get_double(r, index);
    index[r->ndim - 1] = 1;
    *im = nn_get_double(r, index);
    NN_RELEASE(r);
    return 0;
}

nn_tensor *nn_wrapped_complex(double re, double im)
{
    double v[2] = {re, im};
    nn_tensor *t = from_host(NN_DEVICE_CPU, 0, NULL, NN_COMPLEX128, v);
    if (t) t->is_wrapped_number = true;
    return t;
}
