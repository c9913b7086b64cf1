# scatter / scatter_ with reduce='add' | 'multiply' (a tensor or a number
# source), recorded without a derivative as PyTorch 1.13 records it
# (expected output from PyTorch 1.13).
import torch


def err(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)


x = torch.ones(2, 3)
idx = torch.tensor([[0, 1, 2], [0, 0, 0]])
src = torch.tensor([[2.0, 3.0, 4.0], [5.0, 6.0, 7.0]])
print(torch.scatter(x, 1, idx, src, reduce="add"))
print(torch.scatter(x, 0, torch.tensor([[1, 0, 1]]), src, reduce="multiply"))
print(x.clone().scatter_(1, idx, 2.0, reduce="multiply"), x.clone().scatter_(1, idx, 2.0, reduce="add"))
print(x.scatter(1, idx, src, reduce="add"), x)
print(torch.scatter(torch.tensor([[1, 2], [3, 4]]), 1, torch.tensor([[1, 1], [0, 0]]), torch.tensor([[5, 6], [7, 8]]), reduce="multiply"))
y = torch.zeros(3)
y.scatter_(0, torch.tensor([0, 2, 0, 2]), torch.tensor([1.0, 2.0, 3.0, 4.0]), reduce="add")
print(y)
xr = torch.ones(2, 3, requires_grad=True)
s = torch.scatter(xr, 1, idx, src, reduce="add")
print(s)
err(lambda: s.sum().backward())
err(lambda: x.clone().scatter_(1, idx, src, reduce="max"))
err(lambda: x.clone().scatter_(1, torch.tensor([[5, 0, 0], [0, 0, 0]]), src, reduce="add"))
