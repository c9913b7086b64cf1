#!/bin/sh
# fuzz/run.sh BUILD TARGET SECONDS — runs one libFuzzer target (BUILD/bin/TARGET) for
# SECONDS on its corpus BUILD/corpus/NAME (NAME is TARGET without fuzz_), seeded from
# tests/fuzz/NAME and the fixtures that fit; crashes go to BUILD/crashes/NAME/.
# Extra libFuzzer flags may come in FUZZ_FLAGS (e.g. -jobs=2).
# Paths are absolute: the targets work in a scratch directory of their own.
build=$(cd "$1" && pwd) target=$2 seconds=$3 root=$(pwd)
name=${target#fuzz_}
corpus=$build/corpus/$name
mkdir -p "$corpus" "$build/crashes/$name"
seeds="$root/tests/fuzz/$name"
mkdir -p "$seeds"
flags="-max_total_time=$seconds -timeout=30 -rss_limit_mb=2048 -print_final_stats=1"
case $name in
lang)
    # cycles through a tensor's hooks or a suspended generator are not collected
    # (docs/language.md, "Memory"): LeakSanitizer would stop at each one
    flags="$flags -detect_leaks=0"
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    export ASAN_OPTIONS ;;
esac
case $name in
parse | lang)
    mkdir -p "$build/seeds/py" && cp "$root"/tests/scripts/*.py "$root"/tutorials/*.py "$build/seeds/py/"
    seeds="$seeds $build/seeds/py"
    flags="$flags -max_len=4096 -dict=$root/fuzz/python.dict" ;;
safetensors) seeds="$seeds $(ls "$root"/tests/fixtures/st_*.safetensors)" ;;
torch_load) seeds="$seeds $root/tests/fixtures/torch_file" ;;
esac
# a file seed is copied in: libFuzzer takes directories
for s in $seeds; do [ -f "$s" ] && cp "$s" "$corpus/"; done
dirs=""
for s in $seeds; do [ -d "$s" ] && dirs="$dirs $s"; done
echo "== fuzz $name for ${seconds}s"
# shellcheck disable=SC2086
"$build/bin/$target" $flags $FUZZ_FLAGS -artifact_prefix="$build/crashes/$name/" "$corpus" $dirs
