/*
 * bind_complex.c — the torch names of complex tensors (core/complex.c):
 * torch.complex, polar, view_as_real, view_as_complex, real, imag, angle, conj,
 * resolve_conj, conj_physical, is_complex and their methods, the .real / .imag
 * attributes, the Python complex numbers item() and tolist() give, and torch.fft
 * (fft, ifft, rfft, irfft, their 2-d and n-d forms, fftshift, fftfreq, rfftfreq; core/fft.c).
 */
#include <string.h>

#include "bind_int.h"

#define ARGS(n) nn_object *a[n] = {0}
static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

/* fname(first, second, *, out=None) of two tensors: torch.complex(real, imag), torch.polar(abs, angle) */
static nn_object *two_parts(const char *fname, const char *spec, const char *first, const char *second,
                            nn_tensor *(*fn)(nn_tensor *, nn_tensor *), nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *y = NULL;
    if (repl_parse_args(fname, spec, args, kwargs, a) || repl_arg_tensor(fname, first, 1, a[0], &x) ||
        repl_arg_tensor(fname, second, 2, a[1], &y) || repl_no_out(fname, a[2]))
        return NULL;
    return T(fn(x, y));
}

static nn_object *f_complex(void *ud, nn_object *args, nn_object *kwargs)
{
    return two_parts("complex", "real, imag, *, out=", "real", "imag", nn_complex, args, kwargs);
}

static nn_object *f_polar(void *ud, nn_object *args, nn_object *kwargs)
{
    return two_parts("polar", "abs, angle, *, out=", "abs", "angle", nn_polar, args, kwargs);
}

/* a one-tensor function: fname(input) */
static nn_tensor *one(const char *fname, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *x = NULL;
    if (repl_parse_args(fname, "input", args, kwargs, a) || repl_arg_tensor(fname, "input", 1, a[0], &x)) return NULL;
    return x;
}

#define ONE(name, expr)                                                                                                \
    static nn_object *f_##name(void *ud, nn_object *args, nn_object *kwargs)                                           \
    {                                                                                                                  \
        nn_tensor *x = one(#name, args, kwargs);                                                                       \
        return x ? (expr) : NULL;                                                                                      \
    }
ONE(view_as_real, T(nn_view_as_real(x)))
ONE(view_as_complex, T(nn_view_as_complex(x)))
ONE(real, T(nn_real(x)))
ONE(imag, T(nn_imag(x)))
ONE(angle, T(nn_angle(x)))
ONE(conj, T(nn_conj(x)))
ONE(conj_physical, T(nn_conj_physical(x)))
ONE(resolve_conj, nn_retain(&x->ob))
ONE(is_complex, nn_bool_new(nn_dtype_is_complex(x->dtype)))
ONE(is_conj, nn_bool_new(false))
#undef ONE

static const repl_function_def complex_functions[] = {
    {"complex", f_complex,
     "complex(real, imag, *, out=None) -> Tensor\n"
     "Constructs a complex tensor with its real part equal to real and its imaginary part equal to imag."},
    {"polar", f_polar,
     "polar(abs, angle, *, out=None) -> Tensor\n"
     "Constructs a complex tensor whose elements are Cartesian coordinates corresponding to the polar coordinates with absolute value abs and angle angle."},
    {"view_as_real", f_view_as_real,
     "view_as_real(input) -> Tensor\nReturns a view of input as a real tensor, the last dim of size 2 holding the parts."},
    {"view_as_complex", f_view_as_complex,
     "view_as_complex(input) -> Tensor\nReturns a view of input (last dim of size 2) as a complex tensor."},
    {"real", f_real, "real(input) -> Tensor\nReturns a new tensor containing real values of the self tensor (a view)."},
    {"imag", f_imag, "imag(input) -> Tensor\nReturns a new tensor containing imaginary values of the self tensor (a view)."},
    {"angle", f_angle, "angle(input, *, out=None) -> Tensor\nComputes the element-wise angle (in radians) of the given input tensor."},
    {"conj", f_conj,
     "conj(input) -> Tensor\nReturns the complex conjugate of input (a new tensor in nnscope, not a lazy view)."},
    {"conj_physical", f_conj_physical, "conj_physical(input, *, out=None) -> Tensor\nComputes the element-wise conjugate of the given input tensor."},
    {"resolve_conj", f_resolve_conj, "resolve_conj(input) -> Tensor\nReturns input: nnscope's conjugates are never lazy."},
    {"is_complex", f_is_complex, "is_complex(input) -> bool\nReturns True if the data type of input is a complex data type."},
    {"is_conj", f_is_conj, "is_conj(input) -> bool\nReturns False: nnscope's conjugates are never lazy views."},
};
#define N_COMPLEX_FUNCTIONS (sizeof complex_functions / sizeof complex_functions[0])


nn_object *repl_complex_method(nn_tensor *t, const char *name)
{
    if (!strcmp(name, "real")) return T(nn_real(t));
    if (!strcmp(name, "imag")) return T(nn_imag(t));
    static const char *const torch_only[] = {"complex", "polar", "view_as_real", "view_as_complex"};
    for (size_t i = 0; i < sizeof torch_only / sizeof *torch_only; i++)
        if (!strcmp(name, torch_only[i])) return NULL;
    for (size_t i = 0; i < N_COMPLEX_FUNCTIONS; i++)
        if (!strcmp(complex_functions[i].name, name)) return repl_bound_function(&complex_functions[i], &t->ob);
    return NULL;
}

nn_object *repl_complex_scalar(const nn_tensor *t, const int64_t *index)
{
    nn_tensor *r = nn_view_as_real((nn_tensor *)t);
    if (!r) return NULL;
    int64_t at[NN_MAX_DIMS] = {0};
    memcpy(at, index, sizeof(int64_t) * (size_t)t->ndim);
    double re = nn_get_double(r, at);
    at[t->ndim] = 1;
    double im = nn_get_double(r, at);
    NN_RELEASE(r);
    return nn_complex_new(re, im);
}

int repl_fill_complex(nn_tensor *t, nn_object *value)
{
    double re, im;
    nn_complex_parts(value, &re, &im);
    return nn_fill_complex_(t, re, im);
}

/* --------------------------------------------------------------- torch.fft */

typedef nn_tensor *(*fft_fn)(nn_tensor *x, int64_t n, int dim, const char *norm);

/* fname(input, n=None, dim=-1, norm=None) */
static nn_object *fft_call(const char *fname, fft_fn fn, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL;
    int64_t n = -1, dim = -1;
    const char *norm = NULL;
    if (repl_parse_args(fname, "input, n=, dim=, norm=, *, out=", args, kwargs, a) ||
        repl_arg_tensor(fname, "input", 1, a[0], &x) || (a[1] && !nn_is_none(a[1]) && repl_arg_int(fname, "n", 2, a[1], &n)) ||
        (a[2] && repl_arg_int(fname, "dim", 3, a[2], &dim)) ||
        (a[3] && !nn_is_none(a[3]) && repl_arg_str(fname, "norm", 4, a[3], &norm)) || repl_no_out(fname, a[4]))
        return NULL;
    return T(fn(x, n, (int)dim, norm));
}

static nn_object *f_fft(void *ud, nn_object *args, nn_object *kwargs) { return fft_call("fft_fft", nn_fft, args, kwargs); }
static nn_object *f_ifft(void *ud, nn_object *args, nn_object *kwargs) { return fft_call("fft_ifft", nn_ifft, args, kwargs); }
static nn_object *f_rfft(void *ud, nn_object *args, nn_object *kwargs) { return fft_call("fft_rfft", nn_rfft, args, kwargs); }
static nn_object *f_irfft(void *ud, nn_object *args, nn_object *kwargs) { return fft_call("fft_irfft", nn_irfft, args, kwargs); }
static nn_object *f_hfft(void *ud, nn_object *args, nn_object *kwargs) { return fft_call("fft_hfft", nn_hfft, args, kwargs); }
static nn_object *f_ihfft(void *ud, nn_object *args, nn_object *kwargs) { return fft_call("fft_ihfft", nn_ihfft, args, kwargs); }

/* fname(input, s=None, dim=None, norm=None): the n-dimensional transforms; two_d:
   fft2's dim=(-2, -1) default. With s and no dim: the last len(s) dims. */
static nn_object *fftn_call(const char *fname, nn_fft_kind kind, bool inverse, bool two_d, nn_object *args,
                            nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL;
    const char *norm = NULL;
    int n_dims = 0, dims[NN_MAX_DIMS], n_s = 0;
    int64_t s[NN_MAX_DIMS];
    bool has_s = false, has_dim = false;
    if (repl_parse_args(fname, "input, s=, dim=, norm=, *, out=", args, kwargs, a) ||
        repl_arg_tensor(fname, "input", 1, a[0], &x) ||
        ((has_s = a[1] && !nn_is_none(a[1])) && repl_arg_shape(fname, "s", a[1], &n_s, s)) ||
        ((has_dim = a[2] && !nn_is_none(a[2])) && repl_arg_dims(fname, "dim", 3, a[2], &n_dims, dims)) ||
        (a[3] && !nn_is_none(a[3]) && repl_arg_str(fname, "norm", 4, a[3], &norm)) || repl_no_out(fname, a[4]))
        return NULL;
    if (!has_dim && two_d) n_dims = 2, dims[0] = -2, dims[1] = -1, has_dim = true;
    if (!has_dim) {
        n_dims = has_s ? n_s : x->ndim;
        for (int i = 0; i < n_dims; i++) dims[i] = x->ndim - n_dims + i;
    }
    if (has_s && n_s != n_dims) n_dims = -1;
    return T(nn_fftn(fname, x, n_dims, dims, has_s ? s : NULL, norm, kind, inverse));
}

#define FFTN(name, kind, inverse, two_d) \
    static nn_object *f_##name(void *ud, nn_object *args, nn_object *kwargs) \
    { \
        return fftn_call("fft_" #name, kind, inverse, two_d, args, kwargs); \
    }
FFTN(fft2, NN_FFT_C2C, false, true)
FFTN(ifft2, NN_FFT_C2C, true, true)
FFTN(fftn, NN_FFT_C2C, false, false)
FFTN(ifftn, NN_FFT_C2C, true, false)
FFTN(rfft2, NN_FFT_R2C, false, true)
FFTN(irfft2, NN_FFT_C2R, true, true)
FFTN(rfftn, NN_FFT_R2C, false, false)
FFTN(irfftn, NN_FFT_C2R, true, false)
FFTN(hfft2, NN_FFT_HERMITIAN, false, true)
FFTN(ihfft2, NN_FFT_HERMITIAN, true, true)
FFTN(hfftn, NN_FFT_HERMITIAN, false, false)
FFTN(ihfftn, NN_FFT_HERMITIAN, true, false)

/* fftshift(input, dim=None) / ifftshift */
static nn_object *shift_call(const char *fname, bool inverse, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    int n_dims = -1, dims[NN_MAX_DIMS];
    if (repl_parse_args(fname, "input, dim=", args, kwargs, a) || repl_arg_tensor(fname, "input", 1, a[0], &x) ||
        (a[1] && !nn_is_none(a[1]) && repl_arg_dims(fname, "dim", 2, a[1], &n_dims, dims)))
        return NULL;
    return T(nn_fftshift(x, n_dims, dims, inverse));
}

static nn_object *f_fftshift(void *ud, nn_object *args, nn_object *kwargs) { return shift_call("fft_fftshift", false, args, kwargs); }
static nn_object *f_ifftshift(void *ud, nn_object *args, nn_object *kwargs) { return shift_call("fft_ifftshift", true, args, kwargs); }

/* fname(n, d=1.0, *, dtype=None, ...) */
static nn_object *freq_call(const char *fname, bool rfft, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    int64_t n = 0;
    double d = 1.0;
    int dtype = -1;
    if (repl_parse_args(fname, "n, d=, *, dtype=, layout=, device=, requires_grad=", args, kwargs, a) ||
        repl_arg_int(fname, "n", 1, a[0], &n) || (a[1] && repl_arg_double(fname, "d", 2, a[1], &d)) ||
        (a[2] && !nn_is_none(a[2]) && repl_arg_dtype(fname, "dtype", 3, a[2], &dtype)))
        return NULL;
    return T(nn_fftfreq(n, d, rfft, dtype >= 0 ? (nn_dtype)dtype : nn_default_dtype()));
}

static nn_object *f_fftfreq(void *ud, nn_object *args, nn_object *kwargs) { return freq_call("fft_fftfreq", false, args, kwargs); }
static nn_object *f_rfftfreq(void *ud, nn_object *args, nn_object *kwargs) { return freq_call("fft_rfftfreq", true, args, kwargs); }

static const repl_function_def fft_functions[] = {
    {"fft", f_fft, "fft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor\nComputes the one dimensional discrete Fourier transform of input (a direct O(n^2) sum in nnscope)."},
    {"ifft", f_ifft, "ifft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor\nComputes the one dimensional inverse discrete Fourier transform of input."},
    {"rfft", f_rfft, "rfft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor\nComputes the one dimensional Fourier transform of real-valued input (the n // 2 + 1 non-negative frequencies)."},
    {"irfft", f_irfft, "irfft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor\nComputes the inverse of rfft(): a real signal from its one-sided Hermitian spectrum."},
    {"fft2", f_fft2, "fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor\nComputes the 2 dimensional discrete Fourier transform of input."},
    {"ifft2", f_ifft2, "ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor\nComputes the 2 dimensional inverse discrete Fourier transform of input."},
    {"fftn", f_fftn, "fftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor\nComputes the N dimensional discrete Fourier transform of input."},
    {"ifftn", f_ifftn, "ifftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor\nComputes the N dimensional inverse discrete Fourier transform of input."},
    {"rfft2", f_rfft2, "rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor\nComputes the 2-dimensional discrete Fourier transform of real input (half of the last dim's frequencies)."},
    {"irfft2", f_irfft2, "irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor\nComputes the inverse of rfft2()."},
    {"rfftn", f_rfftn, "rfftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor\nComputes the N-dimensional discrete Fourier transform of real input."},
    {"irfftn", f_irfftn, "irfftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor\nComputes the inverse of rfftn()."},
    {"hfft", f_hfft, "hfft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor\nComputes the one dimensional discrete Fourier transform of a Hermitian symmetric input signal (its first half given): a real result."},
    {"ihfft", f_ihfft, "ihfft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor\nComputes the inverse of hfft(): the n // 2 + 1 first points of a real input's inverse transform."},
    {"hfft2", f_hfft2, "hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor\nComputes the 2-dimensional discrete Fourier transform of a Hermitian symmetric input signal."},
    {"ihfft2", f_ihfft2, "ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor\nComputes the 2-dimensional inverse discrete Fourier transform of real input (the inverse of hfft2())."},
    {"hfftn", f_hfftn, "hfftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor\nComputes the n-dimensional discrete Fourier transform of a Hermitian symmetric input signal."},
    {"ihfftn", f_ihfftn, "ihfftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor\nComputes the N-dimensional inverse discrete Fourier transform of real input (the inverse of hfftn())."},
    {"fftshift", f_fftshift, "fftshift(input, dim=None) -> Tensor\nReorders n-dimensional FFT data, as provided by fftn(), to have negative frequency terms first."},
    {"ifftshift", f_ifftshift, "ifftshift(input, dim=None) -> Tensor\nInverse of fftshift()."},
    {"fftfreq", f_fftfreq, "fftfreq(n, d=1.0, *, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\nComputes the discrete Fourier Transform sample frequencies for a signal of size n."},
    {"rfftfreq", f_rfftfreq, "rfftfreq(n, d=1.0, *, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\nComputes the sample frequencies for rfft() with a signal of size n."},
};

int repl_complex_add_functions(nn_object *torch)
{
    if (repl_namespace_add_fns(torch, complex_functions, N_COMPLEX_FUNCTIONS)) return -1;
    nn_object *fft = repl_namespace_new("torch.fft");
    int rc = fft ? repl_namespace_add_fns(fft, fft_functions, sizeof fft_functions / sizeof *fft_functions) : -1;
    if (rc == 0) rc = repl_namespace_set(torch, "fft", fft);
    NN_RELEASE(fft);
    return rc;
}

/* ------------------------------------------------- the complex allowlist */

/* The torch functions and tensor methods that give PyTorch's results for complex
   tensors; any other one called with a complex tensor raises NotImplementedError
   rather than compute with the real parts only. */
static const char *const complex_ok[] = {
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "eq", "ne", "abs", "absolute", "exp",
    "neg", "negative", "sum", "mean", "matmul", "real", "imag", "angle", "conj", "conj_physical", "resolve_conj",
    "is_complex", "is_conj", "view_as_real", "view_as_complex", "complex", "item", "tolist", "clone", "contiguous",
    "reshape", "view", "flatten", "squeeze", "unsqueeze", "t", "transpose", "permute", "expand", "expand_as", "flip", "select",
    "narrow", "cat", "concat", "stack", "chunk", "split", "unbind", "to", "type", "double", "float", "cfloat",
    "cdouble", "detach", "numel", "size", "dim", "ndimension", "is_floating_point", "element_size", "is_contiguous",
    "masked_fill", "where", "index_select", "new_zeros", "new_ones", "new_empty", "zeros_like", "ones_like",
    "empty_like", "requires_grad_", "numpy", "copy_", "rand", "randn", "rand_like", "randn_like", "normal_", "uniform_", "zero_", "is_same_size", "get_device", "cpu", "cuda",
    "__repr__", "__str__", "__format__", "__len__", "__array__", "equal", "allclose", "isclose", "eig", "eigvals",
    "view_as", "reshape_as", "movedim", "moveaxis", "swapaxes", "swapdims", "broadcast_to", "ravel", "data_ptr",
    "storage_offset", "stride", "is_leaf", "retain_grad", "register_hook", "backward", "grad", "detach_", "dtype", "is_signed", "tensor", "as_tensor",
    "maximum", "minimum", /* core refuses them with PyTorch's message */
    "fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn", "hfft", "ihfft",
    "hfft2", "ihfft2", "hfftn", "ihfftn", "fftshift",
    "ifftshift",
    "pow", "sqrt", "rsqrt", "log", "log2", "log10", "sin", "cos", "tan", "sinh", "cosh", "tanh", "sigmoid",
    "reciprocal", "square", "sgn", "isnan", "isinf", "isfinite", "polar", "var", "std", "cumsum",
    /* in-place forms */
    "add_", "sub_", "subtract_", "mul_", "multiply_", "div_", "divide_", "true_divide_", "pow_", "neg_", "negative_",
    "exp_", "log_", "log2_", "log10_", "sqrt_", "rsqrt_", "sin_", "cos_", "tan_", "sinh_", "cosh_", "tanh_",
    "sigmoid_", "reciprocal_", "square_", "sgn_", "fill_", "masked_fill_", "full_like", "__iadd__", "__isub__",
    "__imul__", "__itruediv__", "__ipow__",
};

/* the complex dtype of o (a tensor, or a tuple or list of them at depth 0), or -1 */
static int complex_dtype(nn_object *o, int depth)
{
    if (nn_is_tensor(o)) return nn_dtype_is_complex(NN_TENSOR(o)->dtype) ? (int)NN_TENSOR(o)->dtype : -1;
    if (depth > 0 || !o || (o->type != &nn_tuple_type && !nn_is_list(o))) return -1;
    size_t n = o->type == &nn_tuple_type ? nn_tuple_len(o) : nn_list_len(o);
    for (size_t i = 0; i < n; i++) {
        int dt = complex_dtype(o->type == &nn_tuple_type ? nn_tuple_get(o, i) : nn_list_get(o, i), depth + 1);
        if (dt >= 0) return dt;
    }
    return -1;
}

/* PyTorch 1.13's refusals of complex input: "%s" the kernel's name, or a message of
   its own (NULL kernel) */
static const struct {
    const char *name, *kernel, *message;
} complex_refused[] = {
    {"sort", "sorting_kernel_method_name", NULL}, {"argsort", "sorting_kernel_method_name", NULL},
    {"msort", "sorting_kernel_method_name", NULL}, {"topk", "topk_cpu", NULL}, {"argmax", "argmax_cpu", NULL},
    {"argmin", "argmin_cpu", NULL}, {"amax", "max_values_cpu", NULL}, {"amin", "min_values_cpu", NULL},
    {"median", "median_cpu", NULL}, {"kthvalue", "kthvalue_cpu", NULL}, {"cummax", "cummax_cpu", NULL},
    {"cummin", "cummin_cpu", NULL}, {"unique", "unique", NULL}, {"round", "round_vml_cpu", NULL},
    {"clamp", NULL, "clamp is not supported for complex types"}, {"clip", NULL, "clamp is not supported for complex types"},
    {"clamp_min", NULL, "clamp is not supported for complex types"},
    {"clamp_max", NULL, "clamp is not supported for complex types"}, {"relu", NULL, "clamp is not supported for complex types"},
    {"floor", NULL, "floor is not supported for complex inputs"}, {"ceil", NULL, "ceil is not supported for complex inputs"},
    {"trunc", NULL, "trunc is not supported for complex inputs"},
    {"sign", NULL, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead."},
};

/* max / min: of two tensors PyTorch's maximum / minimum message, with a dim its
   max() / min() one, of the whole tensor its max_all / min_all kernel's */
static int refuse_max_min(const char *name, nn_object *self, nn_object *args, nn_object *kwargs, nn_dtype dt)
{
    size_t n = nn_tuple_len(args);
    nn_object *second = self ? (n > 0 ? nn_tuple_get(args, 0) : NULL) : (n > 1 ? nn_tuple_get(args, 1) : NULL);
    nn_object *other = kwargs ? nn_dict_get_str(kwargs, "other") : NULL;
    if ((second && nn_is_tensor(second)) || other)
        return nn_error_set(NN_ERR_RUNTIME, "%s not implemented for complex tensors.", *name == 'm' && name[1] == 'a' ? "maximum" : "minimum");
    if (second || (kwargs && nn_dict_get_str(kwargs, "dim")))
        return nn_error_set(NN_ERR_RUNTIME, "%s(): does not support complex input", name);
    return nn_error_set(NN_ERR_RUNTIME, "\"%s_all\" not implemented for '%s'", name, nn_dtype_scalar_name(dt));
}

int repl_complex_check(const char *name, nn_object *self, nn_object *args, nn_object *kwargs)
{
    int dt = self ? complex_dtype(self, 1) : -1;
    for (size_t i = 0; dt < 0 && i < nn_tuple_len(args); i++) dt = complex_dtype(nn_tuple_get(args, i), 0);
    size_t pos = 0;
    nn_object *k, *v;
    while (dt < 0 && kwargs && nn_dict_next(kwargs, &pos, &k, &v)) dt = complex_dtype(v, 0);
    if (dt < 0) return 0;
    for (size_t i = 0; i < sizeof complex_ok / sizeof *complex_ok; i++)
        if (!strcmp(complex_ok[i], name)) return 0;
    if (!strcmp(name, "max") || !strcmp(name, "min")) return refuse_max_min(name, self, args, kwargs, (nn_dtype)dt);
    for (size_t i = 0; i < sizeof complex_refused / sizeof *complex_refused; i++)
        if (!strcmp(complex_refused[i].name, name))
            return complex_refused[i].kernel ? nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", complex_refused[i].kernel,
                                                           nn_dtype_scalar_name((nn_dtype)dt))
                                             : nn_error_set(NN_ERR_RUNTIME, "%s", complex_refused[i].message);
    return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "%s%s does not support complex tensors in nnscope yet",
                        self ? "Tensor." : "torch.", name);
}
