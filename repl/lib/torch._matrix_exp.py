# torch.linalg.matrix_exp (also torch.matrix_exp and Tensor.matrix_exp), written in the
# language over nnscope's ops as ATen 1.13 computes it (Bader, Blanes and Casas's optimized
# Taylor polynomials): each matrix's 1-norm picks the degree 1, 2, 4, 8 or 12 polynomial, or
# degree 18 after scaling by 2^s and squaring s times, with ATen's thresholds per dtype and
# its coefficient tables. Gradients flow through the ops it is made of (PyTorch's node is
# LinalgMatrixExpBackward0, which computes the same derivative through a block matrix);
# linear combinations round after each product, so results can differ from PyTorch's in the
# last bits.
import math
import torch

_THETAS = {
    torch.float32: (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
                    5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00),
    torch.float64: (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
                    4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00),
}

_SQRT_177 = 0.1330413469565007072504e+2
_X3 = 2. / 3.
_X1 = _X3 * ((1. + _SQRT_177) / 88.)
_X2 = _X3 * ((1. + _SQRT_177) / 352.)
_X4 = (-271. + 29. * _SQRT_177) / (315. * _X3)
_X5 = (-11. + 11. * _SQRT_177) / (1260. * _X3)
_X6 = (-99. + 11. * _SQRT_177) / (5040. * _X3)
_X7 = (89. - _SQRT_177) / (5040. * _X3)
_Y2 = (857. - 58. * _SQRT_177) / 630.

_B12 = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740),
        (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989),
        (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968, 0.00610700528898058230),
        (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359))

_B18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.),
        (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
         -6.37898194594723280150e-04),
        (-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
         -6.98210122488052056106e-03, 3.34975017086070470649e-05),
        (-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
         2.95552570429315521194e-02, -1.39180257516060693404e-05),
        (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02, -1.40086798182036094347e-05))


def _combine(mats, coeffs):
    # sum_j coeffs[j] * mats[j], in order
    out = mats[0] * coeffs[0]
    for m, c in zip(mats[1:], coeffs[1:]):
        out = out + m * c
    return out


def _powers(a, k):
    # the first k of I, A, A^2, A^3, A^6
    eye = torch.eye(a.shape[-1], dtype=a.dtype, device=a.device).expand(a.shape)
    ps = [eye, a]
    if k > 2:
        ps.append(torch.matmul(a, a))
    if k > 3:
        ps.append(torch.matmul(a, ps[2]))
    if k > 4:
        ps.append(torch.matmul(ps[3], ps[3]))
    return ps


def _t1(a):
    i, a1 = _powers(a, 2)
    return i + a1


def _t2(a):
    i, a1, a2 = _powers(a, 3)
    return i + a1 + a2 / 2.0


def _t4(a):
    i, a1, a2 = _powers(a, 3)
    a4 = torch.matmul(a2, _combine([i, a1, a2], [1 / 2.0, 1 / 6.0, 1 / 24.0]))
    return _combine([i, a1, a2, a4], [1.0, 1.0, 0.0, 1.0])


def _t8(a):
    i, a1, a2 = _powers(a, 3)
    a4 = torch.matmul(a2, _combine([a1, a2], [_X1, _X2]))
    a8 = torch.matmul(_combine([a2, a4], [_X3, 1.0]), _combine([i, a1, a2, a4], [_X4, _X5, _X6, _X7]))
    return _combine([i, a1, a2, a4, a8], [1.0, 1.0, _Y2, 0.0, 1.0])


def _t12(a):
    ps = _powers(a, 4)
    bs = [_combine(ps, row) for row in _B12]
    b2 = bs[2] + torch.matmul(bs[3], bs[3])
    return bs[0] + torch.matmul(bs[1] + b2, b2)


def _t18(a):
    ps = _powers(a, 5)
    bs = [_combine(ps, row) for row in _B18]
    b3 = bs[3] + torch.matmul(bs[0], bs[4])
    return bs[1] + torch.matmul(bs[2] + b3, b3)


def _t18_scaled(a, norm, theta):
    s = int(max(0.0, math.ceil(math.log2(norm / theta)))) if norm > 0 else 0
    e = _t18(a / (2 ** s))
    for _ in range(s):
        e = torch.matmul(e, e)
    return e


def matrix_exp(A):
    if not isinstance(A, torch.Tensor):
        raise TypeError("linalg_matrix_exp(): argument 'input' (position 1) must be Tensor, not {}"
                        .format(type(A).__name__))
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_exp: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError("linalg.matrix_exp: A must be batches of square matrices, but they are {} by {} matrices"
                           .format(A.shape[-2], A.shape[-1]))
    if not A.dtype.is_floating_point:
        names = {torch.int64: 'Long', torch.int32: 'Int', torch.int16: 'Short', torch.int8: 'Char',
                 torch.uint8: 'Byte', torch.bool: 'Bool'}
        raise RuntimeError("matrix_exp: Expected a floating point or complex tensor as input. Got {}"
                           .format(names.get(A.dtype, str(A.dtype))))
    n = A.shape[-1]
    if n == 0:
        return A.clone()
    if n == 1:
        return A.exp()
    if A.dtype not in _THETAS:
        raise RuntimeError('"linalg_matrix_exp" not implemented for \'{}\''.format(
            {torch.float16: 'Half', torch.bfloat16: 'BFloat16'}.get(A.dtype, str(A.dtype))))
    thetas = _THETAS[A.dtype]
    flat = A.reshape(-1, n, n)
    norms = flat.detach().abs().sum(-2).max(-1)[0].tolist()
    steps = (_t1, _t2, _t4, _t8, _t12)
    outs = []
    for k, norm in enumerate(norms):
        a = flat[k]
        if norm >= thetas[4] or norm != norm:
            outs.append(_t18_scaled(a, norm, thetas[5]))
            continue
        for deg, step in enumerate(steps):
            low = -1.0 if deg == 0 else thetas[deg - 1]
            if low < norm <= thetas[deg]:
                outs.append(step(a))
                break
    return torch.stack(outs).reshape(A.shape)
