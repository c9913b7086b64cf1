# float32 sums and means over the trailing dims of a contiguous tensor carry PyTorch 1.13's
# bits (each row in vectorized_inner_sum's order, cpu/sum.c): printed exactly as Python floats.
import torch
torch.manual_seed(0)
for shape in [(5, 3), (4, 8), (3, 37), (6, 1000), (2, 3, 129), (40, 5000), (7, 70001)]:
    x = torch.randn(*shape) * 10 + 3
    print(shape, x.sum(-1)[:3].tolist(), x.mean(-1)[-3:].tolist(), x.sum(-1, keepdim=True).shape)
    if len(shape) == 3:
        print("  dims (1, 2)", x.sum((1, 2)).tolist(), x.mean((-2, -1)).tolist())
x = torch.randn(32, 27)
print(x.exp().sum(1, keepdims=True)[:4].flatten().tolist())
