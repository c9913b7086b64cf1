# The losses beyond MSE/L1 (core/losses.c, repl/bind_loss.c): values, gradients
# for input and target, grad_fn names, reprs, buffers, legacy arguments, errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
p = torch.rand(3, 4, dtype=torch.float64)
t = torch.rand(3, 4)
w = torch.rand(4)
z = torch.randn(3, 4)
c = torch.tensor([0, 3, 1])


def grads(fn, *xs):
    ins = [x.clone().requires_grad_(True) for x in xs]
    out = fn(*ins)
    print(out, out.grad_fn.name())
    out.sum().backward()
    for x in ins:
        print(x.grad)


def err(fn):
    try:
        fn()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)


print("-- BCELoss")
x = torch.sigmoid(z)
for r in ["mean", "sum", "none"]:
    grads(lambda a, b: F.binary_cross_entropy(a, b, reduction=r), x, t)
    grads(lambda a, b: F.binary_cross_entropy(a, b, weight=w, reduction=r), x, t)
grads(lambda a, b: F.binary_cross_entropy(a, b), p, p.flip(0))
print(F.binary_cross_entropy(torch.tensor([0.0, 1.0, 0.5]), torch.tensor([1.0, 0.0, 0.5]), reduction="none"))
m = nn.BCELoss(weight=w)
print(m, m.reduction, dict(m.named_buffers()))
print(m(x, t))
print(nn.BCELoss(reduction="sum")(x, t))
print(list(nn.BCELoss().state_dict().keys()))
err(lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
err(lambda: F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([1.0])))
err(lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.0], dtype=torch.float64)))
err(lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.0]), reduction="foo"))

print("-- BCEWithLogitsLoss")
pw = torch.tensor([1.0, 2.0, 3.0, 0.5])
for r in ["mean", "sum", "none"]:
    grads(lambda a, b: F.binary_cross_entropy_with_logits(a, b, reduction=r), z, t)
    grads(lambda a, b: F.binary_cross_entropy_with_logits(a, b, weight=w, pos_weight=pw, reduction=r), z, t)
grads(lambda a, b: F.binary_cross_entropy_with_logits(a, b, pos_weight=pw.double()), p * 4 - 2, p.flip(1))
print(F.binary_cross_entropy_with_logits(torch.tensor([-100.0, 0.0, 100.0]), torch.tensor([1.0, 0.5, 0.0]), reduction="none"))
m = nn.BCEWithLogitsLoss(pos_weight=pw)
print(m, dict(m.named_buffers()))
print(m(z, t))
print(list(nn.BCEWithLogitsLoss(weight=w, pos_weight=pw).state_dict().keys()))
err(lambda: F.binary_cross_entropy_with_logits(torch.tensor([0.5, 0.5]), torch.tensor([1.0])))

print("-- NLLLoss, CrossEntropyLoss with weight")
logp = F.log_softmax(z, 1)
for r in ["mean", "sum", "none"]:
    grads(lambda a: F.nll_loss(a, c, weight=w, reduction=r), logp)
    grads(lambda a: F.nll_loss(a, c, weight=w, ignore_index=3, reduction=r), logp)
    grads(lambda a: F.cross_entropy(a, c, weight=w, reduction=r), z)
    grads(lambda a: F.cross_entropy(a, c, weight=w, label_smoothing=0.2, reduction=r), z)
    grads(lambda a: F.cross_entropy(a, c, weight=w, ignore_index=0, label_smoothing=0.1, reduction=r), z)
    grads(lambda a: F.cross_entropy(a, F.softmax(t, 1), weight=w, reduction=r), z)
img = torch.randn(2, 4, 3, 3)
tgt = torch.randint(0, 4, (2, 3, 3))
grads(lambda a: F.cross_entropy(a, tgt, weight=w), img)
grads(lambda a: F.nll_loss(a, tgt, weight=w, reduction="sum"), F.log_softmax(img, 1))
big = torch.randn(300, 5)
bt = torch.randint(0, 5, (300,))
print(F.cross_entropy(big, bt, weight=torch.rand(5)))
m = nn.NLLLoss(weight=w, ignore_index=1)
print(m, m.ignore_index, dict(m.named_buffers()))
print(m(logp, c))
print(nn.NLLLoss()(logp, c))
m = nn.CrossEntropyLoss(weight=w, label_smoothing=0.05)
print(m, dict(m.named_buffers()))
print(m(z, c))
err(lambda: F.nll_loss(logp, c, weight=torch.rand(2)))
err(lambda: F.nll_loss(logp, torch.tensor([0, 4, 1])))

print("-- SmoothL1Loss, HuberLoss")
for r in ["mean", "sum", "none"]:
    grads(lambda a, b: F.smooth_l1_loss(a, b, reduction=r), z, t)
    grads(lambda a, b: F.smooth_l1_loss(a, b, beta=0.5, reduction=r), z, t)
    grads(lambda a, b: F.huber_loss(a, b, reduction=r), z, t)
    grads(lambda a, b: F.huber_loss(a, b, delta=0.3, reduction=r), z, t)
grads(lambda a, b: F.smooth_l1_loss(a, b, beta=0.0), z, t)
grads(lambda a, b: F.huber_loss(a, b, delta=2.0), p * 6, p.flip(0))
m = nn.SmoothL1Loss(beta=0.25)
print(m, m.beta, m(z, t))
m = nn.HuberLoss(delta=0.5, reduction="sum")
print(m, m.delta, m.reduction, m(z, t))
err(lambda: F.smooth_l1_loss(z, t, beta=-1.0))
err(lambda: F.huber_loss(z, t, delta=0.0))

print("-- KLDivLoss")
q = F.log_softmax(z, 1)
tp = F.softmax(t, 1)
for r in ["sum", "none", "batchmean"]:
    grads(lambda a: F.kl_div(a, tp, reduction=r), q)
    grads(lambda a, b: F.kl_div(a, b, reduction=r, log_target=True), q, tp.log())
print(F.kl_div(q, torch.tensor([[0.0, 0.5, 0.5, 0.0]] * 3), reduction="none"))
m = nn.KLDivLoss(reduction="batchmean", log_target=True)
print(m, m.log_target, m(q, tp.log()))

print("-- MarginRankingLoss, CosineEmbeddingLoss, TripletMarginLoss")
y = torch.tensor([1.0, -1.0, 1.0, -1.0])
for r in ["mean", "sum", "none"]:
    grads(lambda a, b: F.margin_ranking_loss(a, b, y, margin=0.1, reduction=r), z[0], z[1])
    grads(lambda a, b: F.cosine_embedding_loss(a, b, torch.tensor([1, -1, -1]), margin=-0.2, reduction=r), z, t)
    grads(lambda a, b, n: F.triplet_margin_loss(a, b, n, reduction=r), z, t, z.flip(0))
grads(lambda a, b: F.cosine_embedding_loss(a, b, torch.tensor(1)), z[0], t[0])
grads(lambda a, b, n: F.triplet_margin_loss(a, b, n, margin=0.5, p=1, swap=True), z, t, z.flip(0) * 0.5)
m = nn.MarginRankingLoss(margin=0.5)
print(m, m.margin, m(z[0], z[1], y))
m = nn.CosineEmbeddingLoss(margin=0.1)
print(m, m.margin, m(z, t, torch.tensor([1, -1, 1])))
m = nn.TripletMarginLoss(margin=2.0, p=3, swap=True)
print(m, m.margin, m.p, m.eps, m.swap, m(z, t, z.flip(1)))
err(lambda: F.margin_ranking_loss(z[0], z[1:], y))
err(lambda: F.triplet_margin_loss(z, t, z[0]))

print("-- legacy size_average / reduce")
print(nn.BCELoss(size_average=False)(x, t))
print(nn.NLLLoss(reduce=False)(logp, c))
print(nn.SmoothL1Loss(size_average=True, reduce=True).reduction)
print(nn.KLDivLoss(size_average=False).reduction)
print(nn.MarginRankingLoss(0.2, False).reduction)
print(F.binary_cross_entropy_with_logits(z, t, size_average=False))
print(F.nll_loss(logp, c, reduce=False))
