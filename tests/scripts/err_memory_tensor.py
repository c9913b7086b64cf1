# a tensor of 10**12 float32 elements (4 TB) fails cleanly and the program goes on:
# RuntimeError, as PyTorch's allocator raises (err_alloc_runtime.py checks the message)
import torch

try:
    torch.zeros(10**12)
except RuntimeError as e:
    print("caught")
print(torch.zeros(2))
