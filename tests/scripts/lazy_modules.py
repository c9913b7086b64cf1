# The Lazy modules (LazyConv1d/2d/3d, LazyConvTranspose1d/2d/3d, LazyBatchNorm1d/2d/3d,
# LazyInstanceNorm1d/2d/3d): UninitializedParameter reprs and state_dict before the first forward,
# has_uninitialized_params, initialization on the first forward with PyTorch's seeded values, the
# module becoming the non-lazy class, load_state_dict into a lazy module, PyTorch's messages.
import warnings
import torch
from torch import nn
from torch.nn.parameter import UninitializedParameter, UninitializedBuffer, is_lazy

warnings.simplefilter('ignore')
torch.manual_seed(0)
m = nn.LazyConv2d(4, 3, padding=1, groups=2)
print(m, m.weight, m.bias, m.in_channels, m.out_channels, m.has_uninitialized_params())
print(m.state_dict(), type(m).__name__, type(m).__module__)
print(isinstance(m.weight, UninitializedParameter), isinstance(m.weight, nn.Parameter), is_lazy(m.weight))
x = torch.randn(2, 6, 5, 5)
y = m(x)
print(m, type(m), m.has_uninitialized_params() if hasattr(m, 'has_uninitialized_params') else 'gone')
print(m.weight[0, 0], m.bias, y.shape, y[0, 0, 0])
print(hasattr(m, '_initialize_hook'), len(m._forward_pre_hooks), [n for n, _ in m.named_parameters()])
print(torch.equal(m(x), y))
c1 = nn.LazyConv1d(3, 2, stride=2, bias=False)
print(c1, c1.bias)
print(c1(torch.randn(4, 7)).shape, c1, c1.weight)
c3 = nn.LazyConv3d(2, (1, 2, 2))
print(c3, c3(torch.randn(1, 3, 2, 3, 3))[0, 1], c3, c3.bias)
t1 = nn.LazyConvTranspose1d(2, 3, stride=2, output_padding=1)
print(t1, t1(torch.randn(1, 3, 4)), t1, t1.weight.shape)
t2 = nn.LazyConvTranspose2d(3, 2, dilation=2)
print(t2, t2(torch.randn(2, 4, 3, 3)).shape, t2, t2.bias)
t3 = nn.LazyConvTranspose3d(1, 2, groups=1)
print(t3(torch.randn(2, 1, 2, 2, 2)).shape, t3, t3.weight.flatten())
c64 = nn.LazyConv2d(2, 1, dtype=torch.float64)
print(c64(torch.randn(1, 2, 1, 1, dtype=torch.float64)).dtype, c64.weight.dtype, c64.weight.flatten().tolist())

bn = nn.LazyBatchNorm1d()
print(bn, bn.state_dict())
out = bn(torch.arange(12.).reshape(4, 3))
print(bn, type(bn), out, bn.running_mean, bn.running_var, bn.num_batches_tracked, bn.weight)
bn2 = nn.LazyBatchNorm2d(momentum=0.5, affine=False)
print(bn2, bn2.weight, list(bn2.state_dict().keys()))
bn2(torch.randn(2, 3, 2, 2))
print(bn2, bn2.running_mean.shape, bn2.weight)
bn3 = nn.LazyBatchNorm3d(track_running_stats=False)
print(bn3, bn3.running_mean, bn3(torch.ones(2, 2, 1, 1, 2)).shape, bn3)
inorm = nn.LazyInstanceNorm2d()
print(inorm, list(inorm.state_dict().keys()))
print(inorm(torch.arange(16.).reshape(1, 2, 2, 4)), inorm, type(inorm))
in1 = nn.LazyInstanceNorm1d(affine=False, track_running_stats=False)
print(in1, in1.has_uninitialized_params(), in1(torch.randn(2, 3, 4)).shape, in1)
in3 = nn.LazyInstanceNorm3d(eps=1e-3)
print(in3(torch.randn(1, 2, 2, 2, 2)).shape, in3)

net = nn.Sequential(nn.LazyConv2d(4, 3), nn.ReLU(), nn.LazyBatchNorm2d(), nn.Flatten(), nn.LazyLinear(2))
print(net)
torch.manual_seed(1)
print(net(torch.randn(2, 1, 5, 5)))
print(net)
print(sum(p.numel() for p in net.parameters()))

src = nn.Conv2d(3, 2, 2)
lazy = nn.LazyConv2d(2, 2)
lazy.load_state_dict(src.state_dict())
print(lazy, lazy.weight.shape, torch.equal(lazy.weight, src.weight), lazy.has_uninitialized_params())
xx = torch.randn(1, 3, 4, 4)
print(torch.equal(lazy(xx), src(xx)), type(lazy).__name__)

for bad in [lambda: nn.LazyConv2d(4, 3, groups=2)(torch.randn(1, 3, 5, 5)),
            lambda: nn.LazyConv2d(4, 3)(torch.randn(5, 5)),
            lambda: nn.LazyConv1d(4, 3)(torch.randn(1, 2, 3, 5)),
            lambda: nn.LazyConv2d(4, 3).weight.shape,
            lambda: nn.LazyConv2d(4, 3, padding='same', stride=2),
            lambda: nn.LazyConvTranspose2d(4, 3, padding_mode='reflect'),
            lambda: nn.LazyConv2d(4, 3, groups=0),
            lambda: torch.zeros(2).materialize((2,))]:
    try:
        bad()
        print('ok')
    except Exception as e:
        print(type(e).__name__, e)
p = UninitializedParameter()
print(p, p.requires_grad, UninitializedBuffer(), UninitializedBuffer().requires_grad)
p.materialize((2, 3))
print(type(p).__name__, p.shape, is_lazy(p), p.requires_grad)
