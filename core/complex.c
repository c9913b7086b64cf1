/*
 * complex.c — complex tensors (complex64, complex128: interleaved real and
 * imaginary parts): view_as_real / view_as_complex and the .real / .imag views,
 * torch.complex, the elementwise arithmetic (+ - * / ** == !=) with PyTorch's
 * promotion, abs, angle, conj, the elementwise math (exp, log, sqrt, trigonometry,
 * sigmoid, sgn ...: nn_complex_math), sum / mean and matmul.
 *
 * Elementwise ops run on the host copies the host-access contract gives (no
 * device kernels; complex tensors are small in the scripts that use them) with
 * the formulas of ATen's AVX2 CPU kernels (nn_complex.h says which), telling its
 * vectorized body from the tail it leaves to its scalar loop; Sleef's vector
 * functions (exp, angle) come from the CPU's vmath kernel. Sums, means and
 * matmul go through the real ops on view_as_real.
 * Autograd as PyTorch 1.13's (Wirtinger calculus): the gradient of a real loss L
 * with respect to z = x + iy is dL/dx + i dL/dy, so a holomorphic f passes on
 * grad * conj(f'(z)); each backward below is derivatives.yaml's formula. The
 * binary ops record in binary.c (their backwards conjugate the other operand), and
 * the engine takes the real part of a complex gradient bound for a real input.
 */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_custom_fn.h"
#include "nn_int.h"
#include "nn_math.h"
#include "nn_misc_ops.h"
#include "nn_scratch.h"
#include "nn_vmath_codes.h"

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
    nn_tensor *v = retyped_view(z, z->ndim + 1, sizes, strides, 2 * z->offset, nn_dtype_to_real(z->dtype));
    if (v && nn_record(NN_OP_view_as_real, 1, &z, 1, &v, 0, NULL, NULL) < 0) NN_SET(v, NULL);
    return v;
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
    nn_tensor *v = retyped_view(t, t->ndim - 1, t->sizes, strides, t->offset / 2, nn_dtype_to_complex(t->dtype));
    if (v && nn_record(NN_OP_view_as_complex, 1, &t, 1, &v, 0, NULL, NULL) < 0) NN_SET(v, NULL);
    return v;
}

int nn_view_as_real_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *c = nn_contiguous(gout[0]);
    gin[0] = c ? nn_view_as_complex(c) : NULL;
    NN_RELEASE(c);
    return gin[0] ? 0 : -1;
}

int nn_view_as_complex_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *c = nn_contiguous(gout[0]);
    gin[0] = c ? nn_view_as_real(c) : NULL;
    NN_RELEASE(c);
    return gin[0] ? 0 : -1;
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
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (!nn_dtype_is_complex(t->dtype)) return (nn_tensor *)nn_retain(&t->ob);
    return part(t, 0);
}

nn_tensor *nn_imag(nn_tensor *t)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
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
    nn_tensor *in[2] = {re, im};
    if (out && nn_record(NN_OP_complex, 2, in, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* g's part (nn_real / nn_imag) summed to input i's shape, into gin[i] */
static int part_grad(nn_node *n, int i, nn_tensor *g, nn_tensor *(*part_of)(nn_tensor *), nn_tensor **gin)
{
    if (!nn_node_needs_input_grad(n, i)) return 0;
    nn_tensor *p = part_of(g);
    gin[i] = p ? nn_sum_to_size(p, n->input_meta[i].ndim, n->input_meta[i].sizes) : NULL;
    NN_RELEASE(p);
    return gin[i] ? 0 : -1;
}

int nn_complex_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (part_grad(n, 0, gout[0], nn_real, gin) < 0) return -1;
    return part_grad(n, 1, gout[0], nn_imag, gin);
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
    double *out = p || !n ? nn_malloc((size_t)(2 * n + 1) * sizeof *out) : NULL;
    if (out) {
        nn_dtype part_dt = nn_dtype_to_real(dt);
        size_t ps = nn_dtype_size(part_dt);
        for (int64_t k = 0; k < 2 * n; k++) out[k] = nn_load_double(p + (size_t)k * ps, part_dt);
    }
    NN_RELEASE(hold);
    NN_RELEASE(e);
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

/* ----------------------------------------------------------------- polar */

nn_tensor *nn_polar(nn_tensor *abs, nn_tensor *angle)
{
    nn_tensor *pairs = NULL;
    NN_WITH_GRAD_MODE(false, pairs = nn_complex(abs, angle)); /* PyTorch's checks; (abs, angle) broadcast */
    double *x = pairs ? host_parts(pairs, pairs->dtype, pairs->ndim, pairs->sizes) : NULL;
    nn_tensor *out = NULL;
    if (x) { /* ATen's scalar kernel: (a * cos(b), a * sin(b)) in the parts' type */
        bool single = pairs->dtype == NN_COMPLEX64;
        for (int64_t i = 0, n = nn_numel(pairs); i < n; i++) {
            double a = x[2 * i], b = x[2 * i + 1];
            x[2 * i] = single ? (float)a * cosf((float)b) : a * cos(b);
            x[2 * i + 1] = single ? (float)a * sinf((float)b) : a * sin(b);
        }
        out = from_host(nn_device_of(pairs), pairs->ndim, pairs->sizes, pairs->dtype, x);
    }
    nn_free(x);
    NN_RELEASE(pairs);
    nn_tensor *in[2] = {abs, angle};
    if (out && nn_record(NN_OP_polar, 2, in, 1, &out, 1, &out, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* real(conj(g) * sgn(result)) for abs, real(conj(g) * result * i) for angle */
int nn_polar_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_scratch s = {0};
    nn_tensor *r = nn_node_saved(n, 0), *gc = NN_KEEP(&s, nn_conj(gout[0]));
    nn_tensor *i = NN_KEEP(&s, nn_wrapped_complex(0, 1));
    nn_tensor *d[2] = {NN_KEEP(&s, nn_mul(gc, NN_KEEP(&s, nn_sgn(r)))),
                       NN_KEEP(&s, nn_mul(gc, NN_KEEP(&s, nn_mul(r, i))))};
    int rc = s.failed || part_grad(n, 0, d[0], nn_real, gin) < 0 || part_grad(n, 1, d[1], nn_real, gin) < 0 ? -1 : 0;
    nn_scratch_free(&s);
    return rc;
}

/* ---------------------------------------------------------------- binary */

static nn_tensor *pow_number(nn_tensor *z, nn_dtype dt, double er, double ei);


/* the vectorized loop's quotient in the parts' precision (float for complex64) */
#define QUOTIENT(T, ar, ai, br, bi, re, im)                                                                            \
    do {                                                                                                               \
        T a_ = (T)(ar), b_ = (T)(ai), c_ = (T)(br), d_ = (T)(bi);                                                      \
        T den_ = (T)(c_ * c_) + (T)(d_ * d_);                                                                          \
        re = ((T)(a_ * c_) + (T)(b_ * d_)) / den_;                                                                     \
        im = ((T)(b_ * c_) - (T)(a_ * d_)) / den_;                                                                     \
    } while (0)

/* c10::complex's product and quotient as ATen's scalar loop runs them (first product
   fused, as GCC compiled them; vec: the vectorized loop's product, unfused): the
   unary section's ELEMENT_FN defines them */
static void mul_element_f(bool vec, float a, float b, float c, float d, float *re, float *im);
static void mul_element_d(bool vec, double a, double b, double c, double d, double *re, double *im);
static void div_element_f(bool vec, float a, float b, float c, float d, float *re, float *im);
static void div_element_d(bool vec, double a, double b, double c, double d, double *re, double *im);

/* How ATen's binary loop meets the broadcast shape (nd, shape) of n elements: in rows
   of *row elements (the whole tensor when each operand is contiguous in it or a single
   number, as the iterator coalesces the dims; else the last dim), of which the first
   *body go through its vectorized loop (whole blocks of two vectors, 8 complex64 or 4
   complex128, when each operand's last dim is dense or broadcast) and the rest through
   its scalar loop. */
static void binary_rows(const nn_tensor *a, const nn_tensor *b, int nd, const int64_t *shape, int64_t n, int64_t block,
                        int64_t *row, int64_t *body)
{
    const nn_tensor *ops[2] = {a, b};
    bool whole = true, dense = true;
    for (int k = 0; k < 2; k++) {
        const nn_tensor *t = ops[k];
        bool full = t->ndim == nd && !memcmp(t->sizes, shape, sizeof(int64_t) * (size_t)nd) && nn_is_contiguous(t);
        whole &= full || nn_numel(t) == 1;
        int last = t->ndim - 1;
        dense &= t->ndim < nd || t->ndim == 0 || t->sizes[last] == 1 || t->strides[last] == 1;
    }
    *row = whole ? n : nd ? shape[nd - 1] : 1;
    *body = whole || dense ? *row / block * block : 0;
}

/* Whether the scalar loop computes its product or quotient at position j of its run of
   len elements with the plain formulas rather than with the first product fused, as
   GCC compiled ATen's loop (measured against PyTorch 1.13 over runs of 1-7 and whole
   strided rows): a complex64 product of two tensors goes two at a time fused, an odd
   last element plain; a complex64 product with a number peels one plain element, then
   four at a time fused, the rest plain; a complex128 product with a number fuses only
   its first; quotients and the other complex128 products are all fused. */
static bool scalar_plain(bool single, bool mul, bool number, int64_t j, int64_t len)
{
    if (!mul) return false;
    if (!number) return single && len % 2 && j == len - 1;
    if (!single) return j > 0;
    return j == 0 || j > (len - 1) / 4 * 4;
}

static int refuse_binary(nn_binop op, nn_dtype dt)
{
    static const char *const kernel[NN_BINOP_COUNT] = {
        [NN_BINOP_FLOORDIV] = "div_floor_cpu", [NN_BINOP_MOD] = "remainder_cpu", [NN_BINOP_FMOD] = "fmod_cpu",
        [NN_BINOP_LT] = "lt_cpu",  [NN_BINOP_LE] = "le_cpu", [NN_BINOP_GT] = "gt_cpu", [NN_BINOP_GE] = "ge_cpu",
        [NN_BINOP_AND] = "bitwise_and_cpu", [NN_BINOP_OR] = "bitwise_or_cpu", [NN_BINOP_XOR] = "bitwise_xor_cpu",
    };
    if (op == NN_BINOP_MAX || op == NN_BINOP_MIN)
        return nn_error_set(NN_ERR_RUNTIME, "%s not implemented for complex tensors.", op == NN_BINOP_MAX ? "maximum" : "minimum");
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel[op] ? kernel[op] : "binary", scalar_name(dt));
}

nn_tensor *nn_complex_binary(nn_binop op, nn_tensor *a, nn_tensor *b, double alpha, nn_tensor *into)
{
    nn_dtype dt = nn_result_type(a, b);
    bool cmp = op == NN_BINOP_EQ || op == NN_BINOP_NE;
    bool pow = op == NN_BINOP_POW;
    if (op != NN_BINOP_ADD && op != NN_BINOP_SUB && op != NN_BINOP_MUL && op != NN_BINOP_DIV && !cmp && !pow) {
        refuse_binary(op, dt);
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
    if (pow && b->is_wrapped_number && !into) { /* z ** number */
        double e[2];
        e[1] = 0;
        int rc = nn_dtype_is_complex(b->dtype) ? nn_complex_item(b, &e[0], &e[1]) : nn_item(b, &e[0]);
        return rc < 0 ? NULL : pow_number(a, dt, e[0], e[1]);
    }
    double *x = host_parts(a, dt, nd, shape), *y = x ? host_parts(b, dt, nd, shape) : NULL;
    int64_t n = 1;
    for (int d = 0; d < nd; d++) n *= shape[d];
    double *r = y ? nn_malloc((size_t)(2 * n + 1) * sizeof *r) : NULL;
    nn_tensor *out = NULL;
    if (r) {
        bool single = dt == NN_COMPLEX64;
        int64_t row, body;
        binary_rows(a, b, nd, shape, n, single ? 8 : 4, &row, &body);
        bool number = nn_numel(a) == 1 || nn_numel(b) == 1, mul = op == NN_BINOP_MUL;
        for (int64_t k = 0; k < n; k++) {
            double ar = x[2 * k], ai = x[2 * k + 1], br = y[2 * k], bi = y[2 * k + 1], re = 0, im = 0;
            int64_t at = row ? k % row : 0;
            bool vec = at < body || scalar_plain(single, mul, number, at - body, row - body); /* the plain formulas */
            switch (op) {
            case NN_BINOP_ADD:
            case NN_BINOP_SUB: {
                double s = op == NN_BINOP_SUB ? -alpha : alpha; /* alpha * b, then the sum, per part */
                if (single) re = (float)ar + (float)((float)s * (float)br), im = (float)ai + (float)((float)s * (float)bi);
                else re = ar + s * br, im = ai + s * bi;
                break;
            }
            case NN_BINOP_MUL:
                if (single) { float fr, fi; mul_element_f(vec, (float)ar, (float)ai, (float)br, (float)bi, &fr, &fi); re = fr, im = fi; }
                else mul_element_d(vec, ar, ai, br, bi, &re, &im);
                break;
            case NN_BINOP_DIV:
                if (single && vec) { float fr, fi; QUOTIENT(float, ar, ai, br, bi, fr, fi); re = fr, im = fi; }
                else if (single) { float fr, fi; div_element_f(false, (float)ar, (float)ai, (float)br, (float)bi, &fr, &fi); re = fr, im = fi; }
                else if (vec) QUOTIENT(double, ar, ai, br, bi, re, im);
                else div_element_d(false, ar, ai, br, bi, &re, &im);
                break;
            case NN_BINOP_POW:
                if (single) {
                    float complex w = cpowf(make_cf((float)ar, (float)ai), make_cf((float)br, (float)bi));
                    re = crealf(w), im = cimagf(w);
                } else {
                    double complex w = cpow(make_cd(ar, ai), make_cd(br, bi));
                    re = creal(w), im = cimag(w);
                }
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

/* the internal kinds after nn_complex_fn's codes */
enum { U_ABS = NN_CX_COUNT, U_ANGLE, U_CONJ, U_CONJ_PHYSICAL, U_NEG, U_POW, U_KINDS };

/* ATen's vectorized loop covers whole blocks of two vectors (8 complex64 or 4
   complex128 with AVX2) of a contiguous operand; the elements after them, and
   every element of a strided one, go through its scalar loop */
static int64_t vector_body(const nn_tensor *z, nn_dtype dt, int64_t n)
{
    int64_t block = dt == NN_COMPLEX64 ? 8 : 4;
    return nn_is_contiguous(z) ? n / block * block : 0;
}

/* Vectorized<complex>'s exp, exp + 1 (sigmoid) or angle of n complex numbers (parts x)
   with Sleef (the CPU's vmath kernel) into out (parts); false, having done nothing,
   where it does not run */
static bool vector_fn(nn_vcx k, nn_dtype dt, const double *x, int64_t n, double *out)
{
    int64_t shape[1] = {n};
    nn_tensor *in = n ? from_host(NN_DEVICE_CPU, 1, shape, dt, x) : NULL;
    nn_tensor *y = in ? nn_empty_on(NN_DEVICE_CPU, 1, shape, dt) : NULL;
    nn_kernel_args ka = {.t = {y, in}, .i = {k}};
    bool done = y && NN_KERNEL(nn_backend_of(in), math, (NN_MATH_vmath_map, &ka)) == 0 && ka.host[0];
    double *r = done ? host_parts(y, dt, 1, shape) : NULL;
    if (r) memcpy(out, r, (size_t)(2 * n) * sizeof *out);
    nn_free(r);
    NN_RELEASE(in);
    NN_RELEASE(y);
    nn_error_clear();
    return r != NULL;
}

/* One element of kind k in the parts' type T (float for complex64) with the C
   library's functions of suffix S (csqrtf ...; M makes a T complex), as ATen's
   kernels: at says where the element is, 1 in the vectorized body, 2 in the tail
   the vectorized loop leaves to its scalar loop, 0 in the scalar loop of a strided
   operand; the body's formulas differ from the scalar loop's for reciprocal, rsqrt, sgn, sigmoid and the powers 2, 3,
   -2 (the scalar loop's products and quotients are c10::complex's, which GCC
   compiled with the first product fused: fma(a, c, -(b * d))); e: the vectorized
   exp of -z for sigmoid's body; (er, ei): pow's exponent. */
#define ELEMENT_FN(name, T, S, M)                                                                                      \
    static void mul_##name(bool vec, T a, T b, T c, T d, T *re, T *im)                                                \
    {                                                                                                                  \
        if (vec) *re = (T)(a * c) - (T)(b * d), *im = (T)(a * d) + (T)(b * c);                                         \
        else *re = fma##S(a, c, -(T)(b * d)), *im = fma##S(a, d, (T)(b * c));                                          \
    }                                                                                                                  \
    /* (a + b i) / (c + d i): vectorized, 1 / z only: (c, -d) / (c² + d²) */                                          \
    static void div_##name(bool vec, T a, T b, T c, T d, T *re, T *im)                                                \
    {                                                                                                                  \
        if (vec) {                                                                                                     \
            T den = (T)(c * c) + (T)(d * d);                                                                           \
            *re = c / den, *im = -d / den;                                                                             \
        } else {                                                                                                       \
            T den = fma##S(c, c, (T)(d * d));                                                                          \
            *re = fma##S(a, c, (T)(b * d)) / den, *im = fma##S(b, c, -(T)(a * d)) / den;                               \
        }                                                                                                              \
    }                                                                                                                  \
    static void name(int k, int at, double re_, double im_, const double *e, double er, double ei, double *out)       \
    {                                                                                                                  \
        bool vec = at == 1;                                                                                            \
        T re = (T)re_, im = (T)im_, r0 = 0, r1 = 0, den;                                                               \
        T complex z = M(re, im), w = z;                                                                                \
        switch (k) {                                                                                                   \
        case U_ABS: out[0] = vec ? sqrt##S((T)(re * re) + (T)(im * im)) : hypot##S(re, im); return;                  \
        case U_ANGLE: out[0] = atan2##S(im, re); return;                                                               \
        case U_CONJ:                                                                                                   \
        case U_CONJ_PHYSICAL: r0 = re, r1 = -im; break;                                                                         \
        case U_NEG: r0 = -re, r1 = -im; break;                                                                         \
        case NN_CX_LOG2:                                                                                               \
        case NN_CX_LOG10:                                                                                              \
            w = clog##S(z), den = (T)log(k == NN_CX_LOG2 ? 2.0 : 10.0);                                                \
            r0 = creal##S(w) / den, r1 = cimag##S(w) / den;                                                            \
            break;                                                                                                     \
        case NN_CX_RSQRT:                                                                                              \
            w = csqrt##S(z);                                                                                           \
            div_##name(vec, 1, 0, creal##S(w), cimag##S(w), &r0, &r1);                                                 \
            break;                                                                                                     \
        case NN_CX_RECIPROCAL: div_##name(vec, 1, 0, re, im, &r0, &r1); break;                                         \
        case NN_CX_SIGMOID: /* vectorized: ((0 - z).exp() + 1).reciprocal(), e that exp + 1; scalar: 1 / (1 + exp(-z)) */            \
            if (vec) re = (T)e[0], im = (T)e[1];                                                               \
            else w = cexp##S(M(-re, -im)), re = 1 + creal##S(w), im = 0 + cimag##S(w);                                 \
            div_##name(vec, 1, 0, re, im, &r0, &r1);                                                                   \
            break;                                                                                                     \
        case NN_CX_SGN: /* vectorized: z / |z| (0 where |z| is); scalar: z / complex(hypot(z)) */                    \
            if (vec) {                                                                                                 \
                den = sqrt##S((T)(re * re) + (T)(im * im));                                                            \
                if (den != 0) r0 = re / den, r1 = im / den;                                                            \
            } else if (re != 0 || im != 0) {                                                                           \
                div_##name(false, re, im, hypot##S(re, im), 0, &r0, &r1);                                              \
            }                                                                                                          \
            break;                                                                                                     \
        case U_POW:                                                                                                    \
            if (ei == 0 && (er == 2 || er == 3 || er == -2)) { /* pow_tensor_scalar_optimized_kernel's products */     \
                mul_##name(vec, re, im, re, im, &r0, &r1);                                                             \
                if (er == 3) { /* the vectorized loop's scalar tail (at 2) fuses the imaginary part only */            \
                    T sr = r0, si = r1;                                                                                \
                    mul_##name(at != 0, sr, si, re, im, &r0, &r1);                                                     \
                    if (at == 2) r1 = fma##S(sr, im, (T)(si * re));                                                    \
                }                                                                                                      \
                if (er == -2) div_##name(vec, 1, 0, r0, r1, &r0, &r1);                                                 \
                break;                                                                                                 \
            }                                                                                                          \
            w = cpow##S(z, M((T)er, (T)ei));                                                                           \
            r0 = creal##S(w), r1 = cimag##S(w);                                                                        \
            break;                                                                                                     \
        default: /* ATen maps the std:: function */                                                                   \
            w = k == NN_CX_EXP ? cexp##S(z) : k == NN_CX_LOG ? clog##S(z) : k == NN_CX_SQRT ? csqrt##S(z)              \
              : k == NN_CX_SIN ? csin##S(z) : k == NN_CX_COS ? ccos##S(z) : k == NN_CX_TAN ? ctan##S(z)                \
              : k == NN_CX_SINH ? csinh##S(z) : k == NN_CX_COSH ? ccosh##S(z) : ctanh##S(z);                           \
            r0 = creal##S(w), r1 = cimag##S(w);                                                                        \
            break;                                                                                                     \
        }                                                                                                              \
        out[0] = r0, out[1] = r1;                                                                                      \
    }
ELEMENT_FN(element_f, float, f, make_cf)
ELEMENT_FN(element_d, double, , make_cd)
#undef ELEMENT_FN

/* kind k of z computed as dtype dt (complex; abs and angle give its real dtype) */
static nn_tensor *complex_unary(int k, nn_tensor *z, nn_dtype dt, double er, double ei)
{
    double *x = host_parts(z, dt, z->ndim, z->sizes);
    if (!x) return NULL;
    int64_t n = nn_numel(z), body = vector_body(z, dt, n);
    bool contiguous = nn_is_contiguous(z);
    bool single = dt == NN_COMPLEX64, real_out = k == U_ABS || k == U_ANGLE;
    /* Sleef's vectorized functions: exp of every element (the vml kernel), angle over
       the body, exp(-z) + 1 over sigmoid's */
    bool all = k == NN_CX_EXP;
    nn_vcx vk = k == NN_CX_EXP ? NN_VCX_EXP : k == NN_CX_SIGMOID ? NN_VCX_EXP1 : NN_VCX_ANGLE;
    bool need_e = all || k == NN_CX_SIGMOID || k == U_ANGLE;
    double *e = need_e ? nn_malloc((size_t)(2 * n + 1) * sizeof *e) : NULL;
    if (need_e && !e) { /* the scalar formulas would read it (sigmoid's body) */
        nn_free(x);
        return NULL;
    }
    for (int64_t i = 0; e && i < 2 * body; i++) e[i] = k != NN_CX_SIGMOID ? x[i] : single ? (double)(0.0f - (float)x[i]) : 0.0 - x[i];
    bool have_e = e && vector_fn(vk, dt, all ? x : e, all ? n : body, e);
    if (e && !have_e) body = 0; /* no AVX2: the scalar formulas throughout */
    double *r = nn_malloc((size_t)(2 * n + 1) * sizeof *r);
    nn_tensor *out = NULL;
    if (r) {
        for (int64_t i = 0; i < n; i++) {
            double v[2];
            if (have_e && (all || (i < body && k != NN_CX_SIGMOID))) v[0] = e[2 * i], v[1] = e[2 * i + 1];
            else (single ? element_f : element_d)(k, i < body ? 1 : contiguous ? 2 : 0, x[2 * i], x[2 * i + 1], e ? e + 2 * i : NULL, er, ei, v);
            if (real_out) r[i] = v[0];
            else r[2 * i] = v[0], r[2 * i + 1] = v[1];
        }
        out = from_host(nn_device_of(z), z->ndim, z->sizes, real_out ? nn_dtype_to_real(dt) : dt, r);
    }
    nn_free(x);
    nn_free(e);
    nn_free(r);
    return out;
}

/* kind k of z, recorded as PyTorch names its node */
static nn_tensor *recorded_unary(int k, nn_tensor *z)
{
    static const char *const names[U_KINDS] = {
        [NN_CX_EXP] = "ExpBackward0",       [NN_CX_LOG] = "LogBackward0",     [NN_CX_LOG2] = "Log2Backward0",
        [NN_CX_LOG10] = "Log10Backward0",   [NN_CX_SQRT] = "SqrtBackward0",   [NN_CX_RSQRT] = "RsqrtBackward0",
        [NN_CX_RECIPROCAL] = "ReciprocalBackward0", [NN_CX_SIN] = "SinBackward0", [NN_CX_COS] = "CosBackward0",
        [NN_CX_TAN] = "TanBackward0",       [NN_CX_SINH] = "SinhBackward0",   [NN_CX_COSH] = "CoshBackward0",
        [NN_CX_TANH] = "TanhBackward0",     [NN_CX_SIGMOID] = "SigmoidBackward0", [NN_CX_SGN] = "SgnBackward0",
        [U_ABS] = "AbsBackward0",           [U_ANGLE] = "AngleBackward0",     [U_CONJ] = "ConjBackward0",
        [U_CONJ_PHYSICAL] = "ConjPhysicalBackward0", [U_NEG] = "NegBackward0",
    };
    nn_tensor *out = complex_unary(k, z, z->dtype, 0, 0);
    if (!out || !nn_needs_grad(1, &z)) return out;
    nn_op_params p = {.i = {k}, .n_i = 1};
    nn_tensor *save[2] = {z, out};
    if (nn_record(NN_OP_complex_unary, 1, &z, 1, &out, 2, save, &p) < 0 || nn_node_set_name(out->grad_fn, names[k]) < 0)
        NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_complex_abs(nn_tensor *z) { return recorded_unary(U_ABS, z); }
nn_tensor *nn_complex_neg(nn_tensor *z) { return recorded_unary(U_NEG, z); }
nn_tensor *nn_complex_math(nn_complex_fn f, nn_tensor *z) { return recorded_unary((int)f, z); }

/* d/dz f(z) of a holomorphic kind k, from z and the result r (ATen's forms) */
static nn_tensor *derivative(nn_scratch *s, int k, nn_tensor *z, nn_tensor *r)
{
    switch (k) {
    case NN_CX_EXP: return r;
    case NN_CX_LOG: return NN_KEEP(s, nn_reciprocal(z));
    case NN_CX_LOG2: return NN_KEEP(s, nn_reciprocal(NN_KEEP(s, nn_mul_scalar(z, 0.6931471805599453))));
    case NN_CX_LOG10: return NN_KEEP(s, nn_reciprocal(NN_KEEP(s, nn_mul_scalar(z, 2.302585092994046))));
    case NN_CX_SQRT: return NN_KEEP(s, nn_reciprocal(NN_KEEP(s, nn_mul_scalar(r, 2))));
    case NN_CX_RSQRT: return NN_KEEP(s, nn_mul_scalar(NN_KEEP(s, nn_pow_scalar(r, 3)), -0.5));
    case NN_CX_RECIPROCAL: return NN_KEEP(s, nn_neg(NN_KEEP(s, nn_mul(r, r))));
    case NN_CX_SIN: return NN_KEEP(s, nn_cos(z));
    case NN_CX_COS: return NN_KEEP(s, nn_neg(NN_KEEP(s, nn_sin(z))));
    case NN_CX_TAN: return NN_KEEP(s, nn_add_scalar(NN_KEEP(s, nn_pow_scalar(r, 2)), 1));
    case NN_CX_SINH: return NN_KEEP(s, nn_cosh(z));
    case NN_CX_COSH: return NN_KEEP(s, nn_sinh(z));
    case NN_CX_TANH: return NN_KEEP(s, nn_rsub_scalar(NN_KEEP(s, nn_mul(r, r)), 1));
    case NN_CX_SIGMOID: return NN_KEEP(s, nn_mul(NN_KEEP(s, nn_rsub_scalar(r, 1)), r));
    default: return NULL;
    }
}

/* (z == 0) as 1 and 0 of z's real dtype, or the reverse (nonzero) */
static nn_tensor *zero_mask(nn_scratch *s, nn_tensor *z, bool nonzero)
{
    nn_tensor *zero = NN_KEEP(s, nn_wrapped_number(0, false));
    nn_tensor *m = zero ? NN_KEEP(s, nn_compare(z, zero, nonzero ? NN_NE : NN_EQ)) : NULL;
    return m ? NN_KEEP(s, nn_to_dtype(m, nn_dtype_to_real(z->dtype))) : NULL;
}

int nn_complex_unary_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int k = (int)n->p.i[0];
    nn_tensor *z = nn_node_saved(n, 0), *r = nn_node_saved(n, 1), *g = gout[0], *d = NULL;
    nn_scratch s = {0};
    switch (k) {
    case U_NEG: d = nn_neg(g); break;
    case U_CONJ:
    case U_CONJ_PHYSICAL: d = nn_conj(g); break;
    case U_ABS: d = nn_mul(g, NN_KEEP(&s, nn_sgn(z))); break;
    case U_ANGLE: { /* g z / |z|^2 i, 0 where z is (the denominator made 1 there) */
        nn_tensor *a = NN_KEEP(&s, nn_complex_abs(z)), *den = NN_KEEP(&s, nn_add(NN_KEEP(&s, nn_mul(a, a)), zero_mask(&s, a, false)));
        nn_tensor *q = NN_KEEP(&s, nn_div(NN_KEEP(&s, nn_mul(g, z)), den)), *i = NN_KEEP(&s, nn_wrapped_complex(0, 1));
        d = s.failed ? NULL : nn_mul(q, i);
        break;
    }
    case NN_CX_SGN: { /* g / |z| - real(g / |z| conj(r)) r, 0 where z is */
        nn_tensor *a = NN_KEEP(&s, nn_complex_abs(z)), *den = NN_KEEP(&s, nn_add(a, zero_mask(&s, a, false)));
        nn_tensor *ga = NN_KEEP(&s, nn_div(g, den));
        nn_tensor *re = NN_KEEP(&s, nn_real(NN_KEEP(&s, nn_mul(ga, NN_KEEP(&s, nn_conj(r))))));
        nn_tensor *v = NN_KEEP(&s, nn_sub(ga, NN_KEEP(&s, nn_mul(re, r))));
        d = s.failed ? NULL : nn_mul(v, zero_mask(&s, a, true));
        break;
    }
    default: { /* holomorphic: g conj(f'(z)) */
        nn_tensor *f = derivative(&s, k, z, r);
        d = f ? nn_mul(g, NN_KEEP(&s, nn_conj(f))) : NULL;
        break;
    }
    }
    nn_scratch_free(&s);
    gin[0] = d;
    return d ? 0 : -1;
}

/* z ** (er + ei i), z of complex dtype dt, as PyTorch's pow with a number: 0 gives
   ones, 1 a copy, 0.5 / -0.5 / -1 its sqrt / rsqrt / reciprocal kernels, 2, 3 and -2
   products, any other cpow */
static nn_tensor *pow_number(nn_tensor *z, nn_dtype dt, double er, double ei)
{
    if (ei == 0 && (er == 0 || er == 1)) {
        nn_tensor *c = nn_to_dtype(z, dt), *out = NULL;
        if (c && er == 0) out = nn_full_on(nn_device_of(z), z->ndim, z->sizes, 1, dt);
        else if (c) out = nn_clone(c);
        NN_RELEASE(c);
        return out;
    }
    int k = ei != 0 ? U_POW : er == 0.5 ? NN_CX_SQRT : er == -0.5 ? NN_CX_RSQRT : er == -1 ? NN_CX_RECIPROCAL : U_POW;
    return complex_unary(k, z, dt, er, ei);
}

nn_tensor *nn_angle(nn_tensor *t)
{
    if (nn_dtype_is_complex(t->dtype)) return recorded_unary(U_ANGLE, t);
    /* a real number's angle: 0, or pi for a negative one (NaN stays NaN) */
    nn_tensor *zero = nn_zeros_on(nn_device_of(t), 0, NULL, nn_dtype_is_floating(t->dtype) ? t->dtype : nn_default_dtype());
    nn_tensor *r = zero ? nn_atan2(zero, t) : NULL;
    NN_RELEASE(zero);
    return r;
}

nn_tensor *nn_conj(nn_tensor *t)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (!nn_dtype_is_complex(t->dtype)) return (nn_tensor *)nn_retain(&t->ob);
    return recorded_unary(U_CONJ, t);
}

nn_tensor *nn_conj_physical(nn_tensor *t)
{
    if (!nn_dtype_is_complex(t->dtype)) return (nn_tensor *)nn_retain(&t->ob);
    return recorded_unary(U_CONJ_PHYSICAL, t);
}

/* ------------------------------------------------------- sums and matmul */

/* out, its node (the last of the real ops it was made of) named as PyTorch's one op */
static nn_tensor *named(nn_tensor *out, const char *name)
{
    if (out && out->grad_fn && nn_node_set_name(out->grad_fn, name) < 0) NN_SET(out, NULL);
    return out;
}

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
    return named(out, n_dims == z->ndim && dims == all ? (mean ? "MeanBackward0" : "SumBackward0")
                                                       : (mean ? "MeanBackward1" : "SumBackward1"));
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
    int da = a->ndim, db = b->ndim;
    return named(out, da == 1 && db == 1 ? "DotBackward0" : da == 2 && db == 1 ? "MvBackward0"
                    : da == 2 && db == 2 ? "MmBackward0" : da == 1 && db == 2 ? "SqueezeBackward1" : "UnsafeViewBackward0");
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

/* ------------------------------------------------------------------ fill */

int nn_check_real_value(nn_dtype dt, double im)
{
    static const char *const cpp[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "float",   [NN_FLOAT64] = "double", [NN_FLOAT16] = "c10::Half", [NN_BFLOAT16] = "c10::BFloat16",
        [NN_INT64] = "int64_t",   [NN_INT32] = "int",      [NN_INT16] = "int16_t",     [NN_INT8] = "int8_t",
        [NN_UINT8] = "uint8_t",   [NN_BOOL] = "bool"};
    if (nn_dtype_is_complex(dt) || im == 0) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                        cpp[dt] ? cpp[dt] : nn_dtype_short_name(dt));
}

int nn_fill_complex_(nn_tensor *t, double re, double im)
{
    if (!nn_dtype_is_complex(t->dtype)) return nn_check_real_value(t->dtype, im) < 0 ? -1 : nn_fill_(t, re);
    nn_tensor *r = nn_view_as_real(t);
    nn_tensor *parts[2] = {r ? nn_select(r, r->ndim - 1, 0) : NULL, r ? nn_select(r, r->ndim - 1, 1) : NULL};
    int rc = parts[0] && parts[1] && nn_fill_(parts[0], re) == 0 && nn_fill_(parts[1], im) == 0 ? 0 : -1;
    NN_RELEASE(parts[0]);
    NN_RELEASE(parts[1]);
    NN_RELEASE(r);
    return rc;
}
