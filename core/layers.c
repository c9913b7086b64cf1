/*
 * layers.c — torch.nn's basic layers: Identity, Linear, LazyLinear, Flatten,
 * Dropout, LayerNorm, BatchNorm1d, Embedding and the MSE, L1 and
 * cross-entropy losses as module classes, with the two ops they need that
 * other files lack: addmm (F.linear's fused product, AddmmBackward0) and
 * native batch norm (NativeBatchNormBackward0), each forward beside its
 * backward; and UninitializedParameter / UninitializedBuffer for LazyLinear.
 *
 * Constructors follow the PyTorch 1.13 __init__ and reset_parameters of each
 * class (same draws from the default generator, in the same order); module
 * configuration lives in the module's attrs under PyTorch's attribute names,
 * and forward reads it from there. Not here: the generic Module machinery
 * (module.c, module_call.c) and the functional ops (nnfunc.c).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_gemm.h"
#include "nn_losses.h"
#include "nn_autocast.h"
#include "nn_mod_more.h"

/* ------------------------------------------------------------ helpers */

static nn_tensor *retained(nn_tensor *t)
{
    NN_RETAIN(t);
    return t;
}

/* PyTorch's ScalarType name, as kernel messages print it. */
static const char *type_title(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "Float", [NN_FLOAT64] = "Double", [NN_FLOAT16] = "Half", [NN_BFLOAT16] = "BFloat16",
        [NN_INT64] = "Long",    [NN_INT32] = "Int",      [NN_BOOL] = "Bool",
        [NN_UINT8] = "Byte",    [NN_INT8] = "Char",      [NN_INT16] = "Short",
    };
    return names[dt];
}

/* "torch.Size([1, 3])" into buf. */
static const char *size_str(const nn_tensor *t, char *buf, size_t n)
{
    char shape[256];
    snprintf(buf, n, "torch.Size(%s)", nn_shape_str(t->ndim, t->sizes, shape, sizeof shape));
    return buf;
}

/* A growing nn_malloc'd string; failed after an allocation failure. */
typedef struct sbuf {
    char *p;
    size_t len, cap;
    bool failed;
} sbuf;

static void sb_add(sbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->failed) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1) cap *= 2;
        char *grown = nn_realloc(b->p, cap);
        if (!grown) {
            b->failed = true;
            return;
        }
        b->p = grown;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n + 1);
    b->len += n;
}

/* Appends str(o). */
static void sb_str(sbuf *b, nn_object *o)
{
    char *s = nn_str(o ? o : nn_none());
    if (!s) {
        b->failed = true;
        return;
    }
    sb_add(b, s);
    nn_free(s);
}

/* The string, or NULL (freed) when anything failed. */
static char *sb_finish(sbuf *b)
{
    if (b->failed || !b->p) {
        nn_free(b->p);
        return b->failed ? NULL : nn_strdup("");
    }
    return b->p;
}

/* str.format(**self.__dict__) for the module's attrs: every "{name}" in fmt
   becomes str(getattr(m, name)). A new nn_malloc'd string, or NULL. */
static char *format_attrs(nn_module *m, const char *fmt)
{
    sbuf b = {0};
    for (const char *p = fmt; *p && !b.failed;) {
        const char *open = strchr(p, '{');
        if (!open) {
            sb_add(&b, p);
            break;
        }
        char chunk[256], name[64];
        size_t n = (size_t)(open - p) < sizeof chunk - 1 ? (size_t)(open - p) : sizeof chunk - 1;
        memcpy(chunk, p, n);
        chunk[n] = '\0';
        sb_add(&b, chunk);
        const char *close = strchr(open, '}');
        size_t k = (size_t)(close - open - 1) < sizeof name - 1 ? (size_t)(close - open - 1) : sizeof name - 1;
        memcpy(name, open + 1, k);
        name[k] = '\0';
        nn_object *v = nn_module_getattr(m, name);
        if (!v) b.failed = true;
        else sb_str(&b, v);
        p = close + 1;
    }
    return sb_finish(&b);
}

/* Sets attribute name to a new value (takes value; NULL: failed already). */
static int set_attr(nn_module *m, const char *name, nn_object *value)
{
    if (!value) return -1;
    int rc = nn_module_setattr(m, name, value);
    NN_RELEASE(value);
    return rc;
}

/* Reads a number attribute (int, float or bool) as a double. */
static int attr_double(nn_module *m, const char *name, double *out)
{
    nn_object *v = nn_module_getattr(m, name);
    if (!v) return -1;
    if (!nn_is_int(v) && !nn_is_float(v) && !nn_is_bool(v))
        return nn_error_set(NN_ERR_TYPE, "%s must be a number, not '%s'", name, v->type->name);
    *out = nn_float_value(v);
    return 0;
}

static int attr_int(nn_module *m, const char *name, int64_t *out)
{
    nn_object *v = nn_module_getattr(m, name);
    if (!v) return -1;
    if (!nn_is_int(v) && !nn_is_bool(v))
        return nn_error_set(NN_ERR_TYPE, "'%s' object cannot be interpreted as an integer", v->type->name);
    *out = nn_int_value(v);
    return 0;
}

/* A parameter or buffer of the module: borrowed, or NULL (no error) for None/absent. */
static nn_tensor *member(nn_object *dict, const char *name)
{
    nn_object *v = nn_dict_get_str(dict, name);
    return v && nn_is_tensor(v) ? NN_TENSOR(v) : NULL;
}

/* Parameter(torch.empty(sizes, dtype)) set as attribute name; borrowed result. */
static nn_tensor *add_param(nn_module *m, const char *name, int ndim, const int64_t *sizes, nn_dtype dtype)
{
    nn_tensor *data = nn_empty(ndim, sizes, dtype);
    if (!data) return NULL;
    if (!nn_dtype_is_floating(dtype)) {
        NN_RELEASE(data);
        nn_error_set(NN_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
        return NULL;
    }
    nn_tensor *p = nn_parameter_new(data, true);
    NN_RELEASE(data);
    if (!p) return NULL;
    int rc = nn_module_setattr(m, name, &p->ob);
    NN_RELEASE(p);
    return rc < 0 ? NULL : p;
}

/* register_buffer(name, t): takes t (NULL: failed already). */
static int add_buffer(nn_module *m, const char *name, nn_tensor *t)
{
    if (!t) return -1;
    int rc = nn_module_register_buffer(m, name, t, true);
    NN_RELEASE(t);
    return rc;
}

/* ------------------------------------------------------- forward arguments */

/* Binds forward(self, names...) to args/kwargs as Python does: out[i] are
   borrowed. TypeError with Python's messages. */
static int bind_args(const char *fn, nn_object *args, nn_object *kwargs, int n, const char *const *names, nn_object **out)
{
    size_t na = args ? nn_tuple_len(args) : 0;
    if (na > (size_t)n)
        return nn_error_set(NN_ERR_TYPE, "%s() takes %d positional argument%s but %zu were given", fn, n + 1,
                            n + 1 == 1 ? "" : "s", na + 1);
    for (int i = 0; i < n; i++) out[i] = (size_t)i < na ? nn_tuple_get(args, (size_t)i) : NULL;
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        const char *key = nn_is_str(k) ? nn_str_cstr(k) : "";
        int i = 0;
        while (i < n && strcmp(names[i], key) != 0) i++;
        if (i == n) return nn_error_set(NN_ERR_TYPE, "%s() got an unexpected keyword argument '%s'", fn, key);
        if (out[i]) return nn_error_set(NN_ERR_TYPE, "%s() got multiple values for argument '%s'", fn, key);
        out[i] = v;
    }
    int missing = 0;
    for (int i = 0; i < n; i++) missing += out[i] == NULL;
    if (missing) {
        char list[256] = "";
        int seen = 0;
        for (int i = 0; i < n; i++) {
            if (out[i]) continue;
            size_t len = strlen(list);
            const char *sep = seen == 0 ? "" : seen == missing - 1 ? (missing > 2 ? ", and " : " and ") : ", ";
            snprintf(list + len, sizeof list - len, "%s'%s'", sep, names[i]);
            seen++;
        }
        return nn_error_set(NN_ERR_TYPE, "%s() missing %d required positional argument%s: %s", fn, missing,
                            missing == 1 ? "" : "s", list);
    }
    return 0;
}

/* The single tensor argument of forward(self, input): borrowed or NULL.
   fn/arg name the function PyTorch's message names for a non-tensor. */
static nn_tensor *tensor_arg(const char *forward, nn_object *args, nn_object *kwargs, const char *fn, const char *arg,
                             int position)
{
    static const char *const names[1] = {"input"};
    nn_object *in;
    if (bind_args(forward, args, kwargs, 1, names, &in) < 0) return NULL;
    if (!nn_is_tensor(in)) {
        nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' (position %d) must be Tensor, not %s", fn, arg, position,
                     nn_is_none(in) ? "NoneType" : in->type->name);
        return NULL;
    }
    return NN_TENSOR(in);
}

/* Same, for code that calls a method on the input (input.flatten, input.dim()). */
static nn_tensor *method_arg(const char *forward, nn_object *args, nn_object *kwargs, const char *method)
{
    static const char *const names[1] = {"input"};
    nn_object *in;
    if (bind_args(forward, args, kwargs, 1, names, &in) < 0) return NULL;
    if (!nn_is_tensor(in)) {
        nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'", nn_is_none(in) ? "NoneType" : in->type->name,
                     method);
        return NULL;
    }
    return NN_TENSOR(in);
}

nn_tensor *nn_forward_tensor_arg(const char *forward, nn_object *args, nn_object *kwargs, const char *fn,
                                 const char *arg, int position)
{
    return tensor_arg(forward, args, kwargs, fn, arg, position);
}

char *nn_module_format_attrs(nn_module *m, const char *fmt) { return format_attrs(m, fmt); }

/* ==================================================================== addmm */

/* c[n, m] (contiguous, holding self) += a[n, k] @ b[k, m]: the GEMM call of
   ATen's addmm_impl_cpu_ with beta = 1 (nn_gemm.h). */
static int gemm_accumulate(nn_tensor *c, nn_tensor *a, nn_tensor *b)
{
    nn_dtype cd = c->dtype;
    nn_tensor *ca, *cb = NULL;
    NN_WITH_GRAD_MODE(false, ca = nn_to_dtype(a, cd); cb = ca ? nn_to_dtype(b, cd) : NULL);
    int rc = cb ? nn_gemm_as_aten(c, ca, cb, 1.0) : -1;
    NN_RELEASE(ca);
    NN_RELEASE(cb);
    return rc;
}

/* Integer addmm: c += a @ b, wrapping as PyTorch's integer kernels (the product by
   the matmul_loop kernel on [1, n, k] @ [1, k, m] views, then added in c's dtype). */
static int int_accumulate(nn_tensor *c, nn_tensor *a, nn_tensor *b)
{
    nn_tensor *a3 = NULL, *b3 = NULL, *prod = NULL;
    int rc = -1;
    NN_WITH_GRAD_MODE(false, a3 = nn_unsqueeze(a, 0); b3 = a3 ? nn_unsqueeze(b, 0) : NULL);
    if (b3) prod = nn_empty_on(nn_device_of(c), 3, (const int64_t[]){1, c->sizes[0], c->sizes[1]}, c->dtype);
    if (prod && NN_KERNEL(nn_backend_of(c), matmul_loop, (prod, a3, b3)) == 0) {
        nn_tensor *p2 = NULL;
        NN_WITH_GRAD_MODE(false, p2 = nn_squeeze_dim(prod, 0); rc = p2 ? nn_add_(c, p2, 1) : -1);
        NN_RELEASE(p2);
    }
    NN_RELEASE(a3);
    NN_RELEASE(b3);
    NN_RELEASE(prod);
    return rc;
}

nn_tensor *nn_addmm(nn_tensor *self, nn_tensor *mat1, nn_tensor *mat2)
{
    NN_AUTOCAST(LOWER, nn_addmm(ac_[0], ac_[1], ac_[2]), self, mat1, mat2);
    if (!self || !mat1 || !mat2) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (mat1->ndim != 2) {
        nn_error_set(NN_ERR_RUNTIME, "mat1 must be a matrix, got %d-D tensor", mat1->ndim);
        return NULL;
    }
    if (mat2->ndim != 2) {
        nn_error_set(NN_ERR_RUNTIME, "mat2 must be a matrix, got %d-D tensor", mat2->ndim);
        return NULL;
    }
    if (self->dtype != mat2->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "self and mat2 must have the same dtype");
        return NULL;
    }
    if (mat1->dtype != mat2->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "mat1 and mat2 must have the same dtype");
        return NULL;
    }
    int64_t n = mat1->sizes[0], k = mat1->sizes[1], m = mat2->sizes[1];
    if (mat2->sizes[0] != k) {
        nn_error_set(NN_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)", (long long)n,
                     (long long)k, (long long)mat2->sizes[0], (long long)m);
        return NULL;
    }
    int64_t shape[2] = {n, m};
    nn_tensor *expanded;
    NN_WITH_GRAD_MODE(false, expanded = nn_expand(self, 2, shape));
    if (!expanded) return NULL;
    nn_dtype dt = self->dtype;
    if (dt == NN_FLOAT16 || dt == NN_BOOL) {
        NN_RELEASE(expanded);
        nn_error_set(NN_ERR_RUNTIME, "\"addmm_impl_cpu_\" not implemented for '%s'", type_title(dt));
        return NULL;
    }
    /* result = self, then gemm(beta = 1) adds the product into it */
    nn_dtype cd = dt == NN_BFLOAT16 ? NN_FLOAT32 : dt;
    nn_device device;
    nn_tensor *operands[3] = {self, mat1, mat2};
    if (nn_common_device(3, operands, &device) < 0) {
        NN_RELEASE(expanded);
        return NULL;
    }
    nn_tensor *acc = nn_empty_on(device, 2, shape, cd), *out = NULL;
    int rc = acc ? 0 : -1;
    if (rc == 0) NN_WITH_GRAD_MODE(false, rc = nn_copy_(acc, expanded));
    if (rc == 0 && n > 0 && m > 0 && k > 0) {
        if (cd == NN_FLOAT32 || cd == NN_FLOAT64) rc = gemm_accumulate(acc, mat1, mat2);
        else rc = int_accumulate(acc, mat1, mat2);
    }
    if (rc == 0 && cd != dt) {
        out = nn_empty_on(device, 2, shape, dt);
        if (out) NN_WITH_GRAD_MODE(false, rc = nn_copy_(out, acc));
        else rc = -1;
    } else if (rc == 0) {
        out = retained(acc);
    }
    NN_RELEASE(acc);
    NN_RELEASE(expanded);
    if (rc < 0) {
        NN_RELEASE(out);
        return NULL;
    }
    out->storage->version = 0;
    /* the backward needs each matrix for the other's gradient, and the strides
       PyTorch's mm_mat1/mat2_backward choose their layout by */
    nn_tensor *in[3] = {self, mat1, mat2};
    nn_tensor *save[2] = {mat2->requires_grad ? mat1 : NULL, mat1->requires_grad ? mat2 : NULL};
    nn_op_params p = {.n_i = 8};
    nn_mm_layout(mat1, p.i);
    nn_mm_layout(mat2, p.i + 4);
    if (nn_record(NN_OP_addmm, 3, in, 1, &out, 2, save, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* grad summed to self's shape: PyTorch's column sums for a contiguous float
   [n, m] grad and a self of [m] or [1, m]; nn_sum_to_size otherwise. New reference. */
static nn_tensor *bias_grad(nn_tensor *g, const nn_input_meta *self)
{
    int64_t n = g->sizes[0], m = g->sizes[1];
    bool rows = (self->ndim == 1 && self->sizes[0] == m) || (self->ndim == 2 && self->sizes[0] == 1 && self->sizes[1] == m);
    if (!rows || n == 1 || nn_grad_enabled() || !nn_is_contiguous(g) || (g->dtype != NN_FLOAT32 && g->dtype != NN_FLOAT64))
        return nn_sum_to_size(g, self->ndim, self->sizes);
    nn_tensor *out = nn_empty_on(nn_device_of(g), self->ndim, self->sizes, g->dtype);
    if (out && NN_KERNEL(nn_backend_of(g), reduce, (NN_REDUCE_COLUMNS, g, n, m, 0, out, NULL)) < 0) NN_SET(out, NULL);
    return out;
}

int nn_addmm_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *g = gout[0], *mat1 = nn_node_saved(n, 0), *mat2 = nn_node_saved(n, 1);
    if (nn_node_needs_input_grad(n, 0)) {
        /* self: grad (beta = 1) summed back to self's shape */
        gin[0] = bias_grad(g, &n->input_meta[0]);
        if (!gin[0]) return -1;
    }
    /* F.linear's weight.t() is column-major, so the weight's gradient is (grad^T @ input), contiguous */
    if (nn_node_needs_input_grad(n, 1) && !(gin[1] = nn_mm_mat1_backward(g, mat2, n->p.i))) return -1;
    if (nn_node_needs_input_grad(n, 2) && !(gin[2] = nn_mm_mat2_backward(g, mat1, n->p.i + 4))) return -1;
    return 0;
}

/* ------------------------------------------------------------- F.linear */

nn_tensor *nn_linear(nn_tensor *input, nn_tensor *weight, nn_tensor *bias)
{
    NN_AUTOCAST(LOWER, nn_linear(ac_[0], ac_[1], ac_[2]), input, weight, bias);
    if (!input || !weight) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (weight->ndim > 2) {
        nn_error_set(NN_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, but self is %dD", weight->ndim);
        return NULL;
    }
    nn_tensor *wt = nn_t(weight), *out = NULL;
    if (!wt) return NULL;
    if (input->ndim == 2 && bias) {
        out = nn_addmm(bias, input, wt);
    } else if (bias && input->ndim == 3 && nn_is_contiguous(input)) {
        /* _flatten_3d_linear */
        int64_t flat_shape[2] = {input->sizes[0] * input->sizes[1], input->sizes[2]};
        nn_tensor *flat = nn_view(input, 2, flat_shape);
        nn_tensor *r = flat ? nn_addmm(bias, flat, wt) : NULL;
        if (r) out = nn_view(r, 3, (const int64_t[]){input->sizes[0], input->sizes[1], r->sizes[1]});
        NN_RELEASE(flat);
        NN_RELEASE(r);
    } else {
        out = nn_matmul(input, wt);
        if (out && bias && nn_add_(out, bias, 1.0) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(wt);
    return out;
}

/* =============================================================== batch norm */


/* t as a contiguous tensor of dtype dt (t itself, retained, when it is one); no autograd. */
static nn_tensor *dense(nn_tensor *t, nn_dtype dt)
{
    if (!t) return NULL;
    nn_tensor *c = NULL, *r;
    NN_WITH_GRAD_MODE(false, c = nn_to_dtype(t, dt); r = c ? nn_contiguous(c) : NULL);
    NN_RELEASE(c);
    return r;
}

/* check_dims_match_num_input_features */
static int check_features(const char *name, int64_t expected, const nn_tensor *t)
{
    if (t && nn_numel(t) != expected)
        return nn_error_set(NN_ERR_RUNTIME, "%s should contain %lld elements not %lld", name, (long long)expected,
                            (long long)nn_numel(t));
    return 0;
}

/* BatchNorm of an empty input: input.clone() * weight[0] + bias[0], as PyTorch. */
static nn_tensor *batch_norm_empty(nn_tensor *input, nn_tensor *weight, nn_tensor *bias)
{
    nn_tensor *out = nn_clone(input);
    nn_tensor *params[2] = {weight, bias};
    for (int k = 0; k < 2 && out; k++) {
        if (!params[k]) continue;
        nn_tensor *first = nn_select(params[k], 0, 0), *r = first ? (k ? nn_add(out, first) : nn_mul(out, first)) : NULL;
        NN_RELEASE(first);
        NN_SET(out, r);
    }
    return out;
}

/* Gives t (a buffer) the values of src (same shape), in place: a version bump. */
static void store_back(nn_tensor *t, nn_tensor *src)
{
    if (t == src) {
        nn_bump_version(t);
        return;
    }
    NN_WITH_GRAD_MODE(false, nn_copy_(t, src));
}

nn_tensor *nn_batch_norm(nn_tensor *input, nn_tensor *running_mean, nn_tensor *running_var, nn_tensor *weight,
                         nn_tensor *bias, bool training, double momentum, double eps)
{
    char buf[256];
    if (input->ndim < 2) {
        if (training && input->ndim == 1 && input->sizes[0] == 1) {
            nn_error_set(NN_ERR_VALUE, "Expected more than 1 value per channel when training, got input size %s",
                         size_str(input, buf, sizeof buf));
            return NULL;
        }
        if (input->ndim == 0) nn_error_set(NN_ERR_INDEX, "Dimension specified as 1 but tensor has no dimensions");
        else nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
        return NULL;
    }
    int64_t nb = input->sizes[0], C = input->sizes[1], L = 1;
    for (int d = 2; d < input->ndim; d++) L *= input->sizes[d];
    if (training && nb * L == 1) {
        nn_error_set(NN_ERR_VALUE, "Expected more than 1 value per channel when training, got input size %s",
                     size_str(input, buf, sizeof buf));
        return NULL;
    }
    if (nn_numel(input) == 0) return batch_norm_empty(input, weight, bias);
    if (!running_mean && !training) {
        nn_error_set(NN_ERR_RUNTIME, "running_mean must be defined in evaluation mode");
        return NULL;
    }
    if (!running_var && !training) {
        nn_error_set(NN_ERR_RUNTIME, "running_var must be defined in evaluation mode");
        return NULL;
    }
    if (check_features("running_mean", C, running_mean) < 0 || check_features("running_var", C, running_var) < 0 ||
        check_features("weight", C, weight) < 0 || check_features("bias", C, bias) < 0)
        return NULL;
    nn_dtype dt = input->dtype;
    if (!nn_dtype_is_floating(dt) || dt == NN_FLOAT16) {
        nn_error_set(NN_ERR_RUNTIME, "\"batch_norm\" not implemented for '%s'", type_title(dt));
        return NULL;
    }
    /* is_mixed_type: the first defined parameter's dtype against the input's */
    nn_tensor *params[4] = {weight, bias, running_mean, running_var};
    nn_dtype pt = dt;
    for (int k = 3; k >= 0; k--)
        if (params[k]) pt = params[k]->dtype;
    for (int k = 0; k < 4; k++) {
        if (!params[k]) continue;
        if (pt != dt && dt != NN_BFLOAT16) {
            nn_error_set(NN_ERR_RUNTIME, "mixed dtype (CPU): expect input to have scalar type of BFloat16");
            return NULL;
        }
        if (pt != dt && params[k]->dtype != NN_FLOAT32) {
            nn_error_set(NN_ERR_RUNTIME, "mixed dtype (CPU): expect parameter to have scalar type of Float");
            return NULL;
        }
        if (pt == dt && params[k]->dtype != dt) {
            nn_error_set(NN_ERR_RUNTIME, "expected scalar type %s but found %s", type_title(dt),
                         type_title(params[k]->dtype));
            return NULL;
        }
    }
    /* bfloat16 computes in float32 (rounded once at the end) */
    nn_dtype cd = dt == NN_FLOAT64 ? NN_FLOAT64 : NN_FLOAT32;
    nn_tensor *x = dense(input, cd), *w = dense(weight, cd), *b = dense(bias, cd);
    nn_tensor *rm = dense(running_mean, cd), *rv = dense(running_var, cd);
    nn_tensor *res = nn_empty_on(nn_device_of(input), input->ndim, input->sizes, cd), *out = NULL;
    nn_tensor *save_mean = NULL, *save_invstd = NULL;
    bool ok = x && res && (!weight || w) && (!bias || b) && (!running_mean || rm) && (!running_var || rv);
    if (ok && training) {
        save_mean = nn_empty_on(nn_device_of(x), 1, &C, cd);
        save_invstd = nn_empty_on(nn_device_of(x), 1, &C, cd);
        ok = save_mean && save_invstd;
    }
    if (!ok) goto done;
    nn_kernel_args ka = {.t = {res, save_mean, save_invstd, x, w, b, rm, rv}, .i = {nb, C, L, training},
                         .d = {momentum, eps}};
    if (NN_KERNEL(nn_backend_of(x), norm, (NN_NORM_BATCH, &ka)) < 0) goto done;
    if (training && running_mean) store_back(running_mean, rm);
    if (training && running_var) store_back(running_var, rv);
    if (cd != dt) {
        out = nn_empty(input->ndim, input->sizes, dt);
        int rc = out ? 0 : -1;
        if (rc == 0) NN_WITH_GRAD_MODE(false, rc = nn_copy_(out, res));
        if (rc < 0) goto done;
        out->storage->version = 0;
    } else {
        out = retained(res);
    }
    {
        /* saved: input, weight, then the batch's mean and invstd (training) or the
           running statistics (eval, version-checked as PyTorch's) */
        nn_tensor *in[3] = {input, weight, bias};
        nn_tensor *save[4] = {input, weight, training ? save_mean : running_mean,
                              training ? save_invstd : running_var};
        nn_op_params p = {.f = {eps}, .flags = training};
        if (nn_record(NN_OP_batch_norm, 3, in, 1, &out, 4, save, &p) < 0) NN_SET(out, NULL);
    }
done:
    NN_RELEASE(x);
    NN_RELEASE(w);
    NN_RELEASE(b);
    NN_RELEASE(rm);
    NN_RELEASE(rv);
    NN_RELEASE(res);
    NN_RELEASE(save_mean);
    NN_RELEASE(save_invstd);
    return out;
}

/* The backward with differentiable ops (create_graph): the batch statistics are
   recomputed from the input so that second derivatives are right. */
static int batch_norm_backward_graph(nn_node *n, nn_tensor *g, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *w = nn_node_saved(n, 1), *s2 = nn_node_saved(n, 2),
              *s3 = nn_node_saved(n, 3);
    bool train = n->p.flags;
    double eps = n->p.f[0];
    int dims[NN_MAX_DIMS], nd = 0;
    int64_t shape[NN_MAX_DIMS];
    for (int d = 0; d < x->ndim; d++) {
        shape[d] = d == 1 ? x->sizes[1] : 1;
        if (d != 1) dims[nd++] = d;
    }
    nn_tensor *t[24] = {NULL};
    int k = 0, rc = -1;
#define KEEP(expr) (t[k] = (expr), t[k++])
    nn_tensor *mean, *invstd;
    if (train) {
        mean = KEEP(nn_mean(x, nd, dims, true));
        nn_tensor *xc = mean ? KEEP(nn_sub(x, mean)) : NULL;
        nn_tensor *sq = xc ? KEEP(nn_mul(xc, xc)) : NULL;
        nn_tensor *var = sq ? KEEP(nn_mean(sq, nd, dims, true)) : NULL;
        nn_tensor *ve = var ? KEEP(nn_add_scalar(var, eps)) : NULL;
        invstd = ve ? KEEP(nn_pow_scalar(ve, -0.5)) : NULL;
    } else {
        mean = KEEP(nn_view(s2, x->ndim, shape));
        nn_tensor *rv = mean ? KEEP(nn_view(s3, x->ndim, shape)) : NULL;
        nn_tensor *ve = rv ? KEEP(nn_add_scalar(rv, eps)) : NULL;
        invstd = ve ? KEEP(nn_pow_scalar(ve, -0.5)) : NULL;
    }
    nn_tensor *xc = invstd ? KEEP(nn_sub(x, mean)) : NULL;
    nn_tensor *xhat = xc ? KEEP(nn_mul(xc, invstd)) : NULL;
    nn_tensor *gx = xhat ? KEEP(nn_mul(g, xhat)) : NULL;
    if (!gx) goto done;
    if (nn_node_needs_input_grad(n, 0)) {
        nn_tensor *scale = KEEP(w ? nn_view(w, x->ndim, shape) : NULL);
        nn_tensor *ws = invstd;
        if (w && !(ws = scale ? KEEP(nn_mul(invstd, scale)) : NULL)) goto done;
        if (train) {
            nn_tensor *gm = KEEP(nn_mean(g, nd, dims, true));
            nn_tensor *gxm = gm ? KEEP(nn_mean(gx, nd, dims, true)) : NULL;
            nn_tensor *proj = gxm ? KEEP(nn_mul(xhat, gxm)) : NULL;
            nn_tensor *d1 = proj ? KEEP(nn_sub(g, gm)) : NULL;
            nn_tensor *d2 = d1 ? KEEP(nn_sub(d1, proj)) : NULL;
            if (!d2 || !(gin[0] = nn_mul(d2, ws))) goto done;
        } else if (!(gin[0] = nn_mul(g, ws))) {
            goto done;
        }
    }
    if (nn_node_needs_input_grad(n, 1) && !(gin[1] = nn_sum(gx, nd, dims, false))) goto done;
    if (nn_node_needs_input_grad(n, 2) && !(gin[2] = nn_sum(g, nd, dims, false))) goto done;
    rc = 0;
done:
#undef KEEP
    for (int i = 0; i < k; i++) NN_RELEASE(t[i]);
    return rc;
}

int nn_batch_norm_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (nn_grad_enabled()) return batch_norm_backward_graph(n, gout[0], gin);
    nn_tensor *input = nn_node_saved(n, 0), *weight = nn_node_saved(n, 1);
    bool train = n->p.flags;
    double eps = n->p.f[0];
    nn_dtype dt = input->dtype, cd = dt == NN_FLOAT64 ? NN_FLOAT64 : NN_FLOAT32;
    int64_t nb = input->sizes[0], C = input->sizes[1], L = 1;
    for (int d = 2; d < input->ndim; d++) L *= input->sizes[d];
    nn_tensor *dy = dense(gout[0], cd), *x = dense(input, cd), *w = dense(weight, cd);
    nn_tensor *s2 = dense(nn_node_saved(n, 2), cd), *s3 = dense(nn_node_saved(n, 3), cd);
    bool need[3] = {nn_node_needs_input_grad(n, 0), nn_node_needs_input_grad(n, 1), nn_node_needs_input_grad(n, 2)};
    nn_tensor *g[3] = {NULL};
    int rc = dy && x && s2 && s3 && (!weight || w) ? 0 : -1;
    for (int k = 0; k < 3 && rc == 0; k++) {
        if (!need[k]) continue;
        g[k] = k == 0 ? nn_empty_on(nn_device_of(x), input->ndim, input->sizes, cd) : nn_empty_on(nn_device_of(x), 1, &C, cd);
        if (!g[k]) rc = -1;
    }
    if (rc == 0) {
        /* training: s2, s3 are the batch mean and invstd; eval: running mean and var */
        nn_kernel_args ka = {.t = {g[0], s2, s3, x, w, dy, g[1], g[2]}, .i = {nb, C, L, train}, .d = {0, eps}};
        rc = NN_KERNEL(nn_backend_of(x), norm, (NN_NORM_BATCH_BACKWARD, &ka));
    }
    for (int k = 0; k < 3; k++) {
        if (rc == 0 && g[k]) {
            nn_dtype want = n->input_meta[k].dtype;
            if (want != cd) {
                nn_tensor *cast;
                NN_WITH_GRAD_MODE(false, cast = nn_to_dtype(g[k], want));
                NN_SET(g[k], cast);
                if (!cast) rc = -1;
            }
        }
        gin[k] = rc == 0 ? g[k] : NULL;
        if (rc < 0) NN_RELEASE(g[k]);
    }
    NN_RELEASE(dy);
    NN_RELEASE(x);
    NN_RELEASE(w);
    NN_RELEASE(s2);
    NN_RELEASE(s3);
    return rc;
}

/* ====================================================== lazy parameters */

static void uninitialized_dealloc(nn_object *self) { nn_tensor_type.dealloc(self); }
static char *uninitialized_parameter_repr(nn_object *self) { return nn_strdup("<UninitializedParameter>"); }
static char *uninitialized_buffer_repr(nn_object *self) { return nn_strdup("<UninitializedBuffer>"); }

const nn_type nn_uninitialized_parameter_type = {.name = "UninitializedParameter",
                                                 .dealloc = uninitialized_dealloc,
                                                 .repr = uninitialized_parameter_repr,
                                                 .base = &nn_parameter_type};
const nn_type nn_uninitialized_buffer_type = {.name = "UninitializedBuffer",
                                              .dealloc = uninitialized_dealloc,
                                              .repr = uninitialized_buffer_repr,
                                              .base = &nn_tensor_type};

static nn_tensor *uninitialized_new(const nn_type *type, bool requires_grad, nn_dtype dtype)
{
    nn_tensor *data = nn_empty(1, (const int64_t[]){0}, dtype), *t = data ? nn_detach(data) : NULL;
    NN_RELEASE(data);
    if (!t) return NULL;
    t->ob.type = type;
    if (requires_grad && nn_set_requires_grad(t, true) < 0) NN_SET(t, NULL);
    return t;
}

nn_tensor *nn_uninitialized_parameter_new(bool requires_grad, nn_dtype dtype)
{
    return uninitialized_new(&nn_uninitialized_parameter_type, requires_grad, dtype);
}

nn_tensor *nn_uninitialized_buffer_new(bool requires_grad, nn_dtype dtype)
{
    return uninitialized_new(&nn_uninitialized_buffer_type, requires_grad, dtype);
}

bool nn_is_uninitialized(const nn_object *o)
{
    return o && (o->type == &nn_uninitialized_parameter_type || o->type == &nn_uninitialized_buffer_type);
}

int nn_check_initialized(const nn_tensor *t)
{
    if (!nn_is_uninitialized(&t->ob)) return 0;
    return nn_error_set(NN_ERR_RUNTIME,
                        "Can't access the shape of an uninitialized parameter or buffer. This error usually happens "
                        "in `load_state_dict` when trying to load an uninitialized parameter into an initialized one. "
                        "Call `forward` to initialize the parameters before accessing their attributes.");
}

int nn_uninitialized_materialize(nn_tensor *t, int ndim, const int64_t *sizes, int dtype)
{
    if (!nn_is_uninitialized(&t->ob))
        return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'materialize'", t->ob.type->name);
    nn_tensor *fresh = nn_empty(ndim, sizes, dtype < 0 ? t->dtype : (nn_dtype)dtype);
    if (!fresh) return -1;
    /* self.data = torch.empty(shape): t keeps its identity and requires_grad */
    fresh->storage->refcount++;
    nn_storage_release(t->storage);
    t->storage = fresh->storage;
    t->offset = fresh->offset;
    t->ndim = fresh->ndim;
    t->dtype = fresh->dtype;
    memcpy(t->sizes, fresh->sizes, sizeof t->sizes);
    memcpy(t->strides, fresh->strides, sizeof t->strides);
    NN_RELEASE(fresh);
    t->ob.type = t->ob.type == &nn_uninitialized_parameter_type ? &nn_parameter_type : &nn_tensor_type;
    return 0;
}

/* LazyModuleMixin.has_uninitialized_params */
static bool has_uninitialized(nn_module *m)
{
    nn_object *dicts[2] = {m->parameters, m->buffers};
    for (int i = 0; i < 2; i++) {
        size_t pos = 0;
        nn_object *v;
        while (nn_dict_next(dicts[i], &pos, NULL, &v))
            if (nn_is_uninitialized(v)) return true;
    }
    return false;
}

/* LazyModuleMixin._lazy_load_hook, a load_state_dict pre-hook: a placeholder
   whose key is in the state dict with a real tensor is materialized to its shape. */
static nn_object *lazy_load_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    nn_module *m = NN_MODULE(nn_tuple_get(args, 0));
    nn_object *sd = nn_tuple_get(args, 1), *prefix = nn_tuple_get(args, 2);
    nn_object *dicts[2] = {m->parameters, m->buffers};
    for (int i = 0; i < 2; i++) {
        size_t pos = 0;
        nn_object *k, *v;
        while (nn_dict_next(dicts[i], &pos, &k, &v)) {
            if (nn_is_none(v) || !nn_is_uninitialized(v)) continue;
            nn_object *key = nn_str_format("%s%s", nn_str_cstr(prefix), nn_str_cstr(k));
            if (!key) return NULL;
            nn_object *input = nn_dict_get(sd, key);
            NN_RELEASE(key);
            if (!input || nn_is_uninitialized(input)) continue;
            if (!nn_is_tensor(input)) {
                nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'shape'", input->type->name);
                return NULL;
            }
            int rc;
            NN_WITH_GRAD_MODE(false, rc = nn_uninitialized_materialize(NN_TENSOR(v), NN_TENSOR(input)->ndim,
                                                                        NN_TENSOR(input)->sizes, -1));
            if (rc < 0) return NULL;
        }
    }
    return nn_retain(nn_none());
}

/* Registers hook fn (a new reference, taken) as a load_state_dict pre-hook;
   keeps the handle as attribute handle_name when given. */
static int add_load_hook(nn_module *m, nn_object *fn, const char *handle_name)
{
    if (!fn) return -1;
    nn_object *handle = nn_module_register_hook(m, NN_HOOK_LOAD_PRE, fn, (nn_hook_options){0});
    NN_RELEASE(fn);
    if (!handle) return -1;
    int rc = handle_name ? nn_module_setattr(m, handle_name, handle) : 0;
    NN_RELEASE(handle);
    return rc;
}

/* ================================================================ layers */

/* -------------------------------------------------------------- Identity */

static nn_object *identity_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    static const char *const names[1] = {"input"};
    nn_object *in;
    if (bind_args("Identity.forward", args, kwargs, 1, names, &in) < 0) return NULL;
    return nn_retain(in);
}

const nn_module_class nn_identity_class = {.name = "Identity", .forward = identity_forward};

nn_module *nn_identity_new(void) { return nn_module_new(&nn_identity_class); }

/* ---------------------------------------------------------------- Linear */

/* Linear.reset_parameters */
static int linear_reset(nn_module *m)
{
    nn_tensor *w = member(m->parameters, "weight"), *b = member(m->parameters, "bias");
    return w ? nn_init_reset_weight_bias(w, b) : 0;
}

/* A module tensor for a functional argument: NULL for None (when allowed);
   TypeError as the functional's argument check otherwise. */
static int tensor_or_none(nn_module *m, const char *name, const char *fn, int position, bool none_ok, nn_tensor **out)
{
    nn_object *v = nn_module_getattr(m, name);
    if (!v) return -1;
    if (nn_is_tensor(v)) {
        *out = NN_TENSOR(v);
        return nn_check_initialized(*out);
    }
    if (nn_is_none(v) && none_ok) {
        *out = NULL;
        return 0;
    }
    return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' (position %d) must be Tensor, not %s", fn, name, position,
                        nn_is_none(v) ? "NoneType" : v->type->name);
}

static nn_object *linear_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_tensor *x = tensor_arg("Linear.forward", args, kwargs, "linear", "input", 1), *w, *b;
    if (!x || tensor_or_none(m, "weight", "linear", 2, false, &w) < 0 || tensor_or_none(m, "bias", "linear", 3, true, &b) < 0)
        return NULL;
    return (nn_object *)nn_linear(x, w, b);
}

static char *linear_extra_repr(nn_module *m)
{
    char *head = format_attrs(m, "in_features={in_features}, out_features={out_features}, bias=");
    if (!head) return NULL;
    nn_object *b = nn_module_getattr(m, "bias");
    if (!b) {
        nn_free(head);
        return NULL;
    }
    bool has_bias = !nn_is_none(b);
    sbuf s = {0};
    sb_add(&s, head);
    sb_add(&s, has_bias ? "True" : "False");
    nn_free(head);
    return sb_finish(&s);
}

const nn_module_class nn_linear_class = {.name = "Linear", .forward = linear_forward, .extra_repr = linear_extra_repr};

/* Linear.__init__ without reset_parameters. */
static int linear_init(nn_module *m, int64_t in_features, int64_t out_features, bool bias, nn_dtype dtype)
{
    if (set_attr(m, "in_features", nn_int_new(in_features)) < 0 ||
        set_attr(m, "out_features", nn_int_new(out_features)) < 0)
        return -1;
    if (!add_param(m, "weight", 2, (const int64_t[]){out_features, in_features}, dtype)) return -1;
    if (bias) return add_param(m, "bias", 1, &out_features, dtype) ? 0 : -1;
    return nn_module_register_parameter(m, "bias", NULL);
}

nn_module *nn_linear_new(int64_t in_features, int64_t out_features, bool bias, nn_dtype dtype)
{
    nn_module *m = nn_module_new(&nn_linear_class);
    if (m && (linear_init(m, in_features, out_features, bias, dtype) < 0 || linear_reset(m) < 0)) NN_SET(m, NULL);
    return m;
}

/* ------------------------------------------------------------ LazyLinear */

/* LazyLinear.reset_parameters */
static int lazy_linear_reset(nn_module *m)
{
    int64_t in_features = 0;
    if (attr_int(m, "in_features", &in_features) < 0) return -1;
    if (has_uninitialized(m) || in_features == 0) return 0;
    return linear_reset(m);
}

/* The forward pre-hook of LazyModuleMixin (_infer_parameters): LazyLinear's
   initialize_parameters(input), then the module becomes a Linear. */
static int lazy_linear_before_forward(nn_module *m, nn_object *args)
{
    if (has_uninitialized(m)) {
        size_t n = nn_tuple_len(args);
        if (n == 0)
            return nn_error_set(NN_ERR_TYPE, "initialize_parameters() missing 1 required positional argument: 'input'");
        if (n > 1)
            return nn_error_set(NN_ERR_TYPE, "initialize_parameters() takes 2 positional arguments but %zu were given", n + 1);
        nn_object *input = nn_tuple_get(args, 0);
        if (!nn_is_tensor(input))
            return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'shape'",
                                nn_is_none(input) ? "NoneType" : input->type->name);
        nn_tensor *x = NN_TENSOR(input);
        if (nn_check_initialized(x) < 0) return -1;
        if (x->ndim == 0) return nn_error_set(NN_ERR_INDEX, "tuple index out of range");
        int64_t in_features = x->sizes[x->ndim - 1], out_features = 0;
        if (attr_int(m, "out_features", &out_features) < 0) return -1;
        if (set_attr(m, "in_features", nn_int_new(in_features)) < 0) return -1;
        nn_tensor *w = member(m->parameters, "weight"), *b = member(m->parameters, "bias");
        int rc = 0;
        bool prev = nn_set_grad_enabled(false);
        if (w && nn_is_uninitialized(&w->ob))
            rc = nn_uninitialized_materialize(w, 2, (const int64_t[]){out_features, in_features}, -1);
        if (rc == 0 && b && nn_is_uninitialized(&b->ob)) rc = nn_uninitialized_materialize(b, 1, &out_features, -1);
        if (rc == 0) rc = lazy_linear_reset(m);
        nn_set_grad_enabled(prev);
        if (rc < 0) return -1;
    }
    if (has_uninitialized(m))
        return nn_error_set(NN_ERR_RUNTIME, "module %s has not been fully initialized", nn_module_name(m));
    nn_object *handle = nn_dict_get_str(m->attrs, "_load_hook");
    if (handle && handle->type == &nn_hook_handle_type) {
        /* _load_hook.remove() (not the best-effort handle removal: a failure here must be reported) */
        nn_object *id = nn_int_new(nn_hook_handle_id(handle));
        int rc = id ? 0 : -1;
        if (rc == 0 && nn_dict_get(m->load_state_dict_pre_hooks, id)) rc = nn_dict_del(m->load_state_dict_pre_hooks, id);
        NN_RELEASE(id);
        if (rc < 0 || nn_module_delattr(m, "_load_hook") < 0) return -1;
    }
    m->cls = &nn_linear_class;
    return 0;
}

const nn_module_class nn_lazy_linear_class = {.name = "LazyLinear",
                                              .forward = linear_forward,
                                              .extra_repr = linear_extra_repr,
                                              .before_forward = lazy_linear_before_forward,
                                              .base = &nn_linear_class};

nn_module *nn_lazy_linear_new(int64_t out_features, bool bias, nn_dtype dtype)
{
    nn_module *m = nn_module_new(&nn_lazy_linear_class);
    if (!m) return NULL;
    static const nn_warn_place lazy_py = {"torch.nn.modules.lazy", "torch/nn/modules/lazy.py", 180}; /* PyTorch's */
    if (nn_warn_at(&lazy_py, "UserWarning", "Lazy modules are a new feature under heavy development so changes to the "
                                            "API or functionality can happen at any moment.") < 0) {
        NN_RELEASE(m);
        return NULL;
    }
    /* Linear(0, 0, False) (its reset is LazyLinear's: nothing to do), then the placeholders */
    int rc = linear_init(m, 0, 0, false, dtype);
    nn_tensor *w = rc == 0 ? nn_uninitialized_parameter_new(true, dtype) : NULL;
    if (!w) rc = -1;
    /* set directly: nn_module_setattr takes only exact Parameters as parameters */
    if (rc == 0) rc = nn_dict_set_str(m->parameters, "weight", &w->ob);
    NN_RELEASE(w);
    if (rc == 0) rc = set_attr(m, "out_features", nn_int_new(out_features));
    if (rc == 0 && bias) {
        nn_tensor *b = nn_uninitialized_parameter_new(true, dtype);
        rc = b ? nn_dict_set_str(m->parameters, "bias", &b->ob) : -1;
        NN_RELEASE(b);
    }
    if (rc == 0) rc = add_load_hook(m, nn_cfunction_new("_lazy_load_hook", lazy_load_hook, NULL, NULL), "_load_hook");
    if (rc < 0) NN_SET(m, NULL);
    return m;
}

/* --------------------------------------------------------------- Flatten */

static nn_object *flatten_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_tensor *x = method_arg("Flatten.forward", args, kwargs, "flatten");
    int64_t start = 0, end = 0;
    if (!x || attr_int(m, "start_dim", &start) < 0 || attr_int(m, "end_dim", &end) < 0) return NULL;
    return (nn_object *)nn_flatten(x, (int)start, (int)end);
}

static char *flatten_extra_repr(nn_module *m) { return format_attrs(m, "start_dim={start_dim}, end_dim={end_dim}"); }

const nn_module_class nn_flatten_class = {.name = "Flatten", .forward = flatten_forward, .extra_repr = flatten_extra_repr};

nn_module *nn_flatten_new(int64_t start_dim, int64_t end_dim)
{
    nn_module *m = nn_module_new(&nn_flatten_class);
    if (m && (set_attr(m, "start_dim", nn_int_new(start_dim)) < 0 || set_attr(m, "end_dim", nn_int_new(end_dim)) < 0))
        NN_SET(m, NULL);
    return m;
}

/* --------------------------------------------------------------- Dropout */

/* "dropout probability has to be between 0 and 1, but got 1.5" with str(p). */
static int check_p(nn_object *p)
{
    double v = nn_float_value(p);
    if (!(v < 0 || v > 1)) return 0;
    char *s = nn_str(p);
    if (!s) return -1;
    nn_error_set(NN_ERR_VALUE, "dropout probability has to be between 0 and 1, but got %s", s);
    nn_free(s);
    return -1;
}

/* _VF.dropout_(a, p, train): a.mul_(noise), noise as nn_dropout draws it. */
static nn_tensor *dropout_inplace(nn_tensor *a, double p, bool train)
{
    if (isnan(p)) {
        nn_error_set(NN_ERR_RUNTIME, "dropout probability has to be between 0 and 1, but got nan");
        return NULL;
    }
    if (p == 0 || !train || nn_numel(a) == 0) return retained(a);
    if (nn_check_inplace(a) < 0) return NULL;
    nn_tensor *noise = nn_dropout_noise(a, p);
    if (!noise) return NULL;
    int rc = nn_mul_(a, noise);
    NN_RELEASE(noise);
    return rc < 0 ? NULL : retained(a);
}

static nn_object *dropout_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_tensor *x = tensor_arg("Dropout.forward", args, kwargs, "dropout", "input", 1);
    nn_object *p = x ? nn_module_getattr(m, "p") : NULL, *inplace = p ? nn_module_getattr(m, "inplace") : NULL;
    if (!inplace) return NULL;
    if (!nn_is_int(p) && !nn_is_float(p) && !nn_is_bool(p)) {
        nn_error_set(NN_ERR_TYPE, "dropout(): argument 'p' (position 2) must be float, not %s",
                     nn_is_none(p) ? "NoneType" : p->type->name);
        return NULL;
    }
    if (check_p(p) < 0) return NULL;
    double pv = nn_float_value(p);
    if (nn_is_true(inplace) && !nn_is_none(inplace)) return (nn_object *)dropout_inplace(x, pv, m->training);
    return (nn_object *)nn_dropout(x, pv, m->training);
}

static char *dropout_extra_repr(nn_module *m) { return format_attrs(m, "p={p}, inplace={inplace}"); }

const nn_module_class nn_dropout_class = {.name = "Dropout", .forward = dropout_forward, .extra_repr = dropout_extra_repr};

nn_module *nn_dropout_new(double p, bool inplace)
{
    nn_object *po = nn_float_new(p);
    if (!po) return NULL;
    if (check_p(po) < 0) {
        NN_RELEASE(po);
        return NULL;
    }
    nn_module *m = nn_module_new(&nn_dropout_class);
    if (m && (set_attr(m, "p", po) < 0 || set_attr(m, "inplace", nn_bool_new(inplace)) < 0)) NN_SET(m, NULL);
    else if (!m) NN_RELEASE(po);
    return m;
}

/* ------------------------------------------------------------- LayerNorm */

/* normalized_shape (a tuple of ints) into shape[NN_MAX_DIMS]; its length, or -1. */
static int normalized_shape(nn_module *m, int64_t *shape)
{
    nn_object *t = nn_module_getattr(m, "normalized_shape");
    if (!t) return -1;
    if (t->type != &nn_tuple_type || nn_tuple_len(t) > NN_MAX_DIMS)
        return nn_error_set(NN_ERR_TYPE, "layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, "
                                         "not %s", t->type->name);
    for (size_t i = 0; i < nn_tuple_len(t); i++) {
        nn_object *v = nn_tuple_get(t, i);
        if (!nn_is_int(v))
            return nn_error_set(NN_ERR_TYPE, "layer_norm(): argument 'normalized_shape' (position 2) must be tuple of "
                                             "ints, but found element of type %s at pos %zu", v->type->name, i);
        shape[i] = nn_int_value(v);
    }
    return (int)nn_tuple_len(t);
}

static nn_object *layer_norm_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_tensor *x = tensor_arg("LayerNorm.forward", args, kwargs, "layer_norm", "input", 1), *w, *b;
    int64_t shape[NN_MAX_DIMS];
    double eps = 0;
    int n = x ? normalized_shape(m, shape) : -1;
    if (n < 0 || tensor_or_none(m, "weight", "layer_norm", 3, true, &w) < 0 ||
        tensor_or_none(m, "bias", "layer_norm", 4, true, &b) < 0 || attr_double(m, "eps", &eps) < 0)
        return NULL;
    return (nn_object *)nn_layer_norm(x, n, shape, w, b, eps);
}

static char *layer_norm_extra_repr(nn_module *m)
{
    return format_attrs(m, "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}");
}

const nn_module_class nn_layer_norm_class = {
    .name = "LayerNorm", .forward = layer_norm_forward, .extra_repr = layer_norm_extra_repr};

/* LayerNorm.reset_parameters and the affine half of _NormBase's */
static int affine_reset(nn_module *m)
{
    nn_tensor *w = member(m->parameters, "weight"), *b = member(m->parameters, "bias");
    if (w && nn_init_ones_(w) < 0) return -1;
    if (b && nn_init_zeros_(b) < 0) return -1;
    return 0;
}

nn_module *nn_layer_norm_new(int n_norm, const int64_t *normalized_shape, double eps, bool elementwise_affine,
                             nn_dtype dtype)
{
    if (n_norm < 0 || n_norm > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_VALUE, "normalized_shape has %d dims; at most %d are supported", n_norm, NN_MAX_DIMS);
        return NULL;
    }
    nn_module *m = nn_module_new(&nn_layer_norm_class);
    nn_object *shape = m ? nn_tuple_new((size_t)n_norm) : NULL;
    int rc = shape ? 0 : -1;
    for (int i = 0; rc == 0 && i < n_norm; i++) {
        nn_object *v = nn_int_new(normalized_shape[i]);
        if (v) nn_tuple_set(shape, (size_t)i, v);
        else rc = -1;
    }
    if (rc == 0) rc = set_attr(m, "normalized_shape", shape);
    else NN_RELEASE(shape);
    if (rc == 0) rc = set_attr(m, "eps", nn_float_new(eps));
    if (rc == 0) rc = set_attr(m, "elementwise_affine", nn_bool_new(elementwise_affine));
    if (rc == 0 && elementwise_affine) {
        rc = add_param(m, "weight", n_norm, normalized_shape, dtype) ? 0 : -1;
        if (rc == 0) rc = add_param(m, "bias", n_norm, normalized_shape, dtype) ? 0 : -1;
    } else if (rc == 0) {
        rc = nn_module_register_parameter(m, "weight", NULL);
        if (rc == 0) rc = nn_module_register_parameter(m, "bias", NULL);
    }
    if (rc == 0) rc = affine_reset(m);
    if (rc < 0) NN_SET(m, NULL);
    return m;
}

/* ----------------------------------------------------------- BatchNorm1d */

/* _NormBase.reset_running_stats */
static int running_stats_reset(nn_module *m)
{
    nn_tensor *rm = member(m->buffers, "running_mean"), *rv = member(m->buffers, "running_var"),
              *nbt = member(m->buffers, "num_batches_tracked");
    int rc = 0;
    NN_WITH_GRAD_MODE(false, {
        if (rm) rc = nn_zero_(rm);
        if (rc == 0 && rv) rc = nn_fill_(rv, 1);
        if (rc == 0 && nbt) rc = nn_zero_(nbt);
    });
    return rc;
}

static nn_object *batch_norm_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_tensor *x = method_arg("_BatchNorm.forward", args, kwargs, "dim");
    if (!x) return NULL;
    const nn_module_class *c = nn_module_core_class(m);
    int want = c == &nn_batch_norm2d_class ? 4 : c == &nn_batch_norm3d_class ? 5 : 0; /* 0: 2 or 3 */
    if (want ? x->ndim != want : (x->ndim != 2 && x->ndim != 3)) {
        if (want) nn_error_set(NN_ERR_VALUE, "expected %dD input (got %dD input)", want, x->ndim);
        else nn_error_set(NN_ERR_VALUE, "expected 2D or 3D input (got %dD input)", x->ndim);
        return NULL;
    }
    nn_object *momentum = nn_module_getattr(m, "momentum"), *track = momentum ? nn_module_getattr(m, "track_running_stats") : NULL;
    double eps = 0, factor = 0.0;
    if (!track || attr_double(m, "eps", &eps) < 0) return NULL;
    bool tracking = nn_is_true(track) && !nn_is_none(track);
    if (!nn_is_none(momentum) && attr_double(m, "momentum", &factor) < 0) return NULL;
    nn_tensor *rm = member(m->buffers, "running_mean"), *rv = member(m->buffers, "running_var");
    if (m->training && tracking) {
        nn_tensor *nbt = member(m->buffers, "num_batches_tracked");
        if (nbt) {
            nn_tensor *one = nn_wrapped_number(1, true);
            int rc = one ? 0 : -1;
            if (rc == 0) NN_WITH_GRAD_MODE(false, rc = nn_add_(nbt, one, 1.0));
            NN_RELEASE(one);
            if (rc < 0) return NULL;
            if (nn_is_none(momentum)) {
                double count;
                if (nn_item(nbt, &count) < 0) return NULL;
                factor = 1.0 / count;
            }
        }
    }
    bool bn_training = m->training ? true : (!rm && !rv);
    bool pass_running = !m->training || tracking;
    nn_tensor *w, *b;
    if (tensor_or_none(m, "weight", "batch_norm", 2, true, &w) < 0 || tensor_or_none(m, "bias", "batch_norm", 3, true, &b) < 0)
        return NULL;
    return (nn_object *)nn_batch_norm(x, pass_running ? rm : NULL, pass_running ? rv : NULL, w, b, bn_training, factor,
                                      eps);
}

static char *batch_norm_extra_repr(nn_module *m)
{
    return format_attrs(m, "{num_features}, eps={eps}, momentum={momentum}, affine={affine}, "
                           "track_running_stats={track_running_stats}");
}

const nn_module_class nn_norm_base_class = {.name = "_NormBase"};
const nn_module_class nn_batch_norm_base_class = {.name = "_BatchNorm", .base = &nn_norm_base_class};
const nn_module_class nn_instance_norm_base_class = {.name = "_InstanceNorm", .base = &nn_norm_base_class};
const nn_module_class nn_convnd_class = {.name = "_ConvNd"};
const nn_module_class nn_conv_transposend_class = {.name = "_ConvTransposeNd", .base = &nn_convnd_class};
const nn_module_class nn_loss_base_class = {.name = "_Loss"};
const nn_module_class nn_weighted_loss_base_class = {.name = "_WeightedLoss", .base = &nn_loss_base_class};
const nn_module_class nn_max_poolnd_class = {.name = "_MaxPoolNd"};
const nn_module_class nn_avg_poolnd_class = {.name = "_AvgPoolNd"};

const nn_module_class nn_batch_norm1d_class = {.name = "BatchNorm1d", .forward = batch_norm_forward,
                                               .extra_repr = batch_norm_extra_repr, .base = &nn_batch_norm_base_class};
const nn_module_class nn_batch_norm2d_class = {.name = "BatchNorm2d", .forward = batch_norm_forward,
                                               .extra_repr = batch_norm_extra_repr, .base = &nn_batch_norm_base_class};
const nn_module_class nn_batch_norm3d_class = {.name = "BatchNorm3d", .forward = batch_norm_forward,
                                               .extra_repr = batch_norm_extra_repr, .base = &nn_batch_norm_base_class};

/* _NormBase._load_from_state_dict: for a state dict whose local_metadata has no
   version or one below 2 (written before num_batches_tracked existed), a missing
   num_batches_tracked loads as 0. */
static nn_object *batch_norm_load_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    nn_module *m = NN_MODULE(nn_tuple_get(args, 0));
    nn_object *sd = nn_tuple_get(args, 1), *prefix = nn_tuple_get(args, 2);
    nn_object *meta = nn_tuple_len(args) > 3 ? nn_tuple_get(args, 3) : NULL;
    nn_object *version = meta && nn_is_dict(meta) ? nn_dict_get_str(meta, "version") : NULL;
    if (version && nn_is_int(version) && nn_int_value(version) >= 2) return nn_retain(nn_none());
    nn_object *track = nn_dict_get_str(m->attrs, "track_running_stats");
    if (!track || !nn_is_true(track) || nn_is_none(track)) return nn_retain(nn_none());
    nn_object *key = nn_str_format("%snum_batches_tracked", nn_str_cstr(prefix));
    if (!key) return NULL;
    int rc = 0;
    if (!nn_dict_get(sd, key)) {
        nn_tensor *zero = nn_zeros(0, NULL, NN_INT64);
        rc = zero ? nn_dict_set(sd, key, &zero->ob) : -1;
        NN_RELEASE(zero);
    }
    NN_RELEASE(key);
    return rc < 0 ? NULL : nn_retain(nn_none());
}

static nn_module *batch_norm_new(const nn_module_class *cls, int64_t num_features, double eps, double momentum,
                                 bool affine, bool track_running_stats, nn_dtype dtype)
{
    nn_module *m = nn_module_new(cls);
    if (!m) return NULL;
    int rc = set_attr(m, "num_features", nn_int_new(num_features));
    if (rc == 0) rc = set_attr(m, "eps", nn_float_new(eps));
    if (rc == 0) rc = set_attr(m, "momentum", isnan(momentum) ? nn_retain(nn_none()) : nn_float_new(momentum));
    if (rc == 0) rc = set_attr(m, "affine", nn_bool_new(affine));
    if (rc == 0) rc = set_attr(m, "track_running_stats", nn_bool_new(track_running_stats));
    if (rc == 0 && affine) {
        rc = add_param(m, "weight", 1, &num_features, dtype) ? 0 : -1;
        if (rc == 0) rc = add_param(m, "bias", 1, &num_features, dtype) ? 0 : -1;
    } else if (rc == 0) {
        rc = nn_module_register_parameter(m, "weight", NULL);
        if (rc == 0) rc = nn_module_register_parameter(m, "bias", NULL);
    }
    if (rc == 0 && track_running_stats) {
        rc = add_buffer(m, "running_mean", nn_zeros(1, &num_features, dtype));
        if (rc == 0) rc = add_buffer(m, "running_var", nn_ones(1, &num_features, dtype));
        if (rc == 0) rc = add_buffer(m, "num_batches_tracked", nn_zeros(0, NULL, NN_INT64));
    } else if (rc == 0) {
        const char *names[3] = {"running_mean", "running_var", "num_batches_tracked"};
        for (int i = 0; rc == 0 && i < 3; i++) rc = nn_module_register_buffer(m, names[i], NULL, true);
    }
    if (rc == 0) rc = running_stats_reset(m);
    if (rc == 0) rc = affine_reset(m);
    if (rc == 0) rc = add_load_hook(m, nn_cfunction_new("_load_from_state_dict", batch_norm_load_hook, NULL, NULL), NULL);
    if (rc < 0) NN_SET(m, NULL);
    return m;
}

nn_module *nn_norm_base_new(const nn_module_class *cls, int64_t num_features, double eps, double momentum, bool affine,
                            bool track_running_stats, nn_dtype dtype)
{
    return batch_norm_new(cls, num_features, eps, momentum, affine, track_running_stats, dtype);
}

nn_module *nn_batch_norm1d_new(int64_t num_features, double eps, double momentum, bool affine,
                               bool track_running_stats, nn_dtype dtype)
{
    return batch_norm_new(&nn_batch_norm1d_class, num_features, eps, momentum, affine, track_running_stats, dtype);
}

nn_module *nn_batch_norm2d_new(int64_t num_features, double eps, double momentum, bool affine,
                               bool track_running_stats, nn_dtype dtype)
{
    return batch_norm_new(&nn_batch_norm2d_class, num_features, eps, momentum, affine, track_running_stats, dtype);
}

nn_module *nn_batch_norm3d_new(int64_t num_features, double eps, double momentum, bool affine,
                               bool track_running_stats, nn_dtype dtype)
{
    return batch_norm_new(&nn_batch_norm3d_class, num_features, eps, momentum, affine, track_running_stats, dtype);
}

/* ------------------------------------------------------------- Embedding */

/* The padding_idx rules of Embedding.__init__ and F.embedding (their asserts):
   -1 for None, a negative index counted from the end. */
static int resolve_padding(nn_object *padding, int64_t num, int64_t *out)
{
    if (nn_is_none(padding)) {
        *out = -1;
        return 0;
    }
    if (!nn_is_int(padding) && !nn_is_bool(padding))
        return nn_error_set(NN_ERR_TYPE, "embedding(): argument 'padding_idx' (position 3) must be int, not %s",
                            padding->type->name);
    int64_t p = nn_int_value(padding);
    if ((p > 0 && p >= num) || (p < 0 && p < -num))
        return nn_error_set(NN_ERR_ASSERTION, "Padding_idx must be within num_embeddings");
    *out = p < 0 ? num + p : p;
    return 0;
}

/* Embedding.reset_parameters: normal_(), then the padding row filled with 0 */
static int embedding_reset(nn_module *m)
{
    nn_tensor *w = member(m->parameters, "weight");
    if (!w) return 0;
    if (nn_init_normal_(w, 0, 1) < 0) return -1;
    nn_object *padding = nn_module_getattr(m, "padding_idx");
    if (!padding) return -1;
    if (nn_is_none(padding)) return 0;
    int rc;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *row = nn_select(w, 0, nn_int_value(padding));
        rc = row ? nn_fill_(row, 0) : -1;
        NN_RELEASE(row);
    });
    return rc;
}

static nn_object *embedding_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    static const char *const names[1] = {"input"};
    nn_object *in;
    nn_tensor *w;
    if (bind_args("Embedding.forward", args, kwargs, 1, names, &in) < 0 || tensor_or_none(m, "weight", "embedding", 1, false, &w) < 0)
        return NULL;
    nn_object *padding = nn_module_getattr(m, "padding_idx"), *max_norm = padding ? nn_module_getattr(m, "max_norm") : NULL;
    int64_t pad;
    if (!max_norm || resolve_padding(padding, w->ndim ? w->sizes[0] : 0, &pad) < 0) return NULL;
    if (!nn_is_tensor(in)) {
        nn_error_set(NN_ERR_TYPE, "embedding(): argument 'indices' (position 2) must be Tensor, not %s",
                     nn_is_none(in) ? "NoneType" : in->type->name);
        return NULL;
    }
    if (!nn_is_none(max_norm)) { /* the rows looked up renormed in place first, as F.embedding */
        nn_object *norm_type = nn_module_getattr(m, "norm_type");
        bool numbers = norm_type && (nn_is_int(max_norm) || nn_is_float(max_norm)) &&
                       (nn_is_int(norm_type) || nn_is_float(norm_type));
        double mx = !numbers ? 0 : nn_is_int(max_norm) ? (double)nn_int_value(max_norm) : nn_float_value(max_norm);
        double p = !numbers ? 0 : nn_is_int(norm_type) ? (double)nn_int_value(norm_type) : nn_float_value(norm_type);
        if (!numbers) {
            if (nn_error_current() == NN_OK) nn_error_set(NN_ERR_TYPE, "max_norm and norm_type must be numbers");
            return NULL;
        }
        if (nn_embedding_renorm_(w, NN_TENSOR(in), mx, p) < 0) return NULL;
    }
    return (nn_object *)nn_embedding(w, NN_TENSOR(in), pad);
}

static char *embedding_extra_repr(nn_module *m)
{
    nn_object *padding = nn_module_getattr(m, "padding_idx"), *max_norm = nn_module_getattr(m, "max_norm");
    nn_object *norm_type = nn_module_getattr(m, "norm_type"), *freq = nn_module_getattr(m, "scale_grad_by_freq");
    nn_object *sparse = nn_module_getattr(m, "sparse");
    if (!padding || !max_norm || !norm_type || !freq || !sparse) return NULL;
    char fmt[256] = "{num_embeddings}, {embedding_dim}";
    if (!nn_is_none(padding)) strcat(fmt, ", padding_idx={padding_idx}");
    if (!nn_is_none(max_norm)) strcat(fmt, ", max_norm={max_norm}");
    if (!((nn_is_int(norm_type) || nn_is_float(norm_type) || nn_is_bool(norm_type)) && nn_float_value(norm_type) == 2))
        strcat(fmt, ", norm_type={norm_type}");
    if (!(nn_is_bool(freq) && !nn_is_true(freq))) strcat(fmt, ", scale_grad_by_freq={scale_grad_by_freq}");
    if (!(nn_is_bool(sparse) && !nn_is_true(sparse))) strcat(fmt, ", sparse=True");
    return format_attrs(m, fmt);
}

const nn_module_class nn_embedding_class = {
    .name = "Embedding", .forward = embedding_forward, .extra_repr = embedding_extra_repr};

nn_module *nn_embedding_new(int64_t num_embeddings, int64_t embedding_dim, bool has_padding_idx, int64_t padding_idx,
                            nn_dtype dtype)
{
    nn_module *m = nn_module_new(&nn_embedding_class);
    if (!m) return NULL;
    int64_t pad = -1;
    nn_object *given = has_padding_idx ? nn_int_new(padding_idx) : nn_retain(nn_none());
    int rc = given ? resolve_padding(given, num_embeddings, &pad) : -1;
    NN_RELEASE(given);
    if (rc == 0) rc = set_attr(m, "num_embeddings", nn_int_new(num_embeddings));
    if (rc == 0) rc = set_attr(m, "embedding_dim", nn_int_new(embedding_dim));
    if (rc == 0) rc = set_attr(m, "padding_idx", has_padding_idx ? nn_int_new(pad) : nn_retain(nn_none()));
    if (rc == 0) rc = set_attr(m, "max_norm", nn_retain(nn_none()));
    if (rc == 0) rc = set_attr(m, "norm_type", nn_float_new(2.0));
    if (rc == 0) rc = set_attr(m, "scale_grad_by_freq", nn_bool_new(false));
    if (rc == 0) rc = add_param(m, "weight", 2, (const int64_t[]){num_embeddings, embedding_dim}, dtype) ? 0 : -1;
    if (rc == 0) rc = embedding_reset(m);
    if (rc == 0) rc = set_attr(m, "sparse", nn_bool_new(false));
    if (rc < 0) NN_SET(m, NULL);
    return m;
}

/* ---------------------------------------------------------------- losses */

/* _Reduction.get_enum */
static int reduction_enum(nn_module *m, nn_reduction *out)
{
    nn_object *r = nn_module_getattr(m, "reduction");
    if (!r) return -1;
    const char *s = nn_is_str(r) ? nn_str_cstr(r) : "";
    if (!strcmp(s, "none")) *out = NN_REDUCTION_NONE;
    else if (!strcmp(s, "mean") || !strcmp(s, "elementwise_mean")) *out = NN_REDUCTION_MEAN;
    else if (!strcmp(s, "sum")) *out = NN_REDUCTION_SUM;
    else {
        char *text = nn_str(r);
        if (!text) return -1;
        nn_error_set(NN_ERR_VALUE, "%s is not a valid value for reduction", text);
        nn_free(text);
        return -1;
    }
    return 0;
}

/* forward(input, target) of MSELoss / L1Loss (F.mse_loss, F.l1_loss) */
static nn_object *pointwise_loss_forward(nn_module *m, nn_object *args, nn_object *kwargs, bool squared)
{
    static const char *const names[2] = {"input", "target"};
    nn_object *in[2];
    if (bind_args(squared ? "MSELoss.forward" : "L1Loss.forward", args, kwargs, 2, names, in) < 0) return NULL;
    for (int k = 1; k >= 0; k--)
        if (!nn_is_tensor(in[k])) {
            nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'size'",
                         nn_is_none(in[k]) ? "NoneType" : in[k]->type->name);
            return NULL;
        }
    nn_tensor *x = NN_TENSOR(in[0]), *t = NN_TENSOR(in[1]);
    nn_reduction r = NN_REDUCTION_MEAN;
    if (reduction_enum(m, &r) < 0) {
        /* torch.broadcast_tensors runs before get_enum */
        int nd;
        int64_t shape[NN_MAX_DIMS];
        nn_error_kind kind = nn_error_current();
        char *msg = nn_strdup(nn_error_message());
        if (nn_broadcast_shapes(x->ndim, x->sizes, t->ndim, t->sizes, &nd, shape) == 0 && msg)
            nn_error_set(kind, "%s", msg);
        nn_free(msg);
        return NULL;
    }
    return (nn_object *)(squared ? nn_mse_loss(x, t, r) : nn_l1_loss(x, t, r));
}

static nn_object *mse_loss_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    return pointwise_loss_forward(m, args, kwargs, true);
}

static nn_object *l1_loss_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    return pointwise_loss_forward(m, args, kwargs, false);
}

const nn_module_class nn_mse_loss_class = {.name = "MSELoss", .forward = mse_loss_forward, .base = &nn_loss_base_class};
const nn_module_class nn_l1_loss_class = {.name = "L1Loss", .forward = l1_loss_forward, .base = &nn_loss_base_class};

static nn_module *loss_new(const nn_module_class *cls, const char *reduction)
{
    nn_module *m = nn_module_new(cls);
    if (m && set_attr(m, "reduction", nn_str_new(reduction ? reduction : "mean")) < 0) NN_SET(m, NULL);
    return m;
}

nn_module *nn_mse_loss_new(const char *reduction) { return loss_new(&nn_mse_loss_class, reduction); }
nn_module *nn_l1_loss_new(const char *reduction) { return loss_new(&nn_l1_loss_class, reduction); }

static nn_object *cross_entropy_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    static const char *const names[2] = {"input", "target"};
    nn_object *in[2];
    nn_reduction r = NN_REDUCTION_MEAN;
    int64_t ignore_index = 0;
    double smoothing = 0;
    if (bind_args("CrossEntropyLoss.forward", args, kwargs, 2, names, in) < 0 || reduction_enum(m, &r) < 0 ||
        attr_int(m, "ignore_index", &ignore_index) < 0 || attr_double(m, "label_smoothing", &smoothing) < 0)
        return NULL;
    for (int k = 0; k < 2; k++)
        if (!nn_is_tensor(in[k])) {
            nn_error_set(NN_ERR_TYPE, "cross_entropy_loss(): argument '%s' (position %d) must be Tensor, not %s",
                         names[k], k + 1, nn_is_none(in[k]) ? "NoneType" : in[k]->type->name);
            return NULL;
        }
    nn_object *weight = nn_dict_get_str(m->buffers, "weight");
    return (nn_object *)nn_cross_entropy_weighted(NN_TENSOR(in[0]), NN_TENSOR(in[1]),
                                                  weight && nn_is_tensor(weight) ? NN_TENSOR(weight) : NULL, r,
                                                  ignore_index, smoothing);
}

const nn_module_class nn_cross_entropy_loss_class = {.name = "CrossEntropyLoss", .forward = cross_entropy_forward,
                                                     .base = &nn_weighted_loss_base_class};

nn_module *nn_cross_entropy_loss_new(const char *reduction, int64_t ignore_index, double label_smoothing)
{
    nn_module *m = loss_new(&nn_cross_entropy_loss_class, reduction);
    if (m && (nn_module_register_buffer(m, "weight", NULL, true) < 0 ||
              set_attr(m, "ignore_index", nn_int_new(ignore_index)) < 0 ||
              set_attr(m, "label_smoothing", nn_float_new(label_smoothing)) < 0))
        NN_SET(m, NULL);
    return m;
}

/* ------------------------------------------------------ reset_parameters */

int nn_layer_reset_parameters(nn_module *m)
{
    const nn_module_class *c = nn_module_core_class(m); /* class L(nn.Linear) too */
    if (c == &nn_linear_class) return linear_reset(m);
    if (c == &nn_lazy_linear_class) return lazy_linear_reset(m);
    if (c == &nn_layer_norm_class) return affine_reset(m);
    if (c == &nn_batch_norm1d_class || c == &nn_batch_norm2d_class || c == &nn_batch_norm3d_class)
        return running_stats_reset(m) < 0 ? -1 : affine_reset(m);
    if (c == &nn_embedding_class) return embedding_reset(m);
    if (c == &nn_conv2d_class || (c >= nn_conv_more_classes && c < nn_conv_more_classes + 3))
        return linear_reset(m); /* _ConvNd.reset_parameters: kaiming_uniform_(a=sqrt(5)), the bias bound */
    return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'reset_parameters'", nn_module_name(m));
}
