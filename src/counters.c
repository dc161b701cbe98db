/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "counters.h"

const char *const pb_ctr_names[] = {
	"cpu_task_clock_ns", "context_switches", "migrations", "page_faults", "cycles",
	"instructions", "cache_misses", "cpu_user_ns", "cpu_sys_ns", NULL
};

static const struct { uint32_t type; uint64_t config; } events[] = {
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
};
#define NEV (sizeof(events) / sizeof(events[0]))

static int open_one(size_t i, bool user_only)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = events[i].type;
	a.size = sizeof(a);
	a.config = events[i].config;
	a.disabled = 1;
	a.exclude_hv = 1;
	a.exclude_kernel = user_only;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Descriptors this process may still open: the limit less those open. */
static long fd_room(void)
{
	struct rlimit rl;
	DIR *d;
	long open = 0;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return 1 << 20;
	if (!(d = opendir("/proc/self/fd")))
		return 0;
	while (readdir(d))
		open++;
	closedir(d);
	return (long)rl.rlim_cur - (open - 2);   /* less . and .., the DIR's own fd kept */
}

/* Descriptors left for the measurement itself (pipes, FIFOs, zero-copy's). */
#define FD_SPARE 16

void pb_ctrs_open(struct pb_ctrs *c)
{
	int hw_errno = 0;

	memset(c, 0, sizeof(*c));
	memset(c->fd, -1, sizeof(c->fd));
	/* counters never take the descriptors the measurement needs: then
	 * getrusage alone */
	if (fd_room() < (long)NEV + FD_SPARE) {
		snprintf(c->hw_why, sizeof(c->hw_why), "not counted: too few file descriptors "
			 "left (RLIMIT_NOFILE)");
		return;
	}
	for (size_t i = 0; i < NEV; i++) {
		c->fd[i] = open_one(i, false);
		if (c->fd[i] < 0 && (errno == EACCES || errno == EPERM))
			c->fd[i] = -1;   /* kernel and user or nothing: a half count misleads */
		if (c->fd[i] < 0 && i >= PB_CTR_FIRST_HW && !hw_errno)
			hw_errno = errno;
	}
	c->hw = c->fd[PB_CTR_CYCLES] >= 0 && c->fd[PB_CTR_INSTRUCTIONS] >= 0;
	if (!c->hw)
		snprintf(c->hw_why, sizeof(c->hw_why), "%s",
			 hw_errno == ENOENT || hw_errno == EOPNOTSUPP || hw_errno == ENODEV ?
			 "no hardware counters here (no PMU, as in most virtual machines)" :
			 hw_errno == EACCES || hw_errno == EPERM ?
			 "hardware counters refused (perf_event_paranoid, or a seccomp filter)" :
			 strerror(hw_errno));
}

static uint64_t value(int fd)
{
	uint64_t v = 0;

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

void pb_ctrs_start(struct pb_ctrs *c)
{
	for (size_t i = 0; i < NEV; i++) {
		c->start[i] = value(c->fd[i]);
		if (c->fd[i] >= 0)
			ioctl(c->fd[i], PERF_EVENT_IOC_ENABLE, 0);
	}
	getrusage(RUSAGE_THREAD, &c->ru0);
}

void pb_ctrs_stop(struct pb_ctrs *c, struct pb_ctr_values *out)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	for (size_t i = 0; i < NEV; i++)
		if (c->fd[i] >= 0)
			ioctl(c->fd[i], PERF_EVENT_IOC_DISABLE, 0);
	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < NEV; i++)
		if (c->fd[i] >= 0) {
			out->v[i] = (double)(value(c->fd[i]) - c->start[i]);
			out->have[i] = true;
		}
	/* getrusage where the software events are refused */
	if (!out->have[PB_CTR_CTXSW]) {
		out->v[PB_CTR_CTXSW] = (double)(ru.ru_nvcsw - c->ru0.ru_nvcsw + ru.ru_nivcsw -
						c->ru0.ru_nivcsw);
		out->have[PB_CTR_CTXSW] = true;
	}
	if (!out->have[PB_CTR_FAULTS]) {
		out->v[PB_CTR_FAULTS] = (double)(ru.ru_minflt - c->ru0.ru_minflt + ru.ru_majflt -
						 c->ru0.ru_majflt);
		out->have[PB_CTR_FAULTS] = true;
	}
	out->v[PB_CTR_USER_NS] = (double)(pb_timeval_ns(&ru.ru_utime) -
					  pb_timeval_ns(&c->ru0.ru_utime));
	out->v[PB_CTR_SYS_NS] = (double)(pb_timeval_ns(&ru.ru_stime) -
					 pb_timeval_ns(&c->ru0.ru_stime));
	out->have[PB_CTR_USER_NS] = out->have[PB_CTR_SYS_NS] = true;
}

void pb_ctrs_close(struct pb_ctrs *c)
{
	for (size_t i = 0; i < NEV; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	memset(c->fd, -1, sizeof(c->fd));
}

void pb_ctr_add(struct pb_ctr_values *sum, const struct pb_ctr_values *v, bool first)
{
	for (int k = 0; k < PB_CTR_COUNT; k++) {
		sum->have[k] = v->have[k] && (first || sum->have[k]);
		sum->v[k] = (first ? 0 : sum->v[k]) + v->v[k];
	}
}

struct json_object *pb_ctr_per_json(const struct pb_ctr_values *sum, double ops)
{
	struct json_object *o = json_object_new_object();

	for (int k = 0; k < PB_CTR_COUNT; k++)
		json_object_object_add(o, pb_ctr_names[k], sum->have[k] && ops > 0 ?
				       json_object_new_double(sum->v[k] / ops) : NULL);
	return o;
}

double pb_ctr_ipc(const struct pb_ctr_values *sum)
{
	return sum->have[PB_CTR_CYCLES] && sum->have[PB_CTR_INSTRUCTIONS] &&
	       sum->v[PB_CTR_CYCLES] > 0 ? sum->v[PB_CTR_INSTRUCTIONS] / sum->v[PB_CTR_CYCLES] :
	       NAN;
}
