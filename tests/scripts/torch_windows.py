# torch's window functions, periodic and symmetric, in each float dtype (issue 16)
import torch


def show(name, f):
    try:
        r = f()
        print(name, r)
    except Exception as e:
        print(name, type(e).__name__, e)


torch.set_printoptions(precision=8)
for w in ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"]:
    f = getattr(torch, w)
    for n in [0, 1, 2, 5, 8, 13]:
        show(w + " " + str(n), lambda: f(n))
        show(w + " symmetric " + str(n), lambda: f(n, False))
    show(w + " f64", lambda: f(7, dtype=torch.float64))
    show(w + " bf16", lambda: f(6, dtype=torch.bfloat16))
    show(w + " f16", lambda: f(6, dtype=torch.float16))
    show(w + " int", lambda: f(4, dtype=torch.int64))
    show(w + " bool", lambda: f(4, dtype=torch.bool))
    show(w + " negative", lambda: f(-1))
    show(w + " float length", lambda: f(3.0))
    show(w + " requires_grad", lambda: f(3, requires_grad=True))
    big = f(1000)
    print(w + " 1000", big.sum().item(), big[::97])
show("hamming alpha beta", lambda: torch.hamming_window(5, True, 0.5, 0.3))
show("hamming kw", lambda: torch.hamming_window(5, periodic=False, alpha=0.5, beta=0.3))
show("kaiser beta", lambda: torch.kaiser_window(6, True, 5.0))
show("kaiser kw", lambda: torch.kaiser_window(6, periodic=False, beta=8.0))
w = torch.hann_window(4, requires_grad=True)
print(w.is_leaf, w.grad_fn)
