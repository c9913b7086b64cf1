# torch.load's map_location in every form PyTorch 1.13 accepts, on a checkpoint saved
# from CUDA tensors (../fixtures/torch_file/cuda0.pt, tagged "cuda:0": made by
# tests/fixtures/gen_torch_file_cuda.py) and on one saved here; this is the CPU-only
# build's behaviour (tests/core/test_torch_file.c loads the same files onto the
# loopback device that stands in for CUDA)
import torch

path = "../fixtures/torch_file/cuda0.pt"


def show(what, d):
    print(what, sorted(d.keys()), d["name"], d["steps"].item())
    print(" ", d["weight"].device, d["weight"].dtype, d["weight"])
    print(" ", d["bias"], d["wt"].shape, d["wt"].stride(), torch.equal(d["wt"], d["weight"].t()))
    d["weight"].mul_(2)  # one storage: the view follows
    print(" ", torch.equal(d["wt"], d["weight"].t()))


show("str", torch.load(path, map_location="cpu"))
show("device", torch.load(path, map_location=torch.device("cpu")))
show("dict", torch.load(path, map_location={"cuda:0": "cpu"}))
locations = []
show("callable", torch.load(path, map_location=lambda storage, loc: (locations.append(loc), storage)[1]))
print(locations)

for name, m in [("none", None), ("str cuda", "cuda"), ("str cuda:0", "cuda:0"),
                ("device cuda", torch.device("cuda:0")), ("dict other", {"cuda:1": "cpu"}),
                ("callable None", lambda storage, loc: None), ("unknown", "tpu"),
                ("dict unknown", {"cuda:0": "xla:3"})]:
    try:
        torch.load(path, map_location=m)
        print(name, "loaded")
    except RuntimeError as e:
        print(name, "RuntimeError:", e)

# a checkpoint saved here (tagged "cpu") mapped the same ways
torch.save({"x": torch.arange(6.).reshape(2, 3)}, "torch_load_map_location.tmp")
for m in ["cpu", torch.device("cpu"), {"cpu": "cpu"}, {"cuda:0": "cpu"}, lambda s, loc: s, lambda s, loc: None]:
    print(torch.load("torch_load_map_location.tmp", map_location=m)["x"].sum().item())
try:
    torch.load("torch_load_map_location.tmp", map_location={"cpu": "cuda:0"})
except RuntimeError as e:
    print("cpu -> cuda:0 RuntimeError:", e)
