# nnscope corpus script (tests/corpus/README.md): a real public PyTorch script.
# Source: https://github.com/pytorch/tutorials/blob/0a7e68666de5faceafa90276ad2b7874cd32c5e0/recipes_source/recipes/saving_multiple_models_in_one_file.py
# License: BSD-3-Clause (Copyright (c) 2017-2022, Pytorch contributors)
# Adaptations (nothing else changed):
#  - torch.manual_seed(0) after the imports, so the weights are reproducible
#  - PATH = "model.pt.tmp" instead of "model.pt"
#  - print() of each call whose result a notebook would show (load_state_dict, eval, train), so the run prints something
#  - the recipe's prose (the docstring and the sphinx-gallery comment blocks) left out; every line of code kept, in order

import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)  # nnscope corpus: reproducible

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.flatten(start_dim=1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

netA = Net()
netB = Net()

optimizerA = optim.SGD(netA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.SGD(netB.parameters(), lr=0.001, momentum=0.9)

# Specify a path to save to
PATH = "model.pt.tmp"  # nnscope corpus: "model.pt" in the recipe

torch.save({
            'modelA_state_dict': netA.state_dict(),
            'modelB_state_dict': netB.state_dict(),
            'optimizerA_state_dict': optimizerA.state_dict(),
            'optimizerB_state_dict': optimizerB.state_dict(),
            }, PATH)

modelA = Net()
modelB = Net()
optimModelA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimModelB = optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)

checkpoint = torch.load(PATH)
print(modelA.load_state_dict(checkpoint['modelA_state_dict']))
print(modelB.load_state_dict(checkpoint['modelB_state_dict']))
print(optimizerA.load_state_dict(checkpoint['optimizerA_state_dict']))
print(optimizerB.load_state_dict(checkpoint['optimizerB_state_dict']))

print(modelA.eval())
print(modelB.eval())
# - or -
print(modelA.train())
print(modelB.train())
