# torch.frexp, torch.as_strided / Tensor.as_strided (views of the storage, their gradient),
# torch.frombuffer over bytes, bytearray, memoryview and array.array (sharing a writable buffer),
# with PyTorch 1.13's results and messages.
import array
import warnings
import torch


def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)


x = torch.tensor([0., 1., -2.5, 8., 0.1, float('inf'), float('nan'), -0.0, 1e-40, -3e38])
m, e = torch.frexp(x)
print(m, e)
print(torch.frexp(torch.tensor([3., 1e-300], dtype=torch.float64)))
print(torch.frexp(torch.tensor([3., 6e-8], dtype=torch.float16)))
print(torch.frexp(torch.tensor([3., -0.375], dtype=torch.bfloat16)))
attempt(lambda: torch.frexp(torch.tensor([3])))
r = x.frexp()
print(r.mantissa.dtype, r.exponent.dtype, torch.equal(r[0][:5] * 2.0 ** r[1][:5], x[:5]))
w = torch.tensor([3., 5., -0.3], requires_grad=True)
m, e = torch.frexp(w)
print(m, e)
m.sum().backward()
print(w.grad)

t = torch.arange(12.)
print(torch.as_strided(t, (3, 3), (1, 3)))
print(t.as_strided((2, 2), (1, 2), 1))
print(torch.as_strided(t, size=(2,), stride=(2,), storage_offset=1))
print(t[2:].as_strided((2,), (1,)), t[2:].as_strided((2,), (1,), 0))
print(t.as_strided((2, 2), (0, 1)))
for args in [((3,), (-1,)), ((3, 2), (1,)), ((-1,), (1,)), ((2,), (1,), -1), ((20,), (1,))]:
    attempt(lambda: t.as_strided(*args))
v = t.as_strided((3,), (4,))
v.mul_(10)
print(t)
g = torch.arange(6., requires_grad=True)
y = g.as_strided((2, 3), (1, 2))
print(y, y.grad_fn.name())
(y * torch.arange(6.).view(2, 3)).sum().backward()
print(g.grad)
g = torch.arange(6., requires_grad=True)
y = g.as_strided((3, 2), (1, 1))
(y * torch.arange(6.).view(3, 2)).sum().backward()
print(g.grad)
g = torch.arange(6., requires_grad=True)
y = g.view(2, 3).t().as_strided((2, 2), (1, 3))
y.sum().backward()
print(g.grad)
g = torch.arange(6., requires_grad=True)
y = g.expand(2, 6).as_strided((2, 2), (1, 1))
y.sum().backward()
print(g.grad)
g = torch.arange(6., requires_grad=True)
y = (g * 2).as_strided((2, 2), (2, 1), 1)
(y ** 2).sum().backward()
print(y, g.grad)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.frombuffer(b'\x01\x02\x03\x04', dtype=torch.uint8))
    print(torch.frombuffer(b'\x01\x02\x03\x04', dtype=torch.int16))
print([str(c.message)[:60] for c in caught])
ba = bytearray(8)
f = torch.frombuffer(ba, dtype=torch.int16)
f[0] = 258
f[3] = -1
print(f, ba)
ba[2] = 7
print(f)
print(torch.frombuffer(ba, dtype=torch.int8, count=3, offset=2))
print(torch.frombuffer(ba, dtype=torch.int16, count=2, offset=2))
a = array.array('f', [1., 2., 3.])
fa = torch.frombuffer(a, dtype=torch.float32)
fa += 1
print(fa, a.tolist())
mv = memoryview(ba)[2:6]
fm = torch.frombuffer(mv, dtype=torch.uint8)
fm.fill_(9)
print(fm, ba)
mv.release()
ba.extend(b'\x05' * 100)
print(len(ba))
print(torch.frombuffer(bytearray(b'\x00\x00\x80\x3f'), dtype=torch.float32, requires_grad=True))
for kw in [dict(), dict(dtype=torch.int16, offset=11), dict(dtype=torch.int16, offset=-1),
           dict(dtype=torch.int16, offset=1), dict(dtype=torch.float32, count=5), dict(dtype=torch.uint8, count=0),
           dict(dtype=torch.complex64)]:
    attempt(lambda: torch.frombuffer(bytearray(range(10)), **kw))
attempt(lambda: torch.frombuffer(bytearray(), dtype=torch.uint8))
attempt(lambda: torch.frombuffer([1, 2], dtype=torch.int16))
attempt(lambda: torch.frombuffer(memoryview(bytearray(8))[::2], dtype=torch.uint8))
attempt(lambda: torch.frombuffer(ba, torch.uint8))
