# nnscope corpus script (tests/corpus/README.md): a real public PyTorch script.
# Source: https://github.com/pytorch/tutorials/blob/1d189709801e98f5f184af0567c7f06b8b5156c2/beginner_source/examples_nn/polynomial_module.py
# License: BSD-3-Clause (Copyright (c) 2017-2022, Pytorch contributors)
# Adaptations (nothing else changed):
#  - torch.manual_seed(0) after the imports, so the initial weights are reproducible
#  - docstrings and comments (prose) shortened

"""
PyTorch: Custom nn Modules
--------------------------
"""
import torch
import math
torch.manual_seed(0)  # nnscope corpus: reproducible


class Polynomial3(torch.nn.Module):
    def __init__(self):
        """
        In the constructor we instantiate four parameters and assign them as
        member parameters.
        """
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    def string(self):
        """
        Just like any class in Python, you can also define custom method on PyTorch modules
        """
        return f'y = {self.a.item()} + {self.b.item()} x + {self.c.item()} x^2 + {self.d.item()} x^3'


# Create Tensors to hold input and outputs.
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

# Construct our model by instantiating the class defined above
model = Polynomial3()

criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(2000):
    # Forward pass: Compute predicted y by passing x to the model
    y_pred = model(x)

    # Compute and print loss
    loss = criterion(y_pred, y)
    if t % 100 == 99:
        print(t, loss.item())

    # Zero gradients, perform a backward pass, and update the weights.
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print(f'Result: {model.string()}')
