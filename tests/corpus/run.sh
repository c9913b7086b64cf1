#!/bin/sh
# Runs every tests/corpus/NAME.py with nnscope (from tests/corpus, at most 120 s each) and
# compares its stdout, "exit N" line and error's last line with NAME.expected (PyTorch 1.13's, written by
# tests/fixtures/gen_corpus.py). A script not named in known_failures.txt must match byte
# for byte; one named there ("NAME LINES reason") must still reproduce the first LINES
# lines of NAME.expected, so a regression before the point it reaches today fails too.
# Usage: sh tests/corpus/run.sh PATH/TO/nnscope OUTDIR   (both absolute)
prog=$1
outdir=$2
dir=$(dirname "$0")
known="$dir/known_failures.txt"
total=0 exact=0 bad=0
for script in "$dir"/*.py; do
    name=$(basename "$script" .py)
    total=$((total + 1))
    out="$outdir/corpus-$name.out"
    (cd "$dir" && timeout 120 "$prog" "$name.py" > "$out" 2> "$out.err"; echo "exit $?" >> "$out")
    if ! grep -q "^exit 0$" "$out"; then tail -n 1 "$out.err" >> "$out"; fi
    sed -i 's/ at 0x[0-9a-f]*>/ at 0x...>/g' "$out" # an object's address, as gen_corpus.py writes it
    lines=$(awk -v n="$name" '$1 == n { print $2 }' "$known")
    [ -n "$lines" ] && head -n "$lines" "$dir/$name.expected" > "$outdir/corpus-$name.want"
    if cmp -s "$dir/$name.expected" "$out"; then
        exact=$((exact + 1))
        [ -n "$lines" ] && echo "note: tests/corpus/$name.py now matches PyTorch byte for byte: take it out of known_failures.txt"
    elif [ -z "$lines" ]; then
        bad=$((bad + 1)); diff -u "$dir/$name.expected" "$out" | head -n 40
        echo "FAILED: tests/corpus/$name.py differs from PyTorch's output"
    elif [ "$(wc -l < "$out")" -lt "$lines" ] ||
         ! head -n "$lines" "$out" | cmp -s - "$outdir/corpus-$name.want"; then
        bad=$((bad + 1)); diff -u "$dir/$name.expected" "$out" | head -n 40
        echo "FAILED: tests/corpus/$name.py no longer reproduces the first $lines lines of PyTorch's output"
    fi
done
rm -f "$dir"/*.tmp
echo "corpus: $exact of $total scripts print what PyTorch prints, byte for byte"
[ "$bad" -eq 0 ]
