# numpy's submodules imported by name, as tutorials do: import numpy.linalg, from numpy.random
# import default_rng, from numpy.fft import fft
import numpy as np
import numpy.linalg
import numpy.linalg as LA
from numpy.random import default_rng, randn, seed
from numpy.fft import fft, fftfreq, rfft
from numpy.linalg import inv, norm
import numpy.random as npr
seed(0)
print(randn(2), np.round(LA.det(np.eye(2) * 2), 6), norm(np.array([3.0, 4.0])), inv(np.eye(2)))
rng = default_rng(42)
print(rng.random(3), npr.rand(2))
print(fft(np.array([1.0, 2.0, 3.0, 4.0])), fftfreq(4), rfft([1, 0, 0, 0]))
print(numpy.linalg.matrix_rank(np.eye(3)))
