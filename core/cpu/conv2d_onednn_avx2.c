/*
 * cpu/conv2d_onednn_avx2.c — conv2d_onednn.c's sums with 8 channels to an
 * AVX2 vector, as oneDNN's jit:avx2 kernels hold them: the output channels of
 * a run of output pixels (forward), the input channels of a run of input
 * pixels (input gradient), the output channels of a few weight taps (weight
 * gradient). Each vector lane is one output element's chain, fed its terms in
 * conv2d_onednn.c's order by fused multiply-adds, so the bits are those of the
 * portable loops there; the accumulators stay in registers across the terms.
 * A term in the padding is skipped (the pixel's test is the same for all 8 lanes).
 */
#include <string.h>

#include "nn_conv_onednn.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))
#define INLINE_AVX2 __attribute__((target("avx2,fma"), always_inline)) static inline
#define UR 8 /* pixels a tile */

bool nn_conv_onednn_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/* The pixels [*ua, *ub) of the tile [q0, q0 + ur) whose tap reads index
   (q0 + u) * stride + off inside [0, size) (stride 1 or 2+; the divisibility
   of a strided gather is the caller's). */
static inline void tile_inside(int64_t q0, int64_t ur, int64_t stride, int64_t off, int64_t size, int *ua, int *ub)
{
    int64_t lo, hi;
    nn_conv_inside(off + q0 * stride, stride, size, ur, &lo, &hi);
    *ua = (int)lo, *ub = (int)hi;
}

/* One row of a tile's terms: a block of kb summed channels at one kh; its
   weights (8 a term, in term order) at w, its first channel's row at x. */
typedef struct tile_row {
    const float *w, *x;
    int64_t kb;
} tile_row;

#define ROWS 16 /* rows a tile_sum call takes */

/* The accumulators are eight named locals, one a pixel, not an array: GCC
   keeps an array of vectors on the stack, and each fma then waits on a store
   and a load. */
#define PIXELS(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define ACC_LOAD(u) __m256 acc##u = _mm256_loadu_ps(out + (u) * NN_CONV_BLOCK);
#define ACC_STORE(u) _mm256_storeu_ps(out + (u) * NN_CONV_BLOCK, acc##u);
#define FMA_ALL(u) acc##u = _mm256_fmadd_ps(wv, _mm256_broadcast_ss(src + (u) * step), acc##u);
#define FMA_IN(u) \
    if ((u) >= a && (u) < b) FMA_ALL(u)

/* out[u, 0..7] (the tile's pixel u, 8 lane channels) plus the terms of rows
   [0, n) in order: for each row, kw, channel c of its block: out[u] = fma(the
   next 8 weights, src[u * step], out[u]) with src = the row's x + kw * kw_step
   + c * area; every pixel (full) or the tap's pixels [ua[kw], ub[kw]). */
INLINE_AVX2 void tile_sum(float *out, const tile_row *rows, int64_t n, int64_t kws, int64_t kw_step, int64_t area,
                          int64_t step, const int *ua, const int *ub, bool full)
{
    PIXELS(ACC_LOAD)
    for (int64_t r = 0; r < n; r++) {
        const float *wp = rows[r].w;
        for (int64_t kw = 0; kw < kws; kw++) {
            const float *src = rows[r].x + kw * kw_step;
            int a = full ? 0 : ua[kw], b = full ? UR : ub[kw];
            for (int64_t c = 0; c < rows[r].kb; c++, wp += NN_CONV_BLOCK, src += area) {
                __m256 wv = _mm256_loadu_ps(wp);
                if (full) {
                    PIXELS(FMA_ALL)
                } else {
                    PIXELS(FMA_IN)
                }
            }
        }
    }
    PIXELS(ACC_STORE)
}

/* tile_sum's three kinds: every pixel at unit stride (the common one, whose
   loads the compiler can fold), every pixel at any stride, the tap's pixels. */
AVX2 static void tile_sum_unit(float *out, const tile_row *rows, int64_t n, int64_t kws, int64_t kw_step, int64_t area)
{
    tile_sum(out, rows, n, kws, kw_step, area, 1, NULL, NULL, true);
}

AVX2 static void tile_sum_full(float *out, const tile_row *rows, int64_t n, int64_t kws, int64_t kw_step, int64_t area,
                               int64_t step)
{
    tile_sum(out, rows, n, kws, kw_step, area, step, NULL, NULL, true);
}

AVX2 static void tile_sum_edge(float *out, const tile_row *rows, int64_t n, int64_t kws, int64_t kw_step, int64_t area,
                               int64_t step, const int *ua, const int *ub)
{
    tile_sum(out, rows, n, kws, kw_step, area, step, ua, ub, false);
}

/* The pixels of tap kw that lie inside, for kws taps: [ua[kw], ub[kw]); whether all UR do for every tap. */
static bool tile_taps(int64_t q0, int64_t ur, int64_t stride, int64_t off, int64_t kw_step, int64_t size, int64_t kws,
                      int *ua, int *ub)
{
    bool full = true;
    for (int64_t kw = 0; kw < kws; kw++) {
        tile_inside(q0, ur, stride, off + kw * kw_step, size, &ua[kw], &ub[kw]);
        full = full && ua[kw] == 0 && ub[kw] == UR;
    }
    return full;
}

/* out plus the rows' terms through the kind of tile_sum that fits. */
static void tile_rows(float *out, const tile_row *rows, int64_t n, int64_t kws, int64_t kw_step, int64_t area, int64_t step,
                      const int *ua, const int *ub, bool full)
{
    if (full && step == 1)
        tile_sum_unit(out, rows, n, kws, kw_step, area);
    else if (full)
        tile_sum_full(out, rows, n, kws, kw_step, area, step);
    else
        tile_sum_edge(out, rows, n, kws, kw_step, area, step, ua, ub);
}

/* The tile's pixels [0, ur) of lanes [0, lanes) from out to dst: lane l's run at dst + l * plane. */
static void store_tile(const float *out, int64_t ur, float *dst, int64_t plane, int64_t lanes)
{
    for (int64_t l = 0; l < lanes; l++)
        for (int64_t u = 0; u < ur; u++) dst[l * plane + u] = out[u * NN_CONV_BLOCK + l];
}

/* y[n, ob .. ob+7, i, q0 .. q0+ur-1] (ur <= UR): from the bias, for each block
   of input channels, kh, kw, channel: fma(w, x, acc), skipping the padding. */
static void forward_tile(const nn_conv_job *j, int64_t n, int64_t ob, int64_t i, int64_t q0, int64_t ur)
{
    const nn_conv_geom *s = j->s;
    int64_t sw = s->stride[1], offh = i * s->stride[0] - s->padding[0], taps = s->kh * s->kw;
    int64_t kh0 = offh < 0 ? -offh : 0, kh1 = s->h - offh < s->kh ? s->h - offh : s->kh;
    int ua[16], ub[16];
    bool full = tile_taps(q0, ur, sw, -s->padding[1], 1, s->w, s->kw, ua, ub);
    float out[UR * NN_CONV_BLOCK];
    for (int u = 0; u < UR; u++) memcpy(out + u * NN_CONV_BLOCK, j->bp + ob, sizeof(float) * NN_CONV_BLOCK);
    tile_row rows[ROWS];
    int64_t n_rows = 0;
    for (int64_t c0 = 0; c0 < s->c; c0 += NN_CONV_BLOCK) {
        int64_t kb = s->c - c0 < NN_CONV_BLOCK ? s->c - c0 : NN_CONV_BLOCK;
        for (int64_t kh = kh0; kh < kh1; kh++) {
            rows[n_rows++] = (tile_row){j->wt + (ob / NN_CONV_BLOCK * s->c * taps + c0 * taps + kh * s->kw * kb) * NN_CONV_BLOCK,
                                        j->x + ((n * s->c + c0) * s->h + offh + kh) * s->w + q0 * sw - s->padding[1], kb};
            if (n_rows == ROWS) tile_rows(out, rows, n_rows, s->kw, 1, s->h * s->w, sw, ua, ub, full), n_rows = 0;
        }
    }
    tile_rows(out, rows, n_rows, s->kw, 1, s->h * s->w, sw, ua, ub, full);
    store_tile(out, ur, j->y + ((n * s->o + ob) * s->oh + i) * s->ow + q0, s->oh * s->ow,
               s->o - ob < NN_CONV_BLOCK ? s->o - ob : NN_CONV_BLOCK);
}

/* The tiles of a row of `size` pixels: UR at a time, the last one moved back
   to end at the row's end (it recomputes a few pixels, to the same bits). */
#define FOR_TILES(q0, ur, size)                                                                                  \
    for (int64_t q0 = 0, ur = (size) < UR ? (size) : UR; q0 < (size);                                            \
         q0 = q0 + UR >= (size) ? (size) : q0 + UR + UR > (size) ? (size) - UR : q0 + UR)

void nn_conv_onednn_forward_avx2(void *job, int64_t begin, int64_t end)
{
    const nn_conv_job *j = job;
    for (int64_t n = begin; n < end; n++)
        for (int64_t ob = 0; ob < j->s->o; ob += NN_CONV_BLOCK)
            for (int64_t i = 0; i < j->s->oh; i++) FOR_TILES(q0, ur, j->s->ow) forward_tile(j, n, ob, i, q0, ur);
}

/* One group's part of gx[n, cb .. cb+7, ih, q0 .. q0+ur-1] at stride 2+: for
   each block of output channels in [g0, g1), kh, kw, channel: fma(w, gy, acc)
   into out, where pixel u's column q0 + u + pw - kw divides by the stride. */
AVX2 static void input_grad_strided(const nn_conv_job *j, int64_t n, int64_t cb, int64_t ih, int64_t q0, int64_t ur,
                                    int64_t g0, int64_t g1, float *out)
{
    const nn_conv_geom *s = j->s;
    int64_t sh = s->stride[0], sw = s->stride[1], taps = s->kh * s->kw, area = s->oh * s->ow;
    PIXELS(ACC_LOAD)
    for (int64_t o0 = g0; o0 < g1; o0 += NN_CONV_BLOCK) {
        int64_t kb = g1 - o0 < NN_CONV_BLOCK ? g1 - o0 : NN_CONV_BLOCK;
        for (int64_t kh = 0; kh < s->kh; kh++) {
            int64_t t = ih + s->padding[0] - kh;
            if (t < 0 || t % sh || t / sh >= s->oh) continue;
            const float *wp = j->wtc + (cb / NN_CONV_BLOCK * s->o * taps + o0 * taps + kh * s->kw * kb) * NN_CONV_BLOCK;
            for (int64_t kw = 0; kw < s->kw; kw++) {
                int64_t v0 = q0 + s->padding[1] - kw;
                const float *g = j->gy + ((n * s->o + o0) * s->oh + t / sh) * s->ow;
                for (int64_t o = 0; o < kb; o++, wp += NN_CONV_BLOCK, g += area) {
                    __m256 wv = _mm256_loadu_ps(wp);
#define FMA_STRIDED(u)                                                                                           \
    if ((u) < ur && v0 + (u) >= 0 && (v0 + (u)) % sw == 0 && (v0 + (u)) / sw < s->ow)                             \
        acc##u = _mm256_fmadd_ps(wv, _mm256_broadcast_ss(g + (v0 + (u)) / sw), acc##u);
                    PIXELS(FMA_STRIDED)
#undef FMA_STRIDED
                }
            }
        }
    }
    PIXELS(ACC_STORE)
}

/* One group's part of gx[n, cb .. cb+7, ih, q0 .. q0+ur-1]: for each block of
   output channels in [g0, g1), kh, kw, channel: fma(w, gy, acc) into out. */
static void input_grad_group(const nn_conv_job *j, int64_t n, int64_t cb, int64_t ih, int64_t q0, int64_t ur, int64_t g0,
                             int64_t g1, float *out)
{
    const nn_conv_geom *s = j->s;
    if (s->stride[1] > 1) {
        input_grad_strided(j, n, cb, ih, q0, ur, g0, g1, out);
        return;
    }
    /* pixel u reads gy column q0 + u + pw - kw where that lies inside */
    int64_t sh = s->stride[0], taps = s->kh * s->kw, pw = s->padding[1];
    int ua[16], ub[16];
    bool full = tile_taps(q0, ur, 1, pw, -1, s->ow, s->kw, ua, ub);
    tile_row rows[ROWS];
    int64_t n_rows = 0;
    for (int64_t o0 = g0; o0 < g1; o0 += NN_CONV_BLOCK) {
        int64_t kb = g1 - o0 < NN_CONV_BLOCK ? g1 - o0 : NN_CONV_BLOCK;
        for (int64_t kh = 0; kh < s->kh; kh++) {
            int64_t t = ih + s->padding[0] - kh;
            if (t < 0 || t % sh || t / sh >= s->oh) continue;
            rows[n_rows++] = (tile_row){j->wtc + (cb / NN_CONV_BLOCK * s->o * taps + o0 * taps + kh * s->kw * kb) * NN_CONV_BLOCK,
                                        j->gy + ((n * s->o + o0) * s->oh + t / sh) * s->ow + q0 + pw, kb};
            if (n_rows == ROWS) tile_rows(out, rows, n_rows, s->kw, -1, s->oh * s->ow, 1, ua, ub, full), n_rows = 0;
        }
    }
    tile_rows(out, rows, n_rows, s->kw, -1, s->oh * s->ow, 1, ua, ub, full);
}

/* gx[n, cb .. cb+7, ih, q0 .. q0+ur-1]: each group of output channels summed
   from 0, then added to the groups before it (part + total). */
static void input_grad_tile(const nn_conv_job *j, int64_t n, int64_t cb, int64_t ih, int64_t q0, int64_t ur)
{
    const nn_conv_geom *s = j->s;
    float total[UR * NN_CONV_BLOCK] = {0}, part[UR * NN_CONV_BLOCK];
    input_grad_group(j, n, cb, ih, q0, ur, 0, j->group < s->o ? j->group : s->o, total);
    for (int64_t g0 = j->group; g0 < s->o; g0 += j->group) {
        memset(part, 0, sizeof part);
        input_grad_group(j, n, cb, ih, q0, ur, g0, g0 + j->group < s->o ? g0 + j->group : s->o, part);
        for (int e = 0; e < UR * NN_CONV_BLOCK; e++) total[e] = part[e] + total[e];
    }
    store_tile(total, ur, j->gx + ((n * s->c + cb) * s->h + ih) * s->w + q0, s->h * s->w,
               s->c - cb < NN_CONV_BLOCK ? s->c - cb : NN_CONV_BLOCK);
}

void nn_conv_onednn_input_grad_avx2(void *job, int64_t begin, int64_t end)
{
    const nn_conv_job *j = job;
    for (int64_t n = begin; n < end; n++)
        for (int64_t cb = 0; cb < j->s->c; cb += NN_CONV_BLOCK)
            for (int64_t ih = 0; ih < j->s->h; ih++) FOR_TILES(q0, ur, j->s->w) input_grad_tile(j, n, cb, ih, q0, ur);
}

/* The weight gradient's taps (c .. c + NC - 1, kh, every kw) for output
   channels [ob, ob + 8): one chain each over (n, i, j) in order. */
INLINE_AVX2 void weight_grad_taps(const nn_conv_job *j, int64_t ob, int64_t c, int64_t kh, const int NC, const int KW)
{
    const nn_conv_geom *s = j->s;
    int64_t sw = s->stride[1], pw = s->padding[1], area = s->h * s->w;
    int64_t jl = (pw + sw - 1) / sw, jr = s->w - KW + pw < 0 ? 0 : (s->w - KW + pw) / sw + 1;
    if (jr > s->ow) jr = s->ow;
    if (jl > jr) jl = jr;
    int64_t i0, i1;
    nn_conv_inside(kh - s->padding[0], s->stride[0], s->h, s->oh, &i0, &i1);
    __m256 acc[2][8];
    for (int cc = 0; cc < NC; cc++)
        for (int kw = 0; kw < KW; kw++) acc[cc][kw] = _mm256_setzero_ps();
    for (int64_t n = 0; n < s->n; n++)
        for (int64_t i = i0; i < i1; i++) {
            const float *x0 = j->x + ((n * s->c + c) * s->h + i * s->stride[0] + kh - s->padding[0]) * s->w - pw;
            const float *g = j->gyt + (n * s->oh + i) * s->ow * j->lanes + ob;
            for (int64_t q = 0; q < s->ow; q++) {
                __m256 gv = _mm256_loadu_ps(g + q * j->lanes);
                const float *xq = x0 + q * sw;
                if (q >= jl && q < jr) {
                    for (int kw = 0; kw < KW; kw++)
                        for (int cc = 0; cc < NC; cc++)
                            acc[cc][kw] = _mm256_fmadd_ps(gv, _mm256_broadcast_ss(xq + cc * area + kw), acc[cc][kw]);
                } else {
                    for (int kw = 0; kw < KW; kw++) {
                        int64_t iw = q * sw + kw - pw;
                        if (iw < 0 || iw >= s->w) continue;
                        for (int cc = 0; cc < NC; cc++)
                            acc[cc][kw] = _mm256_fmadd_ps(gv, _mm256_broadcast_ss(xq + cc * area + kw), acc[cc][kw]);
                    }
                }
            }
        }
    for (int cc = 0; cc < NC; cc++)
        for (int kw = 0; kw < KW; kw++)
            _mm256_storeu_ps(j->acc + ((c + cc) * s->kh * s->kw + kh * s->kw + kw) * j->lanes + ob, acc[cc][kw]);
}

#define TAPS_CASE(K)                                                                                             \
    case K:                                                                                                      \
        if (nc == 2)                                                                                             \
            weight_grad_taps(j, ob, c, kh, 2, K);                                                                \
        else                                                                                                     \
            weight_grad_taps(j, ob, c, kh, 1, K);                                                                \
        break;

AVX2 static void weight_grad_unit(const nn_conv_job *j, int64_t ob, int64_t c, int nc)
{
    for (int64_t kh = 0; kh < j->s->kh; kh++) switch (j->s->kw) {
            TAPS_CASE(1)
            TAPS_CASE(2)
            TAPS_CASE(3)
            TAPS_CASE(4)
            TAPS_CASE(5)
            TAPS_CASE(6)
            TAPS_CASE(7)
        }
}

void nn_conv_onednn_weight_grad_avx2(void *job, int64_t begin, int64_t end)
{
    const nn_conv_job *j = job;
    int64_t pairs = (j->s->c + 1) / 2;
    for (int64_t unit = begin; unit < end; unit++) {
        int64_t ob = unit / pairs * NN_CONV_BLOCK, c = unit % pairs * 2;
        weight_grad_unit(j, ob, c, j->s->c - c >= 2 ? 2 : 1);
    }
}

#else

bool nn_conv_onednn_avx2(void) { return false; }
void nn_conv_onednn_forward_avx2(void *job, int64_t begin, int64_t end) {}
void nn_conv_onednn_input_grad_avx2(void *job, int64_t begin, int64_t end) {}
void nn_conv_onednn_weight_grad_avx2(void *job, int64_t begin, int64_t end) {}

#endif
