# Names are NFKC-normalized as CPython's parser makes them (PEP 3131, issue 22): what is
# written as ﬁ, ℌ or fullwidth letters names fi, H, ...; strings given to getattr/setattr
# and the keys of globals() are not normalized.
ﬁ = 1
print(fi)
ℌ = 2
print(H, ℌ)
def ｆｕｎｃ(ａｒｇ=3):
    return ａｒｇ * 2
print(func(arg=4), ｆｕｎｃ())
class Ｋ:
    ｘ = 5
    def ｍ(self): return 'm'
print(K.x, Ｋ().m(), K.__name__, ｆｕｎｃ.__name__)
print(sorted(k for k in globals() if not k.startswith('_') and k.isascii() is False))
print('fi' in globals(), 'ﬁ' in globals())
o = K()
setattr(o, 'ﬁeld', 7)
print(getattr(o, 'ﬁeld'), hasattr(o, 'field'), o.__dict__)
o.ﬁeld2 = 8
print(o.__dict__, o.field2)
import math as ｍａｔｈ
print(math.pi == ｍａｔｈ.pi)
from math import ｓｑｒｔ
print(sqrt(4.0))
lam = lambda ｙ: y + 1
print(lam(1), lam(ｙ=2))
d = dict(ｋｅｙ=1)
print(d)
xⁱ = 3
print(xi)
print([ｉ for ｉ in range(3)])
try:
    print(ﬂ)
except NameError as e:
    print(e)
𝐀 = 'bold'
print(A)
µ = 'micro'
print(μ, 'μ' in globals(), 'µ' in globals())
Å = 'angstrom'
print(Å, 'Å' in globals())
try:
    exec("ｆｏｒ = 1\nprint(globals().get('for'))")
except SyntaxError as e:
    print('SE', e)
ｘ = 1
print(globals().get('x'), 'ｘ' in globals())
exec("ｙ = 2")
print(y)
print(eval("ℌ", {'H': 3}))
ns = {}
exec("ﬁ = 5", ns)
print(sorted(k for k in ns if k != '__builtins__'))
class C:
    __slots__ = ('ﬁ',)
c = C()
try:
    c.fi = 1
    print(c.fi)
except AttributeError as e:
    print('AE', e)
def g(**kw): return kw
print(g(ﬁ=1))
print(g(**{'ﬁ': 1}))
import types
def h():
    ﬁ = 1
    return locals()
print(h())
print(f"{ﬁ if False else 2}")
print(f"{ｘ}")
nonlocal_t = 0
def outer():
    ｚ = 1
    def inner():
        nonlocal ｚ
        z = 2
        return ｚ
    return inner()
print(outer())
global ｇｌ
ｇｌ = 3
print(gl)
