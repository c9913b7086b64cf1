/*
 * nn_rnn.h — torch.nn's recurrent layers (rnn.c): RNN, LSTM, GRU and their
 * cells RNNCell, LSTMCell, GRUCell, as PyTorch 1.13 builds and runs them on
 * the CPU; and the attention layers (attention.c): MultiheadAttention,
 * TransformerEncoderLayer, TransformerEncoder, F.scaled_dot_product_attention
 * and F.multi_head_attention_forward's core. Included by nn.h.
 *
 * Every forward is a composition of core's differentiable ops (linear,
 * sigmoid, tanh, mul, add, stack, cat, bmm, softmax), in the order ATen's
 * composite kernels run them, so outputs carry PyTorch's numbers and
 * backward needs nothing of its own.
 */
#ifndef NN_RNN_H
#define NN_RNN_H

/* Which recurrence: PyTorch's RNNBase.mode ("RNN_TANH", "RNN_RELU", "LSTM", "GRU"). */
typedef enum nn_rnn_mode { NN_RNN_TANH, NN_RNN_RELU, NN_RNN_LSTM, NN_RNN_GRU } nn_rnn_mode;

extern const nn_module_class nn_rnn_class, nn_lstm_class, nn_gru_class, nn_rnn_cell_class, nn_lstm_cell_class,
    nn_gru_cell_class;
/* nn.RNNBase and nn.RNNCellBase: the base classes of the three and of the cells (isinstance,
   issubclass); an RNNBase / RNNCellBase made directly has no forward, as PyTorch's. */
extern const nn_module_class nn_rnn_base_class, nn_rnn_cell_base_class;

/* nn.RNN / nn.LSTM / nn.GRU(input_size, hidden_size, num_layers, bias,
   batch_first, dropout, bidirectional, dtype): parameters weight_ih_l{k}
   [G*H, in], weight_hh_l{k} [G*H, H], bias_ih_l{k}, bias_hh_l{k} [G*H] (and
   *_reverse), G = 1, 4 (gates i, f, g, o) or 3 (r, z, n), registered in
   PyTorch's order and drawn from U(-1/sqrt(H), 1/sqrt(H)) in that order.
   forward(input [T, B, in] (or [B, T, in] when batch_first, or unbatched
   [T, in]), hx=None) -> (output [T, B, D*H], h_n [L*D, B, H]); LSTM's hx and
   result hidden are (h, c) tuples. Dropout between layers in training.
   ValueError for a bad dropout (a warning on stderr when dropout > 0 with
   one layer). A new reference, or NULL with PyTorch's error. */
nn_module *nn_rnn_new(nn_rnn_mode mode, int64_t input_size, int64_t hidden_size, int64_t num_layers, bool bias,
                      bool batch_first, double dropout, bool bidirectional, nn_dtype dtype);

/* nn.RNNCell (mode NN_RNN_TANH or NN_RNN_RELU) / LSTMCell / GRUCell(input_size,
   hidden_size, bias, dtype): weight_ih, weight_hh, bias_ih, bias_hh (None when
   not bias). forward(input [B, in] or [in], hx=None) -> h' (LSTMCell: (h', c')). */
nn_module *nn_rnn_cell_new(nn_rnn_mode mode, int64_t input_size, int64_t hidden_size, bool bias, nn_dtype dtype);

/* rnn.reset_parameters() / cell.reset_parameters(): every parameter from
   U(-1/sqrt(H), 1/sqrt(H)) in registration order. 0 or -1 (AttributeError
   for a module that is not one of these). */
int nn_rnn_reset_parameters(nn_module *m);

/* True for the modules above (any of the six). */
bool nn_is_rnn_module(const nn_module *m);

/* ------------------------------------------------------ attention.c */

extern const nn_module_class nn_multihead_attention_class, nn_transformer_encoder_layer_class,
    nn_transformer_encoder_class;

/* F.scaled_dot_product_attention(q [.., L, d], k [.., S, d], v [.., S, dv],
   attn_mask (bool: True masks out; float: added; NULL), dropout_p, is_causal):
   softmax(q k^T / sqrt(d) + mask) v (PyTorch 2's math path). New reference. */
nn_tensor *nn_scaled_dot_product_attention(nn_tensor *q, nn_tensor *k, nn_tensor *v, nn_tensor *attn_mask,
                                           double dropout_p, bool is_causal);

/* nn.MultiheadAttention(embed_dim, num_heads, dropout, bias, kdim, vdim
   (<= 0: embed_dim), batch_first, dtype): in_proj_weight [3E, E] (or
   q/k/v_proj_weight when kdim/vdim differ) from xavier_uniform_, in_proj_bias
   zeros, out_proj a Linear(E, E) (class NonDynamicallyQuantizableLinear, its
   bias zeroed), drawn in PyTorch's order. forward(query, key, value,
   key_padding_mask=None, need_weights=True, attn_mask=None,
   average_attn_weights=True) -> (attn_output, attn_weights or None). */
/* out_proj's class (a Linear; torch.load makes one by name). */
extern const nn_module_class nn_ndq_linear_class;
nn_module *nn_multihead_attention_new(int64_t embed_dim, int64_t num_heads, double dropout, bool bias, int64_t kdim,
                                      int64_t vdim, bool batch_first, nn_dtype dtype);

/* nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout,
   activation, layer_norm_eps, batch_first, norm_first, dtype): children
   self_attn, linear1, dropout, linear2, norm1, norm2, dropout1, dropout2;
   activation (borrowed) is a callable (F.relu) or a module (then a child).
   forward(src, src_mask=None, src_key_padding_mask=None). */
nn_module *nn_transformer_encoder_layer_new(int64_t d_model, int64_t nhead, int64_t dim_feedforward, double dropout,
                                            nn_object *activation, double layer_norm_eps, bool batch_first,
                                            bool norm_first, nn_dtype dtype);

/* nn.TransformerEncoder over layers (a list of modules, borrowed: the caller
   deep-copies the layer num_layers times), norm (borrowed, NULL: None).
   forward(src, mask=None, src_key_padding_mask=None) calls each layer as
   layer(x, src_mask=mask, src_key_padding_mask=...), then norm. */
nn_module *nn_transformer_encoder_new(nn_object *layers, nn_module *norm, bool enable_nested_tensor, bool mask_check);

#endif
