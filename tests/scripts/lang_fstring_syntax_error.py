# SyntaxErrors inside an f-string field's expression as CPython 3.11 gives them (msg,
# the text "(a b)" with offsets into it), and `except` without its colon.
for src in ['x = f"{a b}"', 'y = f"{x!r:>{w}} {a b c}"', 'f"{1 +}"', 'f"{a;b}"', 'f"{)}"', 'f"{a:{b c}}"',
            'try:\n    pass\nexcept\n', 'try:\n    pass\nexcept\n    pass\n', 'z = f"{ a  b }"']:
    try:
        compile(src, '<s>', 'exec')
    except SyntaxError as e:
        print(repr(src), '->', e.msg, repr(e.text), e.lineno, e.offset, e.end_offset)
