# rafleet: the readahead kernel and the tools that roll it out.
#
# The two commands (Debian bookworm, as root; both run `make deps` first):
#   make                the packages, as `make all` (out/rpm, out/deb, out/repo, out/apt)
#   make check          the tests, stage by stage; ends "N passed, M failed"
#
# Every target (tests/host/test_make_help checks each .PHONY one is here):
#   make all            = make packages, the default
#   make deps           install the Debian packages needed (if missing)
#   make sources        fetch and verify the pinned kernel source (cache)
#   make kernel         build the patched QEMU test kernel (FLAVOR=virt);
#                       FLAVOR=generic: Debian's full config; VARIANT=vanilla:
#                       7.3.4 without the series; VARIANT=debug: the series
#                       with KASAN, lockdep, DEBUG_VM, fault injection;
#                       RAFLEET_ARCH=arm64: cross-built for QEMU's arm64 virt
#                       machine, FLAVOR=virt-64k with 64K pages
#   make tools          build the rafleet command and the guest programs
#                       (OUT=out, CC=cc), then make layers; TEST_BUILD=1:
#                       OUT/rafleet is a test build, obeying the test-only
#                       variables of docs/environment.md (the tests' build;
#                       OUT/shipped/rafleet is always the shipped one)
#   make layers         link each layer of src/ over only the layers below it:
#                       an upward call fails to build
#   make install        install the tools (DESTDIR, PREFIX, UNITDIR...)
#   make packages       kernel (virt) and tools as RPM and DEB, their source
#                       packages, the dnf and apt repositories; FLAVOR=generic
#                       adds the fleet kernel's (patched) beside them;
#                       PKG_VARIANTS=debug the debug kernel's
#   make rpm            the RPMs only: the kernel's (PKG_VARIANTS), the tools (out/rpm)
#   make deb            the DEBs only (out/deb)
#   make repo           the signed dnf and apt repositories (out/repo, out/apt)
#   make unit           the unit tests (tests/unit/LAYER/test_*.c, TAP);
#                       RAFLEET_ARCH=arm64: cross-built, run under qemu-user
#   make unit-san       the unit tests under ASan and UBSan (OUT/san)
#   make fuzz           libFuzzer on each tests/fuzz target (FUZZ_SECONDS=20)
#   make vm             the guest tests in QEMU on the patched kernel;
#                       RAFLEET_ARCH=arm64 [FLAVOR=virt-64k] on arm64
#   make vm-baseline    the guest tests' counts on 7.3.4 without the series
#                       (RAFLEET_ARCH, FLAVOR: the page size's)
#   make vm-debug       the series under stress, sysctl flips and injected
#                       faults on the debug kernel (VARIANT=debug)
#   make trinity        Debian's trinity fuzzer on the debug kernel, aimed at the
#                       series' system calls on ext4, xfs and btrfs files, the
#                       switches flipping beside it (TRINITY_SECONDS=600 a file
#                       system; vm-debug runs it for 60)
#   make vm-stress      the stress of vm-debug repeated in one boot
#                       (STRESS_RUNS=5 rounds of STRESS_FS="ext4 xfs btrfs",
#                       STRESS_SECONDS=60 each, two files of STRESS_MIB=64;
#                       STRESS_VARIANT=debug, patched or vanilla with
#                       STRESS_FLIPS=noflip)
#   make vm-fragment    seed 000 on fragmented memory, debug kernel (make
#                       check runs it on the patched kernel, in vm-slow)
#   make kselftest      the kernel's own mm selftests (tests/vm/kselftest-list)
#                       built from the pinned source, on the patched kernel with
#                       every switch at 1 and at 0 and on 7.3.4: a test that
#                       passes on 7.3.4 and fails on ours fails (out/kselftest)
#   make kselftest-check the same for the list's make check subset
#   make vm-seed004     seed 004's benchmark, both switches on and off, in
#                       one boot on a throttled ext4 disk; RAFLEET_ARCH=arm64
#                       FLAVOR=virt-64k, where its cover letter measured
#   make vm-slow        the seeds' times, mmap_lock and the quadratic case on
#                       a throttled disk, patched kernel
#   make vm-canary      the canary in QEMU: calibrate, 2 A/A trials, seed 000,
#                       an injected regression, the guard
#   make vm-canary-full the canary in QEMU with 20 A/A trials and a +10 %
#                       loss injected on the throttled disk
#   make vm-kexec       the kernel rollback by kexec in QEMU
#   make vm-smoke-aa    the rollout guest with 20 A/A smoke trials across
#                       kexec (make check's runs 5) and the injected one
#   make demo           the host rollout on a booted guest, told step by step
#   make fleet          the Ansible rollout in waves on four QEMU guests
#   make trial-failures trial kernels that panic, hang, wedge: back by themselves
#   make node-grub      a Debian node with GRUB, through OVMF: install, trials, promote
#   make secure-boot    the shipped kernel under OVMF's Secure Boot: ours boots,
#                       unsigned and foreign-signed ones are refused
#   make shim-mok       Debian's Secure Boot chain (shim, GRUB, its kernel):
#                       MOK enrolment at MokManager, then ours boots and kexecs
#   make srpm-rebuild   rpmbuild --rebuild of the kernel's SRPM (a kernel build)
#   make pkg-boot       the arm64 kernels of the aarch64 RPMs and arm64 DEBs
#                       booted in QEMU: release, page size, sysctls, seed 000
#   make generic-boot   the fleet kernel (FLAVOR=generic) packaged, then booted
#                       from its packages: -core alone on virtio-scsi and AHCI,
#                       -modules on NVMe, the DEB on virtio (hours cold)
#   make guard-overhead what a running guard costs the workloads (a report,
#                       root; GUARD_ROUNDS)
#   make check-all      every stage of make check, also those whose inputs
#                       are those of a green run (make check skips them)
#   make ci             what CI runs (.ci/run): make check in a fresh root
#   make clean          remove the tools' build output (OUT)
#   make help           this list
#
# The kernel source, build directories and ccache live in RAFLEET_CACHE,
# outside the repository; build output of the tools lives in out/.
# README.md is the front door; docs/ has the rest.

RAFLEET_CACHE ?= /var/cache/rafleet
FLAVOR ?= virt
VARIANT ?= patched
# the kernel's architecture: x86_64 or arm64 (scripts/kernel-arch); not
# kbuild's generic ARCH, which a kernel developer's shell may hold for
# another tree (ARCH=x86): `make kernel vm RAFLEET_ARCH=arm64`.  The
# targets that take it: kernel, tools, install, unit, vm, vm-baseline,
# vm-seed004 (and a file of the tools); the others are x86_64's, and the
# packages are built for each of PKG_ARCHES whatever it says
# (scripts/build-rpm, build-deb --arch)
RAFLEET_ARCH ?= x86_64
export RAFLEET_CACHE

CC ?= cc
CFLAGS ?= -O2 -g
WARN := -std=c11 -D_GNU_SOURCE -pthread -Wall -Wextra -Werror -Wshadow -Wformat=2
LDLIBS := -lcrypto -ljson-c -lsystemd -lm -pthread
OUT := out
VERSION := $(shell cat VERSION)
# RAFLEET_ARCH=arm64 on another machine: the tools and guest programs
# cross-built (Debian's aarch64-linux-gnu-gcc) against Debian's arm64
# libraries, installed multiarch (scripts/deps.list's :arm64 packages, as a
# Debian cross build has them), into out/arm64; the unit tests run under
# qemu-user, which finds the arm64 libraries where multiarch put them
TAP_EXEC :=
ifneq ($(RAFLEET_ARCH),x86_64)
CROSS := $(shell scripts/kernel-arch --cross $(RAFLEET_ARCH) 2> /dev/null)
ifneq ($(CROSS),)
CC := $(CROSS)gcc
AR := $(CROSS)ar
OUT := out/$(RAFLEET_ARCH)
TAP_EXEC := $(shell scripts/kernel-arch --qemu-user $(RAFLEET_ARCH))
endif
endif

# The layers of src/, top first.  A folder calls only the folders below it
# (BELOW_*, listed top-down): its archive and its unit tests link against
# those alone, and `make layers` links each archive whole against only the
# layers below it, so an upward or sideways call fails to build.
LAYERS := cmd status guard rollout canary tune bench host lib
BELOW_lib :=
BELOW_host := lib
BELOW_bench := host lib
BELOW_tune := bench host lib
BELOW_canary := bench host lib
BELOW_rollout := bench host lib
BELOW_guard := rollout canary tune bench host lib
BELOW_status := guard rollout canary tune bench host lib
BELOW_cmd := status guard rollout canary tune bench host lib
layer_archives = $(foreach l,$(1),$(OUT)/lib/lib$(l).a)
layer_objs = $(patsubst src/%.c,$(OUT)/obj/%.o,$(wildcard src/$(1)/*.c))

SRC := $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c))
OBJ := $(SRC:src/%.c=$(OUT)/obj/%.o)
ARCHIVES := $(call layer_archives,$(LAYERS))
UNIT_SRC := $(foreach l,$(LAYERS),$(wildcard tests/unit/$(l)/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(OUT)/unit/%)
GUEST_SRC := $(wildcard tests/vm/guest/*.c)
GUEST_BIN := $(GUEST_SRC:tests/vm/guest/%.c=$(OUT)/guest/%)

KBUILD := $(shell RAFLEET_ARCH=$(RAFLEET_ARCH) scripts/build-kernel --obj $(RAFLEET_CACHE) $(FLAVOR) $(VARIANT) 2> /dev/null)
KIMAGE := $(shell RAFLEET_ARCH=$(RAFLEET_ARCH) scripts/build-kernel --image $(RAFLEET_CACHE) $(FLAVOR) $(VARIANT) 2> /dev/null)
# (the tests of the Makefile itself run copies of it without scripts/)
ifneq ($(wildcard scripts/build-kernel),)
ifeq ($(KIMAGE),)
$(error RAFLEET_ARCH=$(RAFLEET_ARCH): scripts/build-kernel names no kernel for it (x86_64 or arm64))
endif
endif
# what takes another architecture than x86_64 so far: these targets, and
# the files of the tools (the RPM's and DEB's builds: make build/rafleet)
ARCH_GOALS := deps sources kernel tools layers install unit vm vm-baseline vm-seed004 help clean
ifneq ($(RAFLEET_ARCH),x86_64)
# (the .PHONY lines, continued lines joined, as tests/host/test_make_help reads them)
X86_GOALS := $(filter-out $(ARCH_GOALS),$(shell sed -e ':a' -e '/\\$$/{N;s/\\\n//;ba' -e '}' Makefile 2> /dev/null | \
	sed -n 's/^\.PHONY://p'))
ifneq ($(filter $(X86_GOALS),$(or $(MAKECMDGOALS),all)),)
$(error make $(filter $(X86_GOALS),$(or $(MAKECMDGOALS),all)) is x86_64's alone; RAFLEET_ARCH=$(RAFLEET_ARCH) takes $(ARCH_GOALS))
endif
endif

.PHONY: all deps sources kernel tools layers install packages rpm deb repo srpm-rebuild \
	pkg-boot unit unit-san fuzz vm vm-baseline vm-debug vm-stress vm-fragment vm-slow vm-seed004 vm-canary vm-canary-full vm-kexec vm-smoke-aa kselftest kselftest-check trinity demo fleet trial-failures node-grub secure-boot shim-mok generic-boot check check-all ci clean help

all: packages

help:
	@sed -n '1,/^$$/{/^$$/d;s/^# \{0,1\}//;p}' Makefile

# Debian packages the build and the tests need; installed if missing (root).
deps:
	@scripts/need-deps 2>/dev/null || scripts/install-deps

sources: deps
	scripts/fetch-sources $(RAFLEET_CACHE)

kernel: sources
	RAFLEET_ARCH=$(RAFLEET_ARCH) scripts/build-kernel $(RAFLEET_CACHE) $(FLAVOR) $(VARIANT)

tools: $(OUT)/rafleet $(OUT)/shipped/rafleet $(GUEST_BIN) layers

$(OUT)/obj/%.o: src/%.c VERSION
	@mkdir -p $(@D)
	$(CC) $(WARN) -MMD -MP -Isrc -DRAFLEET_VERSION='"$(VERSION)"' $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# kept: the archives are made of them, rebuilt one object at a time
.SECONDARY: $(OBJ) $(OUT)/obj/main.o $(ARCHIVES:.a=.list)

-include $(OBJ:.o=.d) $(OUT)/obj/main.d $(OUT)/obj/lib/env-test.d

# one archive per layer, rebuilt whole when a file of the folder changes,
# joins it or leaves it: lib%.list holds the members and is rewritten
# only when they change (so a file taken out leaves the archive too)
.SECONDEXPANSION:
$(OUT)/lib/lib%.list: FORCE
	@mkdir -p $(@D)
	@echo '$(call layer_objs,$*)' | cmp -s - $@ 2>/dev/null || echo '$(call layer_objs,$*)' > $@

$(OUT)/lib/lib%.a: $$(call layer_objs,$$*) $(OUT)/lib/lib%.list
	@rm -f $@
	$(AR) rcs $@ $(filter %.o,$^)

# a target with no recipe and no file, so always remade (GNU make's FORCE;
# not .PHONY, which is the user's targets, each in `make help`)
FORCE:

# The test build: the one file that reads the environment (lib/env.c)
# compiled with RAFLEET_TEST_BUILD, linked ahead of the archives (whose
# env.o is the shipped one), so that the test-only variables of
# docs/environment.md are obeyed.  TEST_BUILD=1 makes OUT/rafleet one
# (scripts/check exports it); the default, and the packages (which say
# TEST_BUILD=0 themselves), build the shipped binary.  The unit tests and
# guest programs always link the test one; OUT/shipped/rafleet is always
# the shipped one (tests/host/test_attacker runs both).
TEST_BUILD ?= 0
# the targets that run the tools with test switches build a test one
vm-canary vm-canary-full vm-kexec vm-smoke-aa trial-failures node-grub generic-boot fleet: TEST_BUILD = 1
ENV_TEST_OBJ := $(OUT)/obj/lib/env-test.o
$(ENV_TEST_OBJ): src/lib/env.c VERSION
	@mkdir -p $(@D)
	$(CC) $(WARN) -MMD -MP -Isrc -DRAFLEET_TEST_BUILD -DRAFLEET_VERSION='"$(VERSION)"' $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# rewritten only when TEST_BUILD changes: OUT/rafleet is relinked then
$(OUT)/test-build.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(TEST_BUILD)' | cmp -s - $@ 2>/dev/null || echo '$(TEST_BUILD)' > $@

$(OUT)/rafleet: $(OUT)/obj/main.o $(ENV_TEST_OBJ) $(ARCHIVES) $(OUT)/test-build.stamp
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OUT)/obj/main.o \
		$(if $(filter 1,$(TEST_BUILD)),$(ENV_TEST_OBJ)) $(ARCHIVES) $(LDLIBS)

$(OUT)/shipped/rafleet: $(OUT)/obj/main.o $(ARCHIVES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# layers: each layer's archive linked whole over only the layers below it
# (tests/build/layer-main.c is an empty main); an upward call is an
# undefined reference.
LAYER_BIN := $(LAYERS:%=$(OUT)/layers/%)
layers: $(LAYER_BIN)
$(OUT)/layers/%: tests/build/layer-main.c $(OUT)/lib/lib%.a $$(call layer_archives,$$(BELOW_$$*))
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -Wl,--whole-archive $(OUT)/lib/lib$*.a \
		-Wl,--no-whole-archive $(call layer_archives,$(BELOW_$*)) $(LDLIBS)

# a unit test links against its own folder's layer and those below it
$(OUT)/unit/%: tests/unit/%.c $(ARCHIVES) $(ENV_TEST_OBJ) $(wildcard tests/unit/*.h)
	@mkdir -p $(@D)
	$(CC) $(WARN) -MMD -MP $(CFLAGS) -Isrc -Itests/unit -o $@ $< $(ENV_TEST_OBJ) \
		$(call layer_archives,$(firstword $(subst /, ,$*)) $(BELOW_$(firstword $(subst /, ,$*)))) $(LDLIBS)

-include $(UNIT_BIN:=.d)

$(OUT)/guest/%: tests/vm/guest/%.c $(ARCHIVES) $(ENV_TEST_OBJ) tests/unit/tap.h $(wildcard tests/vm/guest/*.h)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -Isrc -Itests/unit -o $@ $< $(ENV_TEST_OBJ) $(call layer_archives,$(LAYERS)) $(LDLIBS)

# Where `make install` puts the tools.  The RPM takes the defaults (the
# FHS paths of Fedora and of merged-/usr Debian); debian/rules sets the
# Debian bookworm unit directories.
DESTDIR ?=
PREFIX ?= /usr
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
PRESETDIR ?= $(PREFIX)/lib/systemd/system-preset
SYSCTLDIR ?= $(PREFIX)/lib/sysctl.d
KERNELINSTALLDIR ?= $(PREFIX)/lib/kernel/install.d
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/rafleet
STATEDIR ?= /var/lib/rafleet
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
# dnf's plugin directory: empty, no dnf plugin (the DEB); the RPM names it
DNFPLUGINDIR ?=

# a test build (TEST_BUILD=1) is never installed: it obeys the test switches
install: $(OUT)/rafleet
	@if [ "$$(cat $(OUT)/test-build.stamp 2>/dev/null)" = 1 ]; then \
		echo "make install: $(OUT)/rafleet is a test build (TEST_BUILD=1): not installed; make TEST_BUILD=0 install"; exit 1; fi
	install -D -m 0755 $(OUT)/rafleet $(DESTDIR)$(PREFIX)/bin/rafleet
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/fio $(DESTDIR)$(STATEDIR)
	install -m 0644 man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 fio/*.fio $(DESTDIR)$(DATADIR)/fio/
	install -D -m 0644 systemd/rafleet-smoke.service $(DESTDIR)$(UNITDIR)/rafleet-smoke.service
	install -m 0644 systemd/rafleet-promote.service systemd/rafleet-rollback-kernel.service \
		systemd/rafleet-trial-watch.service systemd/rafleet-health.service systemd/rafleet-recover.service \
		systemd/rafleet-guard.service systemd/rafleet-guard.timer $(DESTDIR)$(UNITDIR)/
	install -D -m 0644 systemd/80-rafleet.preset $(DESTDIR)$(PRESETDIR)/80-rafleet.preset
	install -D -m 0644 sysctl/50-rafleet.conf $(DESTDIR)$(SYSCTLDIR)/50-rafleet.conf
	install -D -m 0755 kernel-install/50-rafleet-dracut.install \
		$(DESTDIR)$(KERNELINSTALLDIR)/50-rafleet-dracut.install
	install -D -m 0755 kernel-install/05-rafleet-pin.install \
		$(DESTDIR)$(KERNELINSTALLDIR)/05-rafleet-pin.install
	install -D -m 0755 kernel-install/99-rafleet-pin.install \
		$(DESTDIR)$(KERNELINSTALLDIR)/99-rafleet-pin.install
	install -D -m 0755 etc/kernel/preinst.d-rafleet-pin $(DESTDIR)$(SYSCONFDIR)/kernel/preinst.d/rafleet-pin
	install -D -m 0755 etc/kernel/prerm.d-rafleet $(DESTDIR)$(SYSCONFDIR)/kernel/prerm.d/rafleet
	install -D -m 0644 etc/grub.d-default/rafleet.cfg $(DESTDIR)$(SYSCONFDIR)/default/grub.d/rafleet.cfg
	install -D -m 0755 etc/grub.d/42_rafleet $(DESTDIR)$(SYSCONFDIR)/grub.d/42_rafleet
	install -D -m 0644 etc/smoke.conf $(DESTDIR)$(SYSCONFDIR)/rafleet/smoke.conf
	install -D -m 0644 etc/trial.conf $(DESTDIR)$(SYSCONFDIR)/rafleet/trial.conf
	install -d $(DESTDIR)$(SYSCONFDIR)/rafleet/health/required.d \
		$(DESTDIR)$(SYSCONFDIR)/rafleet/health/wanted.d \
		$(DESTDIR)$(PREFIX)/lib/rafleet/health/required.d $(DESTDIR)$(PREFIX)/lib/rafleet/health/wanted.d
	install -m 0755 health/required.d/* $(DESTDIR)$(PREFIX)/lib/rafleet/health/required.d/
	install -D -m 0644 etc/tune.conf $(DESTDIR)$(SYSCONFDIR)/rafleet/tune.conf
	install -D -m 0644 udev/60-rafleet-tune.rules $(DESTDIR)$(UDEVRULESDIR)/60-rafleet-tune.rules
	install -D -m 0644 systemd/rafleet-tune@.service $(DESTDIR)$(UNITDIR)/rafleet-tune@.service
	if [ -n "$(DNFPLUGINDIR)" ]; then \
		install -D -m 0644 dnf-plugin/rafleet.py $(DESTDIR)$(DNFPLUGINDIR)/rafleet.py && \
		install -D -m 0644 dnf-plugin/rafleet.conf $(DESTDIR)$(SYSCONFDIR)/dnf/plugins/rafleet.conf; fi

# Packages.  The kernel RPM is built by rpmbuild from the pinned source and
# patches/series (SPECS/kernel-rafleet.spec), through the same ccache as
# `make kernel`; the kernel DEB is bindeb-pkg over the test kernel's own
# build directory.  Both variants: the patched kernel, and Linux 7.3.4
# without the series (release 0.vanilla), the "previous kernel" of a host
# (each variant from its own source tree: scripts/prep-tree).
# The generic flavour (FLAVOR=generic, the fleet kernel; hours to build on
# two cores) is packaged patched only: its tests need no previous kernel.
PKG_VARIANTS ?= $(if $(filter virt,$(FLAVOR)),vanilla patched,patched)
# What makes a kernel package: the series, the configs, and the build
# script of its kind (a change to build-deb does not rebuild the RPMs);
# the DEBs' release comes from the spec's pkgrel (scripts/kernel-release).
KERNEL_INPUTS := $(wildcard patches/*) $(wildcard SOURCES/*) scripts/mkconfig scripts/kernel-release scripts/kernel-arch
KERNEL_RPM_INPUTS := $(KERNEL_INPUTS) SPECS/kernel-rafleet.spec scripts/build-rpm
KERNEL_DEB_INPUTS := $(KERNEL_INPUTS) scripts/build-deb SPECS/kernel-rafleet.spec debian/kernel.changelog
TOOLS_INPUTS := $(shell git ls-files -co --exclude-standard src man fio systemd sysctl \
	etc health udev kernel-install dnf-plugin debian SPECS/rafleet.spec Makefile VERSION LICENSE 2>/dev/null)

# The architectures the packages are built for (scripts/kernel-arch's
# names): x86_64's are every flavour and variant above; arm64's
# (cross-built: scripts/build-rpm, build-deb --arch) are the patched kernel
# of each of PKG_ARM64_FLAVORS, virt with 4K pages and virt-64k with 64K
# pages (kernel-rafleet-virt-64k, as RHEL's kernel-64k; the generic
# flavour's hours of compile are not in `make`), and the tools.
PKG_ARCHES ?= x86_64 arm64
PKG_ARM64_FLAVORS ?= virt virt-64k
# the architectures beside x86_64 (whose flavours are PKG_ARM64_FLAVORS:
# arm64 is the only one)
PKG_OTHER_ARCHES := $(filter-out x86_64,$(PKG_ARCHES))

# an architecture's package names (scripts/kernel-arch): x86_64/aarch64, amd64/arm64
rpm_arch = $(shell scripts/kernel-arch --rpm $(1))
deb_arch = $(shell scripts/kernel-arch --deb $(1))

packages: rpm deb repo
	@echo "packages: $$(ls out/rpm/*.rpm | grep -vc '\.src\.rpm$$') RPMs ($(foreach a,$(PKG_ARCHES),$$(ls out/rpm/*.$(call rpm_arch,$(a)).rpm | wc -l) $(call rpm_arch,$(a)))) and $$(ls out/rpm/*.src.rpm | wc -l) SRPMs in $(CURDIR)/out/rpm," \
		"$$(ls out/deb/*.deb | wc -l) DEBs ($(foreach a,$(PKG_ARCHES),$$(ls out/deb/*_$(call deb_arch,$(a)).deb | wc -l) $(call deb_arch,$(a)))) and $$(ls out/deb/*.dsc | wc -l) source package in $(CURDIR)/out/deb," \
		"the signed dnf repository in $(CURDIR)/out/repo," \
		"the signed apt repository in $(CURDIR)/out/apt"

# One set of kernel packages per architecture, flavour and variants, with
# a stamp, a cache kind and file names of its own: out/rpm and out/deb (and
# so the repositories) hold the virt packages of `make` beside the generic
# ones of `make packages FLAVOR=generic`, the debug ones of
# PKG_VARIANTS=debug and arm64's, and building one set neither removes nor
# replaces another's.  The names are scripts/kernel-release's, with the
# release: kernel-rafleet[-virt][-64k][-debug][-core|-modules|-devel]-7.3.4-
# RELEASE.{x86_64,aarch64,src}.rpm (vanilla and patched share a name; the
# source package of a name both architectures build is x86_64's) and
# linux-{image,headers}-UNAME_*_{amd64,arm64}.deb, the meta package with
# the patched kernel.  Files of an older release stay until `make clean`.
empty :=
space := $(empty) $(empty)
# pkg_set ARCH FLAVOR VARIANTS: the set's name (x86_64's keep theirs:
# virt-vanilla-patched; arm64-virt-64k-patched)
pkg_set = $(if $(filter x86_64,$(1)),,$(1)-)$(2)-$(subst $(space),-,$(strip $(3)))
krel = $(shell scripts/kernel-release $(1) $(2) $(3))
# rpm_globs ARCH FLAVOR VARIANTS: the set's RPMs, and its source package
# where it ships one (x86_64's, and the flavours only arm64 has: -64k)
rpm_globs = $(foreach v,$(3),$(foreach s,- -core- -modules- -devel-,\
	$(call krel,--name,$(2),$(v))$(s)7.3.4-$(call krel,--release,$(2),$(v)).$(call rpm_arch,$(1)).rpm) \
	$(if $(or $(filter x86_64,$(1)),$(filter %-64k,$(2))),$(call krel,--name,$(2),$(v))-7.3.4-$(call krel,--release,$(2),$(v)).src.rpm)) \
	RPM-GPG-KEY-rafleet
deb_globs = $(foreach v,$(3),linux-image-7.3.4$(call krel,,$(2),$(v))_*_$(call deb_arch,$(1)).deb \
	linux-headers-7.3.4$(call krel,,$(2),$(v))_*_$(call deb_arch,$(1)).deb) \
	$(if $(filter patched,$(3)),$(call krel,--deb-meta,$(2),patched)_*_$(call deb_arch,$(1)).deb)

# kernel_pkgs ARCH FLAVOR VARIANTS: the rules of one set.  The kernel
# packages are built once per set of inputs (scripts/pkg-cache: the same
# inputs, the packages of the build that had them, from RAFLEET_CACHE;
# RAFLEET_PKG_REBUILD=1 builds anyway); the DEBs are bindeb-pkg over
# `make kernel`'s build directory, whose image later steps boot.
define kernel_pkgs
KERNEL_RPM_STAMPS += out/rpm/.kernel-$(call pkg_set,$(1),$(2),$(3))-stamp
KERNEL_DEB_STAMPS += out/deb/.kernel-$(call pkg_set,$(1),$(2),$(3))-stamp
out/rpm/.kernel-$(call pkg_set,$(1),$(2),$(3))-stamp: $$(KERNEL_RPM_INPUTS) | sources
	PKG_CACHE_INPUTS="$$(KERNEL_RPM_INPUTS) scripts/build-kernel scripts/pkg-cache" \
	$$(PKG_CACHE) kernel-rpm-$(call pkg_set,$(1),$(2),$(3)) $$(RAFLEET_CACHE) out/rpm '$$(strip $$(call rpm_globs,$(1),$(2),$(3)))' -- \
		scripts/build-rpm --arch $(1) kernel $$(RAFLEET_CACHE) out/rpm $(2) $(3)
	@touch $$@
out/deb/.kernel-$(call pkg_set,$(1),$(2),$(3))-stamp: $$(KERNEL_DEB_INPUTS) | sources
	PKG_CACHE_INPUTS="$$(KERNEL_DEB_INPUTS) scripts/build-kernel scripts/pkg-cache" \
	PKG_CACHE_NEEDS="$$(foreach v,$(3),$$(shell RAFLEET_ARCH=$(1) scripts/build-kernel --image $$(RAFLEET_CACHE) $(2) $$(v)))" \
	$$(PKG_CACHE) kernel-deb-$(call pkg_set,$(1),$(2),$(3)) $$(RAFLEET_CACHE) out/deb '$$(strip $$(call deb_globs,$(1),$(2),$(3)))' -- \
		scripts/build-deb --arch $(1) kernel $$(RAFLEET_CACHE) out/deb $(2) $(3)
	@touch $$@
endef
PKG_CACHE = scripts/pkg-cache
$(if $(filter x86_64,$(PKG_ARCHES)),$(eval $(call kernel_pkgs,x86_64,$(FLAVOR),$(PKG_VARIANTS))))
$(foreach a,$(PKG_OTHER_ARCHES),$(foreach f,$(PKG_ARM64_FLAVORS),$(eval $(call kernel_pkgs,$(a),$(f),patched))))

rpm: $(KERNEL_RPM_STAMPS) $(PKG_ARCHES:%=out/rpm/.tools-%-stamp)
deb: $(KERNEL_DEB_STAMPS) $(PKG_ARCHES:%=out/deb/.tools-%-stamp)

out/rpm/.tools-%-stamp: $(TOOLS_INPUTS) scripts/build-rpm | deps
	scripts/build-rpm --arch $* tools $(RAFLEET_CACHE) out/rpm
	@touch $@
out/deb/.tools-%-stamp: $(TOOLS_INPUTS) scripts/build-deb | deps
	scripts/build-deb --arch $* tools $(RAFLEET_CACHE) out/deb
	@touch $@

repo: rpm deb | deps
	scripts/make-repo rpm out/rpm out/repo
	scripts/make-repo apt out/deb out/apt

# pkg-boot: the arm64 kernels out of the aarch64 RPMs and arm64 DEBs,
# booted with the arm64 guest programs (tests/host/test_package_boot)
pkg-boot: packages
	$(MAKE) --no-print-directory tools RAFLEET_ARCH=arm64
	tests/host/test_package_boot out/rpm out/deb out/arm64/guest

# Unit tests, then the same under AddressSanitizer and UBSan (own out dir).
unit: $(UNIT_BIN)
	RAFLEET_TAP_EXEC="$(TAP_EXEC)" tests/run-tap $(UNIT_BIN)

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

$(OUT)/fuzz/%: tests/fuzz/%.c $(SRC) $(wildcard src/*/*.h)
	@mkdir -p $(@D)
	clang $(WARN) $(FUZZ_FLAGS) -Isrc -o $@ $< $(SRC) $(LDLIBS)

fuzz: $(FUZZ_BIN)
	tests/run-fuzz $(FUZZ_SECONDS) $(FUZZ_BIN)

vm: tools kernel
	RAFLEET_ARCH=$(RAFLEET_ARCH) tests/vm/run $(KIMAGE) $(GUEST_BIN)


# Linux 7.3.4 without the series, the same config: the counts the guest
# tests compare "feature off" with (recorded in tests/vm/guest/*.c).
# vm-canary: calibrate, A/A trials, seed 000's improvement and an injected
# regression, in one boot; vm-canary-full runs 20 A/A trials instead of 2,
# and injects a loss of about 10 % on the throttled disk (the slow one).
# The canary flips a feature's switch twice a pair, hundreds of times a
# boot: its guest has one vCPU, so that no other vCPU can run a stale
# translation of the static branch just patched (tests/vm/guest-status;
# with two, an "Oops: int3" in CI of 18a12bc, 332 s in).
CANARY_GUEST := $(GUEST_BIN) $(OUT)/rafleet /lib/systemd/systemd-sysctl
vm-canary: tools kernel
	RAFLEET_VM_SUITE=tests/vm/suite-canary tests/vm/run $(KIMAGE) $(CANARY_GUEST)

vm-canary-full: tools kernel
	RAFLEET_VM_EXTRA=slow RAFLEET_VM_SUITE=tests/vm/suite-canary-full \
		tests/vm/run $(KIMAGE) $(CANARY_GUEST)

# demo: the whole host rollout on a booted systemd guest, told as it goes,
# then a report (scripts/demo; the same test as make check's rollout-guest).
demo: packages tools
	scripts/demo

# vm-kexec: stage from the vanilla kernel into the patched one, a smoke run
# that crashes, and the rollback by kexec (the vanilla build comes from
# `make packages`, or scripts/build-kernel $(RAFLEET_CACHE) virt vanilla).
vm-kexec: tools
	tests/vm/kexec-rollback $(RAFLEET_CACHE)/build/$(FLAVOR)-vanilla $(KBUILD) $(OUT)/rafleet

# vm-smoke-aa: the rollout guest (make check's rollout-guest) with 20 A/A
# trials across kexec at the shipped smoke settings, none may roll back,
# then the trial with read_ahead_kb 128 injected, which must
vm-smoke-aa: packages tools
	RAFLEET_SMOKE_AA=20 tests/host/test_rollout_guest $(RAFLEET_CACHE) out/repo $(OUT)/guest/ra_inject

# vm-debug: the debug kernel (KASAN, lockdep, DEBUG_VM, hung tasks, fault
# injection) under tests/vm/suite-debug, on writable scratch disks, with
# two vCPUs on one host thread (its switch flips; tests/vm/guest-status).
# loglevel=5 keeps fail_function's notices (one per injected failure) off
# the serial console; warnings and errors (KASAN, lockdep, hung tasks),
# which the harness reads there, still show.
DEBUG_BZIMAGE := $(RAFLEET_CACHE)/build/$(FLAVOR)-debug/arch/x86/boot/bzImage
vm-debug: tools
	scripts/build-kernel $(RAFLEET_CACHE) $(FLAVOR) debug bzImage
	QEMU_TCG_SMP=2 QEMU_TCG_THREAD=single RAFLEET_VM_SUITE=tests/vm/suite-debug RAFLEET_VM_EXTRA="rw slow" RAFLEET_VM_WORK=out/vm-debug \
		RAFLEET_VM_APPEND=loglevel=5 \
		RAFLEET_VM_TIMEOUT=$${RAFLEET_VM_TIMEOUT:-2400} \
		tests/vm/run $(DEBUG_BZIMAGE) $(GUEST_BIN)

# trinity: Debian's system-call fuzzer (tests/vm/guest/test_trinity.c) as
# user nobody on files of the writable ext4, xfs and btrfs disks, aimed at
# the calls the series touches, while the six switches flip; on the debug
# kernel with two vCPUs, as vm-debug.  Any kernel report, new taint or
# hang fails it.  TRINITY_SECONDS a file system (vm-debug: 60).
TRINITY_SECONDS ?= 600
TRINITY_BIN = $(shell command -v trinity 2> /dev/null)
trinity: tools
	scripts/build-kernel $(RAFLEET_CACHE) $(FLAVOR) debug bzImage
	@[ -n "$(TRINITY_BIN)" ] || { echo "not ok - trinity is not installed (scripts/deps.list)"; exit 1; }
	echo "test_trinity $(TRINITY_SECONDS) /mnt/rw-ext4 /mnt/rw-xfs /mnt/rw-btrfs" > $(OUT)/trinity.suite
	QEMU_TCG_SMP=2 QEMU_TCG_THREAD=single RAFLEET_VM_SUITE=$(OUT)/trinity.suite RAFLEET_VM_EXTRA="rw slow" \
		RAFLEET_VM_WORK=out/vm-trinity RAFLEET_VM_APPEND=loglevel=5 \
		RAFLEET_VM_TIMEOUT=$$(( 3 * ($(TRINITY_SECONDS) + 240) + 600 )) \
		tests/vm/run $(DEBUG_BZIMAGE) $(GUEST_BIN) $(TRINITY_BIN)

# kselftest, kselftest-check: the kernel's own mm selftests, built from the
# pinned 7.3.4 tree (scripts/prep-tree's vanilla tree, which stays
# untouched: tests/vm/kselftest-build), in the guest on the patched kernel
# (every switch at 1, then at 0) and on 7.3.4 (tests/vm/kselftest: the
# table in out/kselftest/table.md, known failures in
# tests/vm/kselftest-known).  kselftest-check: the list's check subset.
KSFT_BIN := $(OUT)/kselftest-build
kselftest kselftest-check: tools kernel
	scripts/build-kernel $(RAFLEET_CACHE) $(FLAVOR) vanilla
	tests/vm/kselftest-build $$(scripts/prep-tree --tree $(RAFLEET_CACHE) vanilla) $(KSFT_BIN)
	tests/vm/kselftest $(if $(filter kselftest-check,$@),check,all) $(KIMAGE) \
		$$(scripts/build-kernel --image $(RAFLEET_CACHE) $(FLAVOR) vanilla) $(KSFT_BIN)/bin $(OUT)/guest/run_as

# vm-stress: test_ra_stress again and again in one boot, to chase a hang
# seen once (docs/testing.md).  Every round runs and is reported; one that
# overruns dumps its blocked tasks (sysrq-w) and fails.
STRESS_RUNS ?= 5
STRESS_SECONDS ?= 60
STRESS_MIB ?= 64
STRESS_VARIANT ?= debug
STRESS_FLIPS ?= flip
STRESS_FS ?= ext4 xfs btrfs
STRESS_WORK := $(OUT)/vm-stress-$(STRESS_VARIANT)
vm-stress: tools
	scripts/build-kernel $(RAFLEET_CACHE) $(FLAVOR) $(STRESS_VARIANT) bzImage
	for i in $$(seq $(STRESS_RUNS)); do for fs in $(STRESS_FS); do \
		echo "test_ra_stress /mnt/rw-$$fs $(STRESS_SECONDS) $(STRESS_MIB) $(STRESS_FLIPS)"; done; done > $(OUT)/stress-$(STRESS_VARIANT).suite
	QEMU_TCG_SMP=2 QEMU_TCG_THREAD=single RAFLEET_VM_SUITE=$(OUT)/stress-$(STRESS_VARIANT).suite RAFLEET_VM_EXTRA=rw RAFLEET_VM_WORK=$(STRESS_WORK) \
		RAFLEET_VM_APPEND=loglevel=5 \
		RAFLEET_VM_TIMEOUT=$$(( $(STRESS_RUNS) * $(words $(STRESS_FS)) * ($(STRESS_SECONDS) + 150) + 300 )) \
		tests/vm/run $(RAFLEET_CACHE)/build/$(FLAVOR)-$(STRESS_VARIANT)/arch/x86/boot/bzImage $(GUEST_BIN)

# vm-fragment: seed 000's fragmented-memory table on the debug kernel
# (tests/vm/suite-fragment); make check runs the same test on the
# patched kernel in vm-slow, alone, since it compares system times.
vm-fragment: tools
	scripts/build-kernel $(RAFLEET_CACHE) $(FLAVOR) debug bzImage
	RAFLEET_VM_SUITE=tests/vm/suite-fragment RAFLEET_VM_WORK=out/vm-fragment \
		tests/vm/run $(DEBUG_BZIMAGE) $(GUEST_BIN)

# vm-seed004: seed 004's cover-letter benchmark (tests/vm/suite-seed004)
vm-seed004: tools kernel
	RAFLEET_ARCH=$(RAFLEET_ARCH) RAFLEET_VM_SUITE=tests/vm/suite-seed004 RAFLEET_VM_EXTRA=slow-ext4 \
		RAFLEET_VM_WORK=$(OUT)/vm-seed004 tests/vm/run $(KIMAGE) $(GUEST_BIN)

# vm-slow: times as same-boot ratios on a disk with a per-request cost
# (tests/vm/suite-slow), the patched kernel; nothing else may load the
# host while it runs.
vm-slow: tools kernel
	RAFLEET_VM_SUITE=tests/vm/suite-slow RAFLEET_VM_EXTRA="rw slow" RAFLEET_VM_WORK=out/vm-slow \
		tests/vm/run $(KIMAGE) $(GUEST_BIN)

vm-baseline: tools
	RAFLEET_ARCH=$(RAFLEET_ARCH) scripts/build-kernel $(RAFLEET_CACHE) $(FLAVOR) vanilla
	RAFLEET_ARCH=$(RAFLEET_ARCH) RAFLEET_VM_SUITE=tests/vm/suite-baseline RAFLEET_VM_WORK=$(OUT)/vm-baseline \
		tests/vm/run $$(RAFLEET_ARCH=$(RAFLEET_ARCH) scripts/build-kernel --image $(RAFLEET_CACHE) $(FLAVOR) vanilla) \
		$(GUEST_BIN)

# check runs the stages whose inputs changed since their last green run
# (scripts/check-lib.sh); check-all runs every stage.
check:
	scripts/check

check-all:
	RAFLEET_CHECK_ALL=1 scripts/check

# trial-failures: on a booted node, trials that panic (LKDTM), hang hard
# (the watchdog), wedge (the deadline), lose their network (the health
# gate), a promote killed then a reset, a demotion, the one-shot trials,
# and three promotes that reset the machine inside their writes on the
# ESP: each back on the previous kernel by itself (about 29 min).
trial-failures: packages tools
	RAFLEET=$(OUT)/rafleet tests/host/test_trial_failures $(RAFLEET_CACHE) out/repo

# node-grub: a Debian node that boots with GRUB through OVMF: apt installs
# rafleet and our kernel (the default stays), a kexec trial and a one-shot
# trial through GRUB that panic, one that is promoted, its demotion, each
# followed by a cold start, and two promotes that reset the machine inside
# their write of grubenv (tests/host/test_node_grub; `make check` runs it).
node-grub: packages tools
	RAFLEET=$(OUT)/rafleet tests/host/test_node_grub $(RAFLEET_CACHE) out/deb

# secure-boot: the kernel image kernel-rafleet-virt-core ships, under OVMF's
# Secure Boot firmware with Debian's snakeoil keys, after our certificate
# is appended to db: systemd-boot and the kernel signed by the kept key
# boot, the same image unsigned or signed by another key is refused
# (tests/host/test_secure_boot; `make check` runs it; about 1 min).
secure-boot: packages
	tests/host/test_secure_boot $(RAFLEET_CACHE) out/rpm

# shim-mok: Secure Boot as a Debian host has it (OVMF with Microsoft's keys,
# shim, Debian's GRUB and kernel, from Debian's archive by
# scripts/fetch-sb-chain): our DEB's image is refused, then its
# certificate is enrolled with mokutil --import and MokManager at the
# serial console, and GRUB boots it, and Debian's locked-down kernel
# kexecs it with kexec -s (tests/host/test_shim_mok; `make check` runs it;
# about 1.5 min).
shim-mok: packages
	tests/host/test_shim_mok $(RAFLEET_CACHE) out/deb

# srpm-rebuild: the kernel's SRPM (out/rpm) rebuilds its binary RPMs with
# the same files (tests/host/test_srpm_rebuild; about 5 min, warm ccache).
srpm-rebuild: packages
	RAFLEET_FLAVOR=$(FLAVOR) tests/host/test_srpm_rebuild $(RAFLEET_CACHE) out/rpm

# generic-boot: the fleet kernel, Debian's config with the series
# (FLAVOR=generic), as RPMs (SELinux first) and DEBs (AppArmor first) in
# the repositories beside virt's, then booted in QEMU from them
# (tests/host/test_generic_boot): -core alone from virtio-scsi and AHCI
# disks, -modules added from NVMe, the DEB from virtio-blk.  Not in `make
# check`: the kernel alone takes hours on two cores from a cold ccache.
generic-boot: tools
	$(MAKE) --no-print-directory packages FLAVOR=generic
	RAFLEET=$(OUT)/rafleet tests/host/test_generic_boot $(RAFLEET_CACHE) out/repo out/apt

# ci: .ci/run, make check in a fresh minimal bookworm root where
# scripts/install-deps installs everything (scripts/fresh-root).
ci:
	.ci/run

# fleet: the fleet rollout in waves with Ansible on four QEMU guests, the
# first an apt host (out/apt), the others dnf hosts (out/repo), one with an
# injected regression, one whose trial kernel panics
# (tests/host/test_fleet; `make check` runs it).
fleet: packages tools
	RAFLEET=$(OUT)/rafleet tests/host/test_fleet $(RAFLEET_CACHE) out/repo $(OUT)/guest/ra_inject out/apt

# What a running `rafleet guard` costs the workloads it watches: bench
# times with and without it (a report, not a test; root).
.PHONY: guard-overhead
guard-overhead: $(OUT)/rafleet
	tests/host/guard-overhead $(OUT)/rafleet $(GUARD_ROUNDS)

clean:
	rm -rf $(OUT)
