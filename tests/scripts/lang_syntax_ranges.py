# The parser's syntax errors as CPython 3.11 reports them: message, line, and the
# number of carets its traceback prints under the line (end_offset - offset, one
# when the range is empty or ends on another line), through compile()
cases = [
    'print(1 2)',
    'foo(a b, c)',
    "d = {'a' 1}",
    'x = [1 2, 3]',
    'if x = 3:\n    pass',
    'while n = 0:\n    pass',
    'if f() = 3:\n    pass',
    'for x in range(3)\n    print(x)',
    'class A\n    pass',
    'def f()\n    return 1',
    'while True print(1)',
    'print "hello"',
    'print "a", x',
    '[x for x in range(3) yield]',
    'y = [(yield x) for x in range(3)]',
    'def g():\n    return {(yield k) for k in range(3)}',
    'def g():\n    return {k: (yield k) for k in range(3)}',
    'x = {1: 2, 3}',
    'f(x for x in y, 1)',
    'x = 5 if y',
    'else:\n    pass',
    'f() = 3',
    'del f()',
    'x = 1 +',
    'x = (1, 2))',
    'import',
    'a b c',
    'return value',
    'lambda x: (yield)',
    'def f(:\n    pass',
    'x === 1',
    '1 = x',
    'if True:\n    x = 1\n      y = 2',
    'def f():\nreturn 1',
    'from x import',
    'pass pass',
    'x = yield = 3',
    'def f():\n    x = [1 for _ in (yield)]',
    'def f():\n    x = [y for y in z if (yield)]',
    'def f():\n    return f((yield) for x in y)',
    'def f():\n    return [[(yield)] for x in y]',
]
for src in cases:
    try:
        compile(src, '<case>', 'exec')
        print(repr(src), 'compiles')
    except SyntaxError as e:
        carets = 1
        if type(e) is SyntaxError and e.end_lineno == e.lineno and e.end_offset and e.end_offset > e.offset:
            carets = e.end_offset - e.offset
        print(repr(src), type(e).__name__, repr(e.msg), e.lineno, e.offset, '^' * carets)
