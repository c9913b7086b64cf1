/*
 * multistep.c — torchrl's MultiStep post-processing transform as an
 * nn.Module over TensorDicts, ported op for op from torchrl 0.4
 * (torchrl/data/postprocs/postprocs.py: MultiStep.forward ->
 * _multi_step_func -> _get_reward): rewards summed with gamma ** i over up
 * to n_steps + 1 steps of the same trajectory (trajectories end at
 * ("next", "done")), every other "next" entry taken from the last step
 * reached, and the gamma / nonterminal / steps_to_next_obs entries. The
 * torch ops (cumsum, conv1d, gather, ...) are written as loops with the
 * same dtypes; nothing is recorded for autograd.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn.h"

/* ---------------------------------------------------------------- the config */

/* The module's attributes, read at each call as Python reads self.x (borrowed). */
typedef struct config {
    double gamma;
    int64_t n_steps;
    nn_object *done_key, *done_keys, *reward_keys, *mask_key;
} config;

static bool is_sequence(const nn_object *o) { return o && (o->type == &nn_tuple_type || nn_is_list(o)); }
static size_t seq_len(const nn_object *o) { return o->type == &nn_tuple_type ? nn_tuple_len(o) : nn_list_len(o); }
static nn_object *seq_get(const nn_object *o, size_t i)
{
    return o->type == &nn_tuple_type ? nn_tuple_get(o, i) : nn_list_get(o, i);
}

static int read_config(nn_module *m, config *c)
{
    nn_object *gamma = nn_module_getattr(m, "gamma"), *n_steps = gamma ? nn_module_getattr(m, "n_steps") : NULL;
    if (!n_steps) return -1;
    if (!nn_is_float(gamma) && !nn_is_int(gamma) && !nn_is_bool(gamma))
        return nn_error_set(NN_ERR_TYPE, "MultiStep.gamma must be a number, got %s", gamma->type->name);
    if (!nn_is_int(n_steps) && !nn_is_bool(n_steps))
        return nn_error_set(NN_ERR_TYPE, "MultiStep.n_steps must be an int, got %s", n_steps->type->name);
    c->gamma = nn_float_value(gamma);
    c->n_steps = nn_int_value(n_steps);
    if (!(c->done_key = nn_module_getattr(m, "done_key")) || !(c->done_keys = nn_module_getattr(m, "done_keys")) ||
        !(c->reward_keys = nn_module_getattr(m, "reward_keys")) || !(c->mask_key = nn_module_getattr(m, "mask_key")))
        return -1;
    if (!is_sequence(c->done_keys) || !is_sequence(c->reward_keys))
        return nn_error_set(NN_ERR_TYPE, "MultiStep.done_keys and reward_keys must be tuples or lists of keys");
    if (c->n_steps < 0) return nn_error_set(NN_ERR_VALUE, "n_steps must be a non-negative integer.");
    return 0;
}

/* ("next", key) as a new reference (tensordict flattens the nested tuple). */
static nn_object *next_key(nn_object *key)
{
    nn_object *next = nn_str_new("next");
    nn_object *out = next ? nn_tuple_pack(2, next, key) : NULL;
    NN_RELEASE(next);
    return out;
}

/* Appends key's str parts to parts: 1, 0 when key is not a nested key, -1 on failure. */
static int flatten_key(nn_object *key, nn_object *parts)
{
    if (nn_is_str(key)) return nn_list_append(parts, key) < 0 ? -1 : 1;
    if (!key || key->type != &nn_tuple_type) return 0;
    for (size_t i = 0; i < nn_tuple_len(key); i++) {
        int r = flatten_key(nn_tuple_get(key, i), parts);
        if (r <= 0) return r;
    }
    return 1;
}

/* An entry that must be a tensor (borrowed), or NULL with an error. */
static nn_tensor *get_tensor(nn_tensordict *td, nn_object *key)
{
    nn_object *v = nn_tensordict_get(td, key);
    if (v && !nn_is_tensor(v)) {
        char *r = nn_repr(key);
        nn_error_set(NN_ERR_TYPE, "MultiStep expects a tensor at %s, got a %s", r ? r : "?", v->type->name);
        nn_free(r);
        return NULL;
    }
    return NN_TENSOR(v);
}

static const char *torch_type_name(nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT32: return "Float";
    case NN_FLOAT64: return "Double";
    case NN_FLOAT16: return "Half";
    case NN_BFLOAT16: return "BFloat16";
    case NN_INT64: return "Long";
    case NN_INT32: return "Int";
    case NN_BOOL: return "Bool";
    default: return "?";
    }
}

/* ------------------------------------------------------------ trajectories */

/* _get_reward's trajectory bookkeeping for done [P, T] (contiguous): traj[p, t] is the
   exclusive cumsum of done along time (the id of the trajectory step t belongs to),
   tto[p, t] ("time_to_obs") is min(steps left in that trajectory, n + 1) - 1, -1 for a
   step in no trajectory (a negative id). */
static int trajectories(nn_tensor *done, int64_t P, int64_t T, int64_t n, int64_t *traj, int64_t *tto)
{
    if (nn_dtype_is_floating(done->dtype))
        return nn_error_set(NN_ERR_TYPE, "expand(): argument 'size' (position 1) must be tuple of SymInts, not float");
    if (P * T == 0)
        return nn_error_set(NN_ERR_RUNTIME, "max(): Expected reduction dim to be specified for input.numel() == 0. "
                                            "Specify the reduction dim with the 'dim' argument.");
    nn_tensor *hold = NULL;
    const void *d = nn_host_read(done, &hold);
    if (!d) return -1;
    for (int64_t p = 0; p < P; p++) {
        int64_t *c = traj + p * T, *r = tto + p * T, sum = 0;
        bool monotonic = true;
        for (int64_t t = 0; t < T; t++) {
            c[t] = sum;
            int64_t i = p * T + t;
            int64_t v = done->dtype == NN_BOOL ? ((const uint8_t *)d)[i] != 0
                        : done->dtype == NN_INT32 ? ((const int32_t *)d)[i]
                                                  : ((const int64_t *)d)[i];
            if (v < 0) monotonic = false;
            sum += v;
        }
        /* flip(-1).cumsum(-1).clamp_max(n + 1).flip(-1): the steps s >= t of t's trajectory */
        for (int64_t t = T - 1; t >= 0; t--) {
            int64_t left = 0;
            if (c[t] < 0) {
                r[t] = -1;
                continue;
            }
            if (monotonic) { /* trajectories are runs: count to the end of the run */
                left = t + 1 < T && c[t + 1] == c[t] ? r[t + 1] + 1 : 1;
                r[t] = left; /* steps left for now; clamped below */
                continue;
            }
            for (int64_t s = t; s < T; s++) left += c[s] == c[t];
            r[t] = left;
        }
        for (int64_t t = 0; t < T; t++)
            if (c[t] >= 0) r[t] = (r[t] < n + 1 ? r[t] : n + 1) - 1;
    }
    NN_RELEASE(hold);
    return 0;
}

/* ------------------------------------------------------------- the rewards */

/* _get_reward's summed rewards: for reward [*B, T, *R] (B, T as done), out[.., t, r] =
   sum over i <= n of gamma**i * reward[.., t + i, r] where t + i is in t's trajectory,
   as conv1d computes it in reward's dtype (the filter is gamma**i in that dtype, so
   integer rewards keep only i == 0 unless gamma == 1); int32 comes out int64 (.sum(0)).
   float32 accumulates with fused multiply-adds in tap order, which is what PyTorch
   1.13's oneDNN conv1d gives bit for bit on x86-64 (the fixture's every value).
   New reference. */
static nn_tensor *summed_rewards(nn_tensor *reward, int nd, const int64_t *done_shape, double gamma, int64_t n,
                                 const int64_t *traj, int64_t P, int64_t T)
{
    /* the TensorDict's batch checks make this hold: its batch size is done's shape */
    if (reward->ndim < nd || memcmp(reward->sizes, done_shape, sizeof *done_shape * (size_t)nd) != 0) {
        nn_error_set(NN_ERR_RUNTIME, "MultiStep: the reward does not start with the done's shape");
        return NULL;
    }
    nn_dtype dt = reward->dtype;
    if (dt == NN_FLOAT16 || dt == NN_BOOL) {
        nn_error_set(NN_ERR_RUNTIME, "\"slow_conv2d_cpu\" not implemented for '%s'", torch_type_name(dt));
        return NULL;
    }
    int64_t Q = 1;
    for (int d = nd; d < reward->ndim; d++) Q *= reward->sizes[d];
    /* through the host contract: reward's elements read, the sums made on the CPU, then moved to reward's device */
    nn_tensor *r = NULL;
    const void *src = nn_host_read(reward, &r);
    nn_tensor *out = src ? nn_empty_on(NN_DEVICE_CPU, reward->ndim, reward->sizes, dt == NN_INT32 ? NN_INT64 : dt) : NULL;
    double *filt = out ? nn_malloc(sizeof *filt * (size_t)(n + 1)) : NULL;
    if (!filt) {
        NN_RELEASE(r);
        NN_RELEASE(out);
        return NULL;
    }
    for (int64_t i = 0; i <= n; i++) filt[i] = pow(gamma, (double)i); /* Python's gamma ** i */
    void *dst = nn_host_borrow(out);
    for (int64_t p = 0; p < P; p++)
        for (int64_t t = 0; t < T; t++) {
            int64_t c = traj[p * T + t];
            for (int64_t q = 0; q < Q; q++) {
                int64_t o = (p * T + t) * Q + q;
                /* the terms of t's trajectory: steps t .. t + n that share its id */
                switch (dt) {
                case NN_FLOAT32: {
                    float acc = 0;
                    for (int64_t i = 0; i <= n && t + i < T && c >= 0; i++)
                        if (traj[p * T + t + i] == c)
                            acc = fmaf((float)filt[i], ((const float *)src)[(p * T + t + i) * Q + q], acc);
                    ((float *)dst)[o] = acc;
                    break;
                }
                case NN_FLOAT64: {
                    double acc = 0;
                    for (int64_t i = 0; i <= n && t + i < T && c >= 0; i++)
                        if (traj[p * T + t + i] == c) acc += filt[i] * ((const double *)src)[(p * T + t + i) * Q + q];
                    ((double *)dst)[o] = acc;
                    break;
                }
                case NN_BFLOAT16: {
                    float acc = 0;
                    for (int64_t i = 0; i <= n && t + i < T && c >= 0; i++)
                        if (traj[p * T + t + i] == c)
                            acc += nn_bfloat16_to_float(nn_float_to_bfloat16((float)filt[i])) *
                                   nn_bfloat16_to_float(((const uint16_t *)src)[(p * T + t + i) * Q + q]);
                    ((uint16_t *)dst)[o] = nn_float_to_bfloat16(acc);
                    break;
                }
                case NN_INT64:
                case NN_INT32: {
                    int64_t acc = 0;
                    for (int64_t i = 0; i <= n && t + i < T && c >= 0; i++)
                        if (traj[p * T + t + i] == c) {
                            int64_t w = (int64_t)filt[i]; /* torch.tensor([...], dtype=int) truncates */
                            int64_t x = dt == NN_INT64 ? ((const int64_t *)src)[(p * T + t + i) * Q + q]
                                                       : ((const int32_t *)src)[(p * T + t + i) * Q + q];
                            acc += w * x;
                        }
                    ((int64_t *)dst)[o] = acc;
                    break;
                }
                default: break;
                }
            }
        }
    nn_free(filt);
    NN_RELEASE(r);
    if (out) NN_SET(out, nn_to_device(out, nn_device_of(reward)));
    return out;
}

/* ------------------------------------------------------------- the gather */

typedef struct gather_ctx {
    const int64_t *idx; /* [P, T]: the step each "next" entry is taken from */
    int64_t P, T;
    int nd;             /* batch dims of the root: [*B, T] */
    nn_object *excluded; /* list of lists of str: paths under "next" left out */
} gather_ctx;

static bool is_excluded(const gather_ctx *g, nn_object *path)
{
    for (size_t i = 0; i < nn_list_len(g->excluded); i++) {
        nn_object *ex = nn_list_get(g->excluded, i);
        if (nn_list_len(ex) != nn_list_len(path)) continue;
        bool same = true;
        for (size_t j = 0; j < nn_list_len(ex) && same; j++)
            same = strcmp(nn_str_cstr(nn_list_get(ex, j)), nn_str_cstr(nn_list_get(path, j))) == 0;
        if (same) return true;
    }
    return false;
}

/* torch.gather(x, nd - 1, idx expanded as right): out[.., t, ..] = x[.., idx[.., t], ..]. */
static nn_tensor *gather_leaf(const gather_ctx *g, nn_tensor *x)
{
    int64_t Q = 1;
    for (int d = g->nd; d < x->ndim; d++) Q *= x->sizes[d];
    for (int64_t i = 0; i < g->P * g->T; i++)
        if (g->idx[i] < 0 || g->idx[i] >= g->T) {
            nn_error_set(NN_ERR_RUNTIME, "index %lld is out of bounds for dimension %d with size %lld",
                         (long long)g->idx[i], g->nd - 1, (long long)g->T);
            return NULL;
        }
    nn_tensor *src = NULL;
    const char *s = nn_host_read(x, &src);
    nn_tensor *out = s ? nn_empty_on(NN_DEVICE_CPU, x->ndim, x->sizes, x->dtype) : NULL;
    if (out) {
        size_t row = (size_t)Q * nn_dtype_size(x->dtype);
        char *o = nn_host_borrow(out);
        for (int64_t p = 0; p < g->P; p++)
            for (int64_t t = 0; t < g->T; t++)
                memcpy(o + (size_t)(p * g->T + t) * row, s + (size_t)(p * g->T + g->idx[p * g->T + t]) * row, row);
        NN_SET(out, nn_to_device(out, nn_device_of(x)));
    }
    NN_RELEASE(src);
    return out;
}

/* td["next"].exclude(*reward_keys, *done_keys).gather(-1, idx) into out (same nesting). */
static int gather_into(const gather_ctx *g, nn_tensordict *td, nn_object *path, nn_tensordict *out)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(td->items, &pos, &k, &v)) {
        if (nn_list_append(path, k) < 0) return -1;
        nn_object *r = NULL;
        if (!is_excluded(g, path)) {
            if (nn_is_tensordict(v)) {
                nn_tensordict *sub = NN_TENSORDICT(v);
                nn_tensordict *sub_out = nn_tensordict_new(NULL, sub->batch_dims, sub->batch_size);
                if (sub_out && gather_into(g, sub, path, sub_out) < 0) NN_SET(sub_out, NULL);
                r = (nn_object *)sub_out;
            } else {
                r = (nn_object *)gather_leaf(g, NN_TENSOR(v));
            }
            if (!r || nn_dict_set(out->items, k, r) < 0) {
                NN_RELEASE(r);
                return -1;
            }
        }
        NN_RELEASE(r);
        NN_RELEASE(nn_list_pop(path, nn_list_len(path) - 1));
    }
    return 0;
}

/* ------------------------------------------------------------------ forward */

/* A new tensor of the batch shape from int64 values: v[i] + add (int64), or as
   float32 gamma ** (v[i] + 1), or as bool v[i] != 0 (kind 'i', 'g', 'b'), made on
   the CPU (its elements written there) and moved to device. */
static nn_tensor *batch_tensor(nn_device device, int nd, const int64_t *shape, const int64_t *v, int64_t count,
                               char kind, double gamma)
{
    nn_tensor *t = nn_empty_on(NN_DEVICE_CPU, nd, shape, kind == 'i' ? NN_INT64 : kind == 'g' ? NN_FLOAT32 : NN_BOOL);
    if (!t) return NULL;
    void *d = nn_host_borrow(t);
    for (int64_t i = 0; i < count; i++) {
        if (kind == 'i') ((int64_t *)d)[i] = v[i] + 1;
        else if (kind == 'g') ((float *)d)[i] = powf((float)gamma, (float)(v[i] + 1)); /* float32 pow, as torch */
        else ((uint8_t *)d)[i] = v[i] != 0;
    }
    NN_SET(t, nn_to_device(t, device));
    return t;
}

static bool same_shape(int na, const int64_t *a, int nb, const int64_t *b)
{
    return na == nb && (na == 0 || memcmp(a, b, sizeof *a * (size_t)na) == 0);
}

/* _multi_step_func on a structural copy of input; a new reference. */
static nn_tensordict *multi_step(nn_tensordict *input, const config *cfg)
{
    nn_tensordict *td = nn_tensordict_clone(input, false), *result = NULL;
    nn_object *done_k = next_key(cfg->done_key), *next_s = nn_str_new("next");
    nn_object *orig_k = nn_tensordict_key(2, "next", "original_reward");
    nn_object *steps_s = nn_str_new("steps_to_next_obs"), *gamma_s = nn_str_new("gamma");
    nn_object *nonterm_s = nn_str_new("nonterminal");
    size_t n_rewards = seq_len(cfg->reward_keys);
    nn_tensor **summed = nn_calloc(n_rewards ? n_rewards : 1, sizeof *summed);
    nn_tensor *done = NULL, *mask = NULL;
    int64_t *traj = NULL, *tto = NULL;
    nn_object *excluded = NULL, *path = NULL;
    nn_tensordict *gathered = NULL;
    if (!td || !done_k || !next_s || !orig_k || !steps_s || !gamma_s || !nonterm_s || !summed) goto done_;

    done = get_tensor(td, done_k);
    if (!done) goto done_;
    NN_RETAIN(done);
    int ndim = td->batch_dims;
    bool rebatched = false;
    if (!same_shape(done->ndim, done->sizes, td->batch_dims, td->batch_size)) {
        if (done->ndim >= 1 && done->sizes[done->ndim - 1] == 1 &&
            same_shape(done->ndim - 1, done->sizes, td->batch_dims, td->batch_size)) {
            NN_SET(done, nn_squeeze_dim(done, -1));
            if (!done) goto done_;
        } else {
            /* tensordict.batch_size = done.shape, then transpose the time dim last */
            nn_tensordict *moved = NULL;
            if (nn_tensordict_set_batch_size(td, done->ndim, done->sizes) == 0)
                moved = nn_tensordict_transpose(td, ndim - 1, td->batch_dims - 1);
            if (!moved) {
                nn_error_clear();
                nn_error_set(NN_ERR_RUNTIME, "tensordict shape must be compatible with the done's shape (trailing "
                                             "singleton dimension excluded).");
                goto done_;
            }
            NN_SET(td, moved);
            NN_SET(done, get_tensor(td, done_k));
            if (!done) goto done_;
            NN_RETAIN(done);
            rebatched = true;
        }
    }
    if (!nn_is_none(cfg->mask_key)) {
        nn_error_clear(); /* a missing mask is NULL without an error */
        nn_object *m = nn_tensordict_get_default(td, cfg->mask_key, NULL);
        if (!m && nn_error_current() != NN_OK) goto done_;
        if (m && !nn_is_tensor(m)) {
            nn_error_set(NN_ERR_TYPE, "MultiStep expects a tensor mask, got a %s", m->type->name);
            goto done_;
        }
        mask = NN_TENSOR(nn_retain(m));
    }
    int nd = td->batch_dims;
    if (nd == 0) {
        nn_error_set(NN_ERR_VALUE, "not enough values to unpack (expected at least 1, got 0)");
        goto done_;
    }
    int64_t T = td->batch_size[nd - 1], P = 1;
    for (int d = 0; d < nd - 1; d++) P *= td->batch_size[d];
    size_t cells = P * T > 0 ? (size_t)(P * T) : 1;

    /* _get_reward for each reward key */
    NN_SET(done, nn_contiguous(done));
    traj = nn_malloc(sizeof *traj * cells);
    tto = nn_malloc(sizeof *tto * cells);
    if (!done || !traj || !tto) goto done_;
    if (n_rewards == 0) {
        nn_error_set(NN_ERR_RUNTIME, "MultiStep needs at least one reward key");
        goto done_;
    }
    for (size_t i = 0; i < n_rewards; i++) {
        nn_object *rk = next_key(seq_get(cfg->reward_keys, i));
        nn_tensor *reward = rk ? get_tensor(td, rk) : NULL;
        NN_RELEASE(rk);
        if (!reward || (i == 0 && trajectories(done, P, T, cfg->n_steps, traj, tto) < 0)) goto done_;
        if (!(summed[i] = summed_rewards(reward, nd, td->batch_size, cfg->gamma, cfg->n_steps, traj, P, T))) goto done_;
    }

    /* idx_to_gather = arange(T) + time_to_obs; the "next" entries there */
    for (int64_t p = 0; p < P; p++)
        for (int64_t t = 0; t < T; t++) traj[p * T + t] = t + tto[p * T + t]; /* traj is reused for idx */
    nn_object *next = nn_tensordict_get(td, next_s);
    if (!next) goto done_;
    if (!nn_is_tensordict(next)) {
        nn_error_set(NN_ERR_ATTRIBUTE, "'Tensor' object has no attribute 'exclude'");
        goto done_;
    }
    excluded = nn_list_new(4);
    path = nn_list_new(4);
    if (!excluded || !path) goto done_;
    for (int which = 0; which < 2; which++) {
        nn_object *keys = which ? cfg->done_keys : cfg->reward_keys;
        for (size_t i = 0; i < seq_len(keys); i++) {
            nn_object *parts = nn_list_new(2);
            int r = parts ? flatten_key(seq_get(keys, i), parts) : -1;
            if (r > 0) r = nn_list_append(excluded, parts) < 0 ? -1 : 1;
            NN_RELEASE(parts);
            if (r < 0) goto done_;
            if (r == 0) {
                nn_error_set(NN_ERR_KEY, "Only NestedKeys are supported. Got key ().");
                goto done_;
            }
        }
    }
    gather_ctx g = {.idx = traj, .P = P, .T = T, .nd = nd, .excluded = excluded};
    gathered = nn_tensordict_new(NULL, nd, td->batch_size);
    if (!gathered || gather_into(&g, NN_TENSORDICT(next), path, gathered) < 0) goto done_;

    /* the new entries, in _multi_step_func's order */
    nn_tensor *steps = batch_tensor(nn_device_of(done), nd, td->batch_size, tto, P * T, 'i', 0);
    int rc = steps ? nn_tensordict_set(td, steps_s, &steps->ob) : -1;
    NN_RELEASE(steps);
    if (rc < 0) goto done_;
    for (size_t i = 0; i < n_rewards; i++) {
        nn_object *rk = next_key(seq_get(cfg->reward_keys, i));
        rc = rk ? nn_tensordict_rename_key(td, rk, orig_k) : -1;
        if (rc == 0) rc = nn_tensordict_set(td, rk, &summed[i]->ob);
        NN_RELEASE(rk);
        if (rc < 0) goto done_;
    }
    next = nn_tensordict_get(td, next_s);
    if (!next || nn_tensordict_update(NN_TENSORDICT(next), gathered) < 0) goto done_;
    nn_tensor *gam = batch_tensor(nn_device_of(done), nd, td->batch_size, tto, P * T, 'g', cfg->gamma);
    rc = gam ? nn_tensordict_set(td, gamma_s, &gam->ob) : -1;
    NN_RELEASE(gam);
    if (rc < 0) goto done_;
    if (mask) { /* nonterminal[~mask.view(*batch, T)] = False: tto (not used after) zeroed there first */
        nn_tensor *mv = nn_view(mask, nd, td->batch_size);
        double *keep = mv ? nn_malloc(sizeof *keep * cells) : NULL;
        if (keep) {
            nn_to_doubles(mv, keep);
            for (int64_t i = 0; i < P * T; i++)
                if (keep[i] == 0) tto[i] = 0;
        }
        nn_free(keep);
        NN_RELEASE(mv);
        if (!keep) goto done_;
    }
    nn_tensor *nonterminal = batch_tensor(nn_device_of(done), nd, td->batch_size, tto, P * T, 'b', 0);
    if (!nonterminal) goto done_;
    rc = nn_tensordict_set(td, nonterm_s, &nonterminal->ob);
    NN_RELEASE(nonterminal);
    if (rc < 0) goto done_;

    if (rebatched) { /* transpose back; the root keeps its first ndim dims, nested ones all */
        nn_tensordict *back = nn_tensordict_transpose(td, ndim - 1, td->batch_dims - 1);
        if (!back) goto done_;
        NN_SET(td, back);
        if (nn_tensordict_set_batch_size(td, ndim, td->batch_size) < 0) goto done_;
    }
    result = td;
    td = NULL;

done_:
    for (size_t i = 0; summed && i < n_rewards; i++) NN_RELEASE(summed[i]);
    nn_free(summed);
    nn_free(traj);
    nn_free(tto);
    NN_RELEASE(td);
    NN_RELEASE(done);
    NN_RELEASE(mask);
    NN_RELEASE(done_k);
    NN_RELEASE(next_s);
    NN_RELEASE(orig_k);
    NN_RELEASE(steps_s);
    NN_RELEASE(gamma_s);
    NN_RELEASE(nonterm_s);
    NN_RELEASE(excluded);
    NN_RELEASE(path);
    NN_RELEASE(gathered);
    return result;
}

static nn_object *multistep_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    if (nn_tuple_len(args) != 1 || (kwargs && nn_dict_len(kwargs))) {
        nn_error_set(NN_ERR_TYPE, "forward() takes 2 positional arguments but %zu were given", nn_tuple_len(args) + 1);
        return NULL;
    }
    nn_object *arg = nn_tuple_get(args, 0);
    if (!nn_is_tensordict(arg)) {
        nn_error_set(NN_ERR_TYPE, "MultiStep.forward() expects a TensorDict, got %s", arg ? arg->type->name : "None");
        return NULL;
    }
    config c = {0};
    if (read_config(m, &c) < 0) return NULL;
    return (nn_object *)multi_step(NN_TENSORDICT(arg), &c);
}

const nn_module_class nn_multistep_class = {.name = "MultiStep", .forward = multistep_forward};

/* ------------------------------------------------------------- construction */

/* Sets attribute name to value (taken); 0 or -1. */
static int set_attr(nn_module *m, const char *name, nn_object *value)
{
    int rc = value ? nn_module_setattr(m, name, value) : -1;
    NN_RELEASE(value);
    return rc;
}

nn_module *nn_multistep_new(double gamma, int64_t n_steps)
{
    if (n_steps < 0) {
        nn_error_set(NN_ERR_VALUE, "n_steps must be a non-negative integer.");
        return NULL;
    }
    if (!(gamma > 0 && gamma <= 1)) {
        nn_object *g = nn_float_new(gamma);
        char *r = g ? nn_repr(g) : NULL;
        if (r) nn_error_set(NN_ERR_VALUE, "got out-of-bounds gamma decay: gamma=%s", r);
        nn_free(r);
        NN_RELEASE(g);
        return NULL;
    }
    nn_module *m = nn_module_new(&nn_multistep_class);
    if (!m) return NULL;
    int64_t sizes[3] = {1, 1, n_steps + 1};
    nn_tensor *gammas = nn_empty_on(NN_DEVICE_CPU, 3, sizes, NN_FLOAT32);
    float *gv = gammas ? nn_host_borrow(gammas) : NULL;
    for (int64_t i = 0; gv && i <= n_steps; i++) gv[i] = (float)pow(gamma, (double)i);
    if (gammas) NN_SET(gammas, nn_to_device(gammas, nn_default_device())); /* torch.tensor's default device */
    nn_object *reward = nn_str_new("reward"), *reward_keys = reward ? nn_tuple_pack(1, reward) : NULL;
    NN_RELEASE(reward);
    int rc = set_attr(m, "gamma", nn_float_new(gamma));
    if (rc == 0) rc = set_attr(m, "n_steps", nn_int_new(n_steps));
    if (rc == 0) rc = gammas ? nn_module_register_buffer(m, "gammas", gammas, true) : -1;
    if (rc == 0) rc = set_attr(m, "done_key", nn_str_new("done"));
    if (rc == 0) rc = set_attr(m, "done_keys", nn_tensordict_key(3, "done", "terminated", "truncated"));
    if (rc == 0) rc = set_attr(m, "reward_keys", nn_retain(reward_keys));
    if (rc == 0) rc = set_attr(m, "mask_key", nn_tensordict_key(2, "collector", "mask"));
    NN_RELEASE(gammas);
    NN_RELEASE(reward_keys);
    if (rc < 0) NN_SET(m, NULL);
    return m;
}
