# Matrix products carry PyTorch 1.13's exact float32 bits when OpenBLAS is called as ATen
# calls it (core/gemm_aten.c): the operand order, transpose flags and leading dims of
# addmm_impl_cpu_, ?gemv for mv, and bmm's plain loop for small products. Each line prints
# the float32 results exactly (as Python floats) or their float64 sum, where one ulp
# anywhere would show.
import torch
torch.manual_seed(0)


def show(name, r):
    r = r.detach()
    if r.numel() <= 8:
        print(name, list(r.shape), r.flatten().tolist())
    else:
        print(name, list(r.shape), r.double().sum().item(), r.double().abs().sum().item())


g, h = torch.randn(32, 1), torch.randn(32, 5)
show("g.t().mm(h)", g.t().mm(h))
show("h.t().mm(g)", h.t().mm(g))
for n, k, m in [(5, 7, 3), (1, 7, 3), (5, 7, 1), (1, 7, 1), (64, 128, 10), (3, 1, 4), (33, 65, 17)]:
    a, b = torch.randn(n, k), torch.randn(k, m)
    show(f"mm {n}x{k}x{m}", a.mm(b))
    show(f"mm at {n}x{k}x{m}", a.t().contiguous().t().mm(b))
    show(f"mm bt {n}x{k}x{m}", a.mm(b.t().contiguous().t()))
    show(f"mm at bt {n}x{k}x{m}", a.t().contiguous().t().mm(b.t().contiguous().t()))
    wide = torch.randn(n, 2 * k)
    show(f"mm strided {n}x{k}x{m}", wide[:, ::2].mm(b))
    show(f"F.linear {n}x{k}x{m}", torch.nn.functional.linear(a, b.t(), torch.randn(m)))
    v = torch.randn(k)
    show(f"mv {n}x{k}", a.mv(v))
    show(f"mv t {n}x{k}", a.t().contiguous().t().mv(v))
    show(f"vm {n}x{k}", torch.randn(n) @ a)
for out_features, batch in [(1, 32), (1, 1), (30, 1), (30, 64), (7, 5)]:
    lin = torch.nn.Linear(20, out_features)
    x = torch.randn(batch, 20, requires_grad=True)
    y = lin(x)
    (y * torch.randn(batch, out_features)).sum().backward()
    show(f"linear {out_features} {batch}", y)
    show(f"  weight.grad", lin.weight.grad)
    show(f"  bias.grad", lin.bias.grad)
    show(f"  x.grad", x.grad)
    y3 = lin(torch.randn(3, batch, 20))
    show(f"linear 3d {out_features} {batch}", y3)
for bs, n, k, m in [(3, 4, 7, 5), (2, 7, 7, 7), (4, 8, 8, 8), (2, 1, 30, 20), (5, 16, 3, 9)]:
    a, b = torch.randn(bs, n, k), torch.randn(bs, k, m)
    show(f"bmm {bs}x{n}x{k}x{m}", torch.bmm(a, b))
    show(f"bmm bt {bs}x{n}x{k}x{m}", torch.bmm(a, b.transpose(1, 2).contiguous().transpose(1, 2)))
    show(f"matmul 3d@2d {bs}x{n}x{k}x{m}", a @ b[0])
