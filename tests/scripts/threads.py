# torch.set_num_threads / torch.get_num_threads: the budget round-trips, bad values raise; results do not change
import torch
torch.set_num_threads(2)
print(torch.get_num_threads())
torch.manual_seed(0)
x = torch.randn(3, 100000)
torch.set_num_threads(1)
print(torch.get_num_threads())
one = (x.sum(), torch.nn.functional.gelu(x)[:, :3], (x * 2 + 1)[:, -2:], x.softmax(1)[:, :2])
torch.set_num_threads(2)
two = (x.sum(), torch.nn.functional.gelu(x)[:, :3], (x * 2 + 1)[:, -2:], x.softmax(1)[:, :2])
print(all(torch.equal(a, b) for a, b in zip(one[1:], two[1:])), one[0].item() == two[0].item())
for bad in (0, -3, 'a', 2.5):
    try:
        torch.set_num_threads(bad)
    except RuntimeError as e:
        print('RuntimeError', e)
print(torch.get_num_threads())
