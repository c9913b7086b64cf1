# float32 x ** e carries PyTorch 1.13's bits (cpu/vmath.c's nn_vmath_pow_f32): Sleef's
# powf8_u10 on pairs of 8-lane vectors, pow in double rounded to float on the tail, the
# thread ranges as at::parallel_for cuts them; 0.5, -0.5 and -1 as sqrt, rsqrt and
# reciprocal; 2, 3 and -2 as products. Printed exactly.
import torch
torch.manual_seed(0)
x = torch.randn(1003) * 2
big = torch.randn(200003) * 3
for th in [1, 2]:
    torch.set_num_threads(th)
    for e in [4, 5, 1.5, 0.3, -3, 2.5, 0.5, -0.5, -1, 2, 3, -2, 7.25, 1e-3]:
        y = x.abs() ** e if e != int(e) else x ** e
        print(th, e, y.tolist()[:20], y.tolist()[-20:], (big.abs() ** e).sum().item(), torch.pow(big.abs(), e)[-9:].tolist())
print((x[:40] ** 4).tolist(), (x.view(17, 59)[:, ::2] ** 4).sum().item())
w = torch.tensor([1.5, -2.0, 0.25], requires_grad=True)
(w ** 4).sum().backward()
print(w.grad.tolist())
