/*
 * node_name.c — a name given to an autograd node after it was recorded: the
 * torch.nn layers written in the language end in an op of their own (an add,
 * a max, an index_add) and name that last node as PyTorch names its one op
 * (MaxPool3DWithIndicesBackward0, EmbeddingBagBackward0 ...), so that y.grad_fn
 * prints as PyTorch's does. Names are interned: each distinct name is kept once
 * for the process (a few dozen short strings), so nodes point at them freely.
 */
#include <string.h>

#include "nn_custom_fn.h"
#include "nn_int.h"

#define MAX_NAMES 256

static char *names[MAX_NAMES]; /* owned, kept for the process */
static int n_names;

/* name's interned copy, or NULL with MemoryError / a RuntimeError when the table is full. */
static const char *intern(const char *name)
{
    for (int i = 0; i < n_names; i++)
        if (!strcmp(names[i], name)) return names[i];
    if (n_names == MAX_NAMES) return nn_error_set(NN_ERR_RUNTIME, "too many distinct grad_fn names"), NULL;
    char *copy = nn_strdup(name);
    if (!copy) return NULL;
    names[n_names++] = copy;
    return copy;
}

int nn_node_set_name(nn_node *node, const char *name)
{
    if (!name[0]) return nn_error_set(NN_ERR_VALUE, "a grad_fn name cannot be empty");
    const char *s = intern(name);
    if (!s) return -1;
    node->name = s;
    return 0;
}
