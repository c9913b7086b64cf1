# F.multi_head_attention_forward with its arguments: a MultiheadAttention's own parameters (same numbers as
# the module), bias_k/bias_v, add_zero_attn, separate projection weights, bool/byte/float masks,
# key_padding_mask, static_k/static_v, need_weights/average_attn_weights, unbatched input, dropout
# (seeded), gradients, and PyTorch's assertion messages.
import warnings
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
E, H, L, S, N = 8, 2, 3, 4, 2
mha = nn.MultiheadAttention(E, H)
q = torch.randn(L, N, E, requires_grad=True)
k = torch.randn(S, N, E)
v = torch.randn(S, N, E)
ref, ref_w = mha(q, k, v)
out, w = F.multi_head_attention_forward(q, k, v, E, H, mha.in_proj_weight, mha.in_proj_bias, None, None, False,
                                        0.0, mha.out_proj.weight, mha.out_proj.bias, training=False)
print(out)
print(w)
print(torch.equal(out, ref), torch.equal(w, ref_w), out.grad_fn.name())
out.sum().backward()
print(q.grad[0])

bias_k = torch.randn(1, 1, E)
bias_v = torch.randn(1, 1, E)
kpm = torch.tensor([[False, False, True, False], [False, True, False, False]])
am = torch.tensor([[0., -1., 0., 0.], [0., 0., -2., 0.], [0., 0., 0., 0.]])
o, w = F.multi_head_attention_forward(q, k, v, E, H, mha.in_proj_weight, mha.in_proj_bias, bias_k, bias_v, True,
                                      0.0, mha.out_proj.weight, mha.out_proj.bias, key_padding_mask=kpm,
                                      attn_mask=am, average_attn_weights=False)
print(o[1], w.shape, w[0, 1])
bam = torch.tensor([[False, True, False]] * L)
o, w = F.multi_head_attention_forward(q, q, q, E, H, mha.in_proj_weight, None, None, None, False, 0.0,
                                      mha.out_proj.weight, None, attn_mask=bam, need_weights=False)
print(o[2], w)
o2 = F.multi_head_attention_forward(q, k, k, E, H, mha.in_proj_weight, mha.in_proj_bias, None, None, False, 0.0,
                                    mha.out_proj.weight, mha.out_proj.bias, key_padding_mask=kpm.float() * -5)[0]
print(o2[0])
wq, wk, wv = torch.randn(E, E), torch.randn(E, 5), torch.randn(E, 6)
o, w = F.multi_head_attention_forward(q, torch.randn(S, N, 5), torch.randn(S, N, 6), E, H, None,
                                      mha.in_proj_bias, None, None, False, 0.0, mha.out_proj.weight,
                                      mha.out_proj.bias, use_separate_proj_weight=True, q_proj_weight=wq,
                                      k_proj_weight=wk, v_proj_weight=wv)
print(o[0], w[1])
sk = torch.randn(N * H, 5, E // H)
sv = torch.randn(N * H, 5, E // H)
o, w = F.multi_head_attention_forward(q, k, v, E, H, mha.in_proj_weight, mha.in_proj_bias, None, None, False, 0.0,
                                      mha.out_proj.weight, mha.out_proj.bias, static_k=sk, static_v=sv)
print(o[0], w.shape)
o, w = F.multi_head_attention_forward(q[:, 0], k[:, 0], v[:, 0], E, H, mha.in_proj_weight, mha.in_proj_bias, None,
                                      None, False, 0.0, mha.out_proj.weight, mha.out_proj.bias,
                                      key_padding_mask=kpm[0], attn_mask=torch.zeros(H, L, S))
print(o.shape, w.shape, o[0])
torch.manual_seed(3)
o, w = F.multi_head_attention_forward(q, k, v, E, H, mha.in_proj_weight, mha.in_proj_bias, None, None, False, 0.5,
                                      mha.out_proj.weight, mha.out_proj.bias)
print(o[0], w[0])
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    o, _ = F.multi_head_attention_forward(q, k, v, E, H, mha.in_proj_weight, mha.in_proj_bias, None, None, False,
                                          0.0, mha.out_proj.weight, mha.out_proj.bias,
                                          attn_mask=torch.tensor([[0, 1, 0, 0]] * L, dtype=torch.uint8))
    print([str(x.message) for x in ws], o[0, 0])

base = (mha.in_proj_weight, mha.in_proj_bias, None, None, False, 0.0, mha.out_proj.weight, mha.out_proj.bias)
cases = [lambda: F.multi_head_attention_forward(q, k, v, 6, H, *base),
         lambda: F.multi_head_attention_forward(q, k, v, E, 3, *base),
         lambda: F.multi_head_attention_forward(q, k[:, :1], v, E, H, *base),
         lambda: F.multi_head_attention_forward(q[0, 0], k, v, E, H, *base),
         lambda: F.multi_head_attention_forward(q, k[0], v, E, H, *base),
         lambda: F.multi_head_attention_forward(q, k, v, E, H, *base, attn_mask=torch.zeros(2, 2)),
         lambda: F.multi_head_attention_forward(q, k, v, E, H, *base, attn_mask=torch.zeros(3, L, S)),
         lambda: F.multi_head_attention_forward(q, k, v, E, H, *base, attn_mask=torch.zeros(L, S, dtype=torch.long)),
         lambda: F.multi_head_attention_forward(q, k, v, E, H, *base, key_padding_mask=torch.zeros(N, S, dtype=torch.long)),
         lambda: F.multi_head_attention_forward(q, k, v, E, H, *base, key_padding_mask=torch.zeros(N, 3, dtype=torch.bool)),
         lambda: F.multi_head_attention_forward(q, k, v, E, H, None, *base[1:]),
         lambda: F.multi_head_attention_forward(q, k, v, E, H, *base, static_k=torch.zeros(3, 5, 4))]
for c in cases:
    try:
        c()
        print('ok')
    except Exception as e:
        print(type(e).__name__, e)
