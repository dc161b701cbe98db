/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU topology from sysfs (/sys/devices/system/cpu, or a fake tree in
 * tests) and the CPU pairs the latency command's --placement asks for.
 * Only CPUs that are online and in the process's affinity mask count.
 */
#ifndef PB_TOPOLOGY_H
#define PB_TOPOLOGY_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#define PB_TOPO_MAX_CPUS 1024

struct pb_topo_cpu {
	int cpu;
	int core;      /* lowest CPU of its SMT sibling list (the CPU itself if unknown) */
	int package;   /* physical_package_id, 0 if unknown */
	int llc;       /* lowest CPU sharing its highest-level cache, -1 if unknown */
	int llc_level; /* that cache's level, 0 if unknown */
	int node;      /* NUMA node, -1 if unknown */
};

struct pb_topo {
	size_t n;                          /* usable CPUs, ascending */
	struct pb_topo_cpu cpu[PB_TOPO_MAX_CPUS];
};

/*
 * Read the topology under ROOT (a directory laid out like
 * /sys/devices/system/cpu) for the CPUs in ALLOWED that ROOT/online lists
 * (every cpuN directory when there is no online file).  0, or -errno when
 * ROOT cannot be read.
 */
int pb_topo_read(const char *root, const cpu_set_t *allowed, struct pb_topo *t);

/* The --placement words, in order; "all" is every placement. */
enum pb_place {
	PB_PLACE_ANY, PB_PLACE_SAME, PB_PLACE_SMT, PB_PLACE_CORE, PB_PLACE_LLC, PB_PLACE_NUMA,
	PB_PLACE_COUNT
};
extern const char *const pb_place_words[];   /* ..., "all", NULL */
#define PB_PLACE_WORD_ALL 6u

/*
 * The CPU pair for placement P: 0 with *A and *B set (-1 and -1 for
 * PB_PLACE_ANY: not pinned), or 1 when this machine cannot provide it,
 * with the reason in WHY ("all 2 usable CPUs share one last-level cache").
 */
int pb_topo_pick(const struct pb_topo *t, enum pb_place p, int *a, int *b, char *why,
		 size_t len);

#endif
