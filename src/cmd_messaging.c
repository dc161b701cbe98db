/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench messaging: hackbench's groups of senders and receivers over
 * pipes (the workload of the 2013 pipe_write() regression report), with
 * repetitions, statistics and the workers' context switches and CPU time.
 */
#include <config.h>

#include <errno.h>
#include <sched.h>
#include <math.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchcmd.h"
#include "cleanup.h"
#include "cli.h"
#include "clock.h"
#include "endpoint.h"
#include "messaging.h"
#include "msg.h"
#include "lava.h"
#include "output.h"
#include "stats.h"
#include "stability.h"
#include "sysinfo.h"
#include "units.h"

#define NAME "messaging"
#define MAX_SIZE (1ULL << 20)


struct ms_params {
	struct pb_messaging_params w;
	uint64_t repeat, warmup, timeout_ns;
	uint64_t duration_ns;    /* --duration, 0: --loops decides */
	double precision;        /* --precision PCT, 0: off */
	uint64_t precision_budget_ns; /* --precision-budget, 0: --duration, else 60 s */
	unsigned kind_words;     /* --kind, bits of pb_kind_words */
	int threads;             /* --threads */
	int profile;             /* --profile */
};

/* The per-repetition metrics, in output order. */
enum { M_ELAPSED, M_RATE_MSG, M_RATE_BYTES, M_VCSW, M_IVCSW, M_USER, M_SYS, M_FAULTS, M_COUNT };

static const struct metric {
	const char *key;     /* JSON and CSV name */
	const char *label;   /* text */
	double scale;        /* text value = raw * scale */
	int decimals;        /* text */
	bool integer;        /* JSON: integer or float */
} metrics[M_COUNT] = {
	{ "elapsed_ns", "elapsed s", 1e-9, 3, true },
	{ "rate_messages_per_s", "messages/s", 1, 0, false },
	{ "rate_bytes_per_s", "MB/s", 1e-6, 1, false },
	{ "voluntary_ctxsw", "voluntary ctxsw", 1, 0, true },
	{ "involuntary_ctxsw", "involuntary ctxsw", 1, 0, true },
	{ "cpu_user_ns", "CPU user s", 1e-9, 3, true },
	{ "cpu_sys_ns", "CPU sys s", 1e-9, 3, true },
	{ "page_faults", "page faults", 1, 0, true },
};

struct ms_run {
	const struct ms_params *p;
	struct pb_messaging_params w;  /* p->w with the budget's loops */
	struct pb_messaging_result *reps;
	size_t nreps, cap;
	double precision;              /* --precision: the median elapsed time's 95%
					  interval, % of it; NAN: too few repetitions */
	uint64_t precision_ns;         /* how long the added repetitions took */
	struct pb_stats stats[M_COUNT];
	enum pb_stab stab;             /* of the elapsed times, and the machine */
	char stab_why[240];
	struct pb_bench b;
	/* --profile: samplers on each CPU, the workers' samples of the measured
	 * repetitions, resolved */
	struct pb_prof_run prof;
	struct pb_prof sampler;
	struct pb_prof_ips *prof_ips;
	struct pb_prof_summary prof_sum;
};

static double rate(uint64_t count, uint64_t ns)
{
	return ns ? (double)count * 1e9 / (double)ns : 0;
}

static double metric_value(const struct pb_messaging_result *e, int m)
{
	switch (m) {
	case M_ELAPSED: return (double)e->elapsed_ns;
	case M_RATE_MSG: return rate(e->messages, e->elapsed_ns);
	case M_RATE_BYTES: return rate(e->bytes, e->elapsed_ns);
	case M_VCSW: return (double)e->voluntary_ctxsw;
	case M_IVCSW: return (double)e->involuntary_ctxsw;
	case M_USER: return (double)e->cpu_user_ns;
	case M_SYS: return (double)e->cpu_sys_ns;
	default: return (double)e->page_faults;
	}
}

/*
 * The most loops whose bytes per repetition fit the counters and JSON's
 * int64, within --loops' own bound.  W has passed the worker limit, so the
 * bytes per loop (at most 2^22 senders' messages of 1 MiB) cannot overflow.
 */
static uint64_t max_loops(const struct pb_messaging_params *w)
{
	uint64_t per = w->groups * w->fds * w->fds * w->size;
	uint64_t m = (uint64_t)INT64_MAX / per;

	return m < PB_BUDGET_MAX_LOOPS ? m : PB_BUDGET_MAX_LOOPS;
}

/* After the rows: one kind of the common vocabulary, and the cross-checks. */
static int check_params(struct pb_cli *cli, void *params)
{
	struct ms_params *p = params;
	const char *c = NAME, *given = pb_cli_value(cli, "kind");
	unsigned mask = pb_kind_mask(p->kind_words, PB_KIND_WORDS_ANON_SOCKET);

	if (pb_precision_check(cli, c))
		return -1;
	if (mask == ((1u << PB_KIND_ANON) | (1u << PB_KIND_SOCKETPAIR))) {
		pb_usage_err(c, "--kind %s: messaging runs one kind at a time", given);
		return -1;
	}
	p->w.kind = mask & (1u << PB_KIND_SOCKETPAIR) ? PB_MESSAGING_SOCKETPAIR
						      : PB_MESSAGING_PIPE;
	p->w.threads = p->threads != 0;
	if (pb_messaging_workers(&p->w) > PB_MESSAGING_MAX_WORKERS) {
		pb_usage_err(c, "--groups %llu with --fds %llu: %llu workers; at most %d",
			     (unsigned long long)p->w.groups, (unsigned long long)p->w.fds,
			     (unsigned long long)pb_messaging_workers(&p->w),
			     PB_MESSAGING_MAX_WORKERS);
		return -1;
	}
	if (p->w.loops > max_loops(&p->w)) {
		pb_usage_err(c, "--loops %llu with --size %llu: more than 2^63 bytes per "
			     "repetition", (unsigned long long)p->w.loops,
			     (unsigned long long)p->w.size);
		return -1;
	}
	return 0;
}

#define set_error PB_SET_ERROR

static void progress(struct ms_run *run, const char *phase, uint64_t i, uint64_t n)
{
	pb_progress_show(&run->b.pg, "%s %llu/%llu", phase, (unsigned long long)i,
			 (unsigned long long)n);
}

static int one(struct ms_run *run, const struct pb_messaging_params *w,
	       struct pb_messaging_result *res)
{
	struct pb_messaging_params pw = *w;
	char err[256];
	int r;

	/* --profile: the samples of a measured repetition are the row's */
	pw.prof = run->prof.ok ? &run->sampler : NULL;
	pw.prof_into = res >= run->reps && res < run->reps + run->cap ? run->prof_ips : NULL;
	r = pb_messaging_run(&pw, res, err, sizeof(err));

	if (r)
		set_error(&run->b, PB_EXIT_ERROR, "%s", err[0] ? err : strerror(-r));
	return r;
}

/* A calibration round: one repetition with LOOPS loops. */
static int calibration_round(void *ctx, uint64_t loops)
{
	struct ms_run *run = ctx;
	struct pb_messaging_params w = run->w;
	struct pb_messaging_result scratch;

	pb_progress_show(&run->b.pg, "calibrating, %llu %s", (unsigned long long)loops,
			 pb_plural(loops, "loop", "loops"));
	w.loops = loops;
	one(run, &w, &scratch);
	return run->b.status;
}

/* The median elapsed time's 95% interval, in percent of it. */
static double elapsed_precision(const struct ms_run *run)
{
	double *v = malloc((run->nreps ? run->nreps : 1) * sizeof(*v)), r;

	if (!v)
		return NAN;
	for (size_t i = 0; i < run->nreps; i++)
		v[i] = (double)run->reps[i].elapsed_ns;
	r = pb_stats_median_precision(v, run->nreps);
	free(v);
	return r;
}

/* --precision: one more repetition at a time until the median elapsed
 * time is known within the asked percent, or the budget counted from START
 * is spent (pb_precision_spent). */
static void refine(struct ms_run *run, uint64_t start)
{
	const struct ms_params *p = run->p;
	uint64_t t0 = pb_clock_ns();

	while (!run->b.status && !pb_cleanup_interrupted()) {
		struct pb_messaging_result *r;

		run->precision = elapsed_precision(run);
		if (run->precision <= p->precision ||
		    pb_precision_spent(start, p->precision_budget_ns, p->duration_ns))
			break;
		pb_progress_show(&run->b.pg, "precision %.1f%% of %g%% wanted, repetition %zu",
				 run->precision, p->precision, run->nreps + 1);
		r = pb_bench_room(run->reps, run->nreps, &run->cap, sizeof(*r));
		if (!r) {
			set_error(&run->b, PB_EXIT_ERROR, "--precision: out of memory");
			break;
		}
		run->reps = r;
		if (one(run, &run->w, &run->reps[run->nreps]) == 0)
			run->nreps++;
	}
	run->precision_ns = pb_clock_ns() - t0;
}

static void measure(struct ms_run *run)
{
	const struct ms_params *p = run->p;
	struct pb_messaging_result scratch;
	uint64_t start = pb_clock_ns();

	if (p->duration_ns) {
		int r;

		r = pb_bench_calibrate(&run->b, p->repeat + p->warmup, max_loops(&run->w),
				       calibration_round, run);
		if (r)
			return;
		run->w.loops = run->b.loops;
	}
	pb_bench_progress_start(&run->b, p->warmup + p->repeat);
	for (uint64_t w = 0; w < p->warmup && !run->b.status; w++) {
		progress(run, "warmup", w + 1, p->warmup);
		one(run, &run->w, &scratch);
	}
	for (uint64_t i = 0; i < p->repeat && !run->b.status; i++) {
		progress(run, "repetition", i + 1, p->repeat);
		if (one(run, &run->w, &run->reps[i]) == 0)
			run->nreps = i + 1;
	}
	if (p->precision > 0)
		refine(run, start);
	pb_progress_end(&run->b.pg);
}

static int summarize(struct ms_run *run)
{
	struct pb_stab_machine mach;
	double *v;

	if (!run->nreps)
		return 0;
	v = malloc(run->nreps * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int m = 0; m < M_COUNT; m++) {
		for (size_t i = 0; i < run->nreps; i++)
			v[i] = metric_value(&run->reps[i], m);
		pb_stats_compute(v, run->nreps, &run->stats[m]);
	}
	free(v);
	pb_stab_machine_now(&mach);
	run->stab = pb_stab_judge(&run->stats[M_ELAPSED], NULL, &mach, run->stab_why,
				  sizeof(run->stab_why));
	return 0;
}

static const char *mode_name(const struct ms_params *p)
{
	return p->w.threads ? "thread" : "process";
}

/* --profile: the messages of the measured repetitions. */
static double messages_measured(const struct ms_run *run)
{
	double n = 0;

	for (size_t i = 0; i < run->nreps; i++)
		n += (double)run->reps[i].messages;
	return n;
}

static void emit_text(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct ms_run *run = r_;
	const struct ms_params *p = run->p;
	const struct pb_messaging_params *w = &run->w;
	struct pb_stab_text st;
	char sz[32];

	if (run->b.status && !run->nreps)
		return;           /* nothing measured: the error says why */
	pb_format_size(w->size, sz, sizeof(sz));
	fprintf(fp, "kernel      Linux %s %s, %ld CPUs online (allowed %s)\n", si->kernel_release,
		si->machine, si->cpus_online, si->allowed_list);
	pb_text_machine(fp, "machine     ");
	fprintf(fp, "workload    %llu %s x %llu %s -> %llu %s over %s, %llu %s\n",
		(unsigned long long)w->groups, pb_plural(w->groups, "group", "groups"),
		(unsigned long long)w->fds, pb_plural(w->fds, "sender", "senders"),
		(unsigned long long)w->fds, pb_plural(w->fds, "receiver", "receivers"),
		pb_messaging_kind_names[w->kind], (unsigned long long)pb_messaging_workers(w),
		w->threads ? "threads" : "processes");
	fprintf(fp, "messages    %llu loops of %s: %llu messages, %llu bytes per repetition\n",
		(unsigned long long)w->loops, sz,
		(unsigned long long)(w->groups * w->fds * w->fds * w->loops),
		(unsigned long long)(w->groups * w->fds * w->fds * w->loops * w->size));
	fprintf(fp, "settings    %llu %s (+%llu warmup)\n", (unsigned long long)p->repeat,
		pb_plural(p->repeat, "repetition", "repetitions"),
		(unsigned long long)p->warmup);
	pb_budget_text(&run->b.budget, fp, 11);
	pb_prof_run_text(&run->prof, fp);
	fputc('\n', fp);
	if (!run->nreps)
		return;
	fprintf(fp, "%-18s %14s %14s %14s %8s\n", "metric", "median", "min", "max", "spread");
	for (int m = 0; m < M_COUNT; m++) {
		const struct pb_stats *s = &run->stats[m];
		int d = metrics[m].decimals;
		double k = metrics[m].scale;

		fprintf(fp, "%-18s %14.*f %14.*f %14.*f %7.1f%%\n", metrics[m].label, d, s->median * k,
			d, s->min * k, d, s->max * k, s->spread * 100);
	}
	fprintf(fp, "\nmedians of %zu %s; spread = (max-min)/median; MB = 10^6 bytes;\n"
		"context switches and CPU time are summed over all workers\n", run->nreps,
		pb_plural(run->nreps, "repetition", "repetitions"));
	if (run->prof.ok) {
		fprintf(fp, "\nprofile     share of the workers' sampled time, and per message:\n");
		pb_prof_text(fp, "    ", &run->prof_sum, run->prof.period_ns,
			     messages_measured(run), "message");
	}
	pb_stab_text_begin(&st, fp, 11);
	pb_stab_text_row(&st, "elapsed", run->stab, run->stab_why);
	pb_stab_text_end(&st);
	if (p->precision > 0)
		pb_precision_text(fp, p->precision, run->precision <= p->precision, run->precision,
				  run->nreps, pb_precision_budget(p->precision_budget_ns, p->duration_ns),
				  "the median elapsed time", NULL);
}

/* The workload: in params, and as the result's identity for compare (the
 * CSV's first columns). */
static void workload_fields(struct pb_row *o, const struct ms_run *run)
{
	const struct pb_messaging_params *w = &run->w;

	pb_row_str(o, "kind", pb_messaging_kind_names[w->kind]);
	pb_row_str(o, "mode", mode_name(run->p));
	pb_row_int(o, "groups", (int64_t)w->groups);
	pb_row_int(o, "fds", (int64_t)w->fds);
	pb_row_int_or_null(o, "loops", w->loops > 0, (int64_t)w->loops);
	pb_row_int(o, "size_bytes", (int64_t)w->size);
}

/* A repetition's fields: an entry of JSON's repetitions, a CSV row's columns
 * after the workload and the repetition's number; the metrics are those of
 * the table above (text and the summary use it too). */
static void rep_fields(struct pb_row *x, const struct pb_messaging_result *e)
{
	pb_row_int(x, "messages", (int64_t)e->messages);
	pb_row_int(x, "bytes", (int64_t)e->bytes);
	for (int m = 0; m < M_COUNT; m++) {
		if (metrics[m].integer)
			pb_row_int(x, metrics[m].key, (int64_t)metric_value(e, m));
		else
			pb_row_double(x, metrics[m].key, metric_value(e, m));
	}
}

static void csv_row(struct pb_row r, const struct ms_run *run, size_t i,
		    const struct pb_messaging_result *e)
{
	workload_fields(&r, run);
	pb_row_int(&r, "repetition", (int64_t)i + 1);
	rep_fields(&r, e);
	pb_stab_fields(&r, run->stab, run->stab_why);
	if (run->prof.ok)
		pb_prof_row_fields(&r, &run->prof_sum);
	pb_row_end(&r);
}

static void emit_csv(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct ms_run *run = r_;
	static const struct pb_messaging_result no_rep;
	struct pb_csv csv;

	pb_csv_begin(&csv, fp, si);
	csv_row(pb_row_csv_header(&csv), run, 0, &no_rep);
	for (size_t i = 0; i < run->nreps; i++)
		csv_row(pb_row_csv(&csv), run, i, &run->reps[i]);
}

static void add_workload(struct json_object *o, const struct ms_run *run)
{
	struct pb_row row = pb_row_json(o);

	workload_fields(&row, run);
}

static struct json_object *params_json(const struct ms_run *run)
{
	const struct ms_params *p = run->p;
	struct json_object *o = json_object_new_object();

	add_workload(o, run);
	json_object_object_add(o, "duration_ns", pb_budget_duration_json(&run->b.budget));
	pb_json_add_int(o, "workers", (int64_t)pb_messaging_workers(&p->w));
	pb_json_add_int(o, "repeat", (int64_t)p->repeat);
	pb_json_add_int(o, "warmup", (int64_t)p->warmup);
	json_object_object_add(o, "precision_pct", p->precision > 0 ?
			       json_object_new_double(p->precision) : NULL);
	pb_json_add_int(o, "precision_budget_ns", (int64_t)p->precision_budget_ns);
	pb_json_add_int(o, "timeout_ns", (int64_t)p->timeout_ns);
	return o;
}

static struct json_object *result_json(const struct ms_run *run)
{
	struct json_object *o = json_object_new_object(), *reps = json_object_new_array(), *sum;

	add_workload(o, run);
	for (size_t i = 0; i < run->nreps; i++) {
		struct json_object *x = json_object_new_object();
		struct pb_row row = pb_row_json(x);

		rep_fields(&row, &run->reps[i]);
		json_object_array_add(reps, x);
	}
	sum = pb_bench_json_reps(o, reps, run->nreps);
	if (!sum)
		return o;
	{
		struct pb_row row = pb_row_json(o);

		pb_stab_fields(&row, run->stab, run->stab_why);
	}
	if (run->p->precision > 0)
		json_object_object_add(o, "precision", pb_precision_json(run->p->precision,
									 run->precision));
	if (run->prof.ok)
		json_object_object_add(o, "profile", pb_prof_json(&run->prof_sum,
				       run->prof.period_ns, messages_measured(run), "message", 0));
	pb_json_add_int(sum, "messages", (int64_t)run->reps[0].messages);
	pb_json_add_int(sum, "bytes", (int64_t)run->reps[0].bytes);
	for (int m = 0; m < M_COUNT; m++)
		json_object_object_add(sum, metrics[m].key,
				       pb_json_stats(&run->stats[m], metrics[m].integer));
	return o;
}

static void emit_json(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct ms_run *run = r_;
	struct json_object *doc = pb_doc_new(NAME, si), *res = json_object_new_array();
	struct json_object *sum = json_object_new_object();

	json_object_object_add(doc, "params", params_json(run));
	json_object_object_add(doc, "budget", pb_budget_json(&run->b.budget));
	json_object_object_add(doc, "profile", pb_prof_run_json(&run->prof));
	json_object_array_add(res, result_json(run));
	json_object_object_add(doc, "results", res);
	pb_json_add_int(sum, "results", 1);
	pb_json_add_int(sum, "repetitions", (int64_t)run->nreps);
	if (run->p->precision > 0) {
		json_object_object_add(sum, "precision_reached",
				       json_object_new_boolean(run->precision <= run->p->precision));
		pb_json_add_int(sum, "precision_extra_ns", (int64_t)run->precision_ns);
	}
	pb_doc_finish(doc, sum, run->b.error, run->b.status, fp);
}

/*
 * --profile: samplers on each CPU the process may use, keeping the
 * workers' samples (they are many processes or threads); where per-CPU
 * events are refused there is no profile, with the reason.
 */
static void start_profile(struct ms_run *run)
{
	cpu_set_t cpus;

	pb_prof_run_begin(&run->prof, run->p->profile, true);
	if (!run->prof.ok)
		return;
	if (!run->prof.per_cpu) {
		run->prof.ok = false;
		snprintf(run->prof.why, sizeof(run->prof.why), "messaging samples on each CPU "
			 "(its workers are many), which needs CAP_PERFMON or perf_event_paranoid 0 "
			 "or less");
		return;
	}
	run->prof_ips = calloc(1, sizeof(*run->prof_ips));
	if (!run->prof_ips) {
		run->prof.ok = false;
		snprintf(run->prof.why, sizeof(run->prof.why), "no memory for its samples");
		return;
	}
	if (sched_getaffinity(0, sizeof(cpus), &cpus) ||
	    pb_prof_open_cpus(&run->sampler, run->prof.period_ns, &cpus, run->prof.why,
			      sizeof(run->prof.why)))
		run->prof.ok = false;
}

static int execute(struct pb_cli *cli, void *params)
{
	const struct ms_params *p = params;
	struct ms_run run = { .p = p, .w = p->w };
	char why[256];
	int r = pb_bench_begin(&run.b, NAME, cli, p->timeout_ns, p->w.loops, p->duration_ns);

	if (r)
		return r;
	run.w.loops = run.b.loops;  /* 0 with a budget: the calibration chooses */
	run.reps = calloc(p->repeat, sizeof(*run.reps));
	run.cap = p->repeat;
	run.precision = NAN;
	if (!run.reps)
		set_error(&run.b, PB_EXIT_ERROR, "out of memory");
	else if (pb_messaging_check_limits(&p->w, why, sizeof(why)))
		set_error(&run.b, PB_EXIT_ERROR, "%s", why);
	start_profile(&run);
	pb_bench_arm(&run.b);
	if (!run.b.status)
		measure(&run);
	pb_prof_close(&run.sampler);
	if (run.prof_ips)
		pb_prof_summarize(run.prof.syms, run.prof_ips, &run.prof_sum);
	if (summarize(&run))
		set_error(&run.b, PB_EXIT_ERROR, "statistics: out of memory");
	pb_bench_disarm(&run.b);
	pb_cli_emit(cli, &run, &run.b.si, run.b.out.fp);
	free(run.reps);
	free(run.prof_ips);
	pb_prof_run_end(&run.prof);
	return pb_bench_end(&run.b, cli->common.output, false);
}

#define P struct ms_params
static const struct pb_opt options[] = {
	{ PB_OPT("kind", 'k', PB_OPT_WORDS, P, kind_words), .words = pb_kind_words,
	  .allowed = PB_KIND_WORDS_ANON_SOCKET, .def = "anon", .arg = "KIND",
	  .help = "one kind (socketpair: an AF_UNIX stream pair)" },
	{ PB_OPT("groups", 'g', PB_OPT_COUNT, P, w.groups), .min = 1,
	  .max = PB_MESSAGING_MAX_WORKERS / 2, .def = "10", .arg = "N",
	  .help = "groups of senders and receivers" },
	{ PB_OPT("fds", '\0', PB_OPT_COUNT, P, w.fds), .min = 1,
	  .max = PB_MESSAGING_MAX_WORKERS / 2, .def = "20", .arg = "N",
	  .help = "receivers per group, each with its own pipe, and as many senders" },
	{ PB_OPT("loops", 'n', PB_OPT_COUNT, P, w.loops), .min = 1, .max = PB_BUDGET_MAX_LOOPS,
	  .def = "100", .arg = "N",
	  .help = "messages each sender writes to each receiver of its group" },
	PB_OPT_BUDGET(P, duration_ns),
	{ PB_OPT("size", 's', PB_OPT_SIZE, P, w.size), .min = 1, .max = MAX_SIZE, .def = "100",
	  .arg = "BYTES", .help = "bytes per message; K, M suffixes; at most 1M" },
	{ PB_OPT("threads", 'T', PB_OPT_FLAG, P, threads), .def_help = "processes",
	  .help = "workers are threads" },
	PB_OPT_REPEAT(P, repeat, "measured repetitions"),
	PB_OPT_WARMUP(P, warmup),
	PB_OPT_PRECISION(P, precision, precision_budget_ns, "the median elapsed time",
			 "--duration, else 60 s"),
	PB_OPT_PROFILE(P, profile),
	PB_OPT_TIMEOUT(P, timeout_ns),
	PB_OPT_END
};

/* Messaging: KIND-MODE-gGROUPS-fFDS-SIZEB-rate (messages/s) and -elapsed (ns). */
static void lava_cases(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *a = pb_json_get(doc, "results");

	for (size_t i = 0; i < pb_json_len(a); i++) {
		struct json_object *r = json_object_array_get_idx(a, i);
		char name[160];

		pb_lava_item(l, r);
		snprintf(name, sizeof(name), "%s-%s-g%lld-f%lld-%lldB", pb_json_str(r, "kind") ?
			 pb_json_str(r, "kind") : "?", pb_json_str(r, "mode") ? pb_json_str(r, "mode") : "?",
			 pb_json_int(r, "groups", 0), pb_json_int(r, "fds", 0), pb_json_int(r, "size_bytes", 0));
		pb_lava_measure(l, pb_json_num(r, "summary.rate_messages_per_s.median"), "msg/s", "%s-rate",
				name);
		pb_lava_measure(l, pb_json_num(r, "summary.elapsed_ns.median"), "ns", "%s-elapsed", name);
		pb_lava_profile(l, r, name);
		pb_lava_stability(l, r, name);
	}
}

static const struct pb_format formats[] = {
	{ .name = "text", .emit = emit_text, .text = true },
	{ .name = "json", .emit = emit_json },
	{ .name = "csv", .emit = emit_csv },
	PB_FORMAT_END
};

const struct pb_cmd pb_cmd_messaging = {
	.lava_cases = lava_cases,
	.name = NAME, .opts = options, .formats = formats, .params_size = sizeof(struct ms_params),
	.check = check_params, .exec = execute,
	.summary = "hackbench-style groups of senders and receivers over pipes",
};
