# The small integer dtypes (uint8, int8, int16) and int32: casts, printing,
# promotion, wrapping, reductions, legacy constructors, iinfo, masks.
import torch

a = torch.tensor([250, 3, 0, 128], dtype=torch.uint8)
b = torch.tensor([10, -4, 127, -128], dtype=torch.int8)
c = torch.tensor([1000, -2, 300, 7], dtype=torch.int16)
i = torch.tensor([5, 6, 7, 8], dtype=torch.int32)
for t in (a, b, c, i):
    print(t, t.dtype, t.element_size(), t.is_signed(), t.dtype.is_signed, t.dtype.is_floating_point)
print(repr(torch.uint8), torch.int8, torch.int16, torch.short, torch.int32)

# promotion (PyTorch's promote_types table)
pairs = [(a, b), (a, c), (a, i), (b, c), (b, i), (c, i)]
for x, y in pairs:
    print(x.dtype, y.dtype, (x + y).dtype, x + y, torch.promote_types(x.dtype, y.dtype))
print(torch.promote_types(torch.uint8, torch.bool), torch.promote_types(torch.int8, torch.float16),
      torch.promote_types(torch.int16, torch.int64), torch.result_type(a, 2.5), torch.result_type(a, 300))
print(a.long().dtype, (a + torch.tensor([1, 2, 3, 4])).dtype, (a + 1.5).dtype, (b * torch.ones(4)).dtype)

# arithmetic wraps in the type
print(a + 10, a * 2, a - 5, b * 2, b + 100, c * 100, -a, -b, a + True)
print(a // 3, a % 7, b // 3, b % 5, a / 2, b / 4, a ** 2, b.abs(), c.abs())
print(a & 0x0f, a | 1, a ^ 255, ~a, ~b)
x = a.clone()
x += 10
print(x)
x *= 3
print(x)
y = b.clone()
y -= 100
print(y)

# comparisons
print(a > 100, b < 0, c == 300, a == b, a.eq(250), b.ne(-4), a >= 3, c <= 7)

# casts wrap through int64, as PyTorch's do
f = torch.tensor([-1.5, 300.7, 255.9, -129.0, 70000.0, 2.5])
print(f.to(torch.uint8), f.to(torch.int8), f.short(), f.char(), f.byte())
big = torch.tensor([70000, -40000, 256, -1, 1 << 40])
print(big.short(), big.byte(), big.char(), big.int())
print(a.float(), a.double(), b.half(), c.bfloat16(), a.bool(), b.long(), c.int())
print(a.type(torch.ShortTensor), b.type('torch.ByteTensor'), a.type())
print(torch.tensor([True, False]).byte(), a.to(torch.int16), b.to(dtype=torch.uint8))

# reductions and scans
print(a.sum(), a.sum().dtype, b.sum(), c.sum(), i.sum(), a.prod(), b.prod(), c.prod().dtype)
print(a.sum(dtype=torch.uint8), a.sum(0, keepdim=True), b.cumsum(0), a.cumsum(0), a.cumsum(0, dtype=torch.uint8))
print(a.max(), a.min(), b.max(), b.min(), c.argmax(), b.argmin(), a.max(0), c.min(0))
print(torch.max(a, torch.tensor([1, 200, 3, 4], dtype=torch.uint8)), torch.clamp(b, -10, 10), b.clamp(min=0))
m = torch.arange(12, dtype=torch.uint8).reshape(3, 4)
print(m, m.sum(1), m.t(), m[1], m[:, 2], m.float().mean(), m.max(1))
print(a.sort(), b.sort(descending=True), c.topk(2), b.unique() if hasattr(b, 'unique') else '')

print(a.all(), a.any(), torch.zeros(2, dtype=torch.uint8).any(), b.all(), m.all(1), m.any(0, keepdim=True))

# factories with a small dtype
print(torch.zeros(3, dtype=torch.uint8), torch.ones(2, 2, dtype=torch.int8), torch.full((2,), 7, dtype=torch.int16))
print(torch.arange(5, dtype=torch.int8), torch.arange(250, 260, 3, dtype=torch.int16), torch.empty(0, dtype=torch.uint8))
print(torch.zeros_like(a), torch.ones_like(b), torch.tensor(200, dtype=torch.uint8), torch.tensor(-5, dtype=torch.int8))
print(torch.tensor([[1, 2], [3, 4]], dtype=torch.int16) @ torch.tensor([[1, 0], [0, 1]], dtype=torch.int16))

# legacy constructors
print(torch.ByteTensor([1, 2, 255]), torch.CharTensor([-1, 2]), torch.ShortTensor([[1, 2]]), torch.ByteTensor(2).zero_())
print(isinstance(a, torch.ByteTensor), isinstance(b, torch.CharTensor), isinstance(c, torch.ShortTensor),
      isinstance(a, torch.CharTensor))

# items and lists
print(a[0].item(), b[1].item(), type(c[0].item()).__name__, a.tolist(), b.tolist(), c.tolist(), int(a[0]), float(b[3]))

# iinfo
for dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
    ii = torch.iinfo(dt)
    print(ii, ii.min, ii.max, ii.bits, ii.dtype)

# masks: uint8 is deprecated for indexing, still selects
x = torch.arange(4.0)
print(x[torch.tensor([1, 0, 1, 0], dtype=torch.uint8)])
x[torch.tensor([0, 1, 0, 1], dtype=torch.uint8)] = -1.0
print(x)
print(torch.masked_select(torch.arange(3), torch.tensor([True, False, True])))
print(a[torch.tensor([3, 0])], b[1:3], c.view(2, 2), c.reshape(4, 1).squeeze(), torch.cat([a, a]), torch.stack([b, b]))
print(torch.where(a > 100, a, torch.tensor(0, dtype=torch.uint8)), torch.where(b > 0, b, torch.zeros_like(b)))

# values out of range
for bad in ("torch.tensor([1], dtype=torch.uint8).fill_(300)", "torch.zeros(2, dtype=torch.int8) + 1.5",
            "torch.tensor([1], dtype=torch.uint8).mean()", "torch.iinfo(torch.float32)",
            "torch.CharTensor(torch.zeros(2))", "torch.ByteTensor(torch.zeros(2, dtype=torch.int16))", "torch.tensor([1], dtype=torch.uint8) // 0"):
    try:
        print(bad, "->", eval(bad))
    except Exception as e:
        print(bad, "->", type(e).__name__, e)
for bad in ("torch.tensor([300], dtype=torch.uint8)", "torch.tensor([-1, -255], dtype=torch.uint8)",
            "torch.tensor([-256], dtype=torch.uint8)", "torch.tensor([200], dtype=torch.int8)",
            "torch.tensor([2 ** 40], dtype=torch.int32)", "torch.tensor([1.5e10], dtype=torch.int16)",
            "torch.zeros(1, dtype=torch.int32).fill_(2 ** 40)", "torch.zeros(1, dtype=torch.int8).fill_(128)",
            "torch.zeros(1, dtype=torch.uint8).fill_(-255)", "torch.zeros(1, dtype=torch.uint8).fill_(255.9)",
            "torch.full((2,), 300, dtype=torch.uint8)", "torch.zeros(1, dtype=torch.int16).fill_(-32768)",
            "torch.iinfo(torch.bool)", "torch.iinfo(3)", "torch.finfo(torch.int32)", "torch.promote_types(torch.int8, 3)",
            "torch.tensor([1], dtype=torch.int8).argmax()", "torch.tensor([1, -128], dtype=torch.int8).argmin()",
            "torch.tensor([True]).argmin()", "torch.empty(0, dtype=torch.uint8).argmin()",
            "torch.tensor([3], dtype=torch.uint8).norm()"):
    try:
        print(bad, "->", eval(bad))
    except Exception as e:
        print(bad, "->", type(e).__name__, e)

# finfo, promote_types, result_type, can_cast
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    fi = torch.finfo(dt)
    print(fi, fi.bits, fi.eps, fi.max, fi.min, fi.tiny, fi.smallest_normal, fi.resolution, fi.dtype)
print(torch.finfo(), torch.finfo(torch.float32).eps == torch.finfo().eps, torch.iinfo(torch.int8) == torch.iinfo(torch.int8))
print(torch.result_type(a, 2), torch.result_type(a, torch.tensor(2)), torch.result_type(a, b), torch.result_type(2, 3.5),
      torch.result_type(b, torch.tensor(2.5, dtype=torch.float64)), torch.result_type(torch.tensor(1, dtype=torch.uint8), b))
print(torch.can_cast(torch.float32, torch.int8), torch.can_cast(torch.int8, torch.uint8), torch.can_cast(torch.uint8, torch.bool),
      torch.can_cast(torch.bool, torch.uint8), torch.can_cast(torch.int64, torch.float16))

