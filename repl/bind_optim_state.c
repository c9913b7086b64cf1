/*
 * bind_optim_state.c — optimizer.state_dict(), optimizer.load_state_dict(sd)
 * and optimizer.state in PyTorch 1.13's layout: {'state': {index: {key: tensor}},
 * 'param_groups': [{option: value, ..., 'params': [index, ...]}]}, a parameter's
 * index being its place over all groups (a repeated one keeps its first). The
 * state tensors are the optimizer's own (as PyTorch's); loading copies them
 * (cast to the parameter's dtype, but 'step'), replaces each group's dict by
 * the saved one with the optimizer's parameters, and checks everything before
 * it changes anything. torch.save/torch.load carry these dicts to and from
 * PyTorch's files.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"

/* The live param_groups list (new reference). */
static nn_object *groups_of(nn_optimizer *opt) { return repl_optim_getattr((nn_object *)opt, "param_groups"); }

/* Every parameter over the groups with its index (the first place it appears). */
typedef struct pindex {
    size_t n;
    nn_tensor **params; /* borrowed */
    int64_t *index;
} pindex;

static int index_params(nn_optimizer *opt, pindex *pi)
{
    size_t total = 0;
    for (size_t g = 0; g < nn_optimizer_num_groups(opt); g++) total += nn_optimizer_group_size(opt, g);
    pi->n = total;
    pi->params = nn_malloc((total ? total : 1) * sizeof *pi->params);
    pi->index = nn_malloc((total ? total : 1) * sizeof *pi->index);
    if (!pi->params || !pi->index) {
        nn_free(pi->params);
        nn_free(pi->index);
        return -1;
    }
    size_t k = 0;
    for (size_t g = 0; g < nn_optimizer_num_groups(opt); g++)
        for (size_t i = 0; i < nn_optimizer_group_size(opt, g); i++, k++) {
            pi->params[k] = nn_optimizer_group_param(opt, g, i);
            pi->index[k] = (int64_t)k;
            for (size_t j = 0; j < k; j++)
                if (pi->params[j] == pi->params[k]) {
                    pi->index[k] = pi->index[j];
                    break;
                }
        }
    return 0;
}

static void pindex_free(pindex *pi)
{
    nn_free(pi->params);
    nn_free(pi->index);
}

/* state[p] as a new dict {key: tensor or None}, or NULL without error when p has none. */
static nn_object *param_state_dict(nn_optimizer *opt, nn_tensor *p)
{
    const char *keys[NN_OPTIM_MAX_STATE_KEYS];
    int nk = nn_optimizer_state_keys(opt, p, keys);
    if (nk <= 0) return NULL;
    nn_object *d = nn_dict_new();
    for (int k = 0; d && k < nk; k++) {
        nn_tensor *t = NULL;
        if (nn_optimizer_get_state(opt, p, keys[k], &t) || nn_dict_set_str(d, keys[k], t ? (nn_object *)t : nn_none()))
            NN_SET(d, NULL);
        NN_RELEASE(t);
    }
    return d;
}

nn_object *repl_optim_state_dict(nn_optimizer *opt)
{
    nn_object *groups = groups_of(opt);
    if (!groups) return NULL;
    pindex pi;
    if (index_params(opt, &pi)) {
        NN_RELEASE(groups);
        return NULL;
    }
    nn_object *packed = nn_list_new(0), *state = packed ? nn_dict_new() : NULL;
    int rc = state ? 0 : -1;
    size_t k = 0;
    for (size_t g = 0; !rc && g < nn_optimizer_num_groups(opt) && g < nn_list_len(groups); g++) {
        nn_object *src = nn_list_get(groups, g), *d = nn_dict_new(), *idx = d ? nn_list_new(0) : NULL;
        rc = idx && nn_is_dict(src) ? 0 : -1;
        size_t pos = 0;
        nn_object *key, *v;
        while (!rc && nn_dict_next(src, &pos, &key, &v))
            if (!(nn_is_str(key) && !strcmp(nn_str_cstr(key), "params"))) rc = nn_dict_set(d, key, v);
        for (size_t i = 0; !rc && i < nn_optimizer_group_size(opt, g); i++, k++) {
            nn_object *n = nn_int_new(pi.index[k]);
            rc = n ? nn_list_append(idx, n) : -1;
            NN_RELEASE(n);
        }
        if (!rc) rc = nn_dict_set_str(d, "params", idx);
        if (!rc) rc = nn_list_append(packed, d);
        NN_RELEASE(idx);
        NN_RELEASE(d);
    }
    for (size_t j = 0; !rc && j < pi.n; j++) {
        if (pi.index[j] != (int64_t)j) continue; /* a repeat */
        nn_object *st = param_state_dict(opt, pi.params[j]);
        if (!st) {
            if (nn_error_current()) rc = -1;
            continue;
        }
        nn_object *n = nn_int_new((int64_t)j);
        rc = n ? nn_dict_set(state, n, st) : -1;
        NN_RELEASE(n);
        NN_RELEASE(st);
    }
    pindex_free(&pi);
    NN_RELEASE(groups);
    nn_object *r = rc ? NULL : nn_dict_new();
    if (r && (nn_dict_set_str(r, "state", state) || nn_dict_set_str(r, "param_groups", packed))) NN_SET(r, NULL);
    NN_RELEASE(state);
    NN_RELEASE(packed);
    return r;
}

/* optimizer.state: {param: {key: tensor}} for the parameters that have state. */
nn_object *repl_optim_state(nn_optimizer *opt)
{
    pindex pi;
    if (index_params(opt, &pi)) return NULL;
    nn_object *d = nn_dict_new();
    for (size_t j = 0; d && j < pi.n; j++) {
        if (pi.index[j] != (int64_t)j) continue;
        nn_object *st = param_state_dict(opt, pi.params[j]);
        if (!st) {
            if (nn_error_current()) NN_SET(d, NULL);
            continue;
        }
        if (nn_dict_set(d, (nn_object *)pi.params[j], st)) NN_SET(d, NULL);
        NN_RELEASE(st);
    }
    pindex_free(&pi);
    return d;
}

/* d[key] of a dict d, borrowed; KeyError when absent. */
static nn_object *item(nn_object *d, const char *key)
{
    nn_object *v = nn_is_dict(d) ? nn_dict_get_str(d, key) : NULL;
    if (!v && !nn_error_current()) nn_error_set(NN_ERR_KEY, "%s", key); /* str(e) quotes it */
    return v;
}

static size_t seq_len(nn_object *o)
{
    return nn_is_list(o) ? nn_list_len(o) : nn_is_instance(o, &nn_tuple_type) ? nn_tuple_len(o) : 0;
}

static nn_object *seq_get(nn_object *o, size_t i) { return nn_is_list(o) ? nn_list_get(o, i) : nn_tuple_get(o, i); }

/* "[2, 3]" into buf. */
static const char *shape_str(const nn_tensor *t, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < t->ndim && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%s%lld", d ? ", " : "", (long long)t->sizes[d]);
    if (len < n) snprintf(buf + len, n - len, "]");
    return buf;
}

/* A saved state value for param as the optimizer keeps it: a copy, cast to the
   parameter's dtype (not 'step', which keeps its float dtype as 1.13's does). New
   reference, or NULL for None. *ok false on error. */
static nn_tensor *cast_state(nn_tensor *param, const char *key, nn_object *v, bool *ok)
{
    *ok = true;
    if (nn_is_none(v)) return NULL;
    bool step = !strcmp(key, "step");
    nn_tensor *src = nn_is_tensor(v) ? (nn_tensor *)nn_retain(v) : step ? repl_as_tensor(v) : NULL;
    if (!src) {
        *ok = false;
        if (!nn_error_current())
            nn_error_set(NN_ERR_TYPE, "optimizer state '%s' must be a tensor, not %s", key, repl_type_name(v));
        return NULL;
    }
    nn_dtype dt = !step ? param->dtype : nn_dtype_is_floating(src->dtype) ? src->dtype : nn_default_dtype();
    nn_tensor *c = src->dtype == dt ? nn_clone(src) : nn_to_dtype(src, dt);
    NN_RELEASE(src);
    nn_tensor *r = c ? nn_contiguous(c) : NULL;
    NN_RELEASE(c);
    if (r && (r->requires_grad || r->grad_fn)) { /* state lives outside autograd */
        nn_tensor *d = nn_detach(r);
        NN_SET(r, d);
    }
    if (!r) *ok = false;
    return r;
}

int repl_optim_load_state_dict(nn_optimizer *opt, nn_object *sd)
{
    if (!nn_is_dict(sd)) return nn_error_set(NN_ERR_TYPE, "load_state_dict(): state_dict must be a dict, not %s", repl_type_name(sd));
    nn_object *saved = item(sd, "param_groups"), *state = saved ? item(sd, "state") : NULL;
    if (!state) return -1;
    size_t ng = nn_optimizer_num_groups(opt);
    if (!nn_is_list(saved) && !nn_is_instance(saved, &nn_tuple_type))
        return nn_error_set(NN_ERR_TYPE, "state_dict['param_groups'] must be a list");
    if (!nn_is_dict(state)) return nn_error_set(NN_ERR_TYPE, "state_dict['state'] must be a dict");
    if (seq_len(saved) != ng) return nn_error_set(NN_ERR_VALUE, "loaded state dict has a different number of parameter groups");
    for (size_t g = 0; g < ng; g++) {
        nn_object *sp = item(seq_get(saved, g), "params");
        if (!sp) return -1;
        if (seq_len(sp) != nn_optimizer_group_size(opt, g))
            return nn_error_set(NN_ERR_VALUE,
                                "loaded state dict contains a parameter group that doesn't match the size of optimizer's group");
    }
    pindex pi;
    if (index_params(opt, &pi)) return -1;
    /* id_map: saved index -> parameter, in the saved groups' order */
    size_t total = pi.n, k = 0;
    int64_t *ids = nn_malloc((total ? total : 1) * sizeof *ids);
    int rc = ids ? 0 : -1;
    for (size_t g = 0; !rc && g < ng; g++) {
        nn_object *sp = nn_dict_get_str(seq_get(saved, g), "params");
        for (size_t i = 0; !rc && i < seq_len(sp); i++, k++)
            if (!nn_is_int(seq_get(sp, i)))
                rc = nn_error_set(NN_ERR_TYPE, "state_dict['param_groups'][%zu]['params'] must hold ints", g);
            else
                ids[k] = nn_int_value(seq_get(sp, i));
    }
    /* the new states, all made (and checked) before any is set */
    size_t m = 0;
    struct entry {
        nn_tensor *param;
        const char *key;
        nn_tensor *value;
    } *entries = NULL;
    size_t cap = 0;
    size_t pos = 0;
    nn_object *key, *val;
    while (!rc && nn_dict_next(state, &pos, &key, &val)) {
        nn_tensor *param = NULL;
        for (size_t j = 0; nn_is_int(key) && j < total; j++)
            if (ids[j] == nn_int_value(key)) {
                param = pi.params[j];
                break;
            }
        /* PyTorch keeps a state whose key is no parameter of the groups as it is; this
           optimizer has nowhere to keep it, so it is accepted and left out */
        if (!param) continue;
        if (!nn_is_dict(val)) {
            rc = nn_error_set(NN_ERR_TYPE, "the state of a parameter must be a dict");
            break;
        }
        size_t p2 = 0;
        nn_object *k2, *v2;
        while (!rc && nn_dict_next(val, &p2, &k2, &v2)) {
            if (!nn_is_str(k2)) {
                rc = nn_error_set(NN_ERR_TYPE, "the state's keys must be str");
                break;
            }
            if (m == cap) {
                size_t nc = cap ? cap * 2 : 8;
                struct entry *grown = nn_realloc(entries, nc * sizeof *grown);
                if (!grown) {
                    rc = -1;
                    break;
                }
                entries = grown;
                cap = nc;
            }
            const char *kn = nn_str_cstr(k2);
            bool sgd = nn_optimizer_get_kind(opt) == NN_OPTIM_SGD;
            if (sgd ? strcmp(kn, "momentum_buffer") != 0
                    : strcmp(kn, "step") && strcmp(kn, "exp_avg") && strcmp(kn, "exp_avg_sq") && strcmp(kn, "max_exp_avg_sq")) {
                continue; /* a key the optimizer does not keep (PyTorch keeps it): accepted, left out */
            }
            bool ok;
            nn_tensor *t = cast_state(param, kn, v2, &ok);
            if (ok && !t && !sgd) ok = !nn_error_set(NN_ERR_VALUE, "optimizer state '%s' must be a tensor, not None", kn);
            if (ok && t && strcmp(kn, "step") &&
                (t->ndim != param->ndim || memcmp(t->sizes, param->sizes, sizeof(int64_t) * (size_t)t->ndim))) {
                char a[256], b[256];
                ok = !nn_error_set(NN_ERR_RUNTIME, "loaded state '%s' of shape %s does not match its parameter's shape %s", kn,
                                   shape_str(t, a, sizeof a), shape_str(param, b, sizeof b));
            }
            if (ok && t && !strcmp(kn, "step") && t->ndim != 0)
                ok = !nn_error_set(NN_ERR_RUNTIME, "loaded state 'step' must be a single number");
            if (!ok) {
                NN_RELEASE(t);
                rc = -1;
                break;
            }
            entries[m++] = (struct entry){param, nn_str_cstr(k2), t};
        }
    }
    /* the new group dicts: the saved ones with this optimizer's parameters */
    nn_object *groups = rc ? NULL : groups_of(opt), *fresh = groups ? nn_list_new(0) : NULL;
    if (!rc && !fresh) rc = -1;
    for (size_t g = 0; !rc && g < ng; g++) {
        nn_object *src = seq_get(saved, g), *d = nn_dict_new(), *ps = d ? nn_list_new(0) : NULL;
        rc = ps ? 0 : -1;
        for (size_t i = 0; !rc && i < nn_optimizer_group_size(opt, g); i++)
            rc = nn_list_append(ps, (nn_object *)nn_optimizer_group_param(opt, g, i));
        size_t p3 = 0;
        nn_object *k3, *v3;
        while (!rc && nn_dict_next(src, &p3, &k3, &v3))
            rc = nn_dict_set(d, k3, nn_is_str(k3) && !strcmp(nn_str_cstr(k3), "params") ? ps : v3);
        if (!rc) rc = nn_list_append(fresh, d);
        NN_RELEASE(ps);
        NN_RELEASE(d);
    }
    /* swap the dicts in, check the options by syncing them into core; put the old back on failure */
    nn_object *old = NULL;
    if (!rc) {
        old = nn_list_new(0);
        for (size_t g = 0; old && g < nn_list_len(groups); g++)
            if (nn_list_append(old, nn_list_get(groups, g))) NN_SET(old, NULL);
        if (!old) rc = -1;
    }
    if (!rc) {
        for (size_t g = 0; g < ng && g < nn_list_len(groups); g++) nn_list_set(groups, g, nn_retain(nn_list_get(fresh, g)));
        nn_object *check = groups_of(opt);
        if (!check) {
            rc = -1;
            nn_error_kind kind = nn_error_current();
            char *msg = nn_strdup(nn_error_message());
            for (size_t g = 0; g < nn_list_len(old) && g < nn_list_len(groups); g++)
                nn_list_set(groups, g, nn_retain(nn_list_get(old, g)));
            nn_error_clear();
            nn_object *again = groups_of(opt); /* the old options back into core */
            NN_RELEASE(again);
            nn_error_set(kind, "%s", msg ? msg : "load_state_dict: bad param_groups");
            nn_free(msg);
        }
        NN_RELEASE(check);
    }
    if (!rc) {
        nn_optimizer_clear_state(opt);
        for (size_t e = 0; !rc && e < m; e++) rc = nn_optimizer_set_state(opt, entries[e].param, entries[e].key, entries[e].value);
    }
    for (size_t e = 0; e < m; e++) NN_RELEASE(entries[e].value);
    nn_free(entries);
    NN_RELEASE(old);
    NN_RELEASE(fresh);
    NN_RELEASE(groups);
    nn_free(ids);
    pindex_free(&pi);
    return rc;
}
