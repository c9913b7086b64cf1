# NumPy's float64/int64/bool_ scalars (what a.mean(), a.argmax(), a[0] give) in torch.save
# and torch.load, pickled as NumPy pickles them (numpy.core.multiarray.scalar), through an
# io.BytesIO; the loaded values keep their NumPy types.
import io
import numpy as np
import torch

a = np.array([3.0, 9.5, 1.25])
d = {'f64': np.float64(1.5), 'i64': np.int64(7), 'b': np.bool_(True), 'f32': np.float32(0.25),
     'mean': a.mean(), 'argmax': a.argmax(), 'first': a[0], 'any': (a > 5).any(),
     'list': [np.int64(1), np.float64(2.0)], 'py': (1.5, 7, True)}
buf = io.BytesIO()
torch.save(d, buf)
buf.seek(0)
back = torch.load(buf)
for k, v in back.items():
    print(k, repr(v), type(v).__name__)
print(back['mean'] + 1, back['i64'] * 2, type(back['i64'] * 2).__name__)
