/*
 * test_matmul.c — mm, bmm, dot, mv and matmul against PyTorch 1.13: values,
 * gradients, grad_fn chains and error messages from fixtures/matmul.txt
 * (written by fixtures/gen_matmul.py), plus strided layouts checked against
 * a plain reference product.
 */
#include "test_util.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_half.h"
#include "nn_int.h"

/* ---------------------------------------------------------------- fixture */

typedef struct fixture {
    char *text;   /* the file, split in place */
    char **lines;
    int n;
} fixture;

static fixture load_fixture(void)
{
    fixture f = {tu_read_file("fixtures/matmul.txt"), NULL, 0};
    int cap = 0;
    for (char *save = NULL, *line = strtok_r(f.text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (f.n == cap) {
            cap = cap ? cap * 2 : 256;
            f.lines = realloc(f.lines, sizeof *f.lines * (size_t)cap);
        }
        f.lines[f.n++] = line;
    }
    return f;
}

static void free_fixture(fixture *f)
{
    free(f->lines);
    free(f->text);
}


typedef nn_tensor *(*binary_fn)(nn_tensor *, nn_tensor *);
static binary_fn op_named(const char *s)
{
    if (strcmp(s, "matmul") == 0) return nn_matmul;
    if (strcmp(s, "mm") == 0) return nn_mm;
    if (strcmp(s, "bmm") == 0) return nn_bmm;
    if (strcmp(s, "dot") == 0) return nn_dot;
    if (strcmp(s, "mv") == 0) return nn_mv;
    fail_msg("unknown op %s", s);
    return NULL;
}

/* A tokenizer over one line. */
typedef struct tokens {
    char *save;
    char *first;
} tokens;

static char *next_token(tokens *t)
{
    char *s = strtok_r(t->first, " ", &t->save);
    t->first = NULL;
    return s;
}

static int64_t next_int(tokens *t)
{
    char *s = next_token(t);
    if (!s) fail_msg("fixture: missing integer");
    return strtoll(s, NULL, 10);
}

static int read_shape(tokens *t, int64_t *sizes)
{
    int nd = (int)next_int(t);
    for (int d = 0; d < nd; d++) sizes[d] = next_int(t);
    return nd;
}

static double *read_values(tokens *t, int64_t n)
{
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) {
        char *s = next_token(t);
        if (!s) fail_msg("fixture: expected %lld values", (long long)n);
        v[i] = strtod(s, NULL);
    }
    return v;
}

static int64_t numel_of(int nd, const int64_t *sizes)
{
    int64_t n = 1;
    for (int d = 0; d < nd; d++) n *= sizes[d];
    return n;
}

static double tolerance(nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT64: return 1e-12;
    case NN_FLOAT32: return 1e-5;
    case NN_BFLOAT16: return 2e-2;
    default: return 0;
    }
}

/* "NDIM SIZES... VALUES..." checked against t */
static void expect_tensor(const char *what, const char *name, const nn_tensor *t, tokens *tk, double tol)
{
    int64_t sizes[NN_MAX_DIMS];
    int nd = read_shape(tk, sizes);
    double *want = read_values(tk, numel_of(nd, sizes));
    if (!t) fail_msg("%s: %s is missing", name, what);
    tu_assert_values(t, nd, sizes, want, tol);
    free(want);
}

static void expect_chain(const char *name, const nn_tensor *t, tokens *tk)
{
    char want[1024] = "", got[1024] = "";
    for (char *s; (s = next_token(tk));) snprintf(want + strlen(want), sizeof want - strlen(want), " %s", s);
    for (nn_node *fn = t->grad_fn; fn;) {
        snprintf(got + strlen(got), sizeof got - strlen(got), " %s", nn_op_table[fn->op].grad_name);
        nn_node *next = NULL;
        for (int i = 0; i < fn->n_inputs && !next; i++) next = fn->next[i].node;
        fn = next;
    }
    if (strcmp(want, got) != 0) fail_msg("%s: grad_fn chain%s, PyTorch has%s", name, got, want);
}

/* One "case" block starting at lines[*i]; leaves *i past its "end". */
static void run_case(fixture *f, int *i)
{
    /* case NAME... OP DTYPE: the name may hold spaces, op and dtype are the last two words */
    char header[512];
    snprintf(header, sizeof header, "%s", f->lines[*i] + 5);
    char *dt_s = strrchr(header, ' ');
    *dt_s++ = '\0';
    char *op_s = strrchr(header, ' ');
    *op_s++ = '\0';
    const char *name = header;
    nn_dtype dt = tu_dtype(dt_s);
    binary_fn op = op_named(op_s);
    bool floating = nn_dtype_is_floating(dt);
    double tol = tolerance(dt);

    nn_tensor *base[2] = {NULL, NULL}, *in[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        tokens t = {NULL, f->lines[++*i]};
        if (strcmp(next_token(&t), "input") != 0) fail_msg("%s: expected input", name);
        int64_t sizes[NN_MAX_DIMS];
        int nd = read_shape(&t, sizes);
        int nperm = (int)next_int(&t), perm[NN_MAX_DIMS];
        for (int d = 0; d < nperm; d++) perm[d] = (int)next_int(&t);
        double *v = read_values(&t, numel_of(nd, sizes));
        base[k] = tu_tensor(dt, nd, sizes, v);
        free(v);
        if (floating) tu_check(nn_set_requires_grad(base[k], true));
        in[k] = nperm ? TU_OK(nn_permute(base[k], nperm, perm)) : (NN_RETAIN(base[k]), base[k]);
    }
    nn_tensor *out = op(in[0], in[1]);
    if (!out) fail_msg("%s: %s", name, nn_error_message());
    assert_int_equal(out->dtype, dt);
    nn_tensor *w = NULL;
    int g = 0;
    for (++*i; *i < f->n && strcmp(f->lines[*i], "end") != 0; ++*i) {
        tokens t = {NULL, f->lines[*i]};
        char *kind = next_token(&t);
        if (strcmp(kind, "output") == 0) {
            expect_tensor("output", name, out, &t, tol);
        } else if (strcmp(kind, "chain") == 0) {
            expect_chain(name, out, &t);
        } else if (strcmp(kind, "weight") == 0) {
            double *v = read_values(&t, nn_numel(out));
            w = tu_tensor(dt, out->ndim, out->sizes, v);
            free(v);
            if (nn_backward(out, w, false, false) < 0) fail_msg("%s: backward: %s", name, nn_error_message());
        } else if (strcmp(kind, "grad") == 0) {
            if (g >= 2) fail_msg("%s: too many grads", name);
            nn_tensor *grad = base[g & 1]->grad;
            if (grad) assert_int_equal(grad->dtype, dt);
            expect_tensor(g == 0 ? "grad of a" : "grad of b", name, grad, &t, tol * 2);
            g++;
        } else {
            fail_msg("%s: unexpected line %s", name, kind);
        }
    }
    if (floating && g != 2) fail_msg("%s: fixture has %d grads, expected 2", name, g);
    if (!floating) assert_null(out->grad_fn);
    NN_RELEASE(w);
    NN_RELEASE(out);
    for (int k = 0; k < 2; k++) {
        NN_RELEASE(in[k]);
        NN_RELEASE(base[k]);
    }
}

/* "DTYPE NDIM SIZES..." as a tensor of ones */
static nn_tensor *ones_from(tokens *t)
{
    nn_dtype dt = tu_dtype(next_token(t));
    int64_t sizes[NN_MAX_DIMS];
    int nd = read_shape(t, sizes);
    return TU_OK(nn_ones(nd, sizes, dt));
}

/* error OP DTYPE_A NDIM_A SIZES_A... DTYPE_B NDIM_B SIZES_B... | KIND | MESSAGE */
static void run_error(const char *line)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", line);
    char *kind = strstr(buf, " | ");
    *kind = '\0';
    kind += 3;
    char *message = strstr(kind, " | ");
    *message = '\0';
    message += 3;
    tokens t = {NULL, buf};
    next_token(&t);
    binary_fn op = op_named(next_token(&t));
    nn_tensor *a = ones_from(&t), *b = ones_from(&t);
    nn_error_clear();
    nn_tensor *r = op(a, b);
    if (r) fail_msg("%s: no error (PyTorch: %s)", line, message);
    if (strcmp(nn_error_kind_name(nn_error_current()), kind) != 0 || strcmp(nn_error_message(), message) != 0)
        fail_msg("%s\n  got:  %s: %s\n  want: %s: %s", buf, nn_error_kind_name(nn_error_current()), nn_error_message(),
                 kind, message);
    nn_error_clear();
    NN_RELEASE(a);
    NN_RELEASE(b);
}

/* empty OP DTYPE_A ... DTYPE_B ... | RESULT_DTYPE NDIM SIZES... (all zeros) */
static void run_empty(const char *line)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", line);
    char *result = strstr(buf, " | ");
    *result = '\0';
    result += 3;
    tokens t = {NULL, buf};
    next_token(&t);
    binary_fn op = op_named(next_token(&t));
    nn_tensor *a = ones_from(&t), *b = ones_from(&t);
    nn_tensor *r = op(a, b);
    if (!r) fail_msg("%s: %s", line, nn_error_message());
    tokens rt = {NULL, result};
    assert_int_equal(r->dtype, tu_dtype(next_token(&rt)));
    int64_t sizes[NN_MAX_DIMS];
    int nd = read_shape(&rt, sizes);
    double *zeros = calloc((size_t)(numel_of(nd, sizes) + 1), sizeof(double));
    tu_assert_values(r, nd, sizes, zeros, 0);
    free(zeros);
    NN_RELEASE(r);
    NN_RELEASE(a);
    NN_RELEASE(b);
}

static void test_fixture_cases(void **state)
{
    (void)state;
    fixture f = load_fixture();
    int cases = 0, errors = 0, empties = 0;
    for (int i = 0; i < f.n; i++) {
        if (strncmp(f.lines[i], "case ", 5) == 0) {
            run_case(&f, &i);
            cases++;
        } else if (strncmp(f.lines[i], "error ", 6) == 0) {
            run_error(f.lines[i]);
            errors++;
        } else if (strncmp(f.lines[i], "empty ", 6) == 0) {
            run_empty(f.lines[i]);
            empties++;
        }
    }
    print_message("checked %d cases, %d errors, %d empty products\n", cases, errors, empties);
    assert_true(cases > 50 && errors > 40 && empties > 0);
    free_fixture(&f);
}

/* ------------------------------------------------------ strided layouts */

static nn_tensor *random_tensor(int ndim, const int64_t *sizes, nn_dtype dt, unsigned seed)
{
    int64_t n = numel_of(ndim, sizes);
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        v[i] = dt == NN_INT64 ? (double)((seed >> 16) % 11) - 5 : ((seed >> 8) & 0xffff) / 32768.0 - 1.0;
    }
    nn_tensor *t = tu_tensor(dt, ndim, sizes, v);
    free(v);
    return t;
}

static double bf16(double v) { return nn_bfloat16_to_float(nn_float_to_bfloat16((float)v)); }

/* a [n, k] @ b [k, m] in double, element by element through the views' strides; or,
   plain, as PyTorch 1.13's plain bfloat16 loops (nn_bf16_plain_product): each product
   and partial sum rounded to bfloat16, k in order */
static double *reference_mm(const nn_tensor *a, const nn_tensor *b, bool plain)
{
    int64_t n = a->sizes[0], k = a->sizes[1], m = b->sizes[1];
    double *r = calloc((size_t)(n * m + 1), sizeof(double));
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) {
            double s = 0;
            for (int64_t p = 0; p < k; p++) {
                double ab = nn_get_double(a, (int64_t[]){i, p}) * nn_get_double(b, (int64_t[]){p, j});
                s = plain ? bf16(s + bf16(ab)) : s + ab;
            }
            r[i * m + j] = s;
        }
    return r;
}

static void check_mm(nn_tensor *a, nn_tensor *b, double tol)
{
    nn_tensor *r = TU_OK(nn_mm(a, b));
    bool plain = a->dtype == NN_BFLOAT16 && nn_bf16_plain_product(a, b, 0);
    double *want = reference_mm(a, b, plain);
    tu_assert_values(r, 2, (int64_t[]){a->sizes[0], b->sizes[1]}, want, plain ? 0 : tol);
    free(want);
    NN_RELEASE(r);
}

static void check_mv(nn_tensor *a, nn_tensor *x, double tol)
{
    nn_tensor *r = TU_OK(nn_mv(a, x)), *col = TU_OK(nn_unsqueeze(x, 1));
    bool plain = a->dtype == NN_BFLOAT16 && nn_bf16_plain_product(a, x, 1);
    double *want = reference_mm(a, col, plain);
    tu_assert_values(r, 1, (int64_t[]){a->sizes[0]}, want, plain ? 0 : tol);
    free(want);
    NN_RELEASE(r);
    NN_RELEASE(col);
}

/* a bfloat16 dot as PyTorch 1.13's dot_naive where it takes the plain loops */
static void check_dot(nn_tensor *x, nn_tensor *y, double tol)
{
    nn_tensor *r = TU_OK(nn_dot(x, y)), *row = TU_OK(nn_unsqueeze(x, 0)), *col = TU_OK(nn_unsqueeze(y, 1));
    bool plain = x->dtype == NN_BFLOAT16 && nn_bf16_plain_product(x, y, 2);
    double *want = reference_mm(row, col, plain);
    tu_assert_values(r, 0, NULL, want, plain ? 0 : tol);
    free(want);
    NN_RELEASE(r);
    NN_RELEASE(row);
    NN_RELEASE(col);
}

static void test_strided_operands(void **state)
{
    (void)state;
    const nn_dtype dts[] = {NN_FLOAT32, NN_FLOAT64, NN_INT64, NN_BFLOAT16};
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
        nn_dtype dt = dts[d];
        double tol = dt == NN_FLOAT32 ? 1e-5 : dt == NN_BFLOAT16 ? 2e-2 : 1e-12;
        nn_tensor *big = random_tensor(2, TU_SHAPE(70, 130), dt, 7 + (unsigned)d);
        nn_tensor *other = random_tensor(2, TU_SHAPE(130, 40), dt, 11 + (unsigned)d);
        nn_tensor *v[12] = {NULL};
        int nv = 0;
#define KEEP(expr) (v[nv++] = TU_OK(expr))
        /* contiguous */
        check_mm(big, other, tol);
        /* column slices: a row stride larger than the row (BLAS leading dim) */
        nn_tensor *rows_cut = KEEP(nn_slice(other, 0, 10, 75, 1));
        nn_tensor *cols_cut = KEEP(nn_slice(big, 1, 3, 68, 1));
        check_mm(cols_cut, KEEP(nn_slice(rows_cut, 1, 5, 37, 1)), tol);
        /* transposed (column-major, read with CblasTrans), also sliced */
        nn_tensor *at = KEEP(nn_t(big)), *ot = KEEP(nn_t(other));
        check_mm(ot, at, tol);
        nn_tensor *ot_cut = KEEP(nn_slice(ot, 1, 0, 100, 1));
        check_mm(ot_cut, KEEP(nn_slice(at, 0, 0, 100, 1)), tol);
        /* stepped: neither row- nor column-major, copied first */
        nn_tensor *stepped = KEEP(nn_slice(big, 1, 0, 130, 2));
        check_mm(stepped, KEEP(nn_slice(other, 0, 0, 130, 2)), tol);
        /* expanded rows (stride 0) */
        nn_tensor *one_row = KEEP(nn_slice(big, 0, 5, 6, 1));
        check_mm(KEEP(nn_expand(one_row, 2, TU_SHAPE(9, -1))), other, tol);
#undef KEEP
        /* vectors: strided, transposed matrix, expanded */
        nn_tensor *x = TU_OK(nn_select(other, 1, 3)); /* [130], stride 40 */
        check_mv(big, x, tol);
        nn_tensor *brow = TU_OK(nn_select(big, 0, 1)); /* [130] */
        check_mv(ot, brow, tol);
        NN_RELEASE(brow);
        nn_tensor *one = TU_OK(nn_slice(x, 0, 0, 1, 1)), *ex = TU_OK(nn_expand(one, 1, TU_SHAPE(130)));
        check_mv(big, ex, tol);
        nn_tensor *row = TU_OK(nn_select(big, 0, 2));
        check_dot(row, x, tol);
        check_dot(ex, x, tol);
        NN_RELEASE(x); NN_RELEASE(one); NN_RELEASE(ex); NN_RELEASE(row);
        for (int i = 0; i < nv; i++) NN_RELEASE(v[i]);
        NN_RELEASE(big);
        NN_RELEASE(other);
    }
}

static nn_tensor *leaf(int ndim, const int64_t *sizes, const double *values)
{
    nn_tensor *t = tu_tensor(NN_FLOAT32, ndim, sizes, values);
    tu_check(nn_set_requires_grad(t, true));
    return t;
}

static void test_autograd_details(void **state)
{
    (void)state;
    nn_tensor *a = leaf(2, TU_SHAPE(2, 2), TU_VALUES(1, 2, 3, 4));
    nn_tensor *b = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 2), TU_VALUES(1, 0, 0, 1));
    /* no grad mode: no history */
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *r = TU_OK(nn_matmul(a, b));
    nn_set_grad_enabled(prev);
    assert_null(r->grad_fn);
    assert_false(r->requires_grad);
    NN_RELEASE(r);
    /* mm saves b for a's gradient: changing b in place breaks the backward */
    r = TU_OK(nn_mm(a, b));
    nn_tensor *s = TU_OK(nn_sum(r, 0, NULL, false));
    nn_tensor *one = TU_OK(nn_scalar(1, NN_FLOAT32));
    tu_check(nn_add_(b, one, 1.0));
    assert_int_equal(nn_backward(s, NULL, false, false), -1);
    tu_assert_error(NN_ERR_RUNTIME, "one of the variables needed for gradient computation has been modified by an "
                                    "inplace operation: [torch.FloatTensor [2, 2]] is at version 1; expected version 0");
    NN_RELEASE(r); NN_RELEASE(s);
    /* 1-D @ 2-D: squeeze_ ran in place on the product (version 1), grads flow through it */
    nn_tensor *x = leaf(1, TU_SHAPE(2), TU_VALUES(1, -1));
    r = TU_OK(nn_matmul(x, a));
    assert_string_equal(nn_grad_fn_name(r), "SqueezeBackward3");
    assert_int_equal(r->storage->version, 1);
    tu_assert_values(r, 1, TU_SHAPE(2), TU_VALUES(-2, -2), 0);
    s = TU_OK(nn_sum(r, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    tu_assert_values(x->grad, 1, TU_SHAPE(2), TU_VALUES(3, 7), 0);
    tu_assert_values(a->grad, 2, TU_SHAPE(2, 2), TU_VALUES(1, 1, -1, -1), 0);
    NN_RELEASE(r); NN_RELEASE(s);
    /* double backward: d/da sum(a @ a) built with create_graph, then differentiated again */
    nn_tensor *c = leaf(2, TU_SHAPE(2, 2), TU_VALUES(1, 2, 3, 4));
    r = TU_OK(nn_mm(c, c));
    s = TU_OK(nn_sum(r, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, true));
    nn_tensor *g = TU_OK(nn_grad(c));
    assert_non_null(g->grad_fn);
    /* grad[i][j] = 1 @ c^T + c^T @ 1 = (column sum i) + (row sum j) of c */
    tu_assert_values(g, 2, TU_SHAPE(2, 2), TU_VALUES(4 + 3, 4 + 7, 6 + 3, 6 + 7), 1e-6);
    nn_tensor *gs = TU_OK(nn_sum(g, 0, NULL, false));
    NN_SET(c->grad, NULL);
    tu_check(nn_backward(gs, NULL, false, false));
    /* sum(grad) = sum_ij (rowsum_i + colsum_j) = 2 * 2 * sum(c): d/dc = 4 everywhere */
    tu_assert_values(c->grad, 2, TU_SHAPE(2, 2), TU_VALUES(4, 4, 4, 4), 1e-6);
    NN_RELEASE(g); NN_RELEASE(gs); NN_RELEASE(r); NN_RELEASE(s); NN_RELEASE(c);
    NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(one); NN_RELEASE(x);
}

/* core/blas.c opens OpenBLAS on the first product, so a process that multiplies
 * no matrix never starts (or spins) its worker threads. Runs first. */
static void test_blas_opened_on_first_product(void **state)
{
    const char *blas = "libopenblas.so.0";
    int64_t sizes[2] = {2, 2};
    nn_tensor *a = TU_OK(nn_ones(2, sizes, NN_FLOAT32));
    nn_tensor *sum = TU_OK(nn_add(a, a));
    assert_null(dlopen(blas, RTLD_NOW | RTLD_NOLOAD));
    nn_tensor *product = TU_OK(nn_mm(a, a));
    tu_assert_values(product, 2, TU_SHAPE(2, 2), TU_VALUES(2, 2, 2, 2), 0);
    void *opened = dlopen(blas, RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(opened);
    dlclose(opened); /* drops only the reference RTLD_NOLOAD took */
    NN_RELEASE(a); NN_RELEASE(sum); NN_RELEASE(product);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blas_opened_on_first_product),
        cmocka_unit_test(test_fixture_cases),
        cmocka_unit_test(test_strided_operands),
        cmocka_unit_test(test_autograd_details),
    };
    return cmocka_run_group_tests_name("matmul", tests, NULL, NULL);
}
