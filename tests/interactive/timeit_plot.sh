#!/bin/sh
# %timeit's IPython line and a braille plot() through the terminal.
# Usage: sh tests/interactive/timeit_plot.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start
nb_type "%timeit -n 10 -r 2 1 + 1"; nb_keys Enter
nb_wait "per loop (mean ± std. dev. of 2 runs, 10 loops each)"
nb_wait "In [2]:"
nb_type "import torch"; nb_keys Enter
nb_wait "In [3]:"
nb_type "plot(torch.tanh, -3, 3, width=40, height=8)"; nb_keys Enter
nb_wait "In [4]:"
# the curve is drawn with braille dots (U+2800..U+28FF)
nb_screen | grep -q "$(printf '\342\240')" || fail "plot drew no braille"
nb_finish
