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


def _npy_write(path, a):
    # NumPy's fortran_order: an F-contiguous array that is not C-contiguous is written in F order
    if a.ndim > 1 and not a.flags.c_contiguous and a.flags.f_contiguous:
        _npy_save(path, a.T._t, a.dtype.name, True)
    else:
        _npy_save(path, a._t, a.dtype.name)


def _npy_bytes(a):
    # the .npy file np.save writes for a, as bytes
    path = _npz_temp()
    try:
        _npy_write(path, a)
        with open(path, 'rb') as f:
            return f.read()
    finally:
        _os.remove(path)


def _npy_from_bytes(data):
    path = _npz_temp()
    try:
        with open(path, 'wb') as f:
            f.write(data)
        return _npy_array(*_npy_load(path))
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


def save(file, arr, allow_pickle=True, fix_imports=True):
    # a path (str or os.PathLike, '.npy' added) or an open binary file (written at its position)
    a = asarray(arr)
    if hasattr(file, 'write'):
        file.write(_npy_bytes(a))
        return
    file = _os.fspath(file)
    if not file.endswith('.npy'):
        file = file + '.npy'
    _npy_write(file, a)


def _read_bytes(fid, n, what):
    data = fid.read(n)
    if len(data) != n:
        raise ValueError('EOF: reading ' + what + ', expected ' + str(n) + ' bytes got ' + str(len(data)))
    return data


def _read_npy(fid):
    # one array of an open .npy file from its position, which is left after the array's bytes
    # (np.save twice into one file, np.load twice from it); the bytes go through the path loader
    head = _read_bytes(fid, 8, 'magic string')
    if head[:6] != b'\x93NUMPY':
        raise ValueError('the magic string is not correct; expected ' + repr(b'\x93NUMPY') + ', got ' + repr(head[:6]))
    width = 2 if head[6] == 1 else 4
    if head[6] not in (1, 2, 3) or head[7] != 0:
        raise ValueError('we only support format version (1,0), (2,0), and (3,0), not ' + repr((head[6], head[7])))
    count = _read_bytes(fid, width, 'array header length')
    header = _read_bytes(fid, int.from_bytes(count, 'little'), 'array header')
    import ast
    text = header.decode('utf-8' if head[6] == 3 else 'latin1')
    try:
        d = ast.literal_eval(text)
        size = dtype(d['descr']).itemsize
        for n in d['shape']:
            size *= n
        data = fid.read(size)
    except Exception:
        data = fid.read()  # the path loader says what is wrong with it
    return _npy_from_bytes(head + count + header + data)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding='ASCII'):
    # NumPy's choice by the first bytes: a zip archive is an NpzFile (one that is no archive
    # is BadZipFile), '\x93NUMPY' an array, the rest a pickle (when allow_pickle=True); file is
    # a path (str or os.PathLike) or an open binary file, read from its position
    if encoding not in ('ASCII', 'latin1', 'bytes'):
        raise ValueError("encoding must be 'ASCII', 'latin1', or 'bytes'")
    if not hasattr(file, 'read'):
        path = _os.fspath(file)
        with open(path, 'rb') as f:
            magic = f.read(6)
        if magic.startswith(b'PK\x03\x04') or magic.startswith(b'PK\x05\x06'):
            if not _zipfile.is_zipfile(path):
                raise _zipfile.BadZipFile('File is not a zip file')
            return NpzFile(path)
        return _load_npy(path, mmap_mode, allow_pickle, fix_imports, encoding)
    magic = file.read(6)
    file.seek(-len(magic), 1)
    if magic.startswith(b'PK\x03\x04') or magic.startswith(b'PK\x05\x06'):
        return NpzFile(file)
    if magic == b'\x93NUMPY':
        return _read_npy(file)
    if not allow_pickle:
        raise ValueError('Cannot load file containing pickled data when allow_pickle=False')
    import pickle
    try:
        return pickle.load(file, fix_imports=fix_imports, encoding=encoding)
    except Exception as e:
        raise pickle.UnpicklingError(f'Failed to interpret file {file!r} as a pickle') from e
