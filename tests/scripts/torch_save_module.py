# torch.save / torch.load of whole modules (PyTorch pickles the class by reference,
# __main__.Net, torch.nn.modules.linear.Linear): a file PyTorch 1.13 wrote
# (tests/fixtures/torch_file/module_net.pt, tests/fixtures/gen_torch_module.py) loads
# here with its parameters, buffers, attributes and mode; a round trip of our own;
# a list of modules; weights_only=True refuses the classes.
import pickle
import torch
import torch.nn as nn
import torch.nn.functional as F


class Config:
    def __init__(self, width):
        self.width = width
        self.tags = {'a', 'b'}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, padding=1)
        self.bn = nn.BatchNorm2d(2)
        self.fc = nn.Sequential(nn.Linear(8, 4), nn.ReLU(), nn.Dropout(0.5), nn.Linear(4, 3))
        self.emb = nn.Embedding(5, 2)
        self.lstm = nn.LSTM(2, 3, batch_first=True)
        self.enc = nn.TransformerEncoderLayer(3, 1, 6, dropout=0.0)
        self.scale = 2.5
        self.cfg = Config(4)
        self.register_buffer('steps', torch.zeros(1))
        self.register_buffer('scratch', torch.ones(2), persistent=False)

    def forward(self, x, idx):
        h = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2).flatten(1)
        e, _ = self.lstm(self.emb(idx))
        return self.fc(h) * self.scale + self.enc(e).sum()
# ---- end of classes (tests/fixtures/gen_torch_module.py runs the lines above)


def build():
    torch.manual_seed(0)
    m = Net()
    m(torch.randn(2, 1, 4, 4), torch.tensor([[1, 2, 3], [0, 4, 1]]))  # BatchNorm's running stats move
    m.eval()
    m.steps += 3
    return m


def show(m):
    print(type(m).__name__, m.training, m.scale, m.cfg.width, sorted(m.cfg.tags), m.steps, m.scratch)
    print(m)
    print(m.bn.running_mean, m.bn.num_batches_tracked)
    torch.manual_seed(1)
    print(m(torch.randn(2, 1, 4, 4), torch.tensor([[1, 2, 3], [0, 4, 1]])))
    print([k for k in m.state_dict()])
    print(m.fc[0].weight is m.state_dict(keep_vars=True)['fc.0.weight'])


show(torch.load('../fixtures/torch_file/module_net.pt'))  # written by PyTorch 1.13
m = build()
torch.save(m, 'module_net.tmp')
show(torch.load('module_net.tmp'))
mods = [nn.Linear(2, 2), nn.Tanh(), m.fc]
torch.save({'mods': mods, 'epoch': 3}, 'module_list.tmp')
back = torch.load('module_list.tmp')
print(back['epoch'], back['mods'][:2], back['mods'][2] is not m.fc, torch.equal(back['mods'][0].weight, mods[0].weight))
try:
    torch.load('module_net.tmp', weights_only=True)
except pickle.UnpicklingError as e:
    print('UnpicklingError', str(e).split('.')[0].split(':')[0])
