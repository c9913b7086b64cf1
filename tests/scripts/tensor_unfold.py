# Tensor.unfold(dimension, size, step): windows as a view (strides, writes through, _base),
# its UnfoldBackward0 gradient summing overlapping windows, moving averages and image
# patches as tutorials cut them, errors; grad_fn.__class__.
import torch
torch.manual_seed(0)
x = torch.arange(1., 8)
print(x.unfold(0, 2, 1))
print(x.unfold(0, 2, 2))
print(x.unfold(0, 3, 2).stride(), x.unfold(0, 3, 2).is_contiguous())
y = torch.arange(24.).view(2, 3, 4)
print(y.unfold(2, 2, 1).shape, y.unfold(1, 2, 1).shape, y.unfold(-1, 4, 4))
print(torch.tensor(5.).unfold(0, 1, 1))
print(x.unfold(0, 0, 1).shape)
w = torch.randn(2, 6, requires_grad=True)
u = w.unfold(1, 3, 2)
print(u.grad_fn.__class__.__name__, u._base is w)
(u * torch.arange(1., 5.).view(1, 2, 2).repeat(1, 1, 1)[:, :, :1].expand(2, 2, 3)).sum().backward()
print(w.grad)
w.grad = None
w.unfold(1, 2, 1).pow(2).sum().backward()
print(w.grad)
# moving averages, as the DQN tutorial plots them
d = torch.tensor([10., 12., 9., 30., 31., 40.])
print(d.unfold(0, 3, 1).mean(1).view(-1))
# patches, as vision code cuts an image into tiles
img = torch.arange(16.).view(1, 1, 4, 4)
print(img.unfold(2, 2, 2).unfold(3, 2, 2).reshape(1, 1, 4, 2, 2))
u2 = x.unfold(0, 2, 1)
u2[0, 0] = 100.
print(x[:3])
for bad in [lambda: x.unfold(0, 8, 1), lambda: x.unfold(0, 2, 0), lambda: x.unfold(1, 2, 1)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
