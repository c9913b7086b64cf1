# unittest.mock: Mock, MagicMock, patch and the call-recording helpers, with CPython 3.11's
# failure messages. Magic methods of MagicMock are functions on the class that call the
# instance's child mock kept in its __dict__, so `m.__len__.return_value = 3` and `len(m)`
# see the same mock (the interpreter looks special methods up on the type only).

import builtins
import importlib
import inspect
import pprint
import sys

__all__ = ('Mock', 'MagicMock', 'NonCallableMock', 'NonCallableMagicMock', 'PropertyMock',
           'AsyncMock', 'patch', 'sentinel', 'DEFAULT', 'ANY', 'call', 'create_autospec',
           'FILTER_DIR', 'mock_open', 'seal')

FILTER_DIR = True

# writes an instance attribute past __setattr__ (the language's obj.__dict__ is a copy)
_set = object.__setattr__


class _SentinelObject:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return 'sentinel.%s' % self.name

    def __reduce__(self):
        return 'sentinel.%s' % self.name


class _Sentinel:
    def __init__(self):
        self._sentinels = {}

    def __getattr__(self, name):
        if name == '__bases__':
            raise AttributeError
        return self._sentinels.setdefault(name, _SentinelObject(name))


sentinel = _Sentinel()
DEFAULT = sentinel.DEFAULT
_missing = sentinel.MISSING
_deleted = sentinel.DELETED


class _ANY:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = None

    def __repr__(self):
        return '<ANY>'


ANY = _ANY()


def _is_exception(obj):
    return isinstance(obj, BaseException) or (
        isinstance(obj, type) and issubclass(obj, BaseException))


def _format_call_signature(name, args, kwargs):
    parts = [repr(a) for a in args]
    parts += ['%s=%r' % (k, v) for k, v in kwargs.items()]
    return '%s(%s)' % (name, ', '.join(parts))


def _safe_repr(obj):
    try:
        return repr(obj)
    except Exception:
        return object.__repr__(obj)


# ----------------------------------------------------------------- call objects

def _split_call(value):
    """(name, args, kwargs, has_name) of a _Call or a plain tuple compared with one."""
    if isinstance(value, _Call):
        return value._name, value._args, value._kwargs, not value._two
    n = len(value)
    if n == 3:
        return value[0], value[1], value[2], True
    if n == 2:
        first, second = value
        if isinstance(first, str):
            if isinstance(second, tuple):
                return first, second, {}, True
            return first, (), second, True
        return '', first, second, False
    if n == 1:
        only = value[0]
        if isinstance(only, str):
            return only, (), {}, True
        if isinstance(only, tuple):
            return '', only, {}, False
        return '', (), only, False
    return '', (), {}, False


class _Call(tuple):
    """A recorded or expected call: (args, kwargs) when two, else (name, args, kwargs)."""

    def __new__(cls, name='', args=(), kwargs=None, two=False, called=True, parent=None):
        kwargs = {} if kwargs is None else kwargs
        value = (args, kwargs) if two else (name, args, kwargs)
        self = tuple.__new__(cls, value)
        self._name = name
        self._args = args
        self._kwargs = kwargs
        self._two = two
        self._called = called
        self._parent = parent
        return self

    def __eq__(self, other):
        if other is ANY:
            return True
        if not isinstance(other, tuple):
            return False
        try:
            oname, oargs, okwargs, onamed = _split_call(other)
        except (TypeError, ValueError):
            return False
        if not self._two and onamed and self._name and oname != self._name:
            return False
        if not self._two and onamed and not self._name and oname and isinstance(other, _Call):
            return False
        return (self._args, self._kwargs) == (oargs, okwargs)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = None

    def __call__(self, *args, **kwargs):
        if not self._called:
            return _Call(self._name, args, kwargs, parent=self._parent)
        return _Call(self._name + '()', args, kwargs, parent=self)

    def __getattr__(self, attr):
        if attr.startswith('__') and attr.endswith('__') and attr not in _magics:
            raise AttributeError(attr)
        if not self._called:
            name = attr if not self._name else self._name + '.' + attr
            return _Call(name, called=False, parent=self._parent)
        return _Call(self._name + '().' + attr if self._name else '().' + attr,
                     called=False, parent=self)

    def count(self, *args, **kwargs):
        return self.__getattr__('count')(*args, **kwargs)

    def index(self, *args, **kwargs):
        return self.__getattr__('index')(*args, **kwargs)

    @property
    def args(self):
        return self._args

    @property
    def kwargs(self):
        return self._kwargs

    def __repr__(self):
        name = self._name
        if not name:
            head = 'call'
        elif name.startswith('()'):
            head = 'call' + name
        else:
            head = 'call.' + name
        if not self._called:
            return head
        return _format_call_signature(head, self._args, self._kwargs)

    def call_list(self):
        chain = []
        node = self
        while node is not None:
            if node._called:
                chain.append(node)
            node = node._parent
        # a chained call's own name already holds its path; the list names each step
        steps = []
        for node in reversed(chain):
            steps.append(_Call(node._name, node._args, node._kwargs))
        return _CallList(steps)


call = _Call(called=False)


class _CallList(list):
    def __contains__(self, value):
        if not isinstance(value, list):
            return list.__contains__(self, value)
        n = len(value)
        for i in range(len(self) - n + 1):
            if self[i:i + n] == value:
                return True
        return False

    def __getitem__(self, index):
        result = list.__getitem__(self, index)
        if isinstance(index, slice):
            return _CallList(result)
        return result

    def __repr__(self):
        return pprint.pformat(list(self))


# ----------------------------------------------------------------- mocks

_return_values = {
    '__lt__': NotImplemented, '__gt__': NotImplemented, '__le__': NotImplemented,
    '__ge__': NotImplemented, '__int__': 1, '__contains__': False, '__len__': 0,
    '__exit__': False, '__complex__': 1j, '__float__': 1.0, '__bool__': True,
    '__index__': 1,
}

_numerics = ('add sub mul matmul truediv floordiv mod lshift rshift and xor or pow').split()
_magics = set(
    ('__%s__' % n for n in (
        'lt gt le ge eq ne getitem setitem delitem len contains iter hash str sizeof '
        'enter exit divmod rdivmod neg pos abs invert complex int float index round trunc '
        'floor ceil bool next fspath reversed missing').split()))
_magics |= set('__%s__' % n for n in _numerics)
_magics |= set('__r%s__' % n for n in _numerics)
_magics |= set('__i%s__' % n for n in _numerics)
# set only when given: not configured on a fresh MagicMock
_non_defaults = {'__next__', '__fspath__', '__reversed__', '__missing__', '__round__',
                 '__trunc__', '__floor__', '__ceil__', '__divmod__', '__rdivmod__'}
_unsupported_magics = {'__getattr__', '__setattr__', '__init__', '__new__', '__prepare__',
                       '__instancecheck__', '__subclasscheck__', '__del__'}


def _is_magic(name):
    return name.startswith('__') and name.endswith('__') and len(name) > 4


_allowed_names = {'return_value', '_mock_return_value', 'side_effect', '_mock_side_effect',
                  '_mock_parent', '_mock_new_parent', '_mock_name', '_mock_new_name'}


def _check_not_assertion(mock, name):
    if mock._mock_unsafe or (mock._mock_methods and name in mock._mock_methods):
        return
    if name.startswith(('assert', 'assret', 'asert', 'aseert', 'assrt')):
        raise AttributeError(
            f"{name!r} is not a valid assertion. Use a spec "
            f"for the mock if {name!r} is meant to be an attribute.")


class NonCallableMock:
    """A mock object that records attribute access; calling it is a TypeError."""

    def __init__(self, spec=None, wraps=None, name=None, spec_set=None, parent=None,
                 _spec_state=None, _new_name='', _new_parent=None, _spec_as_instance=False,
                 _eat_self=None, unsafe=False, **kwargs):
        _set(self, '_mock_parent', parent)
        _set(self, '_mock_name', name)
        _set(self, '_mock_new_name', _new_name)
        _set(self, '_mock_new_parent', _new_parent)
        _set(self, '_mock_sealed', False)
        if spec_set is not None:
            spec = spec_set
            spec_set = True
        _set(self, '_mock_methods', None)
        _set(self, '_spec_class', None)
        _set(self, '_spec_set', None)
        _set(self, '_mock_children', {})
        _set(self, '_mock_wraps', wraps)
        _set(self, '_mock_unsafe', unsafe)
        _set(self, '_mock_return_value', DEFAULT)
        _set(self, '_mock_side_effect', None)
        _set(self, 'method_calls', _CallList())
        _set(self, 'mock_calls', _CallList())
        _set(self, 'called', False)
        _set(self, 'call_count', 0)
        _set(self, 'call_args', None)
        _set(self, 'call_args_list', _CallList())
        self._mock_add_spec(spec, spec_set)
        if kwargs:
            self.configure_mock(**kwargs)
        self._mock_setup_magics()

    def _mock_setup_magics(self):
        pass

    def _mock_add_spec(self, spec, spec_set):
        methods = None
        spec_class = None
        if spec is not None and not isinstance(spec, (list, tuple)):
            spec_class = spec if isinstance(spec, type) else type(spec)
            methods = dir(spec)
        elif spec is not None:
            methods = list(spec)
        _set(self, '_spec_class', spec_class)
        _set(self, '_spec_set', spec_set)
        _set(self, '_mock_methods', methods)

    def mock_add_spec(self, spec, spec_set=False):
        self._mock_add_spec(spec, spec_set)

    def attach_mock(self, mock, attribute):
        inner = mock
        _set(inner, '_mock_parent', None)
        _set(inner, '_mock_new_parent', None)
        _set(inner, '_mock_name', '')
        _set(inner, '_mock_new_name', None)
        setattr(self, attribute, mock)

    def configure_mock(self, **kwargs):
        for arg, val in sorted(kwargs.items(), key=lambda entry: entry[0].count('.')):
            path = arg.split('.')
            final = path.pop()
            obj = self
            for entry in path:
                obj = getattr(obj, entry)
            setattr(obj, final, val)

    @property
    def __class__(self):
        if self._spec_class is None:
            return type(self)
        return self._spec_class

    def _get_return_value(self):
        ret = self._mock_return_value
        if ret is DEFAULT and self._mock_wraps is None:
            ret = self._get_child_mock(_new_parent=self, _new_name='()')
            _set(self, '_mock_return_value', ret)
        return ret

    def _set_return_value(self, value):
        _set(self, '_mock_return_value', value)
        if _is_mock(value) and value._mock_new_parent is None and value._mock_name is None \
                and not _is_ancestor(value, self):
            _set(value, '_mock_new_parent', self)
            _set(value, '_mock_new_name', '()')

    return_value = property(_get_return_value, _set_return_value)

    def _get_side_effect(self):
        return self._mock_side_effect

    def _set_side_effect(self, value):
        if value is not None and not _is_exception(value) and not callable(value):
            try:
                value = iter(value)
            except TypeError:
                pass
        _set(self, '_mock_side_effect', value)

    side_effect = property(_get_side_effect, _set_side_effect)

    def reset_mock(self, visited=None, *, return_value=False, side_effect=False):
        if visited is None:
            visited = []
        if any(v is self for v in visited):
            return
        visited.append(self)
        _set(self, 'called', False)
        _set(self, 'call_args', None)
        _set(self, 'call_count', 0)
        _set(self, 'mock_calls', _CallList())
        _set(self, 'call_args_list', _CallList())
        _set(self, 'method_calls', _CallList())
        if return_value:
            _set(self, '_mock_return_value', DEFAULT)
        if side_effect:
            _set(self, '_mock_side_effect', None)
        for child in list(self._mock_children.values()):
            if _is_mock(child) and child is not _deleted:
                child.reset_mock(visited, return_value=return_value, side_effect=side_effect)
        ret = self._mock_return_value
        if _is_mock(ret) and ret is not self:
            ret.reset_mock(visited)

    def _get_child_mock(self, **kw):
        klass = type(self)
        if issubclass(klass, MagicMixin):
            klass = MagicMock
        elif issubclass(klass, NonCallableMock):
            klass = Mock
        if self._mock_sealed:
            name = kw.get('name')
            attribute = '.' + name if name else '()'
            raise AttributeError(self._extract_mock_name() + attribute)
        return klass(**kw)

    def __getattr__(self, name):
        if name in ('_mock_methods', '_mock_unsafe', '_mock_children', '__dict__'):
            raise AttributeError(name)
        if self._mock_methods is not None:
            if name not in self._mock_methods:
                raise AttributeError('Mock object has no attribute %r' % name)
        elif _is_magic(name):
            raise AttributeError(name)
        _check_not_assertion(self, name)
        children = self._mock_children
        result = children.get(name)
        if result is _deleted:
            raise AttributeError(name)
        if result is None:
            wraps = None
            if self._mock_wraps is not None:
                wraps = getattr(self._mock_wraps, name)
            result = self._get_child_mock(parent=self, name=name, wraps=wraps,
                                          _new_name=name, _new_parent=self)
            children[name] = result
        return result

    def __setattr__(self, name, value):
        if name in _allowed_names:
            return object.__setattr__(self, name, value)
        if (self._spec_set and self._mock_methods is not None
                and name not in self._mock_methods and name not in self.__dict__):
            raise AttributeError("Mock object has no attribute '%s'" % name)
        if name in _unsupported_magics:
            raise AttributeError('Attempting to set unsupported magic method %r.' % name)
        if _is_magic(name) and name in _magics:
            if self._mock_methods is not None and name not in self._mock_methods:
                raise AttributeError("Mock object has no attribute '%s'" % name)
            if _is_mock(value):
                self._mock_children[name] = value
                _attach(self, value, name, name)
                _set(self, name, value)
            else:
                method = value
                this = self
                bound = lambda *args, **kw: method(this, *args, **kw)
                self._mock_children[name] = bound
                _set(self, name, bound)
            return None
        if self._mock_sealed and not hasattr(self, name):
            raise AttributeError(f'Cannot set {self._extract_mock_name()}.{name}')
        if _is_mock(value) and _attach(self, value, name, name):
            self._mock_children[name] = value
            if name in self.__dict__:
                object.__delattr__(self, name)
            return None
        if name in self._mock_children:
            del self._mock_children[name]
        _set(self, name, value)
        return None

    def __delattr__(self, name):
        obj = self._mock_children.get(name, _missing)
        if name in self.__dict__:
            object.__delattr__(self, name)
        elif obj is _deleted:
            raise AttributeError(name)
        if obj is not _missing:
            del self._mock_children[name]
        self._mock_children[name] = _deleted

    def _extract_mock_name(self):
        names = [self._mock_new_name]
        parent = self._mock_new_parent
        last = self
        dot = '' if names == ['()'] else '.'
        while parent is not None:
            last = parent
            names.append(parent._mock_new_name + dot)
            dot = '' if parent._mock_new_name == '()' else '.'
            parent = parent._mock_new_parent
        names.reverse()
        first = last._mock_name or 'mock'
        if len(names) > 1 and names[1] not in ('()', '().'):
            first += '.'
        names[0] = first
        return ''.join(names)

    def __repr__(self):
        name = self._extract_mock_name()
        name_string = '' if name in ('mock', 'mock.') else ' name=%r' % name
        spec_string = ''
        if self._spec_class is not None:
            spec_string = (' spec_set=%r' if self._spec_set else ' spec=%r') % \
                self._spec_class.__name__
        return "<%s%s%s id='%s'>" % (type(self).__name__, name_string, spec_string, id(self))

    def __dir__(self):
        extras = self._mock_methods or []
        from_type = dir(type(self))
        from_dict = list(self.__dict__)
        from_child = [n for n, v in self._mock_children.items() if v is not _deleted]
        if FILTER_DIR:
            from_type = [e for e in from_type if not e.startswith('_')]
            from_dict = [e for e in from_dict if not e.startswith('_') or _is_magic(e)]
        return sorted(set(extras + from_type + from_dict + from_child))

    # ------------------------------------------------------------- assertions

    def _label(self):
        return self._mock_name or 'mock'

    def _format_mock_call_signature(self, args, kwargs):
        return _format_call_signature(self._label(), args, kwargs)

    def _format_mock_failure_message(self, args, kwargs, action='call'):
        expected = self._format_mock_call_signature(args, kwargs)
        actual = self._format_mock_call_signature(*self.call_args)
        return 'expected %s not found.\nExpected: %s\nActual: %s' % (action, expected, actual)

    def _calls_repr(self, prefix='Calls'):
        if not self.mock_calls:
            return ''
        return f'\n{prefix}: {_safe_repr(self.mock_calls)}.'

    def assert_not_called(self):
        if self.call_count != 0:
            raise AssertionError("Expected '%s' to not have been called. Called %s times.%s"
                                 % (self._label(), self.call_count, self._calls_repr()))

    def assert_called(self):
        if self.call_count == 0:
            raise AssertionError("Expected '%s' to have been called." % self._label())

    def assert_called_once(self):
        if not self.call_count == 1:
            raise AssertionError("Expected '%s' to have been called once. Called %s times.%s"
                                 % (self._label(), self.call_count, self._calls_repr()))

    def assert_called_with(self, /, *args, **kwargs):
        if self.call_args is None:
            expected = self._format_mock_call_signature(args, kwargs)
            raise AssertionError('expected call not found.\nExpected: %s\nActual: %s'
                                 % (expected, 'not called.'))
        if _Call('', args, kwargs, two=True) != self.call_args:
            raise AssertionError(self._format_mock_failure_message(args, kwargs))

    def assert_called_once_with(self, /, *args, **kwargs):
        if not self.call_count == 1:
            raise AssertionError("Expected '%s' to be called once. Called %s times.%s"
                                 % (self._label(), self.call_count, self._calls_repr()))
        return self.assert_called_with(*args, **kwargs)

    def assert_has_calls(self, calls, any_order=False):
        expected = list(calls)
        all_calls = _CallList(self.mock_calls)
        if not any_order:
            if expected not in all_calls:
                raise AssertionError(
                    'Calls not found.\n'
                    f'Expected: {_CallList(calls)!r}'
                    f'{self._calls_repr(prefix="Actual").rstrip(".")}')
            return
        remaining = list(all_calls)
        not_found = []
        for kall in expected:
            try:
                remaining.remove(kall)
            except ValueError:
                not_found.append(kall)
        if not_found:
            raise AssertionError(
                '%r does not contain all of %r in its call list, found %r instead'
                % (self._label(), tuple(not_found), remaining))

    def assert_any_call(self, /, *args, **kwargs):
        expected = _Call('', args, kwargs, two=True)
        if not any(expected == c for c in self.call_args_list):
            raise AssertionError('%s call not found'
                                 % self._format_mock_call_signature(args, kwargs))


def _is_mock(obj):
    return isinstance(obj, NonCallableMock)


def _is_ancestor(value, mock):
    """Whether value is mock or one of its parents (attaching it would make a cycle)."""
    node = mock
    while node is not None:
        if node is value:
            return True
        node = node._mock_new_parent
    return False


def _attach(parent, value, name, new_name):
    """Make value a child of parent unless it already has a name or a parent."""
    if not _is_mock(value):
        return False
    if value._mock_name or value._mock_new_name or value._mock_parent is not None \
            or value._mock_new_parent is not None or _is_ancestor(value, parent):
        return False
    _set(value, '_mock_parent', parent)
    _set(value, '_mock_new_parent', parent)
    _set(value, '_mock_name', name)
    _set(value, '_mock_new_name', new_name)
    return True


class CallableMixin:
    def __call__(self, /, *args, **kwargs):
        self._mock_check_sig(*args, **kwargs)
        self._increment_mock_call(*args, **kwargs)
        return self._execute_mock_call(*args, **kwargs)

    def _mock_check_sig(self, *args, **kwargs):
        pass

    def _increment_mock_call(self, /, *args, **kwargs):
        _set(self, 'called', True)
        _set(self, 'call_count', self.call_count + 1)
        this_call = _Call('', args, kwargs, two=True)
        _set(self, 'call_args', this_call)
        self.call_args_list.append(this_call)

        record_methods = self._mock_parent is not None
        method_name = self._mock_name
        mock_call_name = self._mock_new_name
        is_a_call = mock_call_name == '()'
        self.mock_calls.append(_Call('', args, kwargs))
        parent = self._mock_new_parent
        while parent is not None:
            if record_methods:
                parent.method_calls.append(_Call(method_name, args, kwargs))
                record_methods = parent._mock_parent is not None
                if record_methods:
                    method_name = parent._mock_name + '.' + method_name
            parent.mock_calls.append(_Call(mock_call_name, args, kwargs))
            if parent._mock_new_name:
                dot = '' if is_a_call else '.'
                is_a_call = parent._mock_new_name == '()'
                mock_call_name = parent._mock_new_name + dot + mock_call_name
            parent = parent._mock_new_parent

    def _execute_mock_call(self, /, *args, **kwargs):
        effect = self.side_effect
        if effect is not None:
            if _is_exception(effect):
                raise effect
            if not callable(effect):
                result = next(effect)
                if _is_exception(result):
                    raise result
            else:
                result = effect(*args, **kwargs)
            if result is not DEFAULT:
                return result
        if self._mock_return_value is not DEFAULT:
            return self.return_value
        if self._mock_wraps is not None:
            return self._mock_wraps(*args, **kwargs)
        return self.return_value


class Mock(CallableMixin, NonCallableMock):
    """A callable mock: records its calls, returns return_value or runs side_effect."""

    def __init__(self, spec=None, side_effect=None, return_value=DEFAULT, wraps=None,
                 name=None, spec_set=None, parent=None, _spec_state=None, _new_name='',
                 _new_parent=None, **kwargs):
        NonCallableMock.__init__(self, spec=spec, wraps=wraps, name=name, spec_set=spec_set,
                                 parent=parent, _spec_state=_spec_state, _new_name=_new_name,
                                 _new_parent=_new_parent, **kwargs)
        _set(self, '_mock_return_value', return_value)
        self.side_effect = side_effect


# ----------------------------------------------------------------- magic methods

def _magic_default(mock, name, child):
    """Configure a fresh magic child as MagicMock does."""
    if name in _return_values:
        _set(child, '_mock_return_value', _return_values[name])
    elif name == '__hash__':
        _set(child, '_mock_return_value', object.__hash__(mock))
    elif name == '__str__':
        _set(child, '_mock_return_value', object.__str__(mock))
    elif name == '__sizeof__':
        sizeof = getattr(object, '__sizeof__', None)
        _set(child, '_mock_return_value', sizeof(mock) if sizeof else 48)  # no object.__sizeof__ here
    elif name == '__iter__':
        def iterate(*args, **kw):
            ret = child._mock_return_value
            return iter([]) if ret is DEFAULT else iter(ret)
        _set(child, '_mock_side_effect', iterate)
    elif name == '__eq__':
        def equal(other):
            ret = child._mock_return_value
            if ret is not DEFAULT:
                return ret
            return True if mock is other else NotImplemented
        _set(child, '_mock_side_effect', equal)
    elif name == '__ne__':
        def not_equal(other):
            ret = child._mock_return_value
            if ret is not DEFAULT:
                return ret
            return False if mock is other else NotImplemented
        _set(child, '_mock_side_effect', not_equal)


def _magic_child(self, name):
    child = self._mock_children.get(name)
    if child is None:
        if self._mock_methods is not None and name not in self._mock_methods:
            raise AttributeError(name)
        child = MagicMock(parent=self, name=name, _new_name=name, _new_parent=self,
                          _mock_lazy=True)
        _magic_default(self, name, child)
        self._mock_children[name] = child
        _set(self, name, child)
    return child


def _magic_method(name):
    def method(self, /, *args, **kwargs):
        return _magic_child(self, name)(*args, **kwargs)
    method.__name__ = name
    return method


class MagicMixin:
    def __init__(self, *args, _mock_lazy=False, **kw):
        _set(self, '_mock_lazy', _mock_lazy)
        super().__init__(*args, **kw)

    def _mock_setup_magics(self):
        if self._mock_lazy:
            return
        methods = self._mock_methods
        for name in _magics:
            if name in _non_defaults or name in self._mock_children:
                continue
            if methods is not None and name not in methods:
                continue
            _magic_child(self, name)

    def mock_add_spec(self, spec, spec_set=False):
        self._mock_add_spec(spec, spec_set)
        self._mock_setup_magics()


for _name in sorted(_magics):
    setattr(MagicMixin, _name, _magic_method(_name))
del _name


class NonCallableMagicMock(MagicMixin, NonCallableMock):
    """A MagicMock that cannot be called."""


class MagicMock(MagicMixin, Mock):
    """A Mock with the magic methods configured (len is 0, iter is empty, with works...)."""


class PropertyMock(Mock):
    """A mock used as a property on a class: getting calls it, setting calls it with the value."""

    def _get_child_mock(self, **kwargs):
        return MagicMock(**kwargs)

    def __get__(self, obj, obj_type=None):
        return self()

    def __set__(self, obj, val):
        self(val)


class AsyncMock(MagicMock):
    """A MagicMock with the await assertions (the language has no async def: calls are not
    awaitable)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _set(self, 'await_count', 0)
        _set(self, 'await_args', None)
        _set(self, 'await_args_list', _CallList())

    def assert_awaited(self):
        if self.await_count == 0:
            raise AssertionError(f"Expected {self._label()} to have been awaited.")

    def assert_awaited_once(self):
        if not self.await_count == 1:
            raise AssertionError(f"Expected {self._label()} to have been awaited once."
                                 f" Awaited {self.await_count} times.")

    def assert_not_awaited(self):
        if self.await_count != 0:
            raise AssertionError(f"Expected {self._label()} to not have been awaited."
                                 f" Awaited {self.await_count} times.")


# ----------------------------------------------------------------- autospec

def create_autospec(spec, spec_set=False, instance=False, _parent=None, _name=None,
                    *, unsafe=False, **kwargs):
    """A mock with spec's attributes whose calls are checked against spec's signature."""
    is_type = isinstance(spec, type)
    kwargs['name'] = _name if _name is not None else kwargs.get('name')
    if kwargs['name'] is None:
        del kwargs['name']
    if spec_set:
        kwargs['spec_set'] = spec
    else:
        kwargs['spec'] = spec
    if inspect.isfunction(spec) or inspect.ismethod(spec) or inspect.isbuiltin(spec):
        klass = MagicMock if not inspect.iscoroutinefunction(spec) else AsyncMock
    elif is_type and not instance:
        klass = MagicMock
    elif not callable(spec) or instance:
        klass = NonCallableMagicMock
    else:
        klass = MagicMock
    mock = klass(**kwargs)
    _set(mock, '_autospec', spec)
    _set(mock, '_autospec_self', instance)
    if callable(spec) and not (is_type and instance):
        try:
            sig = inspect.signature(spec)
        except (TypeError, ValueError):
            sig = None
        if sig is not None:
            _set(mock, '_mock_signature', sig)
            _set(mock, '_mock_check_sig', lambda *a, **k: sig.bind(*a, **k))
    if is_type and not instance:
        mock.return_value = create_autospec(spec, spec_set, instance=True)
    for entry in dir(spec):
        if _is_magic(entry):
            continue
        try:
            original = getattr(spec, entry)
        except AttributeError:
            continue
        if inspect.isfunction(original) or inspect.ismethod(original):
            child = create_autospec(original, spec_set, _name=entry)
            if is_type and inspect.isfunction(original) and \
                    not isinstance(spec.__dict__.get(entry), staticmethod):
                sig = _drop_self(original)
                if sig is not None:
                    _set(child, '_mock_check_sig', lambda *a, _s=sig, **k: _s.bind(*a, **k))
            setattr(mock, entry, child)
    return mock


def _drop_self(func):
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    params = list(sig.parameters.values())[1:]
    return sig.replace(parameters=params)


def seal(mock):
    """Stop mock (and its children) from creating new attributes on access."""
    _set(mock, '_mock_sealed', True)
    for child in list(mock._mock_children.values()):
        if _is_mock(child) and child._mock_new_parent is mock:
            seal(child)
    ret = mock._mock_return_value
    if _is_mock(ret) and ret is not mock:
        seal(ret)


# ----------------------------------------------------------------- patch

def _dot_lookup(thing, comp, import_path):
    try:
        return getattr(thing, comp)
    except AttributeError:
        importlib.import_module(import_path)
        return getattr(thing, comp)


def _importer(target):
    components = target.split('.')
    import_path = components.pop(0)
    thing = importlib.import_module(import_path)
    for comp in components:
        import_path += '.%s' % comp
        thing = _dot_lookup(thing, comp, import_path)
    return thing


def _get_target(target):
    try:
        target, attribute = target.rsplit('.', 1)
    except (TypeError, ValueError, AttributeError):
        raise TypeError(f'Need a valid target to patch. You supplied: {target!r}')
    return (lambda: _importer(target)), attribute


_active_patches = []


def _decorate(patcher, func):
    """Wrap func (or each test method of a class) so patcher is active during each call."""
    if isinstance(func, type):
        for attr in dir(func):
            if not attr.startswith(patch.TEST_PREFIX):
                continue
            value = getattr(func, attr)
            if not callable(value):
                continue
            setattr(func, attr, patcher.copy()(value))
        return func
    patchings = getattr(func, 'patchings', None)
    if patchings is not None:
        patchings.append(patcher)
        return func

    def patched(*args, **keywargs):
        entered = []
        extra_args = list(args)
        try:
            for patching in patched.patchings:
                arg = patching.__enter__()
                entered.append(patching)
                if patching.attribute_name is not None:
                    keywargs.update(arg)
                elif patching.new is DEFAULT:
                    extra_args.append(arg)
            return func(*extra_args, **keywargs)
        finally:
            info = sys.exc_info()
            for patching in reversed(entered):
                patching.__exit__(*info)
    patched.patchings = [patcher]
    for attr in ('__module__', '__name__', '__qualname__', '__doc__'):
        try:
            setattr(patched, attr, getattr(func, attr))
        except (AttributeError, TypeError):
            pass
    patched.__wrapped__ = func
    return patched


class _patch:
    attribute_name = None

    def __init__(self, getter, attribute, new, spec, create, spec_set, autospec,
                 new_callable, kwargs, *, unsafe=False):
        if new_callable is not None:
            if new is not DEFAULT:
                raise ValueError("Cannot use 'new' and 'new_callable' together")
            if autospec is not None:
                raise ValueError("Cannot use 'autospec' and 'new_callable' together")
        self.getter = getter
        self.attribute = attribute
        self.new = new
        self.new_callable = new_callable
        self.spec = spec
        self.create = create
        self.has_local = False
        self.spec_set = spec_set
        self.autospec = autospec
        self.kwargs = kwargs
        self.additional_patchers = []
        self.unsafe = unsafe
        self.is_started = False

    def copy(self):
        patcher = _patch(self.getter, self.attribute, self.new, self.spec, self.create,
                         self.spec_set, self.autospec, self.new_callable, self.kwargs,
                         unsafe=self.unsafe)
        patcher.attribute_name = self.attribute_name
        patcher.additional_patchers = [p.copy() for p in self.additional_patchers]
        return patcher

    def __call__(self, func):
        return _decorate(self, func)

    def get_original(self):
        target = self.getter()
        name = self.attribute
        original = DEFAULT
        local = False
        try:
            original = vars(target)[name]
        except (AttributeError, KeyError, TypeError):
            original = getattr(target, name, DEFAULT)
        else:
            local = True
        if isinstance(target, type(sys)) and original is not DEFAULT:
            local = True
        if name in ('__builtins__',) and isinstance(target, type(sys)):
            self.create = True
        if not self.create and original is DEFAULT:
            raise AttributeError('%s does not have the attribute %r' % (target, name))
        return original, local

    def __enter__(self):
        new, spec, spec_set = self.new, self.spec, self.spec_set
        autospec, kwargs = self.autospec, self.kwargs
        new_callable = self.new_callable
        self.target = self.getter()
        if spec is False:
            spec = None
        if spec_set is False:
            spec_set = None
        if autospec is False:
            autospec = None
        if spec is not None and autospec is not None:
            raise TypeError("Can't specify spec and autospec")
        if (spec is not None or autospec is not None) and spec_set not in (True, None):
            raise TypeError("Can't provide explicit spec_set *and* spec or autospec")
        original, local = self.get_original()
        if new is DEFAULT and autospec is None:
            if spec is True:
                spec = original
                if spec_set is True:
                    spec_set = original
                    spec = None
            elif spec is not None:
                if spec_set is True:
                    spec_set = spec
                    spec = None
            elif spec_set is True:
                spec_set = original
            if spec is not None or spec_set is not None:
                if original is DEFAULT:
                    raise TypeError("Can't use 'spec' with create=True")
            klass = MagicMock if new_callable is None else new_callable
            if new_callable is None:
                this_spec = spec if spec is not None else spec_set
                if this_spec is not None and not callable(this_spec):
                    klass = NonCallableMagicMock
            extra = {}
            if spec is not None:
                extra['spec'] = spec
            if spec_set is not None:
                extra['spec_set'] = spec_set
            if isinstance(klass, type) and issubclass(klass, NonCallableMock) and self.attribute:
                extra['name'] = self.attribute
            extra.update(kwargs)
            new = klass(**extra)
            if (spec is not None or spec_set is not None) and _is_mock(new):
                this_spec = spec if spec is not None else spec_set
                if isinstance(this_spec, type):
                    new.return_value = klass(spec=this_spec if spec is not None else None,
                                             spec_set=spec_set if spec is None else None,
                                             _new_name='()', _new_parent=new)
        elif autospec is not None:
            if new is not DEFAULT:
                raise TypeError("autospec creates the mock for you. Can't specify "
                                "autospec and new.")
            if original is DEFAULT:
                raise TypeError("Can't use 'autospec' with create=True")
            spec_set = bool(spec_set)
            if autospec is True:
                autospec = original
            new = create_autospec(autospec, spec_set=spec_set, _name=self.attribute,
                                  **kwargs)
        elif kwargs:
            raise TypeError("Can't pass kwargs to a mock we aren't creating")
        new_attr = new
        self.temp_original = original
        self.is_local = local
        self._exit_stack = []
        setattr(self.target, self.attribute, new_attr)
        try:
            if self.attribute_name is not None:
                extra_args = {}
                if self.new is DEFAULT:
                    extra_args[self.attribute_name] = new
                for patching in self.additional_patchers:
                    arg = patching.__enter__()
                    self._exit_stack.append(patching)
                    if patching.new is DEFAULT:
                        extra_args.update(arg)
                return extra_args
            return new
        except BaseException:
            self.__exit__(*sys.exc_info())
            raise

    def __exit__(self, *exc_info):
        if not hasattr(self, 'temp_original'):
            return None
        if self.is_local and self.temp_original is not DEFAULT:
            setattr(self.target, self.attribute, self.temp_original)
        else:
            try:
                delattr(self.target, self.attribute)
            except (AttributeError, TypeError):
                pass
            if not self.create and (not hasattr(self.target, self.attribute) or
                                    self.attribute in ('__doc__', '__module__',
                                                       '__defaults__', '__annotations__',
                                                       '__kwdefaults__')):
                setattr(self.target, self.attribute, self.temp_original)
        del self.temp_original
        del self.is_local
        del self.target
        stack = self._exit_stack
        self._exit_stack = []
        for patcher in reversed(stack):
            patcher.__exit__(*exc_info)
        return None

    def start(self):
        result = self.__enter__()
        _active_patches.append(self)
        return result

    def stop(self):
        try:
            _active_patches.remove(self)
        except ValueError:
            pass
        return self.__exit__(None, None, None)


def _patch_object(target, attribute, new=DEFAULT, spec=None, create=False, spec_set=None,
                  autospec=None, new_callable=None, *, unsafe=False, **kwargs):
    if type(target) is str:
        raise TypeError(f'{target!r} must be the actual object to be patched, not a str')
    return _patch(lambda: target, attribute, new, spec, create, spec_set, autospec,
                  new_callable, kwargs, unsafe=unsafe)


def _patch_multiple(target, spec=None, create=False, spec_set=None, autospec=None,
                    new_callable=None, **kwargs):
    if type(target) is str:
        getter = lambda: _importer(target)
    else:
        getter = lambda: target
    if not kwargs:
        raise ValueError('Must supply at least one keyword argument with patch.multiple')
    items = list(kwargs.items())
    attribute, new = items[0]
    patcher = _patch(getter, attribute, new, spec, create, spec_set, autospec, new_callable, {})
    patcher.attribute_name = attribute
    for attribute, new in items[1:]:
        this = _patch(getter, attribute, new, spec, create, spec_set, autospec, new_callable, {})
        this.attribute_name = attribute
        patcher.additional_patchers.append(this)
    return patcher


def patch(target, new=DEFAULT, spec=None, create=False, spec_set=None, autospec=None,
          new_callable=None, *, unsafe=False, **kwargs):
    """Replace target ('package.module.name') with new (a MagicMock by default) while active."""
    getter, attribute = _get_target(target)
    return _patch(getter, attribute, new, spec, create, spec_set, autospec, new_callable,
                  kwargs, unsafe=unsafe)


class _patch_dict:
    """Set values in a dictionary (or a mapping named by a string) while active."""

    def __init__(self, in_dict, values=(), clear=False, **kwargs):
        self.in_dict = in_dict
        self.values = dict(values)
        self.values.update(kwargs)
        self.clear = clear
        self._original = None

    def __call__(self, f):
        if isinstance(f, type):
            for attr in dir(f):
                value = getattr(f, attr)
                if attr.startswith(patch.TEST_PREFIX) and callable(value):
                    decorator = _patch_dict(self.in_dict, self.values, self.clear)
                    setattr(f, attr, decorator(value))
            return f
        this = self

        def patched(*args, **kw):
            this._patch_dict()
            try:
                return f(*args, **kw)
            finally:
                this._unpatch_dict()
        for attr in ('__module__', '__name__', '__qualname__', '__doc__'):
            try:
                setattr(patched, attr, getattr(f, attr))
            except (AttributeError, TypeError):
                pass
        patched.__wrapped__ = f
        return patched

    def __enter__(self):
        self._patch_dict()
        return self.in_dict

    def _patch_dict(self):
        if isinstance(self.in_dict, str):
            self.in_dict = _importer(self.in_dict)
        in_dict = self.in_dict
        try:
            original = in_dict.copy()
        except AttributeError:
            original = {}
            for key in in_dict:
                original[key] = in_dict[key]
        self._original = original
        if self.clear:
            _clear_dict(in_dict)
        try:
            in_dict.update(self.values)
        except AttributeError:
            for key in self.values:
                in_dict[key] = self.values[key]

    def _unpatch_dict(self):
        in_dict = self.in_dict
        original = self._original
        _clear_dict(in_dict)
        try:
            in_dict.update(original)
        except AttributeError:
            for key in original:
                in_dict[key] = original[key]

    def __exit__(self, *args):
        if self._original is not None:
            self._unpatch_dict()
        return False

    def start(self):
        result = self.__enter__()
        _active_patches.append(self)
        return result

    def stop(self):
        try:
            _active_patches.remove(self)
        except ValueError:
            return None
        return self.__exit__(None, None, None)


def _clear_dict(in_dict):
    try:
        in_dict.clear()
    except AttributeError:
        for key in list(in_dict):
            del in_dict[key]


def _patch_stopall():
    for patcher in reversed(_active_patches[:]):
        patcher.stop()


patch.object = _patch_object
patch.dict = _patch_dict
patch.multiple = _patch_multiple
patch.stopall = _patch_stopall
patch.TEST_PREFIX = 'test'


# ----------------------------------------------------------------- mock_open

def mock_open(mock=None, read_data=''):
    """A MagicMock standing in for open(): its handle reads read_data."""
    state = {'data': read_data}

    def lines():
        data = state['data']
        if isinstance(data, bytes):
            sep = b'\n'
        else:
            sep = '\n'
        parts = data.split(sep)
        out = [p + sep for p in parts[:-1]]
        if parts[-1]:
            out.append(parts[-1])
        return out

    pending = {'lines': None}

    def remaining():
        if pending['lines'] is None:
            pending['lines'] = lines()
        return pending['lines']

    def read(*args, **kwargs):
        rest = remaining()
        joined = (b'' if isinstance(state['data'], bytes) else '').join(rest)
        pending['lines'] = []
        if args and args[0] is not None and args[0] >= 0:
            size = args[0]
            result, leftover = joined[:size], joined[size:]
            pending['lines'] = [leftover] if leftover else []
            return result
        return joined

    def readline(*args, **kwargs):
        rest = remaining()
        if not rest:
            return b'' if isinstance(state['data'], bytes) else ''
        return rest.pop(0)

    def readlines(*args, **kwargs):
        rest = remaining()
        out = list(rest)
        del rest[:]
        return out

    def iterate(*args, **kwargs):
        rest = remaining()
        while rest:
            yield rest.pop(0)

    def reset(*args, **kwargs):
        pending['lines'] = None
        return DEFAULT

    if mock is None:
        mock = MagicMock(name='open', spec=open)
    handle = MagicMock(spec=['read', 'readline', 'readlines', 'write', 'writelines', 'close',
                             'flush', 'seek', 'tell', 'fileno', '__enter__', '__exit__',
                             '__iter__', '__next__'])
    handle.__enter__.return_value = handle
    handle.write.return_value = None
    handle.read.side_effect = read
    handle.readline.side_effect = readline
    handle.readlines.side_effect = readlines
    handle.__iter__.side_effect = iterate
    handle.__next__ = MagicMock(side_effect=lambda *a: next(iter([readline()])))

    mock.side_effect = reset
    mock.return_value = handle
    return mock
