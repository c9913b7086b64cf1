# nn.Embedding(..., max_norm=) and F.embedding(..., max_norm=, norm_type=) renorm the rows they look up, in
# place and once per row (ATen's embedding_renorm_), as word2vec-style scripts rely on; the module keeps
# max_norm/norm_type/scale_grad_by_freq/sparse as given (repr), from_pretrained passes max_norm on.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
e = nn.Embedding(5, 3, max_norm=1.0)
print(e)
print(e.weight.norm(dim=1))
out = e(torch.tensor([[1, 2], [2, 1]]))
print(out, out.norm(dim=-1))
print(e.weight.norm(dim=1))
out.sum().backward()
print(e.weight.grad)
w = torch.randn(5, 3)
o = F.embedding(torch.tensor([0, 3, 3]), w, max_norm=0.5, norm_type=1.0)
print(o, w.abs().sum(1))
o = F.embedding(torch.tensor([4]), w, max_norm=10)
print(o, w.norm(dim=1))
e2 = nn.Embedding(4, 2, padding_idx=0, max_norm=2, norm_type=1, scale_grad_by_freq=True)
print(e2, e2.max_norm, e2.norm_type, e2.scale_grad_by_freq, e2.sparse)
p = nn.Embedding.from_pretrained(torch.tensor([[3., 4.], [0.3, 0.4]]), max_norm=1.0)
print(p, p(torch.tensor([0, 1])), p.weight)
with torch.no_grad():
    print(e(torch.tensor([0, 4])).norm(dim=1))
