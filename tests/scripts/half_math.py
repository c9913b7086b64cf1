# float16 and bfloat16 math as PyTorch 1.13's CPU kernels do it: which ops take
# each type (and the RuntimeError of those that do not), rounding once to the
# half type after computing in float32, a Python number cast to the half type
# first, the mean's sum rounded before its division, bfloat16's scalar-loop
# formulas (rsqrt, xlogy), promotion with other dtypes.
import torch


def t(name, f):
    try:
        print(name, '->', f())
    except Exception as e:
        print(name, '!!', type(e).__name__, e)


for dt in [torch.float16, torch.bfloat16]:
    print('=====', dt)
    x = torch.tensor([[0.5, -1.25, 2.0], [3.3, -0.7, 1.1]], dtype=dt)
    y = torch.tensor([[1.5, 0.25, -2.0], [0.3, 0.7, 4.1]], dtype=dt)
    w = torch.tensor([0.3, 0.6, 0.9], dtype=dt)
    for nm in ['abs', 'neg', 'exp', 'log', 'sqrt', 'rsqrt', 'sin', 'cos', 'tan', 'tanh', 'sigmoid', 'relu',
               'floor', 'ceil', 'round', 'trunc', 'frac', 'sign', 'reciprocal', 'square', 'exp2', 'expm1',
               'log1p', 'log2', 'log10', 'erf', 'erfc', 'erfinv', 'asin', 'acos', 'atan', 'sinh', 'cosh',
               'asinh', 'acosh', 'atanh', 'lgamma', 'digamma', 'isnan', 'isinf', 'isfinite', 'logit',
               'nan_to_num', 'sum', 'mean', 'prod', 'max', 'min', 'amax', 'amin', 'argmax', 'argmin', 'std',
               'var', 'norm', 'nansum', 'nanmean', 'all', 'any', 'count_nonzero', 'unique', 'diag', 'trace']:
        t(nm, lambda: getattr(x, nm)())
    for nm in ['softmax', 'log_softmax', 'logsumexp', 'cumsum', 'cumprod', 'cummax']:
        t(nm, lambda: getattr(x, nm)(1))
    for nm in ['topk', 'kthvalue']:
        t(nm, lambda: getattr(x, nm)(2))
    t('median', lambda: x.median())
    t('median_d', lambda: x.median(1))
    t('mode', lambda: x.mode(1))
    t('sort', lambda: x.sort(1))
    t('unique_dim', lambda: torch.unique(x, dim=0))
    t('unique_consec', lambda: torch.unique_consecutive(x))
    t('diagonal', lambda: torch.diagonal(x))
    t('cummin', lambda: x.cummin(1))
    t('hardtanh', lambda: torch.nn.functional.hardtanh(x))
    t('relu6', lambda: torch.nn.functional.relu6(x))
    t('hardswish', lambda: torch.nn.functional.hardswish(x))
    t('hardsigmoid', lambda: torch.nn.functional.hardsigmoid(x))
    t('logsigmoid', lambda: torch.nn.functional.logsigmoid(x))
    t('celu', lambda: torch.nn.functional.celu(x))
    t('softshrink', lambda: torch.nn.functional.softshrink(x))
    t('mish', lambda: torch.nn.functional.mish(x))
    t('silu', lambda: torch.nn.functional.silu(x))
    for nm in ['add', 'sub', 'mul', 'div', 'pow', 'maximum', 'minimum', 'atan2', 'fmod', 'remainder', 'hypot',
               'eq', 'lt', 'ge', 'floor_divide', 'logaddexp', 'xlogy']:
        t(nm, lambda: getattr(torch, nm)(x, y))
    t('xlogy_s', lambda: torch.xlogy(x, 2.0))
    t('xlogy_s2', lambda: torch.xlogy(2.0, y))
    t('lerp_s', lambda: torch.lerp(x, y, 0.3))
    t('lerp_t', lambda: torch.lerp(x, y, w))
    t('dot', lambda: torch.dot(x[0], y[0]))
    t('mm', lambda: torch.mm(x, y.t()))
    t('cross', lambda: torch.linalg.cross(x, y))
    t('where', lambda: torch.where(x > 0, x, y))
    t('addcmul', lambda: torch.addcmul(x, x, y, value=0.5))
    t('addcdiv', lambda: torch.addcdiv(x, x, y, value=0.5))
    t('clamp', lambda: x.clamp(-1, 1))
    t('clamp_min', lambda: x.clamp(min=0))
    t('masked_fill', lambda: x.masked_fill(x > 1, 0.1))
    t('nan_to_num2', lambda: torch.tensor([float('nan'), float('inf'), -float('inf'), 1.0], dtype=dt).nan_to_num())
    t('mean_d', lambda: x.mean(1))
    t('mean_d0', lambda: x.mean(0))
    t('big_sum', lambda: torch.arange(1000, dtype=dt).sum())
    t('big_mean', lambda: (torch.arange(1000, dtype=dt) / 7).mean())
    t('l1', lambda: torch.nn.functional.l1_loss(x, y))
    t('mul_py', lambda: x * 0.1)
    t('mul_', lambda: x.clone().mul_(0.1))
    t('remainder_py', lambda: torch.remainder(x, 0.7))
    t('gt_py', lambda: x > 1.1)
    t('pow_s', lambda: x ** 2)
    t('pow_t', lambda: x.abs() ** y)
    t('conv2d', lambda: torch.nn.functional.conv2d(torch.ones(1, 2, 4, 4, dtype=dt), torch.ones(3, 2, 3, 3, dtype=dt) / 8))
    t('ln', lambda: torch.nn.functional.layer_norm(x, (3,)).shape)
    t('gelu', lambda: torch.nn.functional.gelu(x).shape)
    t('randn', lambda: torch.manual_seed(0) and torch.randn(3, dtype=dt))
    t('arange', lambda: torch.arange(0, 2, 0.3, dtype=dt))
    t('linspace', lambda: torch.linspace(0, 1, 5, dtype=dt))
    t('full', lambda: torch.full((2,), 0.1, dtype=dt))
    t('item', lambda: x[1, 0].item())
    t('tolist', lambda: x.tolist())
    t('addpy', lambda: x + 0.1)
    t('addint', lambda: x + 3)
    t('addf32', lambda: x + torch.ones(3))
    t('addf32s', lambda: x + torch.tensor(1.5))
    t('addf64', lambda: x + torch.ones(3, dtype=torch.float64))
    t('addi64', lambda: x + torch.ones(3, dtype=torch.int64))
    t('half+bf', lambda: x.half() + x.bfloat16())
    t('big', lambda: torch.tensor([70000.0, 1e-8, 65519., 65520.], dtype=dt))
    t('float', lambda: x.float())
    t('grad', lambda: torch.autograd.grad((x.clone().requires_grad_() ** 2).sum(), x.clone().requires_grad_(),
                                          allow_unused=True))
    a = x.clone().requires_grad_()
    t('grad2', lambda: torch.autograd.grad((a * a * 3 + a / 3).sum(), a))
    t('grad_mean', lambda: torch.autograd.grad(a.mean(), a))

# bfloat16 rsqrt: PyTorch's scalar loop (each row's elements past its last
# multiple of 32) rounds the sqrt first
v = torch.tensor([1.1016, 3.2969, 0.3, 7.7, 0.123] * 9, dtype=torch.bfloat16)
print(torch.rsqrt(v[:5]), torch.rsqrt(v)[28:40])
print(torch.rsqrt(v.reshape(5, 9)))

# integer inputs: hypot and logaddexp keep them (and refuse), atan2 and xlogy promote
i = torch.tensor([3, 4])
for fn in [torch.hypot, torch.logaddexp, torch.atan2, torch.xlogy]:
    t(fn.__name__ + '_int', lambda: fn(i, i))
    t(fn.__name__ + '_int_float', lambda: fn(i, i.float()))
t('hypot_bool', lambda: torch.hypot(i > 3, i > 3))
t('hypot_i32', lambda: torch.hypot(i.int(), i.int()))

print(torch.finfo(torch.float16))
print(torch.finfo(torch.bfloat16))
print(torch.tensor([1.00048828125, 1.00146484375, 65519.99, 65520]).half())
print(torch.tensor([1.001953125, 1.005859375]).bfloat16(), torch.tensor([1.00390625, 1.01171875]).bfloat16())
print(torch.tensor([300, -5]).half(), torch.tensor([70000]).half(), torch.tensor([2.0 ** -25, 2.0 ** -24, 3 * 2.0 ** -25]).half())

# bfloat16 products: PyTorch's plain loops (m*n*k <= 4096, the right operand
# not column-major) round each product and partial sum to bfloat16; oneDNN and
# gemm_transa_ (nn.Linear's weight) sum in float32 and round once
torch.manual_seed(0)
bf = torch.bfloat16
for (m, k, n) in [(5, 4, 8), (16, 16, 16), (16, 16, 17), (50, 40, 1)]:
    a = torch.randn(m, k).to(bf)
    b = torch.randn(k, n).to(bf)
    for r in [a @ b, a @ b.t().contiguous().t(), a.t().contiguous().t() @ b, torch.nn.functional.linear(a, b.t().contiguous())]:
        print((m, k, n), r.float().sum().item(), r.flatten()[:4])
for (B, m, k, n) in [(2, 5, 4, 8), (3, 16, 16, 16)]:
    a = torch.randn(B, m, k).to(bf)
    b = torch.randn(B, k, n).to(bf)
    print(torch.bmm(a, b).float().sum().item(), torch.matmul(a, b).flatten()[:4])
for (m, k) in [(5, 4), (50, 82), (50, 81)]:
    a = torch.randn(m, k).to(bf)
    v = torch.randn(k).to(bf)
    print(torch.mv(a, v)[:4], (v @ a.t())[:4])
for k in [3, 100, 5000]:
    print(torch.dot(torch.randn(k).to(bf), torch.randn(k).to(bf)))

# a small bfloat16 model, forward and backward
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3)).to(torch.bfloat16)
inp = torch.randn(5, 4)
out = model(inp.bfloat16())
print(out)
print(torch.nn.functional.cross_entropy(out, torch.tensor([0, 1, 2, 0, 1])))
out.sum().backward()
print(model[0].weight.grad, model[2].bias.grad)

# bfloat16 gelu: the float32 gelu rounded once; its values over a range, small and large tensors
g = torch.cat([torch.linspace(-4, 4, 301), torch.logspace(-6, -1, 40), -torch.logspace(-6, -1, 40)]).bfloat16()
print(torch.nn.functional.gelu(g).tolist())
print(torch.nn.functional.gelu(g[:7]).tolist(), torch.nn.functional.gelu(g[5]).item())
print(torch.nn.functional.gelu(g.reshape(-1, 1)[:, 0][::2][:6]).tolist(), torch.nn.functional.gelu(g[6:7]).item())
