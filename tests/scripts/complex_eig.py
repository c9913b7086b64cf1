# torch.linalg.eig / eigvals (LAPACK's geev): complex results in LAPACK's order, unit eigenvectors
import torch

A = torch.tensor([[2.0, 0.0], [0.0, 3.0]])
print(torch.linalg.eigvals(A))
L, V = torch.linalg.eig(A)
print(L, V)
R = torch.tensor([[0.0, -1.0], [1.0, 0.0]])  # a rotation: eigenvalues +-i
out = torch.linalg.eig(R)
print(out.eigenvalues, out.eigenvectors)
print(torch.linalg.eigvals(R))
T = torch.tensor([[4.0, 1.0], [2.0, 3.0]], dtype=torch.float64)
L, V = torch.linalg.eig(T)
print(L, V.abs())
# A V = V diag(L), checked through the complex matmul
print(torch.allclose(torch.view_as_real(T.to(torch.complex128) @ V), torch.view_as_real(V * L)))
B = torch.stack([torch.eye(3) * 2, torch.tensor([[1.0, 2.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 5.0]])])
print(torch.linalg.eigvals(B))
for expr in ["torch.linalg.eig(torch.ones(2, 3))", "torch.linalg.eigvals(torch.ones(2, 2, dtype=torch.long))",
             "torch.linalg.eig(torch.ones(3))"]:
    try:
        print(expr, eval(expr))
    except Exception as e:
        print(expr, type(e).__name__, e)
