# nn.MultiheadAttention, TransformerEncoderLayer, TransformerEncoder and
# F.scaled_dot_product_attention against PyTorch 1.13: reprs, parameter names,
# seeded initialisation, masks, outputs, gradients, errors.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
mha = nn.MultiheadAttention(8, 2)
print(mha)
print(list(mha.state_dict().keys()))
print([n for n, p in mha.named_parameters()])
print(mha.in_proj_weight[:2], mha.out_proj.weight[0], mha.out_proj.bias)
x = torch.randn(5, 3, 8, requires_grad=True)
out, w = mha(x, x, x)
print(out[0], w.shape, w[0])
(out * torch.linspace(-1, 2, 8)).sum().backward()
print(x.grad[0])
print(mha.in_proj_weight.grad[4:6])
mask = torch.triu(torch.ones(5, 5, dtype=torch.bool), 1)
kpm = torch.tensor([[False] * 5, [False, False, False, True, True], [False] * 4 + [True]])
out, w = mha(x, x, x, attn_mask=mask, key_padding_mask=kpm)
print(out[1], w[1])
out, w = mha(x, x, x, attn_mask=mask.float() * -1e4, need_weights=True, average_attn_weights=False)
print(w.shape, w[0, 1])
out, w = mha(x, x, x, need_weights=False)
print(w)
m2 = nn.MultiheadAttention(6, 3, batch_first=True, kdim=4, vdim=5)
print([n for n, p in m2.named_parameters()])
q = torch.randn(2, 3, 6); k = torch.randn(2, 4, 4); v = torch.randn(2, 4, 5)
o, w = m2(q, k, v)
print(o, w)
m3 = nn.MultiheadAttention(4, 1, batch_first=True)
q = torch.randn(2, 3, 4); kv = torch.randn(2, 6, 4)
o, w = m3(q, kv, kv)
print(o[1], w[1])
o, w = m3(torch.randn(3, 4), torch.randn(6, 4), torch.randn(6, 4))
print(o.shape, w.shape)
mha.train(); mha.dropout = 0.5
torch.manual_seed(4)
o, w = mha(x, x, x)
print(w[0])
torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
print(layer)
print(list(layer.state_dict().keys()))
src = torch.randn(5, 3, 8)
y = layer(src)
print(y[0])
layer2 = nn.TransformerEncoderLayer(8, 2, 16, 0.1, activation='gelu', batch_first=True, norm_first=True)
torch.manual_seed(2)
y = layer2(torch.randn(3, 5, 8), src_key_padding_mask=kpm)
print(y[2])
enc = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(8))
print(enc)
print(len(list(enc.parameters())), enc.layers[0] is layer, enc.layers[0].linear1.weight is layer.linear1.weight)
print(torch.equal(enc.layers[1].linear1.weight, layer.linear1.weight))
y = enc(src, mask=mask)
print(y[4])
(y[..., 0] * torch.arange(15.).reshape(5, 3)).sum().backward()
print(enc.layers[0].self_attn.in_proj_weight.grad[0])
print(enc.layers[1].linear2.bias.grad)
enc.eval()
print(enc(src)[0, 0])
# F.scaled_dot_product_attention is PyTorch 2's name: under PyTorch 1.13 (which
# made the expected output) the script uses the formula its documentation gives.
def reference_sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False):
    if is_causal:
        attn_mask = torch.ones(q.size(-2), k.size(-2), dtype=torch.bool).triu(1)
    w = q @ k.transpose(-2, -1) / (q.size(-1) ** 0.5)
    if attn_mask is not None:
        w = w + (torch.zeros_like(attn_mask, dtype=q.dtype).masked_fill(attn_mask, float('-inf')) if attn_mask.dtype == torch.bool else attn_mask)
    return torch.softmax(w, dim=-1) @ v
if hasattr(F, 'scaled_dot_product_attention'):
    sdpa = lambda *args, **kwargs: F.scaled_dot_product_attention(*args, **kwargs)
else:
    sdpa = reference_sdpa
torch.manual_seed(7)
q = torch.randn(2, 2, 4, 8, requires_grad=True)
k = torch.randn(2, 2, 6, 8)
v = torch.randn(2, 2, 6, 3)
o = sdpa(q, k, v)
print(o[1, 0])
o.sum().backward()
print(q.grad[0, 1])
print(sdpa(q, k, v, attn_mask=torch.rand(4, 6) > 0.5)[0, 0])
print(sdpa(q, k, v, attn_mask=torch.randn(4, 6))[0, 0])
print(sdpa(q[:, :, :, :], k[:, :, :4], v[:, :, :4], is_causal=True)[1, 1])
# nanoGPT's call: attn_mask=None spelled out, dropout_p=0 as an int
print(sdpa(q, k[:, :, :4], v[:, :, :4], attn_mask=None, dropout_p=0, is_causal=True)[1, 1])
print(sdpa(q, k, v, None)[0, 0])

def err(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
err(lambda: nn.MultiheadAttention(8, 3))
err(lambda: mha(x, x, x, attn_mask=torch.zeros(4, 5)))
err(lambda: mha(x, x, x, attn_mask=torch.zeros(2, 5, 5)))
err(lambda: mha(x, x, x, key_padding_mask=torch.zeros(3, 4, dtype=torch.bool)))
err(lambda: mha(x[0], x, x))
err(lambda: mha(torch.randn(5, 3, 6), torch.randn(5, 3, 6), torch.randn(5, 3, 6)))
err(lambda: nn.TransformerEncoderLayer(8, 2, activation='tanh'))
