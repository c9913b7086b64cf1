# Training: a Dataset and DataLoader, a loop with an optimizer and a learning-rate schedule, the loss printed
#
# Lesson 6 of the nnscope course: `nnscope --lesson training`. Every cell is plain
# PyTorch: python3 with PyTorch 1.13 prints the same bytes.

# %% The data: 512 points of the plane, labelled 1 where x * y > 0 (an XOR pattern a linear model cannot learn)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)
X = torch.randn(512, 2)
y = (X[:, 0] * X[:, 1] > 0).long()
data = TensorDataset(X, y)
print(len(data), "examples; the first:", data[0])
print("labels 0 and 1:", (y == 0).sum().item(), (y == 1).sum().item())

# %% random_split keeps 128 examples apart to measure what the model has really learned
train, val = random_split(data, [384, 128])
print(len(train), "for training,", len(val), "for validation")

# %% A DataLoader cuts the training set into shuffled batches, anew each epoch
loader = DataLoader(train, batch_size=64, shuffle=True)
val_loader = DataLoader(val, batch_size=128)
print(len(loader), "batches per epoch")
xb, yb = next(iter(loader))
print("one batch:", xb.shape, yb.shape, yb[:10])

# %% The model, the loss, and the optimizer that updates the parameters from their gradients
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
print(opt)
with torch.no_grad():
    print("loss before training:", F.cross_entropy(model(X), y).item())

# %% A learning-rate schedule: StepLR halves the rate every 4 epochs
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=4, gamma=0.5)
print("learning rate now:", sched.get_last_lr())

# %% Validation accuracy, in eval mode and without building a graph
def accuracy(loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in loader:
            correct += (model(xb).argmax(dim=1) == yb).sum().item()
    model.train()
    return correct / len(loader.dataset)


print("accuracy before training:", accuracy(val_loader))

# %% The loop: for each batch, forward, loss, zero_grad, backward, step; the schedule steps once per epoch
for epoch in range(12):
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    lr = sched.get_last_lr()[0]
    sched.step()
    print(f"epoch {epoch:2d}  lr {lr:.4f}  train loss {total / len(train):.4f}  val accuracy {accuracy(val_loader):.3f}")

# %% The schedule's state, saved with a checkpoint to resume training where it stopped
print(sched.state_dict())

# %% Other schedules, step by step from lr 0.1
def rates(make, steps=10):
    o = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    s = make(o)
    out = []
    for _ in range(steps):
        out.append(s.get_last_lr()[0])
        o.step()
        s.step()
    return out


schedules = [
    ("StepLR(3, 0.5)", lambda o: torch.optim.lr_scheduler.StepLR(o, 3, 0.5)),
    ("ExponentialLR(0.8)", lambda o: torch.optim.lr_scheduler.ExponentialLR(o, 0.8)),
    ("CosineAnnealingLR(10)", lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, 10)),
    ("OneCycleLR(1.0, 10)", lambda o: torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=10)),
]
for name, make in schedules:
    print(f"{name:<22}", " ".join(f"{r:.4f}" for r in rates(make)))

# %% Adam adapts each parameter's step; compared on the same data for 3 epochs
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"Adam epoch {epoch}: last batch loss {loss.item():.4f}, val accuracy {accuracy(val_loader):.3f}")
