# nn.RNNBase / nn.RNNCellBase as the base classes of the recurrent layers, nn.SyncBatchNorm (on the CPU
# its forward raises, as PyTorch 1.13's without a GPU; convert_sync_batchnorm) and F.conv_tbc
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
for m in [nn.RNN(3, 4), nn.LSTM(3, 4, 2), nn.GRU(3, 4, bidirectional=True)]:
    print(type(m).__name__, isinstance(m, nn.RNNBase), isinstance(m, nn.RNNCellBase), issubclass(type(m), nn.RNNBase))
for m in [nn.RNNCell(3, 4), nn.LSTMCell(3, 4), nn.GRUCell(3, 4)]:
    print(type(m).__name__, isinstance(m, nn.RNNCellBase), isinstance(m, nn.RNNBase))
print(nn.RNNBase, nn.RNNCellBase, nn.RNNBase.__module__)
b = nn.RNNBase('LSTM', 3, 4)
print(b, type(b).__name__, b.mode, [n for n, _ in b.named_parameters()], b.weight_ih_l0.sum().item())
print(nn.RNNBase('GRU', 2, 3, num_layers=2, batch_first=True))
c = nn.RNNCellBase(3, 4, True, 4)
print(c, [tuple(p.shape) for p in c.parameters()], c.weight_hh.sum().item())
print(nn.RNNCellBase(2, 3, bias=False, num_chunks=1))
for bad in [lambda: nn.RNNBase('XYZ', 3, 4), lambda: b(torch.randn(2, 1, 3))]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)

m = nn.SyncBatchNorm(4)
print(m, type(m))
print(sorted(dict(m.named_buffers()).keys()), [n for n, _ in m.named_parameters()], m.num_batches_tracked)
for x in [torch.randn(2, 4, 3), torch.randn(4)]:
    try:
        m(x)
    except Exception as e:
        print(type(e).__name__, e)
net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Sequential(nn.BatchNorm1d(5, affine=False)))
net[1].eval()
s = nn.SyncBatchNorm.convert_sync_batchnorm(net)
print(s)
print(s[1].weight is net[1].weight, s[1].running_mean is net[1].running_mean, s[1].training, s[3][0].weight)
print(nn.SyncBatchNorm(3, momentum=None, affine=False, track_running_stats=False, process_group=None))
print(type(nn.SyncBatchNorm.convert_sync_batchnorm(nn.Linear(2, 2))).__name__)

inp = torch.randn(5, 2, 3, requires_grad=True)
w = torch.randn(3, 3, 4, requires_grad=True)
bias = torch.randn(4, requires_grad=True)
y = F.conv_tbc(inp, w, bias, 1)
print(y.shape, type(y.grad_fn).__name__, round(y.sum().item(), 4))
y.pow(2).sum().backward()
print([round(v, 4) for v in inp.grad.flatten()[:4].tolist()], round(w.grad.sum().item(), 4), round(bias.grad.sum().item(), 4))
y = torch.conv_tbc(inp, w, bias)
print(y.shape, round(y.sum().item(), 4))
d = torch.float64
print(torch.autograd.gradcheck(lambda a, b, c: F.conv_tbc(a, b, c, 2), (inp.detach().double().requires_grad_(),
                                                                         w.detach().double().requires_grad_(),
                                                                         bias.detach().double().requires_grad_())))
for args in [(torch.randn(2, 3), torch.randn(1, 3, 4), torch.randn(4)),
             (torch.randn(2, 3, 3), torch.randn(1, 2, 4), torch.randn(4)),
             (torch.randn(2, 3, 3), torch.randn(1, 3, 4), torch.randn(5)),
             (torch.randn(2, 3, 3), torch.randn(3, 4), torch.randn(4)),
             (torch.randn(2, 3, 3), torch.randn(1, 3, 4), torch.randn(4, 1))]:
    try:
        F.conv_tbc(*args)
    except Exception as e:
        print(type(e).__name__, e)
