# the built-ins and methods the other scripts leave out, and every augmented assignment
class Point:
    def __init__(self, x):
        self.x = x

    @staticmethod
    def origin():
        return Point(0)

    @classmethod
    def unit(cls):
        return cls(1)

    def get_double(self):
        return self.x * 2
    double = property(get_double)
    make = staticmethod(lambda: Point(5))
    build = classmethod(lambda cls: cls(7))

print(Point.origin().x, Point.unit().x, Point(3).double, Point.make().x, Point.build().x)
o = object()
print(type(o).__name__, isinstance(o, object))
print("banana".rindex("a"), "123".isnumeric(), "12a".isdecimal(), "²".isdigit() if False else "")
print(sorted({1, 2, 3}.symmetric_difference({2, 3, 4})), (2.0).is_integer(), (2.5).is_integer(), (255).bit_length())
try:
    raise MemoryError("pretend")
except MemoryError as e:
    print("MemoryError", e)
n = 6
n += 1; n -= 2; n *= 3; n //= 2; n %= 5; n **= 3; n <<= 2; n >>= 1; n &= 0xFF; n |= 0x100; n ^= 0x3
print(n)
f = 7.0
f /= 2
print(f)
import torch
m = torch.eye(2)
m @= torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(m)
s = {1, 2}
s |= {3}; s &= {1, 3}; s ^= {5}
print(sorted(s))
