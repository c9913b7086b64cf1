/*
 * cpu/loss.c — the CPU's `loss` kernel (core/kernels.def, nn_loss_op): nll_loss's
 * forward (per-sample or PyTorch's 8-level cascade sum) and its backward's mask;
 * the elementwise losses of losses.c (binary cross entropy, smooth L1, Huber).
 * nnfunc.c validates, lays the operands out contiguous, allocates and records.
 */
#include <math.h>

#include "nn_cpu.h"

/* The summed loss -sum(x[b, target[b]]) over the targets that are not ignored,
   in PyTorch's 8-level cascade (nll_loss_out_frame, nll_loss2d_forward_out_frame)
   in the tensor's precision; *count receives the number summed. */
#define DEFINE_NLL_SUM(SUFFIX, T)                                                                             \
    static T nll_sum_##SUFFIX(const void *xv, const int64_t *tv, int64_t N, int64_t C, int64_t ignore_index,  \
                              double *count, const void *wv)                                                  \
    {                                                                                                         \
        const T *x = xv, *w = wv;                                                                             \
        T wpartial[8] = {0};                                                                                  \
        int ceil_log2 = 1;                                                                                    \
        while (((int64_t)1 << ceil_log2) < N) ceil_log2++;                                                    \
        const int level_power = ceil_log2 / 8 > 4 ? ceil_log2 / 8 : 4;                                        \
        const int64_t level_mask = ((int64_t)1 << level_power) - 1;                                           \
        T partial[8] = {0};                                                                                   \
        int64_t ignored = 0;                                                                                  \
        for (int64_t b = 0; b < N; b++) {                                                                     \
            if (tv[b] == ignore_index) {                                                                      \
                ignored++;                                                                                    \
                continue;                                                                                     \
            }                                                                                                 \
            if (w) {                                                                                          \
                partial[0] -= x[b * C + tv[b]] * w[tv[b]];                                                    \
                wpartial[0] += w[tv[b]];                                                                      \
            } else {                                                                                          \
                partial[0] -= x[b * C + tv[b]];                                                               \
            }                                                                                                 \
            for (int j = 0; j + 1 < 8; j++) {                                                                 \
                if ((b & (level_mask << (j * level_power))) != 0) break;                                      \
                partial[j + 1] += partial[j];                                                                 \
                partial[j] = 0;                                                                               \
                wpartial[j + 1] += wpartial[j];                                                               \
                wpartial[j] = 0;                                                                              \
            }                                                                                                 \
        }                                                                                                     \
        T total = 0, wtotal = 0;                                                                              \
        for (int j = 0; j < 8; j++) total += partial[j];                                                      \
        for (int j = 0; j < 8; j++) wtotal += wpartial[j];                                                    \
        *count = w ? (double)wtotal : (double)(N - ignored);                                                  \
        return total;                                                                                         \
    }

DEFINE_NLL_SUM(f32, float)
DEFINE_NLL_SUM(f64, double)

/* v rounded to dtype's precision (for half and bfloat16 arithmetic). */
static double round_to(nn_dtype dt, double v)
{
    char buf[8];
    nn_store_double(buf, dt, v);
    return nn_load_double(buf, dt);
}

typedef struct mse_ctx {
    nn_dtype dt;
} mse_ctx;

/* (a - b)^2 elementwise in the tensors' dtype (half rounds after each step, as PyTorch's half arithmetic) */
static void mse_loop(char **d, const int64_t *s, int64_t n, void *vctx)
{
    nn_dtype dt = ((mse_ctx *)vctx)->dt;
    for (int64_t i = 0; i < n; i++) {
        char *o = d[0] + i * s[0];
        const char *a = d[1] + i * s[1], *b = d[2] + i * s[2];
        if (dt == NN_FLOAT32) {
            float diff = *(const float *)a - *(const float *)b;
            *(float *)o = diff * diff;
        } else if (dt == NN_FLOAT64) {
            double diff = *(const double *)a - *(const double *)b;
            *(double *)o = diff * diff;
        } else {
            double diff = round_to(dt, nn_load_double(a, dt) - nn_load_double(b, dt));
            nn_store_double(o, dt, diff * diff);
        }
    }
}



/* binary_cross_entropy's elementwise loss, log terms clamped at -100 */
#define BCE_KERNEL(T, LOG)                                                                                             \
    static int bce_kernel_##T(const T *x, const T *t, T *y, int64_t n)                                                \
    {                                                                                                                  \
        for (int64_t i = 0; i < n; i++) {                                                                              \
            T xv = x[i], tv = t[i];                                                                                    \
            if (!(xv >= 0 && xv <= 1))                                                                                 \
                return nn_error_set(NN_ERR_RUNTIME, "all elements of input should be between 0 and 1");               \
            T l1 = LOG((T)1 - xv), lx = LOG(xv);                                                                       \
            if (l1 < (T)-100) l1 = (T)-100;                                                                            \
            if (lx < (T)-100) lx = (T)-100;                                                                            \
            T a = (tv - (T)1) * l1, b = tv * lx;                                                                       \
            y[i] = a - b;                                                                                              \
        }                                                                                                              \
        return 0;                                                                                                      \
    }
BCE_KERNEL(float, logf)
BCE_KERNEL(double, log)

/* smooth L1 (or Huber) of x - t with beta (delta) */
#define SMOOTH_KERNEL(T)                                                                                               \
    static void smooth_kernel_##T(const T *x, const T *t, T *y, int64_t n, T beta, bool huber)                        \
    {                                                                                                                  \
        for (int64_t i = 0; i < n; i++) {                                                                              \
            T z = x[i] - t[i];                                                                                         \
            z = z < 0 ? -z : z;                                                                                        \
            if (huber) y[i] = z < beta ? (T)0.5 * z * z : beta * (z - (T)0.5 * beta);                                  \
            else y[i] = z < beta ? (T)0.5 * z * z / beta : z - (T)0.5 * beta;                                          \
        }                                                                                                              \
    }
SMOOTH_KERNEL(float)
SMOOTH_KERNEL(double)

static int nll_forward(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *x = a->t[1], *tg = a->t[2], *wd = a->t[3];
    int64_t N = a->i[0], C = a->i[1], ignore_index = a->i[2];
    nn_reduction reduction = (nn_reduction)a->i[3];
    nn_dtype kd = x->dtype;
    const void *wv = wd ? nn_data_ptr(wd) : NULL;
    const int64_t *tv = nn_data_ptr(tg);
    const char *xv = nn_data_ptr(x);
    size_t es = nn_dtype_size(kd);
    for (int64_t b = 0; b < N; b++)
        if (tv[b] != ignore_index && (tv[b] < 0 || tv[b] >= C))
            return nn_error_set(NN_ERR_INDEX, "Target %lld is out of bounds.", (long long)tv[b]);
    double total_weight = 0;
    if (reduction == NN_REDUCTION_NONE) {
        /* per-sample losses, 0 where ignored */
        for (int64_t b = 0; b < N; b++) {
            double v = 0;
            if (tv[b] != ignore_index) {
                double wt = wv ? nn_load_double((const char *)wv + (size_t)tv[b] * es, kd) : 1.0;
                v = -nn_load_double(xv + (size_t)(b * C + tv[b]) * es, kd) * wt;
                if (kd == NN_FLOAT32) v = (float)v;
                total_weight += wt;
            }
            nn_store_double((char *)out->storage->data + (size_t)b * es, kd, v);
        }
    } else {
        double v = kd == NN_FLOAT32 ? nll_sum_f32(xv, tv, N, C, ignore_index, &total_weight, wv)
                                    : nll_sum_f64(xv, tv, N, C, ignore_index, &total_weight, wv);
        if (reduction == NN_REDUCTION_MEAN) v = round_to(kd, v / total_weight);
        nn_store_double(nn_data_ptr(out), kd, v);
    }
    a->host[0] = total_weight;
    return 0;
}

int nn_cpu_loss(nn_loss_op op, nn_kernel_args *a)
{
    switch (op) {
    case NN_LOSS_NLL: return nll_forward(a);
    case NN_LOSS_NLL_MASK: {
        const int64_t *tv = nn_data_ptr(a->t[2]);
        uint8_t *mv = a->t[0]->storage->data;
        int64_t N = a->i[0], C = a->i[1], ignore_index = a->i[2];
        for (int64_t b = 0; b < N; b++)
            if (tv[b] != ignore_index) mv[b * C + tv[b]] = 1;
        return 0;
    }
    case NN_LOSS_MSE: {
        mse_ctx ctx = {a->t[0]->dtype};
        const nn_tensor *ops[3] = {a->t[0], a->t[1], a->t[2]};
        return nn_cpu_map(3, ops, mse_loop, &ctx, true);
    }
    case NN_LOSS_BCE: {
        nn_tensor *raw = a->t[0];
        const nn_tensor *xc = a->t[1], *tc = a->t[2];
        return raw->dtype == NN_FLOAT32 ? bce_kernel_float(nn_data_ptr(xc), nn_data_ptr(tc), nn_data_ptr(raw), nn_numel(raw))
                                        : bce_kernel_double(nn_data_ptr(xc), nn_data_ptr(tc), nn_data_ptr(raw), nn_numel(raw));
    }
    case NN_LOSS_SMOOTH_L1:
    case NN_LOSS_HUBER: {
        nn_tensor *raw = a->t[0];
        const nn_tensor *xc = a->t[1], *tc = a->t[2];
        bool huber = op == NN_LOSS_HUBER;
        if (raw->dtype == NN_FLOAT32)
            smooth_kernel_float(nn_data_ptr(xc), nn_data_ptr(tc), nn_data_ptr(raw), nn_numel(raw), (float)a->d[0], huber);
        else
            smooth_kernel_double(nn_data_ptr(xc), nn_data_ptr(tc), nn_data_ptr(raw), nn_numel(raw), a->d[0], huber);
        return 0;
    }
    }
    return nn_error_set(NN_ERR_RUNTIME, "loss kernel: unknown op code %d", (int)op);
}
