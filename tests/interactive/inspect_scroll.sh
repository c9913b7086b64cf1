#!/bin/sh
# inspect_scroll.sh — the inspector's Output pane scrolls (tmux): 1500 lines
# printed in the command line are kept (at least 1000 of scrollback), with focus
# on the pane PageUp moves back, Home shows the oldest line kept and End the
# newest; the mouse wheel (xterm's SGR reports, as a terminal sends them) over
# the pane scrolls it up and down wherever the focus is.
# Usage: sh tests/interactive/inspect_scroll.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start
run() { nb_type "$1"; nb_keys Enter; }
visible() { tm capture-pane -p -t "nb$SESSION" | sed 's/[[:space:]]*$//'; }
# the Output pane's title: "─ Output · lines A-B of N ─" once it is scrolled
output_title() { visible | grep -o 'Output · lines [0-9]*-[0-9]* of [0-9]*'; }
shows() { visible | grep -qx -- "$1"; }

run "import torch; import torch.nn as nn"
run "model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))"
run "%inspect model"
nb_wait "(root) Sequential"
nb_keys :
run "for i in range(1500): print('line', i)"
nb_poll 10 shows "line 1499" || fail "the last line printed is not shown"

# focus on the Output pane: Esc leaves the command line for the tree, then Tab
# moves tree -> details -> problems -> output
nb_keys Escape Tab Tab Tab
nb_keys PPage
nb_poll 10 shows "line 1489" || fail "PageUp did not scroll the Output pane back 10 lines"
shows "line 1499" && fail "PageUp left the newest line on screen"

# Home and End as xterm sends them (TERM is xterm-256color: khome \EOH, kend \EOF)
home() { nb_type "$(printf '\033OH')"; }
end() { nb_type "$(printf '\033OF')"; }
home
has_title() { output_title >/dev/null; }
nb_poll 10 has_title || fail "no line count in the scrolled Output pane's title"
total=$(output_title | sed 's/.* of //')
first=$(output_title | sed 's/.*lines \([0-9]*\)-.*/\1/')
[ "$first" -eq 1 ] || fail "Home did not go to the oldest line kept (title: $(output_title))"
[ "$total" -ge 1000 ] || fail "the Output pane keeps $total lines, fewer than 1000"

end
nb_poll 10 shows "line 1499" || fail "End did not come back to the newest line"

# Home and End as tmux sends them (\e[1~ and \e[4~, which xterm-256color's terminfo
# does not name): the same
nb_keys Home
oldest() { has_title && [ "$(output_title | sed 's/.*lines \([0-9]*\)-.*/\1/')" -eq 1 ]; }
nb_poll 10 oldest || fail "tmux's Home key did not go to the oldest line kept"
nb_keys End
nb_poll 10 shows "line 1499" || fail "tmux's End key did not come back to the newest line"

# the mouse wheel over the Output pane (rows from the bottom: the prompt line,
# then the pane's last rows); x and y are 1-based in the SGR report
rows=$(tm display -p -t "nb$SESSION" '#{pane_height}')
y=$((rows - 2))
nb_keys Tab Tab # output -> command line -> tree: the wheel needs no focus
nb_type "$(printf '\033[<64;10;%dM' "$y")"
scrolled_up() { ! shows "line 1499" && has_title; }
nb_poll 10 scrolled_up || fail "the wheel up did not scroll the Output pane"
nb_type "$(printf '\033[<65;10;%dM' "$y")"
nb_poll 10 shows "line 1499" || fail "the wheel down did not scroll back to the newest line"

nb_keys q
nb_wait "In ["
nb_finish
