/*
 * module_state_override.c — Module._load_from_state_dict and
 * Module._save_to_state_dict as methods (a language class's override calls them
 * through super(); they can be called by hand, as in PyTorch), and the lookup
 * through which core's state_dict / load_state_dict call a language class's own
 * override of either, as PyTorch's calls self._load_from_state_dict(...).
 */
#include "bind_int.h"
#include "eval_int.h"

int repl_module_override_lookup(nn_module *m, const char *name, nn_object **method)
{
    *method = NULL;
    class_obj *c = repl_module_lang_class(&m->ob);
    nn_object *v = c ? repl_class_lookup(c, name) : NULL;
    if (!v) return 0;
    *method = repl_bind_class_attr(v, &m->ob, c);
    return *method ? 1 : -1;
}

nn_object *repl_module_load_from_state_dict(nn_object *self, nn_object *args, nn_object *kwargs)
{
    nn_object *a[7] = {0};
    const char *prefix = "";
    bool strict = true;
    if (repl_parse_args("_load_from_state_dict",
                        "self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs",
                        args, kwargs, a) ||
        repl_arg_str("_load_from_state_dict", "prefix", 2, a[1], &prefix) ||
        repl_arg_bool("_load_from_state_dict", "strict", 4, a[3], &strict))
        return NULL;
    if (nn_module_load_from_state_dict(NN_MODULE(self), a[0], prefix, a[2], strict, a[4], a[5], a[6]) < 0) return NULL;
    return nn_retain(nn_none());
}

nn_object *repl_module_save_to_state_dict(nn_object *self, nn_object *args, nn_object *kwargs)
{
    nn_object *a[3] = {0};
    const char *prefix = "";
    bool keep = false;
    if (repl_parse_args("_save_to_state_dict", "self, destination, prefix, keep_vars", args, kwargs, a) ||
        repl_arg_str("_save_to_state_dict", "prefix", 2, a[1], &prefix) ||
        repl_arg_bool("_save_to_state_dict", "keep_vars", 3, a[2], &keep))
        return NULL;
    if (!nn_is_dict(a[0])) {
        nn_error_set(NN_ERR_TYPE, "_save_to_state_dict: destination must be a dict, not %s", repl_type_name(a[0]));
        return NULL;
    }
    if (nn_module_save_to_state_dict(NN_MODULE(self), a[0], prefix, keep) < 0) return NULL;
    return nn_retain(nn_none());
}
