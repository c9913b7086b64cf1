# re (PCRE2 underneath) against CPython 3.11: matching, groups, sub, split,
# flags, empty matches, Unicode, and the errors with their messages.
import re

m = re.match(r'(\w+) (\w+)', 'hello world foo')
print(m)
print(m.group(0), m.group(1, 2), m[2], m.groups(), m.span(1), m.start(2), m.end())
print(m.pos, m.endpos, m.lastindex, m.lastgroup, m.string, m.re)
m = re.search(r'(?P<year>\d{4})-(?P<month>\d\d)(-(?P<day>\d\d))?', 'date: 2024-03 end')
print(m.groupdict(), m.groupdict('?'), m.groups(), m.groups(0), m.lastgroup, m.regs)
print(m.span('month'), m.group('year'), m.start('day'), m.expand(r'\g<month>/\1'))
print(re.match('a', 'ba'), re.search('a', 'ba'), re.fullmatch('a|ab', 'ab'), re.fullmatch('a', 'ab'))
print(bool(re.match('', '')), re.match('((a)b)', 'ab').lastindex, re.match('(a)()', 'a').lastindex)
print(re.match('(a())', 'a').lastindex, re.match('(a)|(b)', 'b').lastindex, re.match('x', 'x').lastindex)

# findall / finditer
print(re.findall(r'\d+', 'a1b22c333'), re.findall(r'(\w)(\d)', 'a1b2c'), re.findall(r'(a)|b', 'ab'))
print(re.findall('', 'abc'), re.findall('x*', 'axxb'), [m.span() for m in re.finditer(r'\b', 'ab cd')])
print([(m.group(), m.start()) for m in re.finditer(r'[aeiou]', 'education')])
it = re.finditer('o', 'foo')
print(next(it).span(), next(it).span())

# sub / subn with templates and functions
print(re.sub(r'(\w+)@(\w+)\.com', r'\2 at \1 (\g<0>)', 'joe@example.com, ann@site.com'))
print(re.sub(r'(?P<k>\w+)=(?P<v>\w+)', r'\g<v>=\g<k>', 'a=1 b=2'))
print(re.sub(r'\d+', lambda m: str(int(m.group()) * 2), 'x1 y22 z333'))
print(re.sub('x*', '-', 'abxd'), re.sub('', '.', 'ab'), re.sub('a', r'\n\t\\', 'bab'))
print(re.sub('(a)|b', r'[\1]', 'ab'), re.sub('a', 'b', 'aaaa', 2), re.sub('a', 'b', 'aaaa', count=-1))
print(re.subn(r'\s+', ' ', 'a  b \t c'), re.subn('z', 'y', 'abc'))
print(re.sub(r'(\d)', r'\g<1>0', '12'), repr(re.sub('a', r'\101\0', 'a')))

# split
print(re.split(r'[,;]\s*', 'a, b;c,  d'), re.split(r'(,)', 'a,b,c'), re.split(',', 'a,b,c', 1))
print(re.split(r'\b', 'a b'), re.split('x*', 'axbc'), re.split(r'(a)|b', 'xaybz'), re.split('z', ''))
print(re.split(r'\s+', '  lead and trail  '))

# flags
print(re.match('abc', 'ABC', re.I), re.findall('^x', 'x\nx', re.M), re.match('a.b', 'a\nb', re.S))
print(re.match(r'''\d+  # digits
                   \.  # a point
                   \d*''', '3.14', re.X))
print(re.findall('(?i)ab', 'AB ab aB'), re.findall('(?m)^y', 'y\ny'), re.match('(?s).', '\n'))
print(re.findall(r'(?i:A)b', 'ab AB Ab'), re.match(r'\w+', 'héllo', re.A), re.match(r'\w+', 'héllo'))
p = re.compile(r'(\d+)-(?P<x>\d+)', re.I | re.M)
print(p, p.pattern, p.flags, p.groups, p.groupindex, re.compile('a').flags, re.compile('(?i)a').flags)
print(re.compile('a', re.A).flags, int(re.I), int(re.M | re.S), re.IGNORECASE == re.I, re.compile(p) is p)
print(p.match('12-34'), p.search('x 1-2', 3), p.match('1-2', 0, 2), p.findall('1-2 3-4'), p.sub('#', '1-2 x'))
print(re.compile('a') == re.compile('a'), re.search('^a', 'ba', re.M), re.compile('x').search('axb', 1, 2))

# syntax Python has and PCRE2 spells differently
print(re.match(r'a\Z', 'a\n'), re.match(r'a$', 'a\n'), re.match(r'\u00e9\x41\U0001F600', 'éA😀'))
print(re.match(r'a{,2}', 'aaa'), re.match(r'a{2,}', 'aaaa'), re.match('x{}', 'x{}'), re.match('a{x', 'a{x'))
print(re.match(r'(?P<x>a)(?P=x)?', 'a'), re.match(r'(?P<x>a)(?P=x)', 'aa'), re.match(r'(a)\1', 'aa'))
print(re.match(r'[\]a]+', ']a]'), re.match('[]]', ']'), re.match(r'[\d\s]+', '1 2'), re.match('[[:a]+', '[:a'))
print(re.match(r'(?:ab)+', 'abab'), re.match(r'(?<=a)b', 'ab'), re.search(r'(?<=a)b', 'ab'), re.match(r'a(?=b)', 'ab'))
print(re.match(r'a(?!c)', 'ab'), re.match(r'(?#note)a', 'a'), re.match(r'(a)?(?(1)b|c)', 'c'), re.match(r'\v\t', '\x0b\t'))
print(re.match('a*+a', 'aaa'), re.match('(?>a*)b', 'aab'), re.match(r'\0\07', '\x00\x07'), re.match('[\\b]', '\b'))
print(re.escape('a.b*c d-e\t#&~ ü'), re.escape(''), re.match(re.escape('1+1=2?'), '1+1=2?'))

# Unicode
print(re.findall(r'\w+', 'héllo wörld, 東京'), re.sub('é', 'e', 'éé'), re.match('ÉCOLE', 'école', re.I))
print(re.search('ö', 'aöb').span(), [m.span() for m in re.finditer('.', 'aé😀')], re.split('é', 'aébéc'))
print(re.findall(r'\d', '1٣'), re.findall(r'\d', '1٣', re.A), re.findall(r'[^\W\d]+', 'ab1cé'))

# a typical use: parsing log lines
log = 'epoch 1 loss 0.532 acc 81.2%\nepoch 2 loss 0.411 acc 85.0%\n'
for m in re.finditer(r'^epoch (\d+) loss ([\d.]+) acc ([\d.]+)%$', log, re.M):
    print(int(m.group(1)), float(m.group(2)), float(m[3]))
pat = re.compile(r'layer(\d+)\.(weight|bias)')
print([pat.sub(lambda m: 'blocks.%d.%s' % (int(m.group(1)) - 1, m.group(2)), k)
       for k in ['layer1.weight', 'layer2.bias', 'head.weight']])

# errors: CPython's messages and positions
for bad in ['*', 'a**', 'a+*', '(a', 'a(b', '((a)', 'a)', '[ab', r'\q', r'(a)\2', r'(a\1)', '(?P=x)',
            '(?i', 'a(?i)', '(?z)', r'\x4', '^*', '(?P<1a>x)', 'a{3,2}', r'[\A]', '(?P<a>x)(?P<a>y)',
            '\\', r'\u12', '(?<n>a)', 'x{2}{3}', r'\K', 'a\n(']:
    try:
        re.compile(bad)
        print(repr(bad), 'compiled')
    except re.error as e:
        print(repr(bad), '->', e, '|', e.msg, e.pos, e.lineno, e.colno, isinstance(e, Exception))
for tmpl in [r'\3', r'\g<3>', r'\g<x>', r'\q', r'\g<', r'\g<1', r'\g<a b>', '\\', r'\g<>', r'\g']:
    try:
        print(re.sub('(a)(?P<n>b)', tmpl, 'ab'))
    except (re.error, IndexError) as e:
        print(repr(tmpl), type(e).__name__, e)
checks = [lambda: re.match(1, 'a'), lambda: re.match('a', 1), lambda: re.match('a', 'a').group(3),
          lambda: re.match('a', 'a').group('x'), lambda: re.match('(a)', 'a').span(2),
          lambda: re.sub('a', 3, 'a'), lambda: re.sub('a', lambda m: 5, 'a'), lambda: re.compile(p, re.I),
          lambda: re.escape(5), lambda: re.findall('a', None), lambda: re.split('a', 7)]
for f in checks:
    try:
        print(f())
    except (TypeError, IndexError, ValueError) as e:
        print(type(e).__name__, e)
print(re.match('a', 'a'))
re.compile('(unclosed')
