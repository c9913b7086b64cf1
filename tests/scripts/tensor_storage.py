# Storages as PyTorch 1.13 has them: x.storage() (a TypedStorage viewing x's
# memory: repr, size, dtype, device, tolist, indexing, writes that show in x),
# its untyped() bytes, data_ptr() (the idiom that checks whether two tensors
# share memory), the legacy constructors torch.FloatStorage & co., copy_, fill_,
# and x.set_(storage[, offset, size, stride]).
import torch

x = torch.arange(6.).reshape(2, 3)
s = x.storage()
print(type(s))
print(s)
print(repr(s))
print(s.size(), len(s), s.dtype, s.device, s.tolist(), s[1], s[-1], s.element_size(), s.nbytes())
print(x[1].storage().data_ptr() == x.storage().data_ptr(), x[1].data_ptr() == x.data_ptr(), x[1].data_ptr() - x.data_ptr())
print(x.t().storage().data_ptr() == x.storage().data_ptr(), x.clone().storage().data_ptr() == x.storage().data_ptr())
print(x.view(-1).data_ptr() == x.data_ptr(), x.contiguous().data_ptr() == x.data_ptr(), x.t().contiguous().data_ptr() == x.data_ptr())
u = x.storage().untyped()
print(type(u), u.size(), u.nbytes(), u.data_ptr() == x.data_ptr())
print(torch.DoubleStorage([1, 2]), torch.LongStorage([1, 2, 3]))
print(torch.IntStorage(2).size(), torch.BoolStorage([True, False]), torch.ByteStorage([1, 255]))
f = torch.FloatStorage([1, 2, 3])
print(type(f), f.dtype, isinstance(f, torch.TypedStorage), isinstance(f, torch.FloatStorage))
print(isinstance(f, torch.DoubleStorage), isinstance(x.double().storage(), torch.DoubleStorage), torch.FloatStorage.dtype)
s[0] = 10
print(x)
s2 = torch.DoubleStorage(3)
s2.fill_(2.5)
print(s2)
s3 = torch.FloatStorage(6)
s3.copy_(s)
print(s3)
for bad in (10, -7):
    try:
        s[bad]
    except IndexError as e:
        print("IndexError", e)
try:
    s[1:3]
except RuntimeError as e:
    print("RuntimeError", e)
try:
    s[1.5]
except RuntimeError as e:
    print("RuntimeError", e)
try:
    s.copy_(torch.FloatStorage([1.0]))
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([], dtype=torch.float32).set_(f))
y = torch.empty(0)
y.set_(x.storage())
print(y, y.data_ptr() == x.data_ptr())
y.set_(torch.arange(6.).storage(), 2, (2, 2), (1, 2))
print(y, y.storage_offset(), y.stride())
try:
    torch.zeros(3).set_(torch.DoubleStorage([1.0]))
except RuntimeError as e:
    print("RuntimeError", e)
print(x.storage().type(), torch.LongStorage([1]).type(), torch.HalfStorage(2).type(), torch.typename(s))
print(torch.tensor([1, 2], dtype=torch.int64).storage())
print(torch.tensor([True]).storage(), torch.tensor([1.5], dtype=torch.float16).storage())
print(s.cpu() is s, s.is_cuda)
print(x.storage_offset(), x[1].storage_offset())
e = torch.FloatStorage()
print(e, e.size(), e.data_ptr(), torch.empty(0).data_ptr())
print(u[0:4])
print(list(f), torch.is_storage(f), torch.is_storage(u), torch.is_storage(x))
