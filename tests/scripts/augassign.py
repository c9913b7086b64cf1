# Augmented assignment follows Python's __iadd__ protocol: tensors, lists, sets and
# dicts update in place (aliases see it), user classes may define __iadd__ & co.,
# immutable values rebind.
import torch
import torch.nn as nn

# a leaf updated inside no_grad stays the same leaf, with requires_grad and .grad
w = torch.ones(3, requires_grad=True)
alias = w
(w * 2).sum().backward()
with torch.no_grad():
    w -= 0.1 * w.grad
    w *= 2
    w /= 4
    w += 1
print(w, w.requires_grad, w.grad, w.is_leaf, w is alias)
print(w.grad_fn)

# outside no_grad: PyTorch's leaf error, the value is unchanged
try:
    w -= 1
except RuntimeError as e:
    print("RuntimeError:", e)
print(w)

# a parameters() loop trains the model
torch.manual_seed(0)
model = nn.Linear(2, 1)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
y = torch.tensor([[1.0], [2.0]])
for step in range(3):
    loss = ((model(x) - y) ** 2).mean()
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.01 * p.grad
    print(step, round(loss.item(), 4))
print(model.weight.requires_grad, model.weight.is_leaf)

# tensors: every operator in place, aliases see it
t = torch.arange(6.0)
u = t
t += 1
t -= 0.5
t *= 2
t /= 3
t **= 2
t //= 2
t %= 3
print(t, u, t is u)
i = torch.tensor([5, 6, 7])
j = i
i *= 3
i //= 2
i -= torch.tensor([1, 1, 1])
print(i, j)

# a non-leaf updated in place records the op
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
b += 1
print(b.grad_fn.name())
b.sum().backward()
print(a.grad)

# dtype and shape errors as PyTorch
k = torch.tensor([1, 2])
try:
    k += 1.5
except RuntimeError as e:
    print("RuntimeError:", e)
print(k)
z = torch.zeros(3)
try:
    z += torch.ones(2, 3)
except RuntimeError as e:
    print("RuntimeError:", e)
z += torch.ones(3)
z += 1
print(z)

# subscripts and attributes follow the protocol
m = torch.zeros(2, 3)
m[0] += 1
m[1, 2] += 5
m[:, 1] -= 2
print(m)
lst = [1, 2, [3]]
lst[0] += 10
lst[2] += [4]
print(lst)

class Box:
    pass

box = Box()
box.t = torch.zeros(2)
keep = box.t
box.t += 3
box.n = 1
box.n += 1
print(box.t, keep, box.n)
d = {"a": 1, "t": torch.ones(1)}
kt = d["t"]
d["a"] += 2
d["t"] *= 5
print(d, kt)

# lists, sets and dicts in place
l1 = [1]
l2 = l1
l1 += [2]
l1 += (3, 4)
l1 += "ab"
l1 += range(2)
l1 += {"k": 0}
l1 *= 2
print(l1, l2 is l1)
try:
    l1 += 5
except TypeError as e:
    print("TypeError:", e)
s1 = {1, 2}
s2 = s1
s1 |= {3}
s1 -= {1}
s1 &= {2, 3, 4}
s1 ^= {9}
print(sorted(s1), s2 is s1)
d1 = {"a": 1}
d2 = d1
d1 |= {"b": 2}
print(d1, d2 is d1)

# immutable values rebind
n = 5
n2 = n
n += 1
f = 1.5
f *= 2
st = "ab"
st2 = st
st += "c"
tp = (1,)
tp2 = tp
tp += (2,)
print(n, n2, f, st, st2, tp, tp2)

# user classes: __iadd__ and friends, NotImplemented falls back to __add__
class Acc:
    def __init__(self, v):
        self.v = v
    def __iadd__(self, o):
        self.v += o
        return self
    def __isub__(self, o):
        self.v -= o
        return self
    def __imul__(self, o):
        self.v *= o
        return self
    def __itruediv__(self, o):
        self.v /= o
        return self
    def __ifloordiv__(self, o):
        self.v //= o
        return self
    def __imod__(self, o):
        self.v %= o
        return self
    def __ipow__(self, o):
        self.v **= o
        return self
    def __imatmul__(self, o):
        self.v = [self.v, o]
        return self
    def __ior__(self, o):
        return "ior result"

c = Acc(10)
c2 = c
c += 5
c -= 3
c *= 4
c /= 6
print(c.v, c is c2)
c.v = 17
c //= 2
c %= 5
c **= 3
print(c.v)
c @= 1
print(c.v)
c |= 0
print(c, c2.v)

class Plain:
    def __init__(self, v):
        self.v = v
    def __add__(self, o):
        return Plain(self.v + o)
    def __iadd__(self, o):
        return NotImplemented

p1 = Plain(1)
p2 = p1
p1 += 2
print(p1.v, p2.v, p1 is p2)

class OnlyAdd:
    def __init__(self, v):
        self.v = v
    def __add__(self, o):
        return OnlyAdd(self.v + o)

q1 = OnlyAdd(1)
q2 = q1
q1 += 1
print(q1.v, q2.v, q1 is q2)
try:
    q1 -= 1
except TypeError as e:
    print("TypeError:", e)
