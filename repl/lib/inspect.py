# inspect, written in the language: signatures (Signature, Parameter, BoundArguments,
# getfullargspec), the is*/get* predicates scripts use and the source of a def
# (getsource, getsourcelines, getfile: its lines from __code__, repl/lib/_funcobj.py).
# A def's parameters come from its __nn_params__ ((name, kind) pairs, repl/func_attrs.c);
# a built-in class's from the first line of its __doc__ ("AdamW(params, lr=0.001, ...)").

import enum as _enum
from collections import OrderedDict as _OrderedDict
from collections import namedtuple as _namedtuple

_FunctionType = type(lambda: None)


class _empty:
    """Marker object for Signature.empty and Parameter.empty."""


class _void:
    """A private marker - used in Parameter & Signature."""


class _ParameterKind(_enum.IntEnum):
    POSITIONAL_ONLY = 0
    POSITIONAL_OR_KEYWORD = 1
    VAR_POSITIONAL = 2
    KEYWORD_ONLY = 3
    VAR_KEYWORD = 4

    def __str__(self):
        return self.name

    @property
    def description(self):
        return _KIND_DESCRIPTIONS[self.value]


_KIND_DESCRIPTIONS = ['positional-only', 'positional or keyword', 'variadic positional',
                      'keyword-only', 'variadic keyword']

POSITIONAL_ONLY = _ParameterKind.POSITIONAL_ONLY
POSITIONAL_OR_KEYWORD = _ParameterKind.POSITIONAL_OR_KEYWORD
VAR_POSITIONAL = _ParameterKind.VAR_POSITIONAL
KEYWORD_ONLY = _ParameterKind.KEYWORD_ONLY
VAR_KEYWORD = _ParameterKind.VAR_KEYWORD


def formatannotation(annotation, base_module=None):
    if getattr(annotation, '__module__', None) == 'typing':
        return repr(annotation).replace('typing.', '')
    if isinstance(annotation, type):
        if annotation.__module__ in ('builtins', base_module):
            return annotation.__qualname__
        return annotation.__module__ + '.' + annotation.__qualname__
    return repr(annotation)


class Parameter:
    empty = _empty
    POSITIONAL_ONLY = _ParameterKind.POSITIONAL_ONLY
    POSITIONAL_OR_KEYWORD = _ParameterKind.POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL = _ParameterKind.VAR_POSITIONAL
    KEYWORD_ONLY = _ParameterKind.KEYWORD_ONLY
    VAR_KEYWORD = _ParameterKind.VAR_KEYWORD

    def __init__(self, name, kind, *, default=_empty, annotation=_empty):
        try:
            kind = _ParameterKind(kind)
        except ValueError:
            raise ValueError(f'value {kind!r} is not a valid Parameter.kind')
        if default is not _empty and kind in (VAR_POSITIONAL, VAR_KEYWORD):
            raise ValueError(f'{kind.description} parameters cannot have default values')
        if not isinstance(name, str):
            raise TypeError('name must be a str, not a {}'.format(type(name).__name__))
        if not name.isidentifier():
            raise ValueError('{!r} is not a valid parameter name'.format(name))
        self._name = name
        self._kind = kind
        self._default = default
        self._annotation = annotation

    @property
    def name(self):
        return self._name

    @property
    def kind(self):
        return self._kind

    @property
    def default(self):
        return self._default

    @property
    def annotation(self):
        return self._annotation

    def replace(self, *, name=_void, kind=_void, annotation=_void, default=_void):
        return type(self)(self._name if name is _void else name, self._kind if kind is _void else kind,
                          default=self._default if default is _void else default,
                          annotation=self._annotation if annotation is _void else annotation)

    def __str__(self):
        formatted = self._name
        if self._annotation is not _empty:
            formatted = '{}: {}'.format(formatted, formatannotation(self._annotation))
        if self._default is not _empty:
            if self._annotation is not _empty:
                formatted = '{} = {}'.format(formatted, repr(self._default))
            else:
                formatted = '{}={}'.format(formatted, repr(self._default))
        if self._kind == VAR_POSITIONAL:
            formatted = '*' + formatted
        elif self._kind == VAR_KEYWORD:
            formatted = '**' + formatted
        return formatted

    def __repr__(self):
        return '<{} "{}">'.format(type(self).__name__, self)

    def __hash__(self):
        return hash((self._name, self._kind, self._annotation, self._default))

    def __eq__(self, other):
        if self is other:
            return True
        if not isinstance(other, Parameter):
            return NotImplemented
        return (self._name == other._name and self._kind == other._kind and
                self._default == other._default and self._annotation == other._annotation)


class BoundArguments:
    def __init__(self, signature, arguments):
        self.arguments = arguments
        self._signature = signature

    @property
    def signature(self):
        return self._signature

    @property
    def args(self):
        args = []
        for name, param in self._signature.parameters.items():
            if param.kind in (VAR_KEYWORD, KEYWORD_ONLY):
                break
            try:
                arg = self.arguments[name]
            except KeyError:
                break
            if param.kind == VAR_POSITIONAL:
                args.extend(arg)
            else:
                args.append(arg)
        return tuple(args)

    @property
    def kwargs(self):
        kwargs = {}
        kwargs_started = False
        for name, param in self._signature.parameters.items():
            if not kwargs_started:
                if param.kind in (VAR_KEYWORD, KEYWORD_ONLY):
                    kwargs_started = True
                elif name not in self.arguments:
                    kwargs_started = True
                    continue
            if not kwargs_started:
                continue
            try:
                arg = self.arguments[name]
            except KeyError:
                pass
            else:
                if param.kind == VAR_KEYWORD:
                    kwargs.update(arg)
                else:
                    kwargs[name] = arg
        return kwargs

    def apply_defaults(self):
        arguments = self.arguments
        new_arguments = []
        for name, param in self._signature.parameters.items():
            if name in arguments:
                new_arguments.append((name, arguments[name]))
            elif param.default is not _empty:
                new_arguments.append((name, param.default))
            elif param.kind == VAR_POSITIONAL:
                new_arguments.append((name, ()))
            elif param.kind == VAR_KEYWORD:
                new_arguments.append((name, {}))
        self.arguments = dict(new_arguments)

    def __eq__(self, other):
        if self is other:
            return True
        if not isinstance(other, BoundArguments):
            return NotImplemented
        return self.signature == other.signature and self.arguments == other.arguments

    def __repr__(self):
        args = ['{}={!r}'.format(k, v) for k, v in self.arguments.items()]
        return '<{} ({})>'.format(type(self).__name__, ', '.join(args))


class Signature:
    empty = _empty

    def __init__(self, parameters=None, *, return_annotation=_empty, __validate_parameters__=True):
        params = _OrderedDict()
        if parameters is not None:
            top_kind = POSITIONAL_ONLY
            seen_default = False
            for param in parameters:
                kind = param.kind
                name = param.name
                if __validate_parameters__:
                    if kind < top_kind:
                        raise ValueError('wrong parameter order: {} parameter before {} parameter'.format(
                            top_kind.description, kind.description))
                    top_kind = kind
                    if kind in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD):
                        if param.default is _empty:
                            if seen_default:
                                raise ValueError('non-default argument follows default argument')
                        else:
                            seen_default = True
                if name in params:
                    raise ValueError('duplicate parameter name: {!r}'.format(name))
                params[name] = param
        self._parameters = params
        self._return_annotation = return_annotation

    @classmethod
    def from_callable(cls, obj, *, follow_wrapped=True):
        return signature(obj, follow_wrapped=follow_wrapped)

    @property
    def parameters(self):
        return self._parameters

    @property
    def return_annotation(self):
        return self._return_annotation

    def replace(self, *, parameters=_void, return_annotation=_void):
        if parameters is _void:
            parameters = self._parameters.values()
        if return_annotation is _void:
            return_annotation = self._return_annotation
        return type(self)(parameters, return_annotation=return_annotation)

    def __eq__(self, other):
        if self is other:
            return True
        if not isinstance(other, Signature):
            return NotImplemented
        return (self._return_annotation == other._return_annotation and
                list(self._parameters.items()) == list(other._parameters.items()))

    def _bind(self, args, kwargs, partial=False):
        arguments = {}
        parameters = iter(self._parameters.values())
        parameters_ex = ()
        arg_vals = iter(args)
        while True:
            try:
                arg_val = next(arg_vals)
            except StopIteration:
                try:
                    param = next(parameters)
                except StopIteration:
                    break
                else:
                    if param.kind == VAR_POSITIONAL:
                        break
                    elif param.name in kwargs:
                        if param.kind == POSITIONAL_ONLY:
                            raise TypeError('{arg!r} parameter is positional only, '
                                            'but was passed as a keyword'.format(arg=param.name))
                        parameters_ex = (param,)
                        break
                    elif param.kind == VAR_KEYWORD or param.default is not _empty:
                        parameters_ex = (param,)
                        break
                    else:
                        if partial:
                            parameters_ex = (param,)
                            break
                        raise TypeError('missing a required argument: {arg!r}'.format(arg=param.name))
            else:
                try:
                    param = next(parameters)
                except StopIteration:
                    raise TypeError('too many positional arguments')
                else:
                    if param.kind in (VAR_KEYWORD, KEYWORD_ONLY):
                        raise TypeError('too many positional arguments')
                    if param.kind == VAR_POSITIONAL:
                        values = [arg_val]
                        values.extend(arg_vals)
                        arguments[param.name] = tuple(values)
                        break
                    if param.name in kwargs and param.kind != POSITIONAL_ONLY:
                        raise TypeError('multiple values for argument {arg!r}'.format(arg=param.name))
                    arguments[param.name] = arg_val
        kwargs_param = None
        for param in list(parameters_ex) + list(parameters):
            if param.kind == VAR_KEYWORD:
                kwargs_param = param
                continue
            if param.kind == VAR_POSITIONAL:
                continue
            param_name = param.name
            try:
                arg_val = kwargs.pop(param_name)
            except KeyError:
                if (not partial and param.kind != VAR_POSITIONAL and param.default is _empty):
                    raise TypeError('missing a required argument: {arg!r}'.format(arg=param_name))
            else:
                if param.kind == POSITIONAL_ONLY:
                    raise TypeError('{arg!r} parameter is positional only, '
                                    'but was passed as a keyword'.format(arg=param.name))
                arguments[param_name] = arg_val
        if kwargs:
            if kwargs_param is not None:
                arguments[kwargs_param.name] = kwargs
            else:
                raise TypeError('got an unexpected keyword argument {arg!r}'.format(arg=next(iter(kwargs))))
        return BoundArguments(self, arguments)

    def bind(self, *args, **kwargs):
        return self._bind(args, kwargs)

    def bind_partial(self, *args, **kwargs):
        return self._bind(args, kwargs, partial=True)

    def __str__(self):
        result = []
        render_pos_only_separator = False
        render_kw_only_separator = True
        for param in self.parameters.values():
            formatted = str(param)
            kind = param.kind
            if kind == POSITIONAL_ONLY:
                render_pos_only_separator = True
            elif render_pos_only_separator:
                result.append('/')
                render_pos_only_separator = False
            if kind == VAR_POSITIONAL:
                render_kw_only_separator = False
            elif kind == KEYWORD_ONLY and render_kw_only_separator:
                result.append('*')
                render_kw_only_separator = False
            result.append(formatted)
        if render_pos_only_separator:
            result.append('/')
        rendered = '({})'.format(', '.join(result))
        if self.return_annotation is not _empty:
            rendered += ' -> {}'.format(formatannotation(self.return_annotation))
        return rendered

    def __repr__(self):
        return '<{} {}>'.format(type(self).__name__, self)


def _function_signature(func, skip_first=False):
    pairs = func.__nn_params__
    defaults = func.__defaults__ or ()
    kwdefaults = func.__kwdefaults__ or {}
    annotations = func.__annotations__
    n_positional = sum(1 for _, kind in pairs if kind < 2)
    first_default = n_positional - len(defaults)
    params = []
    for i, (name, kind) in enumerate(pairs):
        if kind < 2:
            default = defaults[i - first_default] if i >= first_default else _empty
        elif kind == 3:
            default = kwdefaults.get(name, _empty)
        else:
            default = _empty
        params.append(Parameter(name, kind, default=default, annotation=annotations.get(name, _empty)))
    if skip_first:
        if not params or params[0].kind > POSITIONAL_OR_KEYWORD:
            if params and params[0].kind == VAR_POSITIONAL:
                pass
            else:
                raise ValueError('invalid method signature')
        else:
            params = params[1:]
    return Signature(params, return_annotation=annotations.get('return', _empty))


def _doc_signature(obj):
    # a built-in class's __doc__ starts "Name(params...)": the text in its parentheses
    doc = getattr(obj, '__doc__', None)
    if not isinstance(doc, str):
        return None
    line = doc.split('\n', 1)[0]
    open_at = line.find('(')
    if open_at <= 0 or not line.endswith(')'):
        return None
    text = line[open_at:]
    try:
        stub = eval('lambda ' + text[1:-1] + ': None')
    except Exception:
        return None
    return _function_signature(stub)


def signature(obj, *, follow_wrapped=True, globals=None, locals=None, eval_str=False):
    if not callable(obj):
        raise TypeError('{!r} is not a callable object'.format(obj))
    if follow_wrapped:
        seen = set()
        while hasattr(obj, '__wrapped__') and id(obj) not in seen:
            seen.add(id(obj))
            obj = obj.__wrapped__
    sig = getattr(obj, '__signature__', None) if not isinstance(obj, type) else obj.__dict__.get('__signature__')
    if sig is not None:
        if not isinstance(sig, Signature):
            raise TypeError('unexpected object {!r} in __signature__ attribute'.format(sig))
        return sig
    if isinstance(obj, _FunctionType):
        return _function_signature(obj)
    self_ = getattr(obj, '__self__', None)
    func = getattr(obj, '__func__', None)
    if func is not None and isinstance(func, _FunctionType):
        return _function_signature(func, skip_first=True)
    if hasattr(obj, 'func') and hasattr(obj, 'args') and hasattr(obj, 'keywords'):  # functools.partial
        return _partial_signature(signature(obj.func), obj.args, obj.keywords)
    if isinstance(obj, type):
        for klass in obj.__mro__:
            init = klass.__dict__.get('__init__')
            if init is not None and isinstance(init, _FunctionType):
                return _function_signature(init, skip_first=True)
            new = klass.__dict__.get('__new__')
            if new is not None and isinstance(new, _FunctionType):
                return _function_signature(new, skip_first=True)
            sig = _doc_signature(klass)
            if sig is not None:
                return sig
        raise ValueError('no signature found for builtin type {!r}'.format(obj))
    call = getattr(type(obj), '__call__', None)
    if call is not None and isinstance(call, _FunctionType):
        return _function_signature(call, skip_first=True)
    sig = _doc_signature(obj)
    if sig is not None:
        return sig
    raise ValueError('no signature found for builtin {!r}'.format(obj))


def _partial_signature(sig, args, keywords):
    params = list(sig.parameters.values())
    bound = sig.bind_partial(*args, **keywords)
    new_params = []
    transform_to_kwonly = False
    positional = len(args)
    for param in params:
        name = param.name
        if positional and param.kind in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD):
            positional -= 1
            continue
        if positional and param.kind == VAR_POSITIONAL:
            positional = 0
        if name in keywords and param.kind != VAR_KEYWORD:
            new_params.append(param.replace(default=keywords[name], kind=KEYWORD_ONLY)
                              if param.kind != KEYWORD_ONLY else param.replace(default=keywords[name]))
            transform_to_kwonly = True
            continue
        if transform_to_kwonly and param.kind in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD):
            param = param.replace(kind=KEYWORD_ONLY)
        new_params.append(param)
    new_params.sort(key=lambda p: p.kind)
    return sig.replace(parameters=new_params)


FullArgSpec = _namedtuple('FullArgSpec', 'args, varargs, varkw, defaults, kwonlyargs, kwonlydefaults, annotations')


def getfullargspec(func):
    try:
        sig = signature(func, follow_wrapped=False)
    except Exception:
        raise TypeError('unsupported callable')
    args, kwonlyargs = [], []
    varargs = varkw = None
    annotations = {}
    defaults = ()
    kwdefaults = {}
    if sig.return_annotation is not _empty:
        annotations['return'] = sig.return_annotation
    if isinstance(func, _FunctionType) or getattr(func, '__func__', None) is not None:
        first = getattr(func, '__func__', func)
        params = list(_function_signature(first).parameters.values())
    else:
        params = list(sig.parameters.values())
    for param in params:
        kind = param.kind
        name = param.name
        if kind in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD):
            args.append(name)
            if param.default is not _empty:
                defaults += (param.default,)
        elif kind == VAR_POSITIONAL:
            varargs = name
        elif kind == KEYWORD_ONLY:
            kwonlyargs.append(name)
            if param.default is not _empty:
                kwdefaults[name] = param.default
        else:
            varkw = name
        if param.annotation is not _empty:
            annotations[name] = param.annotation
    return FullArgSpec(args, varargs, varkw, defaults or None, kwonlyargs, kwdefaults or None, annotations)


def isclass(obj):
    return isinstance(obj, type)


def isfunction(obj):
    return isinstance(obj, _FunctionType)


def ismethod(obj):
    return type(obj).__name__ == 'method'


def ismodule(obj):
    return type(obj).__name__ == 'module'


def isbuiltin(obj):
    return type(obj).__name__ == 'builtin_function_or_method'


def isroutine(obj):
    return isfunction(obj) or ismethod(obj) or isbuiltin(obj)


def isgeneratorfunction(obj):
    obj = getattr(obj, '__func__', obj)
    return isinstance(obj, _FunctionType) and obj.__nn_is_gen__


def isgenerator(obj):
    return type(obj).__name__ == 'generator'


def iscoroutinefunction(obj):
    return False


def isabstract(obj):
    return bool(getattr(obj, '__abstractmethods__', False))


def getmro(cls):
    return cls.__mro__


def getmembers(obj, predicate=None):
    results = []
    for key in dir(obj):
        try:
            value = getattr(obj, key)
        except AttributeError:
            continue
        if predicate is None or predicate(value):
            results.append((key, value))
    results.sort(key=lambda pair: pair[0])
    return results


def cleandoc(doc):
    lines = doc.expandtabs().split('\n')
    margin = None
    for line in lines[1:]:
        content = len(line.lstrip())
        if content:
            indent = len(line) - content
            margin = indent if margin is None else min(margin, indent)
    if lines:
        lines[0] = lines[0].lstrip()
    if margin is not None:
        for i in range(1, len(lines)):
            lines[i] = lines[i][margin:]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return '\n'.join(lines)


def getdoc(obj):
    doc = getattr(obj, '__doc__', None)
    if not isinstance(doc, str):
        return None
    return cleandoc(doc)


def unwrap(func, *, stop=None):
    seen = set()
    while hasattr(func, '__wrapped__') and not (stop is not None and stop(func)):
        if id(func) in seen:
            raise ValueError('wrapper loop when unwrapping {!r}'.format(func))
        seen.add(id(func))
        func = func.__wrapped__
    return func


def _code_of(obj):
    obj = getattr(obj, '__func__', obj)
    code = getattr(obj, '__code__', None)
    if code is None:
        raise TypeError('module, class, method, function, traceback, frame, or code object was expected, '
                        'got {}'.format(type(obj).__name__))
    return code


def getfile(obj):
    return _code_of(obj).co_filename


def getsourcelines(obj):
    """The lines of a def (its decorators first) or of a lambda's line, and its first line."""
    code = _code_of(obj)
    try:
        with open(code.co_filename) as f:
            lines = f.read().splitlines(True)
    except OSError:
        raise OSError('could not get source code') from None
    start = code.co_firstlineno - 1
    if not 0 <= start < len(lines):
        raise OSError('could not get source code')
    if code.co_name == '<lambda>':
        return [lines[start]], start + 1
    head = start
    while head < len(lines) and lines[head].lstrip().startswith('@'):
        head += 1
    indent = len(lines[head]) - len(lines[head].lstrip())
    end = head + 1
    depth = sum(lines[head].count(c) for c in '([{') - sum(lines[head].count(c) for c in ')]}')
    while end < len(lines):
        text = lines[end]
        stripped = text.strip()
        if depth <= 0 and stripped and not stripped.startswith('#') and len(text) - len(text.lstrip()) <= indent:
            break
        depth += sum(text.count(c) for c in '([{') - sum(text.count(c) for c in ')]}')
        end += 1
    while end > head + 1 and not lines[end - 1].strip():
        end -= 1
    return lines[start:end], start + 1


def getsource(obj):
    return ''.join(getsourcelines(obj)[0])
