# SyntaxErrors of CPython 3.11's tokenizer and compiler that a script can hit
# (issue 22): number literals (every message and offset of tokenizer.c), duplicate
# parameters and repeated keyword arguments, global/nonlocal of a parameter or of
# a name bound before it, a bare except before another handler, two starred
# targets; and the forms that stay valid (1if x else y, 1_000, 0_0); float() of
# long and odd strings.
cases = ['def f(a, a): pass', 'lambda a, a: 1', 'def f(a, *, a): pass', 'def f(*a, **a): pass',
         'def f(a, /, a): pass', 'f(a=1, a=2)', 'f(x, b=1, c=2, b=3)', 'f(**k, a=1, a=2)',
         'def f():\n    global x\n    x = 1\n    global x', 'def f(x):\n    global x', 'def f(x):\n    nonlocal x',
         'def g():\n    y = 1\n    def f():\n        nonlocal y\n    y = 2\n    nonlocal y', 'x = 1\nglobal x',
         'for i in r: pass\nglobal i', 'class C:\n    import os\n    global os', 'def f():\n    global x\n    x = 1',
         'nonlocal x', 'f(a=1, b=2)', '*a, *b = c', 'a, (*b, *c) = d', '[*a, *b] = c', 'x = *a, *b = c',
         'for *a, *b in x: pass', '*a, b = c', 'a = [*b, *c]', 'def f():\n    *a, *b = c',
         'def f(a, b=1, *c, d, e=2, **f): pass']
for src in ['0b2', '0b', '0b_', '0b1_', '0b1__1', '0b12', '0b1a', '0o8', '0o', '0o79', '0x', '0xg', '0x1g', '0x_',
            '1_', '1__0', '1_a', '1a', '1e', '1e+', '1.5e', '1.5_', '1._5', '1_.5', '0_7', '07', '1.2.3', '1ej',
            '1jj', '1__', '0b1_0', '12_34_', '1e1_', '1e_1', '0_', '00_0', '09', '0_9', '1_000.000_1e1_0j',
            '0xdead_beef', '0o7_7', '00', '0.', '0e0', '0j', '1if 1 else 2', '[x for x in y if x]']:
    cases.append(src)
for src in cases:
    try:
        compile(src, '<s>', 'exec')
        print(repr(src), 'OK')
    except SyntaxError as e:
        print(repr(src), type(e).__name__, e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset)

# (its range ends on the handler's last line in CPython; nnscope's error ranges are one line)
try:
    compile('try:\n    pass\nexcept:\n    pass\nexcept ValueError:\n    pass', '<s>', 'exec')
except SyntaxError as e:
    print(e.msg, e.lineno, e.offset)

x = 1if True else 2
print(x, 0x_ff, 0_0, 1_000_000, 0o1_7, 1_0.2_5e-1_0)
for t in ['1' + '0' * 400, ' 1_000.5 ', '1__0', '_1', '1_', '1_.5', '1._5', '1e1_0', 'inf', '-nan', ' 0x10 ', '',
          '  ', '\x00', '1\x002', '1e400', '0.' + '0' * 300 + '1', 'Infinity', '1_2_3e-1_0', '\t2.5\n']:
    try:
        print(repr(t[:20]), float(t))
    except ValueError as e:
        print(repr(t[:20]), 'ValueError', str(e)[:60])
