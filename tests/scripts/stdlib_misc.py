# The modules time, string and typing as CPython 3.11's.
import time, string, typing
from typing import List, Dict, Optional, Union, Any, Callable, Tuple, TypeVar
t0 = time.time(); p0 = time.perf_counter(); m0 = time.monotonic(); c0 = time.process_time()
time.sleep(0.01)
print(time.time() - t0 >= 0.009, time.perf_counter() - p0 >= 0.009, time.monotonic() >= m0, time.process_time() >= c0, type(time.time_ns()).__name__)
print(type(time.perf_counter_ns()).__name__, type(time.monotonic_ns()).__name__, type(time.process_time_ns()).__name__, len(time.strftime("%Y-%m-%d")))
for f in [lambda: time.sleep(-1), lambda: time.sleep("1")]:
    try:
        f()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
print(string.ascii_letters, string.ascii_lowercase, string.ascii_uppercase, string.digits, string.hexdigits, string.octdigits)
print(string.punctuation, repr(string.whitespace), repr(string.printable))
print(string.capwords("hello   big world"), string.capwords("a-b-c", "-"))
print(List, List[int], Dict[str, List[int]], Optional[int], Union[int, str], Union[int, None], Any, Tuple[int, ...], Callable[[int, str], float])
T = TypeVar("T")
K = typing.TypeVar("K", bound=int)
print(K, Dict[K, T])
print(T, List[T], typing.Sequence[float], typing.Type[Exception], Optional["Foo"], Dict[str, Any], Tuple[()])
def f(x: List[int], y: Optional[Dict[str, int]] = None) -> Tuple[int, int]:
    return typing.cast(int, len(x)), 0
print(f([1, 2]), typing.TYPE_CHECKING)
print(typing.Iterable[int], typing.Iterator[str], typing.Generator[int, None, None], typing.Mapping[str, float], typing.Set[int])
print(typing.FrozenSet[str], typing.Literal["a", "b"], typing.ClassVar[int], typing.Final[int], typing.NoReturn, typing.Hashable)
print(typing.DefaultDict[str, int], typing.Deque[int], typing.Counter[str], typing.OrderedDict[str, int], typing.Sized, typing.Collection[int])
print(typing.Container[int], typing.MutableMapping[str, int], typing.MutableSequence[int], typing.Generic is not None, typing.Protocol is not None)
@typing.overload
def g(x: int) -> int: ...
@typing.final
def h(x):
    return x
@typing.no_type_check
def k(x):
    return x
print(h(3), k(4), g(5) if False else "overload")
