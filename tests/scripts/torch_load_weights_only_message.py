# torch.load(weights_only=True) refuses a global outside PyTorch's allowed list with
# PyTorch 1.13's UnpicklingError text, word for word (a class of the script, a set);
# the state_dict of a model still loads.
import os
import pickle
import tempfile

import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 1)


d = tempfile.mkdtemp()
path = os.path.join(d, "x.pt")
torch.manual_seed(0)
for obj in (Net(), {"s": {1, 2}}):
    torch.save(obj, path)
    try:
        torch.load(path, weights_only=True)
    except pickle.UnpicklingError as e:
        print(type(e).__name__, e)
torch.save(Net().state_dict(), path)
print(list(torch.load(path, weights_only=True).keys()))
os.remove(path)
os.rmdir(d)
