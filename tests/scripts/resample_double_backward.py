# Double backward (create_graph=True) of reflect/replicate padding and of upsampling (every mode,
# 1-3 spatial dims): second and third derivatives, gradcheck and gradgradcheck (the backwards' own
# grad_fn names, ReflectionPad2DBackwardBackward0 ..., are checked by tests/core/gradcheck_resample.c).
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck

torch.manual_seed(0)
torch.set_printoptions(precision=8)
x1 = torch.randn(2, 3, 5, dtype=torch.float64, requires_grad=True)
x2 = torch.randn(1, 2, 4, 5, dtype=torch.float64, requires_grad=True)
x3 = torch.randn(1, 1, 3, 4, 3, dtype=torch.float64, requires_grad=True)
cases = [
    ("reflect 1d", x1, lambda x: F.pad(x, (2, 1), mode="reflect")),
    ("reflect 2d", x2, lambda x: F.pad(x, (1, 2, 2, 1), mode="reflect")),
    ("reflect 3d", x3, lambda x: F.pad(x, (1, 1, 2, 0, 1, 2), mode="reflect")),
    ("replicate 1d", x1, lambda x: F.pad(x, (3, 1), mode="replicate")),
    ("replicate 2d", x2, lambda x: F.pad(x, (1, 0, 2, 2), mode="replicate")),
    ("replicate 3d", x3, lambda x: F.pad(x, (1, 1, 0, 1, 2, 0), mode="replicate")),
    ("nearest 1d", x1, lambda x: F.interpolate(x, size=8, mode="nearest")),
    ("nearest 2d", x2, lambda x: F.interpolate(x, scale_factor=(1.7, 2.0), mode="nearest")),
    ("nearest 3d", x3, lambda x: F.interpolate(x, size=(4, 5, 2), mode="nearest")),
    ("nearest-exact 1d", x1, lambda x: F.interpolate(x, size=7, mode="nearest-exact")),
    ("nearest-exact 2d", x2, lambda x: F.interpolate(x, size=(3, 7), mode="nearest-exact")),
    ("nearest-exact 3d", x3, lambda x: F.interpolate(x, scale_factor=1.5, mode="nearest-exact")),
    ("linear", x1, lambda x: F.interpolate(x, size=9, mode="linear", align_corners=True)),
    ("bilinear", x2, lambda x: F.interpolate(x, size=(5, 3), mode="bilinear")),
    ("trilinear", x3, lambda x: F.interpolate(x, size=(4, 2, 5), mode="trilinear", align_corners=True)),
    ("bicubic", x2, lambda x: F.interpolate(x, size=(6, 7), mode="bicubic")),
    ("bicubic align", x2, lambda x: F.interpolate(x, scale_factor=1.5, mode="bicubic", align_corners=True)),
]
for name, x, f in cases:
    y = f(x)
    (g,) = torch.autograd.grad(y.pow(3).sum(), x, create_graph=True)
    (h,) = torch.autograd.grad((g * torch.arange(g.numel(), dtype=g.dtype).view_as(g)).sum(), x)
    print(name, y.grad_fn.name(), g.requires_grad)
    print(h.flatten()[:12])
    print("gradcheck", gradcheck(f, (x,)), "gradgradcheck", gradgradcheck(f, (x,)))
# third order through the backward's backward (the forward op again)
(g,) = torch.autograd.grad(F.pad(x2, (1, 1, 1, 1), mode="reflect").pow(2).sum(), x2, create_graph=True)
(gg,) = torch.autograd.grad(g.pow(2).sum(), x2, create_graph=True)
(ggg,) = torch.autograd.grad(gg.sum(), x2)
print(gg.requires_grad, ggg[0, 0])
