# np.fft and the complex128 arrays it returns: printing (NumPy's complex format: real and
# imaginary parts each formatted as a float array, the j before the padding), real/imag/
# conj/abs/angle, arithmetic, and every transform with n=, axis=/axes=, norm=.
# Where the direct sums of core/fft.c and pocketfft may differ in a last bit (a signal that
# is not made of quarter turns), the results are rounded to 8 decimals (+ 0.0 turns a tiny
# negative into 0.) or compared with np.allclose; the others print exactly.
import numpy as np

z = np.array([1 + 2j, 3 - 1j, -0.5j])
print(z, z.dtype, repr(z))
print(z.real, z.imag, z.conj(), np.abs(z), np.angle(z), np.angle(z, deg=True))
print(z * 2, z + 1, z * z, z / (1 + 1j), z - np.array([1.0, 2.0, 3.0]))
print(z[0], repr(z[1]), type(z[0]).__name__, z.tolist(), z.sum() if hasattr(z, 'sum') else None)
print(np.array([1, 2], dtype=complex), np.zeros(2, dtype=np.complex64), np.array([1.5, 2]).astype(np.complex128))
print(np.iscomplexobj(z), np.isrealobj(z.real), np.real(z), np.imag(np.array([1.0])))
print(repr(np.array([[1.5 + 0j, 2], [3, 4 - 2.25j]])))

x = np.array([1.0, 2.0, 3.0, 4.0])
X = np.fft.fft(x)
print(X, X.dtype)
print(np.fft.ifft(X), np.fft.ifft(X).real)
print(np.fft.rfft(x), np.fft.irfft(np.fft.rfft(x)))
print(np.fft.fft(x, n=8), np.fft.fft(x, n=2))
print(np.fft.fft(x, norm='ortho'), np.fft.fft(x, norm='forward'), np.fft.ifft(X, norm='backward'))
print(np.fft.fft(np.array([1, 2, 3, 4], dtype=np.float32)).dtype, np.fft.fft([1, 0, 0, 0]))
print(np.fft.hfft(np.array([1.0, 2.0, 3.0])), np.fft.ihfft(x))

m = np.arange(8).reshape(2, 4)
print(np.fft.fft2(m))
print(np.fft.fftn(m), np.fft.fft(m, axis=0))
print(np.fft.ifft2(np.fft.fft2(m)).real)
print(np.fft.rfft2(m), np.fft.irfft2(np.fft.rfft2(m)))
print(np.fft.rfftn(m, axes=(0,)), np.fft.fftn(m, s=(2, 2)), np.fft.irfftn(np.fft.rfftn(m)))

print(np.fft.fftfreq(8), np.fft.fftfreq(5, d=0.1), np.fft.rfftfreq(8, 0.5), np.fft.rfftfreq(7))
print(np.fft.fftshift(np.fft.fftfreq(6)), np.fft.ifftshift(np.fft.fftshift(np.arange(5))))
print(np.fft.fftshift(m), np.fft.fftshift(m, axes=1), np.fft.ifftshift(m, axes=(0,)))

# a tutorial's spectrum: a 50 Hz and a 120 Hz sine sampled at 1 kHz
fs, n = 1000, 250
t = np.arange(n) / fs
sig = 0.7 * np.sin(2 * np.pi * 50 * t) + np.sin(2 * np.pi * 120 * t)
spec = np.fft.rfft(sig)
freqs = np.fft.rfftfreq(n, 1 / fs)
mag = np.abs(spec) / n * 2
top = np.argsort(mag)[-2:]
print(freqs[top], np.round(mag[top], 8) + 0.0, spec.shape, freqs.shape)
print(np.allclose(np.fft.irfft(spec, n), sig), np.allclose(np.fft.ifft(np.fft.fft(sig)).real, sig))
print(np.round(np.fft.fft(np.arange(6.0)).real, 8) + 0.0, np.round(np.fft.fft(np.arange(6.0)).imag, 8) + 0.0)
low = np.fft.rfft(sig)
low[freqs > 80] = 0
print(np.round(np.fft.irfft(low, n)[:5], 8) + 0.0)

for bad in (lambda: np.fft.fft(x, norm='bogus'), lambda: np.fft.fft(x, n=0), lambda: np.fft.fft(x, axis=1),
            lambda: np.fft.fftfreq(4.0)):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)

import torch
T = torch.from_numpy(X)
print(T, T.dtype, torch.fft.fft(torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)).numpy())
print(np.fft.fft(torch.tensor([1.0, 0.0, -1.0, 0.0])), repr(np.fft)[:18])
