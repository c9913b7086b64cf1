#!/bin/sh
# targets.sh — the last step of `make bench`: every figure that has a target
# (issues 13, 15 and 19; bench/README.md), its value in this run (the figures
# file the benchmarks and peer_torch.py wrote: $NNSCOPE_BENCH_FILE, else
# $TMPDIR/nnscope-bench-$UID.txt), the target, and whether this run met it.
# A figure the run did not make (no PyTorch, no CPython) reads "missing".
file=${NNSCOPE_BENCH_FILE:-${TMPDIR:-/tmp}/nnscope-bench-$(id -u).txt}
if [ ! -r "$file" ]; then
    echo "# targets: no figures file $file"
    exit 0
fi
echo "# targets (this run; a ratio is ours / its peer measured in the same run)"
awk 'NR == FNR { if (NF == 2 && $1 !~ /^#/) value[$1] = $2; next }
     NF == 3 {
         if (!($1 in value)) { printf "%-30s %10s   <= %-5s %s  missing\n", $1, "-", $2, $3; next }
         v = value[$1]
         met = v !~ /nan/ && v + 0 <= $2 + 0
         printf "%-30s %10s   <= %-5s %s  %s\n", $1, v, $2, $3, met ? "met" : "NOT MET"
     }' "$file" - <<'TARGETS'
gelu_1M_ratio 1.0 (13)
add_1M_ratio 1.0 (13)
sum_1M_ratio 1.0 (13)
sin_1M_ratio 1.0 (README)
softmax_1M_ratio 1.0 (README)
mlp_step_ratio 0.8 (13)
conv_step_ratio 1.2 (13)
lstm_step_ratio 1.2 (README)
sgemm1024_ratio 1.10 (README)
small_add_us 0.25 (13)
repl_small_add_us 0.5 (13)
startup_ms 20 (13,15)
hook_overhead_ratio 1.05 (13)
inspector_overhead_ratio 1.05 (13,19)
inspector_overhead_big_ratio 1.05 (19)
loop_ratio 1.2 (15)
gen_ratio 1.5 (15)
call_ratio 1.5 (15)
snapshot_10M_ratio 2.0 (README)
cell_record_us 500 (README)
TARGETS
