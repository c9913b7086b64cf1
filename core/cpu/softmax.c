/*
 * cpu/softmax.c — the CPU's `softmax` kernel (core/kernels.def): softmax and
 * log_softmax along one dim, forward and backward, float32 as PyTorch 1.13's
 * AVX2 kernels compute them (the last dim's forward through cpu/vmath.c),
 * float64 plainly. nnfunc.c lays the tensors out contiguous, allocates and
 * records.
 */
#include <math.h>
#include <stdint.h>

#include "nn_cpu.h"
#include "nn_lanes.h"
#include "nn_vmath.h"

/* Sleef_expf8_u10 (PyTorch's Vectorized<float>::exp on AVX2), one lane. */
static float sleef_expf(float d)
{
    if (isnan(d)) return d;
    if (d < -104) return 0; /* Sleef's own range limits, checked first so the */
    if (d > 100) return INFINITY; /* integer steps below stay in range */
    int q = (int)rintf(d * 1.442695040888963407359924681001892137426645954152985934135449406931f);
    float s = fmaf((float)q, -0.693145751953125f, d);
    s = fmaf((float)q, -1.428606765330187045e-06f, s);
    float u = 0.000198527617612853646278381f;
    u = fmaf(u, s, 0.00139304355252534151077271f);
    u = fmaf(u, s, 0.00833336077630519866943359f);
    u = fmaf(u, s, 0.0416664853692054748535156f);
    u = fmaf(u, s, 0.166666671633720397949219f);
    u = fmaf(u, s, 0.5f);
    u = 1.0f + fmaf(s * s, u, s);
    /* u * 2^q in two steps, as Sleef's vldexp2 */
    union { int32_t i; float f; } p1 = {.i = ((q >> 1) + 0x7f) << 23}, p2 = {.i = ((q - (q >> 1)) + 0x7f) << 23};
    return u * p1.f * p2.f;
}

/* float32 softmax as PyTorch 1.13's AVX2 kernels. Last dim: Sleef exp, lane
   sums, times 1/sum; log_softmax (x - max) - log(sum). Other dims: blocks of
   8 positions along the inner dims run vectorised (Sleef exp), the rest
   scalar (libm expf/logf); sums run along the dim in order; divide by sum. */
static void softmax_fwd_f32(const float *x, float *y, int64_t outer, int64_t n, int64_t inner, bool is_log,
                            bool lastdim)
{
    if (lastdim) {
        for (int64_t o = 0; o < outer; o++) {
            const float *xr = x + o * n;
            float *yr = y + o * n;
            if (n == 0) continue;
            float mx = xr[0];
            for (int64_t k = 1; k < n; k++)
                if (xr[k] > mx || isnan(xr[k])) mx = isnan(mx) ? mx : xr[k];
            for (int64_t k = 0; k < n; k++) yr[k] = sleef_expf(xr[k] - mx);
            float sum = lane_sum_f32(yr, NULL, NULL, n);
            if (is_log) {
                float ls = (float)log((double)sum);
                for (int64_t k = 0; k < n; k++) yr[k] = (xr[k] - mx) - ls;
            } else {
                float inv = 1 / sum;
                for (int64_t k = 0; k < n; k++) yr[k] = yr[k] * inv;
            }
        }
        return;
    }
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            bool vec = (i / 8) * 8 + 8 <= inner;
            const float *xr = x + o * n * inner + i;
            float *yr = y + o * n * inner + i;
            if (n == 0) continue;
            float mx = xr[0];
            for (int64_t k = 1; k < n; k++) {
                float v = xr[k * inner];
                if (vec) mx = isnan(mx) || isnan(v) ? NAN : v > mx ? v : mx; /* vec::maximum */
                else mx = mx < v ? v : mx;                                    /* std::max */
            }
            float sum = 0;
            for (int64_t k = 0; k < n; k++) {
                float d = xr[k * inner] - mx, e = vec ? sleef_expf(d) : expf(d);
                yr[k * inner] = e;
                sum += e;
            }
            if (is_log) {
                float ls = vec ? (float)log((double)sum) : logf(sum);
                for (int64_t k = 0; k < n; k++) yr[k * inner] = xr[k * inner] - mx - ls;
            } else {
                for (int64_t k = 0; k < n; k++) yr[k * inner] = yr[k * inner] / sum;
            }
        }
}

/* Backward, float32, as PyTorch: softmax (g - sum(g * y)) * y, log_softmax
   g - exp(y) * sum(g) (fused); lane sums on the last dim, in-order sums otherwise. */
static void softmax_bwd_f32(const float *g, const float *y, float *gi, int64_t outer, int64_t n, int64_t inner,
                            bool is_log, bool lastdim)
{
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            int64_t base = o * n * inner + i;
            bool vec = lastdim || (i / 8) * 8 + 8 <= inner;
            float s = 0;
            if (lastdim) {
                s = is_log ? lane_sum_f32(g + base, NULL, NULL, n) : lane_sum_f32(g + base, y + base, NULL, n);
            } else {
                for (int64_t k = 0; k < n; k++) {
                    int64_t j = base + k * inner;
                    s = is_log ? s + g[j] : fmaf(g[j], y[j], s);
                }
            }
            for (int64_t k = 0; k < n; k++) {
                int64_t j = base + k * inner;
                gi[j] = is_log ? fmaf(-(vec ? sleef_expf(y[j]) : expf(y[j])), s, g[j]) : (g[j] - s) * y[j];
            }
        }
}

/* float64: the same formulas, computed plainly (exp and log of libm, sums in order). */
static void softmax_fwd_f64(const double *x, double *y, int64_t outer, int64_t n, int64_t inner, bool is_log,
                            bool lastdim)
{
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            const double *xr = x + o * n * inner + i;
            double *yr = y + o * n * inner + i;
            double mx = -INFINITY, sum = 0;
            for (int64_t k = 0; k < n; k++) {
                double v = xr[k * inner];
                if (v > mx || isnan(v)) mx = isnan(mx) ? mx : v;
            }
            for (int64_t k = 0; k < n; k++) {
                double e = exp(xr[k * inner] - mx);
                if (!is_log) yr[k * inner] = e;
                sum += e;
            }
            double ls = log(sum), inv = 1 / sum;
            for (int64_t k = 0; k < n; k++)
                yr[k * inner] = is_log ? (xr[k * inner] - mx) - ls : lastdim ? yr[k * inner] * inv : yr[k * inner] / sum;
        }
}

static void softmax_bwd_f64(const double *g, const double *y, double *gi, int64_t outer, int64_t n, int64_t inner,
                            bool is_log, bool lastdim)
{
    (void)lastdim;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            int64_t base = o * n * inner + i;
            double s = 0;
            for (int64_t k = 0; k < n; k++) s += is_log ? g[base + k * inner] : g[base + k * inner] * y[base + k * inner];
            for (int64_t k = 0; k < n; k++) {
                int64_t j = base + k * inner;
                gi[j] = is_log ? g[j] - exp(y[j]) * s : (g[j] - s) * y[j];
            }
        }
}

/* One softmax kernel call cut into blocks of outer rows over the pool's threads
   (parallel.c); each row is computed as on one thread. */
typedef struct softmax_job {
    bool f32, is_log, lastdim, bwd;
    const char *a, *b; /* forward: x; backward: g and y */
    char *out;
    int64_t n, inner;
} softmax_job;

static void softmax_rows(void *vctx, int64_t begin, int64_t end)
{
    const softmax_job *j = vctx;
    size_t off = (size_t)(begin * j->n * j->inner) * (j->f32 ? sizeof(float) : sizeof(double));
    const char *a = j->a + off, *b = j->bwd ? j->b + off : NULL;
    char *out = j->out + off;
    int64_t rows = end - begin;
    if (j->f32 && j->bwd)
        softmax_bwd_f32((const float *)a, (const float *)b, (float *)out, rows, j->n, j->inner, j->is_log, j->lastdim);
    else if (j->f32)
        softmax_fwd_f32((const float *)a, (float *)out, rows, j->n, j->inner, j->is_log, j->lastdim);
    else if (j->bwd)
        softmax_bwd_f64((const double *)a, (const double *)b, (double *)out, rows, j->n, j->inner, j->is_log, j->lastdim);
    else
        softmax_fwd_f64((const double *)a, (double *)out, rows, j->n, j->inner, j->is_log, j->lastdim);
}


int nn_cpu_softmax(bool is_log, bool backward, bool lastdim, int64_t outer, int64_t n, int64_t inner, nn_tensor *out,
                   const nn_tensor *a, const nn_tensor *b)
{
    softmax_job job = {out->dtype == NN_FLOAT32, is_log, lastdim, backward, nn_data_ptr(a), b ? nn_data_ptr(b) : NULL,
                       nn_data_ptr(out), n, inner};
    softmax_job *j = &job;
    /* float32 forward on the last dim: the AVX2 kernels themselves (cpu/vmath.c) */
    if (j->f32 && !j->bwd && j->lastdim &&
        nn_vmath_softmax_lastdim_f32((const float *)j->a, (float *)j->out, outer, j->n, j->is_log))
        return 0;
    int64_t row = j->n * j->inner; /* rows of about NN_GRAIN elements a chunk */
    nn_parallel_for(outer, row > 0 && row < NN_GRAIN ? NN_GRAIN / row : 1, softmax_rows, j);
    return 0;
}
