# torch.return_types: the named tuples of multi-result functions, their class
# objects (type(r), the constructor) and the _out forms of out=(...)
import torch

x = torch.tensor([[1., 5., 2.], [7., 0., 3.], [4., 4., 9.]])
A = torch.tensor([[4., 1.], [1., 3.]])
results = [
    torch.max(x, 1), x.min(0), torch.sort(x), torch.topk(x, 2), torch.kthvalue(x, 2),
    torch.median(x, 1), torch.mode(x, 0), torch.nanmedian(x, 1), torch.aminmax(x, dim=0),
    torch.cummax(x, 0), torch.cummin(x, 1), torch.frexp(x), torch.histogram(x, 3),
    torch.linalg.slogdet(A), torch.slogdet(A), torch.linalg.qr(A), torch.qr(A), torch.svd(A),
    torch.linalg.svd(A), torch.linalg.eigh(A), torch.linalg.eig(A), torch.linalg.lu_factor(A),
    torch.linalg.lu(A), torch.lu_unpack(*torch.linalg.lu_factor(A)),
    torch.linalg.lstsq(A, torch.ones(2, 1)), torch.triangular_solve(torch.ones(2, 1), A),
]
for r in results:
    t = type(r)
    print(t, t.__name__, t.__module__, isinstance(r, tuple), len(r), r.n_fields)

r = torch.max(x, 1)
print(r)
values, indices = r
print(values, indices, r[0] is r.values, r[-1] is r.indices)
print(r == (r.values, r.indices), r[:1], type(r[:1]), r + (1,), (0,) + r, len(r * 2), r[::-1])
try:
    r + 1
except TypeError as e:
    print(e)
print(type(r) is torch.return_types.max, torch.return_types.max)

# out=(a, b) gives the NAME_out type
v, i = torch.empty(0), torch.empty(0, dtype=torch.long)
o = torch.sort(x, 1, out=(v, i))
print(type(o), o.values is v, o)

# the classes build one from a sequence, as PyTorch's structseq
made = torch.return_types.max((torch.ones(1), torch.zeros(1, dtype=torch.long)))
print(made, type(made))
print(torch.return_types.topk([1, 2]).indices, torch.return_types.linalg_svd(sequence=(1, 2, 3)).Vh)
for bad in [lambda: torch.return_types.max(), lambda: torch.return_types.max(5),
            lambda: torch.return_types.max([1, 2, 3]), lambda: torch.return_types.max([1, 2], x=1),
            lambda: r.foo, lambda: torch.return_types.nosuch]:
    try:
        bad()
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)
