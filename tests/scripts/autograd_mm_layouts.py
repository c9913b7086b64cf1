# The gradients of a matrix product carry PyTorch 1.13's exact float32 bits: as its
# mm_mat1_backward / mm_mat2_backward, a column-major operand (strides (1, rows), e.g.
# x.t() of a contiguous x) gets its gradient as the transposed product, which sums in
# another order than the plain one. The Gram matrix of style transfer (f.mm(f.t())) is
# the common case: f's gradient is grad @ f plus (grad^T @ f), not grad @ f + (f^T @ grad)^T.
import torch
import torch.nn.functional as F
torch.manual_seed(0)


def digest(name, t):
    """Sums that change when any element changes in its last bit."""
    t = t.detach().double().reshape(-1)
    weights = torch.arange(t.numel(), dtype=torch.double) % 7 + 1
    print(name, float(t.abs().sum()).hex(), float((t * weights).sum()).hex())


f = torch.rand(8, 256, requires_grad=True)
target = torch.rand(8, 8) / 100
gram = torch.mm(f, f.t()).div(f.numel())
F.mse_loss(gram, target).backward()
digest("gram f.grad", f.grad)

for n, k, m in [(5, 7, 3), (8, 64, 8), (33, 65, 17), (1, 9, 4), (6, 1, 6)]:
    a, b = torch.randn(n, k), torch.randn(k, m)
    upstream = torch.randn(n, m)
    layouts = {
        "row-major": (a, b),
        "a column-major": (a.t().contiguous().t(), b),
        "b column-major": (a, b.t().contiguous().t()),
        "both column-major": (a.t().contiguous().t(), b.t().contiguous().t()),
        "a strided": (torch.randn(n, 2 * k)[:, ::2], b),
    }
    for name, (x, y) in layouts.items():
        x = x.detach().requires_grad_()
        y = y.detach().requires_grad_()
        x.mm(y).backward(upstream)
        digest(f"mm {n}x{k}x{m} {name} x.grad", x.grad)
        digest(f"mm {n}x{k}x{m} {name} y.grad", y.grad)
        x.grad = y.grad = None
        torch.matmul(x, y).backward(upstream)
        digest(f"matmul {n}x{k}x{m} {name} x.grad", x.grad)
        x.grad = y.grad = None
        bias = torch.randn(m, requires_grad=True)
        torch.addmm(bias, x, y).backward(upstream)
        digest(f"addmm {n}x{k}x{m} {name} y.grad", y.grad)

# a product whose operands are both views of one leaf sums two gradients into it
w = torch.randn(6, 4, requires_grad=True)
(w.t() @ w).sum().backward()
digest("w.t() @ w", w.grad)
w.grad = None
(w @ w.t() * torch.randn(6, 6)).sum().backward()
digest("w @ w.t()", w.grad)
