/*
 * reduce_exact.c — float32 var/std and vector norms on the CPU in the order
 * PyTorch 1.13 computes them (see docs/numerics.md):
 *  - var/std of all elements (a single output: std_var_all_cpu): the mean is
 *    the float32 mean (the cascade sum over the tensor's layout, divided in
 *    float32), then ((x - mean)^2).sum() in double over the input's walk
 *    (cpu/sum_iter.c), divided by max(0, n - correction) in double, sqrt in
 *    double, rounded to float32;
 *  - var/std over dims (WelfordOps in double, the kernel's Welford rows): each
 *    output's elements in memory order, as TensorIterator visits them (the
 *    reduced dims sorted by stride), also for non-contiguous input;
 *  - norms (cpu/norm_f32.c): p = 2 over one contiguous innermost run of
 *    reduced dims by the vectorized loop, else one float32 accumulator over
 *    the elements in memory order.
 */
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_reduce_exact.h"

int nn_reduce_memory_layout(nn_tensor *a, const nn_reduction_layout *l, nn_reduction_layout *l2)
{
    if (a->ndim == 0 || nn_is_contiguous(a)) return 0;
    /* the reduced dims, in their slots, ordered by decreasing stride (the outermost in memory first) */
    int perm[NN_MAX_DIMS], slots[NN_MAX_DIMS], nr = 0;
    for (int d = 0; d < a->ndim; d++) {
        perm[d] = d;
        if (l->reduced[d]) slots[nr++] = d;
    }
    int order[NN_MAX_DIMS];
    for (int i = 0; i < nr; i++) {
        int d = slots[i], k = i;
        while (k > 0 && a->strides[order[k - 1]] < a->strides[d]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = d;
    }
    for (int i = 0; i < nr; i++) perm[slots[i]] = order[i];
    nn_tensor *view = NULL;
    NN_WITH_GRAD_MODE(false, view = nn_permute(a, a->ndim, perm));
    if (!view) return -1;
    int rc = nn_reduction_layout_make(view, nr, slots, false, l2);
    NN_RELEASE(view);
    return rc < 0 ? -1 : 1;
}

int nn_var_all_f32_exact(nn_tensor *a, const nn_reduction_layout *l, double correction, bool take_sqrt,
                         nn_tensor *out)
{
    if (a->dtype != NN_FLOAT32 || nn_device_of(a).type != NN_CPU || a->ndim == 0 || l->outer != 1 || l->inner == 0)
        return 0;
    nn_reduce_op op = take_sqrt ? NN_REDUCE_STD_ALL_F32 : NN_REDUCE_VAR_ALL_F32;
    if (NN_KERNEL(nn_backend_of(a), reduce, (op, a, 1, l->inner, correction, out, NULL)) < 0) return -1;
    return 1;
}

/* Whether the reduced dims (those longer than 1) make one contiguous run
   that includes the innermost element: TensorIterator's is_reduce_lastdim. */
static bool reduces_lastdim(const nn_tensor *a, const bool *reduced)
{
    int64_t want = 1;
    bool used[NN_MAX_DIMS] = {false};
    for (;;) {
        int found = -1;
        for (int d = 0; d < a->ndim; d++)
            if (reduced[d] && !used[d] && a->sizes[d] > 1 && a->strides[d] == want) found = d;
        if (found < 0) break;
        used[found] = true;
        want *= a->sizes[found];
    }
    for (int d = 0; d < a->ndim; d++)
        if (reduced[d] && a->sizes[d] > 1 && !used[d]) return false;
    return want > 1;
}

int nn_norm_f32_exact(nn_tensor *a, const nn_reduction_layout *l, double p, nn_tensor *out)
{
    if (a->dtype != NN_FLOAT32 || out->dtype != NN_FLOAT32 || nn_device_of(a).type != NN_CPU || a->ndim == 0 ||
        l->inner == 0 || l->outer == 0)
        return 0;
    nn_reduction_layout l2;
    int made = nn_reduce_memory_layout(a, l, &l2);
    if (made < 0) return -1;
    nn_reduce_op op = p == 2 && reduces_lastdim(a, l->reduced) ? NN_REDUCE_NORM2_LASTDIM_F32 : NN_REDUCE_NORM_SEQ_F32;
    int rc = NN_KERNEL(nn_backend_of(a), reduce, (op, made ? l2.data : l->data, l->outer, l->inner, p, out, NULL));
    if (made) NN_RELEASE(l2.data);
    return rc < 0 ? -1 : 1;
}

/* sqrt(sum(x * x, dims)), the product laid out as x is (PyTorch's elementwise
   result keeps its input's dim order in memory): x permuted so its strides
   decrease, squared into a contiguous tensor, permuted back, then summed in
   PyTorch's order for that layout. */
nn_tensor *nn_frobenius_norm(nn_tensor *x, int n_dims, const int *dims, bool keepdim)
{
    int perm[NN_MAX_DIMS], inv[NN_MAX_DIMS];
    for (int i = 0; i < x->ndim; i++) {
        int k = i;
        while (k > 0 && x->strides[perm[k - 1]] < x->strides[i]) {
            perm[k] = perm[k - 1];
            k--;
        }
        perm[k] = i;
    }
    for (int i = 0; i < x->ndim; i++) inv[perm[i]] = i;
    nn_tensor *xp = nn_permute(x, x->ndim, perm);
    nn_tensor *sq = xp ? nn_mul(xp, xp) : NULL;
    nn_tensor *back = sq ? nn_permute(sq, x->ndim, inv) : NULL;
    nn_tensor *sum = back ? nn_sum(back, n_dims, dims, keepdim) : NULL;
    nn_tensor *r = sum ? nn_sqrt(sum) : NULL;
    NN_RELEASE(xp);
    NN_RELEASE(sq);
    NN_RELEASE(back);
    NN_RELEASE(sum);
    return r;
}
