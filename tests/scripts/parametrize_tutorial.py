# torch.nn.utils.parametrize as the official Parametrizations Tutorial uses it (Symmetric, Skew,
# CayleyMap, MatrixExponential, cached(), right_inverse, remove_parametrizations), on nn.Linear,
# nn.Conv2d and a BatchNorm buffer: ParametrizedLinear's repr, state_dict keys, gradients to
# original, training through an optimizer, errors; parametrizations.orthogonal and spectral_norm.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils import parametrizations


def symmetric(X):
    return X.triu() + X.triu(1).transpose(-1, -2)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)


class CayleyMap(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("Id", torch.eye(n))

    def forward(self, X):
        return torch.linalg.solve(self.Id - X, self.Id + X)


class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)


class NoisyParametrization(nn.Module):
    def forward(self, X):
        print("Computing the Parametrization")
        return X


torch.manual_seed(0)
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
A = layer.weight
print(torch.allclose(A, A.T))
print(A)
print(layer)
print(type(layer), type(layer).__name__, P.is_parametrized(layer), P.is_parametrized(layer, "weight"),
      P.is_parametrized(layer, "bias"), P.type_before_parametrizations(layer))
print(layer.parametrizations.weight.original)
print(list(layer.state_dict().keys()))
print([n for n, _ in layer.named_parameters()])
x = torch.randn(2, 3)
y = layer(x)
print(y)
y.sum().backward()
print(layer.parametrizations.weight.original.grad)
print(layer.bias.grad)

layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Skew())
X = layer.weight
print(torch.dist(X, -X.T))
layer_orthogonal = nn.Linear(3, 3)
P.register_parametrization(layer_orthogonal, "weight", Skew())
P.register_parametrization(layer_orthogonal, "weight", CayleyMap(3))
X = layer_orthogonal.weight
print(torch.dist(X.T @ X, torch.eye(3)) < 1e-5)
print(layer_orthogonal)
layer_spd = nn.Linear(3, 3)
P.register_parametrization(layer_spd, "weight", Symmetric())
P.register_parametrization(layer_spd, "weight", MatrixExponential())
X = layer_spd.weight
print(torch.dist(X, X.T) < 1e-5, (torch.linalg.eigvalsh(X) > 0.).all())

print("== caching")
layer = nn.Linear(4, 4)
P.register_parametrization(layer, "weight", NoisyParametrization())
print("Here, layer.weight is recomputed every time we call it")
foo = layer.weight + layer.weight.T
bar = layer.weight.sum()
with P.cached():
    print("Here, it is computed just the first time layer.weight is called")
    foo = layer.weight + layer.weight.T
    bar = layer.weight.sum()


class Symmetric2(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


print("== right_inverse")
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric2())
X = torch.rand(3, 3)
X = X + X.T
print(torch.dist(layer.weight, X) > 0.1)
layer.weight = X
print(torch.dist(layer.weight, X) < 1e-6)
print(layer.parametrizations.weight.original)


class NoisyParametrization2(nn.Module):
    def forward(self, X):
        return X

    def right_inverse(self, A):
        print("Calling right_inverse")
        return A


layer = nn.Linear(4, 4)
print("register")
P.register_parametrization(layer, "weight", NoisyParametrization2())
print("assign")
layer.weight = torch.rand(4, 4)

print("== removing")
layer = nn.Linear(3, 3)
print("Before:")
print(layer)
print(layer.weight)
P.register_parametrization(layer, "weight", Skew())
print("Parametrized:")
print(layer)
print(layer.weight)
P.remove_parametrizations(layer, "weight")
print("After. Weight has skew-symmetric values but it is unconstrained:")
print(layer)
print(layer.weight, type(layer))
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Skew())
P.remove_parametrizations(layer, "weight", leave_parametrized=False)
print(layer.weight)

print("== conv, buffers, errors, optimizer")


class Reduce(nn.Module):
    def forward(self, X):
        return X.sum()


class Half(nn.Module):
    def forward(self, X):
        return X.double()


class NoInverse(nn.Module):
    def forward(self, X):
        return X * 2



conv = nn.Conv2d(2, 2, 3)
P.register_parametrization(conv, "weight", nn.Identity())
print(conv, conv(torch.ones(1, 2, 4, 4)).shape)
bn = nn.BatchNorm1d(3)
P.register_parametrization(bn, "running_mean", nn.Identity())
print(list(bn.state_dict().keys()))
for bad in (lambda: P.register_parametrization(nn.Linear(2, 2), "foo", Skew()),
            lambda: P.remove_parametrizations(nn.Linear(2, 2), "weight"),
            lambda: P.register_parametrization(nn.Linear(2, 3), "weight", Reduce()),
            lambda: P.register_parametrization(nn.Linear(2, 3), "weight", Half(), unsafe=False),
            lambda: setattr(P.register_parametrization(nn.Linear(2, 3), "weight", NoInverse()), "weight", torch.ones(3, 2))):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
model = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))
P.register_parametrization(model[0], "weight", Symmetric())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    loss = model(torch.ones(4, 3)).pow(2).mean()
    loss.backward()
    opt.step()
    print(loss.item())
print(model)
print(model[0].weight)

print("== parametrizations")
torch.manual_seed(0)
lin = nn.Linear(5, 5)
parametrizations.orthogonal(lin)
Q = lin.weight
print(torch.dist(Q.T @ Q, torch.eye(5)) < 1e-5, lin)
lin = nn.Linear(5, 3)
parametrizations.orthogonal(lin, orthogonal_map="householder")
Q = lin.weight
print(torch.dist(Q @ Q.T, torch.eye(3)) < 1e-5)
lin = nn.Linear(4, 4)
parametrizations.orthogonal(lin, orthogonal_map="cayley")
print(torch.dist(lin.weight.T @ lin.weight, torch.eye(4)) < 1e-5)
torch.manual_seed(0)
snm = parametrizations.spectral_norm(nn.Linear(20, 40))
print(snm)
print(torch.linalg.matrix_norm(snm.weight, 2))
print(snm.parametrizations.weight[0]._u[:4], list(snm.state_dict().keys()))
print(snm(torch.ones(2, 20)).sum())
