# torch.nn GroupNorm, InstanceNorm1d/2d/3d, Conv1d, ConvTranspose1d/2d,
# Upsample / F.interpolate (nearest, (bi)linear, align_corners), MaxUnpool2d
# and F.batch_norm: values, gradients, grad_fn names, seeded initialisation,
# reprs, parameter and buffer names, errors.
import torch
import torch.nn as nn
import torch.nn.functional as F


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)


torch.manual_seed(0)
x = torch.randn(2, 4, 3, 5) * 2 + 1

# GroupNorm
gn = nn.GroupNorm(2, 4)
print(gn, nn.GroupNorm(1, 3, eps=1e-3, affine=False))
print([n for n, _ in gn.named_parameters()], list(gn.state_dict().keys()))
with torch.no_grad():
    gn.weight.copy_(torch.tensor([1.0, 2.0, 0.5, -1.0]))
    gn.bias.copy_(torch.tensor([0.1, 0.0, -0.2, 0.3]))
xr = x.clone().requires_grad_(True)
y = gn(xr)
print(y[1, :, 0], y.grad_fn.name())
(y * torch.arange(120.0).view(2, 4, 3, 5) / 100).sum().backward()
print(xr.grad[0, :, 1])
print(gn.weight.grad, gn.bias.grad)
print(F.group_norm(x, 4)[0, 1, 0])
print(F.group_norm(x.double(), 2, eps=1e-2)[1, 3, 2])
print(F.group_norm(torch.randn(3, 6), 3)[0])
err(lambda: nn.GroupNorm(3, 4))
err(lambda: F.group_norm(x, 3))
err(lambda: F.group_norm(torch.zeros(1, 2, 1), 2))
err(lambda: gn(torch.zeros(2, 3, 4)))

# InstanceNorm
inn = nn.InstanceNorm2d(4)
print(inn, nn.InstanceNorm1d(3, affine=True, track_running_stats=True))
print(list(inn.state_dict().keys()), list(nn.InstanceNorm1d(3, affine=True, track_running_stats=True).state_dict().keys()))
xr.grad = None
y = inn(xr)
print(y[0, 2, 1], y.grad_fn.name())
(y * torch.arange(120.0).view(2, 4, 3, 5) / 100).sum().backward()
print(xr.grad[1, 0, 2])
tr = nn.InstanceNorm1d(3, affine=True, track_running_stats=True, momentum=0.2)
with torch.no_grad():
    tr.weight.copy_(torch.tensor([1.5, -1.0, 0.5]))
s = torch.randn(4, 3, 6) * 3 + 2
print(tr(s)[1])
print(tr.running_mean, tr.running_var, tr.num_batches_tracked)
tr.eval()
print(tr(s)[0, :, :3])
print(nn.InstanceNorm1d(3)(s[0])[:, :2])
print(F.instance_norm(s)[2, 1])
print(nn.InstanceNorm3d(2)(torch.arange(32.0).view(1, 2, 2, 2, 4))[0, 1, 1])
err(lambda: inn(torch.zeros(4, 3, 5)))
err(lambda: nn.InstanceNorm1d(3)(torch.zeros(2, 3, 1)))
err(lambda: nn.InstanceNorm1d(3, affine=True)(torch.zeros(2, 4, 5)))

# F.batch_norm
rm, rv = torch.zeros(4), torch.ones(4)
print(F.batch_norm(x, rm, rv, training=True)[0, :, 0, 0], rm, rv)
print(F.batch_norm(x, rm, rv)[1, :, 1, 1])
err(lambda: F.batch_norm(x, None, None))

# Conv1d
torch.manual_seed(1)
c1 = nn.Conv1d(4, 6, 3, stride=2, padding=1)
print(c1, nn.Conv1d(2, 4, 5, padding="same", dilation=2, groups=2, bias=False), nn.Conv1d(3, 3, (2,), padding="valid"))
print(c1.weight.shape, c1.bias.shape, c1.weight[0, 0], c1.bias)
print([n for n, _ in c1.named_parameters()])
sig = torch.randn(2, 4, 9, requires_grad=True)
o = c1(sig)
print(o.shape, o[1, :, :3], o.grad_fn.name())
(o * o).sum().backward()
print(sig.grad[0, :, :4], c1.weight.grad[2], c1.bias.grad)
print(nn.Conv1d(2, 4, 5, padding="same", dilation=2, groups=2, bias=False)(torch.randn(1, 2, 6)).shape)
print(F.conv1d(torch.randn(4, 7), torch.randn(2, 4, 2)).shape)
print(F.conv1d(sig.detach(), c1.weight.detach(), None, 1, 0, 2)[0, 0])
err(lambda: c1(torch.zeros(2, 3, 9)))
err(lambda: c1(torch.zeros(2, 4, 9, 9)))
err(lambda: nn.Conv1d(4, 6, 3)(torch.zeros(1, 4, 2)))
err(lambda: nn.Conv1d(4, 6, 3, groups=4))

# ConvTranspose2d / 1d
torch.manual_seed(2)
ct = nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1)
print(ct, nn.ConvTranspose2d(4, 4, (2, 3), groups=2, bias=False, dilation=(1, 2)), nn.ConvTranspose1d(2, 3, 4, stride=2))
print(ct.weight.shape, ct.weight[0, 1], ct.bias)
img = torch.randn(2, 3, 4, 4, requires_grad=True)
o = ct(img)
print(o.shape, o[0, 1, :3, :4], o.grad_fn.name())
(o * o).sum().backward()
print(img.grad[1, 2], ct.weight.grad[1, 0], ct.bias.grad)
g2 = nn.ConvTranspose2d(4, 4, (2, 3), groups=2, bias=False, dilation=(1, 2))
print(g2(torch.randn(1, 4, 3, 3))[0, 3])
ct1 = nn.ConvTranspose1d(2, 3, 4, stride=2)
sq = torch.randn(2, 2, 5, requires_grad=True)
o1 = ct1(sq)
print(o1.shape, o1[1, :, :5], o1.grad_fn.name())
o1.pow(2).sum().backward()
print(sq.grad[0], ct1.weight.grad[0, 1])
print(F.conv_transpose2d(torch.randn(3, 2, 2), torch.randn(3, 1, 2, 2)).shape)
print(F.conv_transpose1d(torch.randn(1, 2, 3), torch.randn(2, 2, 3), padding=1)[0])
err(lambda: ct(torch.zeros(1, 2, 4, 4)))
err(lambda: nn.ConvTranspose2d(3, 2, 3, stride=2, output_padding=2)(torch.zeros(1, 3, 4, 4)))

# Upsample / interpolate
im = torch.arange(12.0).view(1, 1, 3, 4)
ups = [nn.Upsample(scale_factor=2), nn.Upsample(size=(4, 6), mode="bilinear"), nn.Upsample(scale_factor=(1.5, 2), mode="bilinear", align_corners=True),
       nn.UpsamplingNearest2d(scale_factor=2), nn.UpsamplingBilinear2d(size=5), nn.Upsample(size=7, mode="linear")]
for u in ups:
    print(u)
for u in ups[:5]:
    print(u(im)[0, 0])
print(ups[5](torch.arange(6.0).view(1, 2, 3)))
print(F.interpolate(im, scale_factor=1.7)[0, 0])
print(F.interpolate(im, size=(5, 3))[0, 0])
print(F.interpolate(im, scale_factor=0.5, mode="bilinear")[0, 0])
print(F.interpolate(im, size=(2, 7), mode="bilinear", align_corners=True)[0, 0])
print(F.interpolate(im, scale_factor=1.3, mode="bilinear", recompute_scale_factor=True)[0, 0])
print(F.interpolate(torch.arange(5.0).view(1, 1, 5), scale_factor=2.5, mode="linear")[0, 0])
print(F.interpolate(torch.arange(5.0).view(1, 1, 5), size=3)[0, 0])
imr = (im / 3).requires_grad_(True)
for mode in ["nearest", "bilinear"]:
    imr.grad = None
    o = F.interpolate(imr, scale_factor=(1.5, 1.75), mode=mode)
    (o * torch.arange(float(o.numel())).view(o.shape)).sum().backward()
    print(mode, o.shape, o.grad_fn.name())
    print(imr.grad[0, 0])
l1 = torch.arange(4.0).view(1, 1, 4).requires_grad_(True)
o = F.interpolate(l1, size=9, mode="linear", align_corners=True)
o.pow(2).sum().backward()
print(o, o.grad_fn.name(), l1.grad)
o = F.interpolate(l1, scale_factor=3)
print(o.grad_fn.name())
err(lambda: F.interpolate(im, scale_factor=2, mode="nearest", align_corners=True))
err(lambda: F.interpolate(im))
err(lambda: F.interpolate(im, size=(2, 2), scale_factor=2))
err(lambda: F.interpolate(im, size=(2, 2, 2)))
err(lambda: F.interpolate(im, scale_factor=2, mode="linear"))
err(lambda: F.interpolate(torch.zeros(1, 1, 3), scale_factor=2, mode="bilinear"))
err(lambda: F.interpolate(torch.zeros(3), scale_factor=2))

# MaxUnpool2d
pool = nn.MaxPool2d(2, stride=2, return_indices=True)
unpool = nn.MaxUnpool2d(2, stride=2)
print(unpool, nn.MaxUnpool2d((2, 3), padding=1))
src = torch.tensor([[[[1.0, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]]])
out, idx = pool(src)
print(unpool(out, idx))
print(unpool(out, idx, output_size=src.size()))
print(unpool(out, idx, output_size=[5, 5]))
outr = out.clone().requires_grad_(True)
u = F.max_unpool2d(outr, idx, 2)
print(u.grad_fn.name())
(u * torch.arange(16.0).view(1, 1, 4, 4)).sum().backward()
print(outr.grad)
err(lambda: unpool(out, idx, output_size=[9, 9]))
err(lambda: unpool(out, idx.float()))

# a small generator as tutorials build it
torch.manual_seed(3)
gen = nn.Sequential(nn.ConvTranspose2d(8, 4, 4, 2, 1, bias=False), nn.GroupNorm(2, 4), nn.ReLU(),
                    nn.Upsample(scale_factor=2, mode="bilinear"), nn.Conv2d(4, 1, 3, padding=1), nn.Tanh())
print(gen)
z = torch.randn(2, 8, 3, 3)
print(gen(z)[1, 0, :3, :4])

# the deprecated upsample functions (their UserWarning goes to stderr)
print(F.upsample(im, scale_factor=2)[0, 0, 0])
print(F.upsample_nearest(im, size=(3, 8))[0, 0, 1])
print(F.upsample_bilinear(im, scale_factor=2)[0, 0, 1])
print(nn.Conv1d(1, 1, 4, padding="same", bias=False)(torch.ones(1, 1, 5)).shape)
err(lambda: nn.Conv1d(1, 1, 3, stride=2, padding="same"))
