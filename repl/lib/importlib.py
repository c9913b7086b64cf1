# importlib, written in the language over _nnimport (repl/mod_importlib.c):
# import_module (relative names with package=), reload of the script's own
# modules, invalidate_caches; importlib.util is set on it by its maker.

import _nnimport

__all__ = ['__import__', 'import_module', 'invalidate_caches', 'reload']


def _resolve_name(name, package, level):
    bits = package.rsplit('.', level - 1)
    if len(bits) < level:
        raise ImportError('attempted relative import beyond top-level package')
    base = bits[0]
    return '{}.{}'.format(base, name) if name else base


def import_module(name, package=None):
    level = 0
    if name.startswith('.'):
        if not package:
            raise TypeError("the 'package' argument is required to perform a relative "
                            "import for {!r}".format(name))
        for character in name:
            if character != '.':
                break
            level += 1
        name = _resolve_name(name[level:], package, level)
    if not name:
        raise ValueError('Empty module name')
    return _nnimport.import_(name)


def __import__(name, globals=None, locals=None, fromlist=(), level=0):
    module = import_module(name)
    if fromlist or '.' not in name:
        return module
    return _nnimport.import_(name.partition('.')[0])


def invalidate_caches():
    pass


def reload(module):
    if not _nnimport.is_module(module):
        raise TypeError("reload() argument must be a module")
    path = getattr(module, '__file__', None)
    if path is not None and path.endswith('.py'):
        _nnimport.exec_file(module, path)
    return module
