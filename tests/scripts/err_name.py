print("before")
def f():
    return missing
f()
