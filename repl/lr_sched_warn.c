/*
 * lr_sched_warn.c — the warnings of PyTorch 1.13's _LRScheduler, through the
 * language's warnings module (so filterwarnings silences or raises them):
 *  - scheduler.step() before any optimizer.step() since the scheduler was made
 *    ("Detected call of `lr_scheduler.step()` before `optimizer.step()`...");
 *    PyTorch counts the optimizer's steps with a wrapper that the scheduler puts
 *    on optimizer.step and zeroes optimizer._step_count; here core's optimizers
 *    count (nn_optimizer_step_count), and an optimizer written in the language
 *    (RMSprop, Adagrad, Adadelta, a user's subclass of Optimizer) gets that
 *    wrapper as PyTorch's: an instance attribute `step` counting into _step_count;
 *  - scheduler.step(epoch), deprecated;
 *  - get_lr() called outside step() ("please use `get_last_lr()`").
 * Each is placed where PyTorch 1.13 raises it, in its own torch/optim/lr_scheduler.py
 * (module torch.optim.lr_scheduler), so Python's default filter shows it once per
 * run however many lines of the user's trigger it, as PyTorch's does.
 */
#include <string.h>

#include "bind_int.h"
#include "stdlib_int.h"

/* warnings.warn from PyTorch's lr_scheduler.py at line (core's placed warnings):
   0, or -1 with the error (a filter's "error"). */
static int sched_warn(int line, const char *message)
{
    nn_warn_place place = {"torch.optim.lr_scheduler", "torch/optim/lr_scheduler.py", line};
    return nn_warn_at(&place, "UserWarning", "%s", message);
}

/* The wrapper's state: the optimizer instance and its bound step, both owned. */
typedef struct counter {
    nn_object *inst, *step;
} counter;

static void counter_free(void *ud)
{
    counter *c = ud;
    NN_RELEASE(c->inst);
    NN_RELEASE(c->step);
    nn_free(c);
}

static void counter_traverse(void *ud, void (*visit)(nn_object *child, void *arg), void *arg)
{
    counter *c = ud;
    if (c->inst) visit(c->inst, arg);
    if (c->step) visit(c->step, arg);
}

/* optimizer.step(*args, **kwargs) counted: _step_count += 1, then the original */
static nn_object *counted_step(void *ud, nn_object *args, nn_object *kwargs)
{
    counter *c = ud;
    nn_object *n = repl_get_attr(c->inst, "_step_count");
    if (!n) NN_RELEASE(repl_take_exception());
    int rc = repl_set_attr(c->inst, "_step_count", nn_int_new(n && nn_is_int(n) ? nn_int_value(n) + 1 : 1));
    NN_RELEASE(n);
    if (rc < 0) return NULL;
    size_t argc = nn_tuple_len(args);
    nn_object *argv[argc ? argc : 1];
    for (size_t i = 0; i < argc; i++) argv[i] = nn_tuple_get(args, i);
    return repl_call_object(c->step, argv, (int)argc, kwargs);
}

void repl_sched_zero_steps(nn_object *optimizer)
{
    if (nn_is_instance(optimizer, &nn_optimizer_type)) nn_optimizer_set_step_count((nn_optimizer *)optimizer, 0);
    if (optimizer->type != &repl_instance_type) return;
    instance_obj *in = (instance_obj *)optimizer;
    nn_object *have = repl_nmap_get(&in->attrs, "step");
    if (!have || have->type != &nn_cfunction_type) { /* not wrapped yet (PyTorch's _with_counter) */
        counter *c = nn_calloc(1, sizeof *c);
        nn_object *f = c ? nn_cfunction_new("step", counted_step, c, counter_free) : NULL;
        if (!f) {
            nn_free(c);
            nn_error_clear();
            return;
        }
        c->inst = nn_retain(optimizer);
        c->step = repl_get_attr(optimizer, "step");
        if (!c->step || nn_cfunction_set_traverse(f, counter_traverse) < 0 || repl_nmap_set(&in->attrs, "step", f) < 0) {
            NN_RELEASE(repl_take_exception());
            nn_error_clear();
        }
        NN_RELEASE(f);
    }
    nn_object *zero = nn_int_new(0);
    if (!zero || repl_nmap_set(&in->attrs, "_step_count", zero) < 0) nn_error_clear();
    NN_RELEASE(zero);
}

int repl_sched_warn_order(nn_object *optimizer)
{
    if (optimizer->type == &repl_instance_type) {
        nn_object *n = repl_nmap_get(&((instance_obj *)optimizer)->attrs, "_step_count");
        if (!n || !nn_is_int(n) || nn_int_value(n) >= 1) return 0;
    } else if (!nn_is_instance(optimizer, &nn_optimizer_type) || nn_optimizer_step_count((nn_optimizer *)optimizer) >= 1) {
        return 0;
    }
    return sched_warn(138,
                   "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
                   "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
                   "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
                   "will result in PyTorch skipping the first value of the learning rate schedule. "
                   "See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate");
}

int repl_sched_warn_epoch(void)
{
    return sched_warn(163,
                   "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. "
                   "Please use `scheduler.step()` to step the scheduler. During the deprecation, if epoch is different "
                   "from None, the closed form is used instead of the new chainable form, where available. Please open "
                   "an issue if you are unable to replicate your use case: "
                   "https://github.com/pytorch/pytorch/issues/new/choose.");
}

int repl_sched_warn_get_lr(nn_object *self)
{
    nn_object *within = self && self->type == &repl_instance_type
                            ? repl_nmap_get(&((instance_obj *)self)->attrs, "_get_lr_called_within_step")
                            : NULL;
    if (!within) return 0; /* never stepped through _LRScheduler.step (a subclass's own step) */
    if (repl_truth(within) != 0) return 0;
    /* the line of the get_lr of self's class (or the first of its bases) in PyTorch's file */
    static const struct { const char *cls; int line; } lines[] = {
        {"LambdaLR", 257}, {"MultiplicativeLR", 335}, {"StepLR", 381}, {"MultiStepLR", 429},
        {"ConstantLR", 483}, {"LinearLR", 550}, {"ExponentialLR", 587}, {"PolynomialLR", 742},
        {"CosineAnnealingLR", 807}, {"CyclicLR", 1282}, {"CosineAnnealingWarmRestarts", 1359}, {"OneCycleLR", 1679}};
    int line = 0;
    nn_object *cls = repl_get_attr(self, "__class__"), *mro = cls ? repl_get_attr(cls, "__mro__") : NULL;
    for (size_t i = 0; mro && mro->type == &nn_tuple_type && !line && i < nn_tuple_len(mro); i++) {
        nn_object *name = repl_get_attr(nn_tuple_get(mro, i), "__name__");
        for (size_t j = 0; name && nn_is_str(name) && j < sizeof lines / sizeof lines[0]; j++)
            if (!strcmp(lines[j].cls, nn_str_cstr(name))) line = lines[j].line;
        if (!name) NN_RELEASE(repl_take_exception());
        NN_RELEASE(name);
    }
    if (!mro) NN_RELEASE(repl_take_exception());
    NN_RELEASE(cls);
    NN_RELEASE(mro);
    return sched_warn(line ? line : 381, "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.");
}
