/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --profile's bookkeeping (src/profile.c): the category table (each
 * category reached by a kernel function of its own, every rule reachable
 * past the rules before it, the unmatched in "other"); kernel symbols read
 * from a kallsyms file and hidden ones said; samples resolved, ranked and
 * summed without losing one (a full table, merged parties); the JSON's
 * shares and times per operation; and a sampler of this thread that sees
 * its own loop where perf events are allowed.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fnmatch.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "profile.h"

/* One kernel function of each category. */
START_TEST(categories_by_name)
{
	static const struct { const char *fn; enum pb_prof_cat cat; } t[] = {
		{ "touch_atime", PB_PROF_TIMESTAMPS }, { "file_update_time", PB_PROF_TIMESTAMPS },
		{ "atime_needs_update", PB_PROF_TIMESTAMPS }, { "current_time", PB_PROF_TIMESTAMPS },
		{ "ktime_get_coarse_real_ts64_mg", PB_PROF_TIMESTAMPS },
		{ "_copy_to_iter", PB_PROF_COPY }, { "_copy_from_iter", PB_PROF_COPY },
		{ "rep_movs_alternative", PB_PROF_COPY }, { "mutex_lock", PB_PROF_LOCKING },
		{ "_raw_spin_lock_irqsave", PB_PROF_LOCKING }, { "do_syscall_64", PB_PROF_SYSCALL },
		{ "__x64_sys_write", PB_PROF_SYSCALL }, { "fdget_pos", PB_PROF_SYSCALL },
		{ "vfs_read", PB_PROF_SYSCALL }, { "try_to_wake_up", PB_PROF_SCHED },
		{ "__wake_up_sync_key", PB_PROF_SCHED }, { "schedule", PB_PROF_SCHED },
		{ "__alloc_pages_noprof", PB_PROF_MEMORY }, { "__memcg_slab_post_alloc_hook", PB_PROF_MEMORY },
		{ "security_file_permission", PB_PROF_SECURITY }, { "apparmor_file_permission", PB_PROF_SECURITY },
		{ "pipe_read", PB_PROF_PIPE }, { "anon_pipe_write", PB_PROF_PIPE },
		{ "fifo_open", PB_PROF_PIPE }, { "splice_to_pipe", PB_PROF_PIPE },
		{ "no_such_function_here", PB_PROF_OTHER },
	};
	bool seen[PB_PROF_NCAT] = { false };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_msg(pb_prof_categorize(t[i].fn) == t[i].cat, "%s: %s, want %s", t[i].fn,
			      pb_prof_cat_names[pb_prof_categorize(t[i].fn)],
			      pb_prof_cat_names[t[i].cat]);
		seen[t[i].cat] = true;
	}
	/* every category but user space (no kernel function) is reachable */
	for (int c = 0; c < PB_PROF_NCAT; c++)
		ck_assert_msg(seen[c] || c == PB_PROF_USER, "no function of %s",
			      pb_prof_cat_names[c]);
}
END_TEST

/*
 * Every rule decides for a name made from its own pattern (each '*' as
 * "x"), unless an earlier rule of the same category took it first: no rule
 * is dead behind another category's.
 */
START_TEST(no_rule_shadowed)
{
	for (const struct pb_prof_rule *r = pb_prof_category_rules; r->pattern; r++) {
		char name[128];
		size_t k = 0;

		for (const char *c = r->pattern; *c && k < sizeof(name) - 2; c++)
			if (*c == '*') {
				name[k++] = 'x';
			} else {
				name[k++] = *c;
			}
		name[k] = '\0';
		ck_assert_int_eq(fnmatch(r->pattern, name, 0), 0);
		ck_assert_msg(pb_prof_categorize(name) == r->cat, "rule %s (%s): %s goes to %s",
			      r->pattern, pb_prof_cat_names[r->cat], name,
			      pb_prof_cat_names[pb_prof_categorize(name)]);
	}
}
END_TEST

static char path[] = "/tmp/pb-check-profile.XXXXXX";

static void write_syms(const char *text)
{
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void add(struct pb_prof_ips *t, uint64_t ip, bool kernel, uint64_t n)
{
	struct pb_prof_ips one;

	memset(&one, 0, sizeof(one));
	one.e[0] = (struct pb_prof_ip){ ip, n, kernel };
	one.n = 1;
	one.samples = n;
	one.kernel = kernel ? n : 0;
	one.user = kernel ? 0 : n;
	pb_prof_merge(t, &one);
}

static uint64_t cat_sum(const struct pb_prof_summary *s)
{
	uint64_t n = 0;

	for (int c = 0; c < PB_PROF_NCAT; c++)
		n += s->cat[c];
	return n;
}

/* Addresses to functions (the last symbol at or below), data symbols
 * ignored, functions ranked, categories summed, nothing dropped. */
START_TEST(samples_resolved_and_ranked)
{
	struct pb_prof_syms *syms;
	struct pb_prof_ips *t = calloc(1, sizeof(*t));
	struct pb_prof_summary s;
	char why[200] = "";

	write_syms("0000000000001000 T foo\n0000000000002000 t pipe_read\n"
		   "0000000000002800 d some_data\n0000000000003000 T touch_atime\n"
		   "0000000000004000 T bar [some_module]\n");
	ck_assert_int_eq(pb_prof_syms_load(&syms, path, why, sizeof(why)), 0);
	unlink(path);
	ck_assert_str_eq(why, "");
	ck_assert_ptr_nonnull(t);
	add(t, 0x1010, true, 5);     /* foo */
	add(t, 0x1020, true, 1);     /* foo again, another address */
	add(t, 0x2008, true, 3);     /* pipe_read */
	add(t, 0x2900, true, 1);     /* past some_data: still pipe_read's */
	add(t, 0x3000, true, 2);     /* touch_atime, its first byte */
	add(t, 0x0800, true, 1);     /* below every symbol */
	add(t, 0x7f0000001234ULL, false, 4);
	pb_prof_summarize(syms, t, &s);
	ck_assert_uint_eq(s.samples, 17);
	ck_assert_uint_eq(s.kernel, 13);
	ck_assert_uint_eq(s.user, 4);
	ck_assert_uint_eq(cat_sum(&s), 17);
	ck_assert_uint_eq(s.cat[PB_PROF_USER], 4);
	ck_assert_uint_eq(s.cat[PB_PROF_PIPE], 4);
	ck_assert_uint_eq(s.cat[PB_PROF_TIMESTAMPS], 2);
	ck_assert_uint_eq(s.cat[PB_PROF_OTHER], 7);   /* foo 6, unknown 1 */
	ck_assert_uint_eq(s.ntop, 4);
	ck_assert_str_eq(s.top[0].name, "foo");
	ck_assert_uint_eq(s.top[0].samples, 6);
	ck_assert_str_eq(s.top[1].name, "pipe_read");
	ck_assert_uint_eq(s.top[1].samples, 4);
	ck_assert_str_eq(s.top[2].name, "touch_atime");
	ck_assert_str_eq(s.top[3].name, "[unknown]");
	pb_prof_syms_free(syms);
	free(t);
}
END_TEST

/* A user-space function of this program, its address taken. */
static int __attribute__((noinline)) local_function(int x)
{
	return x * 3 + 1;
}

/* User samples are named: this program's own functions from its symbol
 * table (static ones too), a library's through dladdr, else "[user]". */
START_TEST(user_functions_named)
{
	struct pb_prof_ips *t = calloc(1, sizeof(*t));
	struct pb_prof_summary s;
	int (*volatile fp)(int) = local_function;
	bool seen_local = false, seen_write = false, seen_unknown = false;

	ck_assert_int_eq(fp(1), 4);
	ck_assert_ptr_nonnull(t);
	add(t, (uint64_t)(uintptr_t)local_function + 1, false, 5);
	add(t, (uint64_t)(uintptr_t)&write, false, 3);
	add(t, 8, false, 1);        /* nothing is mapped there */
	pb_prof_summarize(NULL, t, &s);
	ck_assert_uint_eq(s.ntop_user, 3);
	for (size_t i = 0; i < s.ntop_user; i++) {
		seen_local |= !strcmp(s.top_user[i].name, "local_function") &&
			      s.top_user[i].samples == 5;
		seen_write |= strstr(s.top_user[i].name, "write") && s.top_user[i].samples == 3;
		seen_unknown |= !strcmp(s.top_user[i].name, "[user]");
	}
	ck_assert_msg(seen_local, "local_function: first %s", s.top_user[0].name);
	ck_assert(seen_write);
	ck_assert(seen_unknown);
	ck_assert_str_eq(s.top_user[0].name, "local_function");
	free(t);
}
END_TEST

/* kallsyms with no addresses (kptr_restrict, not root): said, nothing named. */
START_TEST(hidden_symbols_said)
{
	struct pb_prof_syms *syms;
	struct pb_prof_ips *t = calloc(1, sizeof(*t));
	struct pb_prof_summary s;
	char why[200] = "";

	write_syms("0000000000000000 T foo\n0000000000000000 t touch_atime\n");
	ck_assert_int_eq(pb_prof_syms_load(&syms, path, why, sizeof(why)), -EPERM);
	unlink(path);
	ck_assert_msg(strstr(why, "hidden") && strstr(why, "kptr_restrict"), "%s", why);
	add(t, 0x1000, true, 3);
	pb_prof_summarize(syms, t, &s);
	ck_assert_uint_eq(s.cat[PB_PROF_OTHER], 3);
	ck_assert_uint_eq(s.cat[PB_PROF_TIMESTAMPS], 0);
	pb_prof_syms_free(syms);
	ck_assert_int_eq(pb_prof_syms_load(&syms, "/nonexistent/kallsyms", why, sizeof(why)),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(why, "/nonexistent/kallsyms"));
	pb_prof_syms_free(syms);
	free(t);
}
END_TEST

/* More distinct kernel addresses than the table holds: the rest are
 * "other", every sample still counted. */
START_TEST(full_table_keeps_every_sample)
{
	struct pb_prof_ips *t = calloc(1, sizeof(*t)), *u = calloc(1, sizeof(*u));
	struct pb_prof_summary s;

	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(u);
	for (uint64_t i = 0; i < PB_PROF_MAX_IPS + 100; i++)
		add(t, 0x1000 + i, true, 1);
	add(t, 0x7f00, false, 7);    /* a user sample past the table */
	ck_assert_uint_eq(t->n, PB_PROF_MAX_IPS);
	ck_assert_uint_eq(t->overflow, 100);
	/* merging a party's full table into another's */
	add(u, 0x1000, true, 2);
	pb_prof_merge(u, t);
	ck_assert_uint_eq(u->samples, PB_PROF_MAX_IPS + 100 + 7 + 2);
	pb_prof_summarize(NULL, u, &s);
	ck_assert_uint_eq(cat_sum(&s), u->samples);
	ck_assert_uint_eq(s.cat[PB_PROF_USER], 7);
	free(t);
	free(u);
}
END_TEST

/* JSON: shares of all samples summing to 1, kernel shares of kernel
 * samples, time per operation = samples x period / operations. */
START_TEST(json_shares_and_times)
{
	struct pb_prof_summary s;
	struct json_object *o, *c, *x;
	double sum = 0;

	memset(&s, 0, sizeof(s));
	s.samples = 10;
	s.kernel = 8;
	s.user = 2;
	s.cat[PB_PROF_TIMESTAMPS] = 2;
	s.cat[PB_PROF_COPY] = 6;
	s.cat[PB_PROF_USER] = 2;
	snprintf(s.top[0].name, sizeof(s.top[0].name), "touch_atime");
	s.top[0].samples = 2;
	s.ntop = 1;
	o = pb_prof_json(&s, 250000, 1000, "syscall", 5e6);
	ck_assert(json_object_object_get_ex(o, "categories", &c));
	json_object_object_foreach(c, k, v) {
		(void)k;
		ck_assert(json_object_object_get_ex(v, "share", &x));
		sum += json_object_get_double(x);
	}
	ck_assert_double_eq_tol(sum, 1.0, 1e-12);
	ck_assert(json_object_object_get_ex(c, "timestamps", &x));
	ck_assert_double_eq_tol(json_object_get_double(json_object_object_get(x, "kernel_share")),
				0.25, 1e-12);
	/* 2 samples x 250 us over 1000 syscalls: 500 ns each */
	ck_assert_double_eq_tol(json_object_get_double(json_object_object_get(x,
				"ns_per_syscall")), 500.0, 1e-9);
	ck_assert_double_eq_tol(json_object_get_double(json_object_object_get(x, "ns_per_byte")),
				0.1, 1e-12);
	ck_assert(json_object_object_get_ex(c, "user", &x));
	ck_assert(json_object_object_get_ex(x, "kernel_share", &x));
	ck_assert_ptr_null(x);
	/* any share of 10 samples: within 1.96 x sqrt(0.25 / 10), 95% of the time */
	ck_assert(json_object_object_get_ex(o, "share_margin_95", &x));
	ck_assert_double_eq_tol(json_object_get_double(x), 0.98 / sqrt(10), 1e-12);
	json_object_put(o);
}
END_TEST

/* A sampler of this thread sees this thread's loop (where perf allows). */
START_TEST(sampler_sees_own_loop)
{
	struct pb_prof p;
	struct pb_prof_ips *t = calloc(1, sizeof(*t));
	char why[256];
	volatile uint64_t x = 0;
	int r = pb_prof_open(&p, 100000, why, sizeof(why));

	ck_assert_ptr_nonnull(t);
	if (r) {
		ck_assert_msg(why[0], "a refusal says why");
		free(t);
		return;
	}
	pb_prof_drain(&p, t);
	ck_assert_uint_eq(t->samples, 0);   /* disabled until enabled */
	pb_prof_enable(&p);
	for (uint64_t i = 0; i < 200000000; i++)
		x += i;
	pb_prof_disable(&p);
	pb_prof_drain(&p, t);
	ck_assert_uint_gt(t->samples, 0);
	ck_assert_uint_eq(t->samples, t->kernel + t->user);
	pb_prof_close(&p);
	free(t);
}
END_TEST

PB_CHECK_SUITE_MAIN("profile",
	PB_TCASE("categories", categories_by_name, no_rule_shadowed),
	PB_TCASE("symbols", samples_resolved_and_ranked, user_functions_named, hidden_symbols_said,
		 full_table_keeps_every_sample, json_shares_and_times),
	PB_TCASE_TIMED("sampler", 60, sampler_sees_own_loop))
