/*
 * op_observer.c — one observer of every differentiable op's forward
 * (nn_set_op_observer): nn_record, which each op calls once its outputs are
 * computed, hands it the op's name, inputs and outputs. The inspector's NaN
 * breakpoint uses it to name the op that made the first NaN or Inf. Also one
 * observer of optimizer steps (nn_set_optimizer_observer): the inspector counts
 * training steps by them and reads the learning rates.
 */
#include <stdio.h>

#include "nn_int.h"

nn_op_observer_fn nn_op_observer;
static void *observer_ud;

void nn_set_op_observer(nn_op_observer_fn fn, void *ud)
{
    nn_op_observer = fn;
    observer_ud = fn ? ud : NULL;
}

nn_op_observer_fn nn_get_op_observer(void **ud)
{
    if (ud) *ud = observer_ud;
    return nn_op_observer;
}

void nn_op_observe(nn_op_id op, int n_in, nn_tensor *const *inputs, int n_out, nn_tensor *const *outputs)
{
    nn_op_observer_fn fn = nn_op_observer;
    if (!fn) return;
    /* the observer sees the op's error state untouched and leaves it so */
    nn_error_kind kind = nn_error_current();
    char saved[256] = "";
    if (kind != NN_OK) snprintf(saved, sizeof saved, "%s", nn_error_message());
    fn(observer_ud, nn_op_table[op].name, n_in, inputs, n_out, outputs);
    if (kind != NN_OK)
        nn_error_set(kind, "%s", saved);
    else
        nn_error_clear();
}

static nn_optimizer_observer_fn optim_observer;
static void *optim_ud;

void nn_set_optimizer_observer(nn_optimizer_observer_fn fn, void *ud)
{
    optim_observer = fn;
    optim_ud = fn ? ud : NULL;
}

nn_optimizer_observer_fn nn_get_optimizer_observer(void **ud)
{
    if (ud) *ud = optim_ud;
    return optim_observer;
}

void nn_optimizer_observe(nn_optimizer *opt)
{
    if (optim_observer) optim_observer(optim_ud, opt);
}
