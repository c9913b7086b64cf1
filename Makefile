# nnscope — plain Makefile. Objects go to $(BUILD) (default build/).
#
#   make            build build/libnnscope.a, the layers' libraries and build/nnscope
#   make test       build and run every test program, tutorial and tests/scripts script
#   make run        build and start the interactive nnscope notebook
#   make deps       install the Debian packages the build needs (apt-get, as root)
#   make asan       the tests under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench      the benchmarks, with PyTorch measured in the same run when present
#   make fuzz       the libFuzzer targets (fuzz/) with clang, ASan and UBSan, FUZZ_SECONDS each
#   make clean      remove build/
#
# Layers (arrows point down only):  repl -> inspector, sessions -> core -> libc, libm, OpenBLAS (dlopen)

BUILD   ?= build
CC      ?= cc
OPT     ?= -O3
CFLAGS  ?= $(OPT) -g
# SAN: sanitizer flags (set by `make asan`), used for compiling and linking
SAN     ?=
# -ffp-contract=off: the float kernels write every fused multiply-add out, as
# PyTorch's are compiled; gcc's ISO mode implies it, clang's default would fuse more
ALL_CFLAGS = $(CFLAGS) $(SAN) -std=c11 -ffp-contract=off -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -MMD -MP -Icore $(LAYER_INC)
# OpenBLAS is not linked: core/blas.c opens it on the first matrix product
LDLIBS   = $(SAN) -lsleef -lm -lpthread -ldl -lzip
# the upper layers' libraries: SQLite (sessions), ncurses (inspector), readline, PCRE2, utf8proc, libunistring,
# GMP, Nettle, zlib, libbz2 and liblzma (repl)
UPPER_LDLIBS = -lsqlite3 -lncursesw -lreadline -lpcre2-8 -lutf8proc -lunistring -lgmp -lnettle -lz -lbz2 -llzma
TEST_LDLIBS = -lcmocka $(UPPER_LDLIBS) $(LDLIBS)

DEB_PACKAGES = libopenblas-dev libcmocka-dev libreadline-dev libncurses-dev libsqlite3-dev libzip-dev pkg-config tmux \
               libpcre2-dev libutf8proc-dev libunistring-dev libsleef-dev libgmp-dev nettle-dev zlib1g-dev \
               libbz2-dev liblzma-dev
# a header from each package; a missing one triggers `make deps`
DEP_HEADERS  = /usr/include/x86_64-linux-gnu/cblas.h /usr/include/cmocka.h /usr/include/readline/readline.h \
               /usr/include/ncurses.h /usr/include/sqlite3.h /usr/include/zip.h /usr/bin/pkg-config /usr/bin/tmux \
               /usr/include/pcre2.h /usr/include/utf8proc.h /usr/include/uniname.h /usr/include/x86_64-linux-gnu/sleef.h \
               /usr/include/x86_64-linux-gnu/gmp.h /usr/include/nettle/nettle-meta.h /usr/include/zlib.h \
               /usr/include/bzlib.h /usr/include/lzma.h

CORE_SRC = $(wildcard core/*.c core/cpu/*.c core/loopback/*.c)
CORE_O   = $(patsubst %.c,$(BUILD)/%.o,$(CORE_SRC)) $(CUDA_O)

# CUDA=1: the CUDA backend of core/cuda/ (C over the CUDA runtime, kernels in .cu files
# through nvcc), registered when the runtime sees a GPU. Never built by default nor in CI:
#   make CUDA=1 BUILD=build/cuda
ifeq ($(CUDA),1)
CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
CORE_SRC += $(wildcard core/cuda/*.c)
CUDA_O    = $(patsubst %.cu,$(BUILD)/%.o,$(wildcard core/cuda/*.cu))
CFLAGS   += -DNN_HAVE_CUDA -I$(CUDA_HOME)/include
LDLIBS   += -L$(CUDA_HOME)/lib64 -lcudart
$(BUILD)/core/cuda/%.o: core/cuda/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -Icore -DNN_HAVE_CUDA -c $< -o $@
endif
LIB      = $(BUILD)/libnnscope.a

# The layers above core, one library each (arrows point down: repl may use
# inspector and sessions; those two use core only).
SESS_O = $(patsubst %.c,$(BUILD)/%.o,$(wildcard sessions/*.c))
INSP_O = $(patsubst %.c,$(BUILD)/%.o,$(wildcard inspector/*.c))
REPL_O = $(patsubst %.c,$(BUILD)/%.o,$(filter-out repl/main.c,$(wildcard repl/*.c)))
SESS_LIB = $(BUILD)/libnnscope_sessions.a
INSP_LIB = $(BUILD)/libnnscope_inspector.a
REPL_LIB = $(BUILD)/libnnscope_repl.a
UPPER_LIBS = $(if $(REPL_O),$(REPL_LIB)) $(if $(INSP_O),$(INSP_LIB)) $(if $(SESS_O),$(SESS_LIB))

TEST_SRC  = $(wildcard tests/core/test_*.c tests/repl/test_*.c tests/sessions/test_*.c tests/inspector/test_*.c)
TEST_BIN  = $(patsubst %.c,$(BUILD)/%,$(TEST_SRC))
TEST_UTIL = $(BUILD)/tests/test_util.o

# C tutorials: each prints exactly its .expected file (made by its PyTorch twin)
TUTORIAL_SRC = $(wildcard tutorials/*.c)
TUTORIAL_BIN = $(patsubst %.c,$(BUILD)/%,$(TUTORIAL_SRC))

BENCH_SRC = $(wildcard bench/bench_*.c)
BENCH_BIN = $(patsubst %.c,$(BUILD)/%,$(BENCH_SRC))

.PHONY: all test run deps check-deps asan bench clean FORCE fuzz fuzz-build fuzz-bins sweep
# the nnscope program: the language's main over every layer's library
NNSCOPE = $(BUILD)/nnscope
all: check-deps $(LIB) $(NNSCOPE)

# Include paths follow the layers: core sees only itself; repl and the tests
# also see repl/ (sessions and inspector include their own headers by path).
$(BUILD)/repl/%.o $(BUILD)/tests/% $(NNSCOPE): LAYER_INC = -Irepl
# clang passes __m256 arguments to a function declared without AVX in memory, even
# from a caller under target("avx2"), where SLEEF's AVX2 entry points read registers
# (x ** 1.5 came out as x ** x): with clang, vmath.c and vmath_f64.c, whose vector code
# runs only after their run-time AVX2 check, are compiled for AVX2 (such a build then
# needs an AVX2 CPU)
CLANG_VMATH := $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),-mavx2 -mfma)
$(BUILD)/core/cpu/vmath.o $(BUILD)/core/cpu/vmath_f64.o: CFLAGS += $(CLANG_VMATH)

# the modules written wholly in the language (repl/lib/NAME.py), embedded as C
# strings into $(BUILD)/gen/pylib_sources.h, which repl/pylib.c includes
PYLIB_PY = $(sort $(wildcard repl/lib/*.py))
PYLIB_H  = $(BUILD)/gen/pylib_sources.h
$(PYLIB_H): $(PYLIB_PY) repl/lib/embed.awk
	@mkdir -p $(dir $@)
	awk -f repl/lib/embed.awk $(PYLIB_PY) > $@
$(BUILD)/repl/pylib.o: $(PYLIB_H)
$(BUILD)/repl/pylib.o: LAYER_INC = -Irepl -I$(BUILD)/gen
# the guided mode (repl/lesson.c) finds the lessons in this tree's tutorials/
$(BUILD)/repl/lesson.o: LAYER_INC = -Irepl -DNNSCOPE_TUTORIALS_DIR='"$(CURDIR)/tutorials"'

# Objects depend on the flags they were built with: changing OPT or SAN rebuilds.
FLAGS_FILE = $(BUILD)/.cflags
# (its own empty LAYER_INC: a target-specific -Irepl inherited from whichever target
# asked first would flip the file between builds and rebuild everything each time)
$(FLAGS_FILE): LAYER_INC =
$(FLAGS_FILE): FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(ALL_CFLAGS)' | cmp -s - $@ || echo '$(CC) $(ALL_CFLAGS)' > $@
FORCE:

$(BUILD)/%.o: %.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(CORE_O)
	@rm -f $@
	ar rcs $@ $^

$(SESS_LIB): $(SESS_O)
	@rm -f $@
	ar rcs $@ $^
$(INSP_LIB): $(INSP_O)
	@rm -f $@
	ar rcs $@ $^
$(REPL_LIB): $(REPL_O)
	@rm -f $@
	ar rcs $@ $^

$(NNSCOPE): $(BUILD)/repl/main.o $(UPPER_LIBS) $(LIB)
	$(CC) $(ALL_CFLAGS) $< $(UPPER_LIBS) $(LIB) $(UPPER_LDLIBS) $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/%.c $(TEST_UTIL) $(LIB) $(UPPER_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -I. $< $(TEST_UTIL) $(UPPER_LIBS) $(LIB) $(TEST_LDLIBS) -o $@

$(BUILD)/tests/test_util.o: tests/test_util.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -c $< -o $@

# bench_module measures the inspector too, bench_sessions the sessions store; bench_lang runs $(NNSCOPE);
# bench_core calls OpenBLAS directly for its peer figure
$(BUILD)/bench/%: bench/%.c bench/bench_util.h $(LIB) $(INSP_LIB) $(SESS_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O3 $< $(INSP_LIB) $(SESS_LIB) $(LIB) $(UPPER_LDLIBS) $(LDLIBS) -lopenblas -o $@

$(BUILD)/tutorials/%: tutorials/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(LDLIBS) -o $@

# Each test program prints cmocka's summary; then every tutorial must print
# exactly its .expected file. The last line counts the programs that passed.
test: check-deps $(TEST_BIN) $(TUTORIAL_BIN) $(NNSCOPE)
	@BUILD=$(BUILD) sh tests/run.sh $(TEST_BIN) $(TUTORIAL_BIN) $(NNSCOPE)

# `make run` starts the notebook (the lesson runs with `$(NNSCOPE) tutorials/first_steps.py`).
run: check-deps $(NNSCOPE)
	$(NNSCOPE)

# `make sweep`: every allocation of every script of tests/scripts fails in turn
# (a fork per allocation: tests/repl/test_alloc_sweep_scripts.c), for SWEEP_SECONDS.
SWEEP_SECONDS ?= 3600
sweep: check-deps $(BUILD)/tests/repl/test_alloc_sweep_scripts
	cd tests && SWEEP_STRIDE=1 SWEEP_FIRST=0 SWEEP_SECONDS=$(SWEEP_SECONDS) ../$(BUILD)/tests/repl/test_alloc_sweep_scripts

asan:
	$(MAKE) BUILD=$(BUILD)/asan OPT=-O1 \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" test

# `make fuzz` builds fuzz/fuzz_*.c with clang (-fsanitize=fuzzer, ASan, UBSan; Debian's
# clang and libclang-rt, needed by this target only) into $(BUILD)/fuzz/bin and runs each
# for FUZZ_SECONDS on its corpus $(BUILD)/fuzz/corpus/NAME, seeded from tests/fuzz/NAME
# (the inputs that found bugs, which `make test` replays) and the test fixtures.
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_TARGETS  = $(patsubst fuzz/%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BIN      = $(patsubst %,$(BUILD)/bin/%,$(FUZZ_TARGETS))
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do sh fuzz/run.sh $(BUILD)/fuzz $$t $(FUZZ_SECONDS) || exit 1; done
fuzz-build:
	$(MAKE) BUILD=$(BUILD)/fuzz CC=$(FUZZ_CC) OPT=-O1 SAN="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" fuzz-bins
fuzz-bins: $(FUZZ_BIN)
$(BUILD)/bin/fuzz_%: fuzz/fuzz_%.c $(LIB) $(UPPER_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -I. -Irepl $< $(UPPER_LIBS) $(LIB) $(UPPER_LDLIBS) $(LDLIBS) -o $@

bench: check-deps $(BENCH_BIN) $(NNSCOPE)
	@for b in $(BENCH_BIN); do (cd bench && ../$$b); done
	@if /usr/bin/python3 -c 'import torch' 2>/dev/null; then \
	     NNSCOPE_BENCH_CORE=$(abspath $(BUILD)/bench/bench_core) NNSCOPE_BENCH_MODULE=$(abspath $(BUILD)/bench/bench_module) \
	     NNSCOPE_BENCH_STEP=$(abspath $(BUILD)/bench/bench_step) NNSCOPE_BENCH_LSTM=$(abspath $(BUILD)/bench/bench_lstm) \
	     /usr/bin/python3 bench/peer_torch.py | \
	     tee -a "$${NNSCOPE_BENCH_FILE:-$${TMPDIR:-/tmp}/nnscope-bench-$$(id -u).txt}"; \
	 else echo "# PyTorch not found: peer figures skipped"; fi
	@sh bench/targets.sh

# Installs the build's Debian packages when a header is missing: directly as
# root, else it prints the apt-get line to run.
check-deps:
	@for h in $(DEP_HEADERS); do [ -e $$h ] || missing=1; done; \
	 if [ -n "$$missing" ]; then $(MAKE) --no-print-directory deps; fi

deps:
	@if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEB_PACKAGES); \
	 else \
	    echo "missing build dependencies; run:"; \
	    echo "  sudo apt-get install -y $(DEB_PACKAGES)"; exit 1; \
	 fi

clean:
	rm -rf $(BUILD)

-include $(CORE_O:.o=.d) $(SESS_O:.o=.d) $(INSP_O:.o=.d) $(REPL_O:.o=.d) $(TEST_UTIL:.o=.d)
