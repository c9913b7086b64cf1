# torch.testing.assert_close (and the deprecated assert_allclose), written in the language
# as PyTorch 1.13 behaves: inputs are paired through nested sequences and mappings; None,
# booleans, Python numbers and tensors (or tensor-likes of one type) are compared; the
# default tolerances are per dtype; the attribute checks (shape, device, dtype, stride) and
# the mismatch messages, with the greatest absolute and relative differences and their
# indices, read as PyTorch's.
import math
import torch

__all__ = ['assert_close', 'assert_allclose']

_DTYPE_PRECISIONS = {
    torch.float16: (0.001, 1e-5),
    torch.bfloat16: (0.016, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
}


class _Failure(Exception):
    # a comparison that failed: the exception type, its message and the item's path
    def __init__(self, type, msg, id=()):
        Exception.__init__(self, msg)
        self.type = type
        self.msg = msg
        self.id = id

    def to_error(self, msg=None):
        if not isinstance(msg, str):
            generated = self.msg
            if self.id:
                generated += '\n\nThe failure occurred for item {}'.format(''.join(str([item]) for item in self.id))
            msg = msg(generated) if callable(msg) else generated
        return self.type(msg)


class _Unsupported(Exception):
    pass


def _default_tolerances(*dtypes):
    rtols, atols = zip(*[_DTYPE_PRECISIONS.get(dtype, (0.0, 0.0)) for dtype in dtypes])
    return max(rtols), max(atols)


def _get_tolerances(*dtypes, rtol, atol, id=()):
    if (rtol is None) ^ (atol is None):
        raise _Failure(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, but got no {}."
                       .format('rtol' if rtol is None else 'atol'), id)
    if rtol is not None and atol is not None:
        return rtol, atol
    return _default_tolerances(*dtypes)


def _mismatch_msg(default_identifier, identifier, extra, abs_diff, abs_diff_idx, atol, rel_diff, rel_diff_idx, rtol):
    equality = rtol == 0 and atol == 0

    def diff_msg(kind, diff, idx, tol):
        if idx is None:
            msg = '{} difference: {}'.format(kind.title(), diff)
        else:
            msg = 'Greatest {} difference: {} at index {}'.format(kind, diff, idx)
        if not equality:
            msg += ' (up to {} allowed)'.format(tol)
        return msg + '\n'

    if identifier is None:
        identifier = default_identifier
    elif callable(identifier):
        identifier = identifier(default_identifier)
    msg = '{} are not {}!\n\n'.format(identifier, 'equal' if equality else 'close')
    if extra:
        msg += extra.strip() + '\n'
    msg += diff_msg('absolute', abs_diff, abs_diff_idx, atol)
    msg += diff_msg('relative', rel_diff, rel_diff_idx, rtol)
    return msg.strip()


def _scalar_mismatch_msg(actual, expected, rtol, atol, identifier=None):
    abs_diff = abs(actual - expected)
    rel_diff = float('inf') if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg('Scalars', identifier, None, abs_diff, None, atol, rel_diff, None, rtol)


def _tensor_mismatch_msg(actual, expected, mismatches, rtol, atol, identifier=None):
    def unravel(flat_index):
        if not mismatches.shape:
            return ()
        out = []
        for size in mismatches.shape[::-1]:
            flat_index, mod = divmod(flat_index, size)
            out.append(mod)
        return tuple(out[::-1])

    n = mismatches.numel()
    total = torch.sum(mismatches).item()
    extra = 'Mismatched elements: {} / {} ({:.1%})'.format(total, n, total / n)
    a_flat = actual.flatten()
    b_flat = expected.flatten()
    matches_flat = ~mismatches.flatten()
    abs_diff = torch.abs(a_flat - b_flat)
    abs_diff[matches_flat] = 0
    max_abs, max_abs_idx = torch.max(abs_diff, 0)
    rel_diff = abs_diff / torch.abs(b_flat)
    rel_diff[matches_flat] = 0
    max_rel, max_rel_idx = torch.max(rel_diff, 0)
    return _mismatch_msg('Tensor-likes', identifier, extra, max_abs.item(), unravel(int(max_abs_idx)), atol,
                         max_rel.item(), unravel(int(max_rel_idx)), rtol)


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _compare_none(actual, expected, id, **unused):
    if not (actual is None or expected is None):
        raise _Unsupported()
    if not (actual is None and expected is None):
        raise _Failure(AssertionError, 'None mismatch: {} is not {}'.format(actual, expected), id)


def _compare_bool(actual, expected, id, **unused):
    if not (isinstance(actual, bool) and isinstance(expected, bool)):
        raise _Unsupported()
    if actual is not expected:
        raise _Failure(AssertionError, 'Booleans mismatch: {} is not {}'.format(actual, expected), id)


def _compare_number(actual, expected, id, rtol, atol, equal_nan, check_dtype, **unused):
    if not (_is_number(actual) and _is_number(expected)):
        raise _Unsupported()
    # Python numbers compare at the tolerances of their torch dtypes (int64 exact, float64)
    dtypes = [torch.float64 if isinstance(x, float) else torch.int64 for x in (actual, expected)]
    rtol, atol = _get_tolerances(*dtypes, rtol=rtol, atol=atol, id=id)
    if check_dtype and type(actual) is not type(expected):
        raise _Failure(AssertionError,
                       'The (d)types do not match: {} != {}.'.format(type(actual), type(expected)), id)
    if actual == expected:
        return
    if equal_nan and math.isnan(actual) and math.isnan(expected):
        return
    abs_diff = abs(actual - expected)
    if math.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Failure(AssertionError, _scalar_mismatch_msg(actual, expected, rtol, atol), id)


def _to_tensor(x):
    if isinstance(x, torch.Tensor):
        return x
    try:
        return torch.as_tensor(x)
    except Exception:
        raise _Unsupported()


def _compare_tensor(actual, expected, id, rtol, atol, equal_nan, check_device, check_dtype, check_stride,
                    allow_subclasses, **unused):
    if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
        raise _Unsupported()
    if not allow_subclasses and type(actual) is not type(expected):
        raise _Unsupported()
    if _is_number(actual) or isinstance(actual, (bool, str)) or actual is None:
        raise _Unsupported()
    actual, expected = _to_tensor(actual), _to_tensor(expected)
    rtol, atol = _get_tolerances(actual.dtype, expected.dtype, rtol=rtol, atol=atol, id=id)

    def attribute(name, a, b):
        raise _Failure(AssertionError, "The values for attribute '{}' do not match: {} != {}.".format(name, a, b), id)

    if actual.shape != expected.shape:
        attribute('shape', actual.shape, expected.shape)
    if check_stride and actual.stride() != expected.stride():
        attribute('stride()', actual.stride(), expected.stride())
    if check_device and actual.device != expected.device:
        attribute('device', actual.device, expected.device)
    if check_dtype and actual.dtype != expected.dtype:
        attribute('dtype', actual.dtype, expected.dtype)
    if actual.device != expected.device:
        actual, expected = actual.cpu(), expected.cpu()
    if actual.dtype != expected.dtype:
        dtype = torch.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(dtype), expected.to(dtype)
    wide = torch.float64 if actual.dtype.is_floating_point else torch.int64
    actual, expected = actual.detach().to(wide), expected.detach().to(wide)
    matches = torch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if torch.all(matches):
        return
    if actual.shape == torch.Size([]):
        msg = _scalar_mismatch_msg(actual.item(), expected.item(), rtol, atol)
    else:
        msg = _tensor_mismatch_msg(actual, expected, ~matches, rtol, atol)
    raise _Failure(AssertionError, msg, id)


_COMPARERS = (_compare_none, _compare_bool, _compare_number, _compare_tensor)


def _is_sequence(x):
    return isinstance(x, (list, tuple, torch.Size)) or (hasattr(x, '__len__') and hasattr(x, '__getitem__')
                                                         and not isinstance(x, (str, bytes, dict, torch.Tensor))
                                                         and not hasattr(x, 'keys') and type(x).__name__ != 'ndarray')


def _is_mapping(x):
    return isinstance(x, dict) or (hasattr(x, 'keys') and hasattr(x, '__getitem__'))


def _walk(actual, expected, id, options):
    # yields, in PyTorch's order, a closure per leaf pair that raises its _Failure
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Failure(AssertionError,
                           'The length of the sequences mismatch: {} != {}'.format(len(actual), len(expected)), id)
        pairs = []
        for i in range(len(actual)):
            pairs.extend(_walk(actual[i], expected[i], id + (i,), options))
        return pairs
    if _is_mapping(actual) and _is_mapping(expected):
        akeys, ekeys = set(actual.keys()), set(expected.keys())
        if akeys != ekeys:
            raise _Failure(AssertionError,
                           'The keys of the mappings do not match:\n'
                           'Missing keys in the actual mapping: {}\n'
                           'Additional keys in the actual mapping: {}'.format(sorted(ekeys - akeys),
                                                                              sorted(akeys - ekeys)), id)
        try:
            keys = sorted(akeys)
        except Exception:
            keys = list(akeys)
        pairs = []
        for key in keys:
            pairs.extend(_walk(actual[key], expected[key], id + (key,), options))
        return pairs
    for compare in _COMPARERS:
        try:
            compare(actual, expected, id=id, **options)
            return [None]
        except _Unsupported:
            continue
    raise _Failure(TypeError, 'No comparison pair was able to handle inputs of type {} and {}.'
                   .format(type(actual), type(expected)), id)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Asserts that actual and expected are close."""
    options = dict(rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=check_device,
                   check_dtype=check_dtype, check_stride=check_stride, allow_subclasses=allow_subclasses)
    try:
        _walk(actual, expected, (), options)
    except _Failure as failure:
        raise failure.to_error(msg) from None


_DEPRECATED_PRECISIONS = {
    torch.float16: (1e-3, 1e-3),
    torch.float32: (1e-4, 1e-5),
    torch.float64: (1e-5, 1e-8),
}


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=''):
    # deprecated since 1.12: its own default tolerances; the warning comes after the comparison
    if not isinstance(actual, torch.Tensor):
        actual = torch.tensor(actual)
    if not isinstance(expected, torch.Tensor):
        expected = torch.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        a = _DEPRECATED_PRECISIONS.get(actual.dtype, (0.0, 0.0))
        e = _DEPRECATED_PRECISIONS.get(expected.dtype, (0.0, 0.0))
        rtol, atol = max(a[0], e[0]), max(a[1], e[1])
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
                 check_dtype=False, check_stride=False, msg=msg or None)
    import warnings
    warnings.warn("torch.testing.assert_allclose() is deprecated since 1.12 and will be removed in 1.14. "
                  "Use torch.testing.assert_close() instead. "
                  "For detailed upgrade instructions see https://github.com/pytorch/pytorch/issues/61844.",
                  FutureWarning)
