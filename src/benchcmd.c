/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchcmd.h"
#include "cleanup.h"
#include "clock.h"
#include "copies.h"
#include "cli.h"
#include "msg.h"
#include "stats.h"
#include "units.h"

/* ---------------------------------------------------------------- harness */

int pb_bench_begin(struct pb_bench *b, const char *name, struct pb_cli *cli,
		   uint64_t timeout_ns, uint64_t loops, uint64_t duration_ns)
{
	b->name = name;
	b->progress = pb_cli_progress(cli);
	b->timeout_ns = timeout_ns;
	b->loops = duration_ns ? 0 : loops;
	b->budget = (struct pb_budget){ .duration_ns = duration_ns };
	pb_sysinfo_collect(&b->si);
	if (pb_out_open(&b->out)) {
		pb_err(name, "cannot allocate output buffer");
		return PB_EXIT_ERROR;
	}
	return 0;
}

void pb_bench_arm(struct pb_bench *b)
{
	if (b->timeout_ns)
		pb_watchdog_arm((double)b->timeout_ns / 1e9, "--timeout");
}

void pb_bench_disarm(struct pb_bench *b)
{
	pb_watchdog_arm(0, NULL);
	if (b->error[0])
		pb_err(b->name, "%s", b->error);
}

int pb_bench_end(struct pb_bench *b, const char *path, bool discard)
{
	if (discard)
		pb_out_discard(&b->out);
	else if (pb_out_finish(&b->out, b->name, path) && b->status == 0)
		b->status = PB_EXIT_ERROR;
	return b->status;
}

int pb_bench_fill_drain(struct pb_bench *b, const char *label, enum pb_kind kind,
			const struct pb_endpoint_opts *eo, void *buf, uint64_t size,
			uint64_t loops, struct pb_engine_result *res)
{
	return pb_bench_fill_drain_zc(b, label, kind, eo, NULL, buf, size, loops, res);
}

int pb_bench_fill_drain_zc(struct pb_bench *b, const char *label, enum pb_kind kind,
			   const struct pb_endpoint_opts *eo, const struct pb_zc *zc, void *buf,
			   uint64_t size, uint64_t loops, struct pb_engine_result *res)
{
	struct pb_endpoint ep;
	const char *what = NULL;
	uint64_t limit;
	int r = pb_endpoint_open(&ep, kind, eo, &what);

	if (r) {
		if (r == -EINVAL && (eo->flags & PB_FLAG_NOATIME) && kind == PB_KIND_ANON)
			PB_SET_ERROR(b, PB_EXIT_NA,
				     "pipe2(O_NOATIME) is not supported by this kernel (EINVAL); "
				     "nothing to measure");
		else
			PB_SET_ERROR(b, PB_EXIT_ERROR, "%s: %s: %s", label, what, strerror(-r));
		return r;
	}
	limit = pb_engine_fill_limit(ep.pipe_size, size);
	if (b->ctrs)
		pb_ctrs_start(b->ctrs);
	pb_prof_enable(b->prof);
	if (zc && zc->mode != PB_MODE_RW)
		r = pb_zc_run(zc, ep.rfd, ep.wfd, (size_t)size, loops, limit, res);
	else
		r = pb_engine_run(ep.rfd, ep.wfd, buf, size, loops, limit, res);
	pb_prof_disable(b->prof);
	if (b->ctrs)
		pb_ctrs_stop(b->ctrs, &res->ctr);
	pb_prof_drain(b->prof, b->prof_into);
	pb_endpoint_close(&ep);
	if (r == -ETIMEDOUT) {
		PB_SET_ERROR(b, PB_EXIT_ERROR, "--timeout: timed out after %g s",
			     (double)b->timeout_ns / 1e9);
	} else if (r) {
		char why[256];

		pb_engine_strerror(r, res, limit, why, sizeof(why));
		PB_SET_ERROR(b, PB_EXIT_ERROR, "%s: %s", label, why);
	}
	return r;
}

struct json_object *pb_bench_json_reps(struct json_object *o, struct json_object *reps,
				       size_t n)
{
	struct json_object *sum = n ? json_object_new_object() : NULL;

	json_object_object_add(o, "repetitions", reps);
	json_object_object_add(o, "summary", sum);
	return sum;
}

struct json_object *pb_bench_loops_json(uint64_t loops)
{
	return loops ? json_object_new_int64((int64_t)loops) : NULL;
}

/* ---------------------------------------------------------------- budget */

/* floor(A * B / C), saturating at UINT64_MAX; C > 0. */
static uint64_t muldiv(uint64_t a, uint64_t b, uint64_t c)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 q = (unsigned __int128)a * b / c;

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
#else
	long double q = (long double)a * (long double)b / (long double)c;

	return q >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)q;
#endif
}

uint64_t pb_budget_loops(uint64_t duration_ns, uint64_t runs, uint64_t calib_loops,
			 uint64_t calib_ns, uint64_t max_loops)
{
	uint64_t den, loops;

	if (__builtin_mul_overflow(calib_ns ? calib_ns : 1, runs ? runs : 1, &den))
		return 1;
	loops = muldiv(duration_ns, calib_loops, den);
	if (loops > max_loops)
		loops = max_loops;
	return loops ? loops : 1;
}

uint64_t pb_budget_target_ns(uint64_t duration_ns, uint64_t first_ns)
{
	uint64_t t = duration_ns / 25;

	if (t > 1000000000ULL)
		t = 1000000000ULL;
	if (t < 20000000ULL)
		t = 20000000ULL;
	if (first_ns <= UINT64_MAX / 10 && t < 10 * first_ns)
		t = 10 * first_ns;
	if (t > duration_ns / 5)
		t = duration_ns / 5;
	return t;
}

int pb_budget_calibrate(struct pb_budget *b, pb_budget_round_fn round, void *ctx)
{
	uint64_t (*clock)(void) = b->clock ? b->clock : pb_clock_ns;
	uint64_t target = 0;
	uint64_t max = b->max_loops ? b->max_loops : 1;
	uint64_t loops = 1, prev_loops = 0, prev_ns = 0, left;

	b->calib_rounds = 0;
	b->calib_total_ns = 0;
	for (;;) {
		uint64_t t0 = clock(), next, aim, ns;
		int r = round(ctx, loops);

		ns = clock() - t0;
		b->calib_total_ns += ns;
		if (r)
			return r;  /* spent, but no measure: the last round stays */
		b->calib_ns = ns;
		b->calib_loops = loops;
		b->calib_rounds++;
		if (b->calib_rounds == 1)
			target = pb_budget_target_ns(b->duration_ns, b->calib_ns);
		if (b->calib_ns >= target || loops >= max)
			break;
		/* Aim a little past the target so that one more round usually
		 * does: along the line through the last two rounds when there
		 * are two (the first is mostly fixed costs), else in proportion;
		 * never more than 100 times the loops. */
		aim = target + target / 5;
		if (b->calib_rounds > 1 && b->calib_ns > prev_ns)
			next = loops + muldiv(loops - prev_loops, aim - b->calib_ns,
					      b->calib_ns - prev_ns);
		else
			next = b->calib_ns ? muldiv(loops, aim, b->calib_ns) : 100 * loops;
		if (next > 100 * loops)
			next = 100 * loops;
		if (next <= loops)
			next = loops + 1;
		prev_loops = loops;
		prev_ns = b->calib_ns;
		loops = next < max ? next : max;
	}
	/* What the calibration spent is spent: the run gets the rest. */
	left = b->duration_ns > b->calib_total_ns ? b->duration_ns - b->calib_total_ns : 0;
	b->loops = pb_budget_loops(left, b->runs, b->calib_loops, b->calib_ns, max);
	return 0;
}

struct json_object *pb_budget_json(const struct pb_budget *b)
{
	struct json_object *o, *c;

	if (!b->duration_ns || !b->calib_rounds)
		return NULL;
	o = json_object_new_object();
	c = json_object_new_object();
	pb_json_add_int(o, "duration_ns", (int64_t)b->duration_ns);
	pb_json_add_int(o, "runs", (int64_t)b->runs);
	pb_json_add_int(c, "loops", (int64_t)b->calib_loops);
	pb_json_add_int(c, "ns", (int64_t)b->calib_ns);
	pb_json_add_int(c, "rounds", (int64_t)b->calib_rounds);
	pb_json_add_int(c, "total_ns", (int64_t)b->calib_total_ns);
	json_object_object_add(o, "calibration", c);
	pb_json_add_int(o, "max_loops", (int64_t)b->max_loops);
	json_object_object_add(o, "loops", pb_bench_loops_json(b->loops));
	return o;
}

struct json_object *pb_budget_duration_json(const struct pb_budget *b)
{
	return b->duration_ns ? json_object_new_int64((int64_t)b->duration_ns) : NULL;
}

void pb_budget_text(const struct pb_budget *b, FILE *fp, int width)
{
	if (!b->duration_ns || !b->calib_rounds)
		return;
	if (!b->loops) {
		fprintf(fp, "%-*s --duration %g s: the calibration stopped after %.3f s; "
			"no loops chosen\n", width, "budget", (double)b->duration_ns / 1e9,
			(double)b->calib_total_ns / 1e9);
		return;
	}
	fprintf(fp, "%-*s --duration %g s: calibration (%.3f s) timed %llu %s in %.3f s "
		"-> %llu %s for %llu %s\n", width, "budget", (double)b->duration_ns / 1e9,
		(double)b->calib_total_ns / 1e9,
		(unsigned long long)b->calib_loops, pb_plural(b->calib_loops, "loop", "loops"),
		(double)b->calib_ns / 1e9, (unsigned long long)b->loops,
		pb_plural(b->loops, "loop", "loops"), (unsigned long long)b->runs,
		pb_plural(b->runs, "run", "runs"));
}

int pb_bench_calibrate(struct pb_bench *b, uint64_t runs, uint64_t max_loops,
		       pb_budget_round_fn round, void *ctx)
{
	int r;

	/* Calibration rounds are not counted work, but they and the run
	 * after them should take the budget. */
	pb_progress_start(&b->pg, b->name, b->progress, 0);
	pb_progress_budget(&b->pg, b->budget.duration_ns);
	b->budget = (struct pb_budget){ .duration_ns = b->budget.duration_ns, .runs = runs,
					.max_loops = max_loops };
	r = pb_budget_calibrate(&b->budget, round, ctx);
	pb_progress_end(&b->pg);
	if (!r)
		b->loops = b->budget.loops;
	return r;
}

void pb_bench_progress_start(struct pb_bench *b, uint64_t total)
{
	const struct pb_budget *bu = &b->budget;

	pb_progress_start(&b->pg, b->name, b->progress, total);
	if (bu->duration_ns > bu->calib_total_ns)
		pb_progress_budget(&b->pg, bu->duration_ns - bu->calib_total_ns);
}

uint64_t pb_precision_budget(uint64_t budget_ns, uint64_t duration_ns)
{
	return budget_ns ? budget_ns : duration_ns ? duration_ns : PB_PRECISION_BUDGET_NS;
}

bool pb_precision_spent(uint64_t start, uint64_t budget_ns, uint64_t duration_ns)
{
	return pb_clock_ns() - start >= pb_precision_budget(budget_ns, duration_ns);
}

int pb_precision_check(struct pb_cli *cli, const char *cmd)
{
	if (pb_cli_given(cli, "precision-budget") && !pb_cli_given(cli, "precision")) {
		pb_usage_err(cmd, "--precision-budget without --precision: it bounds the "
			     "repetitions --precision adds");
		return -1;
	}
	return 0;
}

void pb_precision_text(FILE *fp, double target, bool reached, double worst, size_t nreps,
		       uint64_t budget_ns, const char *what, const char *where)
{
	if (reached)
		fprintf(fp, "precision   %g%% reached after %zu repetitions: %s within %.1f%% "
			"(95%% interval)\n", target, nreps, what, worst);
	else if (isnan(worst))
		fprintf(fp, "precision   %g%% not reached in its %.3g s budget: %s%s%zu repetitions, "
			"too few for an interval (%d)\n", target, (double)budget_ns / 1e9,
			where ? where : "",
			where ? " had " : "", nreps, PB_STATS_MEDIAN_CI_MIN);
	else
		fprintf(fp, "precision   %g%% not reached in its %.3g s budget: %.1f%% after %zu "
			"repetitions%s%s%s\n", target, (double)budget_ns / 1e9, worst, nreps,
			where ? " (" : "", where ? where : "", where ? ")" : "");
}

void *pb_bench_room(void *reps, size_t n, size_t *cap, size_t size)
{
	void *r;

	if (n < *cap)
		return reps;
	r = realloc(reps, 2 * *cap * size);
	if (r)
		*cap *= 2;
	return r;
}

struct json_object *pb_precision_json(double target, double reached)
{
	struct json_object *o = json_object_new_object();

	pb_json_add_double(o, "target_pct", target);
	json_object_object_add(o, "reached_pct", isnan(reached) ? NULL :
			       json_object_new_double(reached));
	json_object_object_add(o, "reached", json_object_new_boolean(reached <= target));
	return o;
}

int pb_bench_timestamp_cost(enum pb_kind kind, const char *dir, const struct pb_prof_run *pr,
			    uint64_t loops, struct pb_prof_summary *out, double *syscalls,
			    char *why, size_t len)
{
	struct pb_endpoint_opts eo = { .nonblock = true, .dir = dir };
	struct pb_engine_result res = { 0 };
	struct pb_prof prof;
	/* the loop as every command runs it, its error in B's words */
	struct pb_bench *b = calloc(1, sizeof(*b));
	struct pb_prof_ips *ips = calloc(1, sizeof(*ips));
	char buf[100];
	int r;

	memset(out, 0, sizeof(*out));
	*syscalls = 0;
	if (!b || !ips) {
		free(b);
		free(ips);
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	r = pb_prof_open(&prof, pr->period_ns, why, len);
	if (!r) {
		memset(buf, 't', sizeof(buf));
		b->prof = &prof;
		b->prof_into = ips;
		r = pb_bench_fill_drain(b, pb_kind_names[kind], kind, &eo, buf, sizeof(buf),
					loops, &res);
		if (r)
			snprintf(why, len, "%s", b->error);
		pb_prof_summarize(pr->syms, ips, out);
		*syscalls = (double)(res.write_calls + res.read_calls);
		pb_prof_close(&prof);
	}
	free(b);
	free(ips);
	return r;
}

void pb_bench_profile_begin(struct pb_bench *b, struct pb_prof_run *pr, struct pb_prof *sampler,
			    bool on)
{
	pb_prof_run_begin(pr, on, false);
	memset(sampler, 0, sizeof(*sampler));
	if (!pr->ok)
		return;
	if (pb_prof_open(sampler, pr->period_ns, pr->why, sizeof(pr->why)) == 0)
		b->prof = sampler;
	else
		pr->ok = false;   /* PR->why says why */
}

void pb_bench_profile_end(struct pb_bench *b, struct pb_prof *sampler)
{
	b->prof = NULL;
	b->prof_into = NULL;
	pb_prof_close(sampler);
}

double pb_prof_timestamp_kshare(const struct pb_prof_summary *s)
{
	return s->kernel ? (double)s->cat[PB_PROF_TIMESTAMPS] / (double)s->kernel : 0;
}

int pb_bench_copies_check(struct pb_cli *cli, const char *cmd, const char *arg,
			  const cpu_set_t *allowed, unsigned *out, size_t max, size_t *n,
			  const char *const *alone)
{
	char why[160];

	if (pb_copies_parse(arg, CPU_COUNT(allowed), out, max, n, why, sizeof(why))) {
		pb_usage_err(cmd, "--copies %s", why);
		return -1;
	}
	for (int i = 0; alone[i]; i++)
		if (pb_cli_given(cli, alone[i])) {
			pb_usage_err(cmd, "--copies and --%s: one or the other", alone[i]);
			return -1;
		}
	return 0;
}

void pb_bench_reps_ops(const struct pb_engine_result *reps, size_t n, double *syscalls,
		       double *bytes)
{
	*syscalls = *bytes = 0;
	for (size_t r = 0; r < n; r++) {
		*syscalls += (double)(reps[r].write_calls + reps[r].read_calls);
		*bytes += (double)reps[r].bytes_written;
	}
}
