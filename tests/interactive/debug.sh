#!/bin/sh
# The debugger: %debug after an exception prints a local of the failing frame,
# moves up to the caller (w, u, p), quits back to the notebook; %pdb on opens it
# by itself; breakpoint() stops in a loop, c goes on with what was changed.
# Usage: sh tests/interactive/debug.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start
nb_type "def f(x):"; nb_keys Enter
nb_wait "...:"
nb_type "y = x * 2"; nb_keys Enter
nb_wait_count "...:" 2
nb_type "return 1 / (x - 3)"; nb_keys Enter
nb_wait_count "...:" 3
nb_keys C-u Enter
nb_wait "In [2]:"
nb_type "def g(a): return f(a + 1)"; nb_keys Enter
nb_wait "...:"
nb_keys Enter
nb_wait "In [3]:"
nb_type "g(2)"; nb_keys Enter
nb_wait "ZeroDivisionError: division by zero"
nb_type "%debug"; nb_keys Enter
nb_wait "-> return 1 / (x - 3)"
nb_wait "ipdb>"
nb_type "p y"; nb_keys Enter
nb_wait "ipdb> p y"
nb_wait_count "ipdb>" 2
answer() { nb_screen | grep -A1 -F "ipdb> $1" | tail -1; }
[ "$(answer "p y")" = 6 ] || fail "p y did not print 6"
nb_type "u"; nb_keys Enter
nb_wait "> <ipython-input-2>(1)g()"
nb_type "p a * 100"; nb_keys Enter
nb_wait "200"
nb_type "w"; nb_keys Enter
nb_wait "  <ipython-input-3>(1)<module>()"
nb_type "q"; nb_keys Enter
nb_wait "In [5]:"
nb_type "%pdb on"; nb_keys Enter
nb_wait "Automatic pdb calling has been turned ON"
nb_type "g(2)"; nb_keys Enter
nb_wait_count "ZeroDivisionError: division by zero" 2
nb_wait_count "-> return 1 / (x - 3)" 2
nb_type "p x"; nb_keys Enter
nb_wait "ipdb> p x"
nb_wait_count "ipdb>" 7
[ "$(answer "p x")" = 3 ] || fail "p x did not print 3"
nb_type "q"; nb_keys Enter
nb_wait "In [7]:"
nb_type "%pdb off"; nb_keys Enter
nb_wait "In [8]:"
nb_type "for i in range(5):"; nb_keys Enter
nb_wait "...:"
nb_type "if i == 2: breakpoint()"; nb_keys Enter
nb_wait_count "...:" 2
nb_keys C-u Enter
nb_wait "-> if i == 2: breakpoint()"
nb_type "p i"; nb_keys Enter
nb_wait "ipdb> p i"
nb_wait_count "ipdb>" 9
[ "$(answer "p i")" = 2 ] || fail "p i did not print 2"
nb_type "c"; nb_keys Enter
nb_wait "In [9]:"
nb_type "i"; nb_keys Enter
nb_wait "Out[9]: 4"
nb_finish
