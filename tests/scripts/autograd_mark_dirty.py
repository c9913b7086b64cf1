# ctx.mark_dirty: a custom Function that changes its input in place and returns
# it, as PyTorch 1.13 records it (the output is the input, with the node's history).
import torch


class AddOneInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x.add_(1)

    @staticmethod
    def backward(ctx, g):
        return g


class ScaleInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.mark_dirty(x)
        ctx.k = k
        return x.mul_(k)

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
c = AddOneInplace.apply(b)
print(c is b, c, b.grad_fn.name(), c.grad_fn.name())
print(b.grad_fn.next_functions[0][0].name())
(c * c).sum().backward()
print(a.grad)

a = torch.tensor([0.5, -1.0], requires_grad=True)
h = a.sin()
out = ScaleInplace.apply(h, 3.0)
print(out is h, out)
out.sum().backward()
print(a.grad)

# exp saved its output, which the Function then changed in place
a = torch.tensor([0.5, -1.0], requires_grad=True)
h = a.exp()
ScaleInplace.apply(h, 3.0)
try:
    h.sum().backward()
except RuntimeError as e:
    print('RuntimeError:', str(e).split(':')[0])

try:
    AddOneInplace.apply(torch.ones(2, requires_grad=True))
except RuntimeError as e:
    print('RuntimeError:', e)

with torch.no_grad():
    t = torch.ones(2)
    AddOneInplace.apply(t)
    print(t)
t = torch.zeros(2)
print(AddOneInplace.apply(t), t.requires_grad)
