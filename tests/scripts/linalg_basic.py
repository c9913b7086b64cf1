# torch.linalg det, slogdet, inv, solve, vector_norm, matrix_norm, norm and torch.det,
# logdet, slogdet, inverse as functions and methods, with gradients, grad_fn names and
# errors (expected output from PyTorch 1.13).
import torch


def err(f):
    try:
        print(f())
    except Exception as e:  # torch.linalg.LinAlgError is a RuntimeError
        print("RuntimeError:" if isinstance(e, RuntimeError) else type(e).__name__ + ":", e)


A = torch.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]], dtype=torch.float64, requires_grad=True)
B = torch.tensor([[1.0, 2.0], [0.0, -1.0], [3.0, 1.0]], dtype=torch.float64, requires_grad=True)
N = torch.tensor([[0.0, 2.0], [3.0, 1.0]])

print("det")
print(torch.linalg.det(A), torch.det(N), N.det(), torch.det(torch.stack([N, N * 2])))
print(torch.det(torch.tensor([[1.0, 2.0], [2.0, 4.0]])))
d = A.det()
d.backward()
print(d.grad_fn.name(), A.grad)
A.grad = None
err(lambda: torch.det(torch.ones(2, 3)))
err(lambda: torch.det(torch.tensor([[1, 2], [3, 4]])))
err(lambda: torch.det(torch.ones(3)))

print("slogdet / logdet")
print(torch.linalg.slogdet(A), torch.slogdet(N), N.logdet(), torch.logdet(A))
r = torch.linalg.slogdet(A)
print(r.sign, r.logabsdet.grad_fn.name())
r.logabsdet.backward()
print(A.grad)
A.grad = None
l = torch.logdet(A)
l.backward()
print(l.grad_fn.name(), A.grad)
A.grad = None

print("inv")
print(torch.linalg.inv(A), torch.inverse(N), N.inverse(), torch.linalg.inv(torch.stack([N, N.t()])))
i = torch.linalg.inv(A)
i.sum().backward()
print(i.grad_fn.name(), A.grad)
A.grad = None
err(lambda: torch.linalg.inv(torch.tensor([[1.0, 2.0], [2.0, 4.0]])))
err(lambda: torch.inverse(torch.ones(2, 3)))

print("solve")
x = torch.linalg.solve(A, B)
print(x, (A @ x - B).abs().max() < 1e-12)
x.sum().backward()
print(x.grad_fn.name(), A.grad, B.grad)
A.grad = None
B.grad = None
v = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
print(torch.linalg.solve(A, v), torch.linalg.solve(N, torch.tensor([1.0, 1.0])))
print(torch.linalg.solve(torch.stack([N, N.t()]), torch.tensor([[1.0, 1.0], [2.0, 0.0]])))
err(lambda: torch.linalg.solve(A, torch.ones(2, dtype=torch.float64)))
err(lambda: torch.linalg.solve(torch.tensor([[1.0, 2.0], [2.0, 4.0]]), torch.ones(2)))

print("norms")
m = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], requires_grad=True)
print(torch.linalg.norm(m), torch.linalg.vector_norm(m), torch.linalg.vector_norm(m, 1), torch.linalg.vector_norm(m, float("inf")))
print(torch.linalg.vector_norm(m, 3, dim=1), torch.linalg.vector_norm(m, dim=(0, 1), keepdim=True), torch.linalg.norm(m, dim=1))
print(torch.linalg.matrix_norm(m), torch.linalg.matrix_norm(m, 1), torch.linalg.matrix_norm(m, -1), torch.linalg.matrix_norm(m, float("inf")))
print(torch.linalg.norm(m, "fro"), torch.linalg.norm(m, float("-inf")), torch.linalg.norm(m[0], 1), torch.linalg.norm(m, 1, dim=(1, 0)))
n = torch.linalg.norm(m)
n.backward()
print(n.grad_fn.name(), m.grad)
m.grad = None
k = torch.linalg.matrix_norm(m, 1)
k.backward()
print(k.grad_fn.name(), m.grad)
err(lambda: torch.linalg.vector_norm(torch.tensor([1, 2])))
err(lambda: torch.linalg.matrix_norm(torch.ones(3)))

print("cholesky")
C = torch.tensor([[4.0, 1, 2], [1, 3, 0.5], [2, 0.5, 5]], requires_grad=True)
L = torch.linalg.cholesky(C)
print(L, torch.linalg.cholesky(C, upper=True), torch.cholesky(C.detach()), C.detach().cholesky())
print(torch.linalg.cholesky(torch.stack([C.detach(), C.detach() * 2])))
L.sum().backward()
print(L.grad_fn.name(), C.grad)
C.grad = None
U = torch.linalg.cholesky(C, upper=True)
(U * torch.arange(9.0).reshape(3, 3)).sum().backward()
print(C.grad, torch.cholesky(C).grad_fn.name())
err(lambda: torch.linalg.cholesky(torch.tensor([[1.0, 2], [2, 1]])))
err(lambda: torch.linalg.cholesky(torch.ones(2, 3)))
