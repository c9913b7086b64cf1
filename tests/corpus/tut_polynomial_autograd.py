# nnscope corpus script (tests/corpus/README.md): a real public PyTorch script.
# Source: https://github.com/pytorch/tutorials/blob/02e5a75dc17eec70591fbfc71b6e53b390083c3a/beginner_source/examples_autograd/polynomial_autograd.py
# License: BSD-3-Clause (Copyright (c) 2017-2022, Pytorch contributors)
# Adaptations (nothing else changed):
#  - torch.manual_seed(0) after the imports, so the initial weights are reproducible
#  - the device is "cpu": PyTorch 1.13 has no torch.accelerator nor torch.set_default_device,
#    so those two lines are left out
#  - the module docstring (prose) shortened to its title; long comments shortened

"""
PyTorch: Tensors and autograd
-------------------------------
"""
import torch
import math
torch.manual_seed(0)  # nnscope corpus: reproducible

dtype = torch.float
device = "cpu"  # nnscope corpus: was torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")

# Create Tensors to hold input and outputs.
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)

# Create random Tensors for weights. For a third order polynomial, we need
# 4 weights: y = a + b x + c x^2 + d x^3
a = torch.randn((), dtype=dtype, requires_grad=True)
b = torch.randn((), dtype=dtype, requires_grad=True)
c = torch.randn((), dtype=dtype, requires_grad=True)
d = torch.randn((), dtype=dtype, requires_grad=True)

learning_rate = 1e-6
for t in range(2000):
    # Forward pass: compute predicted y using operations on Tensors.
    y_pred = a + b * x + c * x ** 2 + d * x ** 3

    # Compute and print loss using operations on Tensors.
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())

    # Use autograd to compute the backward pass.
    loss.backward()

    # Manually update weights using gradient descent. Wrap in torch.no_grad()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad

        # Manually zero the gradients after updating weights
        #a.grad = None
        #b.grad = None
        #c.grad = None
        #d.grad = None
        a.grad, b.grad, c.grad, d.grad = 0. , 0. , 0. , 0.

print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
