# expected: by hand (torch._nnscope_name_grad_fn is nnscope's own: PyTorch 1.13 has no such function).
# It names a result's last node as PyTorch names the op a layer written in the language stands for
# (repl/lib/torch.nn._grad_names.py), only when that node is the call's own.
import torch

a = torch.randn(3, requires_grad=True)
b = a * 2
y = b + 1
print(torch._nnscope_name_grad_fn(y, "MyOpBackward0", a, b) is y, type(y.grad_fn).__name__, y.grad_fn.name())
# a node that belongs to an input keeps its name
print(type(torch._nnscope_name_grad_fn(b, "Other", b).grad_fn).__name__)
# a tensor without history is left alone
c = torch.ones(2)
print(torch._nnscope_name_grad_fn(c, "X") is c, c.grad_fn)
# the gradient is unchanged
y.sum().backward()
print(a.grad.tolist())
for bad in [lambda: torch._nnscope_name_grad_fn(1, "X"), lambda: torch._nnscope_name_grad_fn(y, 2),
            lambda: torch._nnscope_name_grad_fn(y, "")]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
