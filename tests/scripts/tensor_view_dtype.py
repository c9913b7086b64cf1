# x.view(dtype): the same memory read as another dtype, as PyTorch 1.13 lays it out (the
# last dim splits or joins elements; its RuntimeErrors when the layout does not allow it).
import torch
torch.manual_seed(0)
x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
def t(f):
    try:
        r = f()
        print(r, r.dtype, r.shape, r.stride(), r.storage_offset(), r.requires_grad)
    except Exception as e:
        print(type(e).__name__, e)
t(lambda: x.view(torch.int32))
t(lambda: x.view(torch.uint8))
t(lambda: x.view(torch.float16))
t(lambda: x.view(torch.float64))
t(lambda: x.view(torch.complex64))
t(lambda: x[:, 1:].view(torch.float16))
t(lambda: x.t().view(torch.float16))
t(lambda: x.reshape(3, 2).view(torch.float64))
t(lambda: torch.tensor(1.).view(torch.int16))
t(lambda: torch.tensor(1.).view(torch.int32))
t(lambda: x[:, 1:].view(torch.float64))
t(lambda: x.view(dtype=torch.int32))
t(lambda: torch.arange(8, dtype=torch.int16).view(torch.int64))
t(lambda: torch.randn(4, requires_grad=True).view(torch.int32))
t(lambda: torch.randn(4, requires_grad=True).view(torch.float32))
t(lambda: torch.ones(4, 2, dtype=torch.float16)[:, 0:1].view(torch.float32))
t(lambda: torch.ones(4, 4, dtype=torch.float16)[:, 1:3].view(torch.float32))
t(lambda: torch.ones(4, 3, dtype=torch.float16)[:, 0:2].view(torch.float32))
t(lambda: torch.tensor([True, False]).view(torch.uint8))
t(lambda: torch.tensor([1+2j]).view(torch.float32))
t(lambda: torch.tensor([1.,2]).view(torch.bfloat16))
y = torch.zeros(4)
v = y.view(torch.int32)
v[1] = 1065353216
print(y)
# the view shares memory both ways, and bumps no autograd history
w = torch.arange(4, dtype=torch.int16)
b = w.view(torch.uint8)
b[0] = 255
print(w, b.view(dtype=torch.int16).data_ptr() == w.data_ptr(), w.view(torch.int16) is w)
f = torch.tensor([1.0, -0.0, float('inf'), float('nan')])
print(f.view(torch.int32).tolist(), [hex(v & 0xffffffff) for v in f.view(torch.int32).tolist()])
