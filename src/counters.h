/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counters of a measured loop, per operation: CPU time (task-clock, and
 * user/system from getrusage), context switches, migrations and page
 * faults always (software perf events, getrusage where those are
 * refused); cycles, instructions and cache misses where the machine has a
 * PMU and the kernel lets the process count them.  Counting, not
 * sampling: no interrupt in the loop.  For one thread that does not
 * switch (a per-task event makes each context switch dearer).
 */
#ifndef PB_COUNTERS_H
#define PB_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

enum pb_ctr {
	PB_CTR_TASK_CLOCK, PB_CTR_CTXSW, PB_CTR_MIGRATIONS, PB_CTR_FAULTS,
	PB_CTR_CYCLES, PB_CTR_INSTRUCTIONS, PB_CTR_CACHE_MISSES,
	PB_CTR_USER_NS, PB_CTR_SYS_NS,      /* getrusage */
	PB_CTR_COUNT
};
#define PB_CTR_FIRST_HW PB_CTR_CYCLES
/* JSON names: "cpu_task_clock_ns", "context_switches", ... (compare takes
 * them for side counters) */
extern const char *const pb_ctr_names[];

/* One loop's counts; HAVE: counted. */
struct pb_ctr_values {
	double v[PB_CTR_COUNT];
	bool have[PB_CTR_COUNT];
};

struct pb_ctrs {
	int fd[PB_CTR_FIRST_HW + 3];
	uint64_t start[PB_CTR_FIRST_HW + 3];
	struct rusage ru0;
	bool hw;                    /* the hardware counters opened */
	char hw_why[160];           /* else why not (both kept by pb_ctrs_close) */
};

/* Open the counters of the calling thread (those refused stay unknown;
 * the hardware ones' refusal in C->hw_why). */
void pb_ctrs_open(struct pb_ctrs *c);
void pb_ctrs_start(struct pb_ctrs *c);
/* Stop and put the loop's counts in OUT (NULL: drop them). */
void pb_ctrs_stop(struct pb_ctrs *c, struct pb_ctr_values *out);
void pb_ctrs_close(struct pb_ctrs *c);

/* Add V to SUM (FIRST: SUM starts from V); a counter is known in SUM when
 * it is in every V. */
void pb_ctr_add(struct pb_ctr_values *sum, const struct pb_ctr_values *v, bool first);
/* Each counter of SUM over OPS operations, by name (null where unknown). */
struct json_object;
struct json_object *pb_ctr_per_json(const struct pb_ctr_values *sum, double ops);
/* Instructions per cycle of SUM, or NAN. */
double pb_ctr_ipc(const struct pb_ctr_values *sum);

#endif
