#!/bin/sh
# Ctrl-C: in a running cell it raises KeyboardInterrupt (traceback of where the
# loop stopped) and every variable is kept; at the prompt it clears the line
# in place; in a continuation it drops the cell. Ctrl-D at an empty prompt exits.
# Usage: sh tests/interactive/interrupt.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start
nb_type "kept = 42; n = 0"; nb_keys Enter
nb_wait "In [2]:"
nb_type "while True:"; nb_keys Enter
nb_wait "   ...:" # typed ahead of its prompt, a line counts as pasted (no indentation added)
nb_type "n = n + 1"; nb_keys Enter Enter
nb_poll 10 screen_has "   ...:" || fail "no continuation"
# wait until the loop has run a while (n grows), then interrupt it
sleep 0.3
nb_keys C-c
nb_wait "KeyboardInterrupt"
nb_wait "In [3]:"
screen_has 'File "<ipython-input-2>", line' || fail "the traceback does not show where the loop stopped"
nb_type "kept, n > 0"; nb_keys Enter
nb_wait "Out[3]: (42, True)"

# at the prompt: the line is cleared, nothing runs, the number stays (each key
# waits for the screen to show the last one's effect, as a person would: keys
# typed ahead of the Ctrl-C would be cleared with the line on a loaded machine)
nb_type "this is not code"
nb_wait "In [4]: this is not code"
nb_keys C-c
line_cleared() { ! screen_has "this is not code"; }
nb_poll 10 line_cleared || fail "Ctrl-C did not clear the line"
nb_type "kept"; nb_keys Enter
nb_wait "Out[4]: 42"
screen_has "In [4]: kept" || fail "Ctrl-C did not clear the line in place"
screen_has "SyntaxError" && fail "the cleared line ran"

# in a continuation: the whole cell is dropped
nb_type "if True:"; nb_keys Enter
nb_type "kept = 0"
nb_wait "kept = 0"
nb_keys C-c
nb_wait_count "In [5]:" 2
nb_type "kept"; nb_keys Enter
nb_wait "Out[5]: 42"

# Ctrl-D on a non-empty line deletes; on an empty line it exits
nb_type "21 + 1"; nb_keys C-a C-d Enter
nb_wait "Out[6]: 2"
nb_keys C-d
nb_wait_exit
