/*
 * bind_special.c — torch's special functions as torch functions and tensor
 * methods: lgamma, digamma, polygamma(n, x), mvlgamma(x, p), i0, sinc (each
 * also a method and an in-place method), and the private torch._special_*
 * functions behind torch.special (repl/lib/torch.special.py): i0e, i1, i1e,
 * ndtr, ndtri, log_ndtr, erfcx, entr, xlog1py, zeta; and torch._standard_gamma,
 * torch._sample_dirichlet, torch.binomial (the distributions' samplers, generator=) and
 * torch._standard_gamma_grad, torch._dirichlet_grad (their gradients). The ops are
 * core/special.c's and core/gamma_sample.c's.
 */
#include <string.h>

#include "bind_int.h"
#include "nn_gamma_sample.h"
#include "nn_special.h"

#define ARGS(n) nn_object *a[n] = {0}
static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

/* out= is accepted as None only */
static int no_out(const char *f, nn_object *o)
{
    if (!o || nn_is_none(o)) return 0;
    return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "%s: out= is not supported", f);
}

static nn_object *unary(const char *f, nn_object *args, nn_object *kwargs, nn_tensor *(*op)(nn_tensor *))
{
    ARGS(2);
    nn_tensor *x = NULL;
    if (repl_parse_args(f, "input, *, out=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        no_out(f, a[1]))
        return NULL;
    return T(op(x));
}

#define UNARY(fname, op)                                                                                               \
    static nn_object *f_##fname(void *ud, nn_object *args, nn_object *kwargs) { return unary(#fname, args, kwargs, op); }
UNARY(lgamma, nn_lgamma)
UNARY(digamma, nn_digamma)
UNARY(i0, nn_i0)
UNARY(sinc, nn_sinc)
UNARY(_special_i0e, nn_special_i0e)
UNARY(_special_i1, nn_special_i1)
UNARY(_special_i1e, nn_special_i1e)
UNARY(_special_ndtr, nn_special_ndtr)
UNARY(_special_ndtri, nn_special_ndtri)
UNARY(_special_log_ndtr, nn_special_log_ndtr)
UNARY(_special_erfcx, nn_special_erfcx)
UNARY(_special_entr, nn_special_entr)

/* A tensor, or a number as a wrapped 0-dim tensor (new reference in *owned). */
static int tensor_or_number(const char *f, const char *name, int pos, nn_object *o, nn_tensor **out, nn_tensor **owned)
{
    *owned = NULL;
    if (o && (nn_is_int(o) || nn_is_float(o) || nn_is_bool(o))) {
        *out = *owned = nn_wrapped_number(nn_float_value(o), !nn_is_float(o));
        return *out ? 0 : -1;
    }
    return repl_arg_tensor(f, name, pos, o, out);
}

static nn_object *binary(const char *f, nn_object *args, nn_object *kwargs, nn_tensor *(*op)(nn_tensor *, nn_tensor *))
{
    ARGS(3);
    nn_tensor *x = NULL, *y = NULL, *own_x = NULL, *own_y = NULL;
    if (repl_parse_args(f, "input, other, *, out=", args, kwargs, a) || no_out(f, a[2])) return NULL;
    if (nn_is_tensor(a[0]) || !nn_is_tensor(a[1])) {
        if (tensor_or_number(f, "input", 1, a[0], &x, &own_x) < 0) return NULL;
    } else if (!(x = own_x = nn_scalar(nn_float_value(a[0]), NN_TENSOR(a[1])->dtype))) {
        return NULL; /* a number first: a 0-dim tensor of the other's dtype */
    }
    nn_tensor *r = NULL;
    if (tensor_or_number(f, "other", 2, a[1], &y, &own_y) == 0) r = op(x, y);
    NN_RELEASE(own_x);
    NN_RELEASE(own_y);
    return T(r);
}

static nn_object *f__special_xlog1py(void *ud, nn_object *args, nn_object *kwargs)
{
    return binary("xlog1py", args, kwargs, nn_special_xlog1py);
}

static nn_object *f__special_zeta(void *ud, nn_object *args, nn_object *kwargs)
{
    return binary("zeta", args, kwargs, nn_special_zeta);
}

static nn_object *f_polygamma(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t n = 0;
    if (repl_parse_args("polygamma", "n, input, *, out=", args, kwargs, a) ||
        repl_arg_int("polygamma", "n", 1, a[0], &n) || repl_arg_tensor("polygamma", "input", 2, a[1], &x) ||
        no_out("polygamma", a[2]))
        return NULL;
    return T(nn_polygamma(n, x));
}

static nn_object *f_mvlgamma(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t p = 0;
    if (repl_parse_args("mvlgamma", "input, p, *, out=", args, kwargs, a) ||
        repl_arg_tensor("mvlgamma", "input", 1, a[0], &x) || repl_arg_int("mvlgamma", "p", 2, a[1], &p) ||
        no_out("mvlgamma", a[2]))
        return NULL;
    return T(nn_mvlgamma(x, p));
}

/* torch._standard_gamma(input, generator=None), torch._sample_dirichlet(input, generator=None):
   draws from generator= or the default generator */
static nn_object *sampler(const char *f, nn_object *args, nn_object *kwargs, nn_tensor *(*op)(nn_tensor *))
{
    ARGS(2);
    nn_tensor *x = NULL, *r = NULL;
    if (repl_parse_args(f, "input, generator=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x))
        return NULL;
    REPL_WITH_GENERATOR(f, a[1], r = op(x));
    return T(r);
}

/* torch._standard_gamma_grad(self, output), torch._dirichlet_grad(x, alpha, total) */
static nn_object *f__standard_gamma_grad(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *s = NULL, *o = NULL;
    if (repl_parse_args("_standard_gamma_grad", "input, output", args, kwargs, a) ||
        repl_arg_tensor("_standard_gamma_grad", "input", 1, a[0], &s) ||
        repl_arg_tensor("_standard_gamma_grad", "output", 2, a[1], &o))
        return NULL;
    return T(nn_standard_gamma_grad(s, o));
}

static nn_object *f__dirichlet_grad(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *al = NULL, *tot = NULL;
    if (repl_parse_args("_dirichlet_grad", "x, alpha, total", args, kwargs, a) ||
        repl_arg_tensor("_dirichlet_grad", "x", 1, a[0], &x) || repl_arg_tensor("_dirichlet_grad", "alpha", 2, a[1], &al) ||
        repl_arg_tensor("_dirichlet_grad", "total", 3, a[2], &tot))
        return NULL;
    return T(nn_dirichlet_grad(x, al, tot));
}

static nn_object *f__standard_gamma(void *ud, nn_object *args, nn_object *kwargs)
{
    return sampler("_standard_gamma", args, kwargs, nn_standard_gamma);
}

static nn_object *f__sample_dirichlet(void *ud, nn_object *args, nn_object *kwargs)
{
    return sampler("_sample_dirichlet", args, kwargs, nn_sample_dirichlet);
}

static nn_object *f_binomial(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *c = NULL, *p = NULL;
    if (repl_parse_args("binomial", "count, prob, generator=", args, kwargs, a) ||
        repl_arg_tensor("binomial", "count", 1, a[0], &c) || repl_arg_tensor("binomial", "prob", 2, a[1], &p))
        return NULL;
    nn_tensor *r = NULL;
    REPL_WITH_GENERATOR("binomial", a[2], r = nn_binomial(c, p));
    return T(r);
}

static const repl_function_def special_functions[] = {
    {"binomial", f_binomial,
     "binomial(count, prob, generator=None) -> Tensor\n"
     "Draws a binomial sample for each count and probability (ATen's inversion and BTRS samplers)."},
    {"_standard_gamma", f__standard_gamma,
     "_standard_gamma(input, generator=None) -> Tensor\n"
     "Draws a standard gamma sample at each concentration of input (torch.distributions.Gamma)."},
    {"_sample_dirichlet", f__sample_dirichlet,
     "_sample_dirichlet(input, generator=None) -> Tensor\n"
     "Draws a Dirichlet sample for each concentration vector in the last dim of input (torch.distributions.Dirichlet)."},
    {"_standard_gamma_grad", f__standard_gamma_grad,
     "_standard_gamma_grad(self, output) -> Tensor\n"
     "d output / d self for standard gamma draws output at concentrations self (Gamma.rsample's gradient)."},
    {"_dirichlet_grad", f__dirichlet_grad,
     "_dirichlet_grad(x, alpha, total) -> Tensor\n"
     "The reparameterized gradient of Beta(alpha, total - alpha) draws x (Dirichlet.rsample's gradient)."},
    {"lgamma", f_lgamma,
     "lgamma(input, *, out=None) -> Tensor\n"
     "Computes the natural logarithm of the absolute value of the gamma function on input."},
    {"digamma", f_digamma,
     "digamma(input, *, out=None) -> Tensor\n"
     "Computes the logarithmic derivative of the gamma function on input."},
    {"polygamma", f_polygamma,
     "polygamma(n, input, *, out=None) -> Tensor\n"
     "Computes the n-th derivative of the digamma function on input."},
    {"mvlgamma", f_mvlgamma,
     "mvlgamma(input, p, *, out=None) -> Tensor\n"
     "Computes the multivariate log-gamma function with dimension p element-wise."},
    {"i0", f_i0,
     "i0(input, *, out=None) -> Tensor\n"
     "Computes the zeroth order modified Bessel function of the first kind for each element of input."},
    {"sinc", f_sinc,
     "sinc(input, *, out=None) -> Tensor\n"
     "Computes the normalized sinc of input."},
    {"_special_i0e", f__special_i0e, "_special_i0e(input, *, out=None) -> Tensor\nComputes the exponentially scaled zeroth order modified Bessel function of the first kind (torch.special.i0e)."},
    {"_special_i1", f__special_i1, "_special_i1(input, *, out=None) -> Tensor\nComputes the first order modified Bessel function of the first kind (torch.special.i1)."},
    {"_special_i1e", f__special_i1e, "_special_i1e(input, *, out=None) -> Tensor\nComputes the exponentially scaled first order modified Bessel function of the first kind (torch.special.i1e)."},
    {"_special_ndtr", f__special_ndtr, "_special_ndtr(input, *, out=None) -> Tensor\nComputes the area under the standard Gaussian probability density function, integrated from minus infinity to input (torch.special.ndtr)."},
    {"_special_ndtri", f__special_ndtri, "_special_ndtri(input, *, out=None) -> Tensor\nComputes the argument x for which the area under the Gaussian probability density function (integrated from minus infinity to x) is equal to input (torch.special.ndtri)."},
    {"_special_log_ndtr", f__special_log_ndtr, "_special_log_ndtr(input, *, out=None) -> Tensor\nComputes the log of the area under the standard Gaussian probability density function, integrated from minus infinity to input (torch.special.log_ndtr)."},
    {"_special_erfcx", f__special_erfcx, "_special_erfcx(input, *, out=None) -> Tensor\nComputes the scaled complementary error function exp(input^2) * erfc(input) (torch.special.erfcx)."},
    {"_special_entr", f__special_entr, "_special_entr(input, *, out=None) -> Tensor\nComputes the entropy -input * ln(input) elementwise (torch.special.entr)."},
    {"_special_xlog1py", f__special_xlog1py, "_special_xlog1py(input, other, *, out=None) -> Tensor\nComputes input * log1p(other), 0 where input is 0 (torch.special.xlog1py)."},
    {"_special_zeta", f__special_zeta, "_special_zeta(input, other, *, out=None) -> Tensor\nComputes the Hurwitz zeta function of input and other (torch.special.zeta)."},
};

/* ------------------------------------------------------------- methods */

static nn_tensor *with_order(nn_tensor *x, int64_t n) { return nn_polygamma(n, x); }
static nn_tensor *with_p(nn_tensor *x, int64_t p) { return nn_mvlgamma(x, p); }
static nn_tensor *lgamma1(nn_tensor *x, int64_t unused) { return nn_lgamma(x); }
static nn_tensor *digamma1(nn_tensor *x, int64_t unused) { return nn_digamma(x); }
static nn_tensor *i01(nn_tensor *x, int64_t unused) { return nn_i0(x); }
static nn_tensor *sinc1(nn_tensor *x, int64_t unused) { return nn_sinc(x); }

static nn_object *inplace(nn_object *self, nn_tensor *(*fn)(nn_tensor *, int64_t), int64_t arg)
{
    return nn_special_inplace(NN_TENSOR(self), fn, arg) < 0 ? NULL : nn_retain(self);
}

#define INPLACE0(name, fn)                                                                                             \
    static nn_object *m_##name(nn_object *self, nn_object *args, nn_object *kwargs)                                    \
    {                                                                                                                  \
        if (repl_parse_args(#name, "", args, kwargs, NULL)) return NULL;                                               \
        return inplace(self, fn, 0);                                                                                   \
    }
INPLACE0(lgamma_, lgamma1)
INPLACE0(digamma_, digamma1)
INPLACE0(i0_, i01)
INPLACE0(sinc_, sinc1)

/* x.polygamma(n) and x.polygamma_(n): the order first, as PyTorch's methods */
static nn_object *m_polygamma(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    int64_t n = 0;
    if (repl_parse_args("polygamma", "n", args, kwargs, a) || repl_arg_int("polygamma", "n", 1, a[0], &n)) return NULL;
    return T(nn_polygamma(n, NN_TENSOR(self)));
}

static nn_object *m_polygamma_(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    int64_t n = 0;
    if (repl_parse_args("polygamma_", "n", args, kwargs, a) || repl_arg_int("polygamma_", "n", 1, a[0], &n))
        return NULL;
    return inplace(self, with_order, n);
}

static nn_object *m_mvlgamma_(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    int64_t p = 0;
    if (repl_parse_args("mvlgamma_", "p", args, kwargs, a) || repl_arg_int("mvlgamma_", "p", 1, a[0], &p))
        return NULL;
    return inplace(self, with_p, p);
}

static const repl_method_def special_methods[] = {
    {"polygamma", m_polygamma, "polygamma(n) -> Tensor\nSee torch.polygamma()."},
    {"polygamma_", m_polygamma_, "polygamma_(n) -> Tensor\nIn-place version of polygamma()."},
    {"mvlgamma_", m_mvlgamma_, "mvlgamma_(p) -> Tensor\nIn-place version of mvlgamma()."},
    {"lgamma_", m_lgamma_, "lgamma_() -> Tensor\nIn-place version of lgamma()."},
    {"digamma_", m_digamma_, "digamma_() -> Tensor\nIn-place version of digamma()."},
    {"i0_", m_i0_, "i0_() -> Tensor\nIn-place version of i0()."},
    {"sinc_", m_sinc_, "sinc_() -> Tensor\nIn-place version of sinc()."},
    {NULL, NULL, NULL},
};

int repl_special_add_functions(nn_object *torch)
{
    return repl_namespace_add_fns(torch, special_functions, sizeof special_functions / sizeof special_functions[0]);
}

/* the methods: x.lgamma(), x.mvlgamma(p) ... (the torch functions bound to x, but for
   polygamma, whose order comes first) and the in-place forms */
nn_object *repl_special_method(nn_tensor *t, const char *name)
{
    nn_object *m = repl_method_lookup(special_methods, name, &t->ob);
    if (m || nn_error_current() != NN_OK) return m;
    for (size_t i = 0; i < sizeof special_functions / sizeof special_functions[0]; i++)
        if (name[0] != '_' && strcmp(name, "binomial") != 0 && !strcmp(special_functions[i].name, name))
            return repl_bound_function(&special_functions[i], &t->ob);
    return NULL;
}
