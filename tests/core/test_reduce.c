/*
 * test_reduce.c — reductions (sum, mean, var, std, max, min, argmax, norm):
 * values, indices and gradients against PyTorch (tests/fixtures/reduce.txt,
 * made by fixtures/gen_reduce.py), result dtypes, error kinds and messages,
 * grad_fn names, and gradients that keep a graph (create_graph).
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the fixture */

/* A tensor line: "TAG DTYPE NDIM SIZES... VALUES..." */
typedef struct fx_tensor {
    bool present;
    nn_dtype dtype;
    int ndim;
    int64_t sizes[NN_MAX_DIMS];
    int64_t n;
    double *vals;   /* malloc'd; the values as doubles */
    int64_t *ivals; /* malloc'd; exact integers for integer dtypes */
} fx_tensor;

typedef struct fx_case {
    char head[256];
    char op[16];
    int n_dims; /* 0: all */
    int dims[NN_MAX_DIMS];
    bool has_dim;
    int dim;
    bool keepdim, unbiased;
    double p;
    char view[8];
    fx_tensor base, out, idx, gout, grad;
    bool grad_none;
    char error_kind[32], error[512];       /* the forward raises */
    char grad_error_kind[32], grad_error[512]; /* the backward raises */
} fx_case;


static bool is_integer(nn_dtype dt) { return dt == NN_INT64 || dt == NN_INT32 || dt == NN_BOOL; }

/* Parses the rest of a tensor line (after its tag). */
static void parse_tensor(char *rest, fx_tensor *t)
{
    char *cur, *tok = strtok_r(rest, " ", &cur);
    t->present = true;
    t->dtype = tu_dtype(tok);
    t->ndim = atoi(strtok_r(NULL, " ", &cur));
    t->n = 1;
    for (int d = 0; d < t->ndim; d++) {
        t->sizes[d] = strtoll(strtok_r(NULL, " ", &cur), NULL, 10);
        t->n *= t->sizes[d];
    }
    t->vals = malloc(sizeof(double) * (size_t)(t->n + 1));
    t->ivals = malloc(sizeof(int64_t) * (size_t)(t->n + 1));
    for (int64_t i = 0; i < t->n; i++) {
        tok = strtok_r(NULL, " ", &cur);
        if (!tok) fail_msg("short tensor line");
        t->vals[i] = strtod(tok, NULL);
        t->ivals[i] = is_integer(t->dtype) ? strtoll(tok, NULL, 10) : 0;
    }
}

static void parse_dims(const char *v, fx_case *c)
{
    c->n_dims = 0;
    if (!strcmp(v, "all")) return;
    char buf[64], *cur;
    snprintf(buf, sizeof buf, "%s", v);
    for (char *tok = strtok_r(buf, ",", &cur); tok; tok = strtok_r(NULL, ",", &cur)) c->dims[c->n_dims++] = atoi(tok);
}

static void parse_head(char *line, fx_case *c)
{
    snprintf(c->head, sizeof c->head, "%s", line);
    char *cur, *tok = strtok_r(line, " ", &cur); /* "case" */
    snprintf(c->op, sizeof c->op, "%s", strtok_r(NULL, " ", &cur));
    snprintf(c->view, sizeof c->view, "none");
    while ((tok = strtok_r(NULL, " ", &cur))) {
        char *eq = strchr(tok, '=');
        if (!eq) fail_msg("bad key in %s", c->head);
        *eq = '\0';
        const char *k = tok, *v = eq + 1;
        if (!strcmp(k, "dims")) parse_dims(v, c);
        else if (!strcmp(k, "dim")) {
            c->has_dim = strcmp(v, "none") != 0;
            c->dim = c->has_dim ? atoi(v) : 0;
        } else if (!strcmp(k, "keepdim")) c->keepdim = atoi(v);
        else if (!strcmp(k, "unbiased")) c->unbiased = atoi(v);
        else if (!strcmp(k, "p")) c->p = strtod(v, NULL);
        else if (!strcmp(k, "view")) snprintf(c->view, sizeof c->view, "%s", v);
        else fail_msg("unknown key %s in %s", k, c->head);
    }
}

static void split_error(const char *rest, char *kind, size_t nk, char *msg, size_t nm)
{
    const char *sp = strchr(rest, ' ');
    snprintf(kind, nk, "%.*s", (int)(sp - rest), rest);
    snprintf(msg, nm, "%s", sp + 1);
}

static void free_tensor(fx_tensor *t)
{
    free(t->vals);
    free(t->ivals);
}

static void free_case(fx_case *c)
{
    free_tensor(&c->base);
    free_tensor(&c->out);
    free_tensor(&c->idx);
    free_tensor(&c->gout);
    free_tensor(&c->grad);
}

/* ------------------------------------------------------------ comparisons */

static nn_tensor *make_tensor(const fx_tensor *t)
{
    if (!is_integer(t->dtype) || t->dtype == NN_BOOL) return tu_tensor(t->dtype, t->ndim, t->sizes, t->vals);
    if (t->dtype == NN_INT64) return TU_OK(nn_from_data(t->ivals, t->ndim, t->sizes, NN_INT64));
    return tu_tensor(t->dtype, t->ndim, t->sizes, t->vals);
}

/* The fixture's tolerance (relative, and absolute near 0) for an op's floating
   results (grad: its input gradient) of a dtype. Measured: float32 within 3e-7
   (general-p norms; PyTorch accumulates them in float), float64 within 2e-14. */
static double tolerance(const char *op, nn_dtype dt, bool grad)
{
    if (!strncmp(op, "max", 3) || !strncmp(op, "min", 3)) return 0; /* selections are exact */
    switch (dt) {
    case NN_FLOAT64: return 1e-13;
    case NN_FLOAT32: return 1e-6;
    case NN_FLOAT16:
    case NN_BFLOAT16:
        /* var/std gradients use self - mean: PyTorch's CPU mean rounds the sum to
           the dtype before dividing, ours rounds once; the cancellation shows it */
        if (grad && (!strcmp(op, "var") || !strcmp(op, "std"))) return dt == NN_FLOAT16 ? 2e-2 : 5e-2;
        return dt == NN_FLOAT16 ? 2e-3 : 1e-2;
    default: return 0;
    }
}

static const char *shape_str(int ndim, const int64_t *sizes, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < ndim && k < n; d++) k += (size_t)snprintf(buf + k, n - k, d ? ", %lld" : "%lld", (long long)sizes[d]);
    if (k < n) snprintf(buf + k, n - k, "]");
    return buf;
}

static void expect_tensor(const fx_case *c, const char *what, nn_tensor *got, const fx_tensor *want, double tol)
{
    if (!got) fail_msg("%s: %s is missing", c->head, what);
    if (got->dtype != want->dtype)
        fail_msg("%s: %s dtype %s, want %s", c->head, what, nn_dtype_short_name(got->dtype),
                 nn_dtype_short_name(want->dtype));
    char a[128], b[128];
    if (got->ndim != want->ndim || memcmp(got->sizes, want->sizes, sizeof(int64_t) * (size_t)want->ndim) != 0)
        fail_msg("%s: %s shape %s, want %s", c->head, what, shape_str(got->ndim, got->sizes, a, sizeof a),
                 shape_str(want->ndim, want->sizes, b, sizeof b));
    if (is_integer(want->dtype)) {
        nn_tensor *i64 = TU_OK(nn_to_dtype(got, NN_INT64));
        nn_tensor *cont = TU_OK(nn_contiguous(i64));
        const int64_t *v = (const int64_t *)nn_data_ptr(cont);
        for (int64_t i = 0; i < want->n; i++)
            if (v[i] != want->ivals[i])
                fail_msg("%s: %s element %lld: got %lld, want %lld", c->head, what, (long long)i, (long long)v[i],
                         (long long)want->ivals[i]);
        NN_RELEASE(i64);
        NN_RELEASE(cont);
        return;
    }
    double *v = malloc(sizeof(double) * (size_t)(want->n + 1));
    nn_to_doubles(got, v);
    for (int64_t i = 0; i < want->n; i++) {
        double g = v[i], w = want->vals[i];
        bool ok = (isnan(g) && isnan(w)) || g == w || (isfinite(w) && fabs(g - w) <= tol * (1 + fabs(w)));
        if (!ok) {
            free(v);
            fail_msg("%s: %s element %lld: got %.17g, want %.17g", c->head, what, (long long)i, g, w);
        }
    }
    free(v);
}

static void expect_error(const fx_case *c, const char *stage, const char *kind, const char *msg)
{
    if (strcmp(nn_error_kind_name(nn_error_current()), kind) != 0 || strcmp(nn_error_message(), msg) != 0)
        fail_msg("%s: %s error %s: %s; want %s: %s", c->head, stage, nn_error_kind_name(nn_error_current()),
                 nn_error_message(), kind, msg);
    nn_error_clear();
}

/* ------------------------------------------------------------------ running */

static nn_tensor *apply_view(nn_tensor *base, const char *view)
{
    if (!strcmp(view, "t")) return TU_OK(nn_transpose(base, -2, -1));
    if (!strcmp(view, "step")) return TU_OK(nn_slice(base, -1, 0, base->sizes[base->ndim - 1], 2));
    NN_RETAIN(base);
    return base;
}

/* Runs the case's op; returns 0 or -1 with the error set. */
static int run_op(const fx_case *c, nn_tensor *x, nn_tensor **out, nn_tensor **idx)
{
    const char *op = c->op;
    const int *dims = c->n_dims ? c->dims : NULL;
    *idx = NULL;
    if (!strcmp(op, "sum")) *out = nn_sum(x, c->n_dims, dims, c->keepdim);
    else if (!strcmp(op, "mean")) *out = nn_mean(x, c->n_dims, dims, c->keepdim);
    else if (!strcmp(op, "var")) *out = nn_var(x, c->n_dims, dims, c->unbiased, c->keepdim);
    else if (!strcmp(op, "std")) *out = nn_std(x, c->n_dims, dims, c->unbiased, c->keepdim);
    else if (!strcmp(op, "max_all")) *out = nn_max_all(x);
    else if (!strcmp(op, "min_all")) *out = nn_min_all(x);
    else if (!strcmp(op, "max_dim")) return nn_max_dim(x, c->dim, c->keepdim, out, idx);
    else if (!strcmp(op, "min_dim")) return nn_min_dim(x, c->dim, c->keepdim, out, idx);
    else if (!strcmp(op, "argmax")) *out = nn_argmax(x, c->dim, c->has_dim, c->keepdim);
    else if (!strcmp(op, "norm")) *out = nn_norm(x, c->p, c->n_dims, dims, c->keepdim);
    else fail_msg("unknown op %s", op);
    return *out ? 0 : -1;
}

static void run_case(const fx_case *c)
{
    nn_tensor *leaf = make_tensor(&c->base);
    bool differentiable = nn_dtype_is_floating(leaf->dtype) && strcmp(c->op, "argmax") != 0;
    if (differentiable) tu_check(nn_set_requires_grad(leaf, true));
    nn_tensor *x = apply_view(leaf, c->view), *out = NULL, *idx = NULL;
    int rc = run_op(c, x, &out, &idx);
    if (c->error[0]) {
        if (rc == 0) fail_msg("%s: succeeded, want %s: %s", c->head, c->error_kind, c->error);
        expect_error(c, "forward", c->error_kind, c->error);
    } else {
        if (rc < 0) fail_msg("%s: %s: %s", c->head, nn_error_kind_name(nn_error_current()), nn_error_message());
        double tol = tolerance(c->op, c->out.dtype, false);
        expect_tensor(c, "out", out, &c->out, tol);
        if (c->idx.present) {
            expect_tensor(c, "idx", idx, &c->idx, 0);
            assert_false(idx->requires_grad);
            assert_null(idx->grad_fn);
        }
        if (differentiable) {
            nn_tensor *g = make_tensor(&c->gout);
            rc = nn_backward(out, g, false, false);
            if (c->grad_error[0]) {
                if (rc == 0) fail_msg("%s: backward succeeded, want %s", c->head, c->grad_error);
                expect_error(c, "backward", c->grad_error_kind, c->grad_error);
            } else {
                if (rc < 0) fail_msg("%s: backward: %s", c->head, nn_error_message());
                if (c->grad_none) {
                    /* norm p=0 leaves a leaf's grad None; through a view we give zeros (see reduce.c) */
                    if (leaf->grad && !strcmp(c->view, "none")) fail_msg("%s: grad should stay None", c->head);
                    if (leaf->grad) {
                        fx_tensor zeros = c->gout;
                        zeros.dtype = leaf->grad->dtype;
                        zeros.ndim = c->base.ndim;
                        memcpy(zeros.sizes, c->base.sizes, sizeof zeros.sizes);
                        zeros.n = c->base.n;
                        zeros.vals = calloc((size_t)zeros.n + 1, sizeof(double));
                        expect_tensor(c, "grad (zeros)", leaf->grad, &zeros, 0);
                        free(zeros.vals);
                    }
                } else {
                    expect_tensor(c, "grad", leaf->grad, &c->grad, tolerance(c->op, c->grad.dtype, true));
                }
            }
            NN_RELEASE(g);
        }
    }
    NN_RELEASE(out);
    NN_RELEASE(idx);
    NN_RELEASE(x);
    NN_RELEASE(leaf);
}

static void test_fixture_cases(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/reduce.txt");
    int n = 0, with_grad = 0, errors = 0;
    fx_case c;
    memset(&c, 0, sizeof c);
    char *save, *line = strtok_r(text, "\n", &save);
    for (; line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        char *sp = strchr(line, ' ');
        char *rest = sp ? sp + 1 : NULL;
        if (sp) *sp = '\0';
        if (!strcmp(line, "case")) {
            memset(&c, 0, sizeof c);
            *sp = ' ';
            parse_head(line, &c);
        } else if (!strcmp(line, "base")) parse_tensor(rest, &c.base);
        else if (!strcmp(line, "out")) parse_tensor(rest, &c.out);
        else if (!strcmp(line, "idx")) parse_tensor(rest, &c.idx);
        else if (!strcmp(line, "gout")) parse_tensor(rest, &c.gout);
        else if (!strcmp(line, "grad")) {
            if (!strcmp(rest, "none")) c.grad_none = true;
            else parse_tensor(rest, &c.grad);
        } else if (!strcmp(line, "error")) split_error(rest, c.error_kind, sizeof c.error_kind, c.error, sizeof c.error);
        else if (!strcmp(line, "graderror"))
            split_error(rest, c.grad_error_kind, sizeof c.grad_error_kind, c.grad_error, sizeof c.grad_error);
        else if (!strcmp(line, "end")) {
            run_case(&c);
            n++;
            with_grad += c.grad.present || c.grad_none || c.grad_error[0];
            errors += c.error[0] != 0;
            free_case(&c);
            memset(&c, 0, sizeof c);
        } else fail_msg("bad fixture line: %.60s", line);
    }
    free(text);
    print_message("checked %d cases (%d with gradients, %d errors)\n", n, with_grad, errors);
    assert_true(n > 500);
    assert_true(with_grad > 300);
}

/* ---------------------------------------------------------- direct checks */

static nn_tensor *leaf(int ndim, const int64_t *sizes, const double *values)
{
    nn_tensor *t = tu_tensor(NN_FLOAT32, ndim, sizes, values);
    tu_check(nn_set_requires_grad(t, true));
    return t;
}

static void test_result_dtypes(void **state)
{
    (void)state;
    nn_tensor *i32 = tu_tensor(NN_INT32, 2, TU_SHAPE(2, 2), TU_VALUES(1, -2, 3, 4));
    nn_tensor *b = tu_tensor(NN_BOOL, 1, TU_SHAPE(3), TU_VALUES(1, 0, 1));
    nn_tensor *f = tu_tensor(NN_FLOAT64, 2, TU_SHAPE(2, 2), TU_VALUES(1, 5, 3, 4));
    nn_tensor *r = TU_OK(nn_sum(i32, 0, NULL, false));
    assert_int_equal(r->dtype, NN_INT64);
    tu_assert_values(r, 0, NULL, TU_VALUES(6), 0);
    NN_SET(r, TU_OK(nn_sum(b, 0, NULL, false)));
    assert_int_equal(r->dtype, NN_INT64);
    tu_assert_values(r, 0, NULL, TU_VALUES(2), 0);
    NN_SET(r, TU_OK(nn_argmax(f, 1, true, false)));
    assert_int_equal(r->dtype, NN_INT64);
    tu_assert_values(r, 1, TU_SHAPE(2), TU_VALUES(1, 1), 0);
    NN_SET(r, TU_OK(nn_argmax(f, 0, false, true)));
    tu_assert_values(r, 2, TU_SHAPE(1, 1), TU_VALUES(1), 0);
    NN_SET(r, TU_OK(nn_max_all(i32)));
    assert_int_equal(r->dtype, NN_INT32);
    NN_SET(r, TU_OK(nn_max_all(b)));
    assert_int_equal(r->dtype, NN_BOOL);
    NN_SET(r, TU_OK(nn_var(f, 1, (const int[]){0}, true, false)));
    assert_int_equal(r->dtype, NN_FLOAT64);
    tu_assert_values(r, 1, TU_SHAPE(2), TU_VALUES(2, 0.5), 1e-15);
    NN_SET(r, TU_OK(nn_norm(f, 2, 0, NULL, true)));
    assert_int_equal(r->dtype, NN_FLOAT64);
    tu_assert_values(r, 2, TU_SHAPE(1, 1), TU_VALUES(sqrt(51.0)), 1e-15);
    nn_tensor *v, *i;
    tu_check(nn_min_dim(i32, 1, true, &v, &i));
    assert_int_equal(v->dtype, NN_INT32);
    assert_int_equal(i->dtype, NN_INT64);
    tu_assert_values(v, 2, TU_SHAPE(2, 1), TU_VALUES(-2, 3), 0);
    tu_assert_values(i, 2, TU_SHAPE(2, 1), TU_VALUES(1, 0), 0);
    NN_RELEASE(v); NN_RELEASE(i);
    NN_RELEASE(r); NN_RELEASE(i32); NN_RELEASE(b); NN_RELEASE(f);
}

static void test_errors(void **state)
{
    (void)state;
    nn_tensor *x = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 3), TU_VALUES(1, 2, 3, 4, 5, 6));
    nn_tensor *e = TU_OK(nn_empty(1, TU_SHAPE(0), NN_FLOAT32));
    nn_tensor *e2 = TU_OK(nn_empty(2, TU_SHAPE(3, 0), NN_FLOAT32));
    nn_tensor *li = tu_tensor(NN_INT64, 1, TU_SHAPE(2), TU_VALUES(1, 2));
    nn_tensor *v = NULL, *i = NULL;
    const char *out_of_range = "Dimension out of range (expected to be in range of [-2, 1], but got 2)";

    assert_null(nn_max_all(e));
    tu_assert_error(NN_ERR_RUNTIME, "max(): Expected reduction dim to be specified for input.numel() == 0. "
                                    "Specify the reduction dim with the 'dim' argument.");
    assert_null(nn_min_all(e));
    tu_assert_error(NN_ERR_RUNTIME, "min(): Expected reduction dim to be specified for input.numel() == 0.");
    assert_int_equal(nn_max_dim(e2, -1, false, &v, &i), -1);
    tu_assert_error(NN_ERR_INDEX, "max(): Expected reduction dim 1 to have non-zero size.");
    assert_null(v);
    assert_null(i);
    assert_null(nn_argmax(e, 0, false, false));
    tu_assert_error(NN_ERR_INDEX, "argmax(): Expected reduction dim to be specified for input.numel() == 0.");

    assert_null(nn_var(li, 0, NULL, true, false));
    tu_assert_error(NN_ERR_RUNTIME, "std and var only support floating point and complex dtypes");
    assert_null(nn_std(li, 1, (const int[]){0}, true, false));
    tu_assert_error(NN_ERR_RUNTIME, "std and var only support floating point and complex dtypes");
    assert_null(nn_norm(li, 2, 0, NULL, false));
    tu_assert_error(NN_ERR_RUNTIME, "norm(): input dtype should be either floating point or complex. Got Long instead.");

    assert_null(nn_var(x, 1, (const int[]){2}, true, false));
    tu_assert_error(NN_ERR_INDEX, out_of_range);
    assert_null(nn_std(x, 1, (const int[]){2}, true, false));
    tu_assert_error(NN_ERR_INDEX, out_of_range);
    assert_int_equal(nn_max_dim(x, 2, false, &v, &i), -1);
    tu_assert_error(NN_ERR_INDEX, out_of_range);
    assert_int_equal(nn_min_dim(x, -3, false, &v, &i), -1);
    tu_assert_error(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
    assert_null(nn_argmax(x, 2, true, false));
    tu_assert_error(NN_ERR_INDEX, out_of_range);
    assert_null(nn_norm(x, 2, 1, (const int[]){2}, false));
    tu_assert_error(NN_ERR_INDEX, out_of_range);
    assert_null(nn_norm(x, 1, 2, (const int[]){1, -1}, false));
    tu_assert_error(NN_ERR_RUNTIME, "dim 1 appears multiple times in the list of dims");
    assert_null(nn_var(x, 2, (const int[]){0, -2}, true, false));
    tu_assert_error(NN_ERR_RUNTIME, "dim 0 appears multiple times in the list of dims");

    nn_tensor *bt = tu_tensor(NN_BOOL, 1, TU_SHAPE(2), TU_VALUES(1, 0));
    assert_null(nn_argmax(bt, 0, true, false));
    tu_assert_error(NN_ERR_RUNTIME, "\"argmax_cpu\" not implemented for 'Bool'");
    NN_RELEASE(bt);
    NN_RELEASE(x); NN_RELEASE(e); NN_RELEASE(e2); NN_RELEASE(li);
}

static void test_grad_fn_names(void **state)
{
    (void)state;
    nn_tensor *x = leaf(2, TU_SHAPE(2, 3), TU_VALUES(1, 2, 3, 4, 6, 5));
    struct { nn_tensor *t; const char *name; } cases[9];
    nn_tensor *v, *i, *v2, *i2;
    tu_check(nn_max_dim(x, 1, false, &v, &i));
    tu_check(nn_min_dim(x, 0, true, &v2, &i2));
    cases[0].t = TU_OK(nn_var(x, 0, NULL, true, false)), cases[0].name = "VarBackward0";
    cases[1].t = TU_OK(nn_var(x, 1, (const int[]){1}, true, false)), cases[1].name = "VarBackward0";
    cases[2].t = TU_OK(nn_std(x, 1, (const int[]){0}, false, true)), cases[2].name = "StdBackward0";
    cases[3].t = TU_OK(nn_max_all(x)), cases[3].name = "MaxBackward1";
    cases[4].t = TU_OK(nn_min_all(x)), cases[4].name = "MinBackward1";
    cases[5].t = v, cases[5].name = "MaxBackward0";
    cases[6].t = v2, cases[6].name = "MinBackward0";
    cases[7].t = TU_OK(nn_norm(x, 2, 0, NULL, false)), cases[7].name = "NormBackward1";
    cases[8].t = TU_OK(nn_norm(x, INFINITY, 1, (const int[]){1}, false)), cases[8].name = "NormBackward1";
    for (int k = 0; k < 9; k++) {
        assert_true(cases[k].t->requires_grad);
        assert_string_equal(nn_grad_fn_name(cases[k].t), cases[k].name);
    }
    /* indices never require grad */
    assert_false(i->requires_grad);
    assert_null(nn_grad_fn_name(i));
    assert_false(i2->requires_grad);
    /* argmax has no autograd */
    nn_tensor *am = TU_OK(nn_argmax(x, 1, true, false));
    assert_false(am->requires_grad);
    /* under no_grad nothing is recorded */
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *ng = TU_OK(nn_norm(x, 2, 0, NULL, false));
    nn_set_grad_enabled(prev);
    assert_false(ng->requires_grad);
    assert_null(nn_grad_fn_name(ng));
    for (int k = 0; k < 9; k++) NN_RELEASE(cases[k].t);
    NN_RELEASE(i); NN_RELEASE(i2); NN_RELEASE(am); NN_RELEASE(ng); NN_RELEASE(x);
}

static void test_tie_gradients(void **state)
{
    (void)state;
    /* max of everything: split evenly among the three 3s */
    nn_tensor *x = leaf(2, TU_SHAPE(2, 3), TU_VALUES(3, 1, 3, 3, 2, 0));
    nn_tensor *m = TU_OK(nn_max_all(x));
    tu_check(nn_backward(m, NULL, false, false));
    tu_assert_values(x->grad, 2, TU_SHAPE(2, 3), TU_VALUES(1.0 / 3, 0, 1.0 / 3, 1.0 / 3, 0, 0), 1e-7);
    NN_RELEASE(m);
    /* max over a dim: all of it to the first occurrence */
    NN_SET(x->grad, NULL);
    nn_tensor *v, *i;
    tu_check(nn_max_dim(x, 1, false, &v, &i));
    tu_assert_values(i, 1, TU_SHAPE(2), TU_VALUES(0, 0), 0);
    nn_tensor *g = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(10, 20));
    tu_check(nn_backward(v, g, false, false));
    tu_assert_values(x->grad, 2, TU_SHAPE(2, 3), TU_VALUES(10, 0, 0, 20, 0, 0), 0);
    NN_RELEASE(v); NN_RELEASE(i); NN_RELEASE(g); NN_RELEASE(x);
}

static void test_create_graph_keeps_history(void **state)
{
    (void)state;
    /* the gradient of max over a dim is a differentiable function of the incoming gradient */
    nn_tensor *x = leaf(2, TU_SHAPE(2, 2), TU_VALUES(1, 4, 3, 2));
    nn_tensor *g = leaf(1, TU_SHAPE(2), TU_VALUES(5, 7));
    nn_tensor *v, *i;
    tu_check(nn_max_dim(x, 1, false, &v, &i));
    tu_check(nn_backward(v, g, false, true));
    assert_non_null(x->grad);
    assert_true(x->grad->requires_grad);
    tu_assert_values(x->grad, 2, TU_SHAPE(2, 2), TU_VALUES(0, 5, 7, 0), 0);
    NN_RELEASE(v); NN_RELEASE(i); NN_RELEASE(g); NN_RELEASE(x);
}

/* Second derivatives need sub/div backwards, which use nn_neg (unary.c). */
static bool neg_available(void)
{
    nn_tensor *t = TU_OK(nn_scalar(1, NN_FLOAT64));
    nn_tensor *r = nn_neg(t);
    NN_RELEASE(t);
    if (r) {
        NN_RELEASE(r);
        return true;
    }
    nn_error_clear();
    return false;
}

static nn_tensor *second_var(nn_tensor *x) { return nn_var(x, 0, NULL, true, false); }
static nn_tensor *second_std(nn_tensor *x) { return nn_std(x, 0, NULL, true, false); }
static nn_tensor *second_norm2(nn_tensor *x) { return nn_norm(x, 2, 0, NULL, false); }
static nn_tensor *second_norm3(nn_tensor *x) { return nn_norm(x, 3, 1, (const int[]){0}, false); }

/* g = dy/dx with create_graph, then d(sum(g * w))/dx, against
   torch.autograd.grad twice (x = [1, 2, 4], w = [1, 0, 0], float64). */
static void test_second_derivatives(void **state)
{
    (void)state;
    if (!neg_available()) skip();
    static const struct {
        const char *name;
        nn_tensor *(*fn)(nn_tensor *);
        double g[3], h[3];
    } cases[] = {
        {"var", second_var, {-1.3333333333333335, -0.3333333333333335, 1.6666666666666665},
         {0.6666666666666667, -0.3333333333333333, -0.3333333333333333}},
        {"std", second_std, {-0.43643578047198484, -0.10910894511799625, 0.5455447255899809},
         {0.09352195295828242, -0.1402829294374237, 0.04676097647914128}},
        {"norm2", second_norm2, {0.2182178902359924, 0.4364357804719848, 0.8728715609439696},
         {0.20782656212951656, -0.020782656212951656, -0.04156531242590331}},
        {"norm3", second_norm3, {0.05725122186823605, 0.2290048874729442, 0.9160195498917768},
         {0.11293391710994509, -0.006274106506108061, -0.025096426024432242}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        nn_tensor *x = TU_OK(nn_from_data((const double[]){1, 2, 4}, 1, TU_SHAPE(3), NN_FLOAT64));
        tu_check(nn_set_requires_grad(x, true));
        nn_tensor *w = TU_OK(nn_from_data((const double[]){1, 0, 0}, 1, TU_SHAPE(3), NN_FLOAT64));
        nn_tensor *y = TU_OK(cases[k].fn(x));
        tu_check(nn_backward(y, NULL, false, true));
        nn_tensor *g1 = nn_grad(x);
        tu_assert_values(g1, 1, TU_SHAPE(3), cases[k].g, 1e-14);
        assert_true(g1->requires_grad);
        NN_SET(x->grad, NULL);
        nn_tensor *prod = TU_OK(nn_mul(g1, w)), *s = TU_OK(nn_sum(prod, 0, NULL, false));
        tu_check(nn_backward(s, NULL, false, false));
        tu_assert_values(x->grad, 1, TU_SHAPE(3), cases[k].h, 1e-14);
        NN_RELEASE(x); NN_RELEASE(w); NN_RELEASE(y); NN_RELEASE(g1); NN_RELEASE(prod); NN_RELEASE(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_cases),
        cmocka_unit_test(test_result_dtypes),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_grad_fn_names),
        cmocka_unit_test(test_tie_gradients),
        cmocka_unit_test(test_create_graph_keeps_history),
        cmocka_unit_test(test_second_derivatives),
    };
    return cmocka_run_group_tests_name("reduce", tests, NULL, NULL);
}
