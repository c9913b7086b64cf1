import torch
from torch.autograd import Function, gradcheck
import torch.nn as nn

class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input

x = torch.tensor([-1., 2., -3., 4.], requires_grad=True)
y = MyReLU.apply(x)
print(y)
print(type(y.grad_fn).__name__, len(y.grad_fn.next_functions))
y.sum().backward()
print(x.grad)

class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias

linear = LinearFunction.apply
inp = (torch.randn(20, 20, dtype=torch.double, requires_grad=True), torch.randn(30, 20, dtype=torch.double, requires_grad=True))
test = gradcheck(linear, inp, eps=1e-6, atol=1e-4)
print(test)

class MyLinear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter('bias', None)
        self.weight.data.uniform_(-0.1, 0.1)
        if self.bias is not None:
            self.bias.data.uniform_(-0.1, 0.1)
    def forward(self, input):
        return LinearFunction.apply(input, self.weight, self.bias)
    def extra_repr(self):
        return 'input_features={}, output_features={}, bias={}'.format(
            self.input_features, self.output_features, self.bias is not None)

torch.manual_seed(0)
m = MyLinear(3, 2)
print(m)
out = m(torch.randn(4, 3))
print(out.grad_fn.__class__.__name__)
out.sum().backward()
print(m.weight.grad, m.bias.grad)

class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None

a = torch.ones(3, requires_grad=True)
b = MulConstant.apply(a, 5.5)
b.backward(torch.ones(3))
print(a.grad)

class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)
    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result

class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
z = torch.tensor([0., 1.], requires_grad=True)
e = Exp.apply(z)
e.sum().backward()
print(z.grad)
# second order
z2 = torch.tensor([1., 2.], requires_grad=True)
g, = torch.autograd.grad(Exp.apply(z2).sum(), z2, create_graph=True)
print(g.detach(), g.grad_fn is not None)
g.sum().backward()
print(z2.grad)
class Bad(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
try:
    Bad.apply(torch.ones(2, requires_grad=True)).sum().backward()
except RuntimeError as err:
    print(err)
class NoBackward(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
try:
    NoBackward.apply(torch.ones(2, requires_grad=True)).sum().backward()
except NotImplementedError as err:
    print('NotImplementedError', err)
class WrongShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)
try:
    WrongShape.apply(torch.ones(2, requires_grad=True)).sum().backward()
except RuntimeError as err:
    print(err)
with torch.no_grad():
    r = MyReLU.apply(x)
print(r.requires_grad, r.grad_fn)
print(MyReLU.apply(torch.ones(2)).grad_fn)
class TwoOut(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable(x.argmax().unsqueeze(0))
        idx = x.argmax().unsqueeze(0)
        ctx.mark_non_differentiable(idx)
        return x.max().unsqueeze(0), idx
    @staticmethod
    def backward(ctx, g, gi):
        return torch.ones(3) * g
v, i = TwoOut.apply(torch.tensor([1., 3., 2.], requires_grad=True))
print(v.requires_grad, i.requires_grad, i.dtype)
# gradcheck's failures and checks
import warnings
from torch.autograd import gradgradcheck

class WrongGrad(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x

xd = torch.tensor([[1., 2.], [3., -1.]], dtype=torch.double, requires_grad=True)
print(gradcheck(WrongGrad.apply, (xd,), raise_exception=False))
try:
    gradcheck(WrongGrad.apply, (xd,))
except RuntimeError as err:
    print(type(err).__name__, isinstance(err, RuntimeError))
    print(err)
print(gradcheck(lambda a, b: (a * b).sum(dim=0), (xd, torch.randn(2, 2, dtype=torch.double, requires_grad=True))))
print(gradcheck(lambda a, k: a * k, (xd, 3.0)))
print(gradcheck(lambda a, b: a + 0 * b.sum(), (xd, torch.ones(3, dtype=torch.double))))
try:
    gradcheck(torch.sin, (torch.ones(2, dtype=torch.double),))
except ValueError as err:
    print('ValueError:', err)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    print(gradcheck(torch.sin, (torch.ones(2, requires_grad=True),), eps=1e-3, atol=1e-2))
print([str(x.message)[:60] for x in w])

class NotMultiplied(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones_like(g) * 2
try:
    gradcheck(NotMultiplied.apply, (xd,))
except RuntimeError as err:
    print(err)
print(gradgradcheck(Exp.apply, (torch.tensor([0.5, -0.2], dtype=torch.double, requires_grad=True),)))
torch.manual_seed(0)
print(gradgradcheck(lambda a: (a ** 3).sum(1), (xd,)))
print(gradgradcheck(WrongGrad.apply, (xd,), grad_outputs=(torch.ones(2, 2, dtype=torch.double),), raise_exception=False))
print(torch.rand(1))  # gradgradcheck drew its grad outputs from the default generator
print(torch.autograd.gradcheck is gradcheck)
