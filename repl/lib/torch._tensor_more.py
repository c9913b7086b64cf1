# Tensor methods and properties written in the language (repl/tensor_lib.c binds them to the
# tensor, a property is called at once): Tensor.new, Tensor.unflatten (also torch.unflatten),
# Tensor.mT, Tensor.mH, Tensor.H, as PyTorch 1.13 defines them for real tensors.
import torch
from torch._matrix_exp import matrix_exp  # Tensor.matrix_exp
from torch._solve_triangular import triangular_solve  # Tensor.triangular_solve
from torch._blas_index import addmm, addmm_, baddbmm, baddbmm_, addbmm, addbmm_, addmv, addmv_, addr, addr_, \
    index_copy, index_copy_, index_fill, index_fill_  # Tensor.addmm, ...
from torch._more import tensor_split, logaddexp2, signbit, nanmedian, index_put, index_put_  # Tensor.tensor_split, ...
from torch._names_more import dist, deg2rad, deg2rad_, rad2deg, rad2deg_, fmax, fmin, masked_scatter, \
    masked_scatter_, hardshrink  # Tensor.dist, ...
from torch._linalg_solve import cholesky_solve  # Tensor.cholesky_solve
from torch._aliases import lu_solve  # Tensor.lu_solve
from torch._stft import stft, istft  # Tensor.stft, Tensor.istft


def new(self, *args, **kwargs):
    dtype = kwargs.get("dtype", self.dtype)
    if len(args) == 1 and not isinstance(args[0], (int, torch.Size)):
        data = args[0]
        if isinstance(data, torch.Tensor):
            return data.to(dtype)
        return torch.tensor(data, dtype=dtype)
    if len(args) == 1:
        args = tuple(args[0]) if isinstance(args[0], torch.Size) else args
    return torch.empty(args, dtype=dtype) if args else torch.empty(0, dtype=dtype)


def unflatten(self, dim, sizes):
    n = self.dim()
    if dim < -n or dim >= n:
        raise IndexError("Dimension out of range (expected to be in range of [{}, {}], but got {})".format(-n, n - 1, dim))
    if dim < 0:
        dim += n
    sizes = list(sizes)
    if len(sizes) == 0:
        raise RuntimeError("unflatten: sizes must be non-empty")
    known = 1
    infer = 0
    for s in sizes:
        if s == -1:
            infer += 1
        else:
            known *= s
    size = self.shape[dim]
    if infer > 1 or (infer == 0 and known != size) or (infer == 1 and (known == 0 or size % known != 0)):
        raise RuntimeError("unflatten: Provided sizes {} don't multiply up to the size of dim {} ({}) in the input tensor".format(
            sizes, dim, size))
    shape = list(self.shape)
    return self.view(shape[:dim] + sizes + shape[dim + 1:])


def mT(self):
    if self.dim() < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got {}-D tensor.".format(self.dim()))
    return self.transpose(-2, -1)


def mH(self):
    if self.dim() < 2:
        raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. Got {}-D tensor.".format(self.dim()))
    return self.transpose(-2, -1).conj()


def H(self):
    if self.dim() == 0:
        return self
    if self.dim() != 2:
        hint = " For batches of matrices, consider using tensor.mH" if self.dim() > 2 else ""
        raise RuntimeError("tensor.H is only supported on matrices (2-D tensors). Got {}-D tensor.{}".format(self.dim(), hint))
    return self.transpose(0, 1).conj()


def materialize(self, shape, device=None, dtype=None):
    # UninitializedParameter / UninitializedBuffer.materialize (tensor_lib.c offers it on those only)
    torch._nnscope_materialize(self, shape, dtype)
