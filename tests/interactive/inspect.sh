#!/bin/sh
# inspect.sh — the inspector end to end in a pseudo-terminal (tmux): build a
# model with a hook of its own, %hooks lists it, %inspect opens the full-screen
# view, whose command line runs magics (%hooks shows the inspector's hooks), a
# two-line for loop (a continuation line, auto-indented, an empty line runs it)
# and a training loop that refreshes the panes while it runs (the step counter
# moves); the terminal is resized and redrawn, Ctrl-C stops the loop and keeps
# the view, the NaN breakpoint ('b') stops a statement and selects the module
# (and names the op that overflowed inside it),
# q returns to the prompt with the variables intact and the hooks exactly as
# before, and nnscope exits cleanly.
# Usage: sh tests/interactive/inspect.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start
run() { nb_type "$1"; nb_keys Enter; }
run "import torch; import torch.nn as nn; torch.manual_seed(0)"
run "model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))"
run "opt = torch.optim.SGD(model.parameters(), lr=0.01); x = torch.randn(64, 4)"
run "h = model[0].register_forward_hook(lambda m, i, o: None)"
run "%hooks model"
nb_wait "1 hook on 4 modules"
nb_screen | grep -F "forward " > "$TMP/hooks_before"

run "%inspect model"
nb_wait "nnscope inspector · Sequential · 4 modules"
nb_wait "(root) Sequential"

# magics run in the command line too: one forward and one backward hook per module were added
nb_keys :
run "%hooks model"
nb_wait "9 hooks on 4 modules"

# a statement of several lines: the block header asks for a continuation line,
# indented by 4; the empty line after the body runs the block, echoed line by line
run "for j in range(2):"
nb_wait "   » for j in range(2):"
nb_type "y = model(x); print('pass', j, y.shape[0])"
nb_wait "...:     y = model(x); print('pass', j, y.shape[0])"
nb_keys Enter Enter
nb_wait "pass 1 64"
nb_wait "» for j in range(2):"
nb_wait "...     y = model(x); print('pass', j, y.shape[0])"

# the title counts training steps (a forward then a backward), not module passes:
# the forward-only passes above made none, seven optimizer steps make seven
run "for i in range(7): opt.zero_grad(); loss = model(x).pow(2).mean(); loss.backward(); opt.step()"
nb_wait "4 modules · step 7 · "

# a long loop in the command line: the title's step counter moves while it runs
run "for i in range(10**7): opt.zero_grad(); loss = model(x).pow(2).mean(); loss.backward(); opt.step()"
nb_wait "running: for i in range"
step_now() { nb_screen | sed -n 's/.*4 modules · step \([0-9]*\) .*/\1/p' | head -n 1; }
first=$(step_now)
moved() { now=$(step_now); [ -n "$now" ] && [ "$now" -gt "${first:-0}" ] && screen_has "running:"; }
nb_poll 10 moved || fail "the step counter did not move while the loop ran (first: $first)"
second=$(step_now)
moved_again() { now=$(step_now); [ -n "$now" ] && [ "$now" -gt "$second" ]; }
nb_poll 10 moved_again || fail "the view stopped refreshing during the loop"

# resize while it runs: the view redraws at the new width
tm resize-window -t "nb$SESSION" -x 120 -y 45
wide() { nb_screen | grep -F "Problems (" | awk '{ if (length($0) >= 118) found = 1 } END { exit !found }'; }
nb_poll 10 wide || fail "the view was not redrawn at 120 columns"

# Ctrl-C stops the loop, the view stays open
nb_keys C-c
nb_wait "KeyboardInterrupt"
stopped() { ! screen_has "running:"; }
nb_poll 10 stopped || fail "the loop did not stop"
screen_has "nnscope inspector" || fail "the inspector closed on Ctrl-C"

# the NaN breakpoint: b turns it on, a NaN input stops at the first module
nb_keys Escape b
nb_wait "break nan"
nb_keys :
run "x[0, 0] = float('nan'); y = model(x)"
nb_wait "stopped by the NaN/Inf breakpoint at 0"
nb_wait "NaN or Inf in the output of 0 (Linear)"
# from finite input, the stop names the op inside the module that overflowed first
nb_keys :
run "x[0, 0] = 0.0; torch.nn.init.constant_(model[0].weight, 3e38); y = model(x)"
nb_wait "made the first NaN/Inf"
# the message wraps onto the pane's next rows: read them as one text
joined() { nb_screen | tr '\n' ' ' | grep -qF "from finite input"; }
nb_poll 10 joined || fail "no 'from finite input' in the stop's message"
nb_keys b
nb_wait "NaN/Inf breakpoint off"

# q: back at the prompt, variables intact, hooks as before
nb_keys q
nb_wait "In [15]" # each statement typed in the view took a cell number (7 to 14)
run "print('steps ran:', i > 0, loss.item() == loss.item())"
nb_wait "steps ran: True True"
run "%hooks model"
nb_wait_count "1 hook on 4 modules" 2
nb_screen | grep -F "forward " | tail -n 1 > "$TMP/hooks_after"
diff "$TMP/hooks_before" "$TMP/hooks_after" > /dev/null || fail "the hooks differ after the inspector closed"
if nb_screen | grep -qF "insp_"; then fail "an inspector hook is left"; fi
nb_finish # a clean exit (under make asan the leak check runs here)
echo "inspect.sh: ok"
