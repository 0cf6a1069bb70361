// SPDX-License-Identifier: GPL-2.0
/* mountinfo: the mount of a path, its superblock's device and source. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakefs.h"
#include "host/mountinfo.h"
#include "tap.h"

int main(void)
{
	char dir[] = "/tmp/rafleet-mountinfo-XXXXXX", path[300], info[4096];
	struct mount_of m;

	if (!ok(mkdtemp(dir) != NULL, "temp dir"))
		return tap_done();
	snprintf(path, sizeof(path), "%s/sub dir/file", dir);
	fakefs_put(dir, "sub dir/file", "x");
	snprintf(info, sizeof(info),
		 "21 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		 "30 21 0:23 / %s rw shared:2 - tmpfs tmpfs rw\n"
		 "31 30 0:45 /sub %s/sub\\040dir rw shared:3 master:1 - btrfs /dev/vdc rw,space_cache\n"
		 "garbage line\n", dir, dir);
	fakefs_put(dir, "mountinfo", info);
	snprintf(info, sizeof(info), "%s/mountinfo", dir);
	setenv("RAFLEET_MOUNTINFO", info, 1);

	is_i64(mount_of_path(path, &m), 0, "a file under a nested mount is found");
	ok(m.major == 0 && m.minor == 45, "  the deepest mount wins, its s_dev 0:45 (%u:%u)", m.major, m.minor);
	is_str(m.source, "/dev/vdc", "  its source, after optional fields");
	is_str(m.fstype, "btrfs", "  its type");
	snprintf(path, sizeof(path), "%s/mountinfo", dir);
	is_i64(mount_of_path(path, &m), 0, "a file beside it");
	ok(m.major == 0 && m.minor == 23, "  is on the tmpfs (%u:%u)", m.major, m.minor);
	is_i64(mount_of_path("/", &m), 0, "/");
	ok(m.major == 254 && m.minor == 0, "  is on the root mount");
	is_i64(mount_of_path("/nonexistent/x", &m), -ENOENT, "a missing path: -ENOENT");
	setenv("RAFLEET_MOUNTINFO", "/nonexistent", 1);
	is_i64(mount_of_path("/", &m), -ENOENT, "no mountinfo: an error");
	fakefs_rm_tree(dir);
	return tap_done();
}
