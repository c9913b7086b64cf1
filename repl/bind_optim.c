/*
 * bind_optim.c — torch.optim in the language: SGD, Adam and AdamW built from
 * an iterable of tensors or a list of param-group dicts with PyTorch's
 * keywords (ints stay ints in the repr), step(), zero_grad(), add_param_group(),
 * param_groups as PyTorch's list of dicts (live: group['lr'] = x changes the lr
 * of the next step) and defaults as a dict.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"

#define ARGS(n) nn_object *a[n] = {0} /* slots the spec lacks stay NULL */

/* Sets option name of o (an nn_sgd_options or nn_adam_options per kind) from value. */
static int set_option(nn_optimizer_kind kind, void *o, const char *fname, const char *name, nn_object *value)
{
    bool is_int = nn_is_int(value);
    double d = 0;
    if (kind == NN_OPTIM_SGD) {
        nn_sgd_options *s = o;
        struct {
            const char *n;
            double *p;
            unsigned bit;
        } nums[] = {{"lr", &s->lr, NN_OPT_LR},
                    {"momentum", &s->momentum, NN_OPT_MOMENTUM},
                    {"dampening", &s->dampening, NN_OPT_DAMPENING},
                    {"weight_decay", &s->weight_decay, NN_OPT_WEIGHT_DECAY}};
        for (size_t i = 0; i < 4; i++)
            if (!strcmp(name, nums[i].n)) {
                if (repl_arg_double(fname, name, 0, value, &d)) return -1;
                *nums[i].p = d;
                s->int_valued = is_int ? s->int_valued | nums[i].bit : s->int_valued & ~nums[i].bit;
                return 0;
            }
        if (!strcmp(name, "nesterov")) return repl_arg_bool(fname, name, 0, value, &s->nesterov);
        if (!strcmp(name, "maximize")) return repl_arg_bool(fname, name, 0, value, &s->maximize);
    } else {
        nn_adam_options *s = o;
        struct {
            const char *n;
            double *p;
            unsigned bit;
        } nums[] = {{"lr", &s->lr, NN_OPT_LR}, {"eps", &s->eps, NN_OPT_EPS}, {"weight_decay", &s->weight_decay, NN_OPT_WEIGHT_DECAY}};
        for (size_t i = 0; i < 3; i++)
            if (!strcmp(name, nums[i].n)) {
                if (repl_arg_double(fname, name, 0, value, &d)) return -1;
                *nums[i].p = d;
                s->int_valued = is_int ? s->int_valued | nums[i].bit : s->int_valued & ~nums[i].bit;
                return 0;
            }
        if (!strcmp(name, "betas")) {
            bool tuple = nn_is_instance(value, &nn_tuple_type);
            size_t n = tuple ? nn_tuple_len(value) : nn_is_list(value) ? nn_list_len(value) : 0;
            if (n != 2) return nn_error_set(NN_ERR_TYPE, "%s(): betas must be a pair of numbers", fname);
            nn_object *b1 = tuple ? nn_tuple_get(value, 0) : nn_list_get(value, 0);
            nn_object *b2 = tuple ? nn_tuple_get(value, 1) : nn_list_get(value, 1);
            if (repl_arg_double(fname, "betas", 0, b1, &s->beta1) || repl_arg_double(fname, "betas", 0, b2, &s->beta2))
                return -1;
            s->int_valued = nn_is_int(b1) ? s->int_valued | NN_OPT_BETA1 : s->int_valued & ~NN_OPT_BETA1;
            s->int_valued = nn_is_int(b2) ? s->int_valued | NN_OPT_BETA2 : s->int_valued & ~NN_OPT_BETA2;
            return 0;
        }
        if (!strcmp(name, "amsgrad")) return repl_arg_bool(fname, name, 0, value, &s->amsgrad);
        if (!strcmp(name, "maximize")) return repl_arg_bool(fname, name, 0, value, &s->maximize);
    }
    /* accepted and ignored: foreach, differentiable, capturable, fused; a group
       dict may hold any other key (a scheduler's 'initial_lr'), as in PyTorch */
    if (!strcmp(name, "foreach") || !strcmp(name, "differentiable") || !strcmp(name, "capturable") ||
        !strcmp(name, "fused") || !strcmp(fname, "param_groups") || !strcmp(fname, "add_param_group"))
        return 0;
    return nn_error_set(NN_ERR_TYPE, "%s.__init__() got an unexpected keyword argument '%s'", fname, name);
}

/* The tensors of an iterable (list/tuple) into a new nn_malloc'd array. */
static int collect_tensors(nn_object *seq, nn_tensor ***out, size_t *n)
{
    bool tuple = nn_is_instance(seq, &nn_tuple_type);
    if (nn_is_tensor(seq))
        return nn_error_set(NN_ERR_TYPE,
                            "params argument given to the optimizer should be an iterable of Tensors or dicts, but "
                            "got torch.FloatTensor");
    if (!tuple && !nn_is_list(seq))
        return nn_error_set(NN_ERR_TYPE, "'%s' object is not iterable", repl_type_name(seq));
    size_t len = tuple ? nn_tuple_len(seq) : nn_list_len(seq);
    nn_tensor **ts = nn_malloc((len ? len : 1) * sizeof *ts);
    if (!ts) return -1;
    for (size_t i = 0; i < len; i++) {
        nn_object *o = tuple ? nn_tuple_get(seq, i) : nn_list_get(seq, i);
        if (!nn_is_tensor(o)) {
            nn_free(ts);
            return nn_error_set(NN_ERR_TYPE, "optimizer can only optimize Tensors, but one of the params is %s",
                                repl_type_name(o));
        }
        ts[i] = NN_TENSOR(o);
    }
    *out = ts;
    *n = len;
    return 0;
}

typedef union any_options {
    nn_sgd_options sgd;
    nn_adam_options adam;
} any_options;

static nn_object *group_dict(nn_optimizer *opt, size_t g);

/* Whether name is an option of the optimizer kind (or one it accepts and ignores). */
static bool is_option(nn_optimizer_kind kind, const char *name)
{
    static const char *const sgd[] = {"lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize",
                                      "foreach", "differentiable", NULL};
    static const char *const adam[] = {"lr", "betas", "eps", "weight_decay", "amsgrad", "maximize", "foreach",
                                       "capturable", "differentiable", "fused", NULL};
    for (const char *const *n = kind == NN_OPTIM_SGD ? sgd : adam; *n; n++)
        if (!strcmp(*n, name)) return true;
    return false;
}

/* A group dict given with keys the optimizer has no option for ({'params': ..., 'note': 1}):
   PyTorch keeps them in param_groups (the dict itself), so the group just added gets its
   dict in the language's param_groups list now, the given keys first, in their order, then
   the options' defaults. 0 or -1. */
static int keep_extra_keys(nn_optimizer *opt, nn_object *group)
{
    size_t g = nn_optimizer_num_groups(opt) - 1;
    nn_object *made = group_dict(opt, g), *d = made ? nn_dict_new() : NULL, *k, *v;
    nn_object **slot = nn_optimizer_lang_slot(opt);
    bool extra = false;
    size_t pos = 0;
    int rc = d ? 0 : -1;
    while (!rc && nn_dict_next(group, &pos, &k, &v)) {
        nn_object *known = nn_dict_get(made, k);
        if (!known) extra = true;
        rc = nn_dict_set(d, k, known ? known : v);
    }
    for (pos = 0; !rc && extra && nn_dict_next(made, &pos, &k, &v);)
        if (!nn_dict_get(d, k)) rc = nn_dict_set(d, k, v);
    if (!rc && extra && !*slot && !(*slot = nn_list_new(0))) rc = -1;
    for (size_t i = extra && !rc ? nn_list_len(*slot) : g; !rc && i < g; i++) { /* the groups before it */
        nn_object *e = group_dict(opt, i);
        rc = e ? nn_list_append(*slot, e) : -1;
        NN_RELEASE(e);
    }
    if (!rc && extra) rc = nn_list_append(*slot, d);
    NN_RELEASE(made);
    NN_RELEASE(d);
    return rc;
}

static int add_group_dict(nn_optimizer *opt, const char *fname, nn_object *group)
{
    if (!nn_is_dict(group)) return nn_error_set(NN_ERR_TYPE, "param group must be a dict");
    nn_optimizer_kind kind = nn_optimizer_get_kind(opt);
    any_options o;
    memcpy(&o, nn_optimizer_defaults(opt), kind == NN_OPTIM_SGD ? sizeof o.sgd : sizeof o.adam);
    nn_object *params = NULL;
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(group, &pos, &k, &v)) {
        const char *key = nn_is_str(k) ? nn_str_cstr(k) : "";
        if (!strcmp(key, "params")) params = v;
        else if (is_option(kind, key) && set_option(kind, &o, fname, key, v)) return -1;
        /* any other key is the group's own (keep_extra_keys) */
    }
    if (!params) return nn_error_set(NN_ERR_KEY, "'params'");
    nn_tensor **ts = NULL;
    size_t n = 0;
    nn_tensor *single = NULL;
    nn_object *items = NULL; /* params given as a generator: its items */
    if (!nn_is_tensor(params) && !nn_is_list(params) && !nn_is_instance(params, &nn_tuple_type)) {
        if (!(items = repl_iterable_to_list(params))) return -1;
        params = items;
    }
    if (nn_is_tensor(params)) {
        single = NN_TENSOR(params);
        ts = &single;
        n = 1;
    } else if (collect_tensors(params, &ts, &n)) {
        NN_RELEASE(items);
        return -1;
    }
    int rc = nn_optimizer_add_param_group(opt, ts, n, &o);
    if (!single) nn_free(ts);
    NN_RELEASE(items);
    return rc ? rc : keep_extra_keys(opt, group);
}

static nn_object *optimizer_of(const char *fname, nn_optimizer_kind kind, nn_object *args, nn_object *kwargs)
{
    if (nn_tuple_len(args) < 1) {
        nn_error_set(NN_ERR_TYPE, "%s.__init__() missing 1 required positional argument: 'params'", fname);
        return NULL;
    }
    any_options o;
    if (kind == NN_OPTIM_SGD) nn_sgd_options_default(&o.sgd);
    else if (kind == NN_OPTIM_ADAM) nn_adam_options_default(&o.adam);
    else nn_adamw_options_default(&o.adam);
    static const char *const sgd_pos[] = {"lr", "momentum", "dampening", "weight_decay", "nesterov"};
    static const char *const adam_pos[] = {"lr", "betas", "eps", "weight_decay", "amsgrad"};
    const char *const *pos = kind == NN_OPTIM_SGD ? sgd_pos : adam_pos;
    size_t nargs = nn_tuple_len(args);
    if (nargs > 6) {
        nn_error_set(NN_ERR_TYPE, "%s.__init__() takes from 2 to 7 positional arguments but %zu were given", fname,
                     nargs + 1);
        return NULL;
    }
    for (size_t i = 1; i < nargs; i++)
        if (set_option(kind, &o, fname, pos[i - 1], nn_tuple_get(args, i))) return NULL;
    if (kwargs) {
        size_t p = 0;
        nn_object *k, *v;
        while (nn_dict_next(kwargs, &p, &k, &v))
            if (set_option(kind, &o, fname, nn_is_str(k) ? nn_str_cstr(k) : "", v)) return NULL;
    }
    nn_object *params = nn_tuple_get(args, 0);
    nn_tensor **ts = NULL;
    size_t n = 0;
    bool dicts = nn_is_list(params) && nn_list_len(params) > 0 && nn_is_dict(nn_list_get(params, 0));
    if (!dicts && collect_tensors(params, &ts, &n)) return NULL;
    if (!dicts && n == 0) {
        nn_free(ts);
        nn_error_set(NN_ERR_VALUE, "optimizer got an empty parameter list");
        return NULL;
    }
    nn_optimizer *opt = NULL;
    switch (kind) {
    case NN_OPTIM_SGD: opt = nn_sgd_new(ts, n, &o.sgd); break;
    case NN_OPTIM_ADAM: opt = nn_adam_new(ts, n, &o.adam); break;
    case NN_OPTIM_ADAMW: opt = nn_adamw_new(ts, n, &o.adam); break;
    }
    nn_free(ts);
    if (!opt) return NULL;
    if (dicts)
        for (size_t i = 0; i < nn_list_len(params); i++)
            if (add_group_dict(opt, fname, nn_list_get(params, i))) {
                NN_RELEASE(opt);
                return NULL;
            }
    return (nn_object *)opt;
}

/* params may be any iterable (model.parameters() is a generator): its items as a list */
static nn_object *make_optimizer(const char *fname, nn_optimizer_kind kind, nn_object *args, nn_object *kwargs)
{
    nn_object *p = nn_tuple_len(args) ? nn_tuple_get(args, 0) : NULL;
    if (!p || nn_is_tensor(p) || nn_is_list(p) || nn_is_instance(p, &nn_tuple_type) || nn_is_dict(p))
        return optimizer_of(fname, kind, args, kwargs);
    nn_object *items = repl_iterable_to_list(p), *all = items ? nn_tuple_new(nn_tuple_len(args)) : NULL;
    for (size_t i = 0; all && i < nn_tuple_len(args); i++) nn_tuple_set(all, i, nn_retain(i ? nn_tuple_get(args, i) : items));
    nn_object *r = all ? optimizer_of(fname, kind, all, kwargs) : NULL;
    NN_RELEASE(items);
    NN_RELEASE(all);
    return r;
}

static nn_object *c_SGD(void *ud, nn_object *args, nn_object *kwargs) { return make_optimizer("SGD", NN_OPTIM_SGD, args, kwargs); }
static nn_object *c_Adam(void *ud, nn_object *args, nn_object *kwargs) { return make_optimizer("Adam", NN_OPTIM_ADAM, args, kwargs); }
static nn_object *c_AdamW(void *ud, nn_object *args, nn_object *kwargs)
{
    return make_optimizer("AdamW", NN_OPTIM_ADAMW, args, kwargs);
}


/* ------------------------------------------------------------ methods */

static nn_object *o_step(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("step", "self, closure=", args, kwargs, a)) return NULL;
    nn_object *loss = NULL;
    if (a[0] && !nn_is_none(a[0])) {
        nn_object *empty = nn_tuple_new(0);
        if (!empty) return NULL;
        bool prev = nn_set_grad_enabled(true);
        loss = nn_call(a[0], empty, NULL);
        nn_set_grad_enabled(prev);
        NN_RELEASE(empty);
        if (!loss) return NULL;
    }
    if (nn_optimizer_step((nn_optimizer *)self)) {
        NN_RELEASE(loss);
        return NULL;
    }
    return loss ? loss : nn_retain(nn_none());
}

static nn_object *o_zero_grad(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    bool stn = true; /* the seeds' default (PyTorch 2's), not 1.13's False */
    if (repl_parse_args("zero_grad", "self, set_to_none=", args, kwargs, a) ||
        repl_arg_bool("zero_grad", "set_to_none", 1, a[0], &stn) ||
        nn_optimizer_zero_grad((nn_optimizer *)self, stn))
        return NULL;
    return nn_retain(nn_none());
}

static nn_object *o_add_param_group(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("add_param_group", "self, param_group", args, kwargs, a) ||
        add_group_dict((nn_optimizer *)self, "add_param_group", a[0]))
        return NULL;
    return nn_retain(nn_none());
}

static nn_object *o_state_dict(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("state_dict", "self", args, kwargs, a)) return NULL;
    return repl_optim_state_dict((nn_optimizer *)self);
}

static nn_object *o_load_state_dict(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("load_state_dict", "self, state_dict", args, kwargs, a) ||
        repl_optim_load_state_dict((nn_optimizer *)self, a[0]))
        return NULL;
    return nn_retain(nn_none());
}

static const repl_method_def optim_methods[] = {
    {"state_dict", o_state_dict,
     "state_dict()\n"
     "Returns the state of the optimizer as a dict: 'state' by parameter index and 'param_groups'."},
    {"load_state_dict", o_load_state_dict,
     "load_state_dict(state_dict)\n"
     "Loads the optimizer state (checked whole before anything changes)."},
    {"step", o_step,
     "step(closure=None)\n"
     "Performs a single optimization step (parameter update)."},
    {"zero_grad", o_zero_grad,
     "zero_grad(set_to_none=True)\n"
     "Sets the gradients of all optimized tensors to zero (to None by default)."},
    {"add_param_group", o_add_param_group,
     "add_param_group(param_group)\n"
     "Add a param group to the Optimizer's param_groups."},
    {NULL, NULL, NULL},
};

static bool optim_method_at(const repl_class_def *cls, size_t i, repl_method_doc *out)
{
    static const repl_method_def *const tables[] = {optim_methods, NULL};
    return repl_tables_method_at(tables, i, out);
}

static const repl_class_def optim_classes[] = {
    {"SGD", "torch.optim.sgd.SGD", c_SGD, &nn_optimizer_type, NULL,
     "SGD(params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False)\n"
     "Implements stochastic gradient descent (optionally with momentum).", optim_method_at},
    {"Adam", "torch.optim.adam.Adam", c_Adam, &nn_optimizer_type, NULL,
     "Adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False, *, maximize=False)\n"
     "Implements Adam algorithm.", optim_method_at},
    {"AdamW", "torch.optim.adamw.AdamW", c_AdamW, &nn_optimizer_type, NULL,
     "AdamW(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False, *, maximize=False)\n"
     "Implements AdamW algorithm.", optim_method_at},
    /* Optimizer, RMSprop, Adagrad, Adadelta: the language's (bind_optim_more.c, stdlib.c's aliases) */
};

static int put_num(nn_object *d, const char *k, double v, bool is_int)
{
    nn_object *o = is_int ? nn_int_new((int64_t)v) : nn_float_new(v);
    if (!o) return -1;
    int rc = nn_dict_set_str(d, k, o);
    NN_RELEASE(o);
    return rc;
}

static int put_bool(nn_object *d, const char *k, bool v)
{
    nn_object *o = nn_bool_new(v);
    int rc = nn_dict_set_str(d, k, o);
    NN_RELEASE(o);
    return rc;
}

/* The options as PyTorch's group dict (after 'params' when given). New reference. */
static nn_object *options_dict(nn_optimizer_kind kind, const void *opts, nn_object *params)
{
    nn_object *d = nn_dict_new();
    if (!d) return NULL;
    int rc = params ? nn_dict_set_str(d, "params", params) : 0;
    if (kind == NN_OPTIM_SGD) {
        const nn_sgd_options *o = opts;
        if (!rc) rc = put_num(d, "lr", o->lr, o->int_valued & NN_OPT_LR);
        if (!rc) rc = put_num(d, "momentum", o->momentum, o->int_valued & NN_OPT_MOMENTUM);
        if (!rc) rc = put_num(d, "dampening", o->dampening, o->int_valued & NN_OPT_DAMPENING);
        if (!rc) rc = put_num(d, "weight_decay", o->weight_decay, o->int_valued & NN_OPT_WEIGHT_DECAY);
        if (!rc) rc = put_bool(d, "nesterov", o->nesterov);
        if (!rc) rc = put_bool(d, "maximize", o->maximize);
        if (!rc) rc = nn_dict_set_str(d, "foreach", nn_none());
        if (!rc) rc = put_bool(d, "differentiable", false);
    } else {
        const nn_adam_options *o = opts;
        nn_object *b1 = NULL, *b2 = NULL, *betas = NULL;
        if (!rc) rc = put_num(d, "lr", o->lr, o->int_valued & NN_OPT_LR);
        if (!rc) {
            b1 = o->int_valued & NN_OPT_BETA1 ? nn_int_new((int64_t)o->beta1) : nn_float_new(o->beta1);
            b2 = o->int_valued & NN_OPT_BETA2 ? nn_int_new((int64_t)o->beta2) : nn_float_new(o->beta2);
            betas = b1 && b2 ? nn_tuple_pack(2, b1, b2) : NULL;
            rc = betas ? nn_dict_set_str(d, "betas", betas) : -1;
            NN_RELEASE(b1);
            NN_RELEASE(b2);
            NN_RELEASE(betas);
        }
        if (!rc) rc = put_num(d, "eps", o->eps, o->int_valued & NN_OPT_EPS);
        if (!rc) rc = put_num(d, "weight_decay", o->weight_decay, o->int_valued & NN_OPT_WEIGHT_DECAY);
        /* PyTorch 1.13's keys in its order: AdamW's foreach comes before maximize; Adam's
           ends with differentiable and fused */
        bool adamw = kind == NN_OPTIM_ADAMW;
        if (!rc) rc = put_bool(d, "amsgrad", o->amsgrad);
        if (!rc && adamw) rc = nn_dict_set_str(d, "foreach", nn_none());
        if (!rc) rc = put_bool(d, "maximize", o->maximize);
        if (!rc && !adamw) rc = nn_dict_set_str(d, "foreach", nn_none());
        if (!rc) rc = put_bool(d, "capturable", false);
        if (!rc && !adamw) rc = put_bool(d, "differentiable", false);
        if (!rc && !adamw) rc = put_bool(d, "fused", false);
    }
    if (rc) NN_SET(d, NULL);
    return d;
}

/* The group dicts the language holds (opt's lang slot) written back into core's
   group options, so that opt.param_groups[0]['lr'] = 0.01 takes effect: 0, or -1
   with set_option's TypeError for a value of the wrong type. */
static int sync_groups(nn_optimizer *opt)
{
    nn_object *groups = *nn_optimizer_lang_slot(opt);
    if (!groups) return 0;
    nn_optimizer_kind kind = nn_optimizer_get_kind(opt);
    size_t ng = nn_optimizer_num_groups(opt), nl = nn_list_len(groups);
    for (size_t g = 0; g < ng && g < nl; g++) {
        nn_object *d = nn_list_get(groups, g);
        if (!nn_is_dict(d)) continue;
        size_t pos = 0;
        nn_object *k, *v;
        while (nn_dict_next(d, &pos, &k, &v))
            if (nn_is_str(k) && strcmp(nn_str_cstr(k), "params") &&
                set_option(kind, nn_optimizer_group_options(opt, g), "param_groups", nn_str_cstr(k), v))
                return -1;
    }
    return 0;
}

/* The dict of group g as PyTorch shows it ('params' first). New reference. */
static nn_object *group_dict(nn_optimizer *opt, size_t g)
{
    size_t np = nn_optimizer_group_size(opt, g);
    nn_object *ps = nn_list_new(np);
    if (!ps) return NULL;
    for (size_t i = 0; i < np; i++)
        if (nn_list_append(ps, (nn_object *)nn_optimizer_group_param(opt, g, i))) {
            NN_RELEASE(ps);
            return NULL;
        }
    nn_object *d = options_dict(nn_optimizer_get_kind(opt), nn_optimizer_group_options(opt, g), ps);
    NN_RELEASE(ps);
    return d;
}

/* opt.param_groups: one list kept in opt's lang slot, so that the dicts a script
   changes are the ones sync_groups reads; groups added since are appended.
   New reference. */
static nn_object *param_groups(nn_optimizer *opt)
{
    nn_object **slot = nn_optimizer_lang_slot(opt);
    if (!*slot && !(*slot = nn_list_new(0))) return NULL;
    for (size_t g = nn_list_len(*slot); g < nn_optimizer_num_groups(opt); g++) {
        nn_object *d = group_dict(opt, g);
        int rc = d ? nn_list_append(*slot, d) : -1;
        NN_RELEASE(d);
        if (rc) return NULL;
    }
    return nn_retain(*slot);
}

nn_object *repl_optim_getattr(nn_object *self, const char *name)
{
    nn_optimizer *opt = (nn_optimizer *)self;
    nn_optimizer_kind kind = nn_optimizer_get_kind(opt);
    /* every use of the optimizer (step, zero_grad, ...) goes through here first */
    if (sync_groups(opt)) return NULL;
    if (!strcmp(name, "param_groups")) return param_groups(opt);
    if (!strcmp(name, "defaults")) return options_dict(kind, nn_optimizer_defaults(opt), NULL);
    if (!strcmp(name, "state")) return repl_optim_state(opt);
    if (!strcmp(name, "_step_count")) return nn_int_new(nn_optimizer_step_count(opt)); /* a scheduler's counter */
    nn_object *m = repl_method_lookup(optim_methods, name, self);
    if (!m && nn_error_current() == NN_OK)
        nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'", self->type->name, name);
    return m;
}

nn_object *repl_optim_namespace(void)
{
    nn_object *ns = repl_namespace_new("torch.optim");
    if (!ns) return NULL;
    nn_optimizer_set_repr_hook(repl_optim_repr); /* bind_optim_repr.c */
    for (size_t i = 0; i < sizeof optim_classes / sizeof optim_classes[0]; i++) {
        nn_object *c = repl_class_new(&optim_classes[i]);
        int rc = c ? repl_namespace_set(ns, optim_classes[i].name, c) : -1;
        NN_RELEASE(c);
        if (rc) {
            NN_RELEASE(ns);
            return NULL;
        }
    }
    return ns;
}
