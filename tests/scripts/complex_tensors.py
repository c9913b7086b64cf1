# complex64 / complex128 tensors: printing, promotion, arithmetic, views, items
import torch

a = torch.tensor([1+2j, 3-4j])
print(a, a.dtype, a.is_complex(), torch.is_complex(a), torch.ones(2).is_complex())
print(torch.complex64, torch.cfloat, torch.complex128, torch.cdouble, torch.cfloat.is_complex)
print(torch.tensor([[1.5+2j, -3j], [0.25, 1e-5j]]))
print(torch.tensor(2-1j), torch.tensor([1j], dtype=torch.complex128), torch.tensor([1, 2], dtype=torch.cfloat))
print(torch.tensor([0.1+0.2j, 100.5-7j, -3.25+0.125j]))
print(torch.tensor([[1+1j, 2], [3, 4-1j]], dtype=torch.cdouble))
print(torch.zeros(2, dtype=torch.complex64), torch.tensor([], dtype=torch.cfloat))

# arithmetic and promotion
b = torch.tensor([2-1j, 0.5+0.5j])
print(a + b, a - b, a * b, a / b)
print(a + 1, 2 * a, a / 2, a - 1j, 1j * a, (1+1j) / a)
print(torch.ones(3) * 1j, (torch.ones(2, dtype=torch.float64) + 1j).dtype, (torch.arange(3) + 1j).dtype)
print(torch.tensor([1.0, 2.0]) + a, (a + a.to(torch.complex128)).dtype)
print(a == b, a != b, a == a, -a)
x = torch.tensor([1+1j, 2-2j])
x += 1
x *= 1j
print(x)

# parts and views
print(a.real, a.imag, torch.real(a), torch.imag(a))
r = torch.view_as_real(a)
print(r, r.shape, r.dtype)
a.real[0] = 10
print(a)
c = torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, -4.0]]))
print(c, torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([0.5, -0.5])))
print(torch.complex(torch.tensor([1.0], dtype=torch.float64), torch.tensor([2.0], dtype=torch.float64)))

# functions
z = torch.tensor([3+4j, -1+0j, 0-2j, 1+1j])
print(z.abs(), abs(z), torch.abs(z), z.angle(), torch.angle(torch.tensor([1.0, -2.0, 0.0])))
print(z.conj(), torch.conj(z), z.conj().imag, z.exp(), torch.exp(torch.tensor([0j, 1j])))
print(z.conj_physical(), torch.resolve_conj(z.conj()), z.is_conj(), torch.is_conj(z), torch.conj(torch.ones(2)))
print(z.sum(), z.mean(), torch.tensor([[1+1j, 2], [3j, 4]]).sum(0), torch.tensor([[1+1j, 2], [3j, 4]]).sum(dim=1, keepdim=True))
m = torch.tensor([[1+1j, 2], [0, 1-1j]])
print(m @ m, torch.matmul(m, torch.tensor([1j, 1])))

# items
print(z[0].item(), z.tolist(), torch.tensor(1+2j).item(), type(z[1].item()), complex(torch.tensor(2j)))
print(z[1:3], z.reshape(2, 2), z.reshape(2, 2).t(), z.flip(0) if hasattr(z, 'flip') else None)

# torch.save / torch.load (ComplexFloatStorage, ComplexDoubleStorage)
import io
buf = io.BytesIO()
torch.save({"z": z, "d": z.to(torch.complex128)}, buf)
buf.seek(0)
back = torch.load(buf)
print(back["z"], back["d"], torch.equal(back["z"], z))

# errors as PyTorch's
for expr in ["a < b", "a > 1", "a // 2", "a % 2", "torch.maximum(a, b)", "torch.view_as_real(torch.ones(2))",
             "torch.view_as_complex(torch.ones(2, 3))", "torch.view_as_complex(torch.ones(2, 2).t())",
             "torch.view_as_complex(torch.ones(2, 2, dtype=torch.long))", "torch.ones(2).imag",
             "torch.complex(torch.ones(2), torch.ones(2, dtype=torch.float64))",
             "torch.complex(torch.ones(2, dtype=torch.long), torch.ones(2, dtype=torch.long))",
             "torch.tensor([1j], dtype=torch.float32)", "z.item()"]:
    try:
        print(expr, eval(expr))
    except Exception as e:
        print(expr, type(e).__name__, e)
