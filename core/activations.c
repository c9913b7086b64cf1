/*
 * activations.c — torch.nn's activation modules (ReLU, GELU, PReLU, Sigmoid,
 * Tanh, Threshold, LeakyReLU, ELU, SiLU, Softplus, Softmax, LogSoftmax) as
 * nn_module classes, and the in-place activations their inplace=True
 * forwards run (relu_, leaky_relu_, elu_, silu_, threshold_) with the
 * backwards of the in-place ops PyTorch differentiates from the result.
 *
 * Each forward does what PyTorch 1.13's Module.forward and torch.nn.functional
 * do, in their order: Python binds the one argument `input` (TypeErrors of
 * Python's wording), the module's attributes are read, then the op's argument
 * parser checks each argument in position order (TypeErrors of PyTorch's
 * wording), then the op runs (unary.c, nnfunc.c).
 *
 * The in-place ops compute the out-of-place result and copy it into the
 * input (one version bump), then record PyTorch's node: relu_ saves the
 * result (ReluBackward0), leaky_relu_ and elu_ too (LeakyReluBackward1,
 * EluBackward1, which refuse a negative slope at backward time), silu_ and
 * threshold_ a copy of the input taken before the write (SiluBackward0,
 * ThresholdBackward1).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_int.h"

/* ------------------------------------------------------------- utilities */

/* A printf-formatted nn_malloc'd string, or NULL with MemoryError. */
static char *format_alloc(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format_alloc(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = nn_malloc((size_t)n + 1);
    if (!s) return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* Python's type(o).__name__ for messages (borrowed). */
static const char *type_name(const nn_object *o)
{
    if (nn_is_none(o)) return "NoneType";
    if (nn_is_tensor(o)) return nn_is_parameter(o) ? "Parameter" : "Tensor";
    if (nn_is_module(o)) return nn_module_name((const nn_module *)o);
    return o->type->name;
}

/* Python's bool(o) for the values core has. */
static bool truthy(const nn_object *o)
{
    if (nn_is_none(o)) return false;
    if (nn_is_bool(o) || nn_is_int(o)) return nn_int_value(o) != 0;
    if (nn_is_float(o)) return nn_float_value(o) != 0.0;
    if (nn_is_str(o)) return nn_str_len(o) > 0;
    if (nn_is_list(o)) return nn_list_len(o) > 0;
    if (nn_is_dict(o)) return nn_dict_len(o) > 0;
    if (o->type == &nn_tuple_type) return nn_tuple_len(o) > 0;
    return true;
}

static bool is_number(const nn_object *o) { return nn_is_int(o) || nn_is_float(o) || nn_is_bool(o); }

/* self.<name> as Python reads it: borrowed, or NULL with AttributeError. */
static nn_object *attr(nn_module *m, const char *name) { return nn_module_getattr(m, name); }

/* Stores a new reference under name in m's attrs; takes value (NULL: fails, an
   allocation error is set). */
static int set_attr(nn_module *m, const char *name, nn_object *value)
{
    if (!value) return -1;
    int rc = nn_module_setattr(m, name, value);
    NN_RELEASE(value);
    return rc;
}

/* Stores a borrowed value, or the default (taken) when value is NULL. */
static int set_attr_or(nn_module *m, const char *name, nn_object *value, nn_object *fallback)
{
    if (value) {
        NN_RELEASE(fallback);
        return nn_module_setattr(m, name, value);
    }
    return set_attr(m, name, fallback);
}

/* The one argument of forward(self, input): Python's binding of args and
   kwargs, with its TypeErrors. Borrowed, or NULL with an error. */
static nn_object *input_arg(nn_module *m, nn_object *args, nn_object *kwargs)
{
    size_t nargs = args ? nn_tuple_len(args) : 0;
    nn_object *input = nargs >= 1 ? nn_tuple_get(args, 0) : NULL;
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        const char *key = nn_is_str(k) ? nn_str_cstr(k) : "?";
        if (strcmp(key, "input") != 0) {
            nn_error_set(NN_ERR_TYPE, "%s.forward() got an unexpected keyword argument '%s'", nn_module_name(m), key);
            return NULL;
        }
        if (input) {
            nn_error_set(NN_ERR_TYPE, "%s.forward() got multiple values for argument 'input'", nn_module_name(m));
            return NULL;
        }
        input = v;
    }
    if (nargs > 1) {
        nn_error_set(NN_ERR_TYPE, "%s.forward() takes 2 positional arguments but %zu were given", nn_module_name(m),
                     nargs + 1);
        return NULL;
    }
    if (!input) {
        nn_error_set(NN_ERR_TYPE, "%s.forward() missing 1 required positional argument: 'input'", nn_module_name(m));
        return NULL;
    }
    return input;
}

/* PyTorch's argument parser on a Tensor argument: borrowed, or NULL with TypeError. */
static nn_tensor *tensor_arg(nn_object *o, const char *fn, const char *name, int position)
{
    if (nn_is_tensor(o)) return NN_TENSOR(o);
    nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' (position %d) must be Tensor, not %s", fn, name, position,
                 type_name(o));
    return NULL;
}

/* PyTorch's argument parser on a Number argument (int, float or bool). */
static int number_arg(nn_object *o, const char *fn, const char *name, int position, double *out)
{
    if (!is_number(o))
        return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' (position %d) must be Number, not %s", fn, name, position,
                            type_name(o));
    *out = nn_float_value(o);
    return 0;
}

/* self.inplace as `if inplace:` sees it: 1, 0, or -1 with AttributeError. */
static int inplace_attr(nn_module *m)
{
    nn_object *o = attr(m, "inplace");
    return o ? truthy(o) : -1;
}

/* str(value) of an attribute, or repr(value) for a str when quoted (GELU's
   "approximate={!r}"); nn_malloc'd, or NULL with an error. */
static char *attr_text(nn_module *m, const char *name, bool quoted)
{
    nn_object *o = attr(m, name);
    if (!o) return NULL;
    return quoted ? nn_repr(o) : nn_str(o);
}

/* The result of an in-place forward: a new reference to x, or NULL. */
static nn_object *inplace_result(nn_tensor *x, int rc)
{
    if (rc < 0) return NULL;
    NN_RETAIN(x);
    return &x->ob;
}

/* ------------------------------------------------------- in-place activations */

typedef enum inplace_kind { IP_RELU, IP_LEAKY_RELU, IP_ELU, IP_SILU, IP_THRESHOLD } inplace_kind;

/* PyTorch's assert_no_internal_overlap: a dim of size > 1 with stride 0. */
static bool internal_overlap(const nn_tensor *t)
{
    for (int d = 0; d < t->ndim; d++)
        if (t->sizes[d] > 1 && t->strides[d] == 0) return true;
    return false;
}

static nn_tensor *compute(inplace_kind k, nn_tensor *a, double p0, double p1)
{
    switch (k) {
    case IP_RELU: return nn_relu(a);
    case IP_LEAKY_RELU: return nn_leaky_relu(a, p0);
    case IP_ELU: return nn_elu(a, p0);
    case IP_SILU: return nn_silu(a);
    case IP_THRESHOLD: return nn_threshold(a, p0, p1);
    }
    return NULL;
}

static int inplace_activation(inplace_kind k, nn_tensor *a, double p0, double p1)
{
    if (nn_check_inplace(a) < 0) return -1;
    if (k != IP_THRESHOLD && internal_overlap(a))
        return nn_error_set(NN_ERR_RUNTIME, "unsupported operation: more than one element of the written-to tensor "
                                            "refers to a single memory location. Please clone() the tensor before "
                                            "performing the operation.");
    bool track = nn_needs_grad(1, &a);
    if (track && nn_check_inplace_record(a, 1, &a) < 0) return -1;
    /* silu_'s and threshold_'s backwards need the input as it was */
    nn_tensor *original = NULL, *r = NULL;
    if (track && (k == IP_SILU || k == IP_THRESHOLD)) {
        NN_WITH_GRAD_MODE(false, original = nn_clone(a));
        if (!original) return -1;
    }
    NN_WITH_GRAD_MODE(false, r = compute(k, a, p0, p1));
    int rc = r ? 0 : -1;
    if (rc == 0) NN_WITH_GRAD_MODE(false, rc = nn_copy_(a, r));
    if (rc == 0 && track) {
        static const nn_op_id ops[] = {[IP_RELU] = NN_OP_relu, [IP_LEAKY_RELU] = NN_OP_leaky_relu_inplace,
                                       [IP_ELU] = NN_OP_elu_inplace, [IP_SILU] = NN_OP_silu,
                                       [IP_THRESHOLD] = NN_OP_threshold_inplace};
        nn_op_params p = {.f = {p0, p1}};
        nn_tensor *save = original ? original : a;
        rc = nn_record_inplace(ops[k], a, 1, &a, 1, &save, &p);
    }
    NN_RELEASE(original);
    NN_RELEASE(r);
    return rc;
}

int nn_relu_(nn_tensor *a) { return inplace_activation(IP_RELU, a, 0, 0); }
int nn_leaky_relu_(nn_tensor *a, double negative_slope) { return inplace_activation(IP_LEAKY_RELU, a, negative_slope, 0); }
int nn_elu_(nn_tensor *a, double alpha) { return inplace_activation(IP_ELU, a, alpha, 0); }
int nn_silu_(nn_tensor *a) { return inplace_activation(IP_SILU, a, 0, 0); }
int nn_threshold_(nn_tensor *a, double threshold, double value)
{
    return inplace_activation(IP_THRESHOLD, a, threshold, value);
}

/* The saved result i of n (borrowed by n); while a graph is built
   (create_graph) it comes back with n as its grad_fn, as PyTorch's saved
   results do, so gradients of the backward flow on through n. New reference. */
static nn_tensor *saved_result(nn_node *n, int i)
{
    nn_tensor *t = nn_node_saved(n, i);
    if (!nn_grad_enabled()) {
        NN_RETAIN(t);
        return t;
    }
    nn_tensor *r = nn_detach(t);
    if (!r) return NULL;
    NN_RETAIN(n);
    r->grad_fn = n;
    r->output_nr = n->saved[i].producer_output_nr;
    r->requires_grad = true;
    return r;
}

/* t <op> v for a number v, as a bool tensor (no autograd); new reference. */
static nn_tensor *compare_number(nn_tensor *t, double v, nn_cmp op)
{
    nn_tensor *w = nn_wrapped_number(v, false);
    nn_tensor *r = w ? nn_compare(t, w, op) : NULL;
    NN_RELEASE(w);
    return r;
}

/* grad where result > 0, else grad * negative_slope (PyTorch's
   leaky_relu_backward with self_is_result) */
int nn_leaky_relu_inplace_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    double slope = n->p.f[0];
    if (slope < 0)
        return nn_error_set(NN_ERR_RUNTIME,
                            "In-place leakyReLu backward calculation is triggered with a negative slope which is not "
                            "supported. This is caused by calling in-place forward function with a negative slope, "
                            "please call out-of-place version instead. File an issue at "
                            "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
                            "backward calculation with negative slope");
    nn_tensor *g = gout[0];
    nn_tensor *pos = compare_number(nn_node_saved(n, 0), 0.0, NN_GT), *scaled = pos ? nn_mul_scalar(g, slope) : NULL;
    gin[0] = scaled ? nn_where(pos, g, scaled) : NULL;
    NN_RELEASE(pos);
    NN_RELEASE(scaled);
    return gin[0] ? 0 : -1;
}

/* grad * (result + alpha) where result <= 0, else grad (PyTorch's
   elu_backward with is_result; scale and input_scale are 1) */
int nn_elu_inplace_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    double alpha = n->p.f[0];
    if (alpha < 0)
        return nn_error_set(NN_ERR_RUNTIME,
                            "In-place elu backward calculation is triggered with a negative slope which is not "
                            "supported. This is caused by calling in-place forward function with a negative slope, "
                            "please call out-of-place version instead.");
    nn_tensor *g = gout[0], *res = saved_result(n, 0);
    nn_tensor *neg = res ? compare_number(res, 0.0, NN_LE) : NULL;
    nn_tensor *shifted = neg ? nn_add_scalar(res, alpha) : NULL, *scaled = shifted ? nn_mul(g, shifted) : NULL;
    gin[0] = scaled ? nn_where(neg, scaled, g) : NULL;
    NN_RELEASE(res);
    NN_RELEASE(neg);
    NN_RELEASE(shifted);
    NN_RELEASE(scaled);
    return gin[0] ? 0 : -1;
}

/* threshold_backward on the saved copy of the input: the out-of-place formula */
int nn_threshold_inplace_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_threshold_backward(n, gout, gin);
}

/* ------------------------------------------------------------------ modules */

/* Allocates a module of cls; the caller sets its attributes. */
static nn_module *module_new(const nn_module_class *cls) { return nn_module_new(cls); }

/* Finishes a constructor: m when rc is 0, else NULL (m released). */
static nn_module *finish(nn_module *m, int rc)
{
    if (rc < 0) NN_SET(m, NULL);
    return m;
}

static char *inplace_only_repr(nn_module *m)
{
    int inplace = inplace_attr(m);
    if (inplace < 0) return NULL;
    return nn_strdup(inplace ? "inplace=True" : "");
}

/* ---- ReLU */

static nn_object *relu_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in = input_arg(m, args, kwargs);
    int inplace = in ? inplace_attr(m) : -1;
    if (inplace < 0) return NULL;
    nn_tensor *x = tensor_arg(in, inplace ? "relu_" : "relu", "input", 1);
    if (!x) return NULL;
    if (inplace) return inplace_result(x, nn_relu_(x));
    return (nn_object *)nn_relu(x);
}

const nn_module_class nn_relu_class = {.name = "ReLU", .forward = relu_forward, .extra_repr = inplace_only_repr};

nn_module *nn_relu_new(bool inplace)
{
    nn_module *m = module_new(&nn_relu_class);
    if (!m) return NULL;
    return finish(m, set_attr(m, "inplace", nn_bool_new(inplace)));
}

/* ---- GELU */

static nn_object *gelu_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in = input_arg(m, args, kwargs);
    nn_object *approximate = in ? attr(m, "approximate") : NULL;
    if (!approximate) return NULL;
    nn_tensor *x = tensor_arg(in, "gelu", "input", 1);
    if (!x) return NULL;
    if (!nn_is_str(approximate)) {
        nn_error_set(NN_ERR_TYPE, "gelu(): argument 'approximate' must be str, not %s", type_name(approximate));
        return NULL;
    }
    const char *s = nn_str_cstr(approximate);
    if (strcmp(s, "none") != 0 && strcmp(s, "tanh") != 0) {
        nn_error_set(NN_ERR_RUNTIME, "approximate argument must be either none or tanh.");
        return NULL;
    }
    return (nn_object *)nn_gelu(x, strcmp(s, "tanh") == 0 ? NN_GELU_TANH : NN_GELU_NONE);
}

static char *gelu_extra_repr(nn_module *m)
{
    char *a = attr_text(m, "approximate", true);
    char *r = a ? format_alloc("approximate=%s", a) : NULL;
    nn_free(a);
    return r;
}

const nn_module_class nn_gelu_class = {.name = "GELU", .forward = gelu_forward, .extra_repr = gelu_extra_repr};

nn_module *nn_gelu_new(const char *approximate)
{
    nn_module *m = module_new(&nn_gelu_class);
    if (!m) return NULL;
    return finish(m, set_attr(m, "approximate", nn_str_new(approximate ? approximate : "none")));
}

/* ---- PReLU */

static nn_object *prelu_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in = input_arg(m, args, kwargs);
    nn_object *weight = in ? attr(m, "weight") : NULL;
    if (!weight) return NULL;
    nn_tensor *x = tensor_arg(in, "prelu", "input", 1), *w = x ? tensor_arg(weight, "prelu", "weight", 2) : NULL;
    if (!w) return NULL;
    return (nn_object *)nn_prelu(x, w);
}

static char *prelu_extra_repr(nn_module *m)
{
    char *n = attr_text(m, "num_parameters", false);
    char *r = n ? format_alloc("num_parameters=%s", n) : NULL;
    nn_free(n);
    return r;
}

const nn_module_class nn_prelu_class = {.name = "PReLU", .forward = prelu_forward, .extra_repr = prelu_extra_repr};

/* fill_(value)'s check that value fits the tensor's type (Scalar::to<T>). */
static int check_fill_value(double v, nn_dtype dt)
{
    const char *name = NULL;
    switch (dt) {
    case NN_FLOAT32:
        if (isfinite(v) && fabs(v) > FLT_MAX) name = "float";
        break;
    case NN_BFLOAT16:
        if (isfinite(v) && fabs(v) > 0x1.fep+127) name = "at::BFloat16";
        break;
    case NN_FLOAT16:
        if (isfinite(v) && fabs(v) > 65504.0) name = "at::Half";
        break;
    case NN_INT64:
        if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) name = "int64_t";
        break;
    case NN_INT32:
        if (!(v >= -2147483648.0 && v <= 2147483647.0)) name = "int";
        break;
    default: break;
    }
    if (name) return nn_error_set(NN_ERR_RUNTIME, "value cannot be converted to type %s without overflow", name);
    return 0;
}

nn_module *nn_prelu_new(int64_t num_parameters, double init, int dtype)
{
    if (dtype >= NN_DTYPE_COUNT) {
        nn_error_set(NN_ERR_VALUE, "invalid dtype %d", dtype);
        return NULL;
    }
    nn_dtype dt = dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype;
    nn_module *m = module_new(&nn_prelu_class);
    if (!m) return NULL;
    int rc = set_attr(m, "num_parameters", nn_int_new(num_parameters));
    nn_tensor *w = rc == 0 ? nn_empty(1, &num_parameters, dt) : NULL, *p = NULL;
    if (!w || check_fill_value(init, dt) < 0 || nn_fill_(w, init) < 0) rc = -1;
    if (rc == 0 && !nn_dtype_is_floating(dt))
        rc = nn_error_set(NN_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
    if (rc == 0 && !(p = nn_parameter_new(w, true))) rc = -1;
    if (rc == 0) rc = nn_module_setattr(m, "weight", &p->ob);
    NN_RELEASE(w);
    NN_RELEASE(p);
    return finish(m, rc);
}

/* ---- Sigmoid, Tanh */

static nn_object *sigmoid_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in = input_arg(m, args, kwargs);
    nn_tensor *x = in ? tensor_arg(in, "sigmoid", "input", 1) : NULL;
    return x ? (nn_object *)nn_sigmoid(x) : NULL;
}

static nn_object *tanh_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in = input_arg(m, args, kwargs);
    nn_tensor *x = in ? tensor_arg(in, "tanh", "input", 1) : NULL;
    return x ? (nn_object *)nn_tanh(x) : NULL;
}

const nn_module_class nn_sigmoid_class = {.name = "Sigmoid", .forward = sigmoid_forward};
const nn_module_class nn_tanh_class = {.name = "Tanh", .forward = tanh_forward};

nn_module *nn_sigmoid_new(void) { return module_new(&nn_sigmoid_class); }
nn_module *nn_tanh_new(void) { return module_new(&nn_tanh_class); }

/* ---- Threshold */

static nn_object *threshold_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in = input_arg(m, args, kwargs);
    nn_object *th = in ? attr(m, "threshold") : NULL, *val = th ? attr(m, "value") : NULL;
    int inplace = val ? inplace_attr(m) : -1;
    if (inplace < 0) return NULL;
    const char *fn = inplace ? "threshold_" : "threshold";
    double t = 0, v = 0;
    nn_tensor *x = tensor_arg(in, fn, "input", 1);
    if (!x || number_arg(th, fn, "threshold", 2, &t) < 0 || number_arg(val, fn, "value", 3, &v) < 0) return NULL;
    if (inplace) return inplace_result(x, nn_threshold_(x, t, v));
    return (nn_object *)nn_threshold(x, t, v);
}

/* ", inplace=True" when set, else ""; NULL with an error */
static const char *inplace_suffix(nn_module *m)
{
    int inplace = inplace_attr(m);
    return inplace < 0 ? NULL : inplace ? ", inplace=True" : "";
}

static char *threshold_extra_repr(nn_module *m)
{
    char *t = attr_text(m, "threshold", false), *v = t ? attr_text(m, "value", false) : NULL;
    const char *suffix = v ? inplace_suffix(m) : NULL;
    char *r = suffix ? format_alloc("threshold=%s, value=%s%s", t, v, suffix) : NULL;
    nn_free(t);
    nn_free(v);
    return r;
}

const nn_module_class nn_threshold_class = {.name = "Threshold", .forward = threshold_forward,
                                            .extra_repr = threshold_extra_repr};

nn_module *nn_threshold_new(nn_object *threshold, nn_object *value, bool inplace)
{
    if (!threshold && !value) {
        nn_error_set(NN_ERR_TYPE, "Threshold.__init__() missing 2 required positional arguments: 'threshold' and 'value'");
        return NULL;
    }
    if (!threshold || !value) {
        nn_error_set(NN_ERR_TYPE, "Threshold.__init__() missing 1 required positional argument: '%s'",
                     threshold ? "value" : "threshold");
        return NULL;
    }
    nn_module *m = module_new(&nn_threshold_class);
    if (!m) return NULL;
    int rc = nn_module_setattr(m, "threshold", threshold);
    if (rc == 0) rc = nn_module_setattr(m, "value", value);
    if (rc == 0) rc = set_attr(m, "inplace", nn_bool_new(inplace));
    return finish(m, rc);
}

/* ---- LeakyReLU, ELU */

static nn_object *leaky_relu_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in = input_arg(m, args, kwargs);
    nn_object *slope = in ? attr(m, "negative_slope") : NULL;
    int inplace = slope ? inplace_attr(m) : -1;
    if (inplace < 0) return NULL;
    const char *fn = inplace ? "leaky_relu_" : "leaky_relu";
    double s = 0;
    nn_tensor *x = tensor_arg(in, fn, "input", 1);
    if (!x || number_arg(slope, fn, "negative_slope", 2, &s) < 0) return NULL;
    if (inplace) return inplace_result(x, nn_leaky_relu_(x, s));
    return (nn_object *)nn_leaky_relu(x, s);
}

static char *leaky_relu_extra_repr(nn_module *m)
{
    char *s = attr_text(m, "negative_slope", false);
    const char *suffix = s ? inplace_suffix(m) : NULL;
    char *r = suffix ? format_alloc("negative_slope=%s%s", s, suffix) : NULL;
    nn_free(s);
    return r;
}

const nn_module_class nn_leaky_relu_class = {.name = "LeakyReLU", .forward = leaky_relu_forward,
                                             .extra_repr = leaky_relu_extra_repr};

nn_module *nn_leaky_relu_new(nn_object *negative_slope, bool inplace)
{
    nn_module *m = module_new(&nn_leaky_relu_class);
    if (!m) return NULL;
    int rc = set_attr_or(m, "negative_slope", negative_slope, negative_slope ? NULL : nn_float_new(0.01));
    if (rc == 0) rc = set_attr(m, "inplace", nn_bool_new(inplace));
    return finish(m, rc);
}

static nn_object *elu_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in = input_arg(m, args, kwargs);
    nn_object *alpha = in ? attr(m, "alpha") : NULL;
    int inplace = alpha ? inplace_attr(m) : -1;
    if (inplace < 0) return NULL;
    const char *fn = inplace ? "elu_" : "elu";
    double a = 0;
    nn_tensor *x = tensor_arg(in, fn, "input", 1);
    if (!x || number_arg(alpha, fn, "alpha", 2, &a) < 0) return NULL;
    if (inplace) return inplace_result(x, nn_elu_(x, a));
    return (nn_object *)nn_elu(x, a);
}

static char *elu_extra_repr(nn_module *m)
{
    char *a = attr_text(m, "alpha", false);
    const char *suffix = a ? inplace_suffix(m) : NULL;
    char *r = suffix ? format_alloc("alpha=%s%s", a, suffix) : NULL;
    nn_free(a);
    return r;
}

const nn_module_class nn_elu_class = {.name = "ELU", .forward = elu_forward, .extra_repr = elu_extra_repr};

nn_module *nn_elu_new(nn_object *alpha, bool inplace)
{
    nn_module *m = module_new(&nn_elu_class);
    if (!m) return NULL;
    int rc = set_attr_or(m, "alpha", alpha, alpha ? NULL : nn_float_new(1.0));
    if (rc == 0) rc = set_attr(m, "inplace", nn_bool_new(inplace));
    return finish(m, rc);
}

/* ---- SiLU */

static nn_object *silu_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in = input_arg(m, args, kwargs);
    int inplace = in ? inplace_attr(m) : -1;
    if (inplace < 0) return NULL;
    nn_tensor *x = tensor_arg(in, inplace ? "silu_" : "silu", "input", 1);
    if (!x) return NULL;
    if (inplace) return inplace_result(x, nn_silu_(x));
    return (nn_object *)nn_silu(x);
}

const nn_module_class nn_silu_class = {.name = "SiLU", .forward = silu_forward, .extra_repr = inplace_only_repr};

nn_module *nn_silu_new(bool inplace)
{
    nn_module *m = module_new(&nn_silu_class);
    if (!m) return NULL;
    return finish(m, set_attr(m, "inplace", nn_bool_new(inplace)));
}

/* ---- Softplus */

static nn_object *softplus_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in = input_arg(m, args, kwargs);
    nn_object *beta = in ? attr(m, "beta") : NULL, *th = beta ? attr(m, "threshold") : NULL;
    if (!th) return NULL;
    double b = 0, t = 0;
    nn_tensor *x = tensor_arg(in, "softplus", "input", 1);
    if (!x || number_arg(beta, "softplus", "beta", 2, &b) < 0 || number_arg(th, "softplus", "threshold", 3, &t) < 0)
        return NULL;
    return (nn_object *)nn_softplus(x, b, t);
}

static char *softplus_extra_repr(nn_module *m)
{
    char *b = attr_text(m, "beta", false), *t = b ? attr_text(m, "threshold", false) : NULL;
    char *r = t ? format_alloc("beta=%s, threshold=%s", b, t) : NULL;
    nn_free(b);
    nn_free(t);
    return r;
}

const nn_module_class nn_softplus_class = {.name = "Softplus", .forward = softplus_forward,
                                           .extra_repr = softplus_extra_repr};

nn_module *nn_softplus_new(nn_object *beta, nn_object *threshold)
{
    nn_module *m = module_new(&nn_softplus_class);
    if (!m) return NULL;
    int rc = set_attr_or(m, "beta", beta, beta ? NULL : nn_int_new(1));
    if (rc == 0) rc = set_attr_or(m, "threshold", threshold, threshold ? NULL : nn_int_new(20));
    return finish(m, rc);
}

/* ---- Softmax, LogSoftmax */

/* F.softmax / F.log_softmax(input, self.dim): the implicit dim when dim is
   None (_get_softmax_dim), then input.softmax(dim)'s argument parsing. */
static nn_object *softmax_common(nn_module *m, nn_object *args, nn_object *kwargs, bool log)
{
    const char *method = log ? "log_softmax" : "softmax";
    nn_object *in = input_arg(m, args, kwargs);
    nn_object *dim = in ? attr(m, "dim") : NULL;
    if (!dim) return NULL;
    if (!nn_is_tensor(in)) {
        nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'", type_name(in),
                     nn_is_none(dim) ? "dim" : method);
        return NULL;
    }
    nn_tensor *x = NN_TENSOR(in);
    int d;
    if (nn_is_none(dim)) {
        if ((d = nn_implicit_softmax_dim(method, x->ndim)) < 0) return NULL;
    } else if (nn_is_int(dim)) {
        int64_t v = nn_int_value(dim);
        if (v < INT_MIN || v > INT_MAX) {
            int n = x->ndim > 0 ? x->ndim : 1;
            nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)", -n,
                         n - 1, (long long)v);
            return NULL;
        }
        d = (int)v;
    } else if (nn_is_str(dim)) {
        /* a str is a dimension name; nnscope's tensors are unnamed */
        char names[NN_MAX_DIMS * 6 + 1] = "";
        for (int i = 0; i < x->ndim; i++) strcat(names, i ? ", None" : "None");
        nn_error_set(NN_ERR_RUNTIME, "Name '%s' not found in Tensor[%s].", nn_str_cstr(dim), names);
        return NULL;
    } else {
        nn_error_set(NN_ERR_TYPE,
                     "%s() received an invalid combination of arguments - got (%s), but expected one of:\n"
                     " * (int dim, torch.dtype dtype)\n"
                     " * (name dim, *, torch.dtype dtype)\n",
                     method, type_name(dim));
        return NULL;
    }
    return (nn_object *)(log ? nn_log_softmax(x, d) : nn_softmax(x, d));
}

static nn_object *softmax_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    return softmax_common(m, args, kwargs, false);
}

static nn_object *log_softmax_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    return softmax_common(m, args, kwargs, true);
}

static char *dim_extra_repr(nn_module *m)
{
    char *d = attr_text(m, "dim", false);
    char *r = d ? format_alloc("dim=%s", d) : NULL;
    nn_free(d);
    return r;
}

const nn_module_class nn_softmax_class = {.name = "Softmax", .forward = softmax_forward, .extra_repr = dim_extra_repr};
const nn_module_class nn_log_softmax_class = {.name = "LogSoftmax", .forward = log_softmax_forward,
                                              .extra_repr = dim_extra_repr};

static nn_module *softmax_new(const nn_module_class *cls, nn_object *dim)
{
    nn_module *m = module_new(cls);
    if (!m) return NULL;
    return finish(m, nn_module_setattr(m, "dim", dim ? dim : nn_none()));
}

nn_module *nn_softmax_new(nn_object *dim) { return softmax_new(&nn_softmax_class, dim); }
nn_module *nn_log_softmax_new(nn_object *dim) { return softmax_new(&nn_log_softmax_class, dim); }
