# weakref — CPython 3.11's weak references over _weakref (repl/mod_weakref.c):
# ref (with a callback), proxy, WeakMethod, WeakValueDictionary,
# WeakKeyDictionary, WeakSet, finalize, getweakrefcount, getweakrefs. An
# instance of a class dies as in CPython (when its last reference goes or the
# cycle collector frees it) and its references go dead then; so do functions,
# bound methods, classes, modules, tensors, nn modules, sets and generators.
# Built-in functions are held strongly (their references never die). int, str,
# tuple, list, dict and None refuse as CPython does.
import _weakref

__all__ = ['ref', 'proxy', 'getweakrefcount', 'getweakrefs', 'WeakKeyDictionary', 'ReferenceType', 'ProxyType',
           'CallableProxyType', 'ProxyTypes', 'WeakValueDictionary', 'WeakSet', 'WeakMethod', 'finalize']

_NO_WEAKREF = (int, float, complex, str, bytes, tuple, list, dict, bool, type(None))
_by_key = {}  # key -> [the live ref objects with callbacks or finalizers]


def _died(key):
    for r in _by_key.pop(key, ()):
        cb = r._callback
        r._callback = None
        if cb is not None:
            try:
                cb(r)
            except Exception as e:
                import sys
                import traceback
                sys.stderr.write('Exception ignored in: %r\n' % (cb,))
                sys.stderr.write(''.join(traceback.format_exception(e)))


_weakref.set_hook(_died)


def _key(obj):
    if isinstance(obj, _NO_WEAKREF):
        raise TypeError("cannot create weak reference to '%s' object" % type(obj).__name__)
    return _weakref.watch(obj)


class ref:
    __module__ = 'builtins'

    def __init__(self, ob, callback=None):
        self._key = _key(ob)
        self._strong = ob if self._key < 0 else None
        self._callback = callback
        self._hash = None
        if self._key >= 0:
            _by_key.setdefault(self._key, []).append(self)

    def __call__(self):
        if self._key < 0:
            return self._strong
        return _weakref.get(self._key)

    @property
    def __callback__(self):
        return self._callback

    def __hash__(self):
        if self._hash is None:
            o = self()
            if o is None:
                raise TypeError('weak object has gone away')
            self._hash = hash(o)
        return self._hash

    def __eq__(self, other):
        if not isinstance(other, ref):
            return NotImplemented
        a, b = self(), other()
        if a is None or b is None:
            return self is other
        return a == b

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __repr__(self):
        o = self()
        if o is None:
            return '<weakref at 0x%x; dead>' % id(self)
        return "<weakref at 0x%x; to '%s' at 0x%x>" % (id(self), type(o).__name__, id(o))


ReferenceType = ref


def getweakrefcount(obj):
    k = _weakref.watch(obj) if not isinstance(obj, _NO_WEAKREF) else -1
    return len(_by_key.get(k, ())) if k >= 0 else 0


def getweakrefs(obj):
    k = _weakref.watch(obj) if not isinstance(obj, _NO_WEAKREF) else -1
    return list(_by_key.get(k, ())) if k >= 0 else []


class ProxyType:
    def __init__(self, ob, callback=None):
        object.__setattr__(self, '_proxy_ref', ref(ob, None if callback is None else lambda r: callback(self)))

    def _proxy_target(self):
        o = object.__getattribute__(self, '_proxy_ref')()
        if o is None:
            raise ReferenceError('weakly-referenced object no longer exists')
        return o

    def __getattr__(self, name):
        return getattr(self._proxy_target(), name)

    def __setattr__(self, name, value):
        setattr(self._proxy_target(), name, value)

    def __delattr__(self, name):
        delattr(self._proxy_target(), name)

    def __call__(self, *args, **kwargs):
        return self._proxy_target()(*args, **kwargs)

    def __len__(self):
        return len(self._proxy_target())

    def __getitem__(self, k):
        return self._proxy_target()[k]

    def __setitem__(self, k, v):
        self._proxy_target()[k] = v

    def __iter__(self):
        return iter(self._proxy_target())

    def __contains__(self, k):
        return k in self._proxy_target()

    def __str__(self):
        return str(self._proxy_target())

    def __eq__(self, other):
        return self._proxy_target() == other

    def __bool__(self):
        return bool(self._proxy_target())

    def __repr__(self):
        o = object.__getattribute__(self, '_proxy_ref')()
        return "<weakproxy at 0x%x; to '%s' at 0x%x>" % (id(self), type(o).__name__, id(o))

    __hash__ = None


CallableProxyType = ProxyType
ProxyTypes = (ProxyType, CallableProxyType)


def proxy(ob, callback=None):
    return ProxyType(ob, callback)


class WeakMethod(ref):
    def __init__(self, meth, callback=None):
        try:
            obj = meth.__self__
            func = meth.__func__
        except AttributeError:
            raise TypeError('argument should be a bound method, not {}'.format(type(meth))) from None
        ref.__init__(self, obj, callback)
        self._func = func
        self._name = func.__name__

    def __call__(self):
        obj = ref.__call__(self)
        if obj is None:
            return None
        return getattr(obj, self._name)


class WeakValueDictionary:
    def __init__(self, other=(), /, **kw):
        self.data = {}
        self.update(other, **kw)

    def _remover(self, key):
        def remove(wr, data=self.data, key=key):
            if data.get(key) is wr:
                del data[key]
        return remove

    def __getitem__(self, key):
        o = self.data[key]()
        if o is None:
            raise KeyError(key)
        return o

    def __setitem__(self, key, value):
        self.data[key] = ref(value, self._remover(key))

    def __delitem__(self, key):
        del self.data[key]

    def __contains__(self, key):
        r = self.data.get(key)
        return r is not None and r() is not None

    def __len__(self):
        return sum(1 for r in self.data.values() if r() is not None)

    def __iter__(self):
        for k, r in list(self.data.items()):
            if r() is not None:
                yield k

    def __repr__(self):
        return '<WeakValueDictionary at %#x>' % id(self)

    def keys(self):
        return list(self)

    def values(self):
        return [o for o in (r() for r in list(self.data.values())) if o is not None]

    def items(self):
        return [(k, o) for k, o in ((k, r()) for k, r in list(self.data.items())) if o is not None]

    itervaluerefs = valuerefs = lambda self: list(self.data.values())

    def get(self, key, default=None):
        r = self.data.get(key)
        o = r() if r is not None else None
        return default if o is None else o

    def pop(self, key, *args):
        r = self.data.pop(key, None)
        o = r() if r is not None else None
        if o is None:
            if args:
                return args[0]
            raise KeyError(key)
        return o

    def setdefault(self, key, default=None):
        o = self.get(key)
        if o is None:
            self[key] = default
            return default
        return o

    def update(self, other=(), /, **kwargs):
        if hasattr(other, 'items'):
            other = other.items()
        for k, v in other:
            self[k] = v
        for k, v in kwargs.items():
            self[k] = v

    def clear(self):
        self.data.clear()

    def copy(self):
        return WeakValueDictionary(self.items())


class WeakKeyDictionary:
    def __init__(self, dict=None):
        self.data = {}  # id(key) -> (ref, value)
        if dict is not None:
            self.update(dict)

    def _remover(self, i):
        def remove(wr, data=self.data, i=i):
            if i in data and data[i][0] is wr:
                del data[i]
        return remove

    def __setitem__(self, key, value):
        i = id(key)
        self.data[i] = (ref(key, self._remover(i)), value)

    def __getitem__(self, key):
        e = self.data.get(id(key))
        if e is None or e[0]() is not key:
            raise KeyError(key)
        return e[1]

    def __delitem__(self, key):
        self[key]
        del self.data[id(key)]

    def __contains__(self, key):
        e = self.data.get(id(key))
        return e is not None and e[0]() is key

    def __len__(self):
        return sum(1 for r, v in self.data.values() if r() is not None)

    def __iter__(self):
        for r, v in list(self.data.values()):
            o = r()
            if o is not None:
                yield o

    def __repr__(self):
        return '<WeakKeyDictionary at %#x>' % id(self)

    def keys(self):
        return list(self)

    def values(self):
        return [v for r, v in list(self.data.values()) if r() is not None]

    def items(self):
        return [(r(), v) for r, v in list(self.data.values()) if r() is not None]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def pop(self, key, *args):
        if key in self:
            v = self[key]
            del self.data[id(key)]
            return v
        if args:
            return args[0]
        raise KeyError(key)

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, dict=None, /, **kwargs):
        if dict is not None:
            if hasattr(dict, 'items'):
                dict = dict.items()
            for k, v in dict:
                self[k] = v

    def clear(self):
        self.data.clear()


class WeakSet:
    def __init__(self, data=None):
        self.data = {}  # id -> ref
        if data is not None:
            for x in data:
                self.add(x)

    def _remover(self, i):
        def remove(wr, data=self.data, i=i):
            if data.get(i) is wr:
                del data[i]
        return remove

    def add(self, item):
        i = id(item)
        if i in self.data and self.data[i]() is item:
            return
        self.data[i] = ref(item, self._remover(i))

    def discard(self, item):
        if item in self:
            del self.data[id(item)]

    def remove(self, item):
        if item not in self:
            raise KeyError(item)
        del self.data[id(item)]

    def pop(self):
        for i, r in list(self.data.items()):
            del self.data[i]
            o = r()
            if o is not None:
                return o
        raise KeyError('pop from empty WeakSet')

    def clear(self):
        self.data.clear()

    def __contains__(self, item):
        r = self.data.get(id(item))
        return r is not None and r() is item

    def __len__(self):
        return sum(1 for r in self.data.values() if r() is not None)

    def __iter__(self):
        for r in list(self.data.values()):
            o = r()
            if o is not None:
                yield o

    def __repr__(self):
        return '<_weakrefset.WeakSet object at %#x>' % id(self)

    def copy(self):
        return WeakSet(self)


class finalize:
    _registry = {}
    _index = [0]

    class _Info:
        pass

    def __init__(self, obj, func, /, *args, **kwargs):
        info = finalize._Info()
        info.func = func
        info.args = args
        info.kwargs = kwargs or None
        info.atexit = True
        self._index[0] += 1
        info.index = self._index[0]
        info.weakref = ref(obj, self)
        info.obj_type = type(obj).__name__
        self._registry[self] = info
        self._info = info

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __call__(self, _=None):
        info = self._registry.pop(self, None)
        if info:
            return info.func(*info.args, **(info.kwargs or {}))

    def detach(self):
        obj = self._info.weakref()
        info = self._registry.pop(self, None)
        if obj is not None and info:
            return (obj, info.func, info.args, info.kwargs or {})

    def peek(self):
        obj = self._info.weakref()
        info = self._registry.get(self)
        if obj is not None and info:
            return (obj, info.func, info.args, info.kwargs or {})

    @property
    def alive(self):
        return self in self._registry

    @property
    def atexit(self):
        return self._info.atexit

    @atexit.setter
    def atexit(self, value):
        self._info.atexit = bool(value)

    def __repr__(self):
        obj = self._info.weakref()
        if obj is None:
            return '<%s object at %#x; dead>' % (type(self).__name__, id(self))
        return '<%s object at %#x; for %r at %#x>' % (type(self).__name__, id(self), type(obj).__name__, id(obj))
