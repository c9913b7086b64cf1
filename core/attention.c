/*
 * attention.c — nn.MultiheadAttention, nn.TransformerEncoderLayer,
 * nn.TransformerEncoder and F.scaled_dot_product_attention, as PyTorch 1.13
 * builds them (parameter names, order and initialisation; reprs) and runs
 * them in training or with grad (F.multi_head_attention_forward's ops in its
 * order: packed in-projection, heads folded into the batch, q / sqrt(d),
 * mask added, softmax, dropout, bmm, out-projection). Everything composes
 * differentiable core ops, so backward is autograd's.
 *
 * Not here: add_bias_kv, add_zero_attn, PyTorch's inference fast paths
 * (torch._native_multi_head_attention, nested tensors; their numbers agree
 * except that the nested path zeroes padded positions).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_scratch.h"

/* ---------------------------------------------------------- helpers */

#define K(expr) NN_KEEP(&s, expr)

/* t (borrowed) as a new reference kept past nn_scratch_free. */
static nn_tensor *own(nn_tensor *t)
{
    NN_RETAIN(t);
    return t;
}

/* forward's arguments by position or keyword into out[n] (borrowed, NULL when
   absent); the first `required` must be given. 0, or -1 with TypeError. */
static int parse_args(const char *fn, nn_object *args, nn_object *kwargs, int n, const char *const *names, int required,
                      nn_object **out)
{
    size_t np = nn_tuple_len(args);
    if ((int)np > n)
        return nn_error_set(NN_ERR_TYPE, "%s() takes from %d to %d positional arguments but %zu were given", fn,
                            required + 1, n + 1, np + 1);
    for (int i = 0; i < n; i++) out[i] = i < (int)np ? nn_tuple_get(args, (size_t)i) : NULL;
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        const char *key = nn_is_str(k) ? nn_str_cstr(k) : "";
        int i = 0;
        while (i < n && strcmp(names[i], key)) i++;
        if (i == n) return nn_error_set(NN_ERR_TYPE, "%s() got an unexpected keyword argument '%s'", fn, key);
        if (out[i]) return nn_error_set(NN_ERR_TYPE, "%s() got multiple values for argument '%s'", fn, key);
        out[i] = v;
    }
    for (int i = 0; i < required; i++)
        if (!out[i]) return nn_error_set(NN_ERR_TYPE, "%s() missing 1 required positional argument: '%s'", fn, names[i]);
    for (int i = 0; i < n; i++)
        if (out[i] && nn_is_none(out[i])) out[i] = NULL;
    return 0;
}

static int tensor_of(const char *fn, const char *name, nn_object *o, nn_tensor **out)
{
    if (!o) {
        *out = NULL;
        return 0;
    }
    if (!nn_is_tensor(o))
        return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' must be Tensor, not %s", fn, name, o->type->name);
    *out = NN_TENSOR(o);
    return 0;
}

static bool truthy(const nn_object *o, bool dflt)
{
    if (!o) return dflt;
    if (nn_is_bool(o) || nn_is_int(o)) return nn_int_value(o) != 0;
    if (nn_is_float(o)) return nn_float_value(o) != 0;
    return !nn_is_none(o);
}

static int set_attr(nn_module *m, const char *name, nn_object *v)
{
    int rc = v ? nn_module_setattr(m, name, v) : -1;
    NN_RELEASE(v);
    return rc;
}

static int add_child(nn_module *m, const char *name, nn_module *child)
{
    int rc = child ? nn_module_add_module(m, name, child) : -1;
    NN_RELEASE(child);
    return rc;
}

static int64_t attr_int(nn_module *m, const char *name, int *rc)
{
    nn_object *v = *rc ? NULL : nn_module_getattr(m, name);
    if (!v || !(nn_is_int(v) || nn_is_bool(v))) {
        if (v) nn_error_set(NN_ERR_TYPE, "%s.%s must be an int", nn_module_name(m), name);
        *rc = -1;
        return 0;
    }
    return nn_int_value(v);
}

static nn_tensor *param(nn_module *m, const char *name, int *rc)
{
    nn_object *v = *rc ? NULL : nn_module_getattr(m, name);
    if (!v) *rc = -1;
    return v && nn_is_tensor(v) ? NN_TENSOR(v) : NULL;
}

/* A 0-dim tensor of value like t (dtype, device). */
static nn_tensor *scalar_like(nn_tensor *t, double value, nn_dtype dtype)
{
    return nn_full_on(nn_device_of(t), 0, NULL, value, dtype);
}

/* ------------------------------------------- scaled dot-product attention */

/* The float additive mask of a bool mask (-inf where true), or the mask itself. */
static nn_tensor *additive_mask(nn_tensor *mask, nn_dtype dtype)
{
    if (mask->dtype != NN_BOOL) return own(mask);
    nn_tensor *ninf = scalar_like(mask, -INFINITY, dtype), *zero = ninf ? scalar_like(mask, 0, dtype) : NULL;
    nn_tensor *r = zero ? nn_where(mask, ninf, zero) : NULL;
    NN_RELEASE(ninf);
    NN_RELEASE(zero);
    return r;
}

/* softmax(q k^T / sqrt(d) + mask) (dropout) and its product with v, over
   batched [B, L, d] x [B, S, d] -> [B, L, dv]; *weights (if not NULL) gets the
   attention weights [B, L, S]. mask: an additive float mask broadcastable to
   [B, L, S] or NULL. New references. */
static nn_tensor *attend(nn_tensor *q, nn_tensor *k, nn_tensor *v, nn_tensor *mask, double dropout_p,
                         nn_tensor **weights)
{
    nn_scratch s = {0};
    nn_tensor *qs = K(nn_div_scalar(q, sqrt((double)q->sizes[q->ndim - 1])));
    nn_tensor *kt = K(nn_transpose(k, -2, -1));
    nn_tensor *w = K(nn_matmul(qs, kt));
    if (mask) w = K(nn_add(mask, w));
    w = K(nn_softmax(w, -1));
    if (dropout_p > 0) w = K(nn_dropout(w, dropout_p, true));
    nn_tensor *out = s.failed ? NULL : nn_matmul(w, v);
    if (out && weights) *weights = own(w);
    nn_scratch_free(&s);
    return out;
}

nn_tensor *nn_scaled_dot_product_attention(nn_tensor *q, nn_tensor *k, nn_tensor *v, nn_tensor *attn_mask,
                                           double dropout_p, bool is_causal)
{
    if (q->ndim < 2 || k->ndim < 2 || v->ndim < 2)
        return nn_error_set(NN_ERR_RUNTIME, "scaled_dot_product_attention: query, key and value must be at least 2-D"),
               NULL;
    if (attn_mask && is_causal)
        return nn_error_set(NN_ERR_RUNTIME, "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                                            "is_causal=True"), NULL;
    nn_tensor *mask = NULL;
    if (is_causal) { /* True above the diagonal: the future is masked */
        int64_t L = q->sizes[q->ndim - 2], S = k->sizes[k->ndim - 2], sizes[2] = {L, S};
        nn_tensor *ones = nn_full_on(nn_device_of(q), 2, sizes, 1, NN_BOOL);
        nn_tensor *upper = ones ? nn_triu(ones, 1) : NULL;
        mask = upper ? additive_mask(upper, q->dtype) : NULL;
        NN_RELEASE(ones);
        NN_RELEASE(upper);
        if (!mask) return NULL;
    } else if (attn_mask && !(mask = additive_mask(attn_mask, q->dtype)))
        return NULL;
    nn_tensor *out = attend(q, k, v, mask, dropout_p, NULL);
    NN_RELEASE(mask);
    return out;
}

/* -------------------------------------------------- MultiheadAttention */

const nn_module_class nn_ndq_linear_class = {.name = "NonDynamicallyQuantizableLinear", .base = &nn_linear_class};

static nn_object *mha_forward(nn_module *m, nn_object *args, nn_object *kwargs);

static char *mha_extra_repr(nn_module *m) { return nn_strdup(""); }

const nn_module_class nn_multihead_attention_class = {.name = "MultiheadAttention", .forward = mha_forward,
                                                      .extra_repr = mha_extra_repr};

/* A new Parameter of the given shape, registered as name (borrowed back). */
static nn_tensor *add_param(nn_module *m, const char *name, int ndim, int64_t d0, int64_t d1, nn_dtype dtype)
{
    int64_t sizes[2] = {d0, d1};
    nn_tensor *data = nn_empty(ndim, sizes, dtype), *p = data ? nn_parameter_new(data, true) : NULL;
    NN_RELEASE(data);
    int rc = p ? nn_module_register_parameter(m, name, p) : -1;
    NN_RELEASE(p);
    return rc ? NULL : p;
}

nn_module *nn_multihead_attention_new(int64_t embed_dim, int64_t num_heads, double dropout, bool bias, int64_t kdim,
                                      int64_t vdim, bool batch_first, nn_dtype dtype)
{
    if (num_heads <= 0 || embed_dim <= 0)
        return nn_error_set(NN_ERR_ZERO_DIVISION, "integer division or modulo by zero"), NULL;
    if ((embed_dim / num_heads) * num_heads != embed_dim)
        return nn_error_set(NN_ERR_ASSERTION, "embed_dim must be divisible by num_heads"), NULL;
    if (kdim <= 0) kdim = embed_dim;
    if (vdim <= 0) vdim = embed_dim;
    bool same = kdim == embed_dim && vdim == embed_dim;
    nn_module *m = nn_module_new(&nn_multihead_attention_class);
    if (!m) return NULL;
    int rc = set_attr(m, "embed_dim", nn_int_new(embed_dim));
    if (rc == 0) rc = set_attr(m, "kdim", nn_int_new(kdim));
    if (rc == 0) rc = set_attr(m, "vdim", nn_int_new(vdim));
    if (rc == 0) rc = set_attr(m, "_qkv_same_embed_dim", nn_bool_new(same));
    if (rc == 0) rc = set_attr(m, "num_heads", nn_int_new(num_heads));
    if (rc == 0) rc = set_attr(m, "dropout", nn_float_new(dropout));
    if (rc == 0) rc = set_attr(m, "batch_first", nn_bool_new(batch_first));
    if (rc == 0) rc = set_attr(m, "head_dim", nn_int_new(embed_dim / num_heads));
    nn_tensor *w[3] = {0}, *in_w = NULL, *in_b = NULL;
    if (rc == 0 && !same) {
        rc = (w[0] = add_param(m, "q_proj_weight", 2, embed_dim, embed_dim, dtype)) &&
                     (w[1] = add_param(m, "k_proj_weight", 2, embed_dim, kdim, dtype)) &&
                     (w[2] = add_param(m, "v_proj_weight", 2, embed_dim, vdim, dtype))
                 ? nn_module_register_parameter(m, "in_proj_weight", NULL)
                 : -1;
    } else if (rc == 0) {
        rc = (in_w = add_param(m, "in_proj_weight", 2, 3 * embed_dim, embed_dim, dtype)) ? 0 : -1;
        for (int i = 0; rc == 0 && i < 3; i++)
            rc = nn_module_register_parameter(m, (const char *[]){"q_proj_weight", "k_proj_weight", "v_proj_weight"}[i],
                                              NULL);
    }
    if (rc == 0) rc = bias ? ((in_b = add_param(m, "in_proj_bias", 1, 3 * embed_dim, 0, dtype)) ? 0 : -1)
                           : nn_module_register_parameter(m, "in_proj_bias", NULL);
    nn_module *out = rc ? NULL : nn_linear_new(embed_dim, embed_dim, bias, dtype); /* draws its init */
    if (out) out->cls = &nn_ndq_linear_class;
    if (rc == 0) rc = add_child(m, "out_proj", out);
    if (rc == 0) rc = set_attr(m, "bias_k", nn_retain(nn_none()));
    if (rc == 0) rc = set_attr(m, "bias_v", nn_retain(nn_none()));
    if (rc == 0) rc = set_attr(m, "add_zero_attn", nn_bool_new(false));
    /* _reset_parameters */
    if (rc == 0 && same) rc = nn_init_xavier_uniform_(in_w, 1.0);
    for (int i = 0; rc == 0 && !same && i < 3; i++) rc = nn_init_xavier_uniform_(w[i], 1.0);
    if (rc == 0 && bias) {
        nn_object *ob = nn_module_getattr(NN_MODULE(nn_dict_get_str(m->modules, "out_proj")), "bias");
        rc = ob ? nn_init_constant_(in_b, 0) : -1;
        if (rc == 0) rc = nn_init_constant_(NN_TENSOR(ob), 0);
    }
    if (rc) NN_SET(m, NULL);
    return m;
}

/* "torch.Size([2, 3])" for messages */
static void size_text(char *buf, size_t n, const nn_tensor *t)
{
    size_t k = (size_t)snprintf(buf, n, "torch.Size([");
    for (int i = 0; i < t->ndim && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    if (k < n) snprintf(buf + k, n - k, "])");
}

/* F.multi_head_attention_forward for query [L, B, E], key [S, B, kdim], value
   [S, B, vdim] (batch second). Sets *out [L, B, E] and *weights. */
static int mha_core(nn_module *m, nn_tensor *query, nn_tensor *key, nn_tensor *value, bool self_attn, bool kv_same,
                    nn_tensor *kpm, nn_tensor *attn_mask, bool need_weights, bool average, nn_tensor **out,
                    nn_tensor **weights)
{
    int rc = 0;
    int64_t E = attr_int(m, "embed_dim", &rc), H = attr_int(m, "num_heads", &rc);
    nn_object *drop_o = rc ? NULL : nn_module_getattr(m, "dropout");
    nn_tensor *in_w = param(m, "in_proj_weight", &rc), *in_b = param(m, "in_proj_bias", &rc);
    nn_tensor *qw = param(m, "q_proj_weight", &rc), *kw = param(m, "k_proj_weight", &rc),
              *vw = param(m, "v_proj_weight", &rc);
    nn_module *op = NN_MODULE(nn_dict_get_str(m->modules, "out_proj"));
    nn_tensor *ow = op ? param(op, "weight", &rc) : NULL, *ob = op ? param(op, "bias", &rc) : NULL;
    if (rc || !drop_o) return -1;
    if (!op || !ow) return nn_error_set(NN_ERR_ATTRIBUTE, "'MultiheadAttention' object has no attribute 'out_proj'");
    double dropout_p = m->training ? nn_float_value(drop_o) : 0;
    int64_t L = query->sizes[0], B = query->sizes[1], S = key->sizes[0], hd = E / H;
    char a[64], b[64];
    if (query->sizes[2] != E)
        return nn_error_set(NN_ERR_ASSERTION, "was expecting embedding dimension of %lld, but got %lld", (long long)E,
                            (long long)query->sizes[2]);
    if (in_w && (key->ndim != value->ndim || memcmp(key->sizes, value->sizes, sizeof key->sizes[0] * 3))) {
        size_text(a, sizeof a, key);
        size_text(b, sizeof b, value);
        return nn_error_set(NN_ERR_ASSERTION, "key shape %s does not match value shape %s", a, b);
    }
    if (kpm && (kpm->ndim != 2 || kpm->sizes[0] != B || kpm->sizes[1] != S)) {
        size_text(a, sizeof a, kpm);
        return nn_error_set(NN_ERR_ASSERTION, "expecting key_padding_mask shape of (%lld, %lld), but got %s",
                            (long long)B, (long long)S, a);
    }
    if (kpm && kpm->dtype != NN_BOOL && kpm->dtype != NN_FLOAT32 && kpm->dtype != NN_FLOAT64)
        return nn_error_set(NN_ERR_ASSERTION, "only bool and floating types of key_padding_mask are supported");
    nn_scratch s = {0};
    nn_tensor *q, *k, *v;
    if (in_w) {
        if (self_attn) {
            nn_tensor *proj = K(nn_linear(query, in_w, in_b));
            q = K(nn_narrow(proj, 2, 0, E)), k = K(nn_narrow(proj, 2, E, E)), v = K(nn_narrow(proj, 2, 2 * E, E));
        } else if (kv_same) {
            q = K(nn_linear(query, K(nn_narrow(in_w, 0, 0, E)), in_b ? K(nn_narrow(in_b, 0, 0, E)) : NULL));
            nn_tensor *kv = K(nn_linear(key, K(nn_narrow(in_w, 0, E, 2 * E)), in_b ? K(nn_narrow(in_b, 0, E, 2 * E)) : NULL));
            k = K(nn_narrow(kv, 2, 0, E)), v = K(nn_narrow(kv, 2, E, E));
        } else {
            q = K(nn_linear(query, K(nn_narrow(in_w, 0, 0, E)), in_b ? K(nn_narrow(in_b, 0, 0, E)) : NULL));
            k = K(nn_linear(key, K(nn_narrow(in_w, 0, E, E)), in_b ? K(nn_narrow(in_b, 0, E, E)) : NULL));
            v = K(nn_linear(value, K(nn_narrow(in_w, 0, 2 * E, E)), in_b ? K(nn_narrow(in_b, 0, 2 * E, E)) : NULL));
        }
    } else {
        if (!qw || !kw || !vw) {
            nn_error_set(NN_ERR_ASSERTION, "use_separate_proj_weight is True but q_proj_weight is None");
            goto fail;
        }
        q = K(nn_linear(query, qw, in_b ? K(nn_narrow(in_b, 0, 0, E)) : NULL));
        k = K(nn_linear(key, kw, in_b ? K(nn_narrow(in_b, 0, E, E)) : NULL));
        v = K(nn_linear(value, vw, in_b ? K(nn_narrow(in_b, 0, 2 * E, E)) : NULL));
    }
    nn_tensor *mask = NULL;
    if (attn_mask) {
        if (attn_mask->dtype != NN_BOOL && attn_mask->dtype != NN_FLOAT32 && attn_mask->dtype != NN_FLOAT64 &&
            attn_mask->dtype != NN_FLOAT16 && attn_mask->dtype != NN_BFLOAT16) {
            nn_error_set(NN_ERR_ASSERTION, "Only float, byte, and bool types are supported for attn_mask, not %s",
                         nn_dtype_name(attn_mask->dtype));
            goto fail;
        }
        bool ok2 = attn_mask->ndim == 2 && attn_mask->sizes[0] == L && attn_mask->sizes[1] == S;
        bool ok3 = attn_mask->ndim == 3 && attn_mask->sizes[0] == B * H && attn_mask->sizes[1] == L &&
                   attn_mask->sizes[2] == S;
        if (!ok2 && !ok3) {
            size_text(a, sizeof a, attn_mask);
            if (attn_mask->ndim == 2)
                nn_error_set(NN_ERR_RUNTIME, "The shape of the 2D attn_mask is %s, but should be (%lld, %lld).", a,
                             (long long)L, (long long)S);
            else if (attn_mask->ndim == 3)
                nn_error_set(NN_ERR_RUNTIME, "The shape of the 3D attn_mask is %s, but should be (%lld, %lld, %lld).",
                             a, (long long)(B * H), (long long)L, (long long)S);
            else
                nn_error_set(NN_ERR_RUNTIME, "attn_mask's dimension %d is not supported", attn_mask->ndim);
            goto fail;
        }
        mask = K(additive_mask(attn_mask, q ? q->dtype : query->dtype));
        if (ok2) mask = K(nn_unsqueeze(mask, 0));
    }
    if (kpm) { /* [B, S] -> [B*H, 1, S], -inf where True (a float mask is added) */
        int64_t s4[4] = {B, 1, 1, S}, e4[4] = {-1, H, -1, -1}, s3[3] = {B * H, 1, S};
        nn_tensor *km = K(nn_reshape(K(nn_expand(K(nn_view(K(additive_mask(kpm, query->dtype)), 4, s4)), 4, e4)), 3, s3));
        if (!mask) mask = km;
        else if (kpm->dtype == NN_BOOL) mask = K(nn_add(mask, km));
        else {
            nn_error_set(NN_ERR_RUNTIME, "masked_fill_ only supports boolean masks, but got mask with dtype %s",
                         nn_dtype_name(kpm->dtype));
            goto fail;
        }
    }
    int64_t qs[3] = {L, B * H, hd}, ks[3] = {S, B * H, hd}, os[2] = {L * B, E}, o3[3] = {L, B, E};
    q = K(nn_transpose(K(nn_view(K(nn_contiguous(q)), 3, qs)), 0, 1));
    k = K(nn_transpose(K(nn_view(K(nn_contiguous(k)), 3, ks)), 0, 1));
    v = K(nn_transpose(K(nn_view(K(nn_contiguous(v)), 3, ks)), 0, 1));
    nn_tensor *w = NULL;
    nn_tensor *o = s.failed ? NULL : K(attend(q, k, v, mask, dropout_p, &w));
    if (w) nn_scratch_keep(&s, w);
    o = K(nn_view(K(nn_contiguous(K(nn_transpose(o, 0, 1)))), 2, os));
    o = K(nn_view(K(nn_linear(o, ow, ob)), 3, o3));
    if (s.failed) goto fail;
    *out = own(o);
    *weights = NULL;
    if (need_weights) {
        int64_t ws[4] = {B, H, L, S};
        int dim1 = 1;
        w = K(nn_view(w, 4, ws));
        if (average) w = K(nn_div_scalar(K(nn_sum(w, 1, &dim1, false)), (double)H));
        if (s.failed) {
            NN_SET(*out, NULL);
            goto fail;
        }
        *weights = own(w);
    }
    nn_scratch_free(&s);
    return 0;
fail:
    nn_scratch_free(&s);
    return -1;
}

static nn_object *mha_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"query", "key", "value", "key_padding_mask", "need_weights", "attn_mask",
                                        "average_attn_weights"};
    nn_object *a[7];
    nn_tensor *q = NULL, *k = NULL, *v = NULL, *kpm = NULL, *mask = NULL;
    const char *f = "forward";
    if (parse_args(f, args, kwargs, 7, names, 3, a) || tensor_of(f, "query", a[0], &q) || tensor_of(f, "key", a[1], &k) ||
        tensor_of(f, "value", a[2], &v) || tensor_of(f, "key_padding_mask", a[3], &kpm) ||
        tensor_of(f, "attn_mask", a[5], &mask))
        return NULL;
    if (!q || !k || !v)
        return nn_error_set(NN_ERR_ATTRIBUTE, "'NoneType' object has no attribute '%s'", "dim"), NULL;
    nn_object *bf = nn_module_getattr(m, "batch_first");
    if (!bf) return NULL;
    bool batched = q->ndim == 3, batch_first = truthy(bf, false) && batched;
    bool need = truthy(a[4], true), avg = truthy(a[6], true);
    bool self_attn = a[0] == a[1] && a[1] == a[2], kv_same = a[1] == a[2];
    if (q->ndim == 3) {
        if (k->ndim != 3 || v->ndim != 3)
            return nn_error_set(NN_ERR_ASSERTION, "For batched (3-D) `query`, expected `key` and `value` to be 3-D but "
                                "found %d-D and %d-D tensors respectively", k->ndim, v->ndim), NULL;
        if (kpm && kpm->ndim != 2)
            return nn_error_set(NN_ERR_ASSERTION, "For batched (3-D) `query`, expected `key_padding_mask` to be `None` "
                                "or 2-D but found %d-D tensor instead", kpm->ndim), NULL;
    } else if (q->ndim == 2) {
        if (k->ndim != 2 || v->ndim != 2)
            return nn_error_set(NN_ERR_ASSERTION, "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but "
                                "found %d-D and %d-D tensors respectively", k->ndim, v->ndim), NULL;
        if (kpm && kpm->ndim != 1)
            return nn_error_set(NN_ERR_ASSERTION, "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` "
                                "or 1-D but found %d-D tensor instead", kpm->ndim), NULL;
    } else
        return nn_error_set(NN_ERR_ASSERTION, "query should be unbatched 2D or batched 3D tensor but received %d-D query "
                            "tensor", q->ndim), NULL;
    if (mask && mask->ndim != 2 && mask->ndim != 3)
        return nn_error_set(NN_ERR_ASSERTION, "For %s `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                            "%d-D tensor instead", batched ? "batched (3-D)" : "unbatched (2-D)", mask->ndim), NULL;
    nn_scratch s = {0};
    nn_tensor *qq = q, *kk = k, *vv = v, *km = kpm;
    if (batch_first) {
        qq = K(nn_transpose(q, 1, 0));
        kk = a[1] == a[0] ? qq : K(nn_transpose(k, 1, 0));
        vv = a[2] == a[1] ? kk : K(nn_transpose(v, 1, 0));
    } else if (!batched) {
        qq = K(nn_unsqueeze(q, 1));
        kk = a[1] == a[0] ? qq : K(nn_unsqueeze(k, 1));
        vv = a[2] == a[1] ? kk : K(nn_unsqueeze(v, 1));
        if (kpm) km = K(nn_unsqueeze(kpm, 0));
    }
    nn_tensor *out = NULL, *w = NULL;
    if (s.failed || mha_core(m, qq, kk, vv, self_attn, kv_same, km, mask, need, avg, &out, &w)) {
        nn_scratch_free(&s);
        return NULL;
    }
    nn_scratch_free(&s);
    nn_tensor *o2 = batch_first ? nn_transpose(out, 1, 0) : !batched ? nn_squeeze_dim(out, 1) : own(out);
    nn_tensor *w2 = w && !batched ? nn_squeeze_dim(w, 0) : w ? own(w) : NULL;
    NN_RELEASE(out);
    NN_RELEASE(w);
    nn_object *r = o2 && (w2 || !w) ? nn_tuple_pack(2, o2, w2 ? (nn_object *)w2 : nn_none()) : NULL;
    NN_RELEASE(o2);
    NN_RELEASE(w2);
    return r;
}

/* -------------------------------------------- TransformerEncoderLayer */

static nn_object *encoder_layer_forward(nn_module *m, nn_object *args, nn_object *kwargs);
static nn_object *encoder_forward(nn_module *m, nn_object *args, nn_object *kwargs);

const nn_module_class nn_transformer_encoder_layer_class = {.name = "TransformerEncoderLayer",
                                                            .forward = encoder_layer_forward};
const nn_module_class nn_transformer_encoder_class = {.name = "TransformerEncoder", .forward = encoder_forward};

nn_module *nn_transformer_encoder_layer_new(int64_t d_model, int64_t nhead, int64_t dim_feedforward, double dropout,
                                            nn_object *activation, double layer_norm_eps, bool batch_first,
                                            bool norm_first, nn_dtype dtype)
{
    nn_module *m = nn_module_new(&nn_transformer_encoder_layer_class);
    if (!m) return NULL;
    int rc = add_child(m, "self_attn", nn_multihead_attention_new(d_model, nhead, dropout, true, 0, 0, batch_first, dtype));
    if (rc == 0) rc = add_child(m, "linear1", nn_linear_new(d_model, dim_feedforward, true, dtype));
    if (rc == 0) rc = add_child(m, "dropout", nn_dropout_new(dropout, false));
    if (rc == 0) rc = add_child(m, "linear2", nn_linear_new(dim_feedforward, d_model, true, dtype));
    if (rc == 0) rc = set_attr(m, "norm_first", nn_bool_new(norm_first));
    if (rc == 0) rc = add_child(m, "norm1", nn_layer_norm_new(1, &d_model, layer_norm_eps, true, dtype));
    if (rc == 0) rc = add_child(m, "norm2", nn_layer_norm_new(1, &d_model, layer_norm_eps, true, dtype));
    if (rc == 0) rc = add_child(m, "dropout1", nn_dropout_new(dropout, false));
    if (rc == 0) rc = add_child(m, "dropout2", nn_dropout_new(dropout, false));
    if (rc == 0) rc = set_attr(m, "activation_relu_or_gelu", nn_int_new(0));
    if (rc == 0) rc = nn_module_setattr(m, "activation", activation); /* a module becomes a child */
    if (rc) NN_SET(m, NULL);
    return m;
}

/* m.<name>(x) for a child module; a new reference. */
static nn_tensor *child_call(nn_module *m, const char *name, nn_tensor *x)
{
    nn_object *c = nn_dict_get_str(m->modules, name);
    if (!c || !nn_is_module(c))
        return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'", nn_module_name(m), name), NULL;
    nn_object *args = nn_tuple_pack(1, x), *r = args ? nn_module_call(NN_MODULE(c), args, NULL) : NULL;
    NN_RELEASE(args);
    if (r && !nn_is_tensor(r)) {
        nn_error_set(NN_ERR_TYPE, "%s.%s returned %s, not a Tensor", nn_module_name(m), name, r->type->name);
        NN_SET(r, NULL);
    }
    return NN_TENSOR(r);
}

/* self.activation(x): a module, or any callable (F.relu, F.gelu, a function). */
static nn_tensor *activation_call(nn_module *m, nn_tensor *x)
{
    nn_object *act = nn_dict_get_str(m->modules, "activation");
    if (act) return child_call(m, "activation", x);
    act = nn_module_getattr(m, "activation");
    if (!act) return NULL;
    nn_object *args = nn_tuple_pack(1, x), *r = args ? nn_call(act, args, NULL) : NULL;
    NN_RELEASE(args);
    if (r && !nn_is_tensor(r)) {
        nn_error_set(NN_ERR_TYPE, "activation returned %s, not a Tensor", r->type->name);
        NN_SET(r, NULL);
    }
    return NN_TENSOR(r);
}

/* x + dropout1(self_attn(x, x, x, attn_mask, key_padding_mask, need_weights=False)[0]) */
static nn_tensor *sa_block(nn_module *m, nn_tensor *x, nn_object *mask, nn_object *kpm)
{
    nn_object *sa = nn_dict_get_str(m->modules, "self_attn");
    if (!sa || !nn_is_module(sa))
        return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'self_attn'", nn_module_name(m)), NULL;
    nn_object *args = nn_tuple_pack(3, x, x, x), *kw = nn_dict_new(), *f = nn_bool_new(false);
    int rc = args && kw && f ? 0 : -1;
    if (rc == 0) rc = nn_dict_set_str(kw, "attn_mask", mask ? mask : nn_none());
    if (rc == 0) rc = nn_dict_set_str(kw, "key_padding_mask", kpm ? kpm : nn_none());
    if (rc == 0) rc = nn_dict_set_str(kw, "need_weights", f);
    nn_object *r = rc == 0 ? nn_module_call(NN_MODULE(sa), args, kw) : NULL;
    NN_RELEASE(args);
    NN_RELEASE(kw);
    NN_RELEASE(f);
    if (!r) return NULL;
    nn_object *first = r->type == &nn_tuple_type && nn_tuple_len(r) > 0 ? nn_tuple_get(r, 0) : NULL;
    nn_tensor *y = first && nn_is_tensor(first) ? child_call(m, "dropout1", NN_TENSOR(first)) : NULL;
    if (!first || !nn_is_tensor(first)) nn_error_set(NN_ERR_TYPE, "self_attn must return (Tensor, weights)");
    NN_RELEASE(r);
    return y;
}

/* dropout2(linear2(dropout(activation(linear1(x))))) */
static nn_tensor *ff_block(nn_module *m, nn_tensor *x)
{
    nn_scratch s = {0};
    nn_tensor *h = K(child_call(m, "linear1", x));
    h = K(activation_call(m, h));
    h = K(child_call(m, "dropout", h));
    h = K(child_call(m, "linear2", h));
    nn_tensor *y = s.failed ? NULL : child_call(m, "dropout2", h);
    nn_scratch_free(&s);
    return y;
}

static nn_object *encoder_layer_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"src", "src_mask", "src_key_padding_mask"};
    nn_object *a[3];
    nn_tensor *src = NULL;
    if (parse_args("forward", args, kwargs, 3, names, 1, a) || tensor_of("forward", "src", a[0], &src)) return NULL;
    if (!src) return nn_error_set(NN_ERR_ATTRIBUTE, "'NoneType' object has no attribute 'dim'"), NULL;
    nn_object *nf = nn_module_getattr(m, "norm_first");
    if (!nf) return NULL;
    nn_scratch s = {0};
    nn_tensor *x = src;
    if (truthy(nf, false)) {
        x = K(nn_add(x, K(sa_block(m, K(child_call(m, "norm1", x)), a[1], a[2]))));
        x = K(nn_add(x, K(ff_block(m, K(child_call(m, "norm2", x))))));
    } else {
        x = K(child_call(m, "norm1", K(nn_add(x, K(sa_block(m, x, a[1], a[2]))))));
        x = K(child_call(m, "norm2", K(nn_add(x, K(ff_block(m, x))))));
    }
    nn_tensor *r = s.failed ? NULL : own(x);
    nn_scratch_free(&s);
    return (nn_object *)r;
}

/* ------------------------------------------------- TransformerEncoder */

nn_module *nn_transformer_encoder_new(nn_object *layers, nn_module *norm, bool enable_nested_tensor, bool mask_check)
{
    nn_module *m = nn_module_new(&nn_transformer_encoder_class);
    if (!m) return NULL;
    size_t n = nn_list_len(layers);
    int rc = add_child(m, "layers", nn_module_list_new(layers));
    if (rc == 0) rc = set_attr(m, "num_layers", nn_int_new((int64_t)n));
    if (rc == 0) rc = norm ? nn_module_add_module(m, "norm", norm) : nn_module_setattr(m, "norm", nn_none());
    if (rc == 0) rc = set_attr(m, "enable_nested_tensor", nn_bool_new(enable_nested_tensor));
    if (rc == 0) rc = set_attr(m, "mask_check", nn_bool_new(mask_check));
    if (rc) NN_SET(m, NULL);
    return m;
}

static nn_object *encoder_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"src", "mask", "src_key_padding_mask"};
    nn_object *a[3];
    nn_tensor *src = NULL;
    if (parse_args("forward", args, kwargs, 3, names, 1, a) || tensor_of("forward", "src", a[0], &src)) return NULL;
    if (!src) return nn_error_set(NN_ERR_ATTRIBUTE, "'NoneType' object has no attribute 'dim'"), NULL;
    nn_object *layers = nn_dict_get_str(m->modules, "layers");
    if (!layers || !nn_is_module(layers))
        return nn_error_set(NN_ERR_ATTRIBUTE, "'TransformerEncoder' object has no attribute 'layers'"), NULL;
    nn_object *list = nn_module_children(NN_MODULE(layers)), *kw = list ? nn_dict_new() : NULL;
    int rc = kw ? 0 : -1;
    if (rc == 0) rc = nn_dict_set_str(kw, "src_mask", a[1] ? a[1] : nn_none());
    if (rc == 0) rc = nn_dict_set_str(kw, "src_key_padding_mask", a[2] ? a[2] : nn_none());
    nn_object *x = rc ? NULL : nn_retain((nn_object *)src);
    for (size_t i = 0; x && i < nn_list_len(list); i++) {
        nn_object *args1 = nn_tuple_pack(1, x), *y = args1 ? nn_module_call(NN_MODULE(nn_list_get(list, i)), args1, kw) : NULL;
        NN_RELEASE(args1);
        NN_SET(x, y);
    }
    nn_object *norm = x ? nn_dict_get_str(m->modules, "norm") : NULL;
    if (norm && nn_is_module(norm)) {
        nn_object *args1 = nn_tuple_pack(1, x), *y = args1 ? nn_module_call(NN_MODULE(norm), args1, NULL) : NULL;
        NN_RELEASE(args1);
        NN_SET(x, y);
    }
    NN_RELEASE(list);
    NN_RELEASE(kw);
    return x;
}
