# Source files with odd bytes (issue 22): a byte order mark, a coding declaration,
# bytes that are not UTF-8, characters that cannot be in a name; each file runs as a
# script (sys.executable: CPython 3.11 or nnscope) and says its exit status and the
# last line it prints (its value, or its error).
import os
import subprocess
import sys

cases = [
    ('bom', b'\xef\xbb\xbfvalue = "bom"\n'),
    ('latin1', b'# -*- coding: latin-1 -*-\nvalue = "\xe9t\xe9"\n'),
    ('latin1_line2', b'#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-1 :\nvalue = "\xe0"\n'),
    ('utf8_declared', b'# coding=utf-8\nvalue = "\xc3\xa9"\n'),
    ('bad_coding', b'# -*- coding: nosuch -*-\nvalue = 1\n'),
    ('bad_utf8', b'value = "\xff"\n'),
    ('bad_utf8_line3', b'a = 1\nb = 2\n# \xc3\n'),
    ('surrogate', b'value = "\xed\xa0\x80"\n'),
    ('overlong', b'value = "\xc0\xaf"\n'),
    ('euro_name', 'x\u20ac = 1\n'.encode()),
    ('zero_width', 'x\u200b = 1\n'.encode()),
    ('bom_inside', 'x = 1\n\ufeffy = 2\n'.encode()),
    ('accented_name', '\u00e9t\u00e9 = 5\nvalue = \u00e9t\u00e9\n'.encode()),
    ('digit_start', '\u0661x = 1\n'.encode()),
]
for name, data in cases:
    path = 'hsf_' + name + '.py'
    with open(path, 'wb') as f:
        f.write(data + b'print(repr(value))\n')
    r = subprocess.run([sys.executable, path], capture_output=True, text=True)
    os.remove(path)
    out = (r.stdout + r.stderr).strip().splitlines()  # nnscope's run: one pipe for both
    print(name, r.returncode, out[-1].replace(os.getcwd() + os.sep, '') if out else '')
for src in ['a = 1 + \u20ac', 'x\u00a0= 1', '\u2028', 'f(\u00b7)', '_\u00b7 = 1; print(_\u00b7)']:
    try:
        exec(src)
    except SyntaxError as e:
        print(ascii(src), type(e).__name__, e.msg, e.lineno, e.offset)
