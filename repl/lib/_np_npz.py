# numpy's .npz archives, written in the language: it runs inside the module numpy
# (repl/mod_numpy.c) after mod_numpy_*_src.c, over their names. np.savez and
# np.savez_compressed write a zip (the zipfile module) of one NAME.npy member an array,
# each the bytes np.save writes; np.load of a zip gives an NpzFile that reads a member
# when it is asked for, as NumPy 1.24's.
import os as _os
import zipfile as _zipfile

_npz_count = [0]


def _npz_temp():
    import tempfile
    _npz_count[0] += 1
    return _os.path.join(tempfile.gettempdir(), 'nnscope-npz-' + str(_os.getpid()) + '-' + str(_npz_count[0]) + '.npy')


def _npy_bytes(a):
    # the .npy file np.save writes for a, as bytes
    path = _npz_temp()
    try:
        _npy_save(path, a._t, a.dtype.name)
        with open(path, 'rb') as f:
            return f.read()
    finally:
        _os.remove(path)


def _npy_from_bytes(data):
    path = _npz_temp()
    try:
        with open(path, 'wb') as f:
            f.write(data)
        t, name, shape = _npy_load(path)
        return _wrap(t.reshape(shape), name if name in _WIDE else None)
    finally:
        _os.remove(path)


def _savez(file, args, kwds, compression):
    if isinstance(file, str) and not file.endswith('.npz'):
        file = file + '.npz'
    named = dict(kwds)
    for i, a in enumerate(args):
        key = 'arr_' + str(i)
        if key in named:
            raise ValueError('Cannot use un-named variables and keyword ' + key)
        named[key] = a
    with _zipfile.ZipFile(file, 'w', compression) as z:
        for key, a in named.items():
            z.writestr(key + '.npy', _npy_bytes(asarray(a)))


def savez(file, *args, **kwds):
    _savez(file, args, kwds, _zipfile.ZIP_STORED)


def savez_compressed(file, *args, **kwds):
    _savez(file, args, kwds, _zipfile.ZIP_DEFLATED)


class NpzFile:
    # NumPy's lazy mapping of an archive's members: 'x' reads x.npy, other members are bytes
    def __init__(self, fid):
        self.zip = _zipfile.ZipFile(fid)
        self._files = self.zip.namelist()
        self.files = [f[:-4] if f.endswith('.npy') else f for f in self._files]
        self.fid = fid

    def __getitem__(self, key):
        member = key in self._files
        if not member and key in self.files:
            member, key = True, key + '.npy'
        if not member:
            raise KeyError(str(key) + ' is not a file in the archive')
        data = self.zip.read(key)
        return _npy_from_bytes(data) if data.startswith(b'\x93NUMPY') else data

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def __contains__(self, key):
        return key in self.files or key in self._files

    def keys(self):
        return list(self.files)

    def values(self):
        return [self[k] for k in self.files]

    def items(self):
        return [(k, self[k]) for k in self.files]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def close(self):
        if self.zip is not None:
            self.zip.close()
            self.zip = None
        self.fid = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


NpzFile.__module__ = 'numpy.lib.npyio'

_load_npy = load


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding='ASCII'):
    # NumPy's choice by the first bytes: a zip archive is an NpzFile (one that is no archive
    # is BadZipFile); the rest (.npy, pickles) is mod_numpy_src.c's load
    if isinstance(file, str) and encoding in ('ASCII', 'latin1', 'bytes'):
        with open(file, 'rb') as f:
            magic = f.read(6)
        if magic.startswith(b'PK\x03\x04') or magic.startswith(b'PK\x05\x06'):
            if not _zipfile.is_zipfile(file):
                raise _zipfile.BadZipFile('File is not a zip file')
            return NpzFile(file)
    return _load_npy(file, mmap_mode, allow_pickle, fix_imports, encoding)
