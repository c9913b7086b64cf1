# A number on the left of a tensor operator: number / tensor is 1.13's reciprocal-then-multiply
# (MulBackward0, its rounding), number - tensor keeps an integer tensor's dtype.
import torch
x = torch.tensor([3., 7., 0.1, 1e-3], requires_grad=True)
y = 2.0 / x
print(type(y.grad_fn).__name__, [float(v).hex() for v in y.tolist()])
d = torch.linspace(0.3, 9.7, 40)
print([float(v).hex() for v in (0.7 / d).tolist()[:8]], (0.7 / d).sum().item(), (1.3 / d - torch.div(torch.full_like(d, 1.3), d)).abs().max().item() >= 0)
z = 1 / torch.tensor([3., 7.])
print([float(v).hex() for v in z.tolist()], (5 // torch.tensor([2., 3.])), (5 % torch.tensor([2., 3.])), 2 ** torch.tensor([1., 2.]), 3 - torch.tensor([1]))
i = 7 / torch.tensor([2, 3])
print(i, i.dtype)
