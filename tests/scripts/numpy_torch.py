# numpy and torch together: Tensor.numpy() and torch.from_numpy share memory,
# torch.tensor/as_tensor of an ndarray, dtypes across, and the errors.
import numpy as np
import torch

t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
a = t.numpy()
print(a, repr(a), a.dtype)
t[0, 0] = 100
a[1, 2] = -1
print(t, a)
n = np.arange(4)
f = torch.from_numpy(n)
f += 10
print(f, n, f.dtype)
print(torch.tensor(np.array([1.5, 2.5])), torch.tensor(np.array([1, 2]), dtype=torch.float32))
c = np.ones(3)
g = torch.as_tensor(c)
g[0] = 5
print(g, c, torch.as_tensor([1, 2]), torch.as_tensor(np.zeros(2, dtype=np.float32), dtype=torch.float64))
print(torch.ones(2, dtype=torch.int32).numpy().dtype, torch.tensor([True]).numpy(), torch.tensor(2.5).numpy())
print(torch.tensor([1.0, 2.0]).numpy() * 2, np.array(torch.tensor([1.0, 2.0])), np.mean(torch.tensor([1.0, 2.0]).numpy()))
x = torch.ones(2, requires_grad=True)
print(x.detach().numpy(), (x * 2).detach().numpy())
print('%.4f' % torch.tensor(0.25).numpy(), float(torch.tensor([1.5]).numpy()))
np.random.seed(1)
data = torch.from_numpy(np.random.randn(3, 2).astype(np.float32))
print(data, data.dtype)
for bad in ['x.numpy()', 'torch.from_numpy([1, 2])', 'np.array(x)', '(x * 2).numpy()']:
    try:
        eval(bad)
    except Exception as err:
        print(bad, '->', type(err).__name__, err)
