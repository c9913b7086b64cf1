/*
 * bind_misc_ops.c — core/nn_misc_ops.h's functions as torch functions and
 * tensor methods: clamp/clip with tensor bounds (bind_tensor.c's clamp and
 * bind_math.c's clamp_min/clamp_max come here for a tensor), sgn, copysign,
 * heaviside, gcd, lcm, logcumsumexp, renorm, trapezoid/trapz,
 * cumulative_trapezoid, select/slice/diagonal_scatter and the window
 * functions. The in-place forms (sgn_, copysign_, ...) come from
 * bind_tensor_more.c's list.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "nn_misc_ops.h"

#define ARGS(n) nn_object *a[n] = {0}
static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

static bool given(const nn_object *o) { return o && !nn_is_none(o); }

/* ------------------------------------------------------------ clamp */

static const char *arg_type(nn_object *o) { return nn_is_tensor(o) ? "Tensor" : repl_type_name(o); }

/* PyTorch's message for clamp with a tensor and a number as bounds */
static nn_object *clamp_mixed_error(const char *f, nn_object *args, nn_object *kwargs)
{
    char got[256] = "";
    size_t n = 0, np = nn_tuple_len(args), pos = 0;
    for (size_t i = 0; i < np && n < sizeof got; i++)
        n += (size_t)snprintf(got + n, sizeof got - n, "%s%s", i ? ", " : "", arg_type(nn_tuple_get(args, i)));
    nn_object *k, *v;
    while (kwargs && n < sizeof got && nn_dict_next(kwargs, &pos, &k, &v))
        n += (size_t)snprintf(got + n, sizeof got - n, ", %s=%s", nn_str_cstr(k), arg_type(v));
    nn_error_set(NN_ERR_TYPE,
                 "%s() received an invalid combination of arguments - got (%s), but expected one of:\n"
                 " * (Tensor input, Tensor min, Tensor max, *, Tensor out)\n"
                 " * (Tensor input, Number min, Number max, *, Tensor out)\n",
                 f, got);
    return NULL;
}

nn_object *repl_clamp_tensor_bounds(nn_tensor *x, nn_object *min, nn_object *max, nn_object *args, nn_object *kwargs)
{
    if ((given(min) && !nn_is_tensor(min)) || (given(max) && !nn_is_tensor(max)))
        return clamp_mixed_error("clamp", args, kwargs);
    return T(nn_clamp_tensor(x, given(min) ? NN_TENSOR(min) : NULL, given(max) ? NN_TENSOR(max) : NULL));
}

nn_object *repl_clamp_one_tensor(nn_tensor *x, nn_tensor *bound, bool is_min)
{
    return T(is_min ? nn_clamp_min_tensor(x, bound) : nn_clamp_max_tensor(x, bound));
}

/* ------------------------------------------------------- elementwise */

static nn_object *f_sgn(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    if (repl_parse_args("sgn", "input, *, out=", args, kwargs, a) || repl_arg_tensor("sgn", "input", 1, a[0], &x) ||
        repl_no_out("sgn", a[1]))
        return NULL;
    return T(nn_sgn(x));
}

/* two tensors (numbers: a wrapped 0-dim tensor when numbers) */
static nn_object *tensor_pair(const char *f, nn_object *args, nn_object *kwargs, bool numbers, const char *other,
                              nn_tensor *(*op)(nn_tensor *, nn_tensor *))
{
    ARGS(3);
    nn_tensor *x = NULL, *y = NULL, *own = NULL;
    char spec[48];
    snprintf(spec, sizeof spec, "input, %s, *, out=", other);
    if (repl_parse_args(f, spec, args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) || repl_no_out(f, a[2]))
        return NULL;
    if (numbers && a[1] && (nn_is_int(a[1]) || nn_is_float(a[1]) || nn_is_bool(a[1]))) {
        if (!(y = own = nn_wrapped_number(nn_float_value(a[1]), !nn_is_float(a[1])))) return NULL;
    } else if (repl_arg_tensor(f, other, 2, a[1], &y)) {
        return NULL;
    }
    nn_tensor *r = op(x, y);
    NN_RELEASE(own);
    return T(r);
}

static nn_tensor *gcd(nn_tensor *a, nn_tensor *b) { return nn_gcd_lcm(a, b, false); }
static nn_tensor *lcm(nn_tensor *a, nn_tensor *b) { return nn_gcd_lcm(a, b, true); }

static nn_object *f_copysign(void *ud, nn_object *args, nn_object *kwargs)
{
    return tensor_pair("copysign", args, kwargs, true, "other", nn_copysign);
}
static nn_object *f_heaviside(void *ud, nn_object *args, nn_object *kwargs)
{
    return tensor_pair("heaviside", args, kwargs, false, "values", nn_heaviside);
}
static nn_object *f_gcd(void *ud, nn_object *args, nn_object *kwargs) { return tensor_pair("gcd", args, kwargs, false, "other", gcd); }
static nn_object *f_lcm(void *ud, nn_object *args, nn_object *kwargs) { return tensor_pair("lcm", args, kwargs, false, "other", lcm); }

/* ---------------------------------------------------- scans, renorm */

static nn_object *f_logcumsumexp(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    const char *f = "logcumsumexp";
    if (repl_parse_args(f, "input, dim, *, out=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_int(f, "dim", 2, a[1], &dim) || repl_no_out(f, a[2]))
        return NULL;
    return T(nn_logcumsumexp(x, (int)dim));
}

static nn_object *f_renorm(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL;
    double p = 0, maxnorm = 0;
    int64_t dim = 0;
    const char *f = "renorm";
    if (repl_parse_args(f, "input, p, dim, maxnorm, *, out=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_double(f, "p", 2, a[1], &p) || repl_arg_int(f, "dim", 3, a[2], &dim) ||
        repl_arg_double(f, "maxnorm", 4, a[3], &maxnorm) || repl_no_out(f, a[4]))
        return NULL;
    return T(nn_renorm(x, p, (int)dim, maxnorm));
}

/* trapezoid(y, x=None, *, dx=None, dim=-1): x a tensor or (as a second positional) a number dx */
static nn_object *trapezoid(const char *f, nn_object *args, nn_object *kwargs, bool cumulative)
{
    ARGS(4);
    nn_tensor *y = NULL, *x = NULL;
    double dx = 1;
    int64_t dim = -1;
    if (repl_parse_args(f, "y, x=, *, dx=, dim=", args, kwargs, a) || repl_arg_tensor(f, "y", 1, a[0], &y) ||
        (a[3] && repl_arg_int(f, "dim", 0, a[3], &dim)))
        return NULL;
    if (given(a[1]) && given(a[2]))
        return nn_error_set(NN_ERR_TYPE, "%s() received an invalid combination of arguments - got (Tensor, Tensor, dx=%s)",
                            f, arg_type(a[2])), NULL;
    if (given(a[1]) && nn_is_tensor(a[1])) x = NN_TENSOR(a[1]);
    else if (given(a[1]) && repl_arg_double(f, "dx", 2, a[1], &dx)) return NULL;
    if (given(a[2]) && repl_arg_double(f, "dx", 0, a[2], &dx)) return NULL;
    return T(nn_trapezoid(y, x, dx, (int)dim, cumulative));
}

static nn_object *f_trapezoid(void *ud, nn_object *args, nn_object *kwargs) { return trapezoid("trapezoid", args, kwargs, false); }
static nn_object *f_trapz(void *ud, nn_object *args, nn_object *kwargs) { return trapezoid("trapz", args, kwargs, false); }
static nn_object *f_cumulative_trapezoid(void *ud, nn_object *args, nn_object *kwargs)
{
    return trapezoid("cumulative_trapezoid", args, kwargs, true);
}

/* ----------------------------------------------------------- scatters */

static nn_object *f_select_scatter(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *src = NULL;
    int64_t dim = 0, index = 0;
    const char *f = "select_scatter";
    if (repl_parse_args(f, "input, src, dim, index", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_tensor(f, "src", 2, a[1], &src) || repl_arg_int(f, "dim", 3, a[2], &dim) ||
        repl_arg_int(f, "index", 4, a[3], &index))
        return NULL;
    return T(nn_select_scatter(x, src, (int)dim, index));
}

/* step: PyTorch 1.13's binding reads an omitted step as garbage and raises
   "slice step must be positive"; nnscope raises the same for an omitted step */
static nn_object *f_slice_scatter(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    nn_tensor *x = NULL, *src = NULL;
    int64_t dim = 0, start = 0, end = INT64_MAX, step = 0;
    const char *f = "slice_scatter";
    if (repl_parse_args(f, "input, src, dim=, start=, end=, step=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_tensor(f, "src", 2, a[1], &src) ||
        (a[2] && repl_arg_int(f, "dim", 3, a[2], &dim)) || (given(a[3]) && repl_arg_int(f, "start", 4, a[3], &start)) ||
        (given(a[4]) && repl_arg_int(f, "end", 5, a[4], &end)) || (a[5] && repl_arg_int(f, "step", 6, a[5], &step)))
        return NULL;
    return T(nn_slice_scatter(x, src, (int)dim, start, end, step));
}

static nn_object *f_diagonal_scatter(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL, *src = NULL;
    int64_t offset = 0, dim1 = 0, dim2 = 1;
    const char *f = "diagonal_scatter";
    if (repl_parse_args(f, "input, src, offset=, dim1=, dim2=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_tensor(f, "src", 2, a[1], &src) ||
        (a[2] && repl_arg_int(f, "offset", 3, a[2], &offset)) || (a[3] && repl_arg_int(f, "dim1", 4, a[3], &dim1)) ||
        (a[4] && repl_arg_int(f, "dim2", 5, a[4], &dim2)))
        return NULL;
    return T(nn_diagonal_scatter(x, src, offset, (int)dim1, (int)dim2));
}

/* ------------------------------------------------------------ windows */

/* name(window_length, periodic=True, [alpha=, beta= | beta=], *, dtype=, layout=, device=, requires_grad=) */
static nn_object *window(const char *f, nn_window_kind kind, nn_object *args, nn_object *kwargs)
{
    ARGS(8);
    const char *spec = kind == NN_WINDOW_HAMMING ? "window_length, periodic=, alpha=, beta=, *, dtype=, layout=, device=, requires_grad="
                       : kind == NN_WINDOW_KAISER ? "window_length, periodic=, beta=, *, dtype=, layout=, device=, requires_grad="
                                                  : "window_length, periodic=, *, dtype=, layout=, device=, requires_grad=";
    int extra = kind == NN_WINDOW_HAMMING ? 2 : kind == NN_WINDOW_KAISER ? 1 : 0;
    int64_t len = 0;
    bool periodic = true, rg = false;
    double alpha = 0.54, beta = kind == NN_WINDOW_KAISER ? 12.0 : 0.46;
    int dtype = -1;
    if (repl_parse_args(f, spec, args, kwargs, a) || repl_arg_int(f, "window_length", 1, a[0], &len) ||
        (a[1] && repl_arg_bool(f, "periodic", 2, a[1], &periodic)))
        return NULL;
    if (kind == NN_WINDOW_HAMMING && ((a[2] && repl_arg_double(f, "alpha", 3, a[2], &alpha)) ||
                                      (a[3] && repl_arg_double(f, "beta", 4, a[3], &beta))))
        return NULL;
    if (kind == NN_WINDOW_KAISER && a[2] && repl_arg_double(f, "beta", 3, a[2], &beta)) return NULL;
    nn_object **kw = a + 2 + extra;
    if (repl_arg_dtype(f, "dtype", 0, kw[0], &dtype) || repl_arg_device(f, kw[2]) ||
        (kw[3] && repl_arg_bool(f, "requires_grad", 0, kw[3], &rg)))
        return NULL;
    nn_tensor *w = nn_window(kind, len, periodic, alpha, beta, dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype);
    if (w && rg && nn_set_requires_grad(w, true) < 0) NN_SET(w, NULL);
    return T(w);
}

#define WINDOW(name, kind)                                                                                             \
    static nn_object *f_##name(void *ud, nn_object *args, nn_object *kwargs) { return window(#name, kind, args, kwargs); }
WINDOW(hann_window, NN_WINDOW_HANN)
WINDOW(hamming_window, NN_WINDOW_HAMMING)
WINDOW(blackman_window, NN_WINDOW_BLACKMAN)
WINDOW(bartlett_window, NN_WINDOW_BARTLETT)
WINDOW(kaiser_window, NN_WINDOW_KAISER)

static const repl_function_def misc_functions[] = {
    {"sgn", f_sgn, "sgn(input, *, out=None) -> Tensor\nThe sign of each element (for real tensors: torch.sign)."},
    {"copysign", f_copysign,
     "copysign(input, other, *, out=None) -> Tensor\nThe magnitude of input with the sign of other, elementwise."},
    {"heaviside", f_heaviside,
     "heaviside(input, values, *, out=None) -> Tensor\nThe Heaviside step function: values where input is 0."},
    {"gcd", f_gcd, "gcd(input, other, *, out=None) -> Tensor\nThe elementwise greatest common divisor."},
    {"lcm", f_lcm, "lcm(input, other, *, out=None) -> Tensor\nThe elementwise least common multiple."},
    {"logcumsumexp", f_logcumsumexp,
     "logcumsumexp(input, dim, *, out=None) -> Tensor\nThe logarithm of the cumulative sum of exponentials along dim."},
    {"renorm", f_renorm,
     "renorm(input, p, dim, maxnorm, *, out=None) -> Tensor\n"
     "Each sub-tensor along dim with p-norm above maxnorm rescaled to norm maxnorm."},
    {"select_scatter", f_select_scatter,
     "select_scatter(input, src, dim, index) -> Tensor\nA copy of input with input.select(dim, index) set to src."},
    {"slice_scatter", f_slice_scatter,
     "slice_scatter(input, src, dim=0, start=None, end=None, step=1) -> Tensor\n"
     "A copy of input with the slice along dim set to src."},
    {"diagonal_scatter", f_diagonal_scatter,
     "diagonal_scatter(input, src, offset=0, dim1=0, dim2=1) -> Tensor\nA copy of input with a diagonal set to src."},
    /* functions only (from "trapezoid" on) */
    {"trapezoid", f_trapezoid,
     "trapezoid(y, x=None, *, dx=None, dim=-1) -> Tensor\nThe trapezoidal rule along dim."},
    {"trapz", f_trapz, "trapz(y, x, *, dim=-1) -> Tensor\nAlias for torch.trapezoid()."},
    {"cumulative_trapezoid", f_cumulative_trapezoid,
     "cumulative_trapezoid(y, x=None, *, dx=None, dim=-1) -> Tensor\nThe cumulative trapezoidal rule along dim."},
    {"hann_window", f_hann_window,
     "hann_window(window_length, periodic=True, *, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "The Hann window."},
    {"hamming_window", f_hamming_window,
     "hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=torch.strided, "
     "device=None, requires_grad=False) -> Tensor\nThe Hamming window."},
    {"blackman_window", f_blackman_window,
     "blackman_window(window_length, periodic=True, *, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "The Blackman window."},
    {"bartlett_window", f_bartlett_window,
     "bartlett_window(window_length, periodic=True, *, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "The Bartlett (triangular) window."},
    {"kaiser_window", f_kaiser_window,
     "kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=torch.strided, device=None, "
     "requires_grad=False) -> Tensor\nThe Kaiser window with shape parameter beta."},
};
#define N_MISC (sizeof misc_functions / sizeof misc_functions[0])

int repl_misc_ops_add_functions(nn_object *torch) { return repl_namespace_add_fns(torch, misc_functions, N_MISC); }

nn_object *repl_misc_ops_method(nn_tensor *t, const char *name)
{
    for (size_t i = 0; i < N_MISC && strcmp(misc_functions[i].name, "trapezoid"); i++)
        if (!strcmp(misc_functions[i].name, name)) return repl_bound_function(&misc_functions[i], &t->ob);
    return NULL;
}
