/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine's state a pipe figure depends on (machine.h).  Every item is
 * read from /sys or /proc when asked, a few dozen small files: well under
 * the 20 ms a run may spend on it.  What a file does not say is null.
 */
#include <config.h>

#include <dirent.h>
#include <json-c/json.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "machine.h"
#include "sysinfo.h"
#include "units.h"

#define CPU_SYS "/sys/devices/system/cpu"

static struct pb_machine_counters at_start;
static bool started;

static struct json_object *text_or_null(const char *path)
{
	char b[4096];

	return pb_read_line_file(path, b, sizeof(b)) ? json_object_new_string(b) : NULL;
}

/* "always [madvise] never": the bracketed word. */
static struct json_object *chosen_word(const char *path)
{
	char b[256], *open, *close;

	if (!pb_read_line_file(path, b, sizeof(b)))
		return NULL;
	open = strchr(b, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close)
		return json_object_new_string(b);
	*close = '\0';
	return json_object_new_string(open + 1);
}

/* /proc/stat summed over the CPUs this process may use. */
static bool proc_stat(struct pb_machine_counters *c)
{
	char line[512];
	cpu_set_t set;
	bool any = false;
	FILE *f;

	c->idle = c->steal = c->total = 0;
	if (sched_getaffinity(0, sizeof(set), &set) != 0 || !(f = fopen("/proc/stat", "re")))
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };
		int cpu;

		if (strncmp(line, "cpu", 3) != 0)
			break;
		if (line[3] < '0' || line[3] > '9')  /* "cpu ": all CPUs together */
			continue;
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 ||
		    cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &set))
			continue;
		c->idle += v[3] + v[4];  /* idle and iowait */
		c->steal += v[7];
		for (int i = 0; i < 8; i++)  /* guest time is already in user */
			c->total += v[i];
		any = true;
	}
	fclose(f);
	return any;
}

static unsigned long long own_cpu_us(void)
{
	struct rusage self, kids;

	if (getrusage(RUSAGE_SELF, &self) != 0 || getrusage(RUSAGE_CHILDREN, &kids) != 0)
		return 0;
	return (unsigned long long)(self.ru_utime.tv_sec + self.ru_stime.tv_sec +
				    kids.ru_utime.tv_sec + kids.ru_stime.tv_sec) * 1000000ULL +
	       (unsigned long long)(self.ru_utime.tv_usec + self.ru_stime.tv_usec +
				    kids.ru_utime.tv_usec + kids.ru_stime.tv_usec);
}

/* The mean current frequency of the CPUs this process may use, in MHz;
 * -1 when cpufreq does not say. */
static double mean_mhz(void)
{
	char path[128], b[64];
	double sum = 0;
	int n = 0;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		snprintf(path, sizeof(path), CPU_SYS "/cpu%d/cpufreq/scaling_cur_freq", cpu);
		if (pb_read_line_file(path, b, sizeof(b))) {
			sum += strtod(b, NULL) / 1000;  /* kHz */
			n++;
		}
	}
	return n ? sum / n : -1;
}

/* This process's cgroup directories: the unified (v2) one and the v1 cpu
 * and cpuset ones, each "" when there is none. */
struct cgroup_dirs {
	char v2[512], cpu[512], cpuset[512];
};

static void cgroup_dirs(struct cgroup_dirs *d)
{
	char line[1024], dir[sizeof(d->v2)];
	FILE *f = fopen("/proc/self/cgroup", "re");

	d->v2[0] = d->cpu[0] = d->cpuset[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *path = ctl ? strchr(ctl + 1, ':') : NULL;
		bool is_cpu = false, is_cpuset = false;

		if (!path)
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		ctl++;
		if (!*ctl) {
			const char *root = access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0 ?
					   "/sys/fs/cgroup" : "/sys/fs/cgroup/unified";

			snprintf(d->v2, sizeof(d->v2), "%s%s", root, strcmp(path, "/") ? path : "");
			continue;
		}
		/* a v1 hierarchy is mounted under its controller list */
		snprintf(dir, sizeof(dir), "/sys/fs/cgroup/%s%s", ctl, strcmp(path, "/") ? path : "");
		for (char *w = strtok(ctl, ","); w; w = strtok(NULL, ",")) {
			is_cpu |= strcmp(w, "cpu") == 0;
			is_cpuset |= strcmp(w, "cpuset") == 0;
		}
		if (is_cpu)
			snprintf(d->cpu, sizeof(d->cpu), "%s", dir);
		if (is_cpuset)
			snprintf(d->cpuset, sizeof(d->cpuset), "%s", dir);
	}
	fclose(f);
}

static bool file_in(const char *dir, const char *name, char *buf, size_t len)
{
	char path[700];

	if (!*dir)
		return false;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return pb_read_line_file(path, buf, len);
}

/* nr_throttled of the cgroup's cpu.stat (v2 first, then v1's cpu). */
static bool throttled(const struct cgroup_dirs *d, unsigned long long *out)
{
	const char *dirs[] = { d->v2, d->cpu };
	char path[700], line[256];

	for (int i = 0; i < 2; i++) {
		FILE *f;

		if (!*dirs[i])
			continue;
		snprintf(path, sizeof(path), "%s/cpu.stat", dirs[i]);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "nr_throttled %llu", out) == 1) {
				fclose(f);
				return true;
			}
		fclose(f);
	}
	return false;
}

static void read_counters(struct pb_machine_counters *c)
{
	struct cgroup_dirs d;

	c->stat_ok = proc_stat(c);
	c->own_us = own_cpu_us();
	c->tick_hz = sysconf(_SC_CLK_TCK);
	cgroup_dirs(&d);
	c->throttled_ok = throttled(&d, &c->throttled);
	c->mhz = mean_mhz();
}

static double start_load = -1;

void pb_machine_mark_start(void)
{
	double la[3];

	start_load = pb_read_loadavg(la) ? la[0] : -1;
	read_counters(&at_start);
	started = true;
}

double pb_machine_start_load(void)
{
	return start_load;
}

/* The cgroup's CPU limits: "QUOTA PERIOD" or "max PERIOD" as cpu.max says
 * it (v1's cfs files in the same words) and the cgroup version that said
 * it, the limit in CPUs (null when unlimited or unknown) and the CPUs its
 * cpuset allows. */
static struct json_object *cgroup_json(void)
{
	struct json_object *o = json_object_new_object();
	struct cgroup_dirs d;
	char b[256], q[64];
	long long quota = -1, period = 0;
	int have = 0;  /* the cgroup version that gave the limit */

	cgroup_dirs(&d);
	if (file_in(d.v2, "cpu.max", b, sizeof(b))) {
		have = 2;
		if (sscanf(b, "%63s %lld", q, &period) == 2 && strcmp(q, "max") != 0)
			quota = atoll(q);
	} else if (file_in(d.cpu, "cpu.cfs_quota_us", q, sizeof(q)) &&
		   file_in(d.cpu, "cpu.cfs_period_us", b, sizeof(b))) {
		have = 1;
		quota = atoll(q);
		period = atoll(b);
		if (quota < 0)
			snprintf(b, sizeof(b), "max %lld", period);
		else
			snprintf(b, sizeof(b), "%lld %lld", quota, period);
	}
	json_object_object_add(o, "version", have ? json_object_new_int(have) : NULL);
	json_object_object_add(o, "cpu_max", have ? json_object_new_string(b) : NULL);
	json_object_object_add(o, "cpu_limit", have && quota >= 0 && period > 0 ?
			       json_object_new_double((double)quota / (double)period) : NULL);
	if (file_in(d.v2, "cpuset.cpus.effective", b, sizeof(b)) ||
	    file_in(d.cpuset, "cpuset.effective_cpus", b, sizeof(b)) ||
	    file_in(d.cpuset, "cpuset.cpus", b, sizeof(b)))
		json_object_object_add(o, "cpus", json_object_new_string(b));
	else
		json_object_object_add(o, "cpus", NULL);
	return o;
}

static struct json_object *cpufreq_json(void)
{
	struct json_object *o, *boost;
	char b[64];
	long v;

	if (!pb_read_line_file(CPU_SYS "/cpu0/cpufreq/scaling_driver", b, sizeof(b)))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "driver", json_object_new_string(b));
	json_object_object_add(o, "governor", text_or_null(CPU_SYS "/cpu0/cpufreq/scaling_governor"));
	if (pb_read_line_file(CPU_SYS "/cpufreq/boost", b, sizeof(b)) && sscanf(b, "%ld", &v) == 1)
		boost = json_object_new_boolean(v != 0);
	else if (pb_read_line_file(CPU_SYS "/intel_pstate/no_turbo", b, sizeof(b)) &&
		 sscanf(b, "%ld", &v) == 1)
		boost = json_object_new_boolean(v == 0);
	else
		boost = NULL;
	json_object_object_add(o, "boost", boost);
	return o;
}

static struct json_object *cpuidle_json(void)
{
	struct json_object *o, *states;
	char path[128], name[64], lat[64];
	char b[64];

	if (!pb_read_line_file(CPU_SYS "/cpuidle/current_driver", b, sizeof(b)))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "driver", json_object_new_string(b));
	json_object_object_add(o, "governor",
			       pb_read_line_file(CPU_SYS "/cpuidle/current_governor_ro", b, sizeof(b)) ||
			       pb_read_line_file(CPU_SYS "/cpuidle/current_governor", b, sizeof(b)) ?
			       json_object_new_string(b) : NULL);
	states = json_object_new_array();
	for (int i = 0; i < 64; i++) {
		struct json_object *s;

		snprintf(path, sizeof(path), CPU_SYS "/cpu0/cpuidle/state%d/name", i);
		if (!pb_read_line_file(path, name, sizeof(name)))
			break;
		snprintf(path, sizeof(path), CPU_SYS "/cpu0/cpuidle/state%d/latency", i);
		s = json_object_new_object();
		json_object_object_add(s, "name", json_object_new_string(name));
		json_object_object_add(s, "exit_latency_us", pb_read_line_file(path, lat, sizeof(lat)) ?
				       json_object_new_int64(atoll(lat)) : NULL);
		json_object_array_add(states, s);
	}
	json_object_object_add(o, "states", states);
	return o;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Each file of vulnerabilities/ and what it says, in name order. */
static struct json_object *mitigations_json(void)
{
	DIR *dir = opendir(CPU_SYS "/vulnerabilities");
	struct json_object *o;
	struct dirent *e;
	char *names[128], path[512];
	size_t n = 0;

	if (!dir)
		return NULL;
	while ((e = readdir(dir)) && n < sizeof(names) / sizeof(names[0]))
		if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)))
			n++;
	closedir(dir);
	qsort(names, n, sizeof(names[0]), by_name);
	o = json_object_new_object();
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), CPU_SYS "/vulnerabilities/%s", names[i]);
		json_object_object_add(o, names[i], text_or_null(path));
		free(names[i]);
	}
	return o;
}

void pb_machine_delta(const struct pb_machine_counters *a, const struct pb_machine_counters *b,
		      struct pb_machine_delta *d)
{
	bool ok = a && a->stat_ok && b->stat_ok && b->total >= a->total + PB_MACHINE_MIN_TICKS &&
		  b->steal >= a->steal && b->idle >= a->idle && b->tick_hz > 0;

	d->steal_pct = d->idle_pct = d->others_pct = -1;
	d->throttled = -1;
	if (ok) {
		double all = (double)(b->total - a->total), busy_us, own;

		d->steal_pct = 100.0 * (double)(b->steal - a->steal) / all;
		d->idle_pct = 100.0 * (double)(b->idle - a->idle) / all;
		busy_us = (all - (double)(b->steal - a->steal) - (double)(b->idle - a->idle)) *
			  1e6 / (double)b->tick_hz;
		own = b->own_us >= a->own_us ? (double)(b->own_us - a->own_us) : 0;
		d->others_pct = busy_us > own ? 100.0 * (busy_us - own) / (all * 1e6 / (double)b->tick_hz)
					      : 0;
	}
	if (a && a->throttled_ok && b->throttled_ok && b->throttled >= a->throttled)
		d->throttled = (long long)(b->throttled - a->throttled);
}

void pb_machine_since_start(struct pb_machine_delta *d)
{
	struct pb_machine_counters now;

	read_counters(&now);
	pb_machine_delta(started ? &at_start : NULL, &now, d);
}

static struct json_object *pct_or_null(double v)
{
	return v >= 0 ? json_object_new_double(v) : NULL;
}

struct json_object *pb_machine_during(const struct pb_machine_counters *a,
				      const struct pb_machine_counters *b)
{
	struct json_object *o = json_object_new_object();
	struct pb_machine_delta d;

	pb_machine_delta(a, b, &d);
	json_object_object_add(o, "steal_pct", pct_or_null(d.steal_pct));
	json_object_object_add(o, "idle_pct", pct_or_null(d.idle_pct));
	json_object_object_add(o, "others_busy_pct", pct_or_null(d.others_pct));
	json_object_object_add(o, "throttled_periods",
			       d.throttled >= 0 ? json_object_new_int64(d.throttled) : NULL);
	json_object_object_add(o, "mhz_start", a && a->mhz >= 0 ? json_object_new_double(a->mhz) :
			       NULL);
	json_object_object_add(o, "mhz_end", b->mhz >= 0 ? json_object_new_double(b->mhz) : NULL);
	return o;
}

struct json_object *pb_machine_json(void)
{
	struct json_object *o = json_object_new_object(), *smt = json_object_new_object();
	struct pb_machine_counters now;
	char b[64];

	json_object_object_add(o, "cpufreq", cpufreq_json());
	json_object_object_add(o, "cpuidle", cpuidle_json());
	json_object_object_add(smt, "control", text_or_null(CPU_SYS "/smt/control"));
	json_object_object_add(smt, "active", pb_read_line_file(CPU_SYS "/smt/active", b, sizeof(b)) ?
			       json_object_new_boolean(strcmp(b, "0") != 0) : NULL);
	json_object_object_add(o, "smt", smt);
	json_object_object_add(o, "mitigations", mitigations_json());
	json_object_object_add(o, "clocksource",
			       text_or_null("/sys/devices/system/clocksource/clocksource0/"
					    "current_clocksource"));
	json_object_object_add(o, "transparent_hugepage",
			       chosen_word("/sys/kernel/mm/transparent_hugepage/enabled"));
	json_object_object_add(o, "cmdline", text_or_null("/proc/cmdline"));
	json_object_object_add(o, "cgroup", cgroup_json());
	read_counters(&now);
	json_object_object_add(o, "during_run", pb_machine_during(started ? &at_start : NULL, &now));
	return o;
}

/* STATE's member PATH ("a.b") as a string, or NULL. */
static const char *str_at(struct json_object *o, const char *a, const char *b)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, a, &v) || !v)
		return NULL;
	if (b && (!json_object_object_get_ex(v, b, &v) || !v))
		return NULL;
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static struct json_object *num_at(struct json_object *o, const char *a, const char *b)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, a, &v) || !v || !json_object_object_get_ex(v, b, &v) ||
	    !v || !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return NULL;
	return v;
}

void pb_machine_summary(struct json_object *run, char *buf, size_t len)
{
	struct json_object *v, *virt = NULL, *state = NULL;
	size_t off = 0;
	const char *s;

	if (len)
		buf[0] = '\0';
	json_object_object_get_ex(run, "virtualization", &virt);
	json_object_object_get_ex(run, "state", &state);
	if (json_object_object_get_ex(virt, "virtualized", &v) && v)
		pb_format_add(buf, len, &off, ", ", "%s",
			      json_object_get_boolean(v) ? "VM" : "not a VM");
	else
		pb_format_add(buf, len, &off, ", ", "VM or not: not exposed");
	if ((s = str_at(virt, "hypervisor", NULL)))
		pb_format_add(buf, len, &off, ", ", "hypervisor %s", s);
	if ((s = str_at(virt, "container", NULL)))
		pb_format_add(buf, len, &off, ", ", "container %s", s);
	if ((s = str_at(state, "cpufreq", "driver")))
		pb_format_add(buf, len, &off, ", ", "cpufreq %s/%s", s,
			      str_at(state, "cpufreq", "governor") ?
			      str_at(state, "cpufreq", "governor") : "?");
	else
		pb_format_add(buf, len, &off, ", ", "no cpufreq");
	if ((s = str_at(state, "cpuidle", "driver")))
		pb_format_add(buf, len, &off, ", ", "cpuidle %s", s);
	else
		pb_format_add(buf, len, &off, ", ", "no cpuidle");
	if ((s = str_at(state, "smt", "control")))
		pb_format_add(buf, len, &off, ", ", "SMT %s", s);
	if ((s = str_at(state, "clocksource", NULL)))
		pb_format_add(buf, len, &off, ", ", "clocksource %s", s);
	if ((v = num_at(state, "cgroup", "cpu_limit")))
		pb_format_add(buf, len, &off, ", ", "cgroup CPU limit %.2f",
			      json_object_get_double(v));
	if ((v = num_at(state, "during_run", "steal_pct")))
		pb_format_add(buf, len, &off, ", ", "steal %.1f%%", json_object_get_double(v));
	if ((v = num_at(state, "during_run", "throttled_periods")) && json_object_get_int64(v) > 0)
		pb_format_add(buf, len, &off, ", ", "throttled %lld periods",
			      (long long)json_object_get_int64(v));
}
