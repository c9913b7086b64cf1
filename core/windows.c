/*
 * windows.c — torch's window functions: hann, hamming, blackman, bartlett and
 * kaiser windows, periodic or symmetric, built as ATen 1.13 builds them (an
 * arange in the requested dtype, then its in-place ops in its order), so each
 * rounds as PyTorch's does. No history: they are factories.
 */
#include <math.h>
#include <string.h>

#include "nn_int.h"
#include "nn_math.h"
#include "nn_misc_ops.h"
#include "nn_scratch.h"
#include "nn_special.h"

static const char *const window_names[] = {
    [NN_WINDOW_HANN] = "hann_window",         [NN_WINDOW_HAMMING] = "hamming_window",
    [NN_WINDOW_BLACKMAN] = "blackman_window", [NN_WINDOW_BARTLETT] = "bartlett_window",
    [NN_WINDOW_KAISER] = "kaiser_window",
};

/* C++'s name of a non-float dtype in a TensorOptions message */
static const char *cpp_type_name(nn_dtype dt)
{
    switch (dt) {
    case NN_INT64: return "long int";
    case NN_INT32: return "int";
    case NN_INT16: return "short int";
    case NN_INT8: return "signed char";
    case NN_UINT8: return "unsigned char";
    case NN_BOOL: return "bool";
    default: return nn_dtype_scalar_name(dt);
    }
}

/* hamming: alpha - beta cos(2 pi n / (N - 1)) (hann: alpha = beta = 0.5) */
static nn_tensor *hamming(nn_scratch *s, nn_tensor *n, int64_t len, double alpha, double beta)
{
    nn_tensor *c = NN_KEEP(s, nn_cos(NN_KEEP(s, nn_mul_scalar(n, M_PI * 2. / (double)(len - 1)))));
    return NN_KEEP(s, nn_add_scalar(NN_KEEP(s, nn_mul_scalar(c, -beta)), alpha));
}

/* 0.08 cos(4 w) - 0.5 cos(2 w) + 0.42, w = pi n / (N - 1) */
static nn_tensor *blackman(nn_scratch *s, nn_tensor *n, int64_t len)
{
    nn_tensor *w = NN_KEEP(s, nn_mul_scalar(n, M_PI / (double)(len - 1)));
    nn_tensor *a = NN_KEEP(s, nn_mul_scalar(NN_KEEP(s, nn_cos(NN_KEEP(s, nn_mul_scalar(w, 4)))), 0.08));
    nn_tensor *b = NN_KEEP(s, nn_mul_scalar(NN_KEEP(s, nn_cos(NN_KEEP(s, nn_mul_scalar(w, 2)))), 0.5));
    return NN_KEEP(s, nn_add_scalar(NN_KEEP(s, nn_sub(a, b)), 0.42));
}

/* 2n / (N - 1), its second half (from ((N - 1) >> 1) + 1) as 2 - that */
static nn_tensor *bartlett(nn_scratch *s, nn_tensor *n, int64_t len)
{
    nn_tensor *w = NN_KEEP(s, nn_mul_scalar(n, 2. / (double)(len - 1)));
    int64_t first = ((len - 1) >> 1) + 1;
    nn_tensor *tail = NN_KEEP(s, nn_narrow(w, 0, first, len - first));
    nn_tensor *flipped = NN_KEEP(s, nn_add_scalar(NN_KEEP(s, nn_mul_scalar(tail, -1)), 2));
    if (s->failed || nn_copy_(tail, flipped) < 0) {
        s->failed = true;
        return NULL;
    }
    return w;
}

/* i0(beta sqrt(1 - ((n - alpha) / alpha)^2)) / i0(beta), alpha = (N - 1) / 2, in the dtype */
static nn_tensor *kaiser(nn_scratch *s, nn_tensor *n, int64_t len, double beta)
{
    nn_dtype dt = n->dtype;
    nn_tensor *alpha = NN_KEEP(s, nn_scalar((double)(len - 1) / 2.0, dt)), *b = NN_KEEP(s, nn_scalar(beta, dt));
    nn_tensor *r = NN_KEEP(s, nn_div(NN_KEEP(s, nn_sub(n, alpha)), alpha));
    /* float32: 1 - r^2 in double (C++'s std::pow of a float by an int), rounded once */
    nn_tensor *rd = dt == NN_FLOAT32 ? NN_KEEP(s, nn_to_dtype(r, NN_FLOAT64)) : r;
    nn_tensor *q = NN_KEEP(s, nn_to_dtype(NN_KEEP(s, nn_rsub_scalar(NN_KEEP(s, nn_mul(rd, rd)), 1)), dt));
    nn_tensor *arg = NN_KEEP(s, nn_mul(b, NN_KEEP(s, nn_sqrt(q))));
    return NN_KEEP(s, nn_div(NN_KEEP(s, nn_i0(arg)), NN_KEEP(s, nn_i0(b))));
}

nn_tensor *nn_window(nn_window_kind kind, int64_t length, bool periodic, double alpha, double beta, nn_dtype dtype)
{
    const char *f = window_names[kind];
    if (!nn_dtype_is_floating(dtype))
        return nn_error_set(NN_ERR_RUNTIME,
                            "%s expects floating point dtypes, got: TensorOptions(dtype=%s, device=cpu, layout=Strided "
                            "(default), requires_grad=false (default), pinned_memory=false, memory_format=(nullopt))",
                            f, cpp_type_name(dtype)), NULL;
    if (length < 0) return nn_error_set(NN_ERR_RUNTIME, "%s requires non-negative window_length, got window_length=%lld",
                                        f, (long long)length), NULL;
    if (length == 0) return nn_empty(1, (const int64_t[]){0}, dtype);
    if (length == 1) return nn_ones(1, (const int64_t[]){1}, dtype);
    if (kind == NN_WINDOW_KAISER && dtype == NN_FLOAT16)
        return nn_error_set(NN_ERR_RUNTIME, "\"kaiser_window_cpu\" not implemented for 'Half'"), NULL;
    int64_t len = periodic ? length + 1 : length;
    nn_scratch s = {0};
    nn_tensor *w = NULL, *out = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *n = NN_KEEP(&s, nn_arange(0, (double)len, 1, true, dtype));
        switch (kind) {
        case NN_WINDOW_HANN: w = n ? hamming(&s, n, len, 0.5, 0.5) : NULL; break;
        case NN_WINDOW_HAMMING: w = n ? hamming(&s, n, len, alpha, beta) : NULL; break;
        case NN_WINDOW_BLACKMAN: w = n ? blackman(&s, n, len) : NULL; break;
        case NN_WINDOW_BARTLETT: w = n ? bartlett(&s, n, len) : NULL; break;
        case NN_WINDOW_KAISER: w = n ? kaiser(&s, n, len, beta) : NULL; break;
        }
        /* a tensor of its own (no view of the longer arange), so requires_grad makes a leaf */
        nn_tensor *head = w && periodic ? NN_KEEP(&s, nn_narrow(w, 0, 0, len - 1)) : w;
        out = head ? nn_clone(head) : NULL;
    });
    nn_scratch_free(&s);
    return out;
}
