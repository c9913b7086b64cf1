# tensors too large for the machine raise PyTorch's RuntimeError (not MemoryError), with
# its message; sizes whose byte count overflows int64 too; the program goes on. A Python
# list of 10**12 items is still MemoryError. The last one (an 8 TB arange) is uncaught.
import torch

for make in (lambda: torch.zeros(10**12), lambda: torch.ones(10**11, 10), lambda: torch.randn(10**12),
             lambda: torch.full((10**12,), 1.), lambda: torch.zeros(10**12, dtype=torch.float64),
             lambda: torch.ones(10**6).expand(10**6, 10**6).contiguous(), lambda: torch.ones(1).repeat(10**12),
             lambda: torch.ones(2**62, 4), lambda: torch.empty(2**31, 2**31), lambda: torch.empty(2**62, 4, dtype=torch.bool)):
    try:
        make()
    except MemoryError:
        print("MemoryError")
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    [0] * 10**12
except MemoryError:
    print("list: MemoryError")
print(torch.zeros(2))
torch.arange(10**12)
