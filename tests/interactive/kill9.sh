#!/bin/sh
# kill9.sh — kill -9 of a running nnscope loses nothing it had done (issue 22).
# In a recorded notebook: cells typed, a snapshot taken, the inspector opened and
# statements typed in its command line; then SIGKILL while the view is open. The
# database passes SQLite's integrity check; `nnscope --list` shows the session
# with every finished cell (the statements typed in the view among them, marked
# with their view), `%snapshots` lists the snapshot and `%restore` loads it into a
# fresh model in a new notebook. A second kill lands while a statement typed in
# the view runs: the cells before it are all there and recording goes on.
# Usage: sh tests/interactive/kill9.sh build/nnscope
. "$(dirname "$0")/lib.sh"

run() { nb_type "$1"; nb_keys Enter; }
sql() { sqlite3 -cmd ".timeout 5000" "$NNSCOPE_DB" "$1"; }
# SIGKILL to the nnscope of the current pane (the pane's shell runs it, then sleeps)
kill_nnscope() {
    shell=$(tm list-panes -t "nb$SESSION" -F '#{pane_pid}')
    pid=$(ps -o pid= --ppid "$shell" | tr -d ' ' | head -n 1)
    [ -n "$pid" ] || fail "no nnscope process under the pane"
    kill -9 "$pid"
    nb_wait_exit
}

nb_start -q --name k9
run "import torch, torch.nn as nn"
run "torch.manual_seed(0); model = nn.Linear(3, 2)"
run "w0 = model.weight.detach().clone(); w0.sum().item() != 0"
nb_wait "Out[3]: True"
run "%snapshot model before"
nb_wait "Snapshot 1: model.state_dict(), 2 tensors, tag 'before'."
run "%inspect model"
nb_wait "nnscope inspector"
nb_keys :
run "with torch.no_grad(): model.weight.add_(1.0)"
nb_wait "» with torch.no_grad(): model.weight.add_(1.0)"
run "marker = 'typed in the view'"
nb_wait "» marker = 'typed in the view'"
# the echo comes before the cell's record: wait for the record (a finished cell)
recorded() { [ "$(sql "SELECT count(*) FROM cells WHERE session = (SELECT id FROM sessions WHERE name = '$1') AND number = $2")" = 1 ]; }
nb_poll 10 recorded k9 7 || fail "the statement typed in the view was not recorded before the kill"
kill_nnscope

[ "$(sql 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after kill -9: $(sql 'PRAGMA integrity_check')"
"$NNSCOPE" --list > "$TMP/list.out" 2>&1 || { cat "$TMP/list.out"; fail "--list failed after kill -9"; }
grep -E "^ *[0-9]+ +k9 " "$TMP/list.out" > "$TMP/k9.row" || { cat "$TMP/list.out"; fail "--list lost the session"; }
cells=$(sql "SELECT group_concat(number || ':' || ifnull(view, '-'), ' ') FROM (SELECT * FROM cells ORDER BY number)")
# cells 1-4 typed, 5 the %inspect that was open (not finished: not recorded), 6 and 7 typed in its view
case "$cells" in
"1:- 2:- 3:- 4:- 6:5 7:5" | "1:- 2:- 3:- 4:- 5:- 6:5 7:5") ;;
*) fail "cells after kill -9 (number:view): $cells" ;;
esac
[ "$(sql "SELECT source FROM cells WHERE number = 7")" = "marker = 'typed in the view'" ] || fail "the view's statement was lost"
[ "$(sql "SELECT count(*) FROM snapshots WHERE tag = 'before'")" = 1 ] || fail "the snapshot was lost"

# a new notebook restores the snapshot, and records on in the same file
nb_start -q --name k9b
run "import torch, torch.nn as nn; model = nn.Linear(3, 2)"
run "%snapshots"
nb_wait "before"
run "%restore model before"
nb_wait "<All keys matched successfully>"
run "torch.manual_seed(0); ref = nn.Linear(3, 2); bool((model.weight == ref.weight).all())"
nb_wait "Out[4]: True"
# the second kill: while a statement typed in the view runs
run "%inspect model"
nb_wait "nnscope inspector"
nb_keys :
run "n = 7"
nb_wait "» n = 7"
nb_poll 10 recorded k9b 6 || fail "n = 7 was not recorded"
run "while True: n = n + 1"
nb_wait "running:"
kill_nnscope
[ "$(sql 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after the second kill -9"
cells=$(sql "SELECT group_concat(number || ':' || ifnull(view, '-'), ' ') FROM (SELECT * FROM cells WHERE session = (SELECT id FROM sessions WHERE name = 'k9b') ORDER BY number)")
case "$cells" in
"1:- 2:- 3:- 4:- 6:5" | "1:- 2:- 3:- 4:- 5:- 6:5") ;;
*) fail "cells after the second kill -9 (number:view): $cells" ;;
esac
"$NNSCOPE" --list > "$TMP/list.out" 2>&1 || fail "--list failed after the second kill -9"
grep -qE "^ *[0-9]+ +k9b " "$TMP/list.out" || { cat "$TMP/list.out"; fail "--list lost the second session"; }
grep -qE "^ *[0-9]+ +k9 " "$TMP/list.out" || { cat "$TMP/list.out"; fail "--list lost the first session"; }
nb_start -q --name k9c
run "1 + 1"
nb_wait "Out[1]: 2"
nb_finish
[ "$(sql "SELECT count(*) FROM cells WHERE session = (SELECT id FROM sessions WHERE name = 'k9c')")" = 1 ] || fail "recording did not go on"
echo "kill9.sh: ok"
