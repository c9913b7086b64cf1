def add(a, b=10, *args, scale=1, **kw):
    return (a + b + sum(args)) * scale, sorted(kw.items())
print(add(1), add(1, 2), add(1, 2, 3, 4), add(1, scale=2), add(1, 2, 3, extra=1, more=2))
print(add(b=5, a=1), add(*[1, 2, 3]), add(**{"a": 1, "b": 1}), add(1, *(2, 3), **{"scale": 3}))
def kwonly(a, *, b, c=3):
    return a, b, c
print(kwonly(1, b=2), kwonly(1, b=2, c=4))
def posonly(a, b, /, c):
    return a + b + c
print(posonly(1, 2, c=3))
def counter():
    count = 0
    def inc(step=1):
        nonlocal count
        count += step
        return count
    return inc
c1 = counter()
c2 = counter()
print(c1(), c1(), c1(5), c2())
total = 0
def bump():
    global total
    total += 1
bump(); bump()
print(total)
def make_adders():
    return [lambda x, i=i: x + i for i in range(3)]
print([f(10) for f in make_adders()])
square = lambda x: x * x
print(square(7), (lambda: "no args")(), (lambda *a, **k: (a, k))(1, k=2))
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(10), fact(20))
def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
print([fib(i) for i in range(15)])
def apply(f, *args):
    return f(*args)
print(apply(max, 3, 9, 2), apply(lambda a, b: a - b, 10, 4))
def deco(fn):
    def wrapper(*args, **kwargs):
        return "<" + str(fn(*args, **kwargs)) + ">"
    return wrapper
@deco
def hello(name):
    return "hello " + name
print(hello("nn"))
def outer(x):
    def middle(y):
        def inner(z):
            return x + y + z
        return inner
    return middle
print(outer(1)(2)(3))
def noreturn():
    pass
print(noreturn())
def doc():
    "A documented function."
    return 1
print(doc.__doc__, doc.__name__, square.__name__)
def early(n):
    for i in range(n):
        if i == 3:
            return i
    return -1
print(early(10), early(2))
def scope_test():
    x = "local"
    def show():
        return x
    x = "changed"
    return show()
print(scope_test())
x = "global"
def read_global():
    return x
print(read_global())
def shadow():
    x = "shadow"
    return x
print(shadow(), x)
def mutable_default(item, acc=[]):
    acc.append(item)
    return acc
print(mutable_default(1), mutable_default(2))
def varargs_only(*args):
    return len(args), args
print(varargs_only(), varargs_only(1, 2))
def kwargs_only(**kw):
    return kw
print(kwargs_only(a=1, b=2))
print(list(map(lambda x: x * 2, [1, 2, 3])), list(filter(None, [0, 1, "", "a"])), list(map(pow, [2, 3], [3, 2])))
def gen_like(n):
    return (i * i for i in range(n))
print(list(gen_like(4)), sum(i for i in range(10)), any(i > 3 for i in range(5)), all(i < 3 for i in range(5)))
def recurse_sum(lst):
    if not lst:
        return 0
    return lst[0] + recurse_sum(lst[1:])
print(recurse_sum(list(range(100))))
print(callable(fact), callable(3), callable(lambda: 0), callable(int))
