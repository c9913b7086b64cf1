# matrix-vector products, comparisons, all/any, equal, isclose/allclose, element
# classes, argmin, square, the new_* factories, type(), strides and masks (PyTorch 1.13)
import torch


def show(label, f):
    try:
        print(label, "->", f())
    except Exception as e:
        print(label, "!!", type(e).__name__ + ":", e)


v, w = torch.tensor([1., 2.]), torch.tensor([3., 4.])
m = torch.arange(6.).view(2, 3)
show("dot", lambda: torch.dot(v, w))
show("Tensor.dot", lambda: v.dot(w))
show("dot int", lambda: torch.tensor([1, 2]).dot(torch.tensor([3, 4])))
show("dot sizes", lambda: torch.dot(v, torch.ones(3)))
show("dot 2-D", lambda: torch.dot(torch.ones(2, 1), v))
show("dot dtypes", lambda: torch.dot(v, w.double()))
show("mv", lambda: torch.mv(m, torch.ones(3)))
show("Tensor.mv", lambda: m.mv(torch.tensor([1., 0., -1.])))
show("mv sizes", lambda: torch.mv(m, torch.ones(2)))
show("Tensor.mm", lambda: m.mm(m.t()))
show("Tensor.bmm", lambda: torch.ones(2, 2, 3).bmm(torch.ones(2, 3, 1)))
a = torch.ones(2, requires_grad=True)
print(torch.dot(a, w), torch.mv(m, a.repeat(2)[:3] * 1))
torch.dot(a, w).backward()
print(a.grad)

x = torch.tensor([[1., 0.], [2., 3.]])
show("all", lambda: torch.all(x))
show("all dim", lambda: torch.all(x, 1))
show("all keepdim", lambda: torch.all(x, dim=0, keepdim=True))
show("any -1", lambda: x.any(-1))
show("any", lambda: torch.any(torch.zeros(3)))
show("all int", lambda: torch.tensor([1, 2], dtype=torch.int32).all())
show("all nan", lambda: torch.all(torch.tensor([1., float("nan")])))
show("all empty", lambda: (torch.all(torch.zeros(0)), torch.any(torch.zeros(0))))
show("all 0-dim", lambda: torch.all(torch.tensor(1.), 0))
show("all bad dim", lambda: torch.all(x, 2))
show("all bool", lambda: (x > 0).all(1))
show("equal", lambda: (torch.equal(v, v.clone()), torch.equal(v, w), v.equal(torch.ones(3))))
show("equal dtypes", lambda: torch.equal(torch.ones(2), torch.ones(2, dtype=torch.int64)))
show("equal shapes", lambda: torch.equal(torch.ones(2, 1), torch.ones(2)))
show("equal nan", lambda: torch.equal(torch.tensor([float("nan")]), torch.tensor([float("nan")])))
show("equal number", lambda: torch.equal(v, 1))
inf, nan = float("inf"), float("nan")
show("isclose", lambda: torch.isclose(torch.tensor([1., inf, 1., nan]), torch.tensor([1.000001, inf, inf, nan])))
show("isclose nan", lambda: torch.isclose(torch.tensor([nan]), torch.tensor([nan]), equal_nan=True))
show("isclose int", lambda: torch.tensor([1, 2]).isclose(torch.tensor([1, 3])))
show("isclose broadcast", lambda: torch.isclose(torch.ones(2, 1), torch.ones(3)))
show("isclose dtypes", lambda: torch.isclose(torch.ones(2), torch.ones(2).double()))
show("isclose number", lambda: torch.isclose(torch.ones(2), 1.))
show("isclose rtol", lambda: torch.isclose(v, v, rtol=-1))
show("allclose", lambda: (torch.allclose(v, v + 1e-9), torch.allclose(v, v * 1.001), v.allclose(v * 1.001, rtol=1e-2)))
show("allclose atol", lambda: torch.allclose(v, v + 0.5, atol=1))
show("allclose atol<0", lambda: torch.allclose(v, v, atol=-1))
show("allclose sizes", lambda: torch.allclose(torch.ones(2), torch.ones(3)))

i = torch.tensor([1, 2, 3])
show("eq ne", lambda: (torch.eq(i, 2), i.ne(2)))
show("lt le", lambda: (i.lt(2), torch.le(i, 2), torch.lt(i, 3.5), i.le(1)))
show("gt ge", lambda: (torch.gt(i, torch.tensor([0, 5, 3])), i.ge(2.5), torch.ge(i, 2), i.gt(1)))
f = torch.tensor([1., nan, inf, -inf])
show("isnan", lambda: (torch.isnan(f), f.isnan()))
show("isinf", lambda: (torch.isinf(f), i.isinf()))
show("isfinite", lambda: (torch.isfinite(f), f.isfinite().sum()))
show("argmin", lambda: (torch.argmin(torch.tensor([[3., 1.], [0., 5.]]), dim=1), torch.tensor([2, 1, 1]).argmin()))
show("argmin keepdim", lambda: torch.tensor([[3., 1.], [0., 5.]]).argmin(0, keepdim=True))
s = torch.tensor([1., 2., 3.], requires_grad=True)
show("square", lambda: (torch.square(s), torch.tensor([2, -3]).square()))

show("new_zeros", lambda: (m.new_zeros(2, 3), m.new_zeros((1,)), i.new_zeros(2)))
show("new_ones", lambda: (m.new_ones(2), i.new_ones(2, dtype=torch.float64)))
show("new_full", lambda: (m.new_full((2,), 7), i.new_full([2], 5)))
show("new_empty", lambda: m.new_empty(3).shape)
show("type", lambda: (m.type(), i.type(), (i > 1).type(), m.double().type()))
show("type convert", lambda: (m.type(torch.int64), i.type("torch.DoubleTensor")))
show("type bad", lambda: m.type("torch.Nonsense"))
show("stride", lambda: (m.stride(), m.stride(1), m.t().stride(), m.stride(-2)))
show("stride bad", lambda: m.stride(2))
show("storage_offset", lambda: (m.storage_offset(), m[1:].storage_offset(), m[1, 2].storage_offset()))
show("sizes", lambda: (m.element_size(), i.element_size(), (i > 0).element_size(), m.nelement()))

# masks: PyTorch 1.13 reads the first byte of each element of a non-bool mask (0 or 1)
ones = torch.ones(3)
show("mask bool", lambda: ones.masked_fill(torch.tensor([True, False, True]), 5.))
show("mask int", lambda: ones.masked_fill(torch.tensor([1, 0, 256]), 5.))
show("mask int32", lambda: ones.masked_fill(torch.tensor([0, 1, 1], dtype=torch.int32), -1))
show("mask not 0/1", lambda: ones.masked_fill(torch.tensor([0, 3, 1], dtype=torch.int32), -1))
show("mask float", lambda: ones.masked_fill(torch.tensor([1., 0., 0.5]), 5.))
show("mask broadcast", lambda: torch.zeros(2, 3).masked_fill(torch.tensor([1, 0, 1]), 2.))
y = ones.repeat(1)
y[0] = 3.
print("repeat copies:", ones, y)

# a // b records a node whose backward raises, as PyTorch 1.13
t = torch.tensor([7., -7.], requires_grad=True)
q = t // 2
print(q, q.requires_grad, q.grad_fn is not None)
print(torch.floor_divide(t, torch.tensor(2.)))
try:
    q.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(t.grad)
print(t % 2)
with torch.no_grad():
    print(t // 2)

# step functions: exact, zero gradient; integers come back as they are
h = torch.tensor([-1.5, -0.5, 0.5, 1.5, 2.5, -0.0, 0.49999997], requires_grad=True)
for name, fn in (("floor", torch.floor), ("ceil", torch.ceil), ("round", torch.round), ("sign", torch.sign)):
    r = fn(h)
    r.sum().backward()
    print(name, r, h.grad)
    h.grad = None
    show(name + " int", lambda: (fn(torch.tensor([-3, 0, 2])), fn(torch.tensor([-2, 3], dtype=torch.int32))))
    show(name + " bool", lambda: fn(torch.tensor([True, False])))
    show(name + " half", lambda: fn(torch.tensor([1.5, -2.5], dtype=torch.float16)))
    show(name + " bfloat16", lambda: fn(torch.tensor([1.5, -2.5], dtype=torch.bfloat16)))
    show(name + " float64", lambda: fn(torch.tensor([2.5, -1e300, float("inf"), float("nan")], dtype=torch.float64)))
show("methods", lambda: (h.floor(), h.ceil(), h.round(), h.sign(), m.t().floor()))
