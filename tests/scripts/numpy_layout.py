# ndarray.strides, .flags (and flags.writeable = False enforced), .base, np.ascontiguousarray,
# np.asfortranarray and order='F' as NumPy 1.24
import numpy as np
import torch

a = np.arange(12, dtype=np.float32).reshape(3, 4)
print(a.strides, a.T.strides, a[:, ::2].strides, a[1].strides)
for dt in (np.float64, np.int32, np.int16, np.uint8, np.bool_, np.float16):
    print(np.zeros((2, 3, 4), dtype=dt).strides)
print(np.array(3.0).strides, np.zeros(5).strides)
print(a.flags)
print(a.T.flags)
print(np.zeros((2, 3)).flags)
f = a.flags
print(f['C_CONTIGUOUS'], f['C'], f['F'], f['OWNDATA'], f['W'], f.c_contiguous, f.f_contiguous, f.owndata)
print(f.writeable, f.aligned, f.writebackifcopy, f.fnc, f.forc, f.behaved, f.carray, f.farray)
print(a.T.flags.fnc, a.T.flags.farray, a[:, 1:].flags.forc)
try:
    f['BOGUS']
except KeyError as e:
    print('KeyError', e)
try:
    f['WRITEBACKIFCOPY'] = True
except ValueError as e:
    print('ValueError', e)

# base and owndata
z = np.zeros((2, 3))
print(z.base is None, z[0].base is z, z.T.base is z, z[1:][1:].base is z, z[[0, 1]].base is None)
print(z.reshape(6).base is z, z.copy().base is None, z.ravel().base is z, z.flatten().base is None)

# contiguity of views and copies
print(a[:, 1:].flags.c_contiguous, a[1:].flags.c_contiguous, a[:, :1].flags.f_contiguous)
b = np.ascontiguousarray(a.T)
print(b.flags.c_contiguous, b.strides, b)
print(np.ascontiguousarray(a) is a, np.ascontiguousarray(5.0).shape, np.ascontiguousarray([1, 2], dtype=np.float32))
c = np.asfortranarray(a)
print(c.flags.f_contiguous, c.flags.c_contiguous, c.strides, np.array_equal(c, a))
print(np.asfortranarray(a.T) is not None, np.asfortranarray(a.T).strides)

# order='F'
print(np.zeros((2, 3), order='F').strides, np.ones((2, 3), dtype=np.int32, order='F').strides)
print(np.full((2, 3), 7, order='F').strides, np.empty((4, 2), order='F').flags.f_contiguous)
print(np.array([[1, 2, 3], [4, 5, 6]], order='F').strides)
print(a.reshape(4, 3, order='F'))
print(a.reshape((2, 6), order='F'))
print(np.reshape(a, (6, 2), order='F'))
print(a.ravel(order='F'), np.ravel(a, order='F'), a.flatten('F'))
print(a.copy(order='F').strides, np.copy(a.T).strides, np.copy(a.T, order='C').strides)
print(np.asarray(a, order='F').strides, np.asarray(a.T, order='C').strides)

# torch.from_numpy of Fortran-ordered and strided arrays
t = torch.from_numpy(np.asfortranarray(a))
print(t, t.stride())
print(torch.from_numpy(a.T).stride(), torch.from_numpy(a[:, ::2]).stride())
print(torch.from_numpy(np.zeros((2, 3), order='F')).is_contiguous())

# flags.writeable = False
r = np.arange(6.0)
r.flags.writeable = False
print(r.flags.writeable, r.flags['WRITEABLE'])
for stmt in ('r[0] = 5', 'r += 1', 'r[1:3] = 0', 'r.fill(2)', 'r *= 2'):
    try:
        exec(stmt)
    except ValueError as e:
        print(stmt, '->', e)
print(r)
v = r[2:]
print(v.flags.writeable)
try:
    v.flags.writeable = True
except ValueError as e:
    print('ValueError', e)
try:
    v[0] = 1
except ValueError as e:
    print('ValueError', e)
r.flags.writeable = True
r[0] = 10
print(r)
r.setflags(write=False)
print(r.flags.writeable)
try:
    r[0] = 1
except ValueError as e:
    print('ValueError', e)
r.setflags(write=True)
r[0] = 1
print(r, (r + 1).flags.writeable, r.copy().flags.writeable)
q = np.zeros(3)
q.flags['WRITEABLE'] = False
try:
    q[0] = 1
except ValueError as e:
    print('ValueError', e)
print(type(q.flags).__name__)
