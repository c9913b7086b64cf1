# torch.linalg.lu_factor, torch.linalg.lu, torch.lu and torch.lu_unpack on square
# matrices, with their gradients (issue 16)
import torch


def show(name, f):
    try:
        r = f()
        print(name, r)
    except Exception as e:
        print(name, type(e).__name__, e)


A = torch.tensor([[1., 2., 0.], [3., 4., 1.], [0., 1., 5.]])
S = torch.tensor([[1., 2.], [2., 4.]])
show("lu_factor", lambda: torch.linalg.lu_factor(A))
show("lu", lambda: torch.linalg.lu(A))
show("lu f64", lambda: torch.linalg.lu(A.double()))
show("lu batch", lambda: torch.linalg.lu_factor(torch.stack([A, A.T, A * 2])))
show("lu_factor singular", lambda: torch.linalg.lu_factor(S))
show("lu_factor batch singular", lambda: torch.linalg.lu_factor(torch.stack([A, torch.zeros(3, 3)])))
show("lu singular", lambda: torch.linalg.lu(S))
show("torch.lu", lambda: torch.lu(A))
show("torch.lu singular", lambda: torch.lu(S))
show("lu_unpack", lambda: torch.lu_unpack(*torch.linalg.lu_factor(A)))
show("lu int", lambda: torch.linalg.lu(torch.eye(2, dtype=torch.long)))
show("lu half", lambda: torch.linalg.lu(A.half()))
show("lu 1d", lambda: torch.linalg.lu(torch.ones(3)))
show("lu no pivot", lambda: torch.linalg.lu(A, pivot=False))
show("lu_factor no pivot", lambda: torch.linalg.lu_factor(A, pivot=False))
show("empty", lambda: torch.linalg.lu_factor(torch.zeros(0, 0)))
LU, piv = torch.linalg.lu_factor(A)
P, L, U = torch.linalg.lu(A)
print("P @ L @ U == A", torch.allclose(P @ L @ U, A), piv.dtype)
torch.manual_seed(0)
B = torch.randn(4, 5, 5, dtype=torch.float64)
P, L, U = torch.linalg.lu(B)
print("batch reconstruct", torch.allclose(P @ L @ U, B), torch.linalg.lu_factor(B).pivots)
X = A.clone().requires_grad_()
LU, piv = torch.linalg.lu_factor(X)
print(LU.grad_fn.name())
(LU * torch.arange(9.).view(3, 3)).sum().backward()
print("lu_factor grad", X.grad)
X.grad = None
P, L, U = torch.linalg.lu(X)
print(L.grad_fn.name(), U.grad_fn is L.grad_fn, P.requires_grad)
(L.sum() + (U * U).sum()).backward()
print("lu grad", X.grad)
X.grad = None
torch.linalg.lu(X).U.trace().backward()
print("lu U only grad", X.grad)
