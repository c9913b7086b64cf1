# a tensor of 10**12 float32 elements (4 TB) fails cleanly and the program goes on. PyTorch
# raises RuntimeError ("DefaultCPUAllocator: can't allocate memory"), nnscope MemoryError:
# the script accepts either.
import torch

try:
    torch.zeros(10**12)
except (RuntimeError, MemoryError) as e:
    print("caught")
print(torch.zeros(2))
