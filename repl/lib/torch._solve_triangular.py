# torch.linalg.solve_triangular, torch.triangular_solve and Tensor.triangular_solve, written
# in the language as PyTorch 1.13 defines them: arguments, batch broadcasting, dtype
# promotion and its error messages. The solve is row-by-row substitution over nnscope's
# ops (PyTorch's values come from LAPACK's trsm, so the last bits can differ); its node is
# PyTorch's (LinalgSolveTriangularBackward0, TriangularSolveBackward0), with 1.13's
# derivative, itself a triangular solve, so second derivatives flow too.
import warnings
import torch

_NAMES = {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half", torch.bfloat16: "BFloat16",
          torch.int64: "Long", torch.int32: "Int", torch.int16: "Short", torch.int8: "Char", torch.uint8: "Byte",
          torch.bool: "Bool"}
_warned = [False]


def _shape(t):
    return "x".join(str(s) for s in t.shape)


def _batch_shape(a, b):
    # torch's broadcast of two batch shapes; a and b as its message names them
    n = max(len(a), len(b))
    a = [1] * (n - len(a)) + list(a)
    b = [1] * (n - len(b)) + list(b)
    out = []
    for i in range(n):
        if a[i] != b[i] and a[i] != 1 and b[i] != 1:
            raise RuntimeError("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton "
                               "dimension {}".format(a[i], b[i], i))
        out.append(b[i] if a[i] == 1 else a[i])
    return out


def _substitute(A, B, upper, unitriangular):
    # X with A X = B, A [..., n, n] triangular, B [..., n, k], one row of X at a time
    n = A.shape[-1]
    order = range(n - 1, -1, -1) if upper else range(n)
    rows = [None] * n
    for i in order:
        r = B[..., i:i + 1, :]
        done = [j for j in range(i + 1, n)] if upper else list(range(i))
        if done:
            lo, hi = done[0], done[-1] + 1
            r = r - A[..., i:i + 1, lo:hi] @ torch.cat(rows[lo:hi], -2)
        if not unitriangular:
            r = r / A[..., i:i + 1, i:i + 1]
        rows[i] = r
    return torch.cat(rows, -2)


def _value(A, B, upper, left, unitriangular):
    # X with A X = B (left) or X A = B, A and B of one dtype and batch shape
    if not left:  # X A = B: A^T X^T = B^T
        return _value(A.transpose(-2, -1), B.transpose(-2, -1), not upper, True,
                      unitriangular).transpose(-2, -1).contiguous()
    if A.shape[-1] == 0 or B.shape[-1] == 0:
        return torch.zeros(B.shape, dtype=B.dtype)
    return _substitute(A, B, upper, unitriangular)


def _masked(G, upper, unitriangular):
    # a gradient for A: its triangle (without the diagonal when unitriangular)
    return G.triu(1 if unitriangular else 0) if upper else G.tril(-1 if unitriangular else 0)


class _SolveTriangular(torch.autograd.Function):
    _node_name = "LinalgSolveTriangularBackward0"

    @staticmethod
    def forward(ctx, A, B, upper, left, unitriangular):
        X = _value(A, B, upper, left, unitriangular)
        ctx.save_for_backward(A, X)
        ctx.flags = (upper, left, unitriangular)
        return X

    @staticmethod
    def backward(ctx, grad):
        A, X = ctx.saved_tensors
        upper, left, unit = ctx.flags
        gB = _SolveTriangular.apply(A.transpose(-2, -1), grad, not upper, left, unit)
        gA = None
        if ctx.needs_input_grad[0]:
            gA = _masked(-(gB @ X.transpose(-2, -1)) if left else -(X.transpose(-2, -1) @ gB), upper, unit)
        return gA, gB, None, None, None


class _TriangularSolve(torch.autograd.Function):
    # (solution, cloned_coefficient) of torch.triangular_solve
    _node_name = "TriangularSolveBackward0"

    @staticmethod
    def forward(ctx, b, A, upper, transpose, unitriangular):
        M = A.transpose(-2, -1) if transpose else A
        X = _value(M, b, upper != transpose, True, unitriangular)
        ctx.save_for_backward(A, X)
        ctx.flags = (upper, transpose, unitriangular)
        return X, A.clone()

    @staticmethod
    def backward(ctx, grad_x, grad_m):
        A, X = ctx.saved_tensors
        upper, transpose, unit = ctx.flags
        gb = _TriangularSolve.apply(grad_x, A, upper, not transpose, unit)[0]
        gA = None
        if ctx.needs_input_grad[1]:
            gA = _masked(-(X @ gb.transpose(-2, -1)) if transpose else -(gb @ X.transpose(-2, -1)), upper, unit)
            gA = gA + grad_m
        return gb, gA, None, None, None


def _operands(A, B):
    # A and B in their promoted dtype, broadcast to one batch shape
    dtype = torch.promote_types(A.dtype, B.dtype)
    if dtype not in (torch.float32, torch.float64):
        raise RuntimeError('"triangular_solve_cpu" not implemented for \'{}\''.format(_NAMES[dtype]))
    batch = _batch_shape(B.shape[:-2], A.shape[:-2])
    return A.to(dtype).expand(*batch, A.shape[-2], A.shape[-1]), B.to(dtype).expand(*batch, B.shape[-2], B.shape[-1])


def _check_bool(f, name, v):
    if not isinstance(v, bool):
        raise TypeError("{}(): argument '{}' must be bool, not {}".format(f, name, type(v).__name__))


def solve_triangular(*args, **kwargs):
    f = "linalg_solve_triangular"
    if len(args) > 2:
        raise TypeError("{}() takes from 3 to 2 positional arguments but {} were given".format(f, len(args)))
    names = ["A", "B"]
    given = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in ("A", "B", "upper", "left", "unitriangular", "out"):
            raise TypeError("{}() got an unexpected keyword argument '{}'".format(f, k))
        if k in given:
            raise TypeError("{}() got multiple values for argument '{}'".format(f, k))
        given[k] = v
    required = ("A", "B", "upper")
    first = next((i for i, k in enumerate(required) if k not in given), None)
    if first is not None:  # PyTorch's parser names the first missing one and those after it
        missing = required[first:]
        raise TypeError('{}() missing {} required positional argument{}: {}'.format(
            f, len(missing), "s" if len(missing) == 1 else "", ", ".join('"{}"'.format(k) for k in missing)))
    for i, k in enumerate(names):
        if not isinstance(given[k], torch.Tensor):
            raise TypeError("{}(): argument '{}' (position {}) must be Tensor, not {}".format(
                f, k, i + 1, type(given[k]).__name__))
    upper, left, unit = given["upper"], given.get("left", True), given.get("unitriangular", False)
    _check_bool(f, "upper", upper)
    _check_bool(f, "left", left)
    _check_bool(f, "unitriangular", unit)
    A, B = given["A"], given["B"]
    g = "linalg.solve_triangular"
    if A.dim() < 2:
        raise RuntimeError("{}: The input tensor A must have at least 2 dimensions.".format(g))
    if B.dim() < 2:
        raise RuntimeError("{}: The input tensor B must have at least 2 dimensions.".format(g))
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError("{}: A must be batches of square matrices, but they are {} by {} matrices".format(
            g, A.shape[-2], A.shape[-1]))
    if (B.shape[-2] if left else B.shape[-1]) != A.shape[-1]:
        raise RuntimeError("{}: Incompatible shapes of A and B for the equation {} = B ({} and {})".format(
            g, "AX" if left else "XA", _shape(A), _shape(B)))
    A, B = _operands(A, B)
    X = _SolveTriangular.apply(A, B, upper, left, unit)
    out = given.get("out")
    if out is not None:
        if out.shape == X.shape:
            out.copy_(X)
        else:
            out.data = X.detach().clone()
        return out
    return X


def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False):
    f = "triangular_solve"
    for i, (k, v) in enumerate((("input", input), ("A", A))):
        if not isinstance(v, torch.Tensor):
            raise TypeError("{}(): argument '{}' (position {}) must be Tensor, not {}".format(
                f, k, i + 1, type(v).__name__))
    _check_bool(f, "upper", upper)
    _check_bool(f, "transpose", transpose)
    _check_bool(f, "unitriangular", unitriangular)
    if input.dim() < 2:
        raise RuntimeError("torch.triangular_solve: Expected b to have at least 2 dimensions, but it has {} "
                           "dimensions instead".format(input.dim()))
    if A.dim() < 2:
        raise RuntimeError("torch.triangular_solve: Expected A to have at least 2 dimensions, but it has {} "
                           "dimensions instead".format(A.dim()))
    if input.dtype != A.dtype:
        raise RuntimeError("Expected b and A to have the same dtype, but found b of type {} and A of type {} "
                           "instead.".format(_NAMES[input.dtype], _NAMES[A.dtype]))
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError("A must be batches of square matrices, but they are {} by {} matrices".format(
            A.shape[-2], A.shape[-1]))
    if A.shape[-1] != input.shape[-2]:
        raise RuntimeError("Incompatible matrix sizes for triangular_solve: each A matrix is {} by {} but each "
                           "b matrix is {} by {}".format(A.shape[-2], A.shape[-1], input.shape[-2], input.shape[-1]))
    if not _warned[0]:
        _warned[0] = True
        warnings.warn(
            "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangular"
            "and will be removed in a future PyTorch release.\n"
            "torch.linalg.solve_triangular has its arguments reversed and does not return a copy of one of "
            "the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be replaced with\n"
            "X = torch.linalg.solve_triangular(A, B). (Triggered internally at  "
            "./aten/src/ATen/native/BatchLinearAlgebra.cpp:2115.)", UserWarning, stacklevel=2)
    A, b = _operands(A, input)
    return torch.return_types.triangular_solve(_TriangularSolve.apply(b, A, upper, transpose, unitriangular))
