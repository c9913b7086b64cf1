import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.linspace(-4, 4, 9)
mods = [nn.ReLU6(), nn.Hardtanh(), nn.Hardtanh(-2, 2), nn.Hardtanh(min_val=-0.5, max_val=3.0, inplace=True), nn.Hardswish(),
        nn.Hardsigmoid(), nn.Mish(), nn.LogSigmoid(), nn.Hardshrink(), nn.Hardshrink(1.5), nn.Softshrink(lambd=1),
        nn.CELU(), nn.CELU(alpha=0.5), nn.Softsign(), nn.Tanhshrink(), nn.Softmin(dim=0), nn.ReLU6(inplace=True),
        nn.Mish(inplace=True)]
for m in mods:
    print(m)
    print(m(x.clone()))
print(nn.Sequential(nn.Linear(2, 3), nn.ReLU6(), nn.Hardswish()))
print(F.relu6(x), F.hardtanh(x, -1.5, 2.5), F.hardswish(x), F.hardsigmoid(x))
print(F.mish(x), F.logsigmoid(x), F.hardshrink(x, 2.0), F.softshrink(x), F.celu(x, 2.0))
print(F.softsign(x), F.tanhshrink(x), F.softmin(x.view(3, 3), dim=1), F.softmin(x.view(3, 3)))
print(F.logsigmoid(torch.tensor([-100., -20., 0., 20., 50.])))
print(F.mish(torch.tensor([-30., -1e-3, 1e-3, 30.], dtype=torch.float64)))
w = torch.tensor([-3.5, -1.2, -0.3, 0.4, 2.2, 3.7], requires_grad=True)
for f in [F.relu6, F.hardtanh, F.hardswish, F.hardsigmoid, F.mish, F.logsigmoid, F.hardshrink, F.softshrink, F.celu,
          F.softsign, F.tanhshrink]:
    y = f(w * 2)
    print(y)
    y.sum().backward()
    print(w.grad)
    w.grad = None
y = F.softmin(w, 0)
(y * torch.arange(6.)).sum().backward()
print(y, w.grad)
h = w * 1
F.hardtanh(h, inplace=True)
print(h)
h.sum().backward()
print(w.grad)
for bad in [lambda: F.hardswish(torch.tensor([1, 2])), lambda: F.softshrink(x, -1.), lambda: nn.ReLU6()(3), lambda: F.celu(x, 0.),
            lambda: F.relu6(torch.tensor([1., 2.], requires_grad=True), inplace=True)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
