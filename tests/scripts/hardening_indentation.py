# Indentation as CPython 3.11's tokenizer checks it (issue 22): the columns at tab
# size 8 and at tab size 1 must order the lines alike, else TabError; each
# IndentationError's place (offset, end_offset) and, for files run as scripts
# (sys.executable: CPython 3.11 or nnscope), the lines printed for it.
import os
import subprocess
import sys

sources = [
    'if 1:\n\tx = 1\n        y = 2\n',          # tab, then 8 spaces: same at 8, not at 1
    'if 1:\n        x = 1\n\ty = 2\n',
    'if 1:\n    if 1:\n\tx = 1\n',              # indent at 1, dedent at 8
    'if 1:\n\tif 1:\n\t\tx = 1\n    \ty = 2\nprint(1)\n',
    'if 1:\n  \tx = 1\n\ty = 2\n',
    'def f():\n\tif 1:\n\t\treturn 1\n        return 2\n',
    'if 1:\n\tx = 1\n  y = 2\n',                # a dedent to no level
    'if 1:\n    x=1\n\t\n    y=2\n',             # a blank line's tabs do not count
    'if True:\n\tpass\n        \tpass\n',
    'if 1:\n\x0c\tx = 1\n\x0c        y = 2\n',   # a form feed resets the columns
    'if 1:\n    x = 1\n  y = 2\n',
    'if 1:\n    x = 1\n  yyyyy = 2 # c\n',
    'if 1:\n    if 1:\n        x = 1\n      y = 2\n',
    'def f():\n    return (1 +\n  2)\n  x\n',
    'if 1:\n    x = (1,\n2)\n  y = 3\n',
    'if 1:\nx = 1\n',
    'def f():\n# c\nreturn\n',
    'x = 1\n    y = 2\n',
    '  x = 1\n',
    'class A:\n    def f(self):\n    pass\n',
    'if 1:\n  x = 1\n  \ty\n',
    'if 1:\n\tx = (1,\n  2)\n        y = 3\n',   # inside brackets no indentation counts
    ''.join(' ' * i + 'if 1:\n' for i in range(101)) + ' ' * 101 + 'pass\n',
    ''.join(' ' * i + 'if 1:\n' for i in range(99)) + ' ' * 99 + 'pass\n',
    'if 1:\n\tx = 1\n\tif 1:\n        \ty = 2\n',
]
for i, src in enumerate(sources):
    try:
        compile(src, 'case%d' % i, 'exec')
        print(i, 'ok')
    except SyntaxError as e:
        print(i, type(e).__name__, e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset,
              repr(e.text[-30:]) if e.text else None)
try:
    exec('if 1:\n\tx = 1\n        y = 2\n')
except IndentationError as e:
    print(type(e).__name__, isinstance(e, TabError), str(e), issubclass(TabError, IndentationError))
print(TabError.__mro__)
for i in [0, 6, 10, 16, 19]:
    path = 'hind_%d.py' % i
    with open(path, 'w') as f:
        f.write(sources[i])
    r = subprocess.run([sys.executable, path], capture_output=True, text=True)
    os.remove(path)
    out = (r.stdout + r.stderr).splitlines()  # nnscope's run: one pipe for both
    print(i, r.returncode, [line.replace(os.getcwd() + os.sep, '') for line in out[-4:]])
