# shellcheck shell=sh
# tap.sh: the TAP of the test scripts, sourced (POSIX sh: the booted
# nodes' checks source it too, from /usr/local/libexec/rafleet-tap/).
#
#   ok STATUS DESC        "ok N - DESC" if STATUS is 0, else "not ok N - DESC"
#   skip DESC REASON      "ok N - DESC # SKIP REASON": not run, not failed
#   done_testing          the plan "1..N"; true if nothing failed (the
#                         script's last command, or `done_testing; exit`)
#   exit_is WANT DESC CMD...  CMD exits WANT; else its output's first and
#                         last lines as comments
#   jget JSON PATH        a field of the JSON text (tests/lib/jget.py)
#   jeval JSON EXPR       a Python expression over d, the document
#   rafleet_features BIN  the feature names BIN knows, in its order
#                         (readahead_async_keep_half ...), one a line
n=0 failed=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
done_testing() { echo "1..$n"; [ "$failed" = 0 ]; }
exit_is() {
	_want=$1 _desc=$2
	shift 2
	_out=$("$@" 2>&1)
	_rc=$?
	[ "$_rc" = "$_want" ]
	ok $? "$_desc (exit $_rc, want $_want)"
	[ "$_rc" = "$_want" ] || printf '%s\n' "$_out" |
		awk '{ l[NR] = $0 } END { for (i = 1; i <= NR; i++) if (i <= 5 || i > NR - 5) print "#   " l[i] }'
}
# where this file is, for jget.py beside it (bash; sh callers set TAP_LIB)
if [ -z "${TAP_LIB:-}" ] && [ -n "${BASH_VERSION:-}" ]; then
	eval 'TAP_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)'
fi
jget() { printf '%s' "$1" | python3 "$TAP_LIB/jget.py" "$2"; }
jeval() { printf '%s' "$1" | python3 "$TAP_LIB/jget.py" -e "$2"; }
rafleet_features() {
	RAFLEET_PROCSYS=/nonexistent "$1" status --json | python3 "$TAP_LIB/jget.py" \
		-e '"\n".join(f["sysctl"][len("vm."):] for f in d["features"])'
}
