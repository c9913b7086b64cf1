/*
 * sum_iter.c — a float32 sum over any dims of a strided tensor in the order
 * PyTorch 1.13's CPU kernel adds (ATen's TensorIterator driving cascade_sum,
 * AVX2 build), for the reductions cpu/sum.c's contiguous paths do not cover:
 * a middle dim (x.sum(1) of a 3-d x), several dims that are not all leading
 * or all trailing, and non-contiguous input (x.t().sum(0), x[:, ::2].sum()).
 *
 * How ATen lays the reduction out (TensorIterator::reduce_op):
 *  - the operands are the output (the kept dims contiguous, stride 0 on the
 *    reduced dims) and the input; the dims start reversed (fastest first) and
 *    are insertion-sorted by reorder_dimensions: reduced dims first, then by
 *    the output's stride, then the input's;
 *  - adjacent dims merge where every operand's strides allow it
 *    (coalesce_dimensions);
 *  - serial_for_each walks the result in 2-d blocks (DimCounter: dims 0 and 1
 *    a block, the others counted), and cascade_sum reduces each block into
 *    the output with `out += block sum`, the output filled with 0 first.
 * A block is summed by one of four loops (SumKernel.cpp): reduced dim 0
 * contiguous and 8 long: each row as vectors (vectorized_inner_sum); kept dim
 * 1 contiguous: 32, then 8 columns at once, then single columns
 * (vectorized_outer_sum); otherwise scalar rows or groups of 4 columns. Each
 * of them is multi_row_sum's 4-level cascade over 4 interleaved rows; these
 * are reproduced lane by lane (the order of the adds is what matters).
 * Threads (parallel_reduce): under 32768 elements or on one thread, the walk
 * above; a single output: two_pass_reduction (ranges of the walk into one
 * partial each, then the partials summed); else parallel_dim_reduction (the
 * outermost kept dim cut into the threads' column ranges, rounded to 32
 * columns when contiguous). The thread budget is nnscope's, as PyTorch's is
 * torch.get_num_threads().
 */
#include <string.h>

#include "cpu/nn_vmath.h"
#include "nn_parallel.h"

#define MAXD NN_MAX_DIMS

typedef struct sum_iter {
    int nd;
    int64_t shape[MAXD];
    int64_t st[2][MAXD]; /* bytes: [0] the output's, [1] the input's */
} sum_iter;

/* ATen's CeilLog2 */
static int64_t ceil_log2(int64_t x)
{
    if (x <= 2) return 1;
    return 64 - __builtin_clzll((unsigned long long)(x - 1));
}

static float load_f(const char *p) { float v; memcpy(&v, p, sizeof v); return v; }

static void add_to(char *p, float v) { float o = load_f(p); o += v; memcpy(p, &o, sizeof o); }

/* multi_row_sum with 4 rows of W lanes: item k of row i is the W floats at
   in + i * row_stride + k * col_stride; ret[k][lane]. */
#define DEFINE_MRS(W, NAME)                                                                        \
    static void NAME(const char *in, int64_t row_stride, int64_t col_stride, int64_t size,         \
                     float ret[4][W])                                                              \
    {                                                                                              \
        int64_t power = ceil_log2(size) / 4;                                                       \
        if (power < 4) power = 4;                                                                  \
        const int64_t step = (int64_t)1 << power, mask = step - 1;                                 \
        float acc[4][4][W];                                                                        \
        memset(acc, 0, sizeof acc);                                                                \
        int64_t i = 0;                                                                             \
        while (i + step <= size) {                                                                 \
            for (int64_t j = 0; j < step; j++, i++) {                                              \
                const char *b = in + i * row_stride;                                               \
                for (int k = 0; k < 4; k++)                                                        \
                    for (int l = 0; l < W; l++) acc[0][k][l] += load_f(b + k * col_stride + 4 * l);  \
            }                                                                                      \
            for (int j = 1; j < 4; j++) {                                                          \
                for (int k = 0; k < 4; k++)                                                        \
                    for (int l = 0; l < W; l++) {                                                  \
                        acc[j][k][l] += acc[j - 1][k][l];                                          \
                        acc[j - 1][k][l] = 0;                                                      \
                    }                                                                              \
                if ((i & (mask << (j * power))) != 0) break;                                       \
            }                                                                                      \
        }                                                                                          \
        for (; i < size; i++) {                                                                    \
            const char *b = in + i * row_stride;                                                   \
            for (int k = 0; k < 4; k++)                                                            \
                for (int l = 0; l < W; l++) acc[0][k][l] += load_f(b + k * col_stride + 4 * l);      \
        }                                                                                          \
        for (int j = 1; j < 4; j++)                                                                \
            for (int k = 0; k < 4; k++)                                                            \
                for (int l = 0; l < W; l++) acc[0][k][l] += acc[j][k][l];                          \
        memcpy(ret, acc[0], sizeof acc[0]);                                                        \
    }                                                                                              \
    /* row_sum: size items of W lanes, item i at in + i * stride */                                \
    static void NAME##_row(const char *in, int64_t stride, int64_t size, float out[W])             \
    {                                                                                              \
        float part[4][W];                                                                          \
        int64_t quarter = size / 4;                                                                \
        NAME(in, stride * 4, stride, quarter, part);                                               \
        for (int64_t i = quarter * 4; i < size; i++)                                               \
            for (int l = 0; l < W; l++) part[0][l] += load_f(in + i * stride + 4 * l);             \
        for (int k = 1; k < 4; k++)                                                                \
            for (int l = 0; l < W; l++) part[0][l] += part[k][l];                                  \
        memcpy(out, part[0], sizeof part[0]);                                                      \
    }

DEFINE_MRS(8, mrs8)
DEFINE_MRS(1, mrs1)

/* cascade_sum's loop over one 2-d block: strides {out0, in0, out1, in1} in bytes. */
static void block_sum(char *out, const char *in, const int64_t s[4], int64_t size0, int64_t size1)
{
    int64_t in_s[2] = {s[1], s[3]}, out_s[2] = {s[0], s[2]};
    if (out_s[0] != 0 && out_s[1] == 0) { /* move the reduction to dim 0 */
        int64_t t = in_s[0];
        in_s[0] = in_s[1], in_s[1] = t;
        t = out_s[0], out_s[0] = out_s[1], out_s[1] = t;
        t = size0, size0 = size1, size1 = t;
    }
    if (out_s[0] != 0 && out_s[1] != 0) { /* no reduction: out += in */
        for (int64_t j = 0; j < size1; j++)
            for (int64_t i = 0; i < size0; i++)
                add_to(out + j * out_s[1] + i * out_s[0], load_f(in + j * in_s[1] + i * in_s[0]));
        return;
    }
    const int64_t os = out_s[1];
    if (in_s[0] == 4 && size0 >= 8) { /* vectorized_inner_sum */
        int64_t nvec = size0 / 8;
        for (int64_t j = 0; j < size1; j++) {
            const char *row = in + j * in_s[1];
            float lanes[8], total = 0;
            mrs8_row(row, 32, nvec, lanes);
            for (int64_t k = nvec * 8; k < size0; k++) total += load_f(row + 4 * k);
            for (int l = 0; l < 8; l++) total += lanes[l];
            add_to(out + j * os, total);
        }
    } else if (in_s[1] == 4 && size1 >= 8) { /* vectorized_outer_sum */
        int64_t j = 0;
        for (; j + 32 <= size1; j += 32) {
            float sums[4][8];
            mrs8(in + j * 4, in_s[0], 32, size0, sums);
            for (int k = 0; k < 4; k++)
                for (int l = 0; l < 8; l++) add_to(out + (j + k * 8 + l) * os, sums[k][l]);
        }
        for (; j + 8 <= size1; j += 8) {
            float sums[8];
            mrs8_row(in + j * 4, in_s[0], size0, sums);
            for (int l = 0; l < 8; l++) add_to(out + (j + l) * os, sums[l]);
        }
        for (; j < size1; j++) {
            float v;
            mrs1_row(in + j * 4, in_s[0], size0, &v);
            add_to(out + j * os, v);
        }
    } else if (in_s[0] < in_s[1]) { /* scalar_inner_sum */
        for (int64_t j = 0; j < size1; j++) {
            float v;
            mrs1_row(in + j * in_s[1], in_s[0], size0, &v);
            add_to(out + j * os, v);
        }
    } else { /* scalar_outer_sum */
        int64_t j = 0;
        for (; j + 3 < size1; j += 4) {
            float sums[4][1];
            mrs1(in + j * in_s[1], in_s[0], in_s[1], size0, sums);
            for (int k = 0; k < 4; k++) add_to(out + (j + k) * os, sums[k][0]);
        }
        for (; j < size1; j++) {
            float v;
            mrs1_row(in + j * in_s[1], in_s[0], size0, &v);
            add_to(out + j * os, v);
        }
    }
}

/* One 2-d block of a walk: strides {out0, in0, out1, in1} in bytes. */
typedef void (*block_fn)(void *ctx, char *out, const char *in, const int64_t s[4], int64_t size0, int64_t size1);

static void sum_block(void *ctx, char *out, const char *in, const int64_t s[4], int64_t size0, int64_t size1)
{
    (void)ctx;
    block_sum(out, in, s, size0, size1);
}

/* p advanced by n bytes; NULL stays NULL (the variance walks have no output,
   and an empty tensor's data may be NULL: no pointer arithmetic on NULL). */
static inline char *advance(const char *p, int64_t n) { return p ? (char *)p + n : NULL; }

/* serial_for_each over the linear range [begin, end) of it (dim 0 fastest),
   fn(ctx, ...) on each block. out may be NULL. */
static void walk_blocks(const sum_iter *it, char *out, const char *in, int64_t begin, int64_t end, block_fn fn,
                        void *ctx)
{
    if (begin >= end) return;
    int64_t s[4] = {it->st[0][0], it->st[1][0], it->nd > 1 ? it->st[0][1] : 0, it->nd > 1 ? it->st[1][1] : 0};
    if (it->nd <= 1) {
        fn(ctx, advance(out, begin * s[0]), advance(in, begin * s[1]), s, end - begin, 1);
        return;
    }
    int64_t v[MAXD], off = begin, rest = begin;
    for (int d = 0; d < it->nd; d++) {
        v[d] = rest % it->shape[d];
        rest /= it->shape[d];
    }
    while (off < end) {
        int64_t oo = 0, xo = 0;
        for (int d = 0; d < it->nd; d++) oo += v[d] * it->st[0][d], xo += v[d] * it->st[1][d];
        char *o = advance(out, oo);
        const char *x = advance(in, xo);
        int64_t step0 = it->shape[0] - v[0], step1 = 1;
        if (end - off < step0) step0 = end - off;
        if (step0 == it->shape[0]) {
            step1 = it->shape[1] - v[1];
            if ((end - off) / it->shape[0] < step1) step1 = (end - off) / it->shape[0];
        }
        fn(ctx, o, x, s, step0, step1);
        /* DimCounter::increment */
        off += step0 * step1;
        int64_t overflow = step0;
        int d = 0;
        if (step1 != 1) d = 1, overflow = step1;
        for (; d < it->nd && overflow > 0; d++) {
            int64_t val = v[d] + overflow;
            if (val >= it->shape[d]) {
                overflow = 1;
                val -= it->shape[d];
            } else {
                overflow = 0;
            }
            v[d] = val;
        }
    }
}

/* ---- prod: binary_kernel_reduce_vec's multiply (prod_kernel_impl) on one block ----
   reduction128: 4 vectors of 8 lanes (32 floats) per row multiplied row by row,
   then (a0 * a1) * (a2 * a3), its 8 lanes in order, into *out; the rest of the
   row one by one. */
static void prod_inner(char *out, const char *in, int64_t n)
{
    float o = load_f(out), acc[32];
    int64_t count = n / 32, i = 0;
    if (count > 0) {
        memcpy(acc, in, sizeof acc);
        for (int64_t r = 1; r < count; r++)
            for (int k = 0; k < 32; k++) acc[k] *= load_f(in + (r * 32 + k) * 4);
        float h = (acc[0] * acc[8]) * (acc[16] * acc[24]);
        for (int l = 1; l < 8; l++) h *= (acc[l] * acc[8 + l]) * (acc[16 + l] * acc[24 + l]);
        o *= h;
        i = count * 32;
    }
    for (; i < n; i++) o *= load_f(in + i * 4);
    memcpy(out, &o, sizeof o);
}

/* vectorized_outer_reduction: groups of 32 contiguous columns down the rows
   (in0 bytes apart), each group's products then times the output; the other
   columns one by one. */
static void prod_outer(char *out, const char *in, int64_t in0, int64_t rows, int64_t cols)
{
    int64_t c = 0;
    float acc[32];
    for (; c + 32 <= cols; c += 32) {
        memcpy(acc, in + c * 4, sizeof acc);
        for (int64_t r = 1; r < rows; r++)
            for (int k = 0; k < 32; k++) acc[k] *= load_f(in + r * in0 + (c + k) * 4);
        for (int k = 0; k < 32; k++) {
            float o = acc[k] * load_f(out + (c + k) * 4);
            memcpy(out + (c + k) * 4, &o, sizeof o);
        }
    }
    for (; c < cols; c++) {
        float o = load_f(out + c * 4);
        for (int64_t r = 0; r < rows; r++) o *= load_f(in + r * in0 + c * 4);
        memcpy(out + c * 4, &o, sizeof o);
    }
}

static void prod_block(void *ctx, char *out, const char *in, const int64_t s[4], int64_t size0, int64_t size1)
{
    (void)ctx;
    if (s[0] == 0 && s[1] == 4) { /* is_contiguous_reduction */
        for (int64_t j = 0; j < size1; j++) prod_inner(out + j * s[2], in + j * s[3], size0);
    } else if (s[0] == 0 && s[2] == 4 && s[3] == 4) { /* is_outer_reduction */
        prod_outer(out, in, s[1], size0, size1);
    } else { /* basic_loop */
        for (int64_t j = 0; j < size1; j++)
            for (int64_t i = 0; i < size0; i++) {
                char *o = out + j * s[2] + i * s[0];
                float v = load_f(o) * load_f(in + j * s[3] + i * s[1]);
                memcpy(o, &v, sizeof v);
            }
    }
}

static void serial_walk(const sum_iter *it, char *out, const char *in, int64_t begin, int64_t end, block_fn fn)
{
    walk_blocks(it, out, in, begin, end, fn, NULL);
}

/* reorder_dimensions' comparison of iterator dims a and b: 1 when a goes after b. */
static int should_swap(const sum_iter *it, int a, int b)
{
    for (int op = 0; op < 2; op++) {
        int64_t s0 = it->st[op][a], s1 = it->st[op][b];
        if (op == 0 && (s0 == 0) != (s1 == 0)) return s1 == 0 ? 1 : -1;
        if (s0 == 0 || s1 == 0) continue;
        if (s0 < s1) return -1;
        if (s0 > s1) return 1;
        if (it->shape[a] > it->shape[b]) return 1;
    }
    return 0;
}

/* The product of the sizes of the dims d with mask[d] == keep (mask NULL: all of
   them), 0 when one of them is 0 before any product is taken: a zero-size
   tensor's other dims may multiply beyond int64 ((2**62, 4, 0)). */
static int64_t size_product(int ndim, const int64_t *sizes, const bool *mask, bool keep)
{
    for (int d = 0; d < ndim; d++)
        if ((!mask || mask[d] == keep) && sizes[d] == 0) return 0;
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        if (!mask || mask[d] == keep) n *= sizes[d];
    return n;
}

static void build_iter(sum_iter *it, int ndim, const int64_t *sizes, const int64_t *strides, const bool *reduced)
{
    int64_t out_st[MAXD], acc = 4;
    for (int d = ndim - 1; d >= 0; d--) {
        out_st[d] = reduced[d] ? 0 : acc;
        if (!reduced[d]) acc *= sizes[d];
    }
    sum_iter t;
    int perm[MAXD];
    for (int i = 0; i < ndim; i++) {
        int d = ndim - 1 - i;
        t.shape[i] = sizes[d];
        t.st[0][i] = out_st[d];
        t.st[1][i] = strides[d] * 4;
        perm[i] = i;
    }
    t.nd = ndim;
    for (int i = 1; i < ndim; i++) {
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int c = should_swap(&t, perm[d0], perm[d1]);
            if (c > 0) {
                int tmp = perm[d0];
                perm[d0] = perm[d1], perm[d1] = tmp;
                d1 = d0;
            } else if (c < 0) {
                break;
            }
        }
    }
    it->nd = ndim;
    for (int i = 0; i < ndim; i++) {
        it->shape[i] = t.shape[perm[i]];
        it->st[0][i] = t.st[0][perm[i]];
        it->st[1][i] = t.st[1][perm[i]];
    }
    if (ndim <= 1) return;
    /* coalesce_dimensions */
    int prev = 0;
    for (int d = 1; d < ndim; d++) {
        bool can = it->shape[prev] == 1 || it->shape[d] == 1;
        if (!can) {
            can = true;
            for (int op = 0; op < 2; op++)
                if (it->shape[prev] * it->st[op][prev] != it->st[op][d]) can = false;
        }
        if (can) {
            if (it->shape[prev] == 1)
                for (int op = 0; op < 2; op++) it->st[op][prev] = it->st[op][d];
            it->shape[prev] *= it->shape[d];
        } else {
            prev++;
            if (prev != d) {
                for (int op = 0; op < 2; op++) it->st[op][prev] = it->st[op][d];
                it->shape[prev] = it->shape[d];
            }
        }
    }
    it->nd = prev + 1;
}

typedef struct walk_job {
    const sum_iter *it;
    char *out;
    const char *in;
    int64_t chunk, numel;
    float *partial; /* two-pass: one per range */
    int split;      /* parallel_dim_reduction: the dim cut into column ranges */
    int64_t cols;
    block_fn fn; /* sum_block or prod_block */
} walk_job;

static void two_pass_chunk(void *vctx, int64_t c, int64_t c_end)
{
    const walk_job *j = vctx;
    for (; c < c_end; c++) {
        int64_t b = c * j->chunk, e = b + j->chunk < j->numel ? b + j->chunk : j->numel;
        serial_walk(j->it, (char *)&j->partial[c], j->in, b, e, j->fn);
    }
}

static void column_chunk(void *vctx, int64_t c, int64_t c_end)
{
    const walk_job *j = vctx;
    for (; c < c_end; c++) {
        int64_t b = c * j->chunk, e = b + j->chunk < j->cols ? b + j->chunk : j->cols;
        if (j->it->st[1][j->split] == 4) { /* round_columns to 32 floats (128 bytes) */
            b -= b % 32;
            if (e != j->cols) e -= e % 32;
        }
        if (b >= e) continue;
        sum_iter sub = *j->it;
        sub.shape[j->split] = e - b;
        int64_t n = 1;
        for (int d = 0; d < sub.nd; d++) n *= sub.shape[d];
        serial_walk(&sub, j->out + b * sub.st[0][j->split], j->in + b * sub.st[1][j->split], 0, n, j->fn);
    }
}

#define MAX_PARTIALS NN_MAX_THREADS

/* parallel_reduce of fn over it, the outputs (and partials) filled with ident first */
static void reduce_strided(const float *x, int ndim, const int64_t *sizes, const int64_t *strides, const bool *reduced,
                           float *out, block_fn fn, float ident)
{
    int64_t numel = size_product(ndim, sizes, NULL, false), outs = size_product(ndim, sizes, reduced, false);
    for (int64_t i = 0; i < outs; i++) out[i] = ident;
    if (numel == 0) return;
    sum_iter it;
    build_iter(&it, ndim, sizes, strides, reduced);
    int threads = nn_get_num_threads();
    if (threads > MAX_PARTIALS) threads = MAX_PARTIALS;
    walk_job j = {&it, (char *)out, (const char *)x, 0, numel, NULL, 0, 0, fn};
    if (numel < NN_GRAIN || threads == 1) {
        serial_walk(&it, j.out, j.in, 0, numel, fn);
    } else if (outs == 1) { /* two_pass_reduction */
        float partial[MAX_PARTIALS];
        for (int i = 0; i < MAX_PARTIALS; i++) partial[i] = ident;
        j.chunk = nn_aten_range_length(numel);
        j.partial = partial;
        nn_parallel_for(nn_chunk_count(numel, j.chunk), 1, two_pass_chunk, &j);
        sum_iter fin = {.nd = 1, .shape = {threads}, .st = {{0}, {4}}};
        serial_walk(&fin, (char *)out, (const char *)partial, 0, threads, fn);
    } else { /* parallel_dim_reduction */
        int best = it.nd - 1;
        for (int d = best; d >= 0 && it.st[0][d] != 0; d--) {
            if (it.shape[d] >= threads) {
                best = d;
                break;
            }
            if (it.shape[d] > it.shape[best]) best = d;
        }
        j.split = best;
        j.cols = it.shape[best];
        int64_t t = j.cols < threads ? j.cols : threads;
        j.chunk = (j.cols + t - 1) / t;
        nn_parallel_for(nn_chunk_count(j.cols, j.chunk), 1, column_chunk, &j);
    }
}

void nn_cpu_sum_strided_f32(const float *x, int ndim, const int64_t *sizes, const int64_t *strides,
                            const bool *reduced, float *out)
{
    reduce_strided(x, ndim, sizes, strides, reduced, out, sum_block, 0.0f);
}

void nn_cpu_prod_strided_f32(const float *x, int ndim, const int64_t *sizes, const int64_t *strides,
                             const bool *reduced, float *out)
{
    reduce_strided(x, ndim, sizes, strides, reduced, out, prod_block, 1.0f);
}

/* ---- the variance of a whole float32 tensor (std_var_all_cpu) ----
   ((x - mean)^2).sum() in double: each 2-d block of the input's walk (the
   iterator of the input alone: dims by stride, coalesced) summed from 0 in
   order, added to its range's sum; the ranges those of at::parallel_reduce
   (one when n <= 32768 or on one thread), their sums added in order. */
typedef struct sq_dev {
    double mean, sum;
} sq_dev;

static void sq_dev_block(void *ctx, char *out, const char *in, const int64_t s[4], int64_t size0, int64_t size1)
{
    (void)out;
    sq_dev *d = ctx;
    double local = 0;
    for (int64_t j = 0; j < size1; j++) {
        if (s[1] == (int64_t)sizeof(float)) {
            /* a contiguous row: the same additions, a block at a time (cpu/seq_sum.c) */
            local = nn_cpu_seq_sq_dev_f32((const float *)(in + j * s[3]), size0, d->mean, local);
            continue;
        }
        for (int64_t i = 0; i < size0; i++) {
            double dx = (double)load_f(in + j * s[3] + i * s[1]) - d->mean;
            local += dx * dx;
        }
    }
    d->sum += local;
}

typedef struct sq_job {
    const sum_iter *it;
    const char *in;
    double mean;
    int64_t chunk, numel;
    double *partial;
} sq_job;

static void sq_chunk(void *vctx, int64_t c, int64_t c_end)
{
    const sq_job *j = vctx;
    for (; c < c_end; c++) {
        int64_t b = c * j->chunk, e = b + j->chunk < j->numel ? b + j->chunk : j->numel;
        sq_dev d = {j->mean, 0};
        walk_blocks(j->it, NULL, j->in, b, e, sq_dev_block, &d);
        j->partial[c] = d.sum;
    }
}

double nn_cpu_sq_dev_sum_f32(const float *x, int ndim, const int64_t *sizes, const int64_t *strides, double mean)
{
    bool all[MAXD] = {false};
    for (int d = 0; d < ndim; d++) all[d] = true;
    int64_t numel = size_product(ndim, sizes, NULL, false);
    if (numel == 0) return 0.0;
    sum_iter it;
    build_iter(&it, ndim, sizes, strides, all);
    int threads = nn_get_num_threads();
    if (threads > MAX_PARTIALS) threads = MAX_PARTIALS;
    if (numel <= NN_GRAIN || threads == 1) {
        sq_dev d = {mean, 0};
        walk_blocks(&it, NULL, (const char *)x, 0, numel, sq_dev_block, &d);
        return 0.0 + d.sum;
    }
    double partial[MAX_PARTIALS] = {0};
    sq_job j = {&it, (const char *)x, mean, nn_aten_range_length(numel), numel, partial};
    nn_parallel_for(nn_chunk_count(numel, j.chunk), 1, sq_chunk, &j);
    double total = 0;
    for (int i = 0; i < threads; i++) total += partial[i];
    return total;
}
