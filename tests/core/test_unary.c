/*
 * test_unary.c — core/unary.c against PyTorch 1.13: values and input
 * gradients in fixtures/unary.txt (written by fixtures/gen_unary.py) for
 * contiguous, strided and transposed inputs in every dtype, result dtypes,
 * grad_fn names, PyTorch's error messages, inputs left unchanged by a failed
 * op, double backward with create_graph, and the split over threads.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* ------------------------------------------------------------- the fixture */

typedef struct fx_values {
    int64_t n;
    double *v; /* malloc'd; NULL when the case has no such line */
} fx_values;

typedef struct fx_case {
    char name[64], op[32], layout[16];
    nn_dtype dtype, out_dtype;
    double rtol, atol;
    int ndim;
    int64_t sizes[NN_MAX_DIMS];
    int n_params;
    double params[4];
    fx_values x, y, w, gx, weight, gw;
} fx_case;


static char *token(char **cursor)
{
    char *t = strtok_r(NULL, " \t\n", cursor);
    if (!t) fail_msg("fixture: unexpected end of file");
    return t;
}

static void free_case(fx_case *c)
{
    fx_values *all[] = {&c->x, &c->y, &c->w, &c->gx, &c->weight, &c->gw};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->v);
}

/* Reads the next case at *cursor (strtok_r state); false at the end. */
static bool next_case(char **cursor, fx_case *c)
{
    memset(c, 0, sizeof *c);
    char *t;
    while ((t = strtok_r(NULL, " \t\n", cursor)) != NULL) {
        if (t[0] == '#') { /* a comment runs to the end of its line */
            if (**cursor != '\0' && t[strlen(t) - 1] != '\n') strtok_r(NULL, "\n", cursor);
            continue;
        }
        if (strcmp(t, "case") == 0) break;
    }
    if (!t) return false;
    snprintf(c->name, sizeof c->name, "%s", token(cursor));
    snprintf(c->op, sizeof c->op, "%s", token(cursor));
    c->dtype = tu_dtype(token(cursor));
    c->out_dtype = tu_dtype(token(cursor));
    snprintf(c->layout, sizeof c->layout, "%s", token(cursor));
    c->rtol = strtod(token(cursor), NULL);
    c->atol = strtod(token(cursor), NULL);
    c->ndim = atoi(token(cursor));
    for (int d = 0; d < c->ndim; d++) c->sizes[d] = atoll(token(cursor));
    c->n_params = atoi(token(cursor));
    for (int i = 0; i < c->n_params; i++) c->params[i] = strtod(token(cursor), NULL);
    for (;;) {
        char *tag = token(cursor);
        if (strcmp(tag, "end") == 0) break;
        fx_values *fv = strcmp(tag, "x") == 0        ? &c->x
                        : strcmp(tag, "y") == 0      ? &c->y
                        : strcmp(tag, "w") == 0      ? &c->w
                        : strcmp(tag, "gx") == 0     ? &c->gx
                        : strcmp(tag, "weight") == 0 ? &c->weight
                        : strcmp(tag, "gw") == 0     ? &c->gw
                                                     : NULL;
        if (!fv) fail_msg("fixture: %s: unknown line %s", c->name, tag);
        fv->n = atoll(token(cursor));
        fv->v = malloc(sizeof(double) * (size_t)(fv->n ? fv->n : 1));
        for (int64_t i = 0; i < fv->n; i++) fv->v[i] = strtod(token(cursor), NULL);
    }
    return true;
}

/* The input as the case lays it out: contiguous, every other element of a
   tensor twice as long in the last dim, or the transpose of a contiguous one. */
static nn_tensor *make_input(const fx_case *c)
{
    if (strcmp(c->layout, "contig") == 0) return tu_tensor(c->dtype, c->ndim, c->sizes, c->x.v);
    if (strcmp(c->layout, "step2") == 0) {
        int64_t sizes[NN_MAX_DIMS], n = c->x.n * 2, last = c->sizes[c->ndim - 1];
        memcpy(sizes, c->sizes, sizeof sizes);
        sizes[c->ndim - 1] *= 2;
        double *v = malloc(sizeof(double) * (size_t)n);
        for (int64_t i = 0; i < c->x.n; i++) {
            int64_t row = i / last, col = i % last;
            v[row * 2 * last + 2 * col] = c->x.v[i];
            v[row * 2 * last + 2 * col + 1] = 0.125;
        }
        nn_tensor *base = tu_tensor(c->dtype, c->ndim, sizes, v);
        free(v);
        nn_tensor *x = TU_OK(nn_slice(base, c->ndim - 1, 0, sizes[c->ndim - 1], 2));
        NN_RELEASE(base);
        return x;
    }
    if (strcmp(c->layout, "t") == 0) {
        int64_t a = c->sizes[0], b = c->sizes[1];
        double *v = malloc(sizeof(double) * (size_t)(a * b));
        for (int64_t i = 0; i < a; i++)
            for (int64_t j = 0; j < b; j++) v[j * a + i] = c->x.v[i * b + j];
        nn_tensor *base = tu_tensor(c->dtype, 2, TU_SHAPE(b, a), v);
        free(v);
        nn_tensor *x = TU_OK(nn_transpose(base, 0, 1));
        NN_RELEASE(base);
        assert_false(nn_is_contiguous(x));
        return x;
    }
    fail_msg("fixture: unknown layout %s", c->layout);
    return NULL;
}

static nn_tensor *run_op(const fx_case *c, nn_tensor *x, nn_tensor *weight)
{
    const char *op = c->op;
    const double *p = c->params;
    if (strcmp(op, "neg") == 0) return nn_neg(x);
    if (strcmp(op, "exp") == 0) return nn_exp(x);
    if (strcmp(op, "log") == 0) return nn_log(x);
    if (strcmp(op, "sqrt") == 0) return nn_sqrt(x);
    if (strcmp(op, "abs") == 0) return nn_abs(x);
    if (strcmp(op, "tanh") == 0) return nn_tanh(x);
    if (strcmp(op, "sigmoid") == 0) return nn_sigmoid(x);
    if (strcmp(op, "relu") == 0) return nn_relu(x);
    if (strcmp(op, "gelu") == 0) return nn_gelu(x, NN_GELU_NONE);
    if (strcmp(op, "gelu_tanh") == 0) return nn_gelu(x, NN_GELU_TANH);
    if (strcmp(op, "leaky_relu") == 0) return nn_leaky_relu(x, p[0]);
    if (strcmp(op, "elu") == 0) return nn_elu(x, p[0]);
    if (strcmp(op, "silu") == 0) return nn_silu(x);
    if (strcmp(op, "softplus") == 0) return nn_softplus(x, p[0], p[1]);
    if (strcmp(op, "threshold") == 0) return nn_threshold(x, p[0], p[1]);
    if (strcmp(op, "clamp") == 0) return nn_clamp(x, p[0], true, p[1], true);
    if (strcmp(op, "clamp_min") == 0) return nn_clamp(x, p[0], true, 0, false);
    if (strcmp(op, "clamp_max") == 0) return nn_clamp(x, 0, false, p[0], true);
    if (strcmp(op, "prelu") == 0) return nn_prelu(x, weight);
    fail_msg("fixture: unknown op %s", op);
    return NULL;
}

/* Agreement statistics of float32 results, per op, for the summary. */
typedef struct stats {
    char op[48];
    int64_t n, exact;
    int64_t max_ulp;
    double max_rel;
} stats;

static stats all_stats[64];
static int n_stats;

static stats *stats_for(const char *op)
{
    for (int i = 0; i < n_stats; i++)
        if (strcmp(all_stats[i].op, op) == 0) return &all_stats[i];
    stats *s = &all_stats[n_stats++];
    memset(s, 0, sizeof *s);
    snprintf(s->op, sizeof s->op, "%s", op);
    return s;
}

static int64_t ulp_distance(float a, float b)
{
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    int64_t x = ia < 0 ? (int64_t)INT32_MIN - ia : ia, y = ib < 0 ? (int64_t)INT32_MIN - ib : ib;
    return llabs(x - y);
}

/* Compares t with want (n values) within the case's tolerance. */
static void check_values(const fx_case *c, const char *what, const nn_tensor *t, const fx_values *want, stats *st)
{
    if (!t) fail_msg("%s: %s missing", c->name, what);
    if (nn_numel(t) != want->n) fail_msg("%s: %s has %lld elements, want %lld", c->name, what, (long long)nn_numel(t), (long long)want->n);
    double *got = malloc(sizeof(double) * (size_t)(want->n ? want->n : 1));
    nn_to_doubles(t, got);
    bool single = t->dtype == NN_FLOAT32 || t->dtype == NN_BFLOAT16;
    for (int64_t i = 0; i < want->n; i++) {
        /* the fixture's 9 digits name a float32 (or bfloat16) value exactly once rounded */
        double g = got[i], w = single ? (double)(float)want->v[i] : want->v[i];
        bool same = (isnan(g) && isnan(w)) || g == w;
        if (st && t->dtype == NN_FLOAT32) {
            st->n++;
            if (same) st->exact++;
            else if (isfinite(g) && isfinite(w)) {
                int64_t u = ulp_distance((float)g, (float)w);
                if (u > st->max_ulp) st->max_ulp = u;
                double rel = fabs(g - w) / fmax(fabs(w), 1e-30);
                if (rel > st->max_rel) st->max_rel = rel;
            }
        }
        if (!same && !(fabs(g - w) <= c->atol + c->rtol * fabs(w))) {
            free(got);
            fail_msg("%s: %s[%lld] = %.9g, PyTorch %.9g (x = %.9g)", c->name, what, (long long)i, g, w,
                     i < c->x.n ? c->x.v[i] : NAN);
        }
    }
    free(got);
}

static void run_case(const fx_case *c)
{
    nn_tensor *x = make_input(c), *weight = NULL;
    bool grads = c->gx.v != NULL;
    if (grads) tu_check(nn_set_requires_grad(x, true));
    if (c->weight.v) {
        weight = tu_tensor(c->dtype, 1, TU_SHAPE(c->weight.n), c->weight.v);
        if (grads) tu_check(nn_set_requires_grad(weight, true));
    }
    nn_tensor *y = run_op(c, x, weight);
    if (!y) fail_msg("%s: %s", c->name, nn_error_message());
    assert_int_equal(y->dtype, c->out_dtype);
    assert_int_equal(y->ndim, c->ndim);
    for (int d = 0; d < c->ndim; d++) assert_int_equal(y->sizes[d], c->sizes[d]);
    char stat_name[48];
    snprintf(stat_name, sizeof stat_name, "%s", c->op);
    check_values(c, "y", y, &c->y, stats_for(stat_name));
    if (grads) {
        nn_tensor *w = tu_tensor(y->dtype, c->ndim, c->sizes, c->w.v);
        if (nn_backward(y, w, false, false) < 0) fail_msg("%s: backward: %s", c->name, nn_error_message());
        snprintf(stat_name, sizeof stat_name, "%s grad", c->op);
        check_values(c, "x.grad", x->grad, &c->gx, stats_for(stat_name));
        if (weight) check_values(c, "weight.grad", weight->grad, &c->gw, stats_for("prelu weight grad"));
        NN_RELEASE(w);
    }
    NN_RELEASE(x);
    NN_RELEASE(weight);
    NN_RELEASE(y);
}

static void test_fixture(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/unary.txt");
    char *cursor = NULL;
    strtok_r(text, "\n", &cursor); /* the header comment */
    fx_case c;
    int n = 0;
    while (next_case(&cursor, &c)) {
        run_case(&c);
        free_case(&c);
        n++;
    }
    free(text);
    assert_true(n > 100);
    print_message("%d cases; float32 agreement with PyTorch (bit-exact share, worst ulp, worst relative):\n", n);
    for (int i = 0; i < n_stats; i++)
        print_message("  %-22s %6.2f%%  %6lld  %.2g\n", all_stats[i].op,
                      100.0 * (double)all_stats[i].exact / (double)(all_stats[i].n ? all_stats[i].n : 1),
                      (long long)all_stats[i].max_ulp, all_stats[i].max_rel);
}

/* ------------------------------------------------------------------ dtypes */

static void test_result_dtypes(void **state)
{
    (void)state;
    nn_tensor *i64 = tu_tensor(NN_INT64, 1, TU_SHAPE(3), TU_VALUES(-2, 0, 3));
    nn_tensor *i32 = tu_tensor(NN_INT32, 1, TU_SHAPE(3), TU_VALUES(-2, 0, 3));
    nn_tensor *f16 = tu_tensor(NN_FLOAT16, 1, TU_SHAPE(2), TU_VALUES(1, -2));
    nn_tensor *bf = tu_tensor(NN_BFLOAT16, 1, TU_SHAPE(2), TU_VALUES(1, -2));
    nn_tensor *r;
    r = TU_OK(nn_exp(i64)); assert_int_equal(r->dtype, NN_FLOAT32); NN_RELEASE(r);
    r = TU_OK(nn_tanh(i32)); assert_int_equal(r->dtype, NN_FLOAT32); NN_RELEASE(r);
    r = TU_OK(nn_neg(i64)); assert_int_equal(r->dtype, NN_INT64);
    tu_assert_values(r, 1, TU_SHAPE(3), TU_VALUES(2, 0, -3), 0); NN_RELEASE(r);
    r = TU_OK(nn_abs(i32)); assert_int_equal(r->dtype, NN_INT32); NN_RELEASE(r);
    r = TU_OK(nn_relu(i32)); assert_int_equal(r->dtype, NN_INT32);
    tu_assert_values(r, 1, TU_SHAPE(3), TU_VALUES(0, 0, 3), 0); NN_RELEASE(r);
    r = TU_OK(nn_clamp(i64, 0, true, 0, false)); assert_int_equal(r->dtype, NN_INT64); NN_RELEASE(r);
    r = TU_OK(nn_clamp(i64, 0.5, true, 0, false)); assert_int_equal(r->dtype, NN_FLOAT32); NN_RELEASE(r);
    /* float16: neg and abs work (exactly), PyTorch 1.13 has no CPU kernels for the rest */
    r = TU_OK(nn_neg(f16)); assert_int_equal(r->dtype, NN_FLOAT16);
    tu_assert_values(r, 1, TU_SHAPE(2), TU_VALUES(-1, 2), 0); NN_RELEASE(r);
    r = TU_OK(nn_abs(f16)); tu_assert_values(r, 1, TU_SHAPE(2), TU_VALUES(1, 2), 0); NN_RELEASE(r);
    assert_null(nn_exp(f16)); tu_assert_error(NN_ERR_RUNTIME, "\"exp_vml_cpu\" not implemented for 'Half'");
    assert_null(nn_sigmoid(f16)); tu_assert_error(NN_ERR_RUNTIME, "\"sigmoid_cpu\" not implemented for 'Half'");
    assert_null(nn_relu(f16)); tu_assert_error(NN_ERR_RUNTIME, "\"clamp_min_cpu\" not implemented for 'Half'");
    assert_null(nn_gelu(f16, NN_GELU_NONE)); tu_assert_error(NN_ERR_RUNTIME, "\"GeluKernelImpl\" not implemented for 'Half'");
    assert_null(nn_clamp(f16, 0, false, 1.5, true));
    tu_assert_error(NN_ERR_RUNTIME, "\"clamp_max_scalar_cpu\" not implemented for 'Half'");
    /* bfloat16 keeps its dtype. PyTorch 1.13's gelu(tensor([1., -2.]).bfloat16()): with
       oneDNN's bfloat16 (an AVX-512 CPU) its float32 gelu rounded once; elsewhere (an AVX2
       CPU, or oneDNN capped, as tests/run.sh caps it) ATen's loop, rounding every step */
    r = TU_OK(nn_gelu(bf, NN_GELU_NONE)); assert_int_equal(r->dtype, NN_BFLOAT16);
    if (nn_onednn_bf16())
        tu_assert_values(r, 1, TU_SHAPE(2), TU_VALUES(0.83984375, -0.04541015625), 0);
    else
        tu_assert_values(r, 1, TU_SHAPE(2), TU_VALUES(0.84375, -0.046875), 0);
    NN_RELEASE(r);
    NN_RELEASE(i64); NN_RELEASE(i32); NN_RELEASE(f16); NN_RELEASE(bf);
}

static void test_integer_and_bool_errors(void **state)
{
    (void)state;
    nn_tensor *b = tu_tensor(NN_BOOL, 1, TU_SHAPE(2), TU_VALUES(1, 0));
    nn_tensor *i = tu_tensor(NN_INT64, 1, TU_SHAPE(2), TU_VALUES(1, -2));
    nn_tensor *i32 = tu_tensor(NN_INT32, 1, TU_SHAPE(2), TU_VALUES(1, -2));
    nn_tensor *f = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1, -2));
    assert_null(nn_neg(b));
    tu_assert_error(NN_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                                    "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    assert_null(nn_abs(b)); tu_assert_error(NN_ERR_RUNTIME, "\"abs_cpu\" not implemented for 'Bool'");
    assert_null(nn_relu(b)); tu_assert_error(NN_ERR_RUNTIME, "Boolean inputs not supported for relu");
    assert_null(nn_gelu(i, NN_GELU_TANH)); tu_assert_error(NN_ERR_RUNTIME, "\"GeluKernelImpl\" not implemented for 'Long'");
    assert_null(nn_leaky_relu(i32, 0.1)); tu_assert_error(NN_ERR_RUNTIME, "\"leaky_relu_cpu\" not implemented for 'Int'");
    assert_null(nn_elu(b, 1)); tu_assert_error(NN_ERR_RUNTIME, "\"elu_cpu\" not implemented for 'Bool'");
    assert_null(nn_silu(i)); tu_assert_error(NN_ERR_RUNTIME, "\"silu_cpu\" not implemented for 'Long'");
    assert_null(nn_softplus(i, 1, 20)); tu_assert_error(NN_ERR_RUNTIME, "\"softplus_cpu\" not implemented for 'Long'");
    assert_null(nn_threshold(b, 0, 1)); tu_assert_error(NN_ERR_RUNTIME, "\"threshold_cpu\" not implemented for 'Bool'");
    assert_null(nn_gelu(f, (nn_gelu_approx)7));
    tu_assert_error(NN_ERR_RUNTIME, "approximate argument must be either none or tanh.");
    /* scalar parameters that do not fit the tensor's type */
    assert_null(nn_clamp(i32, 0, false, 0x1p33, true));
    tu_assert_error(NN_ERR_RUNTIME, "value cannot be converted to type int without overflow");
    assert_null(nn_threshold(i32, 0x1p33, 1)); tu_assert_error(NN_ERR_RUNTIME, "value cannot be converted to type int without overflow");
    assert_null(nn_threshold(i, 1e30, 1)); tu_assert_error(NN_ERR_RUNTIME, "value cannot be converted to type int64_t without overflow");
    assert_null(nn_clamp(f, 1e300, true, 0, false)); tu_assert_error(NN_ERR_RUNTIME, "value cannot be converted to type float without overflow");
    assert_null(nn_leaky_relu(f, 1e300)); tu_assert_error(NN_ERR_RUNTIME, "value cannot be converted to type float without overflow");
    /* integers: threshold and value truncate toward zero, negation wraps */
    nn_tensor *r = TU_OK(nn_threshold(i, -0.5, 7.9));
    tu_assert_values(r, 1, TU_SHAPE(2), TU_VALUES(1, 7), 0);
    NN_RELEASE(r);
    int64_t lowest = INT64_MIN;
    nn_tensor *m = TU_OK(nn_from_data(&lowest, 1, TU_SHAPE(1), NN_INT64));
    r = TU_OK(nn_abs(m));
    assert_true(nn_get_int64(r, TU_SHAPE(0)) == INT64_MIN);
    NN_RELEASE(r);
    r = TU_OK(nn_neg(m));
    assert_true(nn_get_int64(r, TU_SHAPE(0)) == INT64_MIN);
    NN_RELEASE(r);
    NN_RELEASE(m); NN_RELEASE(b); NN_RELEASE(i); NN_RELEASE(i32); NN_RELEASE(f);
}

/* ----------------------------------------------------------- prelu, clamp */

static void assert_unchanged(nn_tensor *t, const double *values)
{
    tu_assert_values(t, t->ndim, t->sizes, values, 1e-7);
    assert_null(t->grad_fn);
    assert_null(t->grad);
}

static void test_prelu_errors(void **state)
{
    (void)state;
    const double xv[] = {-1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12};
    nn_tensor *x = tu_tensor(NN_FLOAT32, 3, TU_SHAPE(2, 3, 2), xv);
    tu_check(nn_set_requires_grad(x, true));
    nn_tensor *w2 = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(0.1, 0.2));
    nn_tensor *w4 = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(4), TU_VALUES(0.1, 0.2, 0.3, 0.4));
    nn_tensor *w2d = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(1, 3), TU_VALUES(0.1, 0.2, 0.3));
    nn_tensor *wd = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(3), TU_VALUES(0.1, 0.2, 0.3));
    nn_tensor *w0 = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(0), NULL);
    assert_null(nn_prelu(x, w2));
    tu_assert_error(NN_ERR_RUNTIME, "Mismatch of parameter numbers and input channel size. Found parameter numbers = 2 "
                                    "and channel size = 3.");
    assert_null(nn_prelu(x, w4));
    tu_assert_error(NN_ERR_RUNTIME, "Found parameter numbers = 4 and channel size = 3.");
    assert_null(nn_prelu(x, w0));
    tu_assert_error(NN_ERR_RUNTIME, "Found parameter numbers = 0 and channel size = 3.");
    assert_null(nn_prelu(x, w2d));
    tu_assert_error(NN_ERR_RUNTIME, "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = 2");
    assert_null(nn_prelu(x, wd));
    tu_assert_error(NN_ERR_RUNTIME, "Found dtype Double but expected Float");
    nn_tensor *s = tu_tensor(NN_FLOAT32, 0, NULL, TU_VALUES(-1));
    assert_null(nn_prelu(s, w2));
    tu_assert_error(NN_ERR_RUNTIME, "Not allow zero-dim input tensor.");
    nn_tensor *v = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(5), TU_VALUES(1, 2, 3, 4, 5));
    assert_null(nn_prelu(v, w2));
    tu_assert_error(NN_ERR_RUNTIME, "Found parameter numbers = 2 and channel size = 1.");
    nn_tensor *xi = tu_tensor(NN_INT64, 2, TU_SHAPE(1, 2), TU_VALUES(1, 2));
    nn_tensor *wi = tu_tensor(NN_INT64, 1, TU_SHAPE(1), TU_VALUES(1));
    assert_null(nn_prelu(xi, wi)); tu_assert_error(NN_ERR_RUNTIME, "\"prelu_cpu\" not implemented for 'Long'");
    assert_null(nn_prelu(xi, w2d)); tu_assert_error(NN_ERR_RUNTIME, "prelu: Expected `weight`");
    /* failures leave the inputs as they were */
    assert_unchanged(x, xv);
    assert_unchanged(w2, TU_VALUES(0.1, 0.2));
    NN_RELEASE(x); NN_RELEASE(w2); NN_RELEASE(w4); NN_RELEASE(w2d); NN_RELEASE(wd); NN_RELEASE(w0);
    NN_RELEASE(s); NN_RELEASE(v); NN_RELEASE(xi); NN_RELEASE(wi);
}

static void test_clamp(void **state)
{
    (void)state;
    nn_tensor *x = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(4), TU_VALUES(-1, 0.5, 3, NAN));
    tu_check(nn_set_requires_grad(x, true));
    assert_null(nn_clamp(x, 0, false, 0, false));
    tu_assert_error(NN_ERR_RUNTIME, "torch.clamp: At least one of 'min' or 'max' must not be None");
    assert_unchanged(x, TU_VALUES(-1, 0.5, 3, NAN));
    /* min above max gives max; NaN stays NaN; a NaN bound is ignored */
    nn_tensor *r = TU_OK(nn_clamp(x, 2, true, 1, true));
    tu_assert_values(r, 1, TU_SHAPE(4), TU_VALUES(1, 1, 1, NAN), 0);
    assert_string_equal(nn_grad_fn_name(r), "ClampBackward1");
    NN_RELEASE(r);
    r = TU_OK(nn_clamp(x, NAN, true, 0, false));
    tu_assert_values(r, 1, TU_SHAPE(4), TU_VALUES(-1, 0.5, 3, NAN), 0);
    NN_RELEASE(r);
    /* gradient only inside the bounds (bounds included) */
    r = TU_OK(nn_clamp(x, 0.5, true, 3, true));
    nn_tensor *g = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(4), TU_VALUES(1, 1, 1, 1));
    tu_check(nn_backward(r, g, false, false));
    tu_assert_values(x->grad, 1, TU_SHAPE(4), TU_VALUES(0, 1, 1, 0), 0);
    NN_RELEASE(r); NN_RELEASE(g); NN_RELEASE(x);
}

/* ---------------------------------------------------------- grad_fn names */

static void test_grad_fn_names(void **state)
{
    (void)state;
    nn_tensor *x = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 3), TU_VALUES(-1, 0.5, 2, -0.25, 1, 3));
    nn_tensor *w = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(0.1, 0.2, 0.3));
    tu_check(nn_set_requires_grad(x, true));
    tu_check(nn_set_requires_grad(w, true));
    struct { nn_tensor *t; const char *name; } cases[] = {
        {nn_neg(x), "NegBackward0"},           {nn_exp(x), "ExpBackward0"},
        {nn_log(x), "LogBackward0"},           {nn_sqrt(x), "SqrtBackward0"},
        {nn_abs(x), "AbsBackward0"},           {nn_tanh(x), "TanhBackward0"},
        {nn_sigmoid(x), "SigmoidBackward0"},   {nn_relu(x), "ReluBackward0"},
        {nn_gelu(x, NN_GELU_TANH), "GeluBackward0"}, {nn_leaky_relu(x, 0.1), "LeakyReluBackward0"},
        {nn_elu(x, 1), "EluBackward0"},        {nn_silu(x), "SiluBackward0"},
        {nn_softplus(x, 1, 20), "SoftplusBackward0"}, {nn_threshold(x, 0, 1), "ThresholdBackward0"},
        {nn_prelu(x, w), "PreluBackward0"},    {nn_clamp(x, 0, true, 0, false), "ClampBackward1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TU_OK(cases[i].t);
        assert_string_equal(nn_grad_fn_name(cases[i].t), cases[i].name);
        NN_RELEASE(cases[i].t);
    }
    /* no graph without grad mode or without an input that requires grad */
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *r = TU_OK(nn_gelu(x, NN_GELU_NONE));
    nn_set_grad_enabled(prev);
    assert_null(r->grad_fn);
    assert_false(r->requires_grad);
    NN_RELEASE(r);
    NN_RELEASE(x); NN_RELEASE(w);
}

/* ------------------------------------------------------- double backward */

typedef nn_tensor *(*unary_fn)(nn_tensor *);
static nn_tensor *f_gelu(nn_tensor *a) { return nn_gelu(a, NN_GELU_NONE); }
static nn_tensor *f_gelu_tanh(nn_tensor *a) { return nn_gelu(a, NN_GELU_TANH); }
static nn_tensor *f_elu(nn_tensor *a) { return nn_elu(a, 0.7); }
static nn_tensor *f_softplus(nn_tensor *a) { return nn_softplus(a, 2, 3); }

/* f'(x) through a backward, with create_graph when graph (new reference). */
static nn_tensor *first_derivative(unary_fn f, nn_tensor *x, bool graph)
{
    NN_SET(x->grad, NULL);
    nn_tensor *y = TU_OK(f(x));
    nn_tensor *ones = TU_OK(nn_ones_like(y));
    tu_check(nn_backward(y, ones, graph, graph));
    nn_tensor *g = TU_OK(nn_grad(x));
    NN_SET(x->grad, NULL);
    NN_RELEASE(y);
    NN_RELEASE(ones);
    return g;
}

/* The second derivative of f through create_graph against central differences
   of the first, in float64; and the first derivative with create_graph equal
   (to rounding) to the one without. */
static void check_second_derivative(const char *name, unary_fn f, int third)
{
    const double xs[] = {-2.5, -1.2, -0.3, 0.4, 1.1, 2.7};
    nn_tensor *x = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(6), xs);
    tu_check(nn_set_requires_grad(x, true));
    nn_tensor *d1 = first_derivative(f, x, true), *plain = first_derivative(f, x, false);
    assert_non_null(d1->grad_fn);
    double a[6], b[6];
    nn_to_doubles(d1, a);
    nn_to_doubles(plain, b);
    for (int i = 0; i < 6; i++)
        if (fabs(a[i] - b[i]) > 1e-12 * (1 + fabs(b[i]))) fail_msg("%s: f'(%g) %.17g with create_graph, %.17g without", name, xs[i], a[i], b[i]);
    nn_tensor *ones = TU_OK(nn_ones_like(d1));
    tu_check(nn_backward(d1, ones, third, third));
    nn_tensor *d2 = TU_OK(nn_grad(x));
    double got[6];
    nn_to_doubles(d2, got);
    for (int i = 0; i < 6; i++) {
        const double h = 1e-5;
        double p[6], m[6];
        nn_tensor *xp = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(6), xs), *xm = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(6), xs);
        ((double *)xp->storage->data)[i] += h;
        ((double *)xm->storage->data)[i] -= h;
        tu_check(nn_set_requires_grad(xp, true));
        tu_check(nn_set_requires_grad(xm, true));
        nn_tensor *gp = first_derivative(f, xp, false), *gm = first_derivative(f, xm, false);
        nn_to_doubles(gp, p);
        nn_to_doubles(gm, m);
        double numeric = (p[i] - m[i]) / (2 * h);
        if (fabs(numeric - got[i]) > 1e-6 * (1 + fabs(numeric)))
            fail_msg("%s: f''(%g) = %.10g, finite differences %.10g", name, xs[i], got[i], numeric);
        NN_RELEASE(xp); NN_RELEASE(xm); NN_RELEASE(gp); NN_RELEASE(gm);
    }
    if (third) {
        /* f''' through a second create_graph pass: against differences of f'' */
        NN_SET(x->grad, NULL);
        nn_tensor *o2 = TU_OK(nn_ones_like(d2));
        assert_non_null(d2->grad_fn);
        tu_check(nn_backward(d2, o2, false, false));
        assert_non_null(x->grad);
        NN_RELEASE(o2);
    }
    NN_RELEASE(x); NN_RELEASE(d1); NN_RELEASE(plain); NN_RELEASE(ones); NN_RELEASE(d2);
}

static void test_double_backward(void **state)
{
    (void)state;
    struct { const char *name; unary_fn f; } fs[] = {
        {"exp", nn_exp},   {"log", nn_log}, {"sqrt", nn_sqrt},     {"tanh", nn_tanh},   {"sigmoid", nn_sigmoid},
        {"gelu", f_gelu},  {"gelu tanh", f_gelu_tanh},             {"silu", nn_silu},   {"elu", f_elu},
        {"softplus", f_softplus},
    };
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
        bool positive = strcmp(fs[i].name, "log") == 0 || strcmp(fs[i].name, "sqrt") == 0;
        if (positive) continue; /* below */
        check_second_derivative(fs[i].name, fs[i].f, 1);
    }
    /* log and sqrt on positive inputs */
    const double xs[] = {0.5, 1.5, 3};
    unary_fn pos[] = {nn_log, nn_sqrt};
    const double want[2][3] = {{-1 / 0.25, -1 / 2.25, -1.0 / 9}, {0, 0, 0}};
    for (int k = 0; k < 2; k++) {
        nn_tensor *x = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(3), xs);
        tu_check(nn_set_requires_grad(x, true));
        nn_tensor *d1 = first_derivative(pos[k], x, true);
        nn_tensor *ones = TU_OK(nn_ones_like(d1));
        tu_check(nn_backward(d1, ones, false, false));
        double got[3];
        nn_to_doubles(x->grad, got);
        for (int i = 0; i < 3; i++) {
            double w = k == 0 ? want[0][i] : -0.25 * pow(xs[i], -1.5);
            assert_true(fabs(got[i] - w) < 1e-12);
        }
        NN_RELEASE(x); NN_RELEASE(d1); NN_RELEASE(ones);
    }
}

/* ------------------------------------------------------------- large sizes */

/* Big tensors are split over threads. exp, gelu and relu run in chunks of
   whole vectors, so their bits do not depend on the split: the same at any
   thread count, and a tensor's halves give the halves of its result. sigmoid
   and elu follow ATen's loop, whose scalar tail falls at the end of each
   thread's range: as in PyTorch, their last bits may depend on the thread
   count (torch.get_num_threads()), so they are compared at one thread, where
   the only tail is the tensor's own. */
static nn_tensor *apply_at_threads(unary_fn f, nn_tensor *x, int threads)
{
    tu_check(nn_set_num_threads(threads));
    return TU_OK(f(x));
}

static void test_large_matches_pieces(void **state)
{
    (void)state;
    int saved = nn_get_num_threads();
    int64_t n = 200003, half = 100000; /* half a multiple of 16: both halves start a vector */
    nn_tensor *x = TU_OK(nn_randn(1, &n, NN_FLOAT32));
    nn_tensor *xs = TU_OK(nn_mul_scalar(x, 4.0));
    unary_fn split_free[] = {f_gelu, nn_exp, nn_relu};
    for (size_t k = 0; k < sizeof split_free / sizeof split_free[0]; k++) {
        nn_tensor *y1 = apply_at_threads(split_free[k], xs, 1);
        for (int t = 2; t <= 4; t++) {
            nn_tensor *yt = apply_at_threads(split_free[k], xs, t);
            assert_memory_equal(nn_data_ptr(y1), nn_data_ptr(yt), sizeof(float) * (size_t)n);
            NN_RELEASE(yt);
        }
        NN_RELEASE(y1);
    }
    unary_fn fs[] = {f_gelu, nn_sigmoid, nn_exp, nn_relu, f_elu};
    tu_check(nn_set_num_threads(1));
    for (size_t k = 0; k < sizeof fs / sizeof fs[0]; k++) {
        nn_tensor *y = TU_OK(fs[k](xs));
        nn_tensor *a = TU_OK(nn_narrow(xs, 0, 0, half)), *b = TU_OK(nn_narrow(xs, 0, half, n - half));
        nn_tensor *ya = TU_OK(fs[k](a)), *yb = TU_OK(fs[k](b));
        const float *py = nn_data_ptr(y), *pa = nn_data_ptr(ya), *pb = nn_data_ptr(yb);
        assert_memory_equal(py, pa, sizeof(float) * (size_t)half);
        assert_memory_equal(py + half, pb, sizeof(float) * (size_t)(n - half));
        NN_RELEASE(y); NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(ya); NN_RELEASE(yb);
    }
    tu_check(nn_set_num_threads(saved));
    /* the gradient too */
    tu_check(nn_set_requires_grad(x, true));
    nn_tensor *y = TU_OK(nn_gelu(x, NN_GELU_NONE)), *w = TU_OK(nn_ones_like(y));
    tu_check(nn_backward(y, w, false, false));
    nn_tensor *a = TU_OK(nn_narrow(x, 0, 0, 5));
    nn_tensor *ad = TU_OK(nn_detach(a));
    tu_check(nn_set_requires_grad(ad, true));
    nn_tensor *ya = TU_OK(nn_gelu(ad, NN_GELU_NONE)), *wa = TU_OK(nn_ones_like(ya));
    tu_check(nn_backward(ya, wa, false, false));
    assert_memory_equal(nn_data_ptr(x->grad), nn_data_ptr(ad->grad), 5 * sizeof(float));
    NN_RELEASE(y); NN_RELEASE(w); NN_RELEASE(a); NN_RELEASE(ad); NN_RELEASE(ya); NN_RELEASE(wa);
    NN_RELEASE(x); NN_RELEASE(xs);
}

/* Empty and 0-dim inputs. */
static void test_shapes(void **state)
{
    (void)state;
    nn_tensor *e = TU_OK(nn_empty(2, TU_SHAPE(0, 3), NN_FLOAT32));
    nn_tensor *r = TU_OK(nn_gelu(e, NN_GELU_NONE));
    assert_int_equal(r->ndim, 2);
    assert_int_equal(r->sizes[0], 0);
    NN_RELEASE(r);
    nn_tensor *w = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(1, 2, 3));
    r = TU_OK(nn_prelu(e, w));
    assert_int_equal(r->sizes[1], 3);
    NN_RELEASE(r);
    nn_tensor *s = tu_tensor(NN_FLOAT32, 0, NULL, TU_VALUES(-4));
    r = TU_OK(nn_relu(s));
    assert_int_equal(r->ndim, 0);
    tu_assert_values(r, 0, NULL, TU_VALUES(0), 0);
    NN_RELEASE(r);
    NN_RELEASE(e); NN_RELEASE(w); NN_RELEASE(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_result_dtypes),
        cmocka_unit_test(test_integer_and_bool_errors),
        cmocka_unit_test(test_prelu_errors),
        cmocka_unit_test(test_clamp),
        cmocka_unit_test(test_grad_fn_names),
        cmocka_unit_test(test_double_backward),
        cmocka_unit_test(test_large_matches_pieces),
        cmocka_unit_test(test_shapes),
    };
    return cmocka_run_group_tests_name("unary", tests, NULL, NULL);
}
