# shutil, written in the language over os: rmtree, copyfile/copy/copy2 (text
# files), copytree, move, which.

import os


def rmtree(path, ignore_errors=False, onerror=None):
    try:
        if os.path.islink(path) if hasattr(os.path, 'islink') else False:
            raise OSError('Cannot call rmtree on a symbolic link')
        names = os.listdir(path)
    except OSError:
        if ignore_errors:
            return
        if onerror is not None:
            onerror(os.listdir, path, None)
            return
        raise
    for name in names:
        full = os.path.join(path, name)
        try:
            if os.path.isdir(full):
                rmtree(full, ignore_errors, onerror)
            else:
                os.remove(full)
        except OSError:
            if not ignore_errors:
                raise
    try:
        os.rmdir(path)
    except OSError:
        if not ignore_errors:
            raise


class SameFileError(OSError):
    pass


def copyfile(src, dst, *, follow_symlinks=True):
    src, dst = str(src), str(dst)
    if os.path.abspath(src) == os.path.abspath(dst):
        raise SameFileError('{!r} and {!r} are the same file'.format(src, dst))
    with open(src, 'rb') as fsrc:
        data = fsrc.read()
    with open(dst, 'wb') as fdst:
        fdst.write(data)
    return dst


def copy(src, dst, *, follow_symlinks=True):
    src, dst = str(src), str(dst)
    if os.path.isdir(dst):
        dst = os.path.join(dst, os.path.basename(src))
    copyfile(src, dst)
    return dst


copy2 = copy


def copytree(src, dst, dirs_exist_ok=False, ignore=None):
    src, dst = str(src), str(dst)
    names = os.listdir(src)
    ignored = ignore(src, names) if ignore is not None else ()
    os.makedirs(dst, exist_ok=dirs_exist_ok)
    for name in names:
        if name in ignored:
            continue
        s, d = os.path.join(src, name), os.path.join(dst, name)
        if os.path.isdir(s):
            copytree(s, d, dirs_exist_ok, ignore)
        else:
            copyfile(s, d)
    return dst


def move(src, dst):
    src, dst = str(src), str(dst)
    if os.path.isdir(dst):
        dst = os.path.join(dst, os.path.basename(src.rstrip('/')))
    os.rename(src, dst)
    return dst


def which(cmd, mode=None, path=None):
    if '/' in cmd:
        return cmd if os.path.isfile(cmd) else None
    for d in (path or os.environ.get('PATH', '')).split(':'):
        full = os.path.join(d, cmd)
        if os.path.isfile(full):
            return full
    return None
