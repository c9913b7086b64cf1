# The pytorch/examples VAE (vae/main.py) on 40 random 8x8 images instead of MNIST: DataLoader with shuffle,
# binary_cross_entropy(reduction='sum'), the KL term, Adam, eval under no_grad, decode of random samples.
from __future__ import print_function
import argparse
import torch
import torch.utils.data
from torch import nn, optim
from torch.nn import functional as F

torch.manual_seed(1)
device = torch.device("cpu")

class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(64, 40)
        self.fc21 = nn.Linear(40, 8)
        self.fc22 = nn.Linear(40, 8)
        self.fc3 = nn.Linear(8, 40)
        self.fc4 = nn.Linear(40, 64)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5*logvar)
        eps = torch.randn_like(std)
        return mu + eps*std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar

model = VAE().to(device)
optimizer = optim.Adam(model.parameters(), lr=1e-3)

def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD

data = torch.rand(40, 1, 8, 8)
labels = torch.randint(0, 10, (40,))
ds = torch.utils.data.TensorDataset(data, labels)
train_loader = torch.utils.data.DataLoader(ds, batch_size=16, shuffle=True)
test_loader = torch.utils.data.DataLoader(ds, batch_size=16, shuffle=False)
log_interval = 1

def train(epoch):
    model.train()
    train_loss = 0
    for batch_idx, (data, _) in enumerate(train_loader):
        data = data.to(device)
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        if batch_idx % log_interval == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                100. * batch_idx / len(train_loader),
                loss.item() / len(data)))
    print('====> Epoch: {} Average loss: {:.4f}'.format(
          epoch, train_loss / len(train_loader.dataset)))

def test(epoch):
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for i, (data, _) in enumerate(test_loader):
            data = data.to(device)
            recon_batch, mu, logvar = model(data)
            test_loss += loss_function(recon_batch, data, mu, logvar).item()
            if i == 0:
                n = min(data.size(0), 8)
                comparison = torch.cat([data[:n],
                                      recon_batch.view(16, 1, 8, 8)[:n]])
                print(comparison.shape, comparison.mean())
    test_loss /= len(test_loader.dataset)
    print('====> Test set loss: {:.4f}'.format(test_loss))

for epoch in range(1, 3):
    train(epoch)
    test(epoch)
    with torch.no_grad():
        sample = torch.randn(4, 8).to(device)
        sample = model.decode(sample).cpu()
        print(sample.view(4, 1, 8, 8).shape, sample.sum())
print(model)
