#!/bin/sh
# inspect_resize.sh — the inspector follows the terminal's size (tmux): a view
# opened after the terminal grew while a cell ran (readline's LINES/COLUMNS were
# stale) takes the whole 200x60 screen with a wider tree; shrunk at rest to 80x24
# it redraws whole at the new size (title, tree, the short hint line), grown back
# it redraws again, and '>' widens the tree; with a loop running in its command
# line it follows 80x24 -> 200x60 -> 80x24 too.
# Usage: sh tests/interactive/inspect_resize.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start
run() { nb_type "$1"; nb_keys Enter; }
visible() { tm capture-pane -p -t "nb$SESSION" | sed 's/[[:space:]]*$//'; }
widest() { visible | LC_ALL=C.UTF-8 wc -L; }
# the column of the tree's border on the line under the title
border() { visible | sed -n 2p | LC_ALL=C.UTF-8 awk '{ print index($0, "│") }'; }

run "import torch; import torch.nn as nn"
run "model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))"
# the terminal grows while a cell runs: readline's COLUMNS/LINES are stale
nb_type "for i in range(2*10**6): pass"; nb_keys Enter Enter
tm resize-window -t "nb$SESSION" -x 200 -y 60
nb_wait "In [4]"
run "%inspect model"
nb_wait "nnscope inspector · Sequential · 4 modules"
full_width() { [ "$(widest)" -ge 199 ]; }
nb_poll 10 full_width || fail "the view did not open at 200 columns (widest line $(widest))"
[ "$(border)" -gt 49 ] || fail "the tree stayed narrow at 200 columns (border at $(border))"
visible | grep -qF "b break nan · / find · ? keys · q quit" || fail "no full hint at 200 columns"

# shrink at rest: a whole redraw at 80x24
tm resize-window -t "nb$SESSION" -x 80 -y 24
small() { [ "$(widest)" -le 80 ] && visible | sed -n 1p | grep -qF "Sequential · 4 modules" && visible | grep -qF "Modules"; }
nb_poll 10 small || fail "the view was not redrawn at 80x24"
visible | grep -qF ": cmd · ↑↓ move · p a g h views · [ ] time · b nan · / find · ? keys · q quit" ||
    fail "the hint line did not adapt to 80 columns"
narrow=$(border)

# '>' widens the tree
nb_keys ">" ">"
wider() { [ "$(border)" -eq $((narrow + 8)) ]; }
nb_poll 10 wider || fail "'>' did not widen the tree (border $narrow -> $(border))"

# grow at rest: redrawn at 120x40
tm resize-window -t "nb$SESSION" -x 120 -y 40
grown() { [ "$(widest)" -ge 119 ] && [ "$(visible | wc -l)" -ge 40 ]; }
nb_poll 10 grown || fail "the view was not redrawn at 120x40"

# with a loop running in the view: 80x24 -> 200x60 -> 80x24, each drawn whole
tm resize-window -t "nb$SESSION" -x 80 -y 24
nb_poll 10 small || fail "the view was not redrawn at 80x24 before the loop"
nb_keys ":"
nb_type "while True: y = model(torch.ones(2, 4))"
nb_keys Enter
running() { visible | grep -qF "running: while True"; }
nb_poll 10 running || fail "the loop did not start"
tm resize-window -t "nb$SESSION" -x 200 -y 60
big() { full_width && [ "$(visible | wc -l)" -ge 60 ] && running; }
nb_poll 10 big || fail "the view was not redrawn at 200x60 while the loop ran (widest $(widest))"
tm resize-window -t "nb$SESSION" -x 80 -y 24
small_running() { small && running; }
nb_poll 10 small_running || fail "the view was not redrawn at 80x24 while the loop ran"
nb_keys C-c
stopped() { ! visible | grep -qF "running:"; }
nb_poll 10 stopped || fail "Ctrl-C did not stop the loop"
nb_keys Escape # leave the command line

nb_keys q
nb_wait "In [6]" # the loop typed in the view was cell 5
nb_finish
