#!/usr/bin/python3
"""The PyTorch twin of c_api_demo.c. Its output is c_api_demo.expected:
    /usr/bin/python3 tutorials/c_api_demo.py > tutorials/c_api_demo.expected
"""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(4, 3)
w1 = torch.randn(3, 5)
w2 = torch.randn(5, 1)
target = torch.ones(4, 1)
w1.requires_grad_(True)
w2.requires_grad_(True)
print("x =")
print(x)

xw = x @ w1
h = F.gelu(xw, approximate="tanh")
y = h @ w2
print("y =")
print(y)

loss = F.mse_loss(y, target)
print("loss =")
print(loss)
loss.backward()
print("w1.grad =")
print(w1.grad)
print("w2.grad =")
print(w2.grad)

probs = torch.softmax(y, 0)
print("softmax(y, dim=0) =")
print(probs)
