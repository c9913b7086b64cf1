# float32 var/std and vector norms carry PyTorch 1.13's bits (core/reduce_exact.c,
# cpu/norm_f32.c, cpu/sum_iter.c): var/std of a whole tensor (float32 mean, then a
# double sum of squared deviations in the input's walk), over dims (Welford in memory
# order), norms with p = 2 over a contiguous last run (the vectorized loop) or
# otherwise (one float accumulator), p = 1, 3, 0.5, inf, -1, and torch.norm's default
# "fro" over two dims (sqrt of a sum of squares). 10 to 10**7 elements, 1 and 2
# threads, contiguous, transposed and step-sliced input. Printed exactly.
import torch
torch.manual_seed(0)
def fp(t, k=10):
    v = t.flatten().tolist()
    return v[:k] + v[-k:] if len(v) > 2 * k else v
for th in [1, 2]:
    torch.set_num_threads(th)
    for shape, dims in [((7,13),1), ((3,100),1), ((50,9),0), ((40,1000),1), ((1000,40),0), ((6,7,8),(0,2)), ((6,7,8),(1,2)), ((300,7),1), ((300,29),1), ((64,3000,3),(1,)), ((3, 5000, 8), (0, 2))]:
        x=torch.randn(*shape)*3+1
        print(shape, dims, fp(x.var(dims)), fp(x.std(dims)), fp(x.transpose(0,-1).var(dims)), fp(x.norm(dim=dims)), fp(x.transpose(0,-1).norm(dim=dims)),
              fp(x.norm(1, dims)), fp(x.norm(p=3, dim=dims)), fp(x.norm(p=float('inf'), dim=dims)), fp(x.norm(p=0.5, dim=dims)), fp(x[..., ::2].norm(dim=dims)))
    for n in [10, 1000, 100000, 10**6, 10**7]:
        x=torch.randn(n)*3+1
        print(n, x.var().item(), x.std().item(), x.var(unbiased=False).item(), x[::2].var().item(), x.view(-1,10).t().var().item(),
              x.norm().item(), x[::3].norm().item(), x.view(-1, 10).t().norm().item(), x.norm(1).item(), x.norm(3).item(), x[1:].norm(-1).item())
x = torch.randn(5, 6, 7, requires_grad=True)
n = torch.norm(x, dim=(0, 2))
n.sum().backward()
print(n.grad_fn.name(), fp(n), fp(x.grad))
print(fp(torch.norm(x.detach().transpose(0, 2), dim=(1, 2), keepdim=True)), fp(x.detach().norm(p=2, dim=(0, 2))))
