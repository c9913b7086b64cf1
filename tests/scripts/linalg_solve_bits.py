# torch.linalg.solve / inv to the last bit of PyTorch 1.13's: ATen factors a contiguous A
# through its transpose (the column-major matrix its memory is) and solves with getrs('T');
# a non-contiguous A (a transposed view) through its own LU
import torch

torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    A = torch.randn(5, 5, dtype=dtype)
    B = torch.randn(5, 3, dtype=dtype)
    b = torch.randn(5, dtype=dtype)
    print(torch.linalg.solve(A, B).tolist())
    print(torch.linalg.solve(A, b).tolist())
    print(torch.linalg.inv(A).tolist())
    print(torch.inverse(A.mT).tolist())             # a view: A's own factorization
    print(torch.linalg.solve(A.mT, B).tolist())
    batch = torch.randn(3, 4, 4, dtype=dtype)
    print(torch.linalg.inv(batch).tolist())
    print(torch.linalg.solve(batch, torch.randn(3, 4, 2, dtype=dtype)).tolist())
    print(torch.linalg.matrix_power(A, -2).tolist())
    print(torch.linalg.inv_ex(A).inverse.equal(torch.linalg.inv(A)))

# the normal equations of a small regression, as tutorials write them
X = torch.cat([torch.ones(20, 1), torch.randn(20, 2)], 1)
y = X @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.1 * torch.randn(20, 1)
w = torch.inverse(X.T @ X) @ X.T @ y
print(w.tolist(), torch.linalg.solve(X.T @ X, X.T @ y).tolist())
