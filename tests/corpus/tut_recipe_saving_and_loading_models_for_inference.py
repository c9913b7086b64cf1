# nnscope corpus script (tests/corpus/README.md): a real public PyTorch script.
# Source: https://github.com/pytorch/tutorials/blob/0a7e68666de5faceafa90276ad2b7874cd32c5e0/recipes_source/recipes/saving_and_loading_models_for_inference.py
# License: BSD-3-Clause (Copyright (c) 2017-2022, Pytorch contributors)
# Adaptations (nothing else changed):
#  - torch.manual_seed(0) after the imports, so the weights are reproducible
#  - .tmp added to the saved files' names
#  - print() of each cell's last bare expression (model.eval()), which the recipe's page shows
#  - a last line that prints whether the loaded whole model holds the saved weights
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

net = Net()
print(net)


optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)


# Specify a path
PATH = "state_dict_model.pt.tmp"  # nnscope corpus: "state_dict_model.pt" in the recipe

# Save
torch.save(net.state_dict(), PATH)

# Load
model = Net()
model.load_state_dict(torch.load(PATH))
print(model.eval())


# Specify a path
PATH = "entire_model.pt.tmp"  # nnscope corpus: "entire_model.pt" in the recipe

# Save
torch.save(net, PATH)

# Load
model = torch.load(PATH)
print(model.eval())
print(all(torch.equal(a, b) for a, b in zip(model.parameters(), net.parameters())))  # nnscope corpus: the loaded weights are the saved ones
