# collections.ChainMap, written in the language (repl/mod_collections.c copies
# it into the module): several mappings searched as one, as CPython 3.11's.
# Lookups try each mapping in turn; writes, deletions and pops change only the
# first; new_child() and parents make the chains above and below.

import collections.abc as _abc  # the module, not its names: this module would claim them (__module__)
from reprlib import recursive_repr


class ChainMap(_abc.MutableMapping):
    __module__ = 'collections'

    def __init__(self, *maps):
        self.maps = list(maps) or [{}]

    def __missing__(self, key):
        raise KeyError(key)

    def __getitem__(self, key):
        for mapping in self.maps:
            try:
                return mapping[key]
            except KeyError:
                pass
        return self.__missing__(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __len__(self):
        return len(set().union(*self.maps))

    def __iter__(self):
        # the keys in the order of the last mapping first, as CPython's
        keys = {}
        for mapping in reversed(self.maps):
            keys.update(dict.fromkeys(mapping))
        return iter(keys)

    def __contains__(self, key):
        for mapping in self.maps:
            if key in mapping:
                return True
        return False

    def __bool__(self):
        for mapping in self.maps:
            if mapping:
                return True
        return False

    @recursive_repr()
    def __repr__(self):
        return self.__class__.__name__ + '(' + ', '.join([repr(m) for m in self.maps]) + ')'

    @classmethod
    def fromkeys(cls, iterable, *args):
        return cls(dict.fromkeys(iterable, *args))

    def copy(self):
        return self.__class__(self.maps[0].copy(), *self.maps[1:])

    __copy__ = copy

    def new_child(self, m=None, **kwargs):
        if m is None:
            m = kwargs
        elif kwargs:
            m.update(kwargs)
        return self.__class__(m, *self.maps)

    @property
    def parents(self):
        return self.__class__(*self.maps[1:])

    def __setitem__(self, key, value):
        self.maps[0][key] = value

    def __delitem__(self, key):
        try:
            del self.maps[0][key]
        except KeyError:
            raise KeyError('Key not found in the first mapping: ' + repr(key))

    def popitem(self):
        try:
            return self.maps[0].popitem()
        except KeyError:
            raise KeyError('No keys found in the first mapping.')

    def pop(self, key, *args):
        try:
            return self.maps[0].pop(key, *args)
        except KeyError:
            raise KeyError('Key not found in the first mapping: ' + repr(key))

    def clear(self):
        self.maps[0].clear()

    def __ior__(self, other):
        self.maps[0].update(other)
        return self

    def __or__(self, other):
        if not isinstance(other, _abc.Mapping):
            return NotImplemented
        m = self.copy()
        m.maps[0].update(other)
        return m

    def __ror__(self, other):
        if not isinstance(other, _abc.Mapping):
            return NotImplemented
        m = dict(other)
        for child in reversed(self.maps):
            m.update(child)
        return self.__class__(m)
