from fractions import Fraction as F
for e in ['F(1,2)/0', 'F(1,2)//0', 'F(1,2)%0', 'F(0)**-1', 'F(1,0)', 'F("1/0")', 'F("x")', 'F(1.5,2)', 'F([1])', 'F(float("nan"))', 'F(float("inf"))', 'F(1,2)/F(0)', 'divmod(F(1),0)', 'F("1.5e")','1/F(0)', 'F(1,2).limit_denominator(0)', 'F(2,3) < "a"', 'F(1,2)+"a"', 'F(" -3/ 4 ")']:
    try: print(e, repr(eval(e)))
    except Exception as x: print(e, type(x).__name__, x)
print(F(' -3/4 '), F('1.5e-2'), F('1_000'), F('.5'), F('3.'), F(F(3,4)), F(1,2)**2, F(1,2)**-2, F(4,9)**F(1,2), 2**F(2), F(-8)**F(1,3))
print(hash(F(1,2)), hash(0.5), hash(F(-1)), hash(F(1,3)), hash(F(10**30, 7)), hash(F(-2,3)), hash(F(3)) == hash(3), {F(1,2): 'a'}[F(2,4)], 0.5 == F(1,2))
print(F(7,3).__round__(), round(F(5,2)), round(F(7,2)), round(F(1234,100),1), round(F(-7,3)), F(7,3).__floor__(), F(7,3).__ceil__(), int(F(-7,3)), float(F(1,3)))
import math; print(math.floor(F(-7,2)), math.ceil(F(-7,2)), math.trunc(F(-7,2)), round(F(-15, 10)), round(F(25,100), 1), round(F(12345), -2))
print(F(1,2)+1, F(1,2)+0.5, F(1,2)+1j, F(1,2)<0.6, F(1,2)==0.5, F(1,2)==F(2,4), F(3,1)==3, F(1,2)<float('nan'), F(1,2) < float('inf'))
print(1 - F(1,3), 2 * F(1,3), 1 / F(2,3), 0.5 * F(1,2), 7 // F(2), 7 % F(2,3), 3 > F(1,2), 0.25 < F(1,2), F(1,2) != 1)
print(F(3.14159).limit_denominator(1000), F('3.141592653589793').limit_denominator(100), F.from_float(0.1), F(1,3).limit_denominator(10))
print(divmod(F(7,2), F(2,3)), F(7,2)%F(2,3), F(-7,2)//2, F(7,2)%2.5, abs(F(-1,2)), -F(1,2), +F(1,2), bool(F(0)), F(1,2).as_integer_ratio(), F(6,4).numerator, F(6,4).denominator)
import numbers; print(isinstance(F(1), numbers.Rational), isinstance(F(1), numbers.Number))
print(F(1,-2), F(-1,-2), F(True), F(2.5), F(-0.0), F(10**20, 3))
print(sum([F(1,3), F(1,6)]), max(F(1,2), F(2,3)), sorted([F(3,4), 0.5, 1]))
print(repr(F(1,2)), str(F(4,2)), f"{F(1,3)}", [F(1,2)])
import copy, pickle
print(copy.copy(F(1,2)), copy.deepcopy(F(2,3)), pickle.loads(pickle.dumps(F(5,7))))
