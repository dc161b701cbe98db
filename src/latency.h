/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The latency command's engine: two parties ping-pong a message over two
 * channels (A to B, B to A) and A times every round trip.  Party B is a
 * forked process or a thread; each party counts its own context switches
 * and migrations around its loop and B reports through shared memory,
 * never through the channels under test.
 */
#ifndef PB_LATENCY_H
#define PB_LATENCY_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "endpoint.h"
#include "histogram.h"
#include "profile.h"

enum pb_lat_wait { PB_LAT_BLOCK, PB_LAT_POLL, PB_LAT_SPIN, PB_LAT_WAIT_COUNT };
extern const char *const pb_lat_wait_words[];   /* block, poll, spin, all, NULL */
#define PB_LAT_WAIT_WORD_ALL 3u

/* Where the counters come from (pb_lat_counters_probe). */
enum pb_lat_source { PB_LAT_SRC_PERF, PB_LAT_SRC_PROC };

struct pb_lat_opts {
	enum pb_kind kind;
	uint64_t size;            /* bytes per message */
	bool threads;             /* party B is a thread (else a process) */
	enum pb_lat_wait wait;
	bool uring;               /* through io_uring (each party its own ring) */
	bool spin_yield;          /* spin: sched_yield() on EAGAIN (one CPU) */
	int cpu_a, cpu_b;         /* -1: not pinned */
	uint64_t loops;           /* round trips, or 0 with duration_ns */
	uint64_t duration_ns;
	uint64_t interval_ns;     /* 0: no time series */
	uint64_t clock_cost_ns;   /* subtracted from every round trip */
	enum pb_lat_source source;
	const char *dir[2];       /* private directories for the two FIFOs */
	uint64_t prof_period_ns;  /* --profile: the parties' loops are sampled; 0: off */
	bool prof_cpus;           /* ... by party A on each CPU (else each its thread) */
};

/* One party's counters over its loop; -1 where not available. */
struct pb_lat_party {
	int64_t vol_ctxsw, invol_ctxsw, migrations, ctxsw;  /* ctxsw: perf only */
	int64_t user_ns, sys_ns, faults;  /* getrusage: CPU time, page faults */
	cpu_set_t seen;           /* CPUs sched_getcpu reported */
};

struct pb_lat_interval {
	uint64_t end_ns;          /* since the first round trip began */
	uint64_t round_trips, p50_ns, p99_ns;
};

struct pb_lat_result {
	struct pb_hist hist;      /* initialised by the caller */
	uint64_t round_trips, elapsed_ns;
	struct pb_lat_party a, b;
	struct pb_lat_interval *iv;   /* malloc'd, niv entries */
	size_t niv;
	struct pb_prof_ips *prof;     /* --profile: both parties' samples are added here */
};

/* Cost of one clock_gettime(CLOCK_MONOTONIC) in ns (the mean over many). */
uint64_t pb_lat_clock_cost(void);

/* --counters: auto, perf, rusage. */
enum pb_lat_counters { PB_LAT_CTR_AUTO, PB_LAT_CTR_PERF, PB_LAT_CTR_RUSAGE };
extern const char *const pb_lat_counter_words[];

/*
 * Where the counters come from, into *SRC, with a line for the output in
 * WHY.  Voluntary and involuntary context switches always come from
 * getrusage.  AUTO prefers /proc/thread-self/sched for migrations, which
 * costs nothing while the parties run, and uses perf_event_open software
 * counters only when that file lacks se.nr_migrations (no
 * CONFIG_SCHED_DEBUG) and the kernel lets the process open them (a per-task
 * perf counter makes every context switch of the task dearer: about 0.7 us
 * per round trip on a 2-CPU VM).  PERF insists on them: -errno when they
 * cannot be opened (WHY says why).  RUSAGE never opens them.
 */
int pb_lat_counters_probe(enum pb_lat_counters want, enum pb_lat_source *src, char *why,
			  size_t len);

/*
 * One repetition.  0, or -errno with a one-line reason in ERR (naming the
 * party that failed or died; "-ETIMEDOUT" when the watchdog fired).
 */
int pb_lat_run(const struct pb_lat_opts *o, struct pb_lat_result *r, char *err, size_t len);

/* Two counts added, -1 (not counted) when either is: a party's counters
 * and the sums over copies and repetitions. */
int64_t pb_lat_add_ctr(int64_t a, int64_t b);

struct pb_uring;
/*
 * Move N bytes through FD, with U through io_uring (NULL: read and write).
 * Returns N, 0 for EOF before the first byte of a read, -EPIPE for EOF
 * inside a message, -ETIMEDOUT when the watchdog fired, or -errno; a
 * stale errno never turns a transfer that moved bytes into an error.
 * With YIELD a spinner gives up the CPU on EAGAIN.
 */
ssize_t pb_lat_xfer(struct pb_uring *u, int fd, char *buf, size_t n, bool rd,
		    enum pb_lat_wait w, bool yield);

#endif
