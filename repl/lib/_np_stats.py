# numpy's order statistics, histograms and covariances, written in the language: it runs
# inside the module numpy (repl/mod_numpy.c) after mod_numpy_*_src.c and _np_linalg.py, over
# their names.
# NumPy 1.24's arithmetic step for step: percentile/quantile subtract neighbours in the
# array's dtype and interpolate in float64; median is the mean of the middle values in
# the array's dtype; histogram's edges keep a float array's dtype; cov is
# dot(X, X.T) * (1 / (N - ddof)) of the centred rows.


def _along(a, axis):
    # a's tensor and the axis to work along (None: all of it, flattened)
    t = asarray(a)._t
    if axis is None:
        return t.reshape(-1), 0
    return t, _axis_index(axis, t.dim())


def _kept(r, a, axis, ax, keepdims):
    # r reduced along ax, with the reduced axis kept as 1 when keepdims (all axes when axis is None)
    if not keepdims:
        return r
    if axis is None:
        return r.reshape((1,) * asarray(a).ndim)
    return r.unsqueeze(ax)


def _nan_last(srt, ax, r):
    # NaN where the sorted slice ends with a NaN (NumPy's sort puts NaNs last)
    if not srt.dtype.is_floating_point or srt.shape[ax] == 0:
        return r
    bad = torch.isnan(srt.select(ax, srt.shape[ax] - 1))
    if not bool(bad.any().item()):
        return r
    r = r.clone()
    r[bad] = nan
    return r


_QMETHODS = ('linear', 'lower', 'higher', 'nearest', 'midpoint')  # of NumPy's (_NP_QMETHODS)
_NP_QMETHODS = ['inverted_cdf', 'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen',
                'weibull', 'linear', 'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest']


def _quantile(a, q, axis, method, keepdims, scale, name):
    # NumPy 1.24's _quantile: the virtual index (n - 1) * q into the sorted values; 'linear'
    # lerps between the neighbours: a + d*g below g = 0.5, b - d*(1 - g) from it, where the
    # difference d = b - a is taken in the array's dtype and the rest in float64
    if method not in _NP_QMETHODS:
        raise ValueError("'" + str(method) + "' is not a valid method. Use one of: dict_keys(" + str(_NP_QMETHODS) + ')')
    if method not in _QMETHODS:
        raise NotImplementedError("numpy's quantile method '" + method + "' is not here")
    t, ax = _along(a, axis)
    srt = torch.sort(t, dim=ax)[0]
    n = t.shape[ax]
    qs = asarray(q)._t.to(torch.float64)
    outs = []
    for qv in qs.reshape(-1).tolist():
        qv = qv / scale if scale != 1 else qv
        if not 0 <= qv <= 1:
            raise ValueError(name + ' must be in the range ' + ('[0, 100]' if scale != 1 else '[0, 1]'))
        vi = (n - 1) * qv
        if method in ('lower', 'higher', 'nearest'):
            i = _math.floor(vi) if method == 'lower' else (_math.ceil(vi) if method == 'higher' else round(vi))
            r = srt.select(ax, _builtin_min(int(i), n - 1))
        else:
            lo = _builtin_min(int(_math.floor(vi)), n - 1)
            hi = _builtin_min(lo + 1, n - 1)
            g = vi - lo
            if method == 'midpoint':
                g = 0.0 if g == 0 else 0.5
            x0, x1 = srt.select(ax, lo), srt.select(ax, hi)
            d = (x1 - x0).to(torch.float64)
            x0, x1 = x0.to(torch.float64), x1.to(torch.float64)
            r = x0 + d * g if g < 0.5 else x1 - d * (1 - g)
        outs.append(_kept(_nan_last(srt, ax, r), a, axis, ax, keepdims))
    if qs.dim() == 0:
        return _result(outs[0])
    return _result(torch.stack(outs).reshape(tuple(qs.shape) + tuple(outs[0].shape)))


def percentile(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False, *,
               interpolation=None):
    return _quantile(a, q, axis, interpolation or method, keepdims, 100, 'Percentiles')


def quantile(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False, *,
             interpolation=None):
    return _quantile(a, q, axis, interpolation or method, keepdims, 1, 'Quantiles')


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    # NumPy's: the mean of the middle value(s), so a float32 array's median is float32
    # ((lo + hi) / 2 in float32) and an int array's float64
    t, ax = _along(a, axis)
    srt = torch.sort(t, dim=ax)[0]
    n = t.shape[ax]
    if not srt.dtype.is_floating_point:
        srt = srt.to(torch.float64)
    wide = srt.to(torch.float32) if srt.dtype == torch.float16 else srt  # (float16 means add in float32)
    h = n // 2
    if n % 2:
        r = srt.select(ax, h)
    else:
        r = ((wide.select(ax, h - 1) + wide.select(ax, h)) / 2).to(srt.dtype)
    return _result(_kept(_nan_last(srt, ax, r), a, axis, ax, keepdims))


def _nan_dropped(a, axis, fn):
    # fn over each slice along axis with its NaNs left out (an all-NaN slice gives NaN)
    a = asarray(a)
    t = a._t
    if not t.dtype.is_floating_point:
        return fn(a)
    if axis is None:
        t = t.reshape(-1)
        kept = t[~torch.isnan(t)]
        return fn(_wrap(kept)) if kept.numel() else _result(torch.tensor(nan, dtype=t.dtype, device='cpu'))
    ax = _axis_index(axis, t.dim())
    moved = t.movedim(ax, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    outs = [asarray(_nan_dropped(_wrap(rows[i]), None, fn))._t for i in range(rows.shape[0])]
    return _result(torch.stack(outs).reshape(tuple(moved.shape[:-1]) + tuple(outs[0].shape)))


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return _nan_dropped(a, axis, median)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False):
    if asarray(q).ndim:
        raise NotImplementedError('numpy.nanpercentile: one percentile at a time here')
    return _nan_dropped(a, axis, lambda r: percentile(r, q, method=method))


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False):
    if asarray(q).ndim:
        raise NotImplementedError('numpy.nanquantile: one quantile at a time here')
    return _nan_dropped(a, axis, lambda r: quantile(r, q, method=method))


def _nanarg(a, axis, fill, fn):
    a = asarray(a)
    t = a._t
    if t.dtype.is_floating_point:
        bad = torch.isnan(t)
        if bool((bad.all() if axis is None else bad.all(axis)).any().item()):
            raise ValueError('All-NaN slice encountered')
        a = _wrap(_filled(t, bad, fill))
    return fn(a, axis)


def nanargmax(a, axis=None):
    return _nanarg(a, axis, -inf, argmax)


def nanargmin(a, axis=None):
    return _nanarg(a, axis, inf, argmin)


def histogram(a, bins=10, range=None, weights=None, density=None):
    # NumPy's: equal-width edges from linspace over range (else the data's min and max) in the
    # array's float dtype (float64 for ints), the last bin closed; counts int64, or weights' dtype
    a = asarray(a)
    t = a._t.reshape(-1)
    kind = a.dtype.name if t.dtype.is_floating_point else 'float64'
    if isinstance(bins, (int, integer)):
        if bins < 1:
            raise ValueError('`bins` must be positive, when an integer')
        if range is not None:
            lo, hi = float(range[0]), float(range[1])
            if lo > hi:
                raise ValueError('max must be larger than min in range parameter.')
            if not (_math.isfinite(lo) and _math.isfinite(hi)):
                raise ValueError('supplied range of [' + repr(lo) + ', ' + repr(hi) + '] is not finite')
        elif t.numel():
            lo, hi = float(t.min().item()), float(t.max().item())
            if not (_math.isfinite(lo) and _math.isfinite(hi)):
                raise ValueError('autodetected range of [' + repr(lo) + ', ' + repr(hi) + '] is not finite')
        else:
            lo, hi = 0.0, 1.0
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = linspace(lo, hi, int(bins) + 1, dtype=kind)
    else:
        edges = asarray(bins)
        if bool((edges._t[1:] < edges._t[:-1]).any().item()):
            raise ValueError('`bins` must increase monotonically, when an array')
    e = edges._t.to(torch.float64)
    x = t.to(torch.float64)
    n = e.numel() - 1
    keep = (x >= e[0]) & (x <= e[-1])
    idx = torch.clamp(torch.searchsorted(e, x[keep], right=True) - 1, 0, n - 1)
    if weights is None:
        counts = torch.bincount(idx, minlength=n)
    else:
        w = asarray(weights)
        counts = torch.bincount(idx, weights=w._t.reshape(-1).to(torch.float64)[keep], minlength=n).to(w._t.dtype)
    hist = _wrap(counts)
    if density:
        hist = true_divide(true_divide(hist, diff(edges).astype(float)), hist.sum())
    return hist, edges


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    # NumPy's: float64 rows (one variable a row, unless rowvar=False), centred by their means,
    # then dot(X, X.T) times 1 / (N - ddof); a single variable gives a 0-d array
    if fweights is not None or aweights is not None:
        raise NotImplementedError('numpy.cov: fweights= and aweights= are not here')
    X = array(m, ndmin=2, dtype=dtype or result_type(m, float64))
    if not rowvar and X.shape[0] != 1:
        X = X.T
    if y is not None:
        Y = array(y, ndmin=2, dtype=X.dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = concatenate((X, Y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    X = X - X.mean(axis=1)[:, None]
    c = dot(X, X.T) * true_divide(1, X.shape[1] - ddof)
    return _wrap(c._t.squeeze())


def corrcoef(x, y=None, rowvar=True, dtype=None):
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = sqrt(diag(c))
    c = c / d[:, None]
    c = c / d[None, :]
    return clip(c, -1, 1)


# ------------------------------------------------------------ fitting and smoothing

def vander(x, N=None, increasing=False):
    # NumPy's: the powers as a running product (x, x*x, (x*x)*x, ...), int64 or float64
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError('x must be a one-dimensional array or sequence.')
    N = len(x) if N is None else N
    xt = x._t.to(_TORCH[promote_types(x.dtype, int).name])
    cols = []
    for i in range(N):
        cols.append(torch.ones_like(xt) if i == 0 else (xt.clone() if i == 1 else cols[-1] * xt))
    if not increasing:
        cols.reverse()
    return _wrap(torch.stack(cols, 1) if cols else torch.zeros(len(x), 0, dtype=xt.dtype, device='cpu'))


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    # NumPy's: lstsq of the Vandermonde matrix with its columns scaled to unit norm
    if w is not None or cov:
        raise NotImplementedError('numpy.polyfit: w= and cov= are not here')
    order = int(deg) + 1
    x = asarray(x) + 0.0
    y = asarray(y) + 0.0
    if deg < 0:
        raise ValueError('expected deg >= 0')
    if x.ndim != 1:
        raise TypeError('expected 1D vector for x')
    if x.size == 0:
        raise TypeError('expected non-empty vector for x')
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError('expected 1D or 2D array for y')
    if x.shape[0] != y.shape[0]:
        raise TypeError('expected x and y to have same length')
    if rcond is None:
        rcond = len(x) * finfo(x.dtype).eps.item()
    lhs = vander(x, order)
    scale = sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c, resids, rank, s = linalg.lstsq(lhs, y, rcond)
    c = (c.T / scale).T
    if full:
        return c, resids, rank, s, rcond
    return c


def polyval(p, x):
    # Horner's rule, as NumPy's
    p = asarray(p)
    x = asarray(x)
    y = zeros_like(x)
    for pv in p:
        y = y * x + pv
    return y


def trapz(y, x=None, dx=1.0, axis=-1):
    y = asarray(y)
    nd = y.ndim
    if x is None:
        d = dx
    else:
        x = asarray(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * nd
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = diff(x, axis=axis)
    hi = [slice(None)] * nd
    lo = [slice(None)] * nd
    hi[axis] = slice(1, None)
    lo[axis] = slice(None, -1)
    return sum(d * (y[tuple(hi)] + y[tuple(lo)]) / 2.0, axis)


def convolve(a, v, mode='full'):
    # NumPy's correlate of a with v reversed (the longer first): each output a dot product
    # (BLAS) of the overlap, except the full-overlap part of a kernel of at most 11, which
    # NumPy sums in order (small_correlate)
    a, v = asarray(a), asarray(v)
    if v.size > a.size:
        a, v = v, a
    if a.size == 0:
        raise ValueError('a cannot be empty')
    if v.size == 0:
        raise ValueError('v cannot be empty')
    rt = result_type(a, v)
    d = a._t.reshape(-1).to(_TORCH[rt.name])
    k = v._t.reshape(-1).to(_TORCH[rt.name]).flip(0)
    n1, n = d.numel(), k.numel()
    modes = {'valid': 0, 'same': 1, 'full': 2, 0: 0, 1: 1, 2: 2}
    if mode not in modes:
        raise ValueError('mode must be one of \'valid\', \'same\', or \'full\' (got ' + repr(mode) + ')')
    m = modes[mode]
    left = 0 if m == 0 else (n // 2 if m == 1 else n - 1)
    right = 0 if m == 0 else (n - left - 1 if m == 1 else n - 1)
    floats = d.dtype.is_floating_point
    dot = torch.dot if floats else (lambda p, q: (p * q).sum())
    outs = []
    w = n - left
    for i in range(left):
        outs.append(dot(d[:w], k[n - w:]))
        w += 1
    if floats and n <= 11:
        body = d[:n1 - n + 1] * k[0]
        for j in range(1, n):
            body = body + d[j:j + n1 - n + 1] * k[j]
        outs.extend(list(body.unbind(0)))
    else:
        for i in range(n1 - n + 1):
            outs.append(dot(d[i:i + n], k))
    start = n1 - n + 1
    w = n
    for i in range(right):
        w -= 1
        outs.append(dot(d[start + i:start + i + w], k[:w]))
    return _wrap(torch.stack(outs) if outs else torch.zeros(0, dtype=d.dtype, device='cpu'))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    # NumPy's: logspace between the log10s, its ends set to start and stop exactly
    if start == 0 or stop == 0:
        raise ValueError('Geometric sequence cannot include zero')
    sign = 1.0
    if start < 0 and stop < 0:
        start, stop, sign = -start, -stop, -1.0
    r = logspace(log10(float(start)), log10(float(stop)), num, endpoint)
    if num > 0:
        r[0] = start
        if num > 1 and endpoint:
            r[-1] = stop
    r = r * sign if sign < 0 else r
    return r if dtype is None else r.astype(dtype)


def logaddexp(x1, x2):
    # NumPy's npy_logaddexp: x + log(2) when equal, else the larger + log1p(exp(-|x - y|))
    a, b = asarray(x1), asarray(x2)
    rt = result_type(a, b, 1.0)
    ta, tb = a._t.to(_TORCH[rt.name]), b._t.to(_TORCH[rt.name])
    ta, tb = torch.broadcast_tensors(ta, tb)
    big = torch.maximum(ta, tb)
    r = big + asarray(log1p(exp(_wrap(-torch.abs(ta - tb)))))._t
    same = ta == tb
    r[same] = ta[same] + _math.log(2)
    return _result(r)


def _cos_window(M, a, b):
    # a + b*cos(pi*n/(M-1)) over n = 1-M, 3-M, ..., M-1 (NumPy's hanning and hamming)
    if M < 1:
        return array([], dtype=float)
    if M == 1:
        return ones(1, dtype=float)
    n = arange(1 - M, M, 2)
    return a + b * cos(pi * n / (M - 1))


def hanning(M):
    return _cos_window(M, 0.5, 0.5)


def hamming(M):
    return _cos_window(M, 0.54, 0.46)
