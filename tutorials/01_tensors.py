# Tensors and autograd: shapes, broadcasting, requires_grad, backward, the chain rule checked by hand
#
# Lesson 1 of the nnscope course. Every cell is plain PyTorch: run it with
# `nnscope --lesson tensors` (cell by cell, Enter runs the cell shown) or
# `nnscope tutorials/01_tensors.py`; python3 with PyTorch prints the same bytes.

# %% A tensor has a shape, a dtype and a number of dimensions
import torch

x = torch.arange(6.).reshape(2, 3)
print(x)
print("shape:", x.shape, "dims:", x.ndim, "elements:", x.numel(), "dtype:", x.dtype)
print("row 1:", x[1], " column 2:", x[:, 2])
print("as 3 x 2:", x.reshape(3, 2).tolist())

# %% dtypes: integers stay integers until a float joins them
i = torch.tensor([1, 2, 3])
print(i.dtype, (i * 2).dtype, (i / 2).dtype, (i + 0.5).dtype)
print(i / 2)

# %% Broadcasting: sizes are matched from the right; a size 1 (or a missing one) is stretched
b = torch.tensor([10., 20., 30.])      # shape [3]     -> [1, 3] -> [2, 3]
print(x + b)
col = torch.tensor([[100.], [200.]])   # shape [2, 1]  -> [2, 3]
print(x + col)
print((col * b).shape)                 # [2, 1] with [3]: an outer product, [2, 3]

# %% When sizes differ and neither is 1, broadcasting refuses
try:
    x + torch.ones(2)
except RuntimeError as e:
    print("RuntimeError:", e)

# %% requires_grad: PyTorch records the operations on this tensor
w = torch.tensor(2.0, requires_grad=True)
print(w, "leaf:", w.is_leaf, "grad:", w.grad)
y = w ** 3
print(y, "made by", y.grad_fn.name(), "leaf:", y.is_leaf)

# %% backward() fills .grad of the leaves: d(w^3)/dw = 3 w^2 = 12 at w = 2
y.backward()
print("w.grad =", w.grad)

# %% The chain rule, checked by hand: s = sum(sin(a^2)), so ds/da = cos(a^2) * 2a
a = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
u = a * a
v = torch.sin(u)
s = v.sum()
s.backward()
by_hand = torch.cos(a.detach() ** 2) * 2 * a.detach()
print("autograd:", a.grad)
print("by hand: ", by_hand)
print("equal:", torch.allclose(a.grad, by_hand))

# %% The graph behind it: each grad_fn points to the functions that made its inputs
print(s.grad_fn.name(), "<-", v.grad_fn.name(), "<-", u.grad_fn.name())
print([(type(f).__name__, k) for f, k in u.grad_fn.next_functions])

# %% Gradients add up: zero them between two backward passes (optimizer.zero_grad() does it)
a.grad = None
(a ** 2).sum().backward()
print("once: ", a.grad)
(a ** 2).sum().backward()
print("twice:", a.grad)
a.grad.zero_()
print("zeroed:", a.grad)

# %% A graph is freed by backward(); retain_graph=True keeps it for a second pass
q = torch.ones(2, requires_grad=True)
r = (q * 3).sum()
r.backward(retain_graph=True)
r.backward()
print("q.grad after two passes:", q.grad)
r = (q * 3).sum()
r.backward()
try:
    r.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80], "...")

# %% no_grad and detach: computing without recording
with torch.no_grad():
    z = a * 2
print("under no_grad:", z.requires_grad, " detached:", a.detach().requires_grad)

# %% A non-scalar output needs a gradient to start from: here d(sum)/dy is ones
m = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
out = m @ m
out.backward(torch.ones(2, 2))
print(m.grad)
print("by hand: ", torch.ones(2, 2) @ m.detach().T + m.detach().T @ torch.ones(2, 2))
