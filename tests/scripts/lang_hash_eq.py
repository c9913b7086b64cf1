# A class that defines __eq__ without __hash__ gets __hash__ = None: its
# instances are unhashable (hash(), set and dict keys), as CPython's type
# creation makes them; a subclass may define __hash__ again.
class V:
    def __init__(self, x):
        self.x = x

    def __eq__(self, other):
        return isinstance(other, V) and other.x == self.x


print(V.__hash__, '__hash__' in V.__dict__, V.__dict__['__hash__'], V(1) == V(1), V(1) != V(2))
for make in [lambda: hash(V(1)), lambda: {V(1)}, lambda: {V(1): 1}, lambda: set([V(1)]), lambda: frozenset([V(2)])]:
    try:
        make()
    except TypeError as e:
        print('TypeError:', e)


class W(V):
    def __hash__(self):
        return hash(self.x)


print(len({W(1), W(1), W(2)}), {W(3): 'three'}[W(3)], hash(W(5)) == hash(5))


class Z(W):
    def __eq__(self, other):
        return False


print(Z.__hash__)
try:
    hash(Z(1))
except TypeError as e:
    print('TypeError:', e)


class H:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


print(type(hash(H())).__name__, len({H(), H()}))


class N:
    __hash__ = None


try:
    hash(N())
except TypeError as e:
    print('TypeError:', e)


class Plain:
    pass


print(type(hash(Plain())).__name__, Plain() == Plain())
T = type('T', (), {'__eq__': lambda self, o: True})
print(T.__hash__)
try:
    hash(T())
except TypeError as e:
    print('TypeError:', e)
