/*
 * cpu/norm_bf16.c — group_norm's forward on bfloat16 as PyTorch 1.13's CPU kernel
 * computes it: GroupNormKernelImplInternal<BFloat16> runs every step in c10's
 * BFloat16 arithmetic (each operation in float, its result rounded to bfloat16),
 * its RowwiseMoments over Vectorized<BFloat16> (16 lanes in the AVX2 build, each
 * lane operation rounded the same way), eps cast to bfloat16 first. cpu/norm.c's
 * float emulation of RowwiseMoments with every step rounded.
 */
#include <math.h>
#include <string.h>

#include "nn_cpu.h"

#define LANES 16 /* Vectorized<BFloat16>::size() with AVX2 */
#define CHUNK 16
#define MAX_DEPTH 64

/* v rounded to bfloat16 (nearest, ties to even), as a float */
static inline float bf(float v) { return nn_bfloat16_to_float(nn_float_to_bfloat16(v)); }

/* utils::AddMoments / AddMomentsVec in BFloat16 over `lanes` lanes */
static void add_moments(int64_t m0_add, const float *m1_add, const float *m2_add, int64_t *m0, float *m1, float *m2,
                        int lanes)
{
    int64_t n = *m0 + m0_add;
    float c = n == 0 ? 0.0f : bf(bf((float)m0_add) / bf((float)n)), old = bf((float)*m0);
    for (int l = 0; l < lanes; l++) {
        float delta = bf(m1_add[l] - m1[l]);
        m1[l] = bf(m1[l] + bf(c * delta));
        m2[l] = bf(m2[l] + bf(m2_add[l] + bf(bf(bf(delta * delta) * c) * old)));
    }
    *m0 = n;
}

/* utils::RowwiseMomentsImpl<BFloat16>: the mean and the biased variance of x[0..N) */
static void rowwise_moments(const float *x, int64_t N, float *mean, float *var)
{
    const int64_t n = N / LANES, m = (n + CHUNK - 1) / CHUNK;
    int depth = 1; /* CeilLog2(m), 1 for m <= 2 */
    while (((int64_t)1 << depth) < m) depth++;
    int64_t m0_stk[MAX_DEPTH] = {0};
    float m1_stk[MAX_DEPTH][LANES] = {{0}}, m2_stk[MAX_DEPTH][LANES] = {{0}};
    for (int64_t i = 0; i < m; i++) {
        const float *xp = x + i * CHUNK * LANES;
        const int64_t m0 = n - i * CHUNK < CHUNK ? n - i * CHUNK : CHUNK;
        float m1v[LANES] = {0}, m2v[LANES] = {0};
        for (int64_t j = 0; j < m0; j++) {
            float c = bf(1.0f / bf((float)(j + 1)));
            for (int l = 0; l < LANES; l++) {
                float xv = xp[j * LANES + l], delta = bf(xv - m1v[l]);
                m1v[l] = bf(m1v[l] + bf(delta * c));
                m2v[l] = bf(m2v[l] + bf(delta * bf(xv - m1v[l])));
            }
        }
        add_moments(m0, m1v, m2v, &m0_stk[0], m1_stk[0], m2_stk[0], LANES);
        int64_t mask = i + 1;
        for (int j = 1; j < depth && (mask & 1) == 0; j++) {
            add_moments(m0_stk[j - 1], m1_stk[j - 1], m2_stk[j - 1], &m0_stk[j], m1_stk[j], m2_stk[j], LANES);
            m0_stk[j - 1] = 0;
            memset(m1_stk[j - 1], 0, sizeof m1_stk[j - 1]);
            memset(m2_stk[j - 1], 0, sizeof m2_stk[j - 1]);
            mask >>= 1;
        }
    }
    for (int i = 1; i < depth; i++) add_moments(m0_stk[i], m1_stk[i], m2_stk[i], &m0_stk[0], m1_stk[0], m2_stk[0], LANES);
    int64_t m0 = 0;
    float m1 = 0, m2 = 0;
    for (int64_t i = n * LANES; i < N; i++) {
        float delta = bf(x[i] - m1);
        ++m0;
        m1 = bf(m1 + bf(delta / bf((float)m0)));
        m2 = bf(m2 + bf(delta * bf(x[i] - m1)));
    }
    for (int l = 0; l < LANES; l++) add_moments(n, &m1_stk[0][l], &m2_stk[0][l], &m0, &m1, &m2, 1);
    *mean = m1;
    *var = bf(m2 / bf((float)N));
}

int nn_cpu_group_norm_bf16(const uint16_t *x, const uint16_t *w, const uint16_t *b, uint16_t *y, int64_t N, int64_t C,
                           int64_t G, int64_t HW, double eps)
{
    int64_t D = C / G, inner = D * HW;
    float e = bf((float)eps);
    float *row = nn_malloc((size_t)(inner ? inner : 1) * sizeof *row);
    if (!row) return -1;
    for (int64_t i = 0; i < N * G; i++) {
        const uint16_t *xp = x + i * inner;
        uint16_t *yp = y + i * inner;
        for (int64_t j = 0; j < inner; j++) row[j] = nn_bfloat16_to_float(xp[j]);
        float mean = 0, var = 0;
        if (inner) rowwise_moments(row, inner, &mean, &var);
        /* T(1) / std::sqrt(std::max(var, T(0)) + eps): BFloat16's sqrt rounds too */
        float r = bf(1.0f / bf(sqrtf(bf((var > 0 ? var : 0.0f) + e))));
        if (!w && !b) {
            for (int64_t j = 0; j < inner; j++) yp[j] = nn_float_to_bfloat16(bf(row[j] - mean) * r);
            continue;
        }
        int64_t g = i % G;
        for (int64_t j = 0; j < D; j++) {
            int64_t c = g * D + j;
            float scale = bf(r * (w ? nn_bfloat16_to_float(w[c]) : 1.0f));
            float bias = bf(bf(-scale * mean) + (b ? nn_bfloat16_to_float(b[c]) : 0.0f));
            for (int64_t k = 0; k < HW; k++) yp[j * HW + k] = nn_float_to_bfloat16(bf(scale * row[j * HW + k]) + bias);
        }
    }
    nn_free(row);
    return 0;
}
