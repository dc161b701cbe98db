/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Many writers and readers on one pipe (throughput --writers N --readers M):
 * N writer threads write records of SIZE bytes (at most PIPE_BUF, so each
 * write is atomic), M reader threads read SIZE bytes at a time.  Each
 * record carries its writer, its sequence number and a payload made from
 * both, so the readers can tell a record that arrived whole from one that
 * was torn, and the counts at the end tell a record lost or delivered
 * twice.
 *
 * Blocking (the default): plain read() and write().  Polling: the ends are
 * O_NONBLOCK and a call that says EAGAIN waits in poll().
 */
#ifndef PB_CONTENTION_H
#define PB_CONTENTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PB_MW_MAX 64            /* writers, and readers, at most */
#define PB_MW_HEADER 24         /* bytes of a record's header: the smallest record */

struct pb_mw_opts {
	int rfd, wfd;           /* the pipe's ends, blocking or not as NONBLOCK says */
	size_t size;            /* bytes per record, PB_MW_HEADER..PIPE_BUF */
	unsigned writers, readers;
	bool nonblock;          /* O_NONBLOCK ends: EAGAIN waits in poll() */
	uint64_t records;       /* per writer; 0: until DURATION_NS has passed */
	uint64_t duration_ns;
	/* After the writers are done the write end is closed (the readers then
	 * see EOF): by pb_mw_run, which owns WFD from the call on. */
};

/* One party's share: bytes and records moved, calls made (EAGAIN ones
 * too), the EAGAINs, and its thread's context switches over the run. */
struct pb_mw_party {
	uint64_t bytes, records, calls, eagain;
	int64_t vcsw, ivcsw;    /* voluntary, involuntary; -1 unknown */
};

struct pb_mw_result {
	uint64_t elapsed_ns;    /* from the start of the writers to the readers' EOF */
	struct pb_mw_party w[PB_MW_MAX], r[PB_MW_MAX];
	/* Integrity: the kernel's failures. */
	uint64_t short_writes;  /* a write of SIZE <= PIPE_BUF that returned less */
	uint64_t torn;          /* reads that were not one whole record */
	uint64_t disorder;      /* a writer's record read before one it wrote earlier */
	uint64_t lost;          /* records written, never read */
	uint64_t duplicated;    /* records read more often than written */
	char first_bad[200];    /* the first failure, in words ("" none) */
	/* Setup: the harness's own failures (thread creation), not the kernel's. */
	int harness_err;
	char harness_what[64];
	/* A call that failed: "write", "read", "poll" with its errno. */
	int call_err;
	char call_what[16];
};

/* Run it once.  0, -EIO on an integrity failure (see the counts and
 * first_bad), -errno of a failing read, write or poll (call_err,
 * call_what), -EAGAIN-free harness failures (harness_err).  Closes
 * O->wfd. */
int pb_mw_run(const struct pb_mw_opts *o, struct pb_mw_result *res);

/* The largest of N values over the smallest; NAN when N < 2 or the
 * smallest is 0 (a party that moved nothing). */
double pb_mw_fairness(const uint64_t *v, unsigned n);

#endif
