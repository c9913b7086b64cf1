/*
 * bind_nn_utils.c — torch.nn.utils in the language: clip_grad_norm_,
 * clip_grad_value_, parameters_to_vector and vector_to_parameters over core's
 * clip_grad.c. Parameters come as one tensor or a list/tuple of tensors.
 */
#include <math.h>
#include <string.h>

#include "bind_int.h"

/* The tensors of o (a tensor, list or tuple) into a new nn_malloc'd array. */
static int tensors_of(const char *fname, nn_object *o, nn_tensor ***out, size_t *n)
{
    if (nn_is_tensor(o)) {
        *out = nn_malloc(sizeof **out);
        if (!*out) return -1;
        (*out)[0] = NN_TENSOR(o);
        *n = 1;
        return 0;
    }
    bool tuple = o && o->type == &nn_tuple_type;
    if (o && !tuple && !nn_is_list(o) && !nn_is_dict(o)) {
        /* any other iterable (model.parameters() is a generator): its items, kept
           alive until the next call, since the array borrows them */
        static nn_object *items;
        nn_object *l = repl_iterable_to_list(o);
        if (l) {
            NN_RELEASE(items);
            items = o = l;
        } else {
            nn_error_clear();
        }
    }
    if (!tuple && !nn_is_list(o))
        return nn_error_set(NN_ERR_TYPE, "%s(): parameters must be a Tensor or an iterable of Tensors, not %s", fname,
                            repl_type_name(o));
    size_t len = tuple ? nn_tuple_len(o) : nn_list_len(o);
    nn_tensor **ts = nn_malloc((len ? len : 1) * sizeof *ts);
    if (!ts) return -1;
    for (size_t i = 0; i < len; i++) {
        nn_object *x = tuple ? nn_tuple_get(o, i) : nn_list_get(o, i);
        if (!nn_is_tensor(x)) {
            nn_free(ts);
            return nn_error_set(NN_ERR_TYPE, "%s(): expected Tensors, but one of the parameters is %s", fname,
                                repl_type_name(x));
        }
        ts[i] = NN_TENSOR(x);
    }
    *out = ts;
    *n = len;
    return 0;
}

static nn_object *f_clip_grad_norm_(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[4] = {0};
    double max_norm, norm_type = 2.0;
    bool nonfinite = false;
    if (repl_parse_args("clip_grad_norm_", "parameters, max_norm, norm_type=, error_if_nonfinite=", args, kwargs, a) ||
        repl_arg_double("clip_grad_norm_", "max_norm", 2, a[1], &max_norm) ||
        (a[2] && repl_arg_double("clip_grad_norm_", "norm_type", 3, a[2], &norm_type)) ||
        (a[3] && repl_arg_bool("clip_grad_norm_", "error_if_nonfinite", 4, a[3], &nonfinite)))
        return NULL;
    nn_tensor **ps;
    size_t n;
    if (tensors_of("clip_grad_norm_", a[0], &ps, &n)) return NULL;
    nn_tensor *total = nn_clip_grad_norm_(ps, n, max_norm, norm_type, nonfinite);
    nn_free(ps);
    return total ? &total->ob : NULL;
}

static nn_object *f_clip_grad_value_(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[2] = {0};
    double v;
    if (repl_parse_args("clip_grad_value_", "parameters, clip_value", args, kwargs, a) ||
        repl_arg_double("clip_grad_value_", "clip_value", 2, a[1], &v))
        return NULL;
    nn_tensor **ps;
    size_t n;
    if (tensors_of("clip_grad_value_", a[0], &ps, &n)) return NULL;
    int rc = nn_clip_grad_value_(ps, n, v);
    nn_free(ps);
    return rc ? NULL : nn_retain(nn_none());
}

static nn_object *f_parameters_to_vector(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1] = {0};
    if (repl_parse_args("parameters_to_vector", "parameters", args, kwargs, a)) return NULL;
    nn_tensor **ps;
    size_t n;
    if (tensors_of("parameters_to_vector", a[0], &ps, &n)) return NULL;
    nn_tensor *v = nn_parameters_to_vector(ps, n);
    nn_free(ps);
    return v ? &v->ob : NULL;
}

static nn_object *f_vector_to_parameters(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[2] = {0};
    if (repl_parse_args("vector_to_parameters", "vec, parameters", args, kwargs, a)) return NULL;
    if (!nn_is_tensor(a[0])) {
        nn_error_set(NN_ERR_TYPE, "expected torch.Tensor, but got: %s", repl_type_name(a[0]));
        return NULL;
    }
    nn_tensor **ps;
    size_t n;
    if (tensors_of("vector_to_parameters", a[1], &ps, &n)) return NULL;
    int rc = nn_vector_to_parameters(NN_TENSOR(a[0]), ps, n);
    nn_free(ps);
    return rc ? NULL : nn_retain(nn_none());
}

static const repl_function_def utils_functions[] = {
    {"clip_grad_norm_", f_clip_grad_norm_,
     "clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False) -> Tensor\n"
     "Clips the gradient norm of parameters in place; returns the total norm."},
    {"clip_grad_value_", f_clip_grad_value_,
     "clip_grad_value_(parameters, clip_value)\n"
     "Clips each gradient in place to [-clip_value, clip_value]."},
    {"parameters_to_vector", f_parameters_to_vector,
     "parameters_to_vector(parameters) -> Tensor\n"
     "Flattens the parameters into one vector."},
    {"vector_to_parameters", f_vector_to_parameters,
     "vector_to_parameters(vec, parameters)\n"
     "Copies slices of a vector into the parameters' data."},
};

nn_object *repl_nn_utils_namespace(void)
{
    nn_object *ns = repl_namespace_new("torch.nn.utils");
    if (ns && repl_namespace_add_fns(ns, utils_functions, sizeof utils_functions / sizeof utils_functions[0]))
        NN_SET(ns, NULL);
    return ns;
}
