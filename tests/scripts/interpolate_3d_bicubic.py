# F.interpolate's 'bicubic' (align_corners both ways) and 'trilinear', 'nearest', 'nearest-exact' on 5-D
# inputs, nn.Upsample over them: float64 values and gradients printed in full, float32 ones within
# 1e-5 of them (bicubic and trilinear float32 results are not PyTorch's bits), grad_fns and errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=10)


def check(x, mode, **kw):
    xd = x.detach().double().requires_grad_()
    y, yd = F.interpolate(x, mode=mode, **kw), F.interpolate(xd, mode=mode, **kw)
    w = torch.arange(yd.numel(), dtype=torch.float64).view_as(yd) / 8
    (g,) = torch.autograd.grad((y * w.float()).sum(), x)
    (gd,) = torch.autograd.grad((yd * w).sum(), xd)
    print(mode, kw, tuple(y.shape), y.grad_fn.name(), yd.grad_fn.name(), y.dtype)
    print("float32 close:", bool((y.double() - yd).abs().max() < 1e-5), bool((g.double() - gd).abs().max() < 1e-4))
    return yd, gd


x = torch.randn(1, 2, 4, 5, requires_grad=True)
for kw in ({"size": (7, 9)}, {"size": (3, 2)}, {"scale_factor": 1.7}, {"scale_factor": (0.5, 2.0)},
           {"size": (1, 1)}, {"scale_factor": 2.5, "recompute_scale_factor": True}):
    for align in (False, True):
        yd, gd = check(x, "bicubic", align_corners=align, **kw)
        print(yd[0, 1])
        print(gd[0, 1])

v = torch.randn(1, 2, 3, 4, 5, requires_grad=True)
for mode in ("trilinear", "nearest", "nearest-exact"):
    for kw in ({"size": (4, 6, 7)}, {"size": (2, 3, 3)}, {"scale_factor": 1.5}, {"scale_factor": (2.0, 0.5, 1.3)}):
        aligns = (False, True) if mode == "trilinear" else (None,)
        for align in aligns:
            yd, gd = check(v, mode, align_corners=align, **kw)
            print(yd[0, 1, -1])
            print(gd[0, 1, 0])
y = F.interpolate(v, size=(5, 6, 7), mode="nearest")
print(torch.equal(y, F.interpolate(v.double(), size=(5, 6, 7), mode="nearest").float()), y[0, 0, 4, 5])

up = nn.Upsample(scale_factor=2, mode="bicubic", align_corners=True)
print(up, up(x.detach().double())[0, 0, :2])
up3 = nn.Upsample(size=(2, 4, 4), mode="trilinear")
print(up3, up3(v.detach()).shape)
print(nn.Upsample(scale_factor=(1.0, 2.0, 2.0), mode="nearest")(v.detach())[0, 0, 1])

for bad in ("F.interpolate(v, size=(3, 4), mode='bicubic')",
            "F.interpolate(x, size=(3, 4, 5), mode='trilinear')",
            "F.interpolate(x, size=3, mode='trilinear')",
            "F.interpolate(v, size=(3, 4, 5), mode='bilinear')",
            "F.interpolate(v[0, 0], size=3, mode='bicubic')", "F.interpolate(v, size=3, mode='bicubic')",
            "F.interpolate(x.detach().long(), size=(3, 4), mode='bicubic')",
            "F.interpolate(v.detach().long(), size=(3, 4, 5), mode='trilinear')",
            "F.interpolate(v, size=(0, 4, 5), mode='trilinear')",
            "F.interpolate(v, size=(2, 4, 5), mode='nearest', align_corners=True)"):
    try:
        print(bad, "->", eval(bad))
    except Exception as e:
        print(bad, "->", type(e).__name__, e)
