# SoftMarginLoss, MultiLabelSoftMarginLoss, HingeEmbeddingLoss, PoissonNLLLoss, GaussianNLLLoss,
# MultiMarginLoss, MultiLabelMarginLoss, TripletMarginWithDistanceLoss, CTCLoss (modules and F. forms,
# every reduction, the legacy size_average=/reduce=), LPPool1d/2d and MaxUnpool1d/3d against
# PyTorch 1.13: values, gradients (float64, 8 digits), reprs, gradcheck and messages.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import gradcheck

torch.manual_seed(0)
torch.set_printoptions(precision=8)
x = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
sign = torch.tensor([[1.0, -1, 1, 1, -1], [-1, -1, 1, 1, 1], [1, 1, 1, -1, -1], [-1, 1, -1, 1, -1]],
                    dtype=torch.float64)
multi = torch.tensor([[1.0, 0, 1, 0, 0], [0, 0, 0, 1, 1], [1, 1, 0, 0, 0], [0, 0, 0, 0, 1]], dtype=torch.float64)
cls = torch.tensor([1, 0, 4, 2])
labels = torch.tensor([[3, 0, -1, 1, 2], [1, 2, 3, 4, -1], [0, -1, 2, 3, 4], [4, 4, -1, 0, 0]])
w5 = torch.tensor([0.5, 1.0, 2.0, 1.5, 0.25], dtype=torch.float64)
counts = torch.tensor([[0.0, 1, 2, 3, 4], [5, 0, 1, 1, 2], [2, 2, 7, 0, 1], [1, 0, 0, 3, 9]], dtype=torch.float64)
var = torch.rand(4, 5, dtype=torch.float64) + 0.1
anc, pos, neg = (torch.randn(4, 5, dtype=torch.float64) for _ in range(3))
mods = [
    (nn.SoftMarginLoss(), lambda m: m(x, sign)),
    (nn.MultiLabelSoftMarginLoss(), lambda m: m(x, multi)),
    (nn.MultiLabelSoftMarginLoss(weight=w5, reduction="sum"), lambda m: m(x, multi)),
    (nn.HingeEmbeddingLoss(margin=0.5), lambda m: m(x, sign)),
    (nn.PoissonNLLLoss(), lambda m: m(x, counts)),
    (nn.PoissonNLLLoss(log_input=False, full=True, reduction="sum"), lambda m: m(x.abs() + 0.1, counts)),
    (nn.GaussianNLLLoss(), lambda m: m(x, sign, var)),
    (nn.GaussianNLLLoss(full=True, reduction="none"), lambda m: m(x, sign, var[:, 0])),
    (nn.MultiMarginLoss(), lambda m: m(x, cls)),
    (nn.MultiMarginLoss(p=2, margin=0.7, weight=w5, reduction="none"), lambda m: m(x, cls)),
    (nn.MultiLabelMarginLoss(), lambda m: m(x, labels)),
    (nn.MultiLabelMarginLoss(reduction="none"), lambda m: m(x, labels)),
    (nn.TripletMarginWithDistanceLoss(), lambda m: m(anc, pos, x)),
    (nn.TripletMarginWithDistanceLoss(distance_function=lambda a, b: 1.0 - F.cosine_similarity(a, b), margin=0.3,
                                      swap=True, reduction="none"), lambda m: m(anc, x, neg)),
]
for m, call in mods:
    x.grad = None
    out = call(m)
    out.sum().backward()
    print(m, m.reduction, out.detach(), x.grad[0])
print(F.soft_margin_loss(x, sign, reduction="none")[0].detach(), F.hinge_embedding_loss(x, sign).item())
print(F.multilabel_soft_margin_loss(x, multi, reduction="none").detach(), F.poisson_nll_loss(x, counts).item())
print(F.gaussian_nll_loss(x, sign, var).item(), F.multi_margin_loss(x, cls, margin=2.0).item())
print(F.multi_margin_loss(x[0], cls[:1]).item(), F.multilabel_margin_loss(x[0], labels[0]).item())
print(round(F.triplet_margin_with_distance_loss(anc, pos, neg).item(), 10))  # the norm's last bit: summation order
print("legacy", nn.SoftMarginLoss(size_average=False).reduction, F.soft_margin_loss(x, sign, reduce=False).shape,
      nn.MultiMarginLoss(reduce=False).reduction, F.hinge_embedding_loss(x, sign, size_average=False).item())
for name, f in [("soft_margin", lambda a: F.soft_margin_loss(a, sign)),
                ("multilabel_soft_margin", lambda a: F.multilabel_soft_margin_loss(a, multi, weight=w5)),
                ("hinge_embedding", lambda a: F.hinge_embedding_loss(a, sign, margin=2.0)),
                ("poisson_nll", lambda a: F.poisson_nll_loss(a, counts, full=True)),
                ("gaussian_nll", lambda a: F.gaussian_nll_loss(a, sign, var)),
                ("multi_margin", lambda a: F.multi_margin_loss(a, cls, p=2, margin=2.0, weight=w5)),
                ("multilabel_margin", lambda a: F.multilabel_margin_loss(a, labels)),
                ("triplet_distance", lambda a: F.triplet_margin_with_distance_loss(anc, a, neg, swap=True))]:
    print("gradcheck", name, gradcheck(f, (x,)))

# LPPool
s1 = torch.rand(2, 3, 9, dtype=torch.float64, requires_grad=True)
s2 = torch.rand(2, 3, 6, 7, dtype=torch.float64, requires_grad=True)
lp1, lp2 = nn.LPPool1d(2, 3, stride=2), nn.LPPool2d(1.5, (2, 3), ceil_mode=True)
print(lp1, lp2)
print(lp1(s1).detach()[0], lp2(s2).detach()[0, 0])
print(F.lp_pool1d(s1, 3, 2).shape, F.lp_pool2d(s2, 2, 2, stride=1).shape)
print("gradcheck lp_pool", gradcheck(lambda a: F.lp_pool2d(a, 2, 2), (s2,)), gradcheck(lambda a: lp1(a), (s1,)))

# MaxUnpool1d / MaxUnpool3d
p1 = torch.randn(1, 2, 8, dtype=torch.float64)
v1, i1 = F.max_pool1d(p1, 2, return_indices=True)
u1 = nn.MaxUnpool1d(2)
print(u1, nn.MaxUnpool3d(2, stride=1), nn.MaxUnpool3d((1, 2, 2), padding=(0, 1, 0)))
print(u1(v1, i1), u1(v1, i1, output_size=[1, 2, 9]).shape, F.max_unpool1d(v1, i1, 2, output_size=(9,)).shape)
p3 = torch.randn(1, 2, 4, 4, 4, dtype=torch.float64)
v3, i3 = F.max_pool3d(p3, 2, return_indices=True)
v3.requires_grad_()
u3 = nn.MaxUnpool3d(2)(v3, i3)
print(u3.shape, (u3.detach() != 0).sum().item(), torch.equal(u3.detach().flatten(2).gather(2, i3.flatten(2)), v3.detach().flatten(2)))
(u3 * torch.arange(u3.numel(), dtype=torch.float64).view_as(u3)).sum().backward()
print(v3.grad.flatten())
print(F.max_unpool3d(v3[0], i3[0], 2, output_size=(5, 5, 5)).shape)
print("gradcheck max_unpool", gradcheck(lambda a: F.max_unpool1d(a, i1, 2), (v1.requires_grad_(),)),
      gradcheck(lambda a: F.max_unpool3d(a, i3, 2), (v3,)))

# CTCLoss: values, log_probs.grad as PyTorch's (its logits form), zero_infinity, concatenated targets
torch.manual_seed(0)
logits = torch.randn(6, 3, 5, dtype=torch.float64, requires_grad=True)
lp = logits.log_softmax(2)
lp.retain_grad()
tg = torch.tensor([[1, 2, 2], [3, 1, 0], [4, 4, 4]])
ctc = nn.CTCLoss()
print(ctc, ctc.blank, ctc.reduction, ctc.zero_infinity)
loss = ctc(lp, tg, torch.tensor([6, 5, 6]), torch.tensor([3, 2, 3]))
loss.backward()
print(round(loss.item(), 12), lp.grad[:, 0], logits.grad[0])
for red in ["none", "sum"]:
    print(red, F.ctc_loss(lp, tg, [6, 5, 6], [3, 2, 1], reduction=red).detach())
print(F.ctc_loss(lp, torch.tensor([1, 2, 2, 3, 1, 4]), torch.tensor([6, 5, 6]), torch.tensor([3, 2, 1]), reduction="none").detach())
print(F.ctc_loss(lp, tg, [2, 5, 6], [3, 2, 3], reduction="none").detach())
print(F.ctc_loss(lp, tg, [2, 5, 6], [3, 2, 3], zero_infinity=True, reduction="none").detach())
logits.grad = None
F.ctc_loss(logits.log_softmax(2), tg, [2, 5, 6], [3, 2, 3], zero_infinity=True).backward()
print(logits.grad[:, 0])
print(F.ctc_loss(lp, tg, [6, 5, 6], [3, 2, 3], blank=4, reduction="sum").item())
print(F.ctc_loss(lp[:, 0], torch.tensor([1, 2]), torch.tensor(6), torch.tensor(2)).item())
print(F.ctc_loss(lp, tg, [6, 5, 6], [0, 2, 1], reduction="none").detach())
lp32 = torch.randn(50, 4, 20).log_softmax(2).detach().requires_grad_()
l32 = F.ctc_loss(lp32, torch.randint(1, 20, (4, 10)), [50, 45, 40, 50], [10, 8, 9, 10])
l32.backward()
print(round(l32.item(), 4), round(lp32.grad.abs().sum().item(), 3))


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)


err(lambda: F.gaussian_nll_loss(x, sign, var[:, :2]))
err(lambda: F.gaussian_nll_loss(x, sign, -var))
err(lambda: F.gaussian_nll_loss(x, sign, var, reduction="foo"))
err(lambda: nn.MultiMarginLoss(p=3))
err(lambda: F.multi_margin_loss(x, cls, p=3))
err(lambda: F.multi_margin_loss(x, torch.tensor([0, 1, 5, 2])))
err(lambda: F.multi_margin_loss(x, torch.tensor([0, 1])))
err(lambda: F.multilabel_margin_loss(x, labels[:2]))
err(lambda: F.soft_margin_loss(x, sign, reduction="foo"))
err(lambda: F.max_unpool1d(v1, i1, 2, output_size=(20,)))
err(lambda: F.max_unpool1d(v1, i1, 2, output_size=(1, 2)))
err(lambda: F.max_unpool3d(v3, i3, 2, output_size=(9, 9, 9)))
err(lambda: F.ctc_loss(lp, tg, [7, 5, 6], [3, 2, 3]))
err(lambda: F.ctc_loss(lp, tg, [6, 5, 6], [4, 2, 3]))
err(lambda: F.ctc_loss(lp, tg, [6, 5, 6], [3, 2]))
err(lambda: F.ctc_loss(lp, tg, [6, 5], [3, 2, 3]))
err(lambda: F.ctc_loss(lp, tg, [6, 5, 6], [3, 2, 3], blank=5))
