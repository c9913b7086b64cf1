# torch.div / Tensor.div / div_ / torch.divide with rounding_mode= (repl/bind_div_mode.c sends a call
# that names rounding_mode here), as PyTorch 1.13's div.Tensor_mode: None divides truly, 'trunc'
# rounds toward zero (C's integer division on integer tensors, ZeroDivisionError on a zero divisor),
# 'floor' rounds down (floor_divide's kernel, Python's rule). The node is PyTorch's DivBackward2;
# with a rounding mode its gradients are zeros.
import torch


def _mode(rounding_mode):
    if rounding_mode is not None and rounding_mode not in ('trunc', 'floor'):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{}'"
                           .format(rounding_mode))
    return rounding_mode


def _rounded(a, b, mode):
    if mode == 'floor':
        return torch.floor_divide(a, b)
    q = torch.div(a, b)
    if q.is_floating_point() and not (a.is_floating_point() or b.is_floating_point()):
        # integer operands: C's division, from the floor one step up where the signs differ and it is inexact
        f = torch.floor_divide(a, b)
        return f + ((f * b != a) & ((a < 0) != (b < 0))).to(f.dtype)
    return q.trunc()


class _DivRounded(torch.autograd.Function):
    _node_name = "DivBackward2"

    @staticmethod
    def forward(ctx, a, b, mode):
        ctx.shapes = (a.shape, b.shape)
        return _rounded(a, b, mode)

    @staticmethod
    def backward(ctx, grad):
        ga = grad.new_zeros(ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gb = grad.new_zeros(ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return ga, gb, None


def div(input, other, rounding_mode=None):
    mode = _mode(rounding_mode)
    if not isinstance(other, torch.Tensor):
        if not isinstance(other, (int, float, bool)):
            raise TypeError("div(): argument 'other' (position 2) must be Tensor, not {}".format(type(other).__name__))
        other = torch.tensor(other)
    if not isinstance(input, torch.Tensor):
        input = torch.tensor(input)
    if mode is None:
        r = torch.div(input, other)
        torch._nnscope_name_grad_fn(r, "DivBackward2", input, other)
        return r
    if torch.is_grad_enabled() and (input.requires_grad or other.requires_grad):
        return _DivRounded.apply(input, other, mode)
    return _rounded(input, other, mode)


def div_(self, other, rounding_mode=None):
    r = div(self, other, rounding_mode)
    if r.is_floating_point() and not self.is_floating_point():
        raise RuntimeError("result type {} can't be cast to the desired output type {}".format(
            _type_name(r.dtype), _type_name(self.dtype)))
    return self.copy_(r)


def _type_name(dtype):
    return {torch.float32: 'Float', torch.float64: 'Double', torch.float16: 'Half', torch.bfloat16: 'BFloat16',
            torch.int64: 'Long', torch.int32: 'Int', torch.int16: 'Short', torch.int8: 'Char', torch.uint8: 'Byte',
            torch.bool: 'Bool'}.get(dtype, str(dtype))
