#!/bin/sh
# Runs test programs (build/tests/...) from tests/, tutorials (build/tutorials/...)
# comparing their output with tutorials/NAME.expected, and, given the nnscope
# program (build/nnscope), each tutorials/NAME.py (against NAME.expected, made by
# PyTorch; a numbered lesson NN_NAME.py played with --lesson, its expected output made by
# tests/fixtures/gen_lessons.py), each tests/scripts/NAME.py comparing what it prints, its exit
# status and its error's last line with NAME.expected (made by PyTorch through
# tests/fixtures/gen_scripts.py), the coverage check tests/scripts/check_coverage.sh
# (every name the bindings export appears in a script), and each tests/interactive/NAME.sh (the notebook
# driven through tmux); ends with the line
# "test programs: N passed, M failed" and a non-zero status when any failed.
# Nothing a test runs records into the user's sessions database: nnscope's
# store is a file under $BUILD (absolute, since tests run from other directories).
case "${BUILD:=build}" in /*) NNSCOPE_DB="$BUILD/test-sessions.db" ;; *) NNSCOPE_DB="$(pwd)/$BUILD/test-sessions.db" ;; esac
export NNSCOPE_DB
# The CPU kernels the expected files were made with (tests/fixtures/pin_cpu.py says why):
# OpenBLAS's Haswell kernels and oneDNN's AVX2 code, on any x86-64 CPU with AVX2 and FMA.
OPENBLAS_CORETYPE=Haswell ONEDNN_MAX_CPU_ISA=AVX2
export OPENBLAS_CORETYPE ONEDNN_MAX_CPU_ISA
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
            # a numbered lesson is played cell by cell (its magics are cells): tests/fixtures/gen_lessons.py
            # (and an object's address in its repr, "<function f at 0x55d0...>", reads "at 0x..."),
            # recorded in a fresh database (session 1, snapshot 1, as the golden files were made)
            db=$NNSCOPE_DB how=
            case "$name" in [0-9][0-9]_*) how=--lesson db="$BUILD/lesson-$name.db" && rm -f "$db" "$db-wal" "$db-shm" ;; esac
            if NNSCOPE_DB="$db" "$t" $how "$script" < /dev/null > "$BUILD/tutorial-$name.out" 2>&1 &&
                { [ -z "$how" ] || sed -i 's/ at 0x[0-9a-f]*>/ at 0x...>/g' "$BUILD/tutorial-$name.out"; } &&
                diff -u "tutorials/$name.expected" "$BUILD/tutorial-$name.out"; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1)); echo "FAILED: nnscope $script"
            fi
        done
        # the scripts run from tests/scripts: absolute paths to the program and the outputs
        case "$t" in /*) prog=$t ;; *) prog=$PWD/$t ;; esac
        case "$BUILD" in /*) outdir=$BUILD ;; *) outdir=$PWD/$BUILD ;; esac
        for script in tests/scripts/*.py; do
            name=$(basename "$script" .py)
            echo "== nnscope tests/scripts/$name.py"
            out="$outdir/script-$name.out"
            (cd tests/scripts && "$prog" "$name.py" > "$out" 2> "$out.err"; echo "exit $?" >> "$out")
            if ! grep -q "^exit 0$" "$out"; then tail -n 1 "$out.err" >> "$out"; fi
            if diff -u "tests/scripts/$name.expected" "$out" > "$out.diff"; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1)); cat "$out.diff"; echo "FAILED: nnscope tests/scripts/$name.py"
            fi
        done
        # the same scripts again with every tensor on the loopback test device (core/loopback/,
        # standing in for CUDA and made the default device), except those tests/scripts/loopback.skip
        # names with its reason; one program in the count
        echo "== nnscope tests/scripts on the loopback device"
        lb_failed=0
        for script in tests/scripts/*.py; do
            name=$(basename "$script" .py)
            if grep -q "^$name " tests/scripts/loopback.skip; then continue; fi
            out="$outdir/loopback-$name.out"
            # poisoned (under ASan a host read of device memory outside a kernel stops the
            # script) unless tests/scripts/loopback.inline lists it: it still reaches an op
            # that computes inline
            poison=1; if grep -q "^$name " tests/scripts/loopback.inline; then poison=0; fi
            (cd tests/scripts && NNSCOPE_TEST_DEVICE=loopback NNSCOPE_LOOPBACK_POISON=$poison "$prog" "$name.py" > "$out" 2> "$out.err"; echo "exit $?" >> "$out")
            if ! grep -q "^exit 0$" "$out"; then tail -n 1 "$out.err" >> "$out"; fi
            if ! diff -u "tests/scripts/$name.expected" "$out" > "$out.diff"; then
                lb_failed=1; cat "$out.diff"; echo "FAILED on the loopback device: tests/scripts/$name.py"
            fi
        done
        if [ "$lb_failed" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: nnscope tests/scripts on the loopback device"; fi
        # the corpus of real public PyTorch scripts (tests/corpus/README.md): each prints what
        # PyTorch 1.13 printed (NAME.expected, tests/fixtures/gen_corpus.py) byte for byte, or,
        # listed in tests/corpus/known_failures.txt, at least its first LINES lines; one program
        echo "== nnscope tests/corpus"
        if sh tests/corpus/run.sh "$prog" "$outdir"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: nnscope tests/corpus"; fi
        echo "== tests/scripts/check_coverage.sh"
        if sh tests/scripts/check_coverage.sh; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1)); echo "FAILED: tests/scripts/check_coverage.sh"
        fi
        for script in tests/interactive/*.sh; do # the notebook in a tmux pane
            case "$script" in */lib.sh) continue ;; esac
            echo "== nnscope $script"
            if sh "$script" "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: nnscope $script"; fi
        done
        rm -f tests/scripts/*.tmp ;; # files the scripts saved
    *)
        echo "== $t"
        if (cd tests && "../$t"); then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $t"; fi ;;
    esac
done
echo "test programs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
