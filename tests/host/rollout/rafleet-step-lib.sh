# rafleet-step-lib.sh: what the step drivers of the booted-node tests share
# (tests/host/rollout/rafleet-rollout-step, tests/host/trial/rafleet-trial-step),
# sourced inside the node.  TAP on stdout (ttyS1); the caller sets
# t=/var/lib/rafleet-test and the releases (vanilla=, patched=).
# ok, jget: tests/lib/tap.sh, installed beside this file by the test
# shellcheck source=tests/lib/tap.sh
. /usr/local/libexec/rafleet-tap/tap.sh
say() { printf '%s\n' "$*" | sed 's/^/# /'; }
# before this boot ends: if a check failed, the journal's tail says why
journal_tail() {
	[ "$failed" = 0 ] && return
	say "--- the journal of this boot, last 40 lines ---"
	say "$(journalctl -b --no-pager -n 40 -o short-monotonic 2>&1)"
}
# End this machine now (QEMU runs with -no-reboot, and the virt kernel has
# no ACPI power-off: a reboot ends it).  MARK is RAFLEET-DONE at the end of
# the rollout, RAFLEET-ABORT when a step cannot go on: the host then starts
# no further boot, and no failure leaves the guest waiting for its timeout.
finish() {
	journal_tail
	echo "1..$n"
	echo "$1"
	sync
	systemctl reboot
	sleep 120
	echo b > /proc/sysrq-trigger
}
# The boot must run KERNEL; if not, say what the host's rollout record says
# happened (in the TAP line itself, which a CI log's digest keeps), the
# smoke run of the boot before, and end.
expect_kernel() {	# KERNEL WHAT
	local st why
	[ "$(uname -r)" = "$1" ] && { ok 0 "$2"; return 0; }
	st=$(rafleet status 2>&1)
	why=$(printf '%s\n' "$st" | awk '$1 == "phase" || $1 == "smoke" { $1 = $1 ":"; printf "%s%s", sep, $0; sep = "; " }')
	ok 1 "$2: it runs $(uname -r); rollout $why"
	say "$st"
	say "--- rafleet-smoke.service, the boot before ---"
	say "$(journalctl -b -1 -u rafleet-smoke.service -o cat --no-pager 2>&1 | tail -n 30)"
	finish RAFLEET-ABORT
}
# rafleet stage KERNEL [OPTIONS], which ends this boot by kexec within
# seconds; if it fails, or no kexec comes, the machine ends here
stage_trial() {
	local out rc
	out=$(rafleet stage "$@" 2>&1); rc=$?
	say "$out"
	ok $rc "rafleet stage $* (exit $rc)"
	[ $rc = 0 ] || finish RAFLEET-ABORT
	sleep 300
	ok 1 "the trial kernel was not started within 300 s"
	finish RAFLEET-ABORT
}
wait_unit() {	# UNIT SECONDS: until it is no longer activating
	for _ in $(seq "$2"); do
		case "$(systemctl show -P ActiveState "$1")" in
		activating|reloading) sleep 1 ;;
		*) return 0 ;;
		esac
	done
	return 1
}
phase() { rafleet status 2>/dev/null | awk '$1 == "phase" { print $2; exit }'; }
entry_default() { sed -n 's/^default *//p' /boot/loader/loader.conf; }
