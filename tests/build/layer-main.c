// SPDX-License-Identifier: GPL-2.0
/*
 * An empty main for `make layers`: each layer's archive is linked whole
 * against this and the layers below it only, so that a call upward (or
 * sideways) is an undefined reference and the build fails.
 */
int main(void)
{
	return 0;
}
