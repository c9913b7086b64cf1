/*
 * lang_builtins.c — built-in names of the language that live outside builtins.c:
 * the NotImplemented singleton (a binary or in-place special method returns it
 * to decline, and Python then tries the reflected or the plain operator).
 */
#include "eval_int.h"

static char *notimpl_repr(nn_object *self)
{
    (void)self;
    return nn_strdup("NotImplemented");
}

static const nn_type notimpl_type = {.name = "NotImplementedType", .repr = notimpl_repr};
static nn_object notimpl_object = {.refcount = 1 << 30, .type = &notimpl_type};

bool repl_is_not_implemented(const nn_object *o) { return o == &notimpl_object; }

int repl_lang_builtins_init(repl_interp *in)
{
    if (repl_nmap_set(&in->builtins, "NotImplemented", &notimpl_object) < 0) return -1;
    return repl_generators_init(in);
}
