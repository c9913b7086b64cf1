# abc against CPython 3.11: abstract methods, properties, class and static
# methods, inheritance, metaclass=ABCMeta, and the TypeError on instantiation.
import abc
from abc import ABC, ABCMeta, abstractmethod


class Shape(ABC):
    @abstractmethod
    def area(self):
        """The area."""

    @abstractmethod
    def name(self):
        return 'shape'

    @property
    @abstractmethod
    def sides(self):
        ...

    def describe(self):
        return '%s with %d sides, area %.2f' % (self.name(), self.sides, self.area())


class Square(Shape):
    def __init__(self, a):
        self.a = a

    def area(self):
        return self.a * self.a

    def name(self):
        return 'square (' + super().name() + ')'

    @property
    def sides(self):
        return 4


class Half(Shape):
    def area(self):
        return 0


for cls in [Shape, Half]:
    try:
        cls()
    except TypeError as e:
        print(type(e).__name__, e)
print(Square(3).describe(), isinstance(Square(1), Shape), issubclass(Square, ABC))
print(sorted(Shape.__abstractmethods__), sorted(Half.__abstractmethods__), Square.__abstractmethods__)
print(Shape.area.__isabstractmethod__, getattr(Square.area, '__isabstractmethod__', False), Shape.sides.__isabstractmethod__)
print(ABC.__abstractmethods__, type(Shape.__abstractmethods__).__name__, Shape.area.__doc__)


class Base(metaclass=ABCMeta):
    @abstractmethod
    def run(self, x):
        pass

    @classmethod
    @abstractmethod
    def make(cls):
        pass

    @staticmethod
    @abstractmethod
    def helper():
        pass


class Impl(Base):
    def run(self, x):
        return x + 1

    @classmethod
    def make(cls):
        return cls()

    @staticmethod
    def helper():
        return 'helped'


try:
    Base()
except TypeError as e:
    print(e)
print(Impl.make().run(41), Impl.helper(), sorted(Base.__abstractmethods__))


class NotAbstract:
    @abstractmethod
    def f(self):
        return 'called anyway'


print(NotAbstract().f())


class Mixin:
    def hello(self):
        return 'hello'


class Trainer(Mixin, ABC):
    def __init__(self, steps):
        self.steps = steps

    @abstractmethod
    def step(self, i):
        ...

    def fit(self):
        return [self.step(i) for i in range(self.steps)]


class Doubler(Trainer):
    def step(self, i):
        return 2 * i


class Tripler(Doubler):
    pass


print(Doubler(3).fit(), Tripler(2).fit(), Tripler(1).hello())
print(Shape.register(int), abc.get_cache_token() is not None)


class Legacy(ABC):
    @abc.abstractproperty
    def value(self):
        pass


try:
    Legacy()
except TypeError as e:
    print(e)
Half()
