/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench o_noatime: does this kernel accept pipe2(O_NOATIME), the flag
 * Oleg Nesterov proposed on 2 Feb 2025 (<20250202170131.GA6507@redhat.com>)
 * so that a pipe could skip timestamp updates?  It was never merged
 * (mainline rejects it with EINVAL); Linux 6.15 instead stopped updating
 * anonymous pipes' times altogether (commit f017b0a4951f).
 *
 * Accepted: what the flag changes (timestamps with and without it, per end)
 * and an A/B benchmark pipe2(0) against pipe2(O_NOATIME).  Rejected: the
 * nearest honest substitute, a FIFO (which still updates its times) against
 * an anonymous pipe, clearly labelled as such.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchcmd.h"
#include "cleanup.h"
#include "clock.h"
#include "cli.h"
#include "endpoint.h"
#include "engine.h"
#include "msg.h"
#include "lava.h"
#include "output.h"
#include "stats.h"
#include "stability.h"
#include "sysinfo.h"
#include "tsprobe.h"
#include "units.h"

#define NAME "o_noatime"
#define MAX_CHUNK (64ULL << 20)

static const char *const expect_words[] = { "supported", "unsupported", NULL };

struct on_params {
	uint64_t loops, size, repeat, timeout_ns;
	uint64_t duration_ns;    /* --duration, 0: --loops decides */
	double precision;        /* --precision PCT, 0: off */
	uint64_t precision_budget_ns; /* --precision-budget, 0: --duration, else 60 s */
	const char *dir;
	int expect;              /* -1 none, 0 supported, 1 unsupported */
	unsigned expect_word;    /* --expect, index into expect_words */
	int profile;             /* --profile */
};

struct on_side {
	enum pb_kind kind;
	unsigned flags;
	const char *label;       /* "pipe2(0)", "pipe2(O_NOATIME)", "anon", "fifo" */
	struct pb_engine_result *reps;
	size_t nreps;
	struct pb_stats tt;
	enum pb_stab stab;       /* of TT, and the machine */
	char stab_why[240];
	struct pb_prof_ips *prof; /* --profile: the measured runs' samples */
	struct pb_prof_summary prof_sum;
};

struct on_run {
	const struct on_params *p;
	bool accepted;
	int probe_errno;
	/* Timestamps: accepted -> [0] pipe2(0), [1] pipe2(O_NOATIME); else [0] anon, [1] fifo. */
	struct pb_ts_target ts[2];
	bool ts_ok;
	struct on_side side[2];  /* A, B */
	double *ratios;          /* B/A per pair */
	size_t nratios, cap;     /* pairs measured; room for pairs in reps and ratios */
	double precision;        /* --precision: the median ratio's 95% interval, % of it */
	uint64_t precision_ns;   /* how long the added pairs took */
	struct pb_stats ratio;
	enum pb_stab ratio_stab;
	char ratio_stab_why[240];
	char caveat[256];
	struct pb_ts_mount dir_mount;
	char tmpdir[4096];
	void *buf;
	struct pb_bench b;
	struct pb_prof_run prof;  /* --profile */
	struct pb_prof sampler;
	struct pb_ctrs ctrs;      /* each run's counters */
};

static int check_params(struct pb_cli *cli, void *params)
{
	struct on_params *p = params;

	p->expect = pb_cli_given(cli, "expect") ? (int)p->expect_word : -1;
	return pb_precision_check(cli, NAME);
}

/* pipe2(O_NOATIME): 0 when accepted, else the errno. */
static int probe_flag(void)
{
	int fd[2];

	if (pipe2(fd, O_CLOEXEC | O_NOATIME) != 0)
		return errno;
	close(fd[0]);
	close(fd[1]);
	return 0;
}

#define set_error PB_SET_ERROR

/* One run of LOOPS loops on a fresh endpoint of SIDE. */
static int run_side(struct on_run *run, const struct on_side *side, uint64_t loops,
		    struct pb_engine_result *res)
{
	struct pb_endpoint_opts eo = { .nonblock = true, .flags = side->flags, .dir = run->tmpdir };

	return pb_bench_fill_drain(&run->b, side->label, side->kind, &eo, run->buf, run->p->size,
				   loops, res);
}

/* A calibration round: A then B, with LOOPS loops. */
static int calibration_round(void *ctx, uint64_t loops)
{
	struct on_run *run = ctx;
	struct pb_engine_result scratch;

	pb_progress_show(&run->b.pg, "calibrating, %llu %s", (unsigned long long)loops,
			 pb_plural(loops, "loop", "loops"));
	for (int s = 0; s < 2 && !run->b.status; s++)
		run_side(run, &run->side[s], loops, &scratch);
	return run->b.status;
}

/* Measured pair number I (0-based; room for it made): A, then B, then
 * their ratio. */
static void pair(struct on_run *run, size_t i, size_t of)
{
	for (int s = 0; s < 2 && !run->b.status; s++) {
		pb_progress_show(&run->b.pg, "%s pair %zu/%zu", run->side[s].label, i + 1, of);
		run->b.prof_into = run->side[s].prof;
		if (run_side(run, &run->side[s], run->b.loops, &run->side[s].reps[i]) == 0)
			run->side[s].nreps = i + 1;
		run->b.prof_into = NULL;
	}
	if (!run->b.status) {
		const struct pb_engine_result *a = &run->side[0].reps[i];
		const struct pb_engine_result *b = &run->side[1].reps[i];
		double ta = (double)(a->tw_ns + a->tr_ns), tb = (double)(b->tw_ns + b->tr_ns);

		run->ratios[run->nratios++] = ta > 0 ? tb / ta : 0;
	}
}

/* Room for one more pair: every array doubled when full. */
static int pair_room(struct on_run *run)
{
	size_t cap = run->cap;
	void *r;

	for (int s = 0; s < 2; s++) {
		cap = run->cap;
		if (!(r = pb_bench_room(run->side[s].reps, run->nratios, &cap,
					sizeof(*run->side[s].reps))))
			return -ENOMEM;
		run->side[s].reps = r;
	}
	cap = run->cap;
	if (!(r = pb_bench_room(run->ratios, run->nratios, &cap, sizeof(*run->ratios))))
		return -ENOMEM;
	run->ratios = r;
	run->cap = cap;
	return 0;
}

/* --precision: one more pair at a time until the median B/A ratio is known
 * within the asked percent, or the budget counted from START is spent. */
static void refine(struct on_run *run, uint64_t start)
{
	const struct on_params *p = run->p;
	uint64_t t0 = pb_clock_ns();

	while (!run->b.status && !pb_cleanup_interrupted()) {
		run->precision = pb_stats_median_precision(run->ratios, run->nratios);
		if (run->precision <= p->precision ||
		    pb_precision_spent(start, p->precision_budget_ns, p->duration_ns))
			break;
		if (pair_room(run)) {
			set_error(&run->b, PB_EXIT_ERROR, "--precision: out of memory");
			break;
		}
		pb_progress_show(&run->b.pg, "precision %.1f%% of %g%% wanted", run->precision,
				 p->precision);
		pair(run, run->nratios, run->nratios + 1);
	}
	run->precision_ns = pb_clock_ns() - t0;
}

/* One unmeasured A B pair, then REPEAT measured pairs, interleaved A B A B
 * (then more with --precision). */
static void bench(struct on_run *run)
{
	const struct on_params *p = run->p;
	struct pb_engine_result scratch;
	struct pb_stab_machine m;
	uint64_t start = pb_clock_ns();
	double *tt;

	run->cap = p->repeat;
	for (int s = 0; s < 2; s++) {
		run->side[s].reps = calloc(p->repeat, sizeof(*run->side[s].reps));
		if (!run->side[s].reps) {
			set_error(&run->b, PB_EXIT_ERROR, "out of memory");
			return;
		}
	}
	run->ratios = calloc(p->repeat, sizeof(*run->ratios));
	run->buf = malloc(p->size);
	if (!run->ratios || !run->buf) {
		set_error(&run->b, PB_EXIT_ERROR, "out of memory");
		return;
	}
	memset(run->buf, 'p', p->size);
	/* With --duration: choose the loops for REPEAT measured pairs and the unmeasured one. */
	if (p->duration_ns && pb_bench_calibrate(&run->b, p->repeat + 1, PB_BUDGET_MAX_LOOPS,
						 calibration_round, run))
		return;
	pb_bench_progress_start(&run->b, 2 * (p->repeat + 1));
	for (int s = 0; s < 2 && !run->b.status; s++) {
		pb_progress_show(&run->b.pg, "%s warmup", run->side[s].label);
		run_side(run, &run->side[s], run->b.loops, &scratch);
	}
	for (uint64_t i = 0; i < p->repeat && !run->b.status; i++)
		pair(run, i, p->repeat);
	if (p->precision > 0)
		refine(run, start);
	pb_progress_end(&run->b.pg);
	tt = calloc(run->nratios + 1, sizeof(*tt));
	if (!tt) {
		set_error(&run->b, PB_EXIT_ERROR, "out of memory");
		return;
	}
	for (int s = 0; s < 2; s++) {
		struct on_side *sd = &run->side[s];

		for (size_t i = 0; i < sd->nreps; i++)
			tt[i] = (double)(sd->reps[i].tw_ns + sd->reps[i].tr_ns);
		if (sd->nreps)
			pb_stats_compute(tt, sd->nreps, &sd->tt);
	}
	if (run->nratios)
		pb_stats_compute(run->ratios, run->nratios, &run->ratio);
	free(tt);
	pb_stab_machine_now(&m);
	for (int s = 0; s < 2; s++)
		if (run->side[s].nreps)
			run->side[s].stab = pb_stab_judge(&run->side[s].tt, NULL, &m,
							  run->side[s].stab_why,
							  sizeof(run->side[s].stab_why));
	if (run->nratios)
		run->ratio_stab = pb_stab_judge(&run->ratio, NULL, &m, run->ratio_stab_why,
						sizeof(run->ratio_stab_why));
}

/* Say plainly when the substitute cannot isolate the cost of timestamps. */
static void substitute_caveat(struct on_run *run)
{
	const struct pb_ts_target *a = &run->ts[0], *f = &run->ts[1];

	if (!run->ts_ok)
		snprintf(run->caveat, sizeof(run->caveat),
			 "timestamps could not be probed; the ratio is FIFO against anonymous pipe only");
	else if (a->verdict == PB_TS_V_FROZEN && f->verdict == PB_TS_V_UPDATED)
		snprintf(run->caveat, sizeof(run->caveat),
			 "on this kernel the FIFO updates its timestamps and the anonymous pipe does "
			 "not, so the ratio bounds what timestamp updates cost (it also includes "
			 "other FIFO-only work)");
	else
		snprintf(run->caveat, sizeof(run->caveat),
			 "on this kernel anonymous pipes are '%s' and FIFOs '%s', so the ratio does "
			 "NOT isolate what timestamp updates cost",
			 pb_ts_verdict_names[a->verdict], pb_ts_verdict_names[f->verdict]);
}

static bool expect_holds(const struct on_run *run)
{
	return run->p->expect < 0 || (run->p->expect == 0) == run->accepted;
}

static void emit_ts_text(const struct on_run *run, FILE *fp)
{
	for (int i = 0; i < 2; i++) {
		const struct pb_ts_target *t = &run->ts[i];
		const char *label = run->accepted ? (i ? "pipe2(O_NOATIME)" : "pipe2(0)")
						  : (i ? "fifo" : "anon");

		fprintf(fp, "  %-17s %s: %s", label, pb_ts_verdict_names[t->verdict], t->detail);
		if (run->accepted && t->end_noatime[0] >= 0)
			fprintf(fp, "; O_NOATIME on read end: %s, write end: %s",
				t->end_noatime[0] ? "yes" : "no", t->end_noatime[1] ? "yes" : "no");
		fputc('\n', fp);
	}
}

/* --profile: a side's measured runs' system calls. */
static double side_syscalls(const struct on_side *sd)
{
	double sys, bytes;

	pb_bench_reps_ops(sd->reps, sd->nreps, &sys, &bytes);
	return sys;
}

/* --profile in text: what timestamp updates cost on each side, then each
 * side's categories and top functions. */
static void profile_text(const struct on_run *run, FILE *fp)
{
	if (!run->prof.on)
		return;
	if (!run->prof.ok) {
		fprintf(fp, "  profile: not taken: %s\n", run->prof.why);
		return;
	}
	if (!run->prof.user_only && !run->prof.syms_why[0])
		fprintf(fp, "  timestamp updates: %.1f%% of kernel time on B (%s), %.1f%% on A (%s)"
			"\n", 100 * pb_prof_timestamp_kshare(&run->side[1].prof_sum),
			run->side[1].label, 100 * pb_prof_timestamp_kshare(&run->side[0].prof_sum),
			run->side[0].label);
	for (int s = 0; s < 2; s++) {
		fprintf(fp, "  profile of %c %s:\n", s ? 'B' : 'A', run->side[s].label);
		pb_prof_text(fp, "    ", &run->side[s].prof_sum, run->prof.period_ns,
			     side_syscalls(&run->side[s]), "syscall");
	}
}

static void emit_text(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct on_run *run = r_;
	const struct on_params *p = run->p;
	struct pb_stab_text st;
	char sz[32];

	if (run->b.status == PB_EXIT_ERROR)
		return;           /* the error says why */
	fprintf(fp, "kernel      Linux %s %s\n", si->kernel_release, si->machine);
	pb_text_machine(fp, "machine     ");
	if (run->accepted) {
		fprintf(fp, "pipe2(O_NOATIME)  accepted: this kernel carries the 2 Feb 2025 "
			"proposal (or something like it)\n\n");
		fprintf(fp, "timestamps (write and read, %d repetitions)\n", 3);
	} else {
		fprintf(fp, "pipe2(O_NOATIME)  rejected: %s (%s)\n", strerrorname_np(run->probe_errno) ?
			strerrorname_np(run->probe_errno) : "?", strerror(run->probe_errno));
		fprintf(fp, "  This kernel does not accept O_NOATIME in pipe2(): the 2 Feb 2025 "
			"proposal was never merged.\n  Linux 6.15 stopped updating anonymous pipes' "
			"timestamps instead (commit f017b0a4951f).\n\n");
		fprintf(fp, "timestamps on this kernel (write and read, 3 repetitions)\n");
	}
	if (run->ts_ok)
		emit_ts_text(run, fp);
	else
		fprintf(fp, "  not probed\n");
	if (!run->nratios)
		return;
	pb_format_size(p->size, sz, sizeof(sz));
	if (run->accepted)
		fprintf(fp, "\nA/B benchmark: pipe2(0) against pipe2(O_NOATIME)\n");
	else
		fprintf(fp, "\nSUBSTITUTE benchmark (not an O_NOATIME measurement): FIFO against "
			"anonymous pipe\n  %s\n", run->caveat);
	fprintf(fp, "  %llu loops of %s, %zu interleaved pairs (A B A B) after one unmeasured "
		"pair%s%s\n", (unsigned long long)run->b.loops, sz, run->nratios,
		run->accepted ? "" : ", FIFO in ", run->accepted ? "" : p->dir);
	/* Its value in the column of the A and B lines' values below. */
	if (run->b.budget.duration_ns) {
		fputs("  ", fp);
		pb_budget_text(&run->b.budget, fp, 19);
	}
	for (int s = 0; s < 2; s++) {
		const struct on_side *sd = &run->side[s];

		fprintf(fp, "  %c %-17s TT median %.3f s (min %.3f, max %.3f, spread %.1f%%)\n",
			s ? 'B' : 'A', sd->label, sd->tt.median / 1e9, sd->tt.min / 1e9,
			sd->tt.max / 1e9, sd->tt.spread * 100);
	}
	fprintf(fp, "  TT ratio %s/%s: median %.3fx (min %.3fx, max %.3fx, spread %.1f%%)%s\n",
		run->side[1].label, run->side[0].label, run->ratio.median, run->ratio.min,
		run->ratio.max, run->ratio.spread * 100, run->accepted ? "" : "  [substitute]");
	profile_text(run, fp);
	pb_stab_text_begin(&st, fp, 11);
	for (int s = 0; s < 2; s++) {
		char label[48];

		snprintf(label, sizeof(label), "%c %s", s ? 'B' : 'A', run->side[s].label);
		pb_stab_text_row(&st, label, run->side[s].stab, run->side[s].stab_why);
	}
	pb_stab_text_row(&st, "B/A ratio", run->ratio_stab, run->ratio_stab_why);
	pb_stab_text_end(&st);
	if (p->precision > 0)
		pb_precision_text(fp, p->precision, run->precision <= p->precision, run->precision,
				  run->nratios, pb_precision_budget(p->precision_budget_ns, p->duration_ns),
				  "the median TT ratio", NULL);
	if (p->expect >= 0)
		fprintf(fp, "\nexpect %s: %s\n", expect_words[p->expect],
			expect_holds(run) ? "holds" : "does NOT hold");
}

static void emit_json(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct on_run *run = r_;
	const struct on_params *p = run->p;
	struct json_object *doc = pb_doc_new(NAME, si), *o = json_object_new_object();
	struct json_object *probe = json_object_new_object(), *ts = json_object_new_array();
	struct json_object *b = NULL, *sum = json_object_new_object();
	struct pb_row row;

	json_object_object_add(o, "loops", pb_bench_loops_json(run->b.loops));
	json_object_object_add(o, "duration_ns", pb_budget_duration_json(&run->b.budget));
	pb_json_add_int(o, "size_bytes", (int64_t)p->size);
	pb_json_add_int(o, "repeat", (int64_t)p->repeat);
	json_object_object_add(o, "precision_pct", p->precision > 0 ?
			       json_object_new_double(p->precision) : NULL);
	pb_json_add_int(o, "precision_budget_ns", (int64_t)p->precision_budget_ns);
	pb_json_add_str(o, "dir", p->dir);
	pb_json_add_str(o, "expect", p->expect >= 0 ? expect_words[p->expect] : NULL);
	pb_json_add_int(o, "timeout_ns", (int64_t)p->timeout_ns);
	json_object_object_add(doc, "params", o);
	json_object_object_add(doc, "budget", pb_budget_json(&run->b.budget));
	json_object_object_add(probe, "accepted", json_object_new_boolean(run->accepted));
	pb_json_add_str(probe, "errno", run->accepted ? NULL : strerrorname_np(run->probe_errno));
	pb_json_add_str(probe, "error", run->accepted ? NULL : strerror(run->probe_errno));
	json_object_object_add(doc, "pipe2_o_noatime", probe);
	for (int i = 0; i < 2 && run->ts_ok; i++)
		json_object_array_add(ts, pb_ts_target_json(&run->ts[i]));
	json_object_object_add(doc, "timestamps", ts);
	json_object_object_add(doc, "profile", pb_prof_run_json(&run->prof));
	if (run->nratios) {
		struct json_object *sides = json_object_new_array(), *ratios = json_object_new_array();
		struct json_object *rx = json_object_new_object(), *rreps = json_object_new_array();

		b = json_object_new_object();
		pb_json_add_str(b, "mode", run->accepted ? "o_noatime_ab" : "substitute_fifo_vs_anon");
		pb_json_add_str(b, "label", run->accepted ?
				"A/B: pipe2(0) against pipe2(O_NOATIME)" :
				"SUBSTITUTE (not an O_NOATIME measurement): FIFO against anonymous pipe");
		pb_json_add_str(b, "caveat", run->accepted ? NULL : run->caveat);
		if (!run->accepted)
			json_object_object_add(b, "fifo_dir", pb_ts_mount_json(&run->dir_mount, p->dir));
		for (int s = 0; s < 2; s++) {
			const struct on_side *sd = &run->side[s];
			struct json_object *x = json_object_new_object(), *reps = json_object_new_array();

			pb_json_add_str(x, "role", s ? "B" : "A");
			pb_json_add_str(x, "label", sd->label);
			pb_json_add_str(x, "kind", pb_kind_names[sd->kind]);
			for (size_t i = 0; i < sd->nreps; i++) {
				struct json_object *r = json_object_new_object();

				pb_json_add_int(r, "tw_ns", (int64_t)sd->reps[i].tw_ns);
				pb_json_add_int(r, "tr_ns", (int64_t)sd->reps[i].tr_ns);
				pb_json_add_int(r, "tt_ns", (int64_t)(sd->reps[i].tw_ns + sd->reps[i].tr_ns));
				pb_json_add_int(r, "syscalls", (int64_t)(sd->reps[i].write_calls +
									 sd->reps[i].read_calls));
				/* the run's counters (null where not counted) */
				for (int k = 0; k < PB_CTR_COUNT; k++)
					json_object_object_add(r, pb_ctr_names[k],
						sd->reps[i].ctr.have[k] ?
						json_object_new_int64((int64_t)sd->reps[i].ctr.v[k]) :
						NULL);
				json_object_array_add(reps, r);
			}
			json_object_object_add(x, "repetitions", reps);
			json_object_object_add(x, "tt_ns", pb_json_stats(&sd->tt, true));
			if (sd->prof && run->prof.ok)
				json_object_object_add(x, "profile", pb_prof_json(&sd->prof_sum,
						       run->prof.period_ns, side_syscalls(sd), "syscall",
						       0));
			row = pb_row_json(x);
			pb_stab_fields(&row, sd->stab, sd->stab_why);
			json_object_array_add(sides, x);
		}
		/* The ratio per pair as a result of its own, so compare sees it. */
		pb_json_add_str(rx, "role", "B/A");
		for (size_t i = 0; i < run->nratios; i++) {
			struct json_object *r = json_object_new_object();

			pb_json_add_double(r, "tt_ratio", run->ratios[i]);
			json_object_array_add(rreps, r);
			json_object_array_add(ratios, json_object_new_double(run->ratios[i]));
		}
		json_object_object_add(rx, "repetitions", rreps);
		row = pb_row_json(rx);
		pb_stab_fields(&row, run->ratio_stab, run->ratio_stab_why);
		if (p->precision > 0)
			json_object_object_add(rx, "precision",
					       pb_precision_json(p->precision, run->precision));
		json_object_array_add(sides, rx);
		/* `results`, like every command's: what compare reads. */
		json_object_object_add(doc, "results", sides);
		json_object_object_add(b, "tt_ratios_b_over_a", ratios);
		json_object_object_add(b, "tt_ratio", pb_json_stats(&run->ratio, false));
	}
	json_object_object_add(doc, "benchmark", b);
	json_object_object_add(sum, "supported", json_object_new_boolean(run->accepted));
	pb_json_add_double(sum, "tt_ratio_median", run->nratios ? run->ratio.median : NAN);
	pb_json_add_double(sum, "tt_ratio_spread", run->nratios ? run->ratio.spread : NAN);
	json_object_object_add(sum, "substitute", json_object_new_boolean(!run->accepted));
	json_object_object_add(sum, "expectations_hold", p->expect < 0 ? NULL :
			       json_object_new_boolean(expect_holds(run)));
	if (p->precision > 0) {
		json_object_object_add(sum, "precision_reached",
				       json_object_new_boolean(run->precision <= p->precision));
		pb_json_add_int(sum, "precision_extra_ns", (int64_t)run->precision_ns);
	}
	pb_doc_finish(doc, sum, run->b.error, run->b.status, fp);
}

static void probe_timestamps(struct on_run *run)
{
	struct pb_ts_opts o = { .repeat = 3, .ops = PB_TS_OPS_RW, .dir = run->tmpdir };
	char err[256];

	if (run->accepted) {
		run->ts[0] = (struct pb_ts_target){ .kind = PB_KIND_ANON };
		run->ts[1] = (struct pb_ts_target){ .kind = PB_KIND_ANON, .flags = PB_FLAG_NOATIME };
	} else {
		run->ts[0] = (struct pb_ts_target){ .kind = PB_KIND_ANON };
		run->ts[1] = (struct pb_ts_target){ .kind = PB_KIND_FIFO };
	}
	if (pb_ts_probe(run->ts, 2, &o, err, sizeof(err)) == 0)
		run->ts_ok = true;
	else
		pb_warn(NAME, "timestamps: %s", err);
}

static int execute(struct pb_cli *cli, void *params)
{
	const struct on_params *p = params;
	struct on_run run = { .p = p, .precision = NAN };
	int r = pb_bench_begin(&run.b, NAME, cli, p->timeout_ns, p->loops, p->duration_ns);

	if (r)
		return r;
	run.probe_errno = probe_flag();
	run.accepted = run.probe_errno == 0;
	pb_ts_mount_describe(p->dir, -1, &run.dir_mount);
	if (run.accepted) {
		run.side[0] = (struct on_side){ .kind = PB_KIND_ANON, .label = "pipe2(0)" };
		run.side[1] = (struct on_side){ .kind = PB_KIND_ANON, .flags = PB_FLAG_NOATIME,
						.label = "pipe2(O_NOATIME)" };
	} else {
		run.side[0] = (struct on_side){ .kind = PB_KIND_ANON, .label = "anon" };
		run.side[1] = (struct on_side){ .kind = PB_KIND_FIFO, .label = "fifo" };
	}
	PB_TMPDIR_MAKE(&run.b, p->dir, run.tmpdir);
	for (int s = 0; s < 2 && p->profile && !run.b.status; s++)
		if (!(run.side[s].prof = calloc(1, sizeof(*run.side[s].prof))))
			set_error(&run.b, PB_EXIT_ERROR, "out of memory");
	pb_bench_profile_begin(&run.b, &run.prof, &run.sampler, p->profile);
	pb_ctrs_open(&run.ctrs);
	run.b.ctrs = &run.ctrs;
	pb_bench_arm(&run.b);
	if (!run.b.status) {
		probe_timestamps(&run);
		if (!run.accepted)
			substitute_caveat(&run);
		bench(&run);
	}
	pb_bench_profile_end(&run.b, &run.sampler);
	run.b.ctrs = NULL;
	pb_ctrs_close(&run.ctrs);
	for (int s = 0; s < 2 && run.side[s].prof; s++)
		pb_prof_summarize(run.prof.syms, run.side[s].prof, &run.side[s].prof_sum);
	if (run.tmpdir[0])
		pb_tmpdir_remove(run.tmpdir);
	if (!run.b.status && !expect_holds(&run))
		run.b.status = PB_EXIT_FAIL;
	pb_bench_disarm(&run.b);
	pb_cli_emit(cli, &run, &run.b.si, run.b.out.fp);
	for (int i = 0; i < 2; i++) {
		pb_ts_target_free(&run.ts[i]);
		free(run.side[i].reps);
		free(run.side[i].prof);
	}
	pb_prof_run_end(&run.prof);
	free(run.ratios);
	free(run.buf);
	return pb_bench_end(&run.b, cli->common.output, false);
}

#define P struct on_params
static const struct pb_opt options[] = {
	{ PB_OPT("loops", 'n', PB_OPT_COUNT, P, loops), .min = 1, .max = PB_BUDGET_MAX_LOOPS,
	  .def = "2000", .arg = "N", .help = "fill/drain loops per run" },
	PB_OPT_BUDGET(P, duration_ns),
	{ PB_OPT("size", 's', PB_OPT_SIZE, P, size), .min = 1, .max = MAX_CHUNK, .def = "100",
	  .arg = "BYTES", .help = "chunk size per write/read; K, M suffixes; at most 64M" },
	PB_OPT_REPEAT(P, repeat, "measured A/B pairs, interleaved A B A B"),
	PB_OPT_PRECISION(P, precision, precision_budget_ns, "the median TT ratio B/A",
			 "--duration, else 60 s"),
	{ PB_OPT("dir", 'd', PB_OPT_DIR, P, dir), .arg = "DIR",
	  .help = "directory for the FIFO of the substitute benchmark" },
	{ PB_OPT("expect", 'e', PB_OPT_WORD, P, expect_word), .words = expect_words,
	  .arg = "WORD", .help = "exit 1 unless pipe2(O_NOATIME) is" },
	PB_OPT_PROFILE(P, profile),
	PB_OPT_TIMEOUT(P, timeout_ns),
	PB_OPT_END
};

/* o_noatime: pipe2_o_noatime (1 accepted, 0 refused), the timestamp probes
 * as timestamps.KIND.OPERATION.TIME, tt-ratio, and the expectation. */
static void lava_cases(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *acc = pb_json_get(doc, "pipe2_o_noatime.accepted");
	struct json_object *res = pb_json_get(doc, "results");

	if (json_object_is_type(acc, json_type_boolean))
		pb_lava_measure(l, json_object_get_boolean(acc) ? 1 : 0, "accepted",
				"pipe2_o_noatime");
	else
		pb_lava_case(l, "unknown", "pipe2_o_noatime");
	pb_lava_ts_targets(l, "timestamps.", pb_json_get(doc, "timestamps"));
	pb_lava_measure(l, pb_json_num(doc, "summary.tt_ratio_median"), "ratio", "tt-ratio");
	for (size_t i = 0; i < pb_json_len(res); i++) {
		struct json_object *r = json_object_array_get_idx(res, i);

		if (pb_json_str(r, "role") && strcmp(pb_json_str(r, "role"), "B/A") == 0)
			pb_lava_stability(l, r, "tt-ratio");
	}
	pb_lava_expectations(l, doc);
}

static const struct pb_format formats[] = {
	{ .name = "text", .emit = emit_text, .text = true },
	{ .name = "json", .emit = emit_json },
	PB_FORMAT_END
};

const struct pb_cmd pb_cmd_o_noatime = {
	.lava_cases = lava_cases,
	.name = NAME, .opts = options, .formats = formats, .params_size = sizeof(struct on_params),
	.check = check_params, .exec = execute,
	.summary = "whether pipe2(O_NOATIME) is accepted, and what timestamp updates cost",
};
