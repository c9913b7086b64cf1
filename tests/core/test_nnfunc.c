/*
 * test_nnfunc.c — core/nnfunc.c against PyTorch 1.13: the values, grad_fn
 * names, gradients and double-backward gradients in fixtures/nnfunc.txt
 * (written by fixtures/gen_nnfunc.py), PyTorch's error kinds and messages,
 * inputs left unchanged by a failed op, and dropout's structure.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* ------------------------------------------------------------- the fixture */

#define FX_MAX_TENSORS 24
#define FX_MAX_PARAMS 12

typedef struct fx_tensor {
    char role[8];
    char name[16];
    nn_tensor *t; /* owned */
} fx_tensor;

typedef struct fx_case {
    char name[64], op[32], grad_fn[64];
    char keys[FX_MAX_PARAMS][32], vals[FX_MAX_PARAMS][64];
    int n_params;
    fx_tensor ts[FX_MAX_TENSORS];
    int n_ts;
} fx_case;


/* "tensor ROLE NAME DTYPE NDIM SIZES... VALUES..." (line already past "tensor ") */
static void parse_tensor(fx_case *c, char *line)
{
    if (c->n_ts == FX_MAX_TENSORS) fail_msg("fixture: too many tensors in %s", c->name);
    fx_tensor *ft = &c->ts[c->n_ts++];
    char *save = NULL;
    snprintf(ft->role, sizeof ft->role, "%s", strtok_r(line, " ", &save));
    snprintf(ft->name, sizeof ft->name, "%s", strtok_r(NULL, " ", &save));
    nn_dtype dt = tu_dtype(strtok_r(NULL, " ", &save));
    int ndim = atoi(strtok_r(NULL, " ", &save));
    int64_t sizes[NN_MAX_DIMS], n = 1;
    for (int d = 0; d < ndim; d++) {
        sizes[d] = atoll(strtok_r(NULL, " ", &save));
        n *= sizes[d];
    }
    double *values = malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) {
        char *tok = strtok_r(NULL, " ", &save);
        if (!tok) fail_msg("fixture: %s: tensor %s is short", c->name, ft->name);
        values[i] = strtod(tok, NULL);
    }
    ft->t = tu_tensor(dt, ndim, sizes, values);
    free(values);
}

/* Reads the next case from *cursor; false at the end of the file. */
static bool next_case(char **cursor, fx_case *c)
{
    memset(c, 0, sizeof *c);
    char *line;
    bool in_case = false;
    while ((line = strtok_r(NULL, "\n", cursor)) != NULL) {
        if (line[0] == '#') continue;
        if (strncmp(line, "case ", 5) == 0) {
            snprintf(c->name, sizeof c->name, "%s", line + 5);
            in_case = true;
        } else if (strncmp(line, "op ", 3) == 0) {
            snprintf(c->op, sizeof c->op, "%s", line + 3);
        } else if (strncmp(line, "grad_fn ", 8) == 0) {
            snprintf(c->grad_fn, sizeof c->grad_fn, "%s", line + 8);
        } else if (strncmp(line, "param ", 6) == 0) {
            if (c->n_params == FX_MAX_PARAMS) fail_msg("fixture: too many params in %s", c->name);
            if (sscanf(line + 6, "%31s %63s", c->keys[c->n_params], c->vals[c->n_params]) != 2)
                fail_msg("fixture: bad param line in %s", c->name);
            c->n_params++;
        } else if (strncmp(line, "tensor ", 7) == 0) {
            parse_tensor(c, line + 7);
        } else if (strcmp(line, "end") == 0) {
            return true;
        }
    }
    if (in_case) fail_msg("fixture: case %s has no end", c->name);
    return false;
}

static void free_case(fx_case *c)
{
    for (int i = 0; i < c->n_ts; i++) NN_RELEASE(c->ts[i].t);
}

static const char *param(const fx_case *c, const char *key, const char *fallback)
{
    for (int i = 0; i < c->n_params; i++)
        if (strcmp(c->keys[i], key) == 0) return c->vals[i];
    return fallback;
}

static nn_tensor *find(const fx_case *c, const char *role, const char *name)
{
    for (int i = 0; i < c->n_ts; i++)
        if (strcmp(c->ts[i].role, role) == 0 && (!name || strcmp(c->ts[i].name, name) == 0)) return c->ts[i].t;
    return NULL;
}

static nn_reduction parse_reduction(const char *s)
{
    return strcmp(s, "none") == 0 ? NN_REDUCTION_NONE : strcmp(s, "sum") == 0 ? NN_REDUCTION_SUM : NN_REDUCTION_MEAN;
}

/* Statistics over all compared float32 values, printed at the end. */
static int64_t n_compared, n_exact;

static bool same_shape_(const nn_tensor *a, const nn_tensor *b)
{
    return a->ndim == b->ndim && memcmp(a->sizes, b->sizes, sizeof(int64_t) * (size_t)a->ndim) == 0;
}

static double default_tol(nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT64: return 1e-10;
    case NN_BFLOAT16: case NN_FLOAT16: return 1e-2;
    default: return 1e-5;
    }
}

/* got must have want's dtype, shape and values within tol (relative + absolute). */
static void compare(const fx_case *c, const char *what, const nn_tensor *got, const nn_tensor *want)
{
    if (!got) fail_msg("%s: %s missing", c->name, what);
    if (got->dtype != want->dtype)
        fail_msg("%s: %s dtype %s, want %s", c->name, what, nn_dtype_short_name(got->dtype), nn_dtype_short_name(want->dtype));
    char a[256], b[256];
    if (!same_shape_(got, want))
        fail_msg("%s: %s shape %s, want %s", c->name, what, nn_shape_str(got->ndim, got->sizes, a, sizeof a),
                 nn_shape_str(want->ndim, want->sizes, b, sizeof b));
    double tol = atof(param(c, "tol", "0"));
    if (tol == 0) tol = default_tol(want->dtype);
    int64_t n = nn_numel(want);
    double *g = malloc(sizeof(double) * (size_t)(n ? n : 1)), *w = malloc(sizeof(double) * (size_t)(n ? n : 1));
    nn_to_doubles(got, g);
    nn_to_doubles(want, w);
    int64_t differ = 0;
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        bool ok = (isnan(w[i]) && isnan(g[i])) || g[i] == w[i] || fabs(g[i] - w[i]) <= tol * (1 + fabs(w[i]));
        if (!(g[i] == w[i] || (isnan(w[i]) && isnan(g[i])))) {
            differ++;
            double ulp = fabs(g[i] - w[i]) / (want->dtype == NN_FLOAT32 ? fabs(nextafterf((float)w[i], INFINITY) - (float)w[i]) : 1);
            if (ulp > worst) worst = ulp;
        }
        if (want->dtype == NN_FLOAT32) {
            n_compared++;
            n_exact += g[i] == w[i] || (isnan(w[i]) && isnan(g[i]));
        }
        if (!ok) {
            double gi = g[i], wi = w[i];
            free(g);
            free(w);
            fail_msg("%s: %s element %lld: got %.9g, want %.9g", c->name, what, (long long)i, gi, wi);
        }
    }
    if (differ && getenv("NNFUNC_VERBOSE"))
        print_message("    %s: %s: %lld of %lld values differ from PyTorch's (worst %.3g ulp)\n", c->name, what,
                      (long long)differ, (long long)n, worst);
    free(g);
    free(w);
}

/* grad_fn names that differ from PyTorch 1.13 by design: ops.def has no
   nll_loss2d (inputs with more than 2 dims are flattened to nll_loss), and
   dividing by a Python number is DivBackward0 here. */
static bool grad_fn_matches(const char *want, const char *got)
{
    if (strcmp(want, got) == 0) return true;
    if (strcmp(want, "NllLoss2DBackward0") == 0) return strcmp(got, "NllLossBackward0") == 0 || strcmp(got, "ViewBackward0") == 0;
    if (strcmp(want, "DivBackward1") == 0) return strcmp(got, "DivBackward0") == 0;
    return false;
}

/* Runs the case's op on its inputs; a new reference, or NULL with the error set. */
static nn_tensor *run_op(const fx_case *c, nn_tensor **in, int n_in)
{
    const char *op = c->op;
    if (strcmp(op, "softmax") == 0) return nn_softmax(in[0], atoi(param(c, "dim", "0")));
    if (strcmp(op, "log_softmax") == 0) return nn_log_softmax(in[0], atoi(param(c, "dim", "0")));
    if (strcmp(op, "cat") == 0) return nn_cat(n_in, in, atoi(param(c, "dim", "0")));
    if (strcmp(op, "stack") == 0) return nn_stack(n_in, in, atoi(param(c, "dim", "0")));
    if (strcmp(op, "mse_loss") == 0) return nn_mse_loss(in[0], in[1], parse_reduction(param(c, "reduction", "mean")));
    if (strcmp(op, "l1_loss") == 0) return nn_l1_loss(in[0], in[1], parse_reduction(param(c, "reduction", "mean")));
    if (strcmp(op, "cross_entropy") == 0)
        return nn_cross_entropy(in[0], in[1], parse_reduction(param(c, "reduction", "mean")),
                                atoll(param(c, "ignore_index", "-100")), atof(param(c, "label_smoothing", "0")));
    if (strcmp(op, "layer_norm") == 0) {
        int64_t shape[NN_MAX_DIMS];
        int nn = 0;
        char buf[64];
        snprintf(buf, sizeof buf, "%s", param(c, "normalized_shape", ""));
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) shape[nn++] = atoll(tok);
        int k = 1;
        nn_tensor *w = atoi(param(c, "has_weight", "0")) ? in[k++] : NULL;
        nn_tensor *b = atoi(param(c, "has_bias", "0")) ? in[k++] : NULL;
        return nn_layer_norm(in[0], nn, shape, w, b, atof(param(c, "eps", "1e-5")));
    }
    if (strcmp(op, "embedding") == 0) return nn_embedding(in[0], in[1], atoll(param(c, "padding_idx", "-1")));
    fail_msg("%s: unknown op %s", c->name, op);
    return NULL;
}

/* Is a function still a placeholder of another helper? (then the case waits) */
static bool pending(const fx_case *c)
{
    if (nn_error_current() != NN_ERR_NOT_IMPLEMENTED) return false;
    print_message("  [pending] %s: %s\n", c->name, nn_error_message());
    nn_error_clear();
    return true;
}

static int n_pending;

static void check_dropout_case(const fx_case *c)
{
    nn_generator *g = nn_default_generator();
    if (!g) {
        n_pending += pending(c);
        return;
    }
    nn_generator_seed(g, (uint64_t)atoll(param(c, "seed", "0")));
    nn_tensor *out = nn_dropout(find(c, "in", "x"), atof(param(c, "p", "0.5")), true);
    if (!out) {
        if (pending(c)) {
            n_pending++;
            return;
        }
        fail_msg("%s: %s", c->name, nn_error_message());
    }
    compare(c, "out", out, find(c, "out", NULL));
    NN_RELEASE(out);
}

static void check_case(const fx_case *c)
{
    if (strcmp(c->op, "dropout") == 0) {
        check_dropout_case(c);
        return;
    }
    nn_tensor *in[FX_MAX_TENSORS];
    int n_in = 0;
    for (int i = 0; i < c->n_ts; i++) {
        if (strcmp(c->ts[i].role, "in_grad") == 0) tu_check(nn_set_requires_grad(c->ts[i].t, true));
        if (strncmp(c->ts[i].role, "in", 2) == 0) in[n_in++] = c->ts[i].t;
    }
    nn_tensor *out = run_op(c, in, n_in);
    if (!out) {
        if (pending(c)) {
            n_pending++;
            return;
        }
        fail_msg("%s: %s: %s", c->name, nn_error_kind_name(nn_error_current()), nn_error_message());
    }
    compare(c, "out", out, find(c, "out", NULL));
    const char *got_fn = nn_grad_fn_name(out) ? nn_grad_fn_name(out) : "None";
    if (!grad_fn_matches(c->grad_fn, got_fn)) fail_msg("%s: grad_fn %s, want %s", c->name, got_fn, c->grad_fn);

    nn_tensor *gout = find(c, "gout", NULL);
    bool double_backward = find(c, "v", NULL) != NULL;
    if (gout) {
        if (nn_backward(out, gout, double_backward, double_backward) < 0) {
            if (pending(c)) {
                n_pending++;
                NN_RELEASE(out);
                return;
            }
            fail_msg("%s: backward: %s", c->name, nn_error_message());
        }
        for (int i = 0; i < c->n_ts; i++) {
            if (strcmp(c->ts[i].role, "grad") != 0) continue;
            nn_tensor *x = find(c, "in_grad", c->ts[i].name);
            char what[64];
            snprintf(what, sizeof what, "grad of %s", c->ts[i].name);
            if (!x->grad) {
                /* no gradient reached it: PyTorch's would be all zeros */
                nn_tensor *z = TU_OK(nn_zeros_like(x));
                compare(c, what, z, c->ts[i].t);
                NN_RELEASE(z);
            } else {
                compare(c, what, x->grad, c->ts[i].t);
            }
        }
    }
    if (double_backward) {
        /* s = sum of grad(x) * v(x) over the inputs, built on the create_graph gradients */
        nn_tensor *s = NULL;
        for (int i = 0; i < c->n_ts; i++) {
            if (strcmp(c->ts[i].role, "v") != 0) continue;
            nn_tensor *x = find(c, "in_grad", c->ts[i].name), *g = x->grad;
            x->grad = NULL;
            if (!g) continue;
            nn_tensor *prod = TU_OK(nn_mul(g, c->ts[i].t)), *part = TU_OK(nn_sum(prod, 0, NULL, false));
            nn_tensor *acc = s ? TU_OK(nn_add(s, part)) : (NN_RETAIN(part), part);
            NN_RELEASE(s);
            s = acc;
            NN_RELEASE(g);
            NN_RELEASE(prod);
            NN_RELEASE(part);
        }
        if (s && s->requires_grad && nn_backward(s, NULL, false, false) < 0) {
            if (!pending(c)) fail_msg("%s: double backward: %s", c->name, nn_error_message());
            n_pending++;
        } else {
            for (int i = 0; i < c->n_ts; i++) {
                if (strcmp(c->ts[i].role, "gg") != 0) continue;
                nn_tensor *x = find(c, "in_grad", c->ts[i].name);
                char what[64];
                snprintf(what, sizeof what, "double-backward grad of %s", c->ts[i].name);
                nn_tensor *got = x->grad ? (NN_RETAIN(x->grad), x->grad) : TU_OK(nn_zeros_like(x));
                compare(c, what, got, c->ts[i].t);
                NN_RELEASE(got);
            }
        }
        NN_RELEASE(s);
    }
    NN_RELEASE(out);
}

static void test_fixture(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/nnfunc.txt");
    char *cursor = NULL;
    /* strtok_r state: prime with the first line */
    char *first = strtok_r(text, "\n", &cursor);
    assert_non_null(first);
    assert_true(first[0] == '#');
    fx_case *c = malloc(sizeof *c);
    int n = 0;
    while (next_case(&cursor, c)) {
        check_case(c);
        free_case(c);
        n++;
    }
    free(c);
    free(text);
    print_message("  %d fixture cases (%d pending on other areas); float32 values bit-identical to PyTorch: "
                  "%lld of %lld\n",
                  n, n_pending, (long long)n_exact, (long long)n_compared);
    assert_true(n > 50);
}

/* ----------------------------------------------------------------- errors */

/* A tensor's observable state, to check that a failed op left it alone. */
typedef struct snapshot {
    const nn_tensor *t;
    double values[256];
    uint64_t version;
    bool requires_grad;
    const nn_node *grad_fn;
    const nn_tensor *grad;
    intptr_t refcount;
} snapshot;

static snapshot snap(const nn_tensor *t)
{
    snapshot s = {.t = t, .version = t->storage->version, .requires_grad = t->requires_grad,
                  .grad_fn = t->grad_fn, .grad = t->grad, .refcount = t->ob.refcount};
    assert_true(nn_numel(t) <= 256);
    nn_to_doubles(t, s.values);
    return s;
}

static void assert_unchanged(const snapshot *s)
{
    double now[256];
    nn_to_doubles(s->t, now);
    for (int64_t i = 0; i < nn_numel(s->t); i++)
        if (!(now[i] == s->values[i] || (isnan(now[i]) && isnan(s->values[i])))) fail_msg("input element %lld changed", (long long)i);
    assert_int_equal(s->t->storage->version, s->version);
    assert_int_equal(s->t->requires_grad, s->requires_grad);
    assert_ptr_equal(s->t->grad_fn, s->grad_fn);
    assert_ptr_equal(s->t->grad, s->grad);
    assert_int_equal(s->t->ob.refcount, s->refcount);
}

/* expr must fail (NULL) with kind and message; a and b (may be NULL) unchanged. */
#define EXPECT_FAIL(expr, a, b, kind, message)                             \
    do {                                                                   \
        snapshot sa_ = snap(a), sb_ = (b) ? snap(b) : snap(a);             \
        nn_tensor *r_ = (expr);                                            \
        if (r_) fail_msg("%s succeeded", #expr);                           \
        tu_assert_error(kind, message);                                    \
        assert_unchanged(&sa_);                                            \
        assert_unchanged(&sb_);                                            \
    } while (0)

static nn_tensor *ft(int ndim, const int64_t *sizes, const double *v) { return tu_tensor(NN_FLOAT32, ndim, sizes, v); }
static nn_tensor *lt(int ndim, const int64_t *sizes, const double *v) { return tu_tensor(NN_INT64, ndim, sizes, v); }
/* A float32 leaf of zeros requiring grad. */
static nn_tensor *zleaf(int ndim, const int64_t *sizes)
{
    nn_tensor *t = TU_OK(nn_zeros(ndim, sizes, NN_FLOAT32));
    tu_check(nn_set_requires_grad(t, true));
    return t;
}

static nn_tensor *leaf(int ndim, const int64_t *sizes, const double *v)
{
    nn_tensor *t = ft(ndim, sizes, v);
    tu_check(nn_set_requires_grad(t, true));
    return t;
}

static void test_softmax_errors(void **state)
{
    (void)state;
    nn_tensor *l1 = lt(1, TU_SHAPE(2), TU_VALUES(1, 2)), *l2 = lt(2, TU_SHAPE(1, 2), TU_VALUES(1, 2));
    nn_tensor *h = tu_tensor(NN_FLOAT16, 1, TU_SHAPE(2), TU_VALUES(1, 2));
    nn_tensor *b = tu_tensor(NN_BOOL, 2, TU_SHAPE(2, 2), TU_VALUES(1, 0, 1, 1));
    nn_tensor *x = leaf(1, TU_SHAPE(2), TU_VALUES(1, 2)), *s = ft(0, NULL, TU_VALUES(3));
    EXPECT_FAIL(nn_softmax(l1, 0), l1, NULL, NN_ERR_RUNTIME, "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAIL(nn_softmax(l2, 0), l2, NULL, NN_ERR_RUNTIME, "\"softmax_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAIL(nn_log_softmax(h, 0), h, NULL, NN_ERR_RUNTIME, "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Half'");
    EXPECT_FAIL(nn_log_softmax(b, 0), b, NULL, NN_ERR_RUNTIME, "\"softmax_kernel_impl\" not implemented for 'Bool'");
    EXPECT_FAIL(nn_softmax(x, 1), x, NULL, NN_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    EXPECT_FAIL(nn_log_softmax(s, -2), s, NULL, NN_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got -2)");
    NN_RELEASE(l1); NN_RELEASE(l2); NN_RELEASE(h); NN_RELEASE(b); NN_RELEASE(x); NN_RELEASE(s);
}

static void test_cat_stack_errors(void **state)
{
    (void)state;
    nn_tensor *a = leaf(2, TU_SHAPE(2, 2), TU_VALUES(1, 2, 3, 4));
    nn_tensor *b = ft(2, TU_SHAPE(2, 3), TU_VALUES(1, 2, 3, 4, 5, 6));
    nn_tensor *c = ft(2, TU_SHAPE(3, 2), TU_VALUES(1, 2, 3, 4, 5, 6));
    nn_tensor *v2 = ft(1, TU_SHAPE(2), TU_VALUES(1, 2)), *v3 = ft(1, TU_SHAPE(3), TU_VALUES(1, 2, 3));
    nn_tensor *s = ft(0, NULL, TU_VALUES(1));
    EXPECT_FAIL(nn_cat(0, NULL, 0), a, NULL, NN_ERR_RUNTIME, "torch.cat(): expected a non-empty list of Tensors");
    EXPECT_FAIL(nn_cat(2, ((nn_tensor *[]){a, c}), 1), a, c, NN_ERR_RUNTIME,
                "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 for tensor number 1 in the list.");
    EXPECT_FAIL(nn_cat(2, ((nn_tensor *[]){a, b}), 0), a, b, NN_ERR_RUNTIME,
                "Sizes of tensors must match except in dimension 0. Expected size 2 but got size 3 for tensor number 1 in the list.");
    EXPECT_FAIL(nn_cat(2, ((nn_tensor *[]){a, v2}), 0), a, v2, NN_ERR_RUNTIME, "Tensors must have same number of dimensions: got 2 and 1");
    EXPECT_FAIL(nn_cat(2, ((nn_tensor *[]){a, s}), 0), a, s, NN_ERR_RUNTIME, "zero-dimensional tensor (at position 1) cannot be concatenated");
    EXPECT_FAIL(nn_cat(2, ((nn_tensor *[]){a, a}), 2), a, NULL, NN_ERR_INDEX,
                "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    EXPECT_FAIL(nn_stack(2, ((nn_tensor *[]){v2, v3}), 0), v2, v3, NN_ERR_RUNTIME,
                "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1");
    EXPECT_FAIL(nn_stack(3, ((nn_tensor *[]){b, b, c}), 2), b, c, NN_ERR_RUNTIME,
                "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [3, 2] at entry 2");
    EXPECT_FAIL(nn_stack(0, NULL, 0), a, NULL, NN_ERR_RUNTIME, "stack expects a non-empty TensorList");
    EXPECT_FAIL(nn_stack(2, ((nn_tensor *[]){v2, v2}), -3), v2, NULL, NN_ERR_INDEX,
                "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
    NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(c); NN_RELEASE(v2); NN_RELEASE(v3); NN_RELEASE(s);
}

static void test_loss_errors(void **state)
{
    (void)state;
    nn_tensor *x = leaf(2, TU_SHAPE(2, 3), TU_VALUES(1, 2, 3, 4, 5, 6)), *t4 = ft(1, TU_SHAPE(4), TU_VALUES(1, 2, 3, 4));
    nn_tensor *li = lt(1, TU_SHAPE(2), TU_VALUES(1, 2));
    nn_tensor *bf = tu_tensor(NN_BFLOAT16, 1, TU_SHAPE(2), TU_VALUES(1, 2));
    EXPECT_FAIL(nn_mse_loss(x, t4, NN_REDUCTION_MEAN), x, t4, NN_ERR_RUNTIME,
                "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
    EXPECT_FAIL(nn_l1_loss(x, t4, NN_REDUCTION_SUM), x, t4, NN_ERR_RUNTIME,
                "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
    EXPECT_FAIL(nn_mse_loss(li, li, NN_REDUCTION_NONE), li, NULL, NN_ERR_RUNTIME, "\"mse_cpu\" not implemented for 'Long'");
    EXPECT_FAIL(nn_mse_loss(bf, bf, NN_REDUCTION_SUM), bf, NULL, NN_ERR_RUNTIME, "\"mse_cpu\" not implemented for 'BFloat16'");
    EXPECT_FAIL(nn_mse_loss(x, x, (nn_reduction)7), x, NULL, NN_ERR_VALUE, "7 is not a valid value for reduction");

    nn_tensor *logits = leaf(2, TU_SHAPE(3, 4), TU_VALUES(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    nn_tensor *t2 = lt(1, TU_SHAPE(2), TU_VALUES(0, 1)), *t_big = lt(1, TU_SHAPE(3), TU_VALUES(0, 1, 5));
    nn_tensor *t_neg = lt(1, TU_SHAPE(3), TU_VALUES(0, -5, 1)), *t_ok = lt(1, TU_SHAPE(3), TU_VALUES(0, 1, 2));
    nn_tensor *t_i32 = tu_tensor(NN_INT32, 1, TU_SHAPE(3), TU_VALUES(0, 1, 2));
    nn_tensor *t_f = ft(1, TU_SHAPE(3), TU_VALUES(0, 1, 2)), *t_2d = lt(2, TU_SHAPE(3, 2), TU_VALUES(0, 1, 2, 0, 1, 2));
    nn_tensor *t_same_long = lt(2, TU_SHAPE(3, 4), TU_VALUES(0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0));
    nn_tensor *t_same = ft(2, TU_SHAPE(3, 4), TU_VALUES(0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0));
    nn_tensor *t0 = lt(0, NULL, TU_VALUES(1)), *t1 = lt(1, TU_SHAPE(1), TU_VALUES(1));
    nn_tensor *v4 = leaf(1, TU_SHAPE(4), TU_VALUES(1, 2, 3, 4)), *s = leaf(0, NULL, TU_VALUES(1));
    nn_tensor *long_logits = lt(2, TU_SHAPE(3, 4), TU_VALUES(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    EXPECT_FAIL(nn_cross_entropy(logits, t2, NN_REDUCTION_MEAN, -100, 0), logits, t2, NN_ERR_VALUE,
                "Expected input batch_size (3) to match target batch_size (2).");
    EXPECT_FAIL(nn_cross_entropy(logits, t0, NN_REDUCTION_MEAN, -100, 0), logits, t0, NN_ERR_VALUE,
                "Expected input batch_size (3) to match target batch_size (0).");
    EXPECT_FAIL(nn_cross_entropy(logits, t_big, NN_REDUCTION_MEAN, -100, 0), logits, t_big, NN_ERR_INDEX, "Target 5 is out of bounds.");
    EXPECT_FAIL(nn_cross_entropy(logits, t_neg, NN_REDUCTION_SUM, -100, 0), logits, t_neg, NN_ERR_INDEX, "Target -5 is out of bounds.");
    EXPECT_FAIL(nn_cross_entropy(logits, t_big, NN_REDUCTION_MEAN, -100, 0.2), logits, t_big, NN_ERR_INDEX, "Target 5 is out of bounds.");
    EXPECT_FAIL(nn_cross_entropy(logits, t_i32, NN_REDUCTION_MEAN, -100, 0), logits, t_i32, NN_ERR_RUNTIME,
                "expected scalar type Long but found Int");
    EXPECT_FAIL(nn_cross_entropy(logits, t_f, NN_REDUCTION_MEAN, -100, 0), logits, t_f, NN_ERR_RUNTIME,
                "expected scalar type Long but found Float");
    EXPECT_FAIL(nn_cross_entropy(logits, t_2d, NN_REDUCTION_MEAN, -100, 0), logits, t_2d, NN_ERR_RUNTIME,
                "0D or 1D target tensor expected, multi-target not supported");
    EXPECT_FAIL(nn_cross_entropy(logits, t_ok, NN_REDUCTION_MEAN, -100, 1.5), logits, t_ok, NN_ERR_RUNTIME,
                "label_smoothing must be between 0.0 and 1.0. Got: 1.5");
    EXPECT_FAIL(nn_cross_entropy(logits, t_same, NN_REDUCTION_MEAN, -100, 2.0), logits, t_same, NN_ERR_RUNTIME,
                "label_smoothing must be between 0.0 and 1.0. Got: 2");
    EXPECT_FAIL(nn_cross_entropy(logits, t_same_long, NN_REDUCTION_MEAN, -100, 0), logits, t_same_long, NN_ERR_RUNTIME,
                "Expected floating point type for target with class probabilities, got Long");
    EXPECT_FAIL(nn_cross_entropy(logits, t_same, NN_REDUCTION_MEAN, 1, 0), logits, t_same, NN_ERR_RUNTIME,
                "ignore_index is not supported for floating point target");
    EXPECT_FAIL(nn_cross_entropy(v4, t1, NN_REDUCTION_MEAN, -100, 0), v4, t1, NN_ERR_RUNTIME,
                "size mismatch (got input: [4], target: [1])");
    EXPECT_FAIL(nn_cross_entropy(s, t1, NN_REDUCTION_MEAN, -100, 0), s, t1, NN_ERR_INDEX,
                "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    EXPECT_FAIL(nn_cross_entropy(long_logits, t_ok, NN_REDUCTION_MEAN, -100, 0), long_logits, t_ok, NN_ERR_RUNTIME,
                "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAIL(nn_cross_entropy(logits, t_ok, (nn_reduction)-1, -100, 0), logits, t_ok, NN_ERR_VALUE,
                "-1 is not a valid value for reduction");

    nn_tensor *x3 = zleaf(3, TU_SHAPE(2, 3, 4));
    nn_tensor *t25 = TU_OK(nn_zeros(2, TU_SHAPE(2, 5), NN_INT64));
    EXPECT_FAIL(nn_cross_entropy(x3, t25, NN_REDUCTION_MEAN, -100, 0), x3, t25, NN_ERR_RUNTIME, "Expected target size [2, 4], got [2, 5]");
    nn_tensor *x4 = zleaf(4, TU_SHAPE(2, 3, 4, 5));
    nn_tensor *t244 = TU_OK(nn_zeros(3, TU_SHAPE(2, 4, 4), NN_INT64));
    EXPECT_FAIL(nn_cross_entropy(x4, t244, NN_REDUCTION_NONE, -100, 0), x4, t244, NN_ERR_RUNTIME,
                "size mismatch (got input: [2, 3, 4, 5] , target: [2, 4, 4]");

    NN_RELEASE(x); NN_RELEASE(t4); NN_RELEASE(li); NN_RELEASE(bf); NN_RELEASE(logits); NN_RELEASE(t2);
    NN_RELEASE(t_big); NN_RELEASE(t_neg); NN_RELEASE(t_ok); NN_RELEASE(t_i32); NN_RELEASE(t_f); NN_RELEASE(t_2d);
    NN_RELEASE(t_same_long); NN_RELEASE(t_same); NN_RELEASE(t0); NN_RELEASE(t1); NN_RELEASE(v4); NN_RELEASE(s);
    NN_RELEASE(long_logits); NN_RELEASE(x3); NN_RELEASE(t25); NN_RELEASE(x4); NN_RELEASE(t244);
}

static void test_layer_norm_errors(void **state)
{
    (void)state;
    nn_tensor *x = zleaf(3, TU_SHAPE(2, 3, 4));
    nn_tensor *w3 = leaf(1, TU_SHAPE(3), TU_VALUES(1, 1, 1)), *w4 = leaf(1, TU_SHAPE(4), TU_VALUES(1, 1, 1, 1));
    nn_tensor *w4d = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(4), TU_VALUES(1, 1, 1, 1));
    nn_tensor *xl = TU_OK(nn_zeros(2, TU_SHAPE(2, 4), NN_INT64));
    EXPECT_FAIL(nn_layer_norm(x, 1, TU_SHAPE(3), NULL, NULL, 1e-5), x, NULL, NN_ERR_RUNTIME,
                "Given normalized_shape=[3], expected input with shape [*, 3], but got input of size[2, 3, 4]");
    EXPECT_FAIL(nn_layer_norm(x, 4, TU_SHAPE(1, 2, 3, 4), NULL, NULL, 1e-5), x, NULL, NN_ERR_RUNTIME,
                "Given normalized_shape=[1, 2, 3, 4], expected input with shape [*, 1, 2, 3, 4], but got input of size[2, 3, 4]");
    EXPECT_FAIL(nn_layer_norm(x, 0, NULL, NULL, NULL, 1e-5), x, NULL, NN_ERR_RUNTIME,
                "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got "
                "normalized_shape = []");
    EXPECT_FAIL(nn_layer_norm(x, 1, TU_SHAPE(4), w3, NULL, 1e-5), x, w3, NN_ERR_RUNTIME,
                "Expected weight to be of same shape as normalized_shape, but got weight of shape [3] and normalized_shape = [4]");
    EXPECT_FAIL(nn_layer_norm(x, 1, TU_SHAPE(4), w4, w3, 1e-5), w4, w3, NN_ERR_RUNTIME,
                "Expected bias to be of same shape as normalized_shape, but got bias of shape [3] and normalized_shape = [4]");
    EXPECT_FAIL(nn_layer_norm(x, 1, TU_SHAPE(4), w4d, NULL, 1e-5), x, w4d, NN_ERR_RUNTIME, "expected scalar type Float but found Double");
    EXPECT_FAIL(nn_layer_norm(x, 1, TU_SHAPE(4), NULL, w4d, 1e-5), x, w4d, NN_ERR_RUNTIME, "expected scalar type Float but found Double");
    EXPECT_FAIL(nn_layer_norm(xl, 1, TU_SHAPE(4), NULL, NULL, 1e-5), xl, NULL, NN_ERR_RUNTIME,
                "\"LayerNormKernelImpl\" not implemented for 'Long'");
    NN_RELEASE(x); NN_RELEASE(w3); NN_RELEASE(w4); NN_RELEASE(w4d); NN_RELEASE(xl);
}

static void test_embedding_errors(void **state)
{
    (void)state;
    nn_tensor *w = leaf(2, TU_SHAPE(5, 2), TU_VALUES(0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
    nn_tensor *i5 = lt(1, TU_SHAPE(2), TU_VALUES(1, 5)), *ineg = lt(1, TU_SHAPE(2), TU_VALUES(1, -1));
    nn_tensor *ifl = ft(1, TU_SHAPE(2), TU_VALUES(1, 2)), *ib = tu_tensor(NN_BOOL, 1, TU_SHAPE(2), TU_VALUES(1, 0));
    nn_tensor *ok = lt(1, TU_SHAPE(2), TU_VALUES(1, 2)), *w1 = leaf(1, TU_SHAPE(5), TU_VALUES(0, 1, 2, 3, 4));
    nn_tensor *w0 = nn_zeros(2, TU_SHAPE(0, 2), NN_FLOAT32);
    EXPECT_FAIL(nn_embedding(w, i5, -1), w, i5, NN_ERR_INDEX, "index out of range in self");
    EXPECT_FAIL(nn_embedding(w, ineg, 2), w, ineg, NN_ERR_INDEX, "index out of range in self");
    EXPECT_FAIL(nn_embedding(w, ifl, -1), w, ifl, NN_ERR_RUNTIME,
                "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
                "torch.FloatTensor instead (while checking arguments for embedding)");
    EXPECT_FAIL(nn_embedding(w, ib, -1), w, ib, NN_ERR_RUNTIME, "but got CPUBoolType instead");
    EXPECT_FAIL(nn_embedding(w1, ifl, -1), w1, ifl, NN_ERR_RUNTIME, "'weight' must be 2-D");
    EXPECT_FAIL(nn_embedding(w0, ok, -1), w0, ok, NN_ERR_RUNTIME, "index_select(): self indexing axis dim should be positive");
    EXPECT_FAIL(nn_embedding(w, ok, 5), w, ok, NN_ERR_RUNTIME, "Padding_idx must be within num_embeddings");
    NN_RELEASE(w); NN_RELEASE(i5); NN_RELEASE(ineg); NN_RELEASE(ifl); NN_RELEASE(ib); NN_RELEASE(ok); NN_RELEASE(w1);
    NN_RELEASE(w0);
}

/* ---------------------------------------------------------------- dropout */

static void test_dropout_edges(void **state)
{
    (void)state;
    nn_tensor *x = leaf(1, TU_SHAPE(3), TU_VALUES(1, 2, 3));
    EXPECT_FAIL(nn_dropout(x, 1.5, true), x, NULL, NN_ERR_VALUE, "dropout probability has to be between 0 and 1, but got 1.5");
    EXPECT_FAIL(nn_dropout(x, -0.5, false), x, NULL, NN_ERR_VALUE, "dropout probability has to be between 0 and 1, but got -0.5");
    EXPECT_FAIL(nn_dropout(x, 2.0, true), x, NULL, NN_ERR_VALUE, "dropout probability has to be between 0 and 1, but got 2.0");
    EXPECT_FAIL(nn_dropout(x, 1e-20 - 1, true), x, NULL, NN_ERR_VALUE, "but got -1.0");
    EXPECT_FAIL(nn_dropout(x, 1e20, true), x, NULL, NN_ERR_VALUE, "but got 1e+20");
    EXPECT_FAIL(nn_dropout(x, 1234.5678, true), x, NULL, NN_ERR_VALUE, "but got 1234.5678");
    EXPECT_FAIL(nn_dropout(x, NAN, true), x, NULL, NN_ERR_RUNTIME, "dropout probability has to be between 0 and 1, but got nan");

    /* eval mode, p == 0 and empty inputs give back the input itself */
    nn_tensor *r = TU_OK(nn_dropout(x, 0.5, false));
    assert_ptr_equal(r, x);
    NN_RELEASE(r);
    r = TU_OK(nn_dropout(x, 0.0, true));
    assert_ptr_equal(r, x);
    NN_RELEASE(r);
    nn_tensor *e = TU_OK(nn_zeros(1, TU_SHAPE(0), NN_FLOAT32));
    r = TU_OK(nn_dropout(e, 0.5, true));
    assert_ptr_equal(r, e);
    NN_RELEASE(r);
    NN_RELEASE(e);

    /* p == 1: input * 0 (nan stays nan), recorded as MulBackward0 */
    nn_tensor *y = leaf(1, TU_SHAPE(3), TU_VALUES(1, NAN, -2));
    r = TU_OK(nn_dropout(y, 1.0, true));
    tu_assert_values(r, 1, TU_SHAPE(3), TU_VALUES(0, NAN, -0.0), 0);
    assert_string_equal(nn_grad_fn_name(r), "MulBackward0");
    nn_tensor *s = TU_OK(nn_sum(r, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    tu_assert_values(y->grad, 1, TU_SHAPE(3), TU_VALUES(0, 0, 0), 0);
    NN_RELEASE(r); NN_RELEASE(s); NN_RELEASE(y); NN_RELEASE(x);
}

static void test_dropout_scaling(void **state)
{
    (void)state;
    const int64_t n = 4000;
    nn_tensor *x = TU_OK(nn_full(1, &n, 3.0, NN_FLOAT32));
    tu_check(nn_set_requires_grad(x, true));
    const double p = 0.3;
    nn_tensor *r = nn_dropout(x, p, true);
    if (!r) {
        /* nn_bernoulli_ is another helper's; until it lands the op reports it */
        tu_assert_error(NN_ERR_NOT_IMPLEMENTED, NULL);
        print_message("  [pending] dropout with 0 < p < 1 waits for nn_bernoulli_\n");
        NN_RELEASE(x);
        return;
    }
    assert_string_equal(nn_grad_fn_name(r), "MulBackward0");
    nn_tensor *s = TU_OK(nn_sum(r, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    /* every element is 0 or x * (1 / (1 - p)) in float32; the gradient is the scaled mask */
    float scale = 1.0f / (float)(1 - p);
    double *out = malloc(sizeof(double) * (size_t)n), *g = malloc(sizeof(double) * (size_t)n);
    nn_to_doubles(r, out);
    nn_to_doubles(x->grad, g);
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++) {
        if (out[i] == 0) {
            assert_true(g[i] == 0);
            continue;
        }
        kept++;
        assert_true(out[i] == (double)(3.0f * scale));
        assert_true(g[i] == (double)scale);
    }
    /* about 70% kept: far outside this band is a broken mask */
    assert_true(kept > n * 0.62 && kept < n * 0.78);
    free(out);
    free(g);
    NN_RELEASE(r); NN_RELEASE(s); NN_RELEASE(x);
}

/* ------------------------------------------------------------ misc graphs */

static void test_cross_entropy_graph(void **state)
{
    (void)state;
    /* cross_entropy = nll_loss(log_softmax(x, 1)): the node below NllLossBackward0 is LogSoftmaxBackward0 */
    nn_tensor *x = leaf(2, TU_SHAPE(2, 3), TU_VALUES(1, 2, 3, 4, 5, 6));
    nn_tensor *t = lt(1, TU_SHAPE(2), TU_VALUES(2, 0));
    nn_tensor *l = TU_OK(nn_cross_entropy(x, t, NN_REDUCTION_MEAN, -100, 0));
    assert_string_equal(nn_grad_fn_name(l), "NllLossBackward0");
    assert_int_equal(l->grad_fn->n_inputs, 1);
    assert_int_equal(l->grad_fn->next[0].node->op, NN_OP_log_softmax);
    /* the target is saved (as PyTorch saves it), so an in-place change to it is caught */
    assert_ptr_equal(l->grad_fn->saved[0].tensor, t);
    tu_check(nn_backward(l, NULL, false, false));
    /* d/dx of mean(-log_softmax(x)[t]) = (softmax(x) - onehot(t)) / 2 */
    tu_assert_values(x->grad, 2, TU_SHAPE(2, 3),
                     TU_VALUES(0.0450153, 0.122364, 0.5 * (0.665241 - 1), 0.5 * (0.0900306 - 1), 0.122364, 0.332621), 1e-5);
    NN_RELEASE(x); NN_RELEASE(t); NN_RELEASE(l);
}

static void test_layer_norm_edges(void **state)
{
    (void)state;
    /* node inputs are (input, weight, bias) with gaps for the missing ones */
    nn_tensor *x = leaf(2, TU_SHAPE(2, 3), TU_VALUES(1, 2, 3, 4, 5, 7));
    nn_tensor *b = leaf(1, TU_SHAPE(3), TU_VALUES(0.5, 0, -0.5));
    nn_tensor *y = TU_OK(nn_layer_norm(x, 1, TU_SHAPE(3), NULL, b, 1e-5));
    assert_string_equal(nn_grad_fn_name(y), "NativeLayerNormBackward0");
    assert_int_equal(y->grad_fn->n_inputs, 3);
    assert_false(nn_node_needs_input_grad(y->grad_fn, 1));
    assert_true(nn_node_needs_input_grad(y->grad_fn, 2));
    nn_tensor *s = TU_OK(nn_sum(y, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    tu_assert_values(b->grad, 1, TU_SHAPE(3), TU_VALUES(2, 2, 2), 0);
    /* sum of a normalised row is constant: no gradient for x */
    tu_assert_values(x->grad, 2, TU_SHAPE(2, 3), TU_VALUES(0, 0, 0, 0, 0, 0), 1e-6);
    NN_RELEASE(x); NN_RELEASE(b); NN_RELEASE(y); NN_RELEASE(s);

    /* empty inputs */
    nn_tensor *e = TU_OK(nn_zeros(2, TU_SHAPE(0, 4), NN_FLOAT32));
    nn_tensor *r = TU_OK(nn_layer_norm(e, 1, TU_SHAPE(4), NULL, NULL, 1e-5));
    assert_int_equal(nn_numel(r), 0);
    NN_RELEASE(e); NN_RELEASE(r);
}

static void test_embedding_padding_grad(void **state)
{
    (void)state;
    nn_tensor *w = leaf(2, TU_SHAPE(3, 2), TU_VALUES(1, 2, 3, 4, 5, 6));
    nn_tensor *idx = lt(1, TU_SHAPE(4), TU_VALUES(0, 1, 1, 2));
    nn_tensor *e = TU_OK(nn_embedding(w, idx, 1));
    /* the padding row is still read */
    tu_assert_values(e, 2, TU_SHAPE(4, 2), TU_VALUES(1, 2, 3, 4, 3, 4, 5, 6), 0);
    nn_tensor *s = TU_OK(nn_sum(e, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    tu_assert_values(w->grad, 2, TU_SHAPE(3, 2), TU_VALUES(1, 1, 0, 0, 1, 1), 0);
    NN_RELEASE(w); NN_RELEASE(idx); NN_RELEASE(e); NN_RELEASE(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_softmax_errors),
        cmocka_unit_test(test_cat_stack_errors),
        cmocka_unit_test(test_loss_errors),
        cmocka_unit_test(test_layer_norm_errors),
        cmocka_unit_test(test_embedding_errors),
        cmocka_unit_test(test_dropout_edges),
        cmocka_unit_test(test_dropout_scaling),
        cmocka_unit_test(test_cross_entropy_graph),
        cmocka_unit_test(test_layer_norm_edges),
        cmocka_unit_test(test_embedding_padding_grad),
    };
    return cmocka_run_group_tests_name("nnfunc", tests, NULL, NULL);
}
