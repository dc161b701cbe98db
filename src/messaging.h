/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hackbench messaging workload over pipes or socketpairs, as used by the
 * kernel test robot's 2013 report on pipe_write() (8% less throughput, 46%
 * more involuntary context switches).
 *
 * GROUPS groups; each has FDS receivers, each with its own pipe, and FDS
 * senders.  Every sender writes LOOPS messages of SIZE bytes to every
 * receiver of its group (blocking writes of the whole message); every
 * receiver reads exactly SIZE * LOOPS * FDS bytes.  Workers are processes
 * (default) or threads.  All workers report ready before the clock starts;
 * the elapsed time runs from the start signal until every worker is done.
 *
 * The structure follows hackbench (rt-tests) so the two can be compared on
 * the same workload.  Children are registered with the cleanup module, so a
 * signal kills and reaps them; the caller arms the watchdog if it wants one.
 */
#ifndef PB_MESSAGING_H
#define PB_MESSAGING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

enum pb_messaging_kind { PB_MESSAGING_PIPE, PB_MESSAGING_SOCKETPAIR };

/* "pipe", "socketpair", NULL */
extern const char *const pb_messaging_kind_names[];

/* Upper bound on 2 * groups * fds (the cleanup registry's size). */
#define PB_MESSAGING_MAX_WORKERS 4096

struct pb_messaging_params {
	enum pb_messaging_kind kind;
	bool threads;          /* threads instead of processes */
	uint64_t groups;       /* >= 1 */
	uint64_t fds;          /* receivers (and senders) per group, >= 1 */
	uint64_t loops;        /* messages per sender per receiver, >= 1 */
	uint64_t size;         /* bytes per message, >= 1 */
	/* --profile: a sampler on each CPU (NULL: none), enabled from the start
	 * signal until the last worker is done, keeping the workers' samples
	 * (added to PROF_INTO; NULL: dropped) */
	struct pb_prof *prof;
	struct pb_prof_ips *prof_into;
};

struct pb_messaging_result {
	uint64_t elapsed_ns;
	uint64_t messages;     /* groups * fds * fds * loops */
	uint64_t bytes;        /* messages * size */
	/* Summed over all workers (wait4() rusage, or RUSAGE_THREAD). */
	uint64_t voluntary_ctxsw, involuntary_ctxsw;
	uint64_t cpu_user_ns, cpu_sys_ns;
	uint64_t page_faults;  /* minor and major */
};

/* Number of workers: 2 * groups * fds. */
uint64_t pb_messaging_workers(const struct pb_messaging_params *p);

/*
 * Check up front that the run fits the process's limits: file descriptors
 * (RLIMIT_NOFILE against the descriptors open now plus what the run holds
 * at once) and tasks (RLIMIT_NPROC, unless privileged).  Returns 0, -EMFILE
 * or -EAGAIN, with a one-line reason in WHY.
 */
int pb_messaging_check_limits(const struct pb_messaging_params *p, char *why, size_t len);

/*
 * Run one repetition.  Returns 0 with RES filled in, or -errno with a
 * one-line reason in ERR: -EMFILE/-ENFILE (pipes), -EAGAIN (fork or
 * pthread_create), -ENOMEM, -EIO (a worker failed or died).  On every path
 * every child has been reaped, every thread joined and every descriptor
 * closed before it returns.
 */
int pb_messaging_run(const struct pb_messaging_params *p, struct pb_messaging_result *res,
		     char *err, size_t errlen);

#endif
