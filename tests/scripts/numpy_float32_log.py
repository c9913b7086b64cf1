# np.log of float32 arrays as NumPy 1.24 computes it on an AVX2 CPU (its own SIMD loop: a
# 5th/5th order rational function of the mantissa, not libm's logf or torch's, which differ
# in the last digit for about one input in ten), so log-probabilities, cross-entropies and
# log-likelihoods in float32 print NumPy's digits; checked over a million values by SHA-256.
import hashlib
import numpy as np

x = np.array([0.2, 0.3, 0.5, 1.0, 2.0, 0.70710677, 0.7071068, 1e-30, 3e38, 1e-45, 1.1754942e-38], dtype=np.float32)
print(np.log(x))
with np.errstate(invalid='ignore', divide='ignore'):
    print(np.log(np.array([np.nan, np.inf, -np.inf, -1.0, -0.0, 0.0], dtype=np.float32)))
probs = np.random.default_rng(0).random((4, 5)).astype(np.float32)
probs /= probs.sum(axis=1, keepdims=True)
labels = np.array([0, 3, 1, 4])
print(np.log(probs), -np.log(probs[np.arange(4), labels]).mean())
print(np.log(np.clip(probs[:, 0], 1e-7, None)), np.log(probs.T[1]))
many = np.linspace(1e-6, 50, 1000001, dtype=np.float32)
print(hashlib.sha256(np.log(many).tobytes()).hexdigest())
r = np.random.default_rng(1).random(200000).astype(np.float32)
print(hashlib.sha256(np.log(r).tobytes()).hexdigest(), hashlib.sha256(np.log(r * 1e-39).tobytes()).hexdigest())
print(np.log(np.arange(1, 4, dtype=np.int16)), np.log(np.float16([1.5, 2])), np.log(np.float32(0.3)))
