/*
 * bind_autograd.c — torch.autograd.grad and torch.autograd.backward in the
 * language. grad(outputs, inputs, grad_outputs=None, retain_graph=None,
 * create_graph=False, allow_unused=False) runs core's backward restricted to
 * the inputs (leaf tensors), with each input's .grad set aside meanwhile, so
 * that it returns the gradients as a tuple and leaves every .grad as it was;
 * create_graph gives gradients with history (double backward). An input made
 * by an op is captured where its gradient reaches its grad_fn, and only the
 * nodes leading to an input run (core's nn_backward_grad), as PyTorch.
 * is_grads_batched runs one backward per row of the grad_outputs and stacks
 * the results (what PyTorch's vmap computes).
 */
#include <string.h>

#include "bind_int.h"

#define ARGS(n) nn_object *a[n] = {0}

/* A tensor or a sequence of tensors (or None where allowed) into a new array of n
   borrowed tensors (NULL for None). */
static int tensors_of(const char *what, nn_object *o, bool none_ok, nn_tensor ***out, size_t *n)
{
    bool one = nn_is_tensor(o) || (none_ok && nn_is_none(o));
    nn_object *items = one ? NULL : repl_iterable_to_list(o);
    if (!one && !items) return -1;
    size_t len = one ? 1 : nn_list_len(items);
    nn_tensor **ts = nn_calloc(len ? len : 1, sizeof *ts);
    int rc = ts ? 0 : -1;
    for (size_t i = 0; !rc && i < len; i++) {
        nn_object *x = one ? o : nn_list_get(items, i);
        if (nn_is_tensor(x)) ts[i] = NN_TENSOR(x);
        else if (!(none_ok && nn_is_none(x)))
            rc = nn_error_set(NN_ERR_TYPE, "%s must be a Tensor or a sequence of Tensors, not %s", what, repl_type_name(x));
    }
    NN_RELEASE(items);
    if (rc) {
        nn_free(ts);
        return -1;
    }
    *out = ts;
    *n = len;
    return 0;
}

/* Runs the backward of outputs[i] with grad_outputs[i] (NULL: ones for a scalar),
   accumulating only into leaves (n_leaves of them; -1: all). */
static int run(nn_tensor **outs, size_t n_out, nn_tensor **gouts, size_t n_gout, bool retain, bool create, int n_leaves,
               nn_tensor *const *leaves, bool capture, int n_nonleaf, nn_tensor *const *nonleaf, nn_tensor **slots)
{
    if (n_gout && n_gout != n_out)
        return nn_error_set(NN_ERR_RUNTIME, "grad can be implicitly created only for scalar outputs");
    for (size_t i = 0; i < n_out; i++) {
        nn_tensor *g = n_gout ? gouts[i] : NULL;
        bool last = i + 1 == n_out;
        if (!outs[i]->requires_grad)
            return nn_error_set(NN_ERR_RUNTIME, "element %zu of tensors does not require grad and does not have a grad_fn", i);
        if (nn_backward_grad(outs[i], g, last ? retain : true, create, n_leaves, leaves, n_nonleaf, nonleaf, slots, capture))
            return -1;
    }
    return 0;
}

/* One autograd.grad: the gradients of outs (with gouts) w.r.t. ins, a new tuple. */
static nn_object *grad_once(nn_tensor **outs, size_t n_out, nn_tensor **gouts, size_t n_gout, nn_tensor **ins,
                            size_t n_in, bool retain, bool create, bool allow_unused)
{
    /* leaves get their .grad set aside (a repeated input once); tensors made by ops are captured */
    nn_tensor **saved = nn_calloc(n_in ? n_in : 1, sizeof *saved), **leaves = nn_calloc(n_in ? n_in : 1, sizeof *leaves);
    nn_tensor **nonleaf = nn_calloc(n_in ? n_in : 1, sizeof *nonleaf), **slots = nn_calloc(n_in ? n_in : 1, sizeof *slots);
    int rc = saved && leaves && nonleaf && slots ? 0 : -1, n_leaves = 0, n_nonleaf = 0;
    for (size_t i = 0; !rc && i < n_in; i++) {
        if (nn_is_leaf(ins[i])) {
            saved[i] = ins[i]->grad;
            ins[i]->grad = NULL;
            leaves[n_leaves++] = ins[i];
        } else {
            nonleaf[n_nonleaf++] = ins[i];
        }
    }
    if (!rc) rc = run(outs, n_out, gouts, n_gout, retain, create, n_leaves, leaves, true, n_nonleaf, nonleaf, slots);
    nn_object *result = NULL;
    if (!rc) {
        result = nn_tuple_new(n_in);
        for (size_t i = 0, k = 0; result && i < n_in; i++) {
            nn_tensor *g = nn_is_leaf(ins[i]) ? ins[i]->grad : slots[k++];
            if (!g && !allow_unused) {
                nn_error_set(NN_ERR_RUNTIME, "One of the differentiated Tensors appears to not have been used in the "
                                             "graph. Set allow_unused=True if this is the desired behavior.");
                NN_SET(result, NULL);
                break;
            }
            nn_tuple_set(result, i, g ? nn_retain((nn_object *)g) : nn_retain(nn_none()));
        }
    }
    /* every .grad back as it was (in reverse, so a repeated input gets its own back) */
    for (size_t i = n_in; saved && i-- > 0;)
        if (nn_is_leaf(ins[i])) NN_SET(ins[i]->grad, saved[i]);
    for (int k = 0; slots && k < n_nonleaf; k++) NN_RELEASE(slots[k]);
    nn_free(saved);
    nn_free(leaves);
    nn_free(nonleaf);
    nn_free(slots);
    return result;
}

/* is_grads_batched: one grad per row of every grad_output, each result stacked. */
static nn_object *grad_batched(nn_tensor **outs, size_t n_out, nn_tensor **gouts, size_t n_gout, nn_tensor **ins,
                               size_t n_in, bool retain, bool create, bool allow_unused)
{
    int64_t rows = -1;
    for (size_t i = 0; i < n_gout; i++) {
        if (!gouts[i]) continue;
        if (gouts[i]->ndim == 0) {
            nn_error_set(NN_ERR_RUNTIME, "If `is_grads_batched=True`, we interpret the first dimension of each "
                                         "grad_output as the batch dimension. The sizes of the remaining dimensions "
                                         "are expected to match the shape of corresponding output, but a mismatch was "
                                         "detected: grad_output[%zu] has a shape of torch.Size([]) and output[%zu] "
                                         "has a shape of torch.Size([]).", i, i);
            return NULL;
        }
        if (rows < 0) rows = gouts[i]->sizes[0];
    }
    if (rows < 0) rows = 1;
    nn_object **per_row = nn_calloc((size_t)rows ? (size_t)rows : 1, sizeof *per_row);
    nn_tensor **row_gouts = nn_calloc(n_gout ? n_gout : 1, sizeof *row_gouts);
    nn_object *result = NULL;
    int rc = per_row && row_gouts ? 0 : -1;
    for (int64_t r = 0; !rc && r < rows; r++) {
        for (size_t i = 0; !rc && i < n_gout; i++) {
            NN_SET(row_gouts[i], gouts[i] ? nn_select(gouts[i], 0, r) : NULL);
            if (gouts[i] && !row_gouts[i]) rc = -1;
        }
        if (!rc && !(per_row[r] = grad_once(outs, n_out, row_gouts, n_gout, ins, n_in, r + 1 == rows ? retain : true,
                                            create, allow_unused)))
            rc = -1;
    }
    if (!rc) result = nn_tuple_new(n_in);
    for (size_t i = 0; result && i < n_in; i++) {
        nn_tensor *ts[rows ? rows : 1];
        bool none = false;
        for (int64_t r = 0; r < rows; r++) {
            nn_object *g = nn_tuple_get(per_row[r], i);
            none |= nn_is_none(g);
            ts[r] = nn_is_none(g) ? NULL : NN_TENSOR(g);
        }
        nn_object *stacked = none ? nn_retain(nn_none()) : (nn_object *)nn_stack((int)rows, ts, 0);
        if (!stacked) NN_SET(result, NULL);
        else nn_tuple_set(result, i, stacked);
    }
    for (size_t i = 0; row_gouts && i < n_gout; i++) NN_RELEASE(row_gouts[i]);
    for (int64_t r = 0; per_row && r < rows; r++) NN_RELEASE(per_row[r]);
    nn_free(row_gouts);
    nn_free(per_row);
    return result;
}

static nn_object *f_grad(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(8);
    if (repl_parse_args("grad",
                        "outputs, inputs, grad_outputs=, retain_graph=, create_graph=, only_inputs=, allow_unused=, "
                        "is_grads_batched=",
                        args, kwargs, a))
        return NULL;
    bool create = false, allow_unused = false, retain, batched = false;
    if (repl_arg_bool("grad", "create_graph", 0, a[4], &create) ||
        repl_arg_bool("grad", "allow_unused", 0, a[6], &allow_unused) ||
        repl_arg_bool("grad", "is_grads_batched", 0, a[7], &batched))
        return NULL;
    retain = create;
    if (a[3] && !nn_is_none(a[3]) && repl_arg_bool("grad", "retain_graph", 0, a[3], &retain)) return NULL;
    nn_tensor **outs = NULL, **ins = NULL, **gouts = NULL;
    size_t n_out = 0, n_in = 0, n_gout = 0;
    if (tensors_of("outputs", a[0], false, &outs, &n_out) || tensors_of("inputs", a[1], false, &ins, &n_in) ||
        (a[2] && !nn_is_none(a[2]) && tensors_of("grad_outputs", a[2], true, &gouts, &n_gout))) {
        nn_free(outs);
        nn_free(ins);
        return NULL;
    }
    int rc = 0;
    for (size_t i = 0; !rc && i < n_in; i++)
        if (!ins[i]->requires_grad) rc = nn_error_set(NN_ERR_RUNTIME, "One of the differentiated Tensors does not require grad");
    nn_object *result = NULL;
    if (!rc) result = (batched ? grad_batched : grad_once)(outs, n_out, gouts, n_gout, ins, n_in, retain, create, allow_unused);
    nn_free(outs);
    nn_free(ins);
    nn_free(gouts);
    return result;
}

/* torch.autograd.backward's run after its arguments: leaves (n_leaves < 0: every one)
   accumulate into .grad; an input made by an op gets its gradient added into its .grad
   (as PyTorch's backward(inputs=...)). */
static int backward_into(nn_tensor **outs, size_t n_out, nn_tensor **gouts, size_t n_gout, bool retain, bool create,
                         nn_tensor **ins, long n_in)
{
    if (n_in < 0) return run(outs, n_out, gouts, n_gout, retain, create, -1, NULL, false, 0, NULL, NULL);
    if (n_in == 0) return nn_error_set(NN_ERR_RUNTIME, "'inputs' argument to backward() cannot be empty.");
    nn_tensor **leaves = nn_calloc((size_t)n_in, sizeof *leaves), **nonleaf = nn_calloc((size_t)n_in, sizeof *nonleaf);
    nn_tensor **slots = nn_calloc((size_t)n_in, sizeof *slots);
    int rc = leaves && nonleaf && slots ? 0 : -1, n_leaves = 0, n_nonleaf = 0;
    for (long i = 0; !rc && i < n_in; i++) {
        if (!ins[i]->requires_grad) rc = nn_error_set(NN_ERR_RUNTIME, "One of the differentiated Tensors does not require grad");
        else if (nn_is_leaf(ins[i])) leaves[n_leaves++] = ins[i];
        else nonleaf[n_nonleaf++] = ins[i];
    }
    if (!rc) rc = run(outs, n_out, gouts, n_gout, retain, create, n_leaves, leaves, false, n_nonleaf, nonleaf, slots);
    for (int k = 0; !rc && k < n_nonleaf; k++) {
        nn_tensor *t = nonleaf[k], *g = slots[k];
        if (!g) continue;
        bool prev = nn_set_grad_enabled(create);
        nn_tensor *sum = t->grad ? nn_add(t->grad, g) : nn_clone(g);
        nn_set_grad_enabled(prev);
        if (!sum) rc = -1;
        else NN_SET(t->grad, sum);
    }
    for (int k = 0; slots && k < n_nonleaf; k++) NN_RELEASE(slots[k]);
    nn_free(leaves);
    nn_free(nonleaf);
    nn_free(slots);
    return rc;
}

int repl_tensor_backward_inputs(nn_tensor *self, nn_tensor *gradient, bool retain, bool create, nn_object *inputs)
{
    nn_tensor **ins = NULL;
    size_t n_in = 0;
    if (tensors_of("inputs", inputs, false, &ins, &n_in)) return -1;
    int rc = backward_into(&self, 1, gradient ? &gradient : NULL, gradient ? 1 : 0, retain, create, ins, (long)n_in);
    nn_free(ins);
    return rc;
}

static nn_object *f_backward(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    if (repl_parse_args("backward", "tensors, grad_tensors=, retain_graph=, create_graph=, grad_variables=, inputs=", args,
                        kwargs, a))
        return NULL;
    bool create = false, retain;
    if (repl_arg_bool("backward", "create_graph", 0, a[3], &create)) return NULL;
    retain = create;
    if (a[2] && !nn_is_none(a[2]) && repl_arg_bool("backward", "retain_graph", 0, a[2], &retain)) return NULL;
    nn_object *gt = a[1] && !nn_is_none(a[1]) ? a[1] : a[4] && !nn_is_none(a[4]) ? a[4] : NULL;
    nn_tensor **outs = NULL, **gouts = NULL, **leaves = NULL;
    size_t n_out = 0, n_gout = 0, n_leaves = 0;
    int rc = tensors_of("tensors", a[0], false, &outs, &n_out);
    if (!rc && gt) rc = tensors_of("grad_tensors", gt, true, &gouts, &n_gout);
    if (!rc && a[5] && !nn_is_none(a[5])) rc = tensors_of("inputs", a[5], false, &leaves, &n_leaves);
    if (!rc) rc = backward_into(outs, n_out, gouts, n_gout, retain, create, leaves, leaves ? (long)n_leaves : -1);
    nn_free(outs);
    nn_free(gouts);
    nn_free(leaves);
    return rc ? NULL : nn_retain(nn_none());
}

/* torch.autograd._is_checkpoint_valid(): false inside a backward run by
   torch.autograd.grad or backward(inputs=...) (a reentrant checkpoint refuses it). */
static nn_object *f_is_checkpoint_valid(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_parse_args("_is_checkpoint_valid", "", args, kwargs, NULL)) return NULL;
    return nn_bool_new(!nn_backward_is_restricted());
}

static const repl_function_def autograd_functions[] = {
    {"grad", f_grad,
     "grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True, "
     "allow_unused=False, is_grads_batched=False) -> tuple of Tensors\n"
     "Computes and returns the sum of gradients of outputs with respect to the inputs."},
    {"backward", f_backward,
     "backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None)\n"
     "Computes the sum of gradients of given tensors with respect to graph leaves."},
    {"_is_checkpoint_valid", f_is_checkpoint_valid,
     "_is_checkpoint_valid() -> bool\n"
     "Whether the running backward may fill every leaf's .grad (not autograd.grad's)."},
};

int repl_autograd_add_functions(nn_object *ns)
{
    return repl_namespace_add_fns(ns, autograd_functions, sizeof autograd_functions / sizeof autograd_functions[0]);
}
