# enum, written in the language: Enum, IntEnum, auto, unique, with EnumMeta as
# the metaclass whose methods serve the class object (iteration in definition
# order, len, Color['RED'], `in`, repr <enum 'Color'>), as CPython 3.11's.


class auto:
    _counter = 0

    def __init__(self):
        auto._counter += 1
        self._order = auto._counter
        self.value = None

    def __repr__(self):
        return 'auto(%r)' % (self.value,)


class EnumType:  # type(an Enum class), as CPython 3.11 names it
    def __iter__(cls):
        return iter([cls._member_map_[name] for name in cls._member_names_])

    def __reversed__(cls):
        return iter([cls._member_map_[name] for name in reversed(cls._member_names_)])

    def __len__(cls):
        return len(cls._member_names_)

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __contains__(cls, member):
        return isinstance(member, cls) and member._name_ in cls._member_map_

    def __repr__(cls):
        return "<enum %r>" % cls.__name__

    def __call__(cls, value):
        # the Enum's own lookup, ahead of a mixed-in type's __new__ (class Mode(str, Enum))
        for klass in cls.__mro__:
            if '__new__' in vars(klass) and isinstance(klass, EnumType):
                return klass.__new__(cls, value)
        return cls.__new__(cls, value)


EnumMeta = EnumType


def _value_hash(self):
    return hash(self._value_)


def _is_member_value(name, value):
    if name.startswith('_') or callable(value) and not isinstance(value, auto):
        return False
    return type(value).__name__ not in ('classmethod', 'staticmethod', 'property')  # descriptors


class Enum(metaclass=EnumType):
    _member_names_ = []
    _member_map_ = {}
    _value2member_map_ = {}

    def __new__(cls, value):
        if isinstance(value, cls):
            return value
        try:
            return cls._value2member_map_[value]
        except (KeyError, TypeError):
            pass
        for member in cls._member_map_.values():
            if member._value_ == value:
                return member
        raise ValueError('%r is not a valid %s' % (value, cls.__qualname__))

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        for last in reversed(last_values):
            try:
                return last + 1
            except TypeError:
                pass
        return start

    def __init_subclass__(cls, **kwargs):
        if cls._member_names_:
            raise TypeError('%s: cannot extend %r' % (cls.__name__, cls.__mro__[1]))
        cls._member_names_ = []
        cls._member_map_ = {}
        cls._value2member_map_ = {}
        last_values = []
        mixin_type = None
        for klass in cls.__mro__:
            if klass in (str, int, float):
                mixin_type = klass
                break
        for name, value in list(vars(cls).items()):
            if not _is_member_value(name, value):
                continue
            if isinstance(value, auto):
                value = cls._generate_next_value_(name, 1, len(cls._member_names_), last_values[:])
            last_values.append(value)
            alias = None
            for other in cls._member_map_.values():
                if other._value_ == value:
                    alias = other
                    break
            if alias is not None:
                member = alias
            else:
                if mixin_type is None:
                    member = object.__new__(cls)
                else:  # a data type mixed in (class Mode(str, Enum)): the member is one of its values
                    member = mixin_type.__new__(cls, *(value if isinstance(value, tuple) else (value,)))
                member._name_ = name
                member._value_ = value
                if '__init__' in vars(cls):  # members are initialised with their value's items
                    member.__init__(*(value if isinstance(value, tuple) else (value,)))
                cls._member_names_.append(name)
                try:
                    cls._value2member_map_[value] = member
                except TypeError:
                    pass
            cls._member_map_[name] = member
            setattr(cls, name, member)
        cls.__members__ = dict(cls._member_map_)
        if mixin_type is not None and '__hash__' not in vars(cls):
            cls.__hash__ = _value_hash  # the mixed-in type's hash comes first in CPython's MRO

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __repr__(self):
        return '<%s.%s: %r>' % (type(self).__name__, self._name_, self._value_)

    def __str__(self):
        return '%s.%s' % (type(self).__name__, self._name_)

    def __format__(self, spec):
        return format(str(self), spec)

    def __hash__(self):
        return hash(self._name_)

    def __reduce_ex__(self, proto):
        return type(self), (self._value_,)

    def __dir__(self):
        return ['__class__', '__doc__', '__module__', 'name', 'value']


class IntEnum(Enum):
    # members compare, hash and compute as their int values
    def __str__(self):
        return str(self._value_)

    def __format__(self, spec):
        return format(self._value_, spec)

    def __int__(self):
        return self._value_

    def __index__(self):
        return self._value_

    def __eq__(self, other):
        return self._value_ == (other._value_ if isinstance(other, Enum) else other)

    def __ne__(self, other):
        return not self == other

    def __lt__(self, other):
        return self._value_ < int(other)

    def __le__(self, other):
        return self._value_ <= int(other)

    def __gt__(self, other):
        return self._value_ > int(other)

    def __ge__(self, other):
        return self._value_ >= int(other)

    def __hash__(self):
        return hash(self._value_)

    def __add__(self, other):
        return self._value_ + other

    def __radd__(self, other):
        return other + self._value_

    def __sub__(self, other):
        return self._value_ - other

    def __mul__(self, other):
        return self._value_ * other


def unique(enumeration):
    duplicates = [(name, member.name) for name, member in enumeration.__members__.items() if name != member.name]
    if duplicates:
        details = ', '.join('%s -> %s' % (alias, name) for alias, name in duplicates)
        raise ValueError('duplicate values found in %r: %s' % (enumeration, details))
    return enumeration
