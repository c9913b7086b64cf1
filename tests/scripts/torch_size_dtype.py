import torch
s = torch.Size([2, 3])
for e in ["s + s", "s + (4,)", "(4,) + s", "s * 2", "s[1:]", "type(s[1:])", "s == (2, 3)", "s[-1]", "list(s)", "len(s)"]:
    try: print(e, '->', eval(e))
    except Exception as ex: print(e, 'FAIL', type(ex).__name__, ex)
s = torch.Size([2, 3])
print(2 * s, s * 0, s[::-1], s[0:1], s.numel(), torch.Size([]).numel(), torch.zeros(2, 3, 4).shape[1:].numel())
try: print(s + ('a',))
except Exception as e: print(type(e).__name__, e)
try: print(s + [4])
except Exception as e: print(type(e).__name__, e)
x = torch.zeros(2, 3, 4)
print(x.view(x.size()[:-1] + (2, 2)).shape, x.shape[:2] + x.shape[2:], torch.max(x, 1)[0:1])
print(isinstance(torch.float32, torch.dtype), torch.dtype, type(torch.int64), isinstance(3, torch.dtype), type(torch.float32) is torch.dtype)
try:
    torch.dtype()
except TypeError as e:
    print(e)
