# torch.cholesky_solve, torch.linalg.lu_solve, torch.lu_solve (torch_lu_solve here) and torch.chain_matmul, written in
# the language as PyTorch 1.13 defines them (arguments, batch broadcasting, messages, warnings):
# the solves are triangular solves (torch.linalg.solve_triangular) with the row swaps of the LU's
# pivots, as LAPACK's potrs and getrs order them; the nodes carry 1.13's names. The values of
# cholesky_solve come from nnscope's substitution, not LAPACK's trsm, so the last bits can differ;
# lu_solve's real values are LAPACK's getrs (torch._nnscope_lu_solve), as ATen calls it.
import warnings
import torch

_NAMES = {torch.float32: "Float", torch.float64: "Double", torch.complex64: "ComplexFloat",
          torch.complex128: "ComplexDouble"}
_warned = set()


def _named(r, name, *inputs):
    torch._nnscope_name_grad_fn(r, name, *inputs)
    return r


def _cholesky_solve(b, u, upper):
    if upper:
        return torch.linalg.solve_triangular(u, torch.linalg.solve_triangular(u.mH, b, upper=False), upper=True)
    return torch.linalg.solve_triangular(u.mH, torch.linalg.solve_triangular(u, b, upper=False), upper=True)


class _CholeskySolve(torch.autograd.Function):
    # X of A X = B with A = u u^H (u^H u when upper); 1.13's derivative (cholesky_solve_backward)
    _node_name = "CholeskySolveBackward0"

    @staticmethod
    def forward(ctx, b, u, upper):
        x = _cholesky_solve(b, u, upper)
        ctx.save_for_backward(u, x)
        ctx.upper, ctx.b_shape = upper, b.shape
        return x

    @staticmethod
    def backward(ctx, grad_x):
        u, x = ctx.saved_tensors
        grad_b = _CholeskySolve.apply(grad_x, u, ctx.upper)
        common = grad_b @ x.mH
        common = common + common.mH
        grad_u = -(u @ common) if ctx.upper else -(common @ u)
        return grad_b.sum_to_size(ctx.b_shape), grad_u.sum_to_size(u.shape), None


def cholesky_solve(input, input2, upper=False, *, out=None):
    # A X = B with A = L L^H (or U^H U): two triangular solves
    if input.dim() < 2:
        raise RuntimeError("b should have at least 2 dimensions, but has {} dimensions instead".format(input.dim()))
    if input2.dim() < 2:
        raise RuntimeError("u should have at least 2 dimensions, but has {} dimensions instead".format(input2.dim()))
    if input.dtype != input2.dtype:
        raise RuntimeError("Expected b and A to have the same dtype, but found b of type {} and A of type {} "
                           "instead.".format(_NAMES.get(input.dtype, input.dtype), _NAMES.get(input2.dtype, input2.dtype)))
    n, m = input2.shape[-2:]
    if n != m:
        raise RuntimeError("A must be batches of square matrices, but they are {} by {} matrices".format(n, m))
    if input.shape[-2] != n:
        raise RuntimeError("Incompatible matrix sizes for cholesky_solve: each A matrix is {} by {} but each b matrix "
                           "is {} by {}".format(n, m, input.shape[-2], input.shape[-1]))
    x = _CholeskySolve.apply(input, input2, upper)
    if out is not None:
        out.resize_(x.shape).copy_(x)
        return out
    return x


def _row_order(pivots, n):
    # LAPACK's pivots (1-based row swaps, in order) as the permutation of rows they make
    order = list(range(n))
    for i, p in enumerate(pivots.tolist()):
        p -= 1
        order[i], order[p] = order[p], order[i]
    return order


def _permute_rows(B, pivots, inverse):
    # P^T B (the swaps applied in order), or P B (inverse: undone in reverse order)
    n = B.shape[-2]
    if pivots.dim() == 1:
        order = _row_order(pivots, n)
        if inverse:
            back = [0] * n
            for i, r in enumerate(order):
                back[r] = i
            order = back
        return B[..., order, :]
    P = torch.lu_unpack(torch.zeros(tuple(pivots.shape) + (n,), dtype=B.dtype), pivots, unpack_data=False)[0]
    return (P @ B) if inverse else (P.mT @ B)


def _lu_solve(LU, pivots, B, left, adjoint):
    if not left:  # X A = B: A^H X^H = B^H
        return _lu_solve(LU, pivots, B.mH, True, not adjoint).mH
    if not adjoint:  # P L U X = B
        y = torch.linalg.solve_triangular(LU, _permute_rows(B, pivots, False), upper=False, unitriangular=True)
        return torch.linalg.solve_triangular(LU, y, upper=True)
    # U^H L^H P^T X = B
    y = torch.linalg.solve_triangular(LU.mH, B, upper=False)
    y = torch.linalg.solve_triangular(LU.mH, y, upper=True, unitriangular=True)
    return _permute_rows(y, pivots, True)


def _getrs(LU, pivots, B, left, adjoint):
    # ATen's values: getrs over the broadcast batch (X A = B solved as A^H X^H = B^H); None for
    # complex matrices
    if LU.is_complex() or LU.dtype not in (torch.float32, torch.float64):
        return None
    if not left:
        return _getrs(LU, pivots, B.mT, True, not adjoint).mT
    batch = torch.broadcast_shapes(LU.shape[:-2], B.shape[:-2], pivots.shape[:-1])
    n = LU.shape[-1]
    return torch._nnscope_lu_solve(LU.expand(batch + (n, n)), pivots.expand(batch + (n,)),
                                   B.expand(batch + tuple(B.shape[-2:])), adjoint)


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    f = "linalg.lu_solve"
    if LU.dim() < 2:
        raise RuntimeError("torch.linalg.lu_solve: The input tensor LU must have at least 2 dimensions.")
    if B.dim() < 2:
        raise RuntimeError(f + ": The input tensor B must have at least 2 dimensions.")
    n = LU.shape[-1]
    if LU.shape[-2] != n:
        raise RuntimeError(f + ": A must be batches of square matrices, but they are {} by {} matrices".format(
            LU.shape[-2], n))
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise RuntimeError(f + ": Incompatible shapes of A and B for the equation {} ({}x{} and {}x{})".format(
            "AX = B" if left else "XA = B", n, n, B.shape[-2], B.shape[-1]))
    if pivots.dtype != torch.int32:
        raise RuntimeError(f + ": pivots should be a Tensor of scalar type torch.int32")
    if LU.dtype != B.dtype:
        raise RuntimeError(f + ": Expected LU and B to have the same dtype, but found LU of type {} and B of type {} "
                           "instead".format(_NAMES.get(LU.dtype, LU.dtype), _NAMES.get(B.dtype, B.dtype)))
    exact = _getrs(LU, pivots, B, left, adjoint)
    if exact is not None and not (torch.is_grad_enabled() and (LU.requires_grad or B.requires_grad)):
        x = exact
    else:  # the composition carries the gradient; its values are getrs's
        x = _named(_lu_solve(LU, pivots, B, left, adjoint), "LinalgLuSolveBackward0", LU, B)
        if exact is not None:
            x.data = exact
    if out is not None:
        out.resize_(x.shape).copy_(x)
        return out
    return x


def torch_lu_solve(b, LU_data, LU_pivots, *, out=None):
    if "lu_solve" not in _warned:
        _warned.add("lu_solve")
        warnings.warn("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future "
                      "PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = "
                      "torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B) "
                      "(Triggered internally at  ./aten/src/ATen/native/BatchLinearAlgebra.cpp:2072.)", UserWarning,
                      stacklevel=3)  # the caller of torch._aliases.lu_solve
    return lu_solve(LU_data, LU_pivots, b, out=out)


def chain_matmul(*matrices, out=None):
    if "chain_matmul" not in _warned:
        _warned.add("chain_matmul")
        warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
                      "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
                      "multiple parameters. (Triggered internally at  ./aten/src/ATen/native/LinearAlgebra.cpp:967.)",
                      UserWarning, stacklevel=2)
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for m in matrices:
        if m.dim() != 2:
            raise RuntimeError("Tensor dimension is {}, expected 2 instead.".format(m.dim()))
    r = matrices[0].clone() if len(matrices) == 1 else torch.linalg.multi_dot(list(matrices))
    if out is not None:
        out.resize_(r.shape).copy_(r)
        return out
    return r
