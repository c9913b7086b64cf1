# torch.nn.utils.spectral_norm / remove_spectral_norm (the hook form of PyTorch 1.13)
# in a small GAN discriminator: parameters and buffers, power iteration in training
# mode only, state_dict (its metadata version), a load into a fresh copy, removal.
import torch
import torch.nn as nn
from torch.nn.utils import spectral_norm, remove_spectral_norm
torch.manual_seed(0)
SN = spectral_norm
disc = nn.Sequential(
    SN(nn.Conv2d(1, 4, 3, stride=2, padding=1)), nn.LeakyReLU(0.2),
    SN(nn.Conv2d(4, 8, 3, stride=2, padding=1)), nn.LeakyReLU(0.2),
    nn.Flatten(), SN(nn.Linear(8 * 2 * 2, 1)))
print(disc)
print([n for n, _ in disc.named_parameters()])
print([n for n, _ in disc.named_buffers()])
print(disc[0].weight_u, disc[5].weight_v)
opt = torch.optim.Adam(disc.parameters(), lr=2e-4, betas=(0.5, 0.999))
x = torch.randn(6, 1, 8, 8)
for step in range(3):
    opt.zero_grad()
    loss = nn.functional.softplus(-disc(x)).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6), disc[5].weight_u)
w = disc[5].weight
print(torch.linalg.matrix_norm(disc[5].weight_orig / torch.dot(disc[5].weight_u, torch.mv(disc[5].weight_orig, disc[5].weight_v)), 2))
disc.eval()
u_before = disc[0].weight_u.clone()
with torch.no_grad():
    disc(x)
print(torch.equal(u_before, disc[0].weight_u))
sd = disc.state_dict()
print(list(sd.keys()))
print(sd._metadata['5'])
copy = nn.Sequential(
    SN(nn.Conv2d(1, 4, 3, stride=2, padding=1)), nn.LeakyReLU(0.2),
    SN(nn.Conv2d(4, 8, 3, stride=2, padding=1)), nn.LeakyReLU(0.2),
    nn.Flatten(), SN(nn.Linear(8 * 2 * 2, 1)))
print(copy.load_state_dict(sd))
copy.eval()
print(torch.allclose(copy(x), disc(x)))
lin = remove_spectral_norm(disc[5])
print([n for n, _ in lin.named_parameters()], lin.weight.requires_grad)
try:
    remove_spectral_norm(lin)
except ValueError as e:
    print('ValueError', e)
try:
    SN(disc[0])
except RuntimeError as e:
    print('RuntimeError', e)
ct = SN(nn.ConvTranspose2d(3, 5, 2))
print(ct.weight_u.shape, ct.weight_v.shape)
try:
    SN(nn.Linear(2, 2), n_power_iterations=0)
except ValueError as e:
    print('ValueError', e)
