# The backward of conv1d, conv_transpose1d/2d/3d and conv3d under create_graph=True as
# PyTorch 1.13 records it: one ConvolutionBackwardBackward0 node for the input, weight
# and bias gradients (edges to the output gradient, the input and the weight), the
# first-order gradients equal to those without create_graph, and second and third order
# gradients through ATen's _convolution_double_backward (float64).
import torch
import torch.nn.functional as F


def names(t):
    return t.grad_fn.name(), [(None if f is None else f.name(), i) for f, i in t.grad_fn.next_functions]


def check(label, op, x_shape, w_shape, n_out, third=True):
    torch.manual_seed(0)
    x = torch.randn(*x_shape, dtype=torch.float64, requires_grad=True)
    w = torch.randn(*w_shape, dtype=torch.float64, requires_grad=True)
    b = torch.randn(n_out, dtype=torch.float64, requires_grad=True)
    y = op(x, w, b)
    g = torch.randn(y.shape, dtype=torch.float64, requires_grad=True)
    plain = torch.autograd.grad(op(x, w, b), (x, w, b), g)
    gx, gw, gb = torch.autograd.grad(y, (x, w, b), g, create_graph=True)
    print(label, tuple(y.shape), names(gx), gw.grad_fn is gx.grad_fn, gb.grad_fn is gx.grad_fn)
    print("  same as without create_graph:", all(torch.equal(p, q) for p, q in zip(plain, (gx, gw, gb))))
    r = (gx * gx.detach().cos()).sum() + (gw ** 2).sum() + (gb * 3).sum()
    dx, dw, dg = torch.autograd.grad(r, (x, w, g), create_graph=True)
    print("  second order:", [round(float(q.sum()), 6) for q in (dx, dw, dg)])
    if third:  # (1.13's third order through a conv_transpose with output_padding raises)
        (dw.sum() + dg.pow(2).sum() + dx.sum()).backward()
        print("  third order:", [round(float(q.grad.sum()), 6) for q in (g, w, x)])
    # only the input gradient, no bias
    gi, = torch.autograd.grad(op(x, w, None).sum(), x, create_graph=True)
    print("  input only:", names(gi))
    d2, = torch.autograd.grad((gi ** 2).sum(), w)
    print("  ", round(float(d2.sum()), 6))


check("conv1d", lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1, dilation=2, groups=2), (2, 4, 9), (6, 2, 3), 6)
check("conv1d unbatched", lambda x, w, b: F.conv1d(x, w, b, padding=2), (3, 7), (2, 3, 4), 2)
check("conv_transpose1d", lambda x, w, b: F.conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1,
                                                                groups=2, dilation=1), (2, 4, 5), (4, 3, 3), 6, False)
check("conv_transpose1d", lambda x, w, b: F.conv_transpose1d(x, w, b, stride=2, padding=1, groups=2, dilation=2),
      (2, 4, 5), (4, 3, 3), 6)
check("conv_transpose2d", lambda x, w, b: F.conv_transpose2d(x, w, b, stride=(2, 1), padding=(0, 1),
                                                                output_padding=(1, 0), dilation=(1, 2)),
      (2, 3, 4, 3), (3, 2, 2, 3), 2, False)
check("conv_transpose2d", lambda x, w, b: F.conv_transpose2d(x, w, b, stride=(2, 1), padding=(0, 1), dilation=(1, 2)),
      (2, 3, 4, 3), (3, 2, 2, 3), 2)
check("conv3d", lambda x, w, b: F.conv3d(x, w, b, stride=(1, 2, 1), padding=1, dilation=(2, 1, 1), groups=2),
      (2, 2, 5, 4, 3), (4, 1, 2, 2, 2), 4)
check("conv_transpose3d", lambda x, w, b: F.conv_transpose3d(x, w, b, stride=2, padding=(1, 0, 0),
                                                                output_padding=(1, 0, 1)),
      (1, 2, 3, 2, 2), (2, 3, 2, 2, 2), 3, False)
check("conv_transpose3d", lambda x, w, b: F.conv_transpose3d(x, w, b, stride=2, padding=(1, 0, 0), groups=2),
      (1, 2, 3, 2, 2), (2, 2, 2, 2, 2), 4)
