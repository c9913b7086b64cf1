# input() is a built-in function: its EOFError shows no frame of its own (the
# traceback ends at the line that called it), as in CPython 3.11.
import io
import os
import sys
import traceback


def ask():
    return input('name? ')


sys.stdin = io.StringIO('Ada\n')
print(repr(ask()))
try:
    ask()
except EOFError as e:
    print()
    print('EOFError:', e)
    print(traceback.format_exc().replace(os.path.dirname(os.path.abspath(__file__)) + os.sep, ''))
