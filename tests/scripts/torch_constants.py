# torch.pi, torch.e, torch.inf, torch.nan: Python floats with math's values
import math
import torch

print(torch.pi, torch.e, torch.inf, -torch.inf, torch.nan)
print(type(torch.pi).__name__, type(torch.nan).__name__)
print(torch.pi == math.pi, torch.e == math.e, torch.inf == math.inf, math.isnan(torch.nan))
print(torch.tensor([torch.pi, torch.inf, -torch.inf, torch.nan]))
print(torch.sin(torch.tensor(torch.pi / 2)), (2 / torch.pi) ** 0.5)
print(torch.full((2,), torch.e))
