/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"
#include "units.h"

const char *const pb_place_words[] = { "any", "same", "smt", "core", "llc", "numa", "all", NULL };

/* First line of ROOT/REL into BUF: 0 or -errno. */
static int read_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[4096];
	FILE *f;
	int r = 0;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		r = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return r;
}

static int read_int(const char *root, const char *rel, int def)
{
	char buf[64];
	char *end;
	long v;

	if (read_line(root, rel, buf, sizeof(buf)))
		return def;
	v = strtol(buf, &end, 10);
	return end == buf ? def : (int)v;
}

/* The lowest CPU of the list in ROOT/REL, or DEF. */
static int read_first_cpu(const char *root, const char *rel, int def)
{
	char buf[4096];
	cpu_set_t set;

	if (read_line(root, rel, buf, sizeof(buf)) || pb_parse_cpu_list(buf, CPU_SETSIZE, &set))
		return def;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			return c;
	return def;
}

/* The highest-level cache of CPU: its level and lowest sharing CPU. */
static void read_llc(const char *root, int cpu, struct pb_topo_cpu *out)
{
	out->llc = -1;
	out->llc_level = 0;
	for (int i = 0; i < 16; i++) {
		char rel[128];
		int level, first;

		snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/level", cpu, i);
		level = read_int(root, rel, -1);
		if (level < 0)
			continue;
		snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/shared_cpu_list", cpu, i);
		first = read_first_cpu(root, rel, -1);
		if (first >= 0 && level > out->llc_level) {
			out->llc_level = level;
			out->llc = first;
		}
	}
}

/* The nodeN entry of ROOT/cpuCPU, or -1. */
static int read_node(const char *root, int cpu)
{
	char path[4096];
	struct dirent *de;
	DIR *d;
	int node = -1;

	snprintf(path, sizeof(path), "%s/cpu%d", root, cpu);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) && isdigit((unsigned char)de->d_name[4])) {
			node = atoi(de->d_name + 4);
			break;
		}
	closedir(d);
	return node;
}

static int cpu_dirs(const char *root, cpu_set_t *set)
{
	struct dirent *de;
	DIR *d = opendir(root);

	if (!d)
		return -errno;
	CPU_ZERO(set);
	while ((de = readdir(d))) {
		char *end;
		long c;

		if (strncmp(de->d_name, "cpu", 3) || !isdigit((unsigned char)de->d_name[3]))
			continue;
		c = strtol(de->d_name + 3, &end, 10);
		if (!*end && c >= 0 && c < CPU_SETSIZE)
			CPU_SET((int)c, set);
	}
	closedir(d);
	return 0;
}

int pb_topo_read(const char *root, const cpu_set_t *allowed, struct pb_topo *t)
{
	char buf[4096];
	cpu_set_t online, present;
	int r = cpu_dirs(root, &present);

	t->n = 0;
	if (r)
		return r;
	if (read_line(root, "online", buf, sizeof(buf)) == 0 &&
	    pb_parse_cpu_list(buf, CPU_SETSIZE, &online) == 0)
		CPU_AND(&online, &online, &present);
	else
		online = present;
	for (int c = 0; c < CPU_SETSIZE && t->n < PB_TOPO_MAX_CPUS; c++) {
		struct pb_topo_cpu *p = &t->cpu[t->n];
		char rel[128];

		if (!CPU_ISSET(c, &online) || (allowed && !CPU_ISSET(c, allowed)))
			continue;
		p->cpu = c;
		snprintf(rel, sizeof(rel), "cpu%d/topology/thread_siblings_list", c);
		p->core = read_first_cpu(root, rel, c);
		snprintf(rel, sizeof(rel), "cpu%d/topology/physical_package_id", c);
		p->package = read_int(root, rel, 0);
		read_llc(root, c, p);
		p->node = read_node(root, c);
		t->n++;
	}
	return 0;
}

static bool same_core(const struct pb_topo_cpu *x, const struct pb_topo_cpu *y)
{
	return x->package == y->package && x->core == y->core;
}

/* The first pair (i < j) that OK accepts. */
static bool find_pair(const struct pb_topo *t, enum pb_place p, int *a, int *b)
{
	for (size_t i = 0; i < t->n; i++)
		for (size_t j = i + 1; j < t->n; j++) {
			const struct pb_topo_cpu *x = &t->cpu[i], *y = &t->cpu[j];
			bool ok = false;

			switch (p) {
			case PB_PLACE_SMT: ok = same_core(x, y); break;
			case PB_PLACE_CORE:
				ok = !same_core(x, y) && x->llc >= 0 && x->llc == y->llc;
				break;
			case PB_PLACE_LLC: ok = x->llc >= 0 && y->llc >= 0 && x->llc != y->llc; break;
			case PB_PLACE_NUMA: ok = x->node >= 0 && y->node >= 0 && x->node != y->node; break;
			default: break;
			}
			if (ok) {
				*a = x->cpu;
				*b = y->cpu;
				return true;
			}
		}
	return false;
}

static bool any_unknown(const struct pb_topo *t, bool llc)
{
	for (size_t i = 0; i < t->n; i++)
		if ((llc ? t->cpu[i].llc : t->cpu[i].node) < 0)
			return true;
	return false;
}

int pb_topo_pick(const struct pb_topo *t, enum pb_place p, int *a, int *b, char *why,
		 size_t len)
{
	size_t n = t->n;

	*a = *b = -1;
	if (p == PB_PLACE_ANY)
		return 0;
	if (n == 0) {
		snprintf(why, len, "no usable CPU (online and in this process's affinity mask)");
		return 1;
	}
	if (p == PB_PLACE_SAME) {
		*a = *b = t->cpu[0].cpu;
		return 0;
	}
	if (find_pair(t, p, a, b))
		return 0;
	*a = *b = -1;
	if (n == 1) {
		snprintf(why, len, "only one usable CPU (%d: online and in this process's affinity "
			 "mask)", t->cpu[0].cpu);
		return 1;
	}
	if ((p == PB_PLACE_CORE || p == PB_PLACE_LLC) && any_unknown(t, true)) {
		snprintf(why, len, "the kernel gives no cache topology "
			 "(cpu*/cache/index*/shared_cpu_list)");
		return 1;
	}
	switch (p) {
	case PB_PLACE_SMT:
		snprintf(why, len, "no two of the %zu usable CPUs are SMT siblings (one thread "
			 "per core)", n);
		break;
	case PB_PLACE_CORE:
		snprintf(why, len, "no two of the %zu usable CPUs are on different cores "
			 "sharing a last-level cache", n);
		break;
	case PB_PLACE_LLC:
		snprintf(why, len, "all %zu usable CPUs share one last-level cache (L%d)", n,
			 t->cpu[0].llc_level);
		break;
	case PB_PLACE_NUMA:
		if (any_unknown(t, false))
			snprintf(why, len, "the kernel gives no NUMA topology (no cpu*/node* entries)");
		else
			snprintf(why, len, "all %zu usable CPUs are on NUMA node %d", n,
				 t->cpu[0].node);
		break;
	default:
		snprintf(why, len, "no such placement");
		break;
	}
	return 1;
}
