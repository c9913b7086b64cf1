# float32 gelu's tanh form, the silu, gelu, tanh, sigmoid, elu and softplus backwards, addcmul and addcdiv carry
# PyTorch 1.13's bits: ATen's cpu_kernel_vec (Sleef's tanhf8/expf8 u10 on pairs of
# 8-lane vectors, tanhf/expf on the rest of each thread range, gelu's own grain), and
# addcmul's fused multiply-add. Every element is in the digest (a weighted sum in
# double, printed exactly), at 1, 2 and 3 threads, over a sample of the float range.
import torch
import torch.nn.functional as F

def digest(t):
    s = 0.0
    for i, v in enumerate(t.reshape(-1).tolist()):
        s += v * (i % 7 + 1)
    return repr(s)

torch.manual_seed(0)
mags = torch.tensor([2.0 ** e for e in range(-20, 8)])
x = torch.randn(40011) * mags.repeat(1429)[:40011]        # every scale from 1e-6 to 128
x = torch.cat([x, torch.tensor([0.0, -0.0, 9.0, -9.0, 20.0, -20.0, 88.0, -88.0, 1e-30])])
g = torch.randn(x.numel())
small = x[:1003]
for th in [1, 2, 3]:
    torch.set_num_threads(th)
    for n, v in [("small", small), ("mid", x[:20011]), ("large", x)]:
        y = F.gelu(v, approximate="tanh")
        print(th, n, "gelu tanh", digest(y), y[:3].tolist())
        for name, f in [("silu", F.silu), ("gelu tanh", lambda t: F.gelu(t, approximate="tanh")), ("tanh", torch.tanh),
                        ("sigmoid", torch.sigmoid), ("elu", F.elu), ("softplus", F.softplus), ("gelu", F.gelu)]:
            xx = v.clone().requires_grad_()
            f(xx).backward(g[:v.numel()])
            print(th, n, name, "backward", digest(xx.grad))
        t1, t2 = g[:v.numel()], v.flip(0)
        print(th, n, "addcmul", digest(torch.addcmul(v, t1, t2)), digest(torch.addcmul(v, t1, t2, value=0.3)))
        print(th, n, "addcdiv", digest(torch.addcdiv(v, t1, t2 + 1000)), digest(torch.addcdiv(v, t1, t2 + 1000, value=-0.7)))
        z = v.clone(); z.addcmul_(t1, t2, value=2); print(th, n, "addcmul_", digest(z))

# strided and permuted input, a broadcast grad, batches of rows
m = x[:40000].reshape(200, 200)
print("gelu tanh t()", digest(F.gelu(m.t(), approximate="tanh")))
print("gelu tanh [::2]", digest(F.gelu(m[:, ::2], approximate="tanh")))
xx = m.clone().requires_grad_(); F.silu(xx).sum().backward(); print("silu sum backward", digest(xx.grad))
xx = m.clone().requires_grad_(); F.gelu(xx, approximate="tanh").sum().backward(); print("gelu tanh sum backward", digest(xx.grad))
print("addcmul broadcast", digest(torch.addcmul(m, m[0], m[:, :1], value=0.5)))

# gradients, grad_fn, other dtypes, and errors
a = torch.randn(3, 4, requires_grad=True); b = torch.randn(4, requires_grad=True); c = torch.randn(3, 1, requires_grad=True)
y = torch.addcmul(a, b, c, value=0.7); print(type(y.grad_fn).__name__)
(y * y).sum().backward(); print(a.grad, b.grad, c.grad)
a.grad = b.grad = c.grad = None
y = torch.addcdiv(a, b, c, value=-1.5); print(type(y.grad_fn).__name__)
(y * y).sum().backward(); print(a.grad, b.grad, c.grad)
d = torch.randn(5, dtype=torch.float64)
print(torch.addcmul(d, d, d, value=0.1), torch.addcdiv(d, d, d.abs() + 1))
i = torch.arange(5)
print(torch.addcmul(i, i, i, value=3), torch.addcmul(d, i.float(), i.float()).dtype)
for bad in [lambda: torch.addcmul(torch.ones(2), torch.ones(3), torch.ones(2)),
            lambda: torch.addcmul(torch.ones(2), torch.ones(2), "x")]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
