# NumPy 1.24's smoothing and fitting helpers as training scripts use them on loss curves and
# metrics: convolve (a moving average, 'valid'/'same'/'full'; BLAS dot products at the edges
# and NumPy's in-order sums for kernels up to 11), polyfit/polyval (a trend line), vander,
# trapz (an area under a curve), geomspace (a learning-rate grid), logaddexp, hanning/hamming.
import numpy as np

rng = np.random.default_rng(7)
losses = np.exp(-np.linspace(0, 3, 40)) + 0.05 * rng.standard_normal(40)
k = 5
print(np.convolve(losses, np.ones(k) / k, mode='valid'))
print(np.convolve(losses, np.ones(k) / k, mode='same')[:6], np.convolve(losses, np.ones(k) / k)[-6:])
print(np.convolve([1, 2, 3], [0, 1, 0.5]), np.convolve([1, 2, 3, 4], np.ones(2) / 2, mode='valid'), np.convolve([1, 2], [1, 2, 3, 4, 5]))
print(np.convolve(losses, np.hanning(15) / np.hanning(15).sum(), mode='valid')[:5], np.hanning(5), np.hamming(4), np.hanning(1))
print(np.convolve(losses.astype(np.float32), np.ones(3, dtype=np.float32) / 3, mode='valid')[:6], np.convolve(losses, np.ones(20) / 20, 'valid'))
print(np.convolve([1, 2, 3], [4, 5]), np.convolve(np.arange(5), np.arange(13), 'same'))
x = np.arange(10.0)
y = 3.0 * x - 2.0 + 0.1 * rng.standard_normal(10)
p = np.polyfit(x, y, 1)
print(p, np.polyval(p, 2.5), np.polyval(p, x[:3]), np.polyfit(x, x ** 2 - x, 2), np.polyval([1, 2, 3], 2))
print(np.polyfit(x.astype(np.float32), y.astype(np.float32), 2), np.polyfit([0, 1, 2, 3], [1, 3, 5, 7.1], 1))
print(np.vander([1, 2, 3]), np.vander(np.array([0.5, 2.0]), 4, increasing=True), np.vander(np.float32([1.5, 2]), 3).dtype)
print(np.trapz([1, 2, 3]), np.trapz(losses, dx=0.1), np.trapz(y, x), np.trapz(np.arange(6.0).reshape(2, 3), axis=0))
print(np.geomspace(1, 1000, 4), np.geomspace(1e-5, 1e-1, 5), np.geomspace(-1, -100, 3), np.geomspace(2, 64, 6, endpoint=False))
print(np.logaddexp(1.0, 2.0), np.logaddexp(np.array([-1.0, 0.0, 50.0]), np.array([-1.0, 3.0, -50.0])), np.logaddexp(-np.inf, 1.0))
for bad in ['np.convolve([], [1])', "np.convolve([1, 2], [1], mode='x')", 'np.geomspace(0, 1)', 'np.polyfit([1, 2], [1, 2, 3], 1)']:
    try:
        eval(bad)
    except (ValueError, TypeError) as e:
        print(bad, '->', type(e).__name__, e)
