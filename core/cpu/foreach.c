/*
 * cpu/foreach.c — the CPU backend's host loop: nn_foreach walks nt strided
 * operands in host memory, and nn_foreach_parallel splits an elementwise one
 * over the pool's threads (core/parallel.c). The `map` kernel and the CPU's
 * elementwise kernels (copy, fill, binary, unary) run on it; code outside the
 * backends reaches tensor memory through kernels or the host contract instead.
 */
#include "nn_cpu.h"

void nn_foreach(int nt, const nn_tensor *const *ts, nn_loop_fn fn, void *ctx)
{
    const nn_tensor *shape = ts[0];
    int64_t sizes[NN_MAX_DIMS];
    int64_t strides[NN_MAX_DIMS][NN_MAX_OPERANDS]; /* bytes; index 0 is the innermost dim */
    int nd = 0;
    char *data[NN_MAX_OPERANDS];
    int64_t esize[NN_MAX_OPERANDS];
    for (int k = 0; k < nt; k++) {
        data[k] = nn_data_ptr(ts[k]);
        esize[k] = (int64_t)nn_dtype_size(ts[k]->dtype);
    }
    for (int d = shape->ndim - 1; d >= 0; d--) {
        int64_t n = shape->sizes[d];
        if (n == 0) return;
        if (n == 1) continue;
        bool mergeable = nd > 0;
        for (int k = 0; k < nt && mergeable; k++)
            mergeable = strides[nd - 1][k] * sizes[nd - 1] == ts[k]->strides[d] * esize[k];
        if (mergeable) {
            sizes[nd - 1] *= n;
            continue;
        }
        sizes[nd] = n;
        for (int k = 0; k < nt; k++) strides[nd][k] = ts[k]->strides[d] * esize[k];
        nd++;
    }
    if (nd == 0) {
        int64_t zero[NN_MAX_OPERANDS] = {0};
        fn(data, zero, 1, ctx);
        return;
    }
    int64_t counter[NN_MAX_DIMS] = {0};
    for (;;) {
        fn(data, strides[0], sizes[0], ctx);
        int d = 1;
        for (; d < nd; d++) {
            for (int k = 0; k < nt; k++) data[k] += strides[d][k];
            if (++counter[d] < sizes[d]) break;
            for (int k = 0; k < nt; k++) data[k] -= strides[d][k] * sizes[d];
            counter[d] = 0;
        }
        if (d == nd) return;
    }
}

typedef struct split_loop {
    int nt;
    char *data[NN_MAX_OPERANDS];
    int64_t strides[NN_MAX_OPERANDS];
    nn_loop_fn fn;
    void *ctx;
} split_loop;

static void split_chunk(void *vctx, int64_t begin, int64_t end)
{
    const split_loop *s = vctx;
    char *data[NN_MAX_OPERANDS];
    for (int k = 0; k < s->nt; k++) data[k] = s->data[k] + begin * s->strides[k];
    s->fn(data, s->strides, end - begin, s->ctx);
}

/* Every element in one block in row-major order (stride[k] bytes apart), or
   one value everywhere (stride 0); false otherwise. */
static bool flat_stride(const nn_tensor *t, int64_t n, int64_t *stride)
{
    if (nn_is_contiguous(t) && nn_numel(t) == n) {
        *stride = (int64_t)nn_dtype_size(t->dtype);
        return true;
    }
    for (int d = 0; d < t->ndim; d++)
        if (t->sizes[d] != 1 && t->strides[d] != 0) return false;
    *stride = 0;
    return true;
}

void nn_foreach_parallel(int nt, const nn_tensor *const *ts, nn_loop_fn fn, void *ctx)
{
    int64_t n = nn_numel(ts[0]);
    split_loop s = {.nt = nt, .fn = fn, .ctx = ctx};
    bool flat = n > NN_GRAIN && nn_get_num_threads() > 1 && !nn_parallel_in_chunk() && nn_is_contiguous(ts[0]);
    for (int k = 0; k < nt && flat; k++) {
        flat = flat_stride(ts[k], n, &s.strides[k]);
        s.data[k] = nn_data_ptr(ts[k]);
    }
    if (!flat) {
        nn_foreach(nt, ts, fn, ctx);
        return;
    }
    nn_parallel_for(n, NN_GRAIN, split_chunk, &s);
}
