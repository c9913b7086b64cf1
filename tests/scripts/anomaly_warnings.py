# Anomaly mode's warnings go through the warnings module (recorded, filtered) as
# PyTorch's do: the category, the message's first lines, the "enabled" warning's place.
import os
import warnings
import torch

x = torch.tensor([-1.0, 2.0], requires_grad=True)
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    with torch.autograd.detect_anomaly():
        y = x.sqrt()
        try:
            y.sum().backward()
        except RuntimeError as e:
            print(e)
for w in ws:
    lines = str(w.message).split('\n')
    print(w.category.__name__, lines[0])
    if len(lines) > 2:
        print(lines[1].split(', ', 1)[1], '|', lines[2])
print(ws[0].lineno, os.path.basename(ws[0].filename))

with warnings.catch_warnings():
    warnings.simplefilter('error')
    try:
        torch.autograd.detect_anomaly()
    except UserWarning as e:
        print('raised:', str(e)[:40])
