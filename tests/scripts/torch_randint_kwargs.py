# torch.randint's arguments by name as PyTorch 1.13 takes them (minGPT's SortDataset calls
# torch.randint(self.num_digits, size=(self.length,), dtype=torch.long)).
import torch
torch.manual_seed(0)
print(torch.randint(3, size=(6,)), torch.randint(0, 10, size=(3,)), torch.randint(low=2, high=10, size=(3,)))
print(torch.randint(high=5, size=(2,)), torch.randint(5, (2,)), torch.randint(1, 5, (2,)), torch.randint(2, high=4, size=(3,)))
print(torch.randint(3, size=(2, 2), dtype=torch.long).dtype, torch.randint(3, size=(4,), dtype=torch.int32))
for bad in [lambda: torch.randint(5), lambda: torch.randint(size=(2,))]:
    try:
        bad()
    except TypeError:
        print('TypeError')
