/*
 * test_backend.c — the kernel boundary (core/backend.h): one harness that runs
 * every kernel of core/kernels.def, for every dtype its backend claims, on
 * every registered backend (the CPU and the loopback test device, whose memory
 * is poisoned under AddressSanitizer outside its kernels), against a simple
 * reference computed here in double; a kernel without a case fails the run.
 * Then the device model: copies between devices (autograd included), PyTorch's
 * mixed-device error and its 0-dim CPU exception, NotImplementedError for a
 * kernel a backend lacks, the host-access contract, and (under ASan) that a
 * host read of loopback memory outside a kernel is caught.
 */
#include "test_util.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "cpu/nn_vmath.h"
#include "nn_mod_more.h"
#include "nn_ops_extra.h"
#include "nn_select.h"

static const nn_device LOOPBACK = {NN_CUDA, 0};

/* ------------------------------------------------------------- helpers */

static uint64_t rng = 88172645463325252ull;
static double uniform(void) /* xorshift64: [0, 1) */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* A host tensor of dtype with values lo + (hi - lo) * u (integers rounded), on device. */
static nn_tensor *random_on(nn_device d, nn_dtype dt, int ndim, const int64_t *sizes, double lo, double hi)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) n *= sizes[i];
    double *v = malloc((size_t)(n + 1) * sizeof *v);
    for (int64_t i = 0; i < n; i++) {
        double x = lo + (hi - lo) * uniform();
        v[i] = nn_dtype_is_floating(dt) ? x : dt == NN_BOOL ? (x > (lo + hi) / 2) : floor(x);
    }
    nn_tensor *h = TU_OK(tu_tensor(dt, ndim, sizes, v));
    free(v);
    nn_tensor *t = TU_OK(nn_to_device(h, d));
    NN_RELEASE(h);
    return t;
}

/* Element i (row-major) of t through the host contract. */
static double at(const nn_tensor *t, int64_t i)
{
    nn_tensor *hold;
    const char *p = TU_OK(nn_host_read(t, &hold));
    double v = nn_load_double(p + i * (int64_t)nn_dtype_size(t->dtype), t->dtype);
    NN_RELEASE(hold);
    return v;
}

static double tol_for(nn_dtype dt) { return dt == NN_FLOAT32 ? 1e-5 : dt == NN_FLOAT64 ? 1e-12 : 0; }

static void assert_close(double got, double want, double tol, const char *what)
{
    bool same = (isnan(got) && isnan(want)) || got == want || fabs(got - want) <= tol * (1 + fabs(want));
    if (!same) fail_msg("%s: got %.17g, want %.17g", what, got, want);
}

/* ------------------------------------------------------------- kernel cases */

typedef void (*kernel_case)(const nn_backend *b, nn_device d, nn_dtype dt);

static void case_fill(const nn_backend *b, nn_device d, nn_dtype dt)
{
    int64_t sizes[2] = {5, 7};
    nn_tensor *t = TU_OK(nn_empty_on(d, 2, sizes, dt));
    double v = dt == NN_BOOL ? 1 : nn_dtype_is_floating(dt) ? 2.5 : -3;
    tu_check(NN_KERNEL(b, fill, (t, v)));
    for (int64_t i = 0; i < 35; i++) assert_close(at(t, i), v, 0, "fill");
    NN_RELEASE(t);
}

static void case_copy(const nn_backend *b, nn_device d, nn_dtype dt)
{
    int64_t sizes[2] = {4, 6};
    nn_tensor *src = random_on(d, NN_FLOAT64, 2, sizes, -4, 4);
    nn_tensor *tr = TU_OK(nn_transpose(src, 0, 1)); /* a strided source */
    nn_tensor *dst = TU_OK(nn_empty_on(d, 2, (int64_t[]){6, 4}, dt));
    tu_check(NN_KERNEL(b, copy, (dst, tr)));
    for (int64_t i = 0; i < 6; i++)
        for (int64_t j = 0; j < 4; j++) {
            char cell[8];
            nn_store_double(cell, dt, at(src, j * 6 + i));
            assert_close(at(dst, i * 4 + j), nn_load_double(cell, dt), 0, "copy");
        }
    NN_RELEASE(src);
    NN_RELEASE(tr);
    NN_RELEASE(dst);
}

static double binop_ref(nn_binop op, double a, double b, double alpha, bool integer)
{
    switch (op) {
    case NN_BINOP_ADD: return a + alpha * b;
    case NN_BINOP_SUB: return a - b;
    case NN_BINOP_MUL: return a * b;
    case NN_BINOP_DIV: return integer ? trunc(a / b) : a / b;
    case NN_BINOP_POW: return pow(a, b);
    case NN_BINOP_MAX: return a > b ? a : b;
    case NN_BINOP_MIN: return a < b ? a : b;
    case NN_BINOP_FLOORDIV: return floor(a / b);
    case NN_BINOP_MOD: return a - floor(a / b) * b;
    case NN_BINOP_AND: return (double)((int64_t)a & (int64_t)b);
    case NN_BINOP_OR: return (double)((int64_t)a | (int64_t)b);
    case NN_BINOP_XOR: return (double)((int64_t)a ^ (int64_t)b);
    case NN_BINOP_EQ: return a == b;
    case NN_BINOP_NE: return a != b;
    case NN_BINOP_LT: return a < b;
    case NN_BINOP_LE: return a <= b;
    case NN_BINOP_GT: return a > b;
    case NN_BINOP_GE: return a >= b;
    case NN_BINOP_FMOD: return fmod(a, b);
    default: return NAN;
    }
}

static void case_binary(const nn_backend *b, nn_device d, nn_dtype dt)
{
    int64_t sizes[2] = {3, 40000}, row[2] = {1, 40000}; /* past the grain: the threaded path */
    bool integer = !nn_dtype_is_floating(dt);
    for (int op = 0; op < NN_BINOP_COUNT; op++) {
        bool positive = op == NN_BINOP_POW || op == NN_BINOP_DIV || op == NN_BINOP_FLOORDIV || op == NN_BINOP_MOD ||
                        op == NN_BINOP_FMOD;
        nn_tensor *x = random_on(d, dt, 2, sizes, positive ? 1 : -9, 9);
        nn_tensor *y0 = random_on(d, dt, 2, row, positive ? 1 : -9, op == NN_BINOP_POW ? 3 : 9);
        nn_tensor y; /* y broadcast along the rows: stride 0 */
        nn_broadcast_into(y0, 2, sizes, &y);
        bool cmp = op >= NN_BINOP_EQ && op <= NN_BINOP_GE;
        nn_tensor *out = TU_OK(nn_empty_on(d, 2, sizes, cmp ? NN_BOOL : dt));
        double alpha = op == NN_BINOP_ADD ? 2 : 1;
        tu_check(NN_KERNEL(b, binary, ((nn_binop)op, out, x, &y, alpha)));
        for (int64_t i = 0; i < 3 * 40000; i += 997) {
            double want = binop_ref((nn_binop)op, at(x, i), at(y0, i % 40000), alpha, integer);
            if (dt == NN_FLOAT32 && !cmp) want = (float)want;
            assert_close(at(out, i), want, cmp ? 0 : op == NN_BINOP_POW ? 1e-5 : tol_for(dt), nn_kernel_names[NN_KERNEL_binary]);
        }
        NN_RELEASE(x);
        NN_RELEASE(y0);
        NN_RELEASE(out);
    }
}

static void twice_plus(char **data, const int64_t *strides, int64_t n, void *ctx)
{
    (void)ctx;
    for (int64_t i = 0; i < n; i++)
        *(double *)(data[0] + i * strides[0]) =
            2 * *(const double *)(data[1] + i * strides[1]) + *(const double *)(data[2] + i * strides[2]);
}

static void case_map(const nn_backend *b, nn_device d, nn_dtype dt)
{
    (void)dt; /* the loop body decides the dtypes: float64 here */
    int64_t sizes[1] = {70000};
    nn_tensor *x = random_on(d, NN_FLOAT64, 1, sizes, -1, 1), *y = random_on(d, NN_FLOAT64, 1, sizes, -1, 1);
    for (int elementwise = 0; elementwise < 2; elementwise++) {
        nn_tensor *out = TU_OK(nn_empty_on(d, 1, sizes, NN_FLOAT64));
        const nn_tensor *ts[3] = {out, x, y};
        tu_check(NN_KERNEL(b, map, (3, ts, twice_plus, NULL, elementwise)));
        for (int64_t i = 0; i < 70000; i += 331) assert_close(at(out, i), 2 * at(x, i) + at(y, i), 0, "map");
        NN_RELEASE(out);
    }
    NN_RELEASE(x);
    NN_RELEASE(y);
}

/* The unary kernel's reference formulas in double (core/unary_ops.def): lo/hi
   the op's two parameters. */
static double unary_ref(int op, double a, double b, double lo, double hi)
{
    double cdf = 0.5 * (1 + erf(a / sqrt(2))), sig = 1 / (1 + exp(-a));
    double inner = sqrt(2 / M_PI) * (a + 0.044715 * a * a * a), t = tanh(inner);
    switch (op) {
    case NN_UNARY_NEG: return -a;
    case NN_UNARY_ABS: return fabs(a);
    case NN_UNARY_SIGN: return (a > 0) - (a < 0);
    case NN_UNARY_EXP: return exp(a);
    case NN_UNARY_LOG: return log(a);
    case NN_UNARY_SQRT: return sqrt(a);
    case NN_UNARY_TANH: return tanh(a);
    case NN_UNARY_SIGMOID: return sig;
    case NN_UNARY_RELU: return a < 0 ? 0 : a;
    case NN_UNARY_GELU_DNNL: case NN_UNARY_GELU: return a * cdf;
    case NN_UNARY_GELU_CDF: return cdf;
    case NN_UNARY_GELU_TANH_VEC: case NN_UNARY_GELU_TANH: return 0.5 * a * (1 + t);
    case NN_UNARY_LEAKY_RELU: return a > 0 ? a : a * lo;
    case NN_UNARY_ELU: return a > 0 ? a : (exp(a) - 1) * lo;
    case NN_UNARY_SILU: return a * sig;
    case NN_UNARY_SOFTPLUS: return a * lo > hi ? a : log1p(exp(a * lo)) / lo;
    case NN_UNARY_THRESHOLD: return a <= lo ? hi : a;
    case NN_UNARY_CLAMP_MIN: return a < lo ? lo : a;
    case NN_UNARY_CLAMP_MAX: return a > hi ? hi : a;
    case NN_UNARY_CLAMP: return a < lo ? lo : a > hi ? hi : a;
    case NN_UNARY_FLOOR: return floor(a);
    case NN_UNARY_CEIL: return ceil(a);
    case NN_UNARY_ROUND: return nearbyint(a);
    case NN_UNARY_PRELU: return a > 0 ? a : b * a;
    case NN_UNARY_TANH_GRAD: return a * (1 - b * b);
    case NN_UNARY_GELU_GRAD_DNNL: case NN_UNARY_GELU_GRAD:
        return a * (0.5 * (1 + erf(b / sqrt(2))) + b * exp(-b * b / 2) / sqrt(2 * M_PI));
    case NN_UNARY_SILU_GRAD_VEC: case NN_UNARY_SILU_GRAD: {
        double s = 1 / (1 + exp(-b));
        return a * s * (1 + b * (1 - s));
    }
    case NN_UNARY_GELU_TANH_GRAD_VEC: case NN_UNARY_GELU_TANH_GRAD: { /* d/db of 0.5 b (1 + tanh(beta (b + kappa b^3))) */
        double beta = sqrt(2 / M_PI), tb = tanh(beta * (b + 0.044715 * b * b * b));
        return a * (0.5 * (1 + tb) + 0.5 * b * (1 - tb * tb) * beta * (1 + 3 * 0.044715 * b * b));
    }
    default: return NAN;
    }
}

static nn_tensor *values_on(nn_device d, nn_dtype dt, int ndim, const int64_t *sizes, const double *v);

/* v rounded to the nearest bfloat16 (ties to even), as a double */
static double round_bf16(double v)
{
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    u = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The bfloat16 codes (PyTorch's Vectorized<BFloat16> loops, every step rounded
   to bfloat16, on float32 operands holding bfloat16 values): each result is a
   bfloat16 value, within bfloat16's rounding of the double formula. */
static void case_unary_bf16(const nn_backend *b, nn_device d)
{
    static const int codes[][2] = {
        {NN_UNARY_GELU_BF16, NN_UNARY_GELU}, {NN_UNARY_GELU_TANH_BF16, NN_UNARY_GELU_TANH},
        {NN_UNARY_SILU_BF16, NN_UNARY_SILU}, {NN_UNARY_GELU_GRAD_BF16, NN_UNARY_GELU_GRAD},
        {NN_UNARY_GELU_TANH_GRAD_BF16, NN_UNARY_GELU_TANH_GRAD}, {NN_UNARY_SILU_GRAD_BF16, NN_UNARY_SILU_GRAD},
    };
    int64_t n = 70001;
    double *xv = malloc((size_t)n * sizeof *xv), *gv = malloc((size_t)n * sizeof *gv);
    for (int64_t i = 0; i < n; i++) xv[i] = round_bf16(-4 + 8 * uniform()), gv[i] = round_bf16(-2 + 4 * uniform());
    nn_tensor *x = values_on(d, NN_FLOAT32, 1, &n, xv), *g = values_on(d, NN_FLOAT32, 1, &n, gv);
    for (size_t c = 0; c < sizeof codes / sizeof codes[0]; c++) {
        bool binary = codes[c][0] >= NN_UNARY_PRELU; /* a: the gradient, b: the input */
        nn_unary_params p = {.k = codes[c][0], .vec = NN_UNARY_NONE};
        nn_tensor *out = TU_OK(nn_empty_on(d, 1, &n, NN_FLOAT32));
        const nn_tensor *ts[3] = {out, binary ? g : x, x};
        tu_check(NN_KERNEL(b, unary, (&p, binary ? 3 : 2, ts)));
        nn_tensor *hold;
        const float *host = TU_OK(nn_host_read(out, &hold));
        for (int64_t i = 0; i < n; i++) {
            double got = host[i], want = binary ? unary_ref(codes[c][1], gv[i], xv[i], 0, 0)
                                                : unary_ref(codes[c][1], xv[i], 0, 0, 0);
            if (round_bf16(got) != got) fail_msg("unary %d (bf16): %.9g is not a bfloat16 value", codes[c][0], got);
            /* up to 16 roundings of 2^-9 (the tanh form's gradient, where 1 - t^2 cancels):
               its worst seen is 0.019; a wrong formula is off by tenths */
            assert_close(got, want, 1.0 / 16, "unary (bf16)");
        }
        NN_RELEASE(hold);
        NN_RELEASE(out);
    }
    NN_RELEASE(x);
    NN_RELEASE(g);
    free(xv);
    free(gv);
}

static void case_unary(const nn_backend *b, nn_device d, nn_dtype dt)
{
    /* the codes every compute dtype has, then the floating ones (with the
       vectorized variant PyTorch's float32 loop uses, where there is one) */
    static const int all[] = {NN_UNARY_NEG, NN_UNARY_ABS, NN_UNARY_SIGN, NN_UNARY_RELU, NN_UNARY_THRESHOLD,
                              NN_UNARY_CLAMP_MIN, NN_UNARY_CLAMP_MAX, NN_UNARY_CLAMP};
    static const int floating[][2] = {
        {NN_UNARY_EXP, NN_UNARY_NONE}, {NN_UNARY_LOG, NN_UNARY_NONE}, {NN_UNARY_SQRT, NN_UNARY_NONE},
        {NN_UNARY_TANH, NN_UNARY_NONE}, {NN_UNARY_SIGMOID, NN_UNARY_NONE}, {NN_UNARY_GELU, NN_UNARY_GELU_DNNL},
        {NN_UNARY_GELU_CDF, NN_UNARY_NONE}, {NN_UNARY_GELU_TANH, NN_UNARY_GELU_TANH_VEC},
        {NN_UNARY_LEAKY_RELU, NN_UNARY_NONE}, {NN_UNARY_ELU, NN_UNARY_NONE}, {NN_UNARY_SILU, NN_UNARY_NONE},
        {NN_UNARY_SOFTPLUS, NN_UNARY_NONE}, {NN_UNARY_FLOOR, NN_UNARY_NONE}, {NN_UNARY_CEIL, NN_UNARY_NONE},
        {NN_UNARY_ROUND, NN_UNARY_NONE}, {NN_UNARY_PRELU, NN_UNARY_NONE}, {NN_UNARY_TANH_GRAD, NN_UNARY_NONE},
        {NN_UNARY_GELU_GRAD, NN_UNARY_GELU_GRAD_DNNL}, {NN_UNARY_SILU_GRAD, NN_UNARY_SILU_GRAD_VEC},
        {NN_UNARY_GELU_TANH_GRAD, NN_UNARY_GELU_TANH_GRAD_VEC},
    };
    bool fl = nn_dtype_is_floating(dt);
    int n_all = (int)(sizeof all / sizeof all[0]), n_codes = n_all + (fl ? (int)(sizeof floating / sizeof floating[0]) : 0);
    int64_t n = 70001; /* past the grain: the threaded path, and a scalar tail */
    nn_tensor *x = random_on(d, dt, 1, &n, -4, 4), *pos = random_on(d, dt, 1, &n, 0.1, 4);
    nn_tensor *y = random_on(d, dt, 1, &n, -2, 2);
    for (int c = 0; c < n_codes; c++) {
        int op = c < n_all ? all[c] : floating[c - n_all][0];
        for (int vec = 0; vec < (fl && dt == NN_FLOAT32 ? 2 : 1); vec++) {
            nn_unary_params p = {.k = op, .vec = vec ? floating[c - n_all < 0 ? 0 : c - n_all][1] : NN_UNARY_NONE,
                                 .d = {0.25, 1.5}, .f = {0.25f, 1.5f}, .i = {-1, 2}};
            if (vec && (c < n_all || p.vec == NN_UNARY_NONE)) continue;
            p.vec_all = p.vec == NN_UNARY_GELU_DNNL || p.vec == NN_UNARY_GELU_GRAD_DNNL;
            bool binary = op >= NN_UNARY_PRELU;
            nn_tensor *a = op == NN_UNARY_LOG || op == NN_UNARY_SQRT ? pos : binary ? y : x;
            nn_tensor *out = TU_OK(nn_empty_on(d, 1, &n, dt));
            const nn_tensor *ts[3] = {out, a, x};
            tu_check(NN_KERNEL(b, unary, (&p, binary ? 3 : 2, ts)));
            double lo = fl ? 0.25 : -1, hi = fl ? 1.5 : 2;
            for (int64_t i = 0; i < n; i += 101) {
                double want = unary_ref(op, at(a, i), binary ? at(x, i) : 0, lo, hi);
                assert_close(at(out, i), want, dt == NN_FLOAT32 ? 1e-5 : tol_for(dt), nn_kernel_names[NN_KERNEL_unary]);
            }
            NN_RELEASE(out);
        }
    }
    NN_RELEASE(x);
    NN_RELEASE(pos);
    NN_RELEASE(y);
    if (dt == NN_FLOAT32) case_unary_bf16(b, d);
}

/* softmax/log_softmax along the middle dim of [outer, n, inner], forward and
   backward, against the formulas in double. */
static void case_softmax(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t shapes[3][3] = {{700, 37, 1}, {3, 5, 17}, {2, 1, 1}};
    for (int sh = 0; sh < 3; sh++) {
        int64_t outer = shapes[sh][0], n = shapes[sh][1], inner = shapes[sh][2], total = outer * n * inner;
        bool lastdim = inner == 1;
        nn_tensor *x = random_on(d, dt, 3, shapes[sh], -6, 6), *g = random_on(d, dt, 3, shapes[sh], -1, 1);
        for (int is_log = 0; is_log < 2; is_log++) {
            nn_tensor *y = TU_OK(nn_empty_on(d, 3, shapes[sh], dt)), *gi = TU_OK(nn_empty_on(d, 3, shapes[sh], dt));
            tu_check(NN_KERNEL(b, softmax, (is_log, false, lastdim, outer, n, inner, y, x, NULL)));
            tu_check(NN_KERNEL(b, softmax, (is_log, true, lastdim, outer, n, inner, gi, g, y)));
            for (int64_t e = 0; e < total; e += 7) {
                int64_t o = e / (n * inner), i = e % inner, base = o * n * inner + i;
                double mx = -INFINITY, sum = 0, gs = 0;
                for (int64_t k = 0; k < n; k++) mx = fmax(mx, at(x, base + k * inner));
                for (int64_t k = 0; k < n; k++) sum += exp(at(x, base + k * inner) - mx);
                double sm = exp(at(x, e) - mx) / sum;
                for (int64_t k = 0; k < n; k++) {
                    double yk = exp(at(x, base + k * inner) - mx) / sum, gk = at(g, base + k * inner);
                    gs += is_log ? gk : gk * yk;
                }
                double want = is_log ? log(sm) : sm, grad = is_log ? at(g, e) - sm * gs : (at(g, e) - gs) * sm;
                double tol = dt == NN_FLOAT32 ? 1e-4 : 1e-10;
                assert_close(at(y, e), want, tol, "softmax");
                assert_close(at(gi, e), grad, tol, "softmax backward");
            }
            NN_RELEASE(y);
            NN_RELEASE(gi);
        }
        NN_RELEASE(x);
        NN_RELEASE(g);
    }
}

static void case_gemm(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t m = 7, n = 5, k = 9;
    for (int variant = 0; variant < 8; variant++) {
        bool ta = variant & 1, tb = variant & 2;
        double beta = variant & 4 ? 1 : 0;
        nn_tensor *a = random_on(d, dt, 2, ta ? (int64_t[]){k, m} : (int64_t[]){m, k}, -1, 1);
        nn_tensor *bb = random_on(d, dt, 2, tb ? (int64_t[]){n, k} : (int64_t[]){k, n}, -1, 1);
        nn_tensor *c = random_on(d, dt, 2, (int64_t[]){m, n}, -1, 1), *c0 = TU_OK(nn_clone(c));
        tu_check(NN_KERNEL(b, gemm, (ta, tb, m, n, k, a, ta ? m : k, bb, tb ? k : n, beta, c, n)));
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double want = beta * at(c0, i * n + j);
                for (int64_t p = 0; p < k; p++)
                    want += at(a, ta ? p * m + i : i * k + p) * at(bb, tb ? j * k + p : p * n + j);
                assert_close(at(c, i * n + j), want, dt == NN_FLOAT32 ? 1e-4 : 1e-12, "gemm");
            }
        NN_RELEASE(a);
        NN_RELEASE(bb);
        NN_RELEASE(c);
        NN_RELEASE(c0);
    }
}

/* The geometry both conv cases use: x [2, 4, 7, 6], w [6, 2, 3, 2], groups 2, stride (2, 1), padding 1, dilation (1, 2). */
static void case_gemv(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t m = 5, n = 7, as[1] = {7 * 6}, xs[1] = {2 * 7}, ys[1] = {7};
    nn_tensor *a = random_on(d, dt, 1, as, -2, 2), *x = random_on(d, dt, 1, xs, -2, 2), *y = TU_OK(nn_empty_on(d, 1, ys, dt));
    for (int trans = 0; trans < 2; trans++) {
        /* a column-major 5 x 7 with leading dim 6; x read with stride 2 */
        tu_check(NN_KERNEL(b, gemv, (trans, m, n, a, 6, x, 2, y)));
        for (int64_t i = 0; i < (trans ? n : m); i++) {
            double want = 0;
            for (int64_t j = 0; j < (trans ? m : n); j++)
                want += at(a, trans ? i * 6 + j : j * 6 + i) * at(x, 2 * j);
            assert_close(at(y, i), want, dt == NN_FLOAT32 ? 1e-5 : 1e-12, "gemv");
        }
    }
    NN_RELEASE(a), NN_RELEASE(x), NN_RELEASE(y);
}

/* A grouped, dilated geometry for im2col + GEMM; onednn: one without groups
   and dilation in oneDNN's order (float32; float64 runs the GEMM). */
static nn_conv_geom conv_geom(bool onednn)
{
    nn_conv_geom s = {.n = 2, .c = 4, .h = 7, .w = 6, .o = 6, .kh = 3, .kw = 2, .stride = {2, 1}, .padding = {1, 1},
                      .dilation = {1, onednn ? 1 : 2}, .groups = onednn ? 1 : 2, .onednn = onednn,
                      .onednn_input_grad = onednn, .onednn_weight_grad = onednn};
    s.oh = (s.h + 2 * s.padding[0] - s.dilation[0] * (s.kh - 1) - 1) / s.stride[0] + 1;
    s.ow = (s.w + 2 * s.padding[1] - s.dilation[1] * (s.kw - 1) - 1) / s.stride[1] + 1;
    return s;
}

/* Calls f(n, o, i, j, c, ki, kj, xi, xj) for every term of the convolution's sums that reads x inside. */
#define CONV_TERMS(s, BODY)                                                                                        \
    for (int64_t n = 0; n < (s).n; n++)                                                                            \
        for (int64_t o = 0; o < (s).o; o++)                                                                        \
            for (int64_t i = 0; i < (s).oh; i++)                                                                   \
                for (int64_t j = 0; j < (s).ow; j++)                                                               \
                    for (int64_t cg = 0; cg < (s).c / (s).groups; cg++)                                            \
                        for (int64_t ki = 0; ki < (s).kh; ki++)                                                    \
                            for (int64_t kj = 0; kj < (s).kw; kj++) {                                              \
                                int64_t c = o / ((s).o / (s).groups) * ((s).c / (s).groups) + cg;                 \
                                int64_t xi = i * (s).stride[0] - (s).padding[0] + ki * (s).dilation[0];           \
                                int64_t xj = j * (s).stride[1] - (s).padding[1] + kj * (s).dilation[1];           \
                                if (xi < 0 || xi >= (s).h || xj < 0 || xj >= (s).w) continue;                     \
                                int64_t xo = ((n * (s).c + c) * (s).h + xi) * (s).w + xj;                          \
                                int64_t wo = ((o * ((s).c / (s).groups) + cg) * (s).kh + ki) * (s).kw + kj;      \
                                int64_t yo = ((n * (s).o + o) * (s).oh + i) * (s).ow + j;                          \
                                BODY;                                                                              \
                            }

static nn_conv3d_geom conv3d_geom(void)
{
    nn_conv3d_geom s = {.n = 2, .c = 4, .d = 4, .h = 5, .w = 4, .o = 6, .kd = 2, .kh = 3, .kw = 2,
                        .stride = {1, 2, 1}, .padding = {1, 1, 0}, .dilation = {2, 1, 2}, .groups = 2};
    int64_t in[3] = {s.d, s.h, s.w}, k[3] = {s.kd, s.kh, s.kw}, out[3];
    for (int i = 0; i < 3; i++) out[i] = (in[i] + 2 * s.padding[i] - s.dilation[i] * (k[i] - 1) - 1) / s.stride[i] + 1;
    s.od = out[0], s.oh = out[1], s.ow = out[2];
    return s;
}

/* Calls BODY for every term of a 3-d convolution's sums that reads x inside (offsets xo, wo, yo). */
#define CONV3D_TERMS(s, BODY)                                                                                     \
    for (int64_t n = 0; n < (s).n; n++)                                                                           \
        for (int64_t o = 0; o < (s).o; o++)                                                                       \
            for (int64_t z = 0; z < (s).od; z++)                                                                  \
                for (int64_t i = 0; i < (s).oh; i++)                                                              \
                    for (int64_t j = 0; j < (s).ow; j++)                                                          \
                        for (int64_t cg = 0; cg < (s).c / (s).groups; cg++)                                       \
                            for (int64_t ka = 0; ka < (s).kd; ka++)                                               \
                                for (int64_t ki = 0; ki < (s).kh; ki++)                                           \
                                    for (int64_t kj = 0; kj < (s).kw; kj++) {                                     \
                                        int64_t c = o / ((s).o / (s).groups) * ((s).c / (s).groups) + cg;        \
                                        int64_t xz = z * (s).stride[0] - (s).padding[0] + ka * (s).dilation[0];  \
                                        int64_t xi = i * (s).stride[1] - (s).padding[1] + ki * (s).dilation[1];  \
                                        int64_t xj = j * (s).stride[2] - (s).padding[2] + kj * (s).dilation[2];  \
                                        if (xz < 0 || xz >= (s).d || xi < 0 || xi >= (s).h || xj < 0 ||          \
                                            xj >= (s).w)                                                          \
                                            continue;                                                             \
                                        int64_t xo = (((n * (s).c + c) * (s).d + xz) * (s).h + xi) * (s).w + xj; \
                                        int64_t wo = (((o * ((s).c / (s).groups) + cg) * (s).kd + ka) * (s).kh + \
                                                      ki) * (s).kw + kj;                                          \
                                        int64_t yo = (((n * (s).o + o) * (s).od + z) * (s).oh + i) * (s).ow + j; \
                                        BODY;                                                                     \
                                    }

static void case_conv3d(const nn_backend *b, nn_device d, nn_dtype dt)
{
    nn_conv3d_geom s = conv3d_geom();
    nn_tensor *x = random_on(d, dt, 5, (int64_t[]){s.n, s.c, s.d, s.h, s.w}, -1, 1);
    nn_tensor *w = random_on(d, dt, 5, (int64_t[]){s.o, s.c / s.groups, s.kd, s.kh, s.kw}, -1, 1);
    nn_tensor *bias = random_on(d, dt, 1, (int64_t[]){s.o}, -1, 1);
    nn_tensor *y = TU_OK(nn_empty_on(d, 5, (int64_t[]){s.n, s.o, s.od, s.oh, s.ow}, dt));
    tu_check(NN_KERNEL(b, conv3d, (&s, x, w, bias, y)));
    int64_t ny = nn_numel(y), per = s.od * s.oh * s.ow;
    double *want = calloc((size_t)ny, sizeof *want);
    for (int64_t i = 0; i < ny; i++) want[i] = at(bias, i / per % s.o);
    CONV3D_TERMS(s, want[yo] += at(x, xo) * at(w, wo))
    for (int64_t i = 0; i < ny; i++) assert_close(at(y, i), want[i], dt == NN_FLOAT32 ? 1e-4 : 1e-12, "conv3d");
    free(want);
    NN_RELEASE(x), NN_RELEASE(w), NN_RELEASE(bias), NN_RELEASE(y);
}

static void case_conv3d_backward(const nn_backend *b, nn_device d, nn_dtype dt)
{
    nn_conv3d_geom s = conv3d_geom();
    nn_tensor *x = random_on(d, dt, 5, (int64_t[]){s.n, s.c, s.d, s.h, s.w}, -1, 1);
    nn_tensor *w = random_on(d, dt, 5, (int64_t[]){s.o, s.c / s.groups, s.kd, s.kh, s.kw}, -1, 1);
    nn_tensor *gy = random_on(d, dt, 5, (int64_t[]){s.n, s.o, s.od, s.oh, s.ow}, -1, 1);
    nn_tensor *gx = TU_OK(nn_empty_like(x)), *gw = TU_OK(nn_empty_like(w));
    tu_check(NN_KERNEL(b, conv3d_backward, (&s, x, w, gy, gx, gw)));
    int64_t nx = nn_numel(x), nw = nn_numel(w);
    double *wx = calloc((size_t)nx, sizeof *wx), *ww = calloc((size_t)nw, sizeof *ww);
    CONV3D_TERMS(s, (wx[xo] += at(gy, yo) * at(w, wo), ww[wo] += at(gy, yo) * at(x, xo)))
    double tol = dt == NN_FLOAT32 ? 1e-4 : 1e-12;
    for (int64_t i = 0; i < nx; i++) assert_close(at(gx, i), wx[i], tol, "conv3d_backward gx");
    for (int64_t i = 0; i < nw; i++) assert_close(at(gw, i), ww[i], tol, "conv3d_backward gw");
    /* the input gradient alone (gw NULL), as a transposed convolution's forward asks */
    nn_tensor *gx2 = TU_OK(nn_empty_like(x));
    tu_check(NN_KERNEL(b, conv3d_backward, (&s, x, w, gy, gx2, NULL)));
    for (int64_t i = 0; i < nx; i++) assert_close(at(gx2, i), wx[i], tol, "conv3d_backward gx only");
    free(wx);
    free(ww);
    NN_RELEASE(x), NN_RELEASE(w), NN_RELEASE(gy), NN_RELEASE(gx), NN_RELEASE(gw), NN_RELEASE(gx2);
}

/* x . y of 7 elements, x with stride 2 (BLAS's ?dot) */
static void case_dot(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t n = 14, seven = 7;
    nn_tensor *x = random_on(d, dt, 1, &n, -2, 2), *y = random_on(d, dt, 1, &seven, -2, 2);
    nn_tensor *out = TU_OK(nn_empty_on(d, 0, NULL, dt));
    tu_check(NN_KERNEL(b, dot, (7, x, 2, y, 1, out)));
    double want = 0;
    for (int64_t i = 0; i < 7; i++) want += at(x, 2 * i) * at(y, i);
    assert_close(at(out, 0), want, tol_for(dt) * 10, "dot");
    NN_RELEASE(x), NN_RELEASE(y), NN_RELEASE(out);
}

static void conv2d_with(const nn_backend *b, nn_device d, nn_dtype dt, bool onednn)
{
    nn_conv_geom s = conv_geom(onednn);
    nn_tensor *x = random_on(d, dt, 4, (int64_t[]){s.n, s.c, s.h, s.w}, -1, 1);
    nn_tensor *w = random_on(d, dt, 4, (int64_t[]){s.o, s.c / s.groups, s.kh, s.kw}, -1, 1);
    nn_tensor *bias = random_on(d, dt, 1, (int64_t[]){s.o}, -1, 1);
    nn_tensor *y = TU_OK(nn_empty_on(d, 4, (int64_t[]){s.n, s.o, s.oh, s.ow}, dt));
    tu_check(NN_KERNEL(b, conv2d, (&s, x, w, bias, y)));
    int64_t ny = s.n * s.o * s.oh * s.ow;
    double *want = calloc((size_t)ny, sizeof *want);
    for (int64_t i = 0; i < ny; i++) want[i] = at(bias, i / (s.oh * s.ow) % s.o);
    CONV_TERMS(s, want[yo] += at(x, xo) * at(w, wo))
    for (int64_t i = 0; i < ny; i++) assert_close(at(y, i), want[i], dt == NN_FLOAT32 ? 1e-4 : 1e-12, "conv2d");
    free(want);
    NN_RELEASE(x);
    NN_RELEASE(w);
    NN_RELEASE(bias);
    NN_RELEASE(y);
}

static void case_conv2d(const nn_backend *b, nn_device d, nn_dtype dt)
{
    conv2d_with(b, d, dt, false);
    conv2d_with(b, d, dt, true);
}

static void conv2d_backward_with(const nn_backend *b, nn_device d, nn_dtype dt, bool onednn)
{
    nn_conv_geom s = conv_geom(onednn);
    nn_tensor *x = random_on(d, dt, 4, (int64_t[]){s.n, s.c, s.h, s.w}, -1, 1);
    nn_tensor *w = random_on(d, dt, 4, (int64_t[]){s.o, s.c / s.groups, s.kh, s.kw}, -1, 1);
    nn_tensor *gy = random_on(d, dt, 4, (int64_t[]){s.n, s.o, s.oh, s.ow}, -1, 1);
    nn_tensor *gx = TU_OK(nn_empty_like(x)), *gw = TU_OK(nn_empty_like(w));
    nn_tensor *gb = onednn && dt == NN_FLOAT32 ? TU_OK(nn_empty_on(d, 1, &s.o, dt)) : NULL;
    tu_check(NN_KERNEL(b, conv2d_backward, (&s, x, w, gy, gx, gw, gb)));
    int64_t nx = nn_numel(x), nw = nn_numel(w), ny = nn_numel(gy);
    double *wx = calloc((size_t)nx, sizeof *wx), *ww = calloc((size_t)nw, sizeof *ww);
    CONV_TERMS(s, (wx[xo] += at(gy, yo) * at(w, wo), ww[wo] += at(gy, yo) * at(x, xo)))
    double tol = dt == NN_FLOAT32 ? 1e-4 : 1e-12;
    for (int64_t i = 0; i < nx; i++) assert_close(at(gx, i), wx[i], tol, "conv2d_backward gx");
    for (int64_t i = 0; i < nw; i++) assert_close(at(gw, i), ww[i], tol, "conv2d_backward gw");
    for (int64_t o = 0; gb && o < s.o; o++) {
        double want = 0;
        for (int64_t i = 0; i < ny; i++)
            if (i / (s.oh * s.ow) % s.o == o) want += at(gy, i);
        assert_close(at(gb, o), want, tol, "conv2d_backward gb");
    }
    free(wx);
    free(ww);
    NN_RELEASE(x);
    NN_RELEASE(w);
    NN_RELEASE(gy);
    NN_RELEASE(gx);
    NN_RELEASE(gw);
    NN_RELEASE(gb);
}

static void case_conv2d_backward(const nn_backend *b, nn_device d, nn_dtype dt)
{
    conv2d_backward_with(b, d, dt, false);
    conv2d_backward_with(b, d, dt, true);
}

static void case_arange(const nn_backend *b, nn_device d, nn_dtype dt)
{
    if (dt == NN_BOOL) return; /* arange has no bool results */
    int64_t n = 11;
    nn_tensor *t = TU_OK(nn_empty_on(d, 1, &n, dt));
    double start = nn_dtype_is_floating(dt) ? -1.25 : -4, step = nn_dtype_is_floating(dt) ? 0.5 : 3;
    tu_check(NN_KERNEL(b, arange, (t, start, step)));
    for (int64_t i = 0; i < n; i++) assert_close(at(t, i), start + step * (double)i, tol_for(dt), "arange");
    NN_RELEASE(t);
}

static void case_linspace(const nn_backend *b, nn_device d, nn_dtype dt)
{
    if (dt == NN_BOOL) return;
    for (int64_t n = 0; n < 40; n += 13) { /* 0, 13, 26, 39: empty, scalar tails and lane blocks */
        nn_tensor *t = TU_OK(nn_empty_on(d, 1, &n, dt));
        tu_check(NN_KERNEL(b, linspace, (t, -3, 5)));
        for (int64_t i = 0; i < n; i++) {
            double want = n == 1 ? -3 : -3 + 8.0 * (double)i / (double)(n - 1);
            if (!nn_dtype_is_floating(dt)) want = trunc(want); /* the value computed in double, cast */
            assert_close(at(t, i), want, nn_dtype_is_floating(dt) ? 1e-6 : 0, "linspace");
        }
        NN_RELEASE(t);
    }
}

static void case_logspace(const nn_backend *b, nn_device d, nn_dtype dt)
{
    if (dt == NN_BOOL) return;
    for (int64_t n = 0; n < 12; n += 5) { /* 0, 5, 10 */
        nn_tensor *t = TU_OK(nn_empty_on(d, 1, &n, dt));
        tu_check(NN_KERNEL(b, logspace, (t, -2, 3, 10)));
        for (int64_t i = 0; i < n; i++) {
            double want = pow(10, -2 + 5.0 * (double)i / (double)(n - 1));
            if (!nn_dtype_is_floating(dt)) want = trunc(want); /* the value computed in double, cast */
            assert_close(at(t, i), want, nn_dtype_is_floating(dt) ? 1e-6 * want : 0, "logspace");
        }
        NN_RELEASE(t);
    }
}

/* Every distribution: uniform float64 against the generator's own doubles (a
   copy of it, drawn here); the others by what they must be: normal moments,
   bernoulli's share of ones, integers in range, a permutation. */
static void case_random(const nn_backend *b, nn_device d, nn_dtype dt)
{
    int64_t n = 4000;
    nn_generator g, ref;
    nn_generator_seed(&g, 1234);
    nn_tensor *t = TU_OK(nn_empty_on(d, 1, &n, dt));
    if (nn_dtype_is_floating(dt)) {
        ref = g;
        nn_random_params u = {.dist = NN_RANDOM_UNIFORM, .a = -2, .b = 3};
        tu_check(NN_KERNEL(b, random, (t, &u, &g)));
        for (int64_t i = 0; i < n; i++) {
            double v = at(t, i);
            if (dt == NN_FLOAT64) assert_close(v, -2 + 5 * nn_generator_uniform(&ref), 1e-15, "random uniform");
            if (!(v >= -2 && v <= 3)) fail_msg("random uniform: %g outside [-2, 3)", v);
        }
        nn_random_params nrm = {.dist = NN_RANDOM_NORMAL, .a = 1, .b = 2};
        tu_check(NN_KERNEL(b, random, (t, &nrm, &g)));
        double sum = 0, sq = 0;
        for (int64_t i = 0; i < n; i++) sum += at(t, i), sq += at(t, i) * at(t, i);
        double mean = sum / (double)n, sd = sqrt(sq / (double)n - mean * mean);
        if (fabs(mean - 1) > 0.15 || fabs(sd - 2) > 0.15) fail_msg("random normal: mean %g, std %g", mean, sd);
    }
    nn_random_params bern = {.dist = NN_RANDOM_BERNOULLI, .a = 0.25};
    tu_check(NN_KERNEL(b, random, (t, &bern, &g)));
    double ones = 0;
    for (int64_t i = 0; i < n; i++) ones += at(t, i);
    if (fabs(ones / (double)n - 0.25) > 0.05) fail_msg("random bernoulli: %g ones", ones);
    int64_t lo = dt == NN_BOOL ? 0 : -3, range = dt == NN_BOOL ? 2 : 9;
    nn_random_params ri = {.dist = NN_RANDOM_INT, .base = lo, .range = (uint64_t)range};
    tu_check(NN_KERNEL(b, random, (t, &ri, &g)));
    bool seen[9] = {0};
    for (int64_t i = 0; i < n; i++) {
        double v = at(t, i);
        if (!(v >= (double)lo && v < (double)(lo + range) && v == floor(v))) fail_msg("random int: %g", v);
        seen[(int)(v - (double)lo)] = true;
    }
    for (int64_t k = 0; k < range; k++) assert_true(seen[k]);
    if (dt != NN_BOOL) {
        int64_t m = 50;
        nn_tensor *perm = TU_OK(nn_empty_on(d, 1, &m, dt));
        nn_random_params pp = {.dist = NN_RANDOM_PERMUTATION};
        tu_check(NN_KERNEL(b, random, (perm, &pp, &g)));
        bool hit[50] = {0};
        for (int64_t i = 0; i < m; i++) {
            double v = at(perm, i);
            if (!(v >= 0 && v < 50) || hit[(int)v]) fail_msg("random permutation: %g", v);
            hit[(int)v] = true;
        }
        NN_RELEASE(perm);
    }
    NN_RELEASE(t);
}

/* Every op code over rows of a [outer, inner] tensor (one long row too: sum's
   chunked path), against sums, moments and extremes taken here in double. */
static void case_reduce(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t shapes[3][2] = {{7, 13}, {1, 70001}, {5, 1}};
    bool floating = nn_dtype_is_floating(dt);
    for (int sh = 0; sh < 3; sh++) {
        int64_t outer = shapes[sh][0], inner = shapes[sh][1];
        nn_tensor *x = random_on(d, dt, 2, shapes[sh], -5, 5);
        double *hx = malloc((size_t)(outer * inner) * sizeof *hx); /* x on the host, read once */
        {
            nn_tensor *hold;
            const char *px = TU_OK(nn_host_read(x, &hold));
            for (int64_t i = 0; i < outer * inner; i++) hx[i] = nn_load_double(px + i * (int64_t)nn_dtype_size(dt), dt);
            NN_RELEASE(hold);
        }
        for (int op = NN_REDUCE_SUM; op <= NN_REDUCE_NORM; op++) {
            bool moment = op == NN_REDUCE_VAR || op == NN_REDUCE_STD || op == NN_REDUCE_NORM;
            if (moment && !floating) continue; /* the ops refuse integers before the kernel */
            bool extreme = op == NN_REDUCE_MAX || op == NN_REDUCE_MIN;
            nn_dtype od = op == NN_REDUCE_SUM && !floating ? NN_INT64 : dt;
            nn_tensor *v = TU_OK(nn_empty_on(d, 1, &outer, od));
            /* var's second output: the rows' means (torch.var_mean) */
            bool with_mean = op == NN_REDUCE_VAR;
            nn_tensor *ix = extreme ? TU_OK(nn_empty_on(d, 1, &outer, NN_INT64))
                            : with_mean ? TU_OK(nn_empty_on(d, 1, &outer, dt)) : NULL;
            double p = op == NN_REDUCE_SUM ? 2 : op == NN_REDUCE_NORM ? 3 : 1;
            tu_check(NN_KERNEL(b, reduce, ((nn_reduce_op)op, x, outer, inner, p, v, ix)));
            for (int64_t o = 0; o < outer; o++) {
                double sum = 0, sq = 0, pw = 0, best = hx[o * inner];
                int64_t bi = 0;
                for (int64_t i = 0; i < inner; i++) {
                    double e = hx[o * inner + i];
                    sum += e, pw += pow(fabs(e), 3);
                    if (op == NN_REDUCE_MAX ? e > best : e < best) best = e, bi = i;
                }
                double mean = sum / (double)inner;
                for (int64_t i = 0; i < inner; i++) sq += (hx[o * inner + i] - mean) * (hx[o * inner + i] - mean);
                double var = inner > 1 ? sq / (double)(inner - 1) : NAN;
                double want = op == NN_REDUCE_SUM ? (floating ? 0.5 * sum : sum)
                            : op == NN_REDUCE_VAR ? var
                            : op == NN_REDUCE_STD ? sqrt(var)
                            : op == NN_REDUCE_NORM ? cbrt(pw) : best;
                double tol = dt == NN_FLOAT32 ? 1e-4 : floating ? 1e-9 : 0;
                assert_close(at(v, o), want, tol, "reduce");
                if (extreme) assert_close(at(ix, o), (double)bi, 0, "reduce index");
                if (with_mean) assert_close(at(ix, o), mean, tol, "reduce var's mean");
            }
            NN_RELEASE(v);
            NN_RELEASE(ix);
        }
        free(hx);
        NN_RELEASE(x);
    }
    if (!floating) return; /* the losses' sums are of floating tensors */
    int64_t n = 1003;
    nn_tensor *x = random_on(d, dt, 1, &n, -5, 5);
    double sum = 0;
    for (int64_t i = 0; i < n; i++) sum += at(x, i);
    for (int mean = 0; mean < 2; mean++) {
        nn_tensor *v = TU_OK(nn_empty_on(d, 0, NULL, dt));
        tu_check(NN_KERNEL(b, reduce, (NN_REDUCE_CASCADE_SUM, x, 1, n, mean, v, NULL)));
        assert_close(at(v, 0), mean ? sum / (double)n : sum, dt == NN_FLOAT32 ? 1e-5 : 1e-12, "reduce cascade sum");
        NN_RELEASE(v);
    }
    NN_RELEASE(x);
    /* rows in ATen's order (sums over trailing dims), a mean's divisor */
    const int64_t rs[2] = {6, 133};
    nn_tensor *rx = random_on(d, dt, 2, rs, -5, 5), *rv = TU_OK(nn_empty_on(d, 1, rs, dt));
    tu_check(NN_KERNEL(b, reduce, (NN_REDUCE_ROWS, rx, 6, 133, 133, rv, NULL)));
    for (int64_t r = 0; r < 6; r++) {
        double want = 0;
        for (int64_t i = 0; i < 133; i++) want += at(rx, r * 133 + i);
        assert_close(at(rv, r), want / 133, dt == NN_FLOAT32 ? 1e-5 : 1e-12, "reduce rows");
    }
    NN_RELEASE(rx);
    NN_RELEASE(rv);
    /* column sums (the bias gradient): grouped and leftover columns, and one column */
    const int64_t cols[3][2] = {{37, 45}, {50, 3}, {40, 1}};
    for (int k = 0; k < 3; k++) {
        int64_t r = cols[k][0], m = cols[k][1];
        nn_tensor *g = random_on(d, dt, 2, cols[k], -5, 5), *v = TU_OK(nn_empty_on(d, 1, &m, dt));
        tu_check(NN_KERNEL(b, reduce, (NN_REDUCE_COLUMNS, g, r, m, 0, v, NULL)));
        for (int64_t c = 0; c < m; c++) {
            double want = 0;
            for (int64_t i = 0; i < r; i++) want += at(g, i * m + c);
            assert_close(at(v, c), want, dt == NN_FLOAT32 ? 1e-5 : 1e-12, "reduce columns");
        }
        NN_RELEASE(g);
        NN_RELEASE(v);
    }
    /* float32 sums over the middle dim of a transposed [5, 4, 3] view (strided), and its mean */
    if (dt != NN_FLOAT32) return;
    const int64_t ss[3] = {3, 4, 5}, five3[2] = {5, 3};
    nn_tensor *sx = random_on(d, dt, 3, ss, -5, 5), *st = TU_OK(nn_transpose(sx, 0, 2));
    nn_tensor *sv = TU_OK(nn_empty_on(d, 2, five3, dt));
    for (int mean = 0; mean < 2; mean++) {
        tu_check(NN_KERNEL(b, reduce, (NN_REDUCE_STRIDED, st, 15, 4, (1 << 1) + (mean ? 65536 : 0), sv, NULL)));
        for (int64_t e = 0; e < 15; e++) {
            int64_t i = e / 3, k = e % 3; /* st[i, j, k] = sx[k, j, i] */
            double want = 0;
            for (int64_t j = 0; j < 4; j++) want += at(sx, k * 20 + j * 5 + i);
            assert_close(at(sv, e), mean ? want / 4 : want, 1e-5, "reduce strided");
        }
    }
    /* PyTorch's float32 orders: var/std of all of the strided st (correction 1), and
       2-norms (vectorized and sequential) and 3-norms of the rows of sx as [12, 5] */
    nn_tensor *one = TU_OK(nn_empty_on(d, 0, NULL, dt)), *rows = TU_OK(nn_empty_on(d, 1, (const int64_t[]){12}, dt));
    double m = 0, m2 = 0;
    for (int64_t i = 0; i < 60; i++) m += at(sx, i) / 60;
    for (int64_t i = 0; i < 60; i++) m2 += (at(sx, i) - m) * (at(sx, i) - m);
    for (int sq = 0; sq < 2; sq++) {
        tu_check(NN_KERNEL(b, reduce, (sq ? NN_REDUCE_STD_ALL_F32 : NN_REDUCE_VAR_ALL_F32, st, 1, 60, 1, one, NULL)));
        assert_close(at(one, 0), sq ? sqrt(m2 / 59) : m2 / 59, 1e-5, "reduce var/std all");
    }
    const nn_reduce_op norms[3] = {NN_REDUCE_NORM2_LASTDIM_F32, NN_REDUCE_NORM_SEQ_F32, NN_REDUCE_NORM_SEQ_F32};
    for (int k = 0; k < 3; k++) {
        double p = k == 2 ? 3 : 2;
        tu_check(NN_KERNEL(b, reduce, (norms[k], sx, 12, 5, p, rows, NULL)));
        for (int64_t r = 0; r < 12; r++) {
            double want = 0;
            for (int64_t j = 0; j < 5; j++) want += pow(fabs(at(sx, r * 5 + j)), p);
            assert_close(at(rows, r), pow(want, 1 / p), 1e-5, "reduce norm f32");
        }
    }
    /* the float32 product of the strided st over its middle dim (bit 1) */
    nn_tensor *pv = TU_OK(nn_empty_on(d, 2, five3, dt));
    tu_check(NN_KERNEL(b, reduce, (NN_REDUCE_PROD_STRIDED_F32, st, 15, 4, 1 << 1, pv, NULL)));
    for (int64_t e = 0; e < 15; e++) {
        double want = 1;
        for (int64_t j = 0; j < 4; j++) want *= at(sx, (e % 3) * 20 + j * 5 + e / 3);
        assert_close(at(pv, e), want, 1e-5, "reduce prod strided");
    }
    NN_RELEASE(sx), NN_RELEASE(st), NN_RELEASE(sv), NN_RELEASE(one), NN_RELEASE(rows), NN_RELEASE(pv);
}

/* A tensor of dtype dt on device d with the given values. */
static nn_tensor *values_on(nn_device d, nn_dtype dt, int ndim, const int64_t *sizes, const double *v)
{
    nn_tensor *h = TU_OK(tu_tensor(dt, ndim, sizes, v));
    nn_tensor *t = TU_OK(nn_to_device(h, d));
    NN_RELEASE(h);
    return t;
}

/* Host copies of t's elements (n of them) into v. */
static void read_all(const nn_tensor *t, double *v, int64_t n)
{
    for (int64_t i = 0; i < n; i++) v[i] = at(t, i);
}

static void case_batch_norm(const nn_backend *b, nn_device d, nn_dtype dt);

static void case_loss(const nn_backend *b, nn_device d, nn_dtype dt)
{
    enum { N = 6, C = 4 };
    const int64_t xs[2] = {N, C}, n = N, c = C, ignore = 2;
    const double tv[N] = {0, 2, 3, 1, 2, 3};
    nn_tensor *x = random_on(d, dt, 2, xs, -3, 0), *w = random_on(d, dt, 1, &c, 0.5, 2);
    nn_tensor *tg = values_on(d, NN_INT64, 1, &n, tv);
    double tol = dt == NN_FLOAT32 ? 1e-5 : 1e-12;
    for (int weighted = 0; weighted < 2; weighted++)
        for (int red = NN_REDUCTION_NONE; red <= NN_REDUCTION_SUM; red++) {
            bool none = red == NN_REDUCTION_NONE;
            nn_tensor *out = TU_OK(nn_empty_on(d, none ? 1 : 0, &n, dt));
            nn_kernel_args a = {.t = {out, x, tg, weighted ? w : NULL}, .i = {N, C, ignore, red}};
            tu_check(NN_KERNEL(b, loss, (NN_LOSS_NLL, &a)));
            double sum = 0, tw = 0;
            for (int64_t i = 0; i < N; i++) {
                double wt = weighted ? at(w, (int64_t)tv[i]) : 1, v = 0;
                if (tv[i] != ignore) v = -at(x, i * C + (int64_t)tv[i]) * wt, tw += wt;
                if (none) assert_close(at(out, i), v, tol, "loss nll none");
                sum += v;
            }
            assert_close(a.host[0], tw, tol, "loss nll total weight");
            if (!none) assert_close(at(out, 0), red == NN_REDUCTION_MEAN ? sum / tw : sum, tol, "loss nll");
            NN_RELEASE(out);
        }
    nn_tensor *mask = TU_OK(nn_empty_on(d, 2, xs, NN_BOOL));
    tu_check(NN_KERNEL(b, fill, (mask, 0)));
    nn_kernel_args m = {.t = {mask, NULL, tg}, .i = {N, C, ignore}};
    tu_check(NN_KERNEL(b, loss, (NN_LOSS_NLL_MASK, &m)));
    for (int64_t i = 0; i < N * C; i++)
        assert_close(at(mask, i), tv[i / C] != ignore && i % C == (int64_t)tv[i / C], 0, "loss nll mask");
    /* a target out of range is PyTorch's IndexError, nothing written */
    const double bad[N] = {0, 1, 4, 1, 0, 0};
    nn_tensor *tb = values_on(d, NN_INT64, 1, &n, bad), *out = TU_OK(nn_empty_on(d, 0, NULL, dt));
    nn_kernel_args e = {.t = {out, x, tb, NULL}, .i = {N, C, -100, NN_REDUCTION_MEAN}};
    assert_int_equal(NN_KERNEL(b, loss, (NN_LOSS_NLL, &e)), -1);
    assert_int_equal(nn_error_current(), NN_ERR_INDEX);
    assert_string_equal(nn_error_message(), "Target 4 is out of bounds.");
    nn_error_clear();
    NN_RELEASE(x), NN_RELEASE(w), NN_RELEASE(tg), NN_RELEASE(mask), NN_RELEASE(tb), NN_RELEASE(out);
    /* the elementwise losses */
    const int64_t n2 = 30;
    nn_tensor *p = random_on(d, dt, 1, &n2, 0.01, 0.99), *q = random_on(d, dt, 1, &n2, 0, 1);
    nn_tensor *r = TU_OK(nn_empty_on(d, 1, &n2, dt));
    for (int op = NN_LOSS_BCE; op <= NN_LOSS_MSE; op++) {
        nn_kernel_args a = {.t = {r, p, q}, .d = {0.3}};
        tu_check(NN_KERNEL(b, loss, ((nn_loss_op)op, &a)));
        for (int64_t i = 0; i < n2; i++) {
            double pv = at(p, i), qv = at(q, i), z = fabs(pv - qv);
            double want = op == NN_LOSS_BCE         ? -(qv * log(pv) + (1 - qv) * log(1 - pv))
                        : op == NN_LOSS_SMOOTH_L1 ? (z < 0.3 ? 0.5 * z * z / 0.3 : z - 0.15)
                        : op == NN_LOSS_HUBER     ? (z < 0.3 ? 0.5 * z * z : 0.3 * (z - 0.15))
                                                  : z * z;
            assert_close(at(r, i), want, dt == NN_FLOAT32 ? 1e-5 : 1e-12, "loss elementwise");
        }
    }
    nn_kernel_args outside = {.t = {r, q, p}};
    tu_check(NN_KERNEL(b, fill, (q, 1.5)));
    assert_int_equal(NN_KERNEL(b, loss, (NN_LOSS_BCE, &outside)), -1);
    assert_string_equal(nn_error_message(), "all elements of input should be between 0 and 1");
    nn_error_clear();
    NN_RELEASE(p), NN_RELEASE(q), NN_RELEASE(r);
}

static void case_norm(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t shapes[3][2] = {{3, 7}, {4, 301}, {2, 1}};
    double tol = dt == NN_FLOAT32 ? 2e-4 : 1e-9, eps = 1e-5;
    for (int sh = 0; sh < 3; sh++) {
        int64_t M = shapes[sh][0], N = shapes[sh][1];
        nn_tensor *x = random_on(d, dt, 2, shapes[sh], 1, 4), *w = random_on(d, dt, 1, &N, 0.5, 2);
        nn_tensor *bias = random_on(d, dt, 1, &N, -1, 1), *g = random_on(d, dt, 2, shapes[sh], -1, 1);
        nn_tensor *y = TU_OK(nn_empty_on(d, 2, shapes[sh], dt)), *mean = TU_OK(nn_empty_on(d, 1, &M, dt));
        nn_tensor *rstd = TU_OK(nn_empty_on(d, 1, &M, dt)), *dx = TU_OK(nn_empty_on(d, 2, shapes[sh], dt));
        nn_tensor *dw = TU_OK(nn_empty_on(d, 1, &N, dt)), *db = TU_OK(nn_empty_on(d, 1, &N, dt));
        nn_kernel_args f = {.t = {y, mean, rstd, x, w, bias}, .i = {M, N}, .d = {eps}};
        tu_check(NN_KERNEL(b, norm, (NN_NORM_LAYER, &f)));
        nn_kernel_args bw = {.t = {dx, mean, rstd, x, w, g, dw, db}, .i = {M, N}};
        tu_check(NN_KERNEL(b, norm, (NN_NORM_LAYER_BACKWARD, &bw)));
        double *wantdw = calloc((size_t)N, sizeof(double)), *wantdb = calloc((size_t)N, sizeof(double));
        for (int64_t i = 0; i < M; i++) {
            double mu = 0, var = 0, m1 = 0, m2 = 0;
            for (int64_t j = 0; j < N; j++) mu += at(x, i * N + j) / (double)N;
            for (int64_t j = 0; j < N; j++) var += (at(x, i * N + j) - mu) * (at(x, i * N + j) - mu) / (double)N;
            double r = 1 / sqrt(var + eps);
            assert_close(at(mean, i), mu, tol, "norm mean");
            assert_close(at(rstd, i), r, tol, "norm rstd");
            for (int64_t j = 0; j < N; j++) {
                double xh = (at(x, i * N + j) - mu) * r, gw = at(g, i * N + j) * at(w, j);
                assert_close(at(y, i * N + j), xh * at(w, j) + at(bias, j), tol, "norm layer");
                m1 += gw / (double)N, m2 += gw * xh / (double)N;
                wantdw[j] += at(g, i * N + j) * xh, wantdb[j] += at(g, i * N + j);
            }
            for (int64_t j = 0; j < N; j++) {
                double xh = (at(x, i * N + j) - mu) * r, gw = at(g, i * N + j) * at(w, j);
                assert_close(at(dx, i * N + j), r * (gw - m1 - xh * m2), tol, "norm layer backward dx");
            }
        }
        for (int64_t j = 0; j < N; j++) {
            assert_close(at(dw, j), wantdw[j], tol, "norm layer backward dw");
            assert_close(at(db, j), wantdb[j], tol, "norm layer backward db");
        }
        free(wantdw), free(wantdb);
        NN_RELEASE(x), NN_RELEASE(w), NN_RELEASE(bias), NN_RELEASE(g), NN_RELEASE(y), NN_RELEASE(mean);
        NN_RELEASE(rstd), NN_RELEASE(dx), NN_RELEASE(dw), NN_RELEASE(db);
    }
    case_batch_norm(b, d, dt);
    /* group_norm: x [2, 4, 3] in 2 groups of 2 channels */
    const int64_t gs[3] = {2, 4, 3}, C = 4;
    nn_tensor *x = random_on(d, dt, 3, gs, -2, 3), *w = random_on(d, dt, 1, &C, 0.5, 2), *bias = random_on(d, dt, 1, &C, -1, 1);
    nn_tensor *y = TU_OK(nn_empty_on(d, 3, gs, dt));
    nn_kernel_args g = {.t = {y, NULL, NULL, x, w, bias}, .i = {2, 4, 2, 3}, .d = {eps}};
    tu_check(NN_KERNEL(b, norm, (NN_NORM_GROUP, &g)));
    for (int64_t row = 0; row < 4; row++) { /* (sample, group) rows of 6 elements */
        double mu = 0, var = 0;
        for (int64_t j = 0; j < 6; j++) mu += at(x, row * 6 + j) / 6;
        for (int64_t j = 0; j < 6; j++) var += (at(x, row * 6 + j) - mu) * (at(x, row * 6 + j) - mu) / 6;
        for (int64_t j = 0; j < 6; j++) {
            int64_t c = (row % 2) * 2 + j / 3;
            assert_close(at(y, row * 6 + j), (at(x, row * 6 + j) - mu) / sqrt(var + eps) * at(w, c) + at(bias, c), tol,
                         "norm group");
        }
    }
    NN_RELEASE(x), NN_RELEASE(w), NN_RELEASE(bias), NN_RELEASE(y);
}

/* batch_norm forward and backward, training and eval, over [nb, C, L] (L 1: the channels-last kernels) */
static void case_batch_norm(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t shapes[2][3] = {{4, 3, 5}, {6, 3, 1}}, C = 3;
    double tol = dt == NN_FLOAT32 ? 2e-4 : 1e-9, eps = 1e-5, mom = 0.1;
    for (int sh = 0; sh < 2; sh++)
        for (int training = 0; training < 2; training++) {
            int64_t nb = shapes[sh][0], L = shapes[sh][2], n = nb * L;
            nn_tensor *x = random_on(d, dt, 3, shapes[sh], -2, 3), *dy = random_on(d, dt, 3, shapes[sh], -1, 1);
            nn_tensor *w = random_on(d, dt, 1, &C, 0.5, 2), *bias = random_on(d, dt, 1, &C, -1, 1);
            nn_tensor *rm = random_on(d, dt, 1, &C, -1, 1), *rv = random_on(d, dt, 1, &C, 0.5, 2);
            double hrm[3], hrv[3];
            read_all(rm, hrm, 3), read_all(rv, hrv, 3);
            nn_tensor *y = TU_OK(nn_empty_on(d, 3, shapes[sh], dt)), *dx = TU_OK(nn_empty_on(d, 3, shapes[sh], dt));
            nn_tensor *sm = training ? TU_OK(nn_empty_on(d, 1, &C, dt)) : NULL;
            nn_tensor *si = training ? TU_OK(nn_empty_on(d, 1, &C, dt)) : NULL;
            nn_tensor *dw = TU_OK(nn_empty_on(d, 1, &C, dt)), *db = TU_OK(nn_empty_on(d, 1, &C, dt));
            nn_kernel_args f = {.t = {y, sm, si, x, w, bias, rm, rv}, .i = {nb, C, L, training}, .d = {mom, eps}};
            tu_check(NN_KERNEL(b, norm, (NN_NORM_BATCH, &f)));
            nn_kernel_args bw = {.t = {dx, training ? sm : rm, training ? si : rv, x, w, dy, dw, db},
                                 .i = {nb, C, L, training}, .d = {0, eps}};
            tu_check(NN_KERNEL(b, norm, (NN_NORM_BATCH_BACKWARD, &bw)));
            for (int64_t c = 0; c < C; c++) {
                double mu = 0, var = 0, gm = 0, gxm = 0, sdy = 0, sdx = 0;
#define X(i, l) at(x, ((i) * C + c) * L + (l))
#define DY(i, l) at(dy, ((i) * C + c) * L + (l))
                for (int64_t i = 0; i < nb; i++)
                    for (int64_t l = 0; l < L; l++) mu += X(i, l) / (double)n;
                for (int64_t i = 0; i < nb; i++)
                    for (int64_t l = 0; l < L; l++) var += (X(i, l) - mu) * (X(i, l) - mu) / (double)n;
                double m = training ? mu : hrm[c], is = 1 / sqrt((training ? var : hrv[c]) + eps);
                for (int64_t i = 0; i < nb; i++)
                    for (int64_t l = 0; l < L; l++) {
                        double xh = (X(i, l) - m) * is;
                        gm += DY(i, l) / (double)n, gxm += DY(i, l) * xh / (double)n;
                        sdy += DY(i, l), sdx += DY(i, l) * xh;
                    }
                if (training) {
                    assert_close(at(sm, c), mu, tol, "norm batch mean");
                    assert_close(at(si, c), is, tol, "norm batch invstd");
                    assert_close(at(rm, c), (1 - mom) * hrm[c] + mom * mu, tol, "norm batch running mean");
                    assert_close(at(rv, c), (1 - mom) * hrv[c] + mom * var * (double)n / (double)(n - 1), tol,
                                 "norm batch running var");
                }
                for (int64_t i = 0; i < nb; i++)
                    for (int64_t l = 0; l < L; l++) {
                        double xh = (X(i, l) - m) * is, e = ((i * C + c) * L + l);
                        assert_close(at(y, (int64_t)e), xh * at(w, c) + at(bias, c), tol, "norm batch");
                        double want = training ? (DY(i, l) - gm - xh * gxm) * is * at(w, c) : DY(i, l) * is * at(w, c);
                        assert_close(at(dx, (int64_t)e), want, tol, "norm batch backward dx");
                    }
                assert_close(at(dw, c), sdx, tol, "norm batch backward dweight");
                assert_close(at(db, c), sdy, tol, "norm batch backward dbias");
#undef X
#undef DY
            }
            NN_RELEASE(x), NN_RELEASE(dy), NN_RELEASE(w), NN_RELEASE(bias), NN_RELEASE(rm), NN_RELEASE(rv);
            NN_RELEASE(y), NN_RELEASE(dx), NN_RELEASE(sm), NN_RELEASE(si), NN_RELEASE(dw), NN_RELEASE(db);
        }
}

static void case_index_select(const nn_backend *b, nn_device d, nn_dtype dt);
static void case_index_select_more(const nn_backend *b, nn_device d, nn_dtype dt);
static void case_index_histo(const nn_backend *b, nn_device d, nn_dtype dt);

static void case_index(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t ws[2] = {6, 3}, k = 5, os[2] = {5, 3};
    const double iv[5] = {4, 0, 4, 5, 2};
    nn_tensor *w = random_on(d, dt, 2, ws, -5, 5), *idx = values_on(d, NN_INT64, 1, &k, iv);
    nn_tensor *out = TU_OK(nn_empty_on(d, 2, os, dt));
    nn_kernel_args a = {.t = {out, w, idx}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_EMBEDDING, &a)));
    for (int64_t i = 0; i < 15; i++) assert_close(at(out, i), at(w, (int64_t)iv[i / 3] * 3 + i % 3), 0, "index embedding");
    const double bad[5] = {0, 6, 1, 1, 1};
    nn_tensor *ib = values_on(d, NN_INT64, 1, &k, bad);
    nn_kernel_args e = {.t = {out, w, ib}};
    assert_int_equal(NN_KERNEL(b, index, (NN_INDEX_EMBEDDING, &e)), -1);
    assert_int_equal(nn_error_current(), NN_ERR_INDEX);
    nn_error_clear();
    if (nn_dtype_is_floating(dt)) { /* the backward adds gradient rows, skipping padding_idx 5 */
        nn_tensor *g = random_on(d, dt, 2, os, -1, 1), *gw = TU_OK(nn_empty_on(d, 2, ws, dt));
        tu_check(NN_KERNEL(b, fill, (gw, 0)));
        nn_kernel_args bw = {.t = {gw, g, idx}, .i = {5}};
        tu_check(NN_KERNEL(b, index, (NN_INDEX_EMBEDDING_BACKWARD, &bw)));
        for (int64_t r = 0; r < 6; r++)
            for (int64_t j = 0; j < 3; j++) {
                double want = 0;
                for (int64_t i = 0; i < k; i++)
                    if (iv[i] == r && r != 5) want += at(g, i * 3 + j);
                assert_close(at(gw, r * 3 + j), want, tol_for(dt), "index embedding backward");
            }
        NN_RELEASE(g), NN_RELEASE(gw);
    }
    NN_RELEASE(w), NN_RELEASE(idx), NN_RELEASE(out), NN_RELEASE(ib);
    /* rows of [2, 4, 3] at positions {3, 0, 3}: gathered, scattered, added */
    const int64_t big[3] = {2, 4, 3}, small[3] = {2, 3, 3}, three = 3;
    const double pv[3] = {3, 0, 3};
    nn_tensor *src = random_on(d, dt, 3, big, -5, 5), *pos = values_on(d, NN_INT64, 1, &three, pv);
    nn_tensor *rows = TU_OK(nn_empty_on(d, 3, small, dt));
    nn_kernel_args ga = {.t = {rows, src, pos}, .i = {2, 4, 3}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_GATHER_ROWS, &ga)));
    for (int64_t e = 0; e < 18; e++)
        assert_close(at(rows, e), at(src, (e / 9) * 12 + (int64_t)pv[e / 3 % 3] * 3 + e % 3), 0, "index gather rows");
    for (int add = 0; add < 2; add++) {
        nn_tensor *dst = TU_OK(nn_empty_on(d, 3, big, dt));
        tu_check(NN_KERNEL(b, fill, (dst, 1)));
        nn_kernel_args sa = {.t = {dst, rows, pos}, .i = {2, 4, 3}};
        tu_check(NN_KERNEL(b, index, (add ? NN_INDEX_ADD_ROWS : NN_INDEX_SCATTER_ROWS, &sa)));
        for (int64_t e = 0; e < 24; e++) {
            int64_t pp = e / 12, r = e / 3 % 4, q = e % 3;
            double want = 1;
            for (int64_t j = 0; j < 3; j++)
                if (pv[j] == r) want = add ? want + at(rows, (pp * 3 + j) * 3 + q) : at(rows, (pp * 3 + j) * 3 + q);
            if (dt == NN_BOOL) want = want != 0;
            assert_close(at(dst, e), want, tol_for(dt), "index scatter/add rows");
        }
        NN_RELEASE(dst);
    }
    NN_RELEASE(src), NN_RELEASE(pos), NN_RELEASE(rows);
    /* tril/triu of [2, 3, 4] about diagonals -1 and 1; flip of dims 0 and 2 */
    const int64_t ts[3] = {2, 3, 4};
    nn_tensor *m = random_on(d, dt, 3, ts, 1, 5), *tr = TU_OK(nn_empty_on(d, 3, ts, dt));
    for (int lower = 0; lower < 2; lower++) {
        int64_t diag = lower ? -1 : 1;
        nn_kernel_args ta = {.t = {tr, m}, .i = {3, 4, diag, lower}};
        tu_check(NN_KERNEL(b, index, (NN_INDEX_TRIANGLE, &ta)));
        for (int64_t e = 0; e < 24; e++) {
            int64_t i = e / 4 % 3, j = e % 4;
            bool keep = lower ? j - i <= diag : j - i >= diag;
            assert_close(at(tr, e), keep ? at(m, e) : 0, 0, "index triangle");
        }
    }
    nn_kernel_args fa = {.t = {tr, m}, .i = {(1 << 0) | (1 << 2)}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_FLIP, &fa)));
    for (int64_t e = 0; e < 24; e++) {
        int64_t p0 = e / 12, i = e / 4 % 3, j = e % 4;
        assert_close(at(tr, e), at(m, (1 - p0) * 12 + i * 4 + (3 - j)), 0, "index flip");
    }
    NN_RELEASE(m), NN_RELEASE(tr);
    case_index_select(b, d, dt);
    case_index_select_more(b, d, dt);
    case_index_histo(b, d, dt);
}

/* The index kernel's codes for select.c's ops: sort, roll, gather/scatter, index_select, masks, int range. */
static void case_index_select(const nn_backend *b, nn_device d, nn_dtype dt)
{
    /* rows of [2, 5, 3] sorted along the middle, both ways, the first 3 kept; reference: a stable insertion sort */
    const int64_t ss[3] = {2, 5, 3}, ts[3] = {2, 3, 3};
    nn_tensor *src = random_on(d, dt, 3, ss, -5, 5);
    for (int desc = 0; desc < 2; desc++) {
        nn_tensor *v = TU_OK(nn_empty_on(d, 3, ts, dt)), *ix = TU_OK(nn_empty_on(d, 3, ts, NN_INT64));
        nn_kernel_args a = {.t = {v, ix, src}, .i = {2, 5, 3, 3, desc}};
        tu_check(NN_KERNEL(b, index, (NN_INDEX_SORT, &a)));
        for (int64_t o = 0; o < 2; o++)
            for (int64_t in = 0; in < 3; in++) {
                int64_t order[5];
                for (int64_t j = 0; j < 5; j++) {
                    int64_t k = j;
                    double x = at(src, (o * 5 + j) * 3 + in);
                    for (; k > 0; k--) {
                        double y = at(src, (o * 5 + order[k - 1]) * 3 + in);
                        if (desc ? !(x > y) : !(x < y)) break;
                        order[k] = order[k - 1];
                    }
                    order[k] = j;
                }
                for (int64_t j = 0; j < 3; j++) {
                    assert_close(at(ix, (o * 3 + j) * 3 + in), (double)order[j], 0, "index sort indices");
                    assert_close(at(v, (o * 3 + j) * 3 + in), at(src, (o * 5 + order[j]) * 3 + in), 0, "index sort values");
                }
            }
        NN_RELEASE(v), NN_RELEASE(ix);
    }
    NN_RELEASE(src);
    /* roll of [2, 3, 4] by (1, 2, 3) */
    const int64_t rs[3] = {2, 3, 4};
    nn_tensor *m = random_on(d, dt, 3, rs, -5, 5), *r = TU_OK(nn_empty_on(d, 3, rs, dt));
    nn_kernel_args ra = {.t = {r, m}, .i = {1, 2, 3}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_ROLL, &ra)));
    for (int64_t e = 0; e < 24; e++) {
        int64_t i0 = e / 12, i1 = e / 4 % 3, i2 = e % 4;
        assert_close(at(r, ((i0 + 1) % 2 * 3 + (i1 + 2) % 3) * 4 + (i2 + 3) % 4), at(m, e), 0, "index roll");
    }
    NN_RELEASE(m), NN_RELEASE(r);
    /* gather, scatter (tensor and number), scatter_add along dim 0 of [3, 4] by a [2, 4] index */
    const int64_t selfs[2] = {3, 4}, is[2] = {2, 4};
    const double iv[8] = {2, 0, 1, 2, 2, 1, 1, 0};
    nn_tensor *self = random_on(d, dt, 2, selfs, -5, 5), *idx = values_on(d, NN_INT64, 2, is, iv);
    nn_tensor *g = TU_OK(nn_empty_on(d, 2, is, dt));
    nn_kernel_args ga = {.t = {self, idx, g}, .i = {0}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_GATHER, &ga)));
    for (int64_t e = 0; e < 8; e++) assert_close(at(g, e), at(self, (int64_t)iv[e] * 4 + e % 4), 0, "index gather");
    for (int op = 0; op < 3; op++) {
        nn_tensor *dst = TU_OK(nn_empty_on(d, 2, selfs, dt));
        tu_check(NN_KERNEL(b, fill, (dst, 1)));
        nn_kernel_args sa = {.t = {dst, idx, op == 1 ? NULL : g}, .i = {0}, .d = {1}};
        tu_check(NN_KERNEL(b, index, (op == 2 ? NN_INDEX_SCATTER_ADD : NN_INDEX_SCATTER, &sa)));
        for (int64_t e = 0; e < 12; e++) {
            double want = 1;
            for (int64_t p = 0; p < 8; p++)
                if ((int64_t)iv[p] * 4 + p % 4 == e) want = op == 2 ? want + at(g, p) : op == 1 ? 1 : at(g, p);
            if (dt == NN_BOOL) want = want != 0;
            assert_close(at(dst, e), want, tol_for(dt), "index scatter");
        }
        NN_RELEASE(dst);
    }
    const double bad[8] = {0, 0, 3, 0, 0, 0, 0, 0};
    nn_tensor *ib = values_on(d, NN_INT64, 2, is, bad);
    nn_kernel_args ea = {.t = {self, ib, g}, .i = {0}};
    assert_int_equal(NN_KERNEL(b, index, (NN_INDEX_GATHER, &ea)), -1);
    assert_int_equal(nn_error_current(), NN_ERR_RUNTIME);
    nn_error_clear();
    NN_RELEASE(self), NN_RELEASE(idx), NN_RELEASE(g), NN_RELEASE(ib);
    /* index_select of [2, 4, 3] at {3, -1, 0}; 4 is out of range */
    const int64_t xs[3] = {2, 4, 3}, os[3] = {2, 3, 3}, three = 3;
    const double pv[3] = {3, -1, 0}, pbad[3] = {0, 4, 1};
    nn_tensor *x = random_on(d, dt, 3, xs, -5, 5), *pos = values_on(d, NN_INT64, 1, &three, pv);
    nn_tensor *sel = TU_OK(nn_empty_on(d, 3, os, dt)), *pb = values_on(d, NN_INT64, 1, &three, pbad);
    nn_kernel_args xa = {.t = {sel, x, pos}, .i = {2, 4, 3}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_SELECT, &xa)));
    for (int64_t e = 0; e < 18; e++) {
        int64_t p = (int64_t)pv[e / 3 % 3];
        assert_close(at(sel, e), at(x, (e / 9 * 4 + (p < 0 ? p + 4 : p)) * 3 + e % 3), 0, "index select");
    }
    xa.t[2] = pb;
    assert_int_equal(NN_KERNEL(b, index, (NN_INDEX_SELECT, &xa)), -1);
    assert_int_equal(nn_error_current(), NN_ERR_INDEX);
    nn_error_clear();
    nn_kernel_args wa = {.t = {pos}, .i = {4}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_WRAP_NEGATIVE, &wa)));
    assert_close(at(pos, 0), 3, 0, "index wrap"), assert_close(at(pos, 1), 3, 0, "index wrap");
    assert_close(at(pos, 2), 0, 0, "index wrap");
    NN_RELEASE(x), NN_RELEASE(pos), NN_RELEASE(sel), NN_RELEASE(pb);
    /* a mask's count, masked_select and positions; an int64 tensor's range */
    const int64_t six = 6, k3 = 3;
    const double mv[6] = {1, 0, 1, 1, 0, 0}, rv[6] = {4, -2, 7, 0, 7, -2};
    nn_tensor *mask = values_on(d, NN_BOOL, 1, &six, mv), *v6 = random_on(d, dt, 1, &six, -5, 5);
    nn_tensor *ms = TU_OK(nn_empty_on(d, 1, &k3, dt)), *mp = TU_OK(nn_empty_on(d, 1, &k3, NN_INT64));
    nn_kernel_args ca = {.t = {NULL, mask}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_COUNT_SET, &ca)));
    assert_true(ca.host[0] == 3);
    nn_kernel_args ma = {.t = {ms, v6, mask}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_MASKED_SELECT, &ma)));
    nn_kernel_args pa = {.t = {mp, mask}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_MASK_POSITIONS, &pa)));
    const int64_t set[3] = {0, 2, 3};
    for (int64_t j = 0; j < 3; j++) {
        assert_close(at(ms, j), at(v6, set[j]), 0, "index masked_select");
        assert_close(at(mp, j), (double)set[j], 0, "index mask positions");
    }
    nn_tensor *iv6 = values_on(d, NN_INT64, 1, &six, rv);
    nn_kernel_args na = {.t = {NULL, iv6}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_INT_RANGE, &na)));
    assert_true(na.i[0] == -2 && na.i[1] == 7);
    /* put: v6 at offsets {5, 0, 5} = ms in order (the last write wins) */
    const double ov[3] = {5, 0, 5};
    nn_tensor *offs = values_on(d, NN_INT64, 1, &k3, ov), *before = TU_OK(nn_empty_on(d, 1, &six, dt));
    tu_check(NN_KERNEL(b, copy, (before, v6)));
    nn_kernel_args ua = {.t = {v6, offs, ms}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_PUT, &ua)));
    for (int64_t e = 0; e < 6; e++)
        assert_close(at(v6, e), e == 0 ? at(ms, 1) : e == 5 ? at(ms, 2) : at(before, e), 0, "index put");
    NN_RELEASE(offs), NN_RELEASE(before);
    NN_RELEASE(mask), NN_RELEASE(v6), NN_RELEASE(ms), NN_RELEASE(mp), NN_RELEASE(iv6);
}

/* The index kernel's codes for select_more.c's ops: prod, amax/amin, median/mode, index_add, scatter's reduce form. */
static void case_index_select_more(const nn_backend *b, nn_device d, nn_dtype dt)
{
    /* [2, 3, 4] reduced along the middle: prod; median and mode of small integers (ties) */
    const int64_t xs[3] = {2, 3, 4}, os[2] = {2, 4};
    nn_tensor *x = random_on(d, dt, 3, xs, -3, 3), *out = TU_OK(nn_empty_on(d, 2, os, dt));
    nn_tensor *ix = TU_OK(nn_empty_on(d, 2, os, NN_INT64));
    nn_kernel_args pa = {.t = {out, x}, .i = {2, 3, 4}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_PROD, &pa)));
    for (int64_t e = 0; e < 8; e++) {
        double want = 1;
        for (int64_t j = 0; j < 3; j++) want *= at(x, (e / 4 * 3 + j) * 4 + e % 4);
        if (dt == NN_BOOL) want = want != 0;
        assert_close(at(out, e), want, tol_for(dt), "index prod");
    }
    for (int mode = 0; mode < 2; mode++) {
        nn_kernel_args ma = {.t = {out, ix, x}, .i = {2, 3, 4}};
        tu_check(NN_KERNEL(b, index, (mode ? NN_INDEX_MODE : NN_INDEX_MEDIAN, &ma)));
        for (int64_t e = 0; e < 8; e++) {
            double v[3];
            for (int64_t j = 0; j < 3; j++) v[j] = at(x, (e / 4 * 3 + j) * 4 + e % 4);
            int64_t got = (int64_t)at(ix, e);
            assert_true(got >= 0 && got < 3);
            assert_close(at(out, e), v[got], 0, "index median/mode value");
            int below = 0, equal = 0;
            for (int64_t j = 0; j < 3; j++) below += v[j] < v[got], equal += v[j] == v[got];
            if (!mode) assert_true(below <= 1 && below + equal >= 2); /* the middle of three */
            else
                for (int64_t j = 0; j < 3; j++) { /* no value is more frequent */
                    int c = 0;
                    for (int64_t q = 0; q < 3; q++) c += v[q] == v[j];
                    assert_true(c <= equal);
                }
        }
    }
    /* amax/amin of the rows of x seen as [6, 4] */
    const int64_t six = 6;
    nn_tensor *ex = TU_OK(nn_empty_on(d, 1, &six, dt));
    for (int is_max = 0; is_max < 2; is_max++) {
        nn_kernel_args ea = {.t = {ex, x}, .i = {6, 4, is_max}};
        tu_check(NN_KERNEL(b, index, (NN_INDEX_EXTREME, &ea)));
        for (int64_t r = 0; r < 6; r++) {
            double want = at(x, r * 4);
            for (int64_t j = 1; j < 4; j++) want = is_max ? fmax(want, at(x, r * 4 + j)) : fmin(want, at(x, r * 4 + j));
            assert_close(at(ex, r), want, 0, "index extreme");
        }
    }
    NN_RELEASE(out), NN_RELEASE(ix), NN_RELEASE(ex);
    /* index_add of [2, 2, 4] rows into x at {2, -3} along the middle, alpha 1 (bool: or) */
    const int64_t ss[3] = {2, 2, 4}, two = 2;
    const double pv[2] = {2, -3}, pbad[2] = {0, 3};
    nn_tensor *src = random_on(d, dt, 3, ss, -3, 3), *pos = values_on(d, NN_INT64, 1, &two, pv);
    nn_tensor *y = TU_OK(nn_empty_on(d, 3, xs, dt)), *pb = values_on(d, NN_INT64, 1, &two, pbad);
    tu_check(NN_KERNEL(b, copy, (y, x)));
    nn_kernel_args ia = {.t = {y, src, pos}, .i = {2, 3, 4}, .d = {1}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_ADD, &ia)));
    for (int64_t e = 0; e < 24; e++) {
        int64_t o = e / 12, r = e / 4 % 3, q = e % 4;
        double want = at(x, e);
        for (int64_t j = 0; j < 2; j++)
            if ((pv[j] < 0 ? pv[j] + 3 : pv[j]) == r) want += at(src, (o * 2 + j) * 4 + q);
        if (dt == NN_BOOL) want = want != 0;
        assert_close(at(y, e), want, tol_for(dt), "index add");
    }
    ia.t[2] = pb;
    assert_int_equal(NN_KERNEL(b, index, (NN_INDEX_ADD, &ia)), -1);
    assert_int_equal(nn_error_current(), NN_ERR_INDEX);
    nn_error_clear();
    /* scatter(reduce=add / multiply) along dim 0 of [2, 3, 4] by a [1, 2, 2] index, from src or the number 2 */
    const int64_t is[3] = {1, 2, 2};
    const double iv[4] = {1, 0, -1, 1};
    nn_tensor *idx = values_on(d, NN_INT64, 3, is, iv);
    for (int k = 0; k < 4; k++) {
        bool multiply = k & 1, number = k & 2;
        tu_check(NN_KERNEL(b, copy, (y, x)));
        nn_kernel_args ca = {.t = {y, idx, number ? NULL : src}, .i = {0, multiply}, .d = {2}};
        tu_check(NN_KERNEL(b, index, (NN_INDEX_SCATTER_COMBINE, &ca)));
        for (int64_t e = 0; e < 24; e++) {
            int64_t o = e / 12, r = e / 4 % 3, q = e % 4;
            double want = at(x, e);
            for (int64_t p = 0; p < 4; p++) {
                int64_t t = (int64_t)iv[p] < 0 ? (int64_t)iv[p] + 2 : (int64_t)iv[p], pr = p / 2, pq = p % 2;
                if (t == o && pr == r && pq == q) {
                    double v = number ? 2 : at(src, pr * 4 + pq);
                    want = multiply ? want * v : want + v;
                }
            }
            if (dt == NN_BOOL) want = want != 0;
            assert_close(at(y, e), want, tol_for(dt), "index scatter combine");
        }
    }
    NN_RELEASE(x), NN_RELEASE(src), NN_RELEASE(pos), NN_RELEASE(y), NN_RELEASE(pb), NN_RELEASE(idx);
    /* cummax/cummin of [2, 3, 4] along the middle */
    nn_tensor *cx = random_on(d, dt, 3, xs, -3, 3), *cv = TU_OK(nn_empty_on(d, 3, xs, dt));
    nn_tensor *ci = TU_OK(nn_empty_on(d, 3, xs, NN_INT64));
    for (int is_max = 0; is_max < 2; is_max++) {
        nn_kernel_args ca = {.t = {cv, ci, cx}, .i = {2, 3, 4, is_max}};
        tu_check(NN_KERNEL(b, index, (NN_INDEX_CUMEXTREME, &ca)));
        for (int64_t e = 0; e < 24; e++) {
            int64_t base = e / 12 * 12 + e % 4, best = 0;
            for (int64_t j = 1; j <= e / 4 % 3; j++) {
                double v = at(cx, base + j * 4), w = at(cx, base + best * 4);
                if (is_max ? v >= w : v <= w) best = j;
            }
            assert_close(at(ci, e), (double)best, 0, "index cumextreme index");
            assert_close(at(cv, e), at(cx, base + best * 4), 0, "index cumextreme value");
        }
    }
    NN_RELEASE(cx), NN_RELEASE(cv), NN_RELEASE(ci);
    /* take's wrap with its range check: {-1, 5} in [-4, 4) stops at 5 */
    const double wv[2] = {-1, 5};
    nn_tensor *wt = values_on(d, NN_INT64, 1, &two, wv);
    nn_kernel_args wa = {.t = {wt}, .i = {4, 1}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_WRAP_NEGATIVE, &wa)));
    assert_true(wa.i[2] == 1 && wa.i[3] == 5);
    assert_close(at(wt, 0), -1, 0, "index wrap unchanged");
    NN_RELEASE(wt);
    /* 1.13's scatter_reduce of src {s0, s1, s2} into a [4] at {1, 1, 3}, every reduction, with and without self */
    if (dt == NN_BOOL) return;
    /* searchsorted of {0.5, 2, 9} in the rows {1, 2, 3} and {4, 2, 8} (the second through the sorter {1, 0, 2}) */
    const int64_t rows2[2] = {2, 3};
    const double bv[6] = {1, 2, 3, 4, 2, 8}, vv[6] = {0.5, 2, 9, 0.5, 2, 9}, sv[6] = {0, 1, 2, 1, 0, 2};
    nn_tensor *bt = values_on(d, NN_FLOAT64, 2, rows2, bv), *vt = values_on(d, NN_FLOAT64, 2, rows2, vv);
    nn_tensor *st = values_on(d, NN_INT64, 2, rows2, sv);
    for (int right = 0; right < 2; right++) {
        nn_tensor *so = TU_OK(nn_empty_on(d, 2, rows2, right ? NN_INT32 : NN_INT64));
        nn_kernel_args sa = {.t = {so, bt, vt, st}, .i = {3, 3, right, 0}};
        tu_check(NN_KERNEL(b, index, (NN_INDEX_SEARCHSORTED, &sa)));
        const double want[2][6] = {{0, 1, 3, 0, 0, 3}, {0, 2, 3, 0, 1, 3}};
        for (int64_t e = 0; e < 6; e++) assert_close(at(so, e), want[right][e], 0, "index searchsorted");
        NN_RELEASE(so);
    }
    NN_RELEASE(bt), NN_RELEASE(vt), NN_RELEASE(st);
    const int64_t four = 4, three = 3;
    const double rv[3] = {1, 1, 3};
    nn_tensor *self = random_on(d, dt, 1, &four, -3, 3), *rs = random_on(d, dt, 1, &three, -3, 3);
    nn_tensor *ri = values_on(d, NN_INT64, 1, &three, rv), *r = TU_OK(nn_empty_on(d, 1, &four, dt));
    for (int code = 0; code < 5; code++)
        for (int with_self = 0; with_self < 2; with_self++) {
            tu_check(NN_KERNEL(b, copy, (r, self)));
            nn_kernel_args sa = {.t = {r, ri, rs}, .i = {0, code, with_self}};
            tu_check(NN_KERNEL(b, index, (NN_INDEX_SCATTER_REDUCE, &sa)));
            for (int64_t e = 0; e < 4; e++) {
                double acc = at(self, e);
                int n = 0;
                for (int64_t j = 0; j < 3; j++) {
                    if (rv[j] != e) continue;
                    double v = at(rs, j);
                    if (n++ == 0 && !with_self) acc = v;
                    else acc = code == 1 ? acc * v : code == 3 ? fmax(acc, v) : code == 4 ? fmin(acc, v) : acc + v;
                }
                if (code == 2) {
                    int c = n + with_self ? n + with_self : 1;
                    acc = nn_dtype_is_floating(dt) ? acc / c : floor(acc / c);
                }
                assert_close(at(r, e), acc, tol_for(dt), "index scatter_reduce");
            }
        }
    NN_RELEASE(self), NN_RELEASE(rs), NN_RELEASE(ri), NN_RELEASE(r);
}

/* matmul_loop: [2, 3, 4] @ a transposed [2, 2, 4] (a strided view), and one matrix
   against the batch through a batch stride of 0. */
/* histo.c's codes (unique, bincount, data range, histc, histogram, nonzero) and
   cumprod's exact gradient (index_more.c), against references here */
static void case_index_histo(const nn_backend *b, nn_device d, nn_dtype dt)
{
    bool fl = nn_dtype_is_floating(dt);
    /* unique of 6 slices of 2 small values, sorted and consecutive */
    const int64_t us[2] = {6, 2}, six = 6;
    nn_tensor *x = random_on(d, dt, 2, us, -1, 2), *vals = TU_OK(nn_empty_on(d, 2, us, dt));
    nn_tensor *inv = TU_OK(nn_empty_on(d, 1, &six, NN_INT64)), *cnt = TU_OK(nn_empty_on(d, 1, &six, NN_INT64));
    for (int consecutive = 0; consecutive < 2; consecutive++) {
        nn_kernel_args ua = {.t = {vals, inv, cnt, x}, .i = {consecutive, 6, 2}};
        tu_check(NN_KERNEL(b, index, (NN_INDEX_UNIQUE, &ua)));
        int64_t m = (int64_t)ua.host[0], total = 0;
        assert_true(m >= 1 && m <= 6);
        for (int64_t g = 0; g < m; g++) total += (int64_t)at(cnt, g);
        assert_int_equal(total, 6);
        for (int64_t i = 0; i < 6; i++) { /* each slice equals its group's slice */
            int64_t g = (int64_t)at(inv, i);
            assert_true(g >= 0 && g < m);
            for (int64_t j = 0; j < 2; j++) assert_close(at(vals, g * 2 + j), at(x, i * 2 + j), 0, "index unique");
        }
        for (int64_t g = 1; g < m && !consecutive; g++) { /* sorted, distinct */
            double p0 = at(vals, (g - 1) * 2), p1 = at(vals, (g - 1) * 2 + 1), q0 = at(vals, g * 2), q1 = at(vals, g * 2 + 1);
            assert_true(p0 < q0 || (p0 == q0 && p1 < q1));
        }
    }
    /* data range and nonzero of x */
    nn_kernel_args ra = {.t = {NULL, x}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_DATA_RANGE, &ra)));
    double lo = at(x, 0), hi = lo;
    int64_t nz = 0;
    for (int64_t i = 0; i < 12; i++) lo = fmin(lo, at(x, i)), hi = fmax(hi, at(x, i)), nz += at(x, i) != 0;
    assert_close(ra.host[0], lo, 0, "index data range");
    assert_close(ra.host[1], hi, 0, "index data range");
    nn_tensor *coords = TU_OK(nn_empty_on(d, 2, (const int64_t[]){nz, 2}, NN_INT64));
    nn_kernel_args na = {.t = {coords, x}};
    tu_check(NN_KERNEL(b, index, (NN_INDEX_NONZERO, &na)));
    for (int64_t i = 0, k = 0; i < 12; i++)
        if (at(x, i) != 0) {
            assert_close(at(coords, k * 2), (double)(i / 2), 0, "index nonzero");
            assert_close(at(coords, k * 2 + 1), (double)(i % 2), 0, "index nonzero");
            k++;
        }
    NN_RELEASE(vals), NN_RELEASE(inv), NN_RELEASE(cnt), NN_RELEASE(coords);
    /* bincount of 6 int64 values into 4 bins, counted (int64) or weighted (floating dt) */
    const int64_t four = 4;
    const double bv[6] = {3, 0, 3, 1, 3, 0};
    nn_tensor *bx = values_on(d, NN_INT64, 1, &six, bv), *w = fl ? random_on(d, dt, 1, &six, -1, 1) : NULL;
    nn_tensor *bins = TU_OK(nn_zeros_on(d, 1, &four, w ? dt : NN_INT64));
    nn_kernel_args ba = {.t = {bins, bx, w}};
    if (!w || dt == NN_FLOAT32 || dt == NN_FLOAT64) {
        tu_check(NN_KERNEL(b, index, (NN_INDEX_BINCOUNT, &ba)));
        for (int64_t k = 0; k < 4; k++) {
            double want = 0;
            for (int64_t i = 0; i < 6; i++)
                if (bv[i] == k) want += w ? at(w, i) : 1;
            assert_close(at(bins, k), want, tol_for(dt), "index bincount");
        }
    }
    NN_RELEASE(bx), NN_RELEASE(w), NN_RELEASE(bins);
    if (dt == NN_FLOAT32 || dt == NN_FLOAT64) {
        /* histc of x's 12 values in 3 bins over [-1, 2]; histogram over the edges -1, 0, 0.5, 2, weighted */
        const int64_t three = 3, fe = 4;
        nn_tensor *h = TU_OK(nn_empty_on(d, 1, &three, dt));
        nn_kernel_args ha = {.t = {h, x}, .i = {3}, .d = {-1, 2}};
        tu_check(NN_KERNEL(b, index, (NN_INDEX_HISTC, &ha)));
        const double ev[4] = {-1, 0, 0.5, 2};
        nn_tensor *edges = values_on(d, dt, 1, &fe, ev), *hw = random_on(d, dt, 2, us, 0, 1);
        nn_tensor *hg = TU_OK(nn_empty_on(d, 1, &three, dt));
        for (int density = 0; density < 2; density++) {
            nn_kernel_args ga = {.t = {hg, x, edges, hw}, .i = {3, density}};
            tu_check(NN_KERNEL(b, index, (NN_INDEX_HISTOGRAM, &ga)));
            double want[3] = {0}, total = 0, c[3] = {0};
            for (int64_t i = 0; i < 12; i++) {
                double v = at(x, i);
                int64_t k = v < 0 ? 0 : v < 0.5 ? 1 : 2, kc = (int64_t)((v + 1) * 3 / 3);
                if (kc > 2) kc = 2;
                want[k] += at(hw, i), total += at(hw, i);
                if (!density) c[kc] += 1;
            }
            for (int64_t k = 0; k < 3; k++) {
                double wk = density ? want[k] / total / (ev[k + 1] - ev[k]) : want[k];
                assert_close(at(hg, k), wk, tol_for(dt) * 10, "index histogram");
                if (!density) assert_close(at(h, k), c[k], 0, "index histc");
            }
        }
        NN_RELEASE(h), NN_RELEASE(edges), NN_RELEASE(hw), NN_RELEASE(hg);
    }
    NN_RELEASE(x);
    /* cumprod's gradient along the middle of [2, 3, 2], with a zero: sum_j>=i g_j prod_{k<=j, k!=i} x_k */
    if (dt != NN_BOOL) {
        const int64_t cs[3] = {2, 3, 2};
        nn_tensor *cx = random_on(d, dt, 3, cs, -3, 3), *g = random_on(d, dt, 3, cs, -2, 2);
        nn_tensor *zero = TU_OK(nn_select(cx, 1, 1)), *gr = TU_OK(nn_empty_on(d, 3, cs, dt));
        tu_check(NN_KERNEL(b, fill, (zero, 0)));
        nn_kernel_args ca = {.t = {gr, cx, g}, .i = {2, 3, 2}};
        tu_check(NN_KERNEL(b, index, (NN_INDEX_CUMPROD_GRAD, &ca)));
        for (int64_t o = 0; o < 2; o++)
            for (int64_t in = 0; in < 2; in++)
                for (int64_t i = 0; i < 3; i++) {
                    double want = 0;
                    for (int64_t j = i; j < 3; j++) {
                        double p = at(g, (o * 3 + j) * 2 + in);
                        for (int64_t k = 0; k <= j; k++)
                            if (k != i) p *= at(cx, (o * 3 + k) * 2 + in);
                        want += p;
                    }
                    if (!nn_dtype_is_floating(dt)) want = (double)(int64_t)want;
                    assert_close(at(gr, (o * 3 + i) * 2 + in), want, tol_for(dt) * 10, "index cumprod grad");
                }
        NN_RELEASE(cx), NN_RELEASE(g), NN_RELEASE(zero), NN_RELEASE(gr);
    }
}

static void case_matmul_loop(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t as[3] = {2, 3, 4}, bs[3] = {2, 2, 4}, os[3] = {2, 3, 2};
    nn_tensor *x = random_on(d, dt, 3, as, -3, 3), *y = random_on(d, dt, 3, bs, -3, 3);
    nn_tensor *out = TU_OK(nn_empty_on(d, 3, os, dt)), *yt = TU_OK(nn_transpose(y, 1, 2));
    tu_check(NN_KERNEL(b, matmul_loop, (out, x, yt)));
    for (int64_t e = 0; e < 12; e++) {
        int64_t q = e / 6, i = e / 2 % 3, j = e % 2;
        double want = 0;
        for (int64_t p = 0; p < 4; p++) want += at(x, q * 12 + i * 4 + p) * at(y, q * 8 + j * 4 + p);
        assert_close(at(out, e), want, tol_for(dt), "matmul_loop");
    }
    nn_tensor *x0 = TU_OK(nn_tensor_new_view(x, 3, as, (int64_t[]){0, 4, 1}, x->offset));
    tu_check(NN_KERNEL(b, matmul_loop, (out, x0, yt)));
    for (int64_t e = 0; e < 12; e++) {
        int64_t q = e / 6, i = e / 2 % 3, j = e % 2;
        double want = 0;
        for (int64_t p = 0; p < 4; p++) want += at(x, i * 4 + p) * at(y, q * 8 + j * 4 + p);
        assert_close(at(out, e), want, tol_for(dt), "matmul_loop batch stride 0");
    }
    NN_RELEASE(x), NN_RELEASE(y), NN_RELEASE(out), NN_RELEASE(yt), NN_RELEASE(x0);
}

/* The sample kernel against twin generators: exponential and bernoulli draws in
   element order, poisson's rates (0 and small ones: products of uniforms),
   multinomial with replacement (one uniform per sample) and without (valid
   distinct categories), and the errors. */
/* Reads up to max numbers from *p into v, stopping after a ':' or at the line's end. */
static int read_numbers(char **p, double *v, int max)
{
    int n = 0;
    for (;;) {
        while (**p == ' ') (*p)++;
        if (**p == ':') {
            (*p)++;
            return n;
        }
        if (!**p) return n;
        char *end;
        double x = strtod(*p, &end);
        if (end == *p || n == max) fail_msg("backend_sample.txt: bad number at '%.20s'", *p);
        v[n++] = x, *p = end;
    }
}

/* The sample kernel's GAMMA (both forms) and BINOMIAL codes against PyTorch 1.13's
   draws (tests/fixtures/backend_sample.txt, made by gen_backend_sample.py), each
   on a generator seeded as torch.manual_seed: the same values to the bit. */
static void case_sample_pytorch(const nn_backend *b, nn_device d, nn_dtype dt)
{
    char *text = tu_read_file("fixtures/backend_sample.txt"), *save = NULL;
    assert_non_null(text);
    const char *want_dt = dt == NN_FLOAT32 ? "float32" : "float64";
    int checked = 0;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || !line[0]) continue;
        char op[16], dname[16];
        unsigned long long seed;
        int used = 0;
        if (sscanf(line, "%15s %llu %15s%n", op, &seed, dname, &used) != 3) fail_msg("backend_sample.txt: '%s'", line);
        if (strcmp(dname, want_dt) != 0) continue;
        double v[3][16];
        int cnt[3] = {0, 0, 0}, parts = strcmp(op, "binomial") == 0 ? 3 : 2;
        char *p = line + used;
        for (int k = 0; k < parts; k++) cnt[k] = read_numbers(&p, v[k], 16);
        int64_t n = cnt[0];
        assert_true(n > 0 && cnt[parts - 1] == n && (parts == 2 || cnt[1] == n));
        nn_generator g;
        nn_generator_seed(&g, seed);
        bool wide = strcmp(op, "gamma64") == 0;
        nn_tensor *in0 = values_on(d, dt, 1, &n, v[0]), *in1 = parts == 3 ? values_on(d, dt, 1, &n, v[1]) : NULL;
        nn_tensor *out = TU_OK(nn_empty_on(d, 1, &n, wide ? NN_FLOAT64 : dt));
        nn_kernel_args a = {.t = {out, in0, in1}, .i = {wide}, .gen = &g};
        tu_check(NN_KERNEL(b, sample, (parts == 3 ? NN_SAMPLE_BINOMIAL : NN_SAMPLE_GAMMA, &a)));
        for (int64_t i = 0; i < n; i++) assert_close(at(out, i), v[parts - 1][i], 0, op);
        NN_RELEASE(in0), NN_RELEASE(in1), NN_RELEASE(out);
        checked++;
    }
    free(text);
    assert_int_equal(checked, 6); /* gamma, gamma64 and binomial for two seeds */
}

static void case_sample(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t six = 6;
    nn_generator g, ref;
    nn_generator_seed(&g, 99);
    ref = g;
    nn_tensor *t = TU_OK(nn_empty_on(d, 1, &six, dt));
    nn_kernel_args ea = {.t = {t}, .d = {2}, .gen = &g};
    tu_check(NN_KERNEL(b, sample, (NN_SAMPLE_EXPONENTIAL, &ea)));
    for (int64_t i = 0; i < 6; i++) {
        char want[8];
        nn_store_double(want, dt, -0.5 * log(1.0 - nn_generator_uniform(&ref)));
        assert_close(at(t, i), nn_load_double(want, dt), 0, "sample exponential");
    }
    const double pv[6] = {0, 1, 0.5, 0.25, 0.75, 0.5};
    nn_tensor *p = values_on(d, dt, 1, &six, pv), *o = TU_OK(nn_empty_on(d, 1, &six, dt));
    nn_kernel_args ba = {.t = {o, p}, .gen = &g};
    tu_check(NN_KERNEL(b, sample, (NN_SAMPLE_BERNOULLI, &ba)));
    for (int64_t i = 0; i < 6; i++) {
        bool one = dt == NN_FLOAT64 ? nn_generator_uniform(&ref) < pv[i] : nn_generator_uniform_float(&ref) < (float)pv[i];
        assert_close(at(o, i), one, 0, "sample bernoulli");
    }
    const double rates[6] = {0, 1, 2.5, 0, 3, 0.5};
    nn_tensor *r = values_on(d, dt, 1, &six, rates);
    nn_kernel_args pa = {.t = {o, r}, .gen = &g};
    tu_check(NN_KERNEL(b, sample, (NN_SAMPLE_POISSON, &pa)));
    for (int64_t i = 0; i < 6; i++) {
        int64_t x = 0;
        if (rates[i] > 0)
            for (double prod = nn_generator_uniform(&ref); prod > exp(-rates[i]); prod *= nn_generator_uniform(&ref)) x++;
        assert_close(at(o, i), (double)x, 0, "sample poisson");
    }
    /* multinomial over [2, 3]: rows {1, 0, 3} and {0, 2, 2} */
    const int64_t ps[2] = {2, 3}, os[2] = {2, 2};
    const double mv[6] = {1, 0, 3, 0, 2, 2};
    nn_tensor *m = values_on(d, dt, 2, ps, mv), *idx = TU_OK(nn_empty_on(d, 2, os, NN_INT64));
    nn_kernel_args wa = {.t = {idx, m}, .i = {2, 3, 2, 1}, .gen = &g};
    tu_check(NN_KERNEL(b, sample, (NN_SAMPLE_MULTINOMIAL, &wa)));
    for (int64_t e = 0; e < 4; e++) {
        const double *row = mv + e / 2 * 3;
        double total = row[0] + row[1] + row[2], u = nn_generator_uniform(&ref), cum = 0;
        int64_t want = 0;
        while (want < 2 && (cum += row[want]) / total < u) want++;
        assert_close(at(idx, e), (double)want, 0, "sample multinomial with replacement");
    }
    nn_kernel_args na = {.t = {idx, m}, .i = {2, 3, 2, 0}, .gen = &g};
    tu_check(NN_KERNEL(b, sample, (NN_SAMPLE_MULTINOMIAL, &na)));
    for (int64_t row = 0; row < 2; row++) {
        int64_t x = (int64_t)at(idx, row * 2), y = (int64_t)at(idx, row * 2 + 1);
        assert_true(x != y && mv[row * 3 + x] > 0 && mv[row * 3 + y] > 0); /* the two categories with weight */
    }
    const double bad[6] = {1, -1, 0, 0, 0, 0};
    nn_tensor *mb = values_on(d, dt, 2, ps, bad);
    for (int repl = 0; repl < 2; repl++) {
        nn_kernel_args xa = {.t = {idx, mb}, .i = {2, 3, 2, repl}, .gen = &g};
        assert_int_equal(NN_KERNEL(b, sample, (NN_SAMPLE_MULTINOMIAL, &xa)), -1);
        assert_int_equal(nn_error_current(), NN_ERR_RUNTIME);
        nn_error_clear();
    }
    nn_tensor *rb = values_on(d, dt, 1, &six, bad);
    nn_kernel_args ra = {.t = {o, rb}, .gen = &g};
    assert_int_equal(NN_KERNEL(b, sample, (NN_SAMPLE_POISSON, &ra)), -1);
    nn_error_clear();
    NN_RELEASE(t), NN_RELEASE(p), NN_RELEASE(o), NN_RELEASE(r), NN_RELEASE(m), NN_RELEASE(idx), NN_RELEASE(mb), NN_RELEASE(rb);
    case_sample_pytorch(b, d, dt);
}

/* The double reference of a math code (erfinv: checked through erf). */
static double math_ref(int op, double x, double y, double w)
{
    switch (op) {
    case NN_MATH_sin: return sin(x);
    case NN_MATH_cos: return cos(x);
    case NN_MATH_tan: return tan(x);
    case NN_MATH_asin: return asin(x);
    case NN_MATH_acos: return acos(x);
    case NN_MATH_atan: return atan(x);
    case NN_MATH_sinh: return sinh(x);
    case NN_MATH_cosh: return cosh(x);
    case NN_MATH_asinh: return asinh(x);
    case NN_MATH_acosh: return acosh(x + 1);
    case NN_MATH_atanh: return atanh(x);
    case NN_MATH_log2: return log2(x);
    case NN_MATH_log10: return log10(x);
    case NN_MATH_log1p: return log1p(x);
    case NN_MATH_expm1: return expm1(x);
    case NN_MATH_exp2: return exp2(x);
    case NN_MATH_erf: return erf(x);
    case NN_MATH_erfc: return erfc(x);
    case NN_MATH_erfinv: return x;
    case NN_MATH_rsqrt: return 1 / sqrt(x);
    case NN_MATH_reciprocal: return 1 / x;
    case NN_MATH_trunc: return trunc(x * 7);
    case NN_MATH_frac: return x * 7 - trunc(x * 7);
    case NN_MATH_atan2: return atan2(x, y);
    case NN_MATH_hypot: return hypot(x, y);
    case NN_MATH_logaddexp: return fmax(x, y) + log1p(exp(-fabs(x - y)));
    case NN_MATH_xlogy: return x * log(y);
    default: return x + w * (y - x); /* lerp */
    }
}

/* The activation codes of the math kernel against double references (rrelu's
   random slopes against the same generator's draws). */
static void case_math_activations(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t n = 41;
    double tol = dt == NN_FLOAT32 ? 2e-6 : 1e-14, p0 = 0.5, p1 = 1.5;
    nn_tensor *x = random_on(d, dt, 1, &n, -4, 4), *out = TU_OK(nn_empty_on(d, 1, &n, dt));
    const double al = 1.6732632423543772848170429916717, sc = 1.0507009873554804934193349852946;
    for (int op = NN_MATH_hardtanh; op <= NN_MATH_selu; op++) {
        nn_kernel_args a = {.t = {out, x}, .d = {op == NN_MATH_hardtanh ? -p0 : p0, p1}};
        tu_check(NN_KERNEL(b, math, ((nn_math_op)op, &a)));
        for (int64_t i = 0; i < n; i++) {
            double v = at(x, i), c = fmin(fmax(v + 3, 0), 6), want;
            switch (op) {
            case NN_MATH_hardtanh: want = fmin(fmax(v, -p0), p1); break;
            case NN_MATH_hardswish: want = v * c / 6; break;
            case NN_MATH_hardsigmoid: want = c / 6; break;
            case NN_MATH_mish: want = v * tanh(log1p(exp(v))); break;
            case NN_MATH_logsigmoid: want = -log1p(exp(-v)); break;
            case NN_MATH_hardshrink: want = fabs(v) <= p0 ? 0 : v; break;
            case NN_MATH_softshrink: want = v > p0 ? v - p0 : v < -p0 ? v + p0 : 0; break;
            case NN_MATH_celu: want = v > 0 ? v : p0 * (exp(v / p0) - 1); break;
            default: want = v <= 0 ? (exp(v) - 1) * al * sc : v * sc; break;
            }
            assert_close(at(out, i), want, tol, "math activation");
        }
    }
    nn_tensor *noise = TU_OK(nn_empty_on(d, 1, &n, dt));
    for (int training = 0; training < 2; training++) {
        nn_generator g, ref;
        nn_generator_seed(&g, 77);
        ref = g;
        nn_kernel_args a = {.t = {out, x, training ? noise : NULL}, .d = {0.1, 0.3}, .i = {training}, .gen = &g};
        tu_check(NN_KERNEL(b, math, (NN_MATH_rrelu, &a)));
        for (int64_t i = 0; i < n; i++) {
            double v = at(x, i), slope = 1;
            if (v <= 0) slope = training ? nn_generator_uniform(&ref) * (0.3 - 0.1) + 0.1 : 0.2;
            if (dt == NN_FLOAT32 && v <= 0) slope = (float)slope;
            assert_close(at(out, i), v * slope, tol, "math rrelu");
            if (training) assert_close(at(noise, i), slope, tol, "math rrelu noise");
        }
    }
    /* where (b broadcast), sign, the inf-norm's mask (a broadcast norm) */
    const int64_t one = 1;
    nn_tensor *cond = random_on(d, NN_BOOL, 1, &n, 0, 1), *bv = random_on(d, dt, 1, &one, -1, 1), bb;
    nn_broadcast_into(bv, 1, &n, &bb);
    nn_kernel_args w = {.t = {out, cond, x, &bb}};
    tu_check(NN_KERNEL(b, math, (NN_MATH_where, &w)));
    for (int64_t i = 0; i < n; i++) assert_close(at(out, i), at(cond, i) ? at(x, i) : at(bv, 0), 0, "math where");
    nn_kernel_args sg = {.t = {out, x}};
    tu_check(NN_KERNEL(b, math, (NN_MATH_sign, &sg)));
    for (int64_t i = 0; i < n; i++) assert_close(at(out, i), (at(x, i) > 0) - (at(x, i) < 0), 0, "math sign");
    const double nrm = fabs(at(x, 3));
    nn_tensor *mask = TU_OK(nn_empty_on(d, 1, &n, NN_BOOL)), *nt = values_on(d, dt, 1, &one, &nrm), nb;
    nn_broadcast_into(nt, 1, &n, &nb);
    nn_kernel_args ae = {.t = {mask, x, &nb}};
    tu_check(NN_KERNEL(b, math, (NN_MATH_abs_eq, &ae)));
    for (int64_t i = 0; i < n; i++) assert_close(at(mask, i), fabs(at(x, i)) == nrm, 0, "math abs_eq");
    NN_RELEASE(mask), NN_RELEASE(nt), NN_RELEASE(cond), NN_RELEASE(bv);
    /* cumsum/cumprod along the middle dim of [2, 4, 3] */
    const int64_t cs[3] = {2, 4, 3};
    nn_tensor *cx = random_on(d, dt, 3, cs, 0.5, 1.5), *cy = TU_OK(nn_empty_on(d, 3, cs, dt));
    for (int prod = 0; prod < 2; prod++) {
        nn_kernel_args sc = {.t = {cy, cx}, .i = {2, 4, 3}};
        tu_check(NN_KERNEL(b, math, (prod ? NN_MATH_cumprod : NN_MATH_cumsum, &sc)));
        for (int64_t o = 0; o < 2; o++)
            for (int64_t in = 0; in < 3; in++) {
                double acc = prod;
                for (int64_t j = 0; j < 4; j++) {
                    int64_t e = (o * 4 + j) * 3 + in;
                    acc = prod ? acc * at(cx, e) : acc + at(cx, e);
                    assert_close(at(cy, e), acc, tol, "math cumsum/cumprod");
                }
            }
    }
    /* logcumsumexp along the same middle dim, in double */
    nn_kernel_args lc = {.t = {cy, cx}, .i = {2, 4, 3}};
    tu_check(NN_KERNEL(b, math, (NN_MATH_logcumsumexp, &lc)));
    for (int64_t o = 0; o < 2; o++)
        for (int64_t in = 0; in < 3; in++) {
            double acc = 0;
            for (int64_t j = 0; j < 4; j++) {
                int64_t e = (o * 4 + j) * 3 + in;
                acc += exp(at(cx, e));
                assert_close(at(cy, e), log(acc), tol, "math logcumsumexp");
            }
        }
    /* gcd, lcm of int64 operands in int64's arithmetic */
    const int64_t gn = 6, ga[6] = {4, -6, 0, 0, 12, 7}, gb[6] = {6, 9, 0, -5, -18, 7};
    const double gcd_want[6] = {2, 3, 0, 5, 6, 7}, lcm_want[6] = {12, 18, 0, 0, 36, 7};
    nn_tensor *gx = TU_OK(nn_empty_on(d, 1, &gn, NN_INT64)), *gy = TU_OK(nn_empty_on(d, 1, &gn, NN_INT64));
    nn_tensor *gz = TU_OK(nn_empty_on(d, 1, &gn, NN_INT64));
    tu_check(nn_host_write(gx, ga)), tu_check(nn_host_write(gy, gb));
    for (int l = 0; l < 2; l++) {
        nn_kernel_args gk = {.t = {gz, gx, gy}, .i = {64, 1}};
        tu_check(NN_KERNEL(b, math, (l ? NN_MATH_lcm : NN_MATH_gcd, &gk)));
        for (int64_t i = 0; i < gn; i++) assert_close(at(gz, i), l ? lcm_want[i] : gcd_want[i], 0, "math gcd/lcm");
    }
    NN_RELEASE(gx), NN_RELEASE(gy), NN_RELEASE(gz);
    NN_RELEASE(cx), NN_RELEASE(cy);
    NN_RELEASE(x), NN_RELEASE(out), NN_RELEASE(noise);
}

/* the vmath codes (Sleef's float32 kernels; host[0] 0 on a CPU without AVX2+FMA) */
static void case_math_vmath(const nn_backend *b, nn_device d, nn_dtype dt)
{
    if (dt != NN_FLOAT32) return;
    const int64_t n = 45;
    nn_tensor *x = random_on(d, dt, 1, &n, -2, 2), *g = random_on(d, dt, 1, &n, -1, 1), *y = TU_OK(nn_empty_on(d, 1, &n, dt));
    for (int c = 0; c < 6; c++) {
        nn_kernel_args a = {.t = {y, c == 5 ? NULL : x, NULL}};
        nn_math_op op = NN_MATH_vmath_map;
        if (c == 0) a.i[0] = NN_VFN_EXP;
        else if (c == 1) op = NN_MATH_vmath_act, a.i[0] = NN_VACT_SIGMOID, a.i[2] = 1;
        else if (c == 2) op = NN_MATH_vmath_act, a.i[0] = NN_VACT_SOFTPLUS, a.i[2] = 1, a.i[3] = 1, a.d[0] = 2, a.d[1] = 20;
        else if (c == 3) op = NN_MATH_vmath_act_grad, a.i[0] = NN_VACT_SILU_GRAD, a.t[1] = g, a.t[2] = x;
        else op = NN_MATH_vmath_pow, a.d[0] = c == 4 ? 2.5 : 0.5;
        if (c == 5) a.t[1] = g;
        if (c >= 4) { /* pow of |x| */
            nn_tensor *ax = random_on(d, dt, 1, &n, 0.1, 3);
            NN_RELEASE(g), g = ax, a.t[1] = ax;
        }
        tu_check(NN_KERNEL(b, math, (op, &a)));
        if (a.host[0] == 0) continue;
        for (int64_t i = 0; i < n; i++) {
            double v = at(x, i), want;
            if (c == 0) want = exp(v);
            else if (c == 1) want = 1 / (1 + exp(-v));
            else if (c == 2) want = v * 2 > 20 ? v : log1p(exp(2 * v)) / 2;
            else if (c == 3) {
                double sg = 1 / (1 + exp(-v));
                want = at(g, i) * sg * (1 + v * (1 - sg));
            } else want = pow(at(a.t[1], i), a.d[0]);
            assert_close(at(y, i), want, 1e-5, "math vmath");
        }
    }
    NN_RELEASE(x), NN_RELEASE(g), NN_RELEASE(y);
}

/* psi (order 0) or psi' (order 1) of x > 0: the recurrence up to x + 16, then the asymptotic series */
static double polygamma_ref(int order, double x)
{
    double acc = 0;
    for (int k = 0; k < 16; k++) acc += order ? 1 / ((x + k) * (x + k)) : -1 / (x + k);
    double z = x + 16, z2 = z * z;
    if (order == 0) return acc + log(z) - 1 / (2 * z) - 1 / (12 * z2) + 1 / (120 * z2 * z2) - 1 / (252 * z2 * z2 * z2);
    return acc + 1 / z + 1 / (2 * z2) + 1 / (6 * z2 * z) - 1 / (30 * z2 * z2 * z) + 1 / (42 * z2 * z2 * z2 * z);
}

/* I0 (order 0) or I1 of x by their power series */
static double bessel_i_ref(int order, double x)
{
    double term = order ? x / 2 : 1, sum = 0;
    for (int k = 0; k < 40; k++) {
        sum += term;
        term *= (x / 2) * (x / 2) / ((k + 1.0) * (k + 1.0 + order));
    }
    return sum;
}

/* Hurwitz zeta(s, q), s > 1: 20 terms, then Euler-Maclaurin's tail */
static double zeta_ref(double s, double q)
{
    double sum = 0, N = 20;
    for (int k = 0; k < 20; k++) sum += pow(k + q, -s);
    double a = N + q;
    return sum + pow(a, 1 - s) / (s - 1) + pow(a, -s) / 2 + s * pow(a, -s - 1) / 12 -
           s * (s + 1) * (s + 2) * pow(a, -s - 3) / 720;
}

/* NN_MATH_special's functions against libm, series and identities, and addcmul/addcdiv */
static void case_math_special(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t n = 23;
    double tol = dt == NN_FLOAT32 ? 2e-5 : 1e-11;
    nn_tensor *x = random_on(d, dt, 1, &n, 0.05, 0.95), *y = random_on(d, dt, 1, &n, 0.05, 0.95);
    nn_tensor *out = TU_OK(nn_empty_on(d, 1, &n, dt));
    for (int op = 0; op < NN_SPECIAL_OP_COUNT; op++) {
        bool binary = op == NN_SPECIAL_XLOG1PY || op == NN_SPECIAL_ZETA;
        nn_tensor *in = x;
        if (op == NN_SPECIAL_ZETA) { /* zeta(2 + x, y) */
            double v[23];
            for (int64_t i = 0; i < n; i++) v[i] = 2 + at(x, i);
            in = values_on(d, dt, 1, &n, v);
        }
        nn_kernel_args a = {.t = {out, in, binary ? y : NULL}, .i = {op, 1}};
        tu_check(NN_KERNEL(b, math, (NN_MATH_special, &a)));
        for (int64_t i = 0; i < n; i++) {
            double v = at(x, i), w = at(y, i), got = at(out, i), want = 0;
            double ndtr = 0.5 * erfc(-v / sqrt(2));
            switch ((nn_special_op)op) {
            case NN_SPECIAL_LGAMMA: want = lgamma(v); break;
            case NN_SPECIAL_DIGAMMA: want = polygamma_ref(0, v); break;
            case NN_SPECIAL_POLYGAMMA: want = polygamma_ref(1, v); break;
            case NN_SPECIAL_I0: want = bessel_i_ref(0, v); break;
            case NN_SPECIAL_I0E: want = exp(-v) * bessel_i_ref(0, v); break;
            case NN_SPECIAL_I1: want = bessel_i_ref(1, v); break;
            case NN_SPECIAL_I1E: want = exp(-v) * bessel_i_ref(1, v); break;
            case NN_SPECIAL_NDTR: want = ndtr; break;
            case NN_SPECIAL_NDTRI: got = 0.5 * erfc(-got / sqrt(2)), want = v; break; /* ndtr(ndtri(v)) = v */
            case NN_SPECIAL_LOG_NDTR: want = log(ndtr); break;
            case NN_SPECIAL_SINC: want = sin(M_PI * v) / (M_PI * v); break;
            case NN_SPECIAL_ENTR: want = -v * log(v); break;
            case NN_SPECIAL_ERFCX: want = exp(v * v) * erfc(v); break;
            case NN_SPECIAL_XLOG1PY: want = v * log1p(w); break;
            case NN_SPECIAL_ZETA: want = zeta_ref(2 + v, w); break;
            }
            /* ATen's trigamma (a short series, as PyTorch computes it) and Cephes's zeta are within about 1e-9 */
            bool loose = (op == NN_SPECIAL_POLYGAMMA || op == NN_SPECIAL_ZETA) && dt == NN_FLOAT64;
            assert_close(got, want, loose ? 1e-8 : tol, "math special");
        }
        if (in != x) NN_RELEASE(in);
    }
    nn_tensor *z = random_on(d, dt, 1, &n, 0.5, 2);
    for (int div = 0; div < 2; div++) {
        nn_kernel_args a = {.t = {out, x, y, z}, .d = {0.75}};
        tu_check(NN_KERNEL(b, math, (div ? NN_MATH_addcdiv : NN_MATH_addcmul, &a)));
        for (int64_t i = 0; i < n; i++) {
            double want = div ? at(x, i) + 0.75 * at(y, i) / at(z, i) : at(x, i) + 0.75 * at(y, i) * at(z, i);
            assert_close(at(out, i), want, dt == NN_FLOAT32 ? 1e-6 : 1e-14, div ? "math addcdiv" : "math addcmul");
        }
    }
    NN_RELEASE(x), NN_RELEASE(y), NN_RELEASE(z), NN_RELEASE(out);
}

static void case_math(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t n = 37, rows[2] = {3, 37};
    double tol = dt == NN_FLOAT32 ? 2e-6 : 1e-14;
    nn_tensor *x = random_on(d, dt, 1, &n, 0.05, 0.95), *y = random_on(d, dt, 1, &n, 0.05, 0.95);
    for (int op = NN_MATH_sin; op <= NN_MATH_lerp; op++) {
        bool shifted = op == NN_MATH_acosh, scaled = op == NN_MATH_trunc || op == NN_MATH_frac;
        nn_tensor *in = x;
        if (shifted || scaled) { /* acosh of 1 + x, trunc and frac of 7x */
            double v[37];
            for (int64_t i = 0; i < n; i++) v[i] = shifted ? 1 + at(x, i) : 7 * at(x, i);
            in = values_on(d, dt, 1, &n, v);
        }
        nn_tensor *out = TU_OK(nn_empty_on(d, 1, &n, dt));
        nn_kernel_args a = {.t = {out, in, y}, .d = {0.25}};
        tu_check(NN_KERNEL(b, math, ((nn_math_op)op, &a)));
        for (int64_t i = 0; i < n; i++) {
            double got = op == NN_MATH_erfinv ? erf(at(out, i)) : at(out, i);
            assert_close(got, math_ref(op, at(x, i), at(y, i), 0.25), tol, nn_kernel_names[NN_KERNEL_math]);
        }
        if (in != x) NN_RELEASE(in);
        NN_RELEASE(out);
    }
    /* nan_to_num and isfinite on NaN and infinities */
    const double sp[4] = {NAN, INFINITY, -INFINITY, 0.5}, dsp[4] = {NAN, INFINITY, -INFINITY, 0.5};
    const int64_t four = 4;
    nn_tensor *z = values_on(d, dt, 1, &four, sp), *out = TU_OK(nn_empty_on(d, 1, &four, dt));
    nn_kernel_args a = {.t = {out, z}, .d = {1, 2, -3}};
    tu_check(NN_KERNEL(b, math, (NN_MATH_nan_to_num, &a)));
    const double want[4] = {1, 2, -3, 0.5};
    for (int i = 0; i < 4; i++) assert_close(at(out, i), want[i], 0, "math nan_to_num");
    nn_tensor *z64 = values_on(d, NN_FLOAT64, 1, &four, dsp), *m = TU_OK(nn_empty_on(d, 1, &four, NN_BOOL));
    nn_kernel_args f = {.t = {m, z64}};
    tu_check(NN_KERNEL(b, math, (NN_MATH_isfinite, &f)));
    for (int i = 0; i < 4; i++) assert_close(at(m, i), i == 3, 0, "math isfinite");
    /* logsumexp of rows */
    nn_tensor *r = random_on(d, dt, 2, rows, -20, 20), *l = TU_OK(nn_empty_on(d, 1, rows, dt));
    nn_kernel_args ls = {.t = {l, r}, .i = {3, 37}};
    tu_check(NN_KERNEL(b, math, (NN_MATH_logsumexp, &ls)));
    for (int64_t i = 0; i < 3; i++) {
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < 37; j++) mx = fmax(mx, at(r, i * 37 + j));
        for (int64_t j = 0; j < 37; j++) sum += exp(at(r, i * 37 + j) - mx);
        assert_close(at(l, i), log(sum) + mx, dt == NN_FLOAT32 ? 1e-6 : 1e-13, "math logsumexp");
    }
    NN_RELEASE(x), NN_RELEASE(y), NN_RELEASE(z), NN_RELEASE(out), NN_RELEASE(z64), NN_RELEASE(m), NN_RELEASE(r), NN_RELEASE(l);
    case_math_activations(b, d, dt);
    case_math_vmath(b, d, dt);
    case_math_special(b, d, dt);
}

static void case_optim_step(const nn_backend *b, nn_device d, nn_dtype dt)
{
    enum { N = 40 };
    const int64_t n = N;
    double tol = dt == NN_FLOAT32 ? 1e-5 : 1e-12;
    for (int op = NN_OPTIM_STEP_SGD; op <= NN_OPTIM_STEP_ADADELTA; op++) {
        nn_tensor *p = random_on(d, dt, 1, &n, -1, 1), *g = random_on(d, dt, 1, &n, -1, 1);
        /* states positive; the second small, so that centered RMSprop's square_avg - grad_avg^2 does not cancel */
        nn_tensor *s[3] = {random_on(d, dt, 1, &n, 0.1, 1), random_on(d, dt, 1, &n, 0.01, 0.1), random_on(d, dt, 1, &n, 0.1, 1)};
        double hp[N], hg[N], hs[3][N], want[N];
        read_all(p, hp, n), read_all(g, hg, n);
        for (int k = 0; k < 3; k++) read_all(s[k], hs[k], n);
        nn_sgd_step_args sgd = {.weight_decay = 0.1, .momentum = 0.9, .one_minus_dampening = 0.8, .neg_lr = -0.05,
                                .nesterov = true};
        nn_adam_step_args adam = {.decay = 1, .weight_decay = 0.01, .beta1 = 0.9, .one_minus_beta1 = 0.1, .beta2 = 0.999,
                                  .one_minus_beta2 = 0.001, .bias_correction2_sqrt = 0.5, .eps = 1e-8,
                                  .neg_step_size = -0.01};
        nn_rmsprop_args rms = {.lr = 0.01, .alpha = 0.99, .eps = 1e-8, .weight_decay = 0.1, .momentum = 0.5, .centered = true};
        nn_adagrad_args ada = {.clr = 0.1, .eps = 1e-10, .weight_decay = 0.1};
        nn_adadelta_args dlt = {.lr = 1, .rho = 0.9, .eps = 1e-6, .weight_decay = 0.1, .maximize = true};
        const void *args[] = {&sgd, &adam, &rms, &ada, &dlt};
        tu_check(NN_KERNEL(b, optim_step, ((nn_optim_op)op, args[op], p, g, s[0], s[1], s[2])));
        for (int64_t i = 0; i < N; i++) {
            double x = hp[i], gr = hg[i], *a = &hs[0][i], *v = &hs[1][i], *m = &hs[2][i];
            switch (op) {
            case NN_OPTIM_STEP_SGD: {
                double dd = gr + 0.1 * x, bb = *a * 0.9 + 0.8 * dd;
                *a = bb, want[i] = x - 0.05 * (dd + 0.9 * bb);
                break;
            }
            case NN_OPTIM_STEP_ADAM: {
                double dd = gr + 0.01 * x;
                *a = 0.9 * *a + 0.1 * dd, *v = 0.999 * *v + 0.001 * dd * dd, *m = fmax(*m, *v);
                want[i] = x - 0.01 * *a / (sqrt(*m) / 0.5 + 1e-8);
                break;
            }
            case NN_OPTIM_STEP_RMSPROP: {
                double dd = gr + 0.1 * x;
                *a = 0.99 * *a + 0.01 * dd * dd, *v = 0.99 * *v + 0.01 * dd;
                double avg = sqrt(*a - *v * *v) + 1e-8;
                *m = *m * 0.5 + dd / avg, want[i] = x - 0.01 * *m;
                break;
            }
            case NN_OPTIM_STEP_ADAGRAD: {
                double dd = gr + 0.1 * x;
                *a += dd * dd, want[i] = x - 0.1 * dd / (sqrt(*a) + 1e-10);
                break;
            }
            default: {
                double dd = -gr + 0.1 * x;
                *a = 0.9 * *a + 0.1 * dd * dd;
                double delta = sqrt(*v + 1e-6) / sqrt(*a + 1e-6) * dd;
                *v = 0.9 * *v + 0.1 * delta * delta, want[i] = x - delta;
            }
            }
        }
        int used = op == NN_OPTIM_STEP_SGD || op == NN_OPTIM_STEP_ADAGRAD ? 1 : op == NN_OPTIM_STEP_ADADELTA ? 2 : 3;
        for (int64_t i = 0; i < N; i++) {
            assert_close(at(p, i), want[i], tol, "optim_step param");
            for (int k = 0; k < used; k++) assert_close(at(s[k], i), hs[k][i], tol, "optim_step state");
        }
        NN_RELEASE(p), NN_RELEASE(g), NN_RELEASE(s[0]), NN_RELEASE(s[1]), NN_RELEASE(s[2]);
    }
}

static void case_pool(const nn_backend *b, nn_device d, nn_dtype dt)
{
    const int64_t xs[3] = {2, 5, 6}, P = 2, H = 5, W = 6;
    double tol = dt == NN_FLOAT32 ? 1e-5 : 1e-12;
    nn_tensor *x = random_on(d, dt, 3, xs, -3, 3);
    double hx[60];
    read_all(x, hx, 60);
    /* max pooling: windows inside the image, then padded and dilated ones; adaptive */
    const nn_pool_geom geoms[3] = {{P, H, W, 2, 3, {2, 2}, {2, 2}, {0, 0}, {1, 1}},
                                   {P, H, W, 3, 3, {3, 2}, {2, 3}, {1, 1}, {1, 2}},
                                   {P, H, W, 2, 4, {0, 0}, {0, 0}, {0, 0}, {0, 0}}};
    for (int k = 0; k < 3; k++) {
        const nn_pool_geom *g = &geoms[k];
        int64_t os[3] = {P, g->OH, g->OW};
        nn_tensor *out = TU_OK(nn_empty_on(d, 3, os, dt)), *idx = TU_OK(nn_empty_on(d, 3, os, NN_INT64));
        nn_kernel_args a = {.t = {out, idx, x}};
        tu_check(NN_KERNEL(b, pool, (k == 2 ? NN_POOL_ADAPTIVE_MAX : NN_POOL_MAX, g, &a)));
        for (int64_t c = 0; c < P; c++)
            for (int64_t oh = 0; oh < g->OH; oh++)
                for (int64_t ow = 0; ow < g->OW; ow++) {
                    double best = -INFINITY;
                    int64_t bi = -1;
                    for (int64_t h = 0; h < H; h++)
                        for (int64_t w = 0; w < W; w++) {
                            bool in = k == 2 ? h >= oh * H / g->OH && h < ((oh + 1) * H + g->OH - 1) / g->OH &&
                                                   w >= ow * W / g->OW && w < ((ow + 1) * W + g->OW - 1) / g->OW
                                             : (h + g->p[0] - oh * g->s[0]) % g->d[0] == 0 &&
                                                   (w + g->p[1] - ow * g->s[1]) % g->d[1] == 0 &&
                                                   h + g->p[0] - oh * g->s[0] >= 0 && w + g->p[1] - ow * g->s[1] >= 0 &&
                                                   (h + g->p[0] - oh * g->s[0]) / g->d[0] < g->k[0] &&
                                                   (w + g->p[1] - ow * g->s[1]) / g->d[1] < g->k[1];
                            if (in && hx[c * 30 + h * W + w] > best) best = hx[c * 30 + h * W + w], bi = h * W + w;
                        }
                    int64_t o = (c * g->OH + oh) * g->OW + ow;
                    assert_close(at(out, o), best, 0, "pool max");
                    assert_close(at(idx, o), (double)bi, 0, "pool max index");
                }
        /* the backward adds each output's gradient at its index */
        nn_tensor *go = random_on(d, dt, 3, os, -1, 1), *gi = TU_OK(nn_empty_on(d, 3, xs, dt));
        tu_check(NN_KERNEL(b, fill, (gi, 0)));
        nn_kernel_args bw = {.t = {gi, idx, go}, .i = {H * W, g->OH * g->OW}};
        tu_check(NN_KERNEL(b, pool, (NN_POOL_MAX_BACKWARD, g, &bw)));
        double want[60] = {0};
        for (int64_t o = 0; o < P * g->OH * g->OW; o++) want[o / (g->OH * g->OW) * 30 + (int64_t)at(idx, o)] += at(go, o);
        for (int64_t i = 0; i < 60; i++) assert_close(at(gi, i), want[i], tol, "pool max backward");
        NN_RELEASE(out), NN_RELEASE(idx), NN_RELEASE(go), NN_RELEASE(gi);
    }
    /* average pooling (padded, with and without the padding counted, a divisor) and adaptive */
    const nn_pool_geom ag = {P, H, W, 3, 3, {3, 3}, {2, 2}, {1, 1}, {1, 1}}, aa = {P, H, W, 2, 4, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
    for (int k = 0; k < 4; k++) {
        const nn_pool_geom *g = k == 3 ? &aa : &ag;
        int64_t os[3] = {P, g->OH, g->OW}, cp = k == 1, dv = k == 2 ? 5 : 0;
        nn_tensor *out = TU_OK(nn_empty_on(d, 3, os, dt)), *go = random_on(d, dt, 3, os, -1, 1);
        nn_tensor *gi = TU_OK(nn_empty_on(d, 3, xs, dt));
        tu_check(NN_KERNEL(b, fill, (gi, 0)));
        nn_kernel_args a = {.t = {out, NULL, x}, .i = {cp, dv}}, bw = {.t = {gi, NULL, go}, .i = {cp, dv}};
        tu_check(NN_KERNEL(b, pool, (k == 3 ? NN_POOL_ADAPTIVE_AVG : NN_POOL_AVG, g, &a)));
        tu_check(NN_KERNEL(b, pool, (k == 3 ? NN_POOL_ADAPTIVE_AVG_BACKWARD : NN_POOL_AVG_BACKWARD, g, &bw)));
        double want_gi[60] = {0};
        for (int64_t c = 0; c < P; c++)
            for (int64_t oh = 0; oh < g->OH; oh++)
                for (int64_t ow = 0; ow < g->OW; ow++) {
                    int64_t h0, h1, w0, w1, div;
                    if (k == 3) {
                        h0 = oh * H / g->OH, h1 = ((oh + 1) * H + g->OH - 1) / g->OH;
                        w0 = ow * W / g->OW, w1 = ((ow + 1) * W + g->OW - 1) / g->OW, div = (h1 - h0) * (w1 - w0);
                    } else {
                        h0 = oh * 2 - 1, w0 = ow * 2 - 1;
                        h1 = h0 + 3 < H + 1 ? h0 + 3 : H + 1, w1 = w0 + 3 < W + 1 ? w0 + 3 : W + 1;
                        int64_t pool = (h1 - h0) * (w1 - w0);
                        h0 = h0 < 0 ? 0 : h0, w0 = w0 < 0 ? 0 : w0, h1 = h1 > H ? H : h1, w1 = w1 > W ? W : w1;
                        div = dv ? dv : cp ? pool : (h1 - h0) * (w1 - w0);
                    }
                    double sum = 0;
                    int64_t o = (c * g->OH + oh) * g->OW + ow;
                    for (int64_t h = h0; h < h1; h++)
                        for (int64_t w = w0; w < w1; w++) sum += hx[c * 30 + h * W + w], want_gi[c * 30 + h * W + w] += at(go, o) / (double)div;
                    assert_close(at(out, o), sum / (double)div, tol, "pool avg");
                }
        for (int64_t i = 0; i < 60; i++) assert_close(at(gi, i), want_gi[i], tol, "pool avg backward");
        NN_RELEASE(out), NN_RELEASE(go), NN_RELEASE(gi);
    }
    NN_RELEASE(x);
}

static int64_t reflect_at(int64_t p, int64_t n) { return p < 0 ? -p : p >= n ? 2 * (n - 1) - p : p; }

static void case_resample_more(const nn_backend *b, nn_device d, nn_dtype dt);

static void case_resample(const nn_backend *b, nn_device d, nn_dtype dt)
{
    double tol = dt == NN_FLOAT32 ? 1e-5 : 1e-12;
    /* reflect padding of 2 planes of 3 x 4 by (1, 1) rows and (2, 1) columns, and its backward */
    const int64_t xs[3] = {2, 3, 4}, os[3] = {2, 5, 7};
    nn_tensor *x = random_on(d, dt, 3, xs, -3, 3), *y = TU_OK(nn_empty_on(d, 3, os, dt));
    double hx[24], want[24] = {0};
    read_all(x, hx, 24);
    nn_resample_geom g = {.mode = NN_RESAMPLE_REFLECT, .dims = 2, .planes = 2, .in = {3, 4}, .out = {5, 7}, .pad = {1, 2}};
    tu_check(NN_KERNEL(b, resample, (&g, false, y, x)));
    nn_tensor *gy = random_on(d, dt, 3, os, -1, 1), *gx = TU_OK(nn_zeros_on(d, 3, xs, dt));
    tu_check(NN_KERNEL(b, resample, (&g, true, gx, gy)));
    for (int64_t p = 0; p < 2; p++)
        for (int64_t i = 0; i < 5; i++)
            for (int64_t j = 0; j < 7; j++) {
                int64_t src = p * 12 + reflect_at(i - 1, 3) * 4 + reflect_at(j - 2, 4), o = p * 35 + i * 7 + j;
                assert_close(at(y, o), hx[src], 0, "resample reflect");
                want[src] += at(gy, o);
            }
    for (int64_t i = 0; i < 24; i++) assert_close(at(gx, i), want[i], tol, "resample reflect backward");
    NN_RELEASE(y), NN_RELEASE(gy), NN_RELEASE(gx);
    /* linear, align_corners: 4 -> 7 over 6 rows (2 planes of 3 x 4 viewed as 6 x 4) */
    const int64_t ls[2] = {6, 7};
    y = TU_OK(nn_empty_on(d, 2, ls, dt));
    g = (nn_resample_geom){.mode = NN_RESAMPLE_LINEAR, .dims = 1, .planes = 6, .in = {4}, .out = {7}, .align = true,
                           .scale = {NAN}};
    tu_check(NN_KERNEL(b, resample, (&g, false, y, x)));
    for (int64_t r = 0; r < 6; r++)
        for (int64_t o = 0; o < 7; o++) {
            double real = 0.5 * (double)o, l = real - floor(real);
            int64_t i0 = (int64_t)real, i1 = i0 < 3 ? i0 + 1 : i0;
            assert_close(at(y, r * 7 + o), hx[r * 4 + i0] * (1 - l) + hx[r * 4 + i1] * l, tol, "resample linear");
        }
    NN_RELEASE(y), NN_RELEASE(x);
    /* cubic of a constant image is that constant (the coefficients sum to 1), in 3 x 3 -> 5 x 6 */
    const int64_t cs[3] = {1, 3, 3}, co[3] = {1, 5, 6};
    x = TU_OK(nn_full_on(d, 3, cs, 2.5, dt)), y = TU_OK(nn_empty_on(d, 3, co, dt));
    g = (nn_resample_geom){.mode = NN_RESAMPLE_CUBIC, .dims = 2, .planes = 1, .in = {3, 3}, .out = {5, 6},
                           .scale = {NAN, NAN}};
    tu_check(NN_KERNEL(b, resample, (&g, false, y, x)));
    for (int64_t i = 0; i < 30; i++) assert_close(at(y, i), 2.5, tol * 10, "resample cubic");
    NN_RELEASE(y), NN_RELEASE(x);
    case_resample_more(b, d, dt);
}

/* LAPACK: LU solve of A X = B and the LU's determinant, the SVD's singular values
   (their squares sum to |A|_F^2), eigh's eigenvalues (their sum is the trace) */
static void case_linalg_more(const nn_backend *b, nn_device d, nn_dtype dt);

static void case_linalg(const nn_backend *b, nn_device d, nn_dtype dt)
{
    double tol = dt == NN_FLOAT32 ? 1e-4 : 1e-10;
    const int64_t as[3] = {2, 3, 3}, bs[3] = {2, 2, 3};
    nn_tensor *A = random_on(d, dt, 3, as, -1, 1), *B = random_on(d, dt, 3, bs, -1, 1);
    double ha[18], hb[12];
    read_all(A, ha, 18);
    read_all(B, hb, 12);
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 3; k++) ha[i * 9 + k * 4] += 4; /* diagonally dominant (column-major: the same diagonal) */
    nn_tensor *lu = TU_OK(nn_empty_on(d, 3, as, dt)), *piv = TU_OK(nn_empty_on(d, 2, (const int64_t[]){2, 3}, NN_INT32));
    nn_tensor *h = TU_OK(nn_empty(3, as, NN_FLOAT64));
    memcpy(nn_data_ptr(h), ha, sizeof ha);
    nn_tensor *hc = TU_OK(nn_to_dtype(h, dt)), *dev = TU_OK(nn_to_device(hc, d));
    tu_check(NN_KERNEL(b, copy, (lu, dev)));
    nn_kernel_args k = {.t = {lu, piv}, .i = {2, 3, 3}};
    tu_check(NN_KERNEL(b, linalg, (NN_LINALG_LU, &k)));
    assert_true(k.host[0] == 0);
    nn_tensor *x = TU_OK(nn_clone(B)), *det = TU_OK(nn_empty_on(d, 1, (const int64_t[]){2}, dt));
    nn_kernel_args ks = {.t = {x, NULL, NULL, lu, piv}, .i = {2, 3, 2}};
    tu_check(NN_KERNEL(b, linalg, (NN_LINALG_LU_SOLVE, &ks)));
    nn_kernel_args kd = {.t = {det, NULL, NULL, lu, piv}, .i = {2, 3}};
    tu_check(NN_KERNEL(b, linalg, (NN_LINALG_LU_DET, &kd)));
    for (int m = 0; m < 2; m++) {
        const double *a = ha + m * 9; /* column-major: a[c * 3 + r] */
        for (int c = 0; c < 2; c++)
            for (int r = 0; r < 3; r++) {
                double sum = 0;
                for (int j = 0; j < 3; j++) sum += a[j * 3 + r] * at(x, m * 6 + c * 3 + j);
                assert_close(sum, hb[m * 6 + c * 3 + r], tol, "linalg LU solve");
            }
        double want = a[0] * (a[4] * a[8] - a[7] * a[5]) - a[3] * (a[1] * a[8] - a[7] * a[2]) + a[6] * (a[1] * a[5] - a[4] * a[2]);
        assert_close(at(det, m), want, tol * 10, "linalg LU det");
    }
    /* SVD and eigh of the same matrices */
    nn_tensor *sv = TU_OK(nn_empty_on(d, 2, (const int64_t[]){2, 3}, dt)), *w = TU_OK(nn_empty_on(d, 2, (const int64_t[]){2, 3}, dt));
    tu_check(NN_KERNEL(b, copy, (lu, dev)));
    nn_kernel_args kv = {.t = {lu, sv}, .i = {2, 3, 3, 0}};
    tu_check(NN_KERNEL(b, linalg, (NN_LINALG_SVD, &kv)));
    tu_check(NN_KERNEL(b, copy, (lu, dev)));
    nn_kernel_args ke = {.t = {lu, w}, .i = {2, 3, 3, 0, 0}};
    tu_check(NN_KERNEL(b, linalg, (NN_LINALG_EIGH, &ke)));
    for (int m = 0; m < 2; m++) {
        double fro = 0, ss = 0, tr = 0, ws = 0;
        for (int i = 0; i < 9; i++) fro += ha[m * 9 + i] * ha[m * 9 + i];
        for (int i = 0; i < 3; i++) ss += at(sv, m * 3 + i) * at(sv, m * 3 + i), tr += ha[m * 9 + i * 4], ws += at(w, m * 3 + i);
        assert_close(ss, fro, tol * 100, "linalg SVD");
        assert_close(ws, tr, tol * 10, "linalg eigh");
    }
    NN_RELEASE(A), NN_RELEASE(B), NN_RELEASE(lu), NN_RELEASE(piv), NN_RELEASE(h), NN_RELEASE(hc), NN_RELEASE(dev);
    NN_RELEASE(x), NN_RELEASE(det), NN_RELEASE(sv), NN_RELEASE(w);
    case_linalg_more(b, d, dt);
}

/* nearest and nearest-exact upsampling of 4 rows of 3 to 7 (the sizes' ratio), and
   replicate padding of 2 planes of 3 x 4 by (1, 1) rows and (2, 1) columns with its backward */
static void case_resample_more(const nn_backend *b, nn_device d, nn_dtype dt)
{
    double tol = dt == NN_FLOAT32 ? 1e-5 : 1e-12;
    const int64_t xs[2] = {4, 3}, ys[2] = {4, 7};
    nn_tensor *x = random_on(d, dt, 2, xs, -3, 3), *y = TU_OK(nn_empty_on(d, 2, ys, dt));
    double hx[24];
    read_all(x, hx, 12);
    for (int exact = 0; exact < 2; exact++) {
        nn_resample_geom g = {.mode = exact ? NN_RESAMPLE_NEAREST_EXACT : NN_RESAMPLE_NEAREST, .dims = 1, .planes = 4,
                              .in = {3}, .out = {7}, .scale = {NAN}};
        tu_check(NN_KERNEL(b, resample, (&g, false, y, x)));
        for (int64_t r = 0; r < 4; r++)
            for (int64_t o = 0; o < 7; o++) {
                int64_t src = (int64_t)floor(((double)o + (exact ? 0.5 : 0)) * 3.0 / 7.0);
                assert_close(at(y, r * 7 + o), hx[r * 3 + (src < 2 ? src : 2)], 0, exact ? "resample nearest-exact" : "resample nearest");
            }
    }
    NN_RELEASE(x), NN_RELEASE(y);
    const int64_t ps[3] = {2, 3, 4}, os[3] = {2, 5, 7};
    x = random_on(d, dt, 3, ps, -3, 3), y = TU_OK(nn_empty_on(d, 3, os, dt));
    double want[24] = {0};
    read_all(x, hx, 24);
    nn_resample_geom g = {.mode = NN_RESAMPLE_REPLICATE, .dims = 2, .planes = 2, .in = {3, 4}, .out = {5, 7}, .pad = {1, 2}};
    tu_check(NN_KERNEL(b, resample, (&g, false, y, x)));
    nn_tensor *gy = random_on(d, dt, 3, os, -1, 1), *gx = TU_OK(nn_zeros_on(d, 3, ps, dt));
    tu_check(NN_KERNEL(b, resample, (&g, true, gx, gy)));
    for (int64_t p = 0; p < 2; p++)
        for (int64_t i = 0; i < 5; i++)
            for (int64_t j = 0; j < 7; j++) {
                int64_t si = i - 1 < 0 ? 0 : i - 1 > 2 ? 2 : i - 1, sj = j - 2 < 0 ? 0 : j - 2 > 3 ? 3 : j - 2;
                int64_t src = p * 12 + si * 4 + sj, o = p * 35 + i * 7 + j;
                assert_close(at(y, o), hx[src], 0, "resample replicate");
                want[src] += at(gy, o);
            }
    for (int64_t i = 0; i < 24; i++) assert_close(at(gx, i), want[i], tol, "resample replicate backward");
    NN_RELEASE(x), NN_RELEASE(y), NN_RELEASE(gy), NN_RELEASE(gx);
}

/* Cholesky of 2 SPD 3 x 3 matrices (L L^T = A on the lower triangle), QR of a 4 x 3
   (Q R = A) and least squares of a 4 x 2 system by gels (A^T (A x - b) = 0) */
static void case_linalg_more(const nn_backend *b, nn_device d, nn_dtype dt)
{
    double tol = dt == NN_FLOAT32 ? 1e-4 : 1e-10;
    double m[18], spd[18];
    for (int i = 0; i < 18; i++) m[i] = uniform() * 2 - 1;
    for (int k = 0; k < 2; k++) /* A = M M^T + 3 I (column-major: A[c * 3 + r]) */
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                double v = r == c ? 3 : 0;
                for (int j = 0; j < 3; j++) v += m[k * 9 + j * 3 + r] * m[k * 9 + j * 3 + c];
                spd[k * 9 + c * 3 + r] = v;
            }
    const int64_t as[3] = {2, 3, 3};
    nn_tensor *a = values_on(d, dt, 3, as, spd);
    nn_kernel_args kc = {.t = {a}, .i = {2, 3, 3, 0, 0}};
    tu_check(NN_KERNEL(b, linalg, (NN_LINALG_CHOLESKY, &kc)));
    assert_true(kc.host[0] == 0);
    for (int k = 0; k < 2; k++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c <= r; c++) {
                double v = 0;
                for (int j = 0; j <= c; j++) v += at(a, k * 9 + j * 3 + r) * at(a, k * 9 + j * 3 + c);
                assert_close(v, spd[k * 9 + c * 3 + r], tol, "linalg Cholesky");
            }
    NN_RELEASE(a);
    /* QR of one 4 x 3 (column-major), Q reduced [4, 3] */
    double q0[12];
    for (int i = 0; i < 12; i++) q0[i] = uniform() * 2 - 1;
    const int64_t qs[2] = {1, 12}, qq[2] = {1, 12};
    nn_tensor *qa = values_on(d, dt, 2, qs, q0), *q = TU_OK(nn_empty_on(d, 2, qq, dt));
    nn_kernel_args kq = {.t = {qa, q}, .i = {1, 4, 3, 3}};
    tu_check(NN_KERNEL(b, linalg, (NN_LINALG_QR, &kq)));
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 3; c++) {
            double v = 0;
            for (int j = 0; j <= c; j++) v += at(q, j * 4 + r) * at(qa, c * 4 + j);
            assert_close(v, q0[c * 4 + r], tol, "linalg QR");
        }
    NN_RELEASE(qa), NN_RELEASE(q);
    /* least squares: A 4 x 2, b 4 x 1 */
    double la[8], lb[4];
    for (int i = 0; i < 8; i++) la[i] = uniform() * 2 - 1;
    la[0] += 2, la[5] += 2; /* full rank */
    for (int i = 0; i < 4; i++) lb[i] = uniform() * 2 - 1;
    const int64_t ls[2] = {1, 8}, bs[2] = {1, 4};
    nn_tensor *A = values_on(d, dt, 2, ls, la), *B = values_on(d, dt, 2, bs, lb);
    nn_kernel_args kl = {.t = {A, B, NULL, NULL}, .i = {1, 4, 2, 0, 1}, .d = {-1}};
    tu_check(NN_KERNEL(b, linalg, (NN_LINALG_LSTSQ, &kl)));
    double x0 = at(B, 0), x1 = at(B, 1);
    for (int c = 0; c < 2; c++) {
        double g = 0;
        for (int r = 0; r < 4; r++) g += la[c * 4 + r] * (la[r] * x0 + la[4 + r] * x1 - lb[r]);
        assert_close(g, 0, tol * 10, "linalg lstsq normal equations");
    }
    NN_RELEASE(A), NN_RELEASE(B);
    /* ?geev of [[1, -2], [2, 1]] (column-major): eigenvalues 1 + 2i, 1 - 2i, and A v = lambda v */
    const double ea[4] = {1, 2, -2, 1};
    const int64_t es[3] = {1, 2, 2}, ws[2] = {1, 2};
    nn_dtype cdt = nn_dtype_to_complex(dt);
    nn_tensor *E = values_on(d, dt, 3, es, ea), *ew = TU_OK(nn_empty_on(d, 2, ws, cdt)), *ev = TU_OK(nn_empty_on(d, 3, es, cdt));
    nn_kernel_args ke = {.t = {E, ew, ev}, .i = {1, 2, 2, 1}};
    tu_check(NN_KERNEL(b, linalg, (NN_LINALG_EIG, &ke)));
    assert_true(ke.host[0] == 0);
    nn_tensor *wr = TU_OK(nn_view_as_real(ew)), *vr = TU_OK(nn_view_as_real(ev));
    const double want[4] = {1, 2, 1, -2};
    for (int i = 0; i < 4; i++) assert_close(at(wr, i), want[i], tol, "linalg eig eigenvalues");
    for (int j = 0; j < 2; j++) /* column j: v = (vr[2 (2j)], ...), column-major complex pairs */
        for (int r = 0; r < 2; r++) {
            double lre = at(wr, 2 * j), lim = at(wr, 2 * j + 1), sre = 0, sim = 0;
            for (int c = 0; c < 2; c++) {
                double a = ea[c * 2 + r], vre = at(vr, 2 * (j * 2 + c)), vim = at(vr, 2 * (j * 2 + c) + 1);
                sre += a * vre, sim += a * vim;
            }
            double vre = at(vr, 2 * (j * 2 + r)), vim = at(vr, 2 * (j * 2 + r) + 1);
            assert_close(sre, lre * vre - lim * vim, tol * 10, "linalg eig A v = lambda v (real)");
            assert_close(sim, lre * vim + lim * vre, tol * 10, "linalg eig A v = lambda v (imag)");
        }
    NN_RELEASE(E), NN_RELEASE(ew), NN_RELEASE(ev), NN_RELEASE(wr), NN_RELEASE(vr);
}

/* One case per line of kernels.def: a kernel added there without a case here fails. */
static const kernel_case cases[NN_KERNEL_COUNT] = {
    [NN_KERNEL_fill] = case_fill,
    [NN_KERNEL_copy] = case_copy,
    [NN_KERNEL_binary] = case_binary,
    [NN_KERNEL_map] = case_map,
    [NN_KERNEL_unary] = case_unary,
    [NN_KERNEL_softmax] = case_softmax,
    [NN_KERNEL_gemm] = case_gemm,
    [NN_KERNEL_gemv] = case_gemv,
    [NN_KERNEL_dot] = case_dot,
    [NN_KERNEL_conv2d] = case_conv2d,
    [NN_KERNEL_conv2d_backward] = case_conv2d_backward,
    [NN_KERNEL_conv3d] = case_conv3d,
    [NN_KERNEL_conv3d_backward] = case_conv3d_backward,
    [NN_KERNEL_arange] = case_arange,
    [NN_KERNEL_linspace] = case_linspace,
    [NN_KERNEL_logspace] = case_logspace,
    [NN_KERNEL_random] = case_random,
    [NN_KERNEL_reduce] = case_reduce,
    [NN_KERNEL_loss] = case_loss,
    [NN_KERNEL_norm] = case_norm,
    [NN_KERNEL_index] = case_index,
    [NN_KERNEL_matmul_loop] = case_matmul_loop,
    [NN_KERNEL_sample] = case_sample,
    [NN_KERNEL_math] = case_math,
    [NN_KERNEL_optim_step] = case_optim_step,
    [NN_KERNEL_pool] = case_pool,
    [NN_KERNEL_resample] = case_resample,
    [NN_KERNEL_linalg] = case_linalg,
};

/* The op codes the cases reach, per kernel that takes one: the loopback pass
   runs through a recording copy of the loopback backend (registered for the
   device, so ops called by a case are counted too), and a code no case reaches
   fails the run, as a kernel without a case does. */
enum { REC_BINARY, REC_UNARY, REC_RANDOM, REC_SAMPLE, REC_REDUCE, REC_LOSS, REC_NORM, REC_INDEX, REC_MATH,
       REC_SPECIAL, REC_OPTIM, REC_POOL, REC_RESAMPLE, REC_LINALG, REC_KINDS };
static const struct {
    const char *kernel;
    int codes;
} rec_kinds[REC_KINDS] = {
    [REC_BINARY] = {"binary", NN_BINOP_COUNT},         [REC_UNARY] = {"unary", NN_UNARY_COUNT},
    [REC_RANDOM] = {"random", NN_RANDOM_DIST_COUNT},   [REC_SAMPLE] = {"sample", NN_SAMPLE_OP_COUNT},
    [REC_REDUCE] = {"reduce", NN_REDUCE_OP_COUNT},     [REC_LOSS] = {"loss", NN_LOSS_OP_COUNT},
    [REC_NORM] = {"norm", NN_NORM_OP_COUNT},           [REC_INDEX] = {"index", NN_INDEX_OP_COUNT},
    [REC_MATH] = {"math", NN_MATH_OP_COUNT},           [REC_SPECIAL] = {"math (NN_MATH_special)", NN_SPECIAL_OP_COUNT},
    [REC_OPTIM] = {"optim_step", NN_OPTIM_OP_COUNT},   [REC_POOL] = {"pool", NN_POOL_OP_COUNT},
    [REC_RESAMPLE] = {"resample", NN_RESAMPLE_MODE_COUNT}, [REC_LINALG] = {"linalg", NN_LINALG_OP_COUNT},
};
static bool rec_seen[REC_KINDS][256];
static const nn_backend *rec_inner;
static nn_backend rec_backend;

static void rec_mark(int kind, int code)
{
    if (code >= 0 && code < 256) rec_seen[kind][code] = true;
}

static int rec_binary(nn_binop op, nn_tensor *out, const nn_tensor *a, const nn_tensor *b, double alpha)
{
    rec_mark(REC_BINARY, op);
    return rec_inner->binary(op, out, a, b, alpha);
}
static int rec_unary(const nn_unary_params *p, int nt, const nn_tensor *const *ts)
{
    rec_mark(REC_UNARY, p->k);
    if (p->vec != NN_UNARY_NONE) rec_mark(REC_UNARY, p->vec); /* the vectorized loop's code, a code the kernel has too */
    return rec_inner->unary(p, nt, ts);
}
static int rec_random(nn_tensor *t, const nn_random_params *p, nn_generator *g)
{
    rec_mark(REC_RANDOM, p->dist);
    return rec_inner->random(t, p, g);
}
static int rec_reduce(nn_reduce_op op, const nn_tensor *x, int64_t outer, int64_t inner, double p, nn_tensor *values,
                      nn_tensor *indices)
{
    rec_mark(REC_REDUCE, op);
    return rec_inner->reduce(op, x, outer, inner, p, values, indices);
}
static int rec_math(nn_math_op op, nn_kernel_args *a)
{
    rec_mark(REC_MATH, op);
    if (op == NN_MATH_special) rec_mark(REC_SPECIAL, (int)a->i[0]);
    return rec_inner->math(op, a);
}
#define REC_ARGS_KERNEL(name, KIND, op_type)                                                                          \
    static int rec_##name(op_type op, nn_kernel_args *a)                                                              \
    {                                                                                                                 \
        rec_mark(KIND, op);                                                                                           \
        return rec_inner->name(op, a);                                                                                \
    }
REC_ARGS_KERNEL(sample, REC_SAMPLE, nn_sample_op)
REC_ARGS_KERNEL(loss, REC_LOSS, nn_loss_op)
REC_ARGS_KERNEL(norm, REC_NORM, nn_norm_op)
REC_ARGS_KERNEL(index, REC_INDEX, nn_index_op)
REC_ARGS_KERNEL(linalg, REC_LINALG, nn_linalg_op)
static int rec_optim_step(nn_optim_op op, const void *args, nn_tensor *p, const nn_tensor *g, nn_tensor *s0,
                          nn_tensor *s1, nn_tensor *s2)
{
    rec_mark(REC_OPTIM, op);
    return rec_inner->optim_step(op, args, p, g, s0, s1, s2);
}
static int rec_pool(nn_pool_op op, const nn_pool_geom *g, nn_kernel_args *a)
{
    rec_mark(REC_POOL, op);
    return rec_inner->pool(op, g, a);
}
static int rec_resample(const nn_resample_geom *g, bool backward, nn_tensor *out, const nn_tensor *in)
{
    rec_mark(REC_RESAMPLE, g->mode);
    return rec_inner->resample(g, backward, out, in);
}

/* Registers the recording copy of backend b for its device; returns it. */
static const nn_backend *rec_register(const nn_backend *b)
{
    rec_inner = b;
    rec_backend = *b;
    rec_backend.binary = rec_binary, rec_backend.unary = rec_unary, rec_backend.random = rec_random;
    rec_backend.reduce = rec_reduce, rec_backend.math = rec_math, rec_backend.sample = rec_sample;
    rec_backend.loss = rec_loss, rec_backend.norm = rec_norm, rec_backend.index = rec_index;
    rec_backend.linalg = rec_linalg, rec_backend.optim_step = rec_optim_step, rec_backend.pool = rec_pool;
    rec_backend.resample = rec_resample;
    memset(rec_seen, 0, sizeof rec_seen);
    nn_backend_register(&rec_backend);
    return &rec_backend;
}

/* Fails naming every op code that no case reached. */
static void rec_check(void)
{
    char missing[2048] = "";
    size_t len = 0;
    for (int k = 0; k < REC_KINDS; k++) {
        assert_true(rec_kinds[k].codes <= 256);
        for (int c = 0; c < rec_kinds[k].codes; c++)
            if (!rec_seen[k][c] && len < sizeof missing - 64)
                len += (size_t)snprintf(missing + len, sizeof missing - len, " %s:%d", rec_kinds[k].kernel, c);
    }
    if (len) fail_msg("op codes (core/backend.h) without a case in test_backend.c:%s", missing);
}

static void test_every_kernel_on_every_backend(void **state)
{
    (void)state;
    const nn_backend *backends[2] = {nn_backend_for_type(NN_CPU), nn_backend_for_type(NN_CUDA)};
    nn_device devices[2] = {NN_DEVICE_CPU, LOOPBACK};
    assert_string_equal(backends[1]->name, "loopback");
    const nn_backend *loopback = backends[1];
    backends[1] = rec_register(loopback);
    static const nn_dtype dtypes[] = {NN_FLOAT32, NN_FLOAT64, NN_INT64, NN_INT32, NN_BOOL};
    int ran = 0;
    for (int k = 0; k < NN_KERNEL_COUNT; k++) {
        if (!cases[k]) fail_msg("kernel '%s' (core/kernels.def) has no case in test_backend.c", nn_kernel_names[k]);
        for (int bi = 0; bi < 2; bi++) {
            const nn_backend *b = backends[bi];
            bool any = false;
            for (size_t di = 0; di < sizeof dtypes / sizeof dtypes[0]; di++) {
                if (!b->supports(k, dtypes[di])) continue;
                any = true;
                cases[k](b, devices[bi], dtypes[di]);
                ran++;
            }
            if (!any) fail_msg("backend '%s' claims no dtype for kernel '%s'", b->name, nn_kernel_names[k]);
        }
    }
    nn_backend_register(loopback);
    tu_logf("ran %d kernel cases", ran);
    tu_transcript_reset();
    assert_true(ran >= 2 * NN_KERNEL_COUNT);
    rec_check();
}

/* ------------------------------------------------------------- the device model */

static void test_copies_between_devices(void **state)
{
    (void)state;
    int64_t sizes[2] = {3, 4};
    nn_tensor *h = random_on(NN_DEVICE_CPU, NN_FLOAT32, 2, sizes, -2, 2);
    nn_tensor *d = TU_OK(nn_to_device(h, LOOPBACK));
    assert_int_equal(nn_device_of(d).type, NN_CUDA);
    assert_ptr_not_equal(d->storage, h->storage);
    nn_tensor *same = TU_OK(nn_to_device(d, LOOPBACK));
    assert_ptr_equal(same, d); /* already there: itself */
    NN_RELEASE(same);
    /* a strided device tensor back to the host, and a cross-device copy_ into a strided host view */
    nn_tensor *dt = TU_OK(nn_transpose(d, 0, 1)), *back = TU_OK(nn_to_device(dt, NN_DEVICE_CPU));
    nn_tensor *hz = TU_OK(nn_zeros(2, (int64_t[]){4, 3}, NN_FLOAT64)), *hzt = TU_OK(nn_transpose(hz, 0, 1));
    tu_check(nn_copy_(hzt, d));
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 4; j++) {
            double v = nn_get_double(h, (int64_t[]){i, j});
            assert_true(nn_get_double(back, (int64_t[]){j, i}) == v);
            assert_true(nn_get_double(hz, (int64_t[]){j, i}) == v);
            assert_true(nn_get_double(d, (int64_t[]){i, j}) == v); /* element access on the device */
        }
    /* writes through the contract */
    float vals[12];
    for (int i = 0; i < 12; i++) vals[i] = (float)i / 4;
    tu_check(nn_host_write(d, vals));
    double item;
    nn_tensor *e = TU_OK(nn_select(d, 0, 2));
    nn_tensor *e3 = TU_OK(nn_select(e, 0, 3));
    tu_check(nn_item(e3, &item));
    assert_true(item == 11.0 / 4);
    char *repr = TU_OK(nn_tensor_repr(e3));
    assert_string_equal(repr, "tensor(2.7500, device='cuda:0')");
    nn_free(repr);
    NN_RELEASE(e3);
    NN_RELEASE(e);
    NN_RELEASE(hzt);
    NN_RELEASE(hz);
    NN_RELEASE(back);
    NN_RELEASE(dt);
    NN_RELEASE(d);
    NN_RELEASE(h);
}

static void test_autograd_through_devices(void **state)
{
    (void)state;
    /* y = (W_dev @ x_dev + 1) summed through the host: grads come back to the CPU leaves */
    nn_tensor *w = random_on(NN_DEVICE_CPU, NN_FLOAT64, 2, (int64_t[]){2, 3}, -1, 1);
    nn_tensor *x = random_on(NN_DEVICE_CPU, NN_FLOAT64, 2, (int64_t[]){3, 1}, -1, 1);
    tu_check(nn_set_requires_grad(w, true));
    nn_tensor *wd = TU_OK(nn_to_device(w, LOOPBACK)), *xd = TU_OK(nn_to_device(x, LOOPBACK));
    nn_tensor *p = TU_OK(nn_mm(wd, xd)), *q = TU_OK(nn_mul_scalar(p, 3));
    nn_tensor *qh = TU_OK(nn_to_device(q, NN_DEVICE_CPU)), *s = TU_OK(nn_sum(qh, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    nn_tensor *g = TU_OK(nn_grad(w));
    assert_int_equal(nn_device_of(g).type, NN_CPU);
    for (int64_t i = 0; i < 2; i++)
        for (int64_t j = 0; j < 3; j++)
            assert_close(nn_get_double(g, (int64_t[]){i, j}), 3 * nn_get_double(x, (int64_t[]){j, 0}), 1e-12, "grad");
    NN_RELEASE(g);
    NN_RELEASE(s);
    NN_RELEASE(qh);
    NN_RELEASE(q);
    NN_RELEASE(p);
    NN_RELEASE(xd);
    NN_RELEASE(wd);
    NN_RELEASE(x);
    NN_RELEASE(w);
}

static void test_mixed_devices_fail_as_pytorch(void **state)
{
    (void)state;
    int64_t sizes[1] = {3};
    nn_tensor *h = TU_OK(nn_ones(1, sizes, NN_FLOAT32)), *d = TU_OK(nn_full_on(LOOPBACK, 1, sizes, 2, NN_FLOAT32));
    assert_null(nn_add(d, h));
    /* PyTorch's words (c10's TensorIterator / checkSameDevice), devices in first-seen order */
    tu_assert_error(NN_ERR_RUNTIME,
                    "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
    assert_null(nn_mul(h, d));
    tu_assert_error(NN_ERR_RUNTIME, "found at least two devices, cpu and cuda:0!");
    nn_tensor *m = TU_OK(nn_ones(2, (int64_t[]){3, 3}, NN_FLOAT32));
    assert_null(nn_matmul(m, d));
    tu_assert_error(NN_ERR_RUNTIME, "Expected all tensors to be on the same device");
    /* a 0-dim CPU tensor goes to the device by value, as in PyTorch */
    nn_tensor *s = TU_OK(nn_scalar(5, NN_FLOAT32)), *r = TU_OK(nn_add(d, s));
    assert_int_equal(nn_device_of(r).type, NN_CUDA);
    assert_true(nn_get_double(r, (int64_t[]){1}) == 7);
    NN_RELEASE(r);
    nn_tensor *cond = TU_OK(nn_compare(d, s, NN_GT));
    r = TU_OK(nn_where(cond, d, s));
    assert_int_equal(nn_device_of(r).type, NN_CUDA);
    NN_RELEASE(r);
    NN_RELEASE(cond);
    /* the _like factories keep the device */
    r = TU_OK(nn_zeros_like(d));
    assert_int_equal(nn_device_of(r).type, NN_CUDA);
    NN_RELEASE(r);
    NN_RELEASE(s);
    NN_RELEASE(m);
    NN_RELEASE(d);
    NN_RELEASE(h);
}

/* Ops outside TensorIterator refuse a mix of devices as PyTorch's device checks do
   (no 0-dim CPU exception there), before any kernel reads the other device's memory. */
static void test_mixed_devices_outside_tensoriterator(void **state)
{
    (void)state;
    int64_t three = 3;
    nn_tensor *d = TU_OK(nn_full_on(LOOPBACK, 1, &three, 2, NN_FLOAT32));
    nn_tensor *ih = TU_OK(nn_zeros(1, &three, NN_INT64)), *id = TU_OK(nn_zeros_on(LOOPBACK, 1, &three, NN_INT64));
    nn_tensor *h = TU_OK(nn_ones(1, &three, NN_FLOAT32));
    assert_null(nn_gather(d, 0, ih));
    tu_assert_error(NN_ERR_RUNTIME,
                    "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
    assert_null(nn_scatter(h, 0, ih, d));
    tu_assert_error(NN_ERR_RUNTIME, "found at least two devices, cpu and cuda:0!");
    nn_tensor *g = TU_OK(nn_gather(d, 0, id)); /* one device: fine */
    assert_int_equal(nn_device_of(g).type, NN_CUDA);
    NN_RELEASE(g);
    assert_null(nn_searchsorted(d, h, false, false, NULL));
    tu_assert_error(NN_ERR_RUNTIME, "torch.searchsorted(): boundaries and input value tensors should have same device "
                                    "type, but got boundaries tensor device type cuda:0 and input value tensor device "
                                    "type cpu");
    nn_tensor *q = TU_OK(nn_scalar(0.5, NN_FLOAT32));
    assert_null(nn_quantile(d, q, false, 0, false, 0, false));
    tu_assert_error(NN_ERR_RUNTIME, "quantile() q tensor must be on the same device as the input tensor");
    nn_tensor *qd = TU_OK(nn_to_device(q, LOOPBACK)), *med = TU_OK(nn_quantile(d, qd, false, 0, false, 0, false));
    assert_true(nn_get_double(med, NULL) == 2);
    nn_tensor *x4 = TU_OK(nn_ones_on(LOOPBACK, 4, (int64_t[]){1, 1, 1, 2}, NN_FLOAT32));
    nn_tensor *i4 = TU_OK(nn_zeros(4, (int64_t[]){1, 1, 1, 2}, NN_INT64));
    assert_null(nn_max_unpool2d(x4, i4, 2, 2));
    tu_assert_error(NN_ERR_RUNTIME, "found at least two devices, cuda:0 and cpu!");
    NN_RELEASE(x4), NN_RELEASE(i4), NN_RELEASE(q), NN_RELEASE(qd), NN_RELEASE(med);
    NN_RELEASE(d), NN_RELEASE(ih), NN_RELEASE(id), NN_RELEASE(h);
}

static void test_missing_kernel_is_not_implemented(void **state)
{
    (void)state;
    /* a backend without GEMM: the op raises NotImplementedError naming kernel and backend, no host fallback */
    static nn_backend partial;
    partial = *nn_backend_for_type(NN_CUDA);
    partial.name = "partial";
    partial.gemm = NULL;
    const nn_backend *loopback = nn_backend_for_type(NN_CUDA);
    int64_t sizes[2] = {2, 2};
    nn_tensor *a = TU_OK(nn_full_on(LOOPBACK, 2, sizes, 1, NN_FLOAT32));
    nn_backend_register(&partial);
    assert_null(nn_mm(a, a));
    tu_assert_error(NN_ERR_NOT_IMPLEMENTED, "Could not run 'gemm' with arguments from the 'partial' backend.");
    nn_backend_register(loopback);
    nn_tensor *r = TU_OK(nn_mm(a, a));
    assert_true(nn_get_double(r, (int64_t[]){0, 0}) == 2);
    NN_RELEASE(r);
    NN_RELEASE(a);
}

static void test_host_read_of_device_memory_is_caught(void **state)
{
    (void)state;
    nn_tensor *d = TU_OK(nn_full_on(LOOPBACK, 1, (int64_t[]){4}, 1, NN_FLOAT32));
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY); /* ASan's report is the expected outcome: keep the log quiet */
        if (null >= 0) dup2(null, 2);
        volatile float v = *(const float *)nn_data_ptr(d); /* outside any kernel: poisoned under ASan */
        _exit(v == 1 ? 0 : 2);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
#if defined(__SANITIZE_ADDRESS__)
    assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* ASan's use-after-poison report */
#else
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* plain host memory without ASan */
#endif
    NN_RELEASE(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kernel_on_every_backend),
        cmocka_unit_test(test_copies_between_devices),
        cmocka_unit_test(test_autograd_through_devices),
        cmocka_unit_test(test_mixed_devices_fail_as_pytorch),
        cmocka_unit_test(test_mixed_devices_outside_tensoriterator),
        cmocka_unit_test(test_missing_kernel_is_not_implemented),
        cmocka_unit_test(test_host_read_of_device_memory_is_caught),
    };
    return cmocka_run_group_tests(tests, tu_loopback_setup, tu_loopback_teardown);
}
