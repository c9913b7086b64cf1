# importlib.util, written in the language over _nnimport (repl/mod_importlib.c):
# find_spec, spec_from_file_location, module_from_spec and a loader whose
# exec_module runs a .py file as the module's body.

import _nnimport


class ModuleSpec:
    def __init__(self, name, loader, *, origin=None, loader_state=None, is_package=None):
        self.name = name
        self.loader = loader
        self.origin = origin
        self.loader_state = loader_state
        self.submodule_search_locations = [] if is_package else None
        self.cached = None
        self.has_location = origin is not None and origin != 'built-in'

    @property
    def parent(self):
        if self.submodule_search_locations is None:
            return self.name.rpartition('.')[0]
        return self.name

    def __repr__(self):
        args = ['name={!r}'.format(self.name), 'loader={!r}'.format(self.loader)]
        if self.origin is not None:
            args.append('origin={!r}'.format(self.origin))
        if self.submodule_search_locations is not None:
            args.append('submodule_search_locations={}'.format(self.submodule_search_locations))
        return '{}({})'.format(self.__class__.__name__, ', '.join(args))

    def __eq__(self, other):
        if not isinstance(other, ModuleSpec):
            return NotImplemented
        return (self.name == other.name and self.loader == other.loader and self.origin == other.origin
                and self.submodule_search_locations == other.submodule_search_locations)


class SourceFileLoader:
    def __init__(self, fullname, path):
        self.name = fullname
        self.path = path

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        _nnimport.exec_file(module, self.path)

    def get_filename(self, name=None):
        return self.path

    def get_source(self, name=None):
        with open(self.path) as f:
            return f.read()

    def __repr__(self):
        return '<_frozen_importlib_external.SourceFileLoader object at {:#x}>'.format(id(self))

    def __eq__(self, other):
        return self.__class__ == other.__class__ and self.__dict__ == other.__dict__

    def __hash__(self):
        return hash(self.name) ^ hash(self.path)


class BuiltinImporter:
    pass


def spec_from_file_location(name, location=None, *, loader=None, submodule_search_locations=None):
    if location is None:
        return None
    location = str(location) if not isinstance(location, str) else location
    if loader is None:
        loader = SourceFileLoader(name, location)
    spec = ModuleSpec(name, loader, origin=location)
    spec.has_location = True
    if submodule_search_locations is not None:
        spec.submodule_search_locations = submodule_search_locations
    elif location.endswith('__init__.py'):
        spec.submodule_search_locations = [location.rpartition('/')[0]]
    return spec


def module_from_spec(spec):
    module = None
    if hasattr(spec.loader, 'create_module'):
        module = spec.loader.create_module(spec)
    elif hasattr(spec.loader, 'exec_module'):
        raise ImportError('loaders that define exec_module() must also define create_module()')
    if module is None:
        module = _nnimport.new_module(spec.name)
    module.__spec__ = spec
    module.__loader__ = spec.loader
    module.__package__ = spec.parent
    if spec.origin is not None and spec.has_location:
        module.__file__ = spec.origin
    if spec.submodule_search_locations is not None:
        module.__path__ = spec.submodule_search_locations
    return module


def resolve_name(name, package):
    if not name.startswith('.'):
        return name
    elif not package:
        raise ImportError(f'no package specified for {repr(name)} (required for relative module names)')
    level = 0
    for character in name:
        if character != '.':
            break
        level += 1
    bits = package.rsplit('.', level - 1)
    if len(bits) < level:
        raise ImportError('attempted relative import beyond top-level package')
    base = bits[0]
    return '{}.{}'.format(base, name[level:]) if name[level:] else base


def find_spec(name, package=None):
    fullname = resolve_name(name, package) if name.startswith('.') else name
    path = _nnimport.user_path(fullname)
    if path is not None:
        return spec_from_file_location(fullname, path)
    if '.' in fullname:
        parent = fullname.rpartition('.')[0]
        try:
            _nnimport.import_(parent)
        except ModuleNotFoundError:
            raise ModuleNotFoundError(
                "__path__ attribute not found on {!r} while trying to find {!r}".format(parent, fullname),
                name=fullname)
    try:
        module = _nnimport.import_(fullname)
    except ModuleNotFoundError:
        return None
    spec = getattr(module, '__spec__', None)
    if spec is not None:
        return spec
    return ModuleSpec(fullname, BuiltinImporter, origin='built-in')
