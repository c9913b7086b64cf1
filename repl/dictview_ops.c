/*
 * dictview_ops.c — the set operators of dict views, as CPython's dictviews_sub
 * and friends: `d.keys() - s`, `s & d.keys()`, `d.items() | other`, `^`. Either
 * operand may be the view; the other may be any iterable. The result is a set
 * built as set(left) op set(right). dict_values is not set-like (TypeError).
 */
#include "eval_int.h"

static bool set_like_view(nn_object *o)
{
    return o->type == &repl_dictview_type && repl_dictview_kind(o) != 1;
}

/* o as a set (new reference): a set itself, else a new set of its items. */
static nn_object *as_set(nn_object *o)
{
    if (o->type == &repl_set_type) return nn_retain(o);
    nn_object *items = repl_to_list(o);
    if (!items) return NULL;
    nn_object *s = repl_set_new(false);
    for (size_t i = 0; s && i < nn_list_len(items); i++)
        if (repl_set_add(s, nn_list_get(items, i)) < 0) NN_SET(s, NULL);
    NN_RELEASE(items);
    return s;
}

nn_object *repl_dictview_setop(repl_binop op, nn_object *a, nn_object *b, bool *handled)
{
    *handled = false;
    if (op != REPL_SUB && op != REPL_AND_BITS && op != REPL_OR_BITS && op != REPL_XOR_BITS) return NULL;
    if (!set_like_view(a) && !set_like_view(b)) return NULL;
    nn_object *other = set_like_view(a) ? b : a;
    if (other->type == &repl_dictview_type && !set_like_view(other)) return NULL;
    *handled = true; /* a non-iterable other side: "'int' object is not iterable", as CPython */
    nn_object *sa = as_set(a), *sb = sa ? as_set(b) : NULL;
    nn_object *r = sb ? repl_binary_op(op, sa, sb) : NULL;
    NN_RELEASE(sa);
    NN_RELEASE(sb);
    return r;
}
