#!/bin/sh
# Runs test programs (build/tests/...) from tests/, tutorials (build/tutorials/...)
# comparing their output with tutorials/NAME.expected, and, given the nnscope
# program (build/nnscope), each tutorials/NAME.py (against NAME.expected, made by
# PyTorch) and each tests/cli/NAME.py comparing what it prints, its exit
# status and its error's last line with NAME.expected (made by PyTorch); ends with the line
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
    */nnscope)
        for script in tutorials/*.py; do
            case "$script" in *c_api_demo.py) continue ;; esac # the C tutorial's PyTorch twin
            name=$(basename "$script" .py)
            echo "== nnscope $script"
            if "$t" "$script" > "$BUILD/tutorial-$name.out" 2>&1 && diff -u "tutorials/$name.expected" "$BUILD/tutorial-$name.out"; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1)); echo "FAILED: nnscope $script"
            fi
        done
        for script in tests/cli/*.py; do
            name=$(basename "$script" .py)
            echo "== nnscope tests/cli/$name.py"
            out="$BUILD/cli-$name.out"
            (cd tests/cli && "../../$t" "$name.py" > "../../$out" 2> "../../$out.err"; echo "exit $?" >> "../../$out")
            if ! grep -q "^exit 0$" "$out"; then tail -n 1 "$out.err" >> "$out"; fi
            if diff -u "tests/cli/$name.expected" "$out"; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1)); echo "FAILED: nnscope tests/cli/$name.py"
            fi
        done ;;
    *)
        echo "== $t"
        if (cd tests && "../$t"); then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $t"; fi ;;
    esac
done
echo "test programs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
