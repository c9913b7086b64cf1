# NumPy's scalar types as real scripts meet them: types and reprs of a[0], a.sum(),
# np.float32(1.5); arithmetic and promotion with Python numbers, other scalars and
# arrays; isinstance (np.float64 is a float, np.int64 is not an int); .item(), .dtype;
# float()/int()/format specs/% formatting; as indices and sizes; in torch.tensor
# and with tensors; the abstract types (np.floating, np.integer) and np.issubdtype.
import json
import math
import numpy as np
import torch

a = np.arange(3)
f = np.array([0.5, 1.5, 2.5])
g = np.array([0.5, 1.5], dtype=np.float32)
vals = [np.float64(1.5), np.float32(0.1), np.float16(0.1), np.int64(3), np.int32(-3), np.int16(7), np.int8(-8),
        np.uint8(200), np.uint16(65535), np.uint32(7), np.bool_(True), a.sum(), a.mean(), a[0], f[1], g[0],
        g.sum(), f.max(), a.argmax(), (a > 1).any(), np.float64('2.25'), np.int64('12')]
for v in vals:
    print(type(v), repr(v), str(v), v.dtype, v.item(), type(v.item()).__name__, v.shape, v.ndim, v.itemsize)
print([np.float64(1.5), np.float32(0.1), np.int64(3)], (np.float32(1 / 3),), {'k': np.float64(0.25)})
print(isinstance(np.float64(1), float), isinstance(np.int64(1), int), isinstance(np.float32(1), float),
      isinstance(np.bool_(True), bool), isinstance(np.float64(1), np.floating), isinstance(np.int32(1), np.integer),
      isinstance(np.uint8(1), np.signedinteger), isinstance(np.uint8(1), np.unsignedinteger),
      isinstance(a[0], np.number), isinstance(f[0], np.generic), isinstance(1.5, np.floating))
print(np.float64.__mro__)
print(np.int64.__mro__)
print(np.float32.__mro__, np.bool_.__mro__)
print(np.float64, np.dtype('float32').type, np.dtype(np.uint8).type is np.uint8, np.float32 == np.dtype('float32'),
      np.dtype('float32') == np.float32, a.dtype == np.int64, a.dtype.type, np.float64.__name__)
# arithmetic and promotion
x32, x64, i64, i32, u8 = np.float32(1.5), np.float64(1.5), np.int64(3), np.int32(3), np.uint8(200)
for r in [x32 + 1, x32 + 1.5, x32 * 2, 1 + x32, 2.5 * x32, x32 + x64, x32 + x32, x64 + 1, 1 + x64, x64 * x64,
          x64 / 2, 1 / x64, i64 + 1, i64 + 1.5, 1 - i64, i64 / 2, i64 // 2, i64 % 2, i64 ** 2, 2 ** i64, -i64,
          abs(np.int64(-4)), i32 + 1, i32 + i32, i32 * np.int16(2), u8 + 100, u8 + u8, u8 * np.int8(2),
          np.int8(100) * np.int8(2), -np.float32(2), x64 ** 2, np.float16(0.5) + np.float16(0.25), i64 & 1,
          np.bool_(True) + 1, np.bool_(True) & np.bool_(False), x32 > 1, x64 == 1.5, i64 != 3, round(x64, 1)]:
    print(type(r).__name__, repr(r))
print(repr(g + np.float64(1.5)), repr(g * x32), repr(a + i32), repr(a + np.int8(1)), repr(f + x32),
      repr(np.array([1, 2], dtype=np.int8) + u8), repr(np.array([1, 2], dtype=np.int8) + np.uint8(1)),
      repr(i64 * a), repr(x32 * g), repr(np.array(2.0, dtype=np.float32) + i64))
print(round(np.float64(2.5)), round(np.float32(3.5)), type(round(x64)).__name__, type(round(x64, 1)).__name__,
      math.floor(x64), math.sqrt(np.float32(2)), math.isclose(x64, 1.5), max(np.float64(2), 1), sum(f), type(sum(f)))
# conversions and formatting
print(float(np.float32(0.1)), int(np.float64(2.9)), int(np.int64(7)), bool(np.float64(0)), bool(np.int8(-1)),
      f'{np.float32(0.1):.3f}', f'{np.float64(2.5)}', f'{np.int64(5):4d}|', '{:.2e}'.format(np.float64(12345.6)),
      '%d' % np.int64(5), '%.2f' % np.float32(1.5), '%s' % np.float32(0.1), '%r' % np.float64(0.5), format(i64),
      str(np.float32(1 / 3)), hash(np.float64(1.5)) == hash(1.5), hash(np.int64(3)) == hash(3),
      {np.int64(3): 'x'}[3], {3: 'y'}[np.int64(3)], np.int64(3) == 3, np.float64(0.1) + 0.2 == 0.30000000000000004)
print(np.float64(1.5).is_integer(), np.float32(2).is_integer(), np.int64(2).is_integer(), x64.real,
      np.float64(1.5).hex() if hasattr(np.float64, 'hex') else '', np.float64(3.0).as_integer_ratio())
# as indices and sizes
lst = [10, 20, 30, 40]
print(lst[np.int64(1)], lst[np.int32(-1)], lst[np.int64(1):np.int64(3)], list(range(np.int64(3))), 'ab' * np.int64(2),
      [0] * np.int8(2), torch.zeros(np.int64(2)), torch.arange(5)[np.int64(2)], torch.arange(5)[np.int32(1):],
      torch.randn(np.int64(2), 3).shape, np.zeros(np.int64(2)), np.arange(np.int64(3)), a[np.int64(1)],
      torch.nn.Linear(np.int64(2), 3).in_features, f[a.argmax()])
# with torch
for v in [np.float64(1.5), np.float32(1.5), np.int64(3), np.int32(3), np.uint8(3), np.float16(1.5), a.sum(), f.mean()]:
    print(torch.tensor(v), torch.tensor([v, v]), torch.as_tensor(v).dtype, torch.ones(2) * v, v * torch.ones(2),
          torch.full((2,), v).dtype, torch.tensor(v).item())
print(torch.tensor(np.True_), torch.tensor([np.True_, np.False_]), torch.ones(2) * np.True_)
print(torch.tensor([np.float64(1.5), 2.0]), torch.tensor([[f.max()], [f.min()]]), torch.tensor([a.sum(), 1]))
print(np.array([np.float32(1), np.float32(2)]).dtype, np.array([np.float64(1), 2]).dtype,
      np.array([np.int32(1), np.int32(2)]).dtype, np.array([np.int8(1), 2]).dtype, np.array([x64, x32]).dtype)
try:
    torch.from_numpy(np.float64(1.5))
except TypeError as err:
    print('TypeError:', err)
# abstract types and issubdtype
print(np.issubdtype(f.dtype, np.floating), np.issubdtype(a.dtype, np.floating), np.issubdtype(a.dtype, np.integer),
      np.issubdtype(np.float32, np.number), np.issubdtype(np.uint8, np.signedinteger), np.issubdtype(float, np.floating),
      np.issubdtype(np.int32, np.int32), np.isscalar(np.float64(1)), np.isscalar(a), np.isscalar(3))
print(np.True_, np.False_, type(np.True_), np.True_ == True, repr(np.float64(1e16)), repr(np.float64(1e-5)),
      repr(np.float32(1e-5)), repr(np.float64(float('nan'))), repr(np.float32(-float('inf'))), repr(np.int64(2**62)),
      repr(np.float64(-0.0)), repr(np.float32(123456789.0)), repr(np.float16(65504)))
# what each function gives for one value: a NumPy scalar or a Python number, as NumPy 1.24
np.random.seed(0)
r = np.random.default_rng(0)
for e in ['r.integers(5)','r.random()','r.normal()','r.poisson(3)','r.binomial(5,.5)','r.choice([1,2,3])','r.choice(3)','r.uniform()','r.exponential()','r.standard_normal()','r.gamma(2.)','r.permutation(3)[0]',
'np.random.randint(5)','np.random.rand()','np.random.randn()','np.random.choice([1,2,3])','np.random.choice(3)','np.random.normal()','np.random.uniform()','np.random.random()','np.random.RandomState(0).randint(3)',
'np.linalg.norm(np.ones(3))','np.count_nonzero(np.ones(3))','np.ones(3).argmax()','np.ones(3).any()','np.array_equal([1],[1])','np.allclose([1],[1])','np.median(np.ones(3))','np.percentile(np.ones(3),50)','np.ptp(np.ones(3))','np.dot(np.ones(3),np.ones(3))','np.inner(np.ones(3),np.ones(3))','len(np.ones(3))','np.ones(3).tolist()[0]','np.isclose(1.,1.)','np.mean([1,2])','np.sum([1,2])','np.max([1,2])','np.ones((2,2)).shape[0]','np.ones(3).size','np.ones(3)[0]*2','np.prod([2,3])','np.std([1,2])','np.exp(1.0)','np.sqrt(4)','np.log(np.float32(2))','np.abs(-1)','np.round(1.234,1)','np.clip(5,0,3)','np.where(np.array([1,0]))[0][0]','np.unique([1,2])[0]','np.argmax([1,3])','np.float64(2)*np.ones(2)', 'np.var([1.,2.])', 'np.cumsum([1,2])[1]', 'np.float32(2)**2', 'np.array([1,2]).mean()', 'np.array([[1,2]]).sum(axis=1)[0]', 'np.sin(0.5)', 'np.maximum(1, 2.5)', 'np.floor(2.5)', 'np.trace(np.eye(2))' ]:
    try:
        v=eval(e); print(e, type(v).__name__)
    except Exception as ex: print(e, 'ERR', type(ex).__name__, ex)
# a tensor element takes NumPy's integers and float64, not float32/float16/bool_ (PyTorch's TypeError)
t = torch.zeros(3)
t[np.int64(1)] = np.int64(2)
t[np.int32(2)] = np.float64(2.5)
print(t)
for v in [np.float32(1), np.float16(1), np.bool_(True)]:
    try:
        t[0] = v
    except TypeError as err:
        print('TypeError:', err)
a = np.zeros(3)
a[np.int32(0)] = np.float32(1.5)
print(a, json.dumps(np.float64(2.5)))
