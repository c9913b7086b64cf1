# class C(*bases, **kw): star-arguments in a class statement, __init_subclass__
# keywords through them and through type(name, bases, ns, **kw), types.new_class,
# types.prepare_class and types.resolve_bases (checked against CPython 3.11).
import types


class Registry:
    plugins = {}

    def __init_subclass__(cls, /, name=None, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.plugin_name = name or cls.__name__.lower()
        Registry.plugins[cls.plugin_name] = cls


class Mixin:
    def describe(self):
        return f'{type(self).__name__}({self.plugin_name})'


bases = (Registry, Mixin)
options = {'name': 'star'}


class Star(*bases, **options):
    pass


class Plain(Registry, name='plain'):
    pass


class Default(*[Registry]):
    pass


print(Star.__mro__)
print(Star().describe(), Plain.plugin_name, Default.plugin_name)
print(sorted(Registry.plugins))


class Meta(type):
    def __new__(mcls, name, bases, ns, **kw):
        print('Meta.__new__', name, [b.__name__ for b in bases], sorted(kw))
        return super().__new__(mcls, name, bases, ns)

    def __init__(cls, name, bases, ns, **kw):
        super().__init__(name, bases, ns)


extra = {'metaclass': Meta, 'flag': True}


class Made(*(), **extra):
    pass


print(type(Made).__name__, issubclass(Meta, type), isinstance(Made, type))

# type() with keywords: they reach __init_subclass__
T = type('T', (Registry,), {'x': 1}, name='typed')
print(T.plugin_name, T.x, T.__name__, T.__bases__)

# types.new_class: the class a class statement would make
N = types.new_class('N', (Registry, Mixin), {'name': 'newcls'}, lambda ns: ns.update(y=2))
print(N.plugin_name, N.y, N().describe(), [c.__name__ for c in N.__mro__])
K = types.new_class('K', (), {'metaclass': Meta})
print(type(K).__name__, K.__name__)
print(types.resolve_bases((Registry, Mixin)) == (Registry, Mixin))
meta, ns, kw = types.prepare_class('P', (Registry,), {'metaclass': Meta, 'name': 'p'})
print(meta.__name__, ns, kw)
print(types.prepare_class('Q'))


class Entries:
    def __mro_entries__(self, bases):
        return (Mixin,)


print(types.resolve_bases((Entries(), Registry)))

# errors, as CPython words them
for make in (lambda: type('E1', (Registry,), {}, bogus=1),
             lambda: type('E2', (), {}, bogus=1),
             lambda: types.new_class('E3', (), {'bogus': 1})):
    try:
        make()
    except TypeError as e:
        print('TypeError:', e)
try:
    class E4(*bases, bogus=1):
        pass
except TypeError as e:
    print('TypeError:', e)
try:
    class E5(**{'name': 1}, **{'name': 2}):
        pass
except TypeError as e:
    print('TypeError:', e)
try:
    class E6(*[Registry, Registry]):
        pass
except TypeError as e:
    print('TypeError:', e)
try:
    class E7(**[1]):
        pass
except TypeError as e:
    print('TypeError:', e)
