/*
 * bind_autocast.c — torch.amp.autocast_mode: the autocast context manager and
 * decorator (repl/lib/torch.amp.autocast_mode.py, run as the module's body) over
 * core's CPU autocast flag (core/nn_autocast.h), which the ops of PyTorch 1.13's
 * CPU lists read where they are dispatched. The helpers here only set and read it.
 */
#include "bind_int.h"
#include "nn_autocast.h"
#include "stdlib_int.h"

static nn_object *h_is_cpu_enabled(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("is_autocast_cpu_enabled", args, kwargs, 0, 0) < 0) return NULL;
    return nn_bool_new(nn_autocast_enabled());
}

static nn_object *h_set_cpu_enabled(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("set_autocast_cpu_enabled", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *v = nn_tuple_get(args, 0);
    if (!nn_is_bool(v))
        return nn_error_set(NN_ERR_TYPE, "enabled must be a bool (got %s)", v->type->name), NULL;
    nn_autocast_set_enabled(nn_is_true(v));
    return nn_retain(nn_none());
}

static nn_object *h_get_cpu_dtype(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("get_autocast_cpu_dtype", args, kwargs, 0, 0) < 0) return NULL;
    return nn_retain(repl_dtype_object(nn_autocast_dtype()));
}

static nn_object *h_set_cpu_dtype(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("set_autocast_cpu_dtype", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *v = nn_tuple_get(args, 0);
    if (!repl_is_dtype(v))
        return nn_error_set(NN_ERR_TYPE, "dtype must be a torch.dtype (got %s)", v->type->name), NULL;
    if (repl_dtype_value(v) != NN_BFLOAT16)
        return nn_error_set(NN_ERR_RUNTIME, "Currently, AutocastCPU only support Bfloat16 as the autocast_cpu_dtype"),
               NULL;
    nn_autocast_set_dtype(repl_dtype_value(v));
    return nn_retain(nn_none());
}

/* _cast(policy, tensors): core's casts for the ops written in the language (a tuple back) */
static nn_object *h_cast(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_cast", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *seq = nn_tuple_get(args, 1);
    if (!seq || seq->type != &nn_tuple_type) return nn_error_set(NN_ERR_TYPE, "_cast: a tuple of tensors expected"), NULL;
    size_t n = nn_tuple_len(seq);
    nn_tensor *t[16] = {NULL};
    if (n > 16) return nn_error_set(NN_ERR_VALUE, "_cast: at most 16 tensors"), NULL;
    for (size_t i = 0; i < n; i++) t[i] = nn_is_tensor(nn_tuple_get(seq, i)) ? NN_TENSOR(nn_tuple_get(seq, i)) : NULL;
    nn_autocast_policy p = nn_is_true(nn_tuple_get(args, 0)) ? NN_AUTOCAST_LOWER : NN_AUTOCAST_FP32;
    int k = nn_autocast_cast(p, t, (int)n);
    if (k <= 0) return k < 0 ? NULL : nn_retain(seq);
    nn_object *r = nn_tuple_new(n);
    for (size_t i = 0; r && i < n; i++) nn_tuple_set(r, i, t[i] ? nn_retain(&t[i]->ob) : nn_retain(nn_tuple_get(seq, i)));
    nn_autocast_release(t, (int)n);
    return r;
}

static const repl_mod_fn helpers[] = {
    {"_cast", h_cast, NULL},
    {"is_autocast_cpu_enabled", h_is_cpu_enabled, NULL},
    {"set_autocast_cpu_enabled", h_set_cpu_enabled, NULL},
    {"get_autocast_cpu_dtype", h_get_cpu_dtype, NULL},
    {"set_autocast_cpu_dtype", h_set_cpu_dtype, NULL},
};

nn_object *repl_mod_autocast_mode(void)
{
    return repl_mod_from_source("torch.amp.autocast_mode", helpers, sizeof helpers / sizeof *helpers,
                                repl_pylib_source("torch.amp.autocast_mode"));
}
