# torch functions and Tensor methods of PyTorch 1.13 that nnscope lacked (the sweep of dir(torch)
# against dir of 1.13's), written in the language over what nnscope computes, with 1.13's
# messages: adjoint, cdouble, cfloat, is_neg, resolve_neg,
# empty_strided / new_empty_strided, fill, detach_, split_with_sizes, cholesky_inverse,
# nuclear_norm, frobenius_norm, narrow_copy, as_strided_scatter, get_num_interop_threads /
# set_num_interop_threads, set_warn_always / is_warn_always_enabled. torch._aliases lists them.
import torch

_state = {"interop": None, "warn_always": False}


def adjoint(input):
    if input.dim() < 2:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. Got "
                           "{}-D tensor.".format(input.dim()))
    return input.transpose(-2, -1).conj()


def cdouble(self, memory_format=torch.preserve_format):
    return self.to(torch.complex128)


def cfloat(self, memory_format=torch.preserve_format):
    return self.to(torch.complex64)


def is_neg(input):
    return False


def resolve_neg(input):
    return input


def _strided_numel(size, stride):
    if any(s == 0 for s in size):
        return 0
    return 1 + sum((s - 1) * st for s, st in zip(size, stride))


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    t = torch.empty(_strided_numel(size, stride), dtype=dtype, device=device).as_strided(size, stride)
    return t.requires_grad_() if requires_grad else t


def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                      pin_memory=False):
    return empty_strided(size, stride, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)


def fill(input, value):
    return torch.full_like(input, value)


def detach_(input):
    return input.detach_()


def split_with_sizes(self, split_sizes, dim=0):
    sizes = list(split_sizes)
    if sum(sizes) != self.size(dim):
        raise RuntimeError("split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension "
                           "{}), but got split_sizes={}".format(self.size(dim), dim, sizes))
    return self.split(sizes, dim)


def cholesky_inverse(input, upper=False, *, out=None):
    n = input.size(-1)
    eye = torch.eye(n, dtype=input.dtype).expand(input.shape)
    r = torch.cholesky_solve(eye, input, upper)
    if out is not None:
        out.resize_(r.shape).copy_(r)
        return out
    return r


def nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    if isinstance(dim, bool):  # nuclear_norm(input, keepdim)
        dim, keepdim = None, dim
    r = torch.linalg.matrix_norm(input, 'nuc', dim=(-2, -1) if dim is None else dim, keepdim=keepdim)
    if out is not None:
        out.resize_(r.shape).copy_(r)
        return out
    return r


def frobenius_norm(input, dim=(-2, -1), keepdim=False, *, out=None):
    r = torch.norm(input, 'fro', dim, keepdim)
    if out is not None:
        out.resize_(r.shape).copy_(r)
        return out
    return r


def narrow_copy(self, dim, start, length):
    return self.narrow(dim, start, length).clone(memory_format=torch.contiguous_format)


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    out = input.clone()
    out.as_strided(size, stride, storage_offset).copy_(src)
    return out


def get_num_interop_threads():
    return torch.get_num_threads() if _state["interop"] is None else _state["interop"]


def set_num_interop_threads(n):
    if _state["interop"] is not None:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work has started or "
                           "set_num_interop_threads called")
    if n <= 0:
        raise RuntimeError("Expected positive number of threads")
    _state["interop"] = n


def set_warn_always(b):
    _state["warn_always"] = bool(b)


def is_warn_always_enabled():
    return _state["warn_always"]
