# torch.addmm / baddbmm / addbmm / addmv / addr (beta, alpha, broadcast input, beta=0 ignoring NaN,
# methods, in-place, out=, gradients and node names) and index_copy / index_fill (functions, methods,
# in-place, negative dims, gradients, messages), against PyTorch 1.13.
import torch

torch.manual_seed(0)
M = torch.randn(3, 5, requires_grad=True)
A = torch.randn(3, 4, requires_grad=True)
B = torch.randn(4, 5, requires_grad=True)
y = torch.addmm(M, A, B)
print(y, y.grad_fn.name())
print(torch.equal(torch.addmm(M, A, B, beta=0.5, alpha=2), 0.5 * M + 2 * (A @ B)))
print(torch.addmm(M, A, B, beta=0.5, alpha=2))
(y * torch.arange(15.).reshape(3, 5)).sum().backward()
print(M.grad, A.grad, B.grad, sep='\n')
bias = torch.randn(5)
print(torch.addmm(bias, A, B).sub(torch.nn.functional.linear(A, B.t(), bias)).abs().max().item() < 1e-6)
print(torch.addmm(torch.full((3, 5), float('nan')), A, B, beta=0).isnan().any())
print(M.detach().addmm(A.detach(), B.detach(), alpha=-1))
c = M.detach().clone()
print(c.addmm_(A.detach(), B.detach()) is c, torch.equal(c, torch.addmm(M, A, B).detach()))
o = torch.empty(3, 5)
torch.addmm(M.detach(), A.detach(), B.detach(), out=o)
print(torch.equal(o, c))
b1 = torch.randn(2, 3, 4, dtype=torch.float64)
b2 = torch.randn(2, 4, 2, dtype=torch.float64)
inp = torch.randn(2, 3, 2, dtype=torch.float64)
print(torch.baddbmm(inp, b1, b2).tolist())
print(torch.baddbmm(inp, b1, b2, beta=2, alpha=0.5).tolist(), inp.baddbmm(b1, b2).grad_fn)
print(torch.addbmm(torch.zeros(3, 2, dtype=torch.float64), b1, b2, alpha=3).tolist())
v = torch.randn(4)
print(torch.addmv(torch.randn(3), A.detach(), v), torch.addr(torch.zeros(3, 4), torch.arange(3.), torch.arange(4.)))
x = torch.ones(2, 3, requires_grad=True)
z = torch.addr(x, torch.tensor([1., 2.]), torch.tensor([1., 0., -1.]), beta=3)
print(z, z.grad_fn.name())

t = torch.zeros(5, 3)
src = torch.arange(6.).reshape(2, 3)
print(t.index_copy(0, torch.tensor([4, 1]), src), t.sum())
print(t.index_copy_(0, torch.tensor([0, 2]), src), t.index_copy(1, torch.tensor([2]), torch.ones(5, 1)))
print(torch.index_copy(torch.zeros(2, 4), -1, torch.tensor([3, 0]), torch.tensor([[1., 2.], [3., 4.]])))
s = torch.randn(2, 3, requires_grad=True)
base = torch.zeros(4, 3, requires_grad=True)
r = base.index_copy(0, torch.tensor([3, 1]), s)
print(r.grad_fn.name())
(r * torch.arange(12.).reshape(4, 3)).sum().backward()
print(s.grad, base.grad)
print(torch.ones(3, 4).index_fill(1, torch.tensor([0, 2]), -1.5), torch.index_fill(torch.ones(3), 0, torch.tensor([1]), torch.tensor(7.)))
w = torch.ones(2, 3, requires_grad=True)
q = w.index_fill(0, torch.tensor([1]), 0.)
q.sum().backward()
print(q.grad_fn.name(), w.grad)
u = torch.arange(6).reshape(2, 3)
print(u.index_fill_(1, torch.tensor([1]), 9), u)
for bad in [lambda: torch.zeros(3).index_copy(0, torch.tensor([0.]), torch.ones(1)),
            lambda: torch.zeros(3).index_copy(1, torch.tensor([0]), torch.ones(1)),
            lambda: torch.zeros(3).index_copy(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)),
            lambda: torch.zeros(3).index_fill(0, torch.tensor([0]), torch.ones(2)),
            lambda: torch.addmm(torch.zeros(4, 5), torch.ones(3, 4), torch.ones(4, 5)),
            lambda: torch.addr(torch.zeros(2, 2), torch.ones(2, 1), torch.ones(2))]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
