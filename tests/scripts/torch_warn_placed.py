# Core's PyTorch warnings placed in PyTorch's own file and line (nn_warn_at): nn.LSTM's dropout with one
# layer (torch/nn/modules/rnn.py:67), F.kl_div's reduction='mean' (torch/nn/functional.py:2916): shown once
# per run under the default filter, recorded with PyTorch's lineno, raised under 'error'.
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F
for i in range(3):
    nn.LSTM(2, 3, dropout=0.5)
    F.kl_div(torch.zeros(2, 3), torch.ones(2, 3) / 3)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    nn.GRU(2, 3, dropout=0.2)
    F.kl_div(torch.zeros(2, 3), torch.ones(2, 3) / 3, reduction='mean')
for x in w:
    print(x.category.__name__, x.filename.endswith(('torch/nn/modules/rnn.py', 'torch/nn/functional.py')), x.lineno, str(x.message)[:50])
warnings.simplefilter('error')
try:
    nn.RNN(2, 3, dropout=0.1)
except UserWarning as e:
    print('raised', str(e)[:40])
try:
    F.kl_div(torch.zeros(2, 3), torch.ones(2, 3) / 3)
except UserWarning as e:
    print('raised', str(e)[:40])
