/*
 * memory_format.c — torch.channels_last and its kin: the strides of a memory format
 * (c10's get_channels_last_strides_2d/3d), whether a tensor is contiguous in one
 * (compute_channels_last_contiguous_2d/3d), the format its strides suggest
 * (is_channels_last_strides_2d/3d), and copies laid out in a format (clone, contiguous,
 * to with memory_format=). A tensor in channels-last order is an ordinary strided
 * tensor: every op reads it as it reads a permuted view.
 */
#include <string.h>

#include "nn_int.h"

/* The dims of a 4-d (5-d) tensor from innermost to outermost in the channels-last order. */
static int cl_order(int ndim, int *order)
{
    int n = 0;
    order[n++] = 1;
    for (int d = ndim - 1; d >= 2; d--) order[n++] = d;
    order[n++] = 0;
    return n;
}

static int rank_of(nn_memory_format f) { return f == NN_CHANNELS_LAST ? 4 : 5; }

int nn_memory_format_strides(int ndim, const int64_t *sizes, nn_memory_format f, int64_t *strides)
{
    if (f == NN_CHANNELS_LAST || f == NN_CHANNELS_LAST_3D) {
        if (ndim != rank_of(f))
            return nn_error_set(NN_ERR_RUNTIME, "required rank %d tensor to use %s format", rank_of(f),
                                f == NN_CHANNELS_LAST ? "channels_last" : "channels_last_3d");
        int order[5];
        int n = cl_order(ndim, order);
        int64_t s = 1;
        for (int i = 0; i < n; i++) strides[order[i]] = s, s *= sizes[order[i]]; /* c10: the sizes as they are */
        return 0;
    }
    int64_t s = 1;
    for (int d = ndim - 1; d >= 0; d--) strides[d] = s, s *= sizes[d] > 1 ? sizes[d] : 1;
    return 0;
}

bool nn_is_contiguous_as(const nn_tensor *t, nn_memory_format f)
{
    if (f != NN_CHANNELS_LAST && f != NN_CHANNELS_LAST_3D) return nn_is_contiguous(t);
    if (t->ndim != rank_of(f)) return false;
    if (nn_numel(t) == 0) return true;
    int order[5];
    int n = cl_order(t->ndim, order);
    int64_t expected = 1;
    for (int i = 0; i < n; i++) {
        int d = order[i];
        if (t->sizes[d] == 1) continue;
        if (t->strides[d] != expected) return false;
        expected *= t->sizes[d];
    }
    return true;
}

/* c10's is_channels_last_strides_2d_s4 / 3d_s5: strides growing in the channels-last order,
   ambiguous cases (N111, N1H1) left to the contiguous format */
static bool strides_like_channels_last(const nn_tensor *t)
{
    int order[5];
    int n = cl_order(t->ndim, order);
    int64_t min = 0;
    if (t->strides[1] == 0) return false;
    for (int i = 0; i < n; i++) {
        int d = order[i];
        if (t->sizes[d] == 0 || t->strides[d] < min) return false;
        if (d == 0 && min == t->strides[1]) return false;
        min = t->strides[d];
        if (t->sizes[d] > 1) min *= t->sizes[d];
    }
    return true;
}

nn_memory_format nn_suggest_memory_format(const nn_tensor *t)
{
    if ((t->ndim == 4 || t->ndim == 5) && !nn_is_contiguous(t) && strides_like_channels_last(t))
        return t->ndim == 4 ? NN_CHANNELS_LAST : NN_CHANNELS_LAST_3D;
    return NN_CONTIGUOUS_FORMAT;
}

/* A copy of t in dtype laid out in format f (preserve: the format t's strides suggest),
   without autograd. */
static nn_tensor *copy_in(nn_tensor *t, nn_dtype dtype, nn_memory_format f)
{
    if (f == NN_PRESERVE_FORMAT) f = nn_suggest_memory_format(t);
    int64_t strides[NN_MAX_DIMS];
    if (nn_memory_format_strides(t->ndim, t->sizes, f, strides) < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(t), t->ndim, t->sizes, dtype);
    if (!out) return NULL;
    memcpy(out->strides, strides, sizeof(int64_t) * (size_t)t->ndim); /* a fresh tensor: the same elements, reordered */
    int rc;
    NN_WITH_GRAD_MODE(false, rc = nn_copy_(out, t));
    if (rc < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_clone_as(nn_tensor *t, nn_memory_format f)
{
    if (!t) return NULL;
    nn_tensor *out = copy_in(t, t->dtype, f);
    if (out && nn_record(NN_OP_clone, 1, &t, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_contiguous_as(nn_tensor *t, nn_memory_format f)
{
    if (!t) return NULL;
    if (nn_is_contiguous_as(t, f)) { /* preserve_format: plainly contiguous */
        NN_RETAIN(t);
        return t;
    }
    if (f == NN_PRESERVE_FORMAT)
        return nn_error_set(NN_ERR_RUNTIME, "preserve memory format is unsupported by the contiguous operator"), NULL;
    return nn_clone_as(t, f);
}

nn_tensor *nn_to_as(nn_tensor *t, nn_dtype dtype, nn_memory_format f, bool copy)
{
    if (!t) return NULL;
    if (!copy && t->dtype == dtype && (f == NN_PRESERVE_FORMAT || nn_suggest_memory_format(t) == f)) {
        NN_RETAIN(t);
        return t;
    }
    nn_tensor *out = copy_in(t, dtype, f);
    if (out && (nn_dtype_is_floating(dtype) || nn_dtype_is_complex(dtype)) &&
        nn_record(NN_OP_to_copy, 1, &t, 1, &out, 0, NULL, NULL) < 0)
        NN_SET(out, NULL);
    return out;
}
