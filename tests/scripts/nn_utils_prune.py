# torch.nn.utils.prune as PyTorch's pruning tutorial uses it: random, L1, Ln-structured and
# global pruning, the _orig parameter and _mask buffer, iterative pruning through a
# PruningContainer, remove(), a custom method, errors that leave the module unchanged.
import torch
from torch import nn
import torch.nn.utils.prune as prune
import torch.nn.functional as F
torch.manual_seed(0)

class LeNet(nn.Module):
    def __init__(self):
        super(LeNet, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.conv2 = nn.Conv2d(6, 16, 3)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, int(x.nelement() / x.shape[0]))
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

model = LeNet()
module = model.conv1
print(list(module.named_parameters()))
print(list(module.named_buffers()))
prune.random_unstructured(module, name="weight", amount=0.3)
print(list(module.named_parameters()))
print(list(module.named_buffers()))
print(module.weight)
print(len(module._forward_pre_hooks), [type(h).__name__ for h in module._forward_pre_hooks.values()])
prune.l1_unstructured(module, name="bias", amount=3)
print(list(module.named_parameters()))
print(list(module.named_buffers()))
print(module.bias)
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print(module.weight)
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print(len(hook), [type(h).__name__ for h in hook])
print(model.state_dict().keys())
prune.remove(module, 'weight')
print(list(module.named_parameters()))
print(list(module.named_buffers()))
new_model = LeNet()
for name, module in new_model.named_modules():
    if isinstance(module, torch.nn.Conv2d):
        prune.l1_unstructured(module, name='weight', amount=0.2)
    elif isinstance(module, torch.nn.Linear):
        prune.l1_unstructured(module, name='weight', amount=0.4)
print(dict(new_model.named_buffers()).keys())
model = LeNet()
parameters_to_prune = (
    (model.conv1, 'weight'),
    (model.conv2, 'weight'),
    (model.fc1, 'weight'),
    (model.fc2, 'weight'),
    (model.fc3, 'weight'),
)
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
for m, n in parameters_to_prune:
    print("Sparsity: {:.2f}%".format(100. * float(torch.sum(getattr(m, n) == 0)) / float(getattr(m, n).nelement())))
class FooBarPruningMethod(prune.BasePruningMethod):
    PRUNING_TYPE = 'unstructured'
    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask
def foobar_unstructured(module, name):
    FooBarPruningMethod.apply(module, name)
    return module
model = LeNet()
foobar_unstructured(model.fc3, name='bias')
print(model.fc3.bias_mask)
print(model(torch.randn(2, 1, 28, 28)))
prune.random_structured(model.conv2, 'weight', amount=2, dim=1)
print(model.conv2.weight_mask.sum(dim=(0, 2, 3)))
print(prune.is_pruned(model), prune.is_pruned(nn.Linear(2, 2)))
for bad in [lambda: prune.l1_unstructured(nn.Linear(2, 2), 'weight', amount=1.5),
            lambda: prune.l1_unstructured(nn.Linear(2, 2), 'weight', amount=5),
            lambda: prune.l1_unstructured(nn.Linear(2, 2), 'weight', amount='a'),
            lambda: prune.ln_structured(nn.Linear(2, 2), 'bias', amount=1, n=2, dim=0),
            lambda: prune.remove(nn.Linear(2, 2), 'weight')]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
lin = nn.Linear(2, 2)
try:
    prune.l1_unstructured(lin, 'weight', amount=5)
except ValueError:
    pass
print([n for n, _ in lin.named_parameters()], list(lin.named_buffers()))
m = nn.Linear(4, 3)
prune.l1_unstructured(m, 'weight', 0.5)
out = m(torch.ones(2, 4)).sum()
out.backward()
print(m.weight_orig.grad)
