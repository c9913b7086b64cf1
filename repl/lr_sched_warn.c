/*
 * lr_sched_warn.c — the warnings of PyTorch 1.13's _LRScheduler, through the
 * language's warnings module (so filterwarnings silences or raises them):
 *  - scheduler.step() before any optimizer.step() since the scheduler was made
 *    ("Detected call of `lr_scheduler.step()` before `optimizer.step()`...");
 *    PyTorch counts the optimizer's steps with a wrapper that the scheduler puts
 *    on optimizer.step and zeroes optimizer._step_count; here core's optimizers
 *    count (nn_optimizer_step_count), and optimizers written in the language
 *    are not checked;
 *  - scheduler.step(epoch), deprecated;
 *  - get_lr() called outside step() ("please use `get_last_lr()`").
 */
#include "bind_int.h"
#include "stdlib_int.h"

void repl_sched_zero_steps(nn_object *optimizer)
{
    if (nn_is_instance(optimizer, &nn_optimizer_type)) nn_optimizer_set_step_count((nn_optimizer *)optimizer, 0);
}

int repl_sched_warn_order(nn_object *optimizer)
{
    if (!nn_is_instance(optimizer, &nn_optimizer_type) || nn_optimizer_step_count((nn_optimizer *)optimizer) >= 1) return 0;
    return nn_warn("UserWarning", "%s",
                   "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
                   "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
                   "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
                   "will result in PyTorch skipping the first value of the learning rate schedule. "
                   "See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate");
}

int repl_sched_warn_epoch(void)
{
    return nn_warn("UserWarning", "%s",
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
    return nn_warn("UserWarning", "%s",
                   "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.");
}
