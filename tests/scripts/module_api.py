# the nn.Module API: traversal, registration, state_dict, hooks, dtype moves
import torch
import torch.nn as nn

torch.manual_seed(0)

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer("steps", torch.zeros(1))
        self.register_buffer("scratch", torch.ones(1), persistent=False)
        self.register_parameter("scale", nn.Parameter(torch.ones(2)))

    def forward(self, x):
        return self.lin(x) * self.scale

    def extra_repr(self):
        return "block"

net = nn.Sequential(Block(), nn.ReLU())
net.add_module("head", nn.Linear(2, 1))
net.register_module("tail", nn.Identity())
print(net)
print([n for n, _ in net.named_parameters()], [p.shape for p in net.parameters()])
print([n for n, _ in net.named_buffers()], [b.shape for b in net.buffers()])
print([n for n, _ in net.named_children()], [type(c).__name__ for c in net.children()])
print([n for n, _ in net.named_modules()], len(list(net.modules())))
print(list(net.state_dict().keys()))
print(net.get_submodule("0.lin"), net.get_parameter("0.scale"), net.get_buffer("0.steps"))
print(net[0].extra_repr(), net[0]._get_name(), net[2].extra_repr())
x = torch.ones(3, 2)
print(net(x), net[0].forward(x))
print(net.training, net.eval() is net, net.training, net[0].training, net.train().training, net.train(False).training)
net.train()
net.requires_grad_(False)
print([p.requires_grad for p in net.parameters()])
net.requires_grad_()
net(x).sum().backward()
print(net[2].weight.grad)
net.zero_grad(set_to_none=False)
print(net[2].weight.grad)
sd = net.state_dict()
other = nn.Sequential(Block(), nn.ReLU())
other.add_module("head", nn.Linear(2, 1))
other.add_module("tail", nn.Identity())
print(other.load_state_dict(sd))
print((other[2].weight == net[2].weight).tolist())
r = other.load_state_dict({"head.weight": torch.zeros(1, 2)}, strict=False)
print(r.missing_keys, r.unexpected_keys)
def show(m):
    print("apply", type(m).__name__)
net.apply(show)
lin = nn.Linear(2, 2)
print(lin.double().weight.dtype, lin.float().weight.dtype, lin.half().weight.dtype, lin.bfloat16().weight.dtype)
print(lin.to(torch.float64).weight.dtype, lin.type(torch.float32).weight.dtype, lin.cpu() is lin)
print(lin.share_memory() is lin, lin.to_empty(device="cpu").weight.shape)
print(hasattr(net, "get_extra_state"))

# hooks on a module
lin = nn.Linear(2, 2)
calls = []
h1 = lin.register_forward_pre_hook(lambda m, inp: calls.append("pre"))
h2 = lin.register_forward_hook(lambda m, inp, out: calls.append("fwd"))
h3 = lin.register_full_backward_hook(lambda m, gi, go: calls.append("bwd"))
lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
print(calls)
for h in (h1, h2, h3):
    h.remove()
calls.clear()
lin(torch.ones(1, 2)).sum()
print(calls)
old = nn.Linear(2, 1)
old.register_backward_hook(lambda m, gi, go: print("old-style", [g.shape for g in go]))
old(torch.ones(3, 2, requires_grad=True)).sum().backward()
h = lin.register_load_state_dict_post_hook(lambda m, keys: print("loaded", keys, keys.missing_keys, keys[1]))
lin.load_state_dict(lin.state_dict())
lin.load_state_dict({"weight": torch.zeros(2, 2)}, strict=False)
def forgive(m, keys):
    keys.missing_keys.clear()
lin.register_load_state_dict_post_hook(forgive)
print(lin.load_state_dict({"weight": torch.zeros(2, 2)}))
lin._register_load_state_dict_pre_hook(lambda *args: print("load pre hook", len(args), repr(args[1]), args[3]))
lin._register_load_state_dict_pre_hook(lambda *args: print("with module", type(args[0]).__name__), with_module=True)
lin.load_state_dict(lin.state_dict())
h.remove()

# device moves without a GPU, extra state and the state-dict hooks
for move in (lambda: lin.cuda(), lambda: lin.ipu(), lambda: lin.xpu(), lambda: lin.get_extra_state()):
    try:
        move()
        print("moved")
    except (RuntimeError, AssertionError) as e:
        print(type(e).__name__)
lin._register_state_dict_hook(lambda m, sd, prefix, local_metadata: print("state_dict hook", list(sd.keys())))
lin.load_state_dict(lin.state_dict())
