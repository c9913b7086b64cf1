# Subclassing the built-in iterators and function wrappers, as utility code does.
class Numbered(enumerate):
    def __next__(self):
        i, x = super().__next__()
        return i, x * 10


print(list(Numbered([1, 2, 3])))
print(list(Numbered('ab', start=5)))
n = Numbered([7])
print(isinstance(n, enumerate), type(n).__name__, iter(n) is n)
print(next(n), next(n, 'done'))


class Pairs(zip):
    pass


print(list(Pairs([1, 2], 'xy')), isinstance(Pairs([], []), zip))


class Doubled(map):
    def __new__(cls, it):
        return super().__new__(cls, lambda v: v * 2, it)


print(list(Doubled(range(4))))


class Evens(filter):
    def __new__(cls, it):
        return super().__new__(cls, lambda v: v % 2 == 0, it)

    def __next__(self):
        return -super().__next__()


print(list(Evens(range(7))))


class Back(reversed):
    pass


b = Back([1, 2, 3])
print(list(b), list(b))


class tracked(staticmethod):
    calls = 0

    def __init__(self, f):
        super().__init__(f)
        self.name = f.__name__


class ctor(classmethod):
    pass


class Model:
    @tracked
    def helper(x):
        return x + 1

    @ctor
    def make(cls, v):
        return cls, v


print(Model.helper(1), Model().helper(2), Model.__dict__['helper'].name)
print(Model.make(3)[0] is Model, Model.make(3)[1])
print(isinstance(Model.__dict__['helper'], staticmethod), type(Model.__dict__['make']).__name__)
try:
    next(Numbered([]))
except StopIteration:
    print('StopIteration')
