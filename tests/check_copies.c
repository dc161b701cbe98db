/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --copies (src/copies.c): the list's words and ranges, each refused form
 * with its reason; copies that run at once behind one gate, each in a
 * process of its own, pinned one to a CPU when they fit; a copy whose
 * preparation or work fails is said, and a killed one too.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "clock.h"
#include "copies.h"

static unsigned v[64];
static size_t n;
static char why[160];

static const char *list(const char *s, long ncpu)
{
	static char buf[256];
	size_t off = 0;

	if (pb_copies_parse(s, ncpu, v, 64, &n, why, sizeof(why)))
		return why;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%u", i ? "," : "", v[i]);
	return buf;
}

START_TEST(parse_lists)
{
	ck_assert_str_eq(list("1", 4), "1");
	ck_assert_str_eq(list("1,2,4", 4), "1,2,4");
	ck_assert_str_eq(list("1-4", 16), "1,2,3,4");
	ck_assert_str_eq(list("1-ncpu", 3), "1,2,3");
	ck_assert_str_eq(list("ncpu", 8), "8");
	ck_assert_str_eq(list("1,3-5,8", 8), "1,3,4,5,8");
	ck_assert_str_eq(list("1-ncpu", 0), "1");     /* unknown CPUs count as one */
	ck_assert_str_eq(list("1024", 1), "1024");
}
END_TEST

START_TEST(parse_refusals)
{
	ck_assert_str_eq(list("0", 4), "'0': counts of 1 to 1024, each range low-high");
	ck_assert_str_eq(list("1025", 4), "'1025': counts of 1 to 1024, each range low-high");
	ck_assert_str_eq(list("4-2", 4), "'4-2': counts of 1 to 1024, each range low-high");
	ck_assert_str_eq(list("2,1", 4), "'2,1': ascending, without repeats");
	ck_assert_str_eq(list("1,1", 4), "'1,1': ascending, without repeats");
	ck_assert_str_eq(list("1-3,2", 4), "'1-3,2': ascending, without repeats");
	ck_assert_str_eq(list("1-65", 4), "'1-65': at most 64 counts");
	ck_assert_str_eq(list("", 4), "'': a list of counts and ranges, e.g. 1,2,4 or 1-ncpu");
	ck_assert_str_eq(list("x", 4), "'x': a list of counts and ranges, e.g. 1,2,4 or 1-ncpu");
	ck_assert_str_eq(list("1-", 4), "'1-': a list of counts and ranges, e.g. 1,2,4 or 1-ncpu");
	ck_assert_str_eq(list("1,", 4), "'1,': a list of counts and ranges, e.g. 1,2,4 or 1-ncpu");
	ck_assert_str_eq(list("2x", 4), "'2x': a list of counts and ranges, e.g. 1,2,4 or 1-ncpu");
	ck_assert_str_eq(list("99999999999999999999", 4),
			 "'99999999999999999999': counts of 1 to 1024, each range low-high");
}
END_TEST

struct out {
	pid_t pid;
	uint64_t at;
	int cpu;
};

static uint64_t gate_open;

static int prep(void *arg, unsigned i, void *o_)
{
	struct out *o = o_;

	(void)arg;
	o->pid = getpid();
	return i == 2 && arg ? -EMFILE : 0;
}

static int work(void *arg, unsigned i, void *o_)
{
	struct out *o = o_;

	(void)i;
	o->at = pb_clock_ns();
	o->cpu = sched_getcpu();
	if (arg && i == 1)
		raise(SIGKILL);
	return i == 3 && arg ? -EIO : 0;
}

/* Four copies behind one gate, each in its own process, pinned when they fit. */
START_TEST(copies_run_together)
{
	cpu_set_t allowed;
	struct pb_copies_opts o = { .n = 4, .prepare = prep, .work = work,
				    .out_size = sizeof(struct out), .allowed = &allowed };
	struct pb_copies_run r;
	const struct out *out;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	gate_open = pb_clock_ns();
	ck_assert_int_eq(pb_copies_run(&o, &r), 0);
	out = r.out;
	for (unsigned i = 0; i < 4; i++) {
		ck_assert_int_eq(r.rc[i], 0);
		ck_assert(out[i].pid != getpid() && out[i].pid > 0);
		for (unsigned k = 0; k < i; k++)
			ck_assert(out[k].pid != out[i].pid);
		ck_assert(out[i].at >= gate_open);
		if (CPU_COUNT(&allowed) >= 4) {
			ck_assert_int_ge(r.place[i].pinned, 0);
			ck_assert_int_eq(r.place[i].cpu_start, r.place[i].pinned);
			ck_assert_int_eq(out[i].cpu, r.place[i].pinned);
		} else {
			ck_assert_int_eq(r.place[i].pinned, -1);
		}
	}
	ck_assert(r.wall_ns > 0);
	pb_copies_free(&o, &r);
	/* as many copies as CPUs: each on a CPU of its own */
	o.n = (unsigned)CPU_COUNT(&allowed);
	ck_assert_int_eq(pb_copies_run(&o, &r), 0);
	for (unsigned i = 0; i < o.n; i++) {
		ck_assert_int_ge(r.place[i].pinned, 0);
		for (unsigned k = 0; k < i; k++)
			ck_assert_int_ne(r.place[k].pinned, r.place[i].pinned);
	}
	pb_copies_free(&o, &r);
}
END_TEST

/* Copy 3's preparation fails, copy 2 is killed, copy 4's work fails: each said. */
START_TEST(failures_said)
{
	struct pb_copies_opts o = { .n = 4, .prepare = prep, .work = work,
				    .out_size = sizeof(struct out), .arg = &o };
	struct pb_copies_run r;

	ck_assert_int_eq(pb_copies_run(&o, &r), 0);
	ck_assert_int_eq(r.rc[0], 0);
	ck_assert_int_eq(r.rc[1], -ECHILD);
	ck_assert_int_eq(r.rc[2], -EMFILE);
	ck_assert_int_eq(r.rc[3], -EIO);
	pb_copies_free(&o, &r);
}
END_TEST

PB_CHECK_SUITE_MAIN("copies",
	PB_TCASE("parse", parse_lists, parse_refusals),
	PB_TCASE_TIMED("run", 30, copies_run_together, failures_said))
