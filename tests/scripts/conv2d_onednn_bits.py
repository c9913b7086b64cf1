# float32 conv2d, conv1d and their input, weight and bias gradients carry
# PyTorch 1.13's bits where it runs oneDNN's jit:avx2 convolution (a batch of
# more than one, no groups, no dilation): each result is printed as the md5 of
# its float32 bytes. Shapes cover strides 1 and 2, paddings 0-2, square and
# non-square kernels, 1-64 channels (blocks of 8 and their tails), output
# widths below 15, below 40 and above (oneDNN's input-gradient groups), no bias.
import hashlib
import struct

import torch
import torch.nn.functional as F


def md5(t):
    v = t.detach().flatten().tolist()
    return hashlib.md5(struct.pack("%df" % len(v), *v)).hexdigest()[:12]


# one thread: with more, oneDNN splits the weight and bias gradients' batch (conv_exact_paths.py)
torch.set_num_threads(1)
torch.manual_seed(0)
cases = [
    # n, c, o, h, w, kernel, stride, padding, bias
    (4, 1, 16, 28, 28, 3, 2, 1, True),
    (4, 16, 16, 14, 14, 3, 2, 1, True),
    (4, 16, 10, 7, 7, 3, 2, 1, True),
    (3, 3, 16, 32, 32, 3, 1, 1, True),
    (2, 16, 32, 32, 32, 3, 2, 1, True),
    (2, 32, 32, 16, 16, 3, 1, 1, False),
    (4, 3, 6, 32, 32, 5, 1, 0, True),
    (4, 6, 16, 14, 14, 5, 1, 0, True),
    (2, 8, 64, 12, 12, 3, 1, 1, True),
    (2, 20, 24, 45, 50, (3, 2), 1, (2, 1), True),
    (2, 64, 20, 9, 9, 3, 1, 2, True),
    (2, 12, 9, 11, 17, (2, 5), 2, 1, True),
]
for n, c, o, h, w, k, s, p, bias in cases:
    conv = torch.nn.Conv2d(c, o, k, stride=s, padding=p, bias=bias)
    x = torch.randn(n, c, h, w, requires_grad=True)
    y = conv(x)
    (y * torch.randn(y.shape)).sum().backward()
    grads = [x.grad, conv.weight.grad] + ([conv.bias.grad] if bias else [])
    print(tuple(y.shape), md5(y), *[md5(g) for g in grads])

# conv1d runs as a conv2d of height 1
x = torch.randn(4, 6, 50, requires_grad=True)
conv = torch.nn.Conv1d(6, 10, 5, padding=2)
y = conv(x)
(y * torch.randn(y.shape)).sum().backward()
print(tuple(y.shape), md5(y), md5(x.grad), md5(conv.weight.grad), md5(conv.bias.grad))

# a functional call, and a short training loop: the loss after each step
x = torch.randn(8, 3, 16, 16)
w = torch.randn(4, 3, 3, 3, requires_grad=True)
b = torch.randn(4, requires_grad=True)
y = F.conv2d(x, w, b, padding=1)
y.square().mean().backward()
print(md5(y), md5(w.grad), md5(b.grad))

model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(8, 8, 3, stride=2),
                            torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(8 * 7 * 7, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
data, target = torch.randn(16, 3, 16, 16), torch.randint(0, 10, (16,))
for step in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(model(data), target)
    loss.backward()
    opt.step()
    print(step, loss.item())
