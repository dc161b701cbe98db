/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --copies: N independent copies of one piece of work, each in a child
 * process of its own, started together (as will-it-scale and LKP run
 * pipe1): every child gets ready (its pipe made, its CPU taken), then all
 * wait at one gate that opens at once.  Where each copy ran is recorded.
 */
#ifndef PB_COPIES_H
#define PB_COPIES_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PB_COPIES_MAX 1024

/* Parse --copies LIST: counts and ranges ("1,2,4", "1-4", "1-ncpu"; "ncpu"
 * is NCPU, the CPUs the process may use), ascending without repeats, each
 * 1..PB_COPIES_MAX, at most MAX of them, into OUT.  0, or -1 with the
 * reason in WHY. */
int pb_copies_parse(const char *s, long ncpu, unsigned *out, size_t max, size_t *n,
		    char *why, size_t len);

/* Where copy I ran: the CPU it was pinned to (-1: not pinned), and the one
 * it was on when its work began and ended. */
struct pb_copy_place {
	int pinned, cpu_start, cpu_end;
};

/*
 * The work of one copy, in the child, after the gate opened: fills OUT
 * (SIZE bytes of shared memory) and returns 0 or -errno.  PREPARE, before
 * the gate (NULL: none), gets the copy ready and may fail the same way.
 */
typedef int pb_copy_prepare_fn(void *arg, unsigned i, void *out);
typedef int pb_copy_work_fn(void *arg, unsigned i, void *out);

struct pb_copies_opts {
	unsigned n;
	/* Pin copy I to the I-th CPU of ALLOWED when N is at most their
	 * number; otherwise none is pinned. */
	const cpu_set_t *allowed;
	pb_copy_prepare_fn *prepare;
	pb_copy_work_fn *work;
	pb_copy_work_fn *finish;     /* after WORK, in the child (NULL: none) */
	void *arg;
	size_t out_size;
};

/* Copy I's result: OUT's I-th slot, its return value, its place. */
struct pb_copies_run {
	void *out;                  /* N x out_size bytes */
	int *rc;
	struct pb_copy_place *place;
	uint64_t wall_ns;           /* from the gate to the last child's exit */
	int harness_err;            /* fork, mmap, pipe: errno; 0 none */
	char harness_what[32];
	bool timed_out;             /* the watchdog fired: the children were killed */
};

/* Run the copies; RUN's arrays are shared memory, freed by
 * pb_copies_free.  0, or -1 with harness_err or timed_out set. */
int pb_copies_run(const struct pb_copies_opts *o, struct pb_copies_run *run);
void pb_copies_free(const struct pb_copies_opts *o, struct pb_copies_run *run);

/* The copies' FIFO directories (N of DIR, malloc'd) removed with what a
 * copy killed before it closed its FIFO left in them, and DIR freed. */
void pb_copies_dirs_free(char (*dir)[4096], unsigned n);

/* One count of a text's scaling line: " x4 1234.5", and after the first
 * count " (308.6 a copy, 91%)" with EFF the efficiency (1: linear). */
void pb_copies_scaling_item(FILE *fp, bool first, unsigned copies, double rate, double eff,
			    int decimals);

/* A measured repetition's copies in its JSON object X: each copy's rate
 * under RATE_KEY (null where unknown), the CPU it was pinned to (null:
 * none), and where it was when its work began and ended. */
struct json_object;
void pb_copies_rep_json(struct json_object *x, const double *rate,
			const struct pb_copy_place *place, unsigned n, const char *rate_key);

#endif
