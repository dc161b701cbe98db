/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The --duration budget: the choice of loops, the calibration's target and
 * rounds (on a fake clock: no timed tests), its JSON; and the shared
 * fill/drain run's errors.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "benchcmd.h"
#include "check_main.h"
#include "cli.h"
#include "cmd.h"

#define MS 1000000ULL
#define S 1000000000ULL

START_TEST(loops_is_budget_per_run_over_time_per_loop)
{
	/* 10 s over 6 runs, 1000 loops took 100 ms: 0.1 ms a loop. */
	ck_assert_uint_eq(pb_budget_loops(10 * S, 6, 1000, 100 * MS, PB_BUDGET_MAX_LOOPS), 16666);
	/* Twice the runs, half the loops. */
	ck_assert_uint_eq(pb_budget_loops(10 * S, 12, 1000, 100 * MS, PB_BUDGET_MAX_LOOPS), 8333);
	/* Exact division stays exact. */
	ck_assert_uint_eq(pb_budget_loops(6 * S, 6, 1, 1 * MS, PB_BUDGET_MAX_LOOPS), 1000);
}
END_TEST

START_TEST(loops_is_bounded)
{
	ck_assert_uint_eq(pb_budget_loops(100 * MS, 6, 1, 10 * S, PB_BUDGET_MAX_LOOPS), 1);
	ck_assert_uint_eq(pb_budget_loops(0, 6, 1000, 1 * MS, PB_BUDGET_MAX_LOOPS), 1);
	ck_assert_uint_eq(pb_budget_loops(86400 * S, 1, 1000000, 1, PB_BUDGET_MAX_LOOPS),
			  PB_BUDGET_MAX_LOOPS);
	ck_assert_uint_eq(pb_budget_loops(10 * S, 1, 1000, 1 * MS, 500), 500);
	ck_assert_uint_eq(pb_budget_loops(10 * S, 1, 1000, 1 * MS, 5000000), 5000000);
	/* The product needs more than 64 bits; the result does not. */
	ck_assert_uint_eq(pb_budget_loops(86400 * S, 1, 1000000, 86400 * S, PB_BUDGET_MAX_LOOPS),
			  1000000);
	/* Zero time or runs count as one, never a division by zero. */
	ck_assert_uint_eq(pb_budget_loops(1000, 0, 1, 0, PB_BUDGET_MAX_LOOPS), 1000);
}
END_TEST

START_TEST(target_is_a_slice_of_the_budget)
{
	ck_assert_uint_eq(pb_budget_target_ns(10 * S, 0), 400 * MS);
	ck_assert_uint_eq(pb_budget_target_ns(3600 * S, 0), 1 * S);      /* capped */
	ck_assert_uint_eq(pb_budget_target_ns(200 * MS, 0), 20 * MS);    /* floor */
	/* A first round of 100 ms is mostly fixed cost: time ten of it... */
	ck_assert_uint_eq(pb_budget_target_ns(10 * S, 100 * MS), 1 * S);
	/* ...but never more than a fifth of the budget. */
	ck_assert_uint_eq(pb_budget_target_ns(2 * S, 100 * MS), 400 * MS);
	ck_assert_uint_eq(pb_budget_target_ns(100 * MS, 0), 20 * MS);
}
END_TEST

/* A fake machine: a round costs FIXED plus PER a loop, on a fake clock. */
static uint64_t fake_now;
static uint64_t fake_fixed, fake_per;
static uint64_t fake_rounds[64];
static size_t fake_n;
static int fake_fail_at;

static uint64_t fake_clock(void)
{
	return fake_now;
}

static int fake_round(void *ctx, uint64_t loops)
{
	(void)ctx;
	if (fake_n < 64)
		fake_rounds[fake_n] = loops;
	if (++fake_n == (size_t)fake_fail_at)
		return PB_EXIT_ERROR;
	fake_now += fake_fixed + loops * fake_per;
	return 0;
}

static void fake_reset(uint64_t fixed, uint64_t per)
{
	fake_now = 12345;
	fake_fixed = fixed;
	fake_per = per;
	fake_n = 0;
	fake_fail_at = 0;
}

START_TEST(calibration_grows_to_the_target_then_chooses)
{
	struct pb_budget b = { .duration_ns = 10 * S, .runs = 6, .max_loops = PB_BUDGET_MAX_LOOPS,
			       .clock = fake_clock };
	uint64_t target = pb_budget_target_ns(10 * S, 100 * 1000);

	fake_reset(0, 100 * 1000);         /* 0.1 ms a loop, no fixed cost */
	ck_assert_int_eq(pb_budget_calibrate(&b, fake_round, NULL), 0);
	ck_assert_uint_eq(fake_rounds[0], 1);
	ck_assert_uint_eq(b.calib_rounds, fake_n);
	ck_assert_uint_ge(b.calib_ns, target);
	ck_assert_uint_eq(b.calib_ns, b.calib_loops * 100 * 1000);
	ck_assert_uint_eq(b.calib_total_ns, fake_now - 12345);
	for (size_t i = 1; i < fake_n; i++) {
		ck_assert_uint_gt(fake_rounds[i], fake_rounds[i - 1]);
		ck_assert_uint_le(fake_rounds[i], 100 * fake_rounds[i - 1]);
	}
	/* The choice is the formula on what the calibration left. */
	ck_assert_uint_eq(b.loops, pb_budget_loops(10 * S - b.calib_total_ns, 6, b.calib_loops,
						   b.calib_ns, PB_BUDGET_MAX_LOOPS));
	/* ...which, with no fixed cost, fills that rest. */
	ck_assert_uint_eq(b.loops, (10 * S - b.calib_total_ns) / 6 / (100 * 1000));
}
END_TEST

START_TEST(calibration_with_fixed_costs_stays_within_budget)
{
	struct pb_budget b = { .duration_ns = 10 * S, .runs = 6, .max_loops = PB_BUDGET_MAX_LOOPS,
			       .clock = fake_clock };
	uint64_t run_ns;

	fake_reset(100 * MS, 1 * MS);      /* messaging-like: workers cost 100 ms */
	ck_assert_int_eq(pb_budget_calibrate(&b, fake_round, NULL), 0);
	ck_assert_uint_ge(b.calib_ns, 1 * S);   /* ten first rounds */
	run_ns = 6 * (fake_fixed + b.loops * fake_per);
	ck_assert_uint_le(b.calib_total_ns + run_ns, 10 * S);
	/* ...and uses most of it. */
	ck_assert_uint_ge(b.calib_total_ns + run_ns, 7 * S);
}
END_TEST

START_TEST(calibration_stops_at_max_loops)
{
	struct pb_budget b = { .duration_ns = 10 * S, .runs = 2, .max_loops = 50,
			       .clock = fake_clock };

	fake_reset(0, 1);                  /* 1 ns a loop: never reaches the target */
	ck_assert_int_eq(pb_budget_calibrate(&b, fake_round, NULL), 0);
	ck_assert_uint_eq(b.calib_loops, 50);
	ck_assert_uint_eq(b.loops, 50);
}
END_TEST

START_TEST(calibration_reports_a_failed_round)
{
	struct pb_budget b = { .duration_ns = 10 * S, .runs = 6, .max_loops = PB_BUDGET_MAX_LOOPS,
			       .clock = fake_clock };

	fake_reset(0, 1000);
	fake_fail_at = 2;
	ck_assert_int_eq(pb_budget_calibrate(&b, fake_round, NULL), PB_EXIT_ERROR);
	/* The failed round's time is spent; its loops are no measure. */
	ck_assert_uint_eq(b.calib_rounds, 1);
	ck_assert_uint_eq(b.calib_loops, 1);
	ck_assert_uint_eq(b.calib_ns, 1000);
	ck_assert_uint_eq(b.calib_total_ns, 1000);
	ck_assert_uint_eq(b.loops, 0);
}
END_TEST

START_TEST(json_records_the_budget)
{
	struct pb_budget none = { 0 };
	struct pb_budget b = { .duration_ns = 2 * S, .runs = 6, .max_loops = 77,
			       .calib_loops = 10, .calib_ns = 5 * MS, .calib_rounds = 3,
			       .calib_total_ns = 7 * MS, .loops = 66 };
	struct json_object *o = pb_budget_json(&b), *c, *v;

	ck_assert_ptr_null(pb_budget_json(&none));
	ck_assert_ptr_nonnull(o);
	ck_assert(json_object_object_get_ex(o, "duration_ns", &v));
	ck_assert_int_eq(json_object_get_int64(v), (int64_t)(2 * S));
	ck_assert(json_object_object_get_ex(o, "runs", &v));
	ck_assert_int_eq(json_object_get_int64(v), 6);
	ck_assert(json_object_object_get_ex(o, "loops", &v));
	ck_assert_int_eq(json_object_get_int64(v), 66);
	ck_assert(json_object_object_get_ex(o, "max_loops", &v));
	ck_assert_int_eq(json_object_get_int64(v), 77);
	ck_assert(json_object_object_get_ex(o, "calibration", &c));
	ck_assert(json_object_object_get_ex(c, "loops", &v));
	ck_assert_int_eq(json_object_get_int64(v), 10);
	ck_assert(json_object_object_get_ex(c, "ns", &v));
	ck_assert_int_eq(json_object_get_int64(v), (int64_t)(5 * MS));
	ck_assert(json_object_object_get_ex(c, "rounds", &v));
	ck_assert_int_eq(json_object_get_int64(v), 3);
	ck_assert(json_object_object_get_ex(c, "total_ns", &v));
	ck_assert_int_eq(json_object_get_int64(v), (int64_t)(7 * MS));
	json_object_put(o);
}
END_TEST

static char buf[4096];

START_TEST(fill_drain_names_what_failed)
{
	struct pb_bench b = { .name = "test" };
	struct pb_endpoint_opts eo = { .nonblock = true, .dir = "/nonexistent-pipebench" };
	struct pb_engine_result res;

	ck_assert_int_eq(pb_bench_fill_drain(&b, "anon", PB_KIND_ANON, &eo, buf, 100, 3, &res), 0);
	ck_assert_int_eq(b.status, 0);
	ck_assert_uint_eq(res.loops_done, 3);
	ck_assert_int_ne(pb_bench_fill_drain(&b, "fifo", PB_KIND_FIFO, &eo, buf, 100, 3, &res), 0);
	ck_assert_int_eq(b.status, PB_EXIT_ERROR);
	ck_assert_msg(strncmp(b.error, "fifo: ", 6) == 0, "%s", b.error);
}
END_TEST

START_TEST(fill_drain_o_noatime_refused_is_not_applicable)
{
	struct pb_bench b = { .name = "test" };
	struct pb_endpoint_opts eo = { .nonblock = true, .flags = PB_FLAG_NOATIME };
	struct pb_engine_result res;
	int r = pb_bench_fill_drain(&b, "anon", PB_KIND_ANON, &eo, buf, 100, 1, &res);

	if (r == 0)
		return;  /* a kernel that takes pipe2(O_NOATIME): nothing to see */
	ck_assert_int_eq(r, -EINVAL);
	ck_assert_int_eq(b.status, PB_EXIT_NA);
	ck_assert_msg(strstr(b.error, "O_NOATIME") != NULL, "%s", b.error);
}
END_TEST

/* A kernel carrying the Feb 2025 proposal: pipe2() takes O_NOATIME (here by
 * leaving it out), when set; the library's pipe2() calls all come here. */
static bool kernel_takes_noatime;

/* The benchmark's pipes, all nonblocking (the system facts' one is not);
 * while pipes_emfile is set they cannot be made (EMFILE). */
static unsigned pipe2_calls;
static bool pipes_emfile;

int pipe2(int fd[2], int flags)
{
	pipe2_calls += (flags & O_NONBLOCK) != 0;
	if (pipes_emfile && (flags & O_NONBLOCK)) {
		errno = EMFILE;
		return -1;
	}
	if (kernel_takes_noatime)
		flags &= ~O_NOATIME;
	return (int)syscall(SYS_pipe2, fd, flags);
}

/* While clock_step is set, CLOCK_MONOTONIC moves on exactly that many
 * nanoseconds a reading, so a phase time is a known count of steps. */
static uint64_t clock_step, clock_now;

int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (clock_step && id == CLOCK_MONOTONIC) {
		clock_now += clock_step;
		ts->tv_sec = (time_t)(clock_now / S);
		ts->tv_nsec = (long)(clock_now % S);
		return 0;
	}
	return (int)syscall(SYS_clock_gettime, id, ts);
}

/* o_noatime on that kernel: the flag is accepted, the A/B benchmark runs. */
START_TEST(o_noatime_on_a_kernel_that_takes_the_flag)
{
	char dir[] = "/tmp/pb-check-noatime.XXXXXX", out[64];
	const char *av[] = { "o_noatime", "--loops", "5", "--repeat", "1", "--dir", dir,
			     "--format", "json", "--output", out, NULL };
	struct json_object *doc, *probe, *v;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/out.json", dir);
	kernel_takes_noatime = true;
	ck_assert_int_eq(pb_cmd_run(&pb_cmd_o_noatime, 11, av), PB_EXIT_OK);
	kernel_takes_noatime = false;
	doc = json_object_from_file(out);
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_object_get_ex(doc, "pipe2_o_noatime", &probe));
	ck_assert(json_object_object_get_ex(probe, "accepted", &v));
	ck_assert(json_object_get_boolean(v));
	ck_assert(json_object_object_get_ex(doc, "benchmark", &probe));
	ck_assert(json_object_object_get_ex(probe, "mode", &v));
	ck_assert_str_eq(json_object_get_string(v), "o_noatime_ab");
	json_object_put(doc);
	ck_assert_int_eq(unlink(out), 0);
	/* The text names the A/B pipes and what F_GETFL says of each end (this
	 * kernel drops the flag: no on both). */
	av[8] = "text";
	kernel_takes_noatime = true;
	ck_assert_int_eq(pb_cmd_run(&pb_cmd_o_noatime, 11, av), PB_EXIT_OK);
	kernel_takes_noatime = false;
	{
		FILE *f = fopen(out, "r");
		size_t n;

		ck_assert_ptr_nonnull(f);
		n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = '\0';
		fclose(f);
	}
	ck_assert_msg(strstr(buf, "pipe2(O_NOATIME) ") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "; O_NOATIME on read end: no, write end: no\n") != NULL, "%s", buf);
	ck_assert_int_eq(unlink(out), 0);
	ck_assert_int_eq(rmdir(dir), 0);  /* fails if the run left anything */
}
END_TEST

/* Read the file PATH into buf. */
static void slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/*
 * throughput's seed format is the mail's "TW = s.mmm TR = s.mmm TT = s.mmm",
 * seconds and milliseconds truncated, of each repetition's tw_ns, tr_ns and
 * their sum.  On a clock that steps 1.234999999 s a reading, a loop's write
 * and read phases are one step each, so three loops give TW = TR =
 * 3704999997 ns and TT = 7409999994 ns, a few nanoseconds short of the next
 * millisecond: "3.704" and "7.409" (milliseconds counted in units of
 * 999999 ns would show 3.705 and 7.410); on one that steps 1.235000001 s,
 * 3705000003 ns and 7410000006 ns, a few nanoseconds past it: "3.705" and
 * "7.410" (units of 1000001 ns would show 3.704 and 7.409).  Every line is recomputed from the
 * JSON of the same run; a comment line names each block of a sweep.  And
 * the pipes: one to probe
 * the kind, then a fresh one for each warmup and each repetition of each
 * size (a warmup that does not run makes fewer).
 */
START_TEST(throughput_seed_lines_are_the_json_times)
{
	static const struct { uint64_t step; const char *line; } clocks[] = {
		{ 1234999999, "TW = 3.704 TR = 3.704 TT = 7.409\n" },
		{ 1235000001, "TW = 3.705 TR = 3.705 TT = 7.410\n" },
	};
	char dir[] = "/tmp/pb-check-seed.XXXXXX", out[64], want[sizeof(buf)];
	const char *av[] = { "throughput", "--loops", "3", "--repeat", "2", "--warmup", "2",
			     "--size", "100,4K", "-q", "--format", "json", "--output", out, NULL };
	struct json_object *doc, *res;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/out", dir);
	for (size_t k = 0; k < sizeof(clocks) / sizeof(clocks[0]); k++) {
		size_t off = 0;

		av[11] = "json";
		clock_step = clocks[k].step, clock_now = 0, pipe2_calls = 0;
		ck_assert_int_eq(pb_cmd_run(&pb_cmd_throughput, 14, av), PB_EXIT_OK);
		clock_step = 0;
		ck_assert_uint_eq(pipe2_calls, 1 + 2 * (2 + 2));
		doc = json_object_from_file(out);
		ck_assert_ptr_nonnull(doc);
		ck_assert(json_object_object_get_ex(doc, "results", &res));
		ck_assert_uint_eq(json_object_array_length(res), 2);
		for (size_t i = 0; i < 2; i++) {
			struct json_object *c = json_object_array_get_idx(res, i), *reps, *v;

			off += (size_t)snprintf(want + off, sizeof(want) - off, "# anon %s\n",
						i ? "4 KiB" : "100 B");
			ck_assert(json_object_object_get_ex(c, "repetitions", &reps));
			ck_assert_uint_eq(json_object_array_length(reps), 2);
			for (size_t r = 0; r < 2; r++) {
				struct json_object *x = json_object_array_get_idx(reps, r);
				uint64_t tw, tr, tt;

				ck_assert(json_object_object_get_ex(x, "tw_ns", &v));
				tw = (uint64_t)json_object_get_int64(v);
				ck_assert(json_object_object_get_ex(x, "tr_ns", &v));
				tr = (uint64_t)json_object_get_int64(v);
				ck_assert_uint_eq(tw, 3 * clocks[k].step);
				ck_assert_uint_eq(tr, 3 * clocks[k].step);
				tt = tw + tr;
				off += (size_t)snprintf(want + off, sizeof(want) - off,
							"TW = %llu.%03llu TR = %llu.%03llu TT = %llu.%03llu\n",
							(unsigned long long)(tw / S), (unsigned long long)(tw % S / MS),
							(unsigned long long)(tr / S), (unsigned long long)(tr % S / MS),
							(unsigned long long)(tt / S), (unsigned long long)(tt % S / MS));
			}
		}
		json_object_put(doc);
		ck_assert_ptr_nonnull(strstr(want, clocks[k].line));
		av[11] = "seed";
		clock_step = clocks[k].step, clock_now = 0;
		ck_assert_int_eq(pb_cmd_run(&pb_cmd_throughput, 14, av), PB_EXIT_OK);
		clock_step = 0;
		slurp(out);
		ck_assert_str_eq(buf, want);
		ck_assert_int_eq(unlink(out), 0);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/*
 * A kind whose pipe cannot be made to learn its buffer size: exit 3 with
 * the call and its error, and each result's pipe_size_bytes is null,
 * unknown, never a size of 0 (a socketpair's, and that of a kind never
 * probed, are unknown too).
 */
START_TEST(throughput_pipe_size_unknown_is_null)
{
	char dir[] = "/tmp/pb-check-nopipe.XXXXXX", out[64];
	const char *av[] = { "throughput", "--loops", "3", "--repeat", "1", "--kind",
			     "anon,socketpair", "-q", "--format", "json", "--output", out, NULL };
	struct json_object *doc, *res, *v;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/out", dir);
	pipes_emfile = true;
	ck_assert_int_eq(pb_cmd_run(&pb_cmd_throughput, 12, av), PB_EXIT_ERROR);
	pipes_emfile = false;
	doc = json_object_from_file(out);
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_object_get_ex(doc, "errors", &v));
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(v, 0)),
			 "anon: pipe2: Too many open files");
	ck_assert(json_object_object_get_ex(doc, "results", &res));
	ck_assert_uint_eq(json_object_array_length(res), 2);
	for (size_t i = 0; i < 2; i++) {
		ck_assert(json_object_object_get_ex(json_object_array_get_idx(res, i),
						    "pipe_size_bytes", &v));
		ck_assert_ptr_null(v);   /* present, and null */
	}
	json_object_put(doc);
	ck_assert_int_eq(unlink(out), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

PB_CHECK_SUITE_MAIN("benchcmd",
	PB_TCASE("budget", loops_is_budget_per_run_over_time_per_loop, loops_is_bounded,
		 target_is_a_slice_of_the_budget, calibration_grows_to_the_target_then_chooses,
		 calibration_with_fixed_costs_stays_within_budget, calibration_stops_at_max_loops,
		 calibration_reports_a_failed_round, json_records_the_budget),
	PB_TCASE("fill_drain", fill_drain_names_what_failed,
		 fill_drain_o_noatime_refused_is_not_applicable),
	PB_TCASE("o_noatime", o_noatime_on_a_kernel_that_takes_the_flag),
	PB_TCASE("throughput", throughput_seed_lines_are_the_json_times,
		 throughput_pipe_size_unknown_is_null))
