# Numbers equal across types hash alike and find each other as dict keys and set
# elements, as CPython: int, a big int, float, bool, Fraction, Decimal (hash() gives
# CPython's values).
from fractions import Fraction
from decimal import Decimal
print(hash(1e20) == hash(10**20), hash(2**61) , hash(2**61 - 1), hash(-1), hash(-2), hash(1.5), hash(0.1), hash(-0.0), hash(float('inf')), hash(10**30), hash(-10**30), hash(1e300))
d = {10**20: 'int'}; print(d.get(1e20), {1.0: 'a'}.get(1), {2**70: 1}.get(float(2**70)), hash(Fraction(1, 3)), hash(Fraction(3, 1)) == hash(3), hash(Decimal('1.5')) == hash(1.5), hash(complex(1, 2)), hash(True))
print({1e20, 10**20}, len({0.5, Fraction(1, 2), Decimal('0.5')}))
keys = {}
for k in (1, 1.0, True, 2**64, float(2**64), 0.25, 10**20, 1e20, -7, -7.0, 2**61 - 1, float(2**61), 2**61):
    keys[k] = keys.get(k, 0) + 1
print(keys)
print(sorted({Fraction(1, 4), 0.25, Decimal('0.25'), 2**100, float(2**100), Decimal(2**100)}, key=float))
