#!/bin/sh
# Runs test programs (build/tests/...) from tests/ and tutorials (build/tutorials/...)
# comparing their output with tutorials/NAME.expected; ends with the line
# "test programs: N passed, M failed" and a non-zero status when any failed.
passed=0
failed=0
for t in "$@"; do
    case "$t" in
    */tutorials/*)
        name=$(basename "$t")
        echo "== tutorial $name"
        if "$t" > "$t.out" 2>&1 && diff -u "tutorials/$name.expected" "$t.out"; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1)); echo "FAILED: tutorial $name"
        fi ;;
    *)
        echo "== $t"
        if (cd tests && "../$t"); then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $t"; fi ;;
    esac
done
echo "test programs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
