# torch.linalg names beyond the decompositions, written in the language as PyTorch 1.13 defines
# them: matmul and diagonal (other names of torch's), vander, cond, tensorinv, tensorsolve, and
# the *_ex forms (inv_ex, cholesky_ex, solve_ex, lu_factor_ex) that return an info tensor. A
# failing *_ex without check_errors returns info 1 and a NaN result where LAPACK's partial one
# would be.
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


def _ex(f, name, check_errors, fail):
    try:
        r = f()
        info = torch.zeros(r[0].shape[:-2] if isinstance(r, tuple) else r.shape[:-2], dtype=torch.int32)
    except RuntimeError as e:
        if check_errors:
            raise type(e)(str(e).replace("linalg." + name + ":", "linalg." + name + "_ex:", 1))
        r, info = fail(), torch.ones((), dtype=torch.int32)
    return r, info


def inv_ex(A, *, check_errors=False, out=None):
    r, info = _ex(lambda: torch.linalg.inv(A), "inv", check_errors, lambda: torch.full_like(A, float("nan")))
    return torch.return_types.linalg_inv_ex((r, info))


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    r, info = _ex(lambda: torch.linalg.cholesky(A, upper=upper), "cholesky", check_errors,
                  lambda: torch.full_like(A, float("nan")))
    return torch.return_types.linalg_cholesky_ex((r, info))


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    r, info = _ex(lambda: torch.linalg.solve(A, B, left=left), "solve", check_errors,
                  lambda: torch.full_like(B, float("nan")))
    return torch.return_types.linalg_solve_ex((r, info))


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    r, info = _ex(lambda: tuple(torch.linalg.lu_factor(A, pivot=pivot)), "lu_factor", check_errors,
                  lambda: (torch.full_like(A, float("nan")), torch.zeros(A.shape[:-1], dtype=torch.int32)))
    return torch.return_types.linalg_lu_factor_ex((r[0], r[1], info))
