/*
 * nn_custom_fn.h — autograd nodes whose backward is not core's (a
 * torch.autograd.Function written in the language): core records the node,
 * keeps its saved tensors with their versions, and calls back through a
 * function pointer for the backward. Core knows nothing of the caller's state
 * object beyond its reference count.
 */
#ifndef NN_CUSTOM_FN_H
#define NN_CUSTOM_FN_H

#include "nn.h"

typedef struct nn_custom_fn {
    /* The backward: grad_outputs[nn_custom_n_outputs] borrowed (NULL where
       none came); stores new references (or NULL) into grad_inputs[n_inputs].
       Runs with grad mode off unless create_graph. 0, or -1 with the error. */
    int (*backward)(nn_object *state, nn_node *node, nn_tensor **grad_outputs, nn_tensor **grad_inputs);
} nn_custom_fn;

/* What an output of a custom node is. */
enum { NN_CUSTOM_OUT_DIFF, NN_CUSTOM_OUT_NONDIFF, NN_CUSTOM_OUT_NOT_TENSOR };

/* Records a node named name (copied; "MyReLUBackward") on the outputs whose
   kind is NN_CUSTOM_OUT_DIFF, with edges to inputs[0..n_in) (NULL: an argument
   that is not a tensor), saving save[0..n_save) (NULLs allowed; an output
   among them is kept as an alias without history) and retaining state.
   outputs[k] is NULL where kinds[k] is NN_CUSTOM_OUT_NOT_TENSOR. An output
   that already has history, requires grad or is one of the inputs must be
   replaced by an alias (nn_detach) before. Does nothing and returns 0 when
   !nn_grad_enabled() or no input requires grad. */
int nn_record_custom(const nn_custom_fn *fns, const char *name, nn_object *state, int n_in, nn_tensor *const *inputs,
                     int n_out, nn_tensor *const *outputs, const unsigned char *kinds, int n_save,
                     nn_tensor *const *save);

/* The node's name (the class name of a custom node, else the op's grad_fn name). */
const char *nn_node_name(const nn_node *node);
/* Gives node the name (PyTorch's name of the op a language-written layer stands for:
   core/node_name.c); 0, or -1 with ValueError for an empty name. */
int nn_node_set_name(nn_node *node, const char *name);
/* The state of a custom node (borrowed), or NULL for any other node. */
nn_object *nn_custom_state(const nn_node *node);
int nn_custom_n_inputs(const nn_node *node);
int nn_custom_n_outputs(const nn_node *node);
/* Was input i a tensor? Does it need a gradient (an edge)? */
bool nn_custom_input_is_tensor(const nn_node *node, int i);
bool nn_custom_needs_input_grad(const nn_node *node, int i);
/* The kind of output k (NN_CUSTOM_OUT_*). */
int nn_custom_output_kind(const nn_node *node, int k);
/* Zeros of output k's shape and dtype: a new reference. */
nn_tensor *nn_custom_output_zeros(const nn_node *node, int k);
/* The saved tensors as a new tuple, after PyTorch's checks: RuntimeError when
   they were freed by a backward without retain_graph, or when one was modified
   in place since it was saved. */
nn_object *nn_custom_saved_tensors(nn_node *node);

/* torch.autograd's anomaly mode (anomaly.c): on, each new node keeps what
   capture() returns (the forward traceback; an opaque object) and each node's
   backward results are checked for NaN when check_nan; report() is called with
   the node's name and that object when a node's backward fails or gives NaN.
   nn_set_detect_anomaly returns the previous mode. */
bool nn_set_detect_anomaly(bool enabled, bool check_nan);
bool nn_detect_anomaly_enabled(void);
bool nn_anomaly_check_nan_enabled(void);
void nn_set_anomaly_hooks(nn_object *(*capture)(void), void (*report)(const char *node_name, nn_object *trace));

#endif
