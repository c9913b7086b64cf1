# float32 prod carries PyTorch 1.13's bits: TensorIterator's layout for a reduction
# (as the sums', cpu/sum_iter.c) and prod_kernel_impl's loops (reduction128's 4 x 8
# lanes along a contiguous reduced dim or down 32 contiguous columns, one by one
# elsewhere), parallel_reduce's thread split; 1, 2 and 3 threads. Printed exactly.
import torch

def digest(t):
    s = 0.0
    for i, v in enumerate(t.reshape(-1).tolist()):
        s += v * (i % 7 + 1)
    return repr(s)

torch.manual_seed(0)
base = 1 + torch.randn(300000) * 0.01
for th in [1, 2, 3]:
    torch.set_num_threads(th)
    for n in [5, 31, 32, 33, 100, 1003, 40000, 300000]:
        v = base[:n] if n < 1000 else 1 + (base[:n] - 1) * 0.01
        print(th, n, repr(v.prod().item()))
    m = base[:240000].reshape(400, 600)
    print(th, "dim 0", digest(m.prod(0)), "dim 1", digest(m.prod(1)), "dim -1 keepdim", m.prod(-1, keepdim=True).shape)
    print(th, "t() 0", digest(m.t().prod(0)), "t() 1", digest(m.t().prod(1)))
    c = base[:240000].reshape(20, 30, 400)
    print(th, "3-d", digest(c.prod(1)), digest(c.prod(0)), digest(c.prod(2)), digest(c[:, ::2, 1::3].prod(1)))
    print(th, "step", repr(base[::7].prod().item()), repr(m[:, ::3].prod().item()))
x = torch.tensor(2.5)
print(x.prod(), x.prod(0), torch.tensor([]).prod(), torch.ones(2, 0).prod(1), torch.ones(0, 3).prod(0))
print(torch.tensor([1.5, -2.0, float("inf"), 0.0]).prod(), torch.tensor([3, 4, 5]).prod(), base[:10].double().prod().dtype)
print(torch.arange(1, 7).reshape(2, 3).prod(1, dtype=torch.float32), torch.tensor([[1.5, 2.0]]).prod(dtype=torch.float64))
w = (base[:12].reshape(3, 4)).clone().requires_grad_()
y = w.prod(1); print(type(y.grad_fn).__name__); y.sum().backward(); print(w.grad)
w.grad = None; w.prod().backward(); print(w.grad)
