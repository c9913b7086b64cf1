/*
 * bind_rnn.c — the recurrent and attention layers in the language: nn.RNN,
 * nn.LSTM, nn.GRU, nn.RNNCell, nn.LSTMCell, nn.GRUCell with PyTorch 1.13's
 * constructor signatures, their reset_parameters / flatten_parameters
 * methods, and torch.nn.utils.rnn (pad_sequence, PackedSequence,
 * pack_padded_sequence, pad_packed_sequence, pack_sequence); nn.MultiheadAttention,
 * nn.TransformerEncoderLayer, nn.TransformerEncoder (deep copies of its layer)
 * and F.scaled_dot_product_attention. The modules live in core (rnn.c,
 * attention.c); this file parses arguments into them.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "stdlib_int.h"

#define ARGS(n) nn_object *a[n] = {0}
#define NN_SET_FREE(p) (nn_free(p), (p) = NULL)
#define CTOR(name) static nn_object *c_##name(void *ud, nn_object *args, nn_object *kwargs)

static nn_tensor *retained_tensor(nn_tensor *t)
{
    NN_RETAIN(t);
    return t;
}

/* ------------------------------------------------------------ RNN, LSTM, GRU */

/* RNNBase.__init__(mode, input_size, hidden_size, num_layers=1, bias=True,
   batch_first=False, dropout=0., bidirectional=False, proj_size=0, device=None,
   dtype=None); RNN adds the keyword nonlinearity. */
static nn_object *rnn_ctor(const char *f, nn_rnn_mode mode, nn_object *args, nn_object *kwargs)
{
    ARGS(11);
    bool is_rnn = mode != NN_RNN_LSTM && mode != NN_RNN_GRU;
    if (repl_parse_args(f,
                        is_rnn ? "self, input_size, hidden_size, num_layers=, bias=, batch_first=, dropout=, "
                                 "bidirectional=, proj_size=, device=, dtype=, *, nonlinearity="
                               : "self, input_size, hidden_size, num_layers=, bias=, batch_first=, dropout=, "
                                 "bidirectional=, proj_size=, device=, dtype=",
                        args, kwargs, a))
        return NULL;
    if (mode != NN_RNN_LSTM && kwargs && nn_dict_get_str(kwargs, "proj_size"))
        return nn_error_set(NN_ERR_VALUE, "proj_size argument is only supported for LSTM, not RNN or GRU"), NULL;
    int64_t in = 0, hidden = 0, layers = 1, proj = 0;
    bool bias = true, batch_first = false, bidir = false;
    double dropout = 0;
    int dtype = -1;
    if (repl_arg_int(f, "input_size", 1, a[0], &in) || repl_arg_int(f, "hidden_size", 2, a[1], &hidden) ||
        repl_arg_int(f, "num_layers", 3, a[2], &layers) || repl_arg_bool(f, "bias", 4, a[3], &bias) ||
        repl_arg_bool(f, "batch_first", 5, a[4], &batch_first) || repl_arg_bool(f, "bidirectional", 7, a[6], &bidir) ||
        repl_arg_int(f, "proj_size", 8, a[7], &proj) || repl_arg_device(f, a[8]) ||
        repl_arg_dtype(f, "dtype", 0, a[9], &dtype))
        return NULL;
    if (a[5] && !nn_is_none(a[5])) {
        if (nn_is_bool(a[5]) || !(nn_is_int(a[5]) || nn_is_float(a[5])))
            return nn_error_set(NN_ERR_VALUE, "dropout should be a number in range [0, 1] representing the "
                                              "probability of an element being zeroed"), NULL;
        dropout = nn_float_value(a[5]);
    }
    if (proj < 0) return nn_error_set(NN_ERR_VALUE, "proj_size should be a positive integer or zero to disable projections"), NULL;
    if (proj > 0 && proj >= hidden) return nn_error_set(NN_ERR_VALUE, "proj_size has to be smaller than hidden_size"), NULL;
    if (proj > 0) return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "LSTM: proj_size > 0 is not supported yet"), NULL;
    if (is_rnn && a[10]) {
        const char *nl = NULL;
        if (repl_arg_str(f, "nonlinearity", 0, a[10], &nl)) return NULL;
        if (!strcmp(nl, "relu")) mode = NN_RNN_RELU;
        else if (strcmp(nl, "tanh")) return nn_error_set(NN_ERR_VALUE, "Unknown nonlinearity '%s'", nl), NULL;
    }
    return (nn_object *)nn_rnn_new(mode, in, hidden, layers, bias, batch_first, dropout, bidir,
                                   dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype);
}

/* args without the item at position i; new reference */
static nn_object *args_without(nn_object *args, size_t i)
{
    size_t n = nn_tuple_len(args);
    nn_object *t = nn_tuple_new(n - 1);
    for (size_t k = 0, j = 0; t && k < n; k++)
        if (k != i) nn_tuple_set(t, j++, nn_retain(nn_tuple_get(args, k)));
    return t;
}

/* The leading argument `name` (the first positional one or a keyword) taken off args/kwargs into *rest
   and *restkw (new references); its value (borrowed) or NULL with TypeError. */
static nn_object *take_first(const char *f, const char *name, nn_object *args, nn_object *kwargs, nn_object **rest,
                             nn_object **restkw)
{
    *rest = *restkw = NULL;
    nn_object *v = kwargs ? nn_dict_get_str(kwargs, name) : NULL;
    if (v) {
        if (!(*restkw = nn_dict_copy(kwargs)) || nn_dict_del_str(*restkw, name) < 0) return NULL;
        *rest = nn_retain(args);
        return v;
    }
    if (nn_tuple_len(args) < 1)
        return nn_error_set(NN_ERR_TYPE, "%s() missing 1 required positional argument: '%s'", f, name), NULL;
    if (!(*rest = args_without(args, 0))) return NULL;
    if (kwargs) *restkw = nn_retain(kwargs);
    return nn_tuple_get(args, 0);
}

/* RNNBase(mode, input_size, hidden_size, ...): the module of that mode under RNNBase's class. */
CTOR(RNNBase)
{
    const char *f = "RNNBase.__init__";
    nn_object *rest, *restkw, *mode = take_first(f, "mode", args, kwargs, &rest, &restkw);
    nn_rnn_mode m = NN_RNN_TANH;
    if (mode && !nn_is_str(mode)) {
        nn_error_set(NN_ERR_TYPE, "%s: mode must be a str", f);
        mode = NULL;
    }
    const char *s = mode ? nn_str_cstr(mode) : "";
    if (!mode) m = NN_RNN_TANH;
    else if (!strcmp(s, "LSTM")) m = NN_RNN_LSTM;
    else if (!strcmp(s, "GRU")) m = NN_RNN_GRU;
    else if (!strcmp(s, "RNN_RELU")) m = NN_RNN_RELU;
    else if (strcmp(s, "RNN_TANH")) {
        nn_error_set(NN_ERR_VALUE, "Unrecognized RNN mode: %s", s);
        mode = NULL;
    }
    nn_object *r = mode ? rnn_ctor(f, m == NN_RNN_RELU ? NN_RNN_TANH : m, rest, restkw) : NULL;
    NN_RELEASE(rest);
    NN_RELEASE(restkw);
    if (r && m == NN_RNN_RELU) {
        nn_object *v = nn_str_new("RNN_RELU");
        if (!v || nn_module_setattr((nn_module *)r, "mode", v) < 0) NN_SET(r, NULL);
        NN_RELEASE(v);
    }
    if (r) ((nn_module *)r)->cls = &nn_rnn_base_class;
    return r;
}

CTOR(RNN) { return rnn_ctor("RNN.__init__", NN_RNN_TANH, args, kwargs); }
CTOR(LSTM) { return rnn_ctor("LSTM.__init__", NN_RNN_LSTM, args, kwargs); }
CTOR(GRU) { return rnn_ctor("GRU.__init__", NN_RNN_GRU, args, kwargs); }

/* RNNCell(input_size, hidden_size, bias=True, nonlinearity='tanh', device=None, dtype=None);
   LSTMCell / GRUCell(input_size, hidden_size, bias=True, device=None, dtype=None). */
static nn_object *cell_ctor(const char *f, nn_rnn_mode mode, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    bool is_rnn = mode != NN_RNN_LSTM && mode != NN_RNN_GRU;
    if (repl_parse_args(f, is_rnn ? "self, input_size, hidden_size, bias=, nonlinearity=, device=, dtype="
                                  : "self, input_size, hidden_size, bias=, device=, dtype=",
                        args, kwargs, a))
        return NULL;
    nn_object *nl = is_rnn ? a[3] : NULL, *device = is_rnn ? a[4] : a[3], *dt = is_rnn ? a[5] : a[4];
    int64_t in = 0, hidden = 0;
    bool bias = true;
    int dtype = -1;
    const char *nls = "tanh";
    if (repl_arg_int(f, "input_size", 1, a[0], &in) || repl_arg_int(f, "hidden_size", 2, a[1], &hidden) ||
        repl_arg_bool(f, "bias", 3, a[2], &bias) || (nl && repl_arg_str(f, "nonlinearity", 4, nl, &nls)) ||
        repl_arg_device(f, device) || repl_arg_dtype(f, "dtype", 0, dt, &dtype))
        return NULL;
    nn_module *m = nn_rnn_cell_new(!strcmp(nls, "relu") ? NN_RNN_RELU : mode, in, hidden, bias,
                                   dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype);
    if (m && is_rnn && strcmp(nls, "relu") && strcmp(nls, "tanh")) { /* refused when called, as PyTorch does */
        nn_object *s = nn_str_new(nls);
        if (!s || nn_module_setattr(m, "nonlinearity", s)) NN_SET(m, NULL);
        NN_RELEASE(s);
    }
    return (nn_object *)m;
}

/* RNNCellBase(input_size, hidden_size, bias, num_chunks, device=None, dtype=None): the parameters of
   the cell with that many gate chunks (1, 3 or 4) under RNNCellBase's class. */
CTOR(RNNCellBase)
{
    ARGS(6);
    const char *f = "RNNCellBase.__init__";
    int64_t in = 0, hidden = 0, chunks = 0;
    bool bias = true;
    int dtype = -1;
    if (repl_parse_args(f, "self, input_size, hidden_size, bias, num_chunks, device=, dtype=", args, kwargs, a) ||
        repl_arg_int(f, "input_size", 1, a[0], &in) || repl_arg_int(f, "hidden_size", 2, a[1], &hidden) ||
        repl_arg_bool(f, "bias", 3, a[2], &bias) || repl_arg_int(f, "num_chunks", 4, a[3], &chunks) ||
        repl_arg_device(f, a[4]) || repl_arg_dtype(f, "dtype", 0, a[5], &dtype))
        return NULL;
    if (chunks != 1 && chunks != 3 && chunks != 4)
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "RNNCellBase: num_chunks=%lld (nnscope makes 1, 3 or 4)",
                            (long long)chunks), NULL;
    nn_module *m = nn_rnn_cell_new(chunks == 4 ? NN_RNN_LSTM : chunks == 3 ? NN_RNN_GRU : NN_RNN_TANH, in, hidden, bias,
                                   dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype);
    if (m && chunks == 1 && nn_module_delattr(m, "nonlinearity") < 0) NN_SET(m, NULL);
    if (m) m->cls = &nn_rnn_cell_base_class;
    return (nn_object *)m;
}

CTOR(RNNCell) { return cell_ctor("RNNCell.__init__", NN_RNN_TANH, args, kwargs); }
CTOR(LSTMCell) { return cell_ctor("LSTMCell.__init__", NN_RNN_LSTM, args, kwargs); }
CTOR(GRUCell) { return cell_ctor("GRUCell.__init__", NN_RNN_GRU, args, kwargs); }

/* ----------------------------------------------------------------- methods */

#define MM(name) static nn_object *mm_##name(nn_object *self, nn_object *args, nn_object *kwargs)

MM(reset_parameters)
{
    ARGS(1);
    if (repl_parse_args("reset_parameters", "self", args, kwargs, a) || nn_rnn_reset_parameters(NN_MODULE(self)))
        return NULL;
    return nn_retain(nn_none());
}

MM(flatten_parameters)
{
    ARGS(1);
    if (repl_parse_args("flatten_parameters", "self", args, kwargs, a)) return NULL;
    return nn_retain(nn_none()); /* cuDNN's flat weight buffer: nothing to do on the CPU */
}

static const repl_method_def rnn_methods[] = {
    {"reset_parameters", mm_reset_parameters,
     "reset_parameters()\n"
     "Re-draws every parameter from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."},
    {"flatten_parameters", mm_flatten_parameters,
     "flatten_parameters()\n"
     "Compacts the weights into one buffer for cuDNN; does nothing on the CPU."},
    {NULL, NULL, NULL},
};

nn_object *repl_rnn_method(nn_module *m, const char *name)
{
    if (!nn_is_rnn_module(m)) return NULL;
    if (!strcmp(name, "flatten_parameters") && (m->cls == &nn_rnn_cell_class || m->cls == &nn_lstm_cell_class ||
                                                m->cls == &nn_gru_cell_class))
        return NULL;
    return repl_method_lookup(rnn_methods, name, (nn_object *)m);
}

static bool rnn_method_at(const repl_class_def *cls, size_t i, repl_method_doc *out)
{
    size_t n = 0;
    while (repl_module_method_at(cls, n, out)) {
        if (n == i) return true;
        n++;
    }
    i -= n;
    if (i >= sizeof rnn_methods / sizeof rnn_methods[0] - 1) return false;
    out->name = rnn_methods[i].name;
    out->doc = rnn_methods[i].doc;
    out->self_first = false;
    return true;
}

/* ---------------------------------------------------------------- attention */

static nn_dtype dtype_or_default(int dtype) { return dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype; }

CTOR(MultiheadAttention)
{
    ARGS(11);
    const char *f = "MultiheadAttention.__init__";
    if (repl_parse_args(f, "self, embed_dim, num_heads, dropout=, bias=, add_bias_kv=, add_zero_attn=, kdim=, vdim=, "
                           "batch_first=, device=, dtype=", args, kwargs, a))
        return NULL;
    int64_t e = 0, h = 0, kdim = 0, vdim = 0;
    double dropout = 0;
    bool bias = true, bias_kv = false, zero_attn = false, batch_first = false;
    int dtype = -1;
    if (repl_arg_int(f, "embed_dim", 1, a[0], &e) || repl_arg_int(f, "num_heads", 2, a[1], &h) ||
        repl_arg_double(f, "dropout", 3, a[2], &dropout) || repl_arg_bool(f, "bias", 4, a[3], &bias) ||
        repl_arg_bool(f, "add_bias_kv", 5, a[4], &bias_kv) || repl_arg_bool(f, "add_zero_attn", 6, a[5], &zero_attn) ||
        repl_arg_int(f, "kdim", 7, a[6], &kdim) || repl_arg_int(f, "vdim", 8, a[7], &vdim) ||
        repl_arg_bool(f, "batch_first", 9, a[8], &batch_first) || repl_arg_device(f, a[9]) ||
        repl_arg_dtype(f, "dtype", 0, a[10], &dtype))
        return NULL;
    if (bias_kv || zero_attn) return repl_mha_with_bias_kv(args, kwargs); /* torch.nn._mha.py */
    return (nn_object *)nn_multihead_attention_new(e, h, dropout, bias, kdim, vdim, batch_first, dtype_or_default(dtype));
}

/* torch.nn.functional.<name> (a new reference). */
static nn_object *functional_fn(const char *name)
{
    nn_object *F = repl_bind_import("torch.nn.functional");
    nn_object *fn = F ? nn_dict_get_str(repl_namespace_attrs(F), name) : NULL;
    if (fn) NN_RETAIN(fn);
    else if (F) nn_error_set(NN_ERR_ATTRIBUTE, "module 'torch.nn.functional' has no attribute '%s'", name);
    NN_RELEASE(F);
    return fn;
}

CTOR(TransformerEncoderLayer)
{
    ARGS(10);
    const char *f = "TransformerEncoderLayer.__init__";
    if (repl_parse_args(f, "self, d_model, nhead, dim_feedforward=, dropout=, activation=, layer_norm_eps=, "
                           "batch_first=, norm_first=, device=, dtype=", args, kwargs, a))
        return NULL;
    int64_t d = 0, h = 0, ff = 2048;
    double dropout = 0.1, eps = 1e-5;
    bool batch_first = false, norm_first = false;
    int dtype = -1;
    if (repl_arg_int(f, "d_model", 1, a[0], &d) || repl_arg_int(f, "nhead", 2, a[1], &h) ||
        repl_arg_int(f, "dim_feedforward", 3, a[2], &ff) || repl_arg_double(f, "dropout", 4, a[3], &dropout) ||
        repl_arg_double(f, "layer_norm_eps", 6, a[5], &eps) || repl_arg_bool(f, "batch_first", 7, a[6], &batch_first) ||
        repl_arg_bool(f, "norm_first", 8, a[7], &norm_first) || repl_arg_device(f, a[8]) ||
        repl_arg_dtype(f, "dtype", 0, a[9], &dtype))
        return NULL;
    nn_object *act = NULL;
    if (!a[4] || nn_is_none(a[4])) act = functional_fn("relu");
    else if (nn_is_str(a[4])) {
        const char *s = nn_str_cstr(a[4]);
        if (strcmp(s, "relu") && strcmp(s, "gelu"))
            return nn_error_set(NN_ERR_RUNTIME, "activation should be relu/gelu, not %s", s), NULL;
        act = functional_fn(s);
    } else
        act = nn_retain(a[4]);
    if (!act) return NULL;
    nn_module *m = nn_transformer_encoder_layer_new(d, h, ff, dropout, act, eps, batch_first, norm_first,
                                                    dtype_or_default(dtype));
    NN_RELEASE(act);
    return (nn_object *)m;
}

CTOR(TransformerEncoder)
{
    ARGS(5);
    const char *f = "TransformerEncoder.__init__";
    int64_t n = 0;
    bool nested = true, mask_check = true;
    if (repl_parse_args(f, "self, encoder_layer, num_layers, norm=, enable_nested_tensor=, mask_check=", args, kwargs,
                        a) ||
        repl_arg_int(f, "num_layers", 2, a[1], &n) || repl_arg_bool(f, "enable_nested_tensor", 4, a[3], &nested) ||
        repl_arg_bool(f, "mask_check", 5, a[4], &mask_check))
        return NULL;
    if (!nn_is_module(a[0]))
        return nn_error_set(NN_ERR_TYPE, "TransformerEncoder: encoder_layer must be a Module, not %s",
                            repl_type_name(a[0])), NULL;
    if (a[2] && !nn_is_none(a[2]) && !nn_is_module(a[2]))
        return nn_error_set(NN_ERR_TYPE, "TransformerEncoder: norm must be a Module or None, not %s",
                            repl_type_name(a[2])), NULL;
    nn_object *layers = nn_list_new(n > 0 ? (size_t)n : 0);
    for (int64_t i = 0; layers && i < n; i++) { /* _get_clones: copy.deepcopy(module) num_layers times */
        nn_object *c = repl_deepcopy(a[0]);
        if (!c || nn_list_append(layers, c)) NN_SET(layers, NULL);
        NN_RELEASE(c);
    }
    nn_module *m = layers ? nn_transformer_encoder_new(layers, a[2] && !nn_is_none(a[2]) ? NN_MODULE(a[2]) : NULL,
                                                       nested, mask_check)
                          : NULL;
    NN_RELEASE(layers);
    return (nn_object *)m;
}

static nn_object *F_scaled_dot_product_attention(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    const char *f = "scaled_dot_product_attention";
    nn_tensor *q = NULL, *k = NULL, *v = NULL, *mask = NULL;
    double p = 0;
    bool causal = false;
    if (repl_parse_args(f, "query, key, value, attn_mask=, dropout_p=, is_causal=", args, kwargs, a)) return NULL;
    if (a[3] && nn_is_none(a[3])) a[3] = NULL; /* attn_mask=None: no mask, as nanoGPT passes it */
    if (repl_arg_tensor(f, "query", 1, a[0], &q) || repl_arg_tensor(f, "key", 2, a[1], &k) ||
        repl_arg_tensor(f, "value", 3, a[2], &v) || repl_arg_tensor(f, "attn_mask", 4, a[3], &mask) ||
        repl_arg_double(f, "dropout_p", 5, a[4], &p) || repl_arg_bool(f, "is_causal", 6, a[5], &causal))
        return NULL;
    return (nn_object *)nn_scaled_dot_product_attention(q, k, v, mask, p, causal);
}

static const repl_function_def functional[] = {
    {"scaled_dot_product_attention", F_scaled_dot_product_attention,
     "scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False) -> Tensor\n"
     "softmax(query @ key.transpose(-2, -1) / sqrt(E) + mask) @ value (PyTorch 2's name; its math path)."},
};

int repl_rnn_functional(nn_object *fns)
{
    return repl_namespace_add_fns(fns, functional, sizeof functional / sizeof functional[0]);
}

/* ------------------------------------------------------------------ classes */

#define NNCLASS(N, C, DOC) {#N, "torch.nn.modules.rnn." #N, c_##N, NULL, &C, DOC, rnn_method_at}
static const repl_class_def classes[] = {
    NNCLASS(RNNBase, nn_rnn_base_class,
            "RNNBase(mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None)\n"
            "The base class of RNN, LSTM and GRU."),
    NNCLASS(RNNCellBase, nn_rnn_cell_base_class,
            "RNNCellBase(input_size, hidden_size, bias, num_chunks, device=None, dtype=None)\n"
            "The base class of RNNCell, LSTMCell and GRUCell."),
    NNCLASS(RNN, nn_rnn_class,
            "RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True, batch_first=False, dropout=0.0, bidirectional=False, device=None, dtype=None)\n"
            "Applies a multi-layer Elman RNN with tanh or ReLU non-linearity to an input sequence."),
    NNCLASS(LSTM, nn_lstm_class,
            "LSTM(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None)\n"
            "Applies a multi-layer long short-term memory (LSTM) RNN to an input sequence."),
    NNCLASS(GRU, nn_gru_class,
            "GRU(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False, device=None, dtype=None)\n"
            "Applies a multi-layer gated recurrent unit (GRU) RNN to an input sequence."),
    NNCLASS(RNNCell, nn_rnn_cell_class,
            "RNNCell(input_size, hidden_size, bias=True, nonlinearity='tanh', device=None, dtype=None)\n"
            "An Elman RNN cell with tanh or ReLU non-linearity."),
    NNCLASS(LSTMCell, nn_lstm_cell_class,
            "LSTMCell(input_size, hidden_size, bias=True, device=None, dtype=None)\n"
            "A long short-term memory (LSTM) cell."),
    NNCLASS(GRUCell, nn_gru_cell_class,
            "GRUCell(input_size, hidden_size, bias=True, device=None, dtype=None)\n"
            "A gated recurrent unit (GRU) cell."),
    {"MultiheadAttention", "torch.nn.modules.activation.MultiheadAttention", c_MultiheadAttention, NULL,
     &nn_multihead_attention_class,
     "MultiheadAttention(embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None, dtype=None)\n"
     "Allows the model to jointly attend to information from different representation subspaces.",
     repl_module_method_at},
    {"TransformerEncoderLayer", "torch.nn.modules.transformer.TransformerEncoderLayer", c_TransformerEncoderLayer,
     NULL, &nn_transformer_encoder_layer_class,
     "TransformerEncoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=relu, layer_norm_eps=1e-05, batch_first=False, norm_first=False, device=None, dtype=None)\n"
     "Self-attention and a feedforward network, as in \"Attention Is All You Need\".",
     repl_module_method_at},
    {"TransformerEncoder", "torch.nn.modules.transformer.TransformerEncoder", c_TransformerEncoder, NULL,
     &nn_transformer_encoder_class,
     "TransformerEncoder(encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True)\n"
     "A stack of N encoder layers (deep copies of encoder_layer).",
     repl_module_method_at},
};
#undef NNCLASS

int repl_rnn_classes(nn_object *nn)
{
    return repl_namespace_add_classes(nn, classes, sizeof classes / sizeof classes[0]);
}

/* ------------------------------------------------------ torch.nn.utils.rnn */

/* The items of a list or tuple of tensors (borrowed) into a new array; *n their count. */
static nn_tensor **tensor_items(const char *f, nn_object *seq, size_t *n)
{
    bool tuple = seq->type == &nn_tuple_type;
    if (!tuple && !nn_is_list(seq)) {
        nn_error_set(NN_ERR_TYPE, "%s(): argument 'sequences' (position 1) must be tuple of Tensors, not %s", f,
                     repl_type_name(seq));
        return NULL;
    }
    *n = tuple ? nn_tuple_len(seq) : nn_list_len(seq);
    nn_tensor **ts = nn_malloc(sizeof *ts * (*n ? *n : 1));
    for (size_t i = 0; ts && i < *n; i++) {
        nn_object *o = tuple ? nn_tuple_get(seq, i) : nn_list_get(seq, i);
        if (!nn_is_tensor(o)) {
            nn_error_set(NN_ERR_TYPE, "%s(): argument 'sequences' (position 1) must be tuple of Tensors, but found "
                         "element of type %s at pos %zu", f, repl_type_name(o), i);
            nn_free(ts);
            return NULL;
        }
        ts[i] = NN_TENSOR(o);
    }
    return ts;
}

/* pad_sequence(sequences, batch_first=False, padding_value=0.0): each [L_i, *]
   padded to the longest along dim 0 and stacked: [max_L, B, *] ([B, max_L, *]
   when batch_first), written into a tensor of padding_value as ATen does
   (grad_fn CopySlices). */
static nn_object *f_pad_sequence(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    const char *f = "pad_sequence";
    bool batch_first = false;
    double value = 0;
    size_t n = 0;
    if (repl_parse_args(f, "sequences, batch_first=, padding_value=", args, kwargs, a) ||
        repl_arg_bool(f, "batch_first", 2, a[1], &batch_first) || repl_arg_double(f, "padding_value", 3, a[2], &value))
        return NULL;
    nn_tensor **ts = tensor_items(f, a[0], &n);
    if (!ts) return NULL;
    nn_object *result = NULL;
    if (n == 0) {
        nn_error_set(NN_ERR_RUNTIME, "received an empty list of sequences");
        goto done;
    }
    int64_t max_len = 0;
    for (size_t i = 0; i < n; i++) {
        if (ts[i]->ndim == 0) {
            nn_error_set(NN_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
            goto done;
        }
        if (ts[i]->sizes[0] > max_len) max_len = ts[i]->sizes[0];
    }
    int64_t sizes[NN_MAX_DIMS];
    int nd = ts[0]->ndim + 1;
    sizes[batch_first ? 0 : 1] = (int64_t)n;
    sizes[batch_first ? 1 : 0] = max_len;
    memcpy(sizes + 2, ts[0]->sizes + 1, sizeof sizes[0] * (size_t)(ts[0]->ndim - 1));
    nn_tensor *out = nn_full_on(nn_device_of(ts[0]), nd, sizes, value, ts[0]->dtype);
    int rc = out ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        /* batch_first: out[i, :L_i] = seq; else out[:L_i, i] = seq */
        nn_index_item items[2] = {{.kind = NN_INDEX_INT, .start = (int64_t)i},
                                  {.kind = NN_INDEX_SLICE, .start = 0, .stop = ts[i]->sizes[0], .step = 1,
                                   .has_start = true, .has_stop = true}};
        if (!batch_first) {
            nn_index_item t = items[0];
            items[0] = items[1];
            items[1] = t;
        }
        rc = nn_index_put_(out, 2, items, ts[i]);
    }
    if (rc) NN_SET(out, NULL);
    result = (nn_object *)out;
done:
    nn_free(ts);
    return result;
}

/* --------------------------------------------------------- PackedSequence */

/* torch.nn.utils.rnn.PackedSequence: a 4-tuple (data, batch_sizes,
   sorted_indices, unsorted_indices) with the namedtuple's repr and fields;
   core's RNN forwards recognise it by its type's name. */
static char *packed_repr(nn_object *self)
{
    char *r[4] = {0}, *out = NULL;
    size_t n = 96;
    for (size_t i = 0; i < 4; i++) {
        if (!(r[i] = nn_repr(nn_tuple_get(self, i)))) goto done;
        n += strlen(r[i]);
    }
    if ((out = nn_malloc(n)))
        snprintf(out, n, "PackedSequence(data=%s, batch_sizes=%s, sorted_indices=%s, unsorted_indices=%s)", r[0], r[1],
                 r[2], r[3]);
done:
    for (size_t i = 0; i < 4; i++) nn_free(r[i]);
    return out;
}

static nn_type packed_type = {.name = "PackedSequence", .repr = packed_repr, .base = &nn_tuple_type};

static const repl_method_def packed_methods[];

nn_object *repl_rnn_getattr(nn_object *o, const char *name, bool *handled)
{
    if (o->type != &packed_type) return NULL;
    *handled = true;
    static const char *const fields[4] = {"data", "batch_sizes", "sorted_indices", "unsorted_indices"};
    for (size_t i = 0; i < 4; i++)
        if (!strcmp(name, fields[i])) return nn_retain(nn_tuple_get(o, i));
    if (!strcmp(name, "_fields")) {
        nn_object *t = nn_tuple_new(4);
        for (size_t i = 0; t && i < 4; i++) nn_tuple_set(t, i, nn_str_new(fields[i]));
        return t;
    }
    if (!strcmp(name, "is_cuda")) return repl_get_attr(nn_tuple_get(o, 0), "is_cuda");
    nn_object *m = repl_method_lookup(packed_methods, name, o);
    if (!m && nn_error_current() == NN_OK)
        nn_error_set(NN_ERR_ATTRIBUTE, "'PackedSequence' object has no attribute '%s'", name);
    return m;
}

bool repl_is_packed_sequence(const nn_object *o) { return o && o->type == &packed_type; }

/* A PackedSequence of the four (taken; NULL sorted/unsorted: None). */
static nn_object *packed_new(nn_tensor *data, nn_tensor *batch_sizes, nn_tensor *sorted, nn_tensor *unsorted)
{
    nn_object *t = data && batch_sizes ? nn_tuple_new(4) : NULL;
    if (t) {
        nn_tuple_set(t, 0, (nn_object *)data);
        nn_tuple_set(t, 1, (nn_object *)batch_sizes);
        nn_tuple_set(t, 2, sorted ? (nn_object *)sorted : nn_retain(nn_none()));
        nn_tuple_set(t, 3, unsorted ? (nn_object *)unsorted : nn_retain(nn_none()));
        return repl_tuple_as(t, &packed_type);
    }
    NN_RELEASE(data);
    NN_RELEASE(batch_sizes);
    NN_RELEASE(sorted);
    NN_RELEASE(unsorted);
    return NULL;
}

/* p.to(*args, **kwargs), as PyTorch's: data.to(...); p itself when that leaves data as it is, else a
   new PackedSequence whose indices follow data to its device */
static nn_object *packed_to(nn_object *self, nn_object *args, nn_object *kwargs)
{
    nn_object *old = nn_tuple_get(self, 0), *to = repl_get_attr(old, "to");
    nn_object *data = to ? repl_call_object(to, ((nn_tuple *)args)->items, (int)nn_tuple_len(args), kwargs) : NULL;
    NN_RELEASE(to);
    if (!data || data == old) return data ? (NN_RELEASE(data), nn_retain(self)) : NULL;
    nn_device dev = nn_device_of(NN_TENSOR(data));
    nn_tensor *idx[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        nn_object *t = nn_tuple_get(self, 2 + (size_t)i);
        if (nn_is_tensor(t) && !(idx[i] = nn_to_device(NN_TENSOR(t), dev))) {
            NN_RELEASE(idx[0]);
            NN_RELEASE(data);
            return NULL;
        }
    }
    return packed_new(NN_TENSOR(data), (nn_tensor *)nn_retain(nn_tuple_get(self, 1)), idx[0], idx[1]);
}

/* p.to with one keyword: device= (cpu(), cuda()) or dtype= (double(), float(), ...) */
static nn_object *packed_to_one(nn_object *self, nn_object *args, const char *key, nn_object *value)
{
    nn_object *kw = value ? nn_dict_new() : NULL;
    nn_object *r = kw && !nn_dict_set_str(kw, key, value) ? packed_to(self, args, kw) : NULL;
    NN_RELEASE(kw);
    return r;
}

static nn_object *packed_to_dtype(nn_object *self, nn_dtype dt)
{
    nn_object *none = nn_tuple_new(0);
    nn_object *r = none ? packed_to_one(self, none, "dtype", repl_dtype_object(dt)) : NULL;
    NN_RELEASE(none);
    return r;
}

static nn_object *packed_to_device(nn_object *self, nn_object *args, const char *device)
{
    nn_object *d = nn_str_new(device);
    nn_object *r = d ? packed_to_one(self, args, "device", d) : NULL;
    NN_RELEASE(d);
    return r;
}

#define PACKED_AS(name, dt) \
    static nn_object *packed_##name(nn_object *self, nn_object *args, nn_object *kwargs) { return packed_to_dtype(self, dt); }
PACKED_AS(double, NN_FLOAT64)
PACKED_AS(float, NN_FLOAT32)
PACKED_AS(half, NN_FLOAT16)
PACKED_AS(long, NN_INT64)
PACKED_AS(int, NN_INT32)
PACKED_AS(short, NN_INT16)
PACKED_AS(char, NN_INT8)
PACKED_AS(byte, NN_UINT8)
#undef PACKED_AS

static nn_object *packed_cpu(nn_object *self, nn_object *args, nn_object *kwargs)
{
    return packed_to_device(self, args, "cpu");
}

static nn_object *packed_cuda(nn_object *self, nn_object *args, nn_object *kwargs)
{
    nn_object *cuda = nn_tuple_len(args) ? NULL : nn_str_new("cuda"); /* cuda(device) names its own */
    nn_object *kw = nn_dict_new();
    if (cuda && kw) nn_dict_set_str(kw, "device", cuda);
    nn_object *r = kw ? packed_to(self, args, kw) : NULL;
    NN_RELEASE(cuda);
    NN_RELEASE(kw);
    return r;
}

static nn_object *packed_is_pinned(nn_object *self, nn_object *args, nn_object *kwargs)
{
    return repl_call_method(nn_tuple_get(self, 0), "is_pinned", NULL, 0);
}

/* p._replace(**fields): the namedtuple's copy with some fields changed */
static nn_object *packed_replace(nn_object *self, nn_object *args, nn_object *kwargs)
{
    static const char *const fields[4] = {"data", "batch_sizes", "sorted_indices", "unsorted_indices"};
    if (nn_tuple_len(args))
        return nn_error_set(NN_ERR_TYPE, "_replace() takes 1 positional argument but %zu were given",
                            nn_tuple_len(args) + 1), NULL;
    size_t pos = 0, used = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        bool known = false;
        for (size_t i = 0; i < 4; i++) known |= !strcmp(nn_str_cstr(k), fields[i]);
        if (!known) {
            char *r = nn_repr(k);
            nn_error_set(NN_ERR_VALUE, "Got unexpected field names: [%s]", r ? r : "");
            nn_free(r);
            return NULL;
        }
        used++;
    }
    nn_object *t = nn_tuple_new(4);
    for (size_t i = 0; t && i < 4; i++) {
        nn_object *given = kwargs ? nn_dict_get_str(kwargs, fields[i]) : NULL;
        nn_tuple_set(t, i, nn_retain(given ? given : nn_tuple_get(self, i)));
    }
    return t ? repl_tuple_as(t, &packed_type) : NULL;
}

static const repl_method_def packed_methods[] = {
    {"_replace", packed_replace, "_replace(**kwargs) -> PackedSequence\nA copy with the fields named changed."},
    {"to", packed_to, "to(*args, **kwargs) -> PackedSequence\nThe sequence with its data as data.to(*args, **kwargs)."},
    {"cpu", packed_cpu, "cpu() -> PackedSequence\nThe sequence with its data on the CPU."},
    {"cuda", packed_cuda, "cuda(device=None) -> PackedSequence\nThe sequence with its data on a CUDA device."},
    {"double", packed_double, "double() -> PackedSequence\nThe sequence with its data as torch.float64."},
    {"float", packed_float, "float() -> PackedSequence\nThe sequence with its data as torch.float32."},
    {"half", packed_half, "half() -> PackedSequence\nThe sequence with its data as torch.float16."},
    {"long", packed_long, "long() -> PackedSequence\nThe sequence with its data as torch.int64."},
    {"int", packed_int, "int() -> PackedSequence\nThe sequence with its data as torch.int32."},
    {"short", packed_short, "short() -> PackedSequence\nThe sequence with its data as torch.int16."},
    {"char", packed_char, "char() -> PackedSequence\nThe sequence with its data as torch.int8."},
    {"byte", packed_byte, "byte() -> PackedSequence\nThe sequence with its data as torch.uint8."},
    {"is_pinned", packed_is_pinned, "is_pinned() -> bool\nWhether the data is in pinned memory."},
    {NULL, NULL, NULL},
};

/* PackedSequence(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None), as PyTorch's
   __new__: (data, batch_sizes) may come as one pair; unsorted_indices defaults to the inverse of
   sorted_indices. */
static nn_object *packed_ctor(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    if (repl_parse_args("__new__", "data, batch_sizes=, sorted_indices=, unsorted_indices=", args, kwargs, a)) return NULL;
    nn_object *data = a[0], *bs = a[1] && !nn_is_none(a[1]) ? a[1] : NULL;
    if (!bs) { /* a (data, batch_sizes) pair */
        bool seq = nn_is_list(data) || nn_is_instance(data, &nn_tuple_type);
        size_t n = !seq ? 0 : nn_is_list(data) ? nn_list_len(data) : nn_tuple_len(data);
        if (n != 2) { /* PyTorch's bare assert */
            nn_object *none = nn_tuple_new(0), *e = none ? repl_exc_new(EXC_AssertionError, none) : NULL;
            if (e) repl_raise_object(e);
            NN_RELEASE(none);
            NN_RELEASE(e);
            return NULL;
        }
        bs = nn_is_list(data) ? nn_list_get(data, 1) : nn_tuple_get(data, 1);
        data = nn_is_list(data) ? nn_list_get(data, 0) : nn_tuple_get(data, 0);
    } else if (nn_is_tensor(bs) && nn_device_of(NN_TENSOR(bs)).type != NN_DEVICE_CPU.type) {
        return nn_error_set(NN_ERR_VALUE, "batch_sizes should always be on CPU. Instances of PackedSequence should "
                            "never be created manually. They should be instantiated by functions like "
                            "pack_sequence and pack_padded_sequences in nn.utils.rnn. "
                            "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence"), NULL;
    }
    nn_object *sorted = a[2] && !nn_is_none(a[2]) ? a[2] : NULL, *unsorted = a[3] && !nn_is_none(a[3]) ? a[3] : NULL;
    nn_object *inverse = NULL;
    if (sorted && !unsorted) { /* torch.empty_like(sorted).scatter_(0, sorted, torch.arange(n)) */
        nn_object *argsort = repl_call_method(sorted, "argsort", NULL, 0);
        if (!argsort) return NULL;
        unsorted = inverse = argsort;
    }
    nn_object *t = nn_tuple_new(4);
    if (t) {
        nn_object *items[4] = {data, bs, sorted, unsorted};
        for (size_t i = 0; i < 4; i++) nn_tuple_set(t, i, nn_retain(items[i] ? items[i] : nn_none()));
    }
    NN_RELEASE(inverse);
    return t ? repl_tuple_as(t, &packed_type) : NULL;
}

static const repl_class_def packed_class = {
    "PackedSequence", "torch.nn.utils.rnn.PackedSequence", packed_ctor, &packed_type, NULL,
    "PackedSequence(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None)\n"
    "Holds the data and list of batch_sizes of a packed sequence.", NULL};

/* An int64 CPU tensor [n] of the values v. */
static nn_tensor *int64_tensor(const int64_t *v, int64_t n)
{
    nn_tensor *t = nn_empty_on(NN_DEVICE_CPU, 1, &n, NN_INT64);
    if (t && nn_host_write(t, v)) NN_SET(t, NULL);
    return t;
}

/* lengths: a list/tuple of ints or a 1-D tensor, into a new nn_malloc'd array of *n values. */
static int64_t *lengths_of(const char *f, nn_object *o, int64_t *n)
{
    if (nn_is_tensor(o)) {
        nn_tensor *t = NN_TENSOR(o), *hold = NULL;
        nn_tensor *l = nn_to_dtype(t, NN_INT64);
        const int64_t *v = l ? nn_host_read(l, &hold) : NULL;
        int64_t *out = v ? nn_malloc(sizeof *out * (size_t)(nn_numel(l) + 1)) : NULL;
        if (out) {
            *n = nn_numel(l);
            memcpy(out, v, sizeof *out * (size_t)*n);
        }
        NN_RELEASE(hold);
        NN_RELEASE(l);
        return out;
    }
    bool tuple = o->type == &nn_tuple_type;
    if (!tuple && !nn_is_list(o)) {
        nn_error_set(NN_ERR_TYPE, "%s(): lengths must be a list of ints or a 1-D tensor, not %s", f, repl_type_name(o));
        return NULL;
    }
    *n = (int64_t)(tuple ? nn_tuple_len(o) : nn_list_len(o));
    int64_t *out = nn_malloc(sizeof *out * (size_t)(*n + 1));
    for (int64_t i = 0; out && i < *n; i++) {
        nn_object *v = tuple ? nn_tuple_get(o, (size_t)i) : nn_list_get(o, (size_t)i);
        if (!nn_is_int(v) && !nn_is_bool(v)) {
            nn_error_set(NN_ERR_TYPE, "%s(): lengths must be ints, not %s", f, repl_type_name(v));
            NN_SET_FREE(out);
        } else
            out[i] = nn_int_value(v);
    }
    return out;
}

/* invert_permutation: out[perm[i]] = i. */
static nn_tensor *invert_permutation(nn_tensor *perm)
{
    nn_tensor *zero = nn_zeros_like(perm);
    nn_tensor *ar = zero ? nn_arange_on(nn_device_of(perm), 0, (double)nn_numel(perm), 1, true, NN_INT64) : NULL;
    nn_tensor *r = ar ? nn_scatter(zero, 0, perm, ar) : NULL;
    NN_RELEASE(zero);
    NN_RELEASE(ar);
    return r;
}

/* pack_padded_sequence(input [T, B, *] ([B, T, *] when batch_first), lengths,
   batch_first=False, enforce_sorted=True): ATen's _pack_padded_sequence, the
   batch sorted by decreasing length first when not enforce_sorted. */
static nn_object *pack_padded(nn_tensor *input, nn_object *lengths_o, bool batch_first, bool enforce_sorted)
{
    const char *f = "pack_padded_sequence";
    int64_t n = 0;
    int64_t *len = lengths_of(f, lengths_o, &n);
    if (!len) return NULL;
    nn_object *result = NULL;
    nn_tensor *x = NULL, *sorted = NULL, **steps = NULL;
    int64_t *bs = NULL, n_steps = 0, B = 0, T = 0;
    if (input->ndim < 2) {
        nn_error_set(NN_ERR_RUNTIME, "%s: input must have at least 2 dimensions, got %d", f, input->ndim);
        goto done;
    }
    int bdim = batch_first ? 0 : 1;
    if (!enforce_sorted) { /* lengths, sorted_indices = torch.sort(lengths, descending=True) */
        nn_tensor *lt = int64_tensor(len, n), *vals = NULL;
        int rc = lt ? nn_sort(lt, 0, true, &vals, &sorted) : -1;
        NN_RELEASE(lt);
        nn_tensor *hold = NULL;
        const int64_t *v = rc == 0 ? nn_host_read(vals, &hold) : NULL;
        if (v) memcpy(len, v, sizeof *len * (size_t)n);
        NN_RELEASE(hold);
        NN_RELEASE(vals);
        if (v) NN_SET(sorted, nn_to_device(sorted, nn_device_of(input))); /* sorted_indices.to(input.device) */
        if (!v || !sorted || !(x = nn_index_select(input, bdim, sorted))) goto done;
    } else
        x = retained_tensor(input);
    if (batch_first) {
        nn_tensor *t = nn_transpose(x, 0, 1);
        NN_SET(x, t);
        if (!x) goto done;
    }
    T = x->sizes[0], B = x->sizes[1];
    if (n != B) {
        nn_error_set(NN_ERR_RUNTIME, "Expected `len(lengths)` to be equal to batch_size, but got %lld (batch_size=%lld)",
                     (long long)n, (long long)B);
        goto done;
    }
    for (int64_t i = 1; i < n; i++)
        if (len[i] > len[i - 1]) {
            nn_error_set(NN_ERR_RUNTIME, "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                         "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                         "sidestep this requirement if you do not need ONNX exportability.");
            goto done;
        }
    if (n == 0 || len[n - 1] <= 0) {
        nn_error_set(NN_ERR_RUNTIME, "Length of all samples has to be greater than 0, but found an element in 'lengths' "
                     "that is <= 0");
        goto done;
    }
    if (len[0] > T) {
        nn_error_set(NN_ERR_RUNTIME, "%s: a length (%lld) is longer than the sequence (%lld)", f, (long long)len[0],
                     (long long)T);
        goto done;
    }
    bs = nn_malloc(sizeof *bs * (size_t)len[0]);
    steps = bs ? nn_calloc((size_t)n, sizeof *steps) : NULL;
    if (!steps) goto done;
    int64_t prev = 0;
    for (int64_t i = 0; i < n; i++) { /* from the shortest: each new length adds its time steps */
        int64_t l = len[n - 1 - i], cb = n - i;
        if (l <= prev) continue;
        nn_tensor *a = nn_narrow(x, 0, prev, l - prev), *b = a ? nn_narrow(a, 1, 0, cb) : NULL;
        int64_t sizes[NN_MAX_DIMS];
        sizes[0] = -1;
        memcpy(sizes + 1, x->sizes + 2, sizeof sizes[0] * (size_t)(x->ndim - 2));
        steps[n_steps] = b ? nn_reshape(b, x->ndim - 1, sizes) : NULL;
        NN_RELEASE(a);
        NN_RELEASE(b);
        if (!steps[n_steps++]) goto done;
        for (int64_t t = prev; t < l; t++) bs[t] = cb;
        prev = l;
    }
    nn_tensor *data = nn_cat((int)n_steps, steps, 0), *bst = data ? int64_tensor(bs, len[0]) : NULL;
    nn_tensor *unsorted = sorted && bst ? invert_permutation(sorted) : NULL;
    if (sorted && !unsorted) NN_SET(bst, NULL);
    result = packed_new(data, bst, sorted, unsorted);
    sorted = NULL; /* taken */
done:
    for (int64_t i = 0; i < n_steps; i++) NN_RELEASE(steps[i]);
    nn_free(steps);
    nn_free(bs);
    nn_free(len);
    NN_RELEASE(x);
    NN_RELEASE(sorted);
    return result;
}

static nn_object *f_pack_padded_sequence(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    const char *f = "pack_padded_sequence";
    nn_tensor *x = NULL;
    bool batch_first = false, enforce = true;
    if (repl_parse_args(f, "input, lengths, batch_first=, enforce_sorted=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_bool(f, "batch_first", 3, a[2], &batch_first) ||
        repl_arg_bool(f, "enforce_sorted", 4, a[3], &enforce))
        return NULL;
    return pack_padded(x, a[1], batch_first, enforce);
}

static nn_object *f_pack_sequence(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    const char *f = "pack_sequence";
    bool enforce = true;
    size_t n = 0;
    if (repl_parse_args(f, "sequences, enforce_sorted=", args, kwargs, a) ||
        repl_arg_bool(f, "enforce_sorted", 2, a[1], &enforce))
        return NULL;
    nn_tensor **ts = tensor_items(f, a[0], &n);
    nn_object *lengths = ts ? nn_list_new(n) : NULL, *padded = NULL, *r = NULL;
    for (size_t i = 0; lengths && i < n; i++) {
        nn_object *v = ts[i]->ndim ? nn_int_new(ts[i]->sizes[0]) : NULL;
        if (!v) nn_error_set(NN_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
        if (!v || nn_list_append(lengths, v)) NN_SET(lengths, NULL);
        NN_RELEASE(v);
    }
    nn_object *pargs = lengths ? nn_tuple_pack(1, a[0]) : NULL;
    padded = pargs ? f_pad_sequence(NULL, pargs, NULL) : NULL;
    if (padded) r = pack_padded(NN_TENSOR(padded), lengths, false, enforce);
    NN_RELEASE(pargs);
    NN_RELEASE(padded);
    NN_RELEASE(lengths);
    nn_free(ts);
    return r;
}

static nn_object *f_pad_packed_sequence(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    const char *f = "pad_packed_sequence";
    bool batch_first = false;
    double value = 0;
    int64_t total = -1;
    if (repl_parse_args(f, "sequence, batch_first=, padding_value=, total_length=", args, kwargs, a) ||
        repl_arg_bool(f, "batch_first", 2, a[1], &batch_first) || repl_arg_double(f, "padding_value", 3, a[2], &value) ||
        repl_arg_int(f, "total_length", 4, a[3], &total))
        return NULL;
    if (a[0]->type != &packed_type)
        return nn_error_set(NN_ERR_TYPE, "%s(): sequence must be a PackedSequence, not %s", f, repl_type_name(a[0])),
               NULL;
    nn_tensor *data = NN_TENSOR(nn_tuple_get(a[0], 0)), *bst = NN_TENSOR(nn_tuple_get(a[0], 1)), *hold = NULL;
    nn_object *unsorted = nn_tuple_get(a[0], 3);
    int64_t T = bst->ndim == 1 ? bst->sizes[0] : 0;
    if (T == 0 || bst->dtype != NN_INT64 || data->ndim < 1)
        return nn_error_set(NN_ERR_RUNTIME, "%s: batch_sizes must be a non-empty 1-D int64 tensor", f), NULL;
    if (total >= 0 && total < T)
        return nn_error_set(NN_ERR_VALUE, "Expected total_length to be at least the length of the longest sequence in "
                            "input, but got total_length=%lld and max sequence length being %lld", (long long)total,
                            (long long)T), NULL;
    const int64_t *bs = nn_host_read(bst, &hold);
    if (!bs) return NULL;
    int64_t B = bs[0], max_len = total >= 0 ? total : T, sizes[NN_MAX_DIMS];
    sizes[0] = max_len, sizes[1] = B;
    memcpy(sizes + 2, data->sizes + 1, sizeof sizes[0] * (size_t)(data->ndim - 1));
    nn_tensor *out = nn_full_on(nn_device_of(data), data->ndim + 1, sizes, value, data->dtype), *lengths = NULL;
    int64_t *lens = out ? nn_calloc((size_t)B, sizeof *lens) : NULL;
    int rc = lens ? 0 : -1;
    for (int64_t t = 0, off = 0; rc == 0 && t < T; off += bs[t], t++) { /* out[t, :bs[t]] = data[off:off+bs[t]] */
        nn_tensor *rows = nn_narrow(data, 0, off, bs[t]);
        nn_index_item items[2] = {{.kind = NN_INDEX_INT, .start = t},
                                  {.kind = NN_INDEX_SLICE, .start = 0, .stop = bs[t], .step = 1, .has_start = true,
                                   .has_stop = true}};
        rc = rows ? nn_index_put_(out, 2, items, rows) : -1;
        NN_RELEASE(rows);
        for (int64_t b = 0; rc == 0 && b < bs[t] && b < B; b++) lens[b]++;
    }
    if (rc == 0 && batch_first) {
        nn_tensor *o2 = nn_transpose(out, 0, 1);
        NN_SET(out, o2);
    }
    if (rc == 0 && out) lengths = int64_tensor(lens, B);
    if (lengths && unsorted && nn_is_tensor(unsorted)) {
        nn_tensor *o2 = nn_index_select(out, batch_first ? 0 : 1, NN_TENSOR(unsorted));
        nn_tensor *uc = o2 ? nn_to_device(NN_TENSOR(unsorted), NN_DEVICE_CPU) : NULL; /* lengths[unsorted.cpu()] */
        nn_tensor *l2 = uc ? nn_index_select(lengths, 0, uc) : NULL;
        NN_RELEASE(uc);
        NN_SET(out, o2);
        NN_SET(lengths, l2);
    }
    nn_free(lens);
    NN_RELEASE(hold);
    nn_object *r = rc == 0 && out && lengths ? nn_tuple_pack(2, out, lengths) : NULL;
    NN_RELEASE(out);
    NN_RELEASE(lengths);
    return r;
}

static const repl_function_def rnn_utils[] = {
    {"pad_sequence", f_pad_sequence,
     "pad_sequence(sequences, batch_first=False, padding_value=0.0) -> Tensor\n"
     "Pads a list of variable length tensors with padding_value to the longest one and stacks them."},
    {"pack_padded_sequence", f_pack_padded_sequence,
     "pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True) -> PackedSequence\n"
     "Packs a Tensor containing padded sequences of variable length."},
    {"pad_packed_sequence", f_pad_packed_sequence,
     "pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None) -> (Tensor, Tensor)\n"
     "Pads a packed batch of variable length sequences; also returns the lengths."},
    {"pack_sequence", f_pack_sequence,
     "pack_sequence(sequences, enforce_sorted=True) -> PackedSequence\n"
     "Packs a list of variable length Tensors."},
};

nn_object *repl_nn_utils_rnn_namespace(void)
{
    nn_object *ns = repl_namespace_new("torch.nn.utils.rnn");
    if (ns && (repl_namespace_add_fns(ns, rnn_utils, sizeof rnn_utils / sizeof rnn_utils[0]) ||
               repl_namespace_add_classes(ns, &packed_class, 1)))
        NN_SET(ns, NULL);
    return ns;
}
