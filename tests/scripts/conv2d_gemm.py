# Conv2d through im2col + GEMM: forward and gradients over strides, padding, dilation, groups, batch sizes and
# dtypes (float32 against float64 on the same data), and the LeNet-style model of bench conv_step
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
cases = [((2, 3, 9, 8), (4, 3, 3, 3), 1, 0, 1, 1), ((3, 4, 7, 6), (6, 2, 3, 2), 2, 1, (2, 1), 2),
         ((1, 2, 5, 5), (2, 2, 5, 5), 1, 2, 1, 1), ((4, 6, 10, 9), (6, 1, 3, 3), (1, 2), (1, 0), 1, 6),
         ((0, 3, 6, 6), (2, 3, 3, 3), 1, 0, 1, 1), ((5, 1, 12, 12), (3, 1, 4, 4), 3, 1, 2, 1)]
for xs, ws, stride, padding, dilation, groups in cases:
    x = torch.randn(xs, dtype=torch.float64, requires_grad=True)
    w = torch.randn(ws, dtype=torch.float64, requires_grad=True)
    b = torch.randn(ws[0], dtype=torch.float64, requires_grad=True)
    y = F.conv2d(x, w, b, stride, padding, dilation, groups)
    (y * y).sum().backward()
    x32, w32, b32 = [t.detach().float().requires_grad_() for t in (x, w, b)]
    y32 = F.conv2d(x32, w32, b32, stride, padding, dilation, groups)
    (y32 * y32).sum().backward()
    close = [bool(((p.double() - q).abs() <= 1e-4 * (1 + q.abs())).all()) for p, q in
             ((y32, y), (x32.grad, x.grad), (w32.grad, w.grad), (b32.grad, b.grad))]
    print(tuple(y.shape), close, round(y.sum().item(), 6), round(x.grad.sum().item(), 6),
          round(w.grad.abs().sum().item(), 6), round(b.grad.sum().item(), 6))
    print(y.flatten()[:4], w.grad.flatten()[-3:])
net = nn.Sequential(nn.Conv2d(3, 6, 5), nn.ReLU(), nn.Conv2d(6, 6, 2, stride=2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                    nn.Conv2d(16, 16, 2, stride=2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84),
                    nn.ReLU(), nn.Linear(84, 10))
opt = torch.optim.SGD(net.parameters(), lr=0.01)
x, target = torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,))
for step in range(3):
    loss = F.cross_entropy(net(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
