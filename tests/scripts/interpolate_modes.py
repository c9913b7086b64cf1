# F.interpolate's 'nearest-exact' and 'area' modes (1-d and 2-d), their grad_fns, gradients and errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(1, 2, 5, 7, requires_grad=True)
x1 = torch.randn(2, 1, 5, requires_grad=True)
xd = torch.randn(1, 1, 4, 6, dtype=torch.float64, requires_grad=True)
for mode in ("nearest-exact", "area"):
    for kw in ({"size": (3, 4)}, {"size": (8, 11)}, {"scale_factor": 1.7}, {"scale_factor": (0.5, 2.0)},
               {"scale_factor": 0.6, "recompute_scale_factor": True}):
        y = F.interpolate(x, mode=mode, **kw)
        print(mode, kw, tuple(y.shape), y.grad_fn.name())
        print(y[0, 1])
        (g,) = torch.autograd.grad((y * torch.arange(y.numel(), dtype=y.dtype).view_as(y)).sum(), x)
        print(g[0, 1])
    for kw in ({"size": 3}, {"size": 12}, {"scale_factor": 2.5}):
        y = F.interpolate(x1, mode=mode, **kw)
        print(mode, kw, tuple(y.shape), y.grad_fn.name(), y)
        (g,) = torch.autograd.grad(y.pow(2).sum(), x1)
        print(g)
    y = F.interpolate(xd, size=(7, 5), mode=mode)
    print(y.dtype, y)
    print(nn.Upsample(scale_factor=3, mode=mode)(x1), nn.Upsample(size=(2, 9), mode=mode))

for bad in ("F.interpolate(x, size=(3, 4), mode='area', align_corners=True)",
            "F.interpolate(x, size=(3, 4), mode='nearest-exact', align_corners=False)",
            "F.interpolate(x, size=3, mode='area', recompute_scale_factor=True)",
            "F.interpolate(x.detach().long(), size=(3, 4), mode='nearest-exact')",
            "F.interpolate(x, size=(3, 4, 5), mode='area')",
            "F.interpolate(x, size=(0, 4), mode='nearest-exact')"):
    try:
        print(bad, "->", eval(bad))
    except Exception as e:
        print(bad, "->", type(e).__name__, e)
