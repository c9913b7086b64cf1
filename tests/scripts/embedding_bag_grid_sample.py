# nn.EmbeddingBag / F.embedding_bag (sum, mean, max; offsets, 2-d input, per_sample_weights,
# padding_idx, include_last_offset, max_norm, from_pretrained) and F.grid_sample (bilinear, nearest,
# bicubic; zeros, border, reflection padding; align_corners both ways; 4-d and 5-d input) with
# F.affine_grid: values and gradients (float64, 8 digits) against PyTorch 1.13, gradcheck, a
# spatial-transformer step and a text classifier step, and PyTorch's messages for bad arguments.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import gradcheck

torch.manual_seed(0)
torch.set_printoptions(precision=8)

# ---- embedding_bag
emb = torch.randn(10, 3, dtype=torch.float64, requires_grad=True)
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
off = torch.tensor([0, 4, 4])
for mode in ["sum", "mean", "max"]:
    y = F.embedding_bag(inp, emb, off, mode=mode)
    print(mode, y.detach())
    emb.grad = None
    (y * torch.arange(9.0, dtype=torch.float64).view(3, 3)).sum().backward()
    print(emb.grad)
print(F.embedding_bag(inp, emb, torch.tensor([0, 3]), mode="sum", padding_idx=2).detach())
print(F.embedding_bag(inp, emb, torch.tensor([0, 2, 5, 8]), mode="mean", include_last_offset=True).detach())
psw = torch.rand(8, dtype=torch.float64, requires_grad=True)
y = F.embedding_bag(inp, emb, torch.tensor([0, 3]), mode="sum", per_sample_weights=psw)
y.sum().backward()
print(y.detach(), psw.grad)
print(F.embedding_bag(inp.view(2, 4), emb, mode="max").detach())
print(F.embedding_bag(torch.tensor([[2, 2], [2, 1]]), emb, mode="mean", padding_idx=2).detach())
print(F.embedding_bag(inp.int(), emb, torch.tensor([0, 5]).int()).dtype)

torch.manual_seed(0)
bag = nn.EmbeddingBag(10, 3, mode="sum")
print(bag, bag.weight)
print(nn.EmbeddingBag(10, 3, mode="max", padding_idx=-2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True,
                      include_last_offset=True))
pbag = nn.EmbeddingBag(6, 2, padding_idx=0)
print(pbag.weight[0], [n for n, _ in pbag.named_parameters()])
print(bag(inp, off).detach(), bag(inp.view(4, 2)).shape)
w0 = torch.tensor([[1.0, 2.3, 3.0], [4.0, 5.1, 6.3]])
pre = nn.EmbeddingBag.from_pretrained(w0, mode="max")
print(pre, pre(torch.tensor([[1, 0]])), pre.weight.requires_grad)
nb = nn.EmbeddingBag(5, 2, max_norm=1.0)
nb(torch.tensor([[0, 1, 2]]))
print(nb.weight.detach().norm(dim=1) <= 1.0 + 1e-6)
print("gradcheck embedding_bag", gradcheck(lambda w, p: F.embedding_bag(inp, w, off, mode="sum", per_sample_weights=p),
                                           (emb, psw)),
      gradcheck(lambda w: F.embedding_bag(inp, w, off, mode="mean"), (emb,)),
      gradcheck(lambda w: F.embedding_bag(inp, w, off, mode="max"), (emb,)))

# a text classifier step (the torchtext tutorial's model)
torch.manual_seed(2)


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))


model = TextClassificationModel(20, 8, 4).double()
print(model)
opt = torch.optim.SGD(model.parameters(), lr=5)
text = torch.tensor([3, 7, 1, 19, 4, 4, 2, 11, 0, 5])
offsets = torch.tensor([0, 3, 4, 8])
label = torch.tensor([1, 0, 3, 2])
for step in range(3):
    opt.zero_grad()
    out = model(text, offsets)
    loss = F.cross_entropy(out, label)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
    opt.step()
    print(step, round(loss.item(), 8), (out.argmax(1) == label).sum().item())

# ---- affine_grid / grid_sample
x = torch.randn(2, 3, 5, 6, dtype=torch.float64, requires_grad=True)
theta = torch.tensor([[[0.9, 0.2, 0.1], [-0.3, 1.1, -0.2]], [[1.2, -0.1, 0.3], [0.2, 0.8, 0.5]]],
                     dtype=torch.float64, requires_grad=True)
for ac in [False, True]:
    print(F.affine_grid(theta, (2, 3, 4, 7), align_corners=ac)[0, 1].detach())
    for mode in ["bilinear", "nearest", "bicubic"]:
        for pm in ["zeros", "border", "reflection"]:
            g = F.affine_grid(theta, (2, 3, 4, 7), align_corners=ac)
            out = F.grid_sample(x, g * 1.3, mode=mode, padding_mode=pm, align_corners=ac)
            x.grad = None
            theta.grad = None
            (out * torch.arange(out.numel(), dtype=torch.float64).view_as(out).cos()).sum().backward()
            print(ac, mode, pm, out.shape, out.detach().flatten()[:4], x.grad.flatten()[:4], theta.grad.flatten())
v = torch.randn(1, 2, 3, 4, 5, dtype=torch.float64, requires_grad=True)
th3 = torch.tensor([[[0.9, 0.2, 0.1, 0.0], [-0.3, 1.1, -0.2, 0.1], [0.1, 0.2, 1.3, -0.1]]], dtype=torch.float64)
g3 = F.affine_grid(th3, (1, 2, 3, 3, 4), align_corners=False)
print(g3.shape, g3[0, 1, 2])
for mode in ["bilinear", "nearest"]:
    for pm in ["zeros", "border", "reflection"]:
        for ac in [False, True]:
            o = F.grid_sample(v, g3 * 1.2, mode=mode, padding_mode=pm, align_corners=ac)
            print(mode, pm, ac, o.shape, o.detach().flatten()[:5])
# grid points exactly on the border and outside it (the clip's gradient is zero there)
edge = torch.tensor([[[[-1.0, -1.0], [1.0, 1.0], [1.5, -2.0], [0.25, 1.0]]]], dtype=torch.float64, requires_grad=True)
img = torch.arange(12.0, dtype=torch.float64).view(1, 1, 3, 4)
for pm in ["zeros", "border", "reflection"]:
    for ac in [False, True]:
        edge.grad = None
        o = F.grid_sample(img, edge, padding_mode=pm, align_corners=ac)
        o.sum().backward()
        print(pm, ac, o.detach().flatten(), edge.grad.flatten() + 0.0)  # -0.0 and 0.0 alike
print(F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 2)))
for m in ["bilinear", "bicubic"]:
    for p in ["zeros", "border", "reflection"]:
        gg = (torch.rand(2, 3, 4, 2, dtype=torch.float64) * 1.8 - 0.9).requires_grad_()
        print("gradcheck grid_sample", m, p,
              gradcheck(lambda a, b: F.grid_sample(a, b, mode=m, padding_mode=p, align_corners=True), (x, gg)))
print("gradcheck affine_grid", gradcheck(lambda t: F.affine_grid(t, (2, 1, 3, 4), align_corners=False), (theta,)))

# a spatial transformer step
torch.manual_seed(3)
loc = nn.Linear(3 * 5 * 6, 6).double()
loc.weight.data.zero_()
loc.bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float64))
opt = torch.optim.SGD(loc.parameters(), lr=0.1)
target = torch.randn(2, 3, 5, 6, dtype=torch.float64)
for step in range(2):
    opt.zero_grad()
    th = loc(x.detach().flatten(1)).view(-1, 2, 3)
    grid = F.affine_grid(th, x.size(), align_corners=False)
    warped = F.grid_sample(x.detach(), grid, align_corners=False)
    loss = F.mse_loss(warped, target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 8), loc.bias.detach())


# ---- errors
def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)


x4 = torch.randn(1, 2, 4, 4)
g4 = torch.rand(1, 3, 3, 2) * 2 - 1
err(lambda: F.grid_sample(x4, g4.double(), align_corners=False))
err(lambda: F.grid_sample(x4, g4[0], align_corners=False))
err(lambda: F.grid_sample(x4, g4.expand(2, 3, 3, 2), align_corners=False))
err(lambda: F.grid_sample(x4, torch.rand(1, 3, 3, 3), align_corners=False))
err(lambda: F.grid_sample(x4, g4, mode="foo"))
err(lambda: F.grid_sample(x4, g4, padding_mode="foo"))
err(lambda: F.grid_sample(torch.randn(1, 2, 3, 4, 4), torch.rand(1, 2, 3, 3, 3), mode="bicubic", align_corners=False))
err(lambda: F.grid_sample(torch.randn(1, 2, 0, 4), g4, align_corners=False))
err(lambda: F.affine_grid(torch.randn(1, 2, 3).long(), (1, 1, 2, 2), align_corners=False))
err(lambda: F.affine_grid(torch.randn(1, 3, 3), (1, 1, 2, 2), align_corners=False))
err(lambda: F.affine_grid(torch.randn(1, 2, 3), (1, 1, 2, 2, 2), align_corners=False))
err(lambda: F.affine_grid(torch.randn(1, 2, 3), (1, 2, 2), align_corners=False))
err(lambda: F.affine_grid(torch.randn(1, 2, 3), (1, 1, 0, 2), align_corners=False))
e10 = torch.randn(10, 3)
err(lambda: F.embedding_bag(torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), e10, torch.tensor([0, 9])))
err(lambda: F.embedding_bag(torch.tensor([1, 2, 4, 5, 4, 3, 2, 10]), e10, torch.tensor([0, 4])))
err(lambda: F.embedding_bag(torch.tensor([1, 2, 4, 5]), e10, torch.tensor([0, 2]), mode="foo"))
err(lambda: F.embedding_bag(torch.tensor([1, 2, 4, 5]), e10, torch.tensor([0, 2]), per_sample_weights=torch.rand(4)))
err(lambda: F.embedding_bag(torch.tensor([1, 2, 4, 5]), e10, torch.tensor([0, 2]), mode="sum",
                            per_sample_weights=torch.rand(3)))
err(lambda: F.embedding_bag(torch.tensor([1, 2, 4, 5]), e10))
err(lambda: F.embedding_bag(torch.tensor([[1, 2], [4, 5]]), e10, torch.tensor([0, 1])))
err(lambda: F.embedding_bag(torch.tensor([[[1]]]), e10))
err(lambda: F.embedding_bag(torch.tensor([1, 2, 4, 5]), e10, torch.tensor([[0, 1]])))
err(lambda: F.embedding_bag(torch.tensor([1.0, 2, 4, 5]), e10, torch.tensor([0, 1])))
err(lambda: F.embedding_bag(torch.tensor([1, 2, 4, 5]), e10, torch.tensor([0, 1]), mode="max", scale_grad_by_freq=True))
err(lambda: nn.EmbeddingBag(10, 3, padding_idx=10))
err(lambda: nn.EmbeddingBag(10, 3, _weight=torch.randn(3, 3)))
