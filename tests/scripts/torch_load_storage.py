# torch.load with a callable map_location: PyTorch 1.13 hands it a torch.UntypedStorage of the
# storage's bytes on the CPU (repr, size/nbytes/len, device, cpu(), tolist, indexing, slices) and
# uses the storage it returns (None: the default place; anything else: TypeError); the class itself.
import torch
torch.save({'a': torch.tensor([1.5, -2.0]), 'b': torch.tensor([True, False]), 'c': torch.arange(3)}, 'torch_load_storage.tmp')
def f(s, loc):
    print(type(s), loc)
    print(repr(s))
    print(s.device, s.size(), s.nbytes(), len(s), s.element_size(), s.is_cuda)
    print(s.cpu() is s, type(s.cpu()))
    print(s.tolist()[:4], s[0], s[-1])
    print(s[1:3])
    print(s.type(), isinstance(s, torch.UntypedStorage), isinstance(s, torch.storage.UntypedStorage))
    return s
d = torch.load('torch_load_storage.tmp', map_location=f)
print(d)
print(torch.UntypedStorage, torch.storage.UntypedStorage is torch.UntypedStorage)
print(torch.load('torch_load_storage.tmp', map_location=lambda s, loc: None))
for bad in (lambda s, loc: 5, lambda s, loc: torch.tensor([1., 2.])):
    try:
        torch.load('torch_load_storage.tmp', map_location=bad)
    except TypeError as e:
        print("TypeError", e)
print(torch.load('torch_load_storage.tmp', map_location=lambda s, loc: torch.UntypedStorage(s.tolist())))
s = torch.UntypedStorage([1, 2, 255])
print(s, len(s), list(s))
print(repr(torch.UntypedStorage()))
for f in (lambda: s[5], lambda: s[-4], lambda: s['a'], lambda: torch.UntypedStorage(1, 2)):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
