/*
 * bind_lazy.c — what the Lazy modules written in the language (repl/lib/torch.nn._lazy.py,
 * torch.nn.modules.lazy.py) need from C: the classes torch.nn.parameter.UninitializedParameter /
 * UninitializedBuffer over core's placeholders (core/layers.c), and two functions of nnscope's own:
 *   torch._nnscope_materialize(t, shape, dtype=None)  param.materialize(shape): the placeholder
 *                      gets data of that shape and becomes a Parameter (a Tensor), keeping its identity;
 *   torch._nnscope_module_become(module, template)   module.__class__ = type(template) for a module
 *                      class of core or of the language: module takes template's class and the
 *                      attributes it lacks or differs in (in_channels ...), keeping its own
 *                      parameters, buffers, submodules and hooks;
 *   torch._nnscope_mute_warnings(on) -> bool   drops core's warnings while on (building a lazy module's
 *                      template), returning the previous setting.
 */
#include <string.h>

#include "bind_int.h"
#include "nn_layers.h"

static nn_object *placeholder(const char *f, nn_object *args, nn_object *kwargs, bool param)
{
    nn_object *a[3] = {0};
    bool rg = param;
    int dtype = -1;
    if (repl_parse_args(f, "requires_grad=, device=, dtype=", args, kwargs, a) ||
        repl_arg_bool(f, "requires_grad", 1, a[0], &rg) || repl_arg_dtype(f, "dtype", 3, a[2], &dtype))
        return NULL;
    nn_dtype dt = dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype;
    return (nn_object *)(param ? nn_uninitialized_parameter_new(rg, dt) : nn_uninitialized_buffer_new(rg, dt));
}

static nn_object *c_UninitializedParameter(void *ud, nn_object *args, nn_object *kwargs)
{
    return placeholder("UninitializedParameter.__new__", args, kwargs, true);
}

static nn_object *c_UninitializedBuffer(void *ud, nn_object *args, nn_object *kwargs)
{
    return placeholder("UninitializedBuffer.__new__", args, kwargs, false);
}

static const repl_class_def lazy_classes[] = {
    {"UninitializedParameter", "torch.nn.parameter.UninitializedParameter", c_UninitializedParameter,
     &nn_uninitialized_parameter_type, NULL,
     "UninitializedParameter(requires_grad=True, device=None, dtype=None)\n"
     "A parameter that is not initialized yet (a lazy module's); materialize(shape) gives it data.",
     repl_tensor_method_at},
    {"UninitializedBuffer", "torch.nn.parameter.UninitializedBuffer", c_UninitializedBuffer,
     &nn_uninitialized_buffer_type, NULL,
     "UninitializedBuffer(requires_grad=False, device=None, dtype=None)\n"
     "A buffer that is not initialized yet (a lazy module's); materialize(shape) gives it data.",
     repl_tensor_method_at},
};

int repl_lazy_add_classes(nn_object *ns)
{
    for (size_t i = 0; i < sizeof lazy_classes / sizeof *lazy_classes; i++) {
        nn_object *c = repl_class_new(&lazy_classes[i]);
        int rc = c ? repl_namespace_set(ns, lazy_classes[i].name, c) : -1;
        NN_RELEASE(c);
        if (rc) return -1;
    }
    return 0;
}

nn_object *repl_lazy_materialize(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[3] = {0};
    const char *f = "materialize";
    nn_tensor *t = NULL;
    int ndim = 0, dtype = -1;
    int64_t sizes[NN_MAX_DIMS];
    if (repl_parse_args(f, "tensor, shape, dtype=", args, kwargs, a) || repl_arg_tensor(f, "tensor", 1, a[0], &t) ||
        repl_arg_dtype(f, "dtype", 3, a[2], &dtype))
        return NULL;
    if (!nn_is_uninitialized(a[0])) {
        nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'materialize'", repl_type_name(a[0]));
        return NULL;
    }
    if (nn_is_instance(a[1], &nn_int_type)) {
        ndim = 1;
        sizes[0] = nn_int_value(a[1]);
    } else if (repl_arg_shape(f, "shape", a[1], &ndim, sizes)) return NULL;
    bool prev = nn_set_grad_enabled(false);
    int rc = nn_uninitialized_materialize(t, ndim, sizes, dtype);
    nn_set_grad_enabled(prev);
    return rc ? NULL : nn_retain(nn_none());
}

nn_object *repl_lazy_module_become(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[2] = {0};
    if (repl_parse_args("_nnscope_module_become", "module, template", args, kwargs, a)) return NULL;
    if (!nn_is_module(a[0]) || !nn_is_module(a[1]))
        return nn_error_set(NN_ERR_TYPE, "_nnscope_module_become(module, template): two modules"), NULL;
    nn_module *m = NN_MODULE(a[0]), *tpl = NN_MODULE(a[1]);
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(tpl->attrs, &pos, &k, &v))
        if (nn_dict_set(m->attrs, k, v) < 0) return NULL;
    nn_object *dicts[3][2] = {{m->parameters, tpl->parameters}, {m->buffers, tpl->buffers},
                              {m->modules, tpl->modules}};
    for (int i = 0; i < 3; i++) {
        pos = 0;
        while (nn_dict_next(dicts[i][1], &pos, &k, &v))
            if (!nn_dict_get(dicts[i][0], k) && nn_dict_set(dicts[i][0], k, v) < 0) return NULL;
    }
    m->cls = tpl->cls;
    return nn_retain(nn_none());
}

nn_object *repl_lazy_mute_warnings(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1] = {0};
    bool on = false;
    if (repl_parse_args("_nnscope_mute_warnings", "on", args, kwargs, a) ||
        repl_arg_bool("_nnscope_mute_warnings", "on", 1, a[0], &on))
        return NULL;
    return nn_bool_new(nn_set_warnings_muted(on));
}
