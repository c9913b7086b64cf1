# np.exp of float32 arrays as NumPy 1.24 computes it on an AVX2 CPU (its own SIMD loop, not
# libm's expf: a last digit differs for some inputs), so a float32 softmax or sigmoid prints
# NumPy's digits; checked over a million values by their bytes' SHA-256.
import hashlib
import numpy as np

x = np.array([0.1257, -0.1321, 0.6403, 0.1049, -0.5358, 0.3616, -83.51909, 52.332611, 88.7, -104.0, 0.0], dtype=np.float32)
print(np.exp(x), np.exp(x[:4]).dtype)
logits = np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32)
e = np.exp(logits - logits.max(axis=1, keepdims=True))
print(e / e.sum(axis=1, keepdims=True), 1 / (1 + np.exp(-logits[0])))
print(np.exp(np.array([np.nan, np.inf, -np.inf, 88.72283935546875, -103.97208404541015625, -87.5, -100.0], dtype=np.float32)))
many = np.linspace(-110, 95, 1000001, dtype=np.float32)
with np.errstate(over='ignore', under='ignore'):
    print(hashlib.sha256(np.exp(many).tobytes()).hexdigest())
print(hashlib.sha256(np.exp(np.random.default_rng(1).standard_normal(200000).astype(np.float32) * 10).tobytes()).hexdigest())
print(np.exp(np.arange(3, dtype=np.int16)), np.exp(np.float16([1.5, -2])))
# scientific notation: digits past an element's shortest ones are its exact value's (NumPy's min_digits)
print(np.array([1e-44, 1.234567e-3], dtype=np.float32), np.array([3.3259771e+38, 1.5, 2.25e-7], dtype=np.float32))
print(np.array([1e-5, 1.23456789e-5]), np.array([0.1, 1e-9], dtype=np.float32), np.float16([1e-7, 3.5, 6e4]))
