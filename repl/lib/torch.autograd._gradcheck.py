# torch.autograd.gradcheck, written in the language: gradcheck and gradgradcheck as PyTorch
# 1.13's slow (default) mode computes them. The numerical Jacobian perturbs each element of
# each input that requires grad by -eps and +eps (f(x - eps) first) and
# takes (b - a) / (2 * eps); the analytical one asks torch.autograd.grad for one row per
# output element, twice (the reentrancy check); then the backward is run with zero grad
# outputs (it must give zeros of the input's type and size). Jacobians are
# (input numel) x (output numel), as PyTorch prints them in a mismatch.
# Not here: fast_mode, forward-mode AD, batched grads, complex inputs, and the undefined-
# output-grad check (the arguments are accepted and ignored).
import warnings
import torch


class GradcheckError(RuntimeError):
    pass


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _diff_inputs(inputs):
    return [x for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad]


def _differentiable_outputs(x):
    return tuple(o for o in _as_tuple(x) if isinstance(o, torch.Tensor) and o.requires_grad)


def _check_inputs(inputs):
    any_grad = False
    for idx, inp in enumerate(inputs):
        if isinstance(inp, torch.Tensor) and inp.requires_grad:
            if inp.dtype != torch.float64:
                warnings.warn(f'Input #{idx} requires gradient and '
                              'is not a double precision floating point or complex. '
                              'This check will likely fail if all the inputs are '
                              'not of double precision floating point or complex. ')
            for size, stride in zip(inp.size(), inp.stride()):
                if stride == 0 and size > 1:
                    raise RuntimeError(
                        'The {}th input has a dimension with stride 0. gradcheck only '
                        'supports inputs that are non-overlapping to be able to '
                        'compute the numerical gradients correctly. You should call '
                        '.contiguous on the input before passing it to gradcheck.'.format(idx))
            any_grad = True
            inp.retain_grad()
    if not any_grad:
        raise ValueError('gradcheck expects at least one input tensor to require gradient, '
                         'but none of the them have requires_grad=True.')


def _numerical_jacobian(func, inputs, outputs, eps):
    # per input that requires grad: one (input numel) x (output numel) matrix per output.
    # PyTorch perturbs the input in place through .data, whose version counter is its own;
    # here .data shares the storage's counter, so each call gets a perturbed copy instead
    # (the same values, and the graph of the outputs under test keeps its saved inputs).
    result = []
    for pos, inp in enumerate(inputs):
        if not (isinstance(inp, torch.Tensor) and inp.requires_grad):
            continue
        cols = []
        for k in range(inp.numel()):
            outs = []
            for delta in (-eps, eps):
                moved = inp.detach().clone()
                flat = moved.view(-1)
                flat[k] = flat[k] + delta
                moved.requires_grad_(True)
                args = list(inputs)
                args[pos] = moved
                outs.append(_as_tuple(func(*args)))
            cols.append([((b - a) / (2 * eps)).detach().reshape(-1)
                         for a, b in zip(outs[0], outs[1]) if isinstance(a, torch.Tensor)])
        per_out = []
        for j, o in enumerate(o for o in outputs if isinstance(o, torch.Tensor)):
            jac = torch.zeros(inp.numel(), o.numel(), dtype=o.dtype)
            for k in range(inp.numel()):
                jac[k] = cols[k][j]
            per_out.append(jac)
        result.append(per_out)
    return result


def _analytical_jacobian(inputs, output):
    diff = _diff_inputs(inputs)
    jacs = [torch.zeros(x.numel(), output.numel(), dtype=x.dtype) for x in diff]
    grad_out = torch.zeros_like(output)
    flat = grad_out.view(-1)
    for j in range(flat.numel()):
        flat.zero_()
        flat[j] = 1.0
        grads = torch.autograd.grad(output, diff, grad_out, retain_graph=True, allow_unused=True)
        for i, g in enumerate(grads):
            if g is not None:
                if g.size() != diff[i].size():
                    raise GradcheckError('Analytical gradient has incorrect size')
                jacs[i][:, j] = g.detach().reshape(-1).to(jacs[i].dtype)
    return jacs


def _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, nondet_tol):
    func_out = _as_tuple(func_out)
    if not outputs:
        for per_out in _numerical_jacobian(func, inputs, func_out, eps):
            for n in per_out:
                if n.ne(0).sum() > 0:
                    raise GradcheckError('Numerical gradient for function expected to be zero')
        return True
    numerical = _numerical_jacobian(func, inputs, func_out, eps)
    kept = [k for k, o in enumerate(o for o in func_out if isinstance(o, torch.Tensor)) if o.requires_grad]
    for i, o in enumerate(outputs):
        first = _analytical_jacobian(inputs, o)
        second = _analytical_jacobian(inputs, o)
        for a, b in zip(first, second):
            if not torch.allclose(a, b, 0.0, nondet_tol):
                raise GradcheckError(
                    'Backward is not reentrant, i.e., running backward with same input and '
                    'grad_output multiple times gives different values, although analytical '
                    'gradient matches numerical gradient.'
                    f'The tolerance for nondeterminism was {nondet_tol}.' + _NONDET_MSG)
        for j, a in enumerate(first):
            n = numerical[j][kept[i]]
            if not torch.allclose(a, n.to(a.dtype), rtol, atol):
                raise GradcheckError('Jacobian mismatch for output %d with respect to input %d,\n'
                                     'numerical:%s\nanalytical:%s\n' % (i, j, n, a))
    return True


_NONDET_MSG = """

NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def _test_backward_mul_by_grad_output(outputs, inputs):
    diff = _diff_inputs(inputs)
    grads = torch.autograd.grad(outputs, diff, [torch.zeros_like(o) for o in outputs], allow_unused=True)
    for gi, di in zip(grads, diff):
        if gi is None:
            continue
        if not gi.eq(0).all():
            raise GradcheckError('backward not multiplied by grad_output')
        if gi.dtype != di.dtype or gi.device != di.device:
            raise GradcheckError('grad is incorrect type')
        if gi.size() != di.size():
            raise GradcheckError('grad is incorrect size')
    return True


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, check_sparse_nnz=False,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False):
    assert check_forward_ad or check_backward_ad, \
        'Expected at least one of check_forward_ad or check_backward_ad to be True'
    try:
        inputs = _as_tuple(inputs)
        _check_inputs(inputs)
        func_out = func(*inputs)
        outputs = _differentiable_outputs(func_out)
        if check_backward_ad:
            _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, nondet_tol)
            _test_backward_mul_by_grad_output(outputs, inputs)
        return True
    except GradcheckError:
        if raise_exception:
            raise
        return False


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False):
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        # as torch.testing.make_tensor(low=-1, high=1): high * r + low * (1 - r), r = torch.rand
        grad_outputs = []
        for x in _differentiable_outputs(func(*inputs)):
            r = torch.rand(x.shape, dtype=x.dtype if x.is_floating_point() else torch.double)
            g = 1 * r + -1 * (1 - r)
            g.requires_grad = True
            grad_outputs.append(g)
        grad_outputs = tuple(grad_outputs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n_out = len(grad_outputs)
    diff_in = set(i for i, x in enumerate(inputs) if isinstance(x, torch.Tensor) and x.requires_grad)
    diff_go = set(i for i, x in enumerate(grad_outputs) if x.requires_grad)

    def new_func(*args):
        ins = tuple(x.requires_grad_() if i in diff_in else x for i, x in enumerate(args[:-n_out]))
        outs = _differentiable_outputs(func(*ins))
        gos = tuple(x.requires_grad_() if i in diff_go else x for i, x in enumerate(args[-n_out:]))
        diff_args = tuple(x for i, x in enumerate(ins) if i in diff_in)
        grads = torch.autograd.grad(outs, diff_args, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol)
