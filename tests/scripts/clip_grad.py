# torch.nn.utils: clip_grad_norm_ (norm types, the returned total, error_if_nonfinite),
# clip_grad_value_, parameters_to_vector, vector_to_parameters. The totals print to 5 digits:
# core's torch.norm sums in another order than PyTorch's vectorized kernel (a few float32 ulps).
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters


def fresh(seed):
    torch.manual_seed(seed)
    m = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
    (m(torch.randn(5, 4)) * 10).pow(2).sum().backward()
    return m


for norm_type in [2.0, 1, 3.5, float("inf")]:
    m = fresh(0)
    total = clip_grad_norm_(m.parameters(), max_norm=1.0, norm_type=norm_type)
    print(norm_type, "%.5g" % total.item(), total.dtype, total.shape)
    print(m[0].bias.grad)
    print(m[2].weight.grad)

m = fresh(1)
print("%.5g" % torch.nn.utils.clip_grad_norm_(m.parameters(), 1e6).item())  # large max_norm: grads unchanged
print(m[2].bias.grad)
print("%.5g" % clip_grad_norm_(m[2].bias, 0.5).item())  # a single tensor
print(m[2].bias.grad)
print(clip_grad_norm_([], 1.0))
print(clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0))

m = fresh(2)
m[0].weight.grad[0, 0] = float("nan")
try:
    clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print(m[0].bias.grad)

m = fresh(3)
print(clip_grad_value_(m.parameters(), 0.5))
print(m[0].bias.grad)
print(m[2].weight.grad)

m = fresh(4)
v = parameters_to_vector(m.parameters())
print(v.shape, v.grad_fn is not None)
print(v[:6])
vector_to_parameters(torch.arange(v.numel(), dtype=torch.float32), m.parameters())
print(m[2].bias)
print(m[0].weight[1])
try:
    vector_to_parameters([1.0], m.parameters())
except TypeError as e:
    print("TypeError:", e)
