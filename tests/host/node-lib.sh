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
not() { ! "$@"; }	# for check: CMD must fail
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
# pkg_unpack PACKAGE DIR: the files of an RPM or a DEB in DIR (made anew),
# as they would be installed, no scriptlet run
pkg_unpack() {
	rm -rf "$2" && mkdir -p "$2"
	case "$1" in
	*.rpm) rpm2cpio "$1" | (cd "$2" && cpio -idm --quiet 2> /dev/null) ;;
	*.deb) dpkg-deb -x "$1" "$2" ;;
	*) return 1 ;;
	esac
}
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
NODE_CMDLINE="root=/dev/vda2 rw console=ttyS0 panic=-1 oops=panic $("$(dirname "${BASH_SOURCE[0]}")/../vm/tcg-clock")"
NODE_CMDLINE=${NODE_CMDLINE% }

# node_unpack TAR DIR: a fresh node root, its /boot a filesystem of its
# own (node_boot_mount)
node_unpack() {
	node_boot_umount "$2"
	rm -rf "$2"
	mkdir -p "$2"
	tar -C "$2" --numeric-owner -xpf "$1" && node_boot_mount "$2"
}

# node_clean W: remove the work folder W, the node /boot mounts in it first
node_clean() {
	findmnt -rn -o TARGET | grep "^$1/" | sort -r | while read -r m; do umount "$m"; done
	rm -rf "$1"
}

# node_boot_mount ROOT: ROOT/boot a filesystem of its own (a tmpfs, with
# what it held), as the ESP is on the booted node: kernel-install (its
# 90-loaderentry.install asks `stat -c %m`) then writes an entry's paths
# relative to it (/MACHINE-ID/RELEASE/linux), as systemd-boot reads them
# on the ESP.  node_boot_umount ROOT puts its files back in the folder.
node_boot_mount() {
	local t
	mountpoint -q "$1/boot" && return 0
	t=$(mktemp -d "$1/.boot.XXXXXX") || return 1
	cp -a "$1/boot/." "$t/" && find "$1/boot" -mindepth 1 -delete &&
		mount -t tmpfs -o mode=0755,size=2g rafleet-node-boot "$1/boot" &&
		cp -a "$t/." "$1/boot/" && rm -rf "$t"
}
node_boot_umount() {
	local t
	mountpoint -q "$1/boot" 2> /dev/null || return 0
	t=$(mktemp -d "$1/.boot.XXXXXX") || return 1
	cp -a "$1/boot/." "$t/" && umount "$1/boot" && cp -a "$t/." "$1/boot/" && rm -rf "$t"
}

# node_new CACHE ROOT [VARIANT]: a fresh, configured node root
# (tests/host/mknode, VARIANT base or fleet); sets $vanilla and $patched,
# the kernel releases (uname -r) of the two kernel variants, $kname, their
# RPM's name (kernel-rafleet-virt), and $vanilla_vr and $patched_vr, the
# packages' version-release (7.3.4-0.vanilla, 7.3.4-2.rafleet).
node_new() {
	local here tar
	here=$(dirname "${BASH_SOURCE[0]}")
	tar=$("$here/mknode" "$1" "${3:-base}") || bail "cannot make the node root"
	node_unpack "$tar" "$2" || bail "cannot unpack $tar"
	node_configure "$2"
	vanilla=7.3.4$("$here/../../scripts/kernel-release" virt vanilla)
	patched=7.3.4$("$here/../../scripts/kernel-release" virt patched)
	kname=$("$here/../../scripts/kernel-release" --name virt patched)
	vanilla_vr=7.3.4-$("$here/../../scripts/kernel-release" --release virt vanilla)
	patched_vr=7.3.4-$("$here/../../scripts/kernel-release" --release virt patched)
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
# systemd-boot, on the ESP mounted at /boot (node_efi_disk makes the disk):
# entries in /boot/loader/entries written by kernel-install, and the
# default entry in /boot/loader/loader.conf, which only `rafleet promote`
# may change; "timeout 0" boots it without showing the menu.
node_configure() {
	local root=$1
	echo "$NODE_MACHINE_ID" > "$root/etc/machine-id"
	echo "rafleet-node" > "$root/etc/hostname"
	mkdir -p "$root/etc/kernel" "$root/boot/loader/entries" "$root/boot/$NODE_MACHINE_ID" \
		"$root/etc/dracut.conf.d"
	echo "$NODE_CMDLINE" > "$root/etc/kernel/cmdline"
	echo "layout=bls" > "$root/etc/kernel/install.conf"
	printf 'timeout 0\n' > "$root/boot/loader/loader.conf"
	# A generic initramfs: the host that makes it (a chroot here) is not
	# the machine that boots it.
	printf 'hostonly="no"\n' > "$root/etc/dracut.conf.d/10-rafleet-node.conf"
	printf '/dev/vda2 / ext4 rw,relatime 0 1\n/dev/vda1 /boot vfat rw,umask=0077,shortname=winnt 0 2\n' \
		> "$root/etc/fstab"
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
# with their versions (and, for the three that -devel Requires by another
# name, Fedora's name too), the ELF sonames of its libraries (rpm's own
# elfdeps) and its programs' paths.
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
			# Fedora's names for what kernel-rafleet-devel Requires
			case $name in
			libelf-dev) echo "elfutils-libelf-devel = $version${rel:+-$rel}" ;;
			libssl-dev) echo "openssl-devel = $version${rel:+-$rel}" ;;
			perl-base) echo "perl-interpreter = $version${rel:+-$rel}" ;;
			esac
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

# build_hello KERNEL_BUILD_DIR OUT_DIR [ROOT]: build tests/host/node/hello, an
# external module, against an installed -devel or linux-headers tree (on
# this machine: the same gcc that built the kernel), inside the node ROOT
# with its own tools when given (KERNEL_BUILD_DIR and OUT_DIR then as the
# node sees them); prints its vermagic.
build_hello() {
	local kdir=$1 out=$2 root=${3:-}
	rm -rf "$root$out"
	mkdir -p "$root$out"
	cp "$(dirname "${BASH_SOURCE[0]}")"/node/hello/* "$root$out/"
	if [ -n "$root" ]; then
		node_chroot "$root" make -s -C "$kdir" M="$out" modules >&2 || return 1
	else
		make -s -C "$kdir" M="$out" modules >&2 || return 1
	fi
	modinfo -F vermagic "$root$out/rafleet_hello.ko"
}

# node_apt_source ROOT REPO_PATH KEYRING: the node's one apt source, the
# repository at REPO_PATH (a file: URI, as the node sees it), signed by a
# key of KEYRING (deb822, Signed-By)
node_apt_source() {
	printf 'Types: deb\nURIs: file:%s\nSuites: bookworm\nComponents: main\nSigned-By: %s\n' "$2" "$3" \
		> "$1/etc/apt/sources.list.d/rafleet.sources"
}

# node_dnf_setup WORK ROOT REPO: dnf 4 and rpm for the node root: its rpm
# database in /var/lib/rpm (Debian's rpm would use ~/.rpmdb), the signed
# repository REPO with gpgcheck and repo_gpgcheck, dnf's cache and log
# under WORK.  Then dnf_node ARGS... and rpm_node ARGS... act on the node
# (dnf's scriptlets run chrooted, with the node's /proc, /sys and /dev).
# dnf loads the plugins the node has installed (rafleet's, once the rafleet
# RPM is in), as the node's own dnf would: dnf reads its plugins from the
# host's paths even with --installroot.
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
		--setopt=logdir="$NODE_DNF_W/dnf-log" \
		--setopt=pluginpath="$NODE_DNF_ROOT/usr/lib/python3/dist-packages/dnf-plugins" \
		--setopt=pluginconfpath="$NODE_DNF_ROOT/etc/dnf/plugins" "$@"
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

# node_test_rafleet ROOT: the test build of rafleet (docs/environment.md)
# as ROOT/usr/local/libexec/rafleet-test, beside the packaged /usr/bin/rafleet.
# The packaged binary obeys no test switch; the node steps that inject a
# failure through one (RAFLEET_FAILPOINT in a drop-in of
# rafleet-promote.service, RAFLEET_CANARY for the guard, RAFLEET_PROCSYS
# in a chroot) run this one, built from the same source.  It is $RAFLEET,
# else the tree's out/gcc/rafleet, and must say it is a test build
# (make check builds its tools with TEST_BUILD=1).
node_test_rafleet() {
	local root=$1 bin
	bin=${RAFLEET:-$(dirname "${BASH_SOURCE[0]}")/../../out/gcc/rafleet}
	case "$("$bin" --version 2> /dev/null)" in
	*"(test build)"*) ;;
	*) echo "node_test_rafleet: $bin is not a test build (make tools OUT=out/gcc TEST_BUILD=1)" >&2; return 1 ;;
	esac
	install -D -m 0755 "$bin" "$root/usr/local/libexec/rafleet-test"
}

# boot_entries ROOT FILTER: "LINUX INITRD OPTIONS" of each boot loader
# entry of ROOT/boot that FILTER keeps (a Python expression of e, one of
# `rafleet status --json`'s boot_entries: e["id"], e["default"] ...), as
# rafleet itself reads them (src/host/bootentry.c, ROOT as its root): the
# first initrd, every options line joined; the paths as the node's root sees
# them (an entry names them on the ESP, mounted at /boot).  The rafleet run is $RAFLEET,
# else the tree's out/gcc/rafleet.
boot_entries() {
	local root=$1 filter=$2 bin json
	bin=${RAFLEET:-$(dirname "${BASH_SOURCE[0]}")/../../out/gcc/rafleet}
	[ -x "$bin" ] || { echo "boot_entries: no rafleet at $bin (set RAFLEET)" >&2; return 1; }
	json=$(RAFLEET_ROOT=$root RAFLEET_PROCSYS=$root/none RAFLEET_SYSFS=$root/none "$bin" status --json 2> /dev/null) || return 1
	# a path relative to the ESP (/boot): as the node's root sees it
	jeval "$json" '"\n".join("%s %s %s" % tuple([("/boot" + p if p and not p.startswith("/boot/") else p)
		for p in (e["linux"], (e["initrd"] + [""])[0])] + [e["options"] or ""])
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

# The node's disk, as a fleet host's: GPT, partition 1 the ESP (vfat,
# NODE_ESP_MB, mounted at /boot), partition 2 the root filesystem (ext4).
NODE_ESP_MB=256
NODE_ESP_OFFSET=$((1024 * 1024))
NODE_ROOT_OFFSET=$(( (1 + NODE_ESP_MB) * 1024 * 1024 ))
NODE_SDBOOT=/usr/lib/systemd/boot/efi/systemd-bootx64.efi

# node_efi_disk ROOT IMG [FREE_MB]: the disk of the node root ROOT, made
# without mounting anything: the ESP from ROOT/boot (mkfs.vfat, mcopy),
# with systemd-boot (Debian's systemd-boot-efi) at the removable media
# path EFI/BOOT/BOOTX64.EFI, which the firmware boots with no boot entry
# in its NVRAM; the root filesystem from the rest of ROOT (mkfs.ext4 -d,
# /boot an empty mount point), FREE_MB (default 768) free on it.
node_efi_disk() {
	local root=$1 img=$2 free=${3:-768} tmp root_mb rc=0
	[ -r "$NODE_SDBOOT" ] || { echo "node_efi_disk: no $NODE_SDBOOT (systemd-boot-efi)" >&2; return 1; }
	tmp=$(mktemp -d "$(dirname "$img")/.disk.XXXXXX")
	rm -f "$img"
	mkfs.vfat -n ESP -C "$tmp/esp.img" $((NODE_ESP_MB * 1024)) > /dev/null &&
		mmd -i "$tmp/esp.img" ::/EFI ::/EFI/BOOT ::/EFI/systemd &&
		mcopy -i "$tmp/esp.img" "$NODE_SDBOOT" ::/EFI/BOOT/BOOTX64.EFI &&
		mcopy -i "$tmp/esp.img" "$NODE_SDBOOT" ::/EFI/systemd/systemd-bootx64.efi &&
		{ [ -z "$(ls -A "$root/boot")" ] || mcopy -s -i "$tmp/esp.img" "$root/boot"/* ::/; } || rc=1
	if [ $rc = 0 ] && mountpoint -q "$root/boot"; then
		# /boot a tmpfs (node_boot_mount): the folder under it is empty
		cp -a "$root/boot" "$tmp/boot" && umount "$root/boot" || rc=1
		root_mb=$(( $(du -sm "$root" | cut -f1) + free ))
		[ $rc = 0 ] && { mkfs.ext4 -q -F -L node-root -d "$root" "$tmp/root.img" "${root_mb}M" > /dev/null || rc=1; }
		mount -t tmpfs -o mode=0755,size=2g rafleet-node-boot "$root/boot" && cp -a "$tmp/boot/." "$root/boot/"
	elif [ $rc = 0 ]; then
		mv "$root/boot" "$tmp/boot" && mkdir "$root/boot" || rc=1
		root_mb=$(( $(du -sm "$root" | cut -f1) + free ))
		[ $rc = 0 ] && { mkfs.ext4 -q -F -L node-root -d "$root" "$tmp/root.img" "${root_mb}M" > /dev/null || rc=1; }
		rmdir "$root/boot" 2> /dev/null
		mv "$tmp/boot" "$root/boot"
	fi
	[ $rc = 0 ] && { node_gpt_image "$img" "$tmp/esp.img" "$tmp/root.img" "$root_mb" || rc=1; }
	rm -rf "$tmp"
	[ $rc = 0 ] || { echo "node_efi_disk: cannot make $img from $root" >&2; rm -f "$img"; }
	return $rc
}

# node_gpt_image IMG ESP_IMG [ROOT_IMG ROOT_MB]: the disk IMG, GPT, the
# ESP (NODE_ESP_MB) at 1 MiB then the root partition (ROOT_MB), their
# filesystems copied in from the two images; without ROOT_IMG the ESP alone
# (the Secure Boot tests' disks)
node_gpt_image() {
	local img=$1 root_img=${3:-} root_mb=${4:-0} root_line=
	[ -n "$root_img" ] &&
		root_line="start=$(( (1 + NODE_ESP_MB) * 2048 )), size=$((root_mb * 2048)), type=4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709, name=root"
	rm -f "$img"
	truncate -s $(( (1 + NODE_ESP_MB + root_mb + 1) * 1024 * 1024 )) "$img" &&
		sfdisk -q "$img" > /dev/null <<-EOF &&
		label: gpt
		start=2048, size=$((NODE_ESP_MB * 2048)), type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name=ESP
		$root_line
		EOF
		dd if="$2" of="$img" bs=1M seek=1 conv=notrunc,sparse status=none &&
		{ [ -z "$root_img" ] || dd if="$root_img" of="$img" bs=1M seek=$((1 + NODE_ESP_MB)) conv=notrunc,sparse status=none; }
}

# node_copy_libs ROOT BINARY [UNPACKED]: the shared libraries BINARY loads
# (ldd), copied into ROOT at their paths, for a busybox initramfs; a
# library found under UNPACKED (a .deb unpacked there, whose lib dir ldd is
# told of) goes to its path inside UNPACKED
node_copy_libs() {
	local r=$1 bin=$2 from=${3:-} libs lib ma
	ma=$(uname -m)-linux-gnu
	libs=$(LD_LIBRARY_PATH=${from:+$from/usr/lib/$ma:$from/lib/$ma} ldd "$bin" |
		awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }') && [ -n "$libs" ] ||
		{ echo "node_copy_libs: ldd $bin failed" >&2; return 1; }
	for lib in $libs; do
		if [ -n "$from" ] && [ "${lib#"$from"/}" != "$lib" ]; then
			install -D -m 0755 "$(readlink -f "$lib")" "$r/${lib#"$from"/}" || return 1
		else
			install -D -m 0755 "$(readlink -f "$lib")" "$r$lib" || return 1
		fi
	done
}

# node_grub_disk ROOT IMG [FREE_MB]: the disk of a node that boots with
# GRUB, as Debian lays it out: /boot on the root filesystem (made from all
# of ROOT, FREE_MB free, default 768), an empty ESP for /boot/efi, where
# grub-install puts GRUB (tests/host/test_node_grub's setup boot).
node_grub_disk() {
	local root=$1 img=$2 free=${3:-768} tmp root_mb rc=0
	tmp=$(mktemp -d "$(dirname "$img")/.disk.XXXXXX")
	rm -f "$img"
	node_boot_umount "$root" || rc=1
	root_mb=$(( $(du -sm "$root" | cut -f1) + free ))
	[ $rc = 0 ] && mkfs.vfat -n ESP -C "$tmp/esp.img" $((NODE_ESP_MB * 1024)) > /dev/null &&
		mkfs.ext4 -q -F -L node-root -d "$root" "$tmp/root.img" "${root_mb}M" > /dev/null &&
		node_gpt_image "$img" "$tmp/esp.img" "$tmp/root.img" "$root_mb" || rc=1
	rm -rf "$tmp"
	[ $rc = 0 ] || { echo "node_grub_disk: cannot make $img from $root" >&2; rm -f "$img"; }
	return $rc
}

# node_rdump IMG PATH DIR: copy PATH (a folder) of the root filesystem of
# the node disk IMG into DIR, with debugfs (read, not mounted)
node_rdump() {
	mkdir -p "$3"
	debugfs -R "rdump $2 $3" "$1?offset=$NODE_ROOT_OFFSET" > /dev/null 2>&1
}

# node_esp_cat IMG PATH: a file of the ESP of the node disk IMG (mtools)
node_esp_cat() {
	mtype -i "$1@@$NODE_ESP_OFFSET" "::$2"
}

# node_esp_fsck IMG: fsck.vfat -n of the ESP of IMG (a copy of it, as a
# file: fsck.vfat reads no offset); its output and exit status
node_esp_fsck() {
	local t rc
	t=$(mktemp "$(dirname "$1")/.esp.XXXXXX")
	dd if="$1" of="$t" bs=1M skip=1 count="$NODE_ESP_MB" status=none
	fsck.vfat -n "$t"
	rc=$?
	rm -f "$t"
	return $rc
}

# node_esp_state IMG: what fsck.vfat -n finds on the ESP of IMG, in one
# word: "clean"; "dirty-bit" when the only finding is the bit Linux sets
# at mount and clears at unmount (a reset with the ESP mounted leaves it:
# not damage, and systemd-fsck's fsck -a clears it at the next boot); else
# "errors:" and fsck's findings on one line
node_esp_state() {
	local out rc
	out=$(node_esp_fsck "$1" 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		echo clean
	elif [ $rc = 1 ] && ! grep -vE '^fsck\.fat |^Dirty bit is set|Automatically removing dirty bit|^Leaving filesystem unchanged|^$|: [0-9]+ files, [0-9]+/[0-9]+ clusters$' <<< "$out" | grep -q .; then
		echo dirty-bit
	else
		echo "errors: $(tr '\n' ' ' <<< "$out")"
	fi
}

# node_start IMG PREFIX TIMEOUT QEMU_ARGS...: one start of the node on
# IMG, as a machine starts: OVMF (Debian's, UEFI) with its variable store
# in PREFIX.vars (made from OVMF_VARS_4M.fd at the first start, kept
# across starts as a machine's NVRAM), which boots systemd-boot from the
# ESP, which boots its default entry (or a one-shot); in QEMU
# (tests/vm/guest-status qemu_tcg: TCG, -no-reboot, the i6300esb
# watchdog) for at most TIMEOUT s, with QEMU_ARGS (serial ports, NIC)
# added.  QEMU's exit status.
node_start() {
	local img=$1 p=$2 t=$3
	shift 3
	# shellcheck source=tests/vm/guest-status
	. "$(dirname "${BASH_SOURCE[0]}")/../vm/guest-status"
	[ -s "$p.vars" ] || cp /usr/share/OVMF/OVMF_VARS_4M.fd "$p.vars"
	# one vCPU, qemu_tcg's default (tests/vm/guest-status says why)
	qemu_tcg "$t" \
		-drive if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd \
		-drive "if=pflash,format=raw,unit=1,file=$p.vars" \
		-drive "file=$img,if=virtio,format=raw" "$@"
}

# node_unansi [-u]: the text without terminal escapes (GRUB's colours on
# EFI reach every serial port, the guest's ttyS1 too, before its first
# line); -u: unbuffered
node_unansi() { sed "$@" 's/\x1b\[[0-9;=?]*[A-Za-z]//g'; }

# node_boot_files IMG DIR: what the boot loader reads, as a start left it
# (the crash tests compare them): DIR/loader.conf and DIR/entries (the
# names in /loader/entries) of the ESP, DIR/grubenv of the root
# filesystem, those that IMG has
node_boot_files() {
	mkdir -p "$2"
	node_esp_cat "$1" /loader/loader.conf > "$2/loader.conf" 2> /dev/null || rm -f "$2/loader.conf"
	mdir -b -i "$1@@$NODE_ESP_OFFSET" ::/loader/entries 2> /dev/null | sed 's|.*/||' | sort > "$2/entries" ||
		rm -f "$2/entries"
	[ -s "$2/entries" ] || rm -f "$2/entries"
	debugfs -R "cat /boot/grub/grubenv" "$1?offset=$NODE_ROOT_OFFSET" > "$2/grubenv" 2> /dev/null
	[ -s "$2/grubenv" ] || rm -f "$2/grubenv"
}

# node_start_of W STEP: the last start of node_machine W whose guest said
# "RAFLEET-BOOT STEP ..." (empty if none)
node_start_of() {
	grep -l "^RAFLEET-BOOT $2 " "$1"/results-*.txt 2> /dev/null |
		sed 's/.*results-\([0-9]*\)\.txt/\1/' | sort -n | tail -n 1
}

# node_machine W TIMEOUT MAX_STARTS: the node on W/root.img (node_efi_disk)
# as a machine: each start goes through the firmware and systemd-boot
# (node_start), in QEMU (TCG, -no-reboot: a reset or reboot ends the
# start, and the next start is the machine's cold boot, with the same
# NVRAM); kexec boots stay inside one start.  A virtio NIC on QEMU's user
# network, restricted to the guest itself (no way out).  Until the guest
# says RAFLEET-DONE (done_=yes) or RAFLEET-ABORT, or MAX_STARTS.  The
# guest's ttyS1 is W/results-N.log, concatenated into W/results.txt; its
# commentary is shown as it comes, each "RAFLEET-BOOT STEP ..." line's
# time in W/timeline, each start's time in W/start-times; after each
# start, the ESP as fsck.vfat -n finds it (node_esp_state) and its
# loader.conf's default line in W/esp-after ("N STATE | DEFAULT"), and the
# boot loader's files in W/after-N (node_boot_files).
# QEMU_TCG_CPU as the caller sets it.
node_machine() {
	local w=$1 timeout_s=$2 max=$3 run t0 qemu rc
	# shellcheck source=tests/vm/guest-status
	. "$(dirname "${BASH_SOURCE[0]}")/../vm/guest-status"
	_nm_follow() {
		local line
		while IFS= read -r line; do
			line=${line%$'\r'}
			# OVMF writes its console to every serial port: not the guest's
			case "$line" in *BdsDxe:*) continue ;; esac
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
		tail --pid=$qemu -n +1 -F "$w/results-$run.log" 2>/dev/null | node_unansi -u | _nm_follow
		wait $qemu
		rc=$?
		echo "# start $run ran for $(( $(date +%s) - t0 )) s, qemu exit status $rc"
		echo "$run $(( $(date +%s) - t0 ))" >> "$w/start-times"
		echo "$run $(node_esp_state "$w/root.img") | $(node_esp_cat "$w/root.img" /loader/loader.conf 2> /dev/null |
			sed -n 's/^default[[:space:]]*//p' | tr '\n' ' ')" >> "$w/esp-after"
		node_boot_files "$w/root.img" "$w/after-$run"
		tr -d '\r' < "$w/results-$run.log" 2>/dev/null | node_unansi > "$w/results-$run.txt"
		cat "$w/results-$run.txt" >> "$w/results.txt"
		cp "$w/console-$run.log" "$w/console.log"
		cp "$w/qemu-$run.log" "$w/qemu.log"
		[ $rc = 0 ] || { ok 1 "start $run: qemu exit status $rc (124: hung)"; guest_console_tail "$w" 60; break; }
		grep -q '^RAFLEET-DONE' "$w/results-$run.txt" && { done_=yes; break; }
		grep -q '^RAFLEET-ABORT' "$w/results-$run.txt" && { echo "# the guest gave up: no further start"; break; }
	done
}
