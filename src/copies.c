/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "copies.h"

/* One number of a --copies list: digits, or "ncpu". */
static bool count_of(const char **s, long ncpu, unsigned long *v)
{
	char *end;

	if (!strncmp(*s, "ncpu", 4)) {
		*s += 4;
		*v = ncpu > 0 ? (unsigned long)ncpu : 1;
		return true;
	}
	if (!isdigit((unsigned char)**s))
		return false;
	errno = 0;
	*v = strtoul(*s, &end, 10);
	if (errno)
		*v = ULONG_MAX;
	*s = end;
	return true;
}

int pb_copies_parse(const char *s, long ncpu, unsigned *out, size_t max, size_t *n,
		    char *why, size_t len)
{
	const char *p = s;

	*n = 0;
	while (*p) {
		unsigned long a, b;

		if (!count_of(&p, ncpu, &a))
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (!count_of(&p, ncpu, &b))
				goto bad;
		}
		if (*p && *p != ',')
			goto bad;
		if (*p == ',' && !*++p)
			goto bad;           /* a trailing comma */
		if (a < 1 || b > PB_COPIES_MAX || b < a) {
			snprintf(why, len, "'%s': counts of 1 to %d, each range low-high", s,
				 PB_COPIES_MAX);
			return -1;
		}
		for (unsigned long v = a; v <= b; v++) {
			if (*n && v <= out[*n - 1]) {
				snprintf(why, len, "'%s': ascending, without repeats", s);
				return -1;
			}
			if (*n == max) {
				snprintf(why, len, "'%s': at most %zu counts", s, max);
				return -1;
			}
			out[(*n)++] = (unsigned)v;
		}
	}
	if (*n)
		return 0;
bad:
	snprintf(why, len, "'%s': a list of counts and ranges, e.g. 1,2,4 or 1-ncpu", s);
	return -1;
}

/* The I-th CPU of SET, or -1. */
static int nth_cpu(const cpu_set_t *set, unsigned i)
{
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set) && i-- == 0)
			return c;
	return -1;
}

static size_t shared_size(const struct pb_copies_opts *o)
{
	return o->n * (o->out_size + sizeof(int) + sizeof(struct pb_copy_place));
}

static void child(const struct pb_copies_opts *o, struct pb_copies_run *run, unsigned i,
		  int ready, int gate)
{
	void *out = (char *)run->out + i * o->out_size;
	struct pb_copy_place *pl = &run->place[i];
	char c = 0;
	int rc = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pl->pinned = -1;
	if (o->allowed && o->n <= (unsigned)CPU_COUNT(o->allowed)) {
		cpu_set_t one;

		CPU_ZERO(&one);
		pl->pinned = nth_cpu(o->allowed, i);
		CPU_SET(pl->pinned, &one);
		if (sched_setaffinity(0, sizeof(one), &one) != 0)
			rc = -errno;
	}
	if (!rc && o->prepare)
		rc = o->prepare(o->arg, i, out);
	/* ready (or failed: the gate is not waited for) */
	if (write(ready, &c, 1) != 1 || rc) {
		run->rc[i] = rc ? rc : -EPIPE;
		_exit(0);
	}
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	pl->cpu_start = sched_getcpu();
	rc = o->work(o->arg, i, out);
	pl->cpu_end = sched_getcpu();
	if (o->finish)
		o->finish(o->arg, i, out);
	run->rc[i] = rc;
	_exit(0);
}

/* Kill and reap every child still in PIDS (0: reaped). */
static void kill_all(pid_t *pids, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (unsigned i = 0; i < n; i++)
		if (pids[i] > 0) {
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
			pb_cleanup_del_child(pids[i]);
			pids[i] = 0;
		}
}

static void harness(struct pb_copies_run *run, const char *what, int err)
{
	if (!run->harness_err) {
		run->harness_err = err ? err : EIO;
		snprintf(run->harness_what, sizeof(run->harness_what), "%s", what);
	}
}

int pb_copies_run(const struct pb_copies_opts *o, struct pb_copies_run *run)
{
	pid_t *pids = calloc(o->n ? o->n : 1, sizeof(*pids));
	int ready[2] = { -1, -1 }, gate[2] = { -1, -1 };
	unsigned started = 0, left, got = 0;
	struct timespec ms = { 0, 1000000 };
	uint64_t t0 = 0;
	void *m;

	memset(run, 0, sizeof(*run));
	m = mmap(NULL, shared_size(o), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!pids || m == MAP_FAILED) {
		free(pids);
		harness(run, pids ? "mmap" : "calloc", errno);
		return -1;
	}
	run->out = m;
	run->rc = (int *)((char *)m + o->n * o->out_size);
	run->place = (struct pb_copy_place *)(run->rc + o->n);
	if (pipe2(ready, O_CLOEXEC) || pipe2(gate, O_CLOEXEC)) {
		harness(run, "pipe2", errno);
		goto out;
	}
	for (; started < o->n; started++) {
		pid_t p = pb_cleanup_fork();

		if (p < 0) {
			harness(run, "fork", errno);
			break;
		}
		if (p == 0) {
			free(pids);   /* the parent's */
			close(ready[0]);
			close(gate[1]);
			child(o, run, started, ready[1], gate[0]);
		}
		pids[started] = p;
	}
	close(ready[1]);
	ready[1] = -1;
	close(gate[0]);
	gate[0] = -1;
	/* Every child ready (or failed) before the gate opens. */
	while (got < started && !run->harness_err) {
		struct pollfd pf = { .fd = ready[0], .events = POLLIN };
		char buf[64];
		ssize_t r;

		if (pb_watchdog_fired()) {
			run->timed_out = true;
			break;
		}
		if (poll(&pf, 1, 100) <= 0)
			continue;
		r = read(ready[0], buf, sizeof(buf));
		if (r <= 0)
			break;          /* every child gone */
		got += (unsigned)r;
	}
	t0 = pb_clock_ns();
	close(gate[1]);
	gate[1] = -1;
	if (run->harness_err || run->timed_out)
		goto out;
	for (left = started; left;) {
		for (unsigned i = 0; i < started; i++) {
			int st;

			if (pids[i] <= 0 || waitpid(pids[i], &st, WNOHANG) != pids[i])
				continue;
			pb_cleanup_del_child(pids[i]);
			pids[i] = 0;
			left--;
			if (!WIFEXITED(st) && !run->rc[i])
				run->rc[i] = -ECHILD;   /* killed before it said */
		}
		if (left && pb_watchdog_fired()) {
			run->timed_out = true;
			break;
		}
		if (left)
			nanosleep(&ms, NULL);
	}
	run->wall_ns = pb_clock_ns() - t0;
out:
	kill_all(pids, started);
	for (int i = 0; i < 2; i++) {
		if (ready[i] >= 0)
			close(ready[i]);
		if (gate[i] >= 0)
			close(gate[i]);
	}
	free(pids);
	return run->harness_err || run->timed_out ? -1 : 0;
}

void pb_copies_free(const struct pb_copies_opts *o, struct pb_copies_run *run)
{
	if (run->out)
		munmap(run->out, shared_size(o));
	run->out = NULL;
	run->rc = NULL;
	run->place = NULL;
}

void pb_copies_rep_json(struct json_object *x, const double *rate,
			const struct pb_copy_place *place, unsigned n, const char *rate_key)
{
	struct json_object *rates = json_object_new_array(), *pin = json_object_new_array();
	struct json_object *at0 = json_object_new_array(), *at1 = json_object_new_array();

	for (unsigned i = 0; i < n; i++) {
		const struct pb_copy_place *pl = &place[i];

		json_object_array_add(rates, isfinite(rate[i]) ? json_object_new_double(rate[i])
							       : NULL);
		json_object_array_add(pin, pl->pinned >= 0 ? json_object_new_int(pl->pinned) : NULL);
		json_object_array_add(at0, json_object_new_int(pl->cpu_start));
		json_object_array_add(at1, json_object_new_int(pl->cpu_end));
	}
	json_object_object_add(x, rate_key, rates);
	json_object_object_add(x, "copy_pinned_cpus", pin);
	json_object_object_add(x, "copy_cpus_at_start", at0);
	json_object_object_add(x, "copy_cpus_at_end", at1);
}

void pb_copies_scaling_item(FILE *fp, bool first, unsigned copies, double rate, double eff,
			    int decimals)
{
	fprintf(fp, "%s x%u %.*f", first ? "" : ";", copies, decimals, rate);
	if (!first)
		fprintf(fp, " (%.*f a copy, %.0f%%)", decimals, rate / copies, 100 * eff);
}

void pb_copies_dirs_free(char (*dir)[4096], unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		char f[4200];

		snprintf(f, sizeof(f), "%s/fifo", dir[i]);
		unlink(f);
		pb_tmpdir_remove(dir[i]);
	}
	free(dir);
}
