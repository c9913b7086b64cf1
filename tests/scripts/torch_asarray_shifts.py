# torch.asarray (memory shared with a tensor or NumPy array unless a copy is needed), the
# conjugating .mH / .H / .adjoint() of complex matrices, and torch.bitwise_left_shift /
# bitwise_right_shift (functions, methods, in place), against PyTorch 1.13.
import torch
x = torch.arange(4, dtype=torch.float)
A = torch.complex(x, x).reshape(2, 2)
print(A.adjoint(), A.mH, A.mT, A.H)
b = torch.tensor([1., 2.], requires_grad=True) * 2
d = torch.asarray(b, requires_grad=True)
print(d, d.is_leaf, d.data_ptr() == b.data_ptr())
e = torch.asarray(b)
print(e is b, e.grad_fn)
print(torch.asarray([1, 2.5]), torch.asarray([[1, 2], [3, 4]], dtype=torch.float64), torch.asarray(3))
import numpy as np
n = np.arange(3)
t = torch.asarray(n)
n[0] = 7
print(t, t.dtype, torch.asarray(n, dtype=torch.float32), torch.asarray(np.float32(2.5)))
t2 = torch.asarray(x, copy=True); t2[0] = 9; print(x)
print(torch.asarray(x, dtype=torch.float64, copy=False) if False else torch.asarray(x, dtype=torch.int32))
try:
    torch.asarray(x, dtype=torch.float64, copy=False)
except Exception as e:
    print(type(e).__name__, e)
print(torch.asarray((1, 2), device='cpu'), torch.asarray([True, False]))
a = torch.tensor([-1, -7, 3], dtype=torch.int8)
print(torch.bitwise_left_shift(a, torch.tensor([1, 0, 3], dtype=torch.int8)))
print(a.bitwise_left_shift(2), a.bitwise_right_shift(torch.tensor([1, 0, 1], dtype=torch.int8)), torch.bitwise_right_shift(a, 1))
b = a.clone(); b.bitwise_left_shift_(1); print(b)
b.bitwise_right_shift_(1); print(b)
print(torch.bitwise_left_shift(5, torch.tensor([1, 2])))
try:
    torch.bitwise_left_shift(torch.tensor([1.5]), 1)
except Exception as e:
    print(type(e).__name__, e)
u = torch.tensor([1, 128, 255], dtype=torch.uint8)
print(u.bitwise_left_shift(1), u.bitwise_right_shift(3), u.bitwise_right_shift(9))
# (a left shift by the width or more is undefined in 1.13: its scalar and vector kernels differ)
s = torch.tensor([-5, 5, -128], dtype=torch.int8)
print(s.bitwise_right_shift(7), s.bitwise_right_shift(8), s.bitwise_left_shift(7))
big = torch.tensor([2**40 + 3, -(2**50)])
print(torch.bitwise_left_shift(big, 20), torch.bitwise_right_shift(big, torch.tensor([3, 60])))
print(torch.bitwise_left_shift(torch.tensor([1, 2], dtype=torch.int16), torch.tensor([1, 2], dtype=torch.int32)).dtype)
