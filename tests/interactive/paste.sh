#!/bin/sh
# Pasting: %cpaste of an indented class with >>> prompts (ends at --) and of a
# line ended by Ctrl-D; text pasted without bracketed paste (lines arriving
# faster than typing) gets no auto-indentation added; %autoindent toggles it.
# Usage: sh tests/interactive/paste.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start
nb_type "%cpaste"; nb_keys Enter
nb_wait "Pasting code; enter '--' alone on the line to stop or use Ctrl-D."
nb_type "    >>> class Counter:"; nb_keys Enter
nb_type "    ...     def __init__(self):"; nb_keys Enter
nb_type "    ...         self.n = 41"; nb_keys Enter
nb_keys -l -- "--"; nb_keys Enter # (-- alone would end send-keys' options)
nb_wait "In [2]:"
nb_type "Counter().n + 1"; nb_keys Enter
nb_wait "Out[2]: 42"
nb_type "%cpaste"; nb_keys Enter
nb_wait_count "Pasting code" 2
nb_type "7 * 6"; nb_keys Enter C-d
nb_wait "<EOF>"
nb_wait "Out[3]: 42"
# a paste without bracketed paste: the lines arrive in one write, each with its own indentation
nb_type "$(printf 'def twice(x):\n    if x:\n        return 2 * x\n    return 0')"
nb_wait "   ...:     return 0"
nb_keys Enter Enter
nb_wait "In [5]:"
nb_screen | grep -q "Error" && fail "the paste got indentation added"
nb_type "twice(21)"; nb_keys Enter
nb_wait "Out[5]: 42"
nb_type "%autoindent"; nb_keys Enter
nb_wait "Automatic indentation is: OFF"
nb_type "for i in range(2):"; nb_keys Enter
nb_wait_count "   ...:" 5
nb_type "  print('row', i)"; nb_keys Enter Enter # two spaces: nothing was added before them
nb_wait "row 1"
nb_type "%autoindent"; nb_keys Enter
nb_wait "Automatic indentation is: ON"
nb_finish
