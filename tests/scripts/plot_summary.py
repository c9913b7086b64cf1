# expected: by hand — nnscope's plot() and summary() built-ins, which PyTorch lacks. The first
# two plots and the table are tests/fixtures/plot_activations.txt, plot_relu_grad.txt and
# summary_gelu_mlp.txt (that one made by torchinfo's logic over PyTorch in gen_summary.py).
import torch
import torch.nn as nn

plot([nn.ReLU(), nn.GELU(), nn.Tanh()])
plot(nn.ReLU(), grad=True, width=60, height=12)


def square(x):
    return x * x


plot(square, lo=-2, hi=2, grad=True, width=40, height=8)
summary(nn.Sequential(nn.Linear(4, 8), nn.GELU(approximate="tanh"), nn.Linear(8, 1)), (1, 4))
