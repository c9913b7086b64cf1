# Indexing with several index tensors at once (and a range, a list, a mask), as the
# makemore lectures use it: get, set, -=, backward, errors leaving the tensor unchanged.
import torch
torch.manual_seed(0)
P = torch.randn(5, 4, requires_grad=True)
Y = torch.tensor([0, 3, 1, 2, 2])
print(P[torch.arange(5), Y])
l = -P[range(5), Y].log_softmax(0).mean()
l.backward()
print(l, P.grad)
print(str(l.grad_fn.next_functions[0][0].next_functions[0][0]).split()[0])
d = torch.zeros(5, 4)
d[range(5), Y] = -1.0
d[range(5), Y] -= 1
print(d)
x = torch.arange(60.).view(3, 4, 5)
print(x[[0, 2], :, [1, 3]])
print(x[:, [0, 2], [1, 3]])
print(x[[[0], [2]], 1, [1, 3]])
print(x[torch.tensor([True, False, True]), 2, [4, 0]])
print(x[..., [0, 1], [2, -1]])
print(x[1:, None, [0, 3], [1, 2]].shape)
x[:, [0, 2], [1, 3]] = torch.tensor([100., 200.])
print(x[:, [0, 2], [1, 3]])
x[[0, 2], :, [1, 3]] = 7.
print(x.sum())
w = torch.randn(3, 4, 5, requires_grad=True)
w[[0, 2], :, [1, 3]].pow(2).sum().backward()
print(w.grad[:, :, 1], w.grad.sum())
before = x.clone()
for bad in (([0, 1], [1, 1, 1]), (torch.tensor([0.5]), [1])):
    try:
        x[bad] = 1.
    except IndexError as e:
        print("IndexError:", e)
    try:
        x[bad]
    except IndexError as e:
        print("IndexError:", e)
print(torch.equal(before, x))
try:  # PyTorch writes the in-bounds part before it finds the bad index; nnscope writes nothing
    x[[0, 1], [1, 9]]
except IndexError as e:
    print("IndexError:", e)
