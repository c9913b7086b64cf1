# numpy's index helpers and the ufuncs' methods, written in the language: it runs inside
# the module numpy (repl/mod_numpy.c) after mod_numpy_*_src.c, over their names:
# fill_diagonal, unravel_index, ravel_multi_index, ix_, tri/triu_indices/tril_indices/
# diag_indices, indices, array_equiv, select, lexsort, and add.reduce / add.accumulate /
# add.at / add.outer (and the other binary ufuncs'); append/insert/delete/resize/ediff1d,
# diff's prepend=/append=, sort's kind=, lognormal draws.


def fill_diagonal(a, val, wrap=False):
    # NumPy's a.flat[:end:step] = val: every (ncols + 1)-th element of a 2-d array (past
    # its square top only with wrap=True), val's elements repeated as needed
    if a.ndim < 2:
        raise ValueError('array must be at least 2-d')
    shape = a.shape
    if a.ndim == 2:
        step = shape[1] + 1
        end = a.size if wrap else _builtin_min(a.size, shape[1] * shape[1])
    else:
        if len(set(shape)) != 1:
            raise ValueError('All dimensions of input must be of equal length')
        step, p = 1, 1
        for s in shape[:-1]:
            p *= s
            step += p
        end = a.size
    flat = torch.arange(0, end, step, device='cpu')
    v = asarray(val)._t.reshape(-1).to(a._t.dtype)
    if v.numel() != flat.numel():
        v = v.repeat(flat.numel() // v.numel() + 1)[:flat.numel()]
    if a._u is not None:
        v = _masked(v, a._u)
    a._t[_unravel(flat, shape)] = v


def _unravel(flat, shape):
    # the index tensors of flat positions in an array of shape (C order)
    coords = []
    for s in reversed(shape):
        coords.append(flat % s)
        flat = torch.div(flat, s, rounding_mode='floor')
    return tuple(reversed(coords))


def unravel_index(indices, shape, order='C'):
    shape = (shape,) if isinstance(shape, (int, integer)) else tuple(shape)
    a = asarray(indices)
    if a._t.dtype.is_floating_point:
        raise TypeError("only int indices permitted")
    n = 1
    for s in shape:
        n *= s
    bad = (a._t < 0) | (a._t >= n)
    if bool(bad.any().item()):
        raise ValueError('index ' + str(int(a._t[bad].reshape(-1)[0].item())) + ' is out of bounds for array with size ' +
                         str(n))
    if order == 'F':
        return tuple(reversed(unravel_index(indices, tuple(reversed(shape)))))
    return tuple(_result(c.to(torch.int64)) for c in _unravel(a._t, shape))


def ravel_multi_index(multi_index, dims, mode='raise', order='C'):
    dims = tuple(dims)
    idx = [asarray(i)._t.to(torch.int64) for i in multi_index]
    if len(idx) != len(dims):
        raise ValueError('parameter multi_index must be a sequence of length ' + str(len(dims)))
    r = torch.zeros_like(idx[0])
    order_ = range(len(dims)) if order == 'C' else reversed(range(len(dims)))
    for k in order_:
        i = idx[k]
        if mode == 'wrap':
            i = i % dims[k]
        elif mode == 'clip':
            i = torch.clamp(i, 0, dims[k] - 1)
        elif bool(((i < 0) | (i >= dims[k])).any().item()):
            raise ValueError('invalid entry in coordinates array')
        r = r * dims[k] + i
    return _result(r)


def ix_(*args):
    out = []
    nd = len(args)
    for k, x in enumerate(args):
        a = asarray(x)
        if a.ndim != 1:
            raise ValueError('Cross index must be 1 dimensional')
        if a._t.dtype == torch.bool:
            a = a.nonzero()[0]
        elif a.size == 0:
            a = a.astype(int64)
        out.append(a.reshape((1,) * k + (a.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def tri(N, M=None, k=0, dtype=float):
    M = N if M is None else M
    return _wrap(torch.ones(N, M, dtype=torch.bool, device='cpu').tril(k).to(_TORCH[_dtype_name(dtype)]))


def _tri_indices(mask):
    r, c = nonzero(_wrap(mask))
    return r, c


def triu_indices(n, k=0, m=None):
    return _tri_indices(torch.ones(n, n if m is None else m, dtype=torch.bool, device='cpu').triu(k))


def tril_indices(n, k=0, m=None):
    return _tri_indices(torch.ones(n, n if m is None else m, dtype=torch.bool, device='cpu').tril(k))


def diag_indices(n, ndim=2):
    i = arange(n)
    return (i,) * ndim


def indices(dimensions, dtype=int, sparse=False):
    dims = tuple(dimensions)
    nd = len(dims)
    parts = [arange(d, dtype=dtype).reshape((1,) * k + (d,) + (1,) * (nd - k - 1)) for k, d in enumerate(dims)]
    if sparse:
        return tuple(parts)
    return stack([broadcast_to(p, dims) for p in parts]) if nd else zeros((0,), dtype=dtype)


def array_equiv(a1, a2):
    a1, a2 = asarray(a1), asarray(a2)
    try:
        broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool((a1 == a2).all())


def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError('list of cases must be same length as list of conditions')
    choices = [asarray(c) for c in choicelist] + [asarray(default)]
    rt = result_type(*choices)
    r = asarray(default).astype(rt)
    for cond, choice in reversed(list(zip(condlist, choices[:-1]))):
        r = where(cond, choice.astype(rt), r)
    return r


def lexsort(keys, axis=-1):
    # the last key sorts first: stable sorts from the first key to the last
    keys = [asarray(k)._t for k in keys]
    order = torch.arange(keys[0].shape[-1], device='cpu')
    for k in keys:
        order = order[torch.sort(k[order], stable=True)[1]]
    return _wrap(order)


# ------------------------------------------------------------ the ufuncs' methods

def _reducer(ufunc, whole):
    # ufunc.reduce: whole(a, axis) with NumPy's default axis 0
    def reduce(array, axis=0, dtype=None, out=None, keepdims=False):
        a = asarray(array)
        if dtype is not None:
            a = a.astype(dtype)
        return whole(a, axis, keepdims=keepdims) if out is None else whole(a, axis, out=out, keepdims=keepdims)
    return reduce


def _accumulator(ufunc, running):
    def accumulate(array, axis=0, dtype=None, out=None):
        a = asarray(array)
        if dtype is not None:
            a = a.astype(dtype)
        return running(a, axis)
    return accumulate


def _running_extreme(fn):
    def running(a, axis):
        return _wrap(fn(a._t, axis)[0], a._u)
    return running


def _at(ufunc):
    # ufunc.at(a, indices, b): unbuffered, so a repeated index applies each time (add.at counts)
    def at(a, indices, b=None):
        if not isinstance(a, ndarray):
            raise TypeError('ufunc.at: first argument must be an array')
        idx = asarray(indices)
        if ufunc is add and idx.ndim == 1 and not isinstance(indices, tuple) and idx._t.dtype != torch.bool:
            pos = idx._t.to(torch.int64) % _builtin_max(a.shape[0], 1)
            vals = broadcast_to(asarray(b), (idx.size,) + a.shape[1:])._t.to(a._t.dtype)
            a._t.index_add_(0, pos, vals)
            return None
        keys = idx.tolist() if not isinstance(indices, tuple) else list(zip(*[asarray(i).tolist() for i in indices]))
        bv = None if b is None else broadcast_to(asarray(b), (len(keys),) + asarray(a[keys[0]]).shape) if keys else None
        for n, k in enumerate(keys):
            a[k] = ufunc(a[k]) if b is None else ufunc(a[k], bv[n])
        return None
    return at


def _outer(ufunc):
    def outer(A, B):
        A, B = asarray(A), asarray(B)
        return ufunc(A.reshape(A.shape + (1,) * B.ndim), B)
    return outer


for _uf, _whole, _run in ((add, sum, cumsum), (multiply, prod, cumprod), (maximum, amax, _running_extreme(torch.cummax)),
                         (minimum, amin, _running_extreme(torch.cummin)), (logical_and, all, None),
                         (logical_or, any, None), (subtract, None, None), (divide, None, None), (power, None, None),
                         (equal, None, None), (greater, None, None), (less, None, None)):
    if _whole is not None:
        _uf.reduce = _reducer(_uf, _whole)
    if _run is not None:
        _uf.accumulate = _accumulator(_uf, _run)
    _uf.at = _at(_uf)
    _uf.outer = _outer(_uf)


# ------------------------------------------------------------ partition

# NumPy 1.24's introselect step for step (median-of-3 quickselect, median of medians of 5
# past its depth limit, a selection sort for a kth near the range's start, the stack of
# pivots kept between several kth), so np.partition and np.argpartition order the
# elements on either side of kth as NumPy does. It swaps positions of `order` (indices
# into vals); partition's result is vals in that order.
_PIVOT_STACK = 50


def _less(a, b):
    return a < b or (b != b and a == a)  # NaN sorts last


def _store_pivot(pivot, kth, pivots):
    if pivots is None:
        return
    if pivot == kth and len(pivots) == _PIVOT_STACK:
        pivots[-1] = pivot
    elif pivot >= kth and len(pivots) < _PIVOT_STACK:
        pivots.append(pivot)


def _median5(vals, order, b):
    def lt(i, j):
        return _less(vals[order[b + i]], vals[order[b + j]])

    def swap(i, j):
        order[b + i], order[b + j] = order[b + j], order[b + i]
    for i, j in ((1, 0), (4, 3), (3, 0), (4, 1), (2, 1)):
        if lt(i, j):
            swap(i, j)
    if lt(3, 2):
        return 1 if lt(3, 1) else 3
    return 2


def _median_of_median5(vals, order, b, num, inexact):
    nmed = num // 5
    for i in range(nmed):
        m = _median5(vals, order, b + 5 * i)
        order[b + 5 * i + m], order[b + i] = order[b + i], order[b + 5 * i + m]
    if nmed > 2:
        _introselect(vals, order, b, nmed, nmed // 2, None, inexact)
    return nmed // 2


def _introselect(vals, order, b, num, kth, pivots, inexact):
    def v(i):
        return vals[order[b + i]]

    def swap(i, j):
        order[b + i], order[b + j] = order[b + j], order[b + i]
    low, high = 0, num - 1
    while pivots:
        if pivots[-1] > kth:
            high = pivots[-1] - 1
            break
        if pivots[-1] == kth:
            return
        low = pivots.pop() + 1
    if kth - low < 3:
        for i in range(low, kth + 1):
            mi, mv = i, v(i)
            for k in range(i + 1, high + 1):
                if _less(v(k), mv):
                    mi, mv = k, v(k)
            swap(i, mi)
        _store_pivot(kth, kth, pivots)
        return
    if inexact and kth == num - 1:
        mi, mv = low, v(low)
        for k in range(low + 1, num):
            if not _less(v(k), mv):
                mi, mv = k, v(k)
        swap(kth, mi)
        return
    depth = (num.bit_length() - 1) * 2
    while low + 1 < high:
        ll, hh = low + 1, high
        if depth > 0 or hh - ll < 5:
            mid = low + (high - low) // 2
            if _less(v(high), v(mid)):
                swap(high, mid)
            if _less(v(high), v(low)):
                swap(high, low)
            if _less(v(low), v(mid)):
                swap(low, mid)
            swap(mid, low + 1)
        else:
            mid = ll + _median_of_median5(vals, order, b + ll, hh - ll, inexact)
            swap(mid, low)
            ll, hh = ll - 1, hh + 1
        depth -= 1
        pivot = v(low)
        while True:
            ll += 1
            while _less(v(ll), pivot):
                ll += 1
            hh -= 1
            while _less(pivot, v(hh)):
                hh -= 1
            if hh < ll:
                break
            swap(ll, hh)
        swap(low, hh)
        if hh != kth:
            _store_pivot(hh, kth, pivots)
        if hh >= kth:
            high = hh - 1
        if hh <= kth:
            low = ll
    if high == low + 1 and _less(v(high), v(low)):
        swap(high, low)
    _store_pivot(kth, kth, pivots)


def _partitioned(a, kth, axis, want_order):
    a = asarray(a)
    t = a._t
    if axis is None:
        t, axis = t.reshape(-1), 0
    axis = _axis_index(axis, t.dim())
    n = t.shape[axis]
    ks = []
    for k in ([kth] if isinstance(kth, (int, integer)) else list(asarray(kth).tolist())):
        k = int(k) + (n if k < 0 else 0)
        if k < 0 or k >= n:
            raise ValueError('kth(=' + str(k) + ') out of bounds (' + str(n) + ')')
        ks.append(k)
    moved = t.movedim(axis, -1)
    rows = moved.reshape(-1, n)
    inexact = t.dtype.is_floating_point
    out = []
    for r in range(rows.shape[0]):
        vals = rows[r].tolist()
        order = list(range(n))
        pivots = []
        for k in sorted(ks):
            _introselect(vals, order, 0, n, k, pivots, inexact)
        out.append(order)
    idx = torch.tensor(out, dtype=torch.int64, device='cpu').reshape(moved.shape)
    if want_order:
        return _wrap(idx.movedim(-1, axis))
    return _wrap(torch.gather(moved, -1, idx).movedim(-1, axis), a._u)


def partition(a, kth, axis=-1, kind='introselect', order=None):
    return _partitioned(a, kth, axis, False)


def argpartition(a, kth, axis=-1, kind='introselect', order=None):
    return _partitioned(a, kth, axis, True)


def _ndarray_partition(self, kth, axis=-1, kind='introselect', order=None):
    self._t.copy_(_partitioned(self, kth, axis, False)._t)


def _ndarray_argpartition(self, kth, axis=-1, kind='introselect', order=None):
    return _partitioned(self, kth, axis, True)


ndarray.partition = _ndarray_partition
ndarray.argpartition = _ndarray_argpartition


_unique_flat = unique


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, equal_nan=True):
    # along an axis: the distinct subarrays in lexicographic order (a stable sort, so
    # return_index gives each one's first occurrence); else the flattened array's values
    if axis is None:
        return _unique_flat(ar, return_index, return_inverse, return_counts)
    a = asarray(ar)
    t = a._t
    ax = _axis_index(axis, t.dim())
    moved = t.movedim(ax, 0)
    n = moved.shape[0]
    rows = [tuple(r) for r in moved.reshape(n, -1).tolist()]
    firsts, inverse, counts = [], [0] * n, []
    for i in sorted(range(n), key=lambda i: rows[i]):
        if not firsts or rows[i] != rows[firsts[-1]]:
            firsts.append(i)
            counts.append(0)
        inverse[i] = len(firsts) - 1
        counts[-1] += 1
    pick = torch.tensor(firsts, dtype=torch.int64, device='cpu')
    r = [_wrap(moved[pick].movedim(0, ax), a._u)]
    if return_index:
        r.append(_wrap(pick))
    if return_inverse:
        r.append(_wrap(torch.tensor(inverse, dtype=torch.int64, device='cpu')))
    if return_counts:
        r.append(_wrap(torch.tensor(counts, dtype=torch.int64, device='cpu')))
    return r[0] if len(r) == 1 else tuple(r)


# ------------------------------------------------------------ growing and shrinking arrays

def append(arr, values, axis=None):
    if axis is None:
        return concatenate((ravel(arr), ravel(values)))
    return concatenate((arr, values), axis=axis)


def _positions(obj, n):
    # the indices obj names along an axis of n (an int, a sequence, a slice or a boolean mask)
    if isinstance(obj, slice):
        return list(range(n))[obj]
    o = asarray(obj)
    if o._t.dtype == torch.bool:
        return [i for i, keep in enumerate(o.tolist()) if keep]
    return [int(i) for i in o.reshape(-1).tolist()]


def delete(arr, obj, axis=None):
    a = asarray(arr)
    if axis is None:
        a, axis = a.ravel(), 0
    axis = _axis_index(axis, a.ndim)
    n = a.shape[axis]
    keep = [True] * n
    for i in _positions(obj, n):
        if i < -n or i >= n:
            raise IndexError('index ' + str(i) + ' is out of bounds for axis ' + str(axis) + ' with size ' + str(n))
        keep[i] = False
    return take(a, [i for i in range(n) if keep[i]], axis=axis)


def insert(arr, obj, values, axis=None):
    # values go in before the elements obj names (NumPy's order for several: by index,
    # stable), broadcast to the inserted block
    a = asarray(arr)
    if axis is None:
        a, axis = a.ravel(), 0
    axis = _axis_index(axis, a.ndim)
    n = a.shape[axis]
    scalar = isinstance(obj, (int, integer))
    where = [int(obj)] if scalar else _positions(obj, n + 1)
    where = [i + n if i < 0 else i for i in where]
    for i in where:
        if i < 0 or i > n:
            raise IndexError('index ' + str(i) + ' is out of bounds for axis ' + str(axis) + ' with size ' + str(n))
    v = array(values, ndmin=a.ndim, dtype=a.dtype)
    shape = list(a.shape)
    if scalar:
        v = moveaxis(v, 0, axis)
        shape[axis] = v.shape[axis]
        blocks = [broadcast_to(v, tuple(shape))]
    else:
        shape[axis] = len(where)
        vb = broadcast_to(v, tuple(shape))
        blocks = [take(vb, [k], axis=axis) for k in range(len(where))]
    pieces, at = [], 0
    for k in sorted(range(len(where)), key=lambda k: where[k]):
        i = where[k]
        pieces.append(take(a, list(range(at, i)), axis=axis))
        pieces.append(blocks[0] if scalar else blocks[k])
        at = i
    pieces.append(take(a, list(range(at, n)), axis=axis))
    return concatenate(pieces, axis=axis)


def resize(a, new_shape):
    a = asarray(a)
    shape = (int(new_shape),) if isinstance(new_shape, (int, integer)) else tuple(int(s) for s in new_shape)
    total = 1
    for s in shape:
        total *= s
    flat = a.ravel()
    if flat.size == 0 or total == 0:
        return zeros(shape, dtype=a.dtype)
    reps = -(-total // flat.size)
    return concatenate([flat] * reps)[:total].reshape(shape)


def ediff1d(ary, to_end=None, to_begin=None):
    d = diff(ravel(ary))
    parts = ([ravel(to_begin)] if to_begin is not None else []) + [d] + ([ravel(to_end)] if to_end is not None else [])
    return concatenate(parts) if len(parts) > 1 else d


_diff_plain = diff


def diff(a, n=1, axis=-1, prepend=None, append=None):
    # prepend/append (a scalar or an array) joined along axis before differencing, as NumPy
    if prepend is None and append is None:
        return _diff_plain(a, n, axis)
    a = asarray(a)
    ax = _axis_index(axis, a.ndim)

    def edge(extra):
        e = asarray(extra)
        if e.ndim == 0:
            shape = list(a.shape)
            shape[ax] = 1
            e = broadcast_to(e, tuple(shape))
        return e
    parts = ([edge(prepend)] if prepend is not None else []) + [a] + ([edge(append)] if append is not None else [])
    return _diff_plain(concatenate(parts, axis=ax), n, ax)


_sort_plain = sort


def sort(a, axis=-1, kind=None, order=None):
    # every kind gives the same values (NumPy's sorts differ only in the order of equal ones)
    return _sort_plain(a, axis)


def _lognormal(self, mean=0.0, sigma=1.0, size=None):
    # NumPy's: exp of a normal draw (legacy: RandomState's gauss; Generator: its ziggurat)
    return exp(self.normal(mean, sigma, size))


RandomState.lognormal = _lognormal
Generator.lognormal = _lognormal
