# repr() of a str escapes what str.isprintable() refuses, as CPython 3.11: lone
# surrogates, U+FEFF, format characters, separators, private use, unassigned code
# points (CPython's Unicode 14 database, also where a newer Unicode assigns them)
import hashlib

samples = ['\ud83d', '\udc00x', '\ufeff[1]', 'a\u200bb', '\x7f\x85\xa0\xad', '\U000e0001',
           '\u2028\u2029', '\ue000', '\U0010ffff', '\u0378', '\u3000', 'caf\u00e9', '\U0001f600',
           '\u061c', '\U0001faf7', '\U0001f6dc', "'\ufeff\"", '\x00\t\n']
for s in samples:
    print(repr(s), ascii(s), s.isprintable(), repr([s]), repr({s: 1}), repr((s,)))
print(f'{samples[0]!r} {"%r" % samples[2]}')

# every code point: the reprs that are not the character itself, and a digest of all
escaped, runs = 0, []
digest = hashlib.sha256()
for c in range(0x110000):
    r = repr(chr(c))
    digest.update(r.encode('utf-8', 'surrogatepass'))
    if len(r) != 3:
        escaped += 1
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
print(escaped, len(runs), runs[-3:], digest.hexdigest())
print(sum(1 for c in range(0x110000) if chr(c).isprintable()))
# the str methods read a lone surrogate as one code point (category Cs)
for s in ['\ud800', '\udfffa', 'a\ud861b']:
    print(repr(s.upper()), repr(s.lower()), repr(s.casefold()), repr(s.title()), s.isalpha(), s.isalnum(),
          s.isidentifier(), s.isspace(), s.islower(), s.isupper(), s.isprintable(), len(s))
