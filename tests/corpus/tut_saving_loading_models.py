# nnscope corpus script (tests/corpus/README.md): a real public PyTorch script.
# Source: https://github.com/pytorch/tutorials/blob/0db0c4e14cc158469e6c2a27e34bd998a0c390ba/beginner_source/saving_loading_models.py
# License: BSD-3-Clause (Copyright (c) 2017-2022, Pytorch contributors)
# Adaptations (nothing else changed):
#  - the tutorial's code is in its `.. code:: python` blocks (comments in the file): they are here
#    uncommented, in order, with their placeholders filled: PATH a .tmp file, `*args, **kwargs`
#    left empty, TheModelAClass/TheModelBClass TheModelClass, TheOptimizerClass optim.SGD with the
#    first block's arguments, `epoch`/`loss` values of a training step, `...` entries left out
#  - each block's last bare expression printed, as a notebook shows it
#  - imports (torch, nn, F, optim) and torch.manual_seed(0) first
#  - left out: the blocks that need a GPU (cuda devices), torch.export (PyTorch 2) and DataParallel
#    (the file has no code for its load)
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)
PATH = "saving_loading_models.pt.tmp"

# What is a state_dict? (Example)

# Define model
class TheModelClass(nn.Module):
    def __init__(self):
        super(TheModelClass, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

# Initialize model
model = TheModelClass()

# Initialize optimizer
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

# Print model's state_dict
print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())

# Print optimizer's state_dict
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

# nnscope corpus: a training step, so the checkpoints below hold an epoch, a loss and momentum buffers
epoch = 5
loss = F.cross_entropy(model(torch.randn(4, 3, 32, 32)), torch.tensor([1, 0, 3, 9]))
loss.backward()
optimizer.step()

# Save/Load state_dict (Recommended)
torch.save(model.state_dict(), PATH)

model = TheModelClass()
model.load_state_dict(torch.load(PATH, weights_only=True))
print(model.eval())

# Save/Load Entire Model
torch.save(model, PATH)

# Model class must be defined somewhere
model = torch.load(PATH, weights_only=False)
print(model.eval())

# Saving & Loading a General Checkpoint for Inference and/or Resuming Training
torch.save({
            'epoch': epoch,
            'model_state_dict': model.state_dict(),
            'optimizer_state_dict': optimizer.state_dict(),
            'loss': loss,
            }, PATH)

model = TheModelClass()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

checkpoint = torch.load(PATH, weights_only=True)
model.load_state_dict(checkpoint['model_state_dict'])
optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']
loss = checkpoint['loss']

model.eval()
# - or -
print(model.train())

# Saving Multiple Models in One File
modelA, modelB = TheModelClass(), TheModelClass()
optimizerA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)
torch.save({
            'modelA_state_dict': modelA.state_dict(),
            'modelB_state_dict': modelB.state_dict(),
            'optimizerA_state_dict': optimizerA.state_dict(),
            'optimizerB_state_dict': optimizerB.state_dict(),
            }, PATH)

modelA = TheModelClass()
modelB = TheModelClass()
optimizerA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)

checkpoint = torch.load(PATH, weights_only=True)
modelA.load_state_dict(checkpoint['modelA_state_dict'])
modelB.load_state_dict(checkpoint['modelB_state_dict'])
optimizerA.load_state_dict(checkpoint['optimizerA_state_dict'])
optimizerB.load_state_dict(checkpoint['optimizerB_state_dict'])

modelA.eval()
modelB.eval()
# - or -
modelA.train()
print(modelB.train())

# Warmstarting Model Using Parameters from a Different Model
torch.save(modelA.state_dict(), PATH)

modelB = TheModelClass()
print(modelB.load_state_dict(torch.load(PATH, weights_only=True), strict=False))

# Save on GPU, Load on CPU
torch.save(model.state_dict(), PATH)

device = torch.device('cpu')
model = TheModelClass()
print(model.load_state_dict(torch.load(PATH, map_location=device, weights_only=True)))

# nnscope corpus: what the loads gave back
print(epoch, loss)
print(optimizer.state_dict()['state'][0]['momentum_buffer'][0, 0])
print(torch.equal(modelB.fc3.weight, modelA.fc3.weight))
