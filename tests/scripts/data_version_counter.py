# tensor.data shares the tensor's memory under a version counter of its own, as PyTorch's:
# an in-place change through .data before backward() is not an error (the gradient uses
# the changed values, as PyTorch's), while one through .detach() is caught.
import torch
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (w * w).sum()
w.data.mul_(2)
y.backward()
print(w.grad, w)
w2 = torch.tensor([1.0, 2.0], requires_grad=True)
y2 = (w2 * w2).sum()
w2.detach().mul_(2)
try:
    y2.backward()
except RuntimeError as e:
    print('RuntimeError:', str(e)[:60])
d = w.data
d.add_(1)
v = d[1:]
v.zero_()
print(w, d, v)
lin = torch.nn.Linear(2, 1)
out = lin(torch.ones(1, 2)).sum()
lin.weight.data.fill_(0.5)
out.backward()
print(lin.weight.grad, lin.weight)
torch.save({'w': w, 'd': w.data}, 'data_alias.tmp')
back = torch.load('data_alias.tmp')
back['d'].fill_(7)
print(back['w'], back['d'])
