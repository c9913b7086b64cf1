# a NUL inside a str is text like any other: print, str(), %s, f-strings, format and str methods keep it
z = 'a\x00b'
print(z, 'c')
print(str(z) + '|', len(str(z)), len('%s' % z), len(f'{z}'), len('{}'.format(z)), len(repr(z)), len(str([z])), len(' '.join([z, 'c'])), len(format(z, '>5')), len(z.upper()), len(z.replace('a', 'x')), len(z.split('x')[0]))
class S(str): pass
class T:
    def __str__(self): return 'T!'
print(repr(str(S(z))), type(str(S(z))).__name__, repr('%s|%5s|%-5s|%.2s' % (z, z, z, z)), repr(f'{z!s}{z!r}{S(z)}'), str(T()), '%s' % T())
print(z, z, sep='\x00', end='\x00\n')
import io, sys
buf = io.StringIO()
print(z, 'c', sep='\x00', file=buf)
print(repr(buf.getvalue()))
print(repr('{}{}'.format(z, S(z))), repr(z.replace('b', 'c')), repr(z.center(7, '*')), repr(z.zfill(6)))
print(str(), str(1), str(None), str([z]))
