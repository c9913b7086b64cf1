# globals() is the module's live namespace: assigning, updating, deleting
# through it binds and unbinds names; reading it sees the names bound now;
# exec(code, globals()) runs in it.
g = globals()
g['zz'] = 3
print(zz, 'zz' in g, g['zz'], g.get('zz'), g.get('nope', 'default'))
globals().update({'yy': 4}, ww=5)
print(yy, ww)
globals().update([('pair', 6)])
print(pair)


def f():
    globals()['inner'] = 9
    return globals().get('zz')


print(f(), inner)
later = 1
print('later' in g, 'f' in globals(), 'nope' in globals(), callable(g['f']))
del globals()['zz']
print('zz' in globals())
try:
    zz
except NameError as e:
    print('NameError:', e)
print(globals().pop('yy'), globals().pop('yy', 'gone'), globals().setdefault('qq', 7), qq, g.setdefault('qq', 8))
for k in ['ww', 'inner']:
    print(k, globals()[k])
exec('newvar = 11', globals())
print(newvar)
exec('newvar += 1', globals(), {})
print(newvar)
names = list(globals())  # in insertion order, from g on
print(names[names.index('g'):][:4], len(globals()) == len(list(globals().keys())))
print(sorted(k for k, v in globals().items() if v == 7), 7 in globals().values())
snap = globals().copy()
snap['only_in_copy'] = 1
print('only_in_copy' in globals(), type(snap).__name__)
for name in ['alpha', 'beta']:
    globals()[name] = name.upper()
print(alpha, beta)
try:
    globals()['missing']
except KeyError as e:
    print('KeyError:', e)
try:
    del globals()['missing']
except KeyError as e:
    print('KeyError:', e)
try:
    globals().pop('missing')
except KeyError as e:
    print('KeyError:', e)


def in_function():
    exec('set_in_function = 5', globals())
    return eval('set_in_function + 1', globals())


print(in_function(), set_in_function)
