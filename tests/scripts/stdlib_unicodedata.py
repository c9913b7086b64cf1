# unicodedata as CPython 3.11's (Unicode 14.0.0), and the \N{...} escape.
import hashlib
import string
import unicodedata
import unicodedata as ud

print(ud.unidata_version)

# the char-RNN tutorial's name cleaning (PyTorch's "NLP From Scratch")
all_letters = string.ascii_letters + " .,;'"
def unicodeToAscii(s):
    return ''.join(c for c in unicodedata.normalize('NFD', s)
                   if unicodedata.category(c) != 'Mn' and c in all_letters)
print(unicodeToAscii('Ślusàrski'), unicodeToAscii('Nguyễn'), unicodeToAscii("O'Néàl"))

# every property of every code point of the BMP, of every fifth of planes 1-2 and of the tags, as digests
cps = list(range(0x10000)) + list(range(0x10000, 0x32000, 5)) + list(range(0xE0000, 0xE0200))
chars = [chr(cp) for cp in cps]
def digest(f):
    return hashlib.sha256('\n'.join([ascii(f(c)) for c in chars]).encode()).hexdigest()[:16]
for name, f in [('category', ud.category), ('bidirectional', ud.bidirectional), ('combining', ud.combining),
                ('mirrored', ud.mirrored), ('decimal', lambda c: ud.decimal(c, None)),
                ('digit', lambda c: ud.digit(c, -1)), ('numeric', lambda c: ud.numeric(c, None)),
                ('decomposition', ud.decomposition), ('name', lambda c: ud.name(c, ''))]:
    print(name, digest(f))
for form in ('NFC', 'NFD', 'NFKC', 'NFKD'):
    print(form, digest(lambda c: ud.normalize(form, c + '\u0301a\u0327')), digest(lambda c: ud.is_normalized(form, c)))

print(ud.name('a'), ud.name('가'), ud.name('\uac05'), ud.name('一'), ud.name('\U00016b61'), ud.numeric('\U00016b61'))
print(ud.lookup('latin small letter a'), ud.lookup('BYTE ORDER MARK') == '\ufeff', ud.lookup('LATIN CAPITAL LETTER GHA'))
print(ud.lookup('HANGUL SYLLABLE GANJ'), ud.lookup('CJK UNIFIED IDEOGRAPH-04E00'), ud.numeric('五'), ud.numeric('½'))
print(ud.decomposition('é'), ud.decomposition('ﬁ'), repr(ud.decomposition('가')), ud.category('\ud800'))
print("\N{GREEK SMALL LETTER ALPHA}\N{em dash}\N{HANGUL SYLLABLE GA}", f"{1}\N{EM DASH}{2}", r"\N{X}", b"\N{X}")

for call in [lambda: ud.category('ab'), lambda: ud.category(1), lambda: ud.category(''), lambda: ud.name('\x00'),
             lambda: ud.decimal('a'), lambda: ud.digit('x'), lambda: ud.numeric('x'), lambda: ud.normalize('X', 'a'),
             lambda: ud.normalize('NFC', 1), lambda: ud.normalize(1, 'a'), lambda: ud.lookup('NO SUCH NAME'),
             lambda: ud.lookup('hangul syllable ga'), lambda: ud.lookup('CJK UNIFIED IDEOGRAPH-4e00'),
             lambda: ud.lookup(3), lambda: ud.category(), lambda: ud.name('a', 1, 2)]:
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, e)
print(ud.name('\x00', 'no name'), ud.decimal('x', -1))

for src in ['"\\N{FOO}"', '"é\\N{FOO}"', '"\\N{A"', '"\\N"', '"\\N{}"', 'f"{1}\\N{FOO}"', '"ab\\x4"', '"é\\U00110000"']:
    try:
        compile(src, '<s>', 'eval')
    except SyntaxError as e:
        print(e.msg)
