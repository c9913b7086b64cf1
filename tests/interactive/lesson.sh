#!/bin/sh
# lesson.sh — the guided mode: `nnscope --lesson tensors` greets, shows cell 1's
# code at the prompt under its header, and Enter runs it; Ctrl-C sets the shown
# cell aside, the learner's own cell runs (echoed as Out[n]) and the lesson's cell
# comes back; a shown cell edited before Enter runs as edited and the lesson goes
# on; a line emptied with Ctrl-U is the learner's own too; `%lesson` lists the
# lessons with one line each; a lesson cell that raises is shown again and
# `%lesson skip` passes it; the last cell ends the lesson; `%lesson stop`. Every
# cell is recorded as typed (the session replays with --verify). Without a
# terminal, `--lesson` runs all cells and stops at one that raises (exit 1); an
# unknown lesson is exit status 2; "." for this session needs a recorded one.
# Usage: sh tests/interactive/lesson.sh build/nnscope
. "$(dirname "$0")/lib.sh"

# waits until the prompt In [N]: stands empty on a line of its own
prompt_is_empty() { nb_screen | grep -qx -- "In \[$1\]:"; }
emptied() { nb_poll 10 prompt_is_empty "$1" || fail "In [$1]: was not emptied"; }
sql() { sqlite3 -cmd ".timeout 5000" "$NNSCOPE_DB" "$1"; }
nb_start -q --name guided --lesson tensors
nb_wait "Lesson tensors, 12 cells. Enter runs the cell shown"
nb_wait "[lesson tensors, cell 1 of 12: A tensor has a shape, a dtype and a number of dimensions]"
nb_wait "In [1]: import torch"
nb_wait 'print("as 3 x 2:", x.reshape(3, 2).tolist())'
nb_keys Enter
nb_wait "as 3 x 2: [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]"
nb_wait "[lesson tensors, cell 2 of 12: dtypes: integers stay integers until a float joins them]"
nb_wait "In [2]: i = torch.tensor([1, 2, 3])"
# Ctrl-C: the learner's own cell; the lesson's cell 2 comes back after it. (A
# Ctrl-C sent within milliseconds of a long pre-filled prompt, %load's too, is
# sometimes not taken, and keys typed before it is handled can be lost: the
# pause and the wait for the emptied prompt keep this test about the lesson.)
sleep 0.5
nb_keys C-c
emptied 2
nb_type "x.sum()"; nb_keys Enter
nb_wait "Out[2]: tensor(15.)"
nb_wait_count "[lesson tensors, cell 2 of 12" 2
nb_wait "In [3]: i = torch.tensor([1, 2, 3])"
# edited before Enter: runs as edited, the lesson goes on
nb_type "; print('edited')"; nb_keys Enter
nb_wait "edited"
nb_wait "[lesson tensors, cell 3 of 12"
# Ctrl-U empties the line: %lesson is the learner's cell, the listing shows every lesson
nb_keys C-u
emptied 4
nb_type "%lesson"; nb_keys Enter
nb_wait "  1  tensors      Tensors and autograd: shapes, broadcasting"
nb_wait "  2  activations  Activation functions:"
nb_wait "     first_steps  First steps with nnscope"
nb_wait_count "[lesson tensors, cell 3 of 12" 2
screen_has "c_api_demo" && fail "the C tutorial's twin is listed as a lesson"
# a cell that raises is shown again; %lesson skip goes on
nb_keys C-u
emptied 5
nb_type "del x"; nb_keys Enter
nb_wait "In [6]: b = torch.tensor([10., 20., 30.])"
nb_keys Enter
nb_wait "NameError: name 'x' is not defined"
nb_wait "[the cell raised: it is shown again; %lesson skip goes on to the next]"
nb_wait "In [7]: b = torch.tensor([10., 20., 30.])"
nb_keys C-u
emptied 7
nb_type "%lesson skip"; nb_keys Enter
nb_wait "[lesson tensors, cell 4 of 12: When sizes differ and neither is 1, broadcasting refuses]"
nb_keys C-u
emptied 8
nb_type "%lesson stop"; nb_keys Enter
nb_wait "[lesson tensors stopped at cell 4 of 12]"
nb_wait "In [9]:"
screen_has "In [9]: try:" && fail "a stopped lesson still filled the prompt"
# %lesson NAME CELL starts there; the last cell ends the lesson
nb_type "%lesson 1 12"; nb_keys Enter
nb_wait "[lesson tensors, cell 12 of 12: A non-scalar output needs a gradient to start from"
nb_keys Enter
nb_wait "by hand:  tensor([[ 7., 11.],"
nb_wait "[lesson tensors is done; %lesson lists the others]"
nb_type "%lesson nope"; nb_keys Enter
nb_wait "UsageError: no lesson 'nope' (%lesson lists them)"
nb_finish

recorded=$(sql "SELECT group_concat(number || ':' || status, ' ') FROM (SELECT c.number, c.status FROM cells c JOIN sessions s ON s.id = c.session WHERE s.name = 'guided' ORDER BY c.number)")
[ "$recorded" = "1:ok 2:ok 3:ok 4:ok 5:ok 6:error 7:ok 8:ok 9:ok 10:ok 11:error" ] || fail "cells recorded (number:status): $recorded"
[ "$(sql "SELECT source FROM cells WHERE number = 2 AND session = (SELECT id FROM sessions WHERE name = 'guided')")" = "x.sum()" ] ||
    fail "the learner's own cell was not recorded as typed"
sql "SELECT source FROM cells WHERE number = 3 AND session = (SELECT id FROM sessions WHERE name = 'guided')" | grep -qF "print(i / 2); print('edited')" ||
    fail "the edited cell was not recorded as run"
"$NNSCOPE" --replay guided --verify < /dev/null > "$TMP/replay.out" 2>&1
grep -qF "by hand:  tensor([[ 7., 11.]," "$TMP/replay.out" || { cat "$TMP/replay.out"; fail "the replay did not run the lesson's cells"; }
grep -qF "verify: all 11 replayed cells match the recording" "$TMP/replay.out" || { cat "$TMP/replay.out"; fail "the replay differs from the lesson as run"; }

# without a terminal: every cell in turn, no prompts
"$NNSCOPE" --no-record --lesson tensors < /dev/null > "$TMP/play.out" 2>&1 || { cat "$TMP/play.out"; fail "--lesson without a terminal failed"; }
grep -qF "In [" "$TMP/play.out" && fail "--lesson without a terminal showed prompts"
grep -qF "equal: True" "$TMP/play.out" || fail "--lesson without a terminal did not run the chain rule cell"
"$NNSCOPE" --no-record --lesson nope < /dev/null > "$TMP/nope.out" 2>&1
[ $? -eq 2 ] || fail "an unknown lesson did not exit 2"
grep -qF "nnscope: no lesson 'nope' (%lesson lists them)" "$TMP/nope.out" || fail "an unknown lesson: $(cat "$TMP/nope.out")"
# "." names the session being recorded; unrecorded, it is an error that stops the play
printf '# %%%%\nprint("cell 1")\n# %%%%\n%%export . x.py\n# %%%%\nprint("not reached")\n' > "$TMP/dot.py"
"$NNSCOPE" --no-record --lesson "$TMP/dot.py" < /dev/null > "$TMP/dot.out" 2>&1
[ $? -eq 1 ] || { cat "$TMP/dot.out"; fail "a cell that raised did not make --lesson exit 1"; }
grep -qF "UsageError: '.' names this session, and this session is not recorded" "$TMP/dot.out" || { cat "$TMP/dot.out"; fail "no error for '.' unrecorded"; }
grep -qF "not reached" "$TMP/dot.out" && fail "--lesson went on after a cell that raised"
echo "lesson.sh: ok"
