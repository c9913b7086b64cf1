#!/bin/sh
# Persistent history: cells typed in one run are in ~/.nnscope_history (a
# multi-line cell as one entry, its newlines escaped), the next run recalls
# them with Up (a multi-line cell whole, run again with Enter) and Ctrl-R;
# `exit` leaves the notebook; the file keeps the last 1000 entries.
# Usage: sh tests/interactive/history.sh build/nnscope
. "$(dirname "$0")/lib.sh"

i=0; while [ $i -lt 1200 ]; do echo "old = $i"; i=$((i + 1)); done > "$HOME/.nnscope_history"
nb_start
nb_type "alpha = 7"; nb_keys Enter
nb_wait "In [2]:"
nb_type "back = 'a\\\\b'"; nb_keys Enter # a backslash in a cell: back == 'a\\b'
nb_wait "In [3]:"
nb_type "for i in range(2):"; nb_keys Enter
nb_wait "   ...:" # typed ahead of its prompt, a line counts as pasted (no indentation added)
nb_type "print('row', i)"; nb_keys Enter Enter
nb_wait "In [4]:"
nb_type "exit"; nb_keys Enter
nb_wait_exit
printf '%s\n' 'alpha = 7' "back = 'a\\\\\\\\b'" "for i in range(2):\\n    print('row', i)" 'exit' > "$TMP/want"
tail -n 4 "$HOME/.nnscope_history" | diff -u "$TMP/want" - || fail "the history file differs"
[ "$(wc -l < "$HOME/.nnscope_history")" -eq 1000 ] || fail "the history file is not cut to 1000 entries"

nb_start
# Up: the last cell first (exit), then the two-line loop, whole
nb_keys Up Up
nb_wait "    print('row', i)"
nb_keys Enter
nb_wait "row 1"
nb_wait "In [2]:"
# Ctrl-R finds alpha's assignment
nb_keys C-r; nb_type "alpha ="
nb_wait "(reverse-i-search)"
nb_keys Enter
nb_wait "In [3]:"
nb_type "alpha"; nb_keys Enter
nb_wait "Out[3]: 7"
nb_keys C-r; nb_type "back ="
nb_wait "(reverse-i-search)"
nb_keys Enter
nb_wait "In [5]:"
nb_type "len(back)"; nb_keys Enter
nb_wait "Out[5]: 3"
nb_keys C-d
nb_wait_exit
# the second run's cells were appended
printf '%s\n' "for i in range(2):\\n    print('row', i)" 'alpha = 7' 'alpha' "back = 'a\\\\\\\\b'" 'len(back)' > "$TMP/want2"
tail -n 5 "$HOME/.nnscope_history" | diff -u "$TMP/want2" - || fail "the second run's history differs"
