# Warnings and version counters real code meets: the implicit softmax dim, a loss whose
# target broadcasts, warnings raised in exec()/eval() code (no source line to show), and
# the version counter of tensors written in place by scalar ops and setitem (which the
# "modified by an inplace operation" error quotes).
import os
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.ones(2, 3)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    F.softmax(x)
    F.log_softmax(x)
    F.softmin(x)
    nn.Softmax()(x)
    nn.LogSoftmax()(x)
    F.mse_loss(torch.ones(2, 1), torch.ones(2))
    F.l1_loss(torch.ones(2, 1), torch.ones(2))
    F.smooth_l1_loss(torch.ones(2, 1), torch.ones(2))
    F.huber_loss(torch.ones(2, 1), torch.ones(2))
    F.mse_loss(torch.ones(2), torch.ones(2))
    eval("F.softmax(torch.ones(3))")
    exec("warnings.warn('from exec')")
for w in caught:
    print(w.category.__name__, str(w.message), os.path.basename(w.filename), w.line)
c = torch.ones(3)
versions = [c._version]
c.mul_(2); versions.append(c._version)
c.add_(1); versions.append(c._version)
c += 1; versions.append(c._version)
c.div_(torch.tensor(2)); versions.append(c._version)
c[0] = 5; versions.append(c._version)
c[1:] = torch.tensor([2., 3.]); versions.append(c._version)
c[c > 2] = 0; versions.append(c._version)
torch.add(c, 1, out=c); versions.append(c._version)
print(versions)
a = torch.ones(3, requires_grad=True)
b = a.sigmoid()
b.mul_(2)
try:
    b.sum().backward()
except RuntimeError as e:
    print(str(e)[:190])
for s1, s2 in [((2, 3), (3, 2)), ((4, 1, 3), (2, 5)), ((2, 3, 4), (5, 4))]:
    try:
        torch.ones(*s1) + torch.ones(*s2)
    except RuntimeError as e:
        print(e)
