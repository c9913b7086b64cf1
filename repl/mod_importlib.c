/*
 * mod_importlib.c — the private module _nnimport under importlib
 * (repl/lib/importlib.py, importlib.util.py): import by name, the file a
 * module name would load from beside the script, a new empty module, and
 * running a file as a module's body (exec_module, reload). Also the maker of
 * importlib itself, which sets importlib.util as CPython's start-up does.
 */
#include <string.h>

#include "stdlib_int.h"

static const char *str_arg(const char *fname, nn_object *o)
{
    if (nn_is_str(o)) return nn_str_cstr(o);
    repl_raise_exc(EXC_TypeError, "%s() argument must be str, not %s", fname, repl_value_type_name(o));
    return NULL;
}

/* import_(name): the module of the dotted name (its last component), imported as
   `import name` would; ModuleNotFoundError as CPython's */
static nn_object *i_import(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("import_", args, kwargs, 1, 1) < 0) return NULL;
    const char *name = str_arg("import_", nn_tuple_get(args, 0));
    return name ? repl_import_by_name(name) : NULL;
}

/* user_path(name): the path of the script's own file of module name, or None */
static nn_object *i_user_path(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("user_path", args, kwargs, 1, 1) < 0) return NULL;
    const char *name = str_arg("user_path", nn_tuple_get(args, 0));
    if (!name) return NULL;
    char *path = repl_user_module_path(name);
    if (!path) return nn_error_current() ? NULL : nn_retain(nn_none());
    nn_object *s = nn_str_new(path);
    nn_free(path);
    return s;
}

/* new_module(name): an empty module with __name__ set */
static nn_object *i_new_module(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("new_module", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *n = nn_tuple_get(args, 0);
    const char *name = str_arg("new_module", n);
    nn_object *m = name ? repl_module_new(name) : NULL;
    if (m && repl_set_attr(m, "__name__", n) < 0) NN_SET(m, NULL);
    return m;
}

/* exec_file(module, path): runs the file as the module's body */
static nn_object *i_exec_file(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("exec_file", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *m = nn_tuple_get(args, 0);
    if (m->type != &repl_module_type) {
        repl_raise_exc(EXC_TypeError, "exec_file() argument 1 must be module, not %s", repl_value_type_name(m));
        return NULL;
    }
    const char *path = str_arg("exec_file", nn_tuple_get(args, 1));
    if (!path || repl_exec_file_in_module(m, path) < 0) return NULL;
    return nn_retain(nn_none());
}

/* is_module(obj) */
static nn_object *i_is_module(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("is_module", args, kwargs, 1, 1) < 0) return NULL;
    return nn_bool_new(nn_tuple_get(args, 0)->type == &repl_module_type);
}

static const repl_mod_fn nnimport_functions[] = {
    {"import_", i_import, "import_(name)\nThe module of the dotted name, imported."},
    {"user_path", i_user_path, "user_path(name)\nThe file beside the script that module name loads from, or None."},
    {"new_module", i_new_module, "new_module(name)\nA new empty module."},
    {"exec_file", i_exec_file, "exec_file(module, path)\nRuns the file as the module's body."},
    {"is_module", i_is_module, "is_module(obj)\nWhether obj is a module."},
};

nn_object *repl_mod_nnimport(void)
{
    nn_object *m = repl_module_new("_nnimport");
    if (m && repl_mod_add_fns(m, nnimport_functions, sizeof nnimport_functions / sizeof *nnimport_functions) < 0)
        NN_SET(m, NULL);
    return m;
}

/* importlib (repl/lib/importlib.py) with importlib.util set on it */
nn_object *repl_mod_importlib(void)
{
    nn_object *m = repl_mod_from_source("importlib", NULL, 0, repl_pylib_source("importlib"));
    if (!m) return NULL;
    nn_object *util = repl_stdlib_module("importlib.util");
    if (!util || repl_set_attr(m, "util", util) < 0) NN_SET(m, NULL);
    NN_RELEASE(util);
    return m;
}
