# abc: ABC.register makes virtual subclasses that isinstance and issubclass see,
# through subclasses of the registered class and registrations of registrations.
from abc import ABC, abstractmethod


class Shape(ABC):
    @abstractmethod
    def area(self):
        ...


class Square:
    def area(self):
        return 4


class SmallSquare(Square):
    pass


print(isinstance(Square(), Shape), issubclass(Square, Shape))
r = Shape.register(Square)
print(r is Square)
print(isinstance(Square(), Shape), issubclass(Square, Shape))
print(isinstance(SmallSquare(), Shape), issubclass(SmallSquare, Shape))
print(isinstance(Square(), (int, Shape)))
print(Shape.register(Square) is Square)


class Sequenceish(ABC):
    pass


Sequenceish.register(tuple)
print(isinstance((1, 2), Sequenceish), isinstance([1, 2], Sequenceish), issubclass(tuple, Sequenceish))


class Base(ABC):
    pass


class Middle(ABC):
    pass


class Leaf:
    pass


Base.register(Middle)
Middle.register(Leaf)
print(isinstance(Leaf(), Base), issubclass(Leaf, Middle), issubclass(Base, Leaf))


@Shape.register
class Circle:
    def area(self):
        return 3.14


print(Circle.__name__, isinstance(Circle(), Shape))

try:
    Shape.register(3)
except TypeError as e:
    print("TypeError:", e)

try:
    Leaf.__name__
    Middle.register(Base)
except RuntimeError as e:
    print("RuntimeError:", e)

try:
    Shape()
except TypeError as e:
    print("TypeError:", e)
