/*
 * bind_node_type.c — type(t.grad_fn): in PyTorch every autograd node kind is
 * its own class (`<class 'AddBackward0'>`, `type(g).__name__ == 'AddBackward0'`,
 * `type(g) is type(h)` for two nodes of one kind). Core has one node type, so
 * the classes are made here on first use, one per node name, and kept until
 * the bindings shut down.
 */
#include <string.h>

#include "bind_int.h"
#include "nn_custom_fn.h"

typedef struct node_class {
    char *name;         /* owned */
    repl_class_def def; /* names point at name */
    nn_object *cls;     /* owned */
} node_class;

/* each entry allocated on its own: a class object points at its def for good */
static node_class **classes;
static size_t n_classes, cap_classes;

nn_object *repl_node_class_of(nn_object *obj)
{
    const char *name = NULL;
    if (obj && obj->type == &nn_node_type) name = nn_node_name((nn_node *)obj);
    else if (obj && obj->type == &nn_accumulate_grad_type) name = "AccumulateGrad";
    if (!name) return NULL;
    for (size_t i = 0; i < n_classes; i++)
        if (!strcmp(classes[i]->name, name)) return nn_retain(classes[i]->cls);
    if (n_classes == cap_classes) {
        size_t cap = cap_classes ? 2 * cap_classes : 16;
        node_class **grown = nn_realloc(classes, cap * sizeof *grown);
        if (!grown) return NULL;
        classes = grown;
        cap_classes = cap;
    }
    node_class *c = nn_malloc(sizeof *c);
    if (!c) return NULL;
    c->name = nn_strdup(name);
    c->def = (repl_class_def){.name = c->name, .qualname = c->name, .instance_type = obj->type,
                              .doc = "An autograd graph node class (type(t.grad_fn))."};
    c->cls = c->name ? repl_class_new(&c->def) : NULL;
    if (!c->cls) {
        nn_free(c->name);
        nn_free(c);
        return NULL;
    }
    classes[n_classes++] = c;
    return nn_retain(c->cls);
}

void repl_node_classes_free(void)
{
    for (size_t i = 0; i < n_classes; i++) {
        NN_RELEASE(classes[i]->cls);
        nn_free(classes[i]->name);
        nn_free(classes[i]);
    }
    nn_free(classes);
    classes = NULL;
    n_classes = cap_classes = 0;
}
