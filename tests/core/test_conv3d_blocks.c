/*
 * test_conv3d_blocks.c — core/cpu/conv3d.c runs the forward of a large sample a
 * block of output depths at a time (conv3d_by_depths). Its bits must be those
 * of the whole sample's product: the columns of every receptive field, written
 * out here, times the weight in one GEMM (N = OD*OH*OW, the one GEMM site), plus
 * the bias. Shapes: the bench's 16 -> 32 channels over 16x32x32, channel
 * counts that make the block's N come from the output channels or from the
 * M*N*K floor, a depth count that leaves a longer last block, groups, strides
 * and dilation; float32 and float64; at 1 and 3 pool threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "nn_conv3d.h"
#include "cpu/nn_cpu.h"

typedef struct shape {
    int64_t n, c, d, h, w, o, k, stride, pad, dil, groups;
} shape;

static int64_t out_len(int64_t in, int64_t k, int64_t stride, int64_t pad, int64_t dil)
{
    return (in + 2 * pad - dil * (k - 1) - 1) / stride + 1;
}

/* y[n] = W @ cols(x[n]) + b, element type T, as the unblocked forward computes it */
#define DEFINE_REFERENCE(SUFFIX, T)                                                                               \
    static void reference_##SUFFIX(const shape *s, const T *x, const T *w, const T *b, T *y)                     \
    {                                                                                                             \
        int64_t od = out_len(s->d, s->k, s->stride, s->pad, s->dil), oh = out_len(s->h, s->k, s->stride, s->pad, s->dil), \
                ow = out_len(s->w, s->k, s->stride, s->pad, s->dil), P = od * oh * ow;                            \
        int64_t cg = s->c / s->groups, og = s->o / s->groups, K = cg * s->k * s->k * s->k;                        \
        T *cols = malloc(sizeof(T) * (size_t)(s->c * s->k * s->k * s->k * P));                                    \
        assert_non_null(cols);                                                                                    \
        for (int64_t n = 0; n < s->n; n++) {                                                                      \
            int64_t r = 0;                                                                                        \
            for (int64_t c = 0; c < s->c; c++)                                                                    \
                for (int64_t a = 0; a < s->k; a++)                                                                \
                    for (int64_t kk = 0; kk < s->k; kk++)                                                         \
                        for (int64_t l = 0; l < s->k; l++, r++)                                                   \
                            for (int64_t z = 0; z < od; z++)                                                      \
                                for (int64_t i = 0; i < oh; i++)                                                  \
                                    for (int64_t q = 0; q < ow; q++) {                                            \
                                        int64_t dz = z * s->stride - s->pad + a * s->dil,                         \
                                                dy = i * s->stride - s->pad + kk * s->dil,                        \
                                                dx = q * s->stride - s->pad + l * s->dil;                         \
                                        bool in = dz >= 0 && dz < s->d && dy >= 0 && dy < s->h && dx >= 0 && dx < s->w; \
                                        cols[r * P + (z * oh + i) * ow + q] =                                     \
                                            in ? x[(((n * s->c + c) * s->d + dz) * s->h + dy) * s->w + dx] : 0;   \
                                    }                                                                             \
            for (int64_t g = 0; g < s->groups; g++)                                                               \
                assert_int_equal(nn_cpu_blas_gemm(sizeof(T) == 4 ? NN_FLOAT32 : NN_FLOAT64, false, false, og, P, K, \
                                                  w + g * og * K, K, cols + g * K * P, P, 0.0,                    \
                                                  y + (n * s->o + g * og) * P, P),                                \
                                 0);                                                                              \
            for (int64_t o = 0; o < s->o; o++)                                                                    \
                for (int64_t p = 0; p < P; p++) y[(n * s->o + o) * P + p] = y[(n * s->o + o) * P + p] + b[o];     \
        }                                                                                                         \
        free(cols);                                                                                               \
    }
DEFINE_REFERENCE(f32, float)
DEFINE_REFERENCE(f64, double)

static void check_shape(const shape *s, nn_dtype dt)
{
    nn_generator_seed(nn_default_generator(), 7);
    int64_t xs[5] = {s->n, s->c, s->d, s->h, s->w}, ws[5] = {s->o, s->c / s->groups, s->k, s->k, s->k}, bs[1] = {s->o};
    nn_tensor *x = nn_randn(5, xs, dt), *w = nn_randn(5, ws, dt), *b = nn_randn(1, bs, dt);
    assert_non_null(x);
    assert_non_null(w);
    assert_non_null(b);
    int64_t st[3] = {s->stride, s->stride, s->stride}, pd[3] = {s->pad, s->pad, s->pad}, dl[3] = {s->dil, s->dil, s->dil};
    nn_tensor *y = nn_conv3d(x, w, b, st, pd, dl, s->groups);
    assert_non_null(y);
    size_t es = nn_dtype_size(dt), bytes = (size_t)nn_numel(y) * es;
    void *want = malloc(bytes);
    assert_non_null(want);
    if (dt == NN_FLOAT32)
        reference_f32(s, nn_data_ptr(x), nn_data_ptr(w), nn_data_ptr(b), want);
    else
        reference_f64(s, nn_data_ptr(x), nn_data_ptr(w), nn_data_ptr(b), want);
    if (memcmp(want, nn_data_ptr(y), bytes) != 0)
        fail_msg("conv3d %lldx%lldx%lldx%lldx%lld -> %lld k%lld s%lld p%lld d%lld g%lld (%s): not the whole product's bits",
                 (long long)s->n, (long long)s->c, (long long)s->d, (long long)s->h, (long long)s->w, (long long)s->o,
                 (long long)s->k, (long long)s->stride, (long long)s->pad, (long long)s->dil, (long long)s->groups,
                 dt == NN_FLOAT32 ? "float32" : "float64");
    free(want);
    NN_RELEASE(y);
    NN_RELEASE(x);
    NN_RELEASE(w);
    NN_RELEASE(b);
}

static const shape shapes[] = {
    {2, 16, 16, 32, 32, 32, 3, 1, 1, 1, 1},   /* the bench's layer (2 samples): blocks of one depth */
    {1, 8, 8, 32, 32, 128, 3, 1, 1, 1, 1},    /* many output channels */
    {1, 16, 13, 20, 20, 2000, 1, 1, 0, 1, 1}, /* N from the output channels; 13 depths: a longer last block */
    {1, 8, 12, 32, 32, 16, 3, 1, 1, 1, 1},    /* N from the M*N*K floor: blocks of three depths */
    {1, 32, 20, 30, 30, 64, 3, 2, 2, 2, 2},   /* stride, dilation, groups */
    {1, 4, 9, 64, 64, 5, 2, 1, 1, 1, 1},      /* a product under the floor: one block (depth blocks would sum in another order) */
    {3, 5, 8, 8, 8, 4, 3, 1, 1, 1, 1},        /* small: the unblocked path */
};

static void test_blocks_match_whole_product(void **st)
{
    (void)st;
    int keep = nn_get_num_threads();
    for (int t = 1; t <= 3; t += 2) {
        nn_set_num_threads(t);
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            check_shape(&shapes[i], NN_FLOAT32);
            check_shape(&shapes[i], NN_FLOAT64);
        }
    }
    nn_set_num_threads(keep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_match_whole_product),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
