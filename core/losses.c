/*
 * losses.c — torch.nn's losses beyond MSE/L1/cross entropy: binary cross
 * entropy on probabilities and on logits, smooth L1 and Huber (ops with
 * PyTorch's grad_fn names and their backwards beside them), KL divergence,
 * margin ranking, cosine embedding and triplet margin (compositions, as
 * ATen's are), and their module classes.
 *
 * Numbers follow ATen 1.13's CPU formulas: binary_cross_entropy's scalar
 * kernel (std::log of input and of 1 - input, each clamped at -100),
 * binary_cross_entropy_with_logits's tensor composition, the smooth L1 and
 * Huber kernels; reductions are mean() / sum() of the unreduced loss as
 * apply_loss_reduction does. Backwards are compositions of differentiable
 * ops (so double backward works) in ATen's order of operations.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_act_more.h"
#include "nn_int.h"
#include "nn_layers.h"
#include "backend.h"
#include "nn_losses.h"
#include "nn_math.h"
#include "nn_scratch.h"
#include "nn_autocast.h"

/* E(expr) keeps expr's result among the formula's temporaries (nn_scratch.h) and
   fails the whole formula if it is NULL. */
#define E(expr) NN_KEEP(&s, (expr))

/* r (borrowed from s) retained, then the temporaries released */
static nn_tensor *done(nn_scratch *s, nn_tensor *r)
{
    if (s->failed) r = NULL;
    if (r) nn_retain((nn_object *)r);
    nn_scratch_free(s);
    return r;
}

/* Backward: gin[i] = r summed to input i's shape and dtype; releases s. */
static int finish(nn_scratch *s, nn_node *n, int i, nn_tensor *r, nn_tensor **slot)
{
    int rc = -1;
    if (!s->failed && r) {
        const nn_input_meta *m = &n->input_meta[i];
        nn_tensor *g = nn_sum_to_size(r, m->ndim, m->sizes);
        if (g && g->dtype != m->dtype) {
            nn_tensor *c = nn_to_dtype(g, m->dtype);
            NN_SET(g, c);
        }
        *slot = g;
        rc = g ? 0 : -1;
    }
    done(s, NULL);
    return rc;
}

/* apply_loss_reduction */
static nn_tensor *reduce(nn_tensor *loss, nn_reduction reduction)
{
    if (reduction == NN_REDUCTION_MEAN) return nn_mean(loss, 0, NULL, false);
    if (reduction == NN_REDUCTION_SUM) return nn_sum(loss, 0, NULL, false);
    return (nn_tensor *)nn_retain((nn_object *)loss);
}

static bool same_shape(const nn_tensor *a, const nn_tensor *b)
{
    if (a->ndim != b->ndim) return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->sizes[d] != b->sizes[d]) return false;
    return true;
}

static char *size_str(const nn_tensor *t, char *buf, size_t n)
{
    int o = snprintf(buf, n, "torch.Size([");
    for (int d = 0; d < t->ndim && o < (int)n; d++)
        o += snprintf(buf + o, n - (size_t)o, "%s%lld", d ? ", " : "", (long long)t->sizes[d]);
    if (o < (int)n) snprintf(buf + o, n - (size_t)o, "])");
    return buf;
}

int nn_loss_size_warning(const nn_tensor *input, const nn_tensor *target)
{
    if (same_shape(input, target)) return 0;
    char a[128], b[128];
    return nn_warn("UserWarning",
                   "Using a target size (%s) that is different to the input size (%s). This will likely lead to "
                   "incorrect results due to broadcasting. Please ensure they have the same size.",
                   size_str(target, a, sizeof a), size_str(input, b, sizeof b));
}

static int check_float(const char *kernel, const nn_tensor *t)
{
    if (t->dtype == NN_FLOAT32 || t->dtype == NN_FLOAT64) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, nn_dtype_scalar_name(t->dtype));
}

/* the reduction and the numel of the input, for a backward's mean */
static void set_reduction(nn_op_params *p, nn_reduction reduction, const nn_tensor *input)
{
    p->i[0] = reduction;
    p->i[1] = nn_numel(input);
    p->n_i = 2;
}

/* g / numel where the forward took the mean */
static nn_tensor *mean_scale(nn_scratch *sp, nn_node *n, nn_tensor *g)
{
    nn_scratch s = *sp;
    if (n->p.i[0] == NN_REDUCTION_MEAN) g = E(nn_div_scalar(g, (double)n->p.i[1]));
    *sp = s;
    return g;
}

/* ------------------------------------------------- binary cross entropy */


/* weight expanded to target's shape (retained), or NULL with an error */
static nn_tensor *expand_weight(nn_tensor *weight, nn_tensor *target)
{
    nn_tensor *w = NULL;
    NN_WITH_GRAD_MODE(false, w = nn_expand(weight, target->ndim, target->sizes));
    return w;
}

nn_tensor *nn_binary_cross_entropy(nn_tensor *input, nn_tensor *target, nn_tensor *weight, nn_reduction reduction)
{
    NN_AUTOCAST(FP32, nn_binary_cross_entropy(ac_[0], ac_[1], ac_[2], reduction), input, target, weight);
    char a[128], b[128];
    if (!same_shape(input, target)) {
        nn_error_set(NN_ERR_VALUE,
                     "Using a target size (%s) that is different to the input size (%s) is deprecated. Please ensure "
                     "they have the same size.",
                     size_str(target, a, sizeof a), size_str(input, b, sizeof b));
        return NULL;
    }
    if (check_float("binary_cross_entropy", input) < 0) return NULL;
    if (target->dtype != input->dtype || (weight && weight->dtype != input->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "Found dtype %s but expected %s",
                     nn_dtype_scalar_name(target->dtype != input->dtype ? target->dtype : weight->dtype),
                     nn_dtype_scalar_name(input->dtype));
        return NULL;
    }
    nn_scratch s = {0};
    nn_tensor *w = weight ? E(expand_weight(weight, target)) : NULL, *loss = NULL, *out = NULL;
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *xc = E(nn_contiguous(input)), *tc = E(nn_contiguous(target));
    nn_tensor *raw = xc && tc ? E(nn_empty_on(nn_device_of(xc), input->ndim, input->sizes, input->dtype)) : NULL;
    if (raw) {
        nn_kernel_args ka = {.t = {raw, xc, tc}};
        if (NN_KERNEL(nn_backend_of(xc), loss, (NN_LOSS_BCE, &ka)) < 0) s.failed = true;
    }
    loss = w ? E(nn_mul(raw, w)) : raw;
    out = done(&s, loss ? E(reduce(loss, reduction)) : NULL);
    nn_set_grad_enabled(prev);
    if (!out) return NULL;
    nn_op_params p = {0};
    set_reduction(&p, reduction, input);
    nn_tensor *in[2] = {input, target}, *save[3] = {input, target, weight};
    if (nn_record(NN_OP_binary_cross_entropy, 2, in, 1, &out, 3, save, &p) < 0) NN_SET(out, NULL);
    return out;
}

#define G gout[0]
#define X nn_node_saved(n, 0)
#define T nn_node_saved(n, 1)
#define W nn_node_saved(n, 2)

/* input: grad * (x - t) / max((1 - x) * x, 1e-12) * weight [/ numel];
   target: -logit(x) * weight * grad [/ numel] */
int nn_binary_cross_entropy_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int rc = 0;
    if (nn_node_needs_input_grad(n, 0)) {
        nn_scratch s = {0};
        nn_tensor *den = E(nn_clamp_min(E(nn_mul(E(nn_rsub_scalar(X, 1)), X)), 1e-12));
        nn_tensor *r = E(nn_div(E(nn_mul(G, E(nn_sub(X, T)))), den));
        if (W) r = E(nn_mul(r, W));
        r = mean_scale(&s, n, r);
        rc = finish(&s, n, 0, r, &gin[0]);
    }
    if (rc == 0 && nn_node_needs_input_grad(n, 1)) {
        nn_scratch s = {0};
        nn_tensor *r = E(nn_neg(E(nn_log(E(nn_div(X, E(nn_rsub_scalar(X, 1))))))));
        if (W) r = E(nn_mul(r, W));
        r = E(nn_mul(r, G));
        r = mean_scale(&s, n, r);
        rc = finish(&s, n, 1, r, &gin[1]);
    }
    return rc;
}

/* ATen's composition: max_val = (-x).clamp_min(0);
   no pos_weight: (1 - t) * x + max_val + log(exp(-max_val) + exp(-x - max_val));
   pos_weight: (1 - t) * x + ((pos_weight - 1) * t + 1) * (log(exp(-max_val) + exp(-x - max_val)) + max_val) */
nn_tensor *nn_bce_with_logits(nn_tensor *input, nn_tensor *target, nn_tensor *weight, nn_tensor *pos_weight,
                              nn_reduction reduction)
{
    NN_AUTOCAST(FP32, nn_bce_with_logits(ac_[0], ac_[1], ac_[2], ac_[3], reduction), input, target, weight, pos_weight);
    char a[128], b[128];
    if (!same_shape(input, target)) {
        nn_error_set(NN_ERR_VALUE, "Target size (%s) must be the same as input size (%s)",
                     size_str(target, a, sizeof a), size_str(input, b, sizeof b));
        return NULL;
    }
    if (!nn_dtype_is_floating(target->dtype) || !nn_dtype_is_floating(input->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "result type Float can't be cast to the desired output type %s",
                     nn_dtype_scalar_name(nn_dtype_is_floating(target->dtype) ? input->dtype : target->dtype));
        return NULL;
    }
    nn_scratch s = {0};
    nn_tensor *out = NULL;
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *negx = E(nn_neg(input));
    nn_tensor *max_val = E(nn_clamp_min(negx, 0));
    nn_tensor *first = E(nn_mul(E(nn_rsub_scalar(target, 1)), input));
    nn_tensor *e1 = E(nn_exp(E(nn_neg(max_val))));
    nn_tensor *e2 = E(nn_exp(E(nn_sub(negx, max_val))));
    nn_tensor *lg = E(nn_log(E(nn_add(e1, e2))));
    nn_tensor *loss;
    if (pos_weight) {
        nn_tensor *lw = E(nn_add_scalar(E(nn_mul(E(nn_add_scalar(pos_weight, -1)), target)), 1));
        loss = E(nn_add(first, E(nn_mul(lw, E(nn_add(lg, max_val))))));
    } else {
        loss = E(nn_add(E(nn_add(first, max_val)), lg));
    }
    if (weight) loss = E(nn_mul(loss, weight));
    out = done(&s, loss ? E(reduce(loss, reduction)) : NULL);
    nn_set_grad_enabled(prev);
    if (!out) return NULL;
    nn_op_params p = {0};
    set_reduction(&p, reduction, input);
    nn_tensor *in[2] = {input, target}, *save[4] = {input, target, weight, pos_weight};
    if (nn_record(NN_OP_binary_cross_entropy_with_logits, 2, in, 1, &out, 4, save, &p) < 0) NN_SET(out, NULL);
    return out;
}

#define PW nn_node_saved(n, 3)

/* input: ((pw * t + 1 - t) * sigmoid(x) - pw * t) * grad, or (sigmoid(x) - t) * grad;
   target: (log_sigmoid(-x) - log_sigmoid(x) * pw) * grad, or -x * grad;
   both * weight [/ numel] */
int nn_binary_cross_entropy_with_logits_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int rc = 0;
    if (nn_node_needs_input_grad(n, 0)) {
        nn_scratch s = {0};
        nn_tensor *r;
        if (PW) {
            nn_tensor *t = E(nn_mul(PW, T));
            nn_tensor *c = E(nn_sub(E(nn_add_scalar(t, 1)), T));
            r = E(nn_mul(E(nn_sub(E(nn_mul(c, E(nn_sigmoid(X)))), t)), G));
        } else {
            r = E(nn_mul(E(nn_sub(E(nn_sigmoid(X)), T)), G));
        }
        if (W) r = E(nn_mul(r, W));
        r = mean_scale(&s, n, r);
        rc = finish(&s, n, 0, r, &gin[0]);
    }
    if (rc == 0 && nn_node_needs_input_grad(n, 1)) {
        nn_scratch s = {0};
        nn_tensor *r;
        if (PW) {
            nn_tensor *ln = E(nn_logsigmoid(E(nn_neg(X))));
            r = E(nn_mul(E(nn_sub(ln, E(nn_mul(E(nn_logsigmoid(X)), PW)))), G));
        } else {
            r = E(nn_mul(E(nn_neg(X)), G));
        }
        if (W) r = E(nn_mul(r, W));
        r = mean_scale(&s, n, r);
        rc = finish(&s, n, 1, r, &gin[1]);
    }
    return rc;
}

/* ------------------------------------------------------ smooth L1, Huber */


/* The loss of the broadcast input and target, recorded as op. */
static nn_tensor *smooth_op(nn_op_id op, const char *kernel, nn_tensor *input, nn_tensor *target,
                            nn_reduction reduction, double beta, bool huber)
{
    if (nn_loss_size_warning(input, target) < 0) return NULL;
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(input->ndim, input->sizes, target->ndim, target->sizes, &nd, shape) < 0) return NULL;
    if (target->dtype != input->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "expected scalar type %s but found %s", nn_dtype_scalar_name(input->dtype),
                     nn_dtype_scalar_name(target->dtype));
        return NULL;
    }
    if (check_float(kernel, input) < 0) return NULL;
    nn_scratch s = {0};
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *xc = E(nn_contiguous(E(nn_expand(input, nd, shape))));
    nn_tensor *tc = E(nn_contiguous(E(nn_expand(target, nd, shape))));
    nn_tensor *raw = xc && tc ? E(nn_empty_on(nn_device_of(xc), nd, shape, input->dtype)) : NULL;
    if (raw) {
        nn_kernel_args ka = {.t = {raw, xc, tc}, .d = {beta}};
        if (NN_KERNEL(nn_backend_of(xc), loss, (huber ? NN_LOSS_HUBER : NN_LOSS_SMOOTH_L1, &ka)) < 0) s.failed = true;
    }
    nn_tensor *out = done(&s, raw ? E(reduce(raw, reduction)) : NULL);
    nn_set_grad_enabled(prev);
    if (!out) return NULL;
    nn_op_params p = {0};
    set_reduction(&p, reduction, input);
    p.i[1] = 1;
    for (int d = 0; d < nd; d++) p.i[1] *= shape[d];
    p.f[0] = beta;
    nn_tensor *in[2] = {input, target};
    if (nn_record(op, 2, in, 1, &out, 2, in, &p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_smooth_l1_loss(nn_tensor *input, nn_tensor *target, nn_reduction reduction, double beta)
{
    NN_AUTOCAST(FP32, nn_smooth_l1_loss(ac_[0], ac_[1], reduction, beta), input, target);
    if (beta < 0) {
        nn_error_set(NN_ERR_RUNTIME, "smooth_l1_loss does not support negative values for beta.");
        return NULL;
    }
    return smooth_op(NN_OP_smooth_l1_loss, "smooth_l1_cpu", input, target, reduction, beta, false);
}

nn_tensor *nn_huber_loss(nn_tensor *input, nn_tensor *target, nn_reduction reduction, double delta)
{
    NN_AUTOCAST(FP32, nn_huber_loss(ac_[0], ac_[1], reduction, delta), input, target);
    if (delta <= 0) {
        nn_error_set(NN_ERR_RUNTIME, "huber_loss does not support non-positive values for delta.");
        return NULL;
    }
    return smooth_op(NN_OP_huber_loss, "huber_cpu", input, target, reduction, delta, true);
}

/* d = x - t; smooth L1: where(d < -beta, -norm * g, where(d > beta, norm * g, norm * d * g / beta));
   Huber: the same with norm * g * delta outside and norm * d * g inside. target: minus that. */
static int smooth_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, bool huber)
{
    double beta = n->p.f[0], norm = n->p.i[0] == NN_REDUCTION_MEAN ? 1.0 / (double)n->p.i[1] : 1.0;
    nn_scratch s = {0};
    nn_tensor *d = E(nn_sub(X, T));
    nn_tensor *ng = E(nn_mul_scalar(G, norm));
    nn_tensor *outside = huber ? E(nn_mul_scalar(ng, beta)) : ng;
    nn_tensor *inside = E(nn_mul(E(nn_mul_scalar(d, norm)), G));
    if (!huber) inside = E(nn_div_scalar(inside, beta));
    nn_tensor *lo = E(nn_compare(d, E(nn_wrapped_number(-beta, false)), NN_LT));
    nn_tensor *hi = E(nn_compare(d, E(nn_wrapped_number(beta, false)), NN_GT));
    nn_tensor *r = E(nn_where(lo, E(nn_neg(outside)), E(nn_where(hi, outside, inside))));
    if (s.failed) return done(&s, NULL), -1;
    int rc = 0;
    if (nn_node_needs_input_grad(n, 1)) {
        nn_scratch s2 = {0};
        nn_tensor *neg = nn_scratch_keep(&s2, nn_neg(r));
        rc = finish(&s2, n, 1, neg, &gin[1]);
    }
    if (rc == 0 && nn_node_needs_input_grad(n, 0)) {
        nn_retain((nn_object *)r);
        nn_scratch s3 = {0};
        rc = finish(&s3, n, 0, nn_scratch_keep(&s3, r), &gin[0]);
    }
    done(&s, NULL);
    return rc;
}

int nn_smooth_l1_loss_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return smooth_backward(n, gout, gin, false);
}

int nn_huber_loss_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return smooth_backward(n, gout, gin, true); }

#undef G
#undef X
#undef T
#undef W
#undef PW

/* ------------------------------------------------------------ div_number */

nn_tensor *nn_div_number(nn_tensor *a, double s)
{
    nn_tensor *out = NULL;
    NN_WITH_GRAD_MODE(false, out = nn_div_scalar(a, s));
    nn_op_params p = {.f = {s}};
    if (out && nn_record(NN_OP_div_number, 1, &a, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

int nn_div_number_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_scratch s = {0};
    return finish(&s, n, 0, E(nn_div_scalar(gout[0], n->p.f[0])), &gin[0]);
}

/* ------------------------------------------------- compositions (as ATen) */

nn_tensor *nn_kl_div(nn_tensor *input, nn_tensor *target, nn_reduction reduction, bool batchmean, bool log_target)
{
    NN_AUTOCAST(FP32, nn_kl_div(ac_[0], ac_[1], reduction, batchmean, log_target), input, target);
    static const nn_warn_place functional_py = {"torch.nn.functional", "torch/nn/functional.py", 2916};
    if (!batchmean && reduction == NN_REDUCTION_MEAN &&
        nn_warn_at(&functional_py, "UserWarning",
                   "reduction: 'mean' divides the total loss by both the batch size and the support "
                   "size.'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                   "'mean' will be changed to behave the same as 'batchmean' in the next major release.") < 0)
        return NULL;
    nn_scratch s = {0};
    nn_tensor *elem;
    if (log_target) elem = E(nn_mul(E(nn_exp(target)), E(nn_sub(target, input))));
    else elem = E(nn_sub(E(nn_xlogy(target, target)), E(nn_mul(target, input))));
    nn_tensor *r = E(reduce(elem, batchmean ? NN_REDUCTION_SUM : reduction));
    if (batchmean && input->ndim != 0) r = E(nn_div_scalar(r, (double)input->sizes[0]));
    return done(&s, r);
}

/* (-target * (x1 - x2) + margin).clamp_min(0) */
nn_tensor *nn_margin_ranking_loss(nn_tensor *x1, nn_tensor *x2, nn_tensor *target, double margin,
                                  nn_reduction reduction)
{
    NN_AUTOCAST(FP32, nn_margin_ranking_loss(ac_[0], ac_[1], ac_[2], margin, reduction), x1, x2, target);
    if (x1->ndim != x2->ndim || x1->ndim != target->ndim) {
        char a[128], b[128], c[128];
        nn_error_set(NN_ERR_RUNTIME,
                     "margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: %s, "
                     "input2: %s, target: %s ",
                     size_str(x1, a, sizeof a), size_str(x2, b, sizeof b), size_str(target, c, sizeof c));
        return NULL;
    }
    nn_scratch s = {0};
    nn_tensor *r = E(nn_add_scalar(E(nn_mul(E(nn_neg(target)), E(nn_sub(x1, x2)))), margin));
    r = E(nn_clamp_min(r, 0));
    return done(&s, E(reduce(r, reduction)));
}

/* ATen's cosine_embedding_loss: EPSILON 1e-12, cos = prod_sum / sqrt((mag1 + eps) * (mag2 + eps));
   where(target == 1, 1 - cos, (cos - margin).clamp_min(0)) (0 elsewhere) */
nn_tensor *nn_cosine_embedding_loss(nn_tensor *x1, nn_tensor *x2, nn_tensor *target, double margin,
                                    nn_reduction reduction)
{
    NN_AUTOCAST(FP32, nn_cosine_embedding_loss(ac_[0], ac_[1], ac_[2], margin, reduction), x1, x2, target);
    int td = target->ndim;
    if (td > 1) {
        nn_error_set(NN_ERR_RUNTIME, "0D or 1D target tensor expected, multi-target not supported");
        return NULL;
    }
    if (x1->ndim != x2->ndim || x1->ndim != td + 1) {
        char a[128], b[128];
        nn_error_set(NN_ERR_RUNTIME,
                     td == 1 ? "1D target tensor expects 2D input tensors, but found inputs with sizes %s and %s."
                             : "0D target tensor expects 1D input tensors, but found inputs with sizes %s and %s.",
                     nn_shape_str(x1->ndim, x1->sizes, a, sizeof a), nn_shape_str(x2->ndim, x2->sizes, b, sizeof b));
        return NULL;
    }
    int dim = td;
    nn_scratch s = {0};
    nn_tensor *prod_sum = E(nn_sum(E(nn_mul(x1, x2)), 1, &dim, false));
    nn_tensor *mag1 = E(nn_add_scalar(E(nn_sum(E(nn_mul(x1, x1)), 1, &dim, false)), 1e-12));
    nn_tensor *mag2 = E(nn_add_scalar(E(nn_sum(E(nn_mul(x2, x2)), 1, &dim, false)), 1e-12));
    nn_tensor *denom = E(nn_sqrt(E(nn_mul(mag1, mag2))));
    nn_tensor *cos = E(nn_div(prod_sum, denom));
    nn_tensor *zeros = E(nn_zeros_like(cos));
    nn_tensor *pos = E(nn_rsub_scalar(cos, 1));
    nn_tensor *neg = E(nn_clamp_min(E(nn_add_scalar(cos, -margin)), 0));
    nn_tensor *one = E(nn_wrapped_number(1, true)), *minus = E(nn_wrapped_number(-1, true));
    nn_tensor *o_pos = E(nn_where(E(nn_compare(target, one, NN_EQ)), pos, zeros));
    nn_tensor *o_neg = E(nn_where(E(nn_compare(target, minus, NN_EQ)), neg, zeros));
    nn_tensor *r = E(nn_add(o_pos, o_neg));
    return done(&s, E(reduce(r, reduction)));
}

/* pairwise_distance(a, b, p, eps): norm(a - b + eps, p, last dim) */
static nn_tensor *pairwise(nn_tensor *a, nn_tensor *b, double p, double eps)
{
    nn_scratch s = {0};
    int nd = a->ndim > b->ndim ? a->ndim : b->ndim;
    int dim = nd - 1;
    nn_tensor *d = E(nn_add_scalar(E(nn_sub(a, b)), eps));
    return done(&s, E(nn_norm(d, p, nd ? 1 : 0, &dim, false)));
}

/* ATen's triplet_margin_loss: (margin + d(a, p) - d(a, n)).clamp_min(0), d(a, n) the smaller
   of it and d(p, n) with swap */
nn_tensor *nn_triplet_margin_loss(nn_tensor *anchor, nn_tensor *positive, nn_tensor *negative, double margin,
                                  double p, double eps, bool swap, nn_reduction reduction)
{
    int ad = anchor->ndim;
    if (ad != positive->ndim || ad != negative->ndim) {
        nn_error_set(NN_ERR_RUNTIME,
                     "All inputs should have same dimension but got %dD, %dD and %dD inputs.",
                     ad, positive->ndim, negative->ndim);
        return NULL;
    }
    nn_scratch s = {0};
    nn_tensor *dpos = E(pairwise(anchor, positive, p, eps));
    nn_tensor *dneg = E(pairwise(anchor, negative, p, eps));
    if (swap) dneg = E(nn_minimum(dneg, E(pairwise(positive, negative, p, eps))));
    nn_tensor *r = E(nn_clamp_min(E(nn_sub(E(nn_add_scalar(dpos, margin)), dneg)), 0));
    return done(&s, E(reduce(r, reduction)));
}

/* ---------------------------------------------------------------- modules */

enum { L_BCE, L_BCE_LOGITS, L_NLL, L_SMOOTH_L1, L_HUBER, L_KL_DIV, L_MARGIN_RANKING, L_COSINE_EMBEDDING, L_TRIPLET };

/* the module's attribute name as a number; -1 and an error when absent or not a number */
static int attr_num(nn_module *m, const char *name, double *out)
{
    nn_object *o = nn_module_getattr(m, name);
    if (!o) return -1;
    if (!nn_is_int(o) && !nn_is_float(o) && !nn_is_bool(o))
        return nn_error_set(NN_ERR_TYPE, "%s: %s must be a number, not %s", nn_module_name(m), name, o->type->name);
    *out = nn_is_float(o) ? nn_float_value(o) : (double)nn_int_value(o);
    return 0;
}

/* a buffer or None as a tensor or NULL (borrowed) */
static nn_tensor *buffer_of(nn_module *m, const char *name)
{
    nn_object *o = nn_dict_get_str(m->buffers, name);
    return o && nn_is_tensor(o) ? NN_TENSOR(o) : NULL;
}

/* _Reduction.get_enum of the module's reduction; batchmean for KLDivLoss */
static int reduction_attr(nn_module *m, nn_reduction *r, bool *batchmean)
{
    nn_object *o = nn_module_getattr(m, "reduction");
    if (!o) return -1;
    const char *s = nn_is_str(o) ? nn_str_cstr(o) : "";
    if (batchmean) *batchmean = false;
    if (!strcmp(s, "none")) *r = NN_REDUCTION_NONE;
    else if (!strcmp(s, "mean")) *r = NN_REDUCTION_MEAN;
    else if (!strcmp(s, "sum")) *r = NN_REDUCTION_SUM;
    else if (batchmean && !strcmp(s, "batchmean")) *batchmean = true, *r = NN_REDUCTION_SUM;
    else {
        char *text = nn_str(o);
        nn_error_set(NN_ERR_VALUE, "%s is not a valid value for reduction", text ? text : "?");
        nn_free(text);
        return -1;
    }
    return 0;
}

static const char *const arg_names[][3] = {
    [L_BCE] = {"input", "target"},           [L_BCE_LOGITS] = {"input", "target"},
    [L_NLL] = {"input", "target"},           [L_SMOOTH_L1] = {"input", "target"},
    [L_HUBER] = {"input", "target"},         [L_KL_DIV] = {"input", "target"},
    [L_MARGIN_RANKING] = {"input1", "input2", "target"},
    [L_COSINE_EMBEDDING] = {"input1", "input2", "target"},
    [L_TRIPLET] = {"anchor", "positive", "negative"},
};

static nn_object *loss_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    int k = (int)(m->cls - nn_loss_classes);
    if (k < 0 || k >= NN_LOSS_N_CLASSES) return nn_error_set(NN_ERR_RUNTIME, "not a loss module"), NULL;
    int n = arg_names[k][2] ? 3 : 2;
    nn_object *in[3] = {0};
    size_t na = args ? nn_tuple_len(args) : 0;
    if (na > (size_t)n)
        return nn_error_set(NN_ERR_TYPE, "forward() takes %d positional arguments but %zu were given", n + 1, na + 1),
               NULL;
    for (int i = 0; i < n; i++) {
        in[i] = (size_t)i < na ? nn_tuple_get(args, (size_t)i) : kwargs ? nn_dict_get_str(kwargs, arg_names[k][i]) : NULL;
        if (!in[i])
            return nn_error_set(NN_ERR_TYPE, "forward() missing 1 required positional argument: '%s'", arg_names[k][i]),
                   NULL;
        if (!nn_is_tensor(in[i]))
            return nn_error_set(NN_ERR_TYPE, "%s must be a Tensor, not %s", arg_names[k][i], in[i]->type->name), NULL;
    }
    if (kwargs && nn_dict_len(kwargs) + na > (size_t)n)
        return nn_error_set(NN_ERR_TYPE, "forward() got an unexpected keyword argument"), NULL;
    nn_tensor *a = NN_TENSOR(in[0]), *b = NN_TENSOR(in[1]), *c = n == 3 ? NN_TENSOR(in[2]) : NULL;
    nn_reduction r;
    bool batchmean = false;
    if (reduction_attr(m, &r, k == L_KL_DIV ? &batchmean : NULL) < 0) return NULL;
    double v1 = 0, v2 = 0, v3 = 0;
    switch (k) {
    case L_BCE: return (nn_object *)nn_binary_cross_entropy(a, b, buffer_of(m, "weight"), r);
    case L_BCE_LOGITS:
        return (nn_object *)nn_bce_with_logits(a, b, buffer_of(m, "weight"), buffer_of(m, "pos_weight"), r);
    case L_NLL:
        if (attr_num(m, "ignore_index", &v1) < 0) return NULL;
        return (nn_object *)nn_nll_loss(a, b, buffer_of(m, "weight"), r, (int64_t)v1);
    case L_SMOOTH_L1:
        if (attr_num(m, "beta", &v1) < 0) return NULL;
        return (nn_object *)nn_smooth_l1_loss(a, b, r, v1);
    case L_HUBER:
        if (attr_num(m, "delta", &v1) < 0) return NULL;
        return (nn_object *)nn_huber_loss(a, b, r, v1);
    case L_KL_DIV:
        if (attr_num(m, "log_target", &v1) < 0) return NULL;
        return (nn_object *)nn_kl_div(a, b, r, batchmean, v1 != 0);
    case L_MARGIN_RANKING:
        if (attr_num(m, "margin", &v1) < 0) return NULL;
        return (nn_object *)nn_margin_ranking_loss(a, b, c, v1, r);
    case L_COSINE_EMBEDDING:
        if (attr_num(m, "margin", &v1) < 0) return NULL;
        return (nn_object *)nn_cosine_embedding_loss(a, b, c, v1, r);
    default:
        if (attr_num(m, "margin", &v1) < 0 || attr_num(m, "p", &v2) < 0 || attr_num(m, "eps", &v3) < 0) return NULL;
        {
            double sw = 0;
            if (attr_num(m, "swap", &sw) < 0) return NULL;
            return (nn_object *)nn_triplet_margin_loss(a, b, c, v1, v2, v3, sw != 0, r);
        }
    }
}

const nn_module_class nn_loss_classes[] = {
    {.name = "BCELoss", .forward = loss_forward, .base = &nn_weighted_loss_base_class},
    {.name = "BCEWithLogitsLoss", .forward = loss_forward, .base = &nn_loss_base_class},
    {.name = "NLLLoss", .forward = loss_forward, .base = &nn_weighted_loss_base_class},
    {.name = "SmoothL1Loss", .forward = loss_forward, .base = &nn_loss_base_class},
    {.name = "HuberLoss", .forward = loss_forward, .base = &nn_loss_base_class},
    {.name = "KLDivLoss", .forward = loss_forward, .base = &nn_loss_base_class},
    {.name = "MarginRankingLoss", .forward = loss_forward, .base = &nn_loss_base_class},
    {.name = "CosineEmbeddingLoss", .forward = loss_forward, .base = &nn_loss_base_class},
    {.name = "TripletMarginLoss", .forward = loss_forward, .base = &nn_loss_base_class},
};

nn_module *nn_loss_module_new(const char *name, const char *reduction)
{
    int k = 0;
    while (k < NN_LOSS_N_CLASSES && strcmp(nn_loss_classes[k].name, name)) k++;
    if (k == NN_LOSS_N_CLASSES) {
        nn_error_set(NN_ERR_RUNTIME, "no loss module %s", name);
        return NULL;
    }
    nn_module *m = nn_module_new(&nn_loss_classes[k]);
    nn_object *r = m ? nn_str_new(reduction ? reduction : "mean") : NULL;
    if (!r || nn_module_setattr(m, "reduction", r) < 0) NN_SET(m, NULL);
    NN_RELEASE(r);
    return m;
}
