/*
 * autograd.c — the dynamic tape: recording nodes as ops run, and the one
 * backward walk (reverse topological order by sequence number, as PyTorch's
 * engine), tensor hooks, retain_grad and the in-place checks.
 *
 * Not here: each op's backward formula (next to its forward, in its op file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_custom_fn.h"
#include "nn_int.h"
#include "nn_autocast.h"

static _Thread_local bool grad_enabled = true;
static uint64_t next_sequence_nr;
static uint64_t next_epoch;
static int64_t next_hook_id;

bool nn_set_grad_enabled(bool enabled)
{
    bool prev = grad_enabled;
    grad_enabled = enabled;
    return prev;
}

bool nn_grad_enabled(void) { return grad_enabled; }

static _Thread_local bool inference_mode;

bool nn_set_inference_mode(bool enabled)
{
    bool prev = inference_mode;
    inference_mode = enabled;
    return prev;
}

bool nn_inference_mode(void) { return inference_mode; }

int nn_inference_inplace_check(const nn_tensor *t)
{
    if (!nn_is_inference(t) || inference_mode) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "Inplace update to inference tensor outside InferenceMode is not allowed.You "
                                        "can make a clone to get a normal tensor before doing inplace update.See "
                                        "https://github.com/pytorch/rfcs/pull/17 for more details.");
}

bool nn_needs_grad(int n, nn_tensor *const *inputs)
{
    if (!grad_enabled) return false;
    for (int i = 0; i < n; i++)
        if (inputs[i] && inputs[i]->requires_grad) return true;
    return false;
}

/* ------------------------------------------------------------------ nodes */

static void hooks_clear(nn_hook_list *list)
{
    for (nn_hook *h = list->first, *next; h; h = next) {
        next = h->next;
        NN_RELEASE(h->fn);
        nn_free(h);
    }
    list->first = NULL;
}

static void release_saved(nn_node *n)
{
    for (int i = 0; i < n->n_saved; i++) NN_SET(n->saved[i].tensor, NULL);
}

static void node_dealloc(nn_object *self)
{
    nn_node *n = (nn_node *)self;
    for (int i = 0; i < n->n_inputs; i++) {
        NN_RELEASE(n->next[i].node);
        NN_RELEASE(n->next[i].leaf);
    }
    release_saved(n);
    for (nn_node_callback *c = n->callbacks, *next; c; c = next) {
        next = c->next;
        NN_RELEASE(c->state);
        nn_free(c);
    }
    if (n->free_extra) n->free_extra(n->extra);
    hooks_clear(&n->hooks);
    if (n->retained)
        for (int i = 0; i < n->n_outputs; i++)
            if (n->retained[i]) n->retained[i]->retains_grad = false;
    nn_free(n->retained);
    NN_RELEASE(n->anomaly_trace);
    nn_free(n->next);
    nn_free(n);
}

static char *node_repr(nn_object *self)
{
    char buf[160];
    nn_node *n = (nn_node *)self;
    /* a user's Function's node (its class name + "Backward") is a Python class of torch.autograd.function;
       a library Function named as a built-in op's node (LinalgSolveTriangularBackward0) prints as that */
    const char *name = nn_node_name(n);
    size_t len = strlen(name);
    bool user = n->op == NN_OP_custom && len >= 8 && !strcmp(name + len - 8, "Backward");
    snprintf(buf, sizeof buf, "<%s%s object at %p>", user ? "torch.autograd.function." : "", name, (void *)self);
    return nn_strdup(buf);
}

const nn_type nn_node_type = {.name = "Node", .dealloc = node_dealloc, .repr = node_repr};

static void fill_meta(nn_input_meta *m, const nn_tensor *t)
{
    m->ndim = t->ndim;
    m->dtype = t->dtype;
    memcpy(m->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
}

static nn_node *node_new(nn_op_id op, int n_in, nn_tensor *const *inputs, int n_out)
{
    nn_node *n = nn_calloc(1, sizeof *n);
    if (!n) return NULL;
    /* edges, input metadata and output metadata share one block */
    n->next = nn_calloc(1, (size_t)n_in * sizeof(nn_edge) + (size_t)(n_in + n_out) * sizeof(nn_input_meta));
    if (!n->next) {
        nn_free(n);
        return NULL;
    }
    nn_object_init(&n->ob, &nn_node_type);
    n->op = op;
    n->sequence_nr = next_sequence_nr++;
    n->n_inputs = n_in;
    n->n_outputs = n_out;
    n->input_meta = (nn_input_meta *)(n->next + n_in);
    n->output_meta = n->input_meta + n_in;
    n->anomaly_trace = nn_anomaly_capture();
    for (int i = 0; i < n_in; i++) {
        nn_tensor *t = inputs[i];
        if (!t) continue;
        fill_meta(&n->input_meta[i], t);
        if (!t->requires_grad) continue;
        if (t->grad_fn) {
            n->next[i].node = t->grad_fn;
            n->next[i].input_nr = t->output_nr;
            NN_RETAIN(t->grad_fn);
        } else {
            n->next[i].leaf = t;
            NN_RETAIN(t);
        }
    }
    return n;
}

static const char *tensor_type_name(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "torch.FloatTensor", [NN_FLOAT64] = "torch.DoubleTensor", [NN_FLOAT16] = "torch.HalfTensor",
        [NN_BFLOAT16] = "torch.BFloat16Tensor", [NN_INT64] = "torch.LongTensor", [NN_INT32] = "torch.IntTensor",
        [NN_BOOL] = "torch.BoolTensor", [NN_UINT8] = "torch.ByteTensor", [NN_INT8] = "torch.CharTensor",
        [NN_INT16] = "torch.ShortTensor",
    };
    return names[dt];
}

static int node_save(nn_node *n, nn_tensor *t, bool is_output, int output_nr)
{
    if (t && nn_is_inference(t) && !inference_mode)
        return nn_error_set(NN_ERR_RUNTIME, "Inference tensors cannot be saved for backward. To work around you can "
                                            "make a clone to get a normal tensor and use it in autograd.");
    if (nn_saved_init(&n->saved[n->n_saved], t, is_output, output_nr, nn_node_name(n)) < 0) return -1;
    n->n_saved++;
    return 0;
}

/* Whether t is the history-free alias a node keeps of its own output, linked to the
   node for the duration of its create_graph backward (nn_saved_link). */
static bool is_linked_saved_output(const nn_tensor *t)
{
    const nn_node *n = t->grad_fn;
    for (int i = 0; n && i < n->n_saved; i++)
        if (n->saved[i].is_output && n->saved[i].tensor == t) return true;
    return false;
}

int nn_saved_init(nn_saved *s, nn_tensor *t, bool is_output, int output_nr, const char *node_name)
{
    if (!t) return 0; /* a slot the backward will not need */
    s->original = t;
    s->version = t->storage->version;
    s->is_output = is_output;
    if (is_output) {
        /* an alias without history: saving the output itself would be a cycle */
        s->tensor = nn_detach(t);
        if (!s->tensor) return -1;
        s->producer = node_name;
        s->producer_output_nr = output_nr;
    } else {
        if (is_linked_saved_output(t)) {
            /* a node's saved output, linked to it only while that node's create_graph
               backward runs: a node recorded now keeps its own alias with the link, so
               that its backward (a gradient of this gradient) still sees the history */
            nn_tensor *alias = nn_detach(t);
            if (!alias) return -1;
            NN_RETAIN(t->grad_fn);
            alias->grad_fn = t->grad_fn;
            alias->output_nr = t->output_nr;
            alias->requires_grad = true;
            t = alias;
        } else {
            NN_RETAIN(t);
        }
        s->tensor = t;
        s->producer = t->grad_fn ? nn_node_name(t->grad_fn) : NULL;
        s->producer_output_nr = t->output_nr;
    }
    return 0;
}

static void attach(nn_node *n, nn_tensor *out, int output_nr)
{
    NN_RETAIN(n);
    NN_SET(out->grad_fn, n);
    out->output_nr = output_nr;
    out->requires_grad = true;
    fill_meta(&n->output_meta[output_nr], out);
}

int nn_record(nn_op_id op, int n_in, nn_tensor *const *inputs, int n_out, nn_tensor *const *outputs,
              int n_save, nn_tensor *const *save, const nn_op_params *params)
{
    if (nn_op_observer) nn_op_observe(op, n_in, inputs, n_out, outputs);
    if (!nn_needs_grad(n_in, inputs)) return 0;
    nn_node *n = node_new(op, n_in, inputs, n_out);
    if (!n) return -1;
    if (params) n->p = *params;
    for (int i = 0; i < n_save; i++) {
        int output_nr = -1;
        for (int k = 0; k < n_out && save[i]; k++)
            if (save[i] == outputs[k]) output_nr = k;
        if (node_save(n, save[i], output_nr >= 0, output_nr) < 0) {
            NN_RELEASE(n);
            return -1;
        }
    }
    for (int k = 0; k < n_out; k++) attach(n, outputs[k], k);
    NN_RELEASE(n);
    return 0;
}

int nn_node_add_callback(nn_node *n, int (*pre)(nn_object *, nn_node *, nn_tensor **),
                         int (*post)(nn_object *, nn_node *, nn_tensor **, nn_tensor **), nn_object *state)
{
    nn_node_callback *c = nn_malloc(sizeof *c);
    if (!c) return -1;
    c->pre = pre;
    c->post = post;
    c->state = nn_retain(state);
    c->next = NULL;
    nn_node_callback **tail = &n->callbacks;
    while (*tail) tail = &(*tail)->next;
    *tail = c;
    return 0;
}

int nn_multi_output_inplace_error(const char *node_name, int output_nr)
{
    return nn_error_set(NN_ERR_RUNTIME,
                        "Output %d of %s is a view and is being modified inplace. This view is the output of a function "
                        "that returns multiple views. Such functions do not allow the output views to be modified "
                        "inplace. You should replace the inplace operation by an out-of-place one.",
                        output_nr, node_name);
}

int nn_check_inplace(nn_tensor *t)
{
    if (!grad_enabled) return 0;
    if (t->multi_output_view && t->grad_fn) return nn_multi_output_inplace_error(nn_node_name(t->grad_fn), t->output_nr);
    if (t->requires_grad && !t->grad_fn && !t->base)
        return nn_error_set(NN_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place operation.");
    if (t->base && t->base->requires_grad && !t->base->grad_fn)
        return nn_error_set(NN_ERR_RUNTIME,
                            "a view of a leaf Variable that requires grad is being used in an in-place operation.");
    return 0;
}

static int view_rebase_unsupported(void)
{
    return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "in-place operations on views of tensors that require grad are not "
                                                "supported; use an out-of-place operation or index assignment on the "
                                                "base tensor");
}

int nn_check_inplace_record(nn_tensor *t, int n_in, nn_tensor *const *inputs)
{
    if (nn_check_inplace(t) < 0) return -1;
    return t->base && nn_needs_grad(n_in, inputs) && !nn_copy_slices_fits(t, n_in, inputs) ? view_rebase_unsupported()
                                                                                           : 0;
}

int nn_rebase_view_history(nn_tensor *t, nn_node *fn)
{
    nn_tensor *base = t->base, *small[4] = {0};
    nn_tensor **ins = fn->n_inputs <= 4 ? small : nn_calloc((size_t)fn->n_inputs, sizeof *ins);
    if (!ins) return -1;
    ins[0] = base; /* the other edges are fn's */
    nn_node *cs = node_new(NN_OP_view_copy_slices, fn->n_inputs, ins, 1), *as = NULL;
    if (ins != small) nn_free(ins);
    if (!cs) return -1;
    for (int i = 1; i < fn->n_inputs; i++) {
        cs->next[i] = fn->next[i];
        if (cs->next[i].node) NN_RETAIN(cs->next[i].node);
        if (cs->next[i].leaf) NN_RETAIN(cs->next[i].leaf);
        cs->input_meta[i] = fn->input_meta[i];
    }
    int rc = nn_copy_slices_attach(cs, fn, t);
    if (rc == 0) {
        attach(cs, base, 0);
        /* after the base took its node: the view's edge leads to it */
        if (!(as = node_new(NN_OP_view_as_strided, 1, &base, 1)) || nn_copy_slices_attach(as, NULL, t) < 0) rc = -1;
        else attach(as, t, 0);
    }
    NN_RELEASE(cs);
    NN_RELEASE(as);
    return rc;
}

/* An in-place op on a view t of a base, as PyTorch's rebase_history: the op's node fn (edges: the view's
   old history, the other inputs) goes inside a CopySlices node that becomes the base's grad_fn (edges:
   the base's old history, then fn's other inputs); t's grad_fn becomes AsStridedBackward0 of the base. */
static int record_on_view(nn_op_id op, nn_tensor *t, int n_in, nn_tensor *const *inputs, int n_save,
                          nn_tensor *const *save, const nn_op_params *params, void *extra, void (*free_extra)(void *))
{
    if (!nn_copy_slices_fits(t, n_in, inputs)) {
        if (extra && free_extra) free_extra(extra);
        return view_rebase_unsupported();
    }
    nn_node *fn = node_new(op, n_in, inputs, 1);
    if (!fn) {
        if (extra && free_extra) free_extra(extra);
        return -1;
    }
    if (params) fn->p = *params;
    fn->extra = extra, fn->free_extra = free_extra;
    fill_meta(&fn->output_meta[0], t);
    int rc = 0;
    for (int i = 0; rc == 0 && i < n_save; i++) rc = node_save(fn, save[i], save[i] == t, save[i] == t ? 0 : -1);
    if (rc == 0 && nn_op_observer) nn_op_observe(op, n_in, inputs, 1, &t);
    if (rc == 0) rc = nn_rebase_view_history(t, fn);
    NN_RELEASE(fn);
    return rc;
}

int nn_record_inplace_extra(nn_op_id op, nn_tensor *t, int n_in, nn_tensor *const *inputs, int n_save,
                            nn_tensor *const *save, const nn_op_params *params, void *extra, void (*free_extra)(void *))
{
    if (!nn_needs_grad(n_in, inputs)) {
        if (extra && free_extra) free_extra(extra);
        return 0;
    }
    if (t->base) return record_on_view(op, t, n_in, inputs, n_save, save, params, extra, free_extra);
    /* The edges capture t's history before the write; then t takes the new node. */
    if (nn_record(op, n_in, inputs, 1, &t, n_save, save, params) < 0) {
        if (extra && free_extra) free_extra(extra);
        return -1;
    }
    t->grad_fn->extra = extra;
    t->grad_fn->free_extra = free_extra;
    return 0;
}

int nn_record_inplace(nn_op_id op, nn_tensor *t, int n_in, nn_tensor *const *inputs, int n_save,
                      nn_tensor *const *save, const nn_op_params *params)
{
    return nn_record_inplace_extra(op, t, n_in, inputs, n_save, save, params, NULL, NULL);
}

int nn_set_requires_grad(nn_tensor *t, bool requires_grad)
{
    if (t->grad_fn) {
        if (!requires_grad)
            return nn_error_set(NN_ERR_RUNTIME,
                                "you can only change requires_grad flags of leaf variables. If you want to use a "
                                "computed variable in a subgraph that doesn't require differentiation use "
                                "var_no_grad = var.detach().");
        return 0;
    }
    if (requires_grad && !nn_dtype_is_floating(t->dtype) && !nn_dtype_is_complex(t->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "only Tensors of floating point and complex dtype can require gradients");
    if (requires_grad && nn_is_inference(t) && !inference_mode)
        return nn_error_set(NN_ERR_RUNTIME,
                            "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.");
    t->requires_grad = requires_grad;
    return 0;
}

const char *nn_grad_fn_name(const nn_tensor *t) { return t->grad_fn ? nn_node_name(t->grad_fn) : NULL; }

/* ------------------------------------------------------------------ hooks */

static int64_t hook_add(nn_hook_list **listp, nn_hook_list *inline_list, nn_object *fn, int output_nr)
{
    nn_hook_list *list = inline_list;
    if (!list) {
        if (!*listp && !(*listp = nn_calloc(1, sizeof **listp))) return -1;
        list = *listp;
    }
    nn_hook *h = nn_malloc(sizeof *h);
    if (!h) return -1;
    h->id = ++next_hook_id;
    h->fn = nn_retain(fn);
    h->output_nr = output_nr;
    h->next = NULL;
    nn_hook **tail = &list->first;
    while (*tail) tail = &(*tail)->next;
    *tail = h;
    return h->id;
}

static void hook_remove(nn_hook_list *list, int64_t id)
{
    if (!list) return;
    for (nn_hook **p = &list->first; *p; p = &(*p)->next) {
        if ((*p)->id == id) {
            nn_hook *h = *p;
            *p = h->next;
            NN_RELEASE(h->fn);
            nn_free(h);
            return;
        }
    }
}

int64_t nn_tensor_register_hook(nn_tensor *t, nn_object *hook)
{
    if (!t->requires_grad)
        return nn_error_set(NN_ERR_RUNTIME, "cannot register a hook on a tensor that doesn't require gradient");
    if (t->grad_fn) return hook_add(NULL, &t->grad_fn->hooks, hook, t->output_nr);
    return hook_add(&t->hooks, NULL, hook, 0);
}

void nn_tensor_remove_hook(nn_tensor *t, int64_t handle)
{
    hook_remove(t->hooks, handle);
    if (t->grad_fn) hook_remove(&t->grad_fn->hooks, handle);
}

int nn_retain_grad(nn_tensor *t)
{
    if (!t->requires_grad)
        return nn_error_set(NN_ERR_RUNTIME, "can't retain_grad on Tensor that has requires_grad=False");
    if (!t->grad_fn || t->retains_grad) return 0;
    nn_node *n = t->grad_fn;
    if (!n->retained && !(n->retained = nn_calloc((size_t)n->n_outputs, sizeof(nn_tensor *)))) return -1;
    n->retained[t->output_nr] = t;
    t->retains_grad = true;
    bool hooked = false;
    for (nn_hook *h = n->hooks.first; h && !hooked; h = h->next) hooked = h->output_nr == t->output_nr;
    if (!hooked && t->output_nr < 64) n->retained_raw |= (uint64_t)1 << t->output_nr;
    return 0;
}

/* Calls hook(grad); replaces *grad when it returns a tensor. */
static int run_hook(nn_object *fn, nn_tensor **grad)
{
    nn_object *args = nn_tuple_pack(1, (nn_object *)*grad);
    if (!args) return -1;
    nn_object *result = nn_call(fn, args, NULL);
    NN_RELEASE(args);
    if (!result) return -1;
    if (nn_is_none(result)) {
        NN_RELEASE(result);
        return 0;
    }
    if (!nn_is_tensor(result)) {
        NN_RELEASE(result);
        return nn_error_set(NN_ERR_TYPE, "hook returned a value that is not a Tensor or None");
    }
    nn_tensor *r = NN_TENSOR(result);
    if (r->ndim != (*grad)->ndim || memcmp(r->sizes, (*grad)->sizes, sizeof(int64_t) * (size_t)r->ndim) != 0) {
        char a[256], b[256];
        nn_error_set(NN_ERR_RUNTIME, "hook has changed the size of value: expected %s, got %s",
                     nn_shape_str((*grad)->ndim, (*grad)->sizes, a, sizeof a), nn_shape_str(r->ndim, r->sizes, b, sizeof b));
        NN_RELEASE(r);
        return -1;
    }
    NN_SET(*grad, r);
    return 0;
}

static int run_hooks(nn_hook_list *list, int output_nr, nn_tensor **grad)
{
    if (!list) return 0;
    for (nn_hook *h = list->first; h; h = h->next)
        if (h->output_nr == output_nr && run_hook(h->fn, grad) < 0) return -1;
    return 0;
}

/* ------------------------------------------------------------- the engine */

/* grad += incoming, into *slot (takes incoming). Out of place when graphs are built. */
static int accumulate(nn_tensor **slot, nn_tensor *incoming, bool create_graph)
{
    if (!*slot) {
        *slot = incoming;
        return 0;
    }
    nn_tensor *sum = nn_add(*slot, incoming);
    NN_RELEASE(incoming);
    if (!sum) return -1;
    (void)create_graph;
    NN_SET(*slot, sum);
    return 0;
}

/* Can grad become leaf.grad as it is? Only when no other tensor shares its
   storage (a view counts if its base is held by nothing else) and it lays out
   the leaf's elements densely, as PyTorch's AccumulateGrad steals. */
static bool can_steal(const nn_tensor *grad, const nn_tensor *leaf)
{
    if (grad->ob.refcount != 1 || grad->grad_fn || grad->dtype != leaf->dtype || !nn_is_contiguous(grad)) return false;
    if (grad->offset != 0 || grad->storage->nbytes != (size_t)nn_numel(grad) * nn_dtype_size(grad->dtype)) return false;
    if (!grad->base) return grad->storage->refcount == 1;
    return grad->base->ob.refcount == 1 && !grad->base->base && grad->storage->refcount == 2;
}

/* The leaves a backward of nn_backward_inputs may accumulate into (n_only_leaves
   of them), or none listed: every leaf. Per thread, and saved around a backward
   run inside another (a hook's). */
static _Thread_local nn_tensor *const *only_leaves;
static _Thread_local int n_only_leaves = -1;
/* torch.autograd.grad's capture (nn_backward_capture): with create_graph, the gradients
   reaching the inputs are kept as the backward made them, not copied (a copy would put a
   CloneBackward0 where PyTorch's result has the backward's own node); accumulation is
   out of place then, so the kept tensor is never written through. */
static _Thread_local bool capture_raw;

/* torch.autograd.grad's tensors made by ops (nn_backward_grad): the gradient reaching
   output output_nr of node goes into *slot. Per thread, saved around a nested backward. */
typedef struct grad_capture {
    nn_node *node;    /* borrowed: the captured tensor's grad_fn */
    int output_nr;
    nn_tensor **slot;
} grad_capture;
static _Thread_local grad_capture *captures;
static _Thread_local int n_captures;
/* Whether the walk runs only the nodes marked needed (a restricted walk). */
static _Thread_local bool walk_pruned;

static bool leaf_wanted(const nn_tensor *leaf)
{
    if (n_only_leaves < 0) return true;
    for (int i = 0; i < n_only_leaves; i++)
        if (only_leaves[i] == leaf) return true;
    return false;
}

/* Accumulates a gradient into a leaf's .grad after its hooks; takes grad. */
static int accumulate_leaf(nn_tensor *leaf, nn_tensor *grad, bool create_graph)
{
    if (!leaf_wanted(leaf)) {
        NN_RELEASE(grad);
        return 0;
    }
    if (run_hooks(leaf->hooks, 0, &grad) < 0) {
        NN_RELEASE(grad);
        return -1;
    }
    if (!leaf->grad) {
        if (capture_raw && create_graph && grad->dtype == leaf->dtype) {
            leaf->grad = grad;
            return 0;
        }
        /* keep the gradient when nobody else can see its memory; else a private copy */
        if (can_steal(grad, leaf)) {
            NN_SET(grad->base, NULL);
            leaf->grad = grad;
            return 0;
        }
        bool prev = nn_set_grad_enabled(create_graph);
        nn_tensor *copy = grad->dtype == leaf->dtype ? nn_clone(grad) : nn_to_dtype(grad, leaf->dtype);
        nn_set_grad_enabled(prev);
        NN_RELEASE(grad);
        if (!copy) return -1;
        leaf->grad = copy;
        return 0;
    }
    int rc;
    if (create_graph || leaf->grad->grad_fn) {
        nn_tensor *sum = nn_add(leaf->grad, grad);
        rc = sum ? 0 : -1;
        if (sum) NN_SET(leaf->grad, sum);
    } else {
        bool prev = nn_set_grad_enabled(false);
        rc = nn_add_(leaf->grad, grad, 1.0);
        nn_set_grad_enabled(prev);
    }
    NN_RELEASE(grad);
    return rc;
}

/* A leaf with tensor hooks gets the gradients of all its edges in one walk
   summed before its hooks run, once, on the sum (PyTorch's AccumulateGrad is a
   node like any other: its input buffer adds up every incoming gradient). The
   walk's table of such leaves, per thread, saved around a nested backward. */
typedef struct hooked_leaf {
    nn_tensor *leaf;  /* borrowed: the graph's edges keep it alive */
    int pending;      /* edges into it whose gradient has not come yet */
    nn_tensor *sum;   /* what has come so far, or NULL */
} hooked_leaf;
typedef struct hooked_leaves {
    hooked_leaf *items;
    size_t len, cap;
} hooked_leaves;
static _Thread_local hooked_leaves *walk_hooked;

static bool has_hooks(const nn_tensor *leaf) { return leaf->hooks && leaf->hooks->first; }

/* Counts the edges into hooked leaves of the walk's nodes. 0 or -1 (MemoryError). */
static int hooked_leaves_find(hooked_leaves *t, nn_node *const *nodes, size_t n_nodes)
{
    for (size_t i = 0; i < n_nodes; i++)
        for (int k = 0; k < nodes[i]->n_inputs; k++) {
            nn_tensor *leaf = nodes[i]->next[k].leaf;
            if (!leaf || !has_hooks(leaf)) continue;
            size_t j = 0;
            while (j < t->len && t->items[j].leaf != leaf) j++;
            if (j == t->len) {
                if (t->len == t->cap) {
                    size_t cap = t->cap ? 2 * t->cap : 4;
                    hooked_leaf *grown = nn_realloc(t->items, cap * sizeof *grown);
                    if (!grown) return -1;
                    t->items = grown, t->cap = cap;
                }
                t->items[t->len++] = (hooked_leaf){leaf, 0, NULL};
            }
            t->items[j].pending++;
        }
    return 0;
}

/* A gradient for a leaf along one edge (takes grad): straight into .grad, or
   for a hooked leaf into its sum, which goes (hooks first) when its last edge has. */
static int deliver_leaf(nn_tensor *leaf, nn_tensor *grad, bool create_graph)
{
    hooked_leaf *h = NULL;
    for (size_t j = 0; walk_hooked && j < walk_hooked->len && !h; j++)
        if (walk_hooked->items[j].leaf == leaf) h = &walk_hooked->items[j];
    if (!h) return accumulate_leaf(leaf, grad, create_graph);
    if (accumulate(&h->sum, grad, create_graph) < 0) return -1;
    if (--h->pending > 0) return 0;
    nn_tensor *sum = h->sum;
    h->sum = NULL;
    return accumulate_leaf(leaf, sum, create_graph);
}

static int check_saved_versions(nn_node *n)
{
    if (n->released && n->op != NN_OP_custom) /* a custom node checks when its saved tensors are read */
        return nn_saved_freed_error();
    for (int i = 0; i < n->n_saved; i++)
        if (nn_saved_check(&n->saved[i]) < 0) return -1;
    return 0;
}

int nn_saved_freed_error(void)
{
    return nn_error_set(NN_ERR_RUNTIME,
                        "Trying to backward through the graph a second time (or directly access saved tensors "
                        "after they have already been freed). Saved intermediate values of the graph are freed "
                        "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
                        "backward through the graph a second time or if you need to access saved tensors after "
                        "calling backward.");
}

int nn_saved_check(nn_saved *s)
{
    if (!s->tensor || s->tensor->storage->version == s->version) return 0;
    nn_tensor *t = s->tensor;
    char shape[256], which[128] = "";
    if (!s->is_output) { /* PyTorch names the tensor's history as it is now */
        s->producer = t->grad_fn ? nn_node_name(t->grad_fn) : NULL;
        s->producer_output_nr = t->output_nr;
    }
    if (s->producer) snprintf(which, sizeof which, ", which is output %d of %s,", s->producer_output_nr, s->producer);
    return nn_error_set(NN_ERR_RUNTIME,
                        "one of the variables needed for gradient computation has been modified by an inplace "
                        "operation: [%s %s]%s is at version %llu; expected version %llu instead. Hint: enable "
                        "anomaly detection to find the operation that failed to compute its gradient, with "
                        "torch.autograd.set_detect_anomaly(True).",
                        tensor_type_name(t->dtype), nn_shape_str(t->ndim, t->sizes, shape, sizeof shape), which,
                        (unsigned long long)t->storage->version, (unsigned long long)s->version);
}


/* A max-heap of nodes by sequence number: later nodes run first, as in PyTorch. */
typedef struct heap {
    nn_node **items;
    size_t len, cap;
} heap;

static int heap_push(heap *h, nn_node *n)
{
    if (h->len == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 16;
        nn_node **items = nn_realloc(h->items, cap * sizeof *items);
        if (!items) return -1;
        h->items = items;
        h->cap = cap;
    }
    size_t i = h->len++;
    while (i > 0 && h->items[(i - 1) / 2]->sequence_nr < n->sequence_nr) {
        h->items[i] = h->items[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->items[i] = n;
    return 0;
}

static nn_node *heap_pop(heap *h)
{
    nn_node *top = h->items[0], *last = h->items[--h->len];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->len) break;
        if (c + 1 < h->len && h->items[c + 1]->sequence_nr > h->items[c]->sequence_nr) c++;
        if (h->items[c]->sequence_nr <= last->sequence_nr) break;
        h->items[i] = h->items[c];
        i = c;
    }
    if (h->len) h->items[i] = last;
    return top;
}

/* Collects every node reachable from root and counts, for each, how many edges
   of the graph lead into it. Marks them with epoch. */
static int discover(nn_node *root, uint64_t epoch, heap *all)
{
    heap stack = {0};
    int rc = 0;
    root->epoch = epoch;
    root->dependencies = 0;
    if (heap_push(all, root) < 0 || heap_push(&stack, root) < 0) rc = -1;
    while (rc == 0 && stack.len) {
        nn_node *n = stack.items[--stack.len];
        for (int i = 0; i < n->n_inputs; i++) {
            nn_node *next = n->next[i].node;
            if (!next) continue;
            if (next->epoch != epoch) {
                next->epoch = epoch;
                next->dependencies = 0;
                if (heap_push(all, next) < 0 || heap_push(&stack, next) < 0) {
                    rc = -1;
                    break;
                }
            }
            next->dependencies++;
        }
    }
    nn_free(stack.items);
    return rc;
}

static int check_grad_shape(nn_node *n, int i, nn_tensor **g)
{
    nn_input_meta *m = &n->input_meta[i];
    nn_tensor *grad = *g;
    if (grad->ndim != m->ndim || memcmp(grad->sizes, m->sizes, sizeof(int64_t) * (size_t)m->ndim) != 0) {
        char a[256], b[256];
        return nn_error_set(NN_ERR_RUNTIME,
                            "Function %s returned an invalid gradient at index %d - got %s but expected shape "
                            "compatible with %s",
                            nn_node_name(n), i, nn_shape_str(grad->ndim, grad->sizes, a, sizeof a),
                            nn_shape_str(m->ndim, m->sizes, b, sizeof b));
    }
    if (nn_dtype_is_complex(grad->dtype) && !nn_dtype_is_complex(m->dtype)) {
        /* a real input of a complex result: the real part (PyTorch's handle_r_to_c) */
        nn_tensor *re = nn_real(grad);
        if (!re) return -1;
        NN_SET(*g, re);
        grad = re;
    }
    if (grad->dtype != m->dtype && (nn_dtype_is_floating(m->dtype) || nn_dtype_is_complex(m->dtype))) {
        nn_tensor *cast = nn_to_dtype(grad, m->dtype);
        if (!cast) return -1;
        NN_SET(*g, cast);
    }
    return 0;
}

/* A saved output is kept without history (no cycle). For create_graph its
   backward must see it as the node's output again, so that gradients of
   gradients flow through this node: linked for the call, unlinked after. */
static void link_saved_outputs(nn_node *n, bool link)
{
    for (int i = 0; i < n->n_saved; i++) nn_saved_link(n, &n->saved[i], link);
}

void nn_saved_link(nn_node *n, nn_saved *s, bool link)
{
    if (!s->is_output || !s->tensor) return;
    if (link) {
        NN_RETAIN(n);
        s->tensor->grad_fn = n;
        s->tensor->output_nr = s->producer_output_nr;
        s->tensor->requires_grad = true;
    } else {
        NN_SET(s->tensor->grad_fn, NULL);
        s->tensor->requires_grad = false;
    }
}

static bool is_captured(const nn_node *n)
{
    for (int i = 0; i < n_captures; i++)
        if (captures[i].node == n) return true;
    return false;
}

static int by_sequence(const void *a, const void *b)
{
    uint64_t x = (*(nn_node *const *)a)->sequence_nr, y = (*(nn_node *const *)b)->sequence_nr;
    return x < y ? -1 : x > y;
}

/* Marks the walk's nodes that lead to a wanted leaf or a captured node (PyTorch's
   exec_info needed_): the others are not run. Inputs are made before the ops that use
   them, so in sequence order one pass settles almost every node; it repeats until none
   changes. 0 or -1 (MemoryError). */
static int mark_needed(nn_node *const *nodes, size_t n_nodes)
{
    nn_node **order = nn_malloc((n_nodes ? n_nodes : 1) * sizeof *order);
    if (!order) return -1;
    memcpy(order, nodes, n_nodes * sizeof *order);
    qsort(order, n_nodes, sizeof *order, by_sequence);
    for (size_t i = 0; i < n_nodes; i++) order[i]->needed = false;
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < n_nodes; i++) {
            nn_node *n = order[i];
            if (n->needed) continue;
            for (int k = 0; k < n->n_inputs && !n->needed; k++) {
                nn_edge *e = &n->next[k];
                if (e->leaf ? leaf_wanted(e->leaf) : e->node && (e->node->needed || is_captured(e->node)))
                    n->needed = changed = true;
            }
        }
    }
    nn_free(order);
    return 0;
}

/* Takes the captured gradients of n's outputs (before hooks, as PyTorch 1.13). */
static int capture_outputs(nn_node *n, bool create_graph)
{
    for (int i = 0; i < n_captures; i++) {
        nn_tensor *g = captures[i].node == n ? n->buffer[captures[i].output_nr] : NULL;
        if (g && accumulate(captures[i].slot, (nn_tensor *)nn_retain(&g->ob), create_graph) < 0) return -1;
    }
    return 0;
}

/* Runs one node: hooks on its incoming gradients, its backward, then routes
   the results along its edges. Consumes n->buffer. */
static int run_node(nn_node *n, heap *ready, bool retain_graph, bool create_graph)
{
    if (n_captures && capture_outputs(n, create_graph) < 0) {
        for (int k = 0; k < n->n_outputs; k++) NN_SET(n->buffer[k], NULL);
        return -1;
    }
    if (walk_pruned && !n->needed) { /* passes nothing on, keeps its saved tensors */
        int rc = 0;
        for (int k = 0; k < n->n_outputs; k++) NN_SET(n->buffer[k], NULL);
        for (int i = 0; rc == 0 && i < n->n_inputs; i++) {
            nn_edge *e = &n->next[i];
            if (e->node && --e->node->dependencies == 0) rc = heap_push(ready, e->node);
        }
        return rc;
    }

    /* gradients for the inputs: zeroed first, so every exit path may release them */
    nn_tensor *gin_small[8] = {NULL}, **gin = gin_small;
    if (n->n_inputs > 8 && !(gin = nn_calloc((size_t)n->n_inputs, sizeof *gin))) {
        for (int k = 0; k < n->n_outputs; k++) NN_SET(n->buffer[k], NULL);
        return -1;
    }
    int rc = check_saved_versions(n);
    for (int k = 0; rc == 0 && k < n->n_outputs; k++) {
        if (!n->buffer[k]) continue;
        nn_tensor *keeper = n->retained ? n->retained[k] : NULL;
        bool raw = k < 64 && (n->retained_raw >> k & 1);
        if (!raw) rc = run_hooks(&n->hooks, k, &n->buffer[k]);
        if (rc == 0 && keeper) {
            nn_tensor *copy = capture_raw && create_graph ? (nn_tensor *)nn_retain(&n->buffer[k]->ob) : nn_clone(n->buffer[k]);
            rc = copy ? accumulate(&keeper->grad, copy, create_graph) : -1;
        }
        if (rc == 0 && raw) rc = run_hooks(&n->hooks, k, &n->buffer[k]);
    }
    for (nn_node_callback *c = n->callbacks; rc == 0 && c; c = c->next)
        if (c->pre) rc = c->pre(c->state, n, n->buffer);
    bool any_grad = false;
    for (int k = 0; k < n->n_outputs; k++) any_grad |= n->buffer[k] != NULL;
    if (rc == 0 && any_grad) { /* a node that got no gradient passes none on */
        bool prev = nn_set_grad_enabled(create_graph), autocast = nn_autocast_set_enabled(false);
        if (create_graph) link_saved_outputs(n, true);
        rc = nn_backward_table[n->op](n, n->buffer, gin);
        if (rc == 0 && nn_backward_observer) nn_backward_observe(n, n->buffer, gin);
        if (nn_detect_anomaly_enabled()) rc = nn_anomaly_check(n, rc, gin);
        if (create_graph) link_saved_outputs(n, false);
        for (nn_node_callback *c = n->callbacks; rc == 0 && c; c = c->next)
            if (c->post) rc = c->post(c->state, n, gin, n->buffer);
        nn_set_grad_enabled(prev);
        nn_autocast_set_enabled(autocast);
    }
    for (int k = 0; k < n->n_outputs; k++) NN_SET(n->buffer[k], NULL);
    if (rc == 0 && !retain_graph) {
        release_saved(n);
        if (n->op == NN_OP_custom) nn_custom_release(n);
        n->released = true;
    }
    for (int i = 0; i < n->n_inputs; i++) {
        nn_edge *e = &n->next[i];
        if (rc == 0 && gin[i]) rc = check_grad_shape(n, i, &gin[i]);
        if (rc == 0 && gin[i] && e->leaf) {
            rc = deliver_leaf(e->leaf, gin[i], create_graph);
            gin[i] = NULL;
        } else if (rc == 0 && gin[i] && e->node) {
            rc = accumulate(&e->node->buffer[e->input_nr], gin[i], create_graph);
            gin[i] = NULL;
        }
        NN_RELEASE(gin[i]);
        if (rc == 0 && e->node && --e->node->dependencies == 0) rc = heap_push(ready, e->node);
    }
    if (gin != gin_small) nn_free(gin);
    return rc;
}

static int run_backward(nn_tensor *root, nn_tensor *gradient, bool retain_graph, bool create_graph);

/* Runs a backward with the leaves it may accumulate into (n < 0: every one). */
static int backward_restricted(nn_tensor *root, nn_tensor *gradient, bool retain_graph, bool create_graph, int n,
                               nn_tensor *const *leaves, int n_caps, grad_capture *caps)
{
    nn_tensor *const *saved = only_leaves;
    int n_saved = n_only_leaves, n_caps_saved = n_captures;
    grad_capture *caps_saved = captures;
    only_leaves = leaves, n_only_leaves = n;
    captures = caps, n_captures = n_caps;
    int rc = run_backward(root, gradient, retain_graph, create_graph);
    only_leaves = saved, n_only_leaves = n_saved;
    captures = caps_saved, n_captures = n_caps_saved;
    return rc;
}

bool nn_backward_is_restricted(void) { return walk_pruned; }

int nn_backward(nn_tensor *root, nn_tensor *gradient, bool retain_graph, bool create_graph)
{
    return backward_restricted(root, gradient, retain_graph, create_graph, -1, NULL, 0, NULL);
}

int nn_backward_restricted(nn_tensor *root, nn_tensor *gradient, bool retain_graph, bool create_graph, int n_leaves,
                           nn_tensor *const *leaves)
{
    return backward_restricted(root, gradient, retain_graph, create_graph, n_leaves, leaves, 0, NULL);
}

int nn_backward_capture(nn_tensor *root, nn_tensor *gradient, bool retain_graph, bool create_graph, int n_leaves,
                        nn_tensor *const *leaves)
{
    bool prev = capture_raw;
    capture_raw = true;
    int rc = backward_restricted(root, gradient, retain_graph, create_graph, n_leaves, leaves, 0, NULL);
    capture_raw = prev;
    return rc;
}

int nn_backward_grad(nn_tensor *root, nn_tensor *gradient, bool retain_graph, bool create_graph, int n_leaves,
                     nn_tensor *const *leaves, int n_nonleaf, nn_tensor *const *nonleaf, nn_tensor **slots, bool raw)
{
    grad_capture *caps = n_nonleaf ? nn_calloc((size_t)n_nonleaf, sizeof *caps) : NULL;
    if (n_nonleaf && !caps) return -1;
    for (int i = 0; i < n_nonleaf; i++) caps[i] = (grad_capture){nonleaf[i]->grad_fn, nonleaf[i]->output_nr, &slots[i]};
    bool prev = capture_raw;
    capture_raw = raw;
    int rc = backward_restricted(root, gradient, retain_graph, create_graph, n_leaves, leaves, n_nonleaf, caps);
    capture_raw = prev;
    nn_free(caps);
    return rc;
}

int nn_backward_inputs(nn_tensor *root, nn_tensor *gradient, int n_leaves, nn_tensor *const *leaves)
{
    return backward_restricted(root, gradient, false, false, n_leaves, leaves, 0, NULL);
}

static int run_backward(nn_tensor *root, nn_tensor *gradient, bool retain_graph, bool create_graph)
{
    if (!root->requires_grad)
        return nn_error_set(NN_ERR_RUNTIME, "element 0 of tensors does not require grad and does not have a grad_fn");
    nn_tensor *grad;
    if (!gradient) {
        if (nn_numel(root) != 1) return nn_error_set(NN_ERR_RUNTIME, "grad can be implicitly created only for scalar outputs");
        grad = nn_ones_like(root);
        if (!grad) return -1;
    } else {
        if (gradient->ndim != root->ndim ||
            memcmp(gradient->sizes, root->sizes, sizeof(int64_t) * (size_t)root->ndim) != 0) {
            char a[256], b[256];
            return nn_error_set(NN_ERR_RUNTIME,
                                "Mismatch in shape: grad_output[0] has a shape of torch.Size(%s) and output[0] has a "
                                "shape of torch.Size(%s).",
                                nn_shape_str(gradient->ndim, gradient->sizes, a, sizeof a),
                                nn_shape_str(root->ndim, root->sizes, b, sizeof b));
        }
        NN_RETAIN(gradient);
        grad = gradient;
    }
    if (!root->grad_fn) return accumulate_leaf(root, grad, create_graph);

    uint64_t epoch = ++next_epoch;
    heap all = {0}, ready = {0};
    int rc = discover(root->grad_fn, epoch, &all);
    bool outer_pruned = walk_pruned;
    walk_pruned = n_only_leaves >= 0 || n_captures > 0;
    if (rc == 0 && walk_pruned) rc = mark_needed(all.items, all.len);
    hooked_leaves hooked = {0}, *outer_hooked = walk_hooked;
    if (rc == 0) rc = hooked_leaves_find(&hooked, all.items, all.len);
    walk_hooked = &hooked;
    for (size_t i = 0; rc == 0 && i < all.len; i++) {
        nn_node *n = all.items[i];
        n->buffer = nn_calloc((size_t)n->n_outputs, sizeof(nn_tensor *));
        if (!n->buffer) rc = -1;
    }
    /* Everything stays alive during the walk: the heaps hold borrowed nodes. */
    NN_RETAIN(root->grad_fn);
    nn_node *top = root->grad_fn;
    if (rc == 0) {
        top->buffer[root->output_nr] = grad;
        grad = NULL;
        rc = heap_push(&ready, top);
    }
    while (rc == 0 && ready.len) {
        rc = nn_check_interrupt();
        if (rc == 0) rc = run_node(heap_pop(&ready), &ready, retain_graph, create_graph);
    }
    walk_hooked = outer_hooked;
    walk_pruned = outer_pruned;
    for (size_t j = 0; j < hooked.len; j++) { /* edges that carried no gradient: the sum goes now */
        nn_tensor *sum = hooked.items[j].sum;
        if (sum && rc == 0) rc = accumulate_leaf(hooked.items[j].leaf, sum, create_graph);
        else NN_RELEASE(sum);
    }
    nn_free(hooked.items);
    for (size_t i = 0; i < all.len; i++) {
        nn_node *n = all.items[i];
        if (!n->buffer) continue;
        for (int k = 0; k < n->n_outputs; k++) NN_RELEASE(n->buffer[k]);
        nn_free(n->buffer);
        n->buffer = NULL;
    }
    NN_RELEASE(grad);
    NN_RELEASE(top);
    nn_free(all.items);
    nn_free(ready.items);
    return rc;
}

/* ------------------------------------------------------------ helpers */

nn_tensor *nn_sum_to_size(nn_tensor *grad, int ndim, const int64_t *sizes)
{
    int lead = grad->ndim - ndim;
    int dims[NN_MAX_DIMS], nd = 0;
    for (int d = 0; d < grad->ndim; d++)
        if (d < lead || (sizes[d - lead] == 1 && grad->sizes[d] != 1)) dims[nd++] = d;
    if (nd == 0) {
        NN_RETAIN(grad);
        return grad;
    }
    nn_tensor *summed = nn_sum(grad, nd, dims, true);
    if (!summed) return NULL;
    nn_tensor *out = nn_view(summed, ndim, sizes);
    NN_RELEASE(summed);
    return out;
}

/* For nodes recorded outside nn_record (custom_fn.c). */
nn_node *nn_node_create(nn_op_id op, int n_in, nn_tensor *const *inputs, int n_out)
{
    return node_new(op, n_in, inputs, n_out);
}

void nn_node_attach(nn_node *n, nn_tensor *out, int output_nr) { attach(n, out, output_nr); }

void nn_node_output_meta(nn_node *n, nn_tensor *out, int output_nr) { fill_meta(&n->output_meta[output_nr], out); }
