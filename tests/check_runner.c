/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The runner's bookkeeping for one check (pb_conformance_run_one and the
 * verdict helpers of src/checks/runner.c), one table row per outcome: the
 * verdict, the exact detail, timed_out and signal, the duration against the
 * watchdog (the default one included), and which of two verdicts stays.
 */
#include <config.h>
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check_main.h"
#include "cleanup.h"
#include "checks/conformance.h"

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

static void naps_400(struct pb_check_ctx *ctx) { nap_ms(400); pb_check_set(ctx, PB_PASS, "slept"); }
static void naps_5000(struct pb_check_ctx *ctx) { nap_ms(5000); pb_check_set(ctx, PB_PASS, "slept"); }
static void naps_200(struct pb_check_ctx *ctx) { nap_ms(200); pb_check_set(ctx, PB_PASS, "slept"); }
static void segv(struct pb_check_ctx *ctx) { (void)ctx; raise(SIGSEGV); }
static void sigkill(struct pb_check_ctx *ctx) { (void)ctx; raise(SIGKILL); }
static void aborts(struct pb_check_ctx *ctx) { (void)ctx; abort(); }
static void exits_3(struct pb_check_ctx *ctx) { pb_check_set(ctx, PB_PASS, "lost"); _exit(3); }
/* Two verdicts in a row: the first FAIL or ERROR stays, others are replaced. */
static void fail_error(struct pb_check_ctx *c)
{
	pb_check_fail(c, "first"), pb_check_set(c, PB_ERROR, "second");
}
static void error_fail(struct pb_check_ctx *c)
{
	pb_check_set(c, PB_ERROR, "first"), pb_check_fail(c, "second");
}
static void fail_pass(struct pb_check_ctx *c) { pb_check_fail(c, "first"), pb_check_set(c, PB_PASS, "second"); }
static void skip_fail(struct pb_check_ctx *c) { pb_check_skip(c, "first"), pb_check_fail(c, "second"); }
static void info_skip(struct pb_check_ctx *c) { pb_check_info(c, "first"), pb_check_skip(c, "second"); }
static void kd_pass(struct pb_check_ctx *c)
{
	pb_check_set(c, PB_KNOWN_DEVIATION, "first"), pb_check_set(c, PB_PASS, "second");
}
static void noted(struct pb_check_ctx *c) { pb_check_info(c, "a"), pb_check_note(c, "b %d", 2); }
static void note_only(struct pb_check_ctx *c) { pb_check_note(c, "alone"); }

struct row {
	const char *what;
	void (*run)(struct pb_check_ctx *ctx);
	double timeout_s;          /* 0: the runner's default, 5 s */
	enum pb_verdict verdict;
	const char *detail;        /* exactly */
	bool timed_out;
	int signal;
	long min_ms, max_ms;       /* the duration's bounds */
};

static const struct row rows[] = {
	{ "default watchdog is 5 s", naps_400, 0, PB_PASS, "slept", false, 0, 400, 4900 },
	{ "under the watchdog", naps_200, 3, PB_PASS, "slept", false, 0, 200, 2990 },
	{ "over the watchdog", naps_5000, 1, PB_FAIL,
	  "timed out after 1 s (watchdog killed the check)", true, 0, 1000, 2900 },
	{ "SIGSEGV", segv, 5, PB_FAIL, "check process killed by signal SIGSEGV (11)", false,
	  SIGSEGV, 0, 4900 },
	{ "SIGKILL", sigkill, 5, PB_FAIL, "check process killed by signal SIGKILL (9)", false,
	  SIGKILL, 0, 4900 },
	{ "abort", aborts, 5, PB_FAIL, "check process killed by signal SIGABRT (6)", false,
	  SIGABRT, 0, 4900 },
	{ "exit without verdict", exits_3, 5, PB_ERROR,
	  "harness: check exited 3 without a verdict", false, 0, 0, 4900 },
	{ "fail then error", fail_error, 5, PB_FAIL, "first", false, 0, 0, 4900 },
	{ "error then fail", error_fail, 5, PB_ERROR, "first", false, 0, 0, 4900 },
	{ "fail then pass", fail_pass, 5, PB_FAIL, "first", false, 0, 0, 4900 },
	{ "skip then fail", skip_fail, 5, PB_FAIL, "second", false, 0, 0, 4900 },
	{ "info then skip", info_skip, 5, PB_SKIP, "second", false, 0, 0, 4900 },
	{ "known deviation then pass", kd_pass, 5, PB_PASS, "second", false, 0, 0, 4900 },
	{ "a note after the detail", noted, 5, PB_INFO, "a; b 2", false, 0, 0, 4900 },
	{ "a note alone", note_only, 5, PB_PASS, "alone", false, 0, 0, 4900 },
};

START_TEST(one_check)
{
	const struct row *w = &rows[_i];
	const struct pb_check c = { "T-99", "test", "T", w->what, "none", 0, w->run };
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = w->timeout_s };
	struct pb_check_result r;
	long ms;

	ck_assert_int_eq(pb_conformance_run_one(&c, &o, &r), 0);
	ck_assert_msg(r.verdict == w->verdict, "%s: verdict %s, want %s (%s)", w->what,
		      pb_verdict_names[r.verdict], pb_verdict_names[w->verdict], r.detail);
	ck_assert_str_eq(r.detail, w->detail);
	ck_assert_int_eq(r.timed_out, w->timed_out);
	ck_assert_int_eq(r.signal, w->signal);
	ms = (long)(r.duration_ns / 1000000);
	ck_assert_msg(ms >= w->min_ms && ms <= w->max_ms, "%s: %ld ms, want %ld..%ld", w->what,
		      ms, w->min_ms, w->max_ms);
}
END_TEST

/* Interrupted (a deferred SIGINT) while a check blocks: error naming it,
 * at once rather than at the watchdog. */
START_TEST(interrupted_is_error_at_once)
{
	const struct pb_check c = { "T-98", "test", "T", "naps", "none", 0, naps_400 };
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 5 };
	struct pb_check_result r;

	pb_cleanup_install("test");
	pb_cleanup_defer_signals(true);
	raise(SIGINT);
	ck_assert_int_eq(pb_conformance_run_one(&c, &o, &r), 0);
	ck_assert_int_eq(r.verdict, PB_ERROR);
	ck_assert_str_eq(r.detail, "interrupted by SIGINT");
	ck_assert(!r.timed_out);
	ck_assert_int_eq(r.signal, 0);
	ck_assert_uint_lt(r.duration_ns, 390000000u);
}
END_TEST

PB_CHECK_SUITE_MAIN("runner",
	PB_TCASE_LOOP("one check", 30, one_check, sizeof(rows) / sizeof(rows[0]),
		      interrupted_is_error_at_once))
