/*
 * autocast.c — the CPU autocast state and its casts (nn_autocast.h).
 */
#include "nn_autocast.h"

static _Thread_local bool enabled;
static _Thread_local nn_dtype fast_dtype = NN_BFLOAT16;

bool nn_autocast_enabled(void) { return enabled; }

bool nn_autocast_set_enabled(bool on)
{
    bool prev = enabled;
    enabled = on;
    return prev;
}

nn_dtype nn_autocast_dtype(void) { return fast_dtype; }

void nn_autocast_set_dtype(nn_dtype dt) { fast_dtype = dt; }

/* PyTorch's is_eligible: a floating tensor other than float64 */
static bool needs_cast(const nn_tensor *t, nn_dtype to)
{
    return t && nn_dtype_is_floating(t->dtype) && t->dtype != NN_FLOAT64 && t->dtype != to;
}

/* t.to(to) as PyTorch's preserve_format: a dense tensor whose strides are a permutation of
   contiguous ones (w.t()) keeps them, so the products that read it sum as ATen's do. */
static nn_tensor *cast_keeping_strides(nn_tensor *t, nn_dtype to)
{
    int order[NN_MAX_DIMS], inverse[NN_MAX_DIMS], n = t->ndim;
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = 1; i < n; i++) /* dims by stride, largest first (a stable insertion sort) */
        for (int j = i; j > 0 && t->strides[order[j - 1]] < t->strides[order[j]]; j--) {
            int k = order[j];
            order[j] = order[j - 1], order[j - 1] = k;
        }
    bool permuted = false;
    for (int i = 0; i < n; i++) permuted |= order[i] != i, inverse[order[i]] = i;
    if (!permuted || nn_is_contiguous(t)) return nn_to_dtype(t, to);
    nn_tensor *p = nn_permute(t, n, order), *r = NULL;
    if (p && nn_is_contiguous(p)) {
        nn_tensor *c = nn_to_dtype(p, to);
        r = c ? nn_permute(c, n, inverse) : NULL;
        NN_RELEASE(c);
    } else if (p) {
        r = nn_to_dtype(t, to); /* overlapping or with gaps: a contiguous copy, as PyTorch's */
    }
    NN_RELEASE(p);
    return r;
}

int nn_autocast_cast(nn_autocast_policy p, nn_tensor **t, int n)
{
    nn_dtype to = p == NN_AUTOCAST_LOWER ? fast_dtype : NN_FLOAT32;
    bool any = false;
    for (int i = 0; i < n; i++) any |= needs_cast(t[i], to);
    if (!any) return 0;
    for (int i = 0; i < n; i++) {
        nn_tensor *c = !t[i] ? NULL : needs_cast(t[i], to) ? cast_keeping_strides(t[i], to) : (nn_tensor *)nn_retain(&t[i]->ob);
        if (t[i] && !c) {
            for (int j = 0; j < i; j++) NN_RELEASE(t[j]);
            return -1;
        }
        t[i] = c;
    }
    return 1;
}

void nn_autocast_release(nn_tensor **t, int n)
{
    for (int i = 0; i < n; i++) NN_RELEASE(t[i]);
}
