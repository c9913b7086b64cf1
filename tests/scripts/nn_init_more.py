# torch.nn.init names 1.13 has beyond the built-in ones: orthogonal_ (QR through LAPACK, seeded values as
# PyTorch's), trunc_normal_, eye_, dirac_, sparse_, the deprecated spellings (warnings placed as PyTorch's).
import torch
from torch import nn
import warnings
torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.orthogonal_(w))
w = torch.empty(6, 4, dtype=torch.float64)
nn.init.orthogonal_(w, gain=2)
print(w.tolist())
c = nn.Conv2d(4, 3, 3)
nn.init.orthogonal_(c.weight, nn.init.calculate_gain('relu'))
print(c.weight.view(3, -1).tolist())
print((c.weight.view(3, -1) @ c.weight.view(3, -1).t()))
print(nn.init.orthogonal_(torch.empty(0, 3)))
t = torch.empty(2, 3)
print(nn.init.trunc_normal_(t))
print(nn.init.trunc_normal_(torch.empty(4, 4, dtype=torch.float64), mean=0.5, std=0.2, a=0, b=1).tolist())
print(nn.init.trunc_normal_(torch.empty(5), std=0.02))
print(nn.init.eye_(torch.empty(3, 5)))
print(nn.init.eye_(torch.empty(4, 2, requires_grad=True)))
print(nn.init.dirac_(torch.empty(2, 2, 3)))
print(nn.init.dirac_(torch.empty(4, 2, 3, 3), groups=2)[:, :, 1])
print(nn.init.dirac_(torch.empty(2, 1, 1, 3, 3)).sum())
print(nn.init.sparse_(torch.empty(5, 4), sparsity=0.4))
lin = nn.Linear(3, 4)
nn.init.orthogonal_(lin.weight)
print(lin.weight.requires_grad, lin.weight.grad_fn, lin.weight.is_leaf)
for bad in [lambda: nn.init.orthogonal_(torch.empty(3)),
            lambda: nn.init.eye_(torch.empty(2, 2, 2)),
            lambda: nn.init.dirac_(torch.empty(2, 2)),
            lambda: nn.init.dirac_(torch.empty(3, 2, 3), groups=2),
            lambda: nn.init.sparse_(torch.empty(3), 0.1)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    nn.init.trunc_normal_(torch.empty(2), mean=5)
    nn.init.normal(torch.empty(2))
    nn.init.xavier_uniform(torch.empty(2, 2))
    nn.init.orthogonal(torch.empty(2, 2))
    for w in ws:
        print(w.category.__name__, w.message, w.filename.endswith(("torch/nn/init.py", "nn_init_more.py")), w.lineno)
print(nn.init.normal.__name__, nn.init.sparse.__name__)
from torch.nn.init import orthogonal_, trunc_normal_
print(orthogonal_.__name__, trunc_normal_.__name__)
