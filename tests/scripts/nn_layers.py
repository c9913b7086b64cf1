# every nn module class: construction, repr, forward
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(4, 6)
layers = [nn.Linear(6, 3), nn.Linear(6, 2, bias=False), nn.Identity(), nn.Flatten(), nn.ReLU(), nn.GELU(),
          nn.GELU(approximate="tanh"), nn.PReLU(), nn.Sigmoid(), nn.Tanh(), nn.Threshold(0.1, 20.0),
          nn.LeakyReLU(0.2), nn.ELU(alpha=0.5), nn.SiLU(), nn.Softplus(beta=2.0), nn.Softmax(dim=1),
          nn.LogSoftmax(dim=1), nn.Dropout(0.5), nn.LayerNorm(6), nn.BatchNorm1d(6)]
for layer in layers:
    print(layer)
    print(layer(x))
d = nn.Dropout(0.25)
d.eval()
print(d(x))
lazy = nn.LazyLinear(5)
print(lazy)
print(lazy(x).shape, lazy.weight.shape, lazy)
emb = nn.Embedding(10, 3)
print(emb, emb(torch.tensor([[1, 2], [9, 0]])))
emb_pad = nn.Embedding(5, 2, padding_idx=0)
print(emb_pad.weight[0])
flat = nn.Flatten(0)
print(flat(torch.ones(2, 3, 4)).shape, nn.Flatten()(torch.ones(2, 3, 4)).shape)
target = torch.randn(4, 3)
pred = torch.randn(4, 3, requires_grad=True)
for loss_fn in [nn.MSELoss(), nn.L1Loss(), nn.MSELoss(reduction="sum"), nn.L1Loss(reduction="none")]:
    print(loss_fn, loss_fn(pred, target))
ce = nn.CrossEntropyLoss()
labels = torch.tensor([0, 2, 1, 2])
print(ce, ce(pred, labels))
loss = ce(pred, labels)
loss.backward()
print(pred.grad)
bn = nn.BatchNorm1d(6)
bn(x)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x))
