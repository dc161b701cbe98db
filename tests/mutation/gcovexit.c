/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Linked into tests/mutation/cover.sh's coverage build only: a forked
 * child that ends with _exit() writes its coverage counts first (libgcov
 * writes them at exit() only), so the lines only children run count as
 * run.  Not part of pipebench.
 */
#include <unistd.h>
#include <sys/syscall.h>

extern void __gcov_dump(void);

void _exit(int status)
{
	__gcov_dump();
	syscall(SYS_exit_group, status);
	for (;;)
		;
}
