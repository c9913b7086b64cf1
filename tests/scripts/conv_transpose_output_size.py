# nn.ConvTranspose1d/2d forward(input, output_size=...): the output_padding it picks, values, gradients, errors.
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
x = torch.randn(1, 2, 4, 5, requires_grad=True)
print(m(x).shape)
for size in ((8, 10), [7, 9], [1, 3, 8, 9], torch.Size([1, 3, 7, 10])):
    y = m(x, output_size=size)
    print(size, tuple(y.shape), y.grad_fn.name())
y = m(x, [8, 10])
print(y[0, 0])
(g,) = torch.autograd.grad(y.pow(2).sum(), x)
print(g[0, 1])
m1 = nn.ConvTranspose1d(2, 3, 3, stride=3, dilation=2)
x1 = torch.randn(2, 4)
print(m1(x1, output_size=[15]).shape, m1(x1.unsqueeze(0), output_size=torch.Size([1, 3, 15])))
print(m1(x1.unsqueeze(0), None).shape, m1(input=x1.unsqueeze(0), output_size=(14,)).shape)
for bad in ("m(x, output_size=(6, 6))", "m(x, output_size=(1, 2, 3))", "m(x, output_size=[10, 10])", "m(x, output_size=torch.Size([1, 3, 6, 6]))", "m1(x1, output_size=(12,))",
            "m1(x1.unsqueeze(0), output_size=[1, 2, 3, 4])", "m1(x1, output_size=[12])", "m1(x1.unsqueeze(0), output_size=[17])"):
    try:
        print(bad, "->", eval(bad))
    except Exception as e:
        print(bad, "->", type(e).__name__, e)
