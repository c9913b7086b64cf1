/*
 * test_layers.c — torch.nn's basic layers (core/layers.c) against PyTorch 1.13:
 * the scripts of fixtures/layers.txt (written by fixtures/gen_layers.py) replayed
 * line by line — seeded construction and the parameters and buffers it gives,
 * reprs, state_dict keys, forward results and grad_fns, input and parameter
 * gradients, train/eval behaviour (BatchNorm's running statistics, Dropout's
 * draws) and PyTorch's errors; then what the fixture can't show: attributes
 * driving forward, LazyLinear's placeholders, BatchNorm's double backward and
 * state-dict loading, and forward's argument binding.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- parsing */



static int64_t compared, bit_identical;
static int current_line; /* of the fixture, for messages */

/* Asserts t equals the fixture tensor (shape, dtype, values within tol; 0: bit for bit). */
static void expect_tensor(const char *what, const char *name, const nn_tensor *t, char *text, double tol)
{
    if (!t) fail_msg("%s: %s is missing", what, name);
    nn_tensor *want = tu_parse_tensor(&text);
    if (t->ndim != want->ndim || t->dtype != want->dtype)
        fail_msg("%s: %s: dtype %s ndim %d, PyTorch %s ndim %d", what, name, nn_dtype_name(t->dtype), t->ndim,
                 nn_dtype_name(want->dtype), want->ndim);
    for (int d = 0; d < t->ndim; d++)
        if (t->sizes[d] != want->sizes[d]) fail_msg("%s: %s: shape differs at dim %d", what, name, d);
    int64_t n = nn_numel(t);
    double *a = malloc(sizeof(double) * (size_t)(n ? n : 1)), *b = malloc(sizeof(double) * (size_t)(n ? n : 1));
    nn_to_doubles(t, a);
    nn_to_doubles(want, b);
    for (int64_t i = 0; i < n; i++) {
        bool same = a[i] == b[i] || (isnan(a[i]) && isnan(b[i]));
        compared++;
        bit_identical += same;
        if (!same && !(tol > 0 && fabs(a[i] - b[i]) <= tol * (1 + fabs(b[i]))))
            fail_msg("%s (line %d): %s: element %lld is %.17g, PyTorch %.17g", what, current_line, name, (long long)i,
                     a[i], b[i]);
    }
    free(a);
    free(b);
    NN_RELEASE(want);
}

/* The value of key in "k1=v1 k2=v2" into buf (NULL when absent). */
static const char *kv(const char *args, const char *key, char *buf, size_t n)
{
    char pat[64];
    snprintf(pat, sizeof pat, "%s=", key);
    for (const char *p = args; (p = strstr(p, pat)); p++) {
        if (p != args && p[-1] != ' ') continue;
        size_t len = strcspn(p + strlen(pat), " ");
        snprintf(buf, n, "%.*s", (int)len, p + strlen(pat));
        return buf;
    }
    return NULL;
}

static int64_t kv_int(const char *args, const char *key, int64_t dflt)
{
    char buf[64];
    return kv(args, key, buf, sizeof buf) ? strtoll(buf, NULL, 10) : dflt;
}

static double kv_double(const char *args, const char *key, double dflt)
{
    char buf[64];
    if (!kv(args, key, buf, sizeof buf)) return dflt;
    return !strcmp(buf, "None") ? NAN : strtod(buf, NULL);
}

static bool kv_bool(const char *args, const char *key, bool dflt)
{
    char buf[64];
    return kv(args, key, buf, sizeof buf) ? !strcmp(buf, "True") : dflt;
}

static nn_dtype kv_dtype(const char *args)
{
    char buf[64];
    return kv(args, "dtype", buf, sizeof buf) ? tu_dtype(buf) : NN_FLOAT32;
}

/* nn.KIND(**args) through the C constructors. */
static nn_module *make_module(const char *kind, const char *args)
{
    char buf[64];
    if (!strcmp(kind, "Linear"))
        return nn_linear_new(kv_int(args, "in_features", 0), kv_int(args, "out_features", 0),
                             kv_bool(args, "bias", true), kv_dtype(args));
    if (!strcmp(kind, "LazyLinear"))
        return nn_lazy_linear_new(kv_int(args, "out_features", 0), kv_bool(args, "bias", true), kv_dtype(args));
    if (!strcmp(kind, "Identity")) return nn_identity_new();
    if (!strcmp(kind, "Flatten")) return nn_flatten_new(kv_int(args, "start_dim", 1), kv_int(args, "end_dim", -1));
    if (!strcmp(kind, "Dropout")) return nn_dropout_new(kv_double(args, "p", 0.5), kv_bool(args, "inplace", false));
    if (!strcmp(kind, "LayerNorm")) {
        int64_t shape[NN_MAX_DIMS];
        int n = 0;
        for (char *p = (char *)kv(args, "normalized_shape", buf, sizeof buf), *end; p && *p; p = *end ? end + 1 : end)
            shape[n++] = strtoll(p, &end, 10);
        return nn_layer_norm_new(n, shape, kv_double(args, "eps", 1e-5), kv_bool(args, "elementwise_affine", true),
                                 kv_dtype(args));
    }
    if (!strcmp(kind, "BatchNorm1d"))
        return nn_batch_norm1d_new(kv_int(args, "num_features", 0), kv_double(args, "eps", 1e-5),
                                   kv_double(args, "momentum", 0.1), kv_bool(args, "affine", true),
                                   kv_bool(args, "track_running_stats", true), kv_dtype(args));
    if (!strcmp(kind, "Embedding")) {
        bool has_pad = kv(args, "padding_idx", buf, sizeof buf) && strcmp(buf, "None") != 0;
        return nn_embedding_new(kv_int(args, "num_embeddings", 0), kv_int(args, "embedding_dim", 0), has_pad,
                                kv_int(args, "padding_idx", 0), kv_dtype(args));
    }
    const char *reduction = kv(args, "reduction", buf, sizeof buf);
    if (!strcmp(kind, "MSELoss")) return nn_mse_loss_new(reduction);
    if (!strcmp(kind, "L1Loss")) return nn_l1_loss_new(reduction);
    if (!strcmp(kind, "CrossEntropyLoss"))
        return nn_cross_entropy_loss_new(reduction, kv_int(args, "ignore_index", -100),
                                         kv_double(args, "label_smoothing", 0.0));
    fail_msg("fixture: unknown module %s", kind);
    return NULL;
}

/* ---------------------------------------------------------------- replay */

#define MAX_ARGS 4

typedef struct replay {
    char name[128];
    double tol;
    nn_module *m;
    char arg_names[MAX_ARGS][32];
    nn_tensor *args[MAX_ARGS];
    int n_args;
    nn_object *out;
    bool failed; /* the last command failed; an "error" line must follow */
    nn_error_kind kind;
    char message[1024];
} replay;

static void record_status(replay *r, bool ok)
{
    r->failed = !ok;
    if (r->failed) {
        r->kind = nn_error_current();
        snprintf(r->message, sizeof r->message, "%s", nn_error_message());
        nn_error_clear();
    }
}

static void clear_args(replay *r)
{
    for (int i = 0; i < r->n_args; i++) NN_SET(r->args[i], NULL);
    r->n_args = 0;
    NN_SET(r->out, NULL);
    if (r->m) tu_check(nn_module_zero_grad(r->m, true));
}

static nn_tensor *arg_named(replay *r, const char *name)
{
    for (int i = 0; i < r->n_args; i++)
        if (!strcmp(r->arg_names[i], name)) return r->args[i];
    return NULL;
}

static void unescape(char *s)
{
    char *w = s;
    for (char *p = s; *p; p++) {
        if (p[0] == '\\' && p[1] == 'n') {
            *w++ = '\n';
            p++;
        } else {
            *w++ = *p;
        }
    }
    *w = '\0';
}

static void step(replay *r, char *line)
{
    char *rest = strchr(line, ' ');
    rest = rest ? rest + 1 : line + strlen(line);
    size_t n = strcspn(line, " ");
    char cmd[32], word[32];
    snprintf(cmd, sizeof cmd, "%.*s", (int)n, line);
    size_t k = strcspn(rest, " ");
    snprintf(word, sizeof word, "%.*s", (int)k, rest);
    char *after = rest[k] ? rest + k + 1 : rest + k;
    if (!strcmp(cmd, "error")) {
        if (!r->failed) fail_msg("%s: expected an error: %s", r->name, rest);
        if (strcmp(word, nn_error_kind_name(r->kind)) != 0 || strcmp(after, r->message) != 0)
            fail_msg("%s: error %s: %s\n  PyTorch: %s: %s", r->name, nn_error_kind_name(r->kind), r->message, word,
                     after);
        r->failed = false;
        return;
    }
    if (r->failed) fail_msg("%s: %s: %s", r->name, nn_error_kind_name(r->kind), r->message);
    if (!strcmp(cmd, "case")) {
        snprintf(r->name, sizeof r->name, "%s", rest);
        r->tol = 0;
    } else if (!strcmp(cmd, "seed")) {
        nn_generator_seed(nn_default_generator(), strtoull(rest, NULL, 10));
    } else if (!strcmp(cmd, "tol")) {
        r->tol = strtod(rest, NULL);
    } else if (!strcmp(cmd, "new")) {
        NN_SET(r->m, make_module(word, after));
        record_status(r, r->m != NULL);
    } else if (!strcmp(cmd, "param") || !strcmp(cmd, "buffer")) {
        nn_object *v = nn_dict_get_str(cmd[0] == 'p' ? r->m->parameters : r->m->buffers, word);
        if (!v) fail_msg("%s: no %s %s", r->name, cmd, word);
        if (!strcmp(after, "None")) {
            if (!nn_is_none(v)) fail_msg("%s: %s %s is not None", r->name, cmd, word);
            return;
        }
        if (cmd[0] == 'p' && !nn_is_parameter(v)) fail_msg("%s: %s is not a Parameter", r->name, word);
        expect_tensor(r->name, word, NN_TENSOR(v), after, r->tol);
    } else if (!strcmp(cmd, "uninitialized")) {
        nn_object *v = nn_dict_get_str(r->m->parameters, word);
        if (!v || !nn_is_uninitialized(v)) fail_msg("%s: %s is not uninitialized", r->name, word);
        assert_true(nn_is_instance(v, &nn_parameter_type));
        char *s = nn_repr(v);
        assert_string_equal(s, "<UninitializedParameter>");
        nn_free(s);
        assert_int_equal(nn_check_initialized(NN_TENSOR(v)), -1);
        tu_assert_error(NN_ERR_RUNTIME, "Can't access the shape of an uninitialized parameter or buffer. This error "
                                        "usually happens in `load_state_dict` when trying to load an uninitialized "
                                        "parameter into an initialized one. Call `forward` to initialize the "
                                        "parameters before accessing their attributes.");
    } else if (!strcmp(cmd, "repr")) {
        unescape(rest);
        char *s = TU_OK(nn_module_repr(r->m));
        if (strcmp(s, rest) != 0) fail_msg("%s: repr\n%s\nPyTorch:\n%s", r->name, s, rest);
        nn_free(s);
    } else if (!strcmp(cmd, "keys")) {
        nn_object *sd = TU_OK(nn_module_state_dict(r->m, "", false));
        char keys[512] = "";
        size_t pos = 0;
        nn_object *key, *v;
        while (nn_dict_next(sd, &pos, &key, &v))
            snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%s", keys[0] ? "," : "", nn_str_cstr(key));
        if (strcmp(keys[0] ? keys : "-", rest) != 0) fail_msg("%s: state_dict keys %s, PyTorch %s", r->name, keys, rest);
        NN_RELEASE(sd);
    } else if (!strcmp(cmd, "name")) {
        assert_string_equal(nn_module_name(r->m), rest);
    } else if (!strcmp(cmd, "train") || !strcmp(cmd, "eval")) {
        tu_check(nn_module_train(r->m, cmd[0] == 't'));
    } else if (!strcmp(cmd, "arg")) {
        if (r->n_args == MAX_ARGS) fail_msg("fixture: too many args");
        char *p = after + 2;
        snprintf(r->arg_names[r->n_args], sizeof r->arg_names[0], "%s", word);
        r->args[r->n_args] = tu_parse_tensor(&p);
        if (after[0] == '1') tu_check(nn_set_requires_grad(r->args[r->n_args], true));
        r->n_args++;
    } else if (!strcmp(cmd, "transpose")) {
        int d0, d1;
        if (sscanf(after, "%d %d", &d0, &d1) != 2) fail_msg("fixture: bad transpose");
        for (int i = 0; i < r->n_args; i++)
            if (!strcmp(r->arg_names[i], word)) {
                /* the leaf stays reachable through the view's base for "grad" */
                nn_tensor *t = TU_OK(nn_transpose(r->args[i], d0, d1));
                NN_SET(r->args[i], t);
            }
    } else if (!strcmp(cmd, "forward")) {
        nn_object *args = TU_OK(nn_tuple_new((size_t)r->n_args));
        for (int i = 0; i < r->n_args; i++) nn_tuple_set(args, (size_t)i, nn_retain(&r->args[i]->ob));
        NN_SET(r->out, nn_module_call(r->m, args, NULL));
        NN_RELEASE(args);
        record_status(r, r->out != NULL);
    } else if (!strcmp(cmd, "same_object")) {
        if (r->out != &r->args[0]->ob) fail_msg("%s: the result is not the input itself", r->name);
    } else if (!strcmp(cmd, "out")) {
        if (!nn_is_tensor(r->out)) fail_msg("%s: the result is not a tensor", r->name);
        expect_tensor(r->name, "out", NN_TENSOR(r->out), rest, r->tol);
    } else if (!strcmp(cmd, "grad_fn")) {
        const char *got = nn_grad_fn_name(NN_TENSOR(r->out));
        if (strcmp(got ? got : "None", rest) != 0) fail_msg("%s: grad_fn %s, PyTorch %s", r->name, got, rest);
    } else if (!strcmp(cmd, "argval")) {
        expect_tensor(r->name, word, arg_named(r, word), after, r->tol);
    } else if (!strcmp(cmd, "backward")) {
        char *p = rest;
        nn_tensor *g = tu_parse_tensor(&p);
        tu_check(nn_backward(NN_TENSOR(r->out), g, false, false));
        NN_RELEASE(g);
    } else if (!strcmp(cmd, "grad")) {
        nn_tensor *t = arg_named(r, word);
        if (t && t->base) t = t->base; /* a transposed argument: the leaf's gradient */
        if (!t) {
            nn_object *p = nn_dict_get_str(r->m->parameters, word);
            t = p ? NN_TENSOR(p) : NULL;
        }
        if (!t) fail_msg("%s: no tensor %s", r->name, word);
        expect_tensor(r->name, word, t->grad, after, r->tol);
    } else if (!strcmp(cmd, "clear")) {
        clear_args(r);
    } else if (!strcmp(cmd, "load_from")) {
        nn_generator_seed(nn_default_generator(), 0);
        nn_module *src = TU_OK(make_module(word, after));
        nn_object *sd = TU_OK(nn_module_state_dict(src, "", false));
        nn_object *result = TU_OK(nn_module_load_state_dict(r->m, sd, true, false));
        NN_RELEASE(result);
        NN_RELEASE(sd);
        NN_RELEASE(src);
    } else if (!strcmp(cmd, "rand")) {
        char *p = rest;
        nn_tensor *shape = tu_parse_tensor(&p);
        nn_tensor *drawn = TU_OK(nn_rand(shape->ndim, shape->sizes, NN_FLOAT32));
        expect_tensor(r->name, "the random stream", drawn, rest, 0);
        NN_RELEASE(shape);
        NN_RELEASE(drawn);
    } else if (!strcmp(cmd, "end")) {
        clear_args(r);
        NN_SET(r->m, NULL);
    } else {
        fail_msg("fixture: unknown command %s", cmd);
    }
}

static void test_fixture(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/layers.txt");
    replay r = {.name = "?"};
    int cases = 0;
    for (char *line = text, *next; line && *line; line = next) {
        current_line++;
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        if (line[0] == '#') continue;
        cases += !strncmp(line, "case ", 5);
        step(&r, line);
    }
    if (r.failed) fail_msg("%s: %s", r.name, r.message);
    print_message("  %d layer cases; %lld of %lld values bit-identical to PyTorch\n", cases, (long long)bit_identical,
                  (long long)compared);
    assert_true(cases > 40);
    free(text);
}

/* ------------------------------------------------------------ behaviour */

/* m(x) for a tensor; fails the test on error. */
static nn_tensor *call1(nn_module *m, nn_tensor *x) { return TU_OK(nn_module_call1(m, x)); }

static void test_attributes_drive_forward(void **state)
{
    (void)state;
    nn_module *d = TU_OK(nn_dropout_new(0.5, false));
    assert_true(nn_float_value(nn_module_getattr(d, "p")) == 0.5);
    nn_object *zero = TU_OK(nn_float_new(0.0));
    tu_check(nn_module_setattr(d, "p", zero));
    NN_RELEASE(zero);
    nn_tensor *x = TU_OK(nn_ones(2, TU_SHAPE(3, 4), NN_FLOAT32));
    nn_tensor *y = call1(d, x);
    assert_ptr_equal(y, x); /* p == 0: F.dropout returns the input */
    NN_RELEASE(y);
    nn_object *two = TU_OK(nn_int_new(2));
    tu_check(nn_module_setattr(d, "p", two));
    NN_RELEASE(two);
    assert_null(nn_module_call1(d, x));
    tu_assert_error(NN_ERR_VALUE, "dropout probability has to be between 0 and 1, but got 2");
    char *s = TU_OK(nn_module_repr(d));
    assert_string_equal(s, "Dropout(p=2, inplace=False)");
    nn_free(s);
    NN_RELEASE(d);

    nn_module *f = TU_OK(nn_flatten_new(1, -1));
    nn_object *end = TU_OK(nn_int_new(1));
    tu_check(nn_module_setattr(f, "end_dim", end));
    NN_RELEASE(end);
    nn_tensor *x3 = TU_OK(nn_zeros(3, TU_SHAPE(2, 3, 4), NN_FLOAT32)), *flat = call1(f, x3);
    assert_int_equal(flat->ndim, 3);
    s = TU_OK(nn_module_repr(f));
    assert_string_equal(s, "Flatten(start_dim=1, end_dim=1)");
    nn_free(s);
    NN_RELEASE(flat);
    NN_RELEASE(x3);
    NN_RELEASE(f);

    nn_module *l = TU_OK(nn_linear_new(4, 2, true, NN_FLOAT32));
    assert_int_equal(nn_int_value(nn_module_getattr(l, "in_features")), 4);
    assert_int_equal(nn_int_value(nn_module_getattr(l, "out_features")), 2);
    tu_check(nn_module_setattr(l, "bias", NULL));
    s = TU_OK(nn_module_repr(l));
    assert_string_equal(s, "Linear(in_features=4, out_features=2, bias=False)");
    nn_free(s);
    y = call1(l, x);
    assert_string_equal(nn_grad_fn_name(y), "MmBackward0");
    NN_RELEASE(y);
    NN_RELEASE(l);
    NN_RELEASE(x);
}

static void test_forward_argument_binding(void **state)
{
    (void)state;
    nn_module *l = TU_OK(nn_linear_new(2, 2, true, NN_FLOAT32));
    nn_object *none_args = TU_OK(nn_tuple_new(0));
    assert_null(nn_module_call(l, none_args, NULL));
    tu_assert_error(NN_ERR_TYPE, "Linear.forward() missing 1 required positional argument: 'input'");
    nn_tensor *x = TU_OK(nn_ones(2, TU_SHAPE(3, 2), NN_FLOAT32));
    nn_object *two = TU_OK(nn_tuple_pack(2, &x->ob, &x->ob));
    assert_null(nn_module_call(l, two, NULL));
    tu_assert_error(NN_ERR_TYPE, "Linear.forward() takes 2 positional arguments but 3 were given");
    nn_object *kw = TU_OK(nn_dict_new());
    tu_check(nn_dict_set_str(kw, "input", &x->ob));
    nn_object *y = TU_OK(nn_module_call(l, none_args, kw));
    assert_true(nn_is_tensor(y));
    NN_RELEASE(y);
    tu_check(nn_dict_set_str(kw, "x", &x->ob));
    assert_null(nn_module_call(l, none_args, kw));
    tu_assert_error(NN_ERR_TYPE, "Linear.forward() got an unexpected keyword argument 'x'");
    nn_object *three = TU_OK(nn_int_new(3)), *a3 = TU_OK(nn_tuple_pack(1, three));
    assert_null(nn_module_call(l, a3, NULL));
    tu_assert_error(NN_ERR_TYPE, "linear(): argument 'input' (position 1) must be Tensor, not int");
    nn_module *loss = TU_OK(nn_mse_loss_new(NULL));
    assert_null(nn_module_call(loss, none_args, NULL));
    tu_assert_error(NN_ERR_TYPE, "MSELoss.forward() missing 2 required positional arguments: 'input' and 'target'");
    nn_module *id = TU_OK(nn_identity_new());
    nn_object *same = TU_OK(nn_module_call(id, a3, NULL));
    assert_ptr_equal(same, three);
    NN_RELEASE(same);
    NN_RELEASE(id);
    NN_RELEASE(loss);
    NN_RELEASE(three);
    NN_RELEASE(a3);
    NN_RELEASE(kw);
    NN_RELEASE(two);
    NN_RELEASE(none_args);
    NN_RELEASE(x);
    NN_RELEASE(l);
}

static void test_lazy_linear(void **state)
{
    (void)state;
    nn_module *m = TU_OK(nn_lazy_linear_new(3, true, NN_FLOAT32));
    tu_check(nn_module_to_dtype(m, NN_FLOAT64)); /* placeholders take the dtype they materialize in */
    nn_tensor *w = NN_TENSOR(nn_module_getattr(m, "weight"));
    assert_true(nn_is_uninitialized(&w->ob));
    nn_object *params = TU_OK(nn_module_parameters(m, true));
    assert_int_equal(nn_list_len(params), 2);
    NN_RELEASE(params);
    nn_tensor *x = TU_OK(nn_ones(2, TU_SHAPE(2, 7), NN_FLOAT64));
    /* a failing first call leaves the module lazy */
    nn_tensor *scalar = TU_OK(nn_scalar(1, NN_FLOAT64));
    assert_null(nn_module_call1(m, scalar));
    tu_assert_error(NN_ERR_INDEX, "tuple index out of range");
    assert_string_equal(nn_module_name(m), "LazyLinear");
    nn_tensor *y = call1(m, x);
    assert_string_equal(nn_module_name(m), "Linear");
    assert_ptr_equal(nn_module_getattr(m, "weight"), w); /* the same Parameter object */
    assert_true(nn_is_parameter(&w->ob));
    assert_int_equal(w->dtype, NN_FLOAT64);
    assert_int_equal(w->sizes[1], 7);
    assert_true(w->requires_grad);
    assert_int_equal(nn_check_initialized(w), 0);
    assert_null(nn_dict_get_str(m->attrs, "_load_hook"));
    assert_int_equal(nn_dict_len(m->load_state_dict_pre_hooks), 0);
    assert_int_equal(y->dtype, NN_FLOAT64);
    NN_RELEASE(y);
    NN_RELEASE(x);
    NN_RELEASE(scalar);
    NN_RELEASE(m);

    nn_tensor *buf = TU_OK(nn_uninitialized_buffer_new(false, NN_FLOAT32));
    char *s = nn_repr(&buf->ob);
    assert_string_equal(s, "<UninitializedBuffer>");
    nn_free(s);
    assert_false(nn_is_instance(&buf->ob, &nn_parameter_type));
    tu_check(nn_uninitialized_materialize(buf, 2, TU_SHAPE(2, 2), -1));
    assert_true(buf->ob.type == &nn_tensor_type);
    assert_int_equal(nn_uninitialized_materialize(buf, 1, TU_SHAPE(2), -1), -1);
    tu_assert_error(NN_ERR_ATTRIBUTE, "'Tensor' object has no attribute 'materialize'");
    NN_RELEASE(buf);
}

/* BatchNorm's backward built from ops (create_graph) gives the kernels' gradients. */
static void test_batch_norm_double_backward(void **state)
{
    (void)state;
    for (int train = 1; train >= 0; train--) {
        nn_generator_seed(nn_default_generator(), 3);
        nn_module *bn = TU_OK(nn_batch_norm1d_new(3, 1e-5, 0.1, true, true, NN_FLOAT64));
        nn_tensor *w = NN_TENSOR(nn_module_getattr(bn, "weight"));
        tu_check(nn_init_uniform_(w, 0.5, 1.5));
        if (!train) {
            tu_check(nn_init_uniform_(NN_TENSOR(nn_module_getattr(bn, "running_var")), 0.5, 2));
            tu_check(nn_module_train(bn, false));
        }
        nn_tensor *x = TU_OK(nn_randn(3, TU_SHAPE(4, 3, 5), NN_FLOAT64));
        tu_check(nn_set_requires_grad(x, true));
        nn_tensor *gy = TU_OK(nn_randn(3, TU_SHAPE(4, 3, 5), NN_FLOAT64));
        nn_tensor *grads[2][2];
        for (int graph = 0; graph < 2; graph++) {
            nn_tensor *y = call1(bn, x);
            tu_check(nn_backward(y, gy, graph, graph));
            grads[graph][0] = TU_OK(nn_detach(x->grad));
            grads[graph][1] = TU_OK(nn_detach(w->grad));
            if (graph && train) {
                /* second order (training: x.grad depends on x through the batch statistics) */
                nn_tensor *s = TU_OK(nn_sum(x->grad, 0, NULL, false));
                NN_SET(x->grad, NULL);
                tu_check(nn_backward(s, NULL, false, false));
                assert_non_null(x->grad);
                NN_RELEASE(s);
            }
            NN_SET(x->grad, NULL);
            tu_check(nn_module_zero_grad(bn, true));
            NN_RELEASE(y);
        }
        for (int k = 0; k < 2; k++) {
            double a[60], b[60];
            nn_to_doubles(grads[0][k], a);
            nn_to_doubles(grads[1][k], b);
            for (int64_t i = 0; i < nn_numel(grads[0][k]); i++)
                if (fabs(a[i] - b[i]) > 1e-9 * (1 + fabs(a[i]))) fail_msg("train=%d grad %d[%lld]: %g vs %g", train, k, (long long)i, a[i], b[i]);
            NN_RELEASE(grads[0][k]);
            NN_RELEASE(grads[1][k]);
        }
        NN_RELEASE(x);
        NN_RELEASE(gy);
        NN_RELEASE(bn);
    }
}

static void test_batch_norm_state_dict(void **state)
{
    (void)state;
    nn_module *bn = TU_OK(nn_batch_norm1d_new(2, 1e-5, 0.1, true, true, NN_FLOAT32));
    nn_object *sd = TU_OK(nn_module_state_dict(bn, "", false));
    tu_check(nn_dict_del_str(sd, "num_batches_tracked"));
    /* its _metadata says version 2 (BatchNorm's _version): num_batches_tracked is required */
    nn_object *meta = nn_dict_get_str(nn_dict_attrs(sd, false), "_metadata");
    assert_int_equal(nn_int_value(nn_dict_get_str(nn_dict_get_str(meta, ""), "version")), 2);
    nn_tensor *nbt = NN_TENSOR(nn_module_getattr(bn, "num_batches_tracked"));
    tu_check(nn_fill_(nbt, 5));
    assert_null(nn_module_load_state_dict(bn, sd, true, false));
    tu_assert_error(NN_ERR_RUNTIME, "Missing key(s) in state_dict: \"num_batches_tracked\"");
    /* a state dict without metadata loads it as 0 (PyTorch's versionless path) */
    tu_check(nn_dict_del_str(nn_dict_attrs(sd, false), "_metadata"));
    nn_object *r = TU_OK(nn_module_load_state_dict(bn, sd, true, false));
    assert_int_equal(nn_list_len(nn_tuple_get(r, 0)), 0);
    double v;
    tu_check(nn_item(nbt, &v));
    assert_true(v == 0);
    NN_RELEASE(r);
    NN_RELEASE(sd);
    /* in eval, the running statistics are saved for backward: changing them breaks it */
    tu_check(nn_module_train(bn, false));
    nn_tensor *x = TU_OK(nn_randn(2, TU_SHAPE(4, 2), NN_FLOAT32));
    tu_check(nn_set_requires_grad(x, true));
    nn_tensor *y = call1(bn, x), *s = TU_OK(nn_sum(y, 0, NULL, false));
    tu_check(nn_fill_(NN_TENSOR(nn_module_getattr(bn, "running_mean")), 1));
    assert_int_equal(nn_backward(s, NULL, false, false), -1);
    tu_assert_error(NN_ERR_RUNTIME, "modified by an inplace operation");
    NN_RELEASE(s);
    NN_RELEASE(y);
    NN_RELEASE(x);
    NN_RELEASE(bn);
}

static void test_reset_parameters(void **state)
{
    (void)state;
    nn_generator_seed(nn_default_generator(), 0);
    nn_module *a = TU_OK(nn_linear_new(3, 2, true, NN_FLOAT32));
    nn_generator_seed(nn_default_generator(), 0);
    nn_module *b = TU_OK(nn_linear_new(3, 2, true, NN_FLOAT32));
    nn_generator_seed(nn_default_generator(), 0);
    tu_check(nn_layer_reset_parameters(b));
    nn_tensor *wa = NN_TENSOR(nn_module_getattr(a, "weight")), *wb = NN_TENSOR(nn_module_getattr(b, "weight"));
    double va[6], vb[6];
    nn_to_doubles(wa, va);
    nn_to_doubles(wb, vb);
    assert_memory_equal(va, vb, sizeof va);
    nn_module *id = TU_OK(nn_identity_new());
    assert_int_equal(nn_layer_reset_parameters(id), -1);
    tu_assert_error(NN_ERR_ATTRIBUTE, "'Identity' object has no attribute 'reset_parameters'");
    NN_RELEASE(id);
    NN_RELEASE(a);
    NN_RELEASE(b);
}


/* Construction, a first (lazy) call, losses and a backward: every allocation in it may fail. */
static int layers_workload(void)
{
    int rc = -1;
    nn_generator_seed(nn_default_generator(), 0);
    nn_module *lin = nn_linear_new(4, 3, true, NN_FLOAT32), *bn = nn_batch_norm1d_new(3, 1e-5, 0.1, true, true, NN_FLOAT32);
    nn_module *lazy = nn_lazy_linear_new(2, true, NN_FLOAT32), *drop = nn_dropout_new(0.5, false);
    nn_module *ln = nn_layer_norm_new(1, TU_SHAPE(2), 1e-5, true, NN_FLOAT32), *mse = nn_mse_loss_new(NULL);
    nn_module *emb = nn_embedding_new(5, 2, true, 0, NN_FLOAT32);
    nn_tensor *x = nn_ones(2, TU_SHAPE(5, 4), NN_FLOAT32), *idx = nn_zeros(1, TU_SHAPE(5), NN_INT64);
    nn_tensor *h[6] = {NULL};
    nn_object *args = NULL, *loss = NULL;
    if (!lin || !bn || !lazy || !drop || !ln || !mse || !emb || !x || !idx || nn_set_requires_grad(x, true) < 0) goto out;
    if (!(h[0] = nn_module_call1(lin, x)) || !(h[1] = nn_module_call1(bn, h[0])) || !(h[2] = nn_module_call1(lazy, h[1])) ||
        !(h[3] = nn_module_call1(drop, h[2])) || !(h[4] = nn_module_call1(ln, h[3])) || !(h[5] = nn_module_call1(emb, idx)))
        goto out;
    if (!(args = nn_tuple_pack(2, &h[4]->ob, &h[5]->ob)) || !(loss = nn_module_call(mse, args, NULL))) goto out;
    rc = nn_backward(NN_TENSOR(loss), NULL, false, false);
out:
    NN_RELEASE(lin); NN_RELEASE(bn); NN_RELEASE(lazy); NN_RELEASE(drop); NN_RELEASE(ln); NN_RELEASE(mse); NN_RELEASE(emb);
    NN_RELEASE(x); NN_RELEASE(idx); NN_RELEASE(args); NN_RELEASE(loss);
    for (int i = 0; i < 6; i++) NN_RELEASE(h[i]);
    return rc;
}

static void test_failing_allocations_report_memory_error(void **state)
{
    (void)state;
    tu_allocator old;
    tu_install_failing_alloc(&old);
    int ok = layers_workload();
    long total = tu_alloc_count;
    if (ok < 0) {
        tu_restore_allocator(&old);
        fail_msg("workload: %s", nn_error_message());
    }
    assert_true(total > 50);
    for (tu_fail_at = 1; tu_fail_at <= total; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_error_clear();
        int rc = layers_workload();
        if (rc != -1 || nn_error_current() != NN_ERR_MEMORY) {
            tu_restore_allocator(&old);
            fail_msg("allocation %ld of %ld failed: rc %d, %s: %s", tu_fail_at, total, rc,
                     nn_error_kind_name(nn_error_current()), nn_error_message());
        }
    }
    nn_error_clear();
    tu_restore_allocator(&old);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_attributes_drive_forward),
        cmocka_unit_test(test_forward_argument_binding),
        cmocka_unit_test(test_lazy_linear),
        cmocka_unit_test(test_batch_norm_double_backward),
        cmocka_unit_test(test_batch_norm_state_dict),
        cmocka_unit_test(test_reset_parameters),
        cmocka_unit_test(test_failing_allocations_report_memory_error),
    };
    return cmocka_run_group_tests_name("layers", tests, NULL, NULL);
}
