# glob, written in the language over os.listdir and fnmatch: glob, iglob
# (recursive ** with recursive=True), escape, has_magic. Names starting with
# a dot match only a pattern that starts with one, as in CPython.

import os
import re
import fnmatch

_magic = re.compile('([*?[])')


def has_magic(s):
    return _magic.search(s) is not None


def escape(pathname):
    drive, rest = '', pathname
    return drive + _magic.sub(r'[\1]', rest)


def _listdir(dirname):
    try:
        return sorted(os.listdir(dirname or '.'))
    except OSError:
        return []


def _match_names(dirname, pattern):
    names = _listdir(dirname)
    if pattern[:1] != '.':
        names = [n for n in names if n[:1] != '.']
    return fnmatch.filter(names, pattern)


def _rlistdir(dirname):
    for name in _listdir(dirname):
        if name[:1] == '.':
            continue
        yield name
        path = os.path.join(dirname, name) if dirname else name
        if os.path.isdir(path):
            for sub in _rlistdir(path):
                yield os.path.join(name, sub)


def _iglob(pathname, recursive):
    dirname, basename = os.path.split(pathname)
    if not has_magic(pathname):
        if basename:
            if os.path.exists(pathname):
                yield pathname
        elif os.path.isdir(dirname):
            yield pathname
        return
    if not dirname:
        if recursive and basename == '**':
            yield ''
            for name in _rlistdir(''):
                yield name
        else:
            for name in _match_names('', basename):
                yield name
        return
    if dirname != pathname and has_magic(dirname):
        dirs = list(_iglob(dirname, recursive))
    else:
        dirs = [dirname]
    for d in dirs:
        if not os.path.isdir(d or '.'):
            continue
        if recursive and basename == '**':
            names = [''] + list(_rlistdir(d))
        elif has_magic(basename):
            names = _match_names(d, basename)
        else:
            names = [basename] if os.path.exists(os.path.join(d, basename)) else []
        for name in names:
            yield os.path.join(d, name)


def iglob(pathname, *, root_dir=None, recursive=False):
    return iter(list(_iglob(pathname, recursive)))


def glob(pathname, *, root_dir=None, recursive=False):
    return list(_iglob(pathname, recursive))
