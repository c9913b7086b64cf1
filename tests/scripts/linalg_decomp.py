# torch.linalg qr, svd, svdvals, eigh, eigvalsh, pinv, matrix_rank, lstsq, matrix_power,
# multi_dot, matrix_norm ord 2/-2/'nuc', LinAlgError, and torch.qr/svd/symeig/pinverse/
# matrix_power, with gradients and errors (expected output from PyTorch 1.13). Factors
# whose signs LAPACK chooses are printed as invariants (|x|, products) where a batch or a
# gradient could depend on them.
import torch


def z(t):  # rounding noise (|x| < 1e-5, which LAPACK builds may compute differently) as 0
    return torch.where(t.abs() < 1e-5, torch.zeros_like(t), t)


def err(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)


A = torch.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]], dtype=torch.float64)
T = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
W = torch.tensor([[2.0, -1.0, 0.5, 1.0], [0.0, 3.0, 1.0, -2.0]], dtype=torch.float64)

print("qr")
q, r = torch.linalg.qr(A)
print(z(q), r)
q, r = torch.linalg.qr(T)
print(z(q), r, torch.linalg.qr(T, mode="complete").Q.shape, torch.linalg.qr(T, mode="r"))
print(z(torch.qr(T).Q), torch.qr(T).R, torch.qr(T, some=False).R, T.qr().Q.shape)
qb, rb = torch.linalg.qr(torch.stack([A, A * 2]))
print((qb @ rb - torch.stack([A, A * 2])).abs().max() < 1e-12, qb.shape)
err(lambda: torch.linalg.qr(T, mode="x"))
err(lambda: torch.linalg.qr(torch.ones(3)))

print("svd")
u, s, vh = torch.linalg.svd(A)
print(u, s, vh)
print(torch.linalg.svd(T, full_matrices=False))
print(torch.linalg.svd(T).U.shape, torch.linalg.svd(W).Vh.shape, torch.linalg.svd(W, full_matrices=False).Vh.shape)
print(torch.linalg.svdvals(W), torch.linalg.svdvals(torch.stack([T, T.flip(0)])))
r = torch.svd(T)
print(r.U.shape, r.S, r.V.shape, torch.svd(T, some=False).V.shape, T.svd().S)
print(torch.svd(T, compute_uv=False))
ub, sb, vb = torch.linalg.svd(torch.stack([W, -W]), full_matrices=False)
print(sb, (ub @ torch.diag_embed(sb) @ vb - torch.stack([W, -W])).abs().max() < 1e-12)

print("eigh")
w, v = torch.linalg.eigh(A)
print(w, v.abs())
print(torch.linalg.eigh(A, UPLO="U").eigenvalues, torch.linalg.eigvalsh(torch.stack([A, A.triu()]), UPLO="U"))
print(torch.linalg.eigvalsh(A.tril()), torch.linalg.eigvalsh(A.float()))
print(torch.symeig(A).eigenvalues, torch.symeig(A, eigenvectors=True).eigenvectors.abs())
err(lambda: torch.linalg.eigh(A, UPLO="X"))
err(lambda: torch.linalg.eigh(T))

print("pinv / matrix_rank")
print(torch.linalg.pinv(W), z(torch.linalg.pinv(T)), z(torch.pinverse(T)), z(T.pinverse()))
print(z(torch.linalg.pinv(A, hermitian=True)), torch.linalg.pinv(torch.ones(2, 2), rtol=0.5))
print(torch.linalg.pinv(torch.zeros(3, 0)).shape)
S = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
print(torch.linalg.matrix_rank(S), torch.linalg.matrix_rank(A), torch.linalg.matrix_rank(torch.stack([S, S.t(), torch.zeros(3, 3)])))
print(torch.linalg.matrix_rank(S, hermitian=True), torch.linalg.matrix_rank(S, tol=2.0), torch.linalg.matrix_rank(S, atol=0.5, rtol=0.4))

print("lstsq")
b = torch.tensor([[1.0], [2.0], [2.0]])
print(torch.linalg.lstsq(T, b))
for d in ["gels", "gelsy", "gelsd", "gelss"]:
    print(d, torch.linalg.lstsq(T, b, driver=d))
print(torch.linalg.lstsq(A, torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).solution)
print(torch.linalg.lstsq(torch.stack([T, T * 2]), torch.stack([b, 2 * b])).solution)
err(lambda: torch.linalg.lstsq(torch.stack([T, T * 2]), b))
err(lambda: torch.linalg.lstsq(T, b, driver="foo"))
err(lambda: torch.linalg.lstsq(T, torch.ones(2, 1)))

print("matrix_power / multi_dot")
print(torch.linalg.matrix_power(A, 0), torch.linalg.matrix_power(A, 3), torch.matrix_power(A, -1), A.matrix_power(6))
M = torch.tensor([[1.0, 1.0], [1.0, 0.0]])
print(torch.linalg.matrix_power(M, 10), torch.linalg.matrix_power(torch.stack([M, 2 * M]), 5))
err(lambda: torch.linalg.matrix_power(T, 2))
x = torch.tensor([1.0, 2.0])
print(torch.linalg.multi_dot([T.t(), T, x]), torch.linalg.multi_dot([x, T.t(), T, M, x]))
print(torch.linalg.multi_dot([T, M, M.t(), T.t()]))
err(lambda: torch.linalg.multi_dot([T]))
err(lambda: torch.linalg.multi_dot([T, T]))

print("matrix norms")
print(torch.linalg.matrix_norm(A, 2), torch.linalg.matrix_norm(A, -2), torch.linalg.matrix_norm(A, "nuc"))
print(torch.linalg.norm(T, 2), torch.linalg.norm(T, "nuc"), torch.linalg.matrix_norm(torch.stack([T, 2 * T]), 2))
print(torch.linalg.matrix_norm(T, "nuc", keepdim=True), torch.linalg.matrix_norm(torch.ones(2, 3, 4), 2, dim=(0, 2)))

print("LinAlgError")
try:
    torch.linalg.inv(torch.zeros(2, 2))
except torch.linalg.LinAlgError as e:
    print(isinstance(e, RuntimeError), torch.linalg.LinAlgError.__name__ == "_LinAlgError", e)
try:
    torch.linalg.cholesky(-torch.eye(2))
except RuntimeError as e:
    print(isinstance(e, torch.linalg.LinAlgError), e)
err(lambda: torch.linalg.solve(torch.ones(2, 2), torch.ones(2)))

print("gradients")
X = A.clone().requires_grad_()
w, v = torch.linalg.eigh(X)
print(w.grad_fn.name(), v.grad_fn.name())
w.pow(2).sum().backward()
print(X.grad)
X.grad = None
torch.linalg.eigvalsh(X).sum().backward()
print(z(X.grad))
X.grad = None
s = torch.linalg.svdvals(X)
print(s.grad_fn.name())
s.sum().backward()
print(z(X.grad))
Y = W.clone().requires_grad_()
u, s, vh = torch.linalg.svd(Y, full_matrices=False)
print(u.grad_fn.name(), s.grad_fn.name())
(u @ vh).sum().backward()
print(Y.grad)
Y.grad = None
torch.linalg.matrix_norm(Y, "nuc").backward()
print(Y.grad)
Y.grad = None
P = torch.linalg.pinv(Y)
P.sum().backward()
print(P, Y.grad)
Z = T.clone().requires_grad_()
r = torch.svd(Z)
print(r.V.grad_fn.name())
(r.U.abs().sum() + r.S.sum()).backward()
print(Z.grad)
Z.grad = None
torch.linalg.matrix_power(Z[:2], 3).sum().backward()
print(Z.grad)
Q = torch.tensor([[2.0, -1.0, 0.5], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0], [1.0, 0.0, -2.0]], dtype=torch.float64, requires_grad=True)
q, r = torch.linalg.qr(Q)
print(q.grad_fn.name(), r.grad_fn.name())
(q.sum() + r.pow(2).sum()).backward()
print(Q.grad)
Q.grad = None
q, r = torch.linalg.qr(Q.t())
(q.sum() + r.sum()).backward()
print(Q.grad)
Q.grad = None
err(lambda: torch.linalg.qr(Q, mode="r").R.sum().backward())
err(lambda: torch.linalg.qr(Q, mode="complete").Q.sum().backward())
Bv = torch.tensor([[1.0, 2.0, 0.0, -1.0], [0.5, 0.0, 1.0, 1.0]], dtype=torch.float64).t().requires_grad_()
sol = torch.linalg.lstsq(Q, Bv).solution
print(sol.grad_fn.name(), torch.linalg.lstsq(Q, Bv, driver="gelsd").residuals.grad_fn)
sol.pow(2).sum().backward()
print(Q.grad, Bv.grad)

print("batched errors")
I2 = torch.eye(2)
err(lambda: torch.linalg.inv(torch.stack([I2, torch.zeros(2, 2)])))
err(lambda: torch.linalg.cholesky(torch.stack([I2, -I2])))
err(lambda: torch.linalg.solve(torch.stack([I2, torch.zeros(2, 2)]), torch.ones(2, 2, 1)))
err(lambda: torch.linalg.solve(torch.zeros(2, 2), torch.ones(3, 2, 1)))
err(lambda: torch.linalg.lstsq(torch.zeros(3, 2), torch.ones(3, 1), driver="gels"))
err(lambda: torch.linalg.lstsq(torch.zeros(2, 3, 2), torch.ones(2, 3, 1), driver="gels"))
err(lambda: torch.linalg.svd(torch.ones(3)))
err(lambda: torch.linalg.svdvals(torch.tensor([[1, 2]])))
err(lambda: torch.linalg.pinv(torch.zeros(2, 2)))
err(lambda: torch.linalg.matrix_rank(torch.zeros(0, 3)))
err(lambda: torch.linalg.svd(torch.zeros(0, 3)))
err(lambda: torch.linalg.qr(torch.zeros(0, 3)))
err(lambda: torch.linalg.eigh(torch.zeros(0, 0)))
err(lambda: torch.linalg.lstsq(torch.ones(3, 2, dtype=torch.float64), torch.ones(3, 1)))
err(lambda: torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(2, 3)]))
err(lambda: torch.linalg.matrix_power(torch.ones(2, 2), 2.5))
