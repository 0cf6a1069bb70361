# rafleet: the readahead kernel and the tools that roll it out.
#
#   make deps           install the Debian packages needed (if missing)
#   make sources        fetch and verify the pinned kernel source (cache)
#   make kernel         build the patched QEMU test kernel (FLAVOR=virt)
#   make kernel FLAVOR=generic   the same series on Debian's full config
#   make tools          build the rafleet command
#   make check          unit tests (+ ASan/UBSan), kernel, QEMU tests
#
# The kernel source, build directories and ccache live in RAFLEET_CACHE,
# outside the repository; build output of the tools lives in out/.

RAFLEET_CACHE ?= /var/cache/rafleet
FLAVOR ?= virt
VARIANT ?= patched
export RAFLEET_CACHE

CC ?= cc
CFLAGS ?= -O2 -g
WARN := -std=c11 -D_GNU_SOURCE -pthread -Wall -Wextra -Werror -Wshadow -Wformat=2
LDLIBS := -lcrypto -ljson-c -pthread
OUT := out

LIB_SRC := $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJ := $(LIB_SRC:src/%.c=$(OUT)/obj/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(OUT)/unit/%)
GUEST_SRC := $(wildcard tests/vm/guest/*.c)
GUEST_BIN := $(GUEST_SRC:tests/vm/guest/%.c=$(OUT)/guest/%)

KBUILD := $(RAFLEET_CACHE)/build/$(FLAVOR)-$(VARIANT)
BZIMAGE := $(KBUILD)/arch/x86/boot/bzImage

.PHONY: all deps sources kernel tools unit unit-san fuzz vm vm-baseline check clean help

all: tools

help:
	@sed -n '2,13p' Makefile

# Debian packages the build and the tests need; installed if missing (root).
deps:
	@scripts/need-deps 2>/dev/null || scripts/install-deps

sources: deps
	scripts/fetch-sources $(RAFLEET_CACHE)

kernel: sources
	scripts/build-kernel $(RAFLEET_CACHE) $(FLAVOR) $(VARIANT)

tools: $(OUT)/rafleet $(GUEST_BIN)

$(OUT)/obj/%.o: src/%.c $(wildcard src/*.h)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -c -o $@ $<

$(OUT)/rafleet: $(OUT)/obj/main.o $(LIB_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(OUT)/unit/%: tests/unit/%.c $(LIB_OBJ) tests/unit/tap.h
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -Isrc -o $@ $< $(LIB_OBJ) $(LDLIBS)

$(OUT)/guest/%: tests/vm/guest/%.c $(LIB_OBJ) tests/unit/tap.h
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -Isrc -Itests/unit -o $@ $< $(LIB_OBJ) $(LDLIBS)

# Unit tests, then the same under AddressSanitizer and UBSan (own out dir).
unit: $(UNIT_BIN)
	tests/run-tap $(UNIT_BIN)

unit-san:
	$(MAKE) --no-print-directory OUT=$(OUT)/san \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		unit

# Fuzzing with libFuzzer (clang): a short run in make check, a long one for
# people (make fuzz FUZZ_SECONDS=600).
FUZZ_SECONDS ?= 20
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(OUT)/fuzz/%)
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

$(OUT)/fuzz/%: tests/fuzz/%.c $(LIB_SRC) $(wildcard src/*.h)
	@mkdir -p $(@D)
	clang $(WARN) $(FUZZ_FLAGS) -Isrc -o $@ $< $(LIB_SRC) $(LDLIBS)

fuzz: $(FUZZ_BIN)
	tests/run-fuzz $(FUZZ_SECONDS) $(FUZZ_BIN)

vm: tools kernel
	tests/vm/run $(BZIMAGE) $(GUEST_BIN)

# Linux 7.3.4 without the series, the same config: the counts the guest
# tests compare "feature off" with (recorded in tests/vm/guest/*.c).
vm-baseline: tools
	scripts/build-kernel $(RAFLEET_CACHE) virt vanilla
	RAFLEET_VM_SUITE=tests/vm/suite-baseline tests/vm/run \
		$(RAFLEET_CACHE)/build/virt-vanilla/arch/x86/boot/bzImage $(GUEST_BIN)

check:
	scripts/check

clean:
	rm -rf $(OUT)
