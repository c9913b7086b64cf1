/*
 * nn_lanes.h — PyTorch's AVX2 lane sums, as plain C (static inline): the
 * softmax kernel (cpu/softmax.c) and nnfunc.c's layer_norm rows use them.
 */
#ifndef NN_LANES_H
#define NN_LANES_H

#include <math.h>
#include <stdint.h>

/* vec::map_reduce_all of PyTorch's AVX2 build: the sum over n of a[j] (times
   b[j], times c[j], each optional) accumulated per vector lane with fused
   multiply-adds, then the lanes combined: by the shuffle tree of
   VecReduceAllSIMD for float, in order for double and for fewer than one
   vector of elements. (Shared by softmax and layer_norm.) */
static inline float lanes_f32(const float *v)
{
    float w[8], u[8];
    for (int i = 0; i < 8; i++) w[i] = v[i] + v[i ^ 4];
    for (int i = 0; i < 8; i++) u[i] = w[i] + w[i ^ 2];
    return u[0] + u[1];
}

static inline double lanes_f64(const double *v) { return ((v[0] + v[1]) + v[2]) + v[3]; }

#define DEFINE_LANE_SUM(SUFFIX, T, LANES, FMA)                                                                \
    static inline T lane_sum_##SUFFIX(const T *a, const T *b, const T *c, int64_t n)                                 \
    {                                                                                                         \
        T acc[LANES] = {0};                                                                                   \
        int64_t lim = n < LANES ? n : LANES;                                                                  \
        for (int64_t l = 0; l < lim; l++) acc[l] = c ? a[l] * b[l] * c[l] : b ? a[l] * b[l] : a[l];           \
        if (n < LANES) {                                                                                      \
            T r = acc[0];                                                                                     \
            for (int64_t l = 1; l < n; l++) r += acc[l];                                                      \
            return r;                                                                                         \
        }                                                                                                     \
        for (int64_t j = LANES; j < n; j++) {                                                                 \
            T *s = &acc[j % LANES];                                                                           \
            *s = c ? FMA(a[j] * b[j], c[j], *s) : b ? FMA(a[j], b[j], *s) : *s + a[j];                         \
        }                                                                                                     \
        return lanes_##SUFFIX(acc);                                                                           \
    }

DEFINE_LANE_SUM(f32, float, 8, fmaf)
DEFINE_LANE_SUM(f64, double, 4, fma)

#endif
