/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine's state that decides a pipe figure (the `state` member of
 * the run object, man page OUTPUT): CPU frequency scaling, cpuidle, SMT,
 * mitigations, clocksource, transparent huge pages, the kernel command
 * line, the cgroup CPU limits of this process, and what moved during the
 * run (steal and idle time, throttled periods, CPU frequency).  Anything
 * the system does not expose is null: "not exposed here".
 */
#ifndef PB_MACHINE_H
#define PB_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

/* What the run's deltas are taken between. */
struct pb_machine_counters {
	bool stat_ok;
	unsigned long long idle, steal, total;  /* /proc/stat "cpu", in ticks */
	bool throttled_ok;
	unsigned long long throttled;           /* cgroup cpu.stat nr_throttled */
	double mhz;                             /* mean scaling_cur_freq; < 0 unknown */
};

/* The during_run object: steal_pct and idle_pct (of all CPUs' time between
 * A and B), throttled_periods, mhz_start and mhz_end; each null where A
 * (NULL: no start was marked) or B does not have it or a counter went
 * backwards. */
struct json_object *pb_machine_during(const struct pb_machine_counters *a,
				      const struct pb_machine_counters *b);

/* Record the counters the run's deltas start from (pb_run_mark_start). */
void pb_machine_mark_start(void);

/* The state object, read now: the end of the run. */
struct json_object *pb_machine_json(void);

/*
 * One line of what matters in RUN (a run object: its virtualization and
 * state) for text output: "VM, container docker, no cpufreq, cpuidle
 * haltpoll, SMT notsupported, clocksource tsc, steal 0.3%".
 */
void pb_machine_summary(struct json_object *run, char *buf, size_t len);

#endif
