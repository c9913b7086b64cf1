# np.save/np.load with open files, BytesIO and pathlib.Path; allow_pickle; pickle.dump of
# NumPy arrays, dtypes and scalars in NumPy 1.24's bytes (compared with NumPy's own)
import io
import os
import pickle
import pathlib
import tempfile
import numpy as np

d = tempfile.mkdtemp()
a = np.arange(6, dtype=np.float32).reshape(2, 3)
b = np.array([[1, 2], [3, 4]], dtype=np.int64)

# open files: several arrays one after another in one file
p = os.path.join(d, 'two.npy')
with open(p, 'wb') as f:
    np.save(f, a)
    np.save(f, b)
    np.save(f, np.array([True, False]))
print(os.path.getsize(p))
with open(p, 'rb') as f:
    print(np.load(f))
    print(np.load(f))
    print(np.load(f))
    print(f.read())

# BytesIO
buf = io.BytesIO()
np.save(buf, a)
raw = buf.getvalue()
print(len(raw), raw[:10])
buf.seek(0)
r = np.load(buf)
print(r.dtype, r.shape, r)
print(buf.tell() == len(raw))

# pathlib.Path, with and without .npy
np.save(pathlib.Path(d) / 'p1', b)
print(sorted(os.listdir(d)))
print(np.load(pathlib.Path(d) / 'p1.npy'))
np.save(pathlib.Path(d) / 'p2.npy', a.T)
print(np.load(str(pathlib.Path(d) / 'p2.npy')))

# Fortran-ordered arrays: NumPy writes them in F order
for arr in (a.T, np.asfortranarray(b), np.ones((2, 3), order='F')):
    buf = io.BytesIO()
    np.save(buf, arr)
    data = buf.getvalue()
    print(data[10:80])
    print(data[128:])
    buf.seek(0)
    back = np.load(buf)
    print(back, back.flags.f_contiguous, np.array_equal(back, arr))

# savez to a BytesIO, load back
buf = io.BytesIO()
np.savez(buf, x=a, y=b)
buf.seek(0)
z = np.load(buf)
print(sorted(z.files), z['x'], z['y'])

# allow_pickle
pk = os.path.join(d, 'obj.pkl')
with open(pk, 'wb') as f:
    pickle.dump({'w': a, 'n': 3}, f)
try:
    np.load(pk)
except ValueError as e:
    print('ValueError:', e)
got = np.load(pk, allow_pickle=True)
print(sorted(got), got['w'], got['n'])
bad = os.path.join(d, 'bad.bin')
with open(bad, 'wb') as f:
    f.write(b'not a pickle at all')
try:
    np.load(bad, allow_pickle=True)
except pickle.UnpicklingError as e:
    print('UnpicklingError:', str(e).replace(d, 'D'), type(e.__cause__).__name__)
try:
    np.load(io.BytesIO(b''))
except ValueError as e:
    print('ValueError:', e)
try:
    np.load(io.BytesIO(b'\x93NUMPY\x01\x00'))
except ValueError as e:
    print('ValueError:', e)
try:
    np.load(pk, encoding='utf8')
except ValueError as e:
    print('ValueError:', e)
for bad_arg in (3, None):
    try:
        np.save(bad_arg, a)
    except TypeError as e:
        print('TypeError:', e)
    try:
        np.load(bad_arg)
    except TypeError as e:
        print('TypeError:', e)

# pickle.dumps: NumPy 1.24's bytes for every protocol
objs = [a, b, a.T, a[:, ::2], np.zeros((0, 3)), np.array(2.5), np.arange(3, dtype=np.uint8),
        np.array([1, 2], dtype=np.int16), np.array([0.5], dtype=np.float16), np.array([True]),
        np.float64(1.5), np.float32(2.5), np.int64(-7), np.int32(9), np.bool_(True), np.uint8(200),
        np.dtype('float32'), np.dtype('int64'), np.dtype('bool'), np.dtype('uint8'),
        [a, np.float32(1)], {'m': np.arange(3)}, [np.arange(2), np.arange(3.0), np.arange(4)]]
for proto in range(2, 6):
    for o in objs:
        s = pickle.dumps(o, protocol=proto) if proto < 5 else pickle.dumps(o)
        back = pickle.loads(s)
        print(proto, s)
        print(repr(back))

# pickle.dump into a file and pickle.load from it
with open(pk, 'wb') as f:
    pickle.dump((a, np.int64(3), np.dtype('f4')), f)
with open(pk, 'rb') as f:
    t = pickle.load(f)
print(t, type(t[1]).__name__, t[0].dtype)
