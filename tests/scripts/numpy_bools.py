# Boolean arrays through argmax/argmin (the first index where a condition holds), abs,
# square and power (int8 in NumPy), as NumPy 1.24 gives them.
import numpy as np

x = np.array([0.2, 0.7, 0.1, 0.9, 0.4])
m = x > 0.5
print(np.argmax(m), m.argmax(), np.argmin(m), np.argmax(np.zeros(3, dtype=bool)), np.argmax(m.reshape(1, 5), axis=1))
print(repr(np.abs(m)), repr(np.square(m)), repr(m ** 2), repr(np.power(m, 2)))
