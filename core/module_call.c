/*
 * module_call.c — Module.__call__, the one call path of every module, with
 * PyTorch's hook semantics: global then module forward pre-hooks (with_kwargs,
 * prepend), forward hooks (always_call), full backward (pre-)hooks through an
 * identity node on inputs and outputs, the deprecated backward hooks, and
 * removable hook handles.
 */
#include <stdio.h>
#include <string.h>

#include "nn_int.h"

/* -------------------------------------------------------------- handles */

static int64_t next_handle_id;

typedef struct hook_handle {
    nn_object ob;
    int64_t id;
    nn_object *dicts[3]; /* owned: the dicts the id is removed from */
} hook_handle;

static void handle_dealloc(nn_object *self)
{
    hook_handle *h = (hook_handle *)self;
    for (int i = 0; i < 3; i++) NN_RELEASE(h->dicts[i]);
    nn_free(h);
}

static char *handle_repr(nn_object *self)
{
    char buf[96];
    snprintf(buf, sizeof buf, "<torch.utils.hooks.RemovableHandle object at %p>", (void *)self);
    return nn_strdup(buf);
}

/* A handle kept on its module (self.h = self.register_forward_hook(...)) is
   part of the module's cycle: the collector sees the dicts it holds. */
static void handle_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    hook_handle *h = (hook_handle *)self;
    for (int i = 0; i < 3; i++)
        if (h->dicts[i]) visit(h->dicts[i], arg);
}

static void handle_clear(nn_object *self)
{
    hook_handle *h = (hook_handle *)self;
    for (int i = 0; i < 3; i++) NN_SET(h->dicts[i], NULL);
}

const nn_type nn_hook_handle_type = {.name = "RemovableHandle", .dealloc = handle_dealloc, .repr = handle_repr,
                                     .traverse = handle_traverse, .clear = handle_clear};

int64_t nn_hook_handle_id(const nn_object *handle) { return ((const hook_handle *)handle)->id; }

void nn_hook_handle_remove(nn_object *handle)
{
    /* finds the id's key object in each dict, so removal needs no allocation
       (it must work under memory pressure too) */
    hook_handle *h = (hook_handle *)handle;
    for (int i = 0; i < 3; i++) {
        size_t pos = 0;
        nn_object *key;
        while (h->dicts[i] && nn_dict_next(h->dicts[i], &pos, &key, NULL)) {
            if (nn_is_int(key) && nn_int_value(key) == h->id) {
                NN_RETAIN(key);
                nn_dict_del(h->dicts[i], key); /* present: cannot fail */
                NN_RELEASE(key);
                break;
            }
        }
    }
}

/* ------------------------------------------------------------ global hooks */

static nn_object *global_forward_pre, *global_forward, *global_forward_always, *global_backward_pre,
    *global_backward;
static int global_is_full_backward = -1;

static int ensure_globals(void)
{
    nn_object **dicts[] = {&global_forward_pre, &global_forward, &global_forward_always, &global_backward_pre,
                           &global_backward};
    for (size_t i = 0; i < 5; i++)
        if (!*dicts[i] && !(*dicts[i] = nn_dict_new())) return -1;
    return 0;
}

static bool has_global_hooks(void)
{
    return (global_forward_pre && nn_dict_len(global_forward_pre)) || (global_forward && nn_dict_len(global_forward)) ||
           (global_backward_pre && nn_dict_len(global_backward_pre)) ||
           (global_backward && nn_dict_len(global_backward));
}

/* --------------------------------------------------------- registration */


nn_object *nn_module_register_hook(nn_module *m, nn_hook_kind kind, nn_object *hook, nn_hook_options o)
{
    if (!hook || !hook->type->call) {
        nn_error_set(NN_ERR_TYPE, "hook must be callable");
        return NULL;
    }
    if (!m && ensure_globals() < 0) return NULL;
    nn_object *dict = NULL, *extra1 = NULL, *extra2 = NULL;
    int *backward_flag = NULL; /* set once the hook is registered */
    switch (kind) {
    case NN_HOOK_FORWARD_PRE:
        dict = m ? m->forward_pre_hooks : global_forward_pre;
        extra1 = m ? m->forward_pre_hooks_with_kwargs : NULL;
        break;
    case NN_HOOK_FORWARD:
        dict = m ? m->forward_hooks : global_forward;
        extra1 = m ? m->forward_hooks_with_kwargs : NULL;
        extra2 = m ? m->forward_hooks_always_called : global_forward_always;
        break;
    case NN_HOOK_BACKWARD_PRE: dict = m ? m->backward_pre_hooks : global_backward_pre; break;
    case NN_HOOK_FULL_BACKWARD:
    case NN_HOOK_BACKWARD: {
        backward_flag = m ? &m->is_full_backward_hook : &global_is_full_backward;
        int want = kind == NN_HOOK_FULL_BACKWARD;
        if (*backward_flag == !want) {
            nn_error_set(NN_ERR_RUNTIME, "Cannot use both regular backward hooks and full backward hooks %s. Please use "
                                         "only one of them.", m ? "on a single Module" : "as a global Module hook");
            return NULL;
        }
        dict = m ? m->backward_hooks : global_backward;
        break;
    }
    case NN_HOOK_STATE_DICT_PRE: dict = m ? m->state_dict_pre_hooks : NULL; break;
    case NN_HOOK_STATE_DICT_POST: dict = m ? m->state_dict_hooks : NULL; break;
    case NN_HOOK_LOAD_PRE: dict = m ? m->load_state_dict_pre_hooks : NULL; break;
    case NN_HOOK_LOAD_POST: dict = m ? m->load_state_dict_post_hooks : NULL; break;
    }
    if (!dict) {
        nn_error_set(NN_ERR_VALUE, "this kind of hook cannot be registered globally");
        return NULL;
    }
    hook_handle *h = nn_calloc(1, sizeof *h);
    nn_object *key = h ? nn_int_new(next_handle_id) : NULL, *yes = nn_bool_new(true);
    if (!key) {
        nn_free(h);
        NN_RELEASE(yes);
        return NULL;
    }
    nn_object_init(&h->ob, &nn_hook_handle_type);
    h->id = next_handle_id++; /* as RemovableHandle.next_id: from 0 */
    h->dicts[0] = nn_retain(dict);
    h->dicts[1] = nn_retain(extra1);
    h->dicts[2] = nn_retain(extra2);
    int rc = nn_dict_set(dict, key, hook);
    if (rc == 0 && o.with_kwargs && extra1) rc = nn_dict_set(extra1, key, yes);
    if (rc == 0 && o.always_call && extra2) rc = nn_dict_set(extra2, key, yes);
    if (rc == 0 && o.prepend) rc = nn_dict_move_to_front(dict, key);
    if (rc == 0) rc = nn_gc_track(&h->ob);
    NN_RELEASE(key);
    NN_RELEASE(yes);
    if (rc < 0) {
        nn_hook_handle_remove(&h->ob);
        NN_RELEASE(h);
        return NULL;
    }
    if (backward_flag) *backward_flag = kind == NN_HOOK_FULL_BACKWARD;
    return &h->ob;
}

/* --------------------------------------------------- calling Python-style */

static nn_object *call_with(nn_object *hook, size_t n, nn_object **argv)
{
    nn_object *args = nn_tuple_new(n);
    if (!args) return NULL;
    for (size_t i = 0; i < n; i++) nn_tuple_set(args, i, nn_retain(argv[i] ? argv[i] : nn_none()));
    nn_object *r = nn_call(hook, args, NULL);
    NN_RELEASE(args);
    return r;
}

/* The number of entries of a list that may be NULL (no entries). */
static size_t len0(nn_object *list) { return list ? nn_list_len(list) : 0; }

/* The ids and hooks of the global dict then the module's, as a snapshot list
   (hooks may remove themselves while running): id, hook, id, hook, ...; *out
   NULL when there is none. 0, or -1 with an error. */
static int hook_snapshot(nn_object **out, nn_object *global, nn_object *own)
{
    *out = NULL;
    nn_object *dicts[2] = {global, own};
    for (int i = 0; i < 2; i++) {
        size_t pos = 0;
        nn_object *k, *v;
        while (dicts[i] && nn_dict_next(dicts[i], &pos, &k, &v))
            if ((!*out && !(*out = nn_list_new(0))) || nn_list_append(*out, k) < 0 || nn_list_append(*out, v) < 0) {
                NN_SET(*out, NULL);
                return -1;
            }
    }
    return 0;
}

/* -------------------------------------------------- full backward hooks */

/* What a module call with full backward hooks shares between the identity
   node on its inputs and the one on its outputs (PyTorch's BackwardHook). */
typedef struct backward_hook {
    nn_object ob;
    nn_module *module;       /* owned */
    nn_object *user_hooks;   /* list of callables */
    nn_object *pre_hooks;    /* list of callables */
    size_t n_inputs, n_outputs;       /* arguments / results of the call */
    int64_t *input_index, *output_index; /* positions of the hooked tensors, or NULL */
    size_t n_input_index, n_output_index;
    nn_object *grad_outputs; /* tuple while a backward is between the two nodes */
} backward_hook;

static void backward_hook_dealloc(nn_object *self)
{
    backward_hook *b = (backward_hook *)self;
    NN_RELEASE(b->module);
    NN_RELEASE(b->user_hooks);
    NN_RELEASE(b->pre_hooks);
    NN_RELEASE(b->grad_outputs);
    nn_free(b->input_index);
    nn_free(b->output_index);
    nn_free(b);
}

static const nn_type backward_hook_type = {.name = "BackwardHook", .dealloc = backward_hook_dealloc};

int nn_backward_hook_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    for (int i = 0; i < n->n_inputs; i++) {
        NN_RETAIN(gout[i]);
        gin[i] = gout[i];
    }
    return 0;
}

/* Identity over the tensors requiring grad among items (a tuple): returns a new
   tuple with those replaced by aliases whose grad_fn is one
   BackwardHookFunctionBackward node (*node_out, borrowed), and their positions. */
static nn_object *apply_identity(nn_object *items, int64_t **index_out, size_t *n_index, nn_node **node_out)
{
    size_t n = nn_tuple_len(items), k = 0;
    bool any = false;
    *node_out = NULL;
    *index_out = NULL;
    *n_index = 0;
    for (size_t i = 0; i < n; i++)
        if (nn_is_tensor(nn_tuple_get(items, i))) any |= NN_TENSOR(nn_tuple_get(items, i))->requires_grad;
    if (!any || !nn_grad_enabled()) return nn_retain(items);
    int64_t *index = nn_malloc(sizeof(int64_t) * n);
    /* the tensors' arrays on the stack for the usual few arguments */
    nn_tensor *ins_few[8], *outs_few[8] = {NULL};
    bool few = n <= 8;
    nn_tensor **ins = !index ? NULL : few ? ins_few : nn_malloc(sizeof(nn_tensor *) * n),
              **outs = !ins ? NULL : few ? outs_few : nn_calloc(n, sizeof *outs);
    nn_object *result = outs ? nn_tuple_new(n) : NULL;
    int rc = result ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        nn_object *item = nn_tuple_get(items, i);
        nn_tuple_set(result, i, nn_retain(item));
        if (!nn_is_tensor(item) || !NN_TENSOR(item)->requires_grad) continue;
        index[k] = (int64_t)i;
        ins[k] = NN_TENSOR(item);
        outs[k] = nn_detach(ins[k]);
        if (!outs[k]) rc = -1;
        k++;
    }
    if (rc == 0) rc = nn_record(NN_OP_backward_hook, (int)k, ins, (int)k, outs, 0, NULL, NULL);
    if (rc == 0) {
        size_t j = 0;
        for (size_t i = 0; i < n && j < k; i++)
            if ((int64_t)i == index[j]) nn_tuple_set(result, i, nn_retain(&outs[j++]->ob));
        *node_out = outs[0]->grad_fn;
        *index_out = index;
        *n_index = k;
        index = NULL;
    }
    for (size_t i = 0; outs && i < k; i++) NN_RELEASE(outs[i]);
    if (!few) {
        nn_free(outs);
        nn_free(ins);
    }
    nn_free(index);
    if (rc < 0) NN_SET(result, NULL);
    return result;
}

/* A tuple of len entries: grads[j] at index[j], None elsewhere (PyTorch's _pack_with_none). */
static nn_object *pack_with_none(const int64_t *index, size_t k, nn_tensor **grads, size_t len)
{
    nn_object *t = nn_tuple_new(len);
    for (size_t j = 0; t && j < k; j++)
        if (grads[j]) nn_tuple_set(t, (size_t)index[j], nn_retain(&grads[j]->ob));
    return t;
}

/* The reverse: grads[j] = packed[index[j]] (None -> NULL); takes nothing from packed. */
static int unpack_none(const int64_t *index, size_t k, nn_object *packed, nn_tensor **grads)
{
    for (size_t j = 0; j < k; j++) {
        nn_object *v = nn_tuple_get(packed, (size_t)index[j]);
        if (!nn_is_none(v) && !nn_is_tensor(v)) return nn_error_set(NN_ERR_TYPE, "backward hooks must return tensors or None");
        nn_tensor *g = nn_is_none(v) ? NULL : NN_TENSOR(v);
        NN_RETAIN(g);
        NN_SET(grads[j], g);
    }
    return 0;
}

static bool is_sequence_of(nn_object *o, size_t len)
{
    return o && o->type == &nn_tuple_type && nn_tuple_len(o) == len;
}

/* A full backward hook's result as a tuple: a list becomes one (PyTorch only
   takes len() and indexes it); takes r, returns a new reference or NULL. */
static nn_object *hook_result_tuple(nn_object *r)
{
    if (!nn_is_list(r)) return r;
    size_t n = nn_list_len(r);
    nn_object *t = nn_tuple_new(n);
    for (size_t i = 0; t && i < n; i++) nn_tuple_set(t, i, nn_retain(nn_list_get(r, i)));
    NN_RELEASE(r);
    return t;
}

/* On the output identity node, before it runs: record grad_output, run the
   backward pre-hooks, and when no input needed grad, the user hooks. */
static int output_pre(nn_object *state, nn_node *node, nn_tensor **grad_outputs)
{
    backward_hook *b = (backward_hook *)state;
    nn_object *go = pack_with_none(b->output_index, b->n_output_index, grad_outputs, b->n_outputs);
    if (!go) return -1;
    NN_SET(b->grad_outputs, go);
    for (size_t i = 0; i < len0(b->pre_hooks); i++) {
        nn_object *r = call_with(nn_list_get(b->pre_hooks, i), 2, (nn_object *[]){&b->module->ob, b->grad_outputs});
        if (r) r = hook_result_tuple(r);
        if (!r) return -1;
        if (nn_is_none(r)) {
            NN_RELEASE(r);
            continue;
        }
        if (nn_is_tensor(r) && b->n_outputs == 1) { /* a single tensor stands for a 1-tuple */
            nn_object *t = nn_tuple_pack(1, r);
            NN_RELEASE(r);
            if (!t) return -1;
            r = t;
        }
        if (!is_sequence_of(r, b->n_outputs)) {
            size_t got = r->type == &nn_tuple_type ? nn_tuple_len(r) : 1;
            NN_RELEASE(r);
            return nn_error_set(NN_ERR_RUNTIME, "Backward pre hook returned an invalid number of grad_output, got %zu, but expected %zu",
                                got, b->n_outputs);
        }
        NN_SET(b->grad_outputs, r);
    }
    if (!b->input_index) {
        /* no input required grad: the user hooks fire here with grad_input all None */
        nn_object *gi = nn_tuple_new(b->n_inputs);
        if (!gi) return -1;
        for (size_t i = 0; i < len0(b->user_hooks); i++) {
            nn_object *r = call_with(nn_list_get(b->user_hooks, i), 3, (nn_object *[]){&b->module->ob, gi, b->grad_outputs});
            if (r) r = hook_result_tuple(r);
            if (!r) {
                NN_RELEASE(gi);
                return -1;
            }
            bool all_none = nn_is_none(r);
            if (r->type == &nn_tuple_type) {
                all_none = true;
                for (size_t j = 0; j < nn_tuple_len(r); j++) all_none &= nn_is_none(nn_tuple_get(r, j));
            }
            NN_RELEASE(r);
            if (!all_none) {
                NN_RELEASE(gi);
                return nn_error_set(NN_ERR_RUNTIME, "Backward hook for Modules where no input requires gradient should "
                                                    "always return None or None for all gradients.");
            }
        }
        NN_RELEASE(gi);
        nn_object *go_final = b->grad_outputs;
        b->grad_outputs = NULL;
        int rc = unpack_none(b->output_index, b->n_output_index, go_final, grad_outputs);
        NN_RELEASE(go_final);
        return rc;
    }
    (void)node;
    return unpack_none(b->output_index, b->n_output_index, b->grad_outputs, grad_outputs);
}

/* On the input identity node, after it ran: grad_input is what it passes on;
   the user hooks see (module, grad_input, grad_output) and may replace grad_input. */
static int input_post(nn_object *state, nn_node *node, nn_tensor **grad_inputs, nn_tensor **grad_outputs)
{
    (void)node;
    (void)grad_outputs;
    backward_hook *b = (backward_hook *)state;
    if (!b->grad_outputs) return 0; /* the gradient did not pass through the module's output */
    nn_object *res = pack_with_none(b->input_index, b->n_input_index, grad_inputs, b->n_inputs);
    if (!res) return -1;
    for (size_t i = 0; i < len0(b->user_hooks); i++) {
        nn_object *r = call_with(nn_list_get(b->user_hooks, i), 3, (nn_object *[]){&b->module->ob, res, b->grad_outputs});
        if (r) r = hook_result_tuple(r);
        if (!r) {
            NN_RELEASE(res);
            return -1;
        }
        if (nn_is_none(r)) {
            NN_RELEASE(r);
            continue;
        }
        if (!is_sequence_of(r, b->n_inputs)) {
            size_t got = r->type == &nn_tuple_type ? nn_tuple_len(r) : 1;
            NN_RELEASE(r);
            NN_RELEASE(res);
            return nn_error_set(NN_ERR_RUNTIME, "Backward hook returned an invalid number of grad_input, got %zu, but expected %zu",
                                got, b->n_inputs);
        }
        NN_SET(res, r);
    }
    NN_SET(b->grad_outputs, NULL);
    int rc = unpack_none(b->input_index, b->n_input_index, res, grad_inputs);
    NN_RELEASE(res);
    return rc;
}

/* ------------------------------------------- deprecated backward hooks */

typedef struct wrapped_hook {
    nn_object ob;
    nn_object *hook;
    nn_module *module;
} wrapped_hook;

static void wrapped_dealloc(nn_object *self)
{
    wrapped_hook *w = (wrapped_hook *)self;
    NN_RELEASE(w->hook);
    NN_RELEASE(w->module);
    nn_free(w);
}

static const nn_type wrapped_hook_type = {.name = "_WrappedHook", .dealloc = wrapped_dealloc};

static nn_object *grads_tuple(nn_tensor **grads, int n)
{
    nn_object *t = nn_tuple_new((size_t)n);
    for (int i = 0; t && i < n; i++)
        if (grads[i]) nn_tuple_set(t, (size_t)i, nn_retain(&grads[i]->ob));
    return t;
}

/* register_backward_hook: hook(module, grad_input, grad_output) on the output's grad_fn. */
static int legacy_post(nn_object *state, nn_node *node, nn_tensor **grad_inputs, nn_tensor **grad_outputs)
{
    wrapped_hook *w = (wrapped_hook *)state;
    nn_object *gi = grads_tuple(grad_inputs, node->n_inputs), *go = gi ? grads_tuple(grad_outputs, node->n_outputs) : NULL;
    nn_object *r = go ? call_with(w->hook, 3, (nn_object *[]){&w->module->ob, gi, go}) : NULL;
    int rc = r ? 0 : -1;
    if (r && !nn_is_none(r)) {
        if (!is_sequence_of(r, (size_t)node->n_inputs))
            rc = nn_error_set(NN_ERR_RUNTIME, "Backward hook returned an invalid number of grad_input, got %zu, but expected %d",
                              r->type == &nn_tuple_type ? nn_tuple_len(r) : (size_t)1, node->n_inputs);
        for (int i = 0; rc == 0 && i < node->n_inputs; i++) {
            nn_object *v = nn_tuple_get(r, (size_t)i);
            nn_tensor *g = nn_is_tensor(v) ? NN_TENSOR(v) : NULL;
            NN_RETAIN(g);
            NN_SET(grad_inputs[i], g);
        }
    }
    NN_RELEASE(gi);
    NN_RELEASE(go);
    NN_RELEASE(r);
    return rc;
}

/* The first tensor of a result (tensor, tuple, or dict), borrowed, or NULL. */
static nn_tensor *first_tensor(nn_object *o)
{
    while (o && !nn_is_tensor(o)) {
        if (o->type == &nn_tuple_type && nn_tuple_len(o)) o = nn_tuple_get(o, 0);
        else if (nn_is_list(o) && nn_list_len(o)) o = nn_list_get(o, 0);
        else if (nn_is_dict(o)) {
            size_t pos = 0;
            nn_object *k, *v, *found = NULL;
            while (!found && nn_dict_next(o, &pos, &k, &v))
                if (nn_is_tensor(v)) found = v;
            o = found;
        } else return NULL;
    }
    return o ? NN_TENSOR(o) : NULL;
}

/* ----------------------------------------------------------------- call */

static nn_object *run_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    if (m->cls->before_forward && m->cls->before_forward(m, args) < 0) return NULL;
    const nn_module_class *owner = NN_MODULE_SLOT(m->cls, forward);
    if (!owner) {
        nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Module [%s] is missing the required \"forward\" function", nn_module_name(m));
        return NULL;
    }
    return owner->forward(m, args, kwargs);
}

/* The values of `own` and of `global` dicts into a list, global first; *out
   NULL when there is none. 0, or -1 with an error. */
static int values_of(nn_object **out, nn_object *global, nn_object *own, bool use_global, bool use_own)
{
    *out = NULL;
    nn_object *dicts[2] = {use_global ? global : NULL, use_own ? own : NULL};
    for (int i = 0; i < 2; i++) {
        size_t pos = 0;
        nn_object *v;
        while (dicts[i] && nn_dict_next(dicts[i], &pos, NULL, &v))
            if ((!*out && !(*out = nn_list_new(0))) || nn_list_append(*out, v) < 0) {
                NN_SET(*out, NULL);
                return -1;
            }
    }
    return 0;
}

/* The call's keyword arguments as a dict for a hook that takes them: made
   empty on first use (a call without keywords has none). Borrowed, or NULL. */
static nn_object *kwargs_dict(nn_object **kw)
{
    if (!*kw) *kw = nn_dict_new();
    return *kw;
}

/* Runs the forward hooks marked always_call that have not run, after forward
   failed; their own errors are reported on stderr and dropped (as PyTorch warns). */
static void run_always_called(nn_module *m, nn_object *args, nn_object **kwargs, nn_object *result, nn_object *called)
{
    nn_error_kind kind = nn_error_current();
    char *message = nn_strdup(nn_error_message());
    nn_object *own;
    hook_snapshot(&own, global_forward_always ? global_forward : NULL, m->forward_hooks); /* none when it fails */
    for (size_t i = 0; i + 1 < len0(own); i += 2) {
        nn_object *id = nn_list_get(own, i), *hook = nn_list_get(own, i + 1);
        bool is_global = global_forward && nn_dict_get(global_forward, id) == hook;
        nn_object *always = is_global ? global_forward_always : m->forward_hooks_always_called;
        if (!always || !nn_dict_get(always, id) || (called && nn_dict_get(called, id))) continue;
        bool kw = !is_global && nn_dict_get(m->forward_hooks_with_kwargs, id);
        nn_object *kwd = kw ? kwargs_dict(kwargs) : NULL;
        nn_object *r = kw ? call_with(hook, 4, (nn_object *[]){&m->ob, args, kwd ? kwd : nn_none(), result})
                          : call_with(hook, 3, (nn_object *[]){&m->ob, args, result});
        /* the forward's own error is set again below, whatever the warning does */
        if (!r)
            nn_warn("UserWarning", "%smodule forward hook with ``always_call=True`` raised an exception that was "
                                   "silenced as another error was raised in forward: %s",
                    is_global ? "global " : "", nn_error_message());
        NN_RELEASE(r);
    }
    NN_RELEASE(own);
    nn_error_set(kind, "%s", message ? message : "");
    nn_free(message);
}

nn_object *nn_module_call(nn_module *m, nn_object *args, nn_object *kwargs)
{
    bool any_hooks = nn_dict_len(m->forward_pre_hooks) || nn_dict_len(m->forward_hooks) ||
                     nn_dict_len(m->backward_pre_hooks) || nn_dict_len(m->backward_hooks) || has_global_hooks();
    if (!any_hooks) return run_forward(m, args, kwargs);

    /* what a call without hooks of a kind does not need is not made: the
       keywords dict (kw), the always_call hooks already run (called), the
       lists of hooks (NULL: none) */
    NN_RETAIN(args);
    nn_object *kw = nn_retain(kwargs);
    nn_object *result = NULL, *called = NULL, *pre = NULL, *fwd = NULL;
    nn_object *full_hooks = NULL, *legacy_hooks = NULL, *bw_pre = NULL;
    backward_hook *bw = NULL;

    bool global_full = global_is_full_backward == 1, global_legacy = global_is_full_backward == 0;
    if (values_of(&bw_pre, global_backward_pre, m->backward_pre_hooks, true, true) < 0 ||
        values_of(&full_hooks, global_backward, m->backward_hooks, global_full, m->is_full_backward_hook == 1) < 0 ||
        values_of(&legacy_hooks, global_backward, m->backward_hooks, global_legacy, m->is_full_backward_hook == 0) < 0)
        goto fail;

    /* forward pre-hooks: global first, then the module's */
    if (hook_snapshot(&pre, global_forward_pre, m->forward_pre_hooks) < 0) goto fail;
    for (size_t i = 0; i + 1 < len0(pre); i += 2) {
        nn_object *id = nn_list_get(pre, i), *hook = nn_list_get(pre, i + 1);
        bool with_kwargs = nn_dict_get(m->forward_pre_hooks_with_kwargs, id) != NULL &&
                           nn_dict_get(m->forward_pre_hooks, id) == hook;
        if (with_kwargs && !kwargs_dict(&kw)) goto fail;
        nn_object *r = with_kwargs ? call_with(hook, 3, (nn_object *[]){&m->ob, args, kw})
                                   : call_with(hook, 2, (nn_object *[]){&m->ob, args});
        if (!r) goto fail;
        if (nn_is_none(r)) {
            NN_RELEASE(r);
            continue;
        }
        if (with_kwargs) {
            if (!is_sequence_of(r, 2) || nn_tuple_get(r, 0)->type != &nn_tuple_type || !nn_is_dict(nn_tuple_get(r, 1))) {
                char *rr = nn_repr(r);
                nn_error_set(NN_ERR_RUNTIME, "forward pre-hook must return None or a tuple of (new_args, new_kwargs), but got %s.",
                             rr ? rr : "?");
                nn_free(rr);
                NN_RELEASE(r);
                goto fail;
            }
            NN_SET(args, nn_retain(nn_tuple_get(r, 0)));
            NN_SET(kw, nn_retain(nn_tuple_get(r, 1)));
            NN_RELEASE(r);
        } else {
            if (r->type != &nn_tuple_type) { /* a single value is wrapped in a tuple */
                nn_object *t = nn_tuple_pack(1, r);
                NN_RELEASE(r);
                if (!t) goto fail;
                r = t;
            }
            NN_SET(args, r);
        }
    }

    if (full_hooks || bw_pre) {
        bw = nn_calloc(1, sizeof *bw);
        if (!bw) goto fail;
        nn_object_init(&bw->ob, &backward_hook_type);
        bw->module = (NN_RETAIN(m), m);
        bw->user_hooks = nn_retain(full_hooks);
        bw->pre_hooks = nn_retain(bw_pre);
        bw->n_inputs = nn_tuple_len(args);
        nn_node *node;
        nn_object *wrapped = apply_identity(args, &bw->input_index, &bw->n_input_index, &node);
        if (!wrapped) goto fail;
        NN_SET(args, wrapped);
        if (node && nn_node_add_callback(node, NULL, input_post, &bw->ob) < 0) goto fail;
    }

    result = run_forward(m, args, kw && nn_dict_len(kw) ? kw : NULL);
    if (!result) goto fail;

    if (hook_snapshot(&fwd, global_forward, m->forward_hooks) < 0) goto fail;
    for (size_t i = 0; i + 1 < len0(fwd); i += 2) {
        nn_object *id = nn_list_get(fwd, i), *hook = nn_list_get(fwd, i + 1);
        bool own = nn_dict_get(m->forward_hooks, id) == hook;
        nn_object *always = own ? m->forward_hooks_always_called : global_forward_always;
        if (always && nn_dict_get(always, id) &&
            ((!called && !(called = nn_dict_new())) || nn_dict_set(called, id, NULL) < 0))
            goto fail;
        bool with_kwargs = own && nn_dict_get(m->forward_hooks_with_kwargs, id);
        if (with_kwargs && !kwargs_dict(&kw)) goto fail;
        nn_object *r = with_kwargs ? call_with(hook, 4, (nn_object *[]){&m->ob, args, kw, result})
                                   : call_with(hook, 3, (nn_object *[]){&m->ob, args, result});
        if (!r) goto fail;
        if (nn_is_none(r)) NN_RELEASE(r);
        else NN_SET(result, r);
    }

    if (bw) {
        bool is_tuple = result->type == &nn_tuple_type;
        nn_object *items = is_tuple ? nn_retain(result) : nn_tuple_pack(1, result);
        nn_node *node = NULL;
        nn_object *wrapped = items ? apply_identity(items, &bw->output_index, &bw->n_output_index, &node) : NULL;
        NN_RELEASE(items);
        if (!wrapped) goto fail;
        bw->n_outputs = is_tuple ? nn_tuple_len(result) : 1;
        if (is_tuple) NN_SET(result, wrapped);
        else {
            NN_SET(result, nn_retain(nn_tuple_get(wrapped, 0)));
            NN_RELEASE(wrapped);
        }
        if (node && nn_node_add_callback(node, output_pre, NULL, &bw->ob) < 0) goto fail;
    }

    if (legacy_hooks) {
        nn_tensor *t = first_tensor(result);
        for (size_t i = 0; t && t->grad_fn && i < nn_list_len(legacy_hooks); i++) {
            wrapped_hook *w = nn_malloc(sizeof *w);
            if (!w) goto fail;
            nn_object_init(&w->ob, &wrapped_hook_type);
            w->hook = nn_retain(nn_list_get(legacy_hooks, i));
            w->module = (NN_RETAIN(m), m);
            int rc = nn_node_add_callback(t->grad_fn, NULL, legacy_post, &w->ob);
            NN_RELEASE(w);
            if (rc < 0) goto fail;
        }
    }
    goto done;

fail:
    run_always_called(m, args, &kw, result ? result : nn_none(), called);
    NN_SET(result, NULL);
done:
    NN_RELEASE(args);
    NN_RELEASE(kw);
    NN_RELEASE(called);
    NN_RELEASE(pre);
    NN_RELEASE(fwd);
    NN_RELEASE(full_hooks);
    NN_RELEASE(legacy_hooks);
    NN_RELEASE(bw_pre);
    NN_RELEASE(bw);
    return result;
}

nn_object *nn_module_call_slot(nn_object *self, nn_object *args, nn_object *kwargs)
{
    return nn_module_call(NN_MODULE(self), args, kwargs);
}

nn_tensor *nn_module_call1(nn_module *m, nn_tensor *x)
{
    nn_object *args = nn_tuple_pack(1, &x->ob);
    nn_object *r = args ? nn_module_call(m, args, NULL) : NULL;
    NN_RELEASE(args);
    if (r && !nn_is_tensor(r)) {
        nn_error_set(NN_ERR_TYPE, "%s returned a %s, not a Tensor", nn_module_name(m), r->type->name);
        NN_SET(r, NULL);
    }
    return r ? NN_TENSOR(r) : NULL;
}
