# locals() and vars() without an argument, as CPython 3.11: a function's bound names
# (a snapshot), the module's namespace at module level
def f(a, b=2):
    c = a + b
    print(locals())
    d = 4
    return dict(locals()), sorted(locals()), vars() == locals()


snap, names, same = f(1)
print(snap, names, same)


def g():
    print(locals())
    x = 1
    print(locals())


g()


zz = 5
print(locals()['zz'], 'zz' in vars())
print('{a}-{b}'.format(**f(7)[0]))
try:
    locals(1)
except TypeError as e:
    print('TypeError', e)
