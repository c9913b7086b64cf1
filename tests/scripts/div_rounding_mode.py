# rounding_mode= of torch.div / torch.divide / Tensor.div / div_ (None, 'trunc', 'floor'; integer and float
# operands, zero divisors, promotion, out=, the DivBackward2 node and its zero gradients), floor_divide, true_divide.
import torch
a = torch.tensor([5., -7., 7.5, -0.5, 0.], requires_grad=True)
b = torch.tensor([2., 2., -2., 3., -1.])
for m in [None, 'trunc', 'floor']:
    y = torch.div(a, b, rounding_mode=m)
    print(m, y, type(y.grad_fn).__name__, y.grad_fn.name())
    y2 = a.div(2, rounding_mode=m); print(y2, y2.grad_fn.name())
y.sum().backward(); print(a.grad)
i = torch.tensor([5, -7, 7, -1])
print(torch.div(i, 2, rounding_mode='trunc'), torch.div(i, 2, rounding_mode='floor'), torch.div(i, 2))
print(torch.floor_divide(i, -2), i.floor_divide(2), i // 2, torch.true_divide(i, 2), i.true_divide(2), torch.divide(i, 2, rounding_mode='floor'))
try:
    torch.div(i, 0, rounding_mode='trunc')
except Exception as e: print(type(e).__name__, e)
try:
    torch.div(i, 2, rounding_mode='round')
except Exception as e: print(type(e).__name__, e)
x = torch.tensor([7., -7.])
x.div_(2, rounding_mode='floor'); print(x)
x = torch.tensor([7, -7]); x.div_(2, rounding_mode='trunc'); print(x)
try:
    x = torch.tensor([7, -7]); x.div_(2)
except Exception as e: print(type(e).__name__, e)
print(torch.div(torch.tensor([1., -1., 0.]), 0., rounding_mode='floor'))
print(torch.div(torch.tensor([1., -1., 0.]), 0., rounding_mode='trunc'))
print(torch.div(5, torch.tensor([2, -3]), rounding_mode='floor'))
out = torch.empty(2); torch.div(torch.tensor([3., 4.]), 2, rounding_mode='floor', out=out); print(out)
print(torch.tensor([5.5]).divide(2, rounding_mode='trunc'), torch.tensor([5.5]).divide_(2))
print(torch.tensor([5, 6]).true_divide_(2) if False else '')
print(torch.tensor([5., 6.]).floor_divide_(4))
print(torch.tensor([True, False]).div(2, rounding_mode='floor'))
print(torch.tensor([5, 6], dtype=torch.uint8).div(4, rounding_mode='floor'))
print(torch.tensor([5., 6.], dtype=torch.float64).div(torch.tensor(4), rounding_mode='floor'))
print(torch.div(input=torch.tensor([7, -7]), other=torch.tensor([2, 2]), rounding_mode='floor'))
print(torch.divide(torch.tensor([7.]), 2., rounding_mode=None))
a = torch.tensor([3., -5.], requires_grad=True)
b = torch.tensor([2., 2.], requires_grad=True)
y = torch.div(a, b, rounding_mode=None)
y.sum().backward()
print(a.grad, b.grad)
a.grad = None; b.grad = None
y = torch.div(a, b, rounding_mode='floor') * 3
y.sum().backward()
print(a.grad, b.grad)
with torch.no_grad():
    print(torch.div(a, b, rounding_mode='trunc').requires_grad)
x = torch.tensor([[9, -9], [4, -4]])
print(x.div(torch.tensor([2, -4]), rounding_mode='trunc'), x.div(torch.tensor([2, -4]), rounding_mode='floor'))
print(torch.div(torch.tensor([9.5, -9.5], dtype=torch.float64), torch.tensor([2, 4]), rounding_mode='trunc').dtype)
try:
    torch.tensor([1, 2]).div_(0, rounding_mode='floor')
except Exception as e: print(type(e).__name__, e)
v = torch.arange(10)
print(torch.div(v, 3, rounding_mode='floor'), v % 3)
