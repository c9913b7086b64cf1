# torch.autograd.functional: Jacobians, Hessians and the vector products of a function of
# tensors, computed with torch.autograd.grad as PyTorch 1.13 computes them: one backward
# pass per output element for jacobian (its rows stacked), the double-backward trick for
# jvp and hvp (differentiating a backward pass with respect to its zero grad_outputs), and
# the same checks, error messages and strict-mode rules. vectorize=True gives the same
# values, computed row by row (nnscope has no vmap); strategy="forward-mode" is computed
# in reverse mode, as a Jacobian is the same matrix either way.
import torch

__all__ = ['vjp', 'jvp', 'jacobian', 'hessian', 'hvp', 'vhp']


def _as_tuple(value, arg_name, fn_name):
    # (whether value was a tuple, value as a tuple of tensors)
    was_tuple = isinstance(value, tuple)
    items = value if was_tuple else (value,)
    for i, el in enumerate(items):
        if not isinstance(el, torch.Tensor):
            if was_tuple:
                raise TypeError("The {} given to {} must be either a Tensor or a tuple of Tensors but the"
                                " value at index {} has type {}.".format(arg_name, fn_name, i, type(el)))
            raise TypeError("The {} given to {} must be either a Tensor or a tuple of Tensors but the"
                            " given {} has type {}.".format(arg_name, fn_name, arg_name, type(el)))
    return was_tuple, items


def _unpack(result, was_tuple):
    # undo _as_tuple: was_tuple is one flag, or (outer, inner) for nested results
    if isinstance(was_tuple, tuple):
        outer, inner = was_tuple
        if not inner:
            result = tuple(el[0] for el in result)
        if not outer:
            result = result[0]
        return result
    return result if was_tuple else result[0]


def _fresh_inputs(inputs, create_graph, need_graph):
    # new tensor objects, so that the function's use of the given tensors through a
    # closure is not mistaken for its use of the inputs
    fresh = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            fresh.append(inp.view_as(inp))
        else:
            fresh.append(inp.detach().requires_grad_(need_graph))
    return tuple(fresh)


def _detached(results, create_graph):
    if isinstance(results[0], torch.Tensor):
        return results if create_graph else tuple(r.detach() for r in results)
    return tuple(_detached(r, create_graph) for r in results)


def _check_v(v, reference, reference_is_tuple):
    if len(reference) != len(v):
        if reference_is_tuple:
            raise RuntimeError("v is a tuple of invalid length: should be {} but got {}.".format(len(reference), len(v)))
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_ref) in enumerate(zip(v, reference)):
        if el_v.size() != el_ref.size():
            prefix = "Entry {} in ".format(idx) if reference_is_tuple else ""
            raise RuntimeError("{}v has invalid size: should be {} but got {}.".format(prefix, el_ref.size(), el_v.size()))


def _check_requires_grad(tensors, kind, strict):
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError("The output of the user-provided function is independent of input {}."
                               " This is not allowed in strict mode.".format(i))
        if not t.requires_grad:
            if kind == "hessian":
                raise RuntimeError("The hessian of the user-provided function with respect to input {}"
                                   " is independent of the input. This is not allowed in strict mode."
                                   " You should ensure that your function is thrice differentiable and that"
                                   " the hessian depends on the inputs.".format(i))
            if kind == "jacobian":
                raise RuntimeError("While computing the hessian, found that the jacobian of the user-provided"
                                   " function with respect to input {} is independent of the input. This is not"
                                   " allowed in strict mode. You should ensure that your function is twice"
                                   " differentiable and that the jacobian depends on the inputs (this would be"
                                   " violated by a linear function for example).".format(i))
            if kind == "grad_inputs":
                raise RuntimeError("The gradient with respect to input {} is independent of the inputs of the"
                                   " user-provided function. This is not allowed in strict mode.".format(i))
            raise RuntimeError("Output {} of the user-provided function does not require gradients."
                               " The outputs must be computed in a differentiable manner from the input"
                               " when running in strict mode.".format(i))


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    # torch.autograd.grad over the outputs that require grad; None for each input when none does
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    kept_outputs, kept_grads = (), ()
    for out, grad_out in zip(outputs, grad_outputs):
        if out is not None and out.requires_grad:
            kept_outputs += (out,)
            kept_grads += (grad_out,)
    if len(kept_outputs) == 0:
        return (None,) * len(inputs)
    return torch.autograd.grad(kept_outputs, inputs, kept_grads, allow_unused=True,
                               create_graph=create_graph, retain_graph=retain_graph)


def _zeros_for_none(grads, refs, strict, create_graph, stage):
    filled = ()
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                if stage == "back":
                    raise RuntimeError("The output of the user-provided function is independent of "
                                       "input {}. This is not allowed in strict mode.".format(i))
                if stage == "back_trick":
                    raise RuntimeError("The gradient with respect to the input is independent of entry {}"
                                       " in the grad_outputs when using the double backward trick to compute"
                                       " forward mode gradients. This is not allowed in strict mode.".format(i))
                if stage == "double_back":
                    raise RuntimeError("The jacobian of the user-provided function is independent of "
                                       "input {}. This is not allowed in strict mode.".format(i))
                raise RuntimeError("The hessian of the user-provided function is independent of "
                                   "entry {} in the grad_jacobian. This is not allowed in strict "
                                   "mode as it prevents from using the double backward trick to "
                                   "replace forward mode AD.".format(i))
            g = torch.zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            if "double" not in stage:
                raise RuntimeError("The jacobian of the user-provided function is independent of "
                                   "input {}. This is not allowed in strict mode when create_graph=True.".format(i))
            raise RuntimeError("The hessian of the user-provided function is independent of "
                               "input {}. This is not allowed in strict mode when create_graph=True.".format(i))
        filled += (g,)
    return filled


def _prepare_v(v, reference, reference_is_tuple, fn_name, create_graph, none_message):
    if v is not None:
        _, v = _as_tuple(v, "v", fn_name)
        v = _fresh_inputs(v, create_graph=create_graph, need_graph=False)
        _check_v(v, reference, reference_is_tuple)
        return v
    if len(reference) != 1 or reference[0].nelement() != 1:
        raise RuntimeError(none_message)
    return None


_V_OF_INPUT = ("The vector v can only be None if the input to the user-provided function "
               "is a single Tensor with a single element.")


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    with torch.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _fresh_inputs(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        v = _prepare_v(v, outputs, outputs_tuple, "vjp", create_graph,
                       "The vector v can only be None if the user-provided function returns "
                       "a single Tensor with a single element.")
    with torch.set_grad_enabled(True if create_graph else torch.is_grad_enabled()):
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "back")
    return (_unpack(_detached(outputs, create_graph), outputs_tuple),
            _unpack(_detached(result, create_graph), inputs_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    with torch.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _fresh_inputs(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, inputs_tuple, "jvp", create_graph, _V_OF_INPUT)
        outputs = func(*inputs)
        outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        # the backward pass is linear in its grad_outputs, so differentiating it with
        # respect to them (at zero) gives the Jacobian times v
        grad_outputs = tuple(torch.zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with torch.set_grad_enabled(True if create_graph else torch.is_grad_enabled()):
        grads = _grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        result = _zeros_for_none(grads, outputs, strict, create_graph, "back_trick")
    return (_unpack(_detached(outputs, create_graph), outputs_tuple),
            _unpack(_detached(result, create_graph), outputs_tuple))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    assert strategy in ("forward-mode", "reverse-mode"), (
        'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
        'function has more outputs than inputs, "forward-mode" tends to be more performant. '
        'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` '
                                      'and `strategy="forward-mode"` are not supported together (yet). '
                                      'Please either set `create_graph=False` or '
                                      '`strategy="reverse-mode"`.')
        if strict:
            raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` '
                               'and `strategy="forward-mode"` are not supported together (yet). '
                               'Please either set `strict=False` or '
                               '`strategy="reverse-mode"`.')
        if not vectorize:
            raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                      "only implemented for `vectorize=True`.")
    with torch.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _fresh_inputs(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` '
                               'and `vectorized=True` are not supported together. '
                               'Please either set `strict=False` or '
                               '`vectorize=False`.')
        blocks = ()
        for i, out in enumerate(outputs):
            rows = tuple([] for _ in inputs)
            for j in range(out.nelement()):
                row = _grad((out.reshape(-1)[j],), inputs, retain_graph=True, create_graph=create_graph)
                for k, (rows_k, g, inp) in enumerate(zip(rows, row, inputs)):
                    if g is not None:
                        if strict and create_graph and not g.requires_grad:
                            raise RuntimeError("The jacobian of the user-provided function is "
                                               "independent of input {}. This is not allowed in "
                                               "strict mode when create_graph=True.".format(i))
                        rows_k.append(g)
                    else:
                        if strict:
                            raise RuntimeError("Output {} of the user-provided function is "
                                               "independent of input {}. This is not allowed in "
                                               "strict mode.".format(i, k))
                        rows_k.append(torch.zeros_like(inp))
            blocks += (tuple(torch.stack(rows_k, dim=0).view(out.size() + inputs[k].size())
                             for k, rows_k in enumerate(rows)),)
        return _unpack(_detached(blocks, create_graph), (outputs_tuple, inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    assert outer_jacobian_strategy in ("forward-mode", "reverse-mode"), (
        'Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_output(*inp):
        out = func(*inp)
        out_tuple, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(outs, "outputs", strict)
        if out_tuple or not isinstance(out, torch.Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def gradient(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(scalar_output, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    result = jacobian(gradient, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                      strategy=outer_jacobian_strategy)
    return _unpack(result, (inputs_tuple, inputs_tuple))


def _scalar_function_gradient(func, inputs, v, create_graph, strict, fn_name):
    # (inputs, outputs, their tuple flags, v, the gradient made with create_graph=True)
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    inputs = _fresh_inputs(inputs, create_graph=create_graph, need_graph=True)
    v = _prepare_v(v, inputs, inputs_tuple, fn_name, create_graph, _V_OF_INPUT)
    outputs = func(*inputs)
    outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", fn_name)
    _check_requires_grad(outputs, "outputs", strict)
    if outputs_tuple or not isinstance(outputs[0], torch.Tensor):
        raise RuntimeError("The function given to {} should return a single Tensor".format(fn_name))
    if outputs[0].nelement() != 1:
        raise RuntimeError("The Tensor returned by the function given to {} should contain a single element".format(fn_name))
    jac = _grad(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict)
    return inputs, inputs_tuple, outputs, outputs_tuple, v, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    with torch.enable_grad():
        inputs, inputs_tuple, outputs, outputs_tuple, v, jac = _scalar_function_gradient(
            func, inputs, v, create_graph, strict, "vhp")
    with torch.set_grad_enabled(True if create_graph else torch.is_grad_enabled()):
        grads = _grad(jac, inputs, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "double_back")
    return (_unpack(_detached(outputs, create_graph), outputs_tuple),
            _unpack(_detached(result, create_graph), inputs_tuple))


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    with torch.enable_grad():
        inputs, inputs_tuple, outputs, outputs_tuple, v, jac = _scalar_function_gradient(
            func, inputs, v, create_graph, strict, "hvp")
        grad_jac = tuple(torch.zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with torch.set_grad_enabled(True if create_graph else torch.is_grad_enabled()):
        grads = _grad(double_back, grad_jac, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "double_back_trick")
    return (_unpack(_detached(outputs, create_graph), outputs_tuple),
            _unpack(_detached(result, create_graph), inputs_tuple))
