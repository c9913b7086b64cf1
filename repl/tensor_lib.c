/*
 * tensor_lib.c — Tensor methods and properties written in the language, in
 * repl/lib/torch._tensor_more.py (one function of the tensor each): a method comes back bound
 * to the tensor, a property is called at once. repl_tensor_getattr asks here last.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"
#include "nn_layers.h"

#define MODNAME "torch._tensor_more"

static const struct {
    const char *name;
    bool property;
} lib_names[] = {
    {"new", false}, {"unflatten", false}, {"mT", true}, {"mH", true}, {"H", true},
    {"matrix_exp", false}, {"triangular_solve", false},
    /* torch._blas_index.py */
    {"addmm", false}, {"addmm_", false}, {"baddbmm", false}, {"baddbmm_", false}, {"addbmm", false},
    {"addbmm_", false}, {"addmv", false}, {"addmv_", false}, {"addr", false}, {"addr_", false},
    {"index_copy", false}, {"index_copy_", false}, {"index_fill", false}, {"index_fill_", false},
    {"materialize", false}, /* placeholders only (below) */
    /* torch._names_more.py */
    {"dist", false}, {"deg2rad", false}, {"deg2rad_", false}, {"rad2deg", false}, {"rad2deg_", false},
    {"fmax", false}, {"fmin", false}, {"masked_scatter", false}, {"masked_scatter_", false}, {"hardshrink", false},
    /* torch._more.py */
    {"tensor_split", false}, {"logaddexp2", false}, {"signbit", false}, {"nanmedian", false}, {"index_put", false},
    {"index_put_", false},
    /* torch._linalg_solve.py, torch._stft.py */
    {"cholesky_solve", false}, {"lu_solve", false}, {"stft", false}, {"istft", false},
};

/* A new reference; NULL without an error when name is none of these. */
nn_object *repl_tensor_lib_method(nn_tensor *t, const char *name)
{
    for (size_t i = 0; i < sizeof lib_names / sizeof *lib_names; i++) {
        if (strcmp(lib_names[i].name, name) != 0) continue;
        if (!strcmp(name, "materialize") && !nn_is_uninitialized(&t->ob)) return NULL;
        nn_object *m = repl_stdlib_module(MODNAME);
        nn_object *f = m ? repl_get_attr(m, name) : NULL;
        NN_RELEASE(m);
        if (!f) return NULL;
        nn_object *self = &t->ob;
        nn_object *r = lib_names[i].property ? repl_call_object(f, &self, 1, NULL) : repl_method_new(f, self);
        NN_RELEASE(f);
        return r;
    }
    /* torch._aliases: the methods it lists, and its properties (_property_NAME(tensor)) */
    nn_object *self = &t->ob, *f = repl_stdlib_listed("torch._aliases", "__methods__", name);
    if (f || nn_error_current()) {
        nn_object *r = f ? repl_method_new(f, self) : NULL;
        NN_RELEASE(f);
        return r;
    }
    char getter[64];
    if (snprintf(getter, sizeof getter, "_property_%s", name) >= (int)sizeof getter ||
        !repl_stdlib_lists("torch._aliases", "__properties__", name))
        return NULL;
    nn_object *m = repl_stdlib_module("torch._aliases");
    f = m ? repl_get_attr(m, getter) : NULL;
    NN_RELEASE(m);
    nn_object *r = f ? repl_call_object(f, &self, 1, NULL) : NULL;
    NN_RELEASE(f);
    return r;
}
