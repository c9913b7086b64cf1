# the SyntaxErrors CPython's compiler raises before anything runs: return outside a
# function, break/continue outside a loop, nonlocal at module level
sources = [
    'return 5',
    'x = 1\nbreak',
    'for x in y:\n    pass\nelse:\n    continue',
    'nonlocal x',
    'def f():\n    class A:\n        return 1',
    'while True:\n    def g():\n        break',
    'if x:\n    pass\nelse:\n    return',
    'class C:\n    continue',
    'try:\n    pass\nexcept E:\n    break',
    'match x:\n    case 1:\n        break',
]
for src in sources:
    try:
        compile(src, '<s>', 'exec')
        print('compiled')
    except SyntaxError as e:
        print(type(e).__name__, e)

# these are fine
ok = [
    'def f():\n    return 1',
    'for i in x:\n    if i:\n        break\n    else:\n        continue',
    'while x:\n    try:\n        pass\n    finally:\n        continue',
    'for i in x:\n    with a:\n        break',
    'def f():\n    def g():\n        nonlocal y\n    y = 1',
    'for i in x:\n    match i:\n        case 1:\n            continue',
    'lambda: 1',
]
for src in ok:
    compile(src, '<s>', 'exec')
print('all compiled')
n = 0
for i in range(10):
    if i == 3:
        continue
    if i == 6:
        break
    n += i
print(n)

# a SyntaxError's attributes
for src in ['x = (', 'def f(:\n    pass', 'if True:\nprint(1)', 'a = 1\nreturn a', 'print("a" "b"']:
    try:
        compile(src, 'snippet.py', 'exec')
    except SyntaxError as e:
        print(type(e).__name__, repr(e.msg), e.filename, e.lineno, e.offset, repr(e.text))
