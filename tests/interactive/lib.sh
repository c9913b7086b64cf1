# lib.sh — helpers for the notebook's pseudo-terminal tests (sourced by each
# tests/interactive/*.sh; not a test itself). Each test drives build/nnscope in
# a tmux pane of a fixed size on a private server (its socket in the temporary
# directory, so nothing is left in /tmp), with HOME and
# NNSCOPE_DB in a fresh temporary directory, and polls the screen
# (capture-pane) with a timeout instead of sleeping. The server and the
# directory are removed on every exit, failures included.
#
#   nb_start [nnscope options]   start nnscope (default -q --no-record) in a new session
#   nb_keys KEYS...              tmux send-keys (Enter, C-c, C-d, Tab, Up, ...)
#   nb_type TEXT                 type TEXT literally (no Enter)
#   nb_wait TEXT [SECONDS]       wait until the screen contains TEXT (fixed string)
#   nb_wait_count TEXT N         wait until TEXT appears on N lines or more
#   nb_screen                    the screen, trailing blanks removed
#   nb_expect_screen FILE        the screen (up to its last non-empty line) must equal FILE
#   nb_wait_exit                 wait until nnscope has exited
#   nb_finish                    Ctrl-D on an empty line, then nb_wait_exit
#   fail MESSAGE                 print MESSAGE and the screen, exit 1
set -u
NNSCOPE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
TEST_NAME=$(basename "$0" .sh)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nnscope-$TEST_NAME.XXXXXX")
SOCKET="$TMP/tmux.sock"
export HOME="$TMP/home" NNSCOPE_DB="$TMP/sessions.db"
mkdir -p "$HOME"

tm() { tmux -S "$SOCKET" -f /dev/null "$@"; }
# under `make asan` the sanitizers' reports go to files that fail the test
cleanup() {
    status=$?
    tm kill-server 2>/dev/null
    for report in "$TMP"/asan.*; do
        [ -e "$report" ] || continue
        echo "FAILED ($TEST_NAME): sanitizer report:"; cat "$report"; status=1
    done
    rm -rf "$TMP"
    exit $status
}
trap cleanup EXIT
trap 'exit 1' INT TERM

SESSION=0
nb_start() {
    [ -x "$NNSCOPE" ] || fail "no program $NNSCOPE"
    [ $# -gt 0 ] || set -- -q --no-record
    SESSION=$((SESSION + 1)) # each start gets a fresh session (and screen)
    tm new-session -d -s "nb$SESSION" -x 100 -y 40 \
        "env HOME='$HOME' NNSCOPE_DB='$NNSCOPE_DB' TERM=xterm-256color NO_COLOR=1 ASAN_OPTIONS=log_path='$TMP/asan' UBSAN_OPTIONS=log_path='$TMP/asan' '$NNSCOPE' $*; sleep 30" ||
        fail "tmux could not start"
    nb_wait "In ["
}
nb_keys() { tm send-keys -t "nb$SESSION" "$@"; }
nb_type() { tm send-keys -t "nb$SESSION" -l "$1"; }
nb_screen() { tm capture-pane -p -t "nb$SESSION" -S - | sed 's/[[:space:]]*$//'; }
fail() {
    echo "FAILED ($TEST_NAME): $1"
    echo "--- screen:"
    nb_screen 2>/dev/null
    exit 1
}
# polls every 50 ms until cond succeeds or SECONDS (default 10) pass
nb_poll() {
    seconds=$1; shift
    tries=$((seconds * 20))
    while [ "$tries" -gt 0 ]; do
        if "$@"; then return 0; fi
        sleep 0.05
        tries=$((tries - 1))
    done
    return 1
}
screen_has() { nb_screen | grep -qF -- "$1"; }
nb_wait() { nb_poll "${2:-10}" screen_has "$1" || fail "timed out waiting for: $1"; }
count_at_least() { [ "$(nb_screen | grep -cF -- "$1")" -ge "$2" ]; }
nb_wait_count() { nb_poll "${3:-10}" count_at_least "$1" "$2" || fail "timed out waiting for $2 lines with: $1"; }
# the pane (kept by its `sleep 30`) runs something else: a failed query of a busy
# tmux server is not taken for an exit
exited() {
    panes=$(tm list-panes -t "nb$SESSION" -F '#{pane_current_command}' 2>/dev/null) &&
        ! printf '%s\n' "$panes" | grep -q nnscope
}
nb_wait_exit() { nb_poll 10 exited || fail "nnscope did not exit"; }
# ends the test's notebook with Ctrl-D (so that leak checks run at its exit)
nb_finish() { nb_keys C-u C-d; nb_wait_exit; }
nb_expect_screen() {
    nb_screen | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' > "$TMP/screen"
    diff -u "$1" "$TMP/screen" || fail "the screen differs from $1"
}
