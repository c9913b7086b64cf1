# functools.cached_property, cmp_to_key, total_ordering, singledispatch
import functools
class Model:
    def __init__(self, n):
        self.n = n
    @functools.cached_property
    def expensive(self):
        """Doc."""
        print('computing', self.n)
        return self.n * 2
m = Model(3)
print(m.expensive, m.expensive, Model.expensive.__doc__, type(Model.expensive).__name__, m.__dict__)
del m.expensive
print(m.expensive)
print(sorted([3, 1, 2], key=functools.cmp_to_key(lambda a, b: b - a)))
@functools.total_ordering
class V:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return self.v == o.v
    def __lt__(self, o):
        return self.v < o.v
print(V(1) < V(2), V(1) >= V(2), V(2) > V(1), V(2) <= V(2), max([V(1), V(3), V(2)]).v)
@functools.singledispatch
def show(x):
    return 'object ' + repr(x)
@show.register(int)
def _(x):
    return 'int %d' % x
@show.register
def _(x: list):
    return 'list of %d' % len(x)
print(show(3), show([1, 2]), show('s'), show(True), show.dispatch(int).__name__ if False else '', sorted(k.__name__ for k in show.registry))
