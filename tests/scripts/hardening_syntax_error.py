# SyntaxError as CPython 3.11 makes and shows it (issue 22): compile()/exec()/eval()
# give args (msg, (filename, lineno, offset, text, end_lineno, end_offset)) with the
# parser's offsets and text (its newline only where CPython's parser keeps one);
# SyntaxError(...) built by hand takes the same fields; str(e), the attributes,
# traceback.format_exception_only; and an uncaught one prints its File / text / caret
# block (each run as a script by sys.executable: CPython 3.11 or nnscope).
import os
import subprocess
import sys
import traceback

sources = [
    "x = (1,", "x = [1,\n2", "x = (1,\n 2,\n", "f(", "f(**x, *y)", "f(**x, *[1, 2])",
    "f(a=1, *y, **z, *w)", "if x:\n", "if x:", "x = 1\nif x:\n\n\n", "if x:\n# c\n",
    "for x in y:\npass", "class A:\n", "try:\n  pass\n", "def f():\n    pass\n  x",
    "1 +", "a b", "x = 1\ny = )", "x = (]", "'abc", "'''abc", "'''a\nb", "\"abc\ndef\"",
    "print 1", "x = $", "x = 1€", "x\u200b = 1", "1abc", "0x", "x = 'a\\N{nope}'",
    "x = 1 +\\", "import", "from x import", "class", "x = {1: 2, 3}", "a, b += 1",
    "None += 1", "True = 1", "1 = x", "x = 1 = 2", "(a, b) = 1, 2 = 3", "a, 1 = 2", "[a, 1] = 2",
    "f() = 1", "x = f() = 2", "del f()", "print(f'{a b}')", "f'{'", "f'{}'", "f'}'",
    "x = 5 if 3", "x ==== 2", "def f(*): pass", "while True\n  pass", "  x = 1",
    "if x:\n  a\n    b", "return 1", "for i in x: pass\nbreak",
]
for src in sources:
    try:
        compile(src, '<string>', 'exec')
        print(repr(src), 'compiles')
    except SyntaxError as e:
        print(repr(src), type(e).__name__, e.args)
for src in ["a b", "'abc", "f(**x, *y)", "1 + * 2"]:
    try:
        eval(src)
    except SyntaxError as e:
        print('eval', repr(src), e.args)

try:
    exec("x = (1,\n")
except SyntaxError as e:
    print(repr(str(e)), e.msg, e.filename, e.lineno, e.offset, repr(e.text), e.end_lineno, e.end_offset,
          e.print_file_and_line, e.__dict__)
    print(traceback.format_exception_only(type(e), e))
    print(traceback.format_exception_only(e))

# built by hand
def show(make):
    try:
        e = make()
        print(repr(str(e)), e.args, e.msg, e.filename, e.lineno, e.offset, repr(e.text), e.end_lineno,
              e.end_offset, e.print_file_and_line, e.__dict__)
        print('  ', traceback.format_exception_only(e))
    except Exception as x:
        print(type(x).__name__, x)

show(lambda: SyntaxError('m', ('f.py', 3, 4, '  abc def\n', 3, 6)))
show(lambda: SyntaxError('m', ('/a/b/c.py', 1, 2, 't')))
show(lambda: SyntaxError('m', ('/a/b/', 1, 2, 't')))
show(lambda: SyntaxError('m', (b'/a/b/c.py', 1, 2, 't')))
show(lambda: SyntaxError('m', ('f', '3', 2, 't')))
show(lambda: SyntaxError('m', (None, 3, 2, 't')))
show(lambda: SyntaxError('m', ('f', None, 3, '  \txyz\n', 1, 6)))
show(lambda: SyntaxError('m', [1, 2, 3, 4]))
show(lambda: SyntaxError(5, ('f', 3, 2, 't')))
show(lambda: SyntaxError(None, ('f', 3, 2, 't')))
show(lambda: SyntaxError('m'))
show(lambda: SyntaxError())
show(lambda: SyntaxError('a', 'b', 'c'))
show(lambda: SyntaxError('m', ('f', 1, 9, 'xyz\n', 1, 12)))
show(lambda: SyntaxError('', ('f', 1, 1, '\txyz\n', 1, 3)))
show(lambda: SyntaxError('m', ('f', 1, None, 'xyz\n', 1, 3)))
show(lambda: IndentationError('m', ('f', 1, 2, 'abcdef', 1, 4)))
show(lambda: TabError('m', ('f', 3, 2, 't')))
show(lambda: SyntaxError('m', 5))
show(lambda: SyntaxError('m', (1, 2)))
show(lambda: SyntaxError('m', (1, 2, 3, 4, 5, 6, 7)))
show(lambda: SyntaxError('m', ('f', 1, 2, 't', 3)))

class MyError(SyntaxError):
    pass

show(lambda: MyError('m', ('f', 1, 2, 'xyz\n', 1, 3)))
e = SyntaxError('m', ('f', 1, 2, 't', 1, 3))
e.msg, e.lineno, e.filename = 'changed', 7, 'g'
print(str(e), e.args, traceback.format_exception_only(e))
print(repr(SyntaxError('m', ('f', 1, 2, 't', 1, 3))))

# uncaught: the block CPython prints
uncaught = [
    ('exec', 'exec("def f(:\\n  pass")\n'),
    ('exec_eof', 'exec("x = 1\\nif x:\\n\\n\\n")\n'),
    ('exec_star', 'exec("f(**x, *y)")\n'),
    ('eval', 'eval("1 + * 2")\n'),
    ('compile_tab', 'compile("if x:\\n\\ta\\n        b", "<t>", "exec")\n'),
    ('raise_made', 'raise SyntaxError("m", ("f.py", 3, 4, "  abc def\\n", 3, 6))\n'),
    ('raise_subclass', 'raise IndentationError("m", ("/a/b/f.py", 2, 2, "abcdef", 2, 4))\n'),
    ('raise_no_offset', 'raise SyntaxError("m", ("f.py", 3, None, "abc def", 3, 6))\n'),
    ('raise_no_lineno', 'raise SyntaxError("m", ("f", None, 2, "abc def", None, None))\n'),
    ('raise_past_end', 'raise SyntaxError("m", ("f", 2, 10, "abc", 2, 12))\n'),
    ('raise_backwards', 'raise SyntaxError("m", ("f", 2, 2, "abcdef", 2, 1))\n'),
    ('raise_tab', 'raise SyntaxError("m", ("f", 2, 2, "\\tab\\tcdef\\n", 2, 5))\n'),
    ('raise_two_lines', 'raise SyntaxError("m", ("f", 2, 6, "abc\\ndef\\n", 2, 8))\n'),
    ('raise_empty_msg', 'raise SyntaxError("", ("f", 2, 2, "abcdef", 2, 4))\n'),
    ('raise_none_msg', 'raise SyntaxError(None, ("f", 2, 2, "abcdef", 3, 4))\n'),
    ('raise_plain', 'raise SyntaxError("m")\n'),
    ('file_eof', 'x = 1\nif x:\n\n\n'),
    ('file_comment', 'x = 1\nif x:\n# c\n'),
    ('file_no_newline', 'x = 1\ny = (1,\nz = 2'),
]
for name, code in uncaught:
    path = 'hse_' + name + '.py'
    with open(path, 'w') as f:
        f.write(code)
    r = subprocess.run([sys.executable, path], capture_output=True, text=True)
    os.remove(path)
    print('--', name, r.returncode)
    print((r.stdout + r.stderr).replace(os.getcwd() + os.sep, ''), end='')  # nnscope: one pipe

# an imported module with a syntax error: the line as the file has it
with open('hse_mod.py', 'w') as f:
    f.write('x = 1\nif x:')
try:
    import hse_mod
except SyntaxError as e:
    print(type(e).__name__, e.msg, os.path.basename(e.filename), e.lineno, e.offset, repr(e.text), e.end_lineno,
          e.end_offset)
    print(traceback.format_exception_only(e)[1:])
os.remove('hse_mod.py')
