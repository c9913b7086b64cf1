# re flags are RegexFlag values as CPython 3.11 (enum.IntFlag): reprs, arithmetic, use
import re
print(repr(re.I), str(re.I), f'{re.I}', '%s' % re.I, '%d' % re.I, format(re.I, '04d'))
x = re.I|re.M
print(repr(x), x.value, x.name, re.I.name, type(x).__name__, int(x), x == 10, hash(x)==hash(10))
print(repr(re.NOFLAG), repr(re.I|0), repr(0|re.I), repr(re.I & re.M), repr(~re.I), repr(re.I ^ re.M), re.I+1, bool(re.NOFLAG))
print(repr(re.compile('a', re.I|re.M)), re.compile('a', re.I).flags, type(re.compile('a', re.I).flags))
print(re.RegexFlag(2), repr(re.RegexFlag(10)), repr(re.X|re.A|re.S|re.U))
print(repr(re.I|512), repr(re.RegexFlag(6)))
print([f for f in re.I|re.M])
print(re.I in (re.I|re.M), str(re.I|re.M))
print(re.findall('a', 'aA', re.I), re.sub('a', 'b', 'aA', flags=re.I), re.compile('a', re.I|re.M) == re.compile('a', 10))
print(re.search('^b', 'a\nB', re.M | re.IGNORECASE))
print(re.compile('x', re.VERBOSE|re.DOTALL).flags, repr(re.compile('x', re.A)), re.I == re.IGNORECASE)
