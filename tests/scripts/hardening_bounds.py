# Sizes and values past their C types (issue 22): slice bounds past int64 clamp as CPython's
# _PyEval_SliceIndex; permute's dims are checked before any cut to int; expandtabs' tabsize
# is a C int; float -> int32/int16/int8/uint8 as PyTorch's x86 cast (through a 32-bit
# conversion: INT32_MIN when out of range or NaN), int64 -> narrower ints keep the low bits.
import torch
print(list(range(10))[2**62:2**63], list(range(10))[-2**100:2**100:2**100], 'abcdef'[::-2**70], list(range(5))[2**80::-1])
for f in [lambda: torch.ones(2, 2).permute(0, 2**62), lambda: 'x'.expandtabs(2**62), lambda: 'x'.expandtabs(-2**70)]:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
print('a\tb'.expandtabs(-3), 'a\tb'.expandtabs(True))
print(torch.tensor(3e9).int(), torch.tensor([3e9]*20).int()[:3], torch.tensor([1e300]*20, dtype=torch.float64).int()[:3], torch.tensor(-3e9).int(), torch.tensor(float('nan')).int(), torch.tensor(3e9).to(torch.int16), torch.tensor(1e20).to(torch.uint8), torch.tensor([-1.5, 300.7, -129.2]).to(torch.uint8), torch.tensor([-1.5, 300.7, -129.2]).to(torch.int8))
a = torch.tensor([2**31 - 1, -2**31, 3000000000, 2**40 + 7])
print(a.int(), a.short(), a.char(), a.byte(), a.int().long(), a.int().short())
b = torch.tensor([2**31 - 1], dtype=torch.int32)
print(b + 5, b * 3, b - (-5), torch.tensor([100], dtype=torch.int8) * 3, torch.tensor([200], dtype=torch.uint8) + 100)
print(torch.tensor([2**62]) * 4, torch.tensor([1.5e10]).long(), torch.tensor([1e20]).long())
