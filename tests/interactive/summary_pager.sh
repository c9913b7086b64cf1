#!/bin/sh
# summary() taller than the terminal goes through the pager (less -R when $PAGER
# is unset), q returns to the prompt; a short one prints in place.
# Usage: sh tests/interactive/summary_pager.sh build/nnscope
. "$(dirname "$0")/lib.sh"
unset PAGER

nb_start
nb_type "import torch.nn as nn"; nb_keys Enter
nb_type "m = nn.Sequential(*[nn.Linear(4, 4) for _ in range(40)])"; nb_keys Enter
nb_wait "In [3]:"
nb_type "summary(m, (1, 4))"; nb_keys Enter
nb_wait "Linear: 1-1"
sleep 0.3
nb_screen | grep -q "In \[4\]:" && fail "the summary was not paged"
nb_keys q
nb_wait "In [4]:"
nb_type "summary(nn.Linear(2, 2), (1, 2))"; nb_keys Enter
nb_wait "Total params: 6"
nb_wait "In [5]:"
nb_finish
