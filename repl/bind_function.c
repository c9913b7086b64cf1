/*
 * bind_function.c — torch.autograd.Function written in the language: the
 * module torch.autograd.function (Function, FunctionCtx, once_differentiable:
 * language source below) and its C helpers, which record the apply as a
 * custom node of core's graph (core/custom_fn.c) whose backward calls the
 * class's backward(ctx, *grads) with PyTorch 1.13's checks and messages. The
 * ctx is the node's state; y.grad_fn's attributes are the ctx's.
 * ctx.mark_dirty: an input returned after an in-place change keeps its object and takes the node.
 * Not here:
 * forward-mode AD (jvp), a grad_fn of a saved output in double backward
 * beyond the backward call itself, and next_functions leaving out the
 * arguments that are not tensors (they show as (None, 0) here).
 */
#include <string.h>

#include "bind_int.h"
#include "nn_custom_fn.h"
#include "stdlib_int.h"

/* The custom node whose ctx is read now (its backward runs, or y.grad_fn.attr):
   ctx.saved_tensors reads that node's saved tensors. */
static _Thread_local nn_node *current_node;

static bool is_tensor_arg(nn_object *o) { return o && nn_is_tensor(o); }
static bool is_tuple(const nn_object *o) { return o && (o->type == &nn_tuple_type || o->type->base == &nn_tuple_type); }

/* The backward of a custom node: backward(ctx, *grads) of ctx._forward_cls. */
static int fn_backward(nn_object *ctx, nn_node *node, nn_tensor **gout, nn_tensor **gin)
{
    const char *name = nn_node_name(node);
    int n_out = nn_custom_n_outputs(node), n_in = nn_custom_n_inputs(node);
    nn_object *cls = repl_get_attr(ctx, "_forward_cls");
    nn_object *bw = cls ? repl_get_attr(cls, "backward") : NULL;
    NN_RELEASE(cls);
    nn_object *mat = bw ? repl_get_attr(ctx, "materialize_grads") : NULL;
    int materialize = mat ? repl_truth(mat) : -1;
    NN_RELEASE(mat);
    nn_object *args = materialize >= 0 ? nn_tuple_new((size_t)n_out + 1) : NULL;
    if (!args) {
        NN_RELEASE(bw);
        return -1;
    }
    nn_tuple_set(args, 0, nn_retain(ctx));
    int rc = 0;
    for (int k = 0; k < n_out; k++) {
        nn_object *g;
        if (gout[k]) g = nn_retain(&gout[k]->ob);
        else if (materialize && nn_custom_output_kind(node, k) != NN_CUSTOM_OUT_NOT_TENSOR)
            g = (nn_object *)nn_custom_output_zeros(node, k);
        else g = nn_retain(nn_none());
        if (!g) rc = -1;
        nn_tuple_set(args, (size_t)k + 1, g ? g : nn_retain(nn_none()));
    }
    nn_node *outer = current_node;
    current_node = node;
    nn_object *r = rc == 0 ? nn_call(bw, args, NULL) : NULL;
    current_node = outer;
    NN_RELEASE(args);
    NN_RELEASE(bw);
    if (!r) return -1;
    /* one gradient or a tuple of them, one per forward argument (extra Nones trimmed) */
    nn_object *items = is_tuple(r) ? nn_retain(r) : nn_tuple_pack(1, r);
    NN_RELEASE(r);
    if (!items) return -1;
    size_t n = nn_tuple_len(items);
    for (size_t i = 0; i < n; i++) {
        nn_object *g = nn_tuple_get(items, i);
        if (!nn_is_none(g) && !nn_is_tensor(g)) {
            rc = nn_error_set(NN_ERR_RUNTIME, "expected Variable or None (got %s)", repl_type_name(g));
            break;
        }
    }
    while (rc == 0 && n > (size_t)n_in && nn_is_none(nn_tuple_get(items, n - 1))) n--;
    if (rc == 0 && n != (size_t)n_in)
        rc = nn_error_set(NN_ERR_RUNTIME, "function %s returned an incorrect number of gradients (expected %d, got %zu)",
                          name, n_in, n);
    for (int i = 0; rc == 0 && i < n_in; i++) {
        nn_object *g = nn_tuple_get(items, (size_t)i);
        if (nn_is_none(g)) continue;
        if (!nn_custom_input_is_tensor(node, i))
            rc = nn_error_set(NN_ERR_RUNTIME,
                              "function %s returned a gradient different than None at position %d, but the "
                              "corresponding forward input was not a Variable",
                              name, i + 1);
        else if (nn_custom_needs_input_grad(node, i)) gin[i] = (nn_tensor *)nn_retain(g);
    }
    NN_RELEASE(items);
    return rc;
}

static const nn_custom_fn fn_table = {.backward = fn_backward};

/* ------------------------------------------------------------ module helpers */

/* _needs_input_grad(args): a tuple of bools, each argument a tensor that requires grad. */
static nn_object *h_needs_input_grad(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_needs_input_grad", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *a = nn_tuple_get(args, 0);
    if (!is_tuple(a)) return repl_raise_exc(EXC_TypeError, "_needs_input_grad expects a tuple"), NULL;
    size_t n = nn_tuple_len(a);
    nn_object *t = nn_tuple_new(n);
    for (size_t i = 0; t && i < n; i++) {
        nn_object *x = nn_tuple_get(a, i);
        nn_tuple_set(t, i, nn_bool_new(is_tensor_arg(x) && NN_TENSOR(x)->requires_grad));
    }
    return t;
}

/* ctx.name as a tuple (borrowed items in a new reference), () when missing. */
static nn_object *ctx_tuple(nn_object *ctx, const char *name)
{
    nn_object *v = repl_get_attr(ctx, name);
    if (!v) {
        nn_error_clear();
        return nn_tuple_new(0);
    }
    if (is_tuple(v)) return v;
    NN_RELEASE(v);
    return nn_tuple_new(0);
}

static bool in_tuple(nn_object *t, nn_object *x)
{
    for (size_t i = 0; i < nn_tuple_len(t); i++)
        if (nn_tuple_get(t, i) == x) return true;
    return false;
}

/* _record(ctx, name, args, outputs): records the custom node when an argument
   requires grad (grad mode on) and returns the outputs as the caller sees them:
   tensors that were inputs, or had history, become aliases that take the node. */
static nn_object *h_record(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_record", args, kwargs, 4, 4) < 0) return NULL;
    nn_object *ctx = nn_tuple_get(args, 0), *nameo = nn_tuple_get(args, 1);
    nn_object *fargs = nn_tuple_get(args, 2), *out = nn_tuple_get(args, 3);
    if (!nn_is_str(nameo) || !is_tuple(fargs))
        return repl_raise_exc(EXC_TypeError, "_record(ctx, name, args, outputs)"), NULL;
    size_t n_in = nn_tuple_len(fargs);
    bool one = nn_is_tensor(out);
    if (!one && !is_tuple(out)) return nn_retain(out); /* no tensor output: nothing to record */
    size_t n_out = one ? 1 : nn_tuple_len(out);
    nn_tensor **ins = nn_calloc(n_in + 1, sizeof *ins);
    nn_tensor **outs = nn_calloc(n_out + 1, sizeof *outs);
    unsigned char *kinds = nn_calloc(n_out + 1, 1);
    nn_object *result = ins && outs && kinds ? nn_tuple_new(n_out) : NULL;
    nn_object *nondiff = result ? ctx_tuple(ctx, "non_differentiable") : NULL;
    nn_object *to_save = nondiff ? ctx_tuple(ctx, "to_save") : NULL;
    nn_object *dirty = to_save ? ctx_tuple(ctx, "dirty_tensors") : NULL;
    int rc = dirty ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n_in; i++)
        if (is_tensor_arg(nn_tuple_get(fargs, i))) ins[i] = NN_TENSOR(nn_tuple_get(fargs, i));
    bool record = false; /* grad mode on and an input requires grad */
    for (size_t i = 0; rc == 0 && i < n_in; i++) record |= nn_grad_enabled() && ins[i] && ins[i]->requires_grad;
    for (size_t k = 0; rc == 0 && k < n_out; k++) {
        nn_object *o = one ? out : nn_tuple_get(out, k);
        if (!nn_is_tensor(o)) {
            kinds[k] = NN_CUSTOM_OUT_NOT_TENSOR;
            nn_tuple_set(result, k, nn_retain(o));
            continue;
        }
        nn_tensor *t = NN_TENSOR(o);
        bool seen = false;
        for (size_t j = 0; j < k && !seen; j++) seen = outs[j] == t;
        for (size_t j = 0; j < n_in && !seen; j++) seen = ins[j] == t;
        kinds[k] = in_tuple(nondiff, o) || !nn_dtype_is_floating(t->dtype) ? NN_CUSTOM_OUT_NONDIFF : NN_CUSTOM_OUT_DIFF;
        if (record && kinds[k] == NN_CUSTOM_OUT_DIFF && in_tuple(dirty, o)) {
            /* ctx.mark_dirty: the input changed in place is the output, its history now the node's */
            if (nn_is_leaf(t) && t->requires_grad)
                rc = repl_raise_exc(EXC_RuntimeError,
                                    "a leaf Variable that requires grad has been used in an in-place operation.");
            NN_RETAIN(t);
        } else if (record && kinds[k] == NN_CUSTOM_OUT_DIFF && (seen || t->requires_grad || t->grad_fn)) {
            t = nn_detach(t);
            if (!t) rc = -1;
        } else NN_RETAIN(t);
        outs[k] = t;
        nn_tuple_set(result, k, t ? &t->ob : nn_retain(nn_none()));
    }
    if (record && rc == 0) {
        size_t n_save = nn_tuple_len(to_save);
        nn_tensor **save = nn_calloc(n_save + 1, sizeof *save);
        rc = save ? 0 : -1;
        for (size_t i = 0; rc == 0 && i < n_save; i++) {
            nn_object *s = nn_tuple_get(to_save, i);
            if (nn_is_tensor(s)) save[i] = NN_TENSOR(s);
        }
        if (rc == 0)
            rc = nn_record_custom(&fn_table, nn_str_cstr(nameo), ctx, (int)n_in, ins, (int)n_out, outs, kinds,
                                  (int)n_save, save);
        nn_free(save);
        /* the node holds them now (checked for in-place changes when read) */
        if (rc == 0) rc = repl_set_attr(ctx, "to_save", nn_none());
    }
    NN_RELEASE(nondiff);
    NN_RELEASE(to_save);
    NN_RELEASE(dirty);
    nn_free(ins);
    nn_free(outs);
    nn_free(kinds);
    if (rc < 0) NN_SET(result, NULL);
    if (result && one) {
        nn_object *t = nn_retain(nn_tuple_get(result, 0));
        NN_RELEASE(result);
        return t;
    }
    return result;
}

/* _saved_tensors(ctx): the tensors of save_for_backward, from the node while one
   holds them (freed or modified in place: PyTorch's RuntimeError). */
static nn_object *h_saved_tensors(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_saved_tensors", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *ctx = nn_tuple_get(args, 0);
    if (current_node && nn_custom_state(current_node) == ctx) return nn_custom_saved_tensors(current_node);
    return ctx_tuple(ctx, "to_save");
}

/* _ctx_class(name, base): a new class deriving from base, the ctx's class (MyReLUBackward). */
static nn_object *h_ctx_class(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_ctx_class", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *name = nn_tuple_get(args, 0), *base = nn_tuple_get(args, 1);
    if (!nn_is_str(name) || base->type != &repl_class_type) return repl_raise_exc(EXC_TypeError, "_ctx_class(name, base)"), NULL;
    return (nn_object *)repl_lang_class_new(nn_str_cstr(name), (class_obj *)base, 0);
}

nn_object *repl_custom_node_getattr(nn_object *node, const char *name)
{
    nn_object *ctx = nn_custom_state((nn_node *)node);
    if (!ctx) return NULL;
    nn_node *outer = current_node;
    current_node = (nn_node *)node;
    nn_object *v = repl_get_attr(ctx, name);
    current_node = outer;
    return v;
}

static const repl_mod_fn helpers[] = {
    {"_needs_input_grad", h_needs_input_grad, NULL},
    {"_record", h_record, NULL},
    {"_saved_tensors", h_saved_tensors, NULL},
    {"_ctx_class", h_ctx_class, NULL},
};

/* source: begin */
static const char source[] =
    "# torch.autograd.function, written in the language: Function (subclass it\n"
    "# with @staticmethod forward(ctx, ...) and backward(ctx, ...), call .apply),\n"
    "# the ctx (FunctionCtx; its class name is the node's), once_differentiable.\n"
    "# The node is core's (_record); its backward calls Function.backward.\n"
    "import torch\n"
    "\n"
    "\n"
    "class FunctionCtx:\n"
    "    def save_for_backward(self, *tensors):\n"
    "        for i, t in enumerate(tensors):\n"
    "            if t is not None and not isinstance(t, torch.Tensor):\n"
    "                raise TypeError('save_for_backward can only save variables, but argument ' + str(i) +\n"
    "                                ' is of type ' + type(t).__name__)\n"
    "        self.to_save = tensors\n"
    "\n"
    "    def save_for_forward(self, *tensors):\n"
    "        self.saved_for_forward = tensors\n"
    "\n"
    "    def mark_dirty(self, *args):\n"
    "        self.dirty_tensors = args\n"
    "\n"
    "    def mark_non_differentiable(self, *args):\n"
    "        self.non_differentiable = args\n"
    "\n"
    "    def set_materialize_grads(self, value):\n"
    "        self.materialize_grads = value\n"
    "\n"
    "    @property\n"
    "    def saved_tensors(self):\n"
    "        return _saved_tensors(self)\n"
    "\n"
    "    @property\n"
    "    def saved_variables(self):\n"
    "        return _saved_tensors(self)\n"
    "\n"
    "\n"
    "_ctx_classes = {}\n"
    "\n"
    "\n"
    "class BackwardCFunction(FunctionCtx):\n"
    "    def apply(self, *args):\n"
    "        return self._forward_cls.backward(self, *args)\n"
    "\n"
    "\n"
    "class Function:\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        pass\n"
    "\n"
    "    def __call__(self, *args, **kwargs):\n"
    "        raise RuntimeError('Legacy autograd function with non-static forward method is deprecated. '\n"
    "                           'Please use new-style autograd function with static forward method. '\n"
    "                           '(Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)')\n"
    "\n"
    "    @staticmethod\n"
    "    def forward(ctx, *args, **kwargs):\n"
    "        raise NotImplementedError('You must implement the forward function for custom autograd.Function.')\n"
    "\n"
    "    @staticmethod\n"
    "    def backward(ctx, *grad_outputs):\n"
    "        raise NotImplementedError('You must implement either the backward or vjp method for your custom '\n"
    "                                  'autograd.Function to use it with backward mode AD.')\n"
    "\n"
    "    @staticmethod\n"
    "    def vjp(ctx, *grad_outputs):\n"
    "        raise NotImplementedError('You must implement either the backward or vjp method for your custom '\n"
    "                                  'autograd.Function to use it with backward mode AD.')\n"
    "\n"
    "    @staticmethod\n"
    "    def jvp(ctx, *grad_inputs):\n"
    "        raise NotImplementedError('You must implement the jvp function for custom autograd.Function '\n"
    "                                  'to use it with forward mode AD.')\n"
    "\n"
    "    @classmethod\n"
    "    def apply(cls, *args):\n"
    "        ctx_cls = _ctx_classes.get(cls)\n"
    "        if ctx_cls is None:\n"
    "            ctx_cls = _ctx_class(cls.__name__ + 'Backward', BackwardCFunction)\n"
    "            _ctx_classes[cls] = ctx_cls\n"
    "        ctx = ctx_cls()\n"
    "        ctx._forward_cls = cls\n"
    "        ctx.materialize_grads = True\n"
    "        ctx.to_save = ()\n"
    "        ctx.non_differentiable = ()\n"
    "        ctx.dirty_tensors = ()\n"
    "        ctx.needs_input_grad = _needs_input_grad(args)\n"
    "        with torch.no_grad():\n"
    "            outputs = cls.forward(ctx, *args)\n"
    "        # _node_name: a node named as PyTorch's built-in op's (library functions written as Functions)\n"
    "        return _record(ctx, getattr(cls, '_node_name', None) or cls.__name__ + 'Backward', args, outputs)\n"
    "\n"
    "\n"
    "class InplaceFunction(Function):\n"
    "    def __init__(self, inplace=False):\n"
    "        self.inplace = inplace\n"
    "\n"
    "\n"
    "def once_differentiable(fn):\n"
    "    def wrapper(ctx, *args):\n"
    "        with torch.no_grad():\n"
    "            return fn(ctx, *args)\n"
    "    return wrapper\n";
/* source: end */

nn_object *repl_mod_autograd_function(void)
{
    return repl_mod_from_source("torch.autograd.function", helpers, sizeof helpers / sizeof *helpers, source);
}
