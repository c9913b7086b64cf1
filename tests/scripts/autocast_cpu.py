# torch.autocast on the CPU (bfloat16): the ops of PyTorch 1.13's "lower precision" list run in
# bfloat16, those of its "fp32" list in float32, the rest in their inputs' dtype; gradients reach
# float32 leaves as float32. Nesting, enabled=False, the decorator and the state functions.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(4, 8)
w = torch.randn(3, 8)
b = torch.randn(3)
img = torch.randn(2, 3, 6, 6)
cw = torch.randn(4, 3, 3, 3)

print(torch.is_autocast_cpu_enabled(), torch.get_autocast_cpu_dtype(), torch.is_autocast_enabled())
with torch.autocast(device_type='cpu', dtype=torch.bfloat16) as ctx:
    print(ctx, torch.is_autocast_cpu_enabled())
    y = F.linear(x, w, b)
    print('linear', y.dtype, y)
    print('matmul', (x @ w.t()).dtype, x @ w.t())
    print('mm', torch.mm(x, w.t()))
    print('bmm', torch.bmm(x[None], w.t()[None]).dtype)
    print('matmul 1d', torch.matmul(x, w[0]))
    # (dtypes only: nnscope's bfloat16 convolution does not round as ATen's slow path does)
    print('conv2d', F.conv2d(img, cw, padding=1).dtype, 'conv1d', F.conv1d(img[:, :, 0], cw[:, :, 0]).dtype)
    print('conv3d', F.conv3d(img[:, :, None], cw[:, :, None]).dtype, nn.Conv2d(3, 2, 3)(img).dtype)
    print('float64 stays', F.linear(x.double(), w.double()).dtype)
    print('relu keeps', F.relu(y).dtype, 'sum keeps', y.sum().dtype, 'softmax keeps', F.softmax(y, -1).dtype)
    print('mse fp32', F.mse_loss(y, torch.zeros(4, 3)).dtype, F.mse_loss(y, torch.zeros(4, 3)))
    ce = F.cross_entropy(y, torch.tensor([0, 1, 2, 0]))
    print('cross_entropy fp32', ce.dtype, ce)
    print('prod fp32', y.prod().dtype, 'l1 fp32', F.l1_loss(y, y.float()).dtype)
    print('mixed add', (x + y[:, :1]).dtype)
    with torch.autocast('cpu', enabled=False):
        print('disabled inside', torch.is_autocast_cpu_enabled(), F.linear(x, w, b).dtype)
        print('bf16 input stays', F.linear(x.bfloat16(), w.bfloat16()).dtype)
    print('back on', torch.is_autocast_cpu_enabled(), torch.mm(x, w.t()).dtype)
print('after', torch.is_autocast_cpu_enabled(), torch.mm(x, w.t()).dtype)

# a model trained a step under autocast: bfloat16 activations, float32 loss and gradients
torch.manual_seed(1)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
target = torch.tensor([0, 2, 1, 1])
for step in range(2):
    opt.zero_grad()
    with torch.autocast('cpu'):
        out = model(x)
        loss = F.cross_entropy(out, target)
    loss.backward()
    print(step, out.dtype, loss.dtype, loss.item(), type(out.grad_fn).__name__)
    print([p.grad.dtype for p in model.parameters()])
    print(model[0].weight.grad[0, :4], model[2].bias.grad)
    opt.step()
print(model[2].bias)

# leaf gradients through the casts
a = torch.randn(3, 5, requires_grad=True)
m = torch.randn(5, 2, requires_grad=True)
with torch.cpu.amp.autocast():
    r = a @ m
print(r.dtype, type(r.grad_fn).__name__, type(r.grad_fn.next_functions[0][0]).__name__)
r.float().sum().backward()
print(a.grad.dtype, a.grad, m.grad)

# the decorator, torch.amp.autocast and torch.cpu.amp.autocast
@torch.autocast('cpu')
def forward(t):
    return torch.mm(t, w.t()), torch.is_autocast_cpu_enabled()

print(forward(x)[0].dtype, forward(x)[1], torch.is_autocast_cpu_enabled(), forward.__name__)
with torch.amp.autocast('cpu'):
    print(torch.mm(x, w.t()).dtype)
print(torch.cpu.amp.autocast()(lambda: torch.mm(x, w.t()))().dtype)

# float16 on the CPU and 'cuda' on a CPU-only build: warned and disabled; other devices refused
warnings.simplefilter('always')
with warnings.catch_warnings(record=True) as caught:
    try:
        with torch.autocast('cpu', dtype=torch.float16):  # warns, then refuses the dtype on entering
            pass
    except RuntimeError as e:
        print('RuntimeError', e, torch.is_autocast_cpu_enabled(), torch.get_autocast_cpu_dtype())
    with torch.autocast('cuda'):
        print(torch.is_autocast_enabled(), torch.mm(x, w.t()).dtype)
for c in caught:
    print(c.category.__name__, str(c.message))
try:
    torch.autocast('mps')
except RuntimeError as e:
    print('RuntimeError', e)
try:
    torch.set_autocast_cpu_enabled(1)
except TypeError as e:
    print('TypeError', e)

# the ops written in the language (addmm, baddbmm, addbmm), einsum, attention, the fp32 list's pads
with torch.autocast('cpu'):
    print(torch.addmm(b, x, w.t()))
    print(torch.baddbmm(b, x[None], w.t()[None]))
    print(torch.addbmm(b, x[None].expand(2, 4, 8), w.t()[None].expand(2, 8, 3)))
    print(torch.einsum('ij,kj->ik', x, w))
    print(F.avg_pool3d(torch.randn(1, 1, 2, 2, 2), 1).dtype, F.pad(img.bfloat16(), (1, 1, 1, 1), mode='reflect').dtype)
    print(torch.inverse(torch.eye(3).bfloat16() * 2).dtype, torch.trace(torch.eye(3).bfloat16()).dtype)
    mha = nn.MultiheadAttention(8, 2)
    o, a = mha(x[:, None], x[:, None], x[:, None])
    print(o.dtype, a.dtype)
    print(o)
