# expected: by hand — the safetensors library (not installed here, no PyTorch API) as
# its bindings/python/py_src/safetensors/torch.py and src/lib.rs (huggingface/safetensors,
# 2026-05) behave: load_file in the file's data order (dtype, largest first, then name),
# safe_open.keys() sorted, its ValueError/RuntimeError messages, save_model dropping tied
# weights into the metadata, load_model's (missing set, unexpected list).
import os
import torch
from torch import nn
from safetensors.torch import save_file, load_file, save_model, load_model
from safetensors import safe_open, SafetensorError


def err(f, first_line=False):
    try:
        f()
        print('no error')
    except Exception as e:
        text = str(e)
        if first_line:  # the rest: a set (in CPython's string-hash order), or core's reason
            text = text.strip().split(':')[0]
        print(type(e).__name__ + ':', text)


torch.manual_seed(0)
tensors = {'weight': torch.randn(2, 3), 'bias': torch.arange(4), 'a.b': torch.ones(2, dtype=torch.float64),
           'flag': torch.tensor([True, False]), 'half': torch.zeros(3, dtype=torch.float16)}
save_file(tensors, 'st_a.tmp', metadata={'format': 'pt', 'note': 'hi'})
loaded = load_file('st_a.tmp')
print(list(loaded.keys()))
print(all(torch.equal(loaded[k], tensors[k]) for k in tensors), [str(loaded[k].dtype) for k in loaded])
with safe_open('st_a.tmp', framework='pt', device='cpu') as f:
    print(f.keys(), f.offset_keys())
    print(sorted(f.metadata().items()))  # a HashMap in the library: no order
    t = f.get_tensor('weight')
    print(torch.equal(t, tensors['weight']))
    err(lambda: f.get_tensor('nope'))
save_file({'x': torch.zeros(1)}, 'st_b.tmp')
with safe_open('st_b.tmp', 'pt') as f:
    print(f.metadata())

print('== errors')
err(lambda: save_file([torch.zeros(1)], 'st_c.tmp'))
err(lambda: save_file({'x': 3}, 'st_c.tmp'))
err(lambda: save_file({'x': torch.zeros(2, 3).t()}, 'st_c.tmp'))
base = torch.zeros(4)
err(lambda: save_file({'a': base, 'b': base[:2]}, 'st_c.tmp'), True)
print(os.path.exists('st_c.tmp'))
err(lambda: load_file('st_missing.tmp'))
with open('st_bad.tmp', 'w') as f:
    f.write('not a safetensors file at all')
err(lambda: load_file('st_bad.tmp'), True)  # the reason after ':' is core's, not the library's
print(isinstance(SafetensorError('x'), Exception))
err(lambda: safe_open('st_a.tmp', framework='jax2'))

print('== save_model / load_model')


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5, 3)
        self.out = nn.Linear(3, 5, bias=False)
        self.out.weight = self.emb.weight


torch.manual_seed(1)
m = Tied()
save_model(m, 'st_m.tmp')
with safe_open('st_m.tmp', 'pt') as f:
    print(f.keys(), f.metadata())
err(lambda: save_file(m.state_dict(), 'st_c.tmp'), True)
torch.manual_seed(2)
m2 = Tied()
print(load_model(m2, 'st_m.tmp'))
print(torch.equal(m2.emb.weight, m.emb.weight), m2.out.weight is m2.emb.weight)
lin = nn.Linear(3, 2)
save_model(lin, 'st_l.tmp', metadata={'epoch': '3'})
other = nn.Sequential(nn.Linear(3, 2))
err(lambda: load_model(other, 'st_l.tmp'))
missing, unexpected = load_model(other, 'st_l.tmp', strict=False)
print(type(missing).__name__, sorted(missing), unexpected)
lin2 = nn.Linear(3, 2)
print(load_model(lin2, 'st_l.tmp'), torch.equal(lin2.bias, lin.bias))
for name in os.listdir('.'):
    if name.startswith('st_') and name.endswith('.tmp'):
        os.remove(name)
