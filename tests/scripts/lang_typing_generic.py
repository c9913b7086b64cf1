# typing.Generic[T] as a base (Box[int] aliases), Callable/Union annotations
# typing-heavy code: Protocol, TypeVar, Generic, Callable, Union, overload-free
from typing import Any, Callable, Generic, Iterable, Iterator, TypeVar, Union, Sequence, Mapping, cast
import torch
T = TypeVar('T')
class Buffer(Generic[T]):
    def __init__(self) -> None:
        self.items: list = []
    def push(self, x: T) -> None:
        self.items.append(x)
    def __iter__(self) -> Iterator[T]:
        return iter(self.items)
    def __len__(self) -> int:
        return len(self.items)
b: Buffer[int] = Buffer()
b.push(1); b.push(2)
print(list(b), len(b), Buffer[int], cast(int, '3'))
def apply(fn: Callable[[torch.Tensor], torch.Tensor], xs: Sequence[torch.Tensor]) -> list:
    return [fn(x) for x in xs]
print(apply(torch.relu, [torch.tensor([-1., 2.])]))
Number = Union[int, float]
def scale(x: Number, k: Number = 2) -> Number:
    return x * k
print(scale(3), scale.__annotations__)
K = TypeVar('K')
V = TypeVar('V')
class Pair(Generic[K, V]):
    def __init__(self, k: K, v: V):
        self.k, self.v = k, v
p = Pair[str, int]('a', 1)
print(Pair[str, int], type(p).__name__, p.k, p.v, Pair.__mro__[1].__name__, isinstance(p, Generic))
class Stack(Buffer[float]):
    def pop(self) -> float:
        return self.items.pop()
s = Stack()
s.push(2.5)
print(s.pop(), Stack.__bases__[0].__name__)
