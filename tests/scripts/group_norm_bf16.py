# bfloat16 F.group_norm / nn.GroupNorm bit for bit as PyTorch 1.13's CPU kernel
# (every step rounded to bfloat16, RowwiseMoments over 16-lane bfloat16 vectors):
# rows shorter and longer than one vector, several chunks (the cascade), scalar
# tails, no affine parameters, a weight only, a large offset; each result's values
# as floats (exact), hashed for the large ones.
import hashlib
import torch
import torch.nn.functional as F


def digest(t):
    return hashlib.md5(str(t.float().flatten().tolist()).encode()).hexdigest()


torch.manual_seed(0)
cases = [((2, 6, 5, 3), 3), ((1, 4, 7), 2), ((3, 8, 16), 4), ((2, 4, 33, 17), 2), ((1, 2, 1000), 1),
         ((2, 6, 40, 41), 3), ((4, 3), 3), ((1, 1, 5000), 1)]
for shape, g in cases:
    x = (torch.randn(*shape) * 3 + 1).bfloat16()
    w = torch.randn(shape[1]).bfloat16()
    b = torch.randn(shape[1]).bfloat16()
    y = F.group_norm(x, g, w, b)
    print(shape, g, y.dtype, digest(y), digest(F.group_norm(x, g)), digest(F.group_norm(x, g, w)),
          digest(F.group_norm(x, g, None, b, eps=1e-3)))
x = (torch.randn(2, 4, 9) + 100).bfloat16()
print(F.group_norm(x, 2)[0, 0])
m = torch.nn.GroupNorm(2, 4).bfloat16()
print(m(x)[1, 3], m(x).grad_fn.name())
