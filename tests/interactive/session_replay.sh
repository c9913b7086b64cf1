#!/bin/sh
# session_replay.sh — a recorded lesson loses nothing and replays exactly: a
# training loop typed in the inspector's command line is recorded as cells of the
# session (marked as typed in the view of the %inspect cell) and recalled by the
# up arrow in the notebook; 'b' in the view is recorded as %break nan / %break off
# and %break reports the state it left; a trailing ';' suppresses the echo;
# %snapshot; exit. Then `nnscope --replay lesson1 --verify` replays without
# opening a view (the view's statements each printed as a cell), normalises the
# generator's address and exits 0; the .py export runs to its end under nnscope
# (and under /usr/bin/python3 with PyTorch, where present). A second session
# with a cell interrupted by Ctrl-C: recorded as interrupted, run again by the
# replay and not counted.
# Usage: sh tests/interactive/session_replay.sh build/nnscope
. "$(dirname "$0")/lib.sh"

run() { nb_type "$1"; nb_keys Enter; }
sql() { sqlite3 -cmd ".timeout 5000" "$NNSCOPE_DB" "$1"; } # nnscope may still be closing the file
nb_start -q --name lesson1
run "import torch, torch.nn as nn"
run "torch.manual_seed(0)"
nb_wait "Out[2]: <torch._C.Generator object at 0x"
run "model = nn.Linear(3, 1); opt = torch.optim.SGD(model.parameters(), lr=0.1)"
run "x = torch.randn(8, 3); y = x.sum(1, keepdim=True); x.sum()\\;" # tmux reads a last ";" as its own separator
nb_wait "In [5]:"
screen_has "Out[4]" && fail "a trailing ';' did not suppress the echo"
run "%inspect model"
nb_wait "nnscope inspector"
nb_keys :
run "for i in range(20): opt.zero_grad(); loss = ((model(x) - y) ** 2).mean(); loss.backward(); opt.step()"
nb_wait "· step 20 ·" # 20 training steps: the loop is done (Enter while it runs is not taken)
run "print('loss', round(loss.item(), 4))"
nb_wait "» print('loss', round(loss.item(), 4))"
nb_keys Escape b
nb_wait "NaN/Inf breakpoint on"
nb_keys b
nb_wait "NaN/Inf breakpoint off"
nb_keys q
# %inspect was cell 5; the four statements typed in its view were cells 6 to 9
nb_wait "In [10]:"
run "%break"
nb_wait "NaN/Inf breakpoint: off"
# the up arrow recalls what was typed in the view
nb_keys Up Up Up Up Up # %break, %inspect model (added once it finished), %break off, %break nan, print
nb_wait "In [11]: print('loss', round(loss.item(), 4))"
nb_keys Enter
nb_wait_count "loss 0." 1
run "%snapshot model trained"
nb_wait "Snapshot 1: model.state_dict(), 2 tensors, tag 'trained'."
nb_finish

recorded=$(sql "SELECT group_concat(number || ':' || ifnull(view, '-') || ':' || silent, ' ') FROM (SELECT * FROM cells ORDER BY number)")
[ "$recorded" = "1:-:0 2:-:0 3:-:0 4:-:1 5:-:0 6:5:0 7:5:0 8:5:0 9:5:0 10:-:0 11:-:0 12:-:0" ] ||
    fail "cells recorded (number:view:silent): $recorded"
[ "$(sql "SELECT source FROM cells WHERE number = 8")" = "%break nan" ] || fail "b was not recorded as %break nan"
[ -n "$(sql "SELECT cpu FROM sessions WHERE threads > 0 AND nnscope_version <> ''")" ] ||
    fail "the machine (threads, CPU model) was not recorded"
grep -qF "print('loss', round(loss.item(), 4))" "$HOME/.nnscope_history" || fail "the view's statements are not in the history file"

# the replay: no view, each statement typed in it printed as a cell, every cell the same
"$NNSCOPE" --replay lesson1 --verify < /dev/null > "$TMP/replay.out" 2>&1 || { cat "$TMP/replay.out"; fail "--replay --verify did not exit 0"; }
grep -qF "verify: all 11 replayed cells match the recording (1 cell shown as recorded, not re-run)" "$TMP/replay.out" ||
    { cat "$TMP/replay.out"; fail "no verify summary"; }
grep -qF "In [6]: for i in range(20)" "$TMP/replay.out" || fail "the view's loop was not replayed as a cell"
grep -qF "[typed in the inspector opened by In [5]]" "$TMP/replay.out" || fail "the view's cells are not marked"
grep -qF "nnscope inspector" "$TMP/replay.out" && fail "the replay opened a view"

# the export runs to its end
"$NNSCOPE" --export lesson1 "$TMP/lesson1.py" > /dev/null || fail "--export failed"
(cd "$TMP" && "$NNSCOPE" --no-record lesson1.py > "$TMP/export.out" 2>&1) || { cat "$TMP/lesson1.py" "$TMP/export.out"; fail "the export did not run under nnscope"; }
grep -qF "loss 0." "$TMP/export.out" || fail "the export lost the view's loop"
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
    (cd "$TMP" && /usr/bin/python3 lesson1.py > "$TMP/python.out" 2>&1) || { cat "$TMP/lesson1.py" "$TMP/python.out"; fail "the export did not run under python3"; }
    [ "$(grep loss "$TMP/python.out")" = "$(grep loss "$TMP/export.out")" ] || fail "python3 and nnscope print different losses"
else
    echo "session_replay.sh: note: no PyTorch under /usr/bin/python3, the export was run under nnscope only"
fi

# %replay in the notebook runs in a child nnscope: the notebook's variables and
# random stream are its own before and after
nb_start -q --no-record
run "import torch; x = 5; torch.manual_seed(3); a = torch.rand(1)"
run "%replay lesson1"
nb_wait "[typed in the inspector opened by In [5]]"
nb_wait "In [3]:" 60
screen_has "nnscope inspector" && fail "%replay opened a view"
run "x"
nb_wait "Out[3]: 5"
run "model"
nb_wait "NameError: name 'model' is not defined"
run "b = torch.rand(1); torch.manual_seed(3); torch.rand(1); bool(b == torch.rand(1))"
nb_wait "Out[5]: True"
nb_finish

# an interrupted cell: recorded as interrupted, replayed to its end, not counted
nb_start -q --name cut
run "n = 0"
nb_type "for i in range(30000000):"; nb_keys Enter
nb_wait "   ...:" # typed before its prompt, the body would count as pasted (not indented) on a loaded machine
nb_type "n = n + 1"; nb_keys Enter Enter
sleep 0.5
nb_keys C-c
nb_wait "KeyboardInterrupt"
run "n == 30000000"
nb_wait "Out[3]: False"
nb_finish
[ "$(sql "SELECT status FROM cells WHERE number = 2 AND session = (SELECT id FROM sessions WHERE name = 'cut')")" = interrupted ] ||
    fail "the interrupted cell was not recorded as interrupted"
"$NNSCOPE" --replay cut --verify < /dev/null > "$TMP/cut.out" 2>&1 || { cat "$TMP/cut.out"; fail "--replay cut --verify did not exit 0"; }
grep -qF "[interrupted when recorded: run to its end here, not compared]" "$TMP/cut.out" || { cat "$TMP/cut.out"; fail "the interrupted cell was not reported"; }
grep -qF "verify: all 1 replayed cells match the recording (1 cell interrupted when recorded, run but not compared)" "$TMP/cut.out" ||
    { cat "$TMP/cut.out"; fail "the interrupted cell was counted"; }
grep -qF "verify: 1 cell differ after the interrupted cell 2" "$TMP/cut.out" || { cat "$TMP/cut.out"; fail "the difference after the interrupted cell is not counted apart"; }
echo "session_replay.sh: ok"
