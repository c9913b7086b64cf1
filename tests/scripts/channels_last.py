# channels_last as a ResNet-style training script uses it: the model and the batch converted
# with memory_format=, the layout queried with is_contiguous(memory_format=) and stride(),
# and the numbers unchanged by the layout.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(2, 3, 4, 5)
y = x.to(memory_format=torch.channels_last)
print(y.shape, y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last))
print(torch.equal(x, y), y.to(memory_format=torch.channels_last) is y, x.to(memory_format=torch.contiguous_format) is x)
print(x.contiguous(memory_format=torch.channels_last).stride(), y.contiguous().stride(), y.contiguous() is y)
print(x.clone(memory_format=torch.channels_last).stride(), y.clone().stride(), x.clone().stride())
print(y.clone(memory_format=torch.contiguous_format).stride(), y.clone(memory_format=torch.preserve_format).stride())
print(x.is_contiguous(memory_format=torch.contiguous_format), x.is_contiguous(memory_format=torch.channels_last))
z = torch.randn(2, 3, 4, 5, 6)
w = z.to(memory_format=torch.channels_last_3d)
print(w.stride(), w.is_contiguous(memory_format=torch.channels_last_3d), w.is_contiguous(memory_format=torch.channels_last))
print(torch.ones(1, 1, 3, 4).is_contiguous(memory_format=torch.channels_last), torch.ones(2, 3, 1, 1).is_contiguous(memory_format=torch.channels_last))
print(torch.ones(2, 3).is_contiguous(memory_format=torch.channels_last))
h = x.to(torch.float64, memory_format=torch.channels_last)
print(h.dtype, h.stride())
print(x.to(memory_format=torch.channels_last, copy=True).stride())
for bad in [lambda: torch.randn(3, 4).contiguous(memory_format=torch.channels_last),
            lambda: torch.randn(3, 4, 5, 6).to(memory_format=torch.channels_last_3d),
            lambda: y.contiguous(memory_format=torch.preserve_format),
            lambda: print(x.is_contiguous(memory_format=torch.preserve_format), y.is_contiguous(memory_format=torch.preserve_format))]:
    try:
        bad()
    except RuntimeError as e:
        print('RuntimeError:', e)
try:
    x.contiguous(memory_format=1)
except TypeError as e:
    print('TypeError:', e)
a = torch.randn(2, 3, 4, 5, requires_grad=True)
b = a.to(memory_format=torch.channels_last)
c = a.contiguous(memory_format=torch.channels_last)
print(b.grad_fn.name(), c.grad_fn.name())
(b * 2 + c).sum().backward()
print(a.grad.stride(), a.grad[0, 0, 0])

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 4, 1),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
ref = model(x)
m2 = model.to(memory_format=torch.channels_last)
print(m2 is model, model[0].weight.stride(), model[3].weight.stride(), model[6].weight.stride())
print(model[0].weight.is_contiguous(memory_format=torch.channels_last), type(model[0].weight).__name__)
out = model(y)
print(torch.allclose(out, ref, atol=1e-6), out.shape)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss = nn.functional.cross_entropy(out, torch.tensor([0, 1]))
loss.backward()
print(model[0].weight.grad.shape, loss.item())
opt.step()
print(model(y).detach().sum().item())
