/*
 * next_functions.c — grad_fn.next_functions as PyTorch shows it: for each
 * input of a node, (the node its gradient goes to, input_nr), with an
 * AccumulateGrad object for a leaf that requires grad (its .variable is the
 * leaf) and (None, 0) for an input that needs no gradient.
 */
#include <stdio.h>

#include "nn_custom_fn.h"
#include "nn_int.h"

typedef struct accumulate_grad {
    nn_object ob;
    nn_tensor *variable; /* owned */
} accumulate_grad;

static void accumulate_dealloc(nn_object *self)
{
    NN_RELEASE(((accumulate_grad *)self)->variable);
    nn_free(self);
}

static char *accumulate_repr(nn_object *self)
{
    char buf[96];
    snprintf(buf, sizeof buf, "<AccumulateGrad object at %p>", (void *)self);
    return nn_strdup(buf);
}

const nn_type nn_accumulate_grad_type = {.name = "AccumulateGrad", .dealloc = accumulate_dealloc,
                                         .repr = accumulate_repr};

nn_tensor *nn_accumulate_grad_variable(nn_object *o)
{
    return o && o->type == &nn_accumulate_grad_type ? ((accumulate_grad *)o)->variable : NULL;
}

/* (fn, input_nr) for one edge; a new reference or NULL. */
static nn_object *edge_pair(const nn_edge *e)
{
    nn_object *fn = NULL;
    if (e->node) fn = nn_retain(&e->node->ob);
    else if (e->leaf) {
        accumulate_grad *a = nn_malloc(sizeof *a);
        if (!a) return NULL;
        nn_object_init(&a->ob, &nn_accumulate_grad_type);
        a->variable = e->leaf;
        NN_RETAIN(e->leaf);
        fn = &a->ob;
    } else fn = nn_retain(nn_none());
    nn_object *nr = nn_int_new(e->node ? e->input_nr : 0);
    nn_object *t = nr ? nn_tuple_pack(2, fn, nr) : NULL;
    NN_RELEASE(fn);
    NN_RELEASE(nr);
    return t;
}

nn_object *nn_node_next_functions(nn_object *node)
{
    nn_node *n = (nn_node *)node;
    /* a custom Function's node lists its tensor arguments only, as PyTorch's */
    bool custom = nn_custom_state(n) != NULL;
    int len = 0;
    for (int i = 0; i < n->n_inputs; i++) len += !custom || nn_custom_input_is_tensor(n, i);
    nn_object *t = nn_tuple_new((size_t)len);
    for (int i = 0, j = 0; t && i < n->n_inputs; i++) {
        if (custom && !nn_custom_input_is_tensor(n, i)) continue;
        nn_object *p = edge_pair(&n->next[i]);
        if (!p) NN_SET(t, NULL);
        else nn_tuple_set(t, (size_t)j++, p);
    }
    return t;
}
