# format() / str.format / f-string specs of strings holding NUL characters keep
# the whole string (CPython's str has a length; nothing stops at NUL).
s = 'a\x00b'
print(repr(format(s, '>5')), repr(format(s, '<6')), repr(format(s, '^7')), repr(format(s, '')), repr(format(s, 's')))
print(repr('{}|{:>5}|{!r}|{!s}|{!a}'.format(s, s, s, s, 'é')), repr(f'{s:>5}'), repr(f'{s}'), repr('%s|%5s' % (s, s)))
print(repr('x\x00y{}'.format(1)), repr('{0}\x00{0}'.format('q')), repr(format(s, '.2')), repr('{:c}'.format(0)))
print(len(format(s, '>5')), repr('\x00{k}\x00'.format_map({'k': s})))
try:
    '{\x00'.format(1)
except ValueError as e:
    print(e)
