# torch.save / torch.load of the small integer dtypes (uint8, int8, int16); safetensors: tests/core/test_safetensors.c.
import torch

a = torch.tensor([250, 3, 0, 128], dtype=torch.uint8)
b = torch.tensor([10, -4, 127, -128], dtype=torch.int8)
c = torch.tensor([1000, -2, 300, 7], dtype=torch.int16)
m = torch.arange(12, dtype=torch.uint8).reshape(3, 4)

# a file PyTorch 1.13 wrote (tests/fixtures/gen_torch_file.py), then a round trip
loaded = torch.load("../fixtures/torch_file/small_int.pt")
for k, v in loaded.items():
    print(k, v, v.dtype, v.is_contiguous())
torch.save({"a": a, "b": b, "c": c, "view": m[:, 1]}, "small_int_save.tmp")
back = torch.load("small_int_save.tmp")
print(back, [v.dtype for v in back.values()], torch.equal(back["a"], a), back["view"].tolist())
sd = torch.nn.Embedding(3, 2).state_dict()
print(list(sd.keys()))
