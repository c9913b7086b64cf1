/*
 * elementwise_more.c — torch's elementwise functions that tutorials reach after
 * the common ones: clamp with tensor bounds (and clamp_min/clamp_max with a
 * tensor), sgn, copysign, heaviside, gcd and lcm.
 *
 * The forwards are existing ops (their kernels) run without history, in the
 * order ATen's kernels compute, then one node recorded with PyTorch 1.13's
 * name; the backwards are derivatives.yaml's formulas built from
 * differentiable ops. gcd and lcm are the math kernel's integer codes.
 */
#include <math.h>

#include "backend.h"
#include "nn_int.h"
#include "nn_math.h"
#include "nn_misc_ops.h"
#include "nn_scratch.h"
#include "nn_select_more.h"

/* r (borrowed, may be NULL) summed to input i's shape and dtype, into gin[i]; frees s. */
static int give(nn_scratch *s, nn_node *n, int i, nn_tensor *r, nn_tensor **gin)
{
    nn_tensor *g = NULL;
    if (!s->failed && r) {
        const nn_input_meta *m = &n->input_meta[i];
        g = nn_sum_to_size(r, m->ndim, m->sizes);
        if (g && g->dtype != m->dtype) NN_SET(g, nn_to_dtype(g, m->dtype));
    }
    nn_scratch_free(s);
    gin[i] = g;
    return g ? 0 : -1;
}

/* where(mask, grad, 0) */
static nn_tensor *grad_where(nn_scratch *s, nn_tensor *mask, nn_tensor *g)
{
    nn_tensor *zero = NN_KEEP(s, nn_scalar(0, g->dtype));
    return NN_KEEP(s, nn_where(mask, g, zero));
}

/* ------------------------------------------------------------ clamp */

/* The bounds' flags in p.flags: which of min (1) and max (2) the node has, in that
   order after the input. */
enum { HAS_MIN = 1, HAS_MAX = 2 };

static nn_tensor *clamp_bounds(nn_tensor *a, nn_tensor *min, nn_tensor *max, nn_op_id op)
{
    if (!min && !max)
        return nn_error_set(NN_ERR_RUNTIME, "torch.clamp: At least one of 'min' or 'max' must not be None"), NULL;
    /* ATen's clamp kernel: min(max(a, lo), hi), NaN when either bound is NaN; clamp_min and
       clamp_max with one tensor are maximum and minimum */
    nn_tensor *lo = NULL, *out = NULL;
    NN_WITH_GRAD_MODE(false, {
        lo = min ? nn_maximum(a, min) : (NN_RETAIN(a), a);
        out = lo && max ? nn_minimum(lo, max) : (lo ? (NN_RETAIN(lo), lo) : NULL);
    });
    NN_RELEASE(lo);
    nn_tensor *in[3] = {a, min ? min : max, min ? max : NULL};
    nn_op_params p = {.flags = (min ? HAS_MIN : 0) | (max ? HAS_MAX : 0)};
    int n_in = min && max ? 3 : 2;
    if (out && nn_record(op, n_in, in, 1, &out, n_in, in, &p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_clamp_tensor(nn_tensor *a, nn_tensor *min, nn_tensor *max)
{
    return clamp_bounds(a, min, max, NN_OP_clamp_tensor);
}
nn_tensor *nn_clamp_min_tensor(nn_tensor *a, nn_tensor *min) { return clamp_bounds(a, min, NULL, NN_OP_clamp_min_tensor); }
nn_tensor *nn_clamp_max_tensor(nn_tensor *a, nn_tensor *max) { return clamp_bounds(a, NULL, max, NN_OP_clamp_max_tensor); }

/* FunctionsManual's clamp_backward and clamp_backward_min_max: self gets grad where
   min <= self <= max; min where self < min (and min < max when both); max where
   self > max (or max < min when both). */
int nn_clamp_tensor_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *g = gout[0];
    bool has_min = n->p.flags & HAS_MIN, has_max = n->p.flags & HAS_MAX;
    nn_tensor *min = has_min ? nn_node_saved(n, 1) : NULL;
    nn_tensor *max = has_max ? nn_node_saved(n, has_min ? 2 : 1) : NULL;
    if (nn_node_needs_input_grad(n, 0)) {
        nn_scratch s = {0};
        nn_tensor *ge = min ? NN_KEEP(&s, nn_compare(x, min, NN_GE)) : NULL;
        nn_tensor *le = max ? NN_KEEP(&s, nn_compare(x, max, NN_LE)) : NULL;
        nn_tensor *m = ge && le ? NN_KEEP(&s, nn_bitwise_and(ge, le)) : ge ? ge : le;
        if (give(&s, n, 0, m ? grad_where(&s, m, g) : NULL, gin) < 0) return -1;
    }
    int slot = 1;
    if (min) {
        if (nn_node_needs_input_grad(n, slot)) {
            nn_scratch s = {0};
            nn_tensor *m = NN_KEEP(&s, nn_compare(x, min, NN_LT));
            if (max) m = NN_KEEP(&s, nn_bitwise_and(m, NN_KEEP(&s, nn_compare(min, max, NN_LT))));
            if (give(&s, n, slot, m ? grad_where(&s, m, g) : NULL, gin) < 0) return -1;
        }
        slot++;
    }
    if (max && nn_node_needs_input_grad(n, slot)) {
        nn_scratch s = {0};
        nn_tensor *m = NN_KEEP(&s, nn_compare(x, max, NN_GT));
        if (min) m = NN_KEEP(&s, nn_bitwise_or(m, NN_KEEP(&s, nn_compare(max, min, NN_LT))));
        if (give(&s, n, slot, m ? grad_where(&s, m, g) : NULL, gin) < 0) return -1;
    }
    return 0;
}
int nn_clamp_min_tensor_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return nn_clamp_tensor_backward(n, gout, gin); }
int nn_clamp_max_tensor_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return nn_clamp_tensor_backward(n, gout, gin); }

/* -------------------------------------------------------------- sgn */

/* For real tensors sgn is sign (bool stays bool), with a node of its own. */
nn_tensor *nn_sgn(nn_tensor *a)
{
    if (!a) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (nn_dtype_is_complex(a->dtype)) return nn_complex_math(NN_CX_SGN, a);
    nn_tensor *out = NULL;
    NN_WITH_GRAD_MODE(false, out = a->dtype == NN_BOOL ? nn_clone(a) : nn_sign(a));
    nn_tensor *save[2] = {a, out};
    if (out && nn_record(NN_OP_sgn, 1, &a, 1, &out, 2, save, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* sgn_backward: where(|x| == 0, 0, grad / |x| - (grad / result * result) / |x|),
   zero for real inputs where finite */
int nn_sgn_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_scratch s = {0};
    nn_tensor *x = nn_node_saved(n, 0), *res = nn_node_saved(n, 1), *g = gout[0];
    nn_tensor *ab = NN_KEEP(&s, nn_abs(x));
    nn_tensor *t1 = NN_KEEP(&s, nn_div(g, ab));
    nn_tensor *t2 = NN_KEEP(&s, nn_div(NN_KEEP(&s, nn_mul(NN_KEEP(&s, nn_div(g, res)), res)), ab));
    nn_tensor *d = NN_KEEP(&s, nn_sub(t1, t2));
    nn_tensor *zero = NN_KEEP(&s, nn_scalar(0, g->dtype));
    nn_tensor *r = NN_KEEP(&s, nn_where(NN_KEEP(&s, nn_compare(ab, zero, NN_EQ)), zero, d));
    return give(&s, n, 0, r, gin);
}

/* --------------------------------------------------------- copysign */

/* a bool tensor: b's sign bit set (-0.0 included; integers: b < 0) */
static nn_tensor *sign_bit(nn_scratch *s, nn_tensor *b)
{
    nn_tensor *zero = NN_KEEP(s, nn_scalar(0, b->dtype));
    nn_tensor *neg = NN_KEEP(s, nn_compare(b, zero, NN_LT));
    if (!nn_dtype_is_floating(b->dtype) || !neg) return neg;
    nn_tensor *neg_zero = NN_KEEP(s, nn_compare(NN_KEEP(s, nn_reciprocal(b)), zero, NN_LT));
    return NN_KEEP(s, nn_bitwise_or(neg, neg_zero));
}

/* |a| with b's sign, broadcast, in the promoted float type (integers give the
   default dtype); a wrapped number b records CopysignBackward1. */
nn_tensor *nn_copysign(nn_tensor *a, nn_tensor *b)
{
    nn_dtype rt = nn_result_type(a, b);
    if (!nn_dtype_is_floating(rt)) rt = nn_default_dtype();
    nn_tensor *out = NULL;
    nn_scratch s = {0};
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *x = NN_KEEP(&s, nn_to_dtype(a, rt));
        nn_tensor *mag = NN_KEEP(&s, nn_abs(x));
        nn_tensor *neg = sign_bit(&s, b);
        if (!s.failed) out = nn_where(neg, NN_KEEP(&s, nn_neg(mag)), mag);
    });
    nn_scratch_free(&s);
    nn_op_id op = b->is_wrapped_number ? NN_OP_copysign_scalar : NN_OP_copysign;
    nn_tensor *in[2] = {a, b}, *save[2] = {a, out};
    if (out && nn_record(op, op == NN_OP_copysign ? 2 : 1, in, 1, &out, 2, save, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* self: grad * (result / self) with 0 where self == 0; other: zeros */
int nn_copysign_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *res = nn_node_saved(n, 1), *g = gout[0];
    if (nn_node_needs_input_grad(n, 0)) {
        nn_scratch s = {0};
        nn_tensor *zero = NN_KEEP(&s, nn_scalar(0, res->dtype));
        nn_tensor *ratio = NN_KEEP(&s, nn_div(res, x));
        ratio = NN_KEEP(&s, nn_where(NN_KEEP(&s, nn_compare(x, zero, NN_EQ)), zero, ratio));
        if (give(&s, n, 0, NN_KEEP(&s, nn_mul(g, ratio)), gin) < 0) return -1;
    }
    if (n->n_inputs > 1 && nn_node_needs_input_grad(n, 1)) {
        const nn_input_meta *m = &n->input_meta[1];
        gin[1] = nn_full_on(nn_device_of(g), m->ndim, m->sizes, 0, m->dtype);
        if (!gin[1]) return -1;
    }
    return 0;
}
int nn_copysign_scalar_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return nn_copysign_backward(n, gout, gin); }

/* -------------------------------------------------------- heaviside */

/* values where a == 0, else a > 0, broadcast; a and values of one dtype. Recorded
   (NotImplemented) when an input requires grad, as PyTorch 1.13. */
nn_tensor *nn_heaviside(nn_tensor *a, nn_tensor *values)
{
    if (a->dtype != values->dtype)
        return nn_error_set(NN_ERR_RUNTIME, "heaviside is not yet implemented for tensors with different dtypes."), NULL;
    nn_tensor *out = NULL;
    nn_scratch s = {0};
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *zero = NN_KEEP(&s, nn_scalar(0, a->dtype));
        nn_tensor *is0 = NN_KEEP(&s, nn_compare(a, zero, NN_EQ));
        nn_tensor *pos = NN_KEEP(&s, nn_to_dtype(NN_KEEP(&s, nn_compare(a, zero, NN_GT)), a->dtype));
        if (!s.failed) out = nn_where(is0, values, pos);
    });
    nn_scratch_free(&s);
    nn_tensor *in[2] = {a, values};
    if (out && nn_record(NN_OP_heaviside, 2, in, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

int nn_heaviside_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_error_set(NN_ERR_RUNTIME, "derivative for aten::heaviside is not implemented");
}

/* ----------------------------------------------------------- gcd, lcm */

static int dtype_bits(nn_dtype dt) { return (int)nn_dtype_size(dt) * 8; }

nn_tensor *nn_gcd_lcm(nn_tensor *a, nn_tensor *b, bool lcm)
{
    nn_dtype rt = nn_result_type(a, b);
    if (nn_dtype_is_floating(rt) || rt == NN_BOOL)
        return nn_error_set(NN_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'", lcm ? "lcm" : "gcd",
                            nn_dtype_scalar_name(rt)), NULL;
    int nd;
    int64_t sizes[NN_MAX_DIMS];
    if (nn_broadcast_shapes(a->ndim, a->sizes, b->ndim, b->sizes, &nd, sizes) < 0) return NULL;
    nn_tensor *ab[2] = {a, b};
    nn_device dev;
    if (nn_common_device(2, ab, &dev) < 0) return NULL;
    nn_tensor *out = NULL, *wide = NULL, *x = NULL, *y = NULL;
    nn_scratch s = {0};
    NN_WITH_GRAD_MODE(false, {
        x = NN_KEEP(&s, nn_to_op_device(nn_to_dtype(a, NN_INT64), dev));
        y = NN_KEEP(&s, nn_to_op_device(nn_to_dtype(b, NN_INT64), dev));
        x = NN_KEEP(&s, nn_expand(x, nd, sizes));
        y = NN_KEEP(&s, nn_expand(y, nd, sizes));
    });
    wide = s.failed ? NULL : nn_empty_on(dev, nd, sizes, NN_INT64);
    nn_kernel_args ka = {.t = {wide, x, y}, .i = {dtype_bits(rt), rt != NN_UINT8}};
    if (wide && NN_KERNEL(nn_backend_of(wide), math, (lcm ? NN_MATH_lcm : NN_MATH_gcd, &ka)) < 0) NN_SET(wide, NULL);
    if (wide) out = nn_to_dtype(wide, rt);
    NN_RELEASE(wide);
    nn_scratch_free(&s);
    return out;
}

/* ------------------------------------------------------------ frexp */

/* a = mantissa * 2 ** exponent, |mantissa| in [0.5, 1) (0, inf and NaN as themselves, exponent 0):
   the mantissa in a's dtype (FrexpBackward0), the exponent int32. 0, or -1 with nothing set. */
int nn_frexp(nn_tensor *a, nn_tensor **mantissa, nn_tensor **exponent)
{
    if (!nn_dtype_is_floating(a->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "torch.frexp() only supports floating-point dtypes");
    nn_device dev = nn_device_of(a);
    nn_tensor *x = nn_plain_as(a, NN_FLOAT64), *hold = NULL, *m = NULL, *e = NULL;
    int64_t n = x ? nn_numel(x) : 0;
    const double *in = x && n ? nn_host_read(x, &hold) : NULL;
    double *mv = nn_malloc(sizeof(double) * (size_t)(n ? n : 1));
    int32_t *ev = nn_malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    if (x && (in || !n) && mv && ev) {
        for (int64_t i = 0; i < n; i++) {
            int k = 0;
            mv[i] = isfinite(in[i]) ? frexp(in[i], &k) : in[i];
            ev[i] = k;
        }
        m = nn_empty_on(dev, a->ndim, a->sizes, NN_FLOAT64);
        e = nn_empty_on(dev, a->ndim, a->sizes, NN_INT32);
        if (m && e && n && (nn_host_write(m, mv) < 0 || nn_host_write(e, ev) < 0)) NN_SET(m, NULL);
        if (m && a->dtype != NN_FLOAT64) {
            NN_WITH_GRAD_MODE(false, { NN_SET(m, nn_to_dtype(m, a->dtype)); });
        }
    }
    NN_RELEASE(hold);
    NN_RELEASE(x);
    nn_free(mv);
    nn_free(ev);
    if (m && e && nn_record(NN_OP_frexp, 1, &a, 1, &m, 1, &e, NULL) < 0) NN_SET(m, NULL);
    if (!m || !e) {
        NN_RELEASE(m);
        NN_RELEASE(e);
        return -1;
    }
    *mantissa = m;
    *exponent = e;
    return 0;
}

/* self: grad / exponent.exp2() (the exponent's exp2 in the default dtype, as ATen's) */
int nn_frexp_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0] || !nn_node_needs_input_grad(n, 0)) return 0;
    nn_scratch s = {0};
    nn_tensor *scale = NN_KEEP(&s, nn_exp2(nn_node_saved(n, 0)));
    return give(&s, n, 0, NN_KEEP(&s, nn_div(gout[0], scale)), gin);
}
