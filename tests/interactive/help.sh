#!/bin/sh
# Help as IPython's: f?? on a function typed earlier shows its source with file
# and line; help taller than the terminal goes through the pager (less -R when
# $PAGER is unset), q returns to the prompt. Colours: Out[n]: red and
# tracebacks coloured on a colour terminal without NO_COLOR.
# Usage: sh tests/interactive/help.sh build/nnscope
. "$(dirname "$0")/lib.sh"
unset PAGER

nb_start
nb_type "def area(w, h=2):"; nb_keys Enter
nb_wait "   ...:" # typed ahead of the prompt, the line would count as pasted (no indentation added)
nb_type "return w * h"; nb_keys Enter Enter
nb_wait "In [2]:"
nb_type "area??"; nb_keys Enter
nb_wait "In [3]:"
nb_screen | sed -n '/^In \[2\]: area??/,/^In \[3\]:/p' | sed '$d' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' > "$TMP/got"
cat > "$TMP/want" <<'TEXT'
In [2]: area??
Signature: area(w, h=2)
Docstring: <no docstring>
Source:
def area(w, h=2):
    return w * h
File:      <ipython-input-1>, line 1
Type:      function
TEXT
diff -u "$TMP/want" "$TMP/got" || fail "area?? differs"
# taller than the 40-line terminal: paged
nb_type "import torch"; nb_keys Enter
nb_type "column = torch.arange(60.).reshape(60, 1)"; nb_keys Enter
nb_type "column??"; nb_keys Enter
nb_wait "[30.],"
nb_screen | grep -q "In \[6\]:" && fail "the help was not paged"
nb_keys q
nb_wait "In [6]:"
nb_finish

# colours: no NO_COLOR, a colour terminal
SESSION=99
tm new-session -d -s nb99 -x 100 -y 40 \
    "env HOME='$HOME' NNSCOPE_DB='$NNSCOPE_DB' TERM=xterm-256color '$NNSCOPE' -q --no-record; sleep 30"
nb_wait "In ["
nb_type "6 * 7"; nb_keys Enter
nb_wait "Out[1]: 42"
nb_type "1 / 0"; nb_keys Enter
nb_wait "In [3]:"
tm capture-pane -e -p -t nb99 > "$TMP/colored"
esc=$(printf '\033')
grep "Out\[" "$TMP/colored" | grep -q "$esc\[" || fail "Out[n]: is not coloured"
grep "ZeroDivisionError" "$TMP/colored" | grep -q "$esc\[" || fail "the traceback is not coloured"
grep "In \[" "$TMP/colored" | grep -q "$esc\[" || fail "In [n]: is not coloured"
nb_finish
