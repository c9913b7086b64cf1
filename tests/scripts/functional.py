# torch.nn.functional
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(3, 4)
print(F.relu(x), F.gelu(x), F.gelu(x, approximate="tanh"))
print(F.leaky_relu(x), F.leaky_relu(x, 0.3), F.elu(x), F.elu(x, alpha=2.0))
print(F.silu(x), F.softplus(x), F.softplus(x, beta=2, threshold=1))
print(F.threshold(x, 0.5, -1.0), F.prelu(x, torch.tensor([0.25])))
print(F.sigmoid(x), F.tanh(x), F.softmax(x, dim=1), F.log_softmax(x, dim=0))
print(F.dropout(x, 0.5, training=False), F.dropout(x, p=0.5).shape)
w = torch.randn(2, 4)
b = torch.randn(2)
print(F.linear(x, w), F.linear(x, w, b))
t = torch.randn(3, 4)
print(F.mse_loss(x, t), F.l1_loss(x, t), F.mse_loss(x, t, reduction="sum"), F.l1_loss(x, t, reduction="none"))
labels = torch.tensor([1, 0, 3])
print(F.cross_entropy(x, labels), F.cross_entropy(x, labels, reduction="sum"))
print(F.layer_norm(x, (4,)), F.layer_norm(x, [4], weight=torch.ones(4) * 2, bias=torch.zeros(4)))
table = torch.arange(12.0).reshape(4, 3)
print(F.embedding(torch.tensor([0, 3, 3]), table))
