# PyTorch 1.13's Python-level warnings are placed in PyTorch's own files (the
# size_average=/reduce= deprecation at torch/nn/_reduction.py:42, F.upsample's,
# dropout2d's, meshgrid's, the lazy modules', kaiming's zero-element no-op, the anomaly
# report): recorded with that filename and lineno, shown once per location by the
# default filter however many user lines trigger it, raised by an "error" filter.
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F


def where(w):
    f = w.filename.split('dist-packages/')[-1]
    return (f if f.startswith('torch/') else f.rsplit('/', 1)[-1]) + ':' + str(w.lineno)  # the script: its name


def record(name, fn, action='always'):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter(action)
        fn()
    for w in ws:
        print(name, where(w), w.category.__name__, str(w.message).split('\n')[0][:80])
    return len(ws)


x, y = torch.ones(3), torch.zeros(3)
record('MSELoss', lambda: nn.MSELoss(size_average=False))
record('L1Loss', lambda: nn.L1Loss(reduce=False))
record('F.mse_loss', lambda: F.mse_loss(x, y, reduce=False))
record('F.cross_entropy', lambda: F.cross_entropy(torch.ones(2, 3), torch.zeros(2, dtype=torch.long), size_average=True))
record('F.nll_loss', lambda: F.nll_loss(torch.ones(2, 3), torch.zeros(2, dtype=torch.long), reduce=False))
record('F.soft_margin_loss', lambda: F.soft_margin_loss(x, x, reduce=False))
record('NLLLoss', lambda: nn.NLLLoss(size_average=False, reduce=True))
record('upsample', lambda: F.upsample(torch.ones(1, 1, 2, 2), scale_factor=2))
record('upsample_nearest', lambda: F.upsample_nearest(torch.ones(1, 1, 2, 2), scale_factor=2))
record('upsample_bilinear', lambda: F.upsample_bilinear(torch.ones(1, 1, 2, 2), scale_factor=2))
record('dropout2d 3-D', lambda: F.dropout2d(torch.ones(2, 3, 4)))
record('dropout2d 2-D', lambda: F.dropout2d(torch.ones(2, 3)))
record('dropout3d 2-D', lambda: F.dropout3d(torch.ones(2, 3)))
record('meshgrid', lambda: torch.meshgrid(torch.ones(2), torch.ones(3)))
record('LazyLinear', lambda: nn.LazyLinear(3))
record('kaiming_uniform_', lambda: nn.init.kaiming_uniform_(torch.empty(0, 3)))
record('kaiming_normal_', lambda: nn.init.kaiming_normal_(torch.empty(0, 3)))
# C++ warnings stay at the caller's line, as PyTorch's
record('tensor copy', lambda: torch.tensor(torch.ones(2)))

# the default filter: once per location, however many lines of the user's
n = record('default', lambda: (nn.MSELoss(size_average=False), nn.L1Loss(reduce=False),
                               F.mse_loss(x, y, reduce=False)), action='default')
print('shown', n)

# an "error" filter raises it, and nothing is made
with warnings.catch_warnings():
    warnings.simplefilter('error')
    for fn in (lambda: nn.MSELoss(size_average=False), lambda: F.mse_loss(x, y, reduce=False),
               lambda: F.upsample(torch.ones(1, 1, 2, 2), scale_factor=2), lambda: nn.LazyLinear(3)):
        try:
            fn()
            print('no error')
        except UserWarning as e:
            print('UserWarning raised:', str(e)[:60])
# filtered out by module, as PyTorch's module names them
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    warnings.filterwarnings('ignore', module='torch.nn._reduction')
    nn.MSELoss(size_average=False)
    F.upsample(torch.ones(1, 1, 2, 2), scale_factor=2)
print([where(w) for w in ws])

# anomaly mode's report, placed where PyTorch's engine raises it
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    with torch.autograd.detect_anomaly():
        a = torch.ones(1, requires_grad=True)
        try:
            (torch.log(a - 1) * 0).sum().backward()
        except RuntimeError as e:
            print('RuntimeError', str(e)[:40])
print([where(w) for w in ws if 'Error detected' in str(w.message)])
