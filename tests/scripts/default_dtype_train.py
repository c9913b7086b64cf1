# A small training script run under torch.set_default_dtype(torch.float64), as
# tutorials do for gradient checks and scientific models: every parameter, buffer,
# input and optimizer state is float64 without one dtype= in the script.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)

# regression: an MLP fitting sin(3x) with SGD and momentum
x = torch.linspace(-1, 1, 64).unsqueeze(1)
y = torch.sin(3 * x) + 0.1 * torch.randn(64, 1)
mlp = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(mlp.parameters(), lr=0.1, momentum=0.9)
for step in range(30):
    opt.zero_grad()
    loss = F.mse_loss(mlp(x), y)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.12f}", loss.dtype)
print(mlp[0].weight.dtype, mlp(x[:3]))


# classification: a small conv net with batch norm, Adam and cross entropy
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 4 * 4, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        return self.fc(x.flatten(1))


net = Net()
images = torch.randn(12, 1, 8, 8)
labels = torch.randint(0, 3, (12,))
adam = torch.optim.Adam(net.parameters(), lr=0.01)
for step in range(20):
    adam.zero_grad()
    out = net(images)
    loss = F.cross_entropy(out, labels)
    loss.backward()
    adam.step()
    if step % 4 == 0:
        acc = (out.argmax(1) == labels).float().mean()
        print(step, f"{loss.item():.12f}", acc, acc.dtype)
print(net.bn.running_mean, net.bn.num_batches_tracked)
print(adam.state_dict()["state"][0]["step"], adam.state_dict()["state"][0]["exp_avg"].dtype)
net.eval()
with torch.no_grad():
    print(F.softmax(net(images[:2]), dim=1))

# a recurrent model: an LSTM on a short sequence
lstm = nn.LSTM(3, 5, batch_first=True)
head = nn.Linear(5, 1)
seq = torch.randn(2, 4, 3)
rms = torch.optim.RMSprop(list(lstm.parameters()) + list(head.parameters()), lr=0.01)
for step in range(5):
    rms.zero_grad()
    out, (h, c) = lstm(seq)
    loss = head(out[:, -1]).pow(2).mean()
    loss.backward()
    rms.step()
    print(step, f"{loss.item():.12f}")
print(h.dtype, c.shape)
