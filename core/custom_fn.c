/*
 * custom_fn.c — autograd nodes whose backward is not core's: the node of a
 * torch.autograd.Function written in the language. The node carries its own
 * name ("MyReLUBackward"), a state object it owns (the language's ctx), the
 * saved tensors with their versions (any number of them), and a function
 * pointer that the engine's run_node calls as this op's backward. Core knows
 * nothing of the language: the state is an opaque object.
 */
#include <string.h>

#include "nn_custom_fn.h"
#include "nn_int.h"

typedef struct custom_data {
    char *name;               /* owned */
    const nn_custom_fn *fns;  /* static */
    nn_object *state;         /* owned */
    unsigned char *kinds;     /* n_outputs output kinds, then n_inputs flags: 1 = a tensor */
    int n_saved;
    nn_saved *saved;          /* n_saved entries; tensors owned */
    bool released;            /* saved tensors freed by a backward without retain_graph */
} custom_data;

static void custom_release_saved(custom_data *d)
{
    for (int i = 0; i < d->n_saved; i++) NN_SET(d->saved[i].tensor, NULL);
}

static void custom_free(void *p)
{
    custom_data *d = p;
    if (!d) return;
    custom_release_saved(d);
    NN_RELEASE(d->state);
    nn_free(d->saved);
    nn_free(d->kinds);
    nn_free(d->name);
    nn_free(d);
}

static custom_data *data_of(const nn_node *n) { return n && n->op == NN_OP_custom ? n->extra : NULL; }

const char *nn_node_name(const nn_node *node)
{
    custom_data *d = data_of(node);
    if (node->name) return node->name;
    return d ? d->name : nn_op_table[node->op].grad_name;
}

nn_object *nn_custom_state(const nn_node *node)
{
    custom_data *d = data_of(node);
    return d ? d->state : NULL;
}

int nn_custom_n_inputs(const nn_node *node) { return node->n_inputs; }
int nn_custom_n_outputs(const nn_node *node) { return node->n_outputs; }

bool nn_custom_input_is_tensor(const nn_node *node, int i)
{
    custom_data *d = data_of(node);
    return d && i >= 0 && i < node->n_inputs && d->kinds[node->n_outputs + i];
}

bool nn_custom_needs_input_grad(const nn_node *node, int i)
{
    return i >= 0 && i < node->n_inputs && nn_node_needs_input_grad(node, i);
}

int nn_custom_output_kind(const nn_node *node, int k)
{
    custom_data *d = data_of(node);
    return d && k >= 0 && k < node->n_outputs ? d->kinds[k] : NN_CUSTOM_OUT_NOT_TENSOR;
}

nn_tensor *nn_custom_output_zeros(const nn_node *node, int k)
{
    const nn_input_meta *m = &node->output_meta[k];
    return nn_zeros(m->ndim, m->sizes, m->dtype);
}

void nn_custom_release(nn_node *n)
{
    custom_data *d = data_of(n);
    if (!d) return;
    custom_release_saved(d);
    d->released = true;
}

nn_object *nn_custom_saved_tensors(nn_node *node)
{
    custom_data *d = data_of(node);
    if (!d) return nn_tuple_new(0);
    if (d->released && d->n_saved) {
        nn_saved_freed_error();
        return NULL;
    }
    for (int i = 0; i < d->n_saved; i++)
        if (nn_saved_check(&d->saved[i]) < 0) return NULL;
    nn_object *t = nn_tuple_new((size_t)d->n_saved);
    for (int i = 0; t && i < d->n_saved; i++) {
        nn_tensor *s = d->saved[i].tensor;
        nn_tuple_set(t, (size_t)i, s ? nn_retain(&s->ob) : nn_retain(nn_none()));
    }
    return t;
}

/* For create_graph, a saved output is the node's output again during the
   backward (as for core's nodes). */
static void link_saved_outputs(nn_node *n, custom_data *d, bool link)
{
    for (int i = 0; i < d->n_saved; i++) nn_saved_link(n, &d->saved[i], link);
}

int nn_custom_backward(nn_node *node, nn_tensor **grad_outputs, nn_tensor **grad_inputs)
{
    custom_data *d = data_of(node);
    if (!d) return nn_error_set(NN_ERR_RUNTIME, "a custom autograd node without its function");
    bool link = nn_grad_enabled(); /* create_graph */
    if (link) link_saved_outputs(node, d, true);
    /* the state stays alive through the call even if the backward drops the graph */
    nn_object *state = nn_retain(d->state);
    int rc = d->fns->backward(state, node, grad_outputs, grad_inputs);
    NN_RELEASE(state);
    if (link) link_saved_outputs(node, d, false);
    return rc;
}

int nn_record_custom(const nn_custom_fn *fns, const char *name, nn_object *state, int n_in, nn_tensor *const *inputs,
                     int n_out, nn_tensor *const *outputs, const unsigned char *kinds, int n_save,
                     nn_tensor *const *save)
{
    if (!nn_needs_grad(n_in, inputs)) return 0;
    custom_data *d = nn_calloc(1, sizeof *d);
    if (!d) return -1;
    d->fns = fns;
    d->name = nn_strdup(name);
    d->kinds = nn_calloc((size_t)(n_out + n_in) + 1, 1);
    d->saved = nn_calloc((size_t)n_save + 1, sizeof *d->saved);
    nn_node *n = d->name && d->kinds && d->saved ? nn_node_create(NN_OP_custom, n_in, inputs, n_out) : NULL;
    if (!n) {
        custom_free(d);
        return -1;
    }
    n->extra = d;
    n->free_extra = custom_free;
    d->state = nn_retain(state);
    for (int k = 0; k < n_out; k++) d->kinds[k] = (unsigned char)kinds[k];
    for (int i = 0; i < n_in; i++) d->kinds[n_out + i] = inputs[i] != NULL;
    for (int i = 0; i < n_save; i++) {
        int output_nr = -1;
        for (int k = 0; k < n_out && save[i]; k++)
            if (save[i] == outputs[k]) output_nr = k;
        if (nn_saved_init(&d->saved[i], save[i], output_nr >= 0, output_nr, d->name) < 0) {
            NN_RELEASE(n);
            return -1;
        }
        d->n_saved++;
    }
    for (int k = 0; k < n_out; k++) {
        if (kinds[k] == NN_CUSTOM_OUT_DIFF) nn_node_attach(n, outputs[k], k);
        else if (kinds[k] == NN_CUSTOM_OUT_NONDIFF) nn_node_output_meta(n, outputs[k], k);
    }
    NN_RELEASE(n);
    return 0;
}
