# torch.special, as PyTorch 1.13 names it: the functions of its own (i0e, i1, i1e, ndtr,
# ndtri, log_ndtr, erfcx, entr, xlog1py, zeta) are core/special.c's through torch's
# private torch._special_* bindings; the rest are the torch functions PyTorch aliases
# (gammaln is lgamma, expit is sigmoid, psi is digamma, multigammaln is mvlgamma ...).
import torch


def _no_out(name, out):
    if out is not None:
        raise NotImplementedError('torch.special.{}: out= is not supported'.format(name))


def _unary(name, fn):
    def f(input, *, out=None):
        _no_out(name, out)
        return fn(input)
    f.__name__ = name
    f.__qualname__ = name
    return f


gammaln = _unary('gammaln', torch.lgamma)
digamma = _unary('digamma', torch.digamma)
psi = _unary('psi', torch.digamma)
erf = _unary('erf', torch.erf)
erfc = _unary('erfc', torch.erfc)
erfinv = _unary('erfinv', torch.erfinv)
expit = _unary('expit', torch.sigmoid)
exp2 = _unary('exp2', torch.exp2)
expm1 = _unary('expm1', torch.expm1)
log1p = _unary('log1p', torch.log1p)
i0 = _unary('i0', torch.i0)
sinc = _unary('sinc', torch.sinc)
round = _unary('round', torch.round)
i0e = _unary('i0e', torch._special_i0e)
i1 = _unary('i1', torch._special_i1)
i1e = _unary('i1e', torch._special_i1e)
ndtr = _unary('ndtr', torch._special_ndtr)
ndtri = _unary('ndtri', torch._special_ndtri)
log_ndtr = _unary('log_ndtr', torch._special_log_ndtr)
erfcx = _unary('erfcx', torch._special_erfcx)
entr = _unary('entr', torch._special_entr)


def polygamma(n, input, *, out=None):
    _no_out('polygamma', out)
    return torch.polygamma(n, input)


def multigammaln(input, p, *, out=None):
    _no_out('multigammaln', out)
    return torch.mvlgamma(input, p)


def logit(input, eps=None, *, out=None):
    _no_out('logit', out)
    return torch.logit(input, eps)


def xlogy(input, other, *, out=None):
    _no_out('xlogy', out)
    return torch.xlogy(input, other)


def xlog1py(input, other, *, out=None):
    _no_out('xlog1py', out)
    return torch._special_xlog1py(input, other)


def zeta(input, other, *, out=None):
    _no_out('zeta', out)
    return torch._special_zeta(input, other)


def logsumexp(input, dim, keepdim=False, *, out=None):
    _no_out('logsumexp', out)
    return torch.logsumexp(input, dim, keepdim)


def softmax(input, dim, *, dtype=None):
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return torch.log_softmax(input, dim, dtype=dtype)
