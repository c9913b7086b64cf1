# tempfile, written in the language: gettempdir, mkdtemp, mktemp,
# TemporaryDirectory and NamedTemporaryFile (text mode), with random names
# from their own random.Random.

import os
import random as _random

template = 'tmp'
tempdir = None
_rng = _random.Random()
_chars = 'abcdefghijklmnopqrstuvwxyz0123456789_'


def gettempdir():
    global tempdir
    if tempdir is None:
        for name in ('TMPDIR', 'TEMP', 'TMP'):
            d = os.environ.get(name)
            if d and os.path.isdir(d):
                tempdir = d
                break
        else:
            tempdir = '/tmp'
    return tempdir


def gettempprefix():
    return template


def _name(suffix, prefix, dir):
    if dir is None:
        dir = gettempdir()
    if prefix is None:
        prefix = template
    return os.path.join(str(dir), prefix + ''.join(_rng.choice(_chars) for _ in range(8)) + (suffix or ''))


def mktemp(suffix='', prefix=template, dir=None):
    for _ in range(100):
        name = _name(suffix, prefix, dir)
        if not os.path.exists(name):
            return name
    raise FileExistsError(17, 'No usable temporary filename found')


def mkdtemp(suffix=None, prefix=None, dir=None):
    for _ in range(100):
        name = _name(suffix, prefix, dir)
        try:
            os.mkdir(name)
        except FileExistsError:
            continue
        return os.path.abspath(name)
    raise FileExistsError(17, 'No usable temporary directory name found')


class TemporaryDirectory:
    def __init__(self, suffix=None, prefix=None, dir=None, ignore_cleanup_errors=False):
        self.name = mkdtemp(suffix, prefix, dir)
        self._ignore = ignore_cleanup_errors

    def __repr__(self):
        return '<%s %r>' % (type(self).__name__, self.name)

    def __enter__(self):
        return self.name

    def __exit__(self, exc, value, tb):
        self.cleanup()

    def cleanup(self):
        import shutil
        if os.path.exists(self.name):
            shutil.rmtree(self.name, ignore_errors=self._ignore)


class _TemporaryFileWrapper:
    def __init__(self, file, name, delete):
        self.file = file
        self.name = name
        self.delete = delete

    def __getattr__(self, name):
        return getattr(self.file, name)

    def __enter__(self):
        return self

    def __exit__(self, exc, value, tb):
        self.close()

    def __iter__(self):
        return iter(self.file)

    def close(self):
        self.file.close()
        if self.delete and os.path.exists(self.name):
            os.remove(self.name)


def NamedTemporaryFile(mode='w+', buffering=-1, encoding=None, newline=None, suffix=None, prefix=None,
                       dir=None, delete=True, *, errors=None):
    name = mktemp(suffix or '', prefix if prefix is not None else template, dir)
    return _TemporaryFileWrapper(open(name, mode.replace('b', '')), name, delete)


TemporaryFile = NamedTemporaryFile
