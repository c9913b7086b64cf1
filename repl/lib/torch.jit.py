# torch.jit as scripts use it, without TorchScript: nnscope does not compile the code, the Python
# runs as it is. torch.jit.script(module) and torch.jit.trace(module, example) give a module that
# shares the original's parameters and buffers (state_dict, named_parameters, train/eval of its
# own, as PyTorch's copy has) and prints as PyTorch 1.13 prints a script or traced module
# (original_name=...); functions become ScriptFunction objects calling the function. trace runs
# the example as tracing does (is_tracing() True while it traces; with check_trace, as 1.13, it
# traces twice and runs once more untraced), but calling the result runs the Python again, where
# PyTorch runs the recorded graph (a print in forward shows each call); is_scripting()
# is always False, since nothing is compiled. The decorators (ignore, unused, export,
# script_method) give back what they decorate. save/load raise NotImplementedError: a TorchScript
# archive holds compiled code (code/, constants.pkl), which nnscope cannot write or run.
import torch
import torch.nn as nn

_tracing = [False]


def is_scripting():
    return False


def is_tracing():
    return _tracing[0]


def _addindent(s, n):
    lines = s.split('\n')
    if len(lines) == 1:
        return s
    return lines[0] + '\n' + '\n'.join(' ' * n + line for line in lines[1:])


class ScriptModule(nn.Module):
    # the original module's tree, wrapped level by level: each level holds the original's own
    # parameters and buffers (the same tensors) and a wrapped copy of each child
    def __init__(self, original, child_class=None):
        super().__init__()
        self._original = [original]
        self._original_name = type(original).__name__
        child_class = child_class or type(self)
        for name, child in original.named_children():
            setattr(self, name, child_class(child))
        for name, p in original._parameters.items():
            self.register_parameter(name, p)
        for name, b in original._buffers.items():
            self.register_buffer(name, b)
        self.training = original.training
        self._share_attributes(original)

    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        return 'original_name=' + self._original_name

    def __repr__(self):
        lines = []
        extra = self.extra_repr()
        if extra:
            lines = extra.split('\n')
        for name, child in self._modules.items():
            lines.append('(' + name + '): ' + _addindent(repr(child), 2))
        main = self._get_name() + '('
        if lines:
            if len(lines) == 1 and not self._modules:
                main += lines[0]
            else:
                main += '\n  ' + '\n  '.join(lines) + '\n'
        return main + ')'

    def _pairs(self):
        yield self, self._original[0]
        for child in self._modules.values():
            if isinstance(child, ScriptModule):
                yield from child._pairs()

    def forward(self, *args, **kwargs):
        # the original's code with this module's train/eval flags, as the compiled copy would run
        saved = []
        for wrapper, original in self._pairs():
            saved.append((original, original.training))
            original.training = wrapper.training
        try:
            return self._original[0](*args, **kwargs)
        finally:
            for original, mode in saved:
                original.training = mode

    def _share_attributes(self, original):
        # the original's own methods (an exported or ignored one), bound to it, and its plain
        # attributes (a Final constant), as the compiled module has them
        for cls in getattr(type(original), '__mro__', ()):
            if cls is nn.Module or cls.__module__.startswith('torch.'):
                break
            for name, value in cls.__dict__.items():
                if callable(value) and not name.startswith('__') and name != 'forward' and not hasattr(self, name):
                    setattr(self, name, getattr(original, name))
        for name, value in getattr(original, '__dict__', {}).items():
            if not name.startswith('_') and name != 'training' and not isinstance(value, (nn.Module, torch.Tensor)):
                setattr(self, name, value)

    def save(self, f, _extra_files=None):
        save(self, f)

    @property
    def original_name(self):
        return self._original_name


ScriptModule.__module__ = 'torch.jit._script'


class RecursiveScriptModule(ScriptModule):
    pass


RecursiveScriptModule.__module__ = 'torch.jit._script'


class TracedModule(ScriptModule):
    def _get_name(self):
        return self._original_name


TracedModule.__module__ = 'torch.jit._trace'


class TopLevelTracedModule(TracedModule):
    def __init__(self, original):
        super().__init__(original, TracedModule)


TopLevelTracedModule.__module__ = 'torch.jit._trace'


class ScriptFunction:
    def __init__(self, fn):
        self._fn = fn
        self.name = getattr(fn, '__name__', 'fn')
        if self.name == '<lambda>':
            self.name = '_lambda'

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    def __repr__(self):
        return '<torch.jit.ScriptFunction object at ' + format(id(self), '#x') + '>'

    def save(self, f, _extra_files=None):
        save(self, f)


ScriptFunction.__module__ = 'torch.jit'


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    if isinstance(obj, (ScriptModule, ScriptFunction)):
        return obj
    if isinstance(obj, nn.Module):
        return RecursiveScriptModule(obj)
    if isinstance(obj, type):
        return obj  # a class: used as it is
    if callable(obj):
        return ScriptFunction(obj)
    raise RuntimeError('Type \'' + type(obj).__name__ + '\' cannot be compiled since it is not a function, '
                       'a class or a module')


def _run_traced(func, inputs, check):
    # tracing runs the code once; check_trace traces it again and runs it untraced to compare
    _tracing[0] = True
    try:
        func(*inputs)
        if check:
            func(*inputs)
    finally:
        _tracing[0] = False
    if check:
        func(*inputs)


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-05,
          strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None):
    if isinstance(func, (ScriptModule, ScriptFunction)):
        return func
    inputs = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    _run_traced(func, inputs, check_trace)
    if isinstance(func, nn.Module):
        return TopLevelTracedModule(func)
    return ScriptFunction(func)


def trace_module(mod, inputs, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-05,
                 strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None):
    for method, example in inputs.items():
        _run_traced(getattr(mod, method), example if isinstance(example, tuple) else (example,), check_trace)
    return TopLevelTracedModule(mod)


def ignore(drop=False, **kwargs):
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    return fn


def export(fn):
    return fn


def script_method(fn):
    return fn


def annotate(the_type, the_value):
    return the_value


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    # a new module over the same tensors (PyTorch's inlines them as constants)
    return RecursiveScriptModule(mod._original[0]) if isinstance(mod, ScriptModule) else mod


def optimize_for_inference(mod, other_methods=None):
    return mod


class _FinalForm:
    # typing.Final, which torch.jit.Final is: Final[int] in a class's annotations
    def __getitem__(self, item):
        return _FinalOf(item)

    def __repr__(self):
        return 'typing.Final'


class _FinalOf:
    def __init__(self, item):
        self.item = item

    def __repr__(self):
        name = self.item.__name__ if isinstance(self.item, type) else repr(self.item)
        return 'typing.Final[' + name + ']'


Final = _FinalForm()


def save(m, f, _extra_files=None):
    raise NotImplementedError('torch.jit.save: nnscope does not compile TorchScript, so it cannot write a '
                              'TorchScript archive (its code/ and constants.pkl); save the weights with '
                              'torch.save(model.state_dict(), f) instead')


def load(f, map_location=None, _extra_files=None):
    raise NotImplementedError('torch.jit.load: nnscope does not run TorchScript, so it cannot load a '
                              'TorchScript archive (its code/ is compiled TorchScript); load a state_dict '
                              'saved with torch.save into the model\'s class instead')
