# F.interpolate on bfloat16 tensors (a decoder upsampling by 2 in a bf16 model): each mode's numbers
# are PyTorch 1.13's bfloat16 arithmetic; float16, and nearest-exact on bfloat16, are refused
# with ATen's messages. (Ratios whose scale is inexact in bfloat16, such as 5 -> 7, still differ
# from 1.13 in the last bits: docs/nn.md.)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 3, 5, 6).to(torch.bfloat16)
for mode in ['nearest', 'bilinear', 'bicubic', 'area']:
    kw = {} if mode in ('nearest', 'area') else {'align_corners': False}
    y = F.interpolate(x, scale_factor=2, mode=mode, **kw)
    print(mode, y.dtype, y.shape, y.float().sum().item())
    print(y[1, 2, :3, :6])
x3 = torch.randn(1, 2, 3, 2, 4).to(torch.bfloat16)
y3 = F.interpolate(x3, scale_factor=2, mode='trilinear')
print(y3.float().sum().item(), y3[0, 1, 2])
up = nn.Upsample(scale_factor=2, mode='bilinear')
print(up(x)[0, 0, :2])
for dt in (torch.half, torch.bfloat16):
    for shape, mode in [((1, 2, 3, 4), 'bilinear'), ((1, 1, 3, 4), 'bilinear'), ((1, 1, 3, 4), 'nearest'),
                        ((1, 2, 3), 'linear'), ((1, 1, 2, 2, 2), 'trilinear'), ((1, 2, 2, 2, 2), 'trilinear'),
                        ((1, 2, 3, 4), 'bicubic'), ((1, 2, 3), 'nearest'), ((1, 2, 3, 4), 'nearest-exact'),
                        ((1, 1, 3, 4), 'nearest-exact'), ((1, 2, 3), 'nearest-exact')]:
        try:
            y = F.interpolate(torch.ones(shape, dtype=dt), scale_factor=2, mode=mode)
            print(dt, shape, mode, y.dtype, y.shape)
        except RuntimeError as e:
            print(dt, shape, mode, 'RuntimeError:', e)
