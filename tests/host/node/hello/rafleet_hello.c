// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest external module: built against an installed -devel or
 * linux-headers package, it proves they hold what such a build needs; the
 * booted node loads it.
 */
#include <linux/module.h>

static int __init rafleet_hello_init(void)
{
	return 0;
}

static void __exit rafleet_hello_exit(void)
{
}

module_init(rafleet_hello_init);
module_exit(rafleet_hello_exit);
MODULE_DESCRIPTION("rafleet package test: an external module");
MODULE_LICENSE("GPL");
