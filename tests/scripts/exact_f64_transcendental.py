# float64 exp, log, tanh and sigmoid carry PyTorch's bits: ATen runs SLEEF's 4-wide
# functions (exp/log/tanh on every element, sigmoid on each row's multiples of 8 and
# libm on the rest); and float64 MSELoss reduces in torch.sum's order. Each line
# prints the exact float64 values (repr of Python floats).
import torch

x = torch.linspace(-12, 12, 1001, dtype=torch.float64)
pos = torch.linspace(1e-3, 50, 1001, dtype=torch.float64)


def show(name, t):
    v = t.reshape(-1).tolist()
    print(name, len(v), v[:3], v[-3:])
    print(name, 'sum of bits check', sum(v), repr(t.sum().item()))


show('exp', x.exp())
show('log', pos.log())
show('tanh', x.tanh())
show('sigmoid', x.sigmoid())
for n in (1, 3, 7, 8, 9, 15, 17):
    v = torch.linspace(-3, 3, n, dtype=torch.float64)
    print(n, v.exp().tolist(), v.tanh().tolist(), v.sigmoid().tolist())
# a strided operand: sigmoid's vectorized loop restarts at every row of 51
g = torch.linspace(-4, 4, 10 * 204, dtype=torch.float64).reshape(10, 204)
print(g[:, 51:102].sigmoid().tolist()[3])
print(g[:, 102:153].tanh().tolist()[7])
print(g.t().sigmoid().tolist()[5])
# the float64 LSTM cell uses these
torch.manual_seed(0)
cell = torch.nn.LSTMCell(3, 51).double()
h, c = cell(torch.randn(10, 3, dtype=torch.float64))
print(h.tolist()[4][:8], c.sum().item())
a = torch.linspace(-2, 2, 9603, dtype=torch.float64).sin().reshape(97, 99)
b = torch.linspace(1, -1, 9603, dtype=torch.float64).cos().reshape(97, 99)
print(torch.nn.MSELoss()(a, b).item(), torch.nn.MSELoss(reduction='sum')(a, b).item())
