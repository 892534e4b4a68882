# ltensor -- a thin wrapper over CMake. The two commands a newcomer types:
#   make run    install what is missing, build, run examples/quickstart.lua
#   make test   the same set-up, then the whole suite (C tests, busted specs, examples)
# and: make bench, make asan (the suite under AddressSanitizer + UBSan alone), make tsan (the
# threaded example under ThreadSanitizer), make install, make clean.

BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
CMAKE      ?= cmake
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
ASAN_SKIP   = ^(rock_install|dlpack_external_header)$$
LUA_ENV     = LUA_PATH="$(CURDIR)/lua/?.lua;$(CURDIR)/lua/?/init.lua;;" \
              LUA_CPATH="$(CURDIR)/$(BUILD)/lua/?.so;;"


.PHONY: all deps build run test bench asan tsan install clean

all: build

deps:
	@missing=""; \
	command -v lua5.4 >/dev/null 2>&1     || missing="$$missing lua5.4"; \
	test -f /usr/include/lua5.4/lua.h     || missing="$$missing liblua5.4-dev"; \
	command -v busted >/dev/null 2>&1     || missing="$$missing lua-busted"; \
	command -v luarocks >/dev/null 2>&1   || missing="$$missing luarocks"; \
	command -v cmake >/dev/null 2>&1      || missing="$$missing cmake"; \
	command -v cc >/dev/null 2>&1         || missing="$$missing gcc"; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	command -v git >/dev/null 2>&1        || missing="$$missing git"; \
	pkg-config --exists python3-embed 2>/dev/null || missing="$$missing libpython3-dev"; \
	/usr/bin/python3 -c "import numpy" >/dev/null 2>&1 || missing="$$missing python3-numpy"; \
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

build: deps
	$(CMAKE) -S . -B $(BUILD) -DLTENSOR_WERROR=ON $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD) -j $(JOBS)

run: build
	$(LUA_ENV) lua5.4 examples/quickstart.lua

# The suite runs twice: under AddressSanitizer + UBSan first, then the plain build, whose
# ctest summary is the last line.
test: build asan
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Build-system tests (rock install, external header) do not depend on the sanitizer: skipped.
asan: deps
	$(CMAKE) -S . -B $(ASAN_BUILD) -DLTENSOR_WERROR=ON -DLTENSOR_BUILD_BENCH=OFF \
	  -DLTENSOR_SANITIZE=address,undefined $(CMAKE_ARGS)
	$(CMAKE) --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS) -E "$(ASAN_SKIP)"

# The threaded example (Lua states on worker threads handing tensors over through DLPack) under
# ThreadSanitizer.
tsan: deps
	$(CMAKE) -S . -B $(TSAN_BUILD) -DLTENSOR_WERROR=ON -DLTENSOR_BUILD_BENCH=OFF \
	  -DLTENSOR_SANITIZE=thread $(CMAKE_ARGS)
	$(CMAKE) --build $(TSAN_BUILD) -j $(JOBS) --target threads_example
	cd $(TSAN_BUILD) && ctest --output-on-failure -R '^example_threads$$'

# Benchmarks print ratios measured side by side in one run; LTENSOR_BENCH_QUICK=1 shortens them.
bench: build
	./$(BUILD)/bench/bench_access
	./$(BUILD)/bench/bench_exchange
	./$(BUILD)/bench/bench_dlpack
	./$(BUILD)/bench/bench_math
	$(LUA_ENV) lua5.4 bench/gc_memory.lua

install: build
	$(CMAKE) --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)
