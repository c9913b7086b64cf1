/*
 * cpu/conv2d_onednn.c — float32 conv2d and its input, weight and bias
 * gradients summed in the order of the kernels PyTorch 1.13 runs for them on
 * an AVX2 CPU (oneDNN 2.6's jit:avx2 convolution, for the geometries that
 * conv.c marks `onednn`), so that every result has PyTorch's bits. With
 * ih = i*sh + kh - ph and iw = j*sw + kw - pw:
 *   y[n,o,i,j]    from b[o]; for each block of 8 input channels, for kh, kw,
 *                 for c in the block: fma(w[o,c,kh,kw], x[n,c,ih,iw], acc)
 *   gx[n,c,ih,iw] from 0; for each block of 8 output channels, for kh, kw,
 *                 for o in the block: fma(w[o,c,kh,kw], gy[n,o,i,j], acc), each
 *                 group of 4 blocks (OW < 15; 2 for OW < 40; else 1) summed
 *                 from 0 on its own and added to the groups before it
 *   gw[o,c,kh,kw] from 0; for n, i, j in order: fma(gy[n,o,i,j], x[n,c,ih,iw], acc)
 *   gb[o]         from 0; for n, i, j in order: acc + gy[n,o,i,j]
 * A term whose input element lies in the padding is skipped, not added as a
 * zero. A 1x1 kernel (oneDNN's jit_1x1) sums in blocks, each block's sum from
 * 0 (the first from the bias) added to the sum so far: y over blocks of 128
 * input channels, gx over blocks of 64 output channels, gw over chunks of 128
 * output positions of each image (a last chunk under 192 whole). A grouped
 * convolution (multiples of 8 channels per group) is each group on its own. (The weight and bias sums are oneDNN's on one thread, PyTorch's default
 * on a 2-core machine: with more threads oneDNN splits the batch and adds the
 * parts.) Measured against PyTorch 1.13: tests/scripts/conv2d_onednn_bits.py.
 *
 * Every output element is one chain of terms, so the loops run the terms
 * outside and the elements inside: each element still meets its terms in
 * order, and the inner loops, over independent elements, vectorize. The work
 * splits over whole output planes, never inside a chain, so the bits do not
 * depend on the thread count.
 */
#include <math.h>
#include <string.h>

#include "nn_conv_onednn.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define FMA_CLONES
#endif

#define BLOCK NN_CONV_BLOCK
/* oneDNN jit_1x1's reduction blocks (AVX2, blocked layouts): input channels
   for the forward, output channels for the input gradient, output positions
   for the weight gradient (a last chunk under TAIL taken whole) */
#define ONEDNN_1X1_IC 128
#define ONEDNN_1X1_OC 64
#define ONEDNN_1X1_CHUNK 128
#define ONEDNN_1X1_TAIL 192
#define ONEDNN_1X1_LANES 64 /* output channels a pass of the weight gradient keeps */
typedef nn_conv_job conv_job;
#define inside nn_conv_inside

/* The terms of one output plane acc from the channels [k0, k1) of src (planes
   of x, or of gy), in blocks of 8, kh, kw, channel order, each an fma into the
   elements it reaches. The forward gathers: y's plane for output channel
   `other` reads x's planes; the input gradient scatters: gx's plane for input
   channel `other` takes gy's planes. */
static FMA_CLONES void plane_terms(const conv_job *j, float *acc, const float *src, int64_t k0, int64_t k1,
                                   int64_t other, bool scatter)
{
    const nn_conv_geom *s = j->s;
    int64_t sh = s->stride[0], sw = s->stride[1], area = scatter ? s->oh * s->ow : s->h * s->w;
    for (int64_t b0 = k0; b0 < k1; b0 += BLOCK)
        for (int64_t kh = 0; kh < s->kh; kh++) {
            int64_t i0, i1, offh = kh * s->dilation[0] - s->padding[0];
            inside(offh, sh, s->h, s->oh, &i0, &i1);
            for (int64_t kw = 0; kw < s->kw; kw++) {
                int64_t q0, q1, offw = kw * s->dilation[1] - s->padding[1];
                inside(offw, sw, s->w, s->ow, &q0, &q1);
                for (int64_t k = b0; k < k1 && k < b0 + BLOCK; k++) {
                    int64_t o = scatter ? k : other, c = scatter ? other : k;
                    float wv = j->w[((o * s->c + c) * s->kh + kh) * s->kw + kw];
                    for (int64_t i = i0; i < i1; i++) {
                        float *out = scatter ? acc + (i * sh + offh) * s->w + offw : acc + i * s->ow;
                        const float *in = scatter ? src + k * area + i * s->ow
                                                  : src + k * area + (i * sh + offh) * s->w + offw;
                        int64_t out_step = scatter ? sw : 1, in_step = scatter ? 1 : sw;
                        for (int64_t q = q0; q < q1; q++)
                            out[q * out_step] = fmaf(wv, in[q * in_step], out[q * out_step]);
                    }
                }
            }
        }
}

/* y planes [begin, end) of the N*O planes: from the bias, the terms of every input channel. */
static void forward_planes(void *ctx, int64_t begin, int64_t end)
{
    const conv_job *j = ctx;
    const nn_conv_geom *s = j->s;
    for (int64_t plane = begin; plane < end; plane++) {
        int64_t n = plane / s->o, o = plane % s->o;
        float *y = j->y + plane * s->oh * s->ow, bias = j->b ? j->b[o] : 0.0f;
        for (int64_t p = 0; p < s->oh * s->ow; p++) y[p] = bias;
        plane_terms(j, y, j->x + n * s->c * s->h * s->w, 0, s->c, o, false);
    }
}

/* The part of gx plane `plane` from the output channels [o0, o1) into a (zeroed first). */
static void input_grad_part(const conv_job *j, int64_t plane, int64_t o0, int64_t o1, float *a)
{
    const nn_conv_geom *s = j->s;
    memset(a, 0, sizeof(float) * (size_t)(s->h * s->w));
    plane_terms(j, a, j->gy + plane / s->c * s->o * s->oh * s->ow, o0, o1, plane % s->c, true);
}

/* gx planes [begin, end) of the N*C planes: the first group's part, then each later part added. */
static void input_grad_planes(void *ctx, int64_t begin, int64_t end)
{
    const conv_job *j = ctx;
    int64_t area = j->s->h * j->s->w;
    for (int64_t plane = begin; plane < end; plane++) {
        float *gx = j->gx + plane * area, *part = j->part ? j->part + plane * area : NULL;
        input_grad_part(j, plane, 0, j->group < j->s->o ? j->group : j->s->o, gx);
        for (int64_t o0 = j->group; o0 < j->s->o; o0 += j->group) {
            input_grad_part(j, plane, o0, o0 + j->group < j->s->o ? o0 + j->group : j->s->o, part);
            for (int64_t e = 0; e < area; e++) gx[e] = part[e] + gx[e];
        }
    }
}

/* The weight gradient's input channels [begin, end): acc[c] over every output position in order. */
static FMA_CLONES void weight_grad_channels(void *ctx, int64_t begin, int64_t end)
{
    const conv_job *j = ctx;
    const nn_conv_geom *s = j->s;
    int64_t lanes = j->lanes, taps = s->kh * s->kw;
    for (int64_t c = begin; c < end; c++) {
        float *acc = j->acc + c * taps * lanes;
        memset(acc, 0, sizeof(float) * (size_t)(taps * lanes));
        for (int64_t n = 0; n < s->n; n++) {
            const float *xp = j->x + (n * s->c + c) * s->h * s->w;
            for (int64_t i = 0; i < s->oh; i++)
                for (int64_t q = 0; q < s->ow; q++) {
                    const float *g = j->gyt + ((n * s->oh + i) * s->ow + q) * lanes;
                    for (int64_t kh = 0; kh < s->kh; kh++) {
                        int64_t ih = i * s->stride[0] + kh - s->padding[0];
                        if (ih < 0 || ih >= s->h) continue;
                        for (int64_t kw = 0; kw < s->kw; kw++) {
                            int64_t iw = q * s->stride[1] + kw - s->padding[1];
                            if (iw < 0 || iw >= s->w) continue;
                            float xv = xp[ih * s->w + iw];
                            float *a = acc + (kh * s->kw + kw) * lanes;
                            for (int64_t l0 = 0; l0 < lanes; l0 += BLOCK)
                                for (int l = 0; l < BLOCK; l++) a[l0 + l] = fmaf(g[l0 + l], xv, a[l0 + l]);
                        }
                    }
                }
        }
    }
}

/* A 1x1 kernel's weight gradient in oneDNN jit_1x1's order: each image's
   output positions in chunks (128, or all that are left when under 192), each
   chunk's sum from 0 added to the sum so far; input channels [begin, end). */
static FMA_CLONES void weight_grad_1x1_channels(void *ctx, int64_t begin, int64_t end)
{
    const conv_job *j = ctx;
    const nn_conv_geom *s = j->s;
    int64_t lanes = j->lanes, positions = s->oh * s->ow;
    for (int64_t c = begin; c < end; c++)
        for (int64_t l0 = 0; l0 < lanes; l0 += ONEDNN_1X1_LANES) {
            int64_t nl = lanes - l0 < ONEDNN_1X1_LANES ? lanes - l0 : ONEDNN_1X1_LANES;
            float *acc = j->acc + c * lanes + l0;
            for (int64_t n = 0; n < s->n; n++) {
                const float *xp = j->x + (n * s->c + c) * s->h * s->w;
                for (int64_t p0 = 0, len; p0 < positions; p0 += len) {
                    len = positions - p0 < ONEDNN_1X1_TAIL ? positions - p0 : ONEDNN_1X1_CHUNK;
                    float part[ONEDNN_1X1_LANES] = {0};
                    int64_t i = p0 / s->ow, q = p0 % s->ow;
                    const float *g = j->gyt + (n * positions + p0) * lanes + l0;
                    for (int64_t p = p0; p < p0 + len; p++, g += lanes) {
                        float xv = xp[i * s->stride[0] * s->w + q * s->stride[1]];
                        for (int64_t l = 0; l < nl; l++) part[l] = fmaf(g[l], xv, part[l]);
                        if (++q == s->ow) q = 0, i++;
                    }
                    for (int64_t l = 0; l < nl; l++) acc[l] = n == 0 && p0 == 0 ? part[l] : part[l] + acc[l];
                }
            }
        }
}

/* m [batch, cols, rows] as [batch, rows, lanes] (lanes >= cols, zeros past cols); NULL when out of memory */
static float *lanes_of(const float *m, int64_t batch, int64_t cols, int64_t rows, int64_t lanes)
{
    float *t = nn_malloc(sizeof(float) * (size_t)(batch * rows * lanes));
    for (int64_t b = 0; t && b < batch; b++)
        for (int64_t r = 0; r < rows; r++)
            for (int64_t l = 0; l < lanes; l++)
                t[(b * rows + r) * lanes + l] = l < cols ? m[(b * cols + l) * rows + r] : 0.0f;
    return t;
}

/* w [O, C, KH, KW] in the order the AVX2 kernels read it (nn_conv_onednn.h's
   wt, wtc): for each block of 8 lane channels (output channels; input channels
   when by_input), the terms in their order (block of 8 summed channels, kh, kw,
   channel of that block), 8 weights a term, zeros past the lane channels. A
   new array, or NULL when out of memory. */
static float *terms_of(const nn_conv_geom *s, const float *w, bool by_input)
{
    int64_t taps = s->kh * s->kw, lanes = by_input ? s->c : s->o, sums = by_input ? s->o : s->c;
    int64_t blocks = (lanes + BLOCK - 1) / BLOCK;
    float *t = nn_malloc(sizeof(float) * (size_t)(blocks * sums * taps * BLOCK));
    for (int64_t lb = 0; t && lb < blocks; lb++)
        for (int64_t k0 = 0; k0 < sums; k0 += BLOCK) {
            int64_t kb = sums - k0 < BLOCK ? sums - k0 : BLOCK;
            float *d = t + (lb * sums * taps + k0 * taps) * BLOCK;
            for (int64_t tap = 0; tap < taps; tap++)
                for (int64_t k = k0; k < k0 + kb; k++)
                    for (int64_t l = lb * BLOCK; l < (lb + 1) * BLOCK; l++, d++) {
                        int64_t o = by_input ? k : l, c = by_input ? l : k;
                        *d = l < lanes ? w[(o * s->c + c) * taps + tap] : 0.0f;
                    }
        }
    return t;
}

/* A dilated convolution runs the portable loops (the AVX2 tiles take adjacent taps). */
static bool portable(const nn_conv_geom *s)
{
    return !nn_conv_onednn_avx2() || s->dilation[0] > 1 || s->dilation[1] > 1;
}

static int64_t lanes_for(int64_t channels)
{
    return (channels + BLOCK - 1) / BLOCK * BLOCK;
}

/* Channels [c0, c0 + cs) of each of the n samples of a ([n, c, plane]) copied
   into the dense [n, cs, plane] array g, or g copied back there (back). */
static void channel_slice(float *a, float *g, int64_t n, int64_t c, int64_t plane, int64_t c0, int64_t cs, bool back)
{
    size_t bytes = sizeof(float) * (size_t)(cs * plane);
    for (int64_t i = 0; i < n; i++) {
        float *at = a + (i * c + c0) * plane, *gt = g + i * cs * plane;
        memcpy(back ? at : gt, back ? gt : at, bytes);
    }
}

static int backward_dense(const nn_conv_geom *s, const float *x, const float *w, const float *gy, float *gx, float *gw,
                          float *gb, int64_t wparts, int64_t bparts);

/* Grouped convolutions: oneDNN's jit:avx2 runs each group as a convolution of
   its own channels (its blocked layouts keep a group's channels together), so
   each group here is one ungrouped call on dense copies of its channels (the
   backward's weight and bias sums with the batch in wparts and bparts parts). */
static int grouped(const nn_conv_geom *s, const float *x, const float *w, const float *b, float *y, const float *gy,
                   float *gx, float *gw, float *gb, int64_t wparts, int64_t bparts)
{
    nn_conv_geom gs = *s;
    gs.groups = 1, gs.c = s->c / s->groups, gs.o = s->o / s->groups;
    int64_t in = s->h * s->w, out = s->oh * s->ow, wsize = gs.o * gs.c * s->kh * s->kw;
    float *xg = nn_malloc(sizeof(float) * (size_t)(s->n * gs.c * in + 1));
    float *yg = xg ? nn_malloc(sizeof(float) * (size_t)(s->n * gs.o * out + 1)) : NULL;
    float *gxg = yg && gx ? nn_malloc(sizeof(float) * (size_t)(s->n * gs.c * in + 1)) : NULL;
    int rc = yg && (gxg || !gx) ? 0 : -1;
    for (int64_t g = 0; rc == 0 && g < s->groups; g++) {
        channel_slice((float *)x, xg, s->n, s->c, in, g * gs.c, gs.c, false);
        if (!gy) {
            rc = nn_cpu_conv2d_onednn(&gs, xg, w + g * wsize, b ? b + g * gs.o : NULL, yg);
            if (rc == 0) channel_slice(y, yg, s->n, s->o, out, g * gs.o, gs.o, true);
            continue;
        }
        channel_slice((float *)gy, yg, s->n, s->o, out, g * gs.o, gs.o, false);
        rc = backward_dense(&gs, xg, w + g * wsize, yg, gxg, gw ? gw + g * wsize : NULL, gb ? gb + g * gs.o : NULL,
                            wparts, bparts);
        if (rc == 0 && gx) channel_slice(gx, gxg, s->n, s->c, in, g * gs.c, gs.c, true);
    }
    nn_free(xg);
    nn_free(yg);
    nn_free(gxg);
    return rc;
}

/* A 1x1 kernel over more than 128 input channels: oneDNN jit_1x1 sums each
   block of 128 channels on its own (the first from the bias, the others from 0)
   and adds each block's sum to the sum so far. */
static int in_channel_blocks(const nn_conv_geom *s, const float *x, const float *w, const float *b, float *y)
{
    nn_conv_geom gs = *s;
    int64_t in = s->h * s->w, ysize = s->n * s->o * s->oh * s->ow;
    float *xg = nn_malloc(sizeof(float) * (size_t)(s->n * ONEDNN_1X1_IC * in + 1));
    float *wg = xg ? nn_malloc(sizeof(float) * (size_t)(s->o * ONEDNN_1X1_IC)) : NULL;
    float *part = wg ? nn_malloc(sizeof(float) * (size_t)(ysize + 1)) : NULL;
    int rc = part ? 0 : -1;
    for (int64_t c0 = 0; rc == 0 && c0 < s->c; c0 += ONEDNN_1X1_IC) {
        gs.c = s->c - c0 < ONEDNN_1X1_IC ? s->c - c0 : ONEDNN_1X1_IC;
        channel_slice((float *)x, xg, s->n, s->c, in, c0, gs.c, false);
        for (int64_t o = 0; o < s->o; o++) memcpy(wg + o * gs.c, w + o * s->c + c0, sizeof(float) * (size_t)gs.c);
        rc = nn_cpu_conv2d_onednn(&gs, xg, wg, c0 == 0 ? b : NULL, c0 == 0 ? y : part);
        for (int64_t i = 0; rc == 0 && c0 > 0 && i < ysize; i++) y[i] = part[i] + y[i];
    }
    nn_free(xg);
    nn_free(wg);
    nn_free(part);
    return rc;
}

int nn_cpu_conv2d_onednn(const nn_conv_geom *s, const float *x, const float *w, const float *b, float *y)
{
    if (s->groups > 1) return grouped(s, x, w, b, y, NULL, NULL, NULL, NULL, 1, 1);
    if (s->kh * s->kw == 1 && nn_conv_onednn_avx2()) return nn_conv_1x1_forward_avx2(s, x, w, b, y);
    if (s->kh * s->kw == 1 && s->c > ONEDNN_1X1_IC) return in_channel_blocks(s, x, w, b, y);
    conv_job j = {.s = s, .x = x, .w = w, .b = b, .y = y, .lanes = lanes_for(s->o)};
    if (portable(s)) {
        nn_parallel_for(s->n * s->o, 1, forward_planes, &j);
        return 0;
    }
    float *wt = terms_of(s, w, false), *bp = wt ? nn_malloc(sizeof(float) * (size_t)j.lanes) : NULL;
    if (bp) {
        for (int64_t o = 0; o < j.lanes; o++) bp[o] = b && o < s->o ? b[o] : 0.0f;
        j.wt = wt, j.bp = bp;
        nn_parallel_for(s->n, 1, nn_conv_onednn_forward_avx2, &j);
    }
    nn_free(wt);
    nn_free(bp);
    return bp ? 0 : -1;
}

/* gx through the AVX2 kernel (w laid out by input channel) or the portable loops; 0 or -1. */
static int input_grad(conv_job *j)
{
    const nn_conv_geom *s = j->s;
    if (s->kh * s->kw == 1 && nn_conv_onednn_avx2()) return nn_conv_1x1_input_grad_avx2(s, j->w, j->gy, j->gx);
    if (portable(s)) {
        if (j->group < s->o && !(j->part = nn_malloc(sizeof(float) * (size_t)(s->n * s->c * s->h * s->w)))) return -1;
        nn_parallel_for(s->n * s->c, 1, input_grad_planes, j);
        nn_free(j->part);
        return 0;
    }
    float *wtc = terms_of(s, j->w, true);
    if (!wtc) return -1;
    j->wtc = wtc;
    nn_parallel_for(s->n, 1, nn_conv_onednn_input_grad_avx2, j);
    nn_free(wtc);
    return 0;
}

/* oneDNN's reduce_balancer_t::balance (cpu_reducer.cpp), which its jit:avx2
   weight and bias gradients use: of nthr threads, how many share each of njobs
   jobs (job_size floats each) by splitting its reduction over `reduction` images. */
static int64_t threads_per_job(int64_t nthr, int64_t job_size, int64_t njobs, int64_t reduction)
{
    const int64_t max_buffer = (int64_t)1 << 21;
    int64_t min_jobs = njobs / nthr > 1 ? njobs / nthr : 1;
    int64_t max_jobs = max_buffer / (nthr * job_size) > 1 ? max_buffer / (nthr * job_size) : 1;
    int64_t groups = njobs / min_jobs < nthr ? njobs / min_jobs : nthr;
    int64_t per_group = nthr / groups < reduction ? nthr / groups : reduction;
    int64_t best = njobs * job_size * reduction;
    for (int64_t c = min_jobs; c < njobs; c++) {
        int64_t cg = njobs / c < nthr ? njobs / c : nthr, cp = nthr / cg < reduction ? nthr / cg : reduction;
        int64_t ub = (njobs + cg - 1) / cg;
        if (cp > 1 && ub > max_jobs) continue;
        int64_t cost = job_size * ub * ((reduction + cp - 1) / cp + (cp != 1));
        if (cost < best) per_group = cp, best = cost;
    }
    return per_group;
}

/* oneDNN's balance211: the images [*start, *end) of part t of n images in `parts` parts. */
static void part_range(int64_t n, int64_t parts, int64_t t, int64_t *start, int64_t *end)
{
    if (parts <= 1) {
        *start = 0, *end = n;
        return;
    }
    int64_t n1 = (n + parts - 1) / parts, n2 = n1 - 1, t1 = n - n2 * parts;
    *start = t <= t1 ? t * n1 : t1 * n1 + (t - t1) * n2;
    *end = *start + (t < t1 ? n1 : n2);
}

/* j->acc: the weight gradient over j->s's samples (from j->x and j->gyt); 0 or -1. */
static int weight_grad_acc(conv_job *j)
{
    const nn_conv_geom *s = j->s;
    bool one = s->kh * s->kw == 1;
    if (one && nn_conv_onednn_avx2()) return nn_conv_1x1_weight_grad_avx2(s, j->x, j->gyt, j->lanes, j->acc);
    if (one)
        nn_parallel_for(s->c, 1, weight_grad_1x1_channels, j);
    else if (nn_conv_onednn_avx2() && s->kw <= 7)
        nn_parallel_for(j->lanes / BLOCK * ((s->c + 1) / 2), 1, nn_conv_onednn_weight_grad_avx2, j);
    else
        nn_parallel_for(s->c, 1, weight_grad_channels, j);
    return 0;
}

/* The weight gradient (acc, [C, KH*KW, lanes]) and the bias gradient gb of j's
   convolution, the batch in `wparts` and `bparts` parts as oneDNN's threads
   split it: each part's sum from 0, the parts added in order; 0 or -1. */
static int weight_bias_grads(conv_job *j, float *gb, int64_t wparts, int64_t bparts)
{
    const nn_conv_geom *s = j->s;
    int64_t area = s->oh * s->ow, size = s->c * s->kh * s->kw * j->lanes;
    for (int64_t t = 0; gb && t < bparts; t++) {
        int64_t n0, n1;
        part_range(s->n, bparts, t, &n0, &n1);
        for (int64_t o = 0; o < s->o; o++) {
            float acc = 0.0f;
            for (int64_t r = n0 * area; r < n1 * area; r++) acc += j->gyt[r * j->lanes + o];
            gb[o] = t ? gb[o] + acc : acc;
        }
    }
    if (!j->acc) return 0;
    float *part = wparts > 1 ? nn_malloc(sizeof(float) * (size_t)size) : NULL;
    if (wparts > 1 && !part) return -1;
    int rc = 0;
    for (int64_t t = 0; rc == 0 && t < wparts; t++) {
        int64_t n0, n1;
        part_range(s->n, wparts, t, &n0, &n1);
        nn_conv_geom sub = *s;
        sub.n = n1 - n0;
        conv_job jt = *j;
        jt.s = &sub, jt.x = j->x + n0 * s->c * s->h * s->w, jt.gyt = j->gyt + n0 * area * j->lanes;
        jt.acc = t ? part : j->acc;
        rc = weight_grad_acc(&jt);
        for (int64_t i = 0; rc == 0 && t && i < size; i++) j->acc[i] = j->acc[i] + part[i];
    }
    nn_free(part);
    return rc;
}

/* The backward of an ungrouped convolution (or one group's); the weight and bias
   gradients' batch in wparts and bparts parts. */
static int backward_dense(const nn_conv_geom *s, const float *x, const float *w, const float *gy, float *gx, float *gw,
                          float *gb, int64_t wparts, int64_t bparts)
{
    conv_job j = {.s = s, .x = x, .w = w, .gy = gy, .gx = gx, .lanes = lanes_for(s->o)};
    int64_t taps = s->kh * s->kw;
    bool one = s->kh * s->kw == 1;
    j.group = one ? ONEDNN_1X1_OC : BLOCK * (s->ow < 15 ? 4 : s->ow < 40 ? 2 : 1); /* oneDNN's nb_oc_blocking */
    if (gx && input_grad(&j) < 0) return -1;
    if (!gw && !gb) return 0;
    float *gyt = lanes_of(gy, s->n, s->o, s->oh * s->ow, j.lanes); /* gyt[(n, p), o] = gy[n, o, p] */
    float *acc = gyt && gw ? nn_malloc(sizeof(float) * (size_t)(s->c * taps * j.lanes)) : NULL;
    if (!gyt || (gw && !acc)) {
        nn_free(gyt);
        return -1;
    }
    j.gyt = gyt, j.acc = acc;
    int rc = weight_bias_grads(&j, gb, wparts, bparts);
    for (int64_t o = 0; rc == 0 && gw && o < s->o; o++)
        for (int64_t c = 0; c < s->c; c++)
            for (int64_t t = 0; t < taps; t++) gw[(o * s->c + c) * taps + t] = acc[(c * taps + t) * j.lanes + o];
    nn_free(acc);
    nn_free(gyt);
    return rc;
}

int nn_cpu_conv2d_onednn_backward(const nn_conv_geom *s, const float *x, const float *w, const float *gy, float *gx,
                                  float *gw, float *gb)
{
    /* oneDNN splits the batch of the weight and bias gradients over threads:
       jit:avx2 as its reduce_balancer_t decides (jobs: blocks of 8 output
       channels by blocks of 8 input channels, or all 3 of a 3-channel input,
       per group); jit_dw (depthwise) over the threads left when each block of
       8 channels has one (its harness_mb_reduction); jit_1x1 is not split here */
    int64_t cg = s->c / s->groups, og = s->o / s->groups, nthr = nn_get_num_threads();
    int64_t ic_block = cg == 3 ? 3 : BLOCK, nb_oc = (og + BLOCK - 1) / BLOCK, wparts = 1, bparts = 1;
    if (nthr > 1 && s->groups > 1 && cg == 1 && og == 1) {
        int64_t nb_ch = (s->groups + BLOCK - 1) / BLOCK, per = nthr / (nb_ch < nthr ? nb_ch : nthr);
        wparts = bparts = per < s->n ? per : s->n;
    } else if (nthr > 1 && s->kh * s->kw > 1) {
        wparts = threads_per_job(nthr, s->kh * s->kw * ic_block * BLOCK, s->groups * ((cg + ic_block - 1) / ic_block) * nb_oc,
                                 s->n);
        bparts = threads_per_job(nthr, BLOCK, s->groups * nb_oc, s->n);
    }
    if (s->groups == 1) return backward_dense(s, x, w, gy, gx, gw, gb, wparts, bparts);
    return grouped(s, x, w, NULL, NULL, gy, gx, gw, gb, wparts, bparts);
}
