/*
 * nn_extra.c — F.normalize, F.cosine_similarity, F.pairwise_distance and
 * F.local_response_norm as PyTorch 1.13 composes them (so their grad_fn is
 * PyTorch's: DivBackward0, SumBackward1, NormBackward1, DivBackward0), and
 * pixel_shuffle / pixel_unshuffle as ops (PixelShuffleBackward0,
 * PixelUnshuffleBackward0), each the other's backward.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_mod_more.h"
#include "nn_math.h"
#include "nn_pool.h"
#include "nn_scratch.h"

static int norm_dim(const nn_tensor *x, int64_t dim, int *out)
{
    int nd = x->ndim ? x->ndim : 1;
    if (dim < -nd || dim >= nd)
        return nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                            -nd, nd - 1, (long long)dim);
    *out = (int)(dim < 0 ? dim + nd : dim);
    return 0;
}

/* input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input) */
nn_tensor *nn_normalize(nn_tensor *x, double p, int64_t dim, double eps)
{
    int d;
    if (norm_dim(x, dim, &d) < 0) return NULL;
    nn_scratch s = {0};
    nn_tensor *n = NN_KEEP(&s, nn_norm(x, p, 1, &d, true)), *c = NN_KEEP(&s, n ? nn_clamp_min(n, eps) : NULL);
    nn_tensor *e = NN_KEEP(&s, c ? nn_expand(c, x->ndim, x->sizes) : NULL);
    nn_tensor *r = s.failed ? NULL : nn_div(x, e);
    nn_scratch_free(&s);
    return r;
}

/* ATen's cosine_similarity: both broadcast, each divided by its 2-norm (clamped to eps without
   recording), the products summed over dim */
nn_tensor *nn_cosine_similarity(nn_tensor *x1, nn_tensor *x2, int64_t dim, double eps)
{
    int nd = 0;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(x1->ndim, x1->sizes, x2->ndim, x2->sizes, &nd, shape) < 0) return NULL;
    nn_scratch s = {0};
    nn_tensor *a = NN_KEEP(&s, nn_expand(x1, nd, shape)), *b = NN_KEEP(&s, a ? nn_expand(x2, nd, shape) : NULL);
    int d = 0;
    if (!s.failed && norm_dim(a, dim, &d) < 0) s.failed = true;
    nn_tensor *na = NN_KEEP(&s, nn_norm(a, 2, 1, &d, true)), *nb = NN_KEEP(&s, na ? nn_norm(b, 2, 1, &d, true) : NULL);
    nn_tensor *ca = NN_KEEP(&s, nb ? nn_clone(na) : NULL), *cb = NN_KEEP(&s, ca ? nn_clone(nb) : NULL);
    if (cb) {
        bool prev = nn_set_grad_enabled(false);
        nn_tensor *const both[2] = {ca, cb};
        for (int k = 0; k < 2 && !s.failed; k++) { /* clamp_min_(eps) under no_grad */
            nn_tensor *cl = NN_KEEP(&s, nn_clamp_min(both[k], eps));
            if (!cl || nn_copy_(both[k], cl) < 0) s.failed = true;
        }
        nn_set_grad_enabled(prev);
    }
    nn_tensor *qa = NN_KEEP(&s, nn_div(a, ca)), *qb = NN_KEEP(&s, qa ? nn_div(b, cb) : NULL);
    nn_tensor *pr = NN_KEEP(&s, qb ? nn_mul(qa, qb) : NULL);
    nn_tensor *r = s.failed ? NULL : nn_sum(pr, 1, &d, false);
    nn_scratch_free(&s);
    return r;
}

/* norm(x1 - x2 + eps, p, the last dim of the broadcast, keepdim) */
nn_tensor *nn_pairwise_distance(nn_tensor *x1, nn_tensor *x2, double p, double eps, bool keepdim)
{
    int nd = x1->ndim > x2->ndim ? x1->ndim : x2->ndim, d = nd - 1 < 0 ? 0 : nd - 1;
    nn_scratch s = {0};
    nn_tensor *df = NN_KEEP(&s, nn_sub(x1, x2)), *de = NN_KEEP(&s, df ? nn_add_scalar(df, eps) : NULL);
    nn_tensor *r = s.failed ? NULL : nn_norm(de, p, nd ? 1 : 0, &d, keepdim);
    nn_scratch_free(&s);
    return r;
}

/* F.local_response_norm: input / (k + alpha * avg_pool over size channels of input^2) ** beta */
nn_tensor *nn_local_response_norm(nn_tensor *x, int64_t size, double alpha, double beta, double k)
{
    if (x->ndim < 3)
        return nn_error_set(NN_ERR_VALUE, "Expected 3D or higher dimensionality                          input (got %d dimensions)", x->ndim), NULL;
    if (nn_numel(x) == 0) return (nn_tensor *)nn_retain(&x->ob);
    nn_scratch s = {0};
    nn_tensor *sq = NN_KEEP(&s, nn_mul(x, x)), *div = NN_KEEP(&s, sq ? nn_unsqueeze(sq, 1) : NULL);
    int64_t rest = 1;
    for (int dd = 3; dd < x->ndim; dd++) rest *= x->sizes[dd];
    if (x->ndim > 3) { /* view(N, 1, C, H, -1), pooled as 2-d over (C, H * rest) */
        int64_t v4[4] = {x->sizes[0], 1, x->sizes[1], x->sizes[2] * rest};
        div = NN_KEEP(&s, div ? nn_view(div, 4, v4) : NULL);
    }
    int64_t pad[4] = {0, 0, size / 2, (size - 1) / 2};
    nn_tensor *pd = NN_KEEP(&s, div ? nn_constant_pad_nd(div, 4, pad, 0) : NULL);
    int64_t kern[2] = {size, 1}, stride[2] = {1, 1}, zero[2] = {0, 0};
    nn_tensor *pool = NN_KEEP(&s, pd ? nn_avg_pool2d(pd, kern, stride, zero, false, true, 0) : NULL);
    nn_tensor *sqz = NN_KEEP(&s, pool ? nn_squeeze_dim(pool, 1) : NULL);
    if (x->ndim > 3) sqz = NN_KEEP(&s, sqz ? nn_view(sqz, x->ndim, x->sizes) : NULL);
    nn_tensor *m = NN_KEEP(&s, sqz ? nn_mul_scalar(sqz, alpha) : NULL), *a = NN_KEEP(&s, m ? nn_add_scalar(m, k) : NULL);
    nn_tensor *pw = NN_KEEP(&s, a ? nn_pow_scalar(a, beta) : NULL);
    nn_tensor *r = s.failed ? NULL : nn_div(x, pw);
    nn_scratch_free(&s);
    return r;
}

/* ------------------------------------------------------- pixel shuffle */

/* [*, C * r^2, H, W] <-> [*, C, H * r, W * r] by reshape, permute, reshape (no recording) */
static nn_tensor *shuffle(nn_tensor *x, int64_t r, bool up)
{
    int nd = x->ndim, lead = nd - 3;
    int64_t c = x->sizes[nd - 3], h = x->sizes[nd - 2], w = x->sizes[nd - 1], sizes[NN_MAX_DIMS + 3];
    int perm[NN_MAX_DIMS + 3];
    for (int d = 0; d < lead; d++) sizes[d] = x->sizes[d], perm[d] = d;
    int64_t out[NN_MAX_DIMS];
    memcpy(out, x->sizes, sizeof(int64_t) * (size_t)lead);
    if (up) { /* [*, C, r, r, H, W] -> [*, C, H, r, W, r] */
        int64_t oc = c / (r * r);
        int64_t v[5] = {oc, r, r, h, w};
        int p[5] = {0, 3, 1, 4, 2};
        for (int i = 0; i < 5; i++) sizes[lead + i] = v[i], perm[lead + i] = lead + p[i];
        out[lead] = oc, out[lead + 1] = h * r, out[lead + 2] = w * r;
    } else { /* [*, C, H/r, r, W/r, r] -> [*, C, r, r, H/r, W/r] */
        int64_t v[5] = {c, h / r, r, w / r, r};
        int p[5] = {0, 2, 4, 1, 3};
        for (int i = 0; i < 5; i++) sizes[lead + i] = v[i], perm[lead + i] = lead + p[i];
        out[lead] = c * r * r, out[lead + 1] = h / r, out[lead + 2] = w / r;
    }
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *v = nn_reshape(x, lead + 5, sizes), *pm = v ? nn_permute(v, lead + 5, perm) : NULL;
    nn_tensor *y = pm ? nn_reshape(pm, nd, out) : NULL;
    nn_set_grad_enabled(prev);
    NN_RELEASE(v);
    NN_RELEASE(pm);
    /* reshape may view the input: the result must own its data */
    if (y && y->storage == x->storage) {
        nn_tensor *c2 = NULL;
        NN_WITH_GRAD_MODE(false, c2 = nn_clone(y));
        NN_RELEASE(y);
        y = c2;
    }
    return y;
}

static nn_tensor *pixel_op(nn_tensor *x, int64_t r, bool up)
{
    const char *name = up ? "pixel_shuffle" : "pixel_unshuffle";
    if (x->ndim < 3)
        return nn_error_set(NN_ERR_RUNTIME, "%s expects input to have at least 3 dimensions, but got input with %d "
                            "dimension(s)", name, x->ndim),
               NULL;
    if (r <= 0)
        return nn_error_set(NN_ERR_RUNTIME, "%s expects a positive %s, but got %lld", name,
                            up ? "upscale_factor" : "downscale_factor", (long long)r),
               NULL;
    int nd = x->ndim;
    if (up && x->sizes[nd - 3] % (r * r))
        return nn_error_set(NN_ERR_RUNTIME, "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
                            "square of upscale_factor, but input.size(-3)=%lld is not divisible by %lld",
                            (long long)x->sizes[nd - 3], (long long)(r * r)),
               NULL;
    if (!up && x->sizes[nd - 2] % r)
        return nn_error_set(NN_ERR_RUNTIME, "pixel_unshuffle expects height to be divisible by downscale_factor, but "
                            "input.size(-2)=%lld is not divisible by %lld", (long long)x->sizes[nd - 2], (long long)r),
               NULL;
    if (!up && x->sizes[nd - 1] % r)
        return nn_error_set(NN_ERR_RUNTIME, "pixel_unshuffle expects width to be divisible by downscale_factor, but "
                            "input.size(-1)=%lld is not divisible by %lld", (long long)x->sizes[nd - 1], (long long)r),
               NULL;
    nn_tensor *y = shuffle(x, r, up);
    nn_op_params p = {.n_i = 1, .i = {r}};
    if (y && nn_record(up ? NN_OP_pixel_shuffle : NN_OP_pixel_unshuffle, 1, &x, 1, &y, 0, NULL, &p) < 0) NN_SET(y, NULL);
    return y;
}

nn_tensor *nn_pixel_shuffle(nn_tensor *x, int64_t upscale_factor) { return pixel_op(x, upscale_factor, true); }
nn_tensor *nn_pixel_unshuffle(nn_tensor *x, int64_t downscale_factor) { return pixel_op(x, downscale_factor, false); }

int nn_pixel_shuffle_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    gin[0] = nn_pixel_unshuffle(gout[0], n->p.i[0]);
    return gin[0] ? 0 : -1;
}

int nn_pixel_unshuffle_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    gin[0] = nn_pixel_shuffle(gout[0], n->p.i[0]);
    return gin[0] ? 0 : -1;
}
