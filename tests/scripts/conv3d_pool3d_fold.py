# nn.Conv3d / F.conv3d, nn.ConvTranspose3d / F.conv_transpose3d, the 3-d pools (max with indices,
# avg, adaptive avg/max) and their F forms, nn.Fold / nn.Unfold (F.fold / F.unfold) and
# nn.ChannelShuffle / F.channel_shuffle: seeded modules' reprs and weights, values and gradients
# (float64, printed at 8 digits), gradcheck of each, a small 3-d CNN's training steps, and PyTorch
# 1.13's messages for bad arguments.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import gradcheck

torch.manual_seed(0)
torch.set_printoptions(precision=8)


def show(name, t):
    print(name, tuple(t.shape), t.detach().flatten()[:8])


# ---- Conv3d
conv = nn.Conv3d(4, 6, 3, stride=(1, 2, 1), padding=(1, 0, 2), dilation=(2, 1, 1), groups=2)
print(conv)
print([n for n, _ in conv.named_parameters()], conv.weight.shape, conv.bias.shape)
print(conv.weight.flatten()[:5], conv.bias)
print(nn.Conv3d(2, 3, (1, 2, 3), bias=False, padding="same", padding_mode="reflect"))
print(nn.Conv3d(2, 3, 2, padding="valid"), nn.Conv3d(2, 4, 2, padding_mode="circular"))
x = torch.randn(2, 4, 5, 6, 7, dtype=torch.float64, requires_grad=True)
conv = conv.double()
y = conv(x)
show("conv3d", y)
y.pow(2).sum().backward()
show("conv3d x.grad", x.grad)
show("conv3d w.grad", conv.weight.grad)
print(conv.bias.grad)
for mode in ["zeros", "reflect", "replicate", "circular"]:
    m = nn.Conv3d(4, 2, (3, 2, 3), padding="same", padding_mode=mode, dtype=torch.float64)
    show("same " + mode, m(x))
    m = nn.Conv3d(4, 2, 3, padding=1, padding_mode=mode, dtype=torch.float64)
    show("pad1 " + mode, m(x))
w = torch.randn(3, 4, 2, 1, 2, dtype=torch.float64)
show("F.conv3d unbatched", F.conv3d(x[0], w, stride=2, padding=(0, 1, 1)))
show("torch.conv3d", torch.conv3d(x, w, torch.ones(3, dtype=torch.float64), 1, 0, (1, 2, 3)))
print(F.conv3d(torch.randn(1, 1, 3, 3, 3), torch.ones(1, 1, 3, 3, 3)).shape)

# ---- ConvTranspose3d
ct = nn.ConvTranspose3d(4, 6, (3, 2, 2), stride=(2, 1, 2), padding=1, output_padding=(1, 0, 1), groups=2,
                        dilation=(1, 2, 1))
print(ct)
print(ct.weight.shape, ct.weight.flatten()[:4], ct.bias[:3])
print(nn.ConvTranspose3d(3, 2, 2, stride=2, bias=False))
ct = ct.double()
x.grad = None
yt = ct(x)
show("conv_transpose3d", yt)
(yt * torch.arange(yt.numel(), dtype=torch.float64).view_as(yt).sin()).sum().backward()
show("conv_transpose3d x.grad", x.grad)
show("conv_transpose3d w.grad", ct.weight.grad)
up = nn.ConvTranspose3d(4, 2, 3, stride=2, padding=1, dtype=torch.float64)
print(up(x, output_size=(10, 12, 14)).shape, up(x, output_size=[2, 2, 9, 11, 13]).shape, up(x).shape)
print(up(x[0]).shape)
show("F.conv_transpose3d", F.conv_transpose3d(x, torch.randn(4, 1, 2, 2, 2, dtype=torch.float64), stride=(1, 2, 3)))

# ---- pools
p = torch.randn(2, 3, 6, 7, 5, dtype=torch.float64, requires_grad=True)
mp = nn.MaxPool3d(3, stride=2, padding=1, return_indices=True, ceil_mode=True)
print(mp, nn.MaxPool3d((2, 3, 1)), nn.MaxPool3d(2, dilation=2))
v, i = mp(p)
show("max_pool3d", v)
print(i.dtype, i.flatten()[:12])
v.sum().backward()
show("max_pool3d grad", p.grad)
v, i = F.max_pool3d(p, (2, 3, 2), stride=(1, 2, 2), dilation=(2, 1, 2), return_indices=True)
show("max_pool3d dilated", v)
print(i.flatten()[:12])
print(F.max_pool3d(p[0], 2).shape, torch.max_pool3d(p, 2).shape)
ap = nn.AvgPool3d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
print(ap, nn.AvgPool3d((2, 2, 1), stride=(1, 2, 1)))
show("avg_pool3d", ap(p))
show("avg_pool3d include_pad", F.avg_pool3d(p, 3, 2, 1, ceil_mode=True))
show("avg_pool3d divisor", F.avg_pool3d(p, 2, divisor_override=3))
p.grad = None
F.avg_pool3d(p, (2, 3, 2), padding=(1, 1, 0)).pow(2).sum().backward()
show("avg_pool3d grad", p.grad)
aap = nn.AdaptiveAvgPool3d((2, None, 3))
print(aap, nn.AdaptiveAvgPool3d(1), nn.AdaptiveMaxPool3d((4, 3, 2)))
show("adaptive_avg_pool3d", aap(p))
show("adaptive_avg_pool3d 4", F.adaptive_avg_pool3d(p, 4))
v, i = F.adaptive_max_pool3d(p, (4, 3, 2), return_indices=True)
show("adaptive_max_pool3d", v)
print(i.flatten()[:12])
print(nn.AdaptiveMaxPool3d(2, return_indices=True)(p[0])[1].shape, F.adaptive_max_pool3d(p, 1).shape)
ties = torch.tensor([[[[[1.0, 2.0], [2.0, 0.0]], [[2.0, 2.0], [1.0, 2.0]]]]])
print(F.max_pool3d(ties, 2, return_indices=True), F.adaptive_max_pool3d(ties, 1, return_indices=True)[1])

# ---- Fold / Unfold
img = torch.randn(2, 3, 5, 6, dtype=torch.float64, requires_grad=True)
unf = nn.Unfold((2, 3), padding=1, stride=2)
print(unf, nn.Fold((5, 6), (2, 3), padding=1, stride=2), nn.Unfold(2, dilation=(1, 2)))
cols = unf(img)
show("unfold", cols)
fold = nn.Fold((5, 6), (2, 3), padding=1, stride=2)
back = fold(cols)
show("fold(unfold)", back)
back.pow(2).sum().backward()
show("fold grad", img.grad)
ones = torch.ones(1, 3, 5, 6, dtype=torch.float64)
print(F.fold(F.unfold(ones, 3, padding=1), (5, 6), 3, padding=1)[0, 0])
print(F.unfold(img[0], 2, dilation=2).shape, F.fold(torch.randn(12, 9), (4, 4), 2).shape)
# a convolution through unfold + matmul + fold, as the documentation shows
w2 = torch.randn(4, 3, 2, 3, dtype=torch.float64)
viaunf = (F.unfold(img, (2, 3)).transpose(1, 2).matmul(w2.view(4, -1).t()).transpose(1, 2)).view(2, 4, 4, 4)
print("unfold conv == conv2d", torch.allclose(viaunf, F.conv2d(img, w2)))

# ---- ChannelShuffle
cs = nn.ChannelShuffle(3)
print(cs)
print(cs(torch.arange(12.0).view(1, 6, 2)).view(-1))
print(F.channel_shuffle(torch.arange(8.0).view(2, 4, 1, 1), 2).view(-1), torch.channel_shuffle(torch.arange(4).view(1, 4, 1), 2))

# ---- gradcheck
g = torch.randn(1, 2, 4, 4, 3, dtype=torch.float64, requires_grad=True)
gw = torch.randn(4, 1, 2, 3, 2, dtype=torch.float64, requires_grad=True)
gb = torch.randn(4, dtype=torch.float64, requires_grad=True)
gt = torch.randn(2, 2, 2, 2, 3, dtype=torch.float64, requires_grad=True)
g2 = torch.randn(1, 2, 4, 5, dtype=torch.float64, requires_grad=True)
checks = [
    ("conv3d", lambda a, b, c: F.conv3d(a, b, c, stride=(2, 1, 1), padding=1, groups=2), (g, gw, gb)),
    ("conv3d same", lambda a, b: F.conv3d(a, b, padding="same", dilation=(1, 2, 1), groups=2), (g, gw)),
    ("conv_transpose3d", lambda a, b, c: F.conv_transpose3d(a, b, c, stride=(2, 1, 2), padding=(1, 0, 1),
                                                            output_padding=(1, 0, 0)), (g, gt, torch.randn(2, dtype=torch.float64, requires_grad=True))),
    ("max_pool3d", lambda a: F.max_pool3d(a, 2, 1, 1, ceil_mode=True), (g,)),
    ("avg_pool3d", lambda a: F.avg_pool3d(a, (3, 2, 2), 2, 1, ceil_mode=True, count_include_pad=False), (g,)),
    ("adaptive_avg_pool3d", lambda a: F.adaptive_avg_pool3d(a, (3, 2, 2)), (g,)),
    ("adaptive_max_pool3d", lambda a: F.adaptive_max_pool3d(a, (3, 3, 2)), (g,)),
    ("unfold", lambda a: F.unfold(a, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), (g2,)),
    ("fold", lambda a: F.fold(a, (4, 5), 2, padding=(1, 0)), (torch.randn(1, 8, 20, dtype=torch.float64, requires_grad=True),)),
]
for name, f, args in checks:
    print("gradcheck", name, gradcheck(f, args))

# ---- a small 3-d CNN (video / volume classifier) trained for three steps
torch.manual_seed(1)
model = nn.Sequential(
    nn.Conv3d(1, 4, 3, padding=1), nn.BatchNorm3d(4), nn.ReLU(), nn.MaxPool3d(2),
    nn.Conv3d(4, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(8, 3))
print(model)
print(sum(p.numel() for p in model.parameters()))
model = model.double()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
vol = torch.randn(4, 1, 6, 8, 8, dtype=torch.float64)
target = torch.tensor([0, 2, 1, 2])
for step in range(3):
    opt.zero_grad()
    out = model(vol)
    loss = F.cross_entropy(out, target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 8), out.shape)

# ---- errors
def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)


x5 = torch.randn(1, 2, 4, 4, 4)
err(lambda: F.conv3d(torch.randn(2, 3, 4, 5), torch.randn(4, 3, 2, 2, 2)))
err(lambda: F.conv3d(x5, torch.randn(4, 3, 2, 2, 2)))
err(lambda: F.conv3d(x5, torch.randn(4, 2, 5, 2, 2)))
err(lambda: F.conv3d(x5, torch.randn(4, 2, 2, 2, 2), torch.randn(3)))
err(lambda: F.conv3d(x5, torch.randn(3, 1, 2, 2, 2), groups=2))
err(lambda: F.conv3d(x5, torch.randn(4, 2, 2, 2, 2), stride=0))
err(lambda: F.conv3d(x5, torch.randn(4, 2, 2, 2, 2), padding=-1))
err(lambda: F.conv3d(x5, torch.randn(4, 2, 2, 2, 2), padding="same", stride=2))
err(lambda: F.conv3d(x5, torch.randn(4, 2, 2, 2, 2), padding="foo"))
err(lambda: F.conv3d(x5, torch.randn(4, 2, 2, 2, 2), stride=(1, 2)))
err(lambda: F.conv3d(x5.double(), torch.randn(4, 2, 2, 2, 2)))
err(lambda: F.conv3d(torch.randn(2, 3), torch.randn(4, 3, 2, 2, 2)))
err(lambda: nn.Conv3d(3, 4, 3, groups=2))
err(lambda: nn.Conv3d(4, 3, 3, groups=2))
err(lambda: nn.Conv3d(4, 4, 3, padding="same", stride=2))
err(lambda: nn.Conv3d(4, 4, 3)(torch.randn(1, 3, 4, 4, 4)))
err(lambda: F.conv_transpose3d(x5, torch.randn(3, 4, 2, 2, 2)))
err(lambda: F.conv_transpose3d(x5, torch.randn(2, 4, 2, 2, 2), stride=2, output_padding=2))
err(lambda: nn.ConvTranspose3d(2, 4, 3, padding_mode="reflect"))
err(lambda: nn.ConvTranspose3d(2, 4, 3, stride=2)(x5, output_size=(20, 9, 9)))
err(lambda: F.max_pool3d(torch.randn(2, 3, 4), 2))
err(lambda: F.max_pool3d(x5, 5))
err(lambda: F.max_pool3d(x5, 3, padding=2))
err(lambda: F.max_pool3d(x5, (2, 2)))
err(lambda: F.max_pool3d(x5, 2, stride=0))
err(lambda: F.max_pool3d(x5, 2, dilation=0))
err(lambda: F.max_pool3d(x5.long(), 2))
err(lambda: F.avg_pool3d(torch.randn(2, 3, 4), 2))
err(lambda: F.avg_pool3d(x5, 5))
err(lambda: F.avg_pool3d(x5, 3, padding=2))
err(lambda: F.avg_pool3d(x5, (2, 2)))
err(lambda: F.avg_pool3d(x5, 2, divisor_override=0))
err(lambda: F.adaptive_avg_pool3d(torch.randn(2, 3, 4), 2))
err(lambda: F.adaptive_avg_pool3d(x5, (2, 2)))
err(lambda: F.adaptive_max_pool3d(torch.randn(2, 3, 4), 2))
err(lambda: F.adaptive_max_pool3d(x5, (2, 2)))
err(lambda: F.unfold(torch.randn(1, 2, 3, 3), 4))
err(lambda: F.unfold(torch.randn(1, 2, 3, 3), 2, stride=0))
err(lambda: F.fold(torch.randn(1, 7, 4), (3, 3), 2))
err(lambda: F.fold(torch.randn(1, 8, 5), (3, 3), 2))
err(lambda: F.fold(torch.randn(1, 8, 4, 1), (3, 3), 2))
err(lambda: F.channel_shuffle(torch.randn(1, 4, 2, 2), 3))
err(lambda: F.channel_shuffle(torch.randn(1, 4), 2))
err(lambda: F.channel_shuffle(torch.randn(1, 4, 2, 2), 0))
