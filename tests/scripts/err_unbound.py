def f():
    v = v + 1
f()
