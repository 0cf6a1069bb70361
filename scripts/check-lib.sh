# check-lib.sh: the stages of scripts/check, sourced by it (and by
# tests/host/test_check_keys): a stage's run, its count, its time, and
# its record when green.  The caller sets: cache, TEST_BUILD, passed,
# failed, skipped, summary, failures; st_in (a stage's input class),
# st_extra (files of a stage besides its class) and ci_core (the stages
# CI=true always runs).
# shellcheck shell=bash
# ---- stages keyed by their inputs (issue 44) ----
# A stage that passed whole (no test failed, exit 0) leaves a record in
# $cache/check/green, named by its key: a hash of the stage's name and
# command, of the harness's version (check_version), of the content,
# mode and symlink target of every file it depends on (its inputs: below)
# as the run found them at its start (check_snapshot), and of the machine
# and environment it ran on (env_key_now).  The next `make check` does
# not run a stage whose key has a record: its inputs are byte for byte
# those of a green run.  It says so, with the commit and the count of
# that run.  `make check-all` (RAFLEET_CHECK_ALL=1) runs every stage.
# Under CI=true the core (the tools' builds, unit, unit-san, the host
# tests, the x86 guest suite, the rollout guest) always runs; the rest
# only where no record matches.  A record from another machine's package
# set never matches: CI's fresh root has exactly what install-deps
# installs, so only a run in such a root (.ci/run) serves CI.
# The builds (tools, kernels, packages) always run: later stages need
# their output, and they cost little when nothing changed (ccache, the
# pkg-cache).
# The harness's version, in every key.  scripts/check and this file are
# no class's input (else a change to a comment here would run every stage
# again): bump it when a change to them alters what a green record means
# (how a stage's tests are counted, what a key covers, what a record
# says, when one is written).
check_version=3
# shellcheck disable=SC2154 # cache and ci_core are the caller's
green_dir=$cache/check/green
mkdir -p "$green_dir"
# env_key_now: the machine and the environment a stage runs in: every
# installed package and its version, the kernel, the cores, the user, and
# the variables that change what the builds and the tests do: CI,
# TEST_BUILD, make's flags (but its jobserver's, which name this run's
# pipes, and RAFLEET_CHECK_*), every RAFLEET_* variable but RAFLEET_CHECK_*
# (they choose the stages, not what a stage does), QEMU_*, FLAVOR, VARIANT
# and the compiler's.
env_key_now() {
	local v
	{ dpkg-query -W -f '${Package} ${Version} ${Architecture}\n' 2>/dev/null | LC_ALL=C sort
	  uname -r; nproc; id -u
	  echo "CI=${CI:-} TEST_BUILD=${TEST_BUILD:-}"
	  while read -r v; do
		case $v in
		RAFLEET_CHECK_*) ;;
		MAKEFLAGS)
			printf 'MAKEFLAGS=%s\n' "$(sed -E -e 's/(^| )(--jobserver-(auth|fds)|RAFLEET_CHECK_[A-Za-z0-9_]*)=[^ ]*//g' \
				-e 's/( --)? *$//' <<< "$MAKEFLAGS")" ;;
		RAFLEET_*|QEMU_*|FLAVOR|VARIANT|CC|CFLAGS|CPPFLAGS|LDFLAGS) printf '%s=%s\n' "$v" "${!v}" ;;
		esac
	  done < <(compgen -e | LC_ALL=C sort); } | sha256sum | cut -c1-64
}
# made by the first keyed stage (stage_key): after `make deps`, which may
# install packages
env_key=''
declare -A st_skip
# The inputs of a stage: git pathspecs over the tree (tracked files and
# untracked ones not ignored, as they are in the working tree).
#   all: everything but this machine's output (out/);
#   guest: what a guest suite on one of our kernels runs: the kernel
#     (patches, SOURCES: the config fragments, the scripts that build it),
#     the tools and the guest programs, tests/vm; not the packaging, the
#     units, Ansible, the docs or the host tests;
#   tools: what the host-only tests of the tools read: all but the
#     kernel (patches, SOURCES), the guest suites and packaging.
# shellcheck disable=SC2034 # read through a nameref (class_digest)
in_all=(.)
# shellcheck disable=SC2034
in_guest=(. ':!docs' ':!*.md' ':!ansible' ':!SPECS' ':!debian' ':!dnf-plugin' ':!kernel-install'
	':!man' ':!etc' ':!systemd' ':!udev' ':!health' ':!tests/host')
# shellcheck disable=SC2034
in_tools=(. ':!patches' ':!SOURCES' ':!tests/vm' ':!SPECS' ':!debian')
# What no class holds: this machine's output, and the harness
# (check_version stands for it; its own test's stage has it in st_extra)
not_inputs=(':!out' ':!scripts/check' ':!scripts/check-lib.sh')
# A class's files besides its pathspecs (an exclusion above wins over a
# pathspec that names a file in it): the guest kernel's release string
# (uname -r) is read from its spec (scripts/kernel-release, which
# scripts/build-kernel runs).
declare -A cls_extra=([guest]=SPECS/kernel-rafleet.spec)
# hash_list LIST: the digest of the files LIST names (NUL-separated,
# sorted) in hash_out: the content of each, and its mode, type and
# symlink target (a test script that lost its x bit fails, a link
# pointed at another file of the same content is another input).  Fails,
# with the first error in hash_why, if one cannot be read (a directory, a
# symlink to one, a nested repository that git lists as DIR/, a tracked
# file deleted): a key without that file's content would match whatever
# it becomes, so its stages get none.
hash_list() {
	local sums modes err
	hash_out='' hash_why=''
	err=$(mktemp) || { hash_why="mktemp failed"; return 1; }
	# stat's words and quotes fixed: the same file, the same line
	if sums=$(xargs -0 -r sha256sum -- < "$1" 2> "$err") &&
	   modes=$(LC_ALL=C QUOTING_STYLE=shell-escape-always xargs -0 -r stat -c '%a %F %N' -- < "$1" 2> "$err"); then
		hash_out=$(printf '%s\n' "$sums" "$modes" | sha256sum | cut -c1-64)
	else
		hash_why=$(head -n 1 "$err")
		: "${hash_why:=sha256sum failed}"
	fi
	rm -f "$err"
	[ -n "$hash_out" ]
}
# class_digest CLASS: the digest of CLASS's files, as the tree has them
# now, in hash_out; fails 1 if one cannot be read, 2 if git cannot list
# them (not a work tree, no git): the reason in hash_why.  The files are
# the tracked ones and the untracked ones no .gitignore names: not
# .git/info/exclude or a global excludes file, which are this clone's or
# this user's, and may hide a source file the Makefile's wildcards
# compile.
class_digest() {
	local -n specs="in_$1"
	local list rc=0
	list=$(mktemp) || { hash_why="mktemp failed"; return 2; }
	if ! hash_why=$(git ls-files -z -co --exclude-per-directory=.gitignore -- "${specs[@]}" "${not_inputs[@]}" 2>&1 > "$list"); then
		hash_why="git ls-files: $(head -n 1 <<< "${hash_why:-failed}")"
		rc=2
	else
		# shellcheck disable=SC2086 # a list of paths
		[ -z "${cls_extra[$1]:-}" ] || printf '%s\0' ${cls_extra[$1]} >> "$list"
		LC_ALL=C sort -zu -o "$list" "$list"
		hash_list "$list" || rc=1
	fi
	rm -f "$list"
	return $rc
}
# extra_digest NAME: the same over stage NAME's st_extra
extra_digest() {
	local list rc=0
	list=$(mktemp) || { hash_why="mktemp failed"; return 1; }
	# shellcheck disable=SC2086 # a list of paths
	printf '%s\0' ${st_extra[$1]} | LC_ALL=C sort -zu > "$list"
	hash_list "$list" || rc=1
	rm -f "$list"
	return $rc
}

# check_snapshot: this run's inputs, taken once, before its first stage
# (scripts/check calls it before the builds; stage_start does if it was
# not): the digest of each class and of each stage's st_extra, the
# commit, whether the tree differs from it.  A stage's key is made of
# these, not of the tree when the stage starts: a file edited while the
# builds ran was not built (or was, half way), and a record under the
# later tree would say its tests passed.  The commit is the one the run
# was started on, whatever is committed while it runs.
declare -A cls_hash st_xhash
snap_done='' snap_commit='' snap_dirty='' build_failed=''
check_snapshot() {
	[ -z "$snap_done" ] || return 0
	snap_done=1
	local c name unread='' why=''
	for c in all guest tools; do
		class_digest "$c"
		case $? in
		0) cls_hash[$c]=$hash_out ;;
		1) unread+=", class $c" why=$hash_why ;;
		*) cls_hash=()
		   echo "==> every stage runs unkeyed and leaves no record: its inputs cannot be listed ($hash_why)"
		   break ;;
		esac
	done
	for name in "${!st_extra[@]}"; do
		if extra_digest "$name"; then st_xhash[$name]=$hash_out; else unread+=", stage $name" why=$hash_why; fi
	done
	# once: a file of the tree may be in every class
	[ -z "$unread" ] ||
		echo "==> an input cannot be read ($why): the stages of ${unread#, } run unkeyed and leave no record"
	snap_commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo '?')
	snap_dirty=''
	# the untracked files as the classes see them (above)
	[ -n "$(git status --porcelain --untracked-files=no -- . ':!out' 2>/dev/null)" ] ||
		[ -n "$(git ls-files -o --exclude-per-directory=.gitignore -- . ':!out' 2>/dev/null)" ] &&
		snap_dirty=', uncommitted changes'
	return 0
}

# stage_key NAME CMD...: the key of a stage's run here, in key; none for
# a stage without inputs (a build: always run) or whose inputs could not
# be hashed at the snapshot
stage_key() {
	local name=$1 class=${st_in[$1]:-}; shift
	key=''
	[ -n "$class" ] && [ -n "${cls_hash[$class]:-}" ] || return 0
	[ -z "${st_extra[$name]:-}" ] || [ -n "${st_xhash[$name]:-}" ] || return 0
	[ -n "$env_key" ] || env_key=$(env_key_now)
	key=$(printf '%s\n' "$name $*" "harness $check_version" "$env_key" "${cls_hash[$class]}" "${st_xhash[$name]:-}" |
		sha256sum | cut -c1-64)
}

# inputs_unchanged NAME: stage NAME's inputs are still those of the
# snapshot (checked before its record is written)
inputs_unchanged() {
	class_digest "${st_in[$1]}" && [ "$hash_out" = "${cls_hash[${st_in[$1]}]}" ] || return 1
	[ -z "${st_extra[$1]:-}" ] || { extra_digest "$1" && [ "$hash_out" = "${st_xhash[$1]:-}" ]; }
}

# in_ci_core NAME: whether ci_core names NAME (a list over several lines)
in_ci_core() {
	local w
	# shellcheck disable=SC2154
	for w in $ci_core; do [ "$w" = "$1" ] && return 0; done
	return 1
}

# stage_start NAME KIND CMD...: start a stage in the background.
# stage_finish NAME: wait for it, count its tests, print its summary.
# stage NAME KIND CMD...: both, with the log's last line every 60 s.
declare -A st_pid st_t0 st_kind st_key
stage_start() {
	local name=$1 kind=$2 key rec; shift 2
	st_t0[$name]=$(date +%s)
	st_kind[$name]=$kind
	check_snapshot
	stage_key "$name" "$@"
	st_key[$name]=$key
	st_skip[$name]=
	rec=$green_dir/$name.$key
	if [ -n "$key" ] && [ -s "$rec" ] && [ "${RAFLEET_CHECK_ALL:-0}" != 1 ] &&
	   { [ "${CI:-}" != true ] || ! in_ci_core "$name"; }; then
		st_skip[$name]=$(cat "$rec")
		echo "==> $name: not run: its inputs (${st_in[$name]}) are those of its green run ($(cat "$rec"))"
		return 0
	fi
	echo "==> $name: $*"
	rm -f "out/.check-$name.end"
	# the stage's own end, for its time: stage_finish may come later
	{ "$@"; rc=$?; date +%s > "out/.check-$name.end"; exit $rc; } > "out/check-$name.log" 2>&1 &
	st_pid[$name]=$!
}

stage_finish() {
	local name=$1 log="out/check-$1.log" kind=${st_kind[$1]} t0=${st_t0[$1]} rc p f k=0
	local pid=${st_pid[$1]:-} ticks=0
	if [ -n "${st_skip[$1]:-}" ]; then
		skipped=$((skipped + 1))
		summary+=("$(printf '%-12s %5s    not run: inputs unchanged since %s' "$1" - "${st_skip[$1]}")")
		return 0
	fi
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		ticks=$((ticks + 1))
		[ $((ticks % 60)) -eq 0 ] &&
			echo "    ... $name, $(( $(date +%s) - t0 )) s: $(tail -n 1 "$log" | cut -c1-100)"
	done
	wait "$pid"
	rc=$?
	local secs=$(( $(cat "out/.check-$name.end" 2>/dev/null || date +%s) - t0 ))
	if [ "$kind" = tap ]; then
		p=$(grep -cE '^ok( |$)' "$log")
		f=$(grep -cE '^not ok( |$)' "$log")
		[ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
		# of the passed, those skipped: the record says so, lest a stage
		# that was not run for its inputs be taken for all its tests passed
		k=$(grep -ciE '^ok .*# skip' "$log")
		# In CI, a test skipped because a program is not installed is a
		# package missing from scripts/deps.list: it fails (CI runs in a
		# fresh root that has only what install-deps installs).
		if [ "${CI:-}" = true ]; then
			local s
			s=$(grep -cE '^ok .*# SKIP.*not installed' "$log")
			if [ "$s" -gt 0 ]; then
				f=$((f + s)) p=$((p - s)) k=$((k - s))
				grep -E '^ok .*# SKIP.*not installed' "$log" | sed 's/^ok/not ok (CI: a missing package)/' >> "$log"
			fi
		fi
	else
		if [ $rc -eq 0 ]; then p=1 f=0; else p=0 f=1; fi
	fi
	passed=$((passed + p)); failed=$((failed + f))
	if [ "$f" -gt 0 ] || [ $rc -ne 0 ]; then
		grep -E '^not ok|^#' "$log" | head -n 60
		[ "$kind" = tap ] || tail -n 30 "$log"
		# for the digest at the end (CI keeps the tail of the output)
		mapfile -t -O "${#failures[@]}" failures < <(grep -E '^not ok' "$log" | head -n 4 |
			cut -c1-240 | sed "s/^/$name: /")
		[ "$kind" = tap ] || failures+=("$name: exit $rc: $(tail -n 1 "$log" | cut -c1-100)")
	fi
	# the guest tests' measurements, for the record
	[ "$kind" = tap ] && grep -E '^# ([a-z0-9-]+|bench [a-z0-9-]+) +(on|off) +folios' "$log"
	# green: a record under the stage's key, for the next run, unless its
	# inputs changed since the snapshot (what it tested is not what the key
	# names)
	local note=''
	if [ "$f" -eq 0 ] && [ $rc -eq 0 ] && [ "$p" -gt 0 ] && [ -n "${st_key[$name]:-}" ]; then
		if [ -n "$build_failed" ]; then
			note="; no record: a build ($build_failed) failed in this run"
		elif ! inputs_unchanged "$name"; then
			note="; no record: its inputs (${st_in[$name]}) changed during the run"
		else
			local rec=$green_dir/$name.${st_key[$name]}
			printf '%s, %d passed%s in %d s, %s%s\n' "$snap_commit" "$p" \
				"$([ "$k" -eq 0 ] || echo ", $k of them skipped,")" "$secs" \
				"$(date -u +%Y-%m-%dT%H:%MZ)" "$snap_dirty" > "$rec.tmp" && sync "$rec.tmp" && mv "$rec.tmp" "$rec"
		fi
	fi
	# once a build has failed, what a later stage tests may be an earlier
	# run's output (out/ keeps it): it passes, but not for this tree
	if [ "$kind" = plain ] && [ -z "${st_in[$name]:-}" ] && [ "$f" -gt 0 ] && [ -z "$build_failed" ]; then
		build_failed=$name
	fi
	summary+=("$(printf '%-12s %5d s  %4d passed %3d failed' "$name" "$secs" "$p" "$f")")
	echo "    $name: $p passed, $f failed, $secs s (log: $log)$note"
}

stage() {
	stage_start "$@"
	stage_finish "$1"
}

# stage_wait_line NAME REGEX: until stage NAME's log has a line REGEX
# matches, or the stage has ended.
stage_wait_line() {
	local name=$1 log="out/check-$1.log" ticks=0
	[ -n "${st_skip[$name]:-}" ] && return 0
	while kill -0 "${st_pid[$name]}" 2>/dev/null && ! grep -qE "$2" "$log"; do
		sleep 1
		ticks=$((ticks + 1))
		[ $((ticks % 60)) -eq 0 ] &&
			echo "    ... $name, $(( $(date +%s) - ${st_t0[$name]} )) s: $(tail -n 1 "$log" | cut -c1-100)"
	done
	return 0
}
