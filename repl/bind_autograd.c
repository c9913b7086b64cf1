/*
 * bind_autograd.c — torch.autograd.grad and torch.autograd.backward in the
 * language. grad(outputs, inputs, grad_outputs=None, retain_graph=None,
 * create_graph=False, allow_unused=False) runs core's backward restricted to
 * the inputs (leaf tensors), with each input's .grad set aside meanwhile, so
 * that it returns the gradients as a tuple and leaves every .grad as it was;
 * create_graph gives gradients with history (double backward). Not here:
 * inputs that are not leaves (NotImplementedError names it), is_grads_batched.
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
               nn_tensor *const *leaves, bool capture)
{
    if (n_gout && n_gout != n_out)
        return nn_error_set(NN_ERR_RUNTIME, "grad can be implicitly created only for scalar outputs");
    for (size_t i = 0; i < n_out; i++) {
        nn_tensor *g = n_gout ? gouts[i] : NULL;
        bool last = i + 1 == n_out;
        if (!outs[i]->requires_grad)
            return nn_error_set(NN_ERR_RUNTIME, "element %zu of tensors does not require grad and does not have a grad_fn", i);
        if ((capture ? nn_backward_capture : nn_backward_restricted)(outs[i], g, last ? retain : true, create, n_leaves,
                                                                     leaves))
            return -1;
    }
    return 0;
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
    if (batched) {
        nn_error_set(NN_ERR_NOT_IMPLEMENTED, "torch.autograd.grad: is_grads_batched=True is not supported");
        return NULL;
    }
    nn_tensor **outs = NULL, **ins = NULL, **gouts = NULL;
    size_t n_out = 0, n_in = 0, n_gout = 0;
    if (tensors_of("outputs", a[0], false, &outs, &n_out) || tensors_of("inputs", a[1], false, &ins, &n_in) ||
        (a[2] && !nn_is_none(a[2]) && tensors_of("grad_outputs", a[2], true, &gouts, &n_gout))) {
        nn_free(outs);
        nn_free(ins);
        return NULL;
    }
    int rc = 0;
    for (size_t i = 0; !rc && i < n_in; i++) {
        if (!ins[i]->requires_grad) rc = nn_error_set(NN_ERR_RUNTIME, "One of the differentiated Tensors does not require grad");
        else if (!nn_is_leaf(ins[i]))
            rc = nn_error_set(NN_ERR_NOT_IMPLEMENTED,
                              "torch.autograd.grad: an input that is not a leaf tensor (one made by an op) is not supported");
    }
    /* each input's .grad set aside (a repeated input once) */
    nn_tensor **saved = rc ? NULL : nn_calloc(n_in ? n_in : 1, sizeof *saved);
    if (!rc && !saved) rc = -1;
    for (size_t i = 0; !rc && i < n_in; i++) {
        saved[i] = ins[i]->grad;
        ins[i]->grad = NULL;
    }
    if (!rc) rc = run(outs, n_out, gouts, n_gout, retain, create, (int)n_in, ins, true); /* PyTorch's results, not copies */
    nn_object *result = NULL;
    if (!rc) {
        result = nn_tuple_new(n_in);
        for (size_t i = 0; result && i < n_in; i++) {
            nn_tensor *g = ins[i]->grad;
            if (!g && !allow_unused) {
                rc = nn_error_set(NN_ERR_RUNTIME, "One of the differentiated Tensors appears to not have been used in the "
                                                  "graph. Set allow_unused=True if this is the desired behavior.");
                NN_SET(result, NULL);
                break;
            }
            nn_tuple_set(result, i, g ? nn_retain((nn_object *)g) : nn_retain(nn_none()));
        }
    }
    /* every .grad back as it was (in reverse, so a repeated input gets its own back) */
    for (size_t i = n_in; saved && i-- > 0;) {
        NN_SET(ins[i]->grad, saved[i]);
    }
    nn_free(saved);
    nn_free(outs);
    nn_free(ins);
    nn_free(gouts);
    return result;
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
    if (!rc) rc = run(outs, n_out, gouts, n_gout, retain, create, leaves ? (int)n_leaves : -1, leaves, false);
    nn_free(outs);
    nn_free(gouts);
    nn_free(leaves);
    return rc ? NULL : nn_retain(nn_none());
}

static const repl_function_def autograd_functions[] = {
    {"grad", f_grad,
     "grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True, "
     "allow_unused=False, is_grads_batched=False) -> tuple of Tensors\n"
     "Computes and returns the sum of gradients of outputs with respect to the inputs."},
    {"backward", f_backward,
     "backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None)\n"
     "Computes the sum of gradients of given tensors with respect to graph leaves."},
};

int repl_autograd_add_functions(nn_object *ns)
{
    return repl_namespace_add_fns(ns, autograd_functions, sizeof autograd_functions / sizeof autograd_functions[0]);
}
