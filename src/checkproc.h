/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helper processes for conformance checks: forking a helper that cannot
 * outlive its check, bounded reaping, and the fd probe that CRE-03 runs
 * through execve() of /proc/self/exe.
 */
#ifndef PB_CHECKPROC_H
#define PB_CHECKPROC_H

#include <stdbool.h>
#include <string.h>
#include <sys/types.h>

/* The hidden first argument that turns the program into the fd probe. */
#define PB_CHECKPROC_PROBE_ARG "--conformance-fd-probe"

/*
 * fork() a helper of a check.  In the helper, PR_SET_PDEATHSIG makes it die
 * with the check (so a check killed by the watchdog leaves nothing behind).
 * Returns what fork() returns.
 */
pid_t pb_checkproc_fork(void);

/*
 * Reap PID within MS milliseconds.  Returns 0 with *STATUS filled, or
 * -ETIMEDOUT after killing (SIGKILL) and reaping it, or -errno.
 */
int pb_checkproc_wait(pid_t pid, unsigned ms, int *status);

/*
 * The fd probe: `PROG --conformance-fd-probe FD...` exits with bit i set
 * when the i-th FD (up to 6) is open, so 0 means every fd was closed.
 * Returns -1 when ARGV is not a probe call, else the exit status.
 */
int pb_checkproc_probe_main(int argc, const char *const *argv);

/* "EAGAIN" for EAGAIN: details name errno values the way the catalogue does. */
static inline const char *pb_checkproc_errname(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";

	return n ? n : "E?";
}

#endif
