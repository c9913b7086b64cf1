# torch._standard_gamma and torch._sample_dirichlet draw from the seeded stream as PyTorch 1.13 does
# (ATen's Marsaglia-Tsang sampler on double uniforms and cached Box-Muller normals), float32 and float64.
import torch
torch.manual_seed(0)
print(torch._standard_gamma(torch.tensor([0.3, 1.0, 2.5, 7.0, 0.05])).tolist())
print(torch._standard_gamma(torch.tensor([0.3, 1.0, 2.5, 7.0, 0.05], dtype=torch.float64)).tolist())
print(torch._sample_dirichlet(torch.tensor([[0.3, 1.0, 2.5], [7.0, 0.05, 1.0]])).tolist())
print(torch._sample_dirichlet(torch.tensor([[0.3, 1.0, 2.5], [7.0, 0.05, 1.0]], dtype=torch.float64)).tolist())
print(torch.randn(3).tolist())
a = torch.full((2000,), 0.7)
s = torch._standard_gamma(a)
print(s[:5].tolist(), s.sum().item())
print(torch.rand(2).tolist())
