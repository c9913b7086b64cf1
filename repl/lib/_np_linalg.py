# numpy.linalg, and einsum, kron and cross, written in the language: it runs inside the
# module numpy (repl/mod_numpy.c) after mod_numpy_*_src.c, over their names. As NumPy
# 1.24's linalg, every routine computes in float64 through LAPACK (torch.linalg's,
# the same routines NumPy calls: getrf, gesdd, syevd, geev, geqrf, potrf, gelsd) and
# gives float32 back for float32 arrays; ints are float64.

class LinAlgError(ValueError):
    pass


def _axis_index(axis, nd):
    if axis < -nd or axis >= nd:
        raise AxisError('axis ' + str(axis) + ' is out of bounds for array of dimension ' + str(nd))
    return axis % nd


def _float_operands(arrays):
    # the arrays' tensors in float64 and the dtype of the results: float32 when every
    # array is float32, else float64 (NumPy's _commonType); float16 is refused as NumPy does
    ts, single = [], True
    for x in arrays:
        a = asarray(x)
        if a._t.dtype == torch.float16:
            raise TypeError('array type float16 is unsupported in linalg')
        single = single and a._t.dtype == torch.float32
        ts.append(a._t.to(torch.float64))
    return ts, (torch.float32 if single else torch.float64)


def _stacked(t, square):
    if t.dim() < 2:
        raise LinAlgError(str(t.dim()) + '-dimensional array given. Array must be at least two-dimensional')
    if square and t.shape[-1] != t.shape[-2]:
        raise LinAlgError('Last 2 dimensions of the array must be square')
    return t


def _matrix(a, square=True):
    (t,), rt = _float_operands([a])
    return _stacked(t, square), rt


def _finite(t):
    if not bool(torch.isfinite(t).all().item()):
        raise LinAlgError('Array must not contain infs or NaNs')


def _back(t, rt):
    return _result(t.to(rt))


def _inv(a):
    t, rt = _matrix(a)
    try:
        return _back(torch.linalg.inv(t), rt)
    except RuntimeError:
        raise LinAlgError('Singular matrix')


def _solve(a, b):
    (t, bt), rt = _float_operands([a, b])
    _stacked(t, True)
    try:
        return _back(torch.linalg.solve(t, bt), rt)
    except RuntimeError:
        raise LinAlgError('Singular matrix')


def _det(a):
    # NumPy's: sign * exp(logdet) of the LU factorization (so 10.000000000000002 for a 10)
    t, rt = _matrix(a)
    sign, logdet = torch.linalg.slogdet(t)
    return _back(sign * torch.exp(logdet), rt)


def _slogdet(a):
    t, rt = _matrix(a)
    sign, logdet = torch.linalg.slogdet(t)
    return _back(sign, rt), _back(logdet, rt)


def _svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    t, rt = _matrix(a, False)
    if not compute_uv:
        return _back(torch.linalg.svdvals(t), rt)
    u, s, vh = torch.linalg.svd(t, full_matrices=full_matrices)
    return _back(u, rt), _back(s, rt), _back(vh, rt)


def _pinv(a, rcond=1e-15, hermitian=False):
    # NumPy's: from the SVD (in the array's dtype), the singular values above rcond times
    # the largest inverted, the rest 0, then vt.T @ (1/s * u.T)
    u, s, vt = _svd(a, full_matrices=False)
    large = s > rcond * amax(s, axis=-1, keepdims=True)
    inv_s = zeros_like(s)
    inv_s[large] = 1 / s[large]
    return matmul(swapaxes(vt, -1, -2), inv_s[..., None] * swapaxes(u, -1, -2))


def _matrix_rank(A, tol=None, hermitian=False):
    # NumPy's: the singular values above tol (max(s) * max(M, N) * eps of their dtype)
    A = asarray(A)
    if A.ndim < 2:
        return _scalar(torch.tensor(int(bool((A._t != 0).any().item())), device='cpu'))
    S = _svd(A, compute_uv=False)
    if tol is None:
        tol = S.max(axis=-1, keepdims=True) * _builtin_max(A.shape[-2:]) * finfo(S.dtype).eps
    return count_nonzero(S > tol, axis=-1)


def _eigh(a, UPLO='L'):
    t, rt = _matrix(a)
    w, v = torch.linalg.eigh(t, UPLO)
    return _back(w, rt), _back(v, rt)


def _eigvalsh(a, UPLO='L'):
    t, rt = _matrix(a)
    return _back(torch.linalg.eigvalsh(t, UPLO), rt)


def _real_eig(w):
    if bool((w.imag != 0).any().item()):
        raise NotImplementedError('numpy.linalg.eig: complex eigenvalues need complex arrays, which are not here')
    return w.real


def _eig(a):
    # LAPACK's geev; NumPy gives real arrays when every eigenvalue is real
    t, rt = _matrix(a)
    _finite(t)
    w, v = torch.linalg.eig(t)
    return _back(_real_eig(w), rt), _back(v.real, rt)


def _eigvals(a):
    t, rt = _matrix(a)
    _finite(t)
    return _back(_real_eig(torch.linalg.eigvals(t)), rt)


def _qr(a, mode='reduced'):
    if mode not in ('reduced', 'complete', 'r'):
        raise ValueError("Unrecognized mode '" + str(mode) + "'")
    t, rt = _matrix(a, False)
    q, r = torch.linalg.qr(t, 'complete' if mode == 'complete' else 'reduced')
    if mode == 'r':
        return _back(r, rt)
    return _back(q, rt), _back(r, rt)


def _cholesky(a):
    t, rt = _matrix(a)
    try:
        return _back(torch.linalg.cholesky(t), rt)
    except RuntimeError:
        raise LinAlgError('Matrix is not positive definite')


def _lstsq(a, b, rcond='warn'):
    # LAPACK's gelsd, as NumPy: the solution, the residues' squared sum (an empty array
    # when the rank is short or M <= N), the rank (numpy.int32) and the singular values
    (at, bt), rt = _float_operands([a, b])
    one = bt.dim() == 1
    if one:
        bt = bt.unsqueeze(1)
    for t in (at, bt):
        if t.dim() != 2:
            raise LinAlgError(str(t.dim()) + '-dimensional array given. Array must be two-dimensional')
    m, n = at.shape
    if bt.shape[0] != m:
        raise LinAlgError('Incompatible dimensions')
    if rcond == 'warn':
        import warnings
        warnings.warn('`rcond` parameter will change to the default of machine precision times ``max(M, N)`` '
                      'where M and N are the input matrix dimensions.\nTo use the future default and silence '
                      'this warning we advise to pass `rcond=None`, to keep using the old, explicitly pass '
                      '`rcond=-1`.', FutureWarning, stacklevel=2)
        rcond = -1
    if rcond is None:
        rcond = finfo(float64).eps.item() * _builtin_max(m, n)
    x, res, rank, s = torch.linalg.lstsq(at, bt, rcond=rcond, driver='gelsd')
    rank = int(rank.item())
    if one:
        x = x.squeeze(1)
    if rank != n or m <= n:
        res = torch.zeros(0, dtype=torch.float64, device='cpu')
    return (_back(x, rt), _wrap(res.to(rt)), _scalar(torch.tensor(rank, dtype=torch.int32, device='cpu')),
            _wrap(s.to(rt)))


def _matrix_power(a, n):
    # NumPy's: matmul for n up to 3, else binary powers (a negative n powers the inverse)
    a = asarray(a)
    _stacked(a._t, True)
    if not isinstance(n, (int, integer)):
        raise TypeError('exponent must be an integer')
    n = int(n)
    if n == 0:
        r = zeros_like(a)
        r[...] = eye(a.shape[-2], dtype=a.dtype)
        return r
    if n < 0:
        a = _inv(a)
        n = -n
    if n <= 3:
        r = a
        for i in range(n - 1):
            r = matmul(r, a)
        return r
    z = r = None
    while n > 0:
        z = a if z is None else matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            r = z if r is None else matmul(r, z)
    return r


def _cond(x, p=None):
    if p is None or p == 2 or p == -2:
        s = _svd(x, compute_uv=False)
        return s[..., 0] / s[..., -1] if p != -2 else s[..., -1] / s[..., 0]
    return _norm(x, p, axis=(-2, -1)) * _norm(_inv(x), p, axis=(-2, -1))


def _svd_norm(x, row, col, op):
    return op(_svd(moveaxis(x, (row, col), (-2, -1)), compute_uv=False), axis=-1)


def _norm(x, ord=None, axis=None, keepdims=False):
    # NumPy 1.24's norm: the flat 2-norm as sqrt(dot(x, x)); along axes with sum's pairwise
    # order; vector ords inf, -inf, 0, 1, p and matrix ords 'fro', 'nuc', 1, -1, 2, -2, inf, -inf
    x = asarray(x)
    if not x._t.dtype.is_floating_point:
        x = x.astype(float)
    nd = x.ndim
    if axis is None and (ord is None or (ord in ('f', 'fro') and nd == 2) or (ord == 2 and nd == 1)):
        flat = x.ravel()
        r = sqrt(dot(flat, flat))
        return r.reshape((1,) * nd) if keepdims else r
    if axis is None:
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        if not isinstance(axis, (int, integer)):
            raise TypeError("'axis' must be None, an integer or a tuple of integers")
        axis = (int(axis),)
    if len(axis) == 1:
        if ord == inf:
            return abs(x).max(axis=axis, keepdims=keepdims)
        if ord == -inf:
            return abs(x).min(axis=axis, keepdims=keepdims)
        if ord == 0:
            return (x != 0).astype(x.dtype).sum(axis=axis, keepdims=keepdims)
        if ord == 1:
            return sum(abs(x), axis=axis, keepdims=keepdims)
        if ord is None or ord == 2:
            return sqrt(sum(x * x, axis=axis, keepdims=keepdims))
        if isinstance(ord, str):
            raise ValueError("Invalid norm order '" + ord + "' for vectors")
        r = sum(abs(x) ** ord, axis=axis, keepdims=keepdims)
        return r ** reciprocal(asarray(ord, dtype=r.dtype))
    if len(axis) != 2:
        raise ValueError('Improper number of dimensions to norm.')
    row, col = _axis_index(axis[0], nd), _axis_index(axis[1], nd)
    if row == col:
        raise ValueError('Duplicate axes given.')
    if ord == 2:
        r = _svd_norm(x, row, col, amax)
    elif ord == -2:
        r = _svd_norm(x, row, col, amin)
    elif ord in (1, -1):
        r = sum(abs(x), axis=row)
        r = (amax if ord == 1 else amin)(r, axis=col - 1 if col > row else col)
    elif ord in (inf, -inf):
        r = sum(abs(x), axis=col)
        r = (amax if ord == inf else amin)(r, axis=row - 1 if row > col else row)
    elif ord in (None, 'fro', 'f'):
        r = sqrt(sum(x * x, axis=(row, col)))
    elif ord == 'nuc':
        r = _svd_norm(x, row, col, sum)
    else:
        raise ValueError('Invalid norm order for matrices.')
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        r = asarray(r).reshape(shape)
    return r


class _LinalgModule:
    LinAlgError = LinAlgError

    def __repr__(self):
        return "<module 'numpy.linalg'>"


for _f in (_inv, _solve, _det, _slogdet, _svd, _pinv, _matrix_rank, _eigh, _eigvalsh, _eig, _eigvals, _qr, _cholesky,
           _lstsq, _matrix_power, _cond, _norm):
    _f.__name__ = _f.__name__[1:]
    setattr(_LinalgModule, _f.__name__, staticmethod(_f))
linalg = _LinalgModule()


def _as_common(operands):
    # the operands' tensors in their common NumPy dtype
    rd = result_type(*operands)
    return [asarray(o)._t.to(_TORCH[rd.name]) for o in operands]


def einsum(subscripts, *operands, out=None, optimize=False, dtype=None, casting='safe'):
    # torch.einsum over the operands in their common dtype (a sum's last digit may differ
    # from NumPy's own summation loops)
    ts = _as_common(operands)
    if dtype is not None:
        ts = [t.to(_TORCH[_dtype_name(dtype)]) for t in ts]
    return _result(torch.einsum(subscripts, *ts))


def kron(a, b):
    # every product a[i] * b[j], block by block: (a's axes interleaved with b's), then merged
    a, b = asarray(a), asarray(b)
    nd = _builtin_max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    ea, eb = [], []
    for i in range(nd):
        ea += [sa[i], 1]
        eb += [1, sb[i]]
    r = a.reshape(ea) * b.reshape(eb)
    return r.reshape(tuple(sa[i] * sb[i] for i in range(nd)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    # vectors of 3 (or 2: the z component alone) along the last axis
    a, b = asarray(a), asarray(b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError('incompatible dimensions for cross product\n(dimension must be 2 or 3)')
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return a0 * b1 - a1 * b0
    a2 = a[..., 2] if a.shape[-1] == 3 else zeros_like(a0)
    b2 = b[..., 2] if b.shape[-1] == 3 else zeros_like(b0)
    r = stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return moveaxis(r, -1, axisc)
