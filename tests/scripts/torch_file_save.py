# torch.save writes PyTorch's format (tests/fixtures/check_torch_file.py loads these files
# in PyTorch); here each file is loaded back: nesting, key order, shared storages, Parameters
import torch
from collections import OrderedDict

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model(torch.randn(5, 3)).sum().backward()
opt.step()

torch.save(model.state_dict(), "torch_file_save_sd.tmp")
sd = torch.load("torch_file_save_sd.tmp")
print(type(sd).__name__, list(sd.keys()))
print(sd["2.bias"])

base = torch.arange(12.0).reshape(3, 4)
ckpt = {
    "epoch": 3,
    "model": model.state_dict(),
    "lr": 0.1,
    "names": ["a", "b"],
    "shape": (2, 3),
    "nested": {"z": [1, (2.5, None)], "a": OrderedDict([("q", True), ("p", False)])},
    "ints": [0, 255, 256, 65535, 65536, -1, 2**31 - 1, -2**31, 2**31, -2**31 - 1, 2**40, -(2**62) * 2, 2**62 - 1 + 2**62],
    "text": "naïve ✓",
    "base": base,
    "row": base[1],
    "col": base[:, 1],
    "t": base.t(),
    "same": base,
    "param": torch.nn.Parameter(torch.tensor([1.0, 2.0])),
    "frozen": torch.nn.Parameter(torch.tensor([3.0]), requires_grad=False),
    "leaf": torch.tensor([4.0], requires_grad=True),
    "dtypes": [torch.tensor([1.5], dtype=torch.float64), torch.tensor([2**40]), torch.tensor([3], dtype=torch.int32),
               torch.tensor([True, False]), torch.tensor([0.5], dtype=torch.float16),
               torch.tensor([1.25], dtype=torch.bfloat16)],
    "scalar": torch.tensor(2.5),
    "empty": torch.zeros(0, 3),
    1: "int key",
}
torch.save(ckpt, "torch_file_save_ckpt.tmp")
back = torch.load("torch_file_save_ckpt.tmp")
print(list(back.keys()))
for k in ["epoch", "lr", "names", "shape", "nested", "ints", "text", 1]:
    print(k, back[k])
print(type(back["nested"]["a"]).__name__)
for k in ["base", "row", "col", "t", "param", "frozen", "leaf", "scalar", "empty"]:
    v = back[k]
    print(k, type(v).__name__, v.dtype, tuple(v.shape), v.stride(), v.storage_offset(), v.requires_grad)
    print(v)
for v in back["dtypes"]:
    print(v.dtype, v)
print(back["base"] is back["same"])
back["row"][0] = -4.0
back["t"][1, 2] = -9.0
print(back["base"])
print(back["col"])

# a model trained here loads into a fresh model
model2 = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
print(model2.load_state_dict(back["model"]))
x = torch.ones(1, 3)
print(torch.equal(model(x), model2(x)))

# saving over a file replaces it
torch.save([1, 2], "torch_file_save_sd.tmp")
print(torch.load("torch_file_save_sd.tmp"))
