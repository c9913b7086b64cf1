# time.struct_time, localtime, gmtime, mktime, strftime, asctime, ctime, against CPython 3.11
import time
t = time.localtime(0 + 86400 * 365)
g = time.gmtime(1700000000.7)
print(g, g.tm_year, g.tm_yday, g[6], tuple(g)[:3], len(g))
print(time.strftime('%Y-%m-%d %H:%M:%S', g), time.asctime(g), time.mktime(time.localtime(1700000000)) == 1700000000.0)
print(type(time.localtime()).__name__, time.localtime().tm_year >= 2024, len(time.strftime('%H:%M')), time.ctime(0) == time.asctime(time.localtime(0)))
print(time.gmtime(0), time.strftime('%a %b %d', time.gmtime(86400 * 40)))
try:
    time.mktime((1, 2))
except TypeError as e:
    print('TypeError', e)
