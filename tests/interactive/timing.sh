#!/bin/sh
# %time and %timeit on compound statements, and their cell forms: %%time on a
# cell's first line times the cell (a loop, its last expression echoed as
# Out[n]); %%timeit's first line holds options and setup code.
# Usage: sh tests/interactive/timing.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start
nb_type "%time for i in range(3): pass"; nb_keys Enter
nb_wait "Wall time:"
nb_wait "In [2]:"
nb_screen | grep -q "UsageError" && fail "%time refused a compound statement"
nb_type "%%time"; nb_keys Enter
nb_wait_count "   ...:" 1
nb_type "s = 0"; nb_keys Enter
nb_wait_count "   ...:" 2
nb_type "for i in range(10):"; nb_keys Enter
nb_wait_count "   ...:" 3 # typed ahead of the prompt, the line would count as pasted
nb_type "s += i"; nb_keys Enter
nb_keys C-u; nb_type "s"; nb_keys Enter # back to the left margin: the cell goes on
nb_keys Enter # the empty line ends the cell
nb_wait "Out[2]: 45"
nb_screen | grep -q "^CPU times: user .*, sys: .*, total: " || fail "no CPU times line"
nb_type "%%timeit -n 5 -r 3 base = 2"; nb_keys Enter
nb_type "y = base ** 10"; nb_keys Enter
nb_keys Enter
nb_wait "per loop (mean ± std. dev. of 3 runs, 5 loops each)"
nb_type "%timeit -n 2 -r 2 for j in range(3): pass"; nb_keys Enter
nb_wait "(mean ± std. dev. of 2 runs, 2 loops each)"
nb_wait "In [5]:"
nb_type "'y' in dir(), s"; nb_keys Enter # %timeit's assignments stay in its function
nb_wait "Out[5]: (False, 45)"
nb_finish
