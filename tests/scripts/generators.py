# Generators and lazy iterators as CPython 3.11: yield, yield from, generator
# expressions, next/send/throw/close, StopIteration.value, zip/map/filter/
# enumerate/reversed computing each item when asked, nn.Module's traversals as
# generators.
import torch
import torch.nn as nn


def short(o):
    return repr(o).split(" at 0x")[0] + ">" if " at 0x" in repr(o) else repr(o)


def count(n):
    i = 0
    while i < n:
        yield i
        i += 1
    return "done"


print(list(count(4)), short(count(1)), type(count(1)).__name__)
g = count(2)
print(next(g), next(g), next(g, "default"))
try:
    next(g)
except StopIteration as e:
    print("StopIteration", repr(e.value), e.args)
g = count(1)
next(g)
try:
    next(g)
except StopIteration as e:
    print("StopIteration", repr(e.value), e.args)


# the body runs lazily: nothing before the first next()
def noisy():
    print("started")
    yield 1
    print("resumed")
    yield 2
    print("ending")


n = noisy()
print("made")
for v in n:
    print("got", v)


# send, throw, close
def echo():
    received = yield "ready"
    while True:
        try:
            received = yield received * 2
        except ValueError as e:
            received = yield "caught " + str(e)


e = echo()
print(next(e), e.send(5), e.send("ab"))
print(e.throw(ValueError("bad")))
print(e.send(1))
e.close()
try:
    next(e)
except StopIteration:
    print("closed generator stops")
try:
    count(2).send(3)
except TypeError as err:
    print("TypeError:", err)


def finalizer():
    try:
        yield 1
        yield 2
    finally:
        print("finally runs")


f = finalizer()
print(next(f))
f.close()
for x in finalizer():
    print("first", x)
    break
print("after break")


def ignores():
    while True:
        try:
            yield 1
        except GeneratorExit:
            print("GeneratorExit seen")
            yield 2


i = ignores()
next(i)
try:
    i.close()
except RuntimeError as err:
    print("RuntimeError:", err)


# yield from: values, sent values and the return value
def inner():
    x = yield "inner 1"
    print("inner got", x)
    return "inner result"


def outer():
    r = yield from inner()
    print("yield from returned", r)
    yield from [10, 20]
    yield from range(2)


o = outer()
print(next(o), o.send("hello"), list(o))


# a generator raising StopIteration inside is a RuntimeError (PEP 479)
def leaky():
    yield 1
    raise StopIteration


try:
    list(leaky())
except RuntimeError as err:
    print("RuntimeError:", err)


# errors inside a generator propagate with the generator's frame
def failing():
    yield 1
    {}["missing"]


try:
    for v in failing():
        pass
except KeyError as err:
    print("KeyError", err)

# generator expressions are lazy and see the enclosing scope
y = 10
gen = (x + y for x in range(3))
print(short(gen))
y = 100
print(list(gen), list(gen))
print(sum(x * x for x in range(10**4)), max(len(w) for w in ["a", "abc", "ab"]))
print([list(a * b for b in range(3)) for a in range(3)])
print(any(v > 2 for v in count(10)), all(v < 3 for v in [1, 2]))


def adders():
    base = 5
    return (base + k for k in range(3))


print(list(adders()))
print(dict((k, k * k) for k in range(3)), set(c for c in "abca") == {"a", "b", "c"}, tuple(x for x in "hi"))
pairs = ((a, b) for a in range(3) if a != 1 for b in "xy")
print(next(pairs), list(pairs))

# lazy built-ins
z = zip([1, 2, 3], "ab")
print(short(z), list(z), list(z))
m = map(lambda a, b: a * b, [1, 2, 3], [4, 5, 6])
print(short(m), next(m), list(m))
fl = filter(None, [0, 1, "", "x"])
print(short(fl), list(fl), list(filter(lambda v: v % 2, range(6))))
en = enumerate("abc", start=1)
print(short(en), next(en), list(en))
print(short(reversed([1, 2])), list(reversed([1, 2, 3])), list(reversed((1, 2))), list(reversed("abc")))
print(list(reversed(range(1, 10, 3))), list(reversed({"a": 1, "b": 2})))
lst = [1, 2, 3]
rv = reversed(lst)
lst[0] = 100
print(list(rv))
it = iter([1, 2, 3])
print(next(it), list(zip(it, it)))
print(list(zip()), list(zip(count(3), count(5))), list(map(str, count(3))))
try:
    reversed({1, 2})
except TypeError as err:
    print("TypeError:", err)
try:
    next([1])
except TypeError as err:
    print("TypeError:", err)
# map/zip call their function only when asked
calls = []
lazy = map(lambda v: calls.append(v) or v, [1, 2, 3])
print(calls, next(lazy), calls)

# nn.Module's traversals are generators
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
p = model.parameters()
print(short(p), type(p).__name__)
print(next(model.parameters()).shape)
for name, param in model.named_parameters():
    print(name, tuple(param.shape))
print(short(model.named_parameters()), short(model.buffers()), short(model.named_buffers()))
print(short(model.children()), short(model.named_children()), short(model.modules()), short(model.named_modules()))
print([type(c).__name__ for c in model.children()], [n for n, _ in model.named_modules()])
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
print(len(opt.param_groups[0]["params"]))
bn = nn.BatchNorm1d(2)
print([n for n, _ in bn.named_buffers()], len(list(bn.buffers())))

# a generator suspended inside an except block keeps its own handled exception:
# a bare raise there re-raises it, not the exception its caller is handling
def handles():
    try:
        raise KeyError("inner")
    except KeyError:
        yield 1
        raise


h = handles()
next(h)
try:
    raise ValueError("outer")
except ValueError:
    try:
        next(h)
    except KeyError as err:
        print("generator re-raised", repr(err))
    try:
        raise
    except ValueError as err:
        print("caller re-raised", repr(err))
