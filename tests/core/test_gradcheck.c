/*
 * test_gradcheck.c — one harness over the whole op list (core/ops.def):
 * every op must have a case, and every case's analytic gradient (our
 * backward) must match central finite differences in float64.
 *
 * Cases live per source file in tests/core/gradcheck_<area>.c, included
 * below; each is a function running the op on float64 inputs.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_int.h"
#include "nn_losses.h"
#include "nn_mod_more.h"
#include "nn_conv3d.h"

typedef struct gc_case {
    nn_op_id op;                      /* the op the output's grad_fn must be */
    const char *name;
    nn_tensor *(*fn)(nn_tensor **in); /* runs the op; returns a new reference */
    int n_in;                         /* differentiable float64 inputs */
    int ndim[3];
    int64_t sizes[3][5];
    double lo, hi;                    /* input values drawn from [lo, hi] */
    double tol;                       /* 0: the default 1e-6 */
} gc_case;
#define GC_END {.fn = NULL}

#include "gradcheck_binary.c"
#include "gradcheck_view.c"
#include "gradcheck_reduce.c"
#include "gradcheck_unary.c"
#include "gradcheck_matmul.c"
#include "gradcheck_nnfunc.c"
#include "gradcheck_module.c"
#include "gradcheck_activations.c"
#include "gradcheck_layers.c"
#include "gradcheck_pool.c"
#include "gradcheck_mathfn.c"
#include "gradcheck_select.c"
#include "gradcheck_act_more.c"
#include "gradcheck_custom.c"
#include "gradcheck_losses.c"
#include "gradcheck_select_more.c"
#include "gradcheck_mod_more.c"
#include "gradcheck_norm_conv.c"
#include "gradcheck_ops_extra.c"
#include "gradcheck_resample.c"
#include "gradcheck_special.c"
#include "gradcheck_conv3d.c"
#include "gradcheck_misc_ops.c"
#include "gradcheck_complex.c"

static const gc_case *const areas[] = {cases_binary, cases_view, cases_reduce, cases_unary, cases_matmul, cases_nnfunc, cases_module, cases_activations, cases_layers, cases_pool, cases_mathfn, cases_select, cases_act_more,
                                         cases_losses, cases_custom, cases_select_more, cases_mod_more, cases_norm_conv, cases_resample,
                                         cases_ops_extra, cases_special, cases_conv3d, cases_misc_ops, cases_complex};
#define N_AREAS (sizeof areas / sizeof areas[0])

/* Ops PyTorch 1.13 records without a derivative: their case checks that backward
   raises PyTorch's error and leaves the inputs without .grad. */
static const struct {
    nn_op_id op;
    const char *error;
} undifferentiable[] = {
    {NN_OP_floor_divide, "derivative for aten::floor_divide is not implemented"},
    {NN_OP_aminmax, "derivative for aten::aminmax is not implemented"},
    {NN_OP_scatter_reduce, "derivative for aten::scatter is not implemented"},
    {NN_OP_sample_dirichlet, "derivative for aten::_sample_dirichlet is not implemented"},
    {NN_OP_heaviside, "derivative for aten::heaviside is not implemented"},
};

static const char *backward_error(nn_op_id op)
{
    for (size_t i = 0; i < sizeof undifferentiable / sizeof undifferentiable[0]; i++)
        if (undifferentiable[i].op == op) return undifferentiable[i].error;
    return NULL;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double uniform(double lo, double hi)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return lo + (hi - lo) * (double)(rng_state >> 11) / 9007199254740992.0;
}

static nn_tensor *random_tensor(int ndim, const int64_t *sizes, double lo, double hi)
{
    nn_tensor *t = TU_OK(nn_empty(ndim, sizes, NN_FLOAT64));
    double *d = t->storage->data;
    for (int64_t i = 0; i < nn_numel(t); i++) d[i] = uniform(lo, hi);
    return t;
}

/* out as float64: a complex one through view_as_real (the loss sees both parts) */
static nn_tensor *real64(nn_tensor *out)
{
    if (!nn_dtype_is_complex(out->dtype)) return TU_OK(nn_to_dtype(out, NN_FLOAT64));
    nn_tensor *r = TU_OK(nn_view_as_real(out)), *o64 = TU_OK(nn_to_dtype(r, NN_FLOAT64));
    NN_RELEASE(r);
    return o64;
}

/* sum(fn(in) * w) without autograd */
static double loss_value(const gc_case *c, nn_tensor **in, nn_tensor *w)
{
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *out = TU_OK(c->fn(in));
    nn_tensor *o64 = real64(out);
    nn_tensor *prod = TU_OK(nn_mul(o64, w));
    nn_tensor *s = TU_OK(nn_sum(prod, 0, NULL, false));
    double v;
    tu_check(nn_item(s, &v));
    nn_set_grad_enabled(prev);
    NN_RELEASE(out); NN_RELEASE(o64); NN_RELEASE(prod); NN_RELEASE(s);
    return v;
}

static void check_case(const gc_case *c)
{
    nn_tensor *in[3] = {NULL};
    for (int k = 0; k < c->n_in; k++) {
        in[k] = random_tensor(c->ndim[k], c->sizes[k], c->lo, c->hi);
        tu_check(nn_set_requires_grad(in[k], true));
    }
    nn_tensor *out = c->fn(in);
    if (!out) fail_msg("%s: %s", c->name, nn_error_message());
    if (!out->grad_fn || out->grad_fn->op != c->op)
        fail_msg("%s: grad_fn is %s, expected %s", c->name, out->grad_fn ? nn_grad_fn_name(out) : "none",
                 nn_op_table[c->op].grad_name);
    nn_tensor *o64 = real64(out);
    nn_tensor *w = random_tensor(o64->ndim, o64->sizes, -1, 1);
    nn_tensor *prod = TU_OK(nn_mul(o64, w));
    nn_tensor *loss = TU_OK(nn_sum(prod, 0, NULL, false));
    const char *error = backward_error(c->op);
    if (error) {
        assert_int_equal(nn_backward(loss, NULL, false, false), -1);
        tu_assert_error(NN_ERR_RUNTIME, error);
        for (int k = 0; k < c->n_in; k++) assert_null(in[k]->grad);
        for (int k = 0; k < c->n_in; k++) NN_RELEASE(in[k]);
        NN_RELEASE(out); NN_RELEASE(w); NN_RELEASE(o64); NN_RELEASE(prod); NN_RELEASE(loss);
        return;
    }
    if (nn_backward(loss, NULL, false, false) < 0) fail_msg("%s: backward: %s", c->name, nn_error_message());
    double tol = c->tol > 0 ? c->tol : 1e-6, eps = 1e-6;
    for (int k = 0; k < c->n_in; k++) {
        if (!in[k]->grad) fail_msg("%s: input %d got no gradient", c->name, k);
        assert_int_equal(in[k]->grad->dtype, NN_FLOAT64);
        nn_tensor *g = TU_OK(nn_contiguous(in[k]->grad));
        const double *analytic = g->storage->data;
        analytic += g->offset;
        double *x = in[k]->storage->data;
        for (int64_t j = 0; j < nn_numel(in[k]); j++) {
            double saved = x[j];
            x[j] = saved + eps;
            double plus = loss_value(c, in, w);
            x[j] = saved - eps;
            double minus = loss_value(c, in, w);
            x[j] = saved;
            double numeric = (plus - minus) / (2 * eps);
            if (fabs(numeric - analytic[j]) > tol * (1 + fabs(numeric)) * 10 + 1e-7)
                fail_msg("%s: input %d element %lld: analytic %.10g, numeric %.10g", c->name, k, (long long)j,
                         analytic[j], numeric);
        }
        NN_RELEASE(g);
    }
    for (int k = 0; k < c->n_in; k++) NN_RELEASE(in[k]);
    NN_RELEASE(out); NN_RELEASE(w); NN_RELEASE(o64); NN_RELEASE(prod); NN_RELEASE(loss);
}

/* _standard_gamma's derivative is the implicit reparameterization gradient, not the
   sampler's pathwise one, so finite differences of a seeded draw do not give it:
   test_standard_gamma_backward checks it instead (and tests/scripts/
   distributions_rsample_expand.py checks its values against PyTorch's). */
static const nn_op_id checked_apart[] = {NN_OP_standard_gamma};

static void test_standard_gamma_backward(void **state)
{
    (void)state;
    for (int dt = 0; dt < 2; dt++) {
        nn_tensor *a64 = random_tensor(1, (const int64_t[]){6}, 0.2, 12);
        nn_tensor *alpha = TU_OK(nn_to_dtype(a64, dt ? NN_FLOAT64 : NN_FLOAT32));
        tu_check(nn_set_requires_grad(alpha, true));
        nn_tensor *x = TU_OK(nn_standard_gamma(alpha));
        assert_int_equal(x->grad_fn->op, NN_OP_standard_gamma);
        nn_tensor *w64 = random_tensor(1, (const int64_t[]){6}, -1, 1);
        nn_tensor *w = TU_OK(nn_to_dtype(w64, alpha->dtype));
        nn_tensor *prod = TU_OK(nn_mul(x, w));
        nn_tensor *loss = TU_OK(nn_sum(prod, 0, NULL, false));
        tu_check(nn_backward(loss, NULL, false, false));
        nn_tensor *d = TU_OK(nn_standard_gamma_grad(alpha, x));
        nn_tensor *want = TU_OK(nn_mul(w, d));
        for (int64_t i = 0; i < 6; i++) {
            double g = nn_get_double(alpha->grad, &i), e = nn_get_double(want, &i);
            assert_true(g == e && isfinite(g) && (g > 0) == (nn_get_double(w, &i) > 0));
        }
        NN_RELEASE(a64); NN_RELEASE(alpha); NN_RELEASE(x); NN_RELEASE(w64); NN_RELEASE(w); NN_RELEASE(prod);
        NN_RELEASE(loss); NN_RELEASE(d); NN_RELEASE(want);
    }
}

static void test_every_op_has_a_case(void **state)
{
    (void)state;
    char missing[4096] = "";
    for (int op = 0; op < NN_OP_COUNT; op++) {
        bool found = false;
        for (size_t k = 0; k < sizeof checked_apart / sizeof checked_apart[0]; k++) found |= (int)checked_apart[k] == op;
        for (size_t a = 0; a < N_AREAS && !found; a++)
            for (const gc_case *c = areas[a]; c->fn && !found; c++) found = (int)c->op == op;
        if (!found) snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " %s", nn_op_table[op].name);
    }
    if (missing[0]) fail_msg("ops without a gradcheck case:%s", missing);
}

static void test_gradients_match_finite_differences(void **state)
{
    (void)state;
    int n = 0;
    for (size_t a = 0; a < N_AREAS; a++)
        for (const gc_case *c = areas[a]; c->fn; c++, n++) check_case(c);
    print_message("checked %d cases\n", n);
    assert_true(n > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_op_has_a_case),
        cmocka_unit_test(test_standard_gamma_backward),
        cmocka_unit_test(test_gradients_match_finite_differences),
    };
    return cmocka_run_group_tests_name("gradcheck", tests, NULL, NULL);
}
