/*
 * nnfunc.c — neural-network functions: softmax and log_softmax, cat and
 * stack, dropout, the losses (mse, l1, cross entropy through nll_loss),
 * layer_norm and embedding, each op's backward beside its forward.
 *
 * Kernels work on contiguous data viewed as [outer, dim, inner]. The float32
 * kernels emulate PyTorch 1.13's CPU kernels as its AVX2 build runs them
 * (Sleef exp, sums per vector lane combined by shuffles, fused multiply-adds,
 * cascade sums, single-threaded order), which reproduces PyTorch's numbers
 * bit for bit on the fixture; float64 computes the same formulas plainly;
 * bfloat16 computes in float32 and rounds at the end.
 *
 * Backwards: a direct kernel when grad mode is off during the backward (the
 * usual case); with create_graph the same formula is built from
 * differentiable nn_* ops, so double backward works (embedding excepted).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "nn_half.h"
#include "nn_losses.h"
#include "nn_parallel.h"
#include "nn_select.h"
#include "nn_select_more.h"
#include "nn_autocast.h"

/* ---------------------------------------------------------------- helpers */

/* PyTorch's ScalarType names, as "not implemented for 'Long'" prints them. */
static const char *type_title(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "Float", [NN_FLOAT64] = "Double", [NN_FLOAT16] = "Half", [NN_BFLOAT16] = "BFloat16",
        [NN_INT64] = "Long",    [NN_INT32] = "Int",      [NN_BOOL] = "Bool",
        [NN_UINT8] = "Byte",    [NN_INT8] = "Char",      [NN_INT16] = "Short",
    };
    return names[dt];
}

/* t converted to dtype and made contiguous, without autograd; new reference. */
static nn_tensor *dense(nn_tensor *t, nn_dtype dtype)
{
    nn_tensor *r = NULL;
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *c = nn_to_dtype(t, dtype);
    if (c) {
        r = nn_contiguous(c);
        NN_RELEASE(c);
    }
    nn_set_grad_enabled(prev);
    return r;
}

/* Sizes before dim d, at d, and after d (a 0-dim tensor is [1, 1, 1]). */
static void split_at(int ndim, const int64_t *sizes, int d, int64_t *outer, int64_t *n, int64_t *inner)
{
    *outer = *inner = *n = 1;
    for (int i = 0; i < ndim; i++) {
        if (i < d) *outer *= sizes[i];
        else if (i == d) *n = sizes[i];
        else *inner *= sizes[i];
    }
}

static bool same_shape(int na, const int64_t *a, int nb, const int64_t *b)
{
    return na == nb && memcmp(a, b, sizeof(int64_t) * (size_t)na) == 0;
}


/* Temporaries of a composite computation, released together. */
#define MAX_TEMPS 32
typedef struct temps {
    nn_tensor *t[MAX_TEMPS];
    int n;
} temps;

/* Keeps t (a new reference, or NULL) for temps_release; returns t (NULL, with
   an error, if the table is full: a bug in the caller, not a user's doing). */
static nn_tensor *keep(temps *s, nn_tensor *t)
{
    if (t && s->n == MAX_TEMPS) {
        NN_RELEASE(t);
        nn_error_set(NN_ERR_RUNTIME, "nnfunc: too many temporaries in one computation");
        return NULL;
    }
    if (t) s->t[s->n++] = t;
    return t;
}

static void temps_release(temps *s)
{
    for (int i = 0; i < s->n; i++) NN_RELEASE(s->t[i]);
    s->n = 0;
}

/* Runs expr; a NULL result jumps to fail. The result is owned by temps s. */
#define STEP(var, expr)                                  \
    do {                                                 \
        if (!((var) = keep(&s, (expr)))) goto fail;      \
    } while (0)

/* A result kept in temps handed to the caller: retained, so temps_release leaves it alive. */
static nn_tensor *give(nn_tensor *t)
{
    NN_RETAIN(t);
    return t;
}

/* The saved output i of node n with n as its grad_fn again (as PyTorch unpacks
   a saved output), so a composite backward built on it reaches the op's input
   in a double backward. New reference. */
static nn_tensor *saved_output_with_history(nn_node *n, int i)
{
    nn_tensor *s = nn_node_saved(n, i);
    nn_tensor *t = nn_detach(s);
    if (!t) return NULL;
    if (nn_grad_enabled()) {
        NN_RETAIN(n);
        t->grad_fn = n;
        t->output_nr = n->saved[i].producer_output_nr;
        t->requires_grad = true;
    }
    return t;
}

/* Sum a gradient g over the leading dims of a [lead..., norm...] shape down to norm (n_lead of them). */
static nn_tensor *sum_leading(nn_tensor *g, int n_lead)
{
    if (n_lead == 0) {
        NN_RETAIN(g);
        return g;
    }
    int dims[NN_MAX_DIMS];
    for (int d = 0; d < n_lead; d++) dims[d] = d;
    return nn_sum(g, n_lead, dims, false);
}

/* ---------------------------------------------------- softmax, log_softmax */

/* The dtype a kernel computes in: the tensor's own, float32 for bfloat16. */
static nn_dtype kernel_dtype(nn_dtype dt) { return dt == NN_BFLOAT16 ? NN_FLOAT32 : dt; }

static nn_tensor *softmax_impl(nn_tensor *a, int dim, bool log)
{
    if (!a) return NULL; /* an operand a nested call failed to make (its error is current) */
    int d;
    if (nn_wrap_dim(dim, a->ndim, &d) < 0) return NULL;
    bool lastdim = a->ndim == 0 || d == a->ndim - 1;
    if (a->dtype != NN_FLOAT32 && a->dtype != NN_FLOAT64 && a->dtype != NN_BFLOAT16) {
        nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                     lastdim ? (log ? "log_softmax_lastdim_kernel_impl" : "softmax_lastdim_kernel_impl")
                             : "softmax_kernel_impl",
                     type_title(a->dtype));
        return NULL;
    }
    int64_t outer, n, inner;
    split_at(a->ndim, a->sizes, d, &outer, &n, &inner);
    nn_dtype kd = kernel_dtype(a->dtype);
    bool bf16_log = log && lastdim && a->dtype == NN_BFLOAT16 && a->ndim > 0; /* its own rounding steps */
    nn_tensor *x = bf16_log ? NULL : dense(a, kd), *y = x ? nn_empty_on(nn_device_of(x), a->ndim, a->sizes, kd) : NULL;
    if (y && NN_KERNEL(nn_backend_of(y), softmax, (log, false, lastdim, outer, n, inner, y, x, NULL)) < 0) NN_SET(y, NULL);
    NN_RELEASE(x);
    if (bf16_log) y = nn_bf16_log_softmax_lastdim(a, d);
    if (!y) return NULL;
    nn_tensor *out = y;
    if (y->dtype != a->dtype) {
        out = dense(y, a->dtype);
        NN_RELEASE(y);
        if (!out) return NULL;
    }
    nn_op_params p = {.i = {d, lastdim}, .n_i = 2};
    if (nn_record(log ? NN_OP_log_softmax : NN_OP_softmax, 1, &a, 1, &out, 1, &out, &p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_softmax(nn_tensor *a, int dim) { return softmax_impl(a, dim, false); }
nn_tensor *nn_log_softmax(nn_tensor *a, int dim) { return softmax_impl(a, dim, true); }

static int softmax_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, bool log)
{
    int d = (int)n->p.i[0];
    nn_tensor *g = gout[0];
    if (nn_grad_enabled()) {
        /* create_graph: the same formula from differentiable ops */
        temps s = {0};
        nn_tensor *y, *t1, *t2, *t3;
        STEP(y, saved_output_with_history(n, 0));
        if (log) {
            STEP(t1, nn_exp(y));
            STEP(t2, nn_sum(g, 1, &d, true));
            STEP(t3, nn_mul(t1, t2));
            STEP(gin[0], give(nn_sub(g, t3)));
        } else {
            STEP(t1, nn_mul(g, y));
            STEP(t2, nn_sum(t1, 1, &d, true));
            STEP(t3, nn_sub(g, t2));
            STEP(gin[0], give(nn_mul(t3, y)));
        }
        temps_release(&s);
        return 0;
    fail:
        temps_release(&s);
        return -1;
    }
    const nn_input_meta *m = &n->input_meta[0];
    nn_dtype kd = kernel_dtype(m->dtype);
    int64_t outer, len, inner;
    split_at(m->ndim, m->sizes, d, &outer, &len, &inner);
    nn_tensor *gc = dense(g, kd), *yc = gc ? dense(nn_node_saved(n, 0), kd) : NULL;
    nn_tensor *r = yc ? nn_empty_on(nn_device_of(gc), m->ndim, m->sizes, kd) : NULL;
    if (r && NN_KERNEL(nn_backend_of(r), softmax, (log, true, n->p.i[1], outer, len, inner, r, gc, yc)) < 0) NN_SET(r, NULL);
    NN_RELEASE(gc);
    NN_RELEASE(yc);
    gin[0] = r;
    return r ? 0 : -1;
}

int nn_softmax_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return softmax_backward(n, gout, gin, false); }
int nn_log_softmax_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return softmax_backward(n, gout, gin, true); }

/* ------------------------------------------------------------- cat, stack */

/* Copies src, converted to out's dtype, into out viewed as [outer, total, inner]
   at position `at` of the middle dim; src holds [outer, len, inner]. */
static int place(nn_tensor *out, nn_tensor *src, int64_t outer, int64_t total, int64_t inner, int64_t at, int64_t len)
{
    nn_tensor *c = dense(src, out->dtype);
    if (!c) return -1;
    /* out's [outer, len, inner] slab at `at`, a view, filled by the copy kernel */
    nn_tensor slab = *out, from = *c;
    slab.ndim = from.ndim = 3;
    slab.offset += at * inner;
    slab.sizes[0] = from.sizes[0] = outer, slab.sizes[1] = from.sizes[1] = len, slab.sizes[2] = from.sizes[2] = inner;
    slab.strides[0] = total * inner, slab.strides[1] = inner, slab.strides[2] = 1;
    from.strides[0] = len * inner, from.strides[1] = inner, from.strides[2] = 1;
    int rc = outer * len * inner > 0 ? NN_KERNEL(nn_backend_of(out), copy, (&slab, &from)) : 0;
    NN_RELEASE(c);
    return rc;
}

/* PyTorch still skips 1-D empty tensors in cat (legacy behaviour). */
static bool cat_skips(const nn_tensor *t) { return t->ndim == 1 && t->sizes[0] == 0; }

static nn_dtype promote_all(int n, nn_tensor *const *ts)
{
    nn_dtype dt = ts[0]->dtype;
    for (int i = 1; i < n; i++) dt = nn_promote_types(dt, ts[i]->dtype);
    return dt;
}

nn_tensor *nn_cat(int n, nn_tensor *const *ts, int dim)
{
    if (n <= 0) {
        nn_error_set(NN_ERR_RUNTIME, "torch.cat(): expected a non-empty list of Tensors");
        return NULL;
    }
    for (int i = 0; i < n; i++)
        if (ts[i]->ndim == 0) {
            nn_error_set(NN_ERR_RUNTIME, "zero-dimensional tensor (at position %d) cannot be concatenated", i);
            return NULL;
        }
    int valid = -1;
    for (int i = 0; i < n && valid < 0; i++)
        if (!cat_skips(ts[i])) valid = i;
    nn_dtype dt = promote_all(n, ts);
    nn_op_params p = {.i = {dim}, .n_i = 1};
    nn_tensor *out;
    if (valid < 0) {
        /* only skipped tensors: the dim is not even checked */
        out = nn_empty_on(nn_device_of(ts[0]), 1, (const int64_t[]){0}, dt);
    } else {
        const nn_tensor *first = ts[valid];
        int d;
        if (nn_wrap_dim(dim, first->ndim, &d) < 0) return NULL;
        int64_t shape[NN_MAX_DIMS];
        memcpy(shape, first->sizes, sizeof(int64_t) * (size_t)first->ndim);
        shape[d] = 0;
        for (int i = 0; i < n; i++) {
            const nn_tensor *t = ts[i];
            if (cat_skips(t)) continue;
            if (t->ndim != first->ndim) {
                nn_error_set(NN_ERR_RUNTIME, "Tensors must have same number of dimensions: got %d and %d", first->ndim,
                             t->ndim);
                return NULL;
            }
            for (int k = 0; k < t->ndim; k++)
                if (k != d && t->sizes[k] != first->sizes[k]) {
                    nn_error_set(NN_ERR_RUNTIME,
                                 "Sizes of tensors must match except in dimension %d. Expected size %lld but got size "
                                 "%lld for tensor number %d in the list.",
                                 d, (long long)first->sizes[k], (long long)t->sizes[k], i);
                    return NULL;
                }
            shape[d] += t->sizes[d];
        }
        out = nn_empty_on(nn_device_of(first), first->ndim, shape, dt); /* on the tensors' device, not the default */
        if (!out) return NULL;
        int64_t outer, total, inner, at = 0;
        split_at(first->ndim, shape, d, &outer, &total, &inner);
        for (int i = 0; i < n; i++) {
            if (cat_skips(ts[i])) continue;
            if (place(out, ts[i], outer, total, inner, at, ts[i]->sizes[d]) < 0) {
                NN_RELEASE(out);
                return NULL;
            }
            at += ts[i]->sizes[d];
        }
        p.i[0] = d;
    }
    if (out && nn_record(NN_OP_cat, n, ts, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

int nn_cat_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int d = (int)n->p.i[0];
    int64_t at = 0;
    for (int i = 0; i < n->n_inputs; i++) {
        const nn_input_meta *m = &n->input_meta[i];
        bool skipped = m->ndim == 1 && m->sizes[0] == 0;
        if (skipped) {
            if (nn_node_needs_input_grad(n, i) && !(gin[i] = nn_zeros_on(nn_device_of(gout[0]), 1, m->sizes, gout[0]->dtype)))
                return -1;
            continue;
        }
        if (nn_node_needs_input_grad(n, i) && !(gin[i] = nn_narrow(gout[0], d, at, m->sizes[d]))) return -1;
        at += m->sizes[d];
    }
    return 0;
}

nn_tensor *nn_stack(int n, nn_tensor *const *ts, int dim)
{
    if (n <= 0) {
        nn_error_set(NN_ERR_RUNTIME, "stack expects a non-empty TensorList");
        return NULL;
    }
    const nn_tensor *first = ts[0];
    int d;
    if (nn_wrap_dim(dim, first->ndim + 1, &d) < 0) return NULL;
    for (int i = 1; i < n; i++)
        if (!same_shape(first->ndim, first->sizes, ts[i]->ndim, ts[i]->sizes)) {
            char a[256], b[256];
            nn_error_set(NN_ERR_RUNTIME, "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %d",
                         nn_shape_str(first->ndim, first->sizes, a, sizeof a),
                         nn_shape_str(ts[i]->ndim, ts[i]->sizes, b, sizeof b), i);
            return NULL;
        }
    if (first->ndim + 1 > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "tensors have at most %d dimensions, got %d", NN_MAX_DIMS, first->ndim + 1);
        return NULL;
    }
    int64_t shape[NN_MAX_DIMS];
    for (int k = 0, j = 0; k <= first->ndim; k++) shape[k] = k == d ? n : first->sizes[j++];
    nn_tensor *out = nn_empty_on(nn_device_of(first), first->ndim + 1, shape, promote_all(n, ts));
    if (!out) return NULL;
    int64_t outer, total, inner;
    split_at(first->ndim + 1, shape, d, &outer, &total, &inner);
    for (int i = 0; i < n; i++)
        if (place(out, ts[i], outer, total, inner, i, 1) < 0) {
            NN_RELEASE(out);
            return NULL;
        }
    nn_op_params p = {.i = {d}, .n_i = 1};
    if (nn_record(NN_OP_stack, n, ts, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

int nn_stack_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    for (int i = 0; i < n->n_inputs; i++)
        if (nn_node_needs_input_grad(n, i) && !(gin[i] = nn_select(gout[0], (int)n->p.i[0], i))) return -1;
    return 0;
}

/* x's entries along dim 0 as x->sizes[0] new tensors (copies, not views) in outs,
   recorded as one node whose backward stacks their gradients (zeros for those
   that got none), as ATen's unbind. Selecting each entry instead would give
   every entry's backward a zero tensor of x's size to scatter into, and the
   engine a sum of x->sizes[0] of them. */
int nn_unbind_copies(nn_tensor *x, nn_tensor **outs)
{
    int64_t n = x->ndim > 0 ? x->sizes[0] : 0;
    if (x->ndim == 0 || n > INT32_MAX) return nn_error_set(NN_ERR_RUNTIME, "unbind needs a dim 0 of at most 2^31 - 1 entries");
    int64_t done = 0;
    NN_WITH_GRAD_MODE(false, {
        for (; done < n; done++) {
            nn_tensor *v = nn_select(x, 0, done);
            outs[done] = v ? nn_clone(v) : NULL;
            NN_RELEASE(v);
            if (!outs[done]) break;
        }
    });
    if (done == n && nn_record(NN_OP_unbind, 1, &x, (int)n, outs, 0, NULL, NULL) == 0) return 0;
    for (int64_t i = 0; i < done; i++) NN_SET(outs[i], NULL);
    return -1;
}

/* ----------------------------------------------------------------- dropout */

nn_tensor *nn_dropout_noise(const nn_tensor *a, double p)
{
    if (p == 1) return nn_zeros_on(nn_device_of(a), 0, NULL, a->dtype); /* broadcasts: everything dropped */
    nn_tensor *noise = nn_empty_on(nn_device_of(a), a->ndim, a->sizes, a->dtype); /* a's device, not the default */
    nn_tensor *keep_prob = noise ? nn_wrapped_number(1 - p, false) : NULL;
    int rc = keep_prob ? nn_bernoulli_(noise, 1 - p) : -1;
    if (rc == 0) NN_WITH_GRAD_MODE(false, rc = nn_div_(noise, keep_prob));
    NN_RELEASE(keep_prob);
    if (rc < 0) NN_SET(noise, NULL);
    return noise;
}

nn_tensor *nn_dropout(nn_tensor *a, double p, bool training)
{
    if (isnan(p)) {
        /* Python's range check lets nan through; ATen's does not */
        nn_error_set(NN_ERR_RUNTIME, "dropout probability has to be between 0 and 1, but got nan");
        return NULL;
    }
    if (p < 0 || p > 1) {
        char buf[64];
        nn_format_float(p, buf, sizeof buf);
        nn_error_set(NN_ERR_VALUE, "dropout probability has to be between 0 and 1, but got %s", buf);
        return NULL;
    }
    if (p == 0 || !training || nn_numel(a) == 0) {
        /* PyTorch returns the input itself */
        NN_RETAIN(a);
        return a;
    }
    nn_tensor *noise = nn_dropout_noise(a, p); /* then a * noise (MulBackward0) */
    if (!noise) return NULL;
    nn_tensor *out = nn_mul(a, noise);
    NN_RELEASE(noise);
    return out;
}

/* ------------------------------------------------------------------ losses */

static int check_reduction(nn_reduction r)
{
    if (r != NN_REDUCTION_NONE && r != NN_REDUCTION_MEAN && r != NN_REDUCTION_SUM)
        return nn_error_set(NN_ERR_VALUE, "%d is not a valid value for reduction", (int)r);
    return 0;
}

/* F.mse_loss / F.l1_loss broadcast input and target first (torch.broadcast_tensors):
   *ei, *et receive new references, expanded only where the shape differs. */
static int broadcast_pair(nn_tensor *input, nn_tensor *target, nn_tensor **ei, nn_tensor **et)
{
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(input->ndim, input->sizes, target->ndim, target->sizes, &nd, shape) < 0) return -1;
    nn_tensor *const src[2] = {input, target};
    nn_tensor **dst[2] = {ei, et};
    for (int k = 0; k < 2; k++) {
        if (same_shape(src[k]->ndim, src[k]->sizes, nd, shape)) {
            NN_RETAIN(src[k]);
            *dst[k] = src[k];
        } else if (!(*dst[k] = nn_expand(src[k], nd, shape))) {
            if (k == 1) NN_SET(*ei, NULL);
            return -1;
        }
    }
    return 0;
}

/* sum (or mean) of a contiguous tensor into a 0-dim tensor, then divided by
   the count in the dtype, as PyTorch's sum(...).div_(n); float32 sums as
   at::sum does, other dtypes in double. New reference. */
static nn_tensor *reduce_all(nn_tensor *t, bool mean)
{
    if (t->dtype == NN_FLOAT64) { /* at::sum's float64 order, as torch.sum/mean */
        nn_tensor *r = NULL;
        NN_WITH_GRAD_MODE(false, r = mean ? nn_mean(t, 0, NULL, false) : nn_sum(t, 0, NULL, false));
        return r;
    }
    nn_tensor *out = nn_empty_on(nn_device_of(t), 0, NULL, t->dtype);
    if (out && NN_KERNEL(nn_backend_of(t), reduce, (NN_REDUCE_CASCADE_SUM, t, 1, nn_numel(t), mean, out, NULL)) < 0)
        NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_mse_loss(nn_tensor *input, nn_tensor *target, nn_reduction reduction)
{
    NN_AUTOCAST(FP32, nn_mse_loss(ac_[0], ac_[1], reduction), input, target);
    if (nn_loss_size_warning(input, target) < 0 || check_reduction(reduction) < 0) return NULL;
    nn_tensor *ei, *et;
    if (broadcast_pair(input, target, &ei, &et) < 0) return NULL;
    nn_tensor *out = NULL, *ca = NULL, *cb = NULL, *unreduced = NULL;
    nn_dtype dt = nn_result_type(ei, et);
    if (dt != NN_FLOAT32 && dt != NN_FLOAT64 && dt != NN_FLOAT16) {
        nn_error_set(NN_ERR_RUNTIME, "\"mse_cpu\" not implemented for '%s'", type_title(dt));
        goto done;
    }
    NN_WITH_GRAD_MODE(false, ca = nn_to_dtype(ei, dt); cb = ca ? nn_to_dtype(et, dt) : NULL);
    nn_device device;
    nn_tensor *operands[2] = {ca, cb};
    if (!cb || nn_common_device(2, operands, &device) < 0) goto done;
    if (!(ca = nn_to_op_device(ca, device)) || !(cb = nn_to_op_device(cb, device))) goto done;
    if (!(unreduced = nn_empty_on(device, ei->ndim, ei->sizes, dt))) goto done;
    nn_kernel_args ka = {.t = {unreduced, ca, cb}};
    if (NN_KERNEL(nn_backend_of(unreduced), loss, (NN_LOSS_MSE, &ka)) < 0) goto done;
    if (reduction == NN_REDUCTION_NONE) {
        out = unreduced;
        unreduced = NULL;
    } else if (!(out = reduce_all(unreduced, reduction == NN_REDUCTION_MEAN))) {
        goto done;
    }
    nn_tensor *in[2] = {ei, et};
    nn_op_params p = {.i = {reduction}, .n_i = 1};
    if (nn_record(NN_OP_mse_loss, 2, in, 1, &out, 2, in, &p) < 0) NN_SET(out, NULL);
done:
    NN_RELEASE(ei);
    NN_RELEASE(et);
    NN_RELEASE(ca);
    NN_RELEASE(cb);
    NN_RELEASE(unreduced);
    return out;
}

int nn_mse_loss_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    /* d/dinput = norm * (input - target) * grad, norm = 2 (or 2/numel for mean);
       the target's is the same with the two swapped */
    nn_tensor *x = nn_node_saved(n, 0), *t = nn_node_saved(n, 1);
    if (t->dtype != x->dtype) /* PyTorch 1.13's mse_loss_backward runs one TensorIterator over both */
        return nn_error_set(NN_ERR_RUNTIME, "Found dtype %s but expected %s", type_title(t->dtype), type_title(x->dtype));
    double norm = n->p.i[0] == NN_REDUCTION_MEAN ? 2.0 / (double)nn_numel(x) : 2.0;
    for (int k = 0; k < 2; k++) {
        if (!nn_node_needs_input_grad(n, k)) continue;
        nn_tensor *diff = k == 0 ? nn_sub(x, t) : nn_sub(t, x);
        nn_tensor *scaled = diff ? nn_mul_scalar(diff, norm) : NULL;
        gin[k] = scaled ? nn_mul(scaled, gout[0]) : NULL;
        NN_RELEASE(diff);
        NN_RELEASE(scaled);
        if (!gin[k]) return -1;
    }
    return 0;
}

nn_tensor *nn_l1_loss(nn_tensor *input, nn_tensor *target, nn_reduction reduction)
{
    NN_AUTOCAST(FP32, nn_l1_loss(ac_[0], ac_[1], reduction), input, target);
    /* a composite in PyTorch 1.13: (input - target).abs(), then mean or sum */
    if (nn_loss_size_warning(input, target) < 0 || check_reduction(reduction) < 0) return NULL;
    nn_tensor *ei, *et;
    if (broadcast_pair(input, target, &ei, &et) < 0) return NULL;
    nn_tensor *diff = nn_sub(ei, et), *abs = diff ? nn_abs(diff) : NULL, *out = NULL;
    if (abs && reduction == NN_REDUCTION_NONE) {
        out = abs;
        abs = NULL;
    } else if (abs) {
        out = reduction == NN_REDUCTION_MEAN ? nn_mean(abs, 0, NULL, false) : nn_sum(abs, 0, NULL, false);
    }
    NN_RELEASE(ei);
    NN_RELEASE(et);
    NN_RELEASE(diff);
    NN_RELEASE(abs);
    return out;
}

/* ---------------------------------------------------------------- nll_loss */


/* nll_loss on log-probabilities logp [N, C] or [C] and int64 targets [N] or [],
   with a per-class weight [C] (NULL: none). */
static nn_tensor *nll_loss(nn_tensor *logp, nn_tensor *target, nn_tensor *weight, nn_reduction reduction,
                           int64_t ignore_index, nn_op_id op)
{
    if (logp->ndim < 1 || logp->ndim > 2) {
        nn_error_set(NN_ERR_RUNTIME, "input tensor should be 1D or 2D");
        return NULL;
    }
    if (target->ndim > 1) {
        nn_error_set(NN_ERR_RUNTIME, "0D or 1D target tensor expected, multi-target not supported");
        return NULL;
    }
    bool no_batch = logp->ndim == 1 && target->ndim == 0;
    if (!no_batch && (target->ndim == 0 || logp->sizes[0] != target->sizes[0])) {
        char a[256], b[256];
        nn_error_set(NN_ERR_RUNTIME, "size mismatch (got input: %s, target: %s)",
                     nn_shape_str(logp->ndim, logp->sizes, a, sizeof a),
                     nn_shape_str(target->ndim, target->sizes, b, sizeof b));
        return NULL;
    }
    if (target->dtype != NN_INT64) {
        nn_error_set(NN_ERR_RUNTIME, "expected scalar type Long but found %s", type_title(target->dtype));
        return NULL;
    }
    int64_t N = no_batch ? 1 : logp->sizes[0], C = logp->sizes[logp->ndim - 1];
    nn_dtype kd = kernel_dtype(logp->dtype);
    if (weight && (weight->ndim != 1 || weight->sizes[0] != C)) {
        char ws[256];
        nn_error_set(NN_ERR_RUNTIME,
                     "weight tensor should be defined either for all %lld classes or no classes but got weight tensor "
                     "of shape: %s",
                     (long long)C, nn_shape_str(weight->ndim, weight->sizes, ws, sizeof ws));
        return NULL;
    }
    nn_tensor *x = dense(logp, kd), *tg = x ? dense(target, NN_INT64) : NULL;
    nn_tensor *out = NULL, *rows = NULL, *wd = NULL;
    if (!tg || (weight && !(wd = dense(weight, kd)))) goto done;
    nn_device dev = nn_device_of(x);
    if (!(rows = reduction == NN_REDUCTION_NONE ? nn_empty_on(dev, no_batch ? 0 : 1, &N, kd) : nn_empty_on(dev, 0, NULL, kd)))
        goto done;
    nn_kernel_args ka = {.t = {rows, x, tg, wd}, .i = {N, C, ignore_index, reduction}};
    if (NN_KERNEL(nn_backend_of(x), loss, (NN_LOSS_NLL, &ka)) < 0) goto done;
    double total_weight = ka.host[0];
    out = rows;
    rows = NULL;
    if (kd != logp->dtype) NN_SET(out, dense(out, logp->dtype));
    nn_op_params p = {.f = {total_weight}, .i = {reduction, ignore_index}, .n_i = 2};
    nn_tensor *save[2] = {target, weight};
    if (out && nn_record(op, 1, &logp, 1, &out, 2, save, &p) < 0) NN_SET(out, NULL);
done:
    NN_RELEASE(wd);
    NN_RELEASE(x);
    NN_RELEASE(tg);
    NN_RELEASE(rows);
    return out;
}

int nn_nll_loss2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return nn_nll_loss_backward(n, gout, gin); }

int nn_nll_loss_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    /* grad_input[b, target[b]] = -grad (grad / count for mean), 0 elsewhere and
       where ignored; built as where(mask, -grad, 0) so it stays differentiable in grad */
    const nn_input_meta *m = &n->input_meta[0];
    nn_reduction reduction = (nn_reduction)n->p.i[0];
    int64_t ignore_index = n->p.i[1];
    bool no_batch = m->ndim == 1;
    int64_t N = no_batch ? 1 : m->sizes[0], C = m->sizes[m->ndim - 1];
    temps s = {0};
    nn_tensor *tg, *mask, *g, *scaled, *neg, *zero;
    STEP(tg, dense(nn_node_saved(n, 0), NN_INT64));
    STEP(mask, nn_zeros_on(nn_device_of(tg), m->ndim, m->sizes, NN_BOOL)); /* the target's device */
    nn_kernel_args ka = {.t = {mask, NULL, tg}, .i = {N, C, ignore_index}};
    if (NN_KERNEL(nn_backend_of(mask), loss, (NN_LOSS_NLL_MASK, &ka)) < 0) goto fail;
    g = gout[0];
    if (reduction == NN_REDUCTION_NONE && !no_batch) STEP(g, nn_unsqueeze(g, 1));
    scaled = g;
    if (reduction == NN_REDUCTION_MEAN) STEP(scaled, nn_div_scalar(g, n->p.f[0]));
    STEP(neg, nn_neg(scaled));
    if (nn_node_saved(n, 1)) STEP(neg, nn_mul(neg, nn_node_saved(n, 1)));
    STEP(zero, nn_zeros_on(nn_device_of(neg), 0, NULL, neg->dtype));
    STEP(gin[0], give(nn_where(mask, neg, zero)));
    temps_release(&s);
    return 0;
fail:
    temps_release(&s);
    return -1;
}

/* ------------------------------------------------------------ cross entropy */

/* PyTorch's nll_loss_nd: checks the batch size, then nll_loss for 1-D/2-D
   inputs; [N, C, d...] inputs are flattened to [N*d..., C] (where PyTorch
   uses nll_loss2d, whose numbers these are). */
static nn_tensor *nll_loss_nd(nn_tensor *logp, nn_tensor *target, nn_tensor *weight, nn_reduction reduction,
                              int64_t ignore_index)
{
    if (logp->ndim < 1) {
        nn_error_set(NN_ERR_VALUE, "Expected 1 or more dimensions (got %d)", logp->ndim);
        return NULL;
    }
    if (logp->ndim != 1) {
        int64_t tb = target->ndim > 0 ? target->sizes[0] : 0;
        if (logp->sizes[0] != tb) {
            nn_error_set(NN_ERR_VALUE, "Expected input batch_size (%lld) to match target batch_size (%lld).",
                         (long long)logp->sizes[0], (long long)tb);
            return NULL;
        }
    }
    if (logp->ndim <= 2) return nll_loss(logp, target, weight, reduction, ignore_index, NN_OP_nll_loss);

    char a[256], b[256];
    if (logp->ndim == 4) {
        if (target->ndim != 3) {
            nn_error_set(NN_ERR_RUNTIME,
                         "only batches of spatial targets supported (3D tensors) but got targets of dimension: %d",
                         target->ndim);
            return NULL;
        }
        if (target->sizes[1] != logp->sizes[2] || target->sizes[2] != logp->sizes[3]) {
            nn_error_set(NN_ERR_RUNTIME, "size mismatch (got input: %s , target: %s",
                         nn_shape_str(logp->ndim, logp->sizes, a, sizeof a),
                         nn_shape_str(target->ndim, target->sizes, b, sizeof b));
            return NULL;
        }
    }
    int64_t out_shape[NN_MAX_DIMS];
    int out_nd = logp->ndim - 1;
    out_shape[0] = logp->sizes[0];
    for (int d = 2; d < logp->ndim; d++) out_shape[d - 1] = logp->sizes[d];
    if (!same_shape(target->ndim, target->sizes, out_nd, out_shape)) {
        nn_error_set(NN_ERR_RUNTIME, "Expected target size %s, got %s", nn_shape_str(out_nd, out_shape, a, sizeof a),
                     nn_shape_str(target->ndim, target->sizes, b, sizeof b));
        return NULL;
    }
    if (target->dtype != NN_INT64) {
        nn_error_set(NN_ERR_RUNTIME, "expected scalar type Long but found %s", type_title(target->dtype));
        return NULL;
    }
    /* class dim last, then [M, C] and [M] */
    int perm[NN_MAX_DIMS];
    perm[0] = 0;
    for (int d = 2; d < logp->ndim; d++) perm[d - 1] = d;
    perm[logp->ndim - 1] = 1;
    int64_t M = nn_numel(target), C = logp->sizes[1];
    temps s = {0};
    nn_tensor *moved, *flat, *tflat, *loss, *out;
    STEP(moved, nn_permute(logp, logp->ndim, perm));
    STEP(flat, nn_reshape(moved, 2, (const int64_t[]){M, C}));
    STEP(tflat, nn_reshape(target, 1, &M));
    STEP(loss, nll_loss(flat, tflat, weight, reduction, ignore_index, NN_OP_nll_loss2d));
    if (reduction == NN_REDUCTION_NONE) STEP(out, give(nn_view(loss, out_nd, out_shape)));
    else out = give(loss);
    temps_release(&s);
    return out;
fail:
    temps_release(&s);
    return NULL;
}

/* weight [C] viewed as [1, C, 1, ...] over ndim dims with C at class_dim (retained) */
static nn_tensor *class_weight_view(nn_tensor *weight, int ndim, int class_dim)
{
    int64_t shape[NN_MAX_DIMS];
    for (int d = 0; d < ndim; d++) shape[d] = d == class_dim ? nn_numel(weight) : 1;
    return nn_view(weight, ndim, shape);
}

/* Soft targets: -(log_softmax(input) * target [* weight]) summed over classes. */
static nn_tensor *cross_entropy_probs(nn_tensor *input, nn_tensor *target, nn_tensor *weight, nn_reduction reduction,
                                      double smoothing)
{
    int class_dim = input->ndim == 1 ? 0 : 1;
    temps s = {0};
    nn_tensor *logp, *tg = target, *t1, *prod, *sum, *out;
    STEP(logp, nn_log_softmax(input, class_dim));
    int64_t C = logp->sizes[class_dim];
    if (smoothing > 1.0) {
        nn_error_set(NN_ERR_RUNTIME, "label_smoothing must be between 0.0 and 1.0. Got: %g", smoothing);
        goto fail;
    }
    if (smoothing > 0) {
        STEP(t1, nn_mul_scalar(target, 1 - smoothing));
        STEP(tg, nn_add_scalar(t1, smoothing / (double)C));
    }
    STEP(prod, nn_mul(logp, tg));
    if (weight) {
        nn_tensor *wv;
        STEP(wv, class_weight_view(weight, logp->ndim, class_dim));
        STEP(prod, nn_mul(prod, wv));
    }
    if (reduction == NN_REDUCTION_NONE) {
        STEP(sum, nn_sum(prod, 1, &class_dim, false));
        STEP(out, give(nn_neg(sum)));
    } else {
        STEP(sum, nn_sum(prod, 0, NULL, false));
        if (reduction == NN_REDUCTION_SUM) {
            STEP(out, give(nn_neg(sum)));
        } else {
            nn_tensor *neg;
            STEP(neg, nn_neg(sum));
            /* numel / C is an integer division in PyTorch; an empty input gives nan */
            int64_t numel = nn_numel(input);
            if (numel == 0) STEP(out, give(nn_mul_scalar(neg, NAN)));
            else STEP(out, give(nn_div_number(neg, (double)(numel / C))));
        }
    }
    temps_release(&s);
    return out;
fail:
    temps_release(&s);
    return NULL;
}

/* (1 - s) * nll + s / C * smooth, smooth = -sum of log-probabilities over classes
   (0 where the target is ignored), reduced as the loss. */
static nn_tensor *cross_entropy_smoothed(nn_tensor *input, nn_tensor *target, nn_tensor *weight,
                                         nn_reduction reduction, int64_t ignore_index, double smoothing)
{
    int class_dim = input->ndim == 1 ? 0 : 1;
    temps s = {0};
    nn_tensor *logp, *nll, *ign, *ignored, *lsum, *smooth, *zero, *masked, *ret, *a, *b, *out;
    STEP(logp, nn_log_softmax(input, class_dim));
    STEP(nll, nll_loss_nd(logp, target, weight, reduction, ignore_index));
    int64_t C = logp->sizes[class_dim];
    STEP(ign, nn_wrapped_number((double)ignore_index, true));
    STEP(ignored, nn_compare(target, ign, NN_EQ));
    if (weight) {
        nn_tensor *wv, *lw;
        STEP(wv, class_weight_view(weight, logp->ndim, class_dim));
        STEP(lw, nn_mul(logp, wv));
        STEP(lsum, nn_sum(lw, 1, &class_dim, false));
    } else {
        STEP(lsum, nn_sum(logp, 1, &class_dim, false));
    }
    STEP(smooth, nn_neg(lsum));
    STEP(zero, nn_scalar(0.0, smooth->dtype));
    STEP(masked, nn_where(ignored, zero, smooth));
    if (reduction == NN_REDUCTION_NONE) {
        ret = masked;
    } else {
        STEP(ret, nn_sum(masked, 0, NULL, false));
        if (reduction == NN_REDUCTION_MEAN && weight) {
            /* PyTorch: smooth.sum() / weight.gather(0, target.masked_select(~ignored)).sum() */
            nn_tensor *kept, *flat, *picked, *den;
            STEP(kept, nn_compare(target, ign, NN_NE));
            STEP(flat, nn_masked_select(target, kept));
            STEP(picked, nn_index_select(weight, 0, flat));
            STEP(den, nn_sum(picked, 0, NULL, false));
            STEP(ret, nn_div(ret, den));
        } else if (reduction == NN_REDUCTION_MEAN) {
            /* PyTorch: masked_select(smooth, ~ignored).mean() */
            int64_t count = 0, nt = nn_numel(target);
            nn_tensor *tg;
            STEP(tg, dense(target, NN_INT64));
            nn_tensor *hold = NULL;
            const int64_t *tv = nn_host_read(tg, &hold);
            if (!tv) goto fail;
            for (int64_t i = 0; i < nt; i++) count += tv[i] != ignore_index;
            NN_RELEASE(hold);
            STEP(ret, nn_div_scalar(ret, (double)count));
        }
    }
    STEP(a, nn_mul_scalar(nll, 1 - smoothing));
    STEP(b, nn_mul_scalar(ret, smoothing / (double)C));
    STEP(out, give(nn_add(a, b)));
    temps_release(&s);
    return out;
fail:
    temps_release(&s);
    return NULL;
}

nn_tensor *nn_cross_entropy(nn_tensor *input, nn_tensor *target, nn_reduction reduction, int64_t ignore_index,
                            double label_smoothing)
{
    return nn_cross_entropy_weighted(input, target, NULL, reduction, ignore_index, label_smoothing);
}

nn_tensor *nn_nll_loss(nn_tensor *input, nn_tensor *target, nn_tensor *weight, nn_reduction reduction,
                       int64_t ignore_index)
{
    NN_AUTOCAST(FP32, nn_nll_loss(ac_[0], ac_[1], ac_[2], reduction, ignore_index), input, target, weight);
    if (check_reduction(reduction) < 0) return NULL;
    if (input->dtype == NN_FLOAT16) /* PyTorch 1.13's CPU kernels take no float16 (F.nll_loss views N-d as 4-d) */
        return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for 'Half'",
                            input->ndim <= 2 ? "nll_loss_out_frame" : "nll_loss2d_forward_out_frame"), NULL;
    return nll_loss_nd(input, target, weight, reduction, ignore_index);
}

nn_tensor *nn_cross_entropy_weighted(nn_tensor *input, nn_tensor *target, nn_tensor *weight, nn_reduction reduction,
                                     int64_t ignore_index, double label_smoothing)
{
    NN_AUTOCAST(FP32, nn_cross_entropy_weighted(ac_[0], ac_[1], ac_[2], reduction, ignore_index, label_smoothing), input, target, weight);
    if (check_reduction(reduction) < 0) return NULL;
    if (same_shape(input->ndim, input->sizes, target->ndim, target->sizes)) {
        /* same shape: class probabilities */
        if (!nn_dtype_is_floating(target->dtype)) {
            nn_error_set(NN_ERR_RUNTIME, "Expected floating point type for target with class probabilities, got %s",
                         type_title(target->dtype));
            return NULL;
        }
        if (ignore_index >= 0) {
            nn_error_set(NN_ERR_RUNTIME, "ignore_index is not supported for floating point target");
            return NULL;
        }
        return cross_entropy_probs(input, target, weight, reduction, label_smoothing);
    }
    if (label_smoothing > 0.0) {
        if (label_smoothing > 1.0) {
            nn_error_set(NN_ERR_RUNTIME, "label_smoothing must be between 0.0 and 1.0. Got: %g", label_smoothing);
            return NULL;
        }
        return cross_entropy_smoothed(input, target, weight, reduction, ignore_index, label_smoothing);
    }
    nn_tensor *logp = nn_log_softmax(input, input->ndim == 1 ? 0 : 1);
    if (!logp) return NULL;
    nn_tensor *out = nll_loss_nd(logp, target, weight, reduction, ignore_index);
    NN_RELEASE(logp);
    return out;
}

/* -------------------------------------------------------------- layer_norm */

static int check_norm_param(const char *what, nn_tensor *p, int n_norm, const int64_t *shape)
{
    if (!p) return 0;
    if (!same_shape(p->ndim, p->sizes, n_norm, shape)) {
        char a[256], b[256];
        return nn_error_set(NN_ERR_RUNTIME,
                            "Expected %s to be of same shape as normalized_shape, but got %s of shape %s and "
                            "normalized_shape = %s",
                            what, what, nn_shape_str(p->ndim, p->sizes, a, sizeof a), nn_shape_str(n_norm, shape, b, sizeof b));
    }
    return 0;
}

nn_tensor *nn_layer_norm(nn_tensor *input, int n_norm, const int64_t *normalized_shape, nn_tensor *weight,
                         nn_tensor *bias, double eps)
{
    char a[256], b[256];
    if (n_norm < 1) {
        nn_error_set(NN_ERR_RUNTIME,
                     "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
                     "but got normalized_shape = %s",
                     nn_shape_str(0, NULL, a, sizeof a));
        return NULL;
    }
    if (check_norm_param("weight", weight, n_norm, normalized_shape) < 0 ||
        check_norm_param("bias", bias, n_norm, normalized_shape) < 0)
        return NULL;
    if (input->ndim < n_norm ||
        !same_shape(n_norm, input->sizes + input->ndim - n_norm, n_norm, normalized_shape)) {
        size_t len = (size_t)snprintf(a, sizeof a, "Given normalized_shape=%s, expected input with shape [*",
                                      nn_shape_str(n_norm, normalized_shape, b, sizeof b));
        for (int d = 0; d < n_norm && len < sizeof a; d++)
            len += (size_t)snprintf(a + len, sizeof a - len, ", %lld", (long long)normalized_shape[d]);
        nn_error_set(NN_ERR_RUNTIME, "%s], but got input of size%s", a, nn_shape_str(input->ndim, input->sizes, b, sizeof b));
        return NULL;
    }
    if (input->dtype != NN_FLOAT32 && input->dtype != NN_FLOAT64 && input->dtype != NN_BFLOAT16) {
        nn_error_set(NN_ERR_RUNTIME, "\"LayerNormKernelImpl\" not implemented for '%s'", type_title(input->dtype));
        return NULL;
    }
    nn_tensor *const params[2] = {weight, bias};
    for (int k = 0; k < 2; k++)
        if (params[k] && params[k]->dtype != input->dtype) {
            nn_error_set(NN_ERR_RUNTIME, "expected scalar type %s but found %s", type_title(input->dtype),
                         type_title(params[k]->dtype));
            return NULL;
        }
    int64_t N = 1, M = 1;
    for (int d = 0; d < input->ndim; d++) *(d < input->ndim - n_norm ? &M : &N) *= input->sizes[d];
    nn_dtype kd = kernel_dtype(input->dtype);
    nn_tensor *x = dense(input, kd), *w = NULL, *bb = NULL, *y = NULL, *mean = NULL, *rstd = NULL, *out = NULL;
    if (!x || (weight && !(w = dense(weight, kd))) || (bias && !(bb = dense(bias, kd)))) goto done;
    nn_device dev = nn_device_of(x);
    if (!(y = nn_empty_on(dev, input->ndim, input->sizes, kd)) || !(mean = nn_empty_on(dev, 1, &M, kd)) ||
        !(rstd = nn_empty_on(dev, 1, &M, kd)))
        goto done;
    nn_kernel_args ka = {.t = {y, mean, rstd, x, w, bb}, .i = {M, N}, .d = {eps}};
    if (NN_KERNEL(nn_backend_of(x), norm, (NN_NORM_LAYER, &ka)) < 0) goto done;
    out = kd == input->dtype ? (NN_RETAIN(y), y) : dense(y, input->dtype);
    if (!out) goto done;
    nn_tensor *in[3] = {input, weight, bias}, *save[5] = {input, weight, bias, mean, rstd};
    nn_op_params p = {.f = {eps}, .i = {n_norm}, .n_i = 1};
    if (nn_record(NN_OP_layer_norm, 3, in, 1, &out, 5, save, &p) < 0) NN_SET(out, NULL);
done:
    NN_RELEASE(x);
    NN_RELEASE(w);
    NN_RELEASE(bb);
    NN_RELEASE(y);
    NN_RELEASE(mean);
    NN_RELEASE(rstd);
    return out;
}

/* create_graph: the layer_norm backward from differentiable ops, with the
   statistics recomputed from the input so a double backward sees them. */
static int layer_norm_backward_graph(nn_node *n, nn_tensor *g, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *w = nn_node_saved(n, 1);
    int n_norm = (int)n->p.i[0], n_lead = x->ndim - n_norm;
    int dims[NN_MAX_DIMS];
    for (int d = 0; d < n_norm; d++) dims[d] = n_lead + d;
    temps s = {0};
    nn_tensor *mu, *xc, *sq, *var, *ve, *rstd, *xhat, *gx, *m1, *gxh, *m2, *t1, *t2, *t3, *gxhat;
    STEP(mu, nn_mean(x, n_norm, dims, true));
    STEP(xc, nn_sub(x, mu));
    STEP(sq, nn_mul(xc, xc));
    STEP(var, nn_mean(sq, n_norm, dims, true));
    STEP(ve, nn_add_scalar(var, n->p.f[0]));
    STEP(rstd, nn_pow_scalar(ve, -0.5));
    STEP(xhat, nn_mul(xc, rstd));
    if (nn_node_needs_input_grad(n, 0)) {
        gx = g;
        if (w) STEP(gx, nn_mul(g, w));
        /* rstd * (gx - mean(gx) - xhat * mean(gx * xhat)) */
        STEP(m1, nn_mean(gx, n_norm, dims, true));
        STEP(gxh, nn_mul(gx, xhat));
        STEP(m2, nn_mean(gxh, n_norm, dims, true));
        STEP(t1, nn_mul(xhat, m2));
        STEP(t2, nn_sub(gx, m1));
        STEP(t3, nn_sub(t2, t1));
        STEP(gin[0], give(nn_mul(t3, rstd)));
    }
    if (nn_node_needs_input_grad(n, 1)) {
        STEP(gxhat, nn_mul(g, xhat));
        STEP(gin[1], give(sum_leading(gxhat, n_lead)));
    }
    if (nn_node_needs_input_grad(n, 2)) STEP(gin[2], give(sum_leading(g, n_lead)));
    temps_release(&s);
    return 0;
fail:
    temps_release(&s);
    return -1;
}

int nn_layer_norm_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (nn_grad_enabled()) return layer_norm_backward_graph(n, gout[0], gin);
    nn_tensor *x0 = nn_node_saved(n, 0), *w0 = nn_node_saved(n, 1);
    nn_tensor *mean = nn_node_saved(n, 3), *rstd = nn_node_saved(n, 4);
    int n_norm = (int)n->p.i[0];
    int64_t M = mean->sizes[0], N = 1;
    for (int d = x0->ndim - n_norm; d < x0->ndim; d++) N *= x0->sizes[d];
    nn_dtype kd = mean->dtype;
    bool want[3];
    for (int k = 0; k < 3; k++) want[k] = nn_node_needs_input_grad(n, k);
    const int64_t *norm_shape = x0->sizes + x0->ndim - n_norm;
    nn_tensor *g = dense(gout[0], kd), *x = g ? dense(x0, kd) : NULL, *w = NULL;
    nn_tensor *r[3] = {NULL, NULL, NULL};
    int rc = -1;
    if (!x || (w0 && !(w = dense(w0, kd)))) goto done;
    if (want[0] && !(r[0] = nn_empty_on(nn_device_of(x), x0->ndim, x0->sizes, kd))) goto done;
    for (int k = 1; k < 3; k++)
        if (want[k] && !(r[k] = nn_empty_on(nn_device_of(x), n_norm, norm_shape, kd))) goto done;
    nn_kernel_args ka = {.t = {r[0], mean, rstd, x, w, g, r[1], r[2]}, .i = {M, N}};
    if (NN_KERNEL(nn_backend_of(x), norm, (NN_NORM_LAYER_BACKWARD, &ka)) < 0) goto done;
    for (int k = 0; k < 3; k++) {
        gin[k] = r[k];
        r[k] = NULL;
    }
    rc = 0;
done:
    NN_RELEASE(g);
    NN_RELEASE(x);
    NN_RELEASE(w);
    for (int k = 0; k < 3; k++) NN_RELEASE(r[k]);
    return rc;
}

/* --------------------------------------------------------------- embedding */

/* The tensor type names ATen's checkScalarTypes prints. */
static const char *tensor_type_name(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "torch.FloatTensor", [NN_FLOAT64] = "torch.DoubleTensor", [NN_FLOAT16] = "torch.HalfTensor",
        [NN_BFLOAT16] = "CPUBFloat16Type",  [NN_INT64] = "torch.LongTensor",     [NN_INT32] = "torch.IntTensor",
        [NN_BOOL] = "CPUBoolType",          [NN_UINT8] = "torch.ByteTensor",     [NN_INT8] = "torch.CharTensor",
        [NN_INT16] = "torch.ShortTensor",
    };
    return names[dt];
}

static int cmp_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int nn_embedding_renorm_(nn_tensor *weight, const nn_tensor *indices, double max_norm, double norm_type)
{
    if (weight->ndim != 2) return nn_error_set(NN_ERR_RUNTIME, "'weight' must be 2-D");
    nn_tensor *idx = nn_to_dtype((nn_tensor *)indices, NN_INT64), *hold = NULL;
    const int64_t *v = idx ? nn_host_read(idx, &hold) : NULL;
    int64_t k = v ? nn_numel(idx) : 0;
    int64_t *rows = v ? nn_malloc(sizeof *rows * (size_t)(k + 1)) : NULL;
    int rc = rows ? 0 : -1;
    if (rows) {
        memcpy(rows, v, sizeof *rows * (size_t)k);
        qsort(rows, (size_t)k, sizeof *rows, cmp_int64);
    }
    bool prev = nn_set_grad_enabled(false);
    for (int64_t i = 0; rc == 0 && i < k; i++) {
        if ((i > 0 && rows[i] == rows[i - 1]) || rows[i] < 0 || rows[i] >= weight->sizes[0]) continue;
        nn_tensor *row = nn_select(weight, 0, rows[i]);
        nn_tensor *norm = row ? nn_norm(row, norm_type, 0, NULL, false) : NULL;
        double n = 0;
        rc = norm ? nn_item(norm, &n) : -1;
        if (rc == 0 && n > max_norm) {
            nn_tensor *scale = nn_wrapped_number(max_norm / (n + 1e-7), false);
            rc = scale ? nn_mul_(row, scale) : -1;
            NN_RELEASE(scale);
        }
        NN_RELEASE(norm);
        NN_RELEASE(row);
    }
    nn_set_grad_enabled(prev);
    nn_free(rows);
    NN_RELEASE(hold);
    NN_RELEASE(idx);
    return rc;
}

nn_tensor *nn_embedding(nn_tensor *weight, nn_tensor *indices, int64_t padding_idx)
{
    if (weight->ndim != 2) {
        nn_error_set(NN_ERR_RUNTIME, "'weight' must be 2-D");
        return NULL;
    }
    if (indices->dtype != NN_INT64 && indices->dtype != NN_INT32) {
        nn_error_set(NN_ERR_RUNTIME,
                     "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
                     "but got %s instead (while checking arguments for embedding)",
                     tensor_type_name(indices->dtype));
        return NULL;
    }
    int64_t num = weight->sizes[0], dim = weight->sizes[1], k = nn_numel(indices);
    if (padding_idx >= num) {
        /* an AssertionError in Python's F.embedding */
        nn_error_set(NN_ERR_RUNTIME, "Padding_idx must be within num_embeddings");
        return NULL;
    }
    if (indices->ndim + 1 > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "tensors have at most %d dimensions, got %d", NN_MAX_DIMS, indices->ndim + 1);
        return NULL;
    }
    if (num == 0 && k > 0) {
        nn_error_set(NN_ERR_RUNTIME, "index_select(): self indexing axis dim should be positive");
        return NULL;
    }
    nn_tensor *idx = dense(indices, NN_INT64), *w = idx ? dense(weight, weight->dtype) : NULL, *out = NULL;
    if (!w) goto done;
    int64_t shape[NN_MAX_DIMS];
    memcpy(shape, indices->sizes, sizeof(int64_t) * (size_t)indices->ndim);
    shape[indices->ndim] = dim;
    if (!(out = nn_empty_on(nn_device_of(w), indices->ndim + 1, shape, weight->dtype))) goto done;
    nn_kernel_args ka = {.t = {out, w, idx}};
    if (NN_KERNEL(nn_backend_of(w), index, (NN_INDEX_EMBEDDING, &ka)) < 0) {
        NN_SET(out, NULL);
        goto done;
    }
    nn_op_params p = {.i = {padding_idx}, .n_i = 1};
    if (nn_record(NN_OP_embedding, 1, &weight, 1, &out, 1, &indices, &p) < 0) NN_SET(out, NULL);
done:
    NN_RELEASE(idx);
    NN_RELEASE(w);
    return out;
}

/* Under create_graph (grad mode on inside a backward, grad with a history): the same sum as
   differentiable ops, so that a double backward flows through embedding (PyTorch's
   EmbeddingBackwardBackward0): index_add of grad's rows, then padding_idx's row set to zero. */
static int embedding_backward_graph(nn_node *n, nn_tensor *g, nn_tensor **gin)
{
    const nn_input_meta *m = &n->input_meta[0];
    int64_t padding_idx = n->p.i[0];
    nn_tensor *idx = dense(nn_node_saved(n, 0), NN_INT64);
    int64_t count = idx ? nn_numel(idx) : 0, rows[2] = {count, m->sizes[1]};
    nn_tensor *flat = idx ? nn_reshape(idx, 1, &count) : NULL;
    nn_tensor *g2 = flat ? nn_reshape(g, 2, rows) : NULL;
    nn_tensor *z = g2 ? nn_zeros_on(nn_device_of(g2), 2, m->sizes, m->dtype) : NULL;
    nn_tensor *gw = z ? nn_index_add(z, 0, flat, g2, 1.0) : NULL;
    if (gw && padding_idx >= 0) {
        nn_tensor *row = nn_select(gw, 0, padding_idx);
        if (!row || nn_fill_(row, 0) < 0) NN_SET(gw, NULL);
        NN_RELEASE(row);
    }
    NN_RELEASE(idx);
    NN_RELEASE(flat);
    NN_RELEASE(g2);
    NN_RELEASE(z);
    gin[0] = gw;
    return gw ? 0 : -1;
}

int nn_embedding_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    /* rows of grad added into a zero [num, dim] in index order, skipping
       padding_idx (as PyTorch's embedding_dense_backward); under create_graph
       the differentiable form above. */
    if (nn_grad_enabled() && gout[0]->requires_grad && gout[0]->dtype == n->input_meta[0].dtype)
        return embedding_backward_graph(n, gout[0], gin);
    const nn_input_meta *m = &n->input_meta[0];
    int64_t padding_idx = n->p.i[0];
    nn_tensor *idx = dense(nn_node_saved(n, 0), NN_INT64);
    nn_tensor *g = idx ? dense(gout[0], m->dtype) : NULL;
    nn_tensor *gw = g ? nn_zeros(2, m->sizes, m->dtype) : NULL;
    nn_kernel_args ka = {.t = {gw, g, idx}, .i = {padding_idx}};
    if (gw && NN_KERNEL(nn_backend_of(gw), index, (NN_INDEX_EMBEDDING_BACKWARD, &ka)) < 0) NN_SET(gw, NULL);
    NN_RELEASE(idx);
    NN_RELEASE(g);
    gin[0] = gw;
    return gw ? 0 : -1;
}
