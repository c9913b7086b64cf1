# PackedSequence: pack_padded_sequence, pad_packed_sequence, pack_sequence and
# RNN/LSTM/GRU over packed input, against PyTorch 1.13.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pack_sequence, pad_sequence
x = torch.arange(24.).reshape(4, 3, 2)
p = pack_padded_sequence(x, [4, 2, 1])
print(p)
print(p.data.shape, p.batch_sizes, p.sorted_indices, p.unsorted_indices)
p = pack_padded_sequence(x, torch.tensor([2, 4, 1]), enforce_sorted=False)
print(p)
print(pad_packed_sequence(p, batch_first=True))
print(pad_packed_sequence(p, total_length=6, padding_value=-1.0)[0][:, 1])
print(pack_sequence([torch.ones(2), torch.ones(3)], enforce_sorted=False))
print(pack_padded_sequence(x.transpose(0, 1), [4, 4, 3], batch_first=True).batch_sizes)

torch.manual_seed(0)
for cls in (nn.RNN, nn.LSTM, nn.GRU):
    for bi in (False, True):
        m = cls(2, 3, num_layers=2, bidirectional=bi, batch_first=True)
        seqs = [torch.randn(5, 2), torch.randn(2, 2), torch.randn(4, 2)]
        for s in seqs:
            s.requires_grad_()
        padded = pad_sequence(seqs, batch_first=True)
        packed = pack_padded_sequence(padded, [5, 2, 4], batch_first=True, enforce_sorted=False)
        out, h = m(packed)
        print(cls.__name__, bi, out.data.shape, out.batch_sizes)
        o, lens = pad_packed_sequence(out, batch_first=True)
        print(o[1], lens)
        print(h if cls is not nn.LSTM else h[1])
        (o.sum() + (h[0] if cls is nn.LSTM else h).sum()).backward()
        print(seqs[1].grad)
        print(round(m.weight_hh_l0.grad.sum().item(), 4))

# the packed run agrees with running each sequence on its own
lstm = nn.LSTM(2, 4)
seqs = [torch.randn(3, 2), torch.randn(1, 2)]
out, (h, c) = lstm(pack_sequence(seqs))
for i, s in enumerate(seqs):
    o1, (h1, c1) = lstm(s)
    print(torch.allclose(h1[0], h[0, i]), torch.allclose(o1[-1], pad_packed_sequence(out)[0][s.size(0) - 1, i]))
h0 = (torch.randn(1, 2, 4), torch.randn(1, 2, 4))
out, (h, c) = lstm(pack_sequence([torch.randn(1, 2), torch.randn(3, 2)], enforce_sorted=False), h0)
print(h, c)

def err(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
err(lambda: pack_padded_sequence(x, [2, 3, 1]))
err(lambda: pack_padded_sequence(x, [3, 2, 0]))
err(lambda: pack_padded_sequence(x, [3, 2]))
err(lambda: pad_packed_sequence(pack_padded_sequence(x, [4, 2, 1]), total_length=2))
err(lambda: nn.GRU(3, 4)(pack_padded_sequence(x, [4, 2, 1])))
err(lambda: nn.GRU(2, 4)(pack_padded_sequence(x, [4, 2, 1]), torch.zeros(1, 2, 4)))
