# torch.nn modules and functional forms: SELU, GLU, RReLU (eval, and training
# with PyTorch's random slopes), Softmax2d, Unflatten, Dropout1d/2d/3d,
# AlphaDropout and FeatureAlphaDropout (seeded masks as PyTorch's), F.pad in
# every mode and the padding modules: values, gradients, grad_fn names, reprs,
# errors.
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
x = torch.randn(2, 4, 3)
xr = x.clone().requires_grad_(True)

# SELU
print(nn.SELU(), nn.SELU(inplace=True))
y = F.selu(xr)
print(y[0], y.grad_fn.name())
y.sum().backward()
print(xr.grad[1])
print(nn.SELU()(x.double())[1, 0])
t = x.clone()
F.selu_(t)
print(torch.equal(t, F.selu(x)))

# GLU
print(nn.GLU(), nn.GLU(dim=1))
xr.grad = None
g = F.glu(xr, 1)
print(g.shape, g[1], g.grad_fn.name())
(g * torch.arange(6.0).view(1, 2, 3)).sum().backward()
print(xr.grad[0])
print(nn.GLU()(torch.arange(8.0).view(2, 4) / 4))
err(lambda: F.glu(x))
err(lambda: F.glu(torch.tensor(1.0)))

# RReLU
r = nn.RReLU()
print(r, nn.RReLU(0.1, 0.3, inplace=True))
r.eval()
print(r(x)[0])
torch.manual_seed(3)
r.train()
xr.grad = None
out = r(xr)
print(out[0], out.grad_fn.name())
out.sum().backward()
print(xr.grad[0])
torch.manual_seed(3)
print(torch.equal(F.rrelu(x, training=True), out.detach()))
print(F.rrelu(x, 0.2, 0.2, training=True)[1])
xr.grad = None
F.rrelu(xr).sum().backward()
print(xr.grad[1])

# Softmax2d and Softmin
s2 = nn.Softmax2d()
print(s2, s2(x.view(1, 2, 4, 3))[0, :, 0], s2(x).grad_fn)
err(lambda: s2(torch.zeros(2, 3)))
print(nn.Softmin(dim=1)(x)[0])

# Unflatten
u = nn.Unflatten(1, (2, 2))
print(u, nn.Unflatten(-1, [3, 1]))
xr.grad = None
uo = u(xr)
print(uo.shape, uo.grad_fn.name())
print(nn.Unflatten(2, (-1, 1))(x).shape)
err(lambda: nn.Unflatten(1, (3, 2))(x))
err(lambda: nn.Unflatten(1, 4))
err(lambda: nn.Unflatten(1, (2.0, 2)))
seq = nn.Sequential(nn.Flatten(), nn.Linear(12, 12), nn.Unflatten(1, (3, 4)))
print(seq)
print(seq(x).shape)

# channel dropout with PyTorch's random stream
torch.manual_seed(7)
d2 = nn.Dropout2d(0.5)
print(d2, nn.Dropout1d(0.3, inplace=True), nn.Dropout3d())
img = torch.ones(2, 4, 2, 2)
o = d2(img)
print(o[:, :, 0, 0], o.grad_fn)
xr.grad = None
o1 = nn.Dropout1d(0.25)(xr)
print(o1[:, :, 0], o1.grad_fn.name())
o1.sum().backward()
print(xr.grad[:, :, 1])
print(F.dropout2d(img, 0.5, training=False) is img)
print(nn.Dropout1d()(torch.ones(4, 3))[:, 0])
print(F.dropout3d(torch.ones(2, 3, 1, 1, 2), 0.4)[..., 0].flatten())
d2.eval()
print(torch.equal(d2(img), img))
err(lambda: nn.Dropout2d(1.5))
err(lambda: nn.Dropout1d()(torch.ones(2, 3, 4, 5)))
err(lambda: F.dropout2d(img, -0.1))

# alpha dropout
torch.manual_seed(11)
ad = nn.AlphaDropout(0.2)
print(ad, nn.FeatureAlphaDropout(0.3))
z = torch.randn(3, 5)
print(ad(z))
xr.grad = None
ao = ad(xr)
print(ao.grad_fn.name())
ao.sum().backward()
print(xr.grad[0])
print(nn.FeatureAlphaDropout(0.5)(torch.ones(2, 3, 2))[:, :, 0])
print(F.alpha_dropout(z, 0.5) is z, F.alpha_dropout(z, 0.5, True).shape)
print(F.alpha_dropout(z, 1.0, True))
ad.eval()
print(torch.equal(ad(z), z))

# F.pad
a = torch.arange(12.0).view(1, 2, 6)
b = torch.arange(16.0).view(1, 1, 4, 4)
print(F.pad(a, (1, 2)))
print(F.pad(a, (2, 1), value=-1.5))
print(F.pad(a, (-1, 1, 1, 0)))
print(F.pad(a, [2, 3], mode="reflect"))
print(F.pad(a, (2, 3), mode="replicate"))
print(F.pad(a, (2, 3), mode="circular"))
print(F.pad(b, (1, 1, 2, 1), mode="reflect"))
print(F.pad(b, (1, 0, 0, 2), mode="replicate"))
print(F.pad(b, (1, 2, 2, 1), mode="circular"))
print(F.pad(a, (-1, 2), mode="reflect"), F.pad(a, (-2, 1), mode="circular"))
print(F.pad(a.long(), (1, 1), value=2.7))
for mode in ["constant", "reflect", "replicate", "circular"]:
    br = b.clone().requires_grad_(True)
    p = F.pad(br, (2, 1, 1, 2), mode=mode)
    (p * torch.arange(49.0).view(1, 1, 7, 7)).sum().backward()
    print(mode, p.shape, p.grad_fn.name())
    print(br.grad[0, 0])
vr = torch.arange(60.0).view(1, 1, 3, 4, 5).requires_grad_(True)
p3 = F.pad(vr, (1, 1, 1, 0, 0, 1), mode="replicate")
print(p3.shape, p3.grad_fn.name(), p3[0, 0, 3, 0])
p3.pow(2).sum().backward()
print(vr.grad[0, 0, 2])
print(F.pad(vr, (1, 1, 1, 1, 1, 1), mode="reflect")[0, 0, 0, 0], F.pad(vr, (1, 1, 1, 1, 1, 1), mode="reflect").grad_fn.name())
err(lambda: F.pad(a, (1,)))
err(lambda: F.pad(a, (4, 1), mode="reflect"))
err(lambda: F.pad(b, (1, 1, 4, 0), mode="reflect"))
err(lambda: F.pad(b, (1, 1), mode="reflect"))
err(lambda: F.pad(a, (1, 1), mode="foo"))
err(lambda: F.pad(a, (1, 1), mode="reflect", value=1.0))
err(lambda: F.pad(a, (7, 1), mode="circular"))
err(lambda: F.pad(a.long(), (1, 1), mode="reflect"))
err(lambda: F.pad(a, (1.5, 1)))
err(lambda: F.pad(a, (1, 1, 1, 1, 1, 1, 1, 1)))

# padding modules
mods = [nn.ZeroPad2d(1), nn.ZeroPad2d((1, 0, 2, 1)), nn.ConstantPad1d(2, 3.5), nn.ConstantPad2d((1, 0, 0, 1), -1),
        nn.ConstantPad3d(1, 0.0), nn.ReflectionPad1d(2), nn.ReflectionPad2d((1, 2, 0, 1)), nn.ReflectionPad3d(1),
        nn.ReplicationPad1d((0, 3)), nn.ReplicationPad2d(1), nn.ReplicationPad3d(1)]
for m in mods:
    print(m, m.padding)
print(nn.ZeroPad2d((1, 0, 2, 1))(b)[0, 0])
print(nn.ConstantPad1d(2, 3.5)(a)[0, 0])
print(nn.ReflectionPad2d((1, 2, 0, 1))(b)[0, 0])
print(nn.ReplicationPad1d((0, 3))(a)[0, 1])
net = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(1, 2, 3), nn.SELU(), nn.Dropout2d(0.1), nn.GLU(1))
print(net)
print(list(net.state_dict().keys()))

# the remaining functional forms
torch.manual_seed(5)
t = torch.randn(2, 3, 4)
print(F.dropout1d(t, 0.5)[:, :, 0])
print(F.feature_alpha_dropout(t, 0.5, training=True)[:, :, 0])
t2 = t.clone()
print(F.rrelu_(t2, 0.1, 0.2) is t2, t2[0, 0])
print(F.softmin(torch.tensor([[1.0, 2.0], [3.0, 1.0]])))
print(F.glu(torch.arange(4.0), dim=0))
