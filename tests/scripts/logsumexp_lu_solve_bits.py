# torch.logsumexp and torch.linalg.lu_solve / torch.lu_solve bit for bit against PyTorch 1.13:
# float32 logsumexp takes ATen's steps (amax, exp, ATen's sum, log, add), lu_solve LAPACK's getrs
# (float32 and float64; the gradient of B through the composition is not bit-exact).
import torch

torch.manual_seed(0)


def bits(t):
    return " ".join(float(v).hex() for v in t.flatten().tolist())


for shape, dims in [((7,), 0), ((5, 33), 1), ((33, 5), 0), ((4, 6, 9), (0, 2)), ((3, 100), -1), ((2, 1000), 1)]:
    x = torch.randn(*shape) * 4
    for keepdim in (False, True):
        r = torch.logsumexp(x, dims, keepdim=keepdim)
        print(shape, dims, keepdim, tuple(r.shape), bits(r)[:400])
x = torch.tensor([[float('inf'), 1.0], [-float('inf'), -float('inf')], [float('nan'), 0.0], [1e30, 1e30]])
print(torch.logsumexp(x, 1))
print(torch.logsumexp(torch.empty(0, 3), 0), torch.logsumexp(torch.arange(6).view(2, 3), 1))
g = torch.randn(4, 5, requires_grad=True)
y = torch.logsumexp(g, 1)
y.sum().backward()
print(y.grad_fn.name(), bits(y), bits(g.grad))

for n, k, batch in [(3, 2, ()), (5, 1, ()), (4, 3, (2,)), (6, 6, (2, 3))]:
    A = torch.randn(*batch, n, n)
    B = torch.randn(*batch, n, k)
    LU, piv = torch.linalg.lu_factor(A)
    for left, adjoint in [(True, False), (True, True), (False, False), (False, True)]:
        rhs = B if left else B.mT
        X = torch.linalg.lu_solve(LU, piv, rhs, left=left, adjoint=adjoint)
        print(n, k, batch, left, adjoint, bits(X))
    print(bits(torch.linalg.lu_solve(LU.double(), piv, B.double())))
A = torch.randn(2, 4, 4)
LU, piv = torch.linalg.lu_factor(A)
print(bits(torch.linalg.lu_solve(LU, piv, torch.randn(3, 1, 4, 2)).flatten()[:12]))
X = torch.lu_solve(torch.randn(2, 4, 3), LU, piv)
print(bits(X))
Bg = torch.randn(2, 4, 3, requires_grad=True)
X = torch.linalg.lu_solve(LU, piv, Bg)
X.sum().backward()
print(X.grad_fn.name(), bits(X), Bg.grad.shape)
