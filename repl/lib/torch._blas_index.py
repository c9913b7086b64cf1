# torch.addmm / baddbmm / addbmm / addmv / addr and index_copy / index_fill (functions, methods, in-place
# forms), written in the language over mm/bmm/mv/outer and indexed assignment, as PyTorch 1.13 defines
# them: beta * input + alpha * (product), input ignored when beta is 0 (NaNs in it do not propagate);
# the nodes carry PyTorch's names (AddmmBackward0, ...). repl/tensor_lib.c binds the methods.
import torch
import torch.amp.autocast_mode as _autocast


def _check_scalars(beta, alpha):
    for name, v in (('beta', beta), ('alpha', alpha)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError("argument '{}' must be Number, not {}".format(name, type(v).__name__))


def _expands_to(input, shape):
    # input.expand(shape)'s check, with its message
    if input.dim() > len(shape):
        raise RuntimeError("expand(torch.FloatTensor{{{}}}, size={}): the number of sizes provided ({}) must be greater "
                           "or equal to the number of dimensions in the tensor ({})".format(
                               ", ".join(str(d) for d in input.shape), list(shape), len(shape), input.dim()))
    lead = len(shape) - input.dim()
    for d in reversed(range(input.dim())):
        if input.size(d) != 1 and input.size(d) != shape[lead + d]:
            raise RuntimeError("The expanded size of the tensor ({}) must match the existing size ({}) at "
                               "non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}".format(
                                   shape[lead + d], input.size(d), lead + d, list(shape), list(input.shape)))


def _combine(input, product, beta, alpha, node, operands):
    _check_scalars(beta, alpha)
    _expands_to(input, product.shape)
    out = product if alpha == 1 else product * alpha
    if beta != 0:
        out = (input if beta == 1 else input * beta) + out
    torch._nnscope_name_grad_fn(out, node, input, *operands)
    return out


def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    input, mat1, mat2 = _autocast._lower(input, mat1, mat2)  # 1.13's CPU autocast "lower precision" list
    if (beta == 1 and alpha == 1 and input.dtype == mat1.dtype == mat2.dtype == torch.bfloat16 and
            mat1.dim() == 2 and mat2.dim() == 2 and mat1.size(1) == mat2.size(0) and input.dim() <= 2):
        # ATen's bfloat16 gemm adds input before its one rounding, as core's addmm under F.linear does
        _expands_to(input, (mat1.size(0), mat2.size(1)))
        return _out(torch.nn.functional.linear(mat1, mat2.t(), input), out)
    r = _combine(input, torch.mm(mat1, mat2), beta, alpha, "AddmmBackward0", (mat1, mat2))
    return _out(r, out)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    input, batch1, batch2 = _autocast._lower(input, batch1, batch2)  # 1.13's CPU autocast "lower precision" list
    product = torch.bmm(batch1, batch2)
    k = batch1.size(2)
    if k * product.size(1) * product.size(2) >= 400 or beta == 0:
        return _out(_combine(input, product, beta, alpha, "BaddbmmBackward0", (batch1, batch2)), out)
    # ATen's small-matrix kernel: the products added one by one into beta * input, in the order of k
    _check_scalars(beta, alpha)
    r = (input if beta == 1 else input * beta).expand(product.shape)
    for i in range(k):
        term = batch1[:, :, i:i + 1] * batch2[:, i:i + 1, :]
        r = r + (term if alpha == 1 else term * alpha)
    torch._nnscope_name_grad_fn(r, "BaddbmmBackward0", input, batch1, batch2)
    return _out(r, out)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    input, batch1, batch2 = _autocast._lower(input, batch1, batch2)  # 1.13's CPU autocast "lower precision" list
    # ATen's order: addmm of each batch's product into the result, beta applied once
    if batch1.dim() != 3 or batch2.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if batch1.dim() != 3 else "batch2 must be a 3D tensor")
    r = None
    for b in range(batch1.size(0)):
        r = addmm(input if r is None else r, batch1[b], batch2[b], beta=beta if r is None else 1, alpha=alpha)
    if r is None:
        r = _combine(input, torch.zeros(batch1.size(1), batch2.size(2), dtype=input.dtype), beta, alpha,
                     "AddbmmBackward0", (batch1, batch2))
    torch._nnscope_name_grad_fn(r, "AddbmmBackward0", input, batch1, batch2)
    return _out(r, out)


def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    r = _combine(input, torch.mv(mat, vec), beta, alpha, "AddmvBackward0", (mat, vec))
    return _out(r, out)


def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    if vec1.dim() != 1 or vec2.dim() != 1:
        raise RuntimeError("addr: Expected 1-D argument vec1, but got {}-D".format(vec1.dim()) if vec1.dim() != 1
                           else "addr: Expected 1-D argument vec2, but got {}-D".format(vec2.dim()))
    r = _combine(input, torch.outer(vec1, vec2), beta, alpha, "AddrBackward0", (vec1, vec2))
    return _out(r, out)


def _out(r, out):
    if out is None:
        return r
    with torch.no_grad():
        out.resize_(r.shape) if out.shape != r.shape and out.numel() == 0 else None
        out.copy_(r)
    return out


def _inplace(fn):
    def method(self, *args, **kwargs):
        r = fn(self, *args, **kwargs)
        return self.copy_(r)
    method.__name__ = fn.__name__ + '_'
    return method


addmm_ = _inplace(addmm)
baddbmm_ = _inplace(baddbmm)
addbmm_ = _inplace(addbmm)
addmv_ = _inplace(addmv)
addr_ = _inplace(addr)


def _dim_index(self, dim, index, name):
    n = max(self.dim(), 1)
    if dim < -n or dim >= n:
        raise IndexError("Dimension out of range (expected to be in range of [{}, {}], but got {})".format(
            -n, n - 1, dim))
    if index.dim() > 1:
        raise IndexError("{}(): Index is supposed to be a vector".format(name))
    if index.dtype != torch.int64:
        raise RuntimeError("{}(): Expected a long tensor for index, but got {}".format(name, _type_name(index.dtype)))
    if dim < 0:
        dim += n
    return (slice(None),) * dim + (index.reshape(-1),) if self.dim() else (index.reshape(-1),)


def _type_name(dtype):
    return {torch.float32: 'Float', torch.float64: 'Double', torch.int32: 'Int', torch.int16: 'Short',
            torch.int8: 'Char', torch.uint8: 'Byte', torch.bool: 'Bool', torch.float16: 'Half'}.get(dtype, str(dtype))


def _index_copy_check(self, dim, index, source):
    where = _dim_index(self, dim, index, 'index_copy_')
    if source.dtype != self.dtype:
        raise RuntimeError("index_copy_(): self and source expected to have the same dtype, but got (self) {} and "
                           "(source) {}".format(_type_name(self.dtype), _type_name(source.dtype)))
    return where


def _index_fill_check(self, dim, index, value):
    where = _dim_index(self, dim, index, 'index_fill_')
    if isinstance(value, torch.Tensor) and value.dim() != 0:
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with {} "
                           "dimension(s).".format(value.dim()))
    return where


def _tracked(*tensors):
    return torch.is_grad_enabled() and any(isinstance(t, torch.Tensor) and t.requires_grad for t in tensors)


# index_copy(_) and index_fill(_) record one node as PyTorch's (IndexCopyBackward0,
# IndexFillBackward0 for a number, IndexFillBackward1 for a 0-dim tensor), with edges
# to self and the source or value only: the index goes in a tuple, so that it is no
# tensor argument of the Function. The backwards are ATen's formulas, differentiable.
def _put(ctx, self, where, value, inplace):
    # the forward of both: value written at where into self (marked dirty) or a copy
    ctx.where = where
    if inplace:
        ctx.mark_dirty(self)
    r = self if inplace else self.clone()
    r[where[0]] = value
    return r


def _self_grad(ctx, grad):
    # self's gradient: grad with the written places zeroed
    if not ctx.needs_input_grad[0]:
        return None
    g = grad.clone()
    g[ctx.where[0]] = 0
    return g


class _IndexCopy(torch.autograd.Function):
    _node_name = "IndexCopyBackward0"

    @staticmethod
    def forward(ctx, self, where, source, inplace):
        ctx.source_shape = source.shape
        return _put(ctx, self, where, source, inplace)

    @staticmethod
    def backward(ctx, grad):
        gsrc = grad[ctx.where[0]].reshape(ctx.source_shape) if ctx.needs_input_grad[2] else None
        return _self_grad(ctx, grad), None, gsrc, None


class _IndexFill(torch.autograd.Function):
    _node_name = "IndexFillBackward0"

    @staticmethod
    def forward(ctx, self, where, value, inplace):
        return _put(ctx, self, where, value, inplace)

    @staticmethod
    def backward(ctx, grad):
        gv = grad[ctx.where[0]].sum() if ctx.needs_input_grad[2] else None
        return _self_grad(ctx, grad), None, gv, None


class _IndexFillTensor(_IndexFill):
    _node_name = "IndexFillBackward1"


def _check_leaf(self, inplace):
    # PyTorch's check of an in-place op, made before its arguments' (a Function's
    # mark_dirty words it otherwise)
    if inplace and self.requires_grad and self.is_leaf and torch.is_grad_enabled():
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def _index_copy(self, dim, index, source, inplace):
    _check_leaf(self, inplace)
    where = _index_copy_check(self, dim, index, source)
    if _tracked(self, source):
        return _IndexCopy.apply(self, (where,), source, inplace)
    r = self if inplace else self.clone()
    r[where] = source
    return r


def _index_fill(self, dim, index, value, inplace):
    _check_leaf(self, inplace)
    where = _index_fill_check(self, dim, index, value)
    if _tracked(self, value):
        fn = _IndexFillTensor if isinstance(value, torch.Tensor) else _IndexFill
        return fn.apply(self, (where,), value, inplace)
    r = self if inplace else self.clone()
    r[where] = value
    return r


def index_copy_(self, dim, index, source):
    return _index_copy(self, dim, index, source, True)


def index_copy(input, dim, index, source):
    return _index_copy(input, dim, index, source, False)


def index_fill_(self, dim, index, value):
    return _index_fill(self, dim, index, value, True)


def index_fill(input, dim, index, value):
    return _index_fill(input, dim, index, value, False)
