#!/bin/sh
# The notebook's prompts through a terminal: In [n]: numbering (an empty line
# takes no number), the Out[n]: echo (none for None) and _, the ...: continuation
# of a block (auto-indented, ended by an empty line) and of an open bracket,
# IPython's empty line before each prompt; the banner and its -q.
# Usage: sh tests/interactive/prompts.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start --no-record
nb_wait "Type %help"
nb_type "1 + 1"; nb_keys Enter
nb_wait "Out[1]: 2"
nb_type "_ * 10"; nb_keys Enter
nb_wait "Out[2]: 20"
nb_keys Enter
nb_type "x = print('side effect')"; nb_keys Enter
nb_wait "In [4]:"
nb_type "for i in range(2):"; nb_keys Enter
nb_wait_count "   ...:" 1
nb_type "print(i * x if x else i)"; nb_keys Enter
nb_wait_count "   ...:" 2
nb_keys Enter
nb_wait "In [5]:"
nb_type "(1,"; nb_keys Enter
nb_wait_count "   ...:" 3
nb_type "2)"; nb_keys Enter
nb_wait "Out[5]: (1, 2)"
nb_type "x is None, _"; nb_keys Enter
nb_wait "In [7]:"
nb_screen | sed 1,2d > "$TMP/body" # the banner's version changes: checked below
nb_screen | head -n 1 | grep -q '^nnscope .*Type %help for the magics' || fail "no banner"
cat > "$TMP/want" <<'SCREEN'
In [1]: 1 + 1
Out[1]: 2

In [2]: _ * 10
Out[2]: 20

In [3]:

In [3]: x = print('side effect')
side effect

In [4]: for i in range(2):
   ...:     print(i * x if x else i)
   ...:
0
1

In [5]: (1,
   ...: 2)
Out[5]: (1, 2)

In [6]: x is None, _
Out[6]: (True, (1, 2))

In [7]:
SCREEN
sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$TMP/body" > "$TMP/got"
diff -u "$TMP/want" "$TMP/got" || fail "the transcript differs"

nb_finish

# -q: no banner, the first prompt right away
nb_start -q --no-record
[ "$(nb_screen | sed -n 2p)" = "In [1]:" ] || fail "-q still prints a banner"
nb_finish
