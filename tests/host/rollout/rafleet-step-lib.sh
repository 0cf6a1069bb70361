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
# the release that /etc/apt/apt.conf.d/50rafleet-previous-kernel keeps
# from apt (src/host/aptkeep.c), and its phase; "-" when there is none
apt_kept() { sed -n 's|^// release ||p; s|^// phase ||p' /etc/apt/apt.conf.d/50rafleet-previous-kernel 2>/dev/null | paste -sd' ' | grep . || echo -; }
entry_default() { sed -n 's/^default *//p' /boot/loader/loader.conf; }
# The resets at a failpoint of promote (RAFLEET_FAILPOINT=NAME:reset, a
# drop-in of rafleet-promote.service): the driver defines entry_default,
# arm and next; t, patched and vanilla are set.
promote_dropin=/etc/systemd/system/rafleet-promote.service.d/50-rafleet-test.conf
# promote_failpoint FAILPOINT [DIRECTIVE...]: the drop-in that has promote
# stop at FAILPOINT: the unit then runs the node's test build
# (node_test_rafleet), since the packaged rafleet refuses RAFLEET_FAILPOINT
promote_failpoint() {
	mkdir -p "${promote_dropin%/*}"
	{ printf '[Service]\nEnvironment=RAFLEET_FAILPOINT=%s\n' "$1"; shift
	  printf '%s\n' "$@" 'ExecStart=' 'ExecStart=/usr/local/libexec/rafleet-test promote'; } > "$promote_dropin"
}
# reset_case FAILPOINT NEXT WHAT: stage a healthy trial whose promote
# resets the machine at FAILPOINT (the unit's sandbox keeps /proc's kernel
# files read-only, /proc/sysrq-trigger among them: opened for the test)
reset_case() {
	promote_failpoint "$1:reset" ProtectKernelTunables=no
	echo "$1" > $t/reset-at
	arm none; next "$2"
	say "stage $patched; its promote will reset the machine at $1 ($3)"
	stage_trial "$patched" --no-baseline
}
# reset_trial: the trial boot of a reset_case, which its promote ends; if
# promote ends and the machine is still up 30 s later, say why and end
reset_trial() {
	# (within the host's limit of a start, 900 s, so that this is said)
	for _ in $(seq 600); do
		[ "$(systemctl show -P ExecMainExitTimestampMonotonic rafleet-promote.service)" != 0 ] && break
		sleep 1
	done
	sleep 30
	ok 1 "promote did not reset the machine at $(cat $t/reset-at): rafleet-promote.service $(systemctl show -P ActiveState,Result rafleet-promote.service | tr '\n' ' ')"
	say "$(journalctl -b -u rafleet-promote.service -u rafleet-smoke.service -o cat --no-pager 2>&1 | tail -n 20)"
	finish RAFLEET-ABORT
}
# after_reset: the boot after a reset_case's trial; on our kernel (the
# write had reached the disk: the default the promote moved booted it,
# never judged) rafleet-recover.service is rebooting, the step stays
after_reset() {
	local fp
	fp=$(cat $t/reset-at)
	if [ "$(uname -r)" = "$patched" ]; then
		say "on $patched, booted by the default the reset promote left ($fp): rafleet-recover.service reboots"
		sleep 300
		ok 1 "the unjudged boot of $patched was not rebooted within 300 s"
		finish RAFLEET-ABORT
	fi
	expect_kernel "$vanilla" "after the reset at $fp: $vanilla again, with no person involved"
	! grep -q 'rafleet\.trial' /proc/cmdline; ok $? "  a normal boot, through the boot loader"
	case "$(entry_default)" in *"$vanilla"*) r=0 ;; *) r=1 ;; esac
	ok $r "  the default entry is $vanilla's ($(entry_default))"
	rafleet status 2>&1 | grep -q "abandoned: the trial boot of $patched ended mid-promote (this boot runs "
	ok $? "  status: the promote was abandoned"
	[ "$(phase)" = idle ]; ok $? "  the rollout is idle"
	[ -d /boot/loader ] && say "the ESP's loader/: $(ls /boot/loader | tr '\n' ' '); entries: $(ls /boot/loader/entries | tr '\n' ' ')"
	[ -e /boot/grub/grubenv ] && say "/boot/grub: $(ls /boot/grub | tr '\n' ' ')"
	rm -f "$promote_dropin"
}

