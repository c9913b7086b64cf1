# Storages seen through tensor.data (PyTorch 1.13): x.data shares x's StorageImpl,
# so resize_ and share_memory_ through either are seen by the other (same
# data_ptr, same length, same bytes); resize_ keeps the first bytes. The resized
# tensors are on the default device (tests/run.sh reruns this on the loopback
# device, where resize_ allocates there as a CUDA storage's does); share_memory_
# is a CPU storage's. One storage read as two dtypes cannot be saved together.
import io

import torch

x = torch.arange(4.)
d = x.data
x.storage().resize_(6)
print(x.data_ptr() == d.data_ptr(), len(x.storage()), len(d.storage()))
print(x.storage().tolist()[:4], d.storage().tolist()[:4])
d.storage().resize_(2)
print(len(x.storage()), x.storage().tolist(), x.data_ptr() == d.data_ptr())
dd = d.data  # an alias of an alias shares the same storage
dd.storage()[1] = 7.
print(x.storage().tolist(), d.storage().tolist())
x.storage().untyped().resize_(12)
print(len(dd.storage()), dd.storage().tolist()[:2], dd.data_ptr() == x.data_ptr())
del x, d
print(len(dd.storage()), dd.storage().tolist()[:2])

c = torch.arange(3., device="cpu")
cd = c.data
c.storage().share_memory_()
print(c.storage().is_shared(), cd.storage().is_shared(), c.data_ptr() == cd.data_ptr())
c += 1
print(cd)
e = torch.arange(3., device="cpu")
ed = e.data
ed.storage().share_memory_()
print(e.storage().is_shared(), ed.storage().is_shared(), e.data_ptr() == ed.data_ptr())
try:
    e.storage().resize_(5)
except RuntimeError as err:
    print("RuntimeError:", err)

# one storage read as two dtypes in one torch.save: PyTorch 1.13 refuses it
a = torch.arange(4, dtype=torch.float32, device="cpu")
b = torch.IntStorage(wrap_storage=a.storage().untyped())
for what in ([a.storage(), b], [a, torch.empty(0, dtype=torch.int32).set_(b)]):
    try:
        torch.save(what, io.BytesIO())
    except RuntimeError as err:
        print("RuntimeError:", err)
buf = io.BytesIO()
torch.save([a, a.data, a.storage()], buf)  # the same dtype: one storage, shared again on load
buf.seek(0)
la, lb, ls = torch.load(buf)
print(la.data_ptr() == lb.data_ptr() == ls.data_ptr(), lb)
