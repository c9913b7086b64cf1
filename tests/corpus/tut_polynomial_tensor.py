# nnscope corpus script (tests/corpus/README.md): a real public PyTorch script.
# Source: https://github.com/pytorch/tutorials/blob/088bc52a76551211d2499b1cca69a677eba59236/beginner_source/examples_tensor/polynomial_tensor.py
# License: BSD-3-Clause (Copyright (c) 2017-2022, Pytorch contributors)
# Adaptations (nothing else changed):
#  - torch.manual_seed(0) after the imports, so the initial weights are reproducible
#  - the module docstring (prose) shortened to its title

# -*- coding: utf-8 -*-
"""
PyTorch: Tensors
----------------
"""

import math
import torch
torch.manual_seed(0)  # nnscope corpus: reproducible


dtype = torch.float
device = torch.device("cpu")
# device = torch.device("cuda:0") # Uncomment this to run on GPU

# Create random input and output data
x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)

# Randomly initialize weights
a = torch.randn((), device=device, dtype=dtype)
b = torch.randn((), device=device, dtype=dtype)
c = torch.randn((), device=device, dtype=dtype)
d = torch.randn((), device=device, dtype=dtype)

learning_rate = 1e-6
for t in range(2000):
    # Forward pass: compute predicted y
    y_pred = a + (b * x) + (c * x.pow(2)) + (d * x.pow(3))

    # Compute and print loss
    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, loss)

    # Backprop to compute gradients of a, b, c, d with respect to loss
    grad_y_pred = -2.0 * (y - y_pred)
    grad_a = grad_y_pred.sum()
    grad_b = torch.matmul(input=grad_y_pred, other=x).sum()
    grad_c = torch.matmul(input=grad_y_pred, other=x.pow(2)).sum()
    grad_d = torch.matmul(input=grad_y_pred, other=x.pow(3)).sum()

    # Update weights using gradient descent
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d


print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
