/*
 * bind_dtype_info.c — what torch says about its dtypes: torch.iinfo and
 * torch.finfo (their attributes and reprs), torch.promote_types,
 * torch.result_type and torch.can_cast.
 */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"

#define ARGS(n) nn_object *a[n] = {0}

/* ------------------------------------------------------- iinfo / finfo */

typedef struct dtype_info {
    nn_object ob;
    nn_dtype dt;
} dtype_info;

/* the limits of a floating dtype, as torch.finfo gives them */
typedef struct float_limits {
    double max, eps, tiny, resolution;
} float_limits;

static float_limits float_limits_of(nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT64: return (float_limits){DBL_MAX, DBL_EPSILON, DBL_MIN, 1e-15};
    case NN_FLOAT16: return (float_limits){65504.0, 0x1p-10, 0x1p-14, 1e-3};
    case NN_BFLOAT16: return (float_limits){0x1.fep+127, 0x1p-7, FLT_MIN, 1e-2};
    default: return (float_limits){FLT_MAX, FLT_EPSILON, FLT_MIN, 1e-6};
    }
}

/* iinfo(min=0, max=255, dtype=uint8): the numbers as C++'s stream prints a double (%g) */
static char *iinfo_repr(nn_object *self)
{
    nn_dtype dt = ((dtype_info *)self)->dt;
    int64_t lo, hi;
    nn_dtype_int_range(dt, &lo, &hi);
    char buf[128];
    snprintf(buf, sizeof buf, "iinfo(min=%g, max=%g, dtype=%s)", (double)lo, (double)hi, nn_dtype_short_name(dt));
    return nn_strdup(buf);
}

static char *finfo_repr(nn_object *self)
{
    nn_dtype dt = ((dtype_info *)self)->dt;
    float_limits l = float_limits_of(dt);
    char buf[256];
    snprintf(buf, sizeof buf,
             "finfo(resolution=%g, min=%g, max=%g, eps=%g, smallest_normal=%g, tiny=%g, dtype=%s)", l.resolution,
             -l.max, l.max, l.eps, l.tiny, l.tiny, nn_dtype_short_name(dt));
    return nn_strdup(buf);
}

static const nn_type iinfo_type = {.name = "iinfo", .repr = iinfo_repr};
static const nn_type finfo_type = {.name = "finfo", .repr = finfo_repr};

/* one immortal object per dtype, as the dtypes themselves: iinfo(t) == iinfo(t) */
static nn_object *info_new(const nn_type *type, nn_dtype dt)
{
    static dtype_info infos[2][NN_DTYPE_COUNT];
    dtype_info *o = &infos[type == &finfo_type][dt];
    if (!o->ob.type) *o = (dtype_info){{1 << 30, type}, dt};
    return nn_retain(&o->ob);
}

static nn_object *f_iinfo(void *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    int dt = -1;
    if (repl_parse_args("iinfo", "type", args, kwargs, a) || repl_arg_dtype("iinfo", "type", 1, a[0], &dt))
        return NULL;
    if (dt < 0) return nn_error_set(NN_ERR_TYPE, "iinfo(): argument 'type' (position 1) must be torch.dtype, not NoneType"), NULL;
    if (dt == NN_BOOL)
        return nn_error_set(NN_ERR_TYPE, "torch.bool is not supported by torch.iinfo"), NULL;
    if (nn_dtype_is_floating((nn_dtype)dt))
        return nn_error_set(NN_ERR_TYPE, "torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                                         "'torch.iinfo'"), NULL;
    return info_new(&iinfo_type, (nn_dtype)dt);
}

static nn_object *f_finfo(void *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    int dt = -1;
    if (repl_parse_args("finfo", "type=", args, kwargs, a) || repl_arg_dtype("finfo", "type", 1, a[0], &dt))
        return NULL;
    if (dt < 0) dt = nn_default_dtype(); /* torch.finfo(): the default dtype */
    if (!nn_dtype_is_floating((nn_dtype)dt))
        return nn_error_set(NN_ERR_TYPE, "torch.finfo() requires a floating point input type. Use torch.iinfo to "
                                         "handle 'torch.finfo'"), NULL;
    return info_new(&finfo_type, (nn_dtype)dt);
}

nn_object *repl_dtype_info_getattr(nn_object *o, const char *name, bool *handled)
{
    if (o->type != &iinfo_type && o->type != &finfo_type) return NULL;
    *handled = true;
    nn_dtype dt = ((dtype_info *)o)->dt;
    if (!strcmp(name, "bits")) return nn_int_new((int64_t)nn_dtype_size(dt) * 8);
    if (!strcmp(name, "dtype")) return nn_str_new(nn_dtype_short_name(dt));
    if (o->type == &iinfo_type) {
        int64_t lo, hi;
        nn_dtype_int_range(dt, &lo, &hi);
        if (!strcmp(name, "min")) return nn_int_new(lo);
        if (!strcmp(name, "max")) return nn_int_new(hi);
    } else {
        float_limits l = float_limits_of(dt);
        if (!strcmp(name, "max")) return nn_float_new(l.max);
        if (!strcmp(name, "min")) return nn_float_new(-l.max);
        if (!strcmp(name, "eps")) return nn_float_new(l.eps);
        if (!strcmp(name, "tiny") || !strcmp(name, "smallest_normal")) return nn_float_new(l.tiny);
        if (!strcmp(name, "resolution")) return nn_float_new(l.resolution);
    }
    nn_error_set(NN_ERR_ATTRIBUTE, "'torch.%s' object has no attribute '%s'", o->type->name, name);
    return NULL;
}

/* ------------------------------------------------------ type promotion */

static nn_object *f_promote_types(void *self, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    int d1 = -1, d2 = -1;
    if (repl_parse_args("promote_types", "type1, type2", args, kwargs, a) ||
        repl_arg_dtype("promote_types", "type1", 1, a[0], &d1) || repl_arg_dtype("promote_types", "type2", 2, a[1], &d2))
        return NULL;
    if (d1 < 0 || d2 < 0)
        return nn_error_set(NN_ERR_TYPE, "promote_types(): argument '%s' must be torch.dtype, not NoneType",
                            d1 < 0 ? "type1" : "type2"), NULL;
    return nn_retain(repl_dtype_object(nn_promote_types((nn_dtype)d1, (nn_dtype)d2)));
}

/* torch.result_type(tensor, other): the dtype an arithmetic op of the two gives;
   Python numbers take part as wrapped numbers. */
static nn_object *f_result_type(void *self, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    if (repl_parse_args("result_type", "tensor, other", args, kwargs, a)) return NULL;
    nn_tensor *x = repl_as_tensor(a[0]), *y = x ? repl_as_tensor(a[1]) : NULL;
    nn_object *r = NULL;
    if (x && y) {
        r = nn_retain(repl_dtype_object(nn_result_type(x, y)));
    } else if (nn_error_current() == NN_OK) {
        nn_object *bad = x ? a[1] : a[0];
        nn_error_set(NN_ERR_TYPE, "result_type() received an invalid combination of arguments - got (%s)",
                     repl_type_name(bad));
    }
    NN_RELEASE(x);
    NN_RELEASE(y);
    return r;
}

/* c10::canCast: no float to an integer, nothing but bool to bool */
static nn_object *f_can_cast(void *self, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    int from = -1, to = -1;
    if (repl_parse_args("can_cast", "from, to", args, kwargs, a) || repl_arg_dtype("can_cast", "from", 1, a[0], &from) ||
        repl_arg_dtype("can_cast", "to", 2, a[1], &to))
        return NULL;
    if (from < 0 || to < 0)
        return nn_error_set(NN_ERR_TYPE, "can_cast(): argument '%s' must be torch.dtype, not NoneType",
                            from < 0 ? "from" : "to"), NULL;
    bool ok = true;
    if (nn_dtype_is_floating((nn_dtype)from) && !nn_dtype_is_floating((nn_dtype)to)) ok = false;
    if (from != NN_BOOL && to == NN_BOOL) ok = false;
    return nn_bool_new(ok);
}

/* ------------------------------------------------------ default dtype */

static nn_object *f_get_default_dtype(void *self, nn_object *args, nn_object *kwargs)
{
    if (nn_tuple_len(args) || (kwargs && nn_dict_len(kwargs)))
        return nn_error_set(NN_ERR_TYPE, "torch.get_default_dtype() takes no arguments (%zu given)",
                            nn_tuple_len(args) + (kwargs ? nn_dict_len(kwargs) : 0)), NULL;
    return nn_retain(repl_dtype_object(nn_default_dtype()));
}

static nn_object *f_set_default_dtype(void *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("set_default_dtype", "d", args, kwargs, a)) return NULL;
    if (!repl_is_dtype(a[0]))
        return nn_error_set(NN_ERR_TYPE, "invalid dtype object: only floating-point types are supported as the "
                                         "default type"), NULL;
    if (nn_set_default_dtype(repl_dtype_value(a[0])) < 0) return NULL;
    return nn_retain(nn_none());
}

/* torch._set_default_tensor_type(cls): a legacy class (torch.DoubleTensor) sets its
   dtype; torch.set_default_tensor_type (torch._more) resolves names to classes. */
static nn_object *f_set_default_tensor_type(void *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("set_default_tensor_type", "t", args, kwargs, a)) return NULL;
    int dt = repl_legacy_class_dtype(a[0]);
    if (dt < 0)
        return nn_error_set(NN_ERR_TYPE, "invalid type object: only floating-point types are supported as the "
                                         "default type"), NULL;
    if (nn_set_default_dtype((nn_dtype)dt) < 0) return NULL;
    return nn_retain(nn_none());
}

static const repl_function_def dtype_functions[] = {
    {"get_default_dtype", f_get_default_dtype,
     "get_default_dtype() -> torch.dtype\n"
     "Get the current default floating point torch.dtype."},
    {"set_default_dtype", f_set_default_dtype,
     "set_default_dtype(d)\n"
     "Sets the default floating point dtype to d (torch.float32, torch.float64, torch.float16 or torch.bfloat16): "
     "the dtype of factories without dtype=, of Python floats and of new module parameters."},
    {"_set_default_tensor_type", f_set_default_tensor_type,
     "_set_default_tensor_type(t)\n"
     "Sets the default dtype from a legacy tensor class (torch.DoubleTensor)."},
    {"iinfo", f_iinfo,
     "iinfo(type) -> iinfo\n"
     "The numerical properties of an integer dtype: bits, min, max, dtype."},
    {"finfo", f_finfo,
     "finfo(type=None) -> finfo\n"
     "The numerical properties of a floating point dtype: bits, eps, max, min, tiny, smallest_normal, resolution, "
     "dtype."},
    {"promote_types", f_promote_types,
     "promote_types(type1, type2) -> dtype\n"
     "Returns the torch.dtype with the smallest size and scalar kind that is not smaller nor of lower kind than "
     "either type1 or type2."},
    {"result_type", f_result_type,
     "result_type(tensor1, tensor2) -> dtype\n"
     "Returns the torch.dtype that would result from performing an arithmetic operation on the provided input "
     "tensors."},
    {"can_cast", f_can_cast,
     "can_cast(from, to) -> bool\n"
     "Determines if a type conversion is allowed under PyTorch casting rules."},
};

int repl_dtype_info_add_functions(nn_object *torch)
{
    return repl_namespace_add_fns(torch, dtype_functions, sizeof dtype_functions / sizeof dtype_functions[0]);
}
