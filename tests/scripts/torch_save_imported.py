# torch.load of a whole module whose class lives in the script's own file (user_module_helper.Net):
# the pickle names it user_module_helper.Net, and loading imports that file as PyTorch's pickle
# does, whether or not the script imported it; a file PyTorch 1.13 wrote
# (tests/fixtures/gen_torch_imported.py) and nnscope's own round trip.
import torch

net = torch.load('../fixtures/torch_file/imported_net.pt')  # user_module_helper not imported yet
print(type(net).__module__, type(net).__qualname__)
print(net)
print(net(torch.ones(1, 2)))
from user_module_helper import Net
print(type(net) is Net)
torch.manual_seed(3)
torch.save({'model': Net(), 'epoch': 2}, 'torch_save_imported.tmp')
ck = torch.load('torch_save_imported.tmp')
print(ck['epoch'], type(ck['model']) is Net, ck['model'].fc.weight)
