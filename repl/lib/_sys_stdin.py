# sys.stdin and sys.__stdin__ (made on first use): a text file over descriptor 0
# that read(), readline(), iteration and input() read line by line, never closed
# by close(); sys.stdin.buffer reads bytes. builtins.input reads it too.

import io

stdin = io._std_stream(0, '<stdin>', 'r')
__stdin__ = stdin


def input(prompt=''):
    # builtins.input: the prompt to sys.stdout, then a line of sys.stdin without its newline
    import sys
    if prompt:
        print(prompt, end='', flush=True)
    line = sys.stdin.readline()
    if not line:
        raise EOFError('EOF when reading a line')
    return line[:-1] if line.endswith('\n') else line
