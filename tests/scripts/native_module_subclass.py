# A class of the script deriving from a built-in module class: super().__init__(...) (and the old
# nn.Linear.__init__(self, ...) spelling) builds the base's parameters, buffers, submodules and
# configuration with PyTorch's seeded values; an overridden reset_parameters is the one __init__ runs;
# forward, repr, state_dict, isinstance; nn.MultiheadAttention with add_bias_kv / add_zero_attn.
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)


class MaskedLinear(nn.Linear):
    def __init__(self, i, o, mask):
        super().__init__(i, o)
        self.register_buffer('mask', mask)

    def forward(self, x):
        return F.linear(x, self.weight * self.mask, self.bias)


m = MaskedLinear(3, 2, torch.tensor([[1., 0., 1.], [0., 1., 1.]]))
print(m, isinstance(m, nn.Linear), m.in_features, m.out_features)
print(m.weight, m.bias)
print(m(torch.ones(1, 3)), list(m.state_dict().keys()))


class OldStyle(nn.Conv2d):
    def __init__(self):
        nn.Conv2d.__init__(self, 1, 2, 3, padding=1, bias=False)


c = OldStyle()
print(c, c.weight.sum(), c.bias, c(torch.ones(1, 1, 4, 4)).shape)


class Block(nn.Sequential):
    def __init__(self, n):
        super().__init__(nn.Linear(n, n), nn.ReLU(), nn.Linear(n, 1))


b = Block(4)
print(b, len(b), b[0].weight.shape, b(torch.ones(2, 4)))


class ZeroInit(nn.Linear):
    def reset_parameters(self):
        nn.init.zeros_(self.weight)
        if self.bias is not None:
            nn.init.ones_(self.bias)


z = ZeroInit(2, 3)
print(z.weight, z.bias, torch.rand(1))


class Emb(nn.Embedding):
    def __init__(self):
        super().__init__(5, 2, padding_idx=0)


e = Emb()
print(e, e.weight[0], e(torch.tensor([0, 3])).shape)


class LSTMWrap(nn.LSTM):
    def __init__(self):
        super().__init__(3, 4, batch_first=True)

    def forward(self, x):
        out, _ = super().forward(x)
        return out[:, -1]


lw = LSTMWrap()
print(lw, [n for n, _ in lw.named_parameters()], lw(torch.randn(2, 5, 3)).shape)

mha = nn.MultiheadAttention(8, 2, add_bias_kv=True, add_zero_attn=True)
print(mha, [n for n, _ in mha.named_parameters()], type(mha), isinstance(mha, nn.MultiheadAttention))
print(mha.bias_k.flatten(), mha.add_zero_attn)
q = torch.randn(3, 2, 8)
o, w = mha(q, q, q)
print(o[0], w[0])
mha2 = nn.MultiheadAttention(8, 2, add_bias_kv=True, batch_first=True, kdim=5, vdim=6)
o, w = mha2(torch.randn(2, 3, 8), torch.randn(2, 4, 5), torch.randn(2, 4, 6), need_weights=True,
            average_attn_weights=False)
print(o.shape, w.shape, o[1, 0])
mha3 = nn.MultiheadAttention(8, 2, add_zero_attn=True, dropout=0.5)
torch.manual_seed(2)
o, w = mha3(q, q, q, key_padding_mask=torch.tensor([[False, False, True], [False, True, False]]))
print(o[1], w[1])
mha3.eval()
print(mha3(q, q, q)[0][0])
try:
    nn.Linear.__init__(nn.ReLU(), 2, 3)
except TypeError as ex:
    print('TypeError', ex)
