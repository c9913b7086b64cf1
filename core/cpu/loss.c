/*
 * cpu/loss.c — the CPU's `loss` kernel (core/kernels.def, nn_loss_op): nll_loss's
 * forward (per-sample or PyTorch's 8-level cascade sum) and its backward's mask.
 * nnfunc.c validates, lays the operands out contiguous, allocates and records.
 */
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

/* The rounding of v to dt's precision (float32 or float64). */
static double round_to(nn_dtype dt, double v) { return dt == NN_FLOAT32 ? (double)(float)v : v; }

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
    }
    return nn_error_set(NN_ERR_RUNTIME, "loss kernel: unknown op code %d", (int)op);
}
