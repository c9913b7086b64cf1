# torch.nn.init
import torch
import torch.nn as nn
from torch.nn import init

torch.manual_seed(0)
w = torch.empty(3, 5)
print(init.uniform_(w), init.uniform_(w, -0.1, 0.1))
print(init.normal_(w), init.normal_(w, mean=1.0, std=0.01))
print(init.constant_(w, 0.3), init.ones_(w), init.zeros_(w))
print(init.calculate_gain("relu"), init.calculate_gain("leaky_relu", 0.2), init.calculate_gain("tanh"),
      init.calculate_gain("linear"), init.calculate_gain("sigmoid"))
print(init.xavier_uniform_(w), init.xavier_uniform_(w, gain=2.0))
print(init.xavier_normal_(w))
print(init.kaiming_uniform_(w), init.kaiming_uniform_(w, a=5 ** 0.5))
print(init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))
print(init._calculate_fan_in_and_fan_out(torch.empty(4, 3, 2, 2)))
lin = nn.Linear(2, 2)
nn.init.constant_(lin.bias, 0.5)
print(lin.bias, lin.bias.requires_grad)
