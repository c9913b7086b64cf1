# state_dict()._metadata (PyTorch's version per module prefix): made by state_dict(), kept by
# copy.deepcopy, torch.save and torch.load both ways, read by load_state_dict as local_metadata
import torch, copy
import torch.nn as nn
from collections import OrderedDict
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4)
        self.seq = nn.Sequential(nn.Linear(4, 2), nn.ReLU(), nn.InstanceNorm1d(2))
    def forward(self, x):
        return self.seq(self.bn(self.fc1(x)))
class V3(nn.Module):
    _version = 3
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(1, 1)
net = Net()
sd = net.state_dict()
print(sd._metadata)
print(hasattr(sd, '_metadata'), type(sd._metadata).__name__)
print(V3().state_dict()._metadata)
sd2 = copy.deepcopy(sd)
print(sd2._metadata)
print(sd2._metadata is sd._metadata)
sd3 = copy.copy(sd)
print(sd3._metadata is sd._metadata)
print(getattr(OrderedDict(sd), '_metadata', 'none'))
print(getattr({}, '_metadata', 'none'))
print(net.fc1.state_dict(prefix='a.')._metadata)
torch.save(sd, "state_dict_metadata.tmp")
back = torch.load("state_dict_metadata.tmp")
print(back._metadata)
# old-style: version 1 for bn, missing num_batches_tracked
old = OrderedDict((k, v) for k, v in sd.items() if 'num_batches' not in k)
old._metadata = copy.deepcopy(sd._metadata)
old._metadata['bn']['version'] = 1
print(net.load_state_dict(old))
old._metadata['bn']['version'] = 2
try:
    net.load_state_dict(old)
except RuntimeError as e:
    print('RuntimeError', e)
del old._metadata
print(net.load_state_dict(old))
seen = []
def pre(state_dict, prefix, local_metadata, strict, missing, unexpected, errs):
    seen.append((prefix, local_metadata))
net.fc1._register_load_state_dict_pre_hook(pre)
net.load_state_dict(sd)
print(seen)
od = OrderedDict(a=1)
od.x = 5
print(od.x, od.__dict__)
del od.x
print(od.__dict__)
try:
    d = {}
    d.x = 1
except AttributeError as e:
    print('AttributeError', e)
# files PyTorch 1.13 wrote (tests/fixtures/gen_torch_file.py): their _metadata is kept
psd = torch.load("../fixtures/torch_file/state_dict.pt")
print(psd._metadata)
ck = torch.load("../fixtures/torch_file/checkpoint.pt")
print(ck["model"]._metadata)
m = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
print(m.load_state_dict(psd))
# a _metadata PyTorch wrote says BatchNorm is version 2: num_batches_tracked is required
del psd["1.num_batches_tracked"]
try:
    m.load_state_dict(psd)
except RuntimeError as e:
    print("RuntimeError:", e)
print(m.load_state_dict(psd, strict=False))
print(m[1].num_batches_tracked)
