# torch.autograd.Function written in the language, as PyTorch 1.13: forward/backward
# staticmethods, ctx.save_for_backward/saved_tensors/needs_input_grad/
# mark_non_differentiable/set_materialize_grads, attributes on ctx, .apply, the node
# in the graph (grad_fn, hooks, next_functions, modules, double backward), and
# PyTorch's errors for bad backwards.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


def attempt(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)


class MyReLU(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        g = grad_output.clone()
        g[x < 0] = 0
        return g


x = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
y = MyReLU.apply(x)
print(y)
print(type(y.grad_fn).__name__, y.grad_fn.name())
print(repr(y.grad_fn).startswith("<torch.autograd.function.MyReLUBackward object at 0x"))
print(y.requires_grad, y.is_leaf)
print(isinstance(y.grad_fn, torch.autograd.function.BackwardCFunction))
print(y.grad_fn.saved_tensors)
y.sum().backward()
print(x.grad)


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


a = torch.tensor([0.5, 1.0], requires_grad=True)
e = Exp.apply(a)
(e * 2).sum().backward()
print(a.grad)


class MulConst(Function):
    @staticmethod
    def forward(ctx, t, k, flag=False):
        ctx.k = k
        ctx.flag = flag
        print("needs", ctx.needs_input_grad)
        return t * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None, None


b = torch.ones(3, requires_grad=True)
out = MulConst.apply(b, 2.5, True)
print(out, out.grad_fn.k, out.grad_fn.flag, out.grad_fn.needs_input_grad)
out.sum().backward()
print(b.grad)
nf = out.grad_fn.next_functions
print(len(nf), type(nf[0][0]).__name__, nf[0][0].variable is b, nf[0][1])


class Two(Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y, x + y

    @staticmethod
    def backward(ctx, ga, gb):
        x, y = ctx.saved_tensors
        print("ga", ga, "gb", gb)
        return ga * y + gb, ga * x + gb


p = torch.tensor([1.0, 2.0], requires_grad=True)
q = torch.tensor([3.0, 4.0], requires_grad=True)
m, s = Two.apply(p, q)
print(m.grad_fn is s.grad_fn, m.grad_fn.name(), m.grad_fn.next_functions[1][0].variable is q)
m.sum().backward()
print(p.grad, q.grad)
m, s = Two.apply(p, q)
(m * s).sum().backward()
print(p.grad, q.grad)


class Sort(Function):
    @staticmethod
    def forward(ctx, x):
        v, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return v, idx

    @staticmethod
    def backward(ctx, gv, gi):
        x, idx = ctx.saved_tensors
        print("gi", gi)
        g = torch.zeros_like(x)
        g[idx] = gv
        return g


z = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, idx = Sort.apply(z)
print(v, idx, idx.requires_grad, idx.grad_fn)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(z.grad)


class SortAuto(Function):
    @staticmethod
    def forward(ctx, x):
        return x.sort()

    @staticmethod
    def backward(ctx, gv, gi):
        print("auto gi", gi)
        return gv


v, idx = SortAuto.apply(z)
print(idx.requires_grad)
v.sum().backward()


class NoMat(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 1, x * 2

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1", g1, "g2", g2)
        if g2 is None:
            return g1
        return g1 + 2 * g2


w = torch.ones(2, requires_grad=True)
r1, r2 = NoMat.apply(w)
r1.sum().backward()
print(w.grad)

with torch.no_grad():
    n = MyReLU.apply(x)
print(n.grad_fn, n.requires_grad)
c = MyReLU.apply(torch.tensor([1.0, -1.0]))
print(c.grad_fn, c.requires_grad)


class Ident(Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 3


u = torch.ones(2, requires_grad=True)
v2 = Ident.apply(u)
print(v2 is u, v2.grad_fn.name(), u.grad_fn, u.is_leaf)
v2.sum().backward()
print(u.grad)

h = torch.ones(2, requires_grad=True)
o = MyReLU.apply(h * 2)
o.register_hook(lambda g: g * 10)
o.sum().backward()
print(h.grad)


class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g


sx = torch.tensor([3.0], requires_grad=True)
sy = Square.apply(sx)
gx, = torch.autograd.grad(sy, sx, create_graph=True)
print(gx.detach(), gx.requires_grad)
gx.backward()
print(sx.grad)


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x * x * g


cw = torch.tensor([2.0], requires_grad=True)
print(torch.autograd.grad(Cube.apply(cw), cw))
g3, = torch.autograd.grad(Cube.apply(cw), cw, create_graph=True)
print(g3, g3.requires_grad)


class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)

    def forward(self, x):
        return MyReLU.apply(self.lin(x))


torch.manual_seed(0)
mod = MyModule()
out = mod(torch.tensor([[1.0, -2.0], [0.5, 3.0]]))
print(out)
out.sum().backward()
print(mod.lin.weight.grad)
print(mod.lin.bias.grad)

# errors
xe = torch.ones(2, requires_grad=True)


class Bad(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


attempt(lambda: Bad.apply(xe).sum().backward())


class Few(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, g):
        return g


attempt(lambda: Few.apply(xe, xe).sum().backward())


class Extra(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, None, None


attempt(lambda: Extra.apply(xe).sum().backward())
print(xe.grad)
xe.grad = None


class Shape(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)


attempt(lambda: Shape.apply(xe).sum().backward())


class Raises(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        raise ValueError("bad backward")


attempt(lambda: Raises.apply(xe).sum().backward())


class NotT(Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g, g


attempt(lambda: NotT.apply(xe, 2.0).sum().backward())


class RetNum(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return 3


attempt(lambda: RetNum.apply(xe).sum().backward())
print(xe.grad)


class Twice(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2


t = Twice.apply(xe)
t.backward(torch.ones(2))
attempt(lambda: t.backward(torch.ones(2)))
attempt(lambda: t.grad_fn.saved_tensors)
print(xe.grad)
t = Twice.apply(xe)
t.backward(torch.ones(2), retain_graph=True)
t.backward(torch.ones(2))
print(xe.grad)


class NoSave(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


t = NoSave.apply(xe)
t.backward(torch.ones(2))
attempt(lambda: t.backward(torch.ones(2)))
print(xe.grad)


class Inpl(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x


zz = xe * 1
r = Inpl.apply(zz)
with torch.no_grad():
    zz[0] = 5.0
try:  # the version number after the write is left out: core bumps it twice for x[0] = v
    r.sum().backward()
except RuntimeError as err:
    print(str(err).split(" is at version")[0])
attempt(lambda: Function.apply(xe))


class NoFwd(Function):
    pass


attempt(lambda: NoFwd.apply(xe))


class NoBwd(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2


attempt(lambda: NoBwd.apply(xe).sum().backward())


class SaveBad(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g


attempt(lambda: SaveBad.apply(xe))


class RetNone(Function):
    @staticmethod
    def forward(ctx, x):
        return None

    @staticmethod
    def backward(ctx, g):
        return g


print(RetNone.apply(xe))


class RetInt(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, 5

    @staticmethod
    def backward(ctx, g, h):
        print("h", h)
        return g


xe.grad = None
o = RetInt.apply(xe)
print(o)
o[0].sum().backward()
print(xe.grad)


class CtxA(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        print(ctx.saved_tensors, ctx.needs_input_grad, type(ctx).__name__)
        return g


CtxA.apply(xe).sum().backward()
attempt(lambda: o[0].grad_fn.missing)
