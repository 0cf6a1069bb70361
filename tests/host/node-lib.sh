# node-lib.sh: what the package install tests share (sourced).
#
# A "node" is a fleet host's root filesystem in a directory: Debian
# bookworm made by tests/host/mknode, configured as a test host is
# (machine id, kernel command line, boot loader entries, dracut), into
# which the packages are installed with dnf or dpkg exactly as on a host.

# TAP (ok, skip, done_testing, jget) and what the node tests add
# shellcheck source=tests/lib/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
check() { local desc=$1; shift; "$@" > /dev/null; ok $? "$desc"; }
# run a command; on failure, fail with its output's tail shown
run_ok() {	# DESCRIPTION CMD...
	local desc=$1 log rc
	shift
	log=$(mktemp)
	"$@" > "$log" 2>&1
	rc=$?
	ok $rc "$desc"
	[ $rc -eq 0 ] || tail -n 25 "$log" | sed 's/^/#   /'
	rm -f "$log"
	return $rc
}
# retap PREFIX: renumber the TAP lines of another test into this one
retap() {
	local line
	while IFS= read -r line; do
		case "$line" in
		"ok "*) ok 0 "$1: ${line#ok * - }" ;;
		"not ok "*) ok 1 "$1: ${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done
}
bail() { echo "Bail out! $*"; exit 1; }
# fleet_json FILE EXPR: a Python expression over f, a fleet summary
# (rafleet-fleet/1), and h, its hosts by name; true passes (jeval)
fleet_json() {
	[ "$(jeval "$(cat "$1" 2> /dev/null)" \
		"(lambda f, h: bool($2))(d, {x['host']: x for x in d['hosts']})" 2> /dev/null)" = True ]
}

NODE_MACHINE_ID=5afe1ee7c0ffee0000000000000000a1
# The kernel command line of the node's boot entries (kernel-install
# writes it into each entry; the boot test boots with it), with the TSC
# frequency a TCG guest cannot calibrate when the host is busy
# (tests/vm/tcg-clock; kexec'd boots keep it).
NODE_CMDLINE="root=/dev/vda rw console=ttyS0 panic=-1 oops=panic $("$(dirname "${BASH_SOURCE[0]}")/../vm/tcg-clock")"
NODE_CMDLINE=${NODE_CMDLINE% }

# node_unpack TAR DIR: a fresh node root
node_unpack() {
	rm -rf "$2"
	mkdir -p "$2"
	tar -C "$2" --numeric-owner -xpf "$1"
}

# node_new CACHE ROOT [VARIANT]: a fresh, configured node root
# (tests/host/mknode, VARIANT base or fleet); sets $vanilla and $patched,
# the releases of the two kernel variants.
node_new() {
	local here tar
	here=$(dirname "${BASH_SOURCE[0]}")
	tar=$("$here/mknode" "$1" "${3:-base}") || bail "cannot make the node root"
	node_unpack "$tar" "$2" || bail "cannot unpack $tar"
	node_configure "$2"
	vanilla=7.3.4$("$here/../../scripts/kernel-release" virt vanilla)
	patched=7.3.4$("$here/../../scripts/kernel-release" virt patched)
}

# node_boot PREFIX DESCRIPTION ROOT KERNEL INITRD CMDLINE EXPECTED [FEATURES]:
# boot the node (tests/host/boot-node); its checks become tests of this
# script under PREFIX, and the boot as a whole one more, DESCRIPTION.
node_boot() {
	local prefix=$1 desc=$2 log="$3.boot.tap" rc
	shift 2
	"$(dirname "${BASH_SOURCE[0]}")/boot-node" "$@" > "$log" 2>&1
	rc=$?
	retap "$prefix" < "$log"
	ok $rc "$desc"
}

# node_configure ROOT: what makes the root a test host.  The boot loader is
# one of the Boot Loader Specification (systemd-boot's): entries in
# /boot/loader/entries written by kernel-install, and the default entry in
# /boot/loader/loader.conf, which only `rafleet promote` may change.
node_configure() {
	local root=$1
	echo "$NODE_MACHINE_ID" > "$root/etc/machine-id"
	echo "rafleet-node" > "$root/etc/hostname"
	mkdir -p "$root/etc/kernel" "$root/boot/loader/entries" "$root/boot/$NODE_MACHINE_ID" \
		"$root/etc/dracut.conf.d"
	echo "$NODE_CMDLINE" > "$root/etc/kernel/cmdline"
	echo "layout=bls" > "$root/etc/kernel/install.conf"
	printf 'timeout 3\n' > "$root/boot/loader/loader.conf"
	# A generic initramfs: the host that makes it (a chroot here) is not
	# the machine that boots it.
	printf 'hostonly="no"\n' > "$root/etc/dracut.conf.d/10-rafleet-node.conf"
	printf '/dev/vda / ext4 rw,relatime 0 1\n' > "$root/etc/fstab"
	# The network of QEMU's user mode (node_machine gives each node a
	# virtio NIC): 10.0.2.15, the gateway 10.0.2.2; static and without
	# LLDP: the virt kernel has no AF_PACKET (a DHCP client, LLDP), and
	# networkd fails a link on it.  What the health gate's network check
	# looks for on a trial boot.
	mkdir -p "$root/etc/systemd/network" "$root/etc/systemd/system/multi-user.target.wants"
	printf '[Match]\nName=en* eth*\n[Network]\nAddress=10.0.2.15/24\nGateway=10.0.2.2\nLLDP=no\nLinkLocalAddressing=no\nIPv6AcceptRA=no\n' \
		> "$root/etc/systemd/network/10-node.network"
	ln -sf /lib/systemd/system/systemd-networkd.service \
		"$root/etc/systemd/system/multi-user.target.wants/systemd-networkd.service"
}

# node_ns ROOT CMD...: run CMD with the node's /proc, /sys, /dev and /run
# mounted, in a mount namespace of its own (as a running host has them;
# rpm and dpkg run the scriptlets chrooted into ROOT).
node_ns() {
	local root=$1
	shift
	unshare --mount --propagation private /bin/bash -c '
		set -e
		r=$1; shift
		mount --rbind /dev "$r/dev"
		mount -t proc proc "$r/proc"
		mount -t sysfs sysfs "$r/sys"
		mount -t tmpfs tmpfs "$r/run"
		exec "$@"' node_ns "$root" "$@"
}

# node_chroot ROOT CMD...: run CMD inside the node
node_chroot() {
	local root=$1
	shift
	node_ns "$root" chroot "$root" "$@"
}

# node_provides ROOT: what the root has, in rpm's terms: its dpkg packages
# with their versions, the ELF sonames of its libraries (rpm's own elfdeps)
# and its programs' paths.
node_provides() {	# ROOT
	local root=$1 name version rel d
	dpkg-query --admindir="$root/var/lib/dpkg" -W -f '${Package} ${Version}\n' |
		while read -r name version; do
			# Debian EPOCH:UPSTREAM-REVISION is rpm's EPOCH:VERSION-RELEASE;
			# a '-' inside UPSTREAM, which rpm cannot have, becomes '_'
			rel=${version##*-}
			[ "$rel" = "$version" ] && rel= || version=${version%-*}
			version=$(tr -- '-' '_' <<< "$version")
			echo "$name = $version${rel:+-$rel}"
		done
	find "$root/usr/lib/x86_64-linux-gnu" "$root/usr/lib64" -name '*.so*' -type f 2>/dev/null |
		/usr/lib/rpm/elfdeps --provides
	# the loader supports DT_GNU_HASH, as Fedora's glibc declares
	[ -e "$root/usr/lib64/ld-linux-x86-64.so.2" ] && echo 'rtld(GNU_HASH)'
	for d in usr/bin usr/sbin; do
		find "$root/$d" -maxdepth 1 \( -type f -o -type l \) -printf "/$d/%f\n"
		# merged /usr: /bin and /sbin are the same directories
		[ -L "$root/${d#usr/}" ] && find "$root/$d" -maxdepth 1 \( -type f -o -type l \) -printf "/${d#usr/}/%f\n"
	done
}

# node_base_spec ROOT: the spec of "rafleet-node-base", a package without
# files that Provides exactly what the node root has (node_provides), for
# Debian's rpm database, which cannot see what dpkg installed.
node_base_spec() {
	cat <<EOF
Name: rafleet-node-base
Version: 1
Release: 1
Summary: What the node root's dpkg installed, as seen by rpm
License: GPL-2.0-only
BuildArch: noarch
AutoReqProv: no
EOF
	node_provides "$1" | sort -u | sed 's/^/Provides: /'
	cat <<EOF
%description
Stands for the Debian packages of a test node, for dnf's dependency checks.
%files
EOF
}

# build_hello KERNEL_BUILD_DIR OUT_DIR: build tests/host/node/hello, an
# external module, against an installed -devel or linux-headers tree (on
# this machine: the same gcc that built the kernel); prints its vermagic.
build_hello() {
	local kdir=$1 out=$2
	rm -rf "$out"
	mkdir -p "$out"
	cp "$(dirname "${BASH_SOURCE[0]}")"/node/hello/* "$out/"
	make -s -C "$kdir" M="$out" modules >&2 || return 1
	modinfo -F vermagic "$out/rafleet_hello.ko"
}

# node_dnf_setup WORK ROOT REPO: dnf 4 and rpm for the node root: its rpm
# database in /var/lib/rpm (Debian's rpm would use ~/.rpmdb), the signed
# repository REPO with gpgcheck and repo_gpgcheck, dnf's cache and log
# under WORK.  Then dnf_node ARGS... and rpm_node ARGS... act on the node
# (dnf's scriptlets run chrooted, with the node's /proc, /sys and /dev).
node_dnf_setup() {
	NODE_DNF_W=$1 NODE_DNF_ROOT=$2
	mkdir -p "$1/home" "$1/repos.d" "$1/dnf-log"
	echo '%_dbpath /var/lib/rpm' > "$1/home/.rpmmacros"
	export HOME="$1/home"
	cat > "$1/dnf.conf" <<CONF
[main]
gpgcheck=1
installonly_limit=3
install_weak_deps=False
keepcache=False
CONF
	cat > "$1/repos.d/rafleet.repo" <<CONF
[rafleet]
name=rafleet kernel and tools
baseurl=file://$3
enabled=1
gpgcheck=1
repo_gpgcheck=1
gpgkey=file://$3/RPM-GPG-KEY-rafleet
CONF
}
dnf_node() {
	node_ns "$NODE_DNF_ROOT" dnf -y --installroot="$NODE_DNF_ROOT" \
		--config="$NODE_DNF_W/dnf.conf" --releasever=12 \
		--setopt=reposdir="$NODE_DNF_W/repos.d" --setopt=cachedir="$NODE_DNF_W/dnf-cache" \
		--setopt=logdir="$NODE_DNF_W/dnf-log" "$@"
}
rpm_node() { rpm --root "$NODE_DNF_ROOT" "$@"; }

# node_dnf_base: build rafleet-node-base (node_base_spec) for the node set
# up by node_dnf_setup, and install it: what dpkg installed, for dnf.
node_dnf_base() {
	local d="$NODE_DNF_W/nodebase"
	mkdir -p "$d"
	node_base_spec "$NODE_DNF_ROOT" > "$d/rafleet-node-base.spec"
	run_ok "the node base package builds ($(grep -c '^Provides:' "$d/rafleet-node-base.spec") provides)" \
		rpmbuild -bb --nodeps --define "_topdir $d" --define "_rpmdir $d" \
		--define "_build_name_fmt %%{NAME}.rpm" "$d/rafleet-node-base.spec" || return 1
	run_ok "dnf installs the node base into the node root" dnf_node install "$d/rafleet-node-base.rpm"
}

# boot_entries ROOT FILTER: "LINUX INITRD OPTIONS" of each boot loader
# entry of ROOT/boot that FILTER keeps (a Python expression of e, one of
# `rafleet status --json`'s boot_entries: e["id"], e["default"] ...), as
# rafleet itself reads them (src/host/bootentry.c, ROOT as its root): the
# first initrd, every options line joined.  The rafleet run is $RAFLEET,
# else the tree's out/gcc/rafleet.
boot_entries() {
	local root=$1 filter=$2 bin json
	bin=${RAFLEET:-$(dirname "${BASH_SOURCE[0]}")/../../out/gcc/rafleet}
	[ -x "$bin" ] || { echo "boot_entries: no rafleet at $bin (set RAFLEET)" >&2; return 1; }
	json=$(RAFLEET_ROOT=$root RAFLEET_PROCSYS=$root/none "$bin" status --json 2> /dev/null) || return 1
	jeval "$json" '"\n".join("%s %s %s" % (e["linux"], (e["initrd"] + [""])[0], e["options"] or "")
		for e in d["boot_entries"] if e["linux"] and ('"$filter"'))'
}

# boot_entry ROOT ID: "LINUX INITRD OPTIONS" of ROOT's boot loader entry
# ID (its file name without .conf), as rafleet reads it; 1 if there is none
boot_entry() {
	local line
	line=$(boot_entries "$1" "e['id'] == '$2'") || return 1
	[ -n "$line" ] || return 1
	echo "$line"
}

# boot_entry_default IMAGE DIR: the boot loader entry a systemd-boot would
# start from the ext4 root filesystem IMAGE (read with debugfs, not
# mounted), as rafleet itself finds it (src/host/bootentry.c): its /boot
# copied to DIR/boot and read by boot_entries with DIR as the root;
# loader.default_entry is the first bootable entry in systemd-boot's
# menu order that loader.conf's "default" glob matches, or with no default
# line the first bootable entry.  Prints "LINUX INITRD OPTIONS" of that
# entry; 1 if there is none.
boot_entry_default() {
	local img=$1 dir=$2 line
	rm -rf "$dir"
	mkdir -p "$dir"
	debugfs -R "rdump /boot $dir" "$img" > /dev/null 2>&1 || return 1
	line=$(boot_entries "$dir" 'e["default"]') || return 1
	[ -n "$line" ] || return 1
	echo "$line"
}

# node_start IMG PREFIX TIMEOUT QEMU_ARGS...: one start of the node on
# IMG, as its firmware and boot loader would boot it: the entry that the
# disk's /boot/loader/loader.conf selects (boot_entry_default, its copy of
# /boot in PREFIX.esp; read with debugfs before the start, never while
# QEMU runs; its kernel and initrd to PREFIX.kernel and PREFIX.initrd), in QEMU (tests/vm/guest-status qemu_tcg: TCG, -no-reboot,
# the i6300esb watchdog) for at most TIMEOUT s, with QEMU_ARGS (serial
# ports, NIC) added.  QEMU's exit status; 125 when the disk has no
# default entry.
node_start() {
	local img=$1 p=$2 t=$3 linux initrd options
	shift 3
	# shellcheck source=tests/vm/guest-status
	. "$(dirname "${BASH_SOURCE[0]}")/../vm/guest-status"
	if ! read -r linux initrd options < <(boot_entry_default "$img" "$p.esp"); then
		echo "# no default boot entry on $img"
		return 125
	fi
	debugfs -R "dump $linux $p.kernel" "$img" > /dev/null 2>&1
	debugfs -R "dump $initrd $p.initrd" "$img" > /dev/null 2>&1
	echo "# the boot loader's default entry: $linux ($options)"
	qemu_tcg "$t" -kernel "$p.kernel" -initrd "$p.initrd" -append "$options" \
		-drive "file=$img,if=virtio,format=raw" "$@"
}

# node_machine W TIMEOUT MAX_STARTS: the node on W/root.img as a machine:
# each start boots the entry that the disk's /boot/loader/loader.conf
# selects (read before each start, as systemd-boot does), in QEMU (TCG,
# -no-reboot: a reset or reboot ends the start, and the next start is the
# firmware's boot); kexec boots stay inside one start.  A virtio NIC on
# QEMU's user network, restricted to the guest itself (no way out).  Until the guest
# says RAFLEET-DONE (done_=yes) or RAFLEET-ABORT, or MAX_STARTS.  The
# guest's ttyS1 is W/results-N.log, concatenated into W/results.txt; its
# commentary is shown as it comes, each "RAFLEET-BOOT STEP ..." line's
# time in W/timeline.  QEMU_TCG_CPU as the caller sets it.
node_machine() {
	local w=$1 timeout_s=$2 max=$3 run t0 qemu rc
	# shellcheck source=tests/vm/guest-status
	. "$(dirname "${BASH_SOURCE[0]}")/../vm/guest-status"
	_nm_follow() {
		local line
		while IFS= read -r line; do
			line=${line%$'\r'}
			printf '# | %(%T)T %s\n' -1 "$line"
			case "$line" in RAFLEET-BOOT*) echo "$(date +%s) ${line#RAFLEET-BOOT }" >> "$w/timeline" ;; esac
		done
	}
	done_=no
	: > "$w/results.txt"
	for run in $(seq "$max"); do
		echo "# start $run"
		t0=$(date +%s)
		: > "$w/results-$run.log"
		node_start "$w/root.img" "$w/boot" "$timeout_s" -m 2G \
			-netdev user,id=n0,restrict=on -device virtio-net-pci,netdev=n0 \
			-serial "file:$w/console-$run.log" -serial "file:$w/results-$run.log" \
			> "$w/qemu-$run.log" 2>&1 &
		qemu=$!
		tail --pid=$qemu -n +1 -F "$w/results-$run.log" 2>/dev/null | _nm_follow
		wait $qemu
		rc=$?
		echo "# start $run ran for $(( $(date +%s) - t0 )) s, qemu exit status $rc"
		tr -d '\r' < "$w/results-$run.log" > "$w/results-$run.txt" 2>/dev/null
		cat "$w/results-$run.txt" >> "$w/results.txt"
		cp "$w/console-$run.log" "$w/console.log"
		cp "$w/qemu-$run.log" "$w/qemu.log"
		grep '^# the boot loader' "$w/qemu-$run.log"
		[ $rc = 125 ] && bail "no default boot entry on the disk"
		[ $rc = 0 ] || { ok 1 "start $run: qemu exit status $rc (124: hung)"; guest_console_tail "$w" 60; break; }
		grep -q '^RAFLEET-DONE' "$w/results-$run.txt" && { done_=yes; break; }
		grep -q '^RAFLEET-ABORT' "$w/results-$run.txt" && { echo "# the guest gave up: no further start"; break; }
	done
}
