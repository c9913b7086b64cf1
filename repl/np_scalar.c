/*
 * np_scalar.c — NumPy's scalar types (np.float64, np.int64, ...; written in the
 * language, mod_numpy_scalars_src.c) carry their Python value as a built-in value,
 * as NumPy's C scalars carry their C value: torch's functions, list indexing,
 * range() and % formatting read it where a number is wanted, although only
 * np.float64 derives from a built-in type (float). torch.tensor and as_tensor take
 * a scalar's dtype instead (repl_numpy_scalar_tensor).
 */
#include "bind_int.h"
#include "stdlib_int.h"
#include "bigint.h"

#define ARGS(n) nn_object *a[n] = {0}

/* numpy.generic (owned once registered) */
static class_obj *generic_cls;

/* _register_scalar(generic): remembers the base of the scalar types. */
nn_object *repl_np_register_scalar(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("_register_scalar", "cls", args, kwargs, a)) return NULL;
    if (a[0]->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "_register_scalar() expects a class");
        return NULL;
    }
    if (generic_cls) NN_RELEASE(generic_cls);
    generic_cls = (class_obj *)nn_retain(a[0]);
    return nn_retain(nn_none());
}

/* _type_name(cls, name): the name CPython's messages give cls's instances, as NumPy's C
   types name themselves ("numpy.float64" where __name__ is 'float64'). */
nn_object *repl_np_type_name(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    const char *name;
    if (repl_parse_args("_type_name", "cls, name", args, kwargs, a) || repl_arg_str("_type_name", "name", 2, a[1], &name))
        return NULL;
    if (a[0]->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "_type_name() expects a class");
        return NULL;
    }
    class_obj *c = (class_obj *)a[0];
    char *s = nn_strdup(name);
    if (!s) return NULL;
    nn_free(c->tp_name);
    c->tp_name = s;
    return nn_retain(nn_none());
}

/* _scalar_new(cls, value, carried=value) -> an instance of cls (a scalar type)
   carrying the number carried (a bool, int, float or complex), value as its attribute _v. */
nn_object *repl_np_scalar_new(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    if (repl_parse_args("_scalar_new", "cls, value, carried=", args, kwargs, a)) return NULL;
    nn_object *carried = a[2] ? a[2] : a[1];
    if (!generic_cls || a[0]->type != &repl_class_type ||
        !repl_class_is_subclass((class_obj *)a[0], generic_cls)) {
        repl_raise_exc(EXC_TypeError, "_scalar_new() expects a numpy scalar type");
        return NULL;
    }
    if (!nn_is_bool(carried) && !nn_is_int(carried) && !nn_is_float(carried) && !repl_is_bigint(carried) &&
        !nn_is_complex(carried)) {
        repl_raise_exc(EXC_TypeError, "_scalar_new() expects a number, not %s", repl_type_name(carried));
        return NULL;
    }
    nn_object *o = repl_instance_new((class_obj *)a[0]);
    if (!o) return NULL;
    instance_obj *in = (instance_obj *)o;
    in->value = nn_retain(carried);
    if (repl_nmap_set(&in->attrs, "_v", a[1]) < 0) NN_SET(o, NULL);
    return o;
}

bool repl_numpy_is_scalar(nn_object *o)
{
    return generic_cls && o && o->type == &repl_instance_type &&
           repl_class_is_subclass(((instance_obj *)o)->cls, generic_cls);
}

nn_tensor *repl_numpy_scalar_tensor(nn_object *o)
{
    if (!repl_numpy_is_scalar(o)) return NULL;
    nn_object *t = repl_get_attr(o, "_t");
    if (t && nn_is_tensor(t)) return NN_TENSOR(t);
    if (t) {
        NN_RELEASE(t);
        repl_raise_exc(EXC_TypeError, "a numpy scalar without its tensor");
    }
    return NULL;
}
