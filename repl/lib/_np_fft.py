# numpy.fft, written in the language: it runs inside the module numpy (repl/mod_numpy.c)
# after mod_numpy_*_src.c, over their names. As NumPy 1.24's pocketfft, every transform
# computes in double precision (float32 and int arrays too) and gives complex128 (the
# real-output ones float64); the multi-axis ones are 1-D transforms axis by axis in
# NumPy's order. The 1-D transforms are torch.fft's (core/fft.c: a direct sum in double
# with exact quarter turns), so a result can differ from pocketfft's in its last bits.


def _fft_operand(a, cplx):
    # a's tensor in double precision: complex128 when cplx or a is complex, else float64 (as
    # NumPy, a real signal's fft is the complex transform, not the real one mirrored)
    a = asarray(a)
    if a._t.dtype.is_complex:
        return a._t.to(torch.complex128)
    t = _as_dtype(a._t, a._u, 'float64')[0]
    return t.to(torch.complex128) if cplx else t


def _fft_norm(norm):
    if norm is None:
        return 'backward'
    if norm not in ('backward', 'ortho', 'forward'):
        raise ValueError('Invalid norm value ' + str(norm) + '; should be "backward","ortho" or "forward".')
    return norm


def _fft_axis(t, axis):
    nd = t.dim()
    if axis < -nd or axis >= nd:
        raise AxisError('axis ' + str(axis) + ' is out of bounds for array of dimension ' + str(nd))
    return axis % nd


def _fft_1d(fn, a, n, axis, norm, default_n=None):
    t = _fft_operand(a, fn is not torch.fft.rfft)
    norm = _fft_norm(norm)
    if n is None:  # (as NumPy reads it before it checks the axis: an IndexError past the axes)
        n = tuple(t.shape)[axis] if default_n is None else default_n(tuple(t.shape)[axis])
    axis = _fft_axis(t, axis)
    n = int(n)
    if n < 1:
        raise ValueError('Invalid number of FFT data points (' + str(n) + ') specified.')
    return _result(fn(t, n=n, dim=axis, norm=norm))


def _fft_fft(a, n=None, axis=-1, norm=None):
    return _fft_1d(torch.fft.fft, a, n, axis, norm)


def _fft_ifft(a, n=None, axis=-1, norm=None):
    return _fft_1d(torch.fft.ifft, a, n, axis, norm)


def _fft_rfft(a, n=None, axis=-1, norm=None):
    a = asarray(a)
    if a._t.dtype.is_complex:
        a = real(a)  # (NumPy's ComplexWarning aside: the imaginary parts are dropped)
    return _fft_1d(torch.fft.rfft, a, n, axis, norm)


def _fft_irfft(a, n=None, axis=-1, norm=None):
    return _fft_1d(torch.fft.irfft, a, n, axis, norm, lambda m: 2 * (m - 1))


_SWAPPED_NORM = {None: 'forward', 'backward': 'forward', 'ortho': 'ortho', 'forward': 'backward'}


def _swapped_norm(norm):
    _fft_norm(norm)
    return _SWAPPED_NORM[norm]


def _fft_hfft(a, n=None, axis=-1, norm=None):
    # a Hermitian-symmetric signal's real spectrum: irfft of the conjugate, the norm swapped
    return _fft_irfft(conj(asarray(a)), n if n is not None else 2 * (asarray(a).shape[axis] - 1), axis,
                      _swapped_norm(norm))


def _fft_ihfft(a, n=None, axis=-1, norm=None):
    return conj(_fft_rfft(a, n, axis, _swapped_norm(norm)))


def _fft_shape_axes(a, s, axes):
    # NumPy's _cook_nd_args: the lengths and axes of a multi-axis transform
    shape = asarray(a).shape
    if s is None:
        if axes is None:
            axes = list(range(-len(shape), 0))
        else:
            axes = list(axes)
        s = [shape[ax] for ax in axes]
    else:
        s = list(s)
        if axes is None:
            axes = list(range(-len(s), 0))
        else:
            axes = list(axes)
        if len(s) != len(axes):
            raise ValueError('Shape and axes have different lengths.')
    return s, axes


def _fft_nd(one, a, s, axes, norm):
    s, axes = _fft_shape_axes(a, s, axes)
    r = asarray(a)
    for i in range(len(axes) - 1, -1, -1):  # the last axis first, as NumPy's _raw_fftnd
        r = one(r, s[i], axes[i], norm)
    return r


def _fft_fftn(a, s=None, axes=None, norm=None):
    return _fft_nd(_fft_fft, a, s, axes, norm)


def _fft_ifftn(a, s=None, axes=None, norm=None):
    return _fft_nd(_fft_ifft, a, s, axes, norm)


def _fft_fft2(a, s=None, axes=(-2, -1), norm=None):
    return _fft_nd(_fft_fft, a, s, axes, norm)


def _fft_ifft2(a, s=None, axes=(-2, -1), norm=None):
    return _fft_nd(_fft_ifft, a, s, axes, norm)


def _fft_rfftn(a, s=None, axes=None, norm=None):
    s, axes = _fft_shape_axes(a, s, axes)
    r = _fft_rfft(a, s[-1], axes[-1], norm)
    for i in range(len(axes) - 2, -1, -1):
        r = _fft_fft(r, s[i], axes[i], norm)
    return r


def _fft_irfftn(a, s=None, axes=None, norm=None):
    a = asarray(a)
    s, axes = _fft_shape_axes(a, s, axes)
    if s == [a.shape[ax] for ax in axes]:  # no s given: the last axis's length from its half spectrum
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    r = a
    for i in range(len(axes) - 1):
        r = _fft_ifft(r, s[i], axes[i], norm)
    return _fft_irfft(r, s[-1], axes[-1], norm)


def _fft_rfft2(a, s=None, axes=(-2, -1), norm=None):
    return _fft_rfftn(a, s, axes, norm)


def _fft_irfft2(a, s=None, axes=(-2, -1), norm=None):
    return _fft_irfftn(a, s, axes, norm)


def _fft_fftfreq(n, d=1.0):
    if not isinstance(n, (int, integer)):
        raise ValueError('n should be an integer')
    val = 1.0 / (n * d)
    half = (n - 1) // 2 + 1
    k = concatenate([arange(0, half, dtype=int), arange(-(n // 2), 0, dtype=int)])
    return k * val


def _fft_rfftfreq(n, d=1.0):
    if not isinstance(n, (int, integer)):
        raise ValueError('n should be an integer')
    val = 1.0 / (n * d)
    return arange(0, n // 2 + 1, dtype=int) * val


def _fft_shifts(x, axes, sign):
    x = asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (dim // 2) for dim in x.shape]
    elif isinstance(axes, (int, integer)):
        shift = sign * (x.shape[axes] // 2)
    else:
        shift = [sign * (x.shape[ax] // 2) for ax in axes]
    return roll(x, shift, axes)


def _fft_fftshift(x, axes=None):
    return _fft_shifts(x, axes, 1)


def _fft_ifftshift(x, axes=None):
    return _fft_shifts(x, axes, -1)


class _FftModule:
    def __repr__(self):
        return "<module 'numpy.fft'>"


for _f in (_fft_fft, _fft_ifft, _fft_rfft, _fft_irfft, _fft_hfft, _fft_ihfft, _fft_fftn, _fft_ifftn, _fft_fft2,
           _fft_ifft2, _fft_rfftn, _fft_irfftn, _fft_rfft2, _fft_irfft2, _fft_fftfreq, _fft_rfftfreq, _fft_fftshift,
           _fft_ifftshift):
    _f.__name__ = _f.__name__[5:]
    setattr(_FftModule, _f.__name__, staticmethod(_f))
fft = _FftModule()
