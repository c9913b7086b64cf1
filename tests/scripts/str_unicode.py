# str case mapping and character classes beyond ASCII against CPython 3.11:
# full mappings ('ß'.upper() is 'SS'), final sigma, title/capitalize/swapcase/
# casefold, and isalpha/isdigit/isnumeric/... over whole Unicode blocks.
print('ß'.upper(), 'straße'.upper(), 'ﬁ'.upper(), 'İ'.lower(), len('İ'.lower()), 'ŉ'.title(), 'ǆ'.capitalize())
print('ΟΔΟΣ ΟΔΟΣ.'.lower(), 'Σ'.lower(), 'ΑΣ'.lower(), 'ΑΣΑ'.lower(), 'ΣΑ'.lower(), 'Α Σ'.lower())
print('Straße'.casefold(), 'ΣΑΣ'.casefold(), 'ﬃ'.casefold(), 'ſ'.casefold(), 'Straße'.casefold() == 'STRASSE'.casefold())
print('élan vital'.title(), 'ÉCOLE'.capitalize(), 'Ǆemal'.swapcase(), 'hello wörld'.title(), "o'neil ßx".title())
print('ÀÉÎõü'.swapcase(), 'Привет, Мир'.upper(), 'Привет, Мир'.lower(), 'ǉubljana'.title(), 'ﬀoo'.capitalize())
print('éa'.isalpha(), '東京'.isalpha(), 'é1'.isalpha(), '٣'.isdigit(), '²'.isdigit(), '²'.isdecimal(), '½'.isnumeric())
print('五'.isnumeric(), '五'.isdigit(), 'Ⅻ'.isnumeric(), 'é٣'.isalnum(), '\u3000\xa0'.isspace(), '\u200b'.isspace())
print('ÉCOLE'.isupper(), 'école'.islower(), 'École'.istitle(), 'ÉcOle'.istitle(), 'ǅ'.istitle(), 'ǅ'.isupper())
print('é'.isascii(), 'e'.isascii(), ''.isascii(), 'été_1'.isidentifier(), '1été'.isidentifier(), 'a b'.isidentifier())
print('é\u200b'.isprintable(), 'é'.isprintable(), '\n'.isprintable(), 'Abc'.istitle(), 'ABC'.istitle(), ''.istitle())
print('x'.casefold(), 'ABC'.casefold(), 'hello'.title(), "they're bill's".title())
print(hex(255), oct(8), bin(5), hex(-255), oct(-8), bin(True), hex(0), bin(-1))
for f in [hex, oct, bin]:
    try:
        f(1.5)
    except TypeError as e:
        print(type(e).__name__, e)

blocks = [(0xa0, 0x250), (0x370, 0x530), (0x531, 0x590), (0x10a0, 0x1100), (0x1e00, 0x2000),
          (0x2100, 0x2190), (0x2460, 0x2500), (0x2c00, 0x2d30), (0xa640, 0xa6a0), (0xff00, 0xff70)]
for lo, hi in blocks:
    text = ''.join([chr(c) for c in range(lo, hi)])
    print(hex(lo), 'upper', text.upper())
    print(hex(lo), 'lower', text.lower())
    print(hex(lo), 'title', text.title())
    print(hex(lo), 'swapcase', text.swapcase())
    print(hex(lo), 'casefold', text.casefold())
    words = ' '.join([chr(c) for c in range(lo, hi)])
    print(hex(lo), 'capitalize', ''.join([w.capitalize() for w in words.split(' ')]))
    for name in ['isalpha', 'isdigit', 'isdecimal', 'isnumeric', 'isalnum', 'isspace', 'isupper', 'islower',
                 'istitle', 'isprintable', 'isidentifier']:
        print(hex(lo), name, ''.join([('1' if getattr(chr(c), name)() else '0') for c in range(lo, hi)]))
