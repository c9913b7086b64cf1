# Integer sums are exact past 2**53 and wrap around as PyTorch's int64 arithmetic does (they went
# through double: a last digit lost, and undefined behaviour past 2**63).
import torch
x = torch.tensor([2**62, 2**62, 2**62, 5])
print(x.sum(), x.sum(0), torch.tensor([2**53 + 1, 2]).sum(), torch.tensor([[2**60 + 3, 1], [7, 2**61 + 1]]).sum(1))
print(torch.tensor([-2**63, -1]).sum(), torch.tensor([2**63 - 1, 1]).sum())
print(torch.tensor([[2**53 + 1, 2**53 + 3]]).bmm(torch.tensor([[[1], [1]]])) if False else torch.tensor([[[2**53 + 1, 1]]]).bmm(torch.tensor([[[1], [2]]])))
print(torch.tensor([2**53 + 1])[0].item(), int(torch.tensor([2**60 + 1]).max()))
