/*
 * op_observer.c — one observer of every differentiable op's forward
 * (nn_set_op_observer): nn_record, which each op calls once its outputs are
 * computed, hands it the op's name, inputs and outputs. The inspector's NaN
 * breakpoint uses it to name the op that made the first NaN or Inf. Also one
 * observer of optimizer steps (nn_set_optimizer_observer): the inspector counts
 * training steps by them and reads the learning rates. And one observer of
 * backward nodes (nn_set_backward_observer), called by the engine after each
 * node's backward: the NaN breakpoint names the node that made a NaN with it.
 */
#include <stdio.h>

#include "nn_custom_fn.h"
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

/* An observer sees the error state untouched and leaves it so. */
typedef struct {
    nn_error_kind kind;
    char message[256];
} kept_error;

static void error_keep(kept_error *e)
{
    e->kind = nn_error_current();
    e->message[0] = 0;
    if (e->kind != NN_OK) snprintf(e->message, sizeof e->message, "%s", nn_error_message());
}

static void error_restore(const kept_error *e)
{
    if (e->kind != NN_OK)
        nn_error_set(e->kind, "%s", e->message);
    else
        nn_error_clear();
}

void nn_op_observe(nn_op_id op, int n_in, nn_tensor *const *inputs, int n_out, nn_tensor *const *outputs)
{
    nn_op_observer_fn fn = nn_op_observer;
    if (!fn) return;
    kept_error e;
    error_keep(&e);
    fn(observer_ud, nn_op_table[op].name, n_in, inputs, n_out, outputs);
    error_restore(&e);
}

nn_backward_observer_fn nn_backward_observer;
static void *backward_ud;

void nn_set_backward_observer(nn_backward_observer_fn fn, void *ud)
{
    nn_backward_observer = fn;
    backward_ud = fn ? ud : NULL;
}

nn_backward_observer_fn nn_get_backward_observer(void **ud)
{
    if (ud) *ud = backward_ud;
    return nn_backward_observer;
}

void nn_backward_observe(nn_node *n, nn_tensor *const *received, nn_tensor *const *made)
{
    nn_backward_observer_fn fn = nn_backward_observer;
    if (!fn) return;
    nn_tensor *saved[8];
    int n_saved = n->n_saved < 8 ? n->n_saved : 8; /* enough to describe the node's inputs */
    for (int i = 0; i < n_saved; i++) saved[i] = n->saved[i].tensor;
    kept_error e;
    error_keep(&e);
    fn(backward_ud, nn_node_name(n), n->n_outputs, received, n->n_inputs, made, n_saved, saved);
    error_restore(&e);
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
