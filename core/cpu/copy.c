/*
 * cpu/copy.c — the CPU's fill and copy/cast kernels (kernels.def `fill`, `copy`)
 * and its host transfers: the CPU's memory is host memory, so they are memcpy.
 */
#include <math.h>
#include <string.h>

#include "nn_cpu.h"

typedef struct fill_ctx {
    char value[16]; /* complex128's */
    size_t esize;
} fill_ctx;

static void fill_loop(char **data, const int64_t *strides, int64_t n, void *ctx)
{
    fill_ctx *f = ctx;
    if (f->esize == 4 && strides[0] == 4) {
        float v;
        memcpy(&v, f->value, 4);
        float *o = (float *)data[0];
        for (int64_t i = 0; i < n; i++) o[i] = v; /* also right for int32: same bits */
        return;
    }
    for (int64_t i = 0; i < n; i++) memcpy(data[0] + i * strides[0], f->value, f->esize);
}

int nn_cpu_fill(nn_tensor *t, double value)
{
    if (value == 0 && !signbit(value) && nn_is_contiguous(t)) { /* zeros: all bits 0 in every dtype */
        memset(nn_data_ptr(t), 0, (size_t)nn_numel(t) * nn_dtype_size(t->dtype));
        return 0;
    }
    fill_ctx f = {.esize = nn_dtype_size(t->dtype)};
    nn_store_double(f.value, t->dtype, value);
    const nn_tensor *ts[1] = {t};
    nn_foreach(1, ts, fill_loop, &f);
    return 0;
}

static int64_t load_int(const char *p, nn_dtype dt)
{
    switch (dt) {
    case NN_INT32: return *(const int32_t *)p;
    case NN_INT16: return *(const int16_t *)p;
    case NN_INT8: return *(const int8_t *)p;
    case NN_UINT8: return *(const uint8_t *)p;
    default: return *(const int64_t *)p;
    }
}

static void store_int(char *p, nn_dtype dt, int64_t v)
{
    switch (dt) {
    case NN_INT32: *(int32_t *)p = (int32_t)(uint32_t)v; break;
    case NN_INT16: *(int16_t *)p = (int16_t)(uint16_t)v; break;
    case NN_INT8: *(int8_t *)p = (int8_t)(uint8_t)v; break;
    case NN_UINT8: *(uint8_t *)p = (uint8_t)v; break;
    default: *(int64_t *)p = v; break;
    }
}

typedef struct copy_ctx {
    nn_dtype dst, src;
} copy_ctx;

static void copy_loop(char **data, const int64_t *strides, int64_t n, void *ctx)
{
    copy_ctx *c = ctx;
    char *o = data[0], *in = data[1];
    int64_t so = strides[0], si = strides[1];
    if (c->dst == c->src) {
        size_t es = nn_dtype_size(c->dst);
        if (so == (int64_t)es && si == (int64_t)es) {
            memcpy(o, in, (size_t)n * es);
            return;
        }
        for (int64_t i = 0; i < n; i++) memcpy(o + i * so, in + i * si, es);
        return;
    }
    if (nn_dtype_is_complex(c->dst) && nn_dtype_is_complex(c->src)) { /* complex64 <-> complex128: both parts */
        for (int64_t i = 0; i < n; i++)
            for (int k = 0; k < 2; k++) {
                const char *from = in + i * si + k * (c->src == NN_COMPLEX64 ? 4 : 8);
                nn_store_double(o + i * so + k * (c->dst == NN_COMPLEX64 ? 4 : 8), nn_dtype_to_real(c->dst),
                                nn_load_double(from, nn_dtype_to_real(c->src)));
            }
        return;
    }
    if (c->dst == NN_FLOAT32 && c->src == NN_FLOAT64) {
        for (int64_t i = 0; i < n; i++) *(float *)(o + i * so) = (float)*(const double *)(in + i * si);
        return;
    }
    if (c->dst == NN_FLOAT64 && c->src == NN_FLOAT32) {
        for (int64_t i = 0; i < n; i++) *(double *)(o + i * so) = *(const float *)(in + i * si);
        return;
    }
    if (c->dst == NN_INT64 && (c->src == NN_INT32 || c->src == NN_BOOL)) {
        for (int64_t i = 0; i < n; i++)
            *(int64_t *)(o + i * so) = c->src == NN_INT32 ? *(const int32_t *)(in + i * si) : *(const uint8_t *)(in + i * si);
        return;
    }
    if (nn_dtype_is_integer(c->dst) && nn_dtype_is_integer(c->src)) { /* exact, wrapping: int64 -> int32 keeps the low bits */
        for (int64_t i = 0; i < n; i++) store_int(o + i * so, c->dst, load_int(in + i * si, c->src));
        return;
    }
    for (int64_t i = 0; i < n; i++) nn_store_double(o + i * so, c->dst, nn_load_double(in + i * si, c->src));
}

int nn_cpu_copy(nn_tensor *dst, const nn_tensor *src)
{
    copy_ctx c = {dst->dtype, src->dtype};
    const nn_tensor *ts[2] = {dst, src};
    nn_foreach(2, ts, copy_loop, &c);
    return 0;
}

int nn_cpu_map(int nt, const nn_tensor *const *ts, nn_loop_fn fn, void *ctx, bool elementwise)
{
    if (elementwise) nn_foreach_parallel(nt, ts, fn, ctx);
    else nn_foreach(nt, ts, fn, ctx);
    return 0;
}
