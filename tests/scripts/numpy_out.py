# NumPy's out= arguments (NumPy 1.24): ufuncs write into out (same_kind casting,
# broadcasting into out's shape) and return it; reductions cast unsafe; errors
import numpy as np
import torch

x = np.arange(3)
out = np.empty(3)
r = np.add(x, 1, out=out)
print(r is out, out)
np.multiply(x, x, out=out)
print(out)
np.exp(x, out=out)
print(out)
np.sqrt(np.array([4.0, 9.0, 16.0]), out=out)
print(out)
y = np.zeros((2, 3))
print(np.add(np.ones(3), 1, out=y) is y, y)
f = np.zeros(3, dtype=np.float32)
np.multiply(np.arange(3), 2.5, out=f)
print(f, f.dtype)
b = np.zeros(3, dtype=bool)
np.greater(np.arange(3), 0, out=b)
print(b)
t = (np.zeros(2),)
r = np.add([1, 2], [3, 4], out=t)
print(r, r is t[0])
print(repr(np.add(1, 2, out=None)))
np.subtract(x, 1, out=x)
print(x)
# out= through a tensor's memory (the PyTorch tutorial's np.add(n, 1, out=n))
t = torch.ones(5, device='cpu')  # (on a CPU even where another device is the default)
n = t.numpy()
np.add(n, 1, out=n)
print(t)
print(n)
# reductions
o = np.zeros((), dtype=int)
r = np.sum(np.array([1.5, 2.5]), out=o)
print(repr(r), r is o)
o = np.zeros(3)
print(np.mean(np.ones((2, 3)), axis=0, out=o) is o, o)
o = np.zeros(3)
np.amax(np.arange(6).reshape(2, 3), axis=0, out=o)
print(o)
np.amin(np.arange(6).reshape(2, 3), axis=0, out=o)
print(o)
np.sum(np.arange(6).reshape(2, 3), axis=1, out=o[:2])
print(o)
# errors
for call in [lambda: np.add(np.arange(3), 1.5, out=np.arange(3)),
             lambda: np.add(np.ones((2, 3)), 1, out=np.zeros(3)),
             lambda: np.add(np.arange(3), 1, out=[1, 2, 3]),
             lambda: np.add(np.arange(3), 1, out=(np.zeros(3), np.zeros(3))),
             lambda: np.negative(np.ones(2), out=np.zeros(3))]:
    try:
        call()
    except (TypeError, ValueError) as e:
        print(isinstance(e, TypeError), e)
