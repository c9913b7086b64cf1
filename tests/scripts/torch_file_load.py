# torch.load of files PyTorch 1.13 wrote (tests/fixtures/gen_torch_file.py): state dicts,
# a whole checkpoint with optimizer state, shared storages, dtypes, Parameters, protocol 4
import torch
from collections import OrderedDict

d = "../fixtures/torch_file/"

sd = torch.load(d + "state_dict.pt")
print(type(sd).__name__, list(sd.keys()))
for k, v in sd.items():
    print(k, v.dtype, tuple(v.shape), v.requires_grad, v.is_leaf)
    print(v)

for name in ["checkpoint.pt", "protocol4.pt"]:
    ck = torch.load(d + name, map_location="cpu")
    print(name, list(ck.keys()))
    print(ck["epoch"], ck["loss"], ck["history"], ck["name"], ck["big"], ck["neg"], ck["flags"])
    print(type(ck["model"]).__name__, list(ck["model"].keys()))
    opt = ck["optimizer"]
    print(list(opt.keys()), list(opt["state"].keys()))
    print(opt["param_groups"])
    for i, st in opt["state"].items():
        print(i, list(st.keys()), st["step"])
        print(st["exp_avg"])
        print(st["exp_avg_sq"])

sh = torch.load(d + "shared.pt", map_location=torch.device("cpu"))
for k, v in sh.items():
    print(k, tuple(v.shape), v.stride(), v.storage_offset(), v.is_contiguous())
    print(v)
print(sh["base"] is sh["again"])
sh["row"][0] = 100.0   # a view: the base sees it
sh["t"][3, 0] = -1.0
print(sh["base"])
print(sh["col"])

for t in torch.load(d + "dtypes.pt", map_location={"cpu": "cpu"}):
    print(t.dtype, t)

ps = torch.load(d + "params.pt")
for k, v in ps.items():
    print(k, type(v).__name__, isinstance(v, torch.nn.Parameter), v.requires_grad, v.is_leaf)
    print(v)

# a loaded state_dict goes into a module
torch.manual_seed(1)
model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
print(model.load_state_dict(sd))
print(model[0].weight)
print(model[1].running_mean, model[1].num_batches_tracked)
