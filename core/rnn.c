/*
 * rnn.c — nn.RNN, nn.LSTM, nn.GRU and nn.RNNCell, LSTMCell, GRUCell: PyTorch
 * 1.13's constructors (parameter names, order and initialisation), reprs,
 * argument checks and messages, and forwards that compose core's
 * differentiable ops as ATen's CPU RNN (aten/src/ATen/native/RNN.cpp) runs
 * them: the input projection of a whole layer at once, then per step
 * gates = linear(h, W_hh, b_hh) + projected input, the gate nonlinearities
 * on chunks of it, outputs stacked over time, directions concatenated,
 * dropout between layers in training. Autograd comes from those ops.
 *
 * PackedSequence inputs run ATen's packed layers (the batch shrinking as
 * sequences end). Not here: LSTM's proj_size.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_scratch.h"

#define NN_SET_FREE(p) (nn_free(p), (p) = NULL)
#define K(s, expr) NN_KEEP(s, expr)

static nn_tensor *retained(nn_tensor *t)
{
    NN_RETAIN(t);
    return t;
}

/* -------------------------------------------------------------- cells */

/* Number of gate blocks: RNN 1, LSTM 4, GRU 3. */
static int64_t gates_of(nn_rnn_mode mode) { return mode == NN_RNN_LSTM ? 4 : mode == NN_RNN_GRU ? 3 : 1; }

/* One step of the recurrence. gi: the input's projection x W_ih^T + b_ih
   [B, G*H]; h, c (LSTM only) the state [B, H]; w_hh, b_hh (may be NULL) the
   hidden weights. Sets *h_out (and *c_out) to new references. 0 or -1.
   The ops and their order are ATen's RNN.cpp cells. */
static int cell_step(nn_rnn_mode mode, nn_tensor *gi, nn_tensor *h, nn_tensor *c, nn_tensor *w_hh, nn_tensor *b_hh,
                     nn_tensor **h_out, nn_tensor **c_out)
{
    nn_scratch s = {0};
    int64_t H = h->sizes[1];
    nn_tensor *gh = K(&s, nn_linear(h, w_hh, b_hh)), *hy = NULL, *cy = NULL;
    switch (mode) {
    case NN_RNN_TANH:
    case NN_RNN_RELU: {
        nn_tensor *pre = K(&s, nn_add(gh, gi));
        hy = s.failed ? NULL : mode == NN_RNN_TANH ? nn_tanh(pre) : nn_relu(pre);
        break;
    }
    case NN_RNN_LSTM: {
        nn_tensor *gates = K(&s, nn_add(gh, gi));
        nn_tensor *i = K(&s, nn_sigmoid(K(&s, nn_narrow(gates, 1, 0, H))));
        nn_tensor *f = K(&s, nn_sigmoid(K(&s, nn_narrow(gates, 1, H, H))));
        nn_tensor *g = K(&s, nn_tanh(K(&s, nn_narrow(gates, 1, 2 * H, H))));
        nn_tensor *o = K(&s, nn_sigmoid(K(&s, nn_narrow(gates, 1, 3 * H, H))));
        cy = s.failed ? NULL : nn_add(K(&s, nn_mul(f, c)), K(&s, nn_mul(i, g)));
        if (s.failed) NN_SET(cy, NULL);
        hy = cy ? nn_mul(o, K(&s, nn_tanh(cy))) : NULL;
        if (s.failed) NN_SET(hy, NULL);
        break;
    }
    case NN_RNN_GRU: {
        /* r = sigmoid(h_r + i_r), z = sigmoid(h_z + i_z), n = tanh(i_n + h_n * r), h' = (h - n) * z + n */
        nn_tensor *r = K(&s, nn_sigmoid(K(&s, nn_add(K(&s, nn_narrow(gh, 1, 0, H)), K(&s, nn_narrow(gi, 1, 0, H))))));
        nn_tensor *z = K(&s, nn_sigmoid(K(&s, nn_add(K(&s, nn_narrow(gh, 1, H, H)), K(&s, nn_narrow(gi, 1, H, H))))));
        nn_tensor *hn = K(&s, nn_mul(K(&s, nn_narrow(gh, 1, 2 * H, H)), r));
        nn_tensor *n = K(&s, nn_tanh(K(&s, nn_add(K(&s, nn_narrow(gi, 1, 2 * H, H)), hn))));
        hy = s.failed ? NULL : nn_add(K(&s, nn_mul(K(&s, nn_sub(h, n)), z)), n);
        if (s.failed) NN_SET(hy, NULL);
        break;
    }
    }
    nn_scratch_free(&s);
    if (!hy) {
        NN_RELEASE(cy);
        return -1;
    }
    *h_out = hy;
    if (c_out) *c_out = cy;
    else NN_RELEASE(cy);
    return 0;
}

/* ------------------------------------------------------------ modules */

static const char *const mode_names[] = {"RNN_TANH", "RNN_RELU", "LSTM", "GRU"};

static int set_attr(nn_module *m, const char *name, nn_object *v)
{
    int rc = v ? nn_module_setattr(m, name, v) : -1;
    NN_RELEASE(v);
    return rc;
}

static int attr_int(nn_module *m, const char *name, int64_t *out)
{
    nn_object *v = nn_module_getattr(m, name);
    if (!v) return -1;
    if (!nn_is_int(v) && !nn_is_bool(v))
        return nn_error_set(NN_ERR_TYPE, "%s.%s must be an int, not %s", nn_module_name(m), name, v->type->name);
    *out = nn_int_value(v);
    return 0;
}

static int attr_bool(nn_module *m, const char *name, bool *out)
{
    nn_object *v = nn_module_getattr(m, name);
    if (!v) return -1;
    *out = nn_is_bool(v) || nn_is_int(v) ? nn_int_value(v) != 0 : nn_is_float(v) ? nn_float_value(v) != 0
                                                                                   : !nn_is_none(v);
    return 0;
}

/* The parameter name of m as a tensor (borrowed; *out NULL for None). */
static int param_of(nn_module *m, const char *name, nn_tensor **out)
{
    nn_object *v = nn_module_getattr(m, name);
    if (!v) return -1;
    if (!nn_is_none(v) && !nn_is_tensor(v))
        return nn_error_set(NN_ERR_TYPE, "%s.%s must be a Tensor or None, not %s", nn_module_name(m), name,
                            v->type->name);
    *out = nn_is_none(v) ? NULL : NN_TENSOR(v);
    return 0;
}

static bool is_mode(const nn_module *m, const nn_module_class *a, const nn_module_class *b)
{
    const nn_module_class *c = nn_module_core_class(m); /* class L(nn.LSTM) too */
    return c == a || c == b;
}

bool nn_is_rnn_module(const nn_module *m)
{
    return is_mode(m, &nn_rnn_class, &nn_lstm_class) || is_mode(m, &nn_gru_class, &nn_rnn_cell_class) ||
           is_mode(m, &nn_lstm_cell_class, &nn_gru_cell_class);
}

/* The recurrence of m from its mode / nonlinearity attribute. */
static int mode_of(nn_module *m, nn_rnn_mode *out)
{
    if (is_mode(m, &nn_lstm_class, &nn_lstm_cell_class)) *out = NN_RNN_LSTM;
    else if (is_mode(m, &nn_gru_class, &nn_gru_cell_class)) *out = NN_RNN_GRU;
    else {
        nn_object *nl = nn_module_getattr(m, "nonlinearity");
        if (!nl) return -1;
        const char *s = nn_is_str(nl) ? nn_str_cstr(nl) : "";
        if (!strcmp(s, "tanh")) *out = NN_RNN_TANH;
        else if (!strcmp(s, "relu")) *out = NN_RNN_RELU;
        else {
            char *r = nn_repr(nl);
            nn_error_set(m->cls == &nn_rnn_cell_class ? NN_ERR_RUNTIME : NN_ERR_VALUE,
                         m->cls == &nn_rnn_cell_class ? "Unknown nonlinearity: %s" : "Unknown nonlinearity '%s'",
                         r ? (nn_is_str(nl) ? s : r) : "?");
            nn_free(r);
            return -1;
        }
    }
    return 0;
}

int nn_rnn_reset_parameters(nn_module *m)
{
    if (!nn_is_rnn_module(m))
        return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'reset_parameters'", nn_module_name(m));
    int64_t hidden = 0;
    if (attr_int(m, "hidden_size", &hidden)) return -1;
    double stdv = hidden > 0 ? 1.0 / sqrt((double)hidden) : 0;
    nn_object *ps = nn_module_parameters(m, true);
    if (!ps) return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < nn_list_len(ps); i++) rc = nn_init_uniform_(NN_TENSOR(nn_list_get(ps, i)), -stdv, stdv);
    NN_RELEASE(ps);
    return rc;
}

/* A new parameter [rows] or [rows, cols] (cols 0: 1-D) registered as name. */
static int add_param(nn_module *m, const char *name, int64_t rows, int64_t cols, nn_dtype dtype)
{
    int64_t sizes[2] = {rows, cols};
    nn_tensor *data = nn_empty(cols ? 2 : 1, sizes, dtype), *p = data ? nn_parameter_new(data, true) : NULL;
    NN_RELEASE(data);
    int rc = p ? nn_module_register_parameter(m, name, p) : -1;
    NN_RELEASE(p);
    return rc;
}

static char *format_extra(nn_module *m, bool cell)
{
    static const char *const names[] = {"input_size", "hidden_size", "num_layers", "bias", "batch_first",
                                        "dropout", "bidirectional", "nonlinearity"};
    char *v[8] = {0};
    int rc = 0;
    for (int i = 0; i < 8 && rc == 0; i++) {
        if (cell && i >= 2 && i != 3 && i != 7) continue;
        nn_object *o = i == 7 ? nn_dict_get_str(m->attrs, names[i]) : nn_module_getattr(m, names[i]);
        if (!o && i == 7) continue; /* a cell without a nonlinearity (LSTMCell, GRUCell) */
        if (!o || !(v[i] = nn_str(o))) rc = -1;
    }
    nn_text t = {0};
    if (rc == 0) {
        nn_text_printf(&t, "%s, %s", v[0], v[1]);
        if (!cell && strcmp(v[2], "1")) nn_text_printf(&t, ", num_layers=%s", v[2]);
        if (strcmp(v[3], "True")) nn_text_printf(&t, ", bias=%s", v[3]);
        if (!cell && strcmp(v[4], "False")) nn_text_printf(&t, ", batch_first=%s", v[4]);
        if (!cell && strcmp(v[5], "0.0") && strcmp(v[5], "0")) nn_text_printf(&t, ", dropout=%s", v[5]);
        if (!cell && strcmp(v[6], "False")) nn_text_printf(&t, ", bidirectional=%s", v[6]);
        if (cell && v[7] && strcmp(v[7], "tanh")) nn_text_printf(&t, ", nonlinearity=%s", v[7]);
    }
    for (int i = 0; i < 8; i++) nn_free(v[i]);
    char *out = nn_text_finish(&t);
    if (rc) NN_SET_FREE(out);
    return out;
}

static char *rnn_extra_repr(nn_module *m) { return format_extra(m, false); }
static char *cell_extra_repr(nn_module *m) { return format_extra(m, true); }

static nn_object *rnn_forward(nn_module *m, nn_object *args, nn_object *kwargs);
static nn_object *cell_forward(nn_module *m, nn_object *args, nn_object *kwargs);

const nn_module_class nn_rnn_base_class = {.name = "RNNBase", .extra_repr = rnn_extra_repr};
const nn_module_class nn_rnn_cell_base_class = {.name = "RNNCellBase", .extra_repr = cell_extra_repr};
const nn_module_class nn_rnn_class = {.name = "RNN", .forward = rnn_forward, .extra_repr = rnn_extra_repr,
                                      .base = &nn_rnn_base_class};
const nn_module_class nn_lstm_class = {.name = "LSTM", .forward = rnn_forward, .extra_repr = rnn_extra_repr,
                                       .base = &nn_rnn_base_class};
const nn_module_class nn_gru_class = {.name = "GRU", .forward = rnn_forward, .extra_repr = rnn_extra_repr,
                                      .base = &nn_rnn_base_class};
const nn_module_class nn_rnn_cell_class = {.name = "RNNCell", .forward = cell_forward, .extra_repr = cell_extra_repr,
                                           .base = &nn_rnn_cell_base_class};
const nn_module_class nn_lstm_cell_class = {.name = "LSTMCell", .forward = cell_forward,
                                            .extra_repr = cell_extra_repr, .base = &nn_rnn_cell_base_class};
const nn_module_class nn_gru_cell_class = {.name = "GRUCell", .forward = cell_forward, .extra_repr = cell_extra_repr,
                                           .base = &nn_rnn_cell_base_class};

nn_module *nn_rnn_new(nn_rnn_mode mode, int64_t input_size, int64_t hidden_size, int64_t num_layers, bool bias,
                      bool batch_first, double dropout, bool bidirectional, nn_dtype dtype)
{
    if (!(dropout >= 0 && dropout <= 1))
        return nn_error_set(NN_ERR_VALUE, "dropout should be a number in range [0, 1] representing the probability of "
                                          "an element being zeroed"), NULL;
    if (dropout > 0 && num_layers == 1) {
        nn_object *d = nn_float_new(dropout);
        char *ds = d ? nn_str(d) : NULL;
        static const nn_warn_place rnn_py = {"torch.nn.modules.rnn", "torch/nn/modules/rnn.py", 67};
        int rc = nn_warn_at(&rnn_py, "UserWarning",
                            "dropout option adds dropout after all but last recurrent layer, so non-zero "
                            "dropout expects num_layers greater than 1, but got dropout=%s and num_layers=1",
                            ds ? ds : "?");
        nn_free(ds);
        NN_RELEASE(d);
        if (rc < 0) return NULL; /* a filter's "error" */
    }
    if (hidden_size <= 0)
        return nn_error_set(NN_ERR_VALUE, "proj_size has to be smaller than hidden_size"), NULL; /* proj_size 0 >= H */
    if (input_size < 0 || num_layers < 0)
        return nn_error_set(NN_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: [%lld, %lld]",
                            (long long)(input_size < 0 ? input_size : num_layers),
                            (long long)(gates_of(mode) * hidden_size), (long long)input_size), NULL;
    const nn_module_class *cls = mode == NN_RNN_LSTM ? &nn_lstm_class : mode == NN_RNN_GRU ? &nn_gru_class
                                                                                          : &nn_rnn_class;
    nn_module *m = nn_module_new(cls);
    if (!m) return NULL;
    int rc = set_attr(m, "mode", nn_str_new(mode_names[mode]));
    if (rc == 0 && cls == &nn_rnn_class) rc = set_attr(m, "nonlinearity", nn_str_new(mode == NN_RNN_TANH ? "tanh" : "relu"));
    if (rc == 0) rc = set_attr(m, "input_size", nn_int_new(input_size));
    if (rc == 0) rc = set_attr(m, "hidden_size", nn_int_new(hidden_size));
    if (rc == 0) rc = set_attr(m, "num_layers", nn_int_new(num_layers));
    if (rc == 0) rc = set_attr(m, "bias", nn_bool_new(bias));
    if (rc == 0) rc = set_attr(m, "batch_first", nn_bool_new(batch_first));
    if (rc == 0) rc = set_attr(m, "dropout", nn_float_new(dropout));
    if (rc == 0) rc = set_attr(m, "bidirectional", nn_bool_new(bidirectional));
    if (rc == 0) rc = set_attr(m, "proj_size", nn_int_new(0));
    int64_t G = gates_of(mode) * hidden_size, D = bidirectional ? 2 : 1;
    for (int64_t l = 0; rc == 0 && l < num_layers; l++)
        for (int64_t d = 0; rc == 0 && d < D; d++) {
            char name[64];
            const char *sfx = d ? "_reverse" : "";
            int64_t in = l == 0 ? input_size : hidden_size * D;
            snprintf(name, sizeof name, "weight_ih_l%lld%s", (long long)l, sfx);
            rc = add_param(m, name, G, in ? in : 0, dtype);
            if (rc == 0 && in == 0) rc = nn_error_set(NN_ERR_NOT_IMPLEMENTED, "RNN: input_size=0 is not supported");
            snprintf(name, sizeof name, "weight_hh_l%lld%s", (long long)l, sfx);
            if (rc == 0) rc = add_param(m, name, G, hidden_size, dtype);
            if (bias) {
                snprintf(name, sizeof name, "bias_ih_l%lld%s", (long long)l, sfx);
                if (rc == 0) rc = add_param(m, name, G, 0, dtype);
                snprintf(name, sizeof name, "bias_hh_l%lld%s", (long long)l, sfx);
                if (rc == 0) rc = add_param(m, name, G, 0, dtype);
            }
        }
    if (rc == 0) rc = nn_rnn_reset_parameters(m);
    if (rc) NN_SET(m, NULL);
    return m;
}

nn_module *nn_rnn_cell_new(nn_rnn_mode mode, int64_t input_size, int64_t hidden_size, bool bias, nn_dtype dtype)
{
    if (input_size <= 0 || hidden_size <= 0)
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "%s: sizes must be positive (got input_size=%lld, hidden_size=%lld)",
                            mode == NN_RNN_LSTM ? "LSTMCell" : mode == NN_RNN_GRU ? "GRUCell" : "RNNCell",
                            (long long)input_size, (long long)hidden_size), NULL;
    const nn_module_class *cls = mode == NN_RNN_LSTM ? &nn_lstm_cell_class : mode == NN_RNN_GRU ? &nn_gru_cell_class
                                                                                                : &nn_rnn_cell_class;
    nn_module *m = nn_module_new(cls);
    if (!m) return NULL;
    int64_t G = gates_of(mode) * hidden_size;
    int rc = set_attr(m, "input_size", nn_int_new(input_size));
    if (rc == 0) rc = set_attr(m, "hidden_size", nn_int_new(hidden_size));
    if (rc == 0) rc = set_attr(m, "bias", nn_bool_new(bias));
    if (rc == 0) rc = add_param(m, "weight_ih", G, input_size, dtype);
    if (rc == 0) rc = add_param(m, "weight_hh", G, hidden_size, dtype);
    if (rc == 0 && bias) rc = add_param(m, "bias_ih", G, 0, dtype);
    if (rc == 0 && bias) rc = add_param(m, "bias_hh", G, 0, dtype);
    if (rc == 0 && !bias) rc = nn_module_register_parameter(m, "bias_ih", NULL);
    if (rc == 0 && !bias) rc = nn_module_register_parameter(m, "bias_hh", NULL);
    if (rc == 0) rc = nn_rnn_reset_parameters(m);
    if (rc == 0 && cls == &nn_rnn_cell_class)
        rc = set_attr(m, "nonlinearity", nn_str_new(mode == NN_RNN_RELU ? "relu" : "tanh"));
    if (rc) NN_SET(m, NULL);
    return m;
}

/* ------------------------------------------------------------ forward */

/* torch.nn.utils.rnn.PackedSequence: a tuple subtype of that name holding
   (data, batch_sizes, sorted_indices, unsorted_indices) (repl/bind_rnn.c makes them). */
static bool is_packed(const nn_object *o)
{
    return o && o->type != &nn_tuple_type && nn_is_instance(o, &nn_tuple_type) &&
           !strcmp(o->type->name, "PackedSequence") && nn_tuple_len((nn_object *)o) == 4 &&
           nn_is_tensor(nn_tuple_get((nn_object *)o, 0)) && nn_is_tensor(nn_tuple_get((nn_object *)o, 1));
}

/* forward(input, hx=None): the two arguments, borrowed (*hx NULL for None). */
static int forward_args(nn_module *m, nn_object *args, nn_object *kwargs, nn_object **input, nn_object **hx)
{
    const char *f = nn_module_name(m);
    size_t n = nn_tuple_len(args);
    *input = n > 0 ? nn_tuple_get(args, 0) : NULL;
    *hx = n > 1 ? nn_tuple_get(args, 1) : NULL;
    if (n > 2)
        return nn_error_set(NN_ERR_TYPE, "forward() takes from 2 to 3 positional arguments but %zu were given", n + 1);
    nn_object *k, *v;
    size_t pos = 0;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        const char *key = nn_is_str(k) ? nn_str_cstr(k) : "";
        nn_object **slot = !strcmp(key, "input") ? input : !strcmp(key, "hx") ? hx : NULL;
        if (!slot) return nn_error_set(NN_ERR_TYPE, "forward() got an unexpected keyword argument '%s'", key);
        if (*slot) return nn_error_set(NN_ERR_TYPE, "forward() got multiple values for argument '%s'", key);
        *slot = v;
    }
    if (!*input) return nn_error_set(NN_ERR_TYPE, "forward() missing 1 required positional argument: 'input'");
    if (!nn_is_tensor(*input) && !is_packed(*input))
        return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'dim'",
                            nn_is_none(*input) ? "NoneType" : (*input)->type->name);
    if (*hx && nn_is_none(*hx)) *hx = NULL;
    (void)f;
    return 0;
}

/* A [n0, n1, n2] zero tensor of t's dtype on t's device. */
static nn_tensor *zeros3(nn_tensor *t, int ndim, int64_t n0, int64_t n1, int64_t n2)
{
    int64_t sizes[3] = {n0, n1, n2};
    return nn_full_on(nn_device_of(t), ndim, sizes, 0.0, t->dtype);
}

/* "(2, 3, 20)" / "[2, 3, 20]" */
static void shape_text(char *buf, size_t n, const int64_t *s, int ndim, bool tuple)
{
    size_t k = (size_t)snprintf(buf, n, "%c", tuple ? '(' : '[');
    for (int i = 0; i < ndim && k < n; i++) k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)s[i]);
    if (k < n) snprintf(buf + k, n - k, "%c", tuple ? ')' : ']');
}

static int check_hidden(nn_tensor *hx, const int64_t expected[3], const char *label)
{
    bool ok = hx->ndim == 3;
    for (int i = 0; ok && i < 3; i++) ok = hx->sizes[i] == expected[i];
    if (ok) return 0;
    char e[96], g[160];
    shape_text(e, sizeof e, expected, 3, true);
    shape_text(g, sizeof g, hx->sizes, hx->ndim, false);
    return nn_error_set(NN_ERR_RUNTIME, "Expected %s size %s, got %s", label, e, g);
}

/* One layer in one direction over x [T, B, in]: the stacked outputs [T, B, H]
   (new reference) and the final state in *h (and *c), replacing the borrowed
   initial state with new references. */
static nn_tensor *run_direction(nn_rnn_mode mode, nn_tensor *x, nn_tensor **h, nn_tensor **c, nn_tensor *w_ih,
                                nn_tensor *w_hh, nn_tensor *b_ih, nn_tensor *b_hh, bool reverse)
{
    int64_t T = x->sizes[0];
    nn_tensor *gi_all = nn_linear(x, w_ih, b_ih);
    if (!gi_all) return NULL;
    /* outs, then each step's input gates, unbound as ATen's FullLayer does: one
       UnbindBackward0 stacks their gradients (a select per step would scatter each
       into a zero tensor of gi_all's size, and the engine would add T of them) */
    nn_tensor **outs = nn_malloc(sizeof *outs * (size_t)(T ? 2 * T : 1)), **gis = outs + T;
    if (!outs || (T && nn_unbind_copies(gi_all, gis) < 0)) {
        nn_free(outs);
        NN_RELEASE(gi_all);
        return NULL;
    }
    nn_tensor *hcur = retained(*h), *ccur = *c ? retained(*c) : NULL, *out = NULL;
    int64_t done = 0;
    int rc = 0;
    for (int64_t k = 0; k < T && rc == 0; k++) {
        int64_t t = reverse ? T - 1 - k : k;
        nn_tensor *hn = NULL, *cn = NULL;
        rc = cell_step(mode, gis[t], hcur, ccur, w_hh, b_hh, &hn, mode == NN_RNN_LSTM ? &cn : NULL);
        if (rc) break;
        NN_SET(hcur, hn);
        if (mode == NN_RNN_LSTM) NN_SET(ccur, cn);
        outs[t] = retained(hn);
        done++;
    }
    if (rc == 0) out = nn_stack((int)T, outs, 0);
    /* the outputs were filled from one end: release those that were set */
    for (int64_t k = 0; k < done; k++) NN_RELEASE(outs[reverse ? T - 1 - k : k]);
    for (int64_t t = 0; t < T; t++) NN_RELEASE(gis[t]);
    nn_free(outs);
    NN_RELEASE(gi_all);
    if (!out) {
        NN_RELEASE(hcur);
        NN_RELEASE(ccur);
        return NULL;
    }
    *h = hcur;
    *c = ccur;
    return out;
}

/* One layer in one direction over a packed sequence: data [N, in] whose steps
   hold bs[0] >= bs[1] >= ... rows (ATen's PackedLayer / ReversedPackedLayer:
   the finished sequences' states are set aside as the batch shrinks, or
   joined in as it grows going backwards). Returns the outputs [N, H] and
   replaces *h / *c (borrowed [B, H]) with the final states (new references). */
static nn_tensor *run_direction_packed(nn_rnn_mode mode, nn_tensor *data, const int64_t *bs, int64_t T, nn_tensor **h,
                                       nn_tensor **c, nn_tensor *w_ih, nn_tensor *w_hh, nn_tensor *b_ih,
                                       nn_tensor *b_hh, bool reverse)
{
    bool lstm = mode == NN_RNN_LSTM;
    nn_tensor *gi_all = nn_linear(data, w_ih, b_ih);
    nn_tensor **outs = gi_all ? nn_calloc((size_t)(3 * T + 2), sizeof *outs) : NULL;
    if (!outs) {
        NN_RELEASE(gi_all);
        return NULL;
    }
    nn_tensor **fin_h = outs + T, **fin_c = fin_h + T + 1; /* set-aside states, forward only */
    int64_t nf = 0, last = reverse ? bs[T - 1] : bs[0], offset = reverse ? data->sizes[0] : 0;
    nn_tensor *hc = reverse ? nn_narrow(*h, 0, 0, last) : retained(*h);
    nn_tensor *cc = !lstm ? NULL : reverse ? nn_narrow(*c, 0, 0, last) : retained(*c);
    int rc = hc && (!lstm || cc) ? 0 : -1;
    for (int64_t k = 0; k < T && rc == 0; k++) {
        int64_t i = reverse ? T - 1 - k : k, b = bs[i];
        if (!reverse && last > b) { /* the sequences b..last end here */
            fin_h[nf] = nn_narrow(hc, 0, b, last - b);
            fin_c[nf] = lstm ? nn_narrow(cc, 0, b, last - b) : NULL;
            nf++;
            nn_tensor *h2 = nn_narrow(hc, 0, 0, b), *c2 = lstm ? nn_narrow(cc, 0, 0, b) : NULL;
            NN_SET(hc, h2);
            NN_SET(cc, c2);
        } else if (reverse && b > last) { /* the sequences last..b start here */
            nn_tensor *hn = nn_narrow(*h, 0, last, b - last), *cn = lstm ? nn_narrow(*c, 0, last, b - last) : NULL;
            nn_tensor *hp[2] = {hc, hn}, *cp[2] = {cc, cn};
            nn_tensor *h2 = hn ? nn_cat(2, hp, 0) : NULL, *c2 = lstm && cn ? nn_cat(2, cp, 0) : NULL;
            NN_RELEASE(hn);
            NN_RELEASE(cn);
            NN_SET(hc, h2);
            NN_SET(cc, c2);
        }
        if (!hc || (lstm && !cc) || (nf && !fin_h[nf - 1]) || (lstm && nf && !fin_c[nf - 1])) {
            rc = -1;
            break;
        }
        if (reverse) offset -= b;
        nn_tensor *gi = nn_narrow(gi_all, 0, offset, b), *hn = NULL, *cn = NULL;
        if (!reverse) offset += b;
        last = b;
        rc = gi ? cell_step(mode, gi, hc, cc, w_hh, b_hh, &hn, lstm ? &cn : NULL) : -1;
        NN_RELEASE(gi);
        if (rc) break;
        NN_SET(hc, hn);
        NN_SET(cc, cn);
        outs[i] = retained(hn);
    }
    nn_tensor *out = rc == 0 ? nn_cat((int)T, outs, 0) : NULL;
    if (out && !reverse) { /* the final states in batch order: the longest sequences first */
        fin_h[nf] = retained(hc);
        fin_c[nf] = lstm ? retained(cc) : NULL;
        nf++;
        for (int64_t a = 0, z = nf - 1; a < z; a++, z--) {
            nn_tensor *t = fin_h[a];
            fin_h[a] = fin_h[z], fin_h[z] = t;
            t = fin_c[a], fin_c[a] = fin_c[z], fin_c[z] = t;
        }
        nn_tensor *h2 = nn_cat((int)nf, fin_h, 0), *c2 = lstm && h2 ? nn_cat((int)nf, fin_c, 0) : NULL;
        NN_SET(hc, h2);
        NN_SET(cc, c2);
        if (!hc || (lstm && !cc)) NN_SET(out, NULL);
    }
    for (int64_t i = 0; i < T; i++) NN_RELEASE(outs[i]);
    for (int64_t i = 0; i < nf; i++) {
        NN_RELEASE(fin_h[i]);
        NN_RELEASE(fin_c[i]);
    }
    nn_free(outs);
    NN_RELEASE(gi_all);
    if (!out) {
        NN_RELEASE(hc);
        NN_RELEASE(cc);
        return NULL;
    }
    *h = hc;
    *c = cc;
    return out;
}

/* _VF.rnn_tanh / lstm / gru over input [T, B, in] (already batch-major
   transposed back by the caller when batch_first): output and the final
   states stacked [L*D, B, H]. */
static int run_layers(nn_module *m, nn_rnn_mode mode, nn_tensor *input, const int64_t *bs, int64_t T, nn_tensor *h0,
                      nn_tensor *c0, int64_t L, int64_t D, double dropout, nn_tensor **output, nn_tensor **hn,
                      nn_tensor **cn)
{
    nn_tensor *x = retained(input);
    int64_t n_final = L * D;
    nn_tensor **hs = nn_malloc(sizeof *hs * (size_t)(2 * n_final + 1));
    if (!hs) {
        NN_RELEASE(x);
        return -1;
    }
    nn_tensor **cs = hs + n_final;
    int64_t n_done = 0;
    int rc = 0;
    bool has_bias = true;
    for (int64_t l = 0; l < L && rc == 0; l++) {
        nn_tensor *dir_out[2] = {NULL, NULL};
        for (int64_t d = 0; d < D && rc == 0; d++) {
            char names[4][64];
            nn_tensor *w[4] = {0};
            const char *sfx = d ? "_reverse" : "";
            static const char *const fmt[4] = {"weight_ih_l%lld%s", "weight_hh_l%lld%s", "bias_ih_l%lld%s",
                                               "bias_hh_l%lld%s"};
            nn_object *b = nn_module_getattr(m, "bias");
            has_bias = b && nn_is_true(b) && !nn_is_none(b);
            if (!b) rc = -1;
            for (int i = 0; i < (has_bias ? 4 : 2) && rc == 0; i++) {
                snprintf(names[i], sizeof names[i], fmt[i], (long long)l, sfx);
                rc = param_of(m, names[i], &w[i]);
                if (rc == 0 && !w[i] && i < 2)
                    rc = nn_error_set(NN_ERR_TYPE, "%s.%s is None", nn_module_name(m), names[i]);
            }
            if (rc) break;
            nn_tensor *h = nn_select(h0, 0, l * D + d), *c = c0 ? nn_select(c0, 0, l * D + d) : NULL;
            if (!h || (c0 && !c)) {
                NN_RELEASE(h);
                NN_RELEASE(c);
                rc = -1;
                break;
            }
            nn_tensor *hstart = h, *cstart = c;
            dir_out[d] = bs ? run_direction_packed(mode, x, bs, T, &h, &c, w[0], w[1], w[2], w[3], d == 1)
                            : run_direction(mode, x, &h, &c, w[0], w[1], w[2], w[3], d == 1);
            if (!dir_out[d]) {
                rc = -1;
                NN_RELEASE(hstart);
                NN_RELEASE(cstart);
                break;
            }
            NN_RELEASE(hstart);
            NN_RELEASE(cstart);
            hs[n_done] = h;
            cs[n_done] = c;
            n_done++;
        }
        nn_tensor *next = NULL;
        if (rc == 0) next = D == 2 ? nn_cat(2, dir_out, x->ndim - 1) : retained(dir_out[0]);
        NN_RELEASE(dir_out[0]);
        NN_RELEASE(dir_out[1]);
        if (!next) rc = -1;
        if (rc == 0 && dropout != 0 && m->training && l < L - 1) {
            nn_tensor *dn = nn_dropout(next, dropout, true);
            NN_SET(next, dn);
            if (!next) rc = -1;
        }
        if (rc == 0) NN_SET(x, next);
    }
    if (rc == 0) {
        *hn = nn_stack((int)n_final, hs, 0);
        if (!*hn) rc = -1;
        else if (cn) {
            *cn = nn_stack((int)n_final, cs, 0);
            if (!*cn) {
                NN_SET(*hn, NULL);
                rc = -1;
            }
        }
    }
    for (int64_t i = 0; i < n_done; i++) {
        NN_RELEASE(hs[i]);
        NN_RELEASE(cs[i]);
    }
    nn_free(hs);
    if (rc) NN_SET(x, NULL);
    *output = x;
    return rc;
}

/* hx of LSTM: a (h0, c0) pair of tensors (borrowed). */
static int lstm_pair(nn_object *hx, nn_tensor **h, nn_tensor **c)
{
    bool seq = hx->type == &nn_tuple_type || nn_is_list(hx);
    size_t n = hx->type == &nn_tuple_type ? nn_tuple_len(hx) : seq ? nn_list_len(hx) : 0;
    if (!seq || n != 2) {
        if (nn_is_tensor(hx) && NN_TENSOR(hx)->ndim > 0 && NN_TENSOR(hx)->sizes[0] == 2)
            return nn_error_set(NN_ERR_TYPE, "LSTM: hx must be a tuple (h_0, c_0) of two tensors, not a Tensor");
        return nn_error_set(NN_ERR_TYPE, "LSTM: hx must be a tuple (h_0, c_0) of two tensors, not %s",
                            seq ? "a sequence of another length" : hx->type->name);
    }
    nn_object *a = hx->type == &nn_tuple_type ? nn_tuple_get(hx, 0) : nn_list_get(hx, 0);
    nn_object *b = hx->type == &nn_tuple_type ? nn_tuple_get(hx, 1) : nn_list_get(hx, 1);
    if (!nn_is_tensor(a) || !nn_is_tensor(b))
        return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'dim'",
                            (nn_is_tensor(a) ? b : a)->type->name);
    *h = NN_TENSOR(a);
    *c = NN_TENSOR(b);
    return 0;
}

/* t.index_select(1, perm) when perm (a tensor or None) is given; new reference. */
static nn_tensor *permute1(nn_tensor *t, nn_object *perm)
{
    return perm && nn_is_tensor(perm) ? nn_index_select(t, 1, NN_TENSOR(perm)) : retained(t);
}

/* forward over a PackedSequence: (PackedSequence of the outputs, h_n or (h_n, c_n)),
   the states in the caller's batch order (sorted_indices / unsorted_indices). */
static nn_object *rnn_forward_packed(nn_module *m, nn_rnn_mode mode, nn_object *packed, nn_object *hx_o,
                                     int64_t input_size, int64_t hidden, int64_t L, int64_t D, double dropout)
{
    nn_tensor *data = NN_TENSOR(nn_tuple_get(packed, 0)), *bst = NN_TENSOR(nn_tuple_get(packed, 1));
    nn_object *sorted = nn_tuple_get(packed, 2), *unsorted = nn_tuple_get(packed, 3);
    bool lstm = mode == NN_RNN_LSTM;
    if (bst->ndim != 1 || bst->dtype != NN_INT64 || bst->sizes[0] == 0)
        return nn_error_set(NN_ERR_RUNTIME, "batch_sizes must be a non-empty 1-D int64 tensor"), NULL;
    if (data->ndim != 2) return nn_error_set(NN_ERR_RUNTIME, "input must have 2 dimensions, got %d", data->ndim), NULL;
    if (data->sizes[1] != input_size)
        return nn_error_set(NN_ERR_RUNTIME, "input.size(-1) must be equal to input_size. Expected %lld, got %lld",
                            (long long)input_size, (long long)data->sizes[1]), NULL;
    nn_tensor *hold = NULL;
    const int64_t *bs = nn_host_read(bst, &hold);
    if (!bs) return NULL;
    int64_t T = bst->sizes[0], total = 0;
    for (int64_t i = 0; i < T; i++) total += bs[i];
    nn_object *result = NULL;
    nn_tensor *h_in = NULL, *c_in = NULL, *h0 = NULL, *c0 = NULL, *out = NULL, *hn = NULL, *cn = NULL;
    for (int64_t i = 1; i < T; i++)
        if (bs[i] > bs[i - 1] || bs[i] <= 0) total = -1;
    if (total != data->sizes[0]) {
        nn_error_set(NN_ERR_RUNTIME, "batch_sizes do not describe the packed data (%lld rows)", (long long)data->sizes[0]);
        goto done;
    }
    int64_t expected[3] = {L * D, bs[0], hidden};
    if (hx_o) {
        if (lstm ? lstm_pair(hx_o, &h_in, &c_in) : (nn_is_tensor(hx_o) ? (h_in = NN_TENSOR(hx_o), 0)
                                                                         : nn_error_set(NN_ERR_ATTRIBUTE,
                                                                                        "'%s' object has no attribute "
                                                                                        "'index_select'",
                                                                                        hx_o->type->name)))
            goto done;
        h0 = permute1(h_in, sorted);
        c0 = lstm && h0 ? permute1(c_in, sorted) : NULL;
    } else {
        h0 = zeros3(data, 3, L * D, bs[0], hidden);
        c0 = lstm && h0 ? zeros3(data, 3, L * D, bs[0], hidden) : NULL;
    }
    if (!h0 || (lstm && !c0) || check_hidden(h0, expected, lstm ? "hidden[0]" : "hidden") ||
        (lstm && check_hidden(c0, expected, "hidden[1]")) ||
        run_layers(m, mode, data, bs, T, h0, c0, L, D, dropout, &out, &hn, lstm ? &cn : NULL))
        goto done;
    nn_tensor *h2 = permute1(hn, unsorted), *c2 = lstm && h2 ? permute1(cn, unsorted) : NULL;
    NN_SET(hn, h2);
    NN_SET(cn, c2);
    nn_object *po = hn && (!lstm || cn) ? nn_tuple_pack(4, out, bst, sorted, unsorted) : NULL;
    if (po) po->type = packed->type; /* the same PackedSequence type as the input */
    nn_object *hidden_o = po ? (lstm ? nn_tuple_pack(2, hn, cn) : nn_retain((nn_object *)hn)) : NULL;
    result = hidden_o ? nn_tuple_pack(2, po, hidden_o) : NULL;
    NN_RELEASE(po);
    NN_RELEASE(hidden_o);
done:
    NN_RELEASE(hold);
    NN_RELEASE(h0);
    NN_RELEASE(c0);
    NN_RELEASE(out);
    NN_RELEASE(hn);
    NN_RELEASE(cn);
    return result;
}

static nn_object *rnn_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in_o, *hx_o;
    nn_rnn_mode mode;
    int64_t input_size = 0, hidden = 0, L = 0;
    bool batch_first, bidir;
    nn_object *dropout_o;
    if (forward_args(m, args, kwargs, &in_o, &hx_o) || mode_of(m, &mode) || attr_int(m, "input_size", &input_size) ||
        attr_int(m, "hidden_size", &hidden) || attr_int(m, "num_layers", &L) || attr_bool(m, "batch_first", &batch_first) ||
        attr_bool(m, "bidirectional", &bidir) || !(dropout_o = nn_module_getattr(m, "dropout")))
        return NULL;
    double dropout = nn_float_value(dropout_o);
    if (is_packed(in_o)) return rnn_forward_packed(m, mode, in_o, hx_o, input_size, hidden, L, bidir ? 2 : 1, dropout);
    nn_tensor *input = NN_TENSOR(in_o), *h_in = NULL, *c_in = NULL;
    bool lstm = mode == NN_RNN_LSTM, batched = input->ndim == 3;
    int batch_dim = batch_first ? 0 : 1;
    if (hx_o) {
        if (lstm) {
            if (lstm_pair(hx_o, &h_in, &c_in)) return NULL;
            int want = batched ? 3 : 2;
            if (h_in->ndim != want || c_in->ndim != want)
                return nn_error_set(NN_ERR_RUNTIME, "For %s input, hx and cx should also be %d-D but got (%d-D, %d-D) tensors",
                                    batched ? "batched 3-D" : "unbatched 2-D", want, h_in->ndim, c_in->ndim), NULL;
        } else {
            if (!nn_is_tensor(hx_o))
                return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'dim'", hx_o->type->name), NULL;
            h_in = NN_TENSOR(hx_o);
            if (batched && h_in->ndim != 3)
                return nn_error_set(NN_ERR_RUNTIME, "For batched 3-D input, hx should also be 3-D but got %d-D tensor",
                                    h_in->ndim), NULL;
            if (!batched && h_in->ndim != 2)
                return nn_error_set(NN_ERR_RUNTIME, "For unbatched 2-D input, hx should also be 2-D but got %d-D tensor",
                                    h_in->ndim), NULL;
        }
    }
    nn_scratch s = {0};
    nn_tensor *x = batched ? input : K(&s, nn_unsqueeze(input, batch_dim));
    nn_tensor *h0 = h_in ? (batched ? h_in : K(&s, nn_unsqueeze(h_in, 1))) : NULL;
    nn_tensor *c0 = c_in ? (batched ? c_in : K(&s, nn_unsqueeze(c_in, 1))) : NULL;
    if (s.failed) goto fail;
    int64_t D = bidir ? 2 : 1;
    if (x->ndim != 3) {
        nn_error_set(NN_ERR_RUNTIME, "input must have 3 dimensions, got %d", x->ndim);
        goto fail;
    }
    if (x->sizes[2] != input_size) {
        nn_error_set(NN_ERR_RUNTIME, "input.size(-1) must be equal to input_size. Expected %lld, got %lld",
                     (long long)input_size, (long long)x->sizes[2]);
        goto fail;
    }
    int64_t B = x->sizes[batch_dim], expected[3] = {L * D, B, hidden};
    if (!h0) {
        h0 = K(&s, zeros3(x, 3, L * D, B, hidden));
        if (lstm) c0 = K(&s, zeros3(x, 3, L * D, B, hidden));
        if (s.failed) goto fail;
    }
    if (check_hidden(h0, expected, lstm ? "hidden[0]" : "hidden") || (lstm && check_hidden(c0, expected, "hidden[1]")))
        goto fail;
    if (x->sizes[0 + (batch_first ? 1 : 0)] == 0) {
        nn_error_set(NN_ERR_RUNTIME, "stack expects a non-empty TensorList");
        goto fail;
    }
    nn_tensor *seq = batch_first ? K(&s, nn_transpose(x, 0, 1)) : x, *out = NULL, *hn = NULL, *cn = NULL;
    if (s.failed || run_layers(m, mode, seq, NULL, 0, h0, c0, L, D, dropout, &out, &hn, lstm ? &cn : NULL)) goto fail;
    if (batch_first) {
        nn_tensor *o2 = nn_transpose(out, 0, 1);
        NN_SET(out, o2);
    }
    if (out && !batched) {
        nn_tensor *o2 = nn_squeeze_dim(out, batch_dim), *h2 = nn_squeeze_dim(hn, 1), *c2 = cn ? nn_squeeze_dim(cn, 1) : NULL;
        NN_SET(out, o2);
        NN_SET(hn, h2);
        NN_SET(cn, c2);
        if (!hn || (lstm && !cn)) NN_SET(out, NULL);
    }
    nn_scratch_free(&s);
    nn_object *result = NULL;
    if (out) {
        nn_object *hidden_o = lstm ? nn_tuple_pack(2, hn, cn) : nn_retain((nn_object *)hn);
        result = hidden_o ? nn_tuple_pack(2, out, hidden_o) : NULL;
        NN_RELEASE(hidden_o);
    }
    NN_RELEASE(out);
    NN_RELEASE(hn);
    NN_RELEASE(cn);
    return result;
fail:
    nn_scratch_free(&s);
    return NULL;
}

/* ATen's check_rnn_cell_forward_input / _hidden. */
static int check_cell(nn_tensor *x, nn_tensor *h, int64_t input_size, int64_t hidden, int label)
{
    if (!h) {
        if (x->sizes[1] != input_size)
            return nn_error_set(NN_ERR_RUNTIME, "input has inconsistent input_size: got %lld expected %lld",
                                (long long)x->sizes[1], (long long)input_size);
        return 0;
    }
    if (h->ndim != 2)
        return nn_error_set(NN_ERR_RUNTIME, "Expected hidden%d to be 2-D (1-D for unbatched input) but got %d-D",
                            label, h->ndim);
    if (x->sizes[0] != h->sizes[0])
        return nn_error_set(NN_ERR_RUNTIME, "Input batch size %lld doesn't match hidden%d batch size %lld",
                            (long long)x->sizes[0], label, (long long)h->sizes[0]);
    if (h->sizes[1] != hidden)
        return nn_error_set(NN_ERR_RUNTIME, "hidden%d has inconsistent hidden_size: got %lld, expected %lld", label,
                            (long long)h->sizes[1], (long long)hidden);
    return 0;
}

static nn_object *cell_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    nn_object *in_o, *hx_o;
    nn_rnn_mode mode;
    int64_t input_size = 0, hidden = 0;
    nn_tensor *w_ih, *w_hh, *b_ih, *b_hh;
    if (forward_args(m, args, kwargs, &in_o, &hx_o) || mode_of(m, &mode) || attr_int(m, "input_size", &input_size) ||
        attr_int(m, "hidden_size", &hidden) || param_of(m, "weight_ih", &w_ih) || param_of(m, "weight_hh", &w_hh) ||
        param_of(m, "bias_ih", &b_ih) || param_of(m, "bias_hh", &b_hh))
        return NULL;
    nn_tensor *input = NN_TENSOR(in_o), *h_in = NULL, *c_in = NULL;
    bool lstm = mode == NN_RNN_LSTM;
    if (input->ndim != 1 && input->ndim != 2)
        return nn_error_set(NN_ERR_ASSERTION, "%s: Expected input to be 1-D or 2-D but received %d-D tensor",
                            nn_module_name(m), input->ndim), NULL;
    if (!w_ih || !w_hh) return nn_error_set(NN_ERR_TYPE, "%s: weight_ih and weight_hh must be tensors", nn_module_name(m)), NULL;
    if (hx_o) {
        if (lstm) {
            if (lstm_pair(hx_o, &h_in, &c_in)) return NULL;
        } else if (!nn_is_tensor(hx_o)) {
            return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute 'unsqueeze'", hx_o->type->name), NULL;
        } else h_in = NN_TENSOR(hx_o);
    }
    bool batched = input->ndim == 2;
    nn_scratch s = {0};
    nn_tensor *x = batched ? input : K(&s, nn_unsqueeze(input, 0));
    nn_tensor *h = h_in ? (batched ? h_in : K(&s, nn_unsqueeze(h_in, 0))) : NULL;
    nn_tensor *c = c_in ? (batched ? c_in : K(&s, nn_unsqueeze(c_in, 0))) : NULL;
    if (s.failed) goto fail;
    if (check_cell(x, NULL, input_size, hidden, 0) || (h && check_cell(x, h, input_size, hidden, 0)) ||
        (c && check_cell(x, c, input_size, hidden, 1)))
        goto fail;
    if (!h) {
        h = K(&s, zeros3(x, 2, x->sizes[0], hidden, 0));
        if (lstm) c = h;
        if (s.failed) goto fail;
    }
    nn_tensor *gi = K(&s, nn_linear(x, w_ih, b_ih)), *hy = NULL, *cy = NULL;
    if (s.failed || cell_step(mode, gi, h, c, w_hh, b_hh, &hy, lstm ? &cy : NULL)) goto fail;
    if (!batched) {
        nn_tensor *h2 = nn_squeeze_dim(hy, 0), *c2 = cy ? nn_squeeze_dim(cy, 0) : NULL;
        NN_SET(hy, h2);
        NN_SET(cy, c2);
        if (lstm && !cy) NN_SET(hy, NULL);
    }
    nn_scratch_free(&s);
    nn_object *result = hy && lstm ? nn_tuple_pack(2, hy, cy) : hy ? nn_retain((nn_object *)hy) : NULL;
    NN_RELEASE(hy);
    NN_RELEASE(cy);
    return result;
fail:
    nn_scratch_free(&s);
    return NULL;
}
