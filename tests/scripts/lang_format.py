import torch
x = 3.14159; n = 1234567; s = 'hi'; w = 10; p = 3
print(f'{x=}', f'{x = }', f'{n=:,}', f'{s!r}', f'{s!s}', f'{"é"!a}', f'{x=!r:>12}')
print(f'{x:{w}.{p}f}|{n:_}|{n:,d}|{x:,.2f}|{n:>10,}|{-n:+,}|{n:x}|{n:#x}|{n:#o}|{n:b}|{n:#_b}')
print(f'{x:e}|{x:.3e}|{x:g}|{1e20:g}|{x:%}|{0.25:.1%}|{x:010.3f}|{-x:=10.2f}|{x:^10.1f}|{s:*^8}|{s:>5}|{s:<5}|')
print(f'{n:08d}|{n:+d}|{n: d}|{True:d}|{3:c}|{65:c}|{x:.0f}|{2.5:.0f}|{1e100:.3g}|{float("inf"):f}|{float("nan"):e}')
print('%5.2f|%s|%r|%d|%x|%X|%o|%e|%g|%10s|%-10s|%%|%c|%i|%+d|%05d|%.3s' % (x, s, s, n, n, n, n, x, x, s, s, 65, 7, 5, 42, 'abcdef'))
print('%(a)s and %(b)05.1f' % {'a': 'A', 'b': 2.25})
print('%s' % (1,), '%s' % [1, 2], '%s %s' % ('a', 'b'), '%*d' % (5, 3), '%.*f' % (2, 1.23456))
print(format(x, '.2f'), format(n, ','), format(s), format(12, 'b'), format(3.0), format(1e16), format(255, '#06x'))
print('{} {} {}'.format(1, 'a', 2.5), '{0}{1}{0}'.format('a', 'b'), '{x}-{y}'.format(x=1, y=2), '{:>{w}}'.format('r', w=4))
print('{0} {1[0]} {d[k]}'.format(3, [9], d={'k': 'v'}), '{!r:>6}'.format('a'), '{{}}'.format())
class P:
    def __init__(self, v): self.v = v
    def __repr__(self): return f'P({self.v!r})'
    def __str__(self): return f'<P {self.v}>'
    def __format__(self, spec): return 'fmt[' + spec + ']'
p_ = P('q')
print(p_, repr(p_), str(p_), f'{p_}', f'{p_!r}', f'{p_!s}', f'{p_:abc}', format(p_, 'z'), '%s %r' % (p_, p_), [p_])
class Q:
    def __repr__(self): return 'Q!'
print(f'{Q()}', str(Q()), '%s' % Q(), f'{Q()!s:>5}')
loss = torch.tensor(0.123456)
t = torch.tensor([1.5, 2.5])
print(f'{loss:.4f}', f'{loss:.3e}', '%.3f' % loss, f'{loss}', f'{t}', '{:.2f}'.format(loss), format(loss, '.1f'))
print(f'{torch.tensor(2.5)}', str(torch.tensor(3)), f'{torch.tensor(7):d}', '%d' % torch.tensor(7), '%s' % loss)
print(f'{loss.item():.4f}', f'{t.sum():.2f}', f'epoch {3:3d} loss {loss:8.4f}')
try:
    print(f'{t:.2f}')
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%d' % 'a')
except TypeError as e:
    print(e)
try:
    print('%d %d' % (1,))
except TypeError as e:
    print(e)
try:
    print('%d' % (1, 2))
except TypeError as e:
    print(e)
try:
    print(f'{s:d}')
except ValueError as e:
    print(e)
try:
    print(f'{n:s}')
except ValueError as e:
    print(e)
print(f"{'nested'!r:^{w+2}}", f'{[1,2][0]}', f'{ {"a":1}["a"] }', f'{x!r:}')
print(f'''multi
{x:.1f}''', rf'\n{x}', f'{3+4=}')
print('%s' % {'a':1}, '%(a)s %%' % {'a': 2}, '%d%%' % 5)
for fmt, a in [('%x', 1.5), ('%d', 'a'), ('%f', 'a'), ('%c', 'ab'), ('%c', 1.5), ('%c', 0x110000), ('%(a)s', (1,)), ('%*d', ('a', 1)), ('%y', 1), ('%d', float('inf')), ('%s %s', (1,)), ('%s', (1, 2)), ('%', 1), ('%(a', {'a':1}), ('%i', True), ('%u', 3), ('%5.1s|', 'abc'), ('%a', 'é'), ('%r', 'é'),('%#.3g', 1.0),('%g', 1e-5), ('%.0e', 12345), ('%F', float('nan')), ('%e', True), ('%s', None), ('%5%|', ()), ('%-5d|', -3), ('% d', 5), ('%+x', 255), ('%#X', 255), ('%.2f', 2), ('%d', 3.99), ('%d', -3.99), ('%o', -8), ('%#5o', 8), ('%-#8x|', 255), ('%08.3f', -3.14159), ('%x', True), ('%s and %s', [1, 2]), ('%d', [1]), ('%(x)d %(y)s', {'x': 1, 'y': 'b'}), ('%s', ()), ('%(x)s', {}), ('%.*f', (3, 2.0)), ('%*.*f|', (8, 2, 3.14159)), ('%-*d|', (5, 1)), ('%c', 233), ('%10.4f|', 3.14159), ('%ld', 5), ('%%s' , ()), ('%s %s', 'ab'), ('%d', 10**18)]:
    try: print(fmt, '=>', repr(fmt % a))
    except Exception as ex: print(fmt, '=>', type(ex).__name__, ex)
print('%5.2f %-6d| %s' % (torch.tensor(3.14159), torch.tensor(42), torch.tensor([1, 2])))
print('%d' % torch.tensor(7.9), '%x' % torch.tensor(255), '%e' % torch.tensor(1.5))
try:
    print('%f' % torch.tensor([1.0, 2.0]))
except Exception as e:
    print(type(e).__name__, e)
print(f'{torch.tensor(True)}', f'{torch.tensor(3):>4}', f'{torch.tensor(2.5, requires_grad=True):.2f}')
print(ascii('héllo ☃ 𝔘'), ascii([1, 'ü']), f'{"☃"!a}', '%a' % 'ß')
print(f'{12345678:_x}|{255:_o}|{0b1111_0000:_b}|{1234.5:_.1f}')
for epoch in range(2):
    loss = torch.tensor(1.0 / (epoch + 1))
    print(f'Epoch [{epoch + 1}/2], Loss: {loss:.4f}', 'avg %.2f' % loss, 'Loss: {:.3f}'.format(loss))
