#!/bin/sh
# matplotlib.pyplot in the notebook, whose standard output is a terminal: show() draws the
# figure (its title, braille curves on repl/plot.c's canvas, y and x ticks, the legend) and
# closes it, so a second show() draws nothing; imshow draws half-block colour cells (shades
# of brightness under NO_COLOR).
# Usage: sh tests/interactive/matplotlib_show.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start
nb_type "import matplotlib.pyplot as plt"; nb_keys Enter
nb_wait "In [2]:"
nb_type "plt.plot([0, 1, 2, 3], [0, 1, 4, 9], label='squares'); plt.title('growth'); plt.legend(); plt.show()"
nb_keys Enter
nb_wait "In [3]:"
nb_wait "growth"
nb_wait "⠒⠒⠒ squares"
nb_screen | grep -q "^ *9┤" || fail "no top tick"
nb_screen | grep -q "^ *0┤" || fail "no bottom tick"
nb_screen | grep -q "$(printf '\342\242')\|$(printf '\342\241')\|$(printf '\342\240')" || fail "show drew no braille"
nb_type "plt.show(); print('after')"; nb_keys Enter
nb_wait "after"
nb_type "plt.imshow([[0, 1], [1, 0]], cmap='gray'); plt.title('checker'); plt.show()"; nb_keys Enter
nb_wait "checker"
nb_wait "In [5]:"
nb_screen | grep -q "▀\|▓\|█" || fail "imshow drew no cells" # colour cells, or shades under NO_COLOR
nb_finish
