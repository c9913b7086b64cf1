# the device model on a CPU-only build: x.device, torch.device, device= on factories, .to/.cpu/.cuda, torch.cuda
import torch
import torch.nn as nn
x = torch.ones(2, 3)
print(x.device, repr(x.device), x.is_cuda, x.device.type, x.device.index)
print(x.device == torch.device('cpu'), torch.device('cpu'), repr(torch.device('cuda:0')), torch.device('cuda', 1))
print(torch.device('cuda:0').type, torch.device('cuda:0').index, str(torch.device('cuda:0')))
for f in (lambda d: torch.zeros(2, device=d), lambda d: torch.ones(2, device=d), lambda d: torch.empty(2, device=d).shape,
          lambda d: torch.full((2,), 3.0, device=d), lambda d: torch.rand(2, device=d).shape, lambda d: torch.randn(2, device=d).shape,
          lambda d: torch.arange(3, device=d), lambda d: torch.linspace(0, 1, 3, device=d), lambda d: torch.eye(2, device=d),
          lambda d: torch.tensor([1, 2], device=d), lambda d: torch.zeros_like(x, device=d), lambda d: torch.ones_like(x, device=d),
          lambda d: torch.full_like(x, 2, device=d), lambda d: torch.empty_like(x, device=d).shape,
          lambda d: torch.rand_like(x, device=d).shape, lambda d: torch.randn_like(x, device=d).shape,
          lambda d: torch.randint(0, 5, (2,), device=d).shape, lambda d: torch.randperm(3, device=d).shape):
    print(f('cpu'), f(torch.device('cpu')).__class__.__name__ if False else '', f(torch.device('cpu')) is not None)
    try:
        f('cuda')
    except AssertionError as e:
        print('AssertionError', e)
y = x.to('cpu')
print(y is x, x.to(torch.device('cpu')) is x, x.cpu() is x, x.to(x) is x)
z = torch.zeros(2, dtype=torch.float64)
print(x.to(z).dtype, x.to('cpu', torch.float64).dtype, x.to(torch.device('cpu'), dtype=torch.int64).dtype, x.to(device='cpu').device)
for bad in (lambda: x.cuda(), lambda: x.to('cuda'), lambda: x.to('cuda:0'), lambda: x.to(torch.device('cuda')),
            lambda: torch.zeros(2, device='cuda:0')):
    try:
        bad()
    except AssertionError as e:
        print('AssertionError', e)
m = nn.Linear(3, 2)
w = m.weight
print(m.to('cpu') is m, m.to(torch.device('cpu')) is m, m.cpu() is m, m.weight is w, m.weight.device)
try:
    m.cuda()
except AssertionError as e:
    print('AssertionError', e)
print(m.weight is w)
print(torch.cuda.is_available(), torch.cuda.device_count())
try:
    torch.device('gpu')
except RuntimeError as e:
    print('RuntimeError', e)
