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
	unsigned long long idle, steal, total;  /* /proc/stat, the CPUs it may use, ticks */
	unsigned long long own_us;              /* this process's and its children's CPU */
	long tick_hz;                           /* ticks per second */
	bool throttled_ok;
	unsigned long long throttled;           /* cgroup cpu.stat nr_throttled */
	double mhz;                             /* mean scaling_cur_freq; < 0 unknown */
};

/* At least this much CPU time (all the CPUs it may use together, in ticks)
 * must pass before a share of it is given. */
#define PB_MACHINE_MIN_TICKS 20

/* What moved between A and B (NULL: no start was marked): steal, idle and
 * the CPU time others used, each a percentage of all the time of the CPUs
 * the run may use (-1: unknown, too short or a counter went backwards), and
 * the throttled periods (-1 unknown). */
struct pb_machine_delta {
	double steal_pct, idle_pct, others_pct;
	long long throttled;
};
void pb_machine_delta(const struct pb_machine_counters *a, const struct pb_machine_counters *b,
		      struct pb_machine_delta *d);

/* The 1-minute load average when the run started; < 0 unknown. */
double pb_machine_start_load(void);

/* The delta from pb_machine_mark_start to now. */
void pb_machine_since_start(struct pb_machine_delta *d);

/* The during_run object: steal_pct, idle_pct and others_busy_pct (see
 * pb_machine_delta), throttled_periods, mhz_start and mhz_end; each null
 * where it is not known. */
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
