# pathlib, written in the language over os and os.path: PurePath/Path
# (PosixPath), with CPython's normalisation ('a//b/./c' is 'a/b/c'), the /
# operator, the name parts, and the file-system methods scripts use.

import os
import fnmatch


class PurePath:
    def __init__(self, *args):
        parts = []
        for a in args:
            if isinstance(a, PurePath):
                a = a._str
            elif hasattr(a, '__fspath__'):
                a = a.__fspath__()
            if not isinstance(a, str):
                raise TypeError('expected str, bytes or os.PathLike object, not %s' % type(a).__name__)
            if a.startswith('/'):
                parts = [a]
            elif a:
                parts.append(a)
        self._str = self._normalize('/'.join(parts))

    @staticmethod
    def _normalize(path):
        if not path:
            return '.'
        root = '/' if path.startswith('/') else ''
        if path.startswith('//') and not path.startswith('///'):
            root = '//'
        pieces = [p for p in path.split('/') if p and p != '.']
        return root + '/'.join(pieces) if pieces or root else '.'

    def __str__(self):
        return self._str

    def __fspath__(self):
        return self._str

    def as_posix(self):
        return self._str

    def __repr__(self):
        return '%s(%r)' % (type(self).__name__, self._str)

    def __hash__(self):
        return hash(self._str)

    def __eq__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._str == other._str

    def __lt__(self, other):
        return self.parts < other.parts

    def __le__(self, other):
        return self.parts <= other.parts

    def __gt__(self, other):
        return self.parts > other.parts

    def __ge__(self, other):
        return self.parts >= other.parts

    def _new(self, *args):
        return type(self)(*args)

    def __truediv__(self, key):
        try:
            return self._new(self._str, key)
        except TypeError:
            return NotImplemented

    def __rtruediv__(self, key):
        try:
            return self._new(key, self._str)
        except TypeError:
            return NotImplemented

    def joinpath(self, *args):
        return self._new(self._str, *args)

    @property
    def parts(self):
        if self._str == '.':
            return ()
        if self._str.startswith('/'):
            rest = self._str.lstrip('/')
            return ('/',) + (tuple(rest.split('/')) if rest else ())
        return tuple(self._str.split('/'))

    @property
    def root(self):
        return '/' if self._str.startswith('/') else ''

    anchor = root
    drive = ''

    @property
    def name(self):
        if self._str in ('.', '/'):
            return ''
        return self._str.rsplit('/', 1)[-1]

    @property
    def suffix(self):
        name = self.name
        i = name.rfind('.')
        return name[i:] if 0 < i < len(name) - 1 else ''

    @property
    def suffixes(self):
        name = self.name
        if name.endswith('.'):
            return []
        name = name.lstrip('.')
        return ['.' + s for s in name.split('.')[1:]]

    @property
    def stem(self):
        name = self.name
        i = name.rfind('.')
        return name[:i] if 0 < i < len(name) - 1 else name

    @property
    def parent(self):
        s = self._str
        if s in ('.', '/') or '/' not in s.lstrip('/'):
            return self._new('/' if s.startswith('/') else '.')
        return self._new(s.rsplit('/', 1)[0] or '/')

    @property
    def parents(self):
        out = []
        p = self
        while True:
            q = p.parent
            if q == p:
                break
            out.append(q)
            p = q
        return tuple(out)

    def is_absolute(self):
        return self._str.startswith('/')

    def with_name(self, name):
        if not self.name:
            raise ValueError('%r has an empty name' % (self,))
        if not name or '/' in name or name == '.':
            raise ValueError('Invalid name %r' % (name,))
        return self.parent / name

    def with_stem(self, stem):
        return self.with_name(stem + self.suffix)

    def with_suffix(self, suffix):
        if suffix and (not suffix.startswith('.') or suffix == '.' or '/' in suffix):
            raise ValueError('Invalid suffix %r' % (suffix,))
        if not self.name:
            raise ValueError('%r has an empty name' % (self,))
        return self.with_name(self.stem + suffix)

    def relative_to(self, *other):
        base = self._new(*other)
        if base._str == '.':
            return self._new(self._str)
        mine, theirs = self.parts, base.parts
        if mine[:len(theirs)] != theirs:
            raise ValueError('%r is not in the subpath of %r OR one path is relative and the other is absolute.'
                             % (self._str, base._str))
        return self._new(*mine[len(theirs):]) if len(mine) > len(theirs) else self._new('')

    def is_relative_to(self, *other):
        try:
            self.relative_to(*other)
            return True
        except ValueError:
            return False

    def match(self, pattern):
        pat_parts = PurePath(pattern).parts
        parts = self.parts
        if pattern.startswith('/'):
            if len(pat_parts) != len(parts):
                return False
        elif len(pat_parts) > len(parts):
            return False
        for part, pat in zip(reversed(parts), reversed(pat_parts)):
            if not fnmatch.fnmatchcase(part, pat):
                return False
        return True


class PurePosixPath(PurePath):
    pass


class Path(PurePath):
    def __new__(cls, *args, **kwargs):
        if cls is Path:
            cls = PosixPath
        return object.__new__(cls)

    @classmethod
    def cwd(cls):
        return cls(os.getcwd())

    @classmethod
    def home(cls):
        return cls(os.path.expanduser('~'))

    def absolute(self):
        return self if self.is_absolute() else self._new(os.getcwd(), self._str)

    def resolve(self, strict=False):
        return self._new(os.path.realpath(self._str))

    def expanduser(self):
        return self._new(os.path.expanduser(self._str))

    def exists(self):
        return os.path.exists(self._str)

    def is_file(self):
        return os.path.isfile(self._str)

    def is_dir(self):
        return os.path.isdir(self._str)

    def mkdir(self, mode=0o777, parents=False, exist_ok=False):
        if parents:
            os.makedirs(self._str, exist_ok=exist_ok)
        elif exist_ok and self.is_dir():
            return
        else:
            os.mkdir(self._str)

    def rmdir(self):
        os.rmdir(self._str)

    def unlink(self, missing_ok=False):
        if missing_ok and not self.exists():
            return
        os.remove(self._str)

    def rename(self, target):
        os.rename(self._str, str(target))
        return self._new(str(target))

    def replace(self, target):
        os.replace(self._str, str(target))
        return self._new(str(target))

    def touch(self, mode=0o666, exist_ok=True):
        if self.exists():
            if not exist_ok:
                raise FileExistsError(17, 'File exists', self._str)
            os.utime(self._str)
            return
        open(self._str, 'a').close()

    def iterdir(self):
        for name in os.listdir(self._str):
            yield self / name

    def glob(self, pattern):
        import glob as _glob
        base = '' if self._str == '.' else self._str
        for p in sorted(_glob.glob(os.path.join(base, pattern) if base else pattern, recursive='**' in pattern)):
            yield self._new(p)

    def rglob(self, pattern):
        return self.glob('**/' + pattern)

    def open(self, mode='r', buffering=-1, encoding=None, errors=None, newline=None):
        return open(self._str, mode, newline=newline)

    def read_text(self, encoding=None, errors=None):
        with open(self._str) as f:
            return f.read()

    def write_text(self, data, encoding=None, errors=None, newline=None):
        if not isinstance(data, str):
            raise TypeError('data must be str, not %s' % type(data).__name__)
        with open(self._str, 'w', newline=newline) as f:
            return f.write(data)

    def read_bytes(self):
        with open(self._str, 'rb') as f:
            return f.read()

    def write_bytes(self, data):
        view = bytes(data)
        with open(self._str, 'wb') as f:
            return f.write(view)

    def stat(self, *, follow_symlinks=True):
        return os.stat(self._str, follow_symlinks=follow_symlinks)

    def lstat(self):
        return os.lstat(self._str)

    def is_symlink(self):
        return os.path.islink(self._str)

    def chmod(self, mode, *, follow_symlinks=True):
        os.chmod(self._str, mode)

    def samefile(self, other_path):
        a, b = self.stat(), os.stat(str(other_path))
        return a.st_ino == b.st_ino and a.st_dev == b.st_dev


class PosixPath(Path, PurePosixPath):
    pass
