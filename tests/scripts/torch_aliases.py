# torch functions and methods that are other names of what is there (torch._aliases): the
# torch.nn.functional forms torch exports, torch.xxx_(t), float_power, ldexp, signbit, msort,
# sum_to_size, fill_diagonal_, apply_/map_, resize_, layout, the determinism switches; a
# number as the input of torch.add/sub/mul/div/pow/floor_divide/remainder, int ** int tensor.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 6, 6)
w = torch.randn(3, 2, 3, 3)
print(torch.equal(torch.conv2d(x, w, padding=1), F.conv2d(x, w, padding=1)), torch.max_pool2d(x, 2).shape)
print(torch.avg_pool1d(torch.arange(8.).view(1, 1, 8), 2), torch.adaptive_max_pool1d(torch.arange(6.).view(1, 1, 6), 2))
print(torch.cosine_similarity(torch.ones(2, 3), torch.arange(6.).view(2, 3)), torch.pairwise_distance(torch.ones(2, 3), torch.zeros(2, 3)))
t = torch.tensor([-1.5, 0.25, 4.0])
for name in ['abs_', 'exp_', 'sigmoid_', 'relu_', 'neg_', 'zero_']:
    u = t.clone()
    r = getattr(torch, name)(u)
    print(name, r is u, u)
u = t.clone(); torch.clamp_(u, min=0.0, max=1.0); print(u)
u = t.clone(); torch.fill_(u, 7); print(u)
print(torch.float_power(torch.tensor([2, 3]), 2), torch.float_power(2, torch.tensor([0.5])), torch.tensor([2.]).float_power(3))
try:
    torch.tensor([2.]).float_power_(2)
except RuntimeError as e:
    print(e)
print(torch.tensor([2.], dtype=torch.float64).float_power_(3))
print(torch.ldexp(torch.tensor([1., 3.]), torch.tensor([2, 3])), torch.tensor([1.5]).ldexp(torch.tensor([4])))
print(torch.signbit(torch.tensor([-0.0, 0.0, -2.0, 3.0, float('-inf')])), torch.signbit(torch.tensor([-1, 2])))
print(torch.msort(torch.tensor([[3., 1.], [1., 2.], [2., 0.]])), torch.row_stack((torch.ones(2), torch.zeros(2))))
print(torch.scalar_tensor(3), torch.scalar_tensor(2, dtype=torch.int64), torch.is_nonzero(torch.tensor([1.5])), torch.is_same_size(t, t.clone()))
print(torch.is_signed(t), torch.isneginf(torch.tensor([-float('inf'), 1.])), torch.isposinf(torch.tensor([float('inf'), 1.])), torch.isreal(t))
print(torch.logaddexp2(torch.tensor([1., 2., float('inf')]), torch.tensor([1., 3., float('inf')])))
print(torch.positive(t), torch.rsub(t, 2.0), torch.rsub(t, torch.ones(3), alpha=2), torch.diagflat(torch.tensor([1, 2])), torch.diagflat(torch.tensor([[1, 2]]), 1))
print([s.shape for s in torch.dsplit(torch.arange(16.).view(2, 2, 4), 2)], [s.shape for s in torch.arange(16.).view(4, 4).hsplit(2)])
print(torch.arange(6.).view(2, 3).sum_to_size(1, 3), torch.arange(6.).view(2, 3).sum_to_size(3), torch.ones(2, 3, 4).sum_to_size((3, 1)))
print(torch.zeros(3, 3).fill_diagonal_(5), torch.zeros(7, 3).fill_diagonal_(1, wrap=True), torch.zeros(2, 2, 2).fill_diagonal_(2))
print(torch.arange(4.).apply_(lambda v: v * v + 1), torch.arange(3.).map_(torch.tensor([10., 20., 30.]), lambda a, b: a + b))
print(t.where(t > 0, torch.zeros(3)), t.is_cpu, t.layout, torch.strided, t.get_device(), t.share_memory_() is t, t.is_pinned())
r = torch.arange(6.)
r.resize_(2, 2)
print(r, r.shape)
r.resize_as_(torch.ones(3))
print(r)
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
torch.set_float32_matmul_precision('high')
print(torch.get_float32_matmul_precision())
for bad in [lambda: torch.is_nonzero(torch.ones(2)), lambda: torch.is_nonzero(torch.ones(0)), lambda: torch.ones(2, 3).sum_to_size(4),
            lambda: torch.dsplit(torch.ones(2, 2), 2), lambda: torch.positive(torch.tensor([True]))]:
    try:
        bad()
    except RuntimeError as e:
        print(e)
t = torch.tensor([1., 2.])
for n in ['add','sub','mul','div','pow','maximum','floor_divide','remainder','true_divide','atan2']:
    try:
        r = getattr(torch, n)(2, t); print(n, r)
    except Exception as e: print(n, 'ERR', type(e).__name__, str(e)[:80])
print(torch.sub(2, t, alpha=2), torch.add(2, t, alpha=3), torch.pow(2, torch.tensor([1, 3])), torch.add(1, torch.tensor([1, 2])))
print(2 ** torch.tensor([1, 3]), 2.0 ** torch.tensor([1, 3]), 2 ** torch.tensor([1., 3.]))
