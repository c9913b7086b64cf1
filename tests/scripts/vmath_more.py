# float32 softplus, sinh and cosh carry PyTorch 1.13's bits (cpu/vmath.c): ATen's
# cpu_kernel_vec — Sleef's u10 exp/log1p, sinh, cosh on pairs of 8-lane vectors, the C
# library's expf/log1pf, sinhf, coshf on the rest — with its thread ranges, and the scalar
# loop for strided input. Printed exactly.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(100003) * 4
for th in [1, 2]:
    torch.set_num_threads(th)
    for name, y in [("softplus", F.softplus(x)), ("softplus b2 t3", F.softplus(x, beta=2, threshold=3)), ("sinh", torch.sinh(x)), ("cosh", x.cosh()),
                    ("softplus strided", F.softplus(x[::2])), ("sinh strided", x[::3].sinh())]:
        v = y.tolist()
        print(th, name, v[:20], v[-20:], y.sum().item(), y.double().sum().item())
