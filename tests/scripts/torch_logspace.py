# torch.logspace (base, dtypes, steps 0 and 1, requires_grad), PyTorch's formula bit for bit, against PyTorch 1.13
import torch
print(torch.logspace(0, 2, 3), torch.logspace(-3, 0, 7), torch.logspace(0, 1, 5, base=2))
torch.set_printoptions(precision=10)
print(torch.logspace(-5, 5, 11, dtype=torch.float64), torch.logspace(-4, -1, 10))
print(torch.logspace(0, 3, 4, dtype=torch.int64), torch.logspace(1, 1, 1), torch.logspace(0, 1, 0), torch.logspace(0.5, 2.5, 6, base=3))
x = torch.logspace(-3, -1, 3, requires_grad=True); print(x.requires_grad, x.dtype)
lrs = [f'{lr:.0e}' for lr in torch.logspace(-5, -1, 5).tolist()]; print(lrs)
try:
    torch.logspace(0, 1, -1)
except RuntimeError as e:
    print('RuntimeError', e)
