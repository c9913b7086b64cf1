# nn.AdaptiveLogSoftmaxWithLoss: repr, state_dict keys, seeded parameters, forward's (output, loss) namedtuple,
# gradients, log_prob, predict, unbatched input, head_bias, PyTorch's messages.
import torch
from torch import nn
torch.manual_seed(0)
asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3, 6], div_value=2.0)
print(asm)
print(type(asm), [k for k in asm.state_dict()])
print(asm.shortlist_size, asm.n_clusters, asm.head_size, asm.cutoffs)
x = torch.randn(5, 8, requires_grad=True)
t = torch.tensor([0, 4, 9, 2, 7])
out = asm(x, t)
print(out)
print(out.output.grad_fn.name(), out.loss.grad_fn.name(), out._fields, type(out).__name__)
out.loss.backward()
print(x.grad)
print(asm.head.weight.grad.sum(), asm.tail[1][0].weight.grad)
print(asm.log_prob(x))
print(asm.log_prob(x).exp().sum(1))
print(asm.predict(x))
o1 = asm(x[0], t[0])
print(o1.output, o1.loss)
asm2 = nn.AdaptiveLogSoftmaxWithLoss(6, 5, [2], head_bias=True)
print(asm2, asm2.head.bias.shape)
print(asm2.predict(torch.randn(4, 6)))
print(asm2(torch.randn(3, 6), torch.tensor([1, 4, 3])).loss)
for bad in [lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3]),
            lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 10]),
            lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [0, 3]),
            lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 3]),
            lambda: asm(x, torch.tensor([0, 1])),
            lambda: asm(x, torch.tensor([0, 1, 2, 3, 10])),
            lambda: asm(x, torch.zeros(5, 2, dtype=torch.long)),
            lambda: asm(x[0], torch.tensor([1])),
            lambda: asm(x, torch.tensor(1))]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
a2, l2 = asm(x, t)
print(torch.equal(a2, out.output), l2.item() == out.loss.item())
asm64 = nn.AdaptiveLogSoftmaxWithLoss(4, 6, (2, 4), div_value=1.5, dtype=torch.float64)
print(asm64.tail[0][0].weight.dtype, asm64(torch.randn(3, 4, dtype=torch.float64), torch.tensor([5, 0, 3])).loss)
