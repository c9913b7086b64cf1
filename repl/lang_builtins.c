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

/* vars(obj): obj.__dict__ (without an argument: not supported, as locals() is not) */
nn_object *repl_bi_vars(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    if ((kwargs && nn_dict_len(kwargs)) || nn_tuple_len(args) > 1) {
        repl_raise_exc(EXC_TypeError, "vars expected at most 1 argument, got %zu", nn_tuple_len(args));
        return NULL;
    }
    if (nn_tuple_len(args) == 0) {
        repl_raise_exc(EXC_TypeError, "vars() without an argument is not supported");
        return NULL;
    }
    nn_object *d = repl_get_attr(nn_tuple_get(args, 0), "__dict__");
    if (!d && nn_error_current() == NN_ERR_ATTRIBUTE) {
        nn_object *e = repl_take_exception();
        NN_RELEASE(e);
        repl_raise_exc(EXC_TypeError, "vars() argument must have __dict__ attribute");
    }
    return d;
}

/* delattr(obj, name): del obj.name */
nn_object *repl_bi_delattr(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    if ((kwargs && nn_dict_len(kwargs)) || nn_tuple_len(args) != 2) {
        repl_raise_exc(EXC_TypeError, "delattr expected 2 arguments, got %zu", nn_tuple_len(args));
        return NULL;
    }
    nn_object *name = nn_tuple_get(args, 1);
    if (!nn_is_str(name)) {
        repl_raise_exc(EXC_TypeError, "attribute name must be string, not '%s'", repl_value_type_name(name));
        return NULL;
    }
    return repl_del_attr(nn_tuple_get(args, 0), nn_str_cstr(name)) < 0 ? NULL : nn_retain(nn_none());
}

int repl_lang_builtins_init(repl_interp *in)
{
    if (repl_nmap_set(&in->builtins, "NotImplemented", &notimpl_object) < 0) return -1;
    return repl_generators_init(in);
}
