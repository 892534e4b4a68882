# ltensor -- a thin wrapper over CMake. The two commands a newcomer types:
#   make run    install what is missing, build the module, run examples/quickstart.lua
#   make test   the same set-up, then the whole suite (C tests, busted specs, examples)
# and, to run one's own scripts against the built module: make shell (a subshell with LUA_PATH
# and LUA_CPATH set) or eval "$(make -s env)" (the same settings in the current shell).
# Also: make bench, make asan (the suite under AddressSanitizer + UBSan alone), make tsan (the
# threaded example, the pool's test and the math specs under ThreadSanitizer), make valgrind,
# make fuzz (the libFuzzer targets, then make drive), make drive (the seeded random driver under
# AddressSanitizer + UBSan), make install, make docs (docs/API.md), make clean.

BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
NOBLAS_BUILD ?= build-noblas
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = fuzz_dlpack_import fuzz_index fuzz_bytes fuzz_npy_header fuzz_zip_dir \
               fuzz_safetensors_header fuzz_png fuzz_jpeg
DRIVE_SECONDS ?= 600
DRIVE_SEED ?= $(shell date +%s)
DRIVE_CALLS ?= 5000
CMAKE      ?= cmake
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
ASAN_SKIP   = ^(rock_install|dlpack_external_header)$$
# Where lua5.4 finds the Lua layer (the source tree's lua/) and the built ltensor.core.
LUA_PATH_DIRS  = $(CURDIR)/lua/?.lua;$(CURDIR)/lua/?/init.lua;;
LUA_CPATH_DIRS = $(abspath $(BUILD))/lua/?.so;;
LUA_ENV     = LUA_PATH="$(LUA_PATH_DIRS)" LUA_CPATH="$(LUA_CPATH_DIRS)"
MODULE      = $(abspath $(BUILD))/lua/ltensor/core.so
# `make -C DIR env` prints only the export lines (no "Entering directory").
MAKEFLAGS  += --no-print-directory
# lua5.4 with the module of $(ASAN_BUILD): the sanitizer runtime preloaded, as CTest does there.
ASAN_LUA_ENV = LUA_PATH="$(LUA_PATH_DIRS)" \
              LUA_CPATH="$(abspath $(ASAN_BUILD))/lua/?.so;;" \
              LD_PRELOAD="$$($${CC:-cc} -print-file-name=libasan.so)" \
              ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
              LSAN_OPTIONS=suppressions=$(CURDIR)/spec/lsan.supp:print_suppressions=0 \
              UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: all deps deps-run module build run shell env test test-noblas bench asan tsan valgrind fuzz drive install docs clean

all: build

# What is missing, installed through apt-get as root, otherwise the command that would: for
# `make run` the compiler, CMake and Lua 5.4 (with headers, busted, LuaRocks) alone; for the
# suite also Python's embedding library, NumPy and PyTorch (the interop tests).
NEEDS_RUN = \
	command -v lua5.4 >/dev/null 2>&1     || missing="$$missing lua5.4"; \
	test -f /usr/include/lua5.4/lua.h     || missing="$$missing liblua5.4-dev"; \
	test -f /usr/include/zlib.h           || missing="$$missing zlib1g-dev"; \
	command -v busted >/dev/null 2>&1     || missing="$$missing lua-busted"; \
	command -v luarocks >/dev/null 2>&1   || missing="$$missing luarocks"; \
	command -v cmake >/dev/null 2>&1      || missing="$$missing cmake"; \
	command -v cc >/dev/null 2>&1         || missing="$$missing gcc";
NEEDS_TEST = $(NEEDS_RUN) \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	command -v git >/dev/null 2>&1        || missing="$$missing git"; \
	pkg-config --exists python3-embed 2>/dev/null || missing="$$missing libpython3-dev"; \
	/usr/bin/python3 -c "import numpy" >/dev/null 2>&1 || missing="$$missing python3-numpy"; \
	/usr/bin/python3 -c "import torch" >/dev/null 2>&1 || missing="$$missing python3-torch";
define install_missing
	@missing=""; $($(1)) \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "ltensor needs:$$missing"; \
	    echo "install them with:  sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi
endef

deps:
	$(call install_missing,NEEDS_TEST)

deps-run:
	$(call install_missing,NEEDS_RUN)

# Everything: the module, the host libraries, the C tests, the benches.
build: deps
	$(CMAKE) -S . -B $(BUILD) -DLTENSOR_WERROR=ON -DLTENSOR_BUILD_TESTS=ON \
	  -DLTENSOR_BUILD_BENCH=ON $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD) -j $(JOBS)

# What the quickstart needs: ltensor.core (the Lua layer is read from lua/), in the same build
# directory (configured without the tests and benches, which `make build` adds back).
module: deps-run
	$(CMAKE) -S . -B $(BUILD) -DLTENSOR_WERROR=ON -DLTENSOR_BUILD_TESTS=OFF \
	  -DLTENSOR_BUILD_BENCH=OFF $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD) -j $(JOBS) --target ltensor_module

run: module
	$(LUA_ENV) lua5.4 examples/quickstart.lua

# One's own scripts against the built module, from any directory: `make shell` starts $$SHELL
# with LUA_PATH and LUA_CPATH set; `eval "$$(make -s env)"` sets them in the current shell.
shell:
	@test -f "$(MODULE)" || $(MAKE) --no-print-directory module
	@echo "ltensor: LUA_PATH and LUA_CPATH set for $(MODULE); exit to leave"
	@$(LUA_ENV) $${SHELL:-/bin/sh}

env:
	@test -f "$(MODULE)" || echo "ltensor: $(MODULE) is not built yet: run make run first" >&2
	@echo "export LUA_PATH='$(LUA_PATH_DIRS)'"
	@echo "export LUA_CPATH='$(LUA_CPATH_DIRS)'"

# The suite runs twice: under AddressSanitizer + UBSan first, then the plain build, whose
# ctest summary is the last line; between them the math tests of a build without the BLAS.
test: build asan test-noblas
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# ltensor's own matmul kernel for every dtype (-DLTENSOR_BLAS=OFF), and no PNG or JPEG
# library: the C math tests and the math, matmul and image specs (lt.image raising "built
# without PNG support"), in a build of the module and those tests alone.
test-noblas: deps
	$(CMAKE) -S . -B $(NOBLAS_BUILD) -DLTENSOR_WERROR=ON -DLTENSOR_BLAS=OFF \
	  -DLTENSOR_PNG=OFF -DLTENSOR_JPEG=OFF -DLTENSOR_BUILD_BENCH=OFF $(CMAKE_ARGS)
	$(CMAKE) --build $(NOBLAS_BUILD) -j $(JOBS) --target ltensor_module test_math
	cd $(NOBLAS_BUILD) && ctest --output-on-failure -j $(JOBS) -R '^(c_math|spec_math|spec_matmul|spec_image)$$'

# Build-system tests (rock install, external header) do not depend on the sanitizer: skipped.
asan: deps
	$(CMAKE) -S . -B $(ASAN_BUILD) -DLTENSOR_WERROR=ON -DLTENSOR_BUILD_BENCH=OFF \
	  -DLTENSOR_SANITIZE=address,undefined $(CMAKE_ARGS)
	$(CMAKE) --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS) -E "$(ASAN_SKIP)"

# Under ThreadSanitizer: the threaded example (Lua states on worker threads handing tensors
# over through DLPack), the worker pool's C test (large operations at 1-4 threads, from two host
# threads at once), the random generators' C test (blocks reserved from four threads), the BLAS
# guard's C test (fork while three threads run products) and the math and threads specs at 2
# threads.
TSAN_TESTS = ^(example_threads|c_threads|c_random|c_blas|spec_threads|spec_math_t2)$$
tsan: deps
	$(CMAKE) -S . -B $(TSAN_BUILD) -DLTENSOR_WERROR=ON -DLTENSOR_BUILD_BENCH=OFF \
	  -DLTENSOR_SANITIZE=thread $(CMAKE_ARGS)
	$(CMAKE) --build $(TSAN_BUILD) -j $(JOBS) --target threads_example test_threads test_random test_blas ltensor_module
	cd $(TSAN_BUILD) && ctest --output-on-failure -R '$(TSAN_TESTS)'

# The suite under Valgrind's memcheck, plain build (spec/valgrind.sh says what runs and what is
# skipped). LTENSOR_VALGRIND_ALL=1 adds the bad-input matrix (about 10 more minutes).
valgrind: build
	@command -v valgrind >/dev/null 2>&1 || { echo "make valgrind needs: sudo apt-get install -y valgrind"; exit 1; }
	bash spec/valgrind.sh $(BUILD)

# libFuzzer (clang): each target FUZZ_SECONDS on a growing copy of its seed corpus in
# $(FUZZ_BUILD)/corpus (the source tree is never written); crashes land in $(FUZZ_BUILD)/artifacts.
# Then the seeded random driver for DRIVE_SECONDS (make drive).
fuzz: deps
	CC=clang $(CMAKE) -S . -B $(FUZZ_BUILD) -DLTENSOR_FUZZ=ON -DLTENSOR_BUILD_TESTS=OFF \
	  -DLTENSOR_BUILD_BENCH=OFF $(CMAKE_ARGS)
	$(CMAKE) --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZ_TARGETS)
	@mkdir -p $(FUZZ_BUILD)/artifacts
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t; \
	  echo "== $$t ($(FUZZ_SECONDS) s)"; \
	  $(FUZZ_BUILD)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_BUILD)/artifacts/ $(FUZZ_BUILD)/corpus/$$t spec/fuzz/corpus/$$t \
	    || exit 1; \
	done
	$(MAKE) drive

# The seeded random driver (spec/drive/driver.lua) under AddressSanitizer + UBSan, long: seeds
# from DRIVE_SEED (default: the time, printed) on, each in a child process with DRIVE_CALLS
# calls, until DRIVE_SECONDS have passed; a failing seed prints its last calls and its replay.
drive: deps
	$(CMAKE) -S . -B $(ASAN_BUILD) -DLTENSOR_WERROR=ON -DLTENSOR_BUILD_BENCH=OFF \
	  -DLTENSOR_SANITIZE=address,undefined $(CMAKE_ARGS)
	$(CMAKE) --build $(ASAN_BUILD) -j $(JOBS) --target ltensor_module
	$(ASAN_LUA_ENV) lua5.4 spec/drive/driver.lua --seconds $(DRIVE_SECONDS) \
	  --seed $(DRIVE_SEED) --calls $(DRIVE_CALLS)

# Benchmarks print ratios measured side by side in one run; LTENSOR_BENCH_QUICK=1 shortens them.
# Every bench appends its rows to BENCH_RECORD (bench/bench.h, bench_record), truncated first;
# tools/bench_table.lua then prints them as one table, ending "bench: N rows, P pass, M miss".
# A bench that fails is named and the others still run; the target fails after the table.
BENCH_RECORD ?= $(abspath $(BUILD))/bench_record.tsv
BENCHES = access exchange dlpack math compute index sort files dist random lapack nn_norm \
          nn_conv nn_model fft image
bench: build
	@: > "$(BENCH_RECORD)"
	@failed=""; \
	for b in $(BENCHES); do \
	  echo "== bench_$$b"; LTENSOR_BENCH_RECORD="$(BENCH_RECORD)" ./$(BUILD)/bench/bench_$$b || failed="$$failed bench_$$b"; \
	done; \
	echo "== gc_memory"; LTENSOR_BENCH_RECORD="$(BENCH_RECORD)" $(LUA_ENV) lua5.4 bench/gc_memory.lua || failed="$$failed gc_memory"; \
	echo; [ -z "$$failed" ] || echo "bench: failed:$$failed (their rows may be missing below)"; \
	lua5.4 tools/bench_table.lua "$(BENCH_RECORD)" && [ -z "$$failed" ]

install: build
	$(CMAKE) --install $(BUILD)

# docs/API.md from the LuaLS definitions in lua/ltensor/meta (ctest's api_docs checks it).
docs:
	lua5.4 tools/gen_api.lua

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD) $(NOBLAS_BUILD)
