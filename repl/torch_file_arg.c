/*
 * torch_file_arg.c — the f of torch.save(obj, f) and torch.load(f): a str path,
 * an os.PathLike such as pathlib.Path (its __fspath__()), or a binary file
 * object that open() made (its name: the archive is written to / read from
 * that path, which the open file already names), as PyTorch accepts them.
 * A file object without a name (io.BytesIO) is a TypeError here.
 */
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"

/* obj.name, or NULL without an error when obj has no such attribute. */
static nn_object *attr_or_null(nn_object *obj, const char *name)
{
    nn_object *v = repl_get_attr(obj, name);
    if (!v) {
        nn_object *exc = repl_take_exception();
        NN_RELEASE(exc);
        nn_error_clear();
    }
    return v;
}

nn_object *repl_torch_file_path(const char *fname, nn_object *f)
{
    if (nn_is_str(f)) return nn_retain(f);
    nn_object *fspath = f && !nn_is_none(f) ? attr_or_null(f, "__fspath__") : NULL;
    if (fspath) {
        nn_object *p = repl_call_object(fspath, NULL, 0, NULL);
        NN_RELEASE(fspath);
        if (p && !nn_is_str(p)) {
            nn_error_set(NN_ERR_TYPE, "expected %s.__fspath__() to return str, not %s", repl_value_type_name(f),
                         repl_value_type_name(p));
            NN_SET(p, NULL);
        }
        return p;
    }
    nn_object *name = f && !nn_is_none(f) ? attr_or_null(f, "name") : NULL;
    nn_object *mode = name ? attr_or_null(f, "mode") : NULL;
    if (name && nn_is_str(name) && (!mode || (nn_is_str(mode) && strchr(nn_str_cstr(mode), 'b')))) {
        NN_RELEASE(mode);
        return name;
    }
    if (mode && nn_is_str(mode))
        nn_error_set(NN_ERR_TYPE, "%s(): the file %s is open in text mode '%s'; open it with 'wb' or 'rb'", fname,
                     nn_is_str(name) ? nn_str_cstr(name) : "?", nn_str_cstr(mode));
    else
        nn_error_set(NN_ERR_TYPE, "%s(): f must be a path (str or os.PathLike) or a file opened by open(), not %s",
                     fname, repl_value_type_name(f));
    NN_RELEASE(name);
    NN_RELEASE(mode);
    return NULL;
}
