# Storage objects of one tensor's memory all report its current length: an old
# `s = x.storage()` (typed or untyped, taken before or after) sees a resize_ made
# through another storage object, as PyTorch's storages read one StorageImpl.
import torch

x = torch.arange(6.)
s = x.storage()
u = s.untyped()
w = x.storage()
x.storage().resize_(10)
print(len(s), s.size(), s.nbytes(), len(u), u.nbytes(), len(w))
print(s.tolist()[:6], len(s.tolist()))
s2 = x.storage()
s2.resize_(3)
print(len(s), len(u), len(w), s.tolist(), list(u)[:4])
s[1] = 7.
print(s2.tolist(), w[1], x.storage().tolist())
u.resize_(8)
print(len(s), len(s2), s.tolist(), len(w))
try:
    s[2]
except IndexError as e:
    print("IndexError:", e)
d = torch.arange(4, dtype=torch.int32)
sd = d.storage()
d.storage().untyped().resize_(24)
print(len(sd), sd.tolist()[:4])
