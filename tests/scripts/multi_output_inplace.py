# In-place writes into the outputs of unbind/split/chunk (views made by one node for
# several outputs) raise PyTorch 1.13's RuntimeError, naming the view's node and output
# number, also through a view of such an output and through setitem (which writes
# through the select/slice/unsqueeze view that PyTorch's indexing makes, or into the
# output itself); allowed under no_grad and on tensors without grad. Tensor.zero_,
# fill_ and copy_ record ZeroBackward0 / FillBackward2 / CopyBackwards with PyTorch's
# edges and gradients.
import torch


def attempt(label, f):
    try:
        f()
        print(label, "ok")
    except RuntimeError as e:
        print(label, type(e).__name__, e)


def iadd(p):
    p += 1


def setter(p, k):
    def f():
        p[k] = 1.0
    return f


torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
y = x * 1
makers = {"unbind": lambda: y.unbind(0), "split": lambda: y.split(2, 1), "chunk": lambda: y.chunk(2, 0),
          "split sizes": lambda: torch.split(y, [1, 2], 0), "unbind of a leaf": lambda: x.unbind(1)}
ops = {"add_": lambda p: p.add_(1), "mul_": lambda p: p.mul_(2), "masked_fill_": lambda p: p.masked_fill_(p > 0, 0.),
       "zero_": lambda p: p.zero_(), "fill_": lambda p: p.fill_(3), "clamp_": lambda p: p.clamp_(0),
       "copy_": lambda p: p.copy_(p * 2), "sigmoid_": lambda p: p.sigmoid_(), "relu_": lambda p: p.relu_(),
       "+=": lambda p: iadd(p)}
for name, mk in makers.items():
    ps = mk()
    for op, f in ops.items():
        attempt(f"{name} {op}", lambda: f(ps[-1]))

ps = torch.randn(3, 4, 5, requires_grad=True).mul(2).unbind(0)
for k in [0, slice(None), slice(0, 4), slice(0, 100), slice(1, 3), None, Ellipsis, (Ellipsis, 0), (0, Ellipsis),
          (slice(None), 1), (1, slice(0, 5)), (slice(0, 4), None), torch.tensor([0, 1]), (0, torch.tensor([0, 1])),
          (torch.tensor([0, 1]), 0), ps[1] > 0, True, (None, slice(0, 4), slice(0, 5)), (slice(0, 4, 2),),
          (slice(-4, None),)]:
    attempt(f"setitem {k!r}", setter(ps[1], k))
attempt("a view of an output", lambda: ps[0][1:].add_(1))
attempt("a view of an output, transposed", lambda: ps[0].t().mul_(1))
attempt("a detached output", lambda: ps[0].detach().add_(1))
with torch.no_grad():
    attempt("under no_grad", lambda: ps[0].add_(1))
z = torch.zeros(2, 3)
attempt("without grad", lambda: z.unbind(0)[1].add_(1))
print(z)

# zero_ / fill_ / copy_ record their nodes
def names(t):
    return t.grad_fn.name(), [(None if f is None else f.name(), i) for f, i in t.grad_fn.next_functions]


a = torch.randn(3, dtype=torch.float64, requires_grad=True)
s = torch.randn(3, requires_grad=True)
y = a * 1
y.zero_()
print("zero_", names(y))
y.sum().backward()
print(a.grad)
y = a * 2
y.fill_(0.5)
print("fill_", names(y), y)
y = a * 3
y.copy_(s * 3)
print("copy_", names(y), y.dtype)
(y * torch.arange(3.)).sum().backward()
print(a.grad, s.grad)
b = torch.tensor(2., requires_grad=True)
y = a * 1
y.copy_(b)
print("copy_ broadcast", names(y))
(y * y).sum().backward()
print(b.grad)
z = torch.zeros(3)
z.copy_(s)
print("copy_ into a tensor without grad", names(z), z.requires_grad)
print("diff n=0", names(torch.diff(a, n=0)))
attempt("zero_ of a leaf", lambda: a.zero_())
attempt("copy_ into a leaf", lambda: a.copy_(s))
with torch.no_grad():
    a.fill_(1.5)
print(a, a.grad_fn)
