# torch.linalg names beyond the decompositions, written in the language as PyTorch 1.13 defines
# them: matmul and diagonal (other names of torch's), vander, cond, tensorinv, tensorsolve, and
# solve_ex / inv_ex, which PyTorch computes from lu_factor_ex and lu_solve (getrf, getrs): a
# singular matrix gives LAPACK's info and the infinities or NaNs that getrs leaves (an
# invertible one: torch.linalg.solve's result).
import torch

matmul = torch.matmul


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return torch.diagonal(A, offset, dim1, dim2)


def vander(x, *, N=None):
    # x's powers 0 .. N-1 along a new last dim (cumulative products, as ATen)
    if x.dim() < 1:
        raise RuntimeError("linalg.vander: x must have at least one dimension. Got a 0-dimensional tensor.")
    n = x.size(-1) if N is None else N
    if n <= 1:
        if n < 1:
            raise RuntimeError("linalg.vander: N must be greater than 1.")
        return torch.ones_like(x).unsqueeze(-1)
    powers = torch.cumprod(x.unsqueeze(-1).expand(*x.shape, n - 1), -1)
    return torch.cat([torch.ones_like(x).unsqueeze(-1), powers], -1)


def cond(A, p=None, *, out=None):
    # the ratio of the largest to the smallest singular value (p None, 2, -2), else
    # norm(A, p) * norm(inv(A), p)
    if p is None or p in (2, -2):
        s = torch.linalg.svdvals(A)
        r = s[..., 0] / s[..., -1] if p in (None, 2) else s[..., -1] / s[..., 0]
    else:
        r = torch.linalg.matrix_norm(A, p) * torch.linalg.matrix_norm(torch.linalg.inv(A), p)
    if out is not None:
        out.resize_(r.shape).copy_(r)
        return out
    return r


def tensorinv(A, ind=2, *, out=None):
    if ind <= 0:
        raise RuntimeError("Expected a strictly positive integer for 'ind', but got {}".format(ind))
    rows, cols = A.shape[:ind], A.shape[ind:]
    n = 1
    for s in rows:
        n *= s
    r = torch.linalg.inv(A.reshape(n, -1)).reshape(tuple(cols) + tuple(rows))
    if out is not None:
        out.resize_(r.shape).copy_(r)
        return out
    return r


def tensorsolve(A, B, dims=None, *, out=None):
    if dims is not None:
        nd = A.dim()
        rest = [d for d in range(nd) if d not in [x % nd for x in dims]]
        A = A.permute(rest + [x % nd for x in dims])
    n = B.numel()
    r = torch.linalg.solve(A.reshape(n, -1), B.reshape(n)).reshape(A.shape[B.dim():])
    if out is not None:
        out.resize_(r.shape).copy_(r)
        return out
    return r


def _renamed_error(f, name):
    # f() raises PyTorch's error for torch.linalg.NAME; raise it for NAME_ex
    try:
        f()
    except RuntimeError as e:
        raise type(e)(str(e).replace("linalg." + name + ":", "linalg." + name + "_ex:", 1)) from None


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    # PyTorch factors a contiguous real A through its transpose (LAPACK reads it column-major)
    # and solves with the adjoint: the info, and what a singular matrix leaves, are of that
    transposed = A.is_contiguous() and not A.is_complex()
    LU, pivots, info = torch.linalg.lu_factor_ex(A.mT if transposed else A)
    if check_errors and bool((info > 0).any()):
        _renamed_error(lambda: torch.linalg.solve(A, B, left=left), "solve")
    if not bool((info > 0).any()):
        return torch.return_types.linalg_solve_ex((torch.linalg.solve(A, B, left=left), info))
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and B.shape == A.shape[:-1])
    X = torch.linalg.lu_solve(LU, pivots, B.unsqueeze(-1) if vector else B, left=left, adjoint=transposed)
    return torch.return_types.linalg_solve_ex((X.squeeze(-1) if vector else X, info))


def inv_ex(A, *, check_errors=False, out=None):
    inverse, info = solve_ex(A, torch.eye(A.size(-1), dtype=A.dtype, device=A.device).expand(A.shape))
    if check_errors and bool((info > 0).any()):
        _renamed_error(lambda: torch.linalg.inv(A), "inv")
    return torch.return_types.linalg_inv_ex((inverse, info))
