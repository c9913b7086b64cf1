# torch.linalg.matrix_exp / torch.matrix_exp / Tensor.matrix_exp: every degree of ATen's
# Taylor approximation (1-norms from 1e-9 to 40, so degree 1 ... 18 with scaling), float32
# and float64, batches, gradients and errors. Values printed to 6 significant digits: nnscope
# rounds its linear combinations after each product, PyTorch's kernel may fuse them.
import torch


def show(t, digits=6):
    return ['{:.{}g}'.format(v, digits) for v in t.reshape(-1).tolist()]


torch.manual_seed(0)
base = torch.randn(3, 3, dtype=torch.float64)
base = base / base.abs().sum(0).max()
for dt in (torch.float32, torch.float64):
    for scale in (1e-9, 1e-5, 1e-3, 0.03, 0.2, 0.5, 1.0, 2.5, 7.0, 40.0):
        a = (base * scale).to(dt)
        print(dt, scale, show(torch.linalg.matrix_exp(a)))
b = torch.randn(2, 4, 4)
print(show(torch.matrix_exp(b), 4), show(b.matrix_exp()[1], 4))
print(torch.matrix_exp(torch.tensor([[2.0]])), torch.linalg.matrix_exp(torch.zeros(0, 0)).shape)
rot = torch.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=torch.float64) * 3.141592653589793 / 2
print(['{:.9f}'.format(v) for v in torch.linalg.matrix_exp(rot).reshape(-1).tolist()])
a = (base * 0.7).clone().requires_grad_(True)
torch.linalg.matrix_exp(a).sum().backward()
print(show(a.grad, 8))
a = (base * 3.0).clone().requires_grad_(True)
(torch.linalg.matrix_exp(a) * torch.arange(9.0, dtype=torch.float64).reshape(3, 3)).sum().backward()
print(show(a.grad, 8))
for f in (lambda: torch.linalg.matrix_exp(torch.ones(3)), lambda: torch.linalg.matrix_exp(torch.ones(2, 3)),
          lambda: torch.linalg.matrix_exp(torch.ones(2, 2, dtype=torch.long))):
    try:
        f()
    except RuntimeError as e:
        print('RuntimeError', e)
