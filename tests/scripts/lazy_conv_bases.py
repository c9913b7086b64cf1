# The lazy convolutions are convolutions before their first forward, as PyTorch 1.13's
# LazyConv2d(_LazyConvXdMixin, Conv2d): isinstance/issubclass, the mixin's place in the order,
# nn.Conv2d's own methods on the lazy module; the lazy norms are not BatchNorm2d (1.13's derive
# from _BatchNorm). A mixin's super().__init__() reaches a core module class after it in the order.
# The "Lazy modules are a new feature" warning shows once per run, also across a first forward.
import warnings
import torch
from torch import nn

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('default')
    a = nn.LazyConv2d(3, 3)
    a(torch.randn(1, 2, 5, 5))
    b = nn.LazyConv2d(3, 3)
    c = nn.LazyBatchNorm1d()
    c(torch.randn(3, 4))
    nn.LazyBatchNorm1d()
print(len(caught), [str(w.message)[:28] for w in caught])
warnings.simplefilter('ignore')

pairs = [(nn.LazyConv1d, nn.Conv1d), (nn.LazyConv2d, nn.Conv2d), (nn.LazyConv3d, nn.Conv3d),
         (nn.LazyConvTranspose1d, nn.ConvTranspose1d), (nn.LazyConvTranspose2d, nn.ConvTranspose2d),
         (nn.LazyConvTranspose3d, nn.ConvTranspose3d), (nn.LazyLinear, nn.Linear)]
for lazy, base in pairs:
    mro = [k.__name__ for k in lazy.__mro__]
    print(lazy.__name__, issubclass(lazy, base), isinstance(lazy(4, 3) if base is not nn.Linear else lazy(4), base),
          mro[:2] if lazy is not nn.LazyLinear else mro[-2:], base.__name__ in mro)
print(issubclass(nn.LazyConv2d, nn.Conv1d), issubclass(nn.LazyBatchNorm2d, nn.BatchNorm2d),
      issubclass(nn.LazyInstanceNorm2d, nn.InstanceNorm2d), isinstance(nn.LazyBatchNorm2d(), nn.Module))
from torch.nn.modules.lazy import LazyModuleMixin
print(issubclass(nn.LazyConv2d, LazyModuleMixin), [issubclass(k, LazyModuleMixin) for k, _ in pairs[:6]])

torch.manual_seed(0)
m = nn.LazyConv2d(4, 3, padding=1, bias=False)
print(m, type(m).__name__, m.in_channels, m.out_channels, m.padding, m.weight, m.bias)
torch.manual_seed(3)
m2 = nn.Conv2d(2, 3, 2)
m2.reset_parameters()
print(m2.weight.sum(), m2.bias)
m3 = nn.ConvTranspose1d(2, 3, 2)
m3.reset_parameters()
print(m3.weight.sum(), m3.bias)
print(m.padding_mode, m.dilation, m.groups, m.transposed, m.output_padding)
convs = [m for m in nn.Sequential(nn.LazyConv2d(8, 3), nn.ReLU(), nn.LazyConv2d(4, 3)).modules()
         if isinstance(m, nn.Conv2d)]
print(len(convs), [type(c).__name__ for c in convs])
y = m(torch.randn(1, 2, 5, 5))
print(type(m).__name__, m, y.shape, m.weight.shape, m.weight.sum())

t = nn.LazyConvTranspose2d(3, 2, stride=2, output_padding=1)
print(t, t.in_channels, t.out_channels)
y = t(torch.randn(2, 5, 4, 4))
print(t, y.shape, t.weight.shape, t.bias.sum())
s = nn.Sequential(nn.LazyConv1d(8, 3), nn.ReLU(), nn.LazyConv1d(4, 3, groups=2))
print(s)
print(s(torch.randn(2, 6, 10)).sum(), s)
for bad in [dict(groups=0), dict(padding='same', stride=2)]:
    try:
        nn.LazyConv2d(4, 3, **bad)
    except ValueError as e:
        print('ValueError', e)
try:
    nn.LazyConvTranspose2d(4, 3, padding_mode='reflect')
except ValueError as e:
    print('ValueError', e)
try:
    nn.LazyConv2d(4, 3)(torch.randn(3, 3))
except RuntimeError as e:
    print('RuntimeError', e)
m = nn.LazyConv2d(4, 3)
m.load_state_dict(nn.Conv2d(3, 4, 3).state_dict())
print(m.weight.shape, type(m).__name__, m.has_uninitialized_params())


# a mixin before a core module class: its super().__init__() builds the convolution
class Tagged:
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tag = 'built %s' % (self.kernel_size,)


class TaggedConv(Tagged, nn.Conv1d):
    def forward(self, x):
        return super().forward(x) * 2


torch.manual_seed(1)
tc = TaggedConv(2, 3, 3, stride=2)
print(tc, tc.tag, [k.__name__ for k in TaggedConv.__mro__][:3], tc(torch.ones(1, 2, 7)))
