# np.savez / np.savez_compressed and np.load of an .npz, as a data-preparation script saves
# its splits: names from keywords (arr_0, arr_1, ... for the others), '.npz' appended, the
# archive read lazily (files, keys, in, iteration, with), members of every dtype back as
# saved; a member that is not an array comes back as bytes; zipfile reads it too.
import numpy as np
import zipfile

rng = np.random.default_rng(1)
X = rng.standard_normal((4, 3)).astype(np.float32)
y = np.array([0, 2, 1, 1])
with open('npz_splits.tmp', 'wb') as f:  # a file object: no '.npz' appended (the tests' files end in .tmp)
    np.savez(f, X, y, mean=X.mean(axis=0), names=np.arange(3, dtype=np.uint8))
d = np.load('npz_splits.tmp')
print(sorted(d.files), len(d), 'mean' in d, 'nope' in d, sorted(list(d)))
print(d['arr_0'], d['arr_1'], d['mean'], d['names'], d['arr_0'].dtype, d['names'].dtype)
print(np.array_equal(d['arr_0'], X), d['arr_1.npy'])
d.close()
with np.load('npz_splits.tmp') as data:
    train = {k: data[k] for k in data.files}
print(sorted(train), train['mean'].shape)

with open('npz_comp.tmp', 'wb') as f:
    np.savez_compressed(f, a=np.zeros(1000), b=np.arange(10, dtype=np.int16), c=np.array([True, False]),
                        e=np.float16([1.5, -2]), s=np.array(3.25))
with np.load('npz_comp.tmp') as z:
    print(sorted(z.files), z['a'].sum(), z['a'].shape, z['b'], z['c'], z['e'], z['s'], z['s'].shape)
    try:
        z['missing']
    except KeyError as err:
        print('KeyError', err)
with zipfile.ZipFile('npz_comp.tmp') as zf:
    print(sorted(zf.namelist()), zf.getinfo('a.npy').compress_type, zf.getinfo('a.npy').file_size,
          zf.getinfo('a.npy').compress_size < 200)
with zipfile.ZipFile('npz_splits.tmp') as zf:
    print(zf.getinfo('mean.npy').compress_type, zf.read('names.npy')[:8], len(zf.read('names.npy')))
with zipfile.ZipFile('npz_raw.tmp', 'w') as zf:
    zf.writestr('x.npy', b'')
    zf.writestr('notes.txt', 'hello')
print(np.load('npz_raw.tmp')['notes.txt'], np.load('npz_raw.tmp').files)
try:
    np.savez('npz_bad.tmp.npz', np.ones(2), arr_0=np.zeros(2))
except ValueError as err:
    print('ValueError', err)
for name in ['../fixtures/numpy_made.npz', '../fixtures/numpy_made_compressed.npz']:  # made by NumPy itself
    with np.load(name) as z:
        print(sorted(z.files), [(k, z[k].dtype.name, z[k].shape) for k in sorted(z.files)])
        print(z['x'], z['labels'], z['mask'], z['small'], z.get('arr_0'))
