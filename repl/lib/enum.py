# enum, written in the language: Enum, ReprEnum, IntEnum and StrEnum (members ARE
# ints / strs), Flag and IntFlag (|, &, ^, ~, `in`, iteration, pseudo-members for
# combinations, the FlagBoundary STRICT / CONFORM / EJECT / KEEP chosen with
# `class F(Flag, boundary=STRICT)`), auto, unique and the functional API
# (Enum('Name', 'A B')), with EnumMeta as the metaclass whose methods serve the
# class object (iteration in definition order, len, Color['RED'], `in`, repr
# <enum 'Color'> / <flag 'Perm'>), as CPython 3.11's.


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
        if Flag is not None and issubclass(cls, Flag):
            return "<flag %r>" % cls.__name__
        return "<enum %r>" % cls.__name__

    def __call__(cls, value, names=None, *, module=None, qualname=None, type=None, start=1, boundary=None):
        if names is not None:  # the functional API: Enum('Animal', 'CAT DOG')
            return _make_enum(cls, value, names, module, qualname, type, start)
        # the Enum's own lookup, ahead of a mixed-in type's __new__ (class Mode(str, Enum))
        for klass in cls.__mro__:
            if '__new__' in vars(klass) and isinstance(klass, EnumType):
                return klass.__new__(cls, value)
        return cls.__new__(cls, value)


EnumMeta = EnumType
Flag = None  # defined below; EnumType.__repr__ asks for it


def _make_enum(base, name, names, module, qualname, mixin, start):
    if isinstance(names, str):
        names = names.replace(',', ' ').split()
    if isinstance(names, (list, tuple)) and names and isinstance(names[0], str):
        items = []
        last = []
        for count, member in enumerate(names):
            value = base._generate_next_value_(member, start, count, last[:])
            last.append(value)
            items.append((member, value))
    elif isinstance(names, dict):
        items = list(names.items())
    else:
        items = list(names)
    body = {}
    for member, value in items:
        body[member] = value
    body['__module__'] = module if module is not None else '__main__'
    if qualname is not None:
        body['__qualname__'] = qualname
    bases = (mixin, base) if mixin is not None else (base,)
    return type(name, bases, body)


def _value_hash(self):
    return hash(self._value_)


def _is_member_value(name, value):
    if name.startswith('_') or callable(value) and not isinstance(value, auto):
        return False
    return type(value).__name__ not in ('classmethod', 'staticmethod', 'property')  # descriptors


def _keep_enum_methods(cls, mixin_type):
    # the mixed-in type comes first in the MRO (class Level(int, Enum)): repr and
    # friends stay the Enum's unless a class between defines its own, as CPython does
    for name in ('__repr__', '__str__', '__format__', '__reduce_ex__'):
        for klass in cls.__mro__:
            if name in vars(klass):
                break
        if klass is mixin_type or klass is object:
            for klass in cls.__mro__:
                if isinstance(klass, EnumType) and name in vars(klass):
                    setattr(cls, name, vars(klass)[name])
                    break


def _single_bit(value):
    return isinstance(value, int) and value > 0 and value & (value - 1) == 0


def _init_flag_masks(cls, boundary):
    # as CPython's EnumType: _flag_mask_ has the bits of single-bit members, _all_bits_
    # every bit up to the highest any member uses; a class keyword boundary= wins over
    # the one inherited
    if boundary is not None:
        cls._boundary_ = boundary
    cls._flag_mask_ = 0
    every = 0
    for member in cls._member_map_.values():
        value = member._value_
        if isinstance(value, int):
            every |= value
            if _single_bit(value):
                cls._flag_mask_ |= value
    cls._all_bits_ = 2 ** every.bit_length() - 1
    # members of no bit or several bits are aliases: iteration and len() skip them
    cls._member_names_ = [name for name in cls._member_names_ if _single_bit(cls._member_map_[name]._value_)]


def _bits(num, width):
    # enum.bin(): the sign bit, a space, then the two's complement digits padded to width
    length = num.bit_length()
    sign = '1' if num < 0 else '0'
    digits = format(num & (2 ** length - 1), 'b').zfill(length) if length else ''
    return '0b%s %s' % (sign, digits.rjust(width, sign))


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
        result = cls._missing_(value)
        if result is not None:
            return result
        raise ValueError('%r is not a valid %s' % (value, cls.__qualname__))

    @classmethod
    def _missing_(cls, value):
        return None

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        for last in reversed(last_values):
            try:
                return last + 1
            except TypeError:
                pass
        return start

    def __init_subclass__(cls, boundary=None, **kwargs):
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
        cls._mixin_type_ = mixin_type
        for name, value in list(vars(cls).items()):
            if not _is_member_value(name, value):
                continue
            if isinstance(value, auto):
                value = cls._generate_next_value_(name, 1, len(cls._member_names_), last_values[:])
                if mixin_type is not None and not isinstance(value, mixin_type):
                    value = mixin_type(value)
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
        if Flag is not None and issubclass(cls, Flag):
            _init_flag_masks(cls, boundary)
        if mixin_type is not None:
            _keep_enum_methods(cls, mixin_type)
        if mixin_type is not None and '__hash__' not in vars(cls):
            cls.__hash__ = _value_hash  # the mixed-in type's hash comes first in CPython's MRO

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __repr__(self):
        mixin = type(self)._mixin_type_
        value = (mixin.__repr__ if mixin is not None else repr)(self._value_)
        if self._name_ is None:
            return '<%s: %s>' % (type(self).__name__, value)
        return '<%s.%s: %s>' % (type(self).__name__, self._name_, value)

    def __str__(self):
        return '%s.%s' % (type(self).__name__, self._name_)

    def __format__(self, spec):
        return format(str(self), spec)

    def __hash__(self):
        return hash(self._name_)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce_ex__(self, proto):
        return type(self), (self._value_,)

    def __dir__(self):
        return ['__class__', '__doc__', '__module__', 'name', 'value']


class ReprEnum(Enum):
    # only repr() is the Enum's: str() and format() are the mixed-in type's
    pass


def _mixin_str(self):
    return type(self)._mixin_type_.__repr__(self._value_) if type(self)._mixin_type_ is int else str(self._value_)


def _mixin_format(self, spec):
    return format(self._value_, spec)


class IntEnum(int, ReprEnum):
    # members ARE ints: they compute, compare, hash, index and serialise as their values
    __str__ = _mixin_str
    __format__ = _mixin_format


class StrEnum(str, ReprEnum):
    __str__ = _mixin_str
    __format__ = _mixin_format

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()


class FlagBoundary(StrEnum):
    # what Flag(value) does with bits no member has
    STRICT = auto()    # ValueError
    CONFORM = auto()   # dropped
    EJECT = auto()     # the plain int instead of a member
    KEEP = auto()      # kept in the pseudo-member


STRICT, CONFORM, EJECT, KEEP = FlagBoundary


class Flag(Enum):
    # members combine with | & ^ ~ into pseudo-members
    _boundary_ = CONFORM

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        if not last_values:
            return start
        high = max(last_values)
        return 1 << high.bit_length() if high > 0 else 1

    @classmethod
    def _missing_(cls, value):
        if not isinstance(value, int):
            raise ValueError('%r is not a valid %s' % (value, cls.__qualname__))
        mask, all_bits, boundary = cls._flag_mask_, cls._all_bits_, cls._boundary_
        if not ~all_bits <= value <= all_bits or value & (all_bits ^ mask):  # bits no member has
            if boundary is STRICT:
                width = max(value.bit_length(), mask.bit_length())
                raise ValueError('%r invalid value %r\n    given %s\n  allowed %s'
                                 % (cls, value, _bits(value, width), _bits(mask, width)))
            if boundary is CONFORM:
                value &= mask
            elif boundary is EJECT:
                return value
            elif value < 0:  # KEEP: a negative value as that many bits' complement
                value += max(all_bits + 1, 2 ** value.bit_length())
        if value < 0:
            value += all_bits + 1
        if value in cls._value2member_map_:
            return cls._value2member_map_[value]
        known, unknown = value & mask, value & ~mask
        mixin = cls._mixin_type_
        member = object.__new__(cls) if mixin is None else mixin.__new__(cls, value)
        member._value_ = value
        member._name_ = None
        if known:
            member._name_ = '|'.join(m._name_ for m in cls._canonical_() if m._value_ & value == m._value_)
            if unknown:
                member._name_ += '|%r' % unknown
        if not unknown:
            cls._value2member_map_[value] = member
        return member

    @classmethod
    def _canonical_(cls):
        # the members of one bit, in definition order (what iteration shows)
        return [m for m in cls._member_map_.values()
                if m._name_ in cls._member_names_ and m._value_ > 0 and m._value_ & (m._value_ - 1) == 0]

    def __iter__(self):
        return iter([m for m in type(self)._canonical_() if m._value_ & self._value_ == m._value_])

    def __len__(self):
        return len(list(iter(self)))

    def __contains__(self, other):
        if not isinstance(other, type(self)):
            raise TypeError("unsupported operand type(s) for 'in': '%s' and '%s'" % (type(other).__qualname__, type(self).__qualname__))
        return other._value_ & self._value_ == other._value_

    def __bool__(self):
        return bool(self._value_)

    def _operand(self, other):
        if isinstance(other, type(self)):
            return other._value_
        if type(self)._mixin_type_ is int and isinstance(other, int) and not isinstance(other, Flag):
            return int(other)
        return None

    def __or__(self, other):
        v = self._operand(other)
        return NotImplemented if v is None else type(self)(self._value_ | v)

    def __and__(self, other):
        v = self._operand(other)
        return NotImplemented if v is None else type(self)(self._value_ & v)

    def __xor__(self, other):
        v = self._operand(other)
        return NotImplemented if v is None else type(self)(self._value_ ^ v)

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __invert__(self):
        if type(self)._boundary_ is KEEP:
            return type(self)(~self._value_)
        return type(self)(type(self)._flag_mask_ ^ self._value_)

    def __str__(self):
        if self._name_ is None:
            return '%s(%r)' % (type(self).__name__, self._value_)
        return '%s.%s' % (type(self).__name__, self._name_)


class IntFlag(int, ReprEnum, Flag):
    # members ARE ints; unknown bits are kept
    _boundary_ = KEEP
    __str__ = _mixin_str
    __format__ = _mixin_format
    # Flag's operators ahead of int's, which comes first in the MRO
    __or__ = __ror__ = Flag.__or__
    __and__ = __rand__ = Flag.__and__
    __xor__ = __rxor__ = Flag.__xor__
    __invert__ = Flag.__invert__
    __iter__ = Flag.__iter__
    __len__ = Flag.__len__
    __contains__ = Flag.__contains__
    __bool__ = Flag.__bool__


def unique(enumeration):
    duplicates = [(name, member.name) for name, member in enumeration.__members__.items() if name != member.name]
    if duplicates:
        details = ', '.join('%s -> %s' % (alias, name) for alias, name in duplicates)
        raise ValueError('duplicate values found in %r: %s' % (enumeration, details))
    return enumeration
