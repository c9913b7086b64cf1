/*
 * mod_lr_scheduler.c — torch.optim.lr_scheduler as PyTorch 1.13 writes it:
 * _LRScheduler (also LRScheduler) and StepLR, MultiStepLR, ExponentialLR,
 * CosineAnnealingLR, LambdaLR, MultiplicativeLR, LinearLR, ConstantLR,
 * PolynomialLR, OneCycleLR, and ReduceLROnPlateau. Each is a class of the
 * language whose state lives in the instance's attributes under PyTorch's
 * names and in PyTorch's order, so that state_dict() is the attributes but
 * 'optimizer' (as PyTorch's self.__dict__), load_state_dict() updates them,
 * and a class written in the language may derive from any of them (its own
 * get_lr is what step() calls). step() uses the chainable form, step(epoch)
 * the closed form where PyTorch has one; the arithmetic is Python's (double)
 * in PyTorch's order of operations, so the learning rates equal PyTorch's bit
 * for bit. The learning rates live in the optimizer's param_groups dicts
 * (group['lr'], 'initial_lr', ...), as in PyTorch.
 * CyclicLR, CosineAnnealingWarmRestarts, SequentialLR and ChainedScheduler
 * are written in the language (mod_lr_scheduler_more.c).
 * The warnings are lr_sched_warn.c's. Not here: MultiStepLR's
 * milestones are a collections.Counter {milestone: count}, as PyTorch's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "stdlib_int.h"

#define MODNAME "torch.optim.lr_scheduler"
#define ARGS(n) nn_object *a[n] = {0}

/* ------------------------------------------------------------ attribute helpers */

static bool is_inst(nn_object *o) { return o && o->type == &repl_instance_type; }

static int attr_double(nn_object *self, const char *name, double *out)
{
    nn_object *v = repl_mod_attr(self, name);
    return v ? repl_mod_real(v, out) : -1;
}

static int attr_int(nn_object *self, const char *name, int64_t *out)
{
    nn_object *v = repl_mod_attr(self, name);
    return v ? repl_mod_int(v, out) : -1;
}

/* self.optimizer.param_groups: a new reference to the optimizer's list of dicts. */
static nn_object *groups_of(nn_object *self)
{
    nn_object *opt = repl_mod_attr(self, "optimizer");
    nn_object *g = opt ? repl_get_attr(opt, "param_groups") : NULL;
    if (g && !nn_is_list(g)) {
        NN_RELEASE(g);
        repl_raise_exc(EXC_TypeError, "optimizer.param_groups must be a list");
        return NULL;
    }
    return g;
}

/* group[key] of the dict group (borrowed) as a double; KeyError as Python's. */
static int group_double(nn_object *group, const char *key, double *out)
{
    nn_object *v = nn_is_dict(group) ? nn_dict_get_str(group, key) : NULL;
    if (!v) return repl_raise_exc(EXC_KeyError, "'%s'", key);
    return repl_mod_real(v, out);
}

static int group_set_double(nn_object *group, const char *key, double v)
{
    nn_object *f = nn_float_new(v);
    int rc = f && nn_is_dict(group) ? nn_dict_set_str(group, key, f) : -1;
    NN_RELEASE(f);
    return rc;
}

/* Python's a % b for ints (the sign of b). */
static int64_t py_mod(int64_t a, int64_t b)
{
    int64_t r = a % b;
    return r && ((r < 0) != (b < 0)) ? r + b : r;
}

/* A new list of one float per element of vals[n]. */
static nn_object *float_list(const double *vals, size_t n)
{
    nn_object *l = nn_list_new(0);
    for (size_t i = 0; l && i < n; i++) {
        nn_object *f = nn_float_new(vals[i]);
        if (!f || nn_list_append(l, f)) NN_SET(l, NULL);
        NN_RELEASE(f);
    }
    return l;
}

/* [group['lr'] for group in groups] (the same objects). New reference. */
static nn_object *current_lrs(nn_object *groups)
{
    nn_object *l = nn_list_new(0);
    for (size_t i = 0; l && i < nn_list_len(groups); i++) {
        nn_object *g = nn_list_get(groups, i);
        nn_object *lr = nn_is_dict(g) ? nn_dict_get_str(g, "lr") : NULL;
        if (!lr) {
            repl_raise_exc(EXC_KeyError, "'lr'");
            NN_SET(l, NULL);
        } else if (nn_list_append(l, lr))
            NN_SET(l, NULL);
    }
    return l;
}

/* ------------------------------------------------------------ the learning-rate rules */

/* What a chainable or closed-form rule computes for one group: the new lr from
   the group's current lr, its base lr and the scheduler's attributes. */
typedef int (*lr_rule)(nn_object *self, int64_t epoch, double lr, double base, size_t group, double *out);

/* [rule(group) for each group] as a new list of floats; keep_when(self, epoch)
   true returns the groups' current lrs unchanged (PyTorch's early returns). */
static nn_object *apply_rule(nn_object *self, lr_rule rule, bool keep)
{
    int64_t epoch;
    if (repl_sched_warn_get_lr(self) || attr_int(self, "last_epoch", &epoch)) return NULL;
    nn_object *groups = groups_of(self);
    if (!groups) return NULL;
    if (keep) {
        nn_object *r = current_lrs(groups);
        NN_RELEASE(groups);
        return r;
    }
    nn_object *bases = repl_mod_attr(self, "base_lrs");
    size_t n = nn_list_len(groups);
    double *vals = nn_malloc((n ? n : 1) * sizeof *vals);
    int rc = bases && vals ? 0 : -1;
    for (size_t i = 0; !rc && i < n; i++) {
        double lr = 0, base = 0;
        nn_object *g = nn_list_get(groups, i);
        rc = group_double(g, "lr", &lr);
        if (!rc && nn_is_list(bases) && i < nn_list_len(bases)) rc = repl_mod_real(nn_list_get(bases, i), &base);
        if (!rc) rc = rule(self, epoch, lr, base, i, &vals[i]);
    }
    nn_object *r = rc ? NULL : float_list(vals, n);
    nn_free(vals);
    NN_RELEASE(groups);
    return r;
}

#define SELF(args) (nn_tuple_len(args) ? nn_tuple_get(args, 0) : NULL)

/* StepLR */
static int step_times(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double gamma;
    if (attr_double(self, "gamma", &gamma)) return -1;
    *out = lr * gamma;
    return 0;
}

/* StepLR's step_size as a double: the text-classification tutorial passes 1.0,
   which PyTorch's `last_epoch % step_size` takes as Python takes a float. */
static int step_size_of(nn_object *self, double *size)
{
    nn_object *v = repl_mod_attr(self, "step_size");
    if (!v || repl_mod_real(v, size)) return -1;
    if (*size == 0)
        return repl_raise_exc(EXC_ZeroDivisionError, nn_is_float(v) ? "float modulo" : "integer division or modulo by zero");
    return 0;
}

/* Python's a % b and a // b for floats (the sign of b; exact for whole numbers). */
static double py_fmod(double a, double b)
{
    double r = fmod(a, b);
    return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

static double py_floordiv(double a, double b) { return floor((a - py_fmod(a, b)) / b + 0.5); }

static nn_object *steplr_get_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t e;
    double size;
    nn_object *self = SELF(args);
    if (repl_mod_check_self("get_lr", args) || attr_int(self, "last_epoch", &e) || step_size_of(self, &size)) return NULL;
    return apply_rule(self, step_times, e == 0 || py_fmod((double)e, size) != 0);
}

static int steplr_closed(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double gamma, size;
    if (attr_double(self, "gamma", &gamma) || step_size_of(self, &size)) return -1;
    *out = base * pow(gamma, py_floordiv((double)e, size));
    return 0;
}

/* MultiStepLR: milestones is a collections.Counter {epoch: count}; its dict of
   counts (borrowed: the Counter keeps it), or a plain dict a user set */
static nn_object *milestone_counts(nn_object *self)
{
    nn_object *ms = repl_mod_attr(self, "milestones");
    if (!ms || nn_is_dict(ms)) return ms;
    nn_object *d = ms->type == &repl_instance_type ? repl_get_attr(ms, "_d") : NULL;
    if (!d) {
        NN_RELEASE(repl_take_exception());
        nn_error_clear();
        return ms;
    }
    NN_RELEASE(d); /* the Counter keeps it */
    return d;
}

static int multistep_times(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double gamma;
    nn_object *ms = milestone_counts(self);
    if (!ms || attr_double(self, "gamma", &gamma)) return -1;
    nn_object *key = nn_int_new(e);
    nn_object *count = key && nn_is_dict(ms) ? nn_dict_get(ms, key) : NULL;
    NN_RELEASE(key);
    *out = lr * pow(gamma, count ? nn_float_value(count) : 0);
    return 0;
}

static nn_object *multistep_get_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t e;
    nn_object *self = SELF(args);
    if (repl_mod_check_self("get_lr", args) || attr_int(self, "last_epoch", &e)) return NULL;
    nn_object *ms = milestone_counts(self), *key = nn_int_new(e);
    bool in = ms && key && nn_is_dict(ms) && nn_dict_get(ms, key);
    NN_RELEASE(key);
    if (!ms) return NULL;
    return apply_rule(self, multistep_times, !in);
}

static int multistep_closed(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double gamma;
    nn_object *ms = milestone_counts(self);
    if (!ms || attr_double(self, "gamma", &gamma)) return -1;
    /* bisect_right over the sorted elements: how many milestones (with counts) are <= e */
    int64_t n = 0;
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_is_dict(ms) && nn_dict_next(ms, &pos, &k, &v))
        if (nn_is_int(k) && nn_int_value(k) <= e) n += nn_int_value(v);
    *out = base * pow(gamma, (double)n);
    return 0;
}

/* ExponentialLR */
static nn_object *exponential_get_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t e;
    nn_object *self = SELF(args);
    if (repl_mod_check_self("get_lr", args) || attr_int(self, "last_epoch", &e)) return NULL;
    return apply_rule(self, step_times, e == 0);
}

static int exponential_closed(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double gamma;
    if (attr_double(self, "gamma", &gamma)) return -1;
    *out = base * pow(gamma, (double)e);
    return 0;
}

/* CosineAnnealingLR */
static int cosine_rule(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double tmax, eta_min;
    int64_t count, itmax;
    if (attr_double(self, "T_max", &tmax) || attr_double(self, "eta_min", &eta_min) ||
        attr_int(self, "_step_count", &count))
        return -1;
    if (tmax == 0) return repl_raise_exc(EXC_ZeroDivisionError, "float division by zero");
    if (count == 1 && e > 0) *out = eta_min + (base - eta_min) * (1 + cos((double)e * M_PI / tmax)) / 2;
    else if (!repl_mod_int(repl_mod_attr(self, "T_max"), &itmax) && itmax && py_mod(e - 1 - itmax, 2 * itmax) == 0)
        *out = lr + (base - eta_min) * (1 - cos(M_PI / tmax)) / 2;
    else {
        nn_error_clear();
        *out = (1 + cos(M_PI * (double)e / tmax)) / (1 + cos(M_PI * (double)(e - 1) / tmax)) * (lr - eta_min) + eta_min;
    }
    return 0;
}

static nn_object *cosine_get_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t e;
    nn_object *self = SELF(args);
    if (repl_mod_check_self("get_lr", args) || attr_int(self, "last_epoch", &e)) return NULL;
    return apply_rule(self, cosine_rule, e == 0);
}

static int cosine_closed(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double tmax, eta_min;
    if (attr_double(self, "T_max", &tmax) || attr_double(self, "eta_min", &eta_min)) return -1;
    if (tmax == 0) return repl_raise_exc(EXC_ZeroDivisionError, "float division by zero");
    *out = eta_min + (base - eta_min) * (1 + cos(M_PI * (double)e / tmax)) / 2;
    return 0;
}

/* LambdaLR and MultiplicativeLR: lr_lambdas[g](epoch) */
static int lambda_factor(nn_object *self, int64_t e, size_t g, double *out)
{
    nn_object *fns = repl_mod_attr(self, "lr_lambdas");
    if (!fns) return -1;
    if (!nn_is_list(fns) || g >= nn_list_len(fns)) return repl_raise_exc(EXC_IndexError, "list index out of range");
    nn_object *ep = nn_int_new(e);
    nn_object *r = ep ? repl_call_object(nn_list_get(fns, g), &ep, 1, NULL) : NULL;
    NN_RELEASE(ep);
    if (!r) return -1;
    int rc = repl_mod_real(r, out);
    NN_RELEASE(r);
    return rc;
}

static int lambda_rule(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double f;
    if (lambda_factor(self, e, g, &f)) return -1;
    *out = base * f;
    return 0;
}

static int multiplicative_rule(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double f;
    if (lambda_factor(self, e, g, &f)) return -1;
    *out = lr * f;
    return 0;
}

static nn_object *lambda_get_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("get_lr", args)) return NULL;
    return apply_rule(SELF(args), lambda_rule, false);
}

static nn_object *multiplicative_get_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t e;
    nn_object *self = SELF(args);
    if (repl_mod_check_self("get_lr", args) || attr_int(self, "last_epoch", &e)) return NULL;
    return apply_rule(self, multiplicative_rule, e <= 0);
}

/* LinearLR */
static int linear_rule(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double sf, ef, ti;
    if (attr_double(self, "start_factor", &sf) || attr_double(self, "end_factor", &ef) ||
        attr_double(self, "total_iters", &ti))
        return -1;
    if (e == 0) *out = lr * sf;
    else *out = lr * (1. + (ef - sf) / (ti * sf + (double)(e - 1) * (ef - sf)));
    return 0;
}

static nn_object *linear_get_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t e;
    double ti;
    nn_object *self = SELF(args);
    if (repl_mod_check_self("get_lr", args) || attr_int(self, "last_epoch", &e) || attr_double(self, "total_iters", &ti))
        return NULL;
    return apply_rule(self, linear_rule, e != 0 && (double)e > ti);
}

static int linear_closed(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double sf, ef, ti;
    if (attr_double(self, "start_factor", &sf) || attr_double(self, "end_factor", &ef) ||
        attr_double(self, "total_iters", &ti))
        return -1;
    if (ti == 0) return repl_raise_exc(EXC_ZeroDivisionError, "division by zero");
    *out = base * (sf + (ef - sf) * fmin(ti, (double)e) / ti);
    return 0;
}

/* ConstantLR */
static int constant_rule(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double factor;
    if (attr_double(self, "factor", &factor)) return -1;
    if (e == 0) *out = lr * factor;
    else if (factor == 0) return repl_raise_exc(EXC_ZeroDivisionError, "float division by zero");
    else *out = lr * (1.0 / factor);
    return 0;
}

static nn_object *constant_get_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t e;
    double ti;
    nn_object *self = SELF(args);
    if (repl_mod_check_self("get_lr", args) || attr_int(self, "last_epoch", &e) || attr_double(self, "total_iters", &ti))
        return NULL;
    return apply_rule(self, constant_rule, e != 0 && (double)e != ti);
}

static int constant_closed(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double factor, ti;
    if (attr_double(self, "factor", &factor) || attr_double(self, "total_iters", &ti)) return -1;
    *out = base * (factor + ((double)e >= ti) * (1 - factor));
    return 0;
}

/* PolynomialLR */
static int poly_rule(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double ti, power;
    if (attr_double(self, "total_iters", &ti) || attr_double(self, "power", &power)) return -1;
    if (ti == 0) return repl_raise_exc(EXC_ZeroDivisionError, "division by zero");
    *out = lr * pow((1.0 - (double)e / ti) / (1.0 - (double)(e - 1) / ti), power);
    return 0;
}

static nn_object *poly_get_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t e;
    double ti;
    nn_object *self = SELF(args);
    if (repl_mod_check_self("get_lr", args) || attr_int(self, "last_epoch", &e) || attr_double(self, "total_iters", &ti))
        return NULL;
    return apply_rule(self, poly_rule, e == 0 || (double)e > ti);
}

static int poly_closed(nn_object *self, int64_t e, double lr, double base, size_t g, double *out)
{
    double ti, power;
    if (attr_double(self, "total_iters", &ti) || attr_double(self, "power", &power)) return -1;
    if (ti == 0) return repl_raise_exc(EXC_ZeroDivisionError, "division by zero");
    *out = base * pow(1.0 - fmin(ti, (double)e) / ti, power);
    return 0;
}

/* _get_closed_form_lr methods, one per rule */
#define CLOSED(name, rule)                                                                  \
    static nn_object *name(void *ud, nn_object *args, nn_object *kwargs)                   \
    {                                                                                       \
        if (repl_mod_check_self("_get_closed_form_lr", args)) return NULL;                           \
        return apply_rule(SELF(args), rule, false);                                         \
    }
CLOSED(steplr_closed_m, steplr_closed)
CLOSED(multistep_closed_m, multistep_closed)
CLOSED(exponential_closed_m, exponential_closed)
CLOSED(cosine_closed_m, cosine_closed)
CLOSED(linear_closed_m, linear_closed)
CLOSED(constant_closed_m, constant_closed)
CLOSED(poly_closed_m, poly_closed)

/* ------------------------------------------------------------ OneCycleLR */

static double anneal(bool cos_strategy, double start, double end, double pct)
{
    if (cos_strategy) {
        double cos_out = cos(M_PI * pct) + 1;
        return end + (start - end) / 2.0 * cos_out;
    }
    return (end - start) * pct + start;
}

/* the strategy of self.anneal_func: true for cos */
static int anneal_is_cos(nn_object *self, bool *cos_strategy)
{
    nn_object *f = repl_mod_attr(self, "anneal_func");
    if (!f) return -1;
    nn_object *fn = f->type == &repl_method_type ? ((method_obj *)f)->func : f;
    nn_object *name = repl_get_attr(fn, "__name__");
    if (!name) return -1;
    *cos_strategy = nn_is_str(name) && !strcmp(nn_str_cstr(name), "_annealing_cos");
    NN_RELEASE(name);
    return 0;
}

/* group[key] = (v, *group[key][1:]) for the betas tuple */
static int set_beta1(nn_object *group, double v)
{
    nn_object *old = nn_dict_get_str(group, "betas");
    size_t n = old && (nn_is_instance(old, &nn_tuple_type) || nn_is_list(old))
                   ? (nn_is_list(old) ? nn_list_len(old) : nn_tuple_len(old))
                   : 0;
    if (!n) return repl_raise_exc(EXC_KeyError, "'betas'");
    nn_object *t = nn_tuple_new(n);
    if (!t) return -1;
    nn_tuple_set(t, 0, nn_float_new(v));
    for (size_t i = 1; i < n; i++) nn_tuple_set(t, i, nn_retain(nn_is_list(old) ? nn_list_get(old, i) : nn_tuple_get(old, i)));
    int rc = nn_tuple_get(t, 0) ? nn_dict_set_str(group, "betas", t) : -1;
    NN_RELEASE(t);
    return rc;
}

static nn_object *onecycle_get_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *self = SELF(args);
    int64_t step, total;
    bool cos_strategy = true, cycle = false, beta1 = false;
    if (repl_mod_check_self("get_lr", args) || repl_sched_warn_get_lr(self) || attr_int(self, "last_epoch", &step) ||
        attr_int(self, "total_steps", &total) ||
        anneal_is_cos(self, &cos_strategy))
        return NULL;
    nn_object *c = repl_mod_attr(self, "cycle_momentum");
    if (!c) return NULL;
    cycle = repl_truth(c) == 1;
    if (cycle) {
        nn_object *b = repl_mod_attr(self, "use_beta1");
        if (!b) return NULL;
        beta1 = repl_truth(b) == 1;
    }
    if (step > total) {
        repl_raise_exc(EXC_ValueError, "Tried to step %lld times. The specified number of total steps is %lld",
                       (long long)step + 1, (long long)total);
        return NULL;
    }
    nn_object *phases = repl_mod_attr(self, "_schedule_phases");
    if (!phases) return NULL;
    if (!nn_is_list(phases) || !nn_list_len(phases)) {
        repl_raise_exc(EXC_ValueError, "OneCycleLR: _schedule_phases must be a non-empty list");
        return NULL;
    }
    nn_object *groups = groups_of(self);
    if (!groups) return NULL;
    size_t n = nn_list_len(groups), np = nn_list_len(phases);
    double *vals = nn_malloc((n ? n : 1) * sizeof *vals);
    int rc = vals ? 0 : -1;
    for (size_t gi = 0; !rc && gi < n; gi++) {
        nn_object *g = nn_list_get(groups, gi);
        double start_step = 0, lr = 0, mom = 0;
        for (size_t i = 0; !rc && i < np; i++) {
            nn_object *ph = nn_list_get(phases, i);
            double end_step;
            if ((rc = group_double(ph, "end_step", &end_step))) break;
            if ((double)step <= end_step || i == np - 1) {
                double pct = ((double)step - start_step) / (end_step - start_step), a, b;
                nn_object *k1 = nn_dict_get_str(ph, "start_lr"), *k2 = nn_dict_get_str(ph, "end_lr");
                if (!k1 || !k2 || !nn_is_str(k1) || !nn_is_str(k2)) {
                    rc = repl_raise_exc(EXC_KeyError, "'start_lr'");
                    break;
                }
                if ((rc = group_double(g, nn_str_cstr(k1), &a)) || (rc = group_double(g, nn_str_cstr(k2), &b))) break;
                lr = anneal(cos_strategy, a, b, pct);
                if (cycle) {
                    k1 = nn_dict_get_str(ph, "start_momentum");
                    k2 = nn_dict_get_str(ph, "end_momentum");
                    if (!k1 || !k2 || !nn_is_str(k1) || !nn_is_str(k2)) {
                        rc = repl_raise_exc(EXC_KeyError, "'start_momentum'");
                        break;
                    }
                    if ((rc = group_double(g, nn_str_cstr(k1), &a)) || (rc = group_double(g, nn_str_cstr(k2), &b)))
                        break;
                    mom = anneal(cos_strategy, a, b, pct);
                }
                break;
            }
            start_step = end_step;
        }
        vals[gi] = lr;
        if (!rc && cycle) rc = beta1 ? set_beta1(g, mom) : group_set_double(g, "momentum", mom);
    }
    nn_object *r = rc ? NULL : float_list(vals, n);
    nn_free(vals);
    NN_RELEASE(groups);
    return r;
}

/* ------------------------------------------------------------ _LRScheduler */

static void print_lr(bool verbose, size_t group, double lr, nn_object *epoch)
{
    if (!verbose) return;
    char buf[160];
    if (!epoch || nn_is_none(epoch)) snprintf(buf, sizeof buf, "Adjusting learning rate of group %zu to %.4e.\n", group, lr);
    else if (nn_is_float(epoch))
        snprintf(buf, sizeof buf, "Epoch %.2f: adjusting learning rate of group %zu to %.4e.\n", nn_float_value(epoch), group, lr);
    else
        snprintf(buf, sizeof buf, "Epoch %.5lld: adjusting learning rate of group %zu to %.4e.\n",
                 (long long)nn_int_value(epoch), group, lr);
    repl_interp_write(buf, strlen(buf));
}

static int attr_truth(nn_object *self, const char *name, bool *out)
{
    nn_object *v = repl_mod_attr(self, name);
    int t = v ? repl_truth(v) : -1;
    if (t < 0) return -1;
    *out = t;
    return 0;
}

/* scheduler.step(epoch=None) */
static nn_object *sched_step(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("step", args) || repl_parse_args_from("step", "epoch=", args, 1, kwargs, a)) return NULL;
    int64_t count, e;
    if (attr_int(self, "_step_count", &count)) return NULL;
    nn_object *opt = count == 1 ? repl_mod_attr(self, "optimizer") : NULL;
    if (opt && repl_sched_warn_order(opt)) return NULL;
    if (repl_mod_set(self, "_step_count", nn_int_new(count + 1))) return NULL;
    nn_object *epoch = a[0] && !nn_is_none(a[0]) ? a[0] : NULL;
    if (repl_mod_set(self, "_get_lr_called_within_step", nn_bool_new(true))) return NULL;
    nn_object *values = NULL;
    if (!epoch) {
        if (!attr_int(self, "last_epoch", &e) && !repl_mod_set(self, "last_epoch", nn_int_new(e + 1)))
            values = repl_call_method(self, "get_lr", NULL, 0);
    } else if (!repl_sched_warn_epoch() && !repl_set_attr(self, "last_epoch", epoch)) {
        nn_object *closed = repl_class_lookup(((instance_obj *)self)->cls, "_get_closed_form_lr");
        values = repl_call_method(self, closed ? "_get_closed_form_lr" : "get_lr", NULL, 0);
    }
    /* reset even when get_lr failed, as PyTorch's context manager does */
    nn_object *exc = values ? NULL : repl_take_exception();
    if (repl_mod_set(self, "_get_lr_called_within_step", nn_bool_new(false))) {
        NN_RELEASE(exc);
        NN_RELEASE(values);
        return NULL;
    }
    if (!values) {
        if (exc) repl_raise_object(exc);
        NN_RELEASE(exc);
        return NULL;
    }
    nn_object *groups = groups_of(self), *vals = groups ? repl_to_list(values) : NULL;
    NN_RELEASE(values);
    bool verbose = false;
    int rc = vals && !attr_truth(self, "verbose", &verbose) ? 0 : -1;
    for (size_t i = 0; !rc && i < nn_list_len(groups) && i < nn_list_len(vals); i++) {
        nn_object *g = nn_list_get(groups, i), *lr = nn_list_get(vals, i);
        rc = nn_is_dict(g) ? nn_dict_set_str(g, "lr", lr) : repl_raise_exc(EXC_TypeError, "param group must be a dict");
        if (!rc && verbose && (nn_is_float(lr) || nn_is_int(lr))) print_lr(true, i, nn_float_value(lr), epoch);
    }
    if (!rc) rc = repl_mod_set(self, "_last_lr", current_lrs(groups));
    NN_RELEASE(groups);
    NN_RELEASE(vals);
    return rc ? NULL : nn_retain(nn_none());
}

/* _LRScheduler.__init__'s work after a subclass set its own attributes. */
static int base_init(nn_object *self, nn_object *optimizer, nn_object *last_epoch, nn_object *verbose)
{
    if (!repl_optim_is_optimizer(optimizer))
        return repl_raise_exc(EXC_TypeError, "%s is not an Optimizer", repl_value_type_name(optimizer));
    int64_t le = -1;
    if (last_epoch && repl_arg_int("_LRScheduler", "last_epoch", 0, last_epoch, &le)) return -1;
    if (repl_set_attr(self, "optimizer", optimizer)) return -1;
    nn_object *groups = groups_of(self);
    if (!groups) return -1;
    nn_object *bases = nn_list_new(0);
    int rc = bases ? 0 : -1;
    for (size_t i = 0; !rc && i < nn_list_len(groups); i++) {
        nn_object *g = nn_list_get(groups, i), *init = nn_is_dict(g) ? nn_dict_get_str(g, "initial_lr") : NULL;
        if (!nn_is_dict(g)) rc = repl_raise_exc(EXC_TypeError, "param group must be a dict");
        else if (!init && le != -1)
            rc = repl_raise_exc(EXC_KeyError,
                                "param 'initial_lr' is not specified in param_groups[%zu] when resuming an optimizer", i);
        else if (!init) {
            nn_object *lr = nn_dict_get_str(g, "lr");
            rc = lr ? nn_dict_set_str(g, "initial_lr", lr) : repl_raise_exc(EXC_KeyError, "'lr'");
            init = lr;
        }
        if (!rc) rc = nn_list_append(bases, init);
    }
    NN_RELEASE(groups);
    if (rc) {
        NN_RELEASE(bases);
        return -1;
    }
    if (repl_mod_set(self, "base_lrs", bases) || repl_mod_set(self, "last_epoch", nn_int_new(le)) ||
        repl_mod_set(self, "verbose", nn_bool_new(verbose && repl_truth(verbose) == 1)) ||
        repl_mod_set(self, "_step_count", nn_int_new(0)))
        return -1;
    repl_sched_zero_steps(optimizer);
    nn_object *r = repl_call_method(self, "step", NULL, 0);
    NN_RELEASE(r);
    return r ? 0 : -1;
}

static nn_object *none_or_fail(int rc) { return rc ? NULL : nn_retain(nn_none()); }

static nn_object *base_init_m(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("_LRScheduler.__init__", "optimizer, last_epoch=, verbose=", args, 1, kwargs, a))
        return NULL;
    return none_or_fail(base_init(SELF(args), a[0], a[1], a[2]));
}

/* Sets self.name to the given object, or to a new float def when absent. */
static int set_or_default(nn_object *self, const char *name, nn_object *given, double def)
{
    return given ? repl_set_attr(self, name, given) : repl_mod_set(self, name, nn_float_new(def));
}

static int set_or_int(nn_object *self, const char *name, nn_object *given, int64_t def)
{
    return given ? repl_set_attr(self, name, given) : repl_mod_set(self, name, nn_int_new(def));
}

static nn_object *steplr_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("StepLR.__init__", "optimizer, step_size, gamma=, last_epoch=, verbose=", args, 1, kwargs, a))
        return NULL;
    return none_or_fail(repl_set_attr(self, "step_size", a[1]) || set_or_default(self, "gamma", a[2], 0.1) ||
                        base_init(self, a[0], a[3], a[4]));
}

static nn_object *multistep_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("MultiStepLR.__init__", "optimizer, milestones, gamma=, last_epoch=, verbose=", args, 1,
                             kwargs, a))
        return NULL;
    /* self.milestones = Counter(milestones) */
    nn_object *coll = repl_import_by_name("collections"), *counter = coll ? repl_get_attr(coll, "Counter") : NULL;
    nn_object *counts = counter ? repl_call_object(counter, &a[1], 1, NULL) : NULL;
    NN_RELEASE(coll);
    NN_RELEASE(counter);
    int rc = counts ? repl_set_attr(self, "milestones", counts) : -1;
    NN_RELEASE(counts);
    return none_or_fail(rc || set_or_default(self, "gamma", a[2], 0.1) || base_init(self, a[0], a[3], a[4]));
}

static nn_object *exponential_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("ExponentialLR.__init__", "optimizer, gamma, last_epoch=, verbose=", args, 1, kwargs, a))
        return NULL;
    return none_or_fail(repl_set_attr(self, "gamma", a[1]) || base_init(self, a[0], a[2], a[3]));
}

static nn_object *cosine_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("CosineAnnealingLR.__init__", "optimizer, T_max, eta_min=, last_epoch=, verbose=", args, 1,
                             kwargs, a))
        return NULL;
    return none_or_fail(repl_set_attr(self, "T_max", a[1]) || set_or_int(self, "eta_min", a[2], 0) ||
                        base_init(self, a[0], a[3], a[4]));
}

/* LambdaLR / MultiplicativeLR: self.lr_lambdas from one function or a list of one per group */
static int lambdas_init(nn_object *self, nn_object *optimizer, nn_object *fn)
{
    if (!repl_optim_is_optimizer(optimizer))
        return repl_raise_exc(EXC_TypeError, "%s is not an Optimizer", repl_value_type_name(optimizer));
    if (repl_set_attr(self, "optimizer", optimizer)) return -1;
    nn_object *groups = groups_of(self);
    if (!groups) return -1;
    size_t ng = nn_list_len(groups);
    NN_RELEASE(groups);
    nn_object *l;
    if (nn_is_list(fn) || nn_is_instance(fn, &nn_tuple_type)) {
        size_t n = nn_is_list(fn) ? nn_list_len(fn) : nn_tuple_len(fn);
        if (n != ng) return repl_raise_exc(EXC_ValueError, "Expected %zu lr_lambdas, but got %zu", ng, n);
        l = repl_to_list(fn);
    } else {
        l = nn_list_new(0);
        for (size_t i = 0; l && i < ng; i++)
            if (nn_list_append(l, fn)) NN_SET(l, NULL);
    }
    return repl_mod_set(self, "lr_lambdas", l);
}

static nn_object *lambda_like_init(const char *fname, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from(fname, "optimizer, lr_lambda, last_epoch=, verbose=", args, 1, kwargs, a))
        return NULL;
    return none_or_fail(lambdas_init(self, a[0], a[1]) || base_init(self, a[0], a[2], a[3]));
}

static nn_object *lambda_init(void *ud, nn_object *args, nn_object *kwargs)
{
    return lambda_like_init("LambdaLR.__init__", args, kwargs);
}

static nn_object *multiplicative_init(void *ud, nn_object *args, nn_object *kwargs)
{
    return lambda_like_init("MultiplicativeLR.__init__", args, kwargs);
}

static int check_factor(nn_object *o, double def, const char *msg)
{
    double f = def;
    if (o && repl_mod_real(o, &f)) return -1;
    if (f > 1.0 || f < 0) return repl_raise_exc(EXC_ValueError, "%s", msg);
    return 0;
}

static nn_object *linear_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("LinearLR.__init__", "optimizer, start_factor=, end_factor=, total_iters=, last_epoch=, verbose=",
                             args, 1, kwargs, a) ||
        check_factor(a[1], 1.0 / 3, "Starting multiplicative factor expected to be between 0 and 1.") ||
        check_factor(a[2], 1.0, "Ending multiplicative factor expected to be between 0 and 1."))
        return NULL;
    return none_or_fail(set_or_default(self, "start_factor", a[1], 1.0 / 3) ||
                        set_or_default(self, "end_factor", a[2], 1.0) || set_or_int(self, "total_iters", a[3], 5) ||
                        base_init(self, a[0], a[4], a[5]));
}

static nn_object *constant_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("ConstantLR.__init__", "optimizer, factor=, total_iters=, last_epoch=, verbose=", args, 1,
                             kwargs, a) ||
        check_factor(a[1], 1.0 / 3, "Constant multiplicative factor expected to be between 0 and 1."))
        return NULL;
    return none_or_fail(set_or_default(self, "factor", a[1], 1.0 / 3) || set_or_int(self, "total_iters", a[2], 5) ||
                        base_init(self, a[0], a[3], a[4]));
}

static nn_object *poly_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("PolynomialLR.__init__", "optimizer, total_iters=, power=, last_epoch=, verbose=", args, 1,
                             kwargs, a))
        return NULL;
    return none_or_fail(set_or_int(self, "total_iters", a[1], 5) || set_or_default(self, "power", a[2], 1.0) ||
                        base_init(self, a[0], a[3], a[4]));
}

/* OneCycleLR's per-group value of name: param itself repeated, or its items (one per group). New list. */
static nn_object *format_param(const char *name, size_t ng, nn_object *param)
{
    if (nn_is_list(param) || nn_is_instance(param, &nn_tuple_type)) {
        size_t n = nn_is_list(param) ? nn_list_len(param) : nn_tuple_len(param);
        if (n != ng) {
            repl_raise_exc(EXC_ValueError, "expected %zu values for %s, got %zu", ng, name, n);
            return NULL;
        }
        return repl_to_list(param);
    }
    nn_object *l = nn_list_new(0);
    for (size_t i = 0; l && i < ng; i++)
        if (nn_list_append(l, param)) NN_SET(l, NULL);
    return l;
}

static nn_object *phase(double end_step, bool int_end, const char *slr, const char *elr, const char *smom, const char *emom)
{
    nn_object *d = nn_dict_new();
    if (!d) return NULL;
    nn_object *vals[5] = {int_end ? nn_int_new((int64_t)end_step) : nn_float_new(end_step), nn_str_new(slr),
                          nn_str_new(elr), nn_str_new(smom), nn_str_new(emom)};
    static const char *const keys[5] = {"end_step", "start_lr", "end_lr", "start_momentum", "end_momentum"};
    int rc = 0;
    for (int i = 0; i < 5; i++) {
        if (!rc) rc = vals[i] ? nn_dict_set_str(d, keys[i], vals[i]) : -1;
        NN_RELEASE(vals[i]);
    }
    if (rc) NN_SET(d, NULL);
    return d;
}

static int positive_int(nn_object *o, const char *what, int64_t *out)
{
    if (!nn_is_int(o) || nn_is_bool(o) || nn_int_value(o) <= 0) {
        char *r = repl_obj_repr(o);
        repl_raise_exc(EXC_ValueError, "Expected positive integer %s, but got %s", what, r ? r : "?");
        nn_free(r);
        return -1;
    }
    *out = nn_int_value(o);
    return 0;
}

static nn_object *onecycle_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(15);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("OneCycleLR.__init__",
                             "optimizer, max_lr, total_steps=, epochs=, steps_per_epoch=, pct_start=, anneal_strategy=, "
                             "cycle_momentum=, base_momentum=, max_momentum=, div_factor=, final_div_factor=, "
                             "three_phase=, last_epoch=, verbose=",
                             args, 1, kwargs, a))
        return NULL;
    nn_object *opt = a[0];
    if (!repl_optim_is_optimizer(opt)) {
        repl_raise_exc(EXC_TypeError, "%s is not an Optimizer", repl_value_type_name(opt));
        return NULL;
    }
    if (repl_set_attr(self, "optimizer", opt)) return NULL;
#define GIVEN(i) (a[i] && !nn_is_none(a[i]))
    int64_t total = 0, epochs = 0, spe = 0;
    if (!GIVEN(2) && !GIVEN(3) && !GIVEN(4)) {
        repl_raise_exc(EXC_ValueError, "You must define either total_steps OR (epochs AND steps_per_epoch)");
        return NULL;
    } else if (GIVEN(2)) {
        if (positive_int(a[2], "total_steps", &total)) return NULL;
    } else {
        if (!GIVEN(3) || positive_int(a[3], "epochs", &epochs)) {
            if (!GIVEN(3)) repl_raise_exc(EXC_TypeError, "'<=' not supported between instances of 'NoneType' and 'int'");
            return NULL;
        }
        if (!GIVEN(4) || positive_int(a[4], "steps_per_epoch", &spe)) {
            if (!GIVEN(4)) repl_raise_exc(EXC_TypeError, "'<=' not supported between instances of 'NoneType' and 'int'");
            return NULL;
        }
        total = epochs * spe;
    }
    if (repl_mod_set(self, "total_steps", nn_int_new(total))) return NULL;
    double pct = 0.3, div = 25., fdiv = 1e4, basem = 0.85, maxm = 0.95;
    bool three = false, cycle = true;
    if (GIVEN(5) && (!nn_is_float(a[5]) || repl_mod_real(a[5], &pct) || pct < 0 || pct > 1)) {
        nn_error_clear();
        char *r = repl_obj_repr(a[5]);
        repl_raise_exc(EXC_ValueError, "Expected float between 0 and 1 pct_start, but got %s", r ? r : "?");
        nn_free(r);
        return NULL;
    }
    if ((GIVEN(12) && repl_arg_bool("OneCycleLR", "three_phase", 0, a[12], &three)) ||
        (GIVEN(7) && repl_arg_bool("OneCycleLR", "cycle_momentum", 0, a[7], &cycle)) ||
        (GIVEN(10) && repl_mod_real(a[10], &div)) || (GIVEN(11) && repl_mod_real(a[11], &fdiv)))
        return NULL;
    nn_object *ph = nn_list_new(0);
    nn_object *p1 = phase(pct * (double)total - 1, false, "initial_lr", "max_lr", "max_momentum", "base_momentum");
    nn_object *p2 = three ? phase(2 * pct * (double)total - 2, false, "max_lr", "initial_lr", "base_momentum", "max_momentum")
                          : phase((double)(total - 1), true, "max_lr", "min_lr", "base_momentum", "max_momentum");
    nn_object *p3 = three ? phase((double)(total - 1), true, "initial_lr", "min_lr", "max_momentum", "max_momentum") : NULL;
    int rc = ph && p1 && p2 && (p3 || !three) ? 0 : -1;
    if (!rc) rc = nn_list_append(ph, p1);
    if (!rc) rc = nn_list_append(ph, p2);
    if (!rc && p3) rc = nn_list_append(ph, p3);
    NN_RELEASE(p1);
    NN_RELEASE(p2);
    NN_RELEASE(p3);
    if (rc || repl_mod_set(self, "_schedule_phases", ph)) {
        if (rc) NN_RELEASE(ph);
        return NULL;
    }
    const char *strategy = "cos";
    if (GIVEN(6) && repl_arg_str("OneCycleLR", "anneal_strategy", 0, a[6], &strategy)) return NULL;
    if (strcmp(strategy, "cos") && strcmp(strategy, "linear")) {
        repl_raise_exc(EXC_ValueError, "anneal_strategy must by one of 'cos' or 'linear', instead got %s", strategy);
        return NULL;
    }
    /* self.anneal_func = self._annealing_cos: a bound method (the cycle collector frees the cycle) */
    nn_object *f = repl_get_attr(self, strcmp(strategy, "cos") ? "_annealing_linear" : "_annealing_cos");
    int set = f ? repl_set_attr(self, "anneal_func", f) : -1;
    NN_RELEASE(f);
    if (set) return NULL;
    int64_t le = -1;
    if (GIVEN(13) && repl_arg_int("OneCycleLR", "last_epoch", 0, a[13], &le)) return NULL;
    nn_object *groups = groups_of(self);
    if (!groups) return NULL;
    size_t ng = nn_list_len(groups);
    nn_object *maxlr_obj = a[1];
    nn_object *max_lrs = format_param("max_lr", ng, maxlr_obj);
    rc = max_lrs ? 0 : -1;
    for (size_t i = 0; !rc && le == -1 && i < ng; i++) {
        nn_object *g = nn_list_get(groups, i);
        double m;
        if (!nn_is_dict(g)) rc = repl_raise_exc(EXC_TypeError, "param group must be a dict");
        if (!rc) rc = repl_mod_real(nn_list_get(max_lrs, i), &m);
        if (!rc) rc = group_set_double(g, "initial_lr", m / div);
        if (!rc) rc = nn_dict_set_str(g, "max_lr", nn_list_get(max_lrs, i));
        if (!rc) rc = group_set_double(g, "min_lr", m / div / fdiv);
    }
    NN_RELEASE(max_lrs);
    if (!rc && repl_mod_set(self, "cycle_momentum", nn_bool_new(cycle))) rc = -1;
    if (!rc && cycle) {
        nn_object *defaults = repl_get_attr(opt, "defaults");
        bool has_m = defaults && nn_is_dict(defaults) && nn_dict_get_str(defaults, "momentum");
        bool has_b = defaults && nn_is_dict(defaults) && nn_dict_get_str(defaults, "betas");
        NN_RELEASE(defaults);
        if (!defaults) rc = -1;
        else if (!has_m && !has_b) rc = repl_raise_exc(EXC_ValueError, "optimizer must support momentum with `cycle_momentum` option enabled");
        if (!rc) rc = repl_mod_set(self, "use_beta1", nn_bool_new(has_b));
        nn_object *maxo = GIVEN(9) ? nn_retain(a[9]) : nn_float_new(maxm), *baseo = GIVEN(8) ? nn_retain(a[8]) : nn_float_new(basem);
        nn_object *maxs = !rc && maxo ? format_param("max_momentum", ng, maxo) : NULL;
        nn_object *bases = maxs && baseo ? format_param("base_momentum", ng, baseo) : NULL;
        if (!rc && !bases) rc = -1;
        for (size_t i = 0; !rc && le == -1 && i < ng; i++) {
            nn_object *g = nn_list_get(groups, i);
            double m;
            if (has_b) rc = repl_mod_real(nn_list_get(maxs, i), &m) ? -1 : set_beta1(g, m);
            else rc = nn_dict_set_str(g, "momentum", nn_list_get(maxs, i));
            if (!rc) rc = nn_dict_set_str(g, "max_momentum", nn_list_get(maxs, i));
            if (!rc) rc = nn_dict_set_str(g, "base_momentum", nn_list_get(bases, i));
        }
        NN_RELEASE(maxo);
        NN_RELEASE(baseo);
        NN_RELEASE(maxs);
        NN_RELEASE(bases);
    }
    NN_RELEASE(groups);
#undef GIVEN
    return none_or_fail(rc || base_init(self, opt, a[13], a[14]));
}

/* ------------------------------------------------------------ shared methods */

static nn_object *sched_get_last_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("get_last_lr", args) || repl_mod_nargs("get_last_lr", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *v = repl_mod_attr(SELF(args), "_last_lr");
    return v ? nn_retain(v) : NULL;
}

static nn_object *sched_get_lr(void *ud, nn_object *args, nn_object *kwargs)
{
    repl_raise_exc(EXC_NotImplementedError, "%s", "");
    return NULL;
}

/* {key: value for key, value in self.__dict__.items() if key not in skip} */
static nn_object *attrs_dict(nn_object *self, const char *skip1, const char *skip2)
{
    instance_obj *in = (instance_obj *)self;
    const char **keys = repl_nmap_keys_ordered(&in->attrs);
    if (!keys && nn_error_current()) return NULL;
    nn_object *d = nn_dict_new();
    for (uint32_t i = 0; d && i < in->attrs.len; i++) {
        if (!strcmp(keys[i], skip1) || (skip2 && !strcmp(keys[i], skip2))) continue;
        if (nn_dict_set_str(d, keys[i], repl_nmap_get(&in->attrs, keys[i]))) NN_SET(d, NULL);
    }
    nn_free(keys);
    return d;
}

static nn_object *sched_state_dict(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("state_dict", args) || repl_mod_nargs("state_dict", args, kwargs, 1, 1) < 0) return NULL;
    return attrs_dict(SELF(args), "optimizer", NULL);
}

/* self.__dict__.update(sd), leaving skip out. */
static int update_attrs(nn_object *self, nn_object *sd, const char *skip)
{
    if (!nn_is_dict(sd)) return repl_raise_exc(EXC_TypeError, "state_dict must be a dict, not %s", repl_value_type_name(sd));
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(sd, &pos, &k, &v)) {
        if (!nn_is_str(k)) return repl_raise_exc(EXC_TypeError, "attribute name must be string, not '%s'", repl_value_type_name(k));
        if (skip && !strcmp(nn_str_cstr(k), skip)) continue;
        if (repl_set_attr(self, nn_str_cstr(k), v)) return -1;
    }
    return 0;
}

static nn_object *sched_load_state_dict(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("load_state_dict", args) || repl_mod_nargs("load_state_dict", args, kwargs, 2, 2) < 0) return NULL;
    return none_or_fail(update_attrs(SELF(args), nn_tuple_get(args, 1), NULL));
}

/* LambdaLR's: the lambdas are None, or a copy of a callable object's attributes */
static nn_object *lambda_state_dict(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("state_dict", args) || repl_mod_nargs("state_dict", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *self = SELF(args), *fns = repl_mod_attr(self, "lr_lambdas");
    if (!fns) return NULL;
    nn_object *d = attrs_dict(self, "optimizer", "lr_lambdas"), *l = d ? nn_list_new(0) : NULL;
    nn_object *items = l ? repl_to_list(fns) : NULL;
    int rc = items ? 0 : -1;
    for (size_t i = 0; !rc && i < nn_list_len(items); i++) {
        nn_object *fn = nn_list_get(items, i);
        nn_object *v = is_inst(fn) ? attrs_dict(fn, "", NULL) : nn_retain(nn_none());
        rc = v ? nn_list_append(l, v) : -1;
        NN_RELEASE(v);
    }
    if (!rc) rc = nn_dict_set_str(d, "lr_lambdas", l);
    NN_RELEASE(items);
    NN_RELEASE(l);
    if (rc) NN_SET(d, NULL);
    return d;
}

static nn_object *lambda_load_state_dict(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("load_state_dict", args) || repl_mod_nargs("load_state_dict", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *self = SELF(args), *sd = nn_tuple_get(args, 1);
    if (!nn_is_dict(sd)) return none_or_fail(update_attrs(self, sd, NULL));
    nn_object *saved = nn_dict_get_str(sd, "lr_lambdas");
    if (!saved) {
        repl_raise_exc(EXC_KeyError, "'lr_lambdas'");
        return NULL;
    }
    if (update_attrs(self, sd, "lr_lambdas")) return NULL;
    nn_object *fns = repl_mod_attr(self, "lr_lambdas"), *items = fns ? repl_to_list(saved) : NULL;
    int rc = items ? 0 : -1;
    for (size_t i = 0; !rc && i < nn_list_len(items); i++) {
        nn_object *st = nn_list_get(items, i);
        if (nn_is_none(st)) continue;
        nn_object *idx = nn_int_new((int64_t)i), *fn = idx ? repl_get_item(fns, idx) : NULL;
        NN_RELEASE(idx);
        rc = fn ? update_attrs(fn, st, NULL) : -1;
        NN_RELEASE(fn);
    }
    NN_RELEASE(items);
    return none_or_fail(rc);
}

/* ------------------------------------------------------------ ReduceLROnPlateau */

static int attr_str(nn_object *self, const char *name, const char **out)
{
    nn_object *v = repl_mod_attr(self, name);
    if (!v) return -1;
    if (!nn_is_str(v)) return repl_raise_exc(EXC_TypeError, "%s must be a str", name);
    *out = nn_str_cstr(v);
    return 0;
}

/* _init_is_better(mode, threshold, threshold_mode) */
static int plateau_init_is_better(nn_object *self, nn_object *mode, nn_object *threshold, nn_object *tmode)
{
    const char *m, *t;
    if (repl_arg_str("ReduceLROnPlateau", "mode", 0, mode, &m) ||
        repl_arg_str("ReduceLROnPlateau", "threshold_mode", 0, tmode, &t))
        return -1;
    if (strcmp(m, "min") && strcmp(m, "max")) return repl_raise_exc(EXC_ValueError, "mode %s is unknown!", m);
    if (strcmp(t, "rel") && strcmp(t, "abs")) return repl_raise_exc(EXC_ValueError, "threshold mode %s is unknown!", t);
    nn_retain(mode);
    nn_retain(threshold);
    nn_retain(tmode);
    int rc = repl_mod_set(self, "mode_worse", nn_float_new(strcmp(m, "min") ? -INFINITY : INFINITY)) ||
             repl_set_attr(self, "mode", mode) || repl_set_attr(self, "threshold", threshold) ||
             repl_set_attr(self, "threshold_mode", tmode);
    NN_RELEASE(mode);
    NN_RELEASE(threshold);
    NN_RELEASE(tmode);
    return rc ? -1 : 0;
}

static nn_object *plateau_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(10);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("ReduceLROnPlateau.__init__",
                             "optimizer, mode=, factor=, patience=, threshold=, threshold_mode=, cooldown=, min_lr=, "
                             "eps=, verbose=",
                             args, 1, kwargs, a))
        return NULL;
    double factor = 0.1;
    if (a[2] && repl_mod_real(a[2], &factor)) return NULL;
    if (factor >= 1.0) {
        repl_raise_exc(EXC_ValueError, "Factor should be < 1.0.");
        return NULL;
    }
    if (set_or_default(self, "factor", a[2], 0.1)) return NULL;
    if (!repl_optim_is_optimizer(a[0])) {
        repl_raise_exc(EXC_TypeError, "%s is not an Optimizer", repl_value_type_name(a[0]));
        return NULL;
    }
    if (repl_set_attr(self, "optimizer", a[0])) return NULL;
    nn_object *groups = groups_of(self);
    if (!groups) return NULL;
    size_t ng = nn_list_len(groups);
    NN_RELEASE(groups);
    nn_object *min_lr = a[7] ? nn_retain(a[7]) : nn_int_new(0);
    nn_object *mins = min_lr ? format_param("min_lr", ng, min_lr) : NULL;
    NN_RELEASE(min_lr);
    if (!mins) {
        if (nn_error_current() == NN_ERR_VALUE) { /* PyTorch's wording for this one */
            nn_object *e = repl_take_exception();
            NN_RELEASE(e);
            repl_raise_exc(EXC_ValueError, "expected %zu min_lrs, got %zu", ng,
                           nn_is_list(a[7]) ? nn_list_len(a[7]) : nn_tuple_len(a[7]));
        }
        return NULL;
    }
    nn_object *mode = a[1] ? nn_retain(a[1]) : nn_str_new("min"), *tmode = a[5] ? nn_retain(a[5]) : nn_str_new("rel");
    nn_object *thr = a[4] ? nn_retain(a[4]) : nn_float_new(1e-4);
    int rc = mode && tmode && thr ? 0 : -1;
    if (!rc)
        rc = repl_mod_set(self, "min_lrs", nn_retain(mins)) || set_or_int(self, "patience", a[3], 10) ||
             repl_mod_set(self, "verbose", nn_bool_new(a[9] && repl_truth(a[9]) == 1)) ||
             set_or_int(self, "cooldown", a[6], 0) || repl_mod_set(self, "cooldown_counter", nn_int_new(0)) ||
             repl_set_attr(self, "mode", mode) || repl_set_attr(self, "threshold", thr) ||
             repl_set_attr(self, "threshold_mode", tmode) || repl_set_attr(self, "best", nn_none()) ||
             repl_set_attr(self, "num_bad_epochs", nn_none()) || repl_set_attr(self, "mode_worse", nn_none()) ||
             set_or_default(self, "eps", a[8], 1e-8) || repl_mod_set(self, "last_epoch", nn_int_new(0)) ||
             plateau_init_is_better(self, mode, thr, tmode);
    NN_RELEASE(mins);
    NN_RELEASE(mode);
    NN_RELEASE(tmode);
    NN_RELEASE(thr);
    if (rc) return NULL;
    /* _reset() */
    nn_object *worse = repl_mod_attr(self, "mode_worse");
    return none_or_fail(!worse || repl_set_attr(self, "best", worse) || repl_mod_set(self, "cooldown_counter", nn_int_new(0)) ||
                        repl_mod_set(self, "num_bad_epochs", nn_int_new(0)));
}

static int plateau_is_better(nn_object *self, double a, double best, bool *out)
{
    const char *mode = "", *tmode = "";
    double thr;
    if (attr_str(self, "mode", &mode) || attr_str(self, "threshold_mode", &tmode) || attr_double(self, "threshold", &thr))
        return -1;
    bool min = !strcmp(mode, "min"), rel = !strcmp(tmode, "rel");
    if (min && rel) *out = a < best * (1. - thr);
    else if (min) *out = a < best - thr;
    else if (rel) *out = a > best * (thr + 1.);
    else *out = a > best + thr;
    return 0;
}

static int plateau_reduce_lr(nn_object *self, nn_object *epoch)
{
    double factor, eps;
    bool verbose;
    nn_object *mins = repl_mod_attr(self, "min_lrs");
    if (!mins || attr_double(self, "factor", &factor) || attr_double(self, "eps", &eps) ||
        attr_truth(self, "verbose", &verbose))
        return -1;
    nn_object *groups = groups_of(self);
    if (!groups) return -1;
    int rc = 0;
    for (size_t i = 0; !rc && i < nn_list_len(groups); i++) {
        nn_object *g = nn_list_get(groups, i), *idx = nn_int_new((int64_t)i);
        nn_object *min_obj = idx ? repl_get_item(mins, idx) : NULL;
        NN_RELEASE(idx);
        double old_lr = 0, min_lr = 0;
        rc = min_obj ? 0 : -1;
        if (!rc) rc = group_double(g, "lr", &old_lr);
        if (!rc) rc = repl_mod_real(min_obj, &min_lr);
        double v = old_lr * factor;
        bool take_min = !rc && min_lr > v; /* max(a, b) is a unless b > a */
        double new_lr = take_min ? min_lr : v;
        if (!rc && old_lr - new_lr > eps) {
            nn_object *nv = take_min ? nn_retain(min_obj) : nn_float_new(new_lr);
            rc = nv ? nn_dict_set_str(g, "lr", nv) : -1;
            NN_RELEASE(nv);
            if (!rc && verbose) {
                char buf[160];
                if (nn_is_float(epoch))
                    snprintf(buf, sizeof buf, "Epoch %.2f: reducing learning rate of group %zu to %.4e.\n",
                             nn_float_value(epoch), i, new_lr);
                else
                    snprintf(buf, sizeof buf, "Epoch %.5lld: reducing learning rate of group %zu to %.4e.\n",
                             (long long)nn_int_value(epoch), i, new_lr);
                repl_interp_write(buf, strlen(buf));
            }
        }
        NN_RELEASE(min_obj);
    }
    NN_RELEASE(groups);
    return rc;
}

static nn_object *plateau_step(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("step", args) || repl_parse_args_from("ReduceLROnPlateau.step", "metrics, epoch=", args, 1, kwargs, a))
        return NULL;
    double current, best;
    int64_t le, nbe, cd, patience;
    if (repl_mod_real(a[0], &current)) return NULL;
    nn_object *epoch;
    if (a[1] && !nn_is_none(a[1])) epoch = nn_retain(a[1]);
    else epoch = attr_int(self, "last_epoch", &le) ? NULL : nn_int_new(le + 1);
    if (!epoch) return NULL;
    int rc = repl_set_attr(self, "last_epoch", epoch);
    bool better = false;
    if (!rc) rc = attr_double(self, "best", &best) || attr_int(self, "num_bad_epochs", &nbe) ||
                  plateau_is_better(self, current, best, &better);
    if (!rc && better) rc = repl_mod_set(self, "best", nn_float_new(current)) || repl_mod_set(self, "num_bad_epochs", nn_int_new(0));
    else if (!rc) rc = repl_mod_set(self, "num_bad_epochs", nn_int_new(nbe + 1));
    if (!rc) rc = attr_int(self, "cooldown_counter", &cd);
    if (!rc && cd > 0)
        rc = repl_mod_set(self, "cooldown_counter", nn_int_new(cd - 1)) || repl_mod_set(self, "num_bad_epochs", nn_int_new(0));
    if (!rc) rc = attr_int(self, "num_bad_epochs", &nbe) || attr_int(self, "patience", &patience);
    if (!rc && nbe > patience) {
        nn_object *cooldown = repl_mod_attr(self, "cooldown");
        rc = !cooldown || plateau_reduce_lr(self, epoch) || repl_set_attr(self, "cooldown_counter", cooldown) ||
             repl_mod_set(self, "num_bad_epochs", nn_int_new(0));
    }
    NN_RELEASE(epoch);
    if (!rc) {
        nn_object *groups = groups_of(self);
        rc = groups ? repl_mod_set(self, "_last_lr", current_lrs(groups)) : -1;
        NN_RELEASE(groups);
    }
    return none_or_fail(rc);
}

static nn_object *plateau_load_state_dict(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("load_state_dict", args) || repl_mod_nargs("load_state_dict", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *self = SELF(args);
    if (update_attrs(self, nn_tuple_get(args, 1), NULL)) return NULL;
    nn_object *m = repl_mod_attr(self, "mode"), *t = repl_mod_attr(self, "threshold"), *tm = repl_mod_attr(self, "threshold_mode");
    return none_or_fail(!m || !t || !tm || plateau_init_is_better(self, m, t, tm));
}

/* ------------------------------------------------------------ the module */

typedef struct sched_class {
    const char *name;
    int base; /* index in the table, -1 for object */
    repl_mod_fn methods[6];
} sched_class;

#define DOC_STEP "step(epoch=None)\nSets the learning rate of each parameter group for the next epoch."
#define DOC_GET_LR "get_lr()\nThe learning rates of the next step (the chainable form)."
#define DOC_CLOSED "_get_closed_form_lr()\nThe learning rates of epoch last_epoch (the closed form)."

static const sched_class classes[] = {
    {"_LRScheduler", -1,
     {{"__init__", base_init_m, "_LRScheduler(optimizer, last_epoch=-1, verbose=False)\nBase class of the learning-rate schedulers."},
      {"step", sched_step, DOC_STEP},
      {"get_last_lr", sched_get_last_lr, "get_last_lr()\nReturn last computed learning rate by current scheduler."},
      {"get_lr", sched_get_lr, DOC_GET_LR},
      {"state_dict", sched_state_dict, "state_dict()\nReturns the state of the scheduler as a dict."},
      {"load_state_dict", sched_load_state_dict, "load_state_dict(state_dict)\nLoads the schedulers state."}}},
    {"StepLR", 0,
     {{"__init__", steplr_init, "StepLR(optimizer, step_size, gamma=0.1, last_epoch=-1, verbose=False)\nDecays the learning rate of each parameter group by gamma every step_size epochs."},
      {"get_lr", steplr_get_lr, DOC_GET_LR},
      {"_get_closed_form_lr", steplr_closed_m, DOC_CLOSED}}},
    {"MultiStepLR", 0,
     {{"__init__", multistep_init, "MultiStepLR(optimizer, milestones, gamma=0.1, last_epoch=-1, verbose=False)\nDecays the learning rate of each parameter group by gamma once the number of epoch reaches one of the milestones."},
      {"get_lr", multistep_get_lr, DOC_GET_LR},
      {"_get_closed_form_lr", multistep_closed_m, DOC_CLOSED}}},
    {"ExponentialLR", 0,
     {{"__init__", exponential_init, "ExponentialLR(optimizer, gamma, last_epoch=-1, verbose=False)\nDecays the learning rate of each parameter group by gamma every epoch."},
      {"get_lr", exponential_get_lr, DOC_GET_LR},
      {"_get_closed_form_lr", exponential_closed_m, DOC_CLOSED}}},
    {"CosineAnnealingLR", 0,
     {{"__init__", cosine_init, "CosineAnnealingLR(optimizer, T_max, eta_min=0, last_epoch=-1, verbose=False)\nSet the learning rate of each parameter group using a cosine annealing schedule."},
      {"get_lr", cosine_get_lr, DOC_GET_LR},
      {"_get_closed_form_lr", cosine_closed_m, DOC_CLOSED}}},
    {"LambdaLR", 0,
     {{"__init__", lambda_init, "LambdaLR(optimizer, lr_lambda, last_epoch=-1, verbose=False)\nSets the learning rate of each parameter group to the initial lr times a given function."},
      {"get_lr", lambda_get_lr, DOC_GET_LR},
      {"state_dict", lambda_state_dict, "state_dict()\nReturns the state of the scheduler as a dict (lambdas that are functions as None)."},
      {"load_state_dict", lambda_load_state_dict, "load_state_dict(state_dict)\nLoads the schedulers state."}}},
    {"MultiplicativeLR", 0,
     {{"__init__", multiplicative_init, "MultiplicativeLR(optimizer, lr_lambda, last_epoch=-1, verbose=False)\nMultiply the learning rate of each parameter group by the factor given in the specified function."},
      {"get_lr", multiplicative_get_lr, DOC_GET_LR},
      {"state_dict", lambda_state_dict, "state_dict()\nReturns the state of the scheduler as a dict (lambdas that are functions as None)."},
      {"load_state_dict", lambda_load_state_dict, "load_state_dict(state_dict)\nLoads the schedulers state."}}},
    {"LinearLR", 0,
     {{"__init__", linear_init, "LinearLR(optimizer, start_factor=1.0/3, end_factor=1.0, total_iters=5, last_epoch=-1, verbose=False)\nDecays the learning rate of each parameter group by linearly changing small multiplicative factor."},
      {"get_lr", linear_get_lr, DOC_GET_LR},
      {"_get_closed_form_lr", linear_closed_m, DOC_CLOSED}}},
    {"ConstantLR", 0,
     {{"__init__", constant_init, "ConstantLR(optimizer, factor=1.0/3, total_iters=5, last_epoch=-1, verbose=False)\nDecays the learning rate of each parameter group by a small constant factor until total_iters."},
      {"get_lr", constant_get_lr, DOC_GET_LR},
      {"_get_closed_form_lr", constant_closed_m, DOC_CLOSED}}},
    {"PolynomialLR", 0,
     {{"__init__", poly_init, "PolynomialLR(optimizer, total_iters=5, power=1.0, last_epoch=-1, verbose=False)\nDecays the learning rate of each parameter group using a polynomial function in the given total_iters."},
      {"get_lr", poly_get_lr, DOC_GET_LR},
      {"_get_closed_form_lr", poly_closed_m, DOC_CLOSED}}},
    {"OneCycleLR", 0,
     {{"__init__", onecycle_init, "OneCycleLR(optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None, pct_start=0.3, anneal_strategy='cos', cycle_momentum=True, base_momentum=0.85, max_momentum=0.95, div_factor=25.0, final_div_factor=10000.0, three_phase=False, last_epoch=-1, verbose=False)\nSets the learning rate of each parameter group according to the 1cycle learning rate policy."},
      {"get_lr", onecycle_get_lr, DOC_GET_LR}}}, /* _annealing_cos/_linear: mod_lr_scheduler_more.c */
    {"ReduceLROnPlateau", -1,
     {{"__init__", plateau_init, "ReduceLROnPlateau(optimizer, mode='min', factor=0.1, patience=10, threshold=0.0001, threshold_mode='rel', cooldown=0, min_lr=0, eps=1e-08, verbose=False)\nReduce learning rate when a metric has stopped improving."},
      {"step", plateau_step, "step(metrics, epoch=None)\nReduces the learning rate of the groups when metrics has not improved for patience epochs."},
      {"get_last_lr", sched_get_last_lr, "get_last_lr()\nReturn last computed learning rate by current scheduler."},
      {"state_dict", sched_state_dict, "state_dict()\nReturns the state of the scheduler as a dict."},
      {"load_state_dict", plateau_load_state_dict, "load_state_dict(state_dict)\nLoads the schedulers state."}}},
};

nn_object *repl_mod_lr_scheduler(void)
{
    enum { N = sizeof classes / sizeof *classes };
    nn_object *m = repl_module_new(MODNAME);
    class_obj *made[N] = {0};
    int rc = m ? 0 : -1;
    for (size_t i = 0; !rc && i < N; i++) {
        class_obj *base = classes[i].base < 0 ? repl_current->object_cls : made[classes[i].base];
        class_obj *c = made[i] = repl_mod_subclass(MODNAME, classes[i].name, base, NULL, classes[i].methods, 6);
        if (!c) {
            rc = -1;
            break;
        }
        if (!rc) rc = repl_set_attr(m, classes[i].name, &c->ob);
    }
    if (!rc) rc = repl_set_attr(m, "LRScheduler", &made[0]->ob); /* PyTorch 2's name */
    if (!rc) rc = repl_lr_scheduler_more(m); /* CyclicLR, ...: mod_lr_scheduler_more.c */
    for (size_t i = 0; i < N; i++) NN_RELEASE(made[i]);
    if (rc) NN_SET(m, NULL);
    return m;
}
