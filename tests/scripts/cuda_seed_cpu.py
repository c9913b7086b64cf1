# torch.cuda.manual_seed / manual_seed_all on a build without CUDA: nothing happens, and the
# CPU's generator is untouched (karpathy/makemore seeds both)
import torch

torch.manual_seed(3407)
a = torch.rand(3)
torch.manual_seed(3407)
print(torch.cuda.manual_seed_all(3407), torch.cuda.manual_seed(1))
print(torch.equal(a, torch.rand(3)))
for bad in ['x', None]:
    try:
        torch.cuda.manual_seed_all(bad)
        print('no error for', bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__)
