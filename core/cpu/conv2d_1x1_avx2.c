/*
 * cpu/conv2d_1x1_avx2.c — a 1x1 convolution without padding (conv2d_onednn.c's
 * jit_1x1 case) as three products of matrices, each in the blocks oneDNN's
 * jit_1x1 sums it in:
 *   y[o, p]  = b[o] + sum over c of w[o, c] x[c, p]     (blocks of 128 c)
 *   gx[c, p] = sum over o of w[o, c] gy[o, p]           (blocks of 64 o)
 *   gw[c, o] = sum over n, p of x[n, c, p] gy[n, o, p]  (each image's p in chunks)
 * (p an output position; with a stride, x and gx are gathered to and scattered
 * from those positions). Every element is one chain of fused multiply-adds in
 * its terms' order, each block's chain from 0 (the first from the bias, or
 * from 0) and added to the sum so far, as in conv2d_onednn.c's portable loops,
 * so the bits are the same; what changes is only that a tile of 6 rows by 16
 * columns keeps its 12 chains in registers, reading each term's operands once
 * for the tile. The work splits over images (forward, input gradient) and input
 * channels (weight gradient), never inside a chain: the bits do not depend on
 * the thread count.
 */
#include <string.h>

#include "nn_conv_onednn.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))
#define INLINE_AVX2 __attribute__((target("avx2,fma"), always_inline)) static inline
#define MR 6  /* rows of a tile */
#define NR 16 /* columns of a tile: two vectors */
#define IC_BLOCK 128
#define OC_BLOCK 64
#define P_CHUNK 128
#define P_TAIL 192

/* One product: C[m, q] (+)= the chain over k in [0, kn) of fma(A[m, k], B[k, q]),
   with A[m, k] = a[m / MR * panel + m % MR * am + k * ak] and B[k, q] = b[k * ldb + q]
   (panel = MR * am for a plain matrix; a packed one keeps each tile's rows
   together, panel = K * MR, am = 1, ak = MR, so a tile reads its terms in
   order from one run of memory). */
typedef struct product {
    const float *a, *b;
    float *c;
    int64_t panel, am, ak, ldb, ldc;
} product;

/* The accumulators are named locals, two a row, not an array: GCC keeps an
   array of vectors on the stack and stores it after every fma. */
#define ROWS(M) M(0) M(1) M(2) M(3) M(4) M(5)
#define ACC_INIT(m)                                                                                            \
    __m256 acc##m##0 = init && (m) < mr ? _mm256_set1_ps(init[m0 + (m)]) : _mm256_setzero_ps(), acc##m##1 = acc##m##0;
#define ACC_FMA(m)                                                                                             \
    if ((m) < mr) {                                                                                            \
        __m256 av = _mm256_broadcast_ss(a + (m) * p->am);                                                      \
        acc##m##0 = _mm256_fmadd_ps(av, b0, acc##m##0);                                                        \
        acc##m##1 = _mm256_fmadd_ps(av, b1, acc##m##1);                                                        \
    }
#define ACC_STORE(m)                                                                                           \
    if ((m) < mr) {                                                                                            \
        float *c = p->c + (m0 + (m)) * p->ldc + q0;                                                            \
        if (masked) {                                                                                          \
            if (add) acc##m##0 = _mm256_add_ps(acc##m##0, _mm256_maskload_ps(c, mask0));                       \
            if (add) acc##m##1 = _mm256_add_ps(acc##m##1, _mm256_maskload_ps(c + 8, mask1));                   \
            _mm256_maskstore_ps(c, mask0, acc##m##0);                                                          \
            _mm256_maskstore_ps(c + 8, mask1, acc##m##1);                                                      \
        } else {                                                                                               \
            if (add) acc##m##0 = _mm256_add_ps(acc##m##0, _mm256_loadu_ps(c));                                 \
            if (add) acc##m##1 = _mm256_add_ps(acc##m##1, _mm256_loadu_ps(c + 8));                             \
            _mm256_storeu_ps(c, acc##m##0);                                                                    \
            _mm256_storeu_ps(c + 8, acc##m##1);                                                                \
        }                                                                                                      \
    }

/* The tile of rows [m0, m0 + mr) and columns [q0, q0 + nc) (nc <= NR) of the
   product over terms [k0, k0 + kn): each chain from init[m] (0 when init is
   NULL); stored (add false) or added to C (add true: C = chain + C). */
INLINE_AVX2 void tile(const product *p, int64_t m0, int64_t q0, int64_t k0, int64_t kn, const float *init, bool add,
                      int nc, const int mr, const bool masked)
{
    __m256i mask0 = _mm256_setzero_si256(), mask1 = mask0;
    if (masked) {
        __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        mask0 = _mm256_cmpgt_epi32(_mm256_set1_epi32(nc), lane);
        mask1 = _mm256_cmpgt_epi32(_mm256_set1_epi32(nc - 8), lane);
    }
    ROWS(ACC_INIT)
    const float *a = p->a + m0 / MR * p->panel + k0 * p->ak, *b = p->b + k0 * p->ldb + q0;
    for (int64_t k = 0; k < kn; k++, a += p->ak, b += p->ldb) {
        __m256 b0 = masked ? _mm256_maskload_ps(b, mask0) : _mm256_loadu_ps(b);
        __m256 b1 = masked ? _mm256_maskload_ps(b + 8, mask1) : _mm256_loadu_ps(b + 8);
        ROWS(ACC_FMA)
    }
    ROWS(ACC_STORE)
}

#define TILE_CASE(R)                                                                                           \
    case R:                                                                                                    \
        if (nc == NR)                                                                                          \
            tile(p, m0, q0, k0, kn, init, add, nc, R, false);                                                  \
        else                                                                                                   \
            tile(p, m0, q0, k0, kn, init, add, nc, R, true);                                                   \
        break;

/* tile() for mr in 1 .. MR rows. */
AVX2 static void tile_rows(const product *p, int64_t m0, int64_t q0, int64_t k0, int64_t kn, const float *init, bool add,
                           int nc, int mr)
{
    switch (mr) {
        TILE_CASE(1)
        TILE_CASE(2)
        TILE_CASE(3)
        TILE_CASE(4)
        TILE_CASE(5)
        TILE_CASE(6)
    }
}

/* Rows [m0, m1) and columns [q0, q1) of the product over terms [k0, k1),
   tile by tile (columns outside, so a tile's B columns stay in cache). */
static void tiles(const product *p, int64_t m0, int64_t m1, int64_t q0, int64_t q1, int64_t k0, int64_t k1,
                  const float *init, bool add)
{
    for (int64_t q = q0; q < q1; q += NR)
        for (int64_t m = m0; m < m1; m += MR)
            tile_rows(p, m, q, k0, k1 - k0, init, add, q1 - q < NR ? (int)(q1 - q) : NR, m1 - m < MR ? (int)(m1 - m) : MR);
}

/* Rows [m0, m1), columns [q0, q1) of a product whose terms [0, kn) sum in blocks
   of `block`: the first from init, each later one from 0 added to the sum so far. */
static void blocked(const product *p, int64_t m0, int64_t m1, int64_t q0, int64_t q1, int64_t kn, int64_t block,
                    const float *init)
{
    for (int64_t k = 0; k < kn; k += block)
        tiles(p, m0, m1, q0, q1, k, k + block < kn ? k + block : kn, k == 0 ? init : NULL, k > 0);
}

typedef struct job_1x1 {
    const nn_conv_geom *s;
    /* the forward and the input gradient: per image, out [rows, P] = the
       product of w (packed by row) and src [terms, P], in blocks of `block`
       terms, the first from init (NULL: 0) */
    const float *w, *src, *init;
    int64_t rows, terms, block, strips;
    /* the weight gradient: out [C, lanes] from x [N, C, P] and src [N*P, lanes] */
    const float *x;
    int64_t lanes;
    float *out;
} job_1x1;

/* Columns a unit of the forward or input gradient takes: 8 tiles. */
#define STRIP (8 * NR)

/* The forward's or input gradient's units [begin, end): a strip of one image's columns each. */
static void image_units(void *ctx, int64_t begin, int64_t end)
{
    const job_1x1 *j = ctx;
    int64_t area = j->s->oh * j->s->ow;
    for (int64_t u = begin; u < end; u++) {
        int64_t n = u / j->strips, q0 = u % j->strips * STRIP, q1 = q0 + STRIP < area ? q0 + STRIP : area;
        product p = {.a = j->w, .panel = j->terms * MR, .am = 1, .ak = MR, .b = j->src + n * j->terms * area,
                     .ldb = area, .c = j->out + n * j->rows * area, .ldc = area};
        blocked(&p, 0, j->rows, q0, q1, j->terms, j->block, j->init);
    }
}

/* Input channels [begin * MR, end * MR) of the weight gradient: for each image,
   each chunk of its positions (a last one under P_TAIL whole), every tile of
   those rows; each chunk's chains from 0, added to the sum so far. */
static void weight_grad_units(void *ctx, int64_t begin, int64_t end)
{
    const job_1x1 *j = ctx;
    const nn_conv_geom *s = j->s;
    int64_t area = s->oh * s->ow, c0 = begin * MR, c1 = end * MR < s->c ? end * MR : s->c;
    for (int64_t n = 0; n < s->n; n++) {
        product p = {.a = j->x + n * s->c * area, .panel = MR * area, .am = area, .ak = 1, .b = j->src + n * area * j->lanes,
                     .ldb = j->lanes, .c = j->out, .ldc = j->lanes};
        for (int64_t k0 = 0, len; k0 < area; k0 += len) {
            len = area - k0 < P_TAIL ? area - k0 : P_CHUNK;
            tiles(&p, c0, c1, 0, j->lanes, k0, k0 + len, NULL, n > 0 || k0 > 0);
        }
    }
}

/* The images' planes [N, C, H, W] at the output positions, [N, C, OH*OW] (to) or back (scatter, zeros elsewhere). */
static void positions(const nn_conv_geom *s, float *x, float *xs, bool scatter)
{
    int64_t area = s->oh * s->ow;
    if (scatter) memset(x, 0, sizeof(float) * (size_t)(s->n * s->c * s->h * s->w));
    for (int64_t plane = 0; plane < s->n * s->c; plane++)
        for (int64_t i = 0; i < s->oh; i++)
            for (int64_t q = 0; q < s->ow; q++) {
                float *at = x + (plane * s->h + i * s->stride[0]) * s->w + q * s->stride[1];
                float *to = xs + plane * area + i * s->ow + q;
                if (scatter)
                    *at = *to;
                else
                    *to = *at;
            }
}

static bool strided(const nn_conv_geom *s) { return s->stride[0] > 1 || s->stride[1] > 1; }

/* x at the output positions: x itself without a stride, else a new gathered
   copy (*copy, freed by the caller); NULL when out of memory. */
static const float *at_positions(const nn_conv_geom *s, const float *x, float **copy)
{
    *copy = NULL;
    if (!strided(s)) return x;
    if (!(*copy = nn_malloc(sizeof(float) * (size_t)(s->n * s->c * s->oh * s->ow + 1)))) return NULL;
    positions(s, (float *)x, *copy, false);
    return *copy;
}

/* The matrix A[m, k] = a[m * rm + k * rk] (m < rows, k < terms) packed as a
   product's A: [rows / MR rounded up][terms][MR], zeros past the last row; NULL
   when out of memory. */
static float *packed(const float *a, int64_t rows, int64_t terms, int64_t rm, int64_t rk)
{
    int64_t tiles = (rows + MR - 1) / MR;
    float *t = nn_malloc(sizeof(float) * (size_t)(tiles * terms * MR));
    for (int64_t i = 0; t && i < tiles; i++)
        for (int64_t k = 0; k < terms; k++)
            for (int64_t m = i * MR; m < (i + 1) * MR; m++) t[(i * terms + k) * MR + m % MR] = m < rows ? a[m * rm + k * rk] : 0.0f;
    return t;
}

/* The forward or input gradient of job j (its w as A[m, k] = w[m * rm + k * rk]); 0 or -1. */
static int per_image(job_1x1 *j, const float *w, int64_t rm, int64_t rk)
{
    float *wp = packed(w, j->rows, j->terms, rm, rk);
    if (!wp) return -1;
    j->w = wp, j->strips = (j->s->oh * j->s->ow + STRIP - 1) / STRIP;
    nn_parallel_for(j->s->n * j->strips, 1, image_units, j);
    nn_free(wp);
    return 0;
}

int nn_conv_1x1_forward_avx2(const nn_conv_geom *s, const float *x, const float *w, const float *b, float *y)
{
    float *copy;
    job_1x1 j = {.s = s, .src = at_positions(s, x, &copy), .init = b, .rows = s->o, .terms = s->c, .block = IC_BLOCK,
                 .out = y};
    int rc = j.src ? per_image(&j, w, s->c, 1) : -1;
    nn_free(copy);
    return rc;
}

int nn_conv_1x1_input_grad_avx2(const nn_conv_geom *s, const float *w, const float *gy, float *gx)
{
    float *gxs = strided(s) ? nn_malloc(sizeof(float) * (size_t)(s->n * s->c * s->oh * s->ow + 1)) : NULL;
    job_1x1 j = {.s = s, .src = gy, .rows = s->c, .terms = s->o, .block = OC_BLOCK, .out = gxs ? gxs : gx};
    int rc = strided(s) && !gxs ? -1 : per_image(&j, w, 1, s->c);
    if (rc == 0 && gxs) positions(s, gx, gxs, true);
    nn_free(gxs);
    return rc;
}

int nn_conv_1x1_weight_grad_avx2(const nn_conv_geom *s, const float *x, const float *gyt, int64_t lanes, float *acc)
{
    float *copy;
    job_1x1 j = {.s = s, .x = at_positions(s, x, &copy), .src = gyt, .out = acc, .lanes = lanes};
    if (!j.x) return -1;
    int64_t units = (s->c + MR - 1) / MR, threads = nn_get_num_threads();
    nn_parallel_for(units, (units + threads - 1) / threads, weight_grad_units, &j);
    nn_free(copy);
    return 0;
}

#else

int nn_conv_1x1_forward_avx2(const nn_conv_geom *s, const float *x, const float *w, const float *b, float *y) { return -1; }
int nn_conv_1x1_input_grad_avx2(const nn_conv_geom *s, const float *w, const float *gy, float *gx) { return -1; }
int nn_conv_1x1_weight_grad_avx2(const nn_conv_geom *s, const float *x, const float *gyt, int64_t lanes, float *acc)
{
    return -1;
}

#endif
