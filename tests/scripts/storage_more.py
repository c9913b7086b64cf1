# Storages past x.storage() (PyTorch 1.13): TypedStorage(wrap_storage=, dtype=)
# reading an UntypedStorage's bytes as another dtype, the legacy classes'
# wrap_storage=, resize_, from_buffer, from_file (private and shared mappings),
# share_memory_/is_shared, the dtype conversions, pickle_storage_type, and the
# argument errors as PyTorch words them.
import os

import torch


def show(label, f):
    try:
        r = f()
    except Exception as e:  # the error's type and its last line
        print(label, "!!", type(e).__name__, str(e).splitlines()[-1])
        return
    if isinstance(r, torch.TypedStorage):
        print(label, "->", r.dtype, len(r), r.tolist())
    elif isinstance(r, torch.UntypedStorage):
        print(label, "-> untyped", r.nbytes(), r.tolist())
    else:
        print(label, "->", r)


x = torch.arange(6., device="cpu")  # CPU storages throughout (the legacy classes are the CPU's)
u = x.storage().untyped()
print(type(u).__name__, len(u), u.nbytes(), u.element_size())
show("wrap float32", lambda: torch.TypedStorage(wrap_storage=u, dtype=torch.float32))
show("wrap int32", lambda: torch.TypedStorage(wrap_storage=u, dtype=torch.int32))
show("wrap float64", lambda: torch.TypedStorage(wrap_storage=u, dtype=torch.float64))
show("wrap int16", lambda: torch.TypedStorage(wrap_storage=u, dtype=torch.int16))
show("wrap int64 of 12 bytes", lambda: torch.TypedStorage(wrap_storage=torch.ByteStorage(list(range(12))).untyped(),
                                                          dtype=torch.int64))
show("wrap without dtype", lambda: torch.TypedStorage(wrap_storage=u))
show("wrap a typed storage", lambda: torch.TypedStorage(wrap_storage=x.storage(), dtype=torch.float32))
show("wrap and a size", lambda: torch.TypedStorage(3, wrap_storage=u, dtype=torch.float32))
show("wrap and a device", lambda: torch.TypedStorage(wrap_storage=u, dtype=torch.float32, device="cpu"))
show("wrap, dtype not a dtype", lambda: torch.TypedStorage(wrap_storage=u, dtype="float"))
show("FloatStorage wrap", lambda: torch.FloatStorage(wrap_storage=u))
show("IntStorage wrap", lambda: torch.IntStorage(wrap_storage=u))
show("FloatStorage wrap dtype", lambda: torch.FloatStorage(wrap_storage=u, dtype=torch.float32))
show("FloatStorage wrap typed", lambda: torch.FloatStorage(wrap_storage=x.storage()))
show("FloatStorage wrap and a size", lambda: torch.FloatStorage(3, wrap_storage=u))
show("FloatStorage device", lambda: torch.FloatStorage(3, device="cpu"))
show("FloatStorage two sizes", lambda: torch.FloatStorage(1, 2))
show("FloatStorage of a float", lambda: torch.FloatStorage(2.5))
show("TypedStorage two sizes", lambda: torch.TypedStorage(1, 2))
show("TypedStorage of a float", lambda: torch.TypedStorage(2.5, dtype=torch.float32))
show("TypedStorage size", lambda: len(torch.TypedStorage(3, dtype=torch.int64)))  # uninitialized in PyTorch
show("TypedStorage sequence", lambda: torch.TypedStorage([1, 2, 3], dtype=torch.int64))
show("TypedStorage empty", lambda: torch.TypedStorage())
w = torch.TypedStorage(wrap_storage=u, dtype=torch.float32)
w[0] = 42
print("writes show in x:", x)
print(torch.FloatStorage, torch.typename(torch.FloatStorage), torch.FloatStorage([1]).type())

# resize_
s = torch.FloatStorage([1, 2, 3])
print("resize_ returns", s.resize_(5), len(s), s.tolist()[:3])
s.resize_(2)
print(len(s), s.tolist(), s.nbytes())
show("resize_ -1", lambda: s.resize_(-1))
show("resize_ 2.5", lambda: s.resize_(2.5))
y = torch.arange(4., device="cpu")
st = y.storage()
st.resize_(6)
print(len(st), y, len(y.storage()))
st[1] = 7
print("y after a write through the resized storage:", y)
show("untyped resize_", lambda: torch.UntypedStorage(4).resize_(8).nbytes())

# from_buffer
b = bytes(range(8)) + b"\x00\x00\x80\x3f"
show("from_buffer little", lambda: torch.FloatStorage.from_buffer(b, "little"))
show("from_buffer big", lambda: torch.FloatStorage.from_buffer(b, "big"))
show("from_buffer native", lambda: torch.FloatStorage.from_buffer(b, "native"))
show("from_buffer without byte_order", lambda: torch.FloatStorage.from_buffer(b))
show("ByteStorage.from_buffer", lambda: torch.ByteStorage.from_buffer(b))
show("from_buffer middle", lambda: torch.FloatStorage.from_buffer(b, "middle"))
show("from_buffer 5 bytes", lambda: torch.FloatStorage.from_buffer(b[:5], "little"))
show("from_buffer offset count", lambda: torch.FloatStorage.from_buffer(b, "little", offset=4, count=2))
show("from_buffer count 9", lambda: torch.FloatStorage.from_buffer(b, "little", count=9))
show("from_buffer offset -1", lambda: torch.FloatStorage.from_buffer(b, "little", offset=-1))
show("from_buffer bytearray", lambda: torch.FloatStorage.from_buffer(bytearray(b), "little"))
show("from_buffer str", lambda: torch.FloatStorage.from_buffer("abcd", "little"))
show("ShortStorage big", lambda: torch.ShortStorage.from_buffer(b"\x01\x02\x03\x04", "big"))
show("LongStorage big", lambda: torch.LongStorage.from_buffer(bytes(range(16)), "big"))
show("BoolStorage", lambda: torch.BoolStorage.from_buffer(b"\x01\x00\x02", "little"))
show("TypedStorage.from_buffer int32", lambda: torch.TypedStorage.from_buffer(b, "little", dtype=torch.int32))
show("TypedStorage.from_buffer", lambda: torch.TypedStorage.from_buffer(b, "little"))
show("UntypedStorage.from_buffer", lambda: torch.UntypedStorage.from_buffer(b, "little"))
show("UntypedStorage.from_buffer dtype", lambda: torch.UntypedStorage.from_buffer(b, "little", dtype=torch.float32))
show("FloatStorage.from_buffer dtype", lambda: torch.FloatStorage.from_buffer(b, "little", dtype=torch.float32))

# from_file
fn = "storage_more_from_file.tmp"
with open(fn, "wb") as f:
    f.write(bytes(torch.arange(4., device="cpu").storage().untyped().tolist()))
show("from_file", lambda: torch.FloatStorage.from_file(fn, False, 4))
show("from_file 2", lambda: torch.FloatStorage.from_file(fn, False, 2))
show("from_file keywords", lambda: torch.FloatStorage.from_file(fn, shared=False, size=3))
show("from_file too long", lambda: torch.FloatStorage.from_file(fn, False, 8))
show("from_file no size", lambda: torch.FloatStorage.from_file(fn))
show("from_file missing", lambda: torch.FloatStorage.from_file("storage_more_missing.tmp", False, 4))
p = torch.FloatStorage.from_file(fn, False, 4)
p[0] = 5
show("private mapping leaves the file", lambda: torch.FloatStorage.from_file(fn, False, 4))
m = torch.FloatStorage.from_file(fn, True, 4)
m[0] = 7
with open(fn, "rb") as f:
    print("shared mapping writes the file:", f.read(4))
show("shared, grown to 6", lambda: torch.FloatStorage.from_file(fn, True, 6))
print("file size", os.path.getsize(fn))
show("TypedStorage.from_file", lambda: torch.TypedStorage.from_file(fn, False, 2))
show("UntypedStorage.from_file", lambda: torch.UntypedStorage.from_file(fn, False, 8))
show("from_file shared 'x'", lambda: torch.FloatStorage.from_file(fn, "x", 2))
show("from_file name 3", lambda: torch.FloatStorage.from_file(3, False, 2))
show("DoubleStorage.from_file", lambda: torch.DoubleStorage.from_file(fn, False, 2))
print("from_file is_shared", torch.FloatStorage.from_file(fn, True, 2).is_shared(),
      torch.FloatStorage.from_file(fn, False, 2).is_shared())
fresh = "storage_more_created.tmp"
show("shared creates the file", lambda: torch.IntStorage.from_file(fresh, True, 3))
print("created size", os.path.getsize(fresh))
show("resize_ of a mapping", lambda: m.resize_(10))

# sharing, conversions, the rest of 1.13's names
s = torch.FloatStorage([1.5, 2, 3])
print("is_shared", s.is_shared(), s.share_memory_() is s, s.is_shared(), s.tolist())
z = torch.ones(3, device="cpu")
z.storage().share_memory_()
print("the tensor's storage is shared:", z.storage().is_shared(), z)
z.add_(1)
print(z.storage().tolist())
u8 = torch.UntypedStorage([1, 2, 3, 4])
print("untyped share", u8.is_shared(), u8.share_memory_() is u8, u8.is_shared())
for name in ["float", "double", "half", "bfloat16", "long", "int", "short", "char", "byte", "bool"]:
    show(name, lambda: getattr(s, name)())
c = s.float()
c[0] = 9
print("float() of a float storage is a copy:", s[0])
print(s.get_device(), s.pickle_storage_type(), torch.LongStorage(1).pickle_storage_type(), s.element_size(),
      s.nbytes(), torch.DoubleStorage(2).nbytes(), torch.BoolStorage(3).nbytes(), type(s.untyped()).__name__)
show("pin_memory", lambda: s.pin_memory())
print("1.13 has no _untyped() nor torch.storage._TypedStorage:", hasattr(s, "_untyped"),
      hasattr(torch.storage, "_TypedStorage"))

# torch.save of a bare storage, as 1.13 writes it (a persistent id alone), and its load
pk = "storage_more_saved.tmp"
torch.save(torch.FloatStorage([1.5, 2, 3]), pk)
r = torch.load(pk)
print(type(r).__name__, r.dtype, r.tolist())
t = torch.arange(6., device="cpu").view(2, 3)
torch.save([t[1].storage(), t], pk)
a, b = torch.load(pk)
a[0] = 99
print("the storage and the tensor still share:", len(a), b)
torch.save({"u": torch.arange(3, device="cpu").storage().untyped(), "s": torch.DoubleStorage([0.5])}, pk)
d = torch.load(pk)
print(type(d["u"]).__name__, d["u"].dtype, len(d["u"]), d["u"].tolist()[:9], d["s"])
