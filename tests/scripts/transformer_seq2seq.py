# nn.Transformer, nn.TransformerDecoder and nn.TransformerDecoderLayer as PyTorch 1.13 builds
# and runs them: seeded weights, print(model), a masked seq2seq forward, backward and one
# optimizer step; pre-norm (norm_first) and batch_first decoder layers; the errors.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2,
                       dim_feedforward=16, dropout=0.0)
print(model)
print(sum(p.numel() for p in model.parameters()))
print([n for n, _ in model.named_parameters()][:12])
print(model.decoder.layers[1].multihead_attn.in_proj_weight[:2])
print(model.encoder.layers[0].linear1.weight[0])

src = torch.randn(5, 2, 8)
tgt = torch.randn(4, 2, 8)
tgt_mask = nn.Transformer.generate_square_subsequent_mask(4)
print(tgt_mask)
src_kpm = torch.tensor([[False, False, False, False, True], [False, False, False, False, False]])
tgt_kpm = torch.tensor([[False, False, False, True], [False, False, False, False]])
out = model(src, tgt, tgt_mask=tgt_mask, src_key_padding_mask=src_kpm,
            tgt_key_padding_mask=tgt_kpm, memory_key_padding_mask=src_kpm)
print(out.shape)
print(out.detach())
w = torch.randn(4, 2, 8)
loss = (out * w).sum()
print(round(loss.item(), 4))
loss.backward()
# 3 decimals: one of these gradients is 0.86005020, a last-bit change away
# from printing otherwise at 4 (a CPU with another GEMM kernel order)
torch.set_printoptions(precision=3)
print(model.decoder.layers[0].self_attn.in_proj_weight.grad[0])
print(model.encoder.layers[0].self_attn.in_proj_weight.grad[0])
print(model.encoder.layers[1].norm2.weight.grad)
torch.set_printoptions(precision=4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt.step()
print(model.decoder.norm.bias.detach())
out2 = model(src, tgt, tgt_mask=tgt_mask)
print(round((out2 * w).sum().item(), 4))

# a decoder on its own: pre-norm, batch_first, gelu, memory_mask
torch.manual_seed(1)
layer = nn.TransformerDecoderLayer(d_model=6, nhead=3, dim_feedforward=12, dropout=0.0,
                                   activation="gelu", batch_first=True, norm_first=True)
dec = nn.TransformerDecoder(layer, num_layers=2, norm=nn.LayerNorm(6))
print(dec)
mem = torch.randn(2, 3, 6)
t = torch.randn(2, 4, 6, requires_grad=True)
mm = torch.zeros(4, 3)
mm[0, 2] = float('-inf')
y = dec(t, mem, tgt_mask=nn.Transformer.generate_square_subsequent_mask(4), memory_mask=mm)
print(y.detach())
y.sum().backward()
print(t.grad)
print(layer(t, mem).shape)

for bad in [lambda: model(torch.randn(5, 3, 8), tgt),
            lambda: model(torch.randn(5, 2, 6), tgt),
            lambda: nn.TransformerDecoderLayer(4, 2, activation="tanh")]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
