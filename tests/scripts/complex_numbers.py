x=1+2j
print(x, repr(2j), -x, x*x, x/(3-1j), abs(3+4j), x**2, x**0.5, type(x), complex("1-2.5j"), complex(1,2), x.real, x.imag, x.conjugate(), x==1+2j, 1j**2, hash(2+0j)==hash(2.0), {1+0j:3}, 1e20j, -0.0+1j, (-1)**0.5 if False else 0, complex())
try:
  x<1
except TypeError as e: print(e)
try:
  x//1
except TypeError as e: print(e)
try:
  x/0
except ZeroDivisionError as e: print(e)
print(0j**0, bool(0j), [1j, 2.5-3j])
