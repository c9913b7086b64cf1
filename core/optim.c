/*
 * optim.c — torch.optim's SGD, Adam and AdamW: optimizer objects with param
 * groups and per-parameter state, and steps that reproduce PyTorch 1.13's
 * single-tensor CPU path bit for bit (each tensor op of _single_tensor_sgd/
 * _adam/_adamw done per element in the parameter's dtype, in the same order).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* ------------------------------------------------------------------ types */

typedef union group_options {
    nn_sgd_options sgd;
    nn_adam_options adam;
} group_options;

/* optimizer.state[p]. */
typedef struct param_state {
    bool initialized;           /* the dict has entries */
    nn_tensor *step;            /* Adam, AdamW: float32 [] */
    nn_tensor *momentum_buffer; /* SGD; NULL is None */
    nn_tensor *exp_avg, *exp_avg_sq, *max_exp_avg_sq;
    uint64_t buffer_epoch;      /* the step that created momentum_buffer */
} param_state;

typedef struct param_group {
    size_t n;
    nn_tensor **params;  /* n owned references */
    size_t *slot;        /* params[i]'s state is states[slot[i]]: a repeated parameter shares the first's */
    param_state *states; /* n entries */
    group_options o;
} param_group;

struct nn_optimizer {
    nn_object ob;
    nn_optimizer_kind kind;
    group_options defaults;
    size_t n_groups;
    param_group *groups;
    uint64_t epoch; /* steps begun */
    uint64_t step_count; /* steps since nn_optimizer_set_step_count (PyTorch's _step_count) */
    nn_object *lang_groups; /* the language layer's param_groups list (opaque here), or NULL */
};

static void state_clear(param_state *s)
{
    NN_RELEASE(s->step);
    NN_RELEASE(s->momentum_buffer);
    NN_RELEASE(s->exp_avg);
    NN_RELEASE(s->exp_avg_sq);
    NN_RELEASE(s->max_exp_avg_sq);
}

static void group_free(param_group *g)
{
    for (size_t i = 0; i < g->n; i++) {
        state_clear(&g->states[i]);
        NN_RELEASE(g->params[i]);
    }
    nn_free(g->params);
    nn_free(g->slot);
    nn_free(g->states);
}

static void optimizer_dealloc(nn_object *self)
{
    nn_optimizer *opt = (nn_optimizer *)self;
    for (size_t k = 0; k < opt->n_groups; k++) group_free(&opt->groups[k]);
    nn_free(opt->groups);
    NN_RELEASE(opt->lang_groups);
    nn_free(opt);
}

/* ------------------------------------------------------- Python formatting */

/* v as Python's str() writes it: an int when is_int, else repr(float) (shortest
   round-trip digits; scientific below 1e-4 and from 1e16). */
static void py_number(double v, bool is_int, char *buf, size_t n)
{
    if (isnan(v)) {
        snprintf(buf, n, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, n, v > 0 ? "inf" : "-inf");
        return;
    }
    if (is_int && v == floor(v)) {
        snprintf(buf, n, "%.0f", v == 0 ? 0.0 : v); /* Python has no int -0 */
        return;
    }
    nn_format_float(v, buf, n);
}

static const char *py_bool(bool v) { return v ? "True" : "False"; }

static const char *const kind_names[] = {[NN_OPTIM_SGD] = "SGD", [NN_OPTIM_ADAM] = "Adam", [NN_OPTIM_ADAMW] = "AdamW"};

static char *(*repr_hook)(nn_optimizer *opt);

void nn_optimizer_set_repr_hook(char *(*hook)(nn_optimizer *opt)) { repr_hook = hook; }

/* print(optimizer): Optimizer.__repr__, each group's keys sorted, "params" left out. */
static char *optimizer_repr(nn_object *self)
{
    nn_optimizer *opt = (nn_optimizer *)self;
    if (repr_hook && opt->lang_groups) {
        char *r = repr_hook(opt);
        if (r || nn_error_current() != NN_OK) return r;
    }
    nn_text b = {0};
    char x[40], y[40];
    nn_text_printf(&b, "%s (", kind_names[opt->kind]);
    for (size_t k = 0; k < opt->n_groups; k++) {
        nn_text_printf(&b, "\nParameter Group %zu\n", k);
        if (opt->kind == NN_OPTIM_SGD) {
            const nn_sgd_options *o = &opt->groups[k].o.sgd;
            py_number(o->dampening, o->int_valued & NN_OPT_DAMPENING, x, sizeof x);
            nn_text_printf(&b, "    dampening: %s\n    differentiable: False\n    foreach: None\n", x);
            py_number(o->lr, o->int_valued & NN_OPT_LR, x, sizeof x);
            nn_text_printf(&b, "    lr: %s\n    maximize: %s\n", x, py_bool(o->maximize));
            py_number(o->momentum, o->int_valued & NN_OPT_MOMENTUM, x, sizeof x);
            nn_text_printf(&b, "    momentum: %s\n    nesterov: %s\n", x, py_bool(o->nesterov));
            py_number(o->weight_decay, o->int_valued & NN_OPT_WEIGHT_DECAY, x, sizeof x);
            nn_text_printf(&b, "    weight_decay: %s\n", x);
        } else {
            const nn_adam_options *o = &opt->groups[k].o.adam;
            bool adam = opt->kind == NN_OPTIM_ADAM;
            py_number(o->beta1, o->int_valued & NN_OPT_BETA1, x, sizeof x);
            py_number(o->beta2, o->int_valued & NN_OPT_BETA2, y, sizeof y);
            nn_text_printf(&b, "    amsgrad: %s\n    betas: (%s, %s)\n    capturable: False\n", py_bool(o->amsgrad), x, y);
            if (adam) nn_text_printf(&b, "    differentiable: False\n");
            py_number(o->eps, o->int_valued & NN_OPT_EPS, x, sizeof x);
            nn_text_printf(&b, "    eps: %s\n    foreach: None\n", x);
            if (adam) nn_text_printf(&b, "    fused: False\n");
            py_number(o->lr, o->int_valued & NN_OPT_LR, x, sizeof x);
            nn_text_printf(&b, "    lr: %s\n    maximize: %s\n", x, py_bool(o->maximize));
            py_number(o->weight_decay, o->int_valued & NN_OPT_WEIGHT_DECAY, x, sizeof x);
            nn_text_printf(&b, "    weight_decay: %s\n", x);
        }
    }
    nn_text_printf(&b, ")");
    return nn_text_finish(&b);
}

const nn_type nn_optimizer_type = {.name = "Optimizer", .dealloc = optimizer_dealloc, .repr = optimizer_repr};
static const nn_type sgd_type = {
    .name = "SGD", .dealloc = optimizer_dealloc, .repr = optimizer_repr, .base = &nn_optimizer_type};
static const nn_type adam_type = {
    .name = "Adam", .dealloc = optimizer_dealloc, .repr = optimizer_repr, .base = &nn_optimizer_type};
static const nn_type adamw_type = {
    .name = "AdamW", .dealloc = optimizer_dealloc, .repr = optimizer_repr, .base = &nn_optimizer_type};

/* -------------------------------------------------------------- defaults */

void nn_sgd_options_default(nn_sgd_options *o)
{
    *o = (nn_sgd_options){
        .lr = NAN, .int_valued = NN_OPT_MOMENTUM | NN_OPT_DAMPENING | NN_OPT_WEIGHT_DECAY};
}

void nn_adam_options_default(nn_adam_options *o)
{
    *o = (nn_adam_options){.lr = 1e-3, .beta1 = 0.9, .beta2 = 0.999, .eps = 1e-8, .int_valued = NN_OPT_WEIGHT_DECAY};
}

void nn_adamw_options_default(nn_adam_options *o)
{
    nn_adam_options_default(o);
    o->weight_decay = 1e-2;
    o->int_valued = 0;
}

/* ------------------------------------------------------------ construction */

int nn_optimizer_add_param_group(nn_optimizer *opt, nn_tensor *const *params, size_t n, const void *options)
{
    group_options o = opt->defaults;
    if (options) {
        if (opt->kind == NN_OPTIM_SGD)
            o.sgd = *(const nn_sgd_options *)options;
        else
            o.adam = *(const nn_adam_options *)options;
    }
    /* Optimizer.add_param_group's checks, in its order */
    for (size_t i = 0; i < n; i++)
        if (!nn_is_leaf(params[i]) && !params[i]->retains_grad)
            return nn_error_set(NN_ERR_VALUE, "can't optimize a non-leaf Tensor");
    if (opt->kind == NN_OPTIM_SGD && isnan(o.sgd.lr))
        return nn_error_set(NN_ERR_VALUE, "parameter group didn't specify a value of required optimization parameter lr");
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < opt->n_groups; k++)
            for (size_t j = 0; j < opt->groups[k].n; j++)
                if (opt->groups[k].params[j] == params[i])
                    return nn_error_set(NN_ERR_VALUE, "some parameters appear in more than one parameter group");
    param_group g = {.n = n, .o = o};
    g.params = nn_calloc(n, sizeof *g.params);
    g.slot = g.params ? nn_calloc(n, sizeof *g.slot) : NULL;
    g.states = g.slot ? nn_calloc(n, sizeof *g.states) : NULL;
    param_group *grown = g.states ? nn_realloc(opt->groups, (opt->n_groups + 1) * sizeof *grown) : NULL;
    if (!grown) {
        nn_free(g.params);
        nn_free(g.slot);
        nn_free(g.states);
        return -1;
    }
    opt->groups = grown;
    /* A parameter given twice in one group (PyTorch warns) is stepped twice with one state. */
    for (size_t i = 0; i < n; i++) {
        g.params[i] = params[i];
        NN_RETAIN(params[i]);
        g.slot[i] = i;
        for (size_t j = 0; j < i; j++)
            if (params[j] == params[i]) {
                g.slot[i] = g.slot[j];
                break;
            }
    }
    opt->groups[opt->n_groups++] = g;
    return 0;
}

static nn_optimizer *optimizer_new(nn_optimizer_kind kind, const nn_type *type, const group_options *o,
                                   nn_tensor *const *params, size_t n)
{
    if (params && n == 0) {
        nn_error_set(NN_ERR_VALUE, "optimizer got an empty parameter list");
        return NULL;
    }
    nn_optimizer *opt = nn_malloc(sizeof *opt);
    if (!opt) return NULL;
    nn_object_init(&opt->ob, type);
    opt->kind = kind;
    opt->defaults = *o;
    opt->n_groups = 0;
    opt->groups = NULL;
    opt->epoch = 0;
    opt->step_count = 0;
    opt->lang_groups = NULL;
    if (params && nn_optimizer_add_param_group(opt, params, n, NULL) < 0) NN_SET(opt, NULL);
    return opt;
}

nn_optimizer *nn_sgd_new(nn_tensor *const *params, size_t n, const nn_sgd_options *o)
{
    group_options g;
    if (o)
        g.sgd = *o;
    else
        nn_sgd_options_default(&g.sgd);
    const nn_sgd_options *s = &g.sgd;
    char v[40];
    if (s->lr < 0.0) {
        py_number(s->lr, s->int_valued & NN_OPT_LR, v, sizeof v);
        nn_error_set(NN_ERR_VALUE, "Invalid learning rate: %s", v);
        return NULL;
    }
    if (s->momentum < 0.0) {
        py_number(s->momentum, s->int_valued & NN_OPT_MOMENTUM, v, sizeof v);
        nn_error_set(NN_ERR_VALUE, "Invalid momentum value: %s", v);
        return NULL;
    }
    if (s->weight_decay < 0.0) {
        py_number(s->weight_decay, s->int_valued & NN_OPT_WEIGHT_DECAY, v, sizeof v);
        nn_error_set(NN_ERR_VALUE, "Invalid weight_decay value: %s", v);
        return NULL;
    }
    if (s->nesterov && (s->momentum <= 0 || s->dampening != 0)) {
        nn_error_set(NN_ERR_VALUE, "Nesterov momentum requires a momentum and zero dampening");
        return NULL;
    }
    return optimizer_new(NN_OPTIM_SGD, &sgd_type, &g, params, n);
}

static nn_optimizer *adam_like_new(nn_optimizer_kind kind, nn_tensor *const *params, size_t n,
                                   const nn_adam_options *o)
{
    group_options g;
    if (o)
        g.adam = *o;
    else if (kind == NN_OPTIM_ADAM)
        nn_adam_options_default(&g.adam);
    else
        nn_adamw_options_default(&g.adam);
    const nn_adam_options *a = &g.adam;
    unsigned iv = a->int_valued;
    char v[40];
    /* written as PyTorch's `not 0.0 <= x` so that NaN fails too */
    if (!(0.0 <= a->lr)) {
        py_number(a->lr, iv & NN_OPT_LR, v, sizeof v);
        nn_error_set(NN_ERR_VALUE, "Invalid learning rate: %s", v);
        return NULL;
    }
    if (!(0.0 <= a->eps)) {
        py_number(a->eps, iv & NN_OPT_EPS, v, sizeof v);
        nn_error_set(NN_ERR_VALUE, "Invalid epsilon value: %s", v);
        return NULL;
    }
    if (!(0.0 <= a->beta1 && a->beta1 < 1.0)) {
        py_number(a->beta1, iv & NN_OPT_BETA1, v, sizeof v);
        nn_error_set(NN_ERR_VALUE, "Invalid beta parameter at index 0: %s", v);
        return NULL;
    }
    if (!(0.0 <= a->beta2 && a->beta2 < 1.0)) {
        py_number(a->beta2, iv & NN_OPT_BETA2, v, sizeof v);
        nn_error_set(NN_ERR_VALUE, "Invalid beta parameter at index 1: %s", v);
        return NULL;
    }
    if (!(0.0 <= a->weight_decay)) {
        py_number(a->weight_decay, iv & NN_OPT_WEIGHT_DECAY, v, sizeof v);
        nn_error_set(NN_ERR_VALUE, "Invalid weight_decay value: %s", v);
        return NULL;
    }
    return optimizer_new(kind, kind == NN_OPTIM_ADAM ? &adam_type : &adamw_type, &g, params, n);
}

nn_optimizer *nn_adam_new(nn_tensor *const *params, size_t n, const nn_adam_options *o)
{
    return adam_like_new(NN_OPTIM_ADAM, params, n, o);
}

nn_optimizer *nn_adamw_new(nn_tensor *const *params, size_t n, const nn_adam_options *o)
{
    return adam_like_new(NN_OPTIM_ADAMW, params, n, o);
}

/* ----------------------------------------------------------------- kernels */

/* ------------------------------------------------------------------- step */

/* A contiguous tensor of p's dtype holding t's values (t itself, retained, when it
   already is one); grad mode is off. */
static nn_tensor *contiguous_as(nn_tensor *t, nn_dtype dtype)
{
    if (t->dtype != dtype) return nn_to_dtype(t, dtype);
    return nn_contiguous(t);
}

static int check_grad(nn_tensor *p, nn_tensor *grad, const char *name)
{
    if (!nn_dtype_is_floating(p->dtype) && !nn_dtype_is_complex(p->dtype))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "%s: %s parameters are not supported (float32 and float64 are)",
                            name, nn_dtype_name(p->dtype));
    /* PyTorch 1.13's Adam and AdamW on CPU stop at exp_avg_sq's addcmul_ for float16
       (SGD steps it; bfloat16 steps in both) */
    if (p->dtype == NN_FLOAT16 && strcmp(name, "SGD"))
        return nn_error_set(NN_ERR_RUNTIME, "\"addcmul_cpu_out\" not implemented for 'Half'");
    if (grad->ndim != p->ndim || memcmp(grad->sizes, p->sizes, sizeof(int64_t) * (size_t)p->ndim) != 0) {
        char a[256], b[256];
        return nn_error_set(NN_ERR_RUNTIME, "%s: the grad's shape %s does not match the parameter's shape %s", name,
                            nn_shape_str(grad->ndim, grad->sizes, a, sizeof a),
                            nn_shape_str(p->ndim, p->sizes, b, sizeof b));
    }
    return 0;
}


/* The buffers an update reads and writes (borrowed), and how many in-place ops
   PyTorch applies to the parameter (its version bumps). */
typedef struct update {
    nn_optimizer_kind kind;
    nn_sgd_step_args sgd;
    nn_adam_step_args adam;
    nn_tensor *buf, *exp_avg, *exp_avg_sq, *max_exp_avg_sq;
    int bumps;
} update;

/* Runs one parameter's update over contiguous data (a non-contiguous parameter
   is copied out and back; the grad is brought to the parameter's dtype). */
static int apply(nn_tensor *p, nn_tensor *grad, const update *u)
{
    nn_tensor *pc = nn_contiguous(p), *g = pc ? contiguous_as(grad, p->dtype) : NULL;
    /* a complex parameter steps as its real view [..., 2], its buffers too (1.13's Adam
       views them as real; SGD's arithmetic with real factors is the same per part) */
    nn_tensor *x[6] = {pc, g, u->buf, u->exp_avg, u->exp_avg_sq, u->max_exp_avg_sq}, *v[6] = {NULL};
    bool as_real = nn_dtype_is_complex(p->dtype);
    int rc = -1;
    if (!g) goto out;
    for (int k = 0; k < 6; k++)
        if (x[k] && as_real && !(x[k] = v[k] = nn_view_as_real(x[k]))) goto out;
    int rk = u->kind == NN_OPTIM_SGD
                 ? NN_KERNEL(nn_backend_of(pc), optim_step, (NN_OPTIM_STEP_SGD, &u->sgd, x[0], x[1], x[2], NULL, NULL))
                 : NN_KERNEL(nn_backend_of(pc), optim_step, (NN_OPTIM_STEP_ADAM, &u->adam, x[0], x[1], x[3], x[4], x[5]));
    if (rk < 0) goto out;
    if (pc != p) {
        if (nn_copy_(p, pc) < 0) goto out; /* bumps once */
        p->storage->version += (uint64_t)u->bumps - 1;
    } else {
        p->storage->version += (uint64_t)u->bumps;
    }
    rc = 0;
out:
    for (int k = 0; k < 6; k++) NN_RELEASE(v[k]);
    NN_RELEASE(pc);
    NN_RELEASE(g);
    return rc;
}

/* _single_tensor_sgd over one group. */
static int sgd_group_step(nn_optimizer *opt, param_group *g)
{
    const nn_sgd_options *o = &g->o.sgd;
    for (size_t i = 0; i < g->n; i++)
        if (g->params[i]->grad && check_grad(g->params[i], g->params[i]->grad, "SGD") < 0) return -1;
    for (size_t i = 0; i < g->n; i++) {
        nn_tensor *p = g->params[i];
        if (!p->grad) continue;
        param_state *s = &g->states[g->slot[i]];
        update u = {.kind = NN_OPTIM_SGD, .bumps = 1};
        u.sgd = (nn_sgd_step_args){.weight_decay = o->weight_decay, .momentum = o->momentum,
                           .one_minus_dampening = 1 - o->dampening, .neg_lr = -o->lr,
                           .maximize = o->maximize, .nesterov = o->nesterov};
        nn_tensor *fresh = NULL;
        /* PyTorch reads every buffer before updating any: a parameter given twice
           whose buffer this very step created still counts as having none. */
        if (o->momentum != 0 && (!s->momentum_buffer || s->buffer_epoch == opt->epoch)) {
            if (!(fresh = nn_empty_on(nn_device_of(p), p->ndim, p->sizes, p->dtype))) return -1;
            u.sgd.new_buffer = true;
        }
        u.buf = fresh ? fresh : s->momentum_buffer;
        if (apply(p, p->grad, &u) < 0) {
            NN_RELEASE(fresh);
            return -1;
        }
        if (fresh) {
            NN_SET(s->momentum_buffer, fresh);
            s->buffer_epoch = opt->epoch;
        } else if (u.buf) {
            nn_bump_version(u.buf); /* buf.mul_(momentum).add_(...) */
            nn_bump_version(u.buf);
        }
        s->initialized = true;
    }
    return 0;
}

/* Adam's lazy state: step = tensor(0.), exp_avg, exp_avg_sq (and max_exp_avg_sq) zeros. */
static int adam_state_init(param_state *s, nn_tensor *p, bool amsgrad)
{
    param_state t = {.initialized = true};
    t.step = nn_zeros(0, NULL, nn_default_dtype());
    t.exp_avg = t.step ? nn_zeros_like(p) : NULL;
    t.exp_avg_sq = t.exp_avg ? nn_zeros_like(p) : NULL;
    t.max_exp_avg_sq = t.exp_avg_sq && amsgrad ? nn_zeros_like(p) : NULL;
    if (!t.exp_avg_sq || (amsgrad && !t.max_exp_avg_sq)) {
        state_clear(&t);
        return -1;
    }
    *s = t;
    return 0;
}

/* _single_tensor_adam / _single_tensor_adamw over one group. */
static int adam_group_step(nn_optimizer *opt, param_group *g)
{
    const nn_adam_options *o = &g->o.adam;
    bool adamw = opt->kind == NN_OPTIM_ADAMW;
    const char *name = adamw ? "AdamW" : "Adam";
    for (size_t i = 0; i < g->n; i++) {
        nn_tensor *p = g->params[i];
        if (!p->grad) continue;
        if (check_grad(p, p->grad, name) < 0) return -1;
        param_state *s = &g->states[g->slot[i]];
        if (!s->initialized && adam_state_init(s, p, o->amsgrad) < 0) return -1;
        if (!s->step || !s->exp_avg || !s->exp_avg_sq) /* a loaded state without them */
            return nn_error_set(NN_ERR_KEY, "'%s'", !s->step ? "step" : !s->exp_avg ? "exp_avg" : "exp_avg_sq");
        if (o->amsgrad && !s->max_exp_avg_sq) return nn_error_set(NN_ERR_KEY, "'max_exp_avg_sq'");
    }
    for (size_t i = 0; i < g->n; i++) {
        nn_tensor *p = g->params[i];
        if (!p->grad) continue;
        param_state *s = &g->states[g->slot[i]];
        double step_now;
        if (nn_item(s->step, &step_now) < 0) return -1; /* the step counter, a 0-dim float tensor */
        double step = step_now + 1.0; /* step_t += 1, in the counter's dtype; step_t.item() */
        if (s->step->dtype == NN_FLOAT32) step = (float)step_now + 1.0f;
        unsigned char next[8];
        nn_store_double(next, s->step->dtype, step);
        double bias_correction1 = 1 - pow(o->beta1, step);
        double bias_correction2 = 1 - pow(o->beta2, step);
        double step_size = o->lr / bias_correction1;
        update u = {.kind = opt->kind, .bumps = adamw ? 2 : 1, .exp_avg = s->exp_avg, .exp_avg_sq = s->exp_avg_sq,
                    .max_exp_avg_sq = o->amsgrad ? s->max_exp_avg_sq : NULL};
        u.adam = (nn_adam_step_args){.decay = adamw ? 1 - o->lr * o->weight_decay : 1,
                             .weight_decay = adamw ? 0 : o->weight_decay,
                             .beta1 = o->beta1, .one_minus_beta1 = 1 - o->beta1,
                             .beta2 = o->beta2, .one_minus_beta2 = 1 - o->beta2,
                             .bias_correction2_sqrt = sqrt(bias_correction2), .eps = o->eps,
                             .neg_step_size = -step_size, .maximize = o->maximize, .adamw = adamw};
        if (apply(p, p->grad, &u) < 0) return -1;
        if (nn_host_write(s->step, next) < 0) return -1;
        nn_bump_version(s->step);
        nn_tensor *written[3] = {s->exp_avg, s->exp_avg_sq, u.max_exp_avg_sq};
        for (int k = 0; k < 3; k++)
            if (written[k]) {
                nn_bump_version(written[k]);
                if (k < 2) nn_bump_version(written[k]); /* mul_ then add_/addcmul_ */
            }
    }
    return 0;
}

int nn_optimizer_step(nn_optimizer *opt)
{
    if (nn_check_interrupt() < 0) return -1;
    bool prev = nn_set_grad_enabled(false);
    opt->epoch++;
    opt->step_count++;
    int rc = 0;
    for (size_t k = 0; k < opt->n_groups && rc == 0; k++)
        rc = opt->kind == NN_OPTIM_SGD ? sgd_group_step(opt, &opt->groups[k]) : adam_group_step(opt, &opt->groups[k]);
    nn_set_grad_enabled(prev);
    if (rc == 0) nn_optimizer_observe(opt);
    return rc;
}

int nn_optimizer_zero_grad(nn_optimizer *opt, bool set_to_none)
{
    bool prev = nn_set_grad_enabled(false);
    int rc = 0;
    for (size_t k = 0; k < opt->n_groups && rc == 0; k++) {
        param_group *g = &opt->groups[k];
        for (size_t i = 0; i < g->n && rc == 0; i++) {
            nn_tensor *p = g->params[i], *grad = p->grad;
            if (!grad) continue;
            if (set_to_none) {
                NN_SET(p->grad, NULL);
                continue;
            }
            /* p.grad.detach_() when it has history, else p.grad.requires_grad_(False); then zero_() */
            if (grad->grad_fn) {
                if (grad->retains_grad && grad->grad_fn->retained) grad->grad_fn->retained[grad->output_nr] = NULL;
                NN_SET(grad->grad_fn, NULL);
                grad->retains_grad = false;
                grad->output_nr = 0;
            }
            grad->requires_grad = false;
            rc = nn_zero_(grad);
        }
    }
    nn_set_grad_enabled(prev);
    return rc;
}

/* -------------------------------------------------------------- accessors */

nn_optimizer_kind nn_optimizer_get_kind(const nn_optimizer *opt) { return opt->kind; }

const void *nn_optimizer_defaults(const nn_optimizer *opt) { return &opt->defaults; }

size_t nn_optimizer_num_groups(const nn_optimizer *opt) { return opt->n_groups; }
uint64_t nn_optimizer_step_count(const nn_optimizer *opt) { return opt->step_count; }
void nn_optimizer_set_step_count(nn_optimizer *opt, uint64_t n) { opt->step_count = n; }

static param_group *group_at(const nn_optimizer *opt, size_t group)
{
    if (group >= opt->n_groups) {
        nn_error_set(NN_ERR_INDEX, "list index out of range");
        return NULL;
    }
    return &opt->groups[group];
}

void *nn_optimizer_group_options(nn_optimizer *opt, size_t group)
{
    param_group *g = group_at(opt, group);
    return g ? (void *)&g->o : NULL;
}

int nn_optimizer_get_lr(const nn_optimizer *opt, size_t group, double *lr)
{
    param_group *g = group_at(opt, group);
    if (!g) return -1;
    *lr = opt->kind == NN_OPTIM_SGD ? g->o.sgd.lr : g->o.adam.lr;
    return 0;
}

nn_object **nn_optimizer_lang_slot(nn_optimizer *opt) { return &opt->lang_groups; }

int nn_optimizer_set_lr(nn_optimizer *opt, size_t group, double lr)
{
    param_group *g = group_at(opt, group);
    if (!g) return -1;
    if (opt->kind == NN_OPTIM_SGD) {
        g->o.sgd.lr = lr;
        g->o.sgd.int_valued &= ~(unsigned)NN_OPT_LR;
    } else {
        g->o.adam.lr = lr;
        g->o.adam.int_valued &= ~(unsigned)NN_OPT_LR;
    }
    return 0;
}

size_t nn_optimizer_group_size(const nn_optimizer *opt, size_t group)
{
    return group < opt->n_groups ? opt->groups[group].n : 0;
}

nn_tensor *nn_optimizer_group_param(const nn_optimizer *opt, size_t group, size_t i)
{
    if (group >= opt->n_groups || i >= opt->groups[group].n) return NULL;
    return opt->groups[group].params[i];
}

static param_state *state_of(const nn_optimizer *opt, const nn_tensor *param)
{
    for (size_t k = 0; k < opt->n_groups; k++) {
        param_group *g = &opt->groups[k];
        for (size_t i = 0; i < g->n; i++)
            if (g->params[i] == param) return &g->states[g->slot[i]];
    }
    return NULL;
}

int nn_optimizer_state_keys(const nn_optimizer *opt, const nn_tensor *param, const char **keys)
{
    param_state *s = state_of(opt, param);
    if (!s || !s->initialized) return 0;
    if (opt->kind == NN_OPTIM_SGD) {
        keys[0] = "momentum_buffer";
        return 1;
    }
    int n = 0;
    keys[n++] = "step";
    keys[n++] = "exp_avg";
    keys[n++] = "exp_avg_sq";
    if (s->max_exp_avg_sq) keys[n++] = "max_exp_avg_sq";
    return n;
}

int nn_optimizer_get_state(const nn_optimizer *opt, const nn_tensor *param, const char *key, nn_tensor **out)
{
    *out = NULL;
    const char *keys[NN_OPTIM_MAX_STATE_KEYS];
    int n = nn_optimizer_state_keys(opt, param, keys);
    for (int k = 0; k < n; k++) {
        if (strcmp(keys[k], key) != 0) continue;
        param_state *s = state_of(opt, param);
        nn_tensor *t = !strcmp(key, "momentum_buffer") ? s->momentum_buffer
                     : !strcmp(key, "step")            ? s->step
                     : !strcmp(key, "exp_avg")         ? s->exp_avg
                     : !strcmp(key, "exp_avg_sq")      ? s->exp_avg_sq
                                                       : s->max_exp_avg_sq;
        NN_RETAIN(t);
        *out = t;
        return 0;
    }
    return nn_error_set(NN_ERR_KEY, "'%s'", key);
}

/* ----------------------------------------------------- state (load_state_dict) */

void nn_optimizer_clear_state(nn_optimizer *opt)
{
    for (size_t k = 0; k < opt->n_groups; k++)
        for (size_t i = 0; i < opt->groups[k].n; i++) {
            state_clear(&opt->groups[k].states[i]);
            opt->groups[k].states[i] = (param_state){0};
        }
}

int nn_optimizer_set_state(nn_optimizer *opt, const nn_tensor *param, const char *key, nn_tensor *value)
{
    param_state *s = state_of(opt, param);
    if (!s) return nn_error_set(NN_ERR_KEY, "the tensor is not a parameter of this optimizer");
    bool sgd = opt->kind == NN_OPTIM_SGD, is_step = !strcmp(key, "step");
    nn_tensor **slot = sgd ? (!strcmp(key, "momentum_buffer") ? &s->momentum_buffer : NULL)
                     : is_step                        ? &s->step
                     : !strcmp(key, "exp_avg")        ? &s->exp_avg
                     : !strcmp(key, "exp_avg_sq")     ? &s->exp_avg_sq
                     : !strcmp(key, "max_exp_avg_sq") ? &s->max_exp_avg_sq
                                                      : NULL;
    if (!slot) return nn_error_set(NN_ERR_KEY, "'%s' is not a state of this optimizer's parameters", key);
    if (value && is_step && (value->ndim != 0 || !nn_dtype_is_floating(value->dtype)))
        return nn_error_set(NN_ERR_VALUE, "state 'step' must be a 0-dim floating point tensor");
    if (value && !is_step &&
        (value->dtype != param->dtype || value->ndim != param->ndim ||
         memcmp(value->sizes, param->sizes, sizeof(int64_t) * (size_t)param->ndim) != 0 || !nn_is_contiguous(value))) {
        char a[256], b[256];
        return nn_error_set(NN_ERR_VALUE, "state '%s' of shape %s does not match its parameter's shape %s and dtype",
                            key, nn_shape_str(value->ndim, value->sizes, a, sizeof a),
                            nn_shape_str(param->ndim, param->sizes, b, sizeof b));
    }
    if (!value && !sgd) return nn_error_set(NN_ERR_VALUE, "state '%s' must be a tensor", key);
    NN_RETAIN(value);
    NN_SET(*slot, value);
    s->buffer_epoch = opt->epoch; /* a loaded buffer is an old one at the next step */
    s->initialized = true;
    return 0;
}
