# float32 sums and means over any dims of any layout carry PyTorch 1.13's bits: a middle
# dim, dims that are neither all leading nor all trailing, transposed, sliced and
# step-sliced input, 10**3 to 10**7 elements, on 1, 2 and 3 threads (ATen's
# TensorIterator layout and cascade_sum loops, core/cpu/sum_iter.c). Printed exactly.
import torch
torch.manual_seed(0)
def fp(t, k=12):
    v = t.flatten().tolist()
    return v[:k] + v[-k:] if len(v) > 2 * k else v
for th in [1, 2, 3]:
    torch.set_num_threads(th)
    print("threads", th)
    for shape, dims in [((4, 5, 6), (1,)), ((3, 40, 50), 1), ((30, 200, 7), 1), ((8, 1000, 9), (1,)),
                        ((5, 6, 7, 8), (1, 2)), ((5, 6, 7, 8), (0, 2)), ((5, 6, 7, 8), (0, 3)),
                        ((64, 3000, 3), 1), ((3, 3000, 64), 1), ((200, 300, 40), (0, 2)),
                        ((2, 5, 100000), (0, 1)), ((10, 1000, 1000), 1)]:
        x = torch.randn(*shape) * 10 + 3
        print(shape, dims, fp(x.sum(dims)), fp(x.mean(dims)), fp(x.transpose(0, -1).sum(dims)),
              x.transpose(0, -1).sum().item(), x[..., ::2].sum().item(), x[..., 1:].mean().item())
    for shape in [(300, 200), (37, 1000), (1000, 9), (1000, 10000)]:
        x = torch.randn(*shape)
        print("t", shape, fp(x.t().sum(0)), fp(x.t().sum(1)), x.t().sum().item(), x[:, ::2].sum().item(),
              fp(x[:, ::3].sum(1)), fp(x[::2].sum(0)), fp(x.t().mean(1, keepdim=True)))
    x = torch.randn(10**7)
    print("1-d", x[::3].sum().item(), x[5:].view(-1, 5)[:, 1:4].sum().item(), x.view(100, 100, 1000).sum((0, 2)).sum().item())
