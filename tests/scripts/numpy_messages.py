# NumPy's types name themselves as its C types do in CPython's messages ('numpy.float64'
# object is not callable, list indices ... not numpy.float64); json.dumps refuses the
# scalar types that do not derive from int or float (np.int64, np.float32), as CPython's.
import json
import numpy as np
import torch

for f in [lambda: json.dumps(np.int64(3)), lambda: json.dumps({'a': np.float32(1.5)}), lambda: json.dumps([np.bool_(True)]),
          lambda: np.float64(1)(), lambda: np.array([1, 2])(), lambda: [1, 2][np.float64(1)], lambda: [1, 2][np.float32(1)],
          lambda: range(np.float32(3)), lambda: len(np.float32(2)), lambda: torch.from_numpy(np.float64(1.5)),
          lambda: torch.from_numpy(np.int32(1))]:
    try:
        print(f())
    except TypeError as e:
        print('TypeError:', e)
print(json.dumps(np.float64(1.5)), json.dumps({'n': int(np.int64(3)), 'x': float(np.float32(0.5))}), [1, 2][np.int64(1)],
      list(range(np.int32(3))))
print(json.dumps({'loss': np.float64(0.25)}, default=lambda o: o.item()), json.dumps([np.int64(7)], default=int))
