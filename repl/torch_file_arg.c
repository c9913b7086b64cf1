/*
 * torch_file_arg.c — the f of torch.save(obj, f) and torch.load(f): a str path,
 * an os.PathLike such as pathlib.Path (its __fspath__()), or a binary file
 * object that open() made (its name: the archive is written to / read from
 * that path, which the open file already names), as PyTorch accepts them;
 * or any other file-like object (io.BytesIO, a class of the user's): torch.save
 * writes the archive through its write() then flush(), torch.load checks it is
 * seekable as PyTorch does and reads the archive with read() from where it is.
 */
#include <string.h>

#include "bind_int.h"
#include "bytes_int.h"
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

bool repl_torch_file_is_stream(nn_object *f)
{
    if (!f || nn_is_none(f) || nn_is_str(f)) return false;
    nn_object *fspath = attr_or_null(f, "__fspath__");
    if (fspath) {
        NN_RELEASE(fspath);
        return false;
    }
    nn_object *name = attr_or_null(f, "name"), *mode = name ? attr_or_null(f, "mode") : NULL;
    bool from_open = name && nn_is_str(name) && mode && nn_is_str(mode); /* a file open() made */
    NN_RELEASE(name);
    NN_RELEASE(mode);
    return !from_open;
}

/* f.name(*argv) for its effect; 0 or -1 with the exception */
static int call_for_effect(nn_object *f, const char *name, nn_object *const *argv, int n)
{
    nn_object *r = repl_call_method(f, name, argv, n);
    NN_RELEASE(r);
    return r ? 0 : -1;
}

int repl_torch_stream_write(nn_object *f, const void *data, size_t len)
{
    nn_object *b = repl_bytes_new(data, len, false);
    int rc = b ? call_for_effect(f, "write", &b, 1) : -1;
    NN_RELEASE(b);
    return rc == 0 ? call_for_effect(f, "flush", NULL, 0) : -1; /* PyTorch's writer flushes at its end */
}

nn_object *repl_torch_stream_read(nn_object *f)
{
    /* _check_seekable: f.seek(f.tell()), its AttributeError told in PyTorch's words */
    nn_object *seek = repl_get_attr(f, "seek"), *pos = seek ? repl_call_method(f, "tell", NULL, 0) : NULL;
    nn_object *r = pos ? repl_call_object(seek, &pos, 1, NULL) : NULL;
    int rc = r ? 0 : -1;
    NN_RELEASE(r);
    NN_RELEASE(pos);
    NN_RELEASE(seek);
    if (rc < 0) {
        nn_object *exc = repl_take_exception();
        char *msg = exc ? repl_exc_message(exc) : NULL;
        if (exc && msg && repl_exc_matches(exc, &repl_current->exc_classes[EXC_AttributeError]->ob))
            repl_raise_exc(EXC_AttributeError,
                           "%s. You can only torch.load from a file that is seekable. Please pre-load the data into a "
                           "buffer like io.BytesIO and try to load from it instead.",
                           msg);
        else if (exc)
            repl_raise_object(exc);
        nn_free(msg);
        NN_RELEASE(exc);
        return NULL;
    }
    nn_object *data = repl_call_method(f, "read", NULL, 0);
    if (data && !repl_is_bytes(data)) {
        repl_raise_exc(EXC_TypeError, "a bytes-like object is required, not '%s'", repl_value_type_name(data));
        NN_SET(data, NULL);
    }
    if (data && repl_bytes_len(data) == 0) { /* PyTorch takes it for the legacy format's pickle, which ends at once */
        repl_raise_exc(EXC_EOFError, "Ran out of input");
        NN_SET(data, NULL);
    }
    return data;
}
