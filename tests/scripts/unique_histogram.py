# unique / unique_consecutive (inverse, counts, dim), bincount (weights,
# minlength), histc and histogram (edges, range, weight, density) as functions
# and methods, with PyTorch's errors (expected output from PyTorch 1.13).
import torch


def err(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)


x = torch.tensor([3, 1, 2, 3, 1, 7])
print(torch.unique(x), x.unique(return_counts=True), torch.unique(x, return_inverse=True))
print(torch.unique(x, sorted=True, return_inverse=True, return_counts=True))
m = torch.tensor([[3, 1], [2, 2], [3, 1]])
print(torch.unique(m), torch.unique(m, return_inverse=True))
print(torch.unique(m, dim=0, return_inverse=True, return_counts=True))
print(torch.unique(m, dim=1), m.unique(dim=-1, return_counts=True))
f = torch.tensor([[0.5, -1.0], [0.5, 2.0]])
print(torch.unique(f), torch.unique(torch.tensor([True, False, True])))
print(torch.unique(torch.tensor([], dtype=torch.int64), return_counts=True))
c = torch.tensor([1, 1, 2, 2, 3, 1, 1, 2])
print(torch.unique_consecutive(c), c.unique_consecutive(return_inverse=True, return_counts=True))
print(torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 3]]), dim=0, return_counts=True))

print(torch.bincount(torch.tensor([1, 1, 3])), torch.tensor([0, 4, 4]).bincount(minlength=7))
print(torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([0.5, 1.0, 2.0])))
print(torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([1, 1, 2])))
print(torch.bincount(torch.tensor([1, 1, 3]), torch.tensor([0.25, 1.0, 2.0], dtype=torch.float64), 6))
print(torch.bincount(torch.tensor([], dtype=torch.long)), torch.bincount(torch.tensor([], dtype=torch.long), minlength=3))
err(lambda: torch.bincount(torch.tensor([1, -1, 3])))
err(lambda: torch.bincount(torch.tensor([1.0, 3.0])))
err(lambda: torch.bincount(torch.tensor([1, 3]), minlength=-1))
err(lambda: torch.bincount(torch.tensor([1, 3]), weights=torch.tensor([1.0])))
err(lambda: torch.bincount(torch.tensor([[1, 3]])))

h = torch.tensor([1.0, 2.0, 1.0, 2.5, 0.2, 3.0])
print(torch.histc(h, bins=4, min=0, max=3), h.histc(3), torch.histc(h, 5, 1, 2))
print(torch.histc(torch.tensor([1.0, 1.0]), bins=4), torch.histc(torch.tensor([0.1, 0.2, 0.3, 0.7], dtype=torch.float64), 10, 0, 1))
data = torch.linspace(-1, 1, 50) ** 3
print(torch.histc(data, bins=7))
err(lambda: torch.histc(torch.tensor([1, 2]), bins=3))
err(lambda: torch.histc(h, bins=3, min=3, max=1))
err(lambda: torch.histc(h, bins=0))
print(torch.histogram(torch.tensor([1.0, 2.0, 1.0]), bins=4))
print(torch.histogram(torch.tensor([1.0, 2, 2.5, 7]), bins=torch.tensor([0.0, 2, 5])))
print(torch.histogram(torch.tensor([1.0, 2, 2.5, 7]), bins=3, range=(0.0, 6.0), density=True))
r = torch.histogram(torch.tensor([1.0, 2, 2.5, 7]), 3, weight=torch.tensor([1.0, 2, 3, 4]))
print(r.hist, r.bin_edges, r[0].dtype)
print(data.histogram(6))
print(torch.histogram(data.double(), bins=5, range=(-0.5, 0.5)))
err(lambda: torch.histogram(torch.tensor([1, 2]), bins=3))
err(lambda: torch.histogram(h, bins=0))
