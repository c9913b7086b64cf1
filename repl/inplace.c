/*
 * inplace.c — augmented assignment of the built-in mutable values, as CPython's
 * list/set/dict __iadd__ & co.: the object itself changes, so every alias sees
 * it (`a += [3]` extends the list `b = a` names too). The evaluator's
 * inplace_op tries this first, then a user class's __iadd__, then a native's
 * in-place form (a tensor's add_), then rebinds to the plain operator.
 */
#include "eval_int.h"

static nn_object *list_iadd(nn_object *a, nn_object *b)
{
    nn_object *items = repl_to_list(b); /* any iterable, as list.extend */
    if (!items) return NULL;
    size_t n = nn_list_len(items);
    for (size_t i = 0; i < n; i++)
        if (nn_list_append(a, nn_list_get(items, i)) < 0) {
            NN_RELEASE(items);
            return NULL;
        }
    NN_RELEASE(items);
    return nn_retain(a);
}

static nn_object *list_imul(nn_object *a, int64_t times)
{
    size_t n = nn_list_len(a);
    if (times <= 0) {
        while (nn_list_len(a)) {
            nn_object *x = nn_list_pop(a, nn_list_len(a) - 1);
            NN_RELEASE(x);
        }
        return nn_retain(a);
    }
    if (n && (uint64_t)times > SIZE_MAX / 2 / n) {
        repl_raise_exc(EXC_MemoryError, "%s", "");
        return NULL;
    }
    for (int64_t k = 1; k < times; k++)
        for (size_t i = 0; i < n; i++)
            if (nn_list_append(a, nn_list_get(a, i)) < 0) return NULL;
    return nn_retain(a);
}

/* s |= t, s &= t, s -= t, s ^= t: the set operator's result becomes s's contents. */
static nn_object *set_inplace(repl_binop op, nn_object *a, nn_object *b)
{
    nn_object *r = repl_binary_op(op, a, b);
    if (!r) return NULL;
    if (r->type != &repl_set_type) { /* not reached for set operands */
        NN_RELEASE(r);
        return NULL;
    }
    repl_set_table *t = repl_set_op_table(op, a, b, true); /* CPython changes a's own table */
    set_obj *s = (set_obj *)a;
    nn_object *d = nn_retain(((set_obj *)r)->d);
    NN_RELEASE(s->d);
    s->d = d;
    repl_set_table_free(s); /* it mirrored the old dict */
    repl_set_adopt_table(a, t);
    NN_RELEASE(r);
    return nn_retain(a);
}

nn_object *repl_inplace_builtin(repl_binop op, nn_object *a, nn_object *b)
{
    if (a->type == &nn_list_type) {
        if (op == REPL_ADD) return list_iadd(a, b);
        if (op == REPL_MUL && (b->type == &nn_int_type || b->type == &nn_bool_type))
            return list_imul(a, nn_int_value(b));
        return NULL;
    }
    if (a->type == &repl_set_type && !((set_obj *)a)->frozen && b->type == &repl_set_type &&
        (op == REPL_OR_BITS || op == REPL_AND_BITS || op == REPL_SUB || op == REPL_XOR_BITS))
        return set_inplace(op, a, b);
    if (a->type == &nn_dict_type && op == REPL_OR_BITS) {
        nn_object *r = repl_call_method(a, "update", &b, 1);
        if (!r) return NULL;
        NN_RELEASE(r);
        return nn_retain(a);
    }
    return NULL;
}
