# torch.inference_mode's inference tensors as PyTorch 1.13 has them: x.is_inference(), and the
# errors when autograd would save one, when one is updated in place or made to require grad
# outside the mode.
import torch
x = torch.ones(3)
print(torch.is_inference(x), x.is_inference(), torch.is_inference_mode_enabled())
with torch.inference_mode():
    y = x * 2
    print(y.is_inference(), torch.is_inference(y), x.is_inference(), torch.is_inference_mode_enabled())
    z = torch.ones(2, requires_grad=True)
    print(z.requires_grad, z.is_inference())
    w = z * 2
    print(w.requires_grad, w.grad_fn, w.is_inference())
    v = y.view(3)
    v.add_(1)
    print(v.is_inference(), y)
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.ones(2).is_inference())
print(torch.is_inference_mode_enabled(), y.requires_grad, y)
a = torch.ones(3, requires_grad=True)


def show(text, f):
    try:
        print(text, "->", f())
    except Exception as e:
        print(text, "->", type(e).__name__ + ":", e)


show("(a * y).sum().backward()", lambda: (a * y).sum().backward())
show("y.add_(1)", lambda: y.add_(1))
show("y", lambda: y)
show("y.requires_grad_()", lambda: y.requires_grad_())
show("y.view(3).mul_(2)", lambda: y.view(3).mul_(2))


def setitem():
    y[0] = 5


def iadd():
    global y
    y += 1


show("y[0] = 5", setitem)
show("y += 1", iadd)
show("y.zero_()", lambda: y.zero_())
show("torch.exp(y).sum()", lambda: torch.exp(y).sum())
show("(y * a).sum()", lambda: (y * a).sum())
show("y[0]", lambda: y[0])
show("y.clone().is_inference()", lambda: y.clone().is_inference())
show("y.detach().is_inference()", lambda: y.detach().is_inference())
show("y.clone().requires_grad_()", lambda: y.clone().requires_grad_())
show("F.linear(y, a.view(1, 3))", lambda: torch.nn.functional.linear(y, a.view(1, 3)))
show("torch.is_inference(1)", lambda: torch.is_inference(1))


@torch.inference_mode()
def double(t):
    return t * 2


r = double(x)
print(r.is_inference(), r, torch.is_inference_mode_enabled())
m = torch.nn.Linear(3, 1)
with torch.inference_mode():
    out = m(x)
print(out.is_inference(), out.requires_grad, out.grad_fn)
show("m(out.expand(3)).sum().backward()", lambda: m(out.expand(3)).sum().backward())
show("(m.weight * out).sum().backward()", lambda: (m.weight * out).sum().backward())
