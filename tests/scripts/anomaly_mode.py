# torch.autograd.detect_anomaly / set_detect_anomaly and torch.inference_mode, as
# PyTorch 1.13 (the UserWarnings with the forward traceback go to stderr).
import torch


def f(t):
    return torch.sqrt(t)


x = torch.tensor([-1.0, 2.0], requires_grad=True)
print(torch.is_anomaly_enabled())
with torch.autograd.detect_anomaly():
    print(torch.is_anomaly_enabled())
    y = f(x)
    z = y * 0
    try:
        z.sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
print(torch.is_anomaly_enabled())
# without anomaly mode the NaN goes through
f(x).sum().backward()
print(x.grad)

torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
a = torch.tensor([0.0, 1.0], requires_grad=True)
b = a.log() * 0
try:
    b.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(a.grad)
# a custom Function's backward is checked too
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2

    @staticmethod
    def backward(ctx, g):
        return g * float("nan")


try:
    Bad.apply(torch.ones(2, requires_grad=True)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
# finite gradients pass
c = torch.tensor([1.0, 4.0], requires_grad=True)
torch.sqrt(c).sum().backward()
print(c.grad)
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled())
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
with torch.autograd.detect_anomaly(check_nan=False):
    d = torch.tensor([0.0], requires_grad=True)
    (d.log() * 0).sum().backward()
    print(d.grad)

print(torch.is_inference_mode_enabled())
with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    w = x * 2
print(w.requires_grad, w.grad_fn, torch.is_inference_mode_enabled(), torch.is_grad_enabled())


@torch.inference_mode()
def g(t):
    return t * 3, torch.is_inference_mode_enabled(), torch.is_grad_enabled()


print(g(x))
print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
with torch.no_grad():
    with torch.inference_mode():
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(repr(torch.inference_mode()).startswith("<torch.autograd.grad_mode.inference_mode object at 0x"))
print(repr(torch.autograd.detect_anomaly()).startswith("<torch.autograd.anomaly_mode.detect_anomaly object at 0x"))
