import torch
a = torch.ones(2, 3)
b = torch.ones(4, 5)
print("before")
c = a @ b
print("not reached")
