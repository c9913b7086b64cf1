# typing.NamedTuple: the class form with annotated fields and defaults, the functional form, against CPython 3.11
from typing import NamedTuple, Optional
import typing
class Batch(NamedTuple):
    x: int
    y: int = 0
    label: Optional[str] = None
    def total(self):
        return self.x + self.y
b = Batch(1)
print(b, b._fields, b._replace(y=5), Batch(2, 3).y, b.total(), b[0], len(b), tuple(b), b._asdict())
x, y, z = Batch(4, 5, 'z'); print(x, y, z, Batch._field_defaults, Batch(x=7) == (7, 0, None))
P = NamedTuple('P', [('a', int), ('b', float)]); print(P(1, 2.5), P._fields)
Q = typing.NamedTuple('Q', a=int); print(Q(3))
try:
    class Bad(NamedTuple):
        a: int = 1
        b: int
except TypeError as e:
    print('TypeError', e)
try:
    Batch()
except TypeError as e:
    print('TypeError', e)
