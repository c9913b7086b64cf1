# enum.FlagBoundary as CPython 3.11: STRICT raises for bits no member has, CONFORM drops
# them, EJECT gives the plain int, KEEP keeps them in the pseudo-member
# (class F(Flag, boundary=STRICT)); Flag is CONFORM, IntFlag KEEP.
import enum
from enum import Flag, IntFlag, auto, STRICT, CONFORM, EJECT, KEEP
print(enum.STRICT, repr(enum.CONFORM), enum.FlagBoundary.EJECT, KEEP == 'keep', list(enum.FlagBoundary))
class F(Flag, boundary=STRICT):
    A = 1
    B = 2
for v in (7, 3, 0, 4, -1):
    try: print(v, repr(F(v)))
    except ValueError as e: print('ValueError:', e)
class G(Flag, boundary=CONFORM):
    A = 1
    B = 2
    C = 8
print(repr(G(7)), repr(G(15)), repr(G(16)), repr(G(-1)), repr(~G.A))
class H(Flag, boundary=EJECT):
    A = 1
    B = 2
print(repr(H(7)), repr(H(3)), repr(H(4)), type(H(4)).__name__)
class K(Flag, boundary=KEEP):
    A = 1
    B = 2
print(repr(K(7)), repr(K(3)), repr(K(4)), repr(K(-1)), str(K(12)), repr(~K.A))
class I(IntFlag):
    R = 4
    W = 2
    X = 1
print(repr(I(15)), repr(I(8)), I._boundary_, F._boundary_, Flag._boundary_, repr(~I.R))
class S(IntFlag, boundary=STRICT):
    R = 4
    W = 2
try: I2 = S(1)
except ValueError as e: print('ValueError:', e)
class Gap(Flag, boundary=STRICT):
    A = 1
    C = 4
try: Gap(2)
except ValueError as e: print('ValueError:', e)
print(repr(Gap(5)))
class M(Flag):
    A = 1
    B = 2
    AB = 3
print(repr(M(3)), list(M), M._flag_mask_, M._all_bits_, repr(M(7)))
try: F('x')
except ValueError as e: print('ValueError:', e)
print(F._flag_mask_, F._all_bits_)
