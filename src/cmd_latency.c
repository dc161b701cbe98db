/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench latency: the round trip of a message between two parties, as
 * perf bench sched pipe and lmbench's lat_pipe measure it, but every round
 * trip counted in a histogram (percentiles, not one mean), per CPU
 * placement, per way of waiting, with the scheduler's counters.
 */
#include <config.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "benchcmd.h"
#include "copies.h"
#include "clock.h"
#include "cli.h"
#include "endpoint.h"
#include "histogram.h"
#include "latency.h"
#include "msg.h"
#include "lava.h"
#include "output.h"
#include "stats.h"
#include "stability.h"
#include "sysinfo.h"
#include "topology.h"
#include "units.h"
#include "uring.h"

#define NAME "latency"
#define MAX_SIZES 16
#define MAX_SIZE (1ULL << 20)
#define SYSFS_CPU "/sys/devices/system/cpu"


static const double pcts[] = { 50, 90, 99, 99.9, 99.99 };
static const char *const pct_keys[] = {
	"rtt_p50_ns", "rtt_p90_ns", "rtt_p99_ns", "rtt_p99_9_ns", "rtt_p99_99_ns"
};
#define NPCT (sizeof(pcts) / sizeof(pcts[0]))

/* --mode: how the parties write and read */
static const char *const io_words[] = { "rw", "io_uring", "all", NULL };
#define IO_WORD_ALL 2u

struct lat_params {
	unsigned kind_words, place_words, wait_words, counters, io_words;
	bool ios[2];                /* --mode: io_uring false (rw), true */
	size_t nios;
	enum pb_kind kinds[PB_KIND_COUNT];
	size_t nkinds;
	enum pb_place places[PB_PLACE_COUNT];
	size_t nplaces;
	enum pb_lat_wait waits[PB_LAT_WAIT_COUNT];
	size_t nwaits;
	uint64_t sizes[MAX_SIZES];
	size_t nsizes;
	int threads;
	uint64_t loops, duration_ns, interval_ns, repeat, warmup, timeout_ns;
	double precision;           /* --precision PCT, 0: off */
	uint64_t precision_budget_ns; /* --precision-budget, 0: 60 s */
	cpu_set_t cpus;
	int pinned, cpu_a, cpu_b;
	char cpu_list[64];
	const char *dir;
	/* --copies: N independent pairs at once, for each N */
	const char *copies_arg;
	unsigned copies[64];
	size_t ncopies;
	int profile;                /* --profile */
};

struct lat_bucket {
	uint64_t lo, hi, count;
};

struct lat_rep {
	uint64_t round_trips, elapsed_ns, min, max, p[NPCT];
	double mean, stddev;
	struct pb_lat_party a, b;
	struct pb_lat_interval *iv;
	size_t niv;
	struct lat_bucket *bk;
	size_t nbk;
};

struct lat_cell {
	enum pb_kind kind;
	uint64_t size;
	enum pb_place place;
	enum pb_lat_wait wait;
	bool uring;                 /* --mode io_uring */
	unsigned copies;            /* --copies: this row's N; 0 without */
	double *copy_rate;          /* --copies: per repetition, each copy's round trips/s */
	struct pb_copy_place *copy_place; /* ... and where each ran */
	struct pb_prof_ips *prof;   /* --profile: the measured repetitions' samples */
	struct pb_prof_summary *prof_sum;
	int cpu_a, cpu_b;
	bool skip;
	bool spin_yield;            /* spin on one CPU: sched_yield() on EAGAIN */
	char reason[256];
	size_t nreps, cap;
	struct lat_rep *reps;
	double precision;           /* --precision: the median p50's 95% interval, % of it */
	struct pb_hist merged;
	enum pb_stab stab;          /* of the round trips, the repetitions' p50, the machine */
	char stab_why[240];
};

struct lat_run {
	const struct lat_params *p;
	struct lat_cell *cells;     /* size, placement, wait, kind: kind fastest */
	size_t ncells;
	struct pb_topo topo;
	char tmpdir[2][4096];
	uint64_t clock_cost;
	uint64_t watchdog_ns;       /* --timeout, or the default stall bound */
	enum pb_lat_source source;
	char source_why[256];
	struct pb_hist scratch;
	char error[512];
	int status;
	struct pb_progress pg;
	uint64_t precision_ns;      /* --precision: how long the added repetitions took */
	bool precision_reached;
	char uring_skip[240];       /* --mode io_uring: why it cannot run here ("" it can) */
	struct pb_uring_probe uring[PB_KIND_COUNT]; /* its path on each pipe kind */
	bool uring_probed[PB_KIND_COUNT];
	char (*copy_dir)[4096];     /* --copies with FIFOs: two directories per copy */
	unsigned ncopy_dirs;
	struct pb_prof_run prof;    /* --profile */
};

#define set_error PB_SET_ERROR

/* --copies: the list, and what it does not go with (each copy is a pair
 * on the CPU the copies' placement gives it). */
static int check_copies(struct pb_cli *cli, struct lat_params *p)
{
	static const char *const alone[] = { "precision", "placement", "cpu", "interval", "profile",
					     NULL };
	cpu_set_t allowed;

	if (!p->copies_arg)
		return 0;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	if (pb_bench_copies_check(cli, NAME, p->copies_arg, &allowed, p->copies,
				  sizeof(p->copies) / sizeof(p->copies[0]), &p->ncopies, alone))
		return -1;
	p->nplaces = 1;   /* the copies' own */
	return 0;
}

static int check_params(struct pb_cli *cli, void *params)
{
	struct lat_params *p = params;
	unsigned mask = pb_kind_mask(p->kind_words, 0);
	unsigned pm = p->place_words & (1u << PB_PLACE_WORD_ALL) ? (1u << PB_PLACE_COUNT) - 1
								   : p->place_words;
	unsigned wm = p->wait_words & (1u << PB_LAT_WAIT_WORD_ALL) ? (1u << PB_LAT_WAIT_COUNT) - 1
								   : p->wait_words;

	for (int k = 0; k < PB_KIND_COUNT; k++)
		if (mask & (1u << k))
			p->kinds[p->nkinds++] = (enum pb_kind)k;
	for (int k = 0; k < PB_PLACE_COUNT; k++)
		if (pm & (1u << k))
			p->places[p->nplaces++] = (enum pb_place)k;
	for (int k = 0; k < PB_LAT_WAIT_COUNT; k++)
		if (wm & (1u << k))
			p->waits[p->nwaits++] = (enum pb_lat_wait)k;
	for (int k = 0; k < 2; k++)
		if (p->io_words & (1u << k | 1u << IO_WORD_ALL))
			p->ios[p->nios++] = k == 1;
	if (pb_precision_check(cli, NAME))
		return -1;
	if (pb_cli_given(cli, "duration"))
		p->loops = 0;
	if (p->interval_ns && p->duration_ns && p->interval_ns > p->duration_ns) {
		pb_usage_err(NAME, "--interval %s is longer than --duration %s",
			     pb_cli_value(cli, "interval"), pb_cli_value(cli, "duration"));
		return -1;
	}
	p->cpu_a = p->cpu_b = -1;
	if (CPU_COUNT(&p->cpus) > 0) {
		int n = 0;

		if (pb_cli_given(cli, "placement")) {
			pb_usage_err(NAME, "--cpu and --placement exclude each other");
			return -1;
		}
		if (CPU_COUNT(&p->cpus) > 2) {
			pb_usage_err(NAME, "--cpu %s: one CPU (both parties) or two (A,B), not %d",
				     pb_cli_value(cli, "cpu"), CPU_COUNT(&p->cpus));
			return -1;
		}
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &p->cpus)) {
				if (n++ == 0)
					p->cpu_a = p->cpu_b = c;
				else
					p->cpu_b = c;
			}
		p->pinned = 1;
		pb_format_cpu_list(&p->cpus, p->cpu_list, sizeof(p->cpu_list));
		p->nplaces = 1;   /* one explicit pair */
	}
	return check_copies(cli, p);
}

static bool has_kind(const struct lat_params *p, enum pb_kind k)
{
	return pb_kind_listed(p->kinds, p->nkinds, k);
}

static const char *place_name(const struct lat_run *run, const struct lat_cell *c)
{
	if (c->copies)
		return "copies";
	return run->p->pinned ? "cpu" : pb_place_words[c->place];
}

static const char *io_name(const struct lat_cell *c)
{
	return io_words[c->uring];
}

/* The io column in text: only when --mode asks for more than rw. */
static bool show_io(const struct lat_params *p)
{
	return p->nios > 1 || p->ios[0];
}

/* The kind column: "anon", or "anon x4" for a row of 4 copies. */
static const char *kind_label(const struct lat_cell *c, char *buf, size_t len)
{
	if (!c->copies)
		return pb_kind_names[c->kind];
	snprintf(buf, len, "%s x%u", pb_kind_names[c->kind], c->copies);
	return buf;
}

static void asked_cpus(const struct lat_cell *c, char *buf, size_t len)
{
	if (c->cpu_a < 0)
		snprintf(buf, len, "any");
	else
		snprintf(buf, len, "%d,%d", c->cpu_a, c->cpu_b);
}

static void seen_list(const struct pb_lat_party *p, char *buf, size_t len)
{
	if (CPU_COUNT(&p->seen))
		pb_format_cpu_list(&p->seen, buf, len);
	else
		snprintf(buf, len, "?");
}

/* Counter per round trip: A's and B's sum; NAN when either is unknown. */
static double per_rt(int64_t a, int64_t b, uint64_t rt)
{
	if (a < 0 || b < 0 || !rt)
		return NAN;
	return (double)(a + b) / (double)rt;
}

static int keep_rep(struct lat_cell *c, struct pb_lat_result *res)
{
	struct lat_rep *r = &c->reps[c->nreps];
	const struct pb_hist *h = &res->hist;
	size_t n = 0;

	memset(r, 0, sizeof(*r));
	r->round_trips = res->round_trips;
	r->elapsed_ns = res->elapsed_ns;
	r->min = h->min;
	r->max = h->max;
	r->mean = pb_hist_mean(h);
	r->stddev = pb_hist_stddev(h);
	for (size_t i = 0; i < NPCT; i++)
		r->p[i] = pb_hist_percentile(h, pcts[i]);
	r->a = res->a;
	r->b = res->b;
	r->iv = res->iv;
	r->niv = res->niv;
	res->iv = NULL;
	res->niv = 0;
	for (size_t i = 0; i < PB_HIST_BUCKETS; i++)
		n += h->counts[i] != 0;
	r->bk = calloc(n ? n : 1, sizeof(*r->bk));
	if (!r->bk)
		return -ENOMEM;
	for (size_t i = 0; i < PB_HIST_BUCKETS; i++)
		if (h->counts[i])
			r->bk[r->nbk++] = (struct lat_bucket){ pb_hist_lowest(i), pb_hist_highest(i),
							       h->counts[i] };
	pb_hist_merge(&c->merged, h);
	c->nreps++;
	return 0;
}

/* The engine's options for one run of C. */
static void lat_opts(const struct lat_run *run, const struct lat_cell *c, struct pb_lat_opts *o)
{
	const struct lat_params *p = run->p;

	*o = (struct pb_lat_opts){
		.kind = c->kind, .size = c->size, .threads = p->threads != 0, .wait = c->wait,
		.uring = c->uring, .spin_yield = c->spin_yield, .cpu_a = c->cpu_a,
		.cpu_b = c->cpu_b, .loops = p->loops, .duration_ns = p->duration_ns,
		.interval_ns = p->interval_ns, .clock_cost_ns = run->clock_cost,
		.source = run->source, .dir = { run->tmpdir[0], run->tmpdir[1] },
		.prof_period_ns = run->prof.ok ? run->prof.period_ns : 0,
		.prof_cpus = run->prof.per_cpu,
	};
}

/* --copies: a copy's pair (in its own process), and what it returns. */
struct copy_arg {
	const struct lat_run *run;
	const struct lat_cell *c;
};

struct copy_out {
	uint64_t round_trips, elapsed_ns;
	struct pb_lat_party a, b;
	struct pb_hist hist;        /* counts: NULL here, COUNTS below */
	char err[384];
	uint64_t counts[PB_HIST_BUCKETS];
};

static int copy_work(void *arg_, unsigned i, void *out_)
{
	const struct copy_arg *a = arg_;
	struct copy_out *out = out_;
	struct pb_lat_opts o;
	struct pb_lat_result res = { 0 };
	int r;

	lat_opts(a->run, a->c, &o);
	if (2 * i + 1 < a->run->ncopy_dirs) {
		o.dir[0] = a->run->copy_dir[2 * i];
		o.dir[1] = a->run->copy_dir[2 * i + 1];
	}
	if (pb_hist_init(&res.hist)) {
		snprintf(out->err, sizeof(out->err), "out of memory");
		return -ENOMEM;
	}
	r = pb_lat_run(&o, &res, out->err, sizeof(out->err));
	out->round_trips = res.round_trips;
	out->elapsed_ns = res.elapsed_ns;
	out->a = res.a;
	out->b = res.b;
	out->hist = res.hist;
	out->hist.counts = NULL;
	memcpy(out->counts, res.hist.counts, sizeof(out->counts));
	pb_hist_free(&res.hist);
	free(res.iv);
	return r;
}

static void add_party(struct pb_lat_party *sum, const struct pb_lat_party *p)
{
	sum->vol_ctxsw = pb_lat_add_ctr(sum->vol_ctxsw, p->vol_ctxsw);
	sum->invol_ctxsw = pb_lat_add_ctr(sum->invol_ctxsw, p->invol_ctxsw);
	sum->ctxsw = pb_lat_add_ctr(sum->ctxsw, p->ctxsw);
	sum->migrations = pb_lat_add_ctr(sum->migrations, p->migrations);
	sum->user_ns = pb_lat_add_ctr(sum->user_ns, p->user_ns);
	sum->sys_ns = pb_lat_add_ctr(sum->sys_ns, p->sys_ns);
	sum->faults = pb_lat_add_ctr(sum->faults, p->faults);
	CPU_OR(&sum->seen, &sum->seen, &p->seen);
}

/*
 * One repetition of a --copies row: C->copies pairs at once, each in a
 * process of its own (pinned to a CPU of its own when they fit, both
 * parties there).  RES gets every round trip of every copy, over the time
 * of the slowest copy, and the parties' counters summed; a measured
 * repetition (KEEP) also keeps each copy's rate and place.  0, or -errno
 * with the reason in WHY.
 */
static int run_copies(struct lat_run *run, struct lat_cell *c, bool keep,
		      struct pb_lat_result *res, char *why, size_t len)
{
	struct copy_arg a = { run, c };
	cpu_set_t allowed;
	struct pb_copies_opts o = { .n = c->copies, .work = copy_work, .arg = &a,
				    .out_size = sizeof(struct copy_out) };
	struct pb_copies_run cr;
	size_t rep = c->nreps;
	int rc = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	o.allowed = &allowed;
	memset(&res->a, 0, sizeof(res->a));
	memset(&res->b, 0, sizeof(res->b));
	if (pb_copies_run(&o, &cr)) {
		if (cr.timed_out)
			rc = -ETIMEDOUT;
		else {
			rc = -cr.harness_err;
			snprintf(why, len, "%s: %s", cr.harness_what, strerror(cr.harness_err));
		}
		pb_copies_free(&o, &cr);
		return rc;
	}
	for (unsigned i = 0; i < c->copies && !rc; i++) {
		struct copy_out *co = (struct copy_out *)cr.out + i;

		if (cr.rc[i]) {
			rc = cr.rc[i];
			if (rc == -ECHILD)
				snprintf(why, len, "copy %u died", i + 1);
			else
				snprintf(why, len, "copy %u: %.300s", i + 1, co->err);
			break;
		}
		co->hist.counts = co->counts;
		pb_hist_merge(&res->hist, &co->hist);
		res->round_trips += co->round_trips;
		if (co->elapsed_ns > res->elapsed_ns)
			res->elapsed_ns = co->elapsed_ns;
		add_party(&res->a, &co->a);
		add_party(&res->b, &co->b);
		if (keep && rep < c->cap) {
			c->copy_rate[rep * c->copies + i] = co->elapsed_ns ?
				(double)co->round_trips * 1e9 / (double)co->elapsed_ns : NAN;
			c->copy_place[rep * c->copies + i] = cr.place[i];
		}
	}
	pb_copies_free(&o, &cr);
	return rc;
}

static int run_one(struct lat_run *run, struct lat_cell *c, bool keep)
{
	const struct lat_params *p = run->p;
	struct pb_lat_opts o;
	struct pb_lat_result res = { .hist = run->scratch };
	char why[384] = "";
	int r;

	pb_hist_reset(&res.hist);
	if (c->copies) {
		r = run_copies(run, c, keep, &res, why, sizeof(why));
	} else {
		lat_opts(run, c, &o);
		res.prof = keep ? c->prof : NULL;
		r = pb_lat_run(&o, &res, why, sizeof(why));
	}
	if ((r == -ETIMEDOUT || pb_watchdog_fired()) && p->timeout_ns)
		set_error(run, PB_EXIT_ERROR, "--timeout: timed out after %g s",
			  (double)p->timeout_ns / 1e9);
	else if (r == -ETIMEDOUT || pb_watchdog_fired())
		set_error(run, PB_EXIT_ERROR, "watchdog: no result after %g s, the bound for "
			  "this run without --timeout (a lost wakeup or a stopped party?)",
			  (double)run->watchdog_ns / 1e9);
	else if (r) {
		char kl[48];

		set_error(run, PB_EXIT_ERROR, "%s %s %s%s%s: %s",
			  kind_label(c, kl, sizeof(kl)), place_name(run, c),
			  pb_lat_wait_words[c->wait], c->uring ? " " : "",
			  c->uring ? io_name(c) : "", why);
	} else if (keep && keep_rep(c, &res))
		set_error(run, PB_EXIT_ERROR, "out of memory");
	free(res.iv);
	return r;
}

/*
 * Blocking ping-pong can hang on a broken kernel (a lost wakeup), so a run
 * without --timeout still has a watchdog: 10 s plus 10 ms per round trip (or
 * three times --duration plus 10 s) per repetition (of each copy), a bound
 * no working kernel comes near, even spinning on one CPU.
 */
static uint64_t default_watchdog_ns(const struct lat_run *run)
{
	const struct lat_params *p = run->p;
	uint64_t runs = 0;
	uint64_t per_run = p->loops ? p->loops * 10000000ULL : 3 * p->duration_ns;
	uint64_t ns = 10000000000ULL;

	/* a row of N copies counts N times: they may share a CPU */
	for (size_t i = 0; i < run->ncells; i++)
		runs += (run->cells[i].copies ? run->cells[i].copies : 1) * (p->repeat + p->warmup);

	/* --precision: its budget, and one more round of every cell after it */
	if (p->precision > 0) {
		ns += p->precision_budget_ns ? p->precision_budget_ns : PB_PRECISION_BUDGET_NS;
		runs += run->ncells;
	}
	if (!runs || per_run > (UINT64_MAX / 2 - ns) / runs)
		return UINT64_MAX / 2;
	return ns + runs * per_run;
}

/* The median p50's 95% interval over C's repetitions, in percent of it
 * (NAN: too few). */
static double p50_precision(const struct lat_cell *c)
{
	double *v = malloc((c->nreps ? c->nreps : 1) * sizeof(*v)), r;

	if (!v)
		return NAN;
	for (size_t i = 0; i < c->nreps; i++)
		v[i] = (double)c->reps[i].p[0];
	r = pb_stats_median_precision(v, c->nreps);
	free(v);
	return r;
}

/*
 * --precision: rounds of one more repetition of each row (its kinds
 * interleaved) that has a cell whose median p50 is not yet known within the
 * asked percent, until none has or the budget counted from START is spent.
 */
static void refine(struct lat_run *run, uint64_t start)
{
	const struct lat_params *p = run->p;
	size_t nk = p->nkinds;
	uint64_t t0 = pb_clock_ns();

	for (size_t round = 1; !run->status && !pb_cleanup_interrupted(); round++) {
		double worst = 0;
		bool all = true;

		for (size_t i = 0; i < run->ncells; i++) {
			struct lat_cell *c = &run->cells[i];

			if (c->skip || !c->nreps)
				continue;
			c->precision = p50_precision(c);
			if (!(c->precision <= p->precision))
				all = false;
			if (pb_stats_precision_worse(c->precision, worst))
				worst = c->precision;
		}
		run->precision_reached = all;
		if (all || pb_precision_spent(start, p->precision_budget_ns, 0))
			break;
		pb_progress_show(&run->pg, "precision %.1f%% of %g%% wanted, round %zu", worst,
				 p->precision, round);
		for (size_t g = 0; g < run->ncells && !run->status; g += nk) {
			struct lat_cell *row = &run->cells[g];
			bool more = false;

			for (size_t k = 0; k < nk; k++)
				more |= !row[k].skip && row[k].nreps && !(row[k].precision <= p->precision);
			for (size_t k = 0; more && k < nk && !run->status; k++) {
				struct lat_rep *r;

				if (row[k].skip || !row[k].nreps)
					continue;
				r = pb_bench_room(row[k].reps, row[k].nreps, &row[k].cap, sizeof(*r));
				if (!r) {
					set_error(run, PB_EXIT_ERROR, "--precision: out of memory");
					break;
				}
				row[k].reps = r;
				run_one(run, &row[k], true);
			}
		}
	}
	run->precision_ns = pb_clock_ns() - t0;
}

/* A row in words: "anon x2 1 B copies block io_uring" (the io only when
 * it is io_uring), in BUF. */
static const char *row_label(const struct lat_run *run, const struct lat_cell *c, char *buf,
			     size_t len)
{
	char sz[32], kl[48];

	pb_format_size(c->size, sz, sizeof(sz));
	snprintf(buf, len, "%s %s %s %s%s%s", kind_label(c, kl, sizeof(kl)), sz, place_name(run, c),
		 pb_lat_wait_words[c->wait], c->uring ? " " : "", c->uring ? io_name(c) : "");
	return buf;
}

/* --precision in text: reached, or how close it came and where. */
static void precision_text(const struct lat_run *run, FILE *fp)
{
	const struct lat_cell *worst = NULL;
	size_t most = 0;
	char where[128];

	for (size_t i = 0; i < run->ncells; i++) {
		const struct lat_cell *c = &run->cells[i];

		if (c->skip || !c->nreps)
			continue;
		most = c->nreps > most ? c->nreps : most;
		/* too few repetitions for an interval (NAN) is the worst */
		if (!worst || pb_stats_precision_worse(c->precision, worst->precision))
			worst = c;
	}
	if (!worst)
		return;
	row_label(run, worst, where, sizeof(where));
	pb_precision_text(fp, run->p->precision, run->precision_reached, worst->precision,
			  run->precision_reached ? most : worst->nreps,
			  pb_precision_budget(run->p->precision_budget_ns, 0),
			  "every row's median p50", where);
}

/* Sizes, placements and waits outer; repetitions interleaved across kinds. */
static void measure(struct lat_run *run)
{
	const struct lat_params *p = run->p;
	size_t nk = p->nkinds;
	uint64_t start = pb_clock_ns();

	for (size_t g = 0; g < run->ncells && !run->status; g += nk) {
		struct lat_cell *row = &run->cells[g];

		if (row[0].skip)
			continue;
		/* The warmup rounds, unmeasured, then the measured repetitions. */
		for (uint64_t i = 0; i < p->warmup + p->repeat && !run->status; i++) {
			bool measured = i >= p->warmup;

			for (size_t k = 0; k < nk && !run->status; k++) {
				pb_progress_show(&run->pg, "%s %s %s %s %llu/%llu",
						 pb_kind_names[row[k].kind], place_name(run, &row[k]),
						 pb_lat_wait_words[row[k].wait],
						 measured ? "repetition" : "warmup",
						 (unsigned long long)(measured ? i - p->warmup : i) + 1,
						 (unsigned long long)(measured ? p->repeat : p->warmup));
				run_one(run, &row[k], measured);
			}
		}
	}
	if (p->precision > 0)
		refine(run, start);
}

/*
 * Both parties of C can only run on one CPU: pinned to the same one, or not
 * pinned in a process allowed just one.  Spinning there yields, else each
 * spinner holds the CPU for its whole time slice while the party that would
 * answer waits to run (about 200 round trips per second on a 2-CPU VM).
 */
static bool one_cpu(const struct lat_cell *c, const cpu_set_t *allowed)
{
	if (c->cpu_a >= 0)
		return c->cpu_a == c->cpu_b;
	return CPU_COUNT(allowed) == 1;
}

/*
 * The progress line counts repetitions (warmup included) of the cells that
 * run; with --duration each takes that long, which gives an ETA from the
 * start.
 */
static void progress_start(struct lat_run *run, bool on)
{
	const struct lat_params *p = run->p;
	uint64_t units = 0;

	for (size_t i = 0; i < run->ncells; i++)
		units += !run->cells[i].skip;
	units *= p->warmup + p->repeat;
	pb_progress_start(&run->pg, NAME, on, units);
	if (p->duration_ns && units <= UINT64_MAX / p->duration_ns)
		pb_progress_budget(&run->pg, units * p->duration_ns);
}

static int setup(struct lat_run *run)
{
	const struct lat_params *p = run->p;
	size_t i = 0;
	cpu_set_t allowed;
	size_t nc = p->ncopies ? p->ncopies : 1, n_cells;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	if (pb_topo_read(SYSFS_CPU, &allowed, &run->topo))
		run->topo.n = 0;
	n_cells = nc * p->nsizes * p->nplaces * p->nwaits * p->nios * p->nkinds;
	run->cells = calloc(n_cells, sizeof(*run->cells));
	if (!run->cells || pb_hist_init(&run->scratch))
		return -ENOMEM;
	run->ncells = n_cells;  /* counted only once they exist (teardown) */
	for (size_t n = 0; n < nc; n++)
	for (size_t s = 0; s < p->nsizes; s++)
		for (size_t pl = 0; pl < p->nplaces; pl++)
			for (size_t w = 0; w < p->nwaits; w++)
			for (size_t io = 0; io < p->nios; io++)
				for (size_t k = 0; k < p->nkinds; k++, i++) {
					struct lat_cell *c = &run->cells[i];

					c->kind = p->kinds[k];
					c->size = p->sizes[s];
					c->place = p->places[pl];
					c->wait = p->waits[w];
					c->uring = p->ios[io];
					c->copies = p->ncopies ? p->copies[n] : 0;
					if (c->copies) {
						/* each copy on a CPU of its own (when they fit), both
						 * parties there */
						c->cpu_a = c->cpu_b = -1;
						c->copy_rate = calloc(p->repeat * c->copies,
								      sizeof(*c->copy_rate));
						c->copy_place = calloc(p->repeat * c->copies,
								       sizeof(*c->copy_place));
						if (!c->copy_rate || !c->copy_place)
							return -ENOMEM;
					} else if (p->pinned) {
						c->cpu_a = p->cpu_a;
						c->cpu_b = p->cpu_b;
					} else {
						c->skip = pb_topo_pick(&run->topo, c->place, &c->cpu_a,
								       &c->cpu_b, c->reason,
								       sizeof(c->reason)) != 0;
					}
					c->spin_yield = c->wait == PB_LAT_SPIN &&
							(c->copies || one_cpu(c, &allowed));
					c->reps = calloc(p->repeat, sizeof(*c->reps));
					c->cap = p->repeat;
					if (p->profile &&
					    (!(c->prof = calloc(1, sizeof(*c->prof))) ||
					     !(c->prof_sum = calloc(1, sizeof(*c->prof_sum)))))
						return -ENOMEM;
					c->precision = NAN;
					if (!c->reps || pb_hist_init(&c->merged))
						return -ENOMEM;
				}
	return 0;
}

static void teardown(struct lat_run *run)
{
	for (size_t i = 0; i < run->ncells; i++) {
		struct lat_cell *c = &run->cells[i];

		for (size_t r = 0; r < c->nreps; r++) {
			free(c->reps[r].iv);
			free(c->reps[r].bk);
		}
		free(c->reps);
		free(c->copy_rate);
		free(c->copy_place);
		free(c->prof);
		free(c->prof_sum);
		pb_hist_free(&c->merged);
	}
	pb_prof_run_end(&run->prof);
	pb_copies_dirs_free(run->copy_dir, run->ncopy_dirs);
	free(run->cells);
	pb_hist_free(&run->scratch);
	for (int i = 0; i < 2; i++)
		if (run->tmpdir[i][0])
			pb_tmpdir_remove(run->tmpdir[i]);
}

static const struct lat_cell *first_of_row(const struct lat_run *run, const struct lat_cell *c)
{
	size_t idx = (size_t)(c - run->cells);

	return &run->cells[idx - idx % run->p->nkinds];
}

static double rep_rate(const struct lat_rep *r)
{
	return r->elapsed_ns ? (double)r->round_trips * 1e9 / (double)r->elapsed_ns : 0;
}

/*
 * Median over all repetitions of a per-repetition quantity; NaN (null in
 * JSON, "-" in text) when there is no repetition, when a repetition lacks
 * the value (a counter that could not be read) or without memory.
 */
static double median_of(const struct lat_cell *c, double (*f)(const struct lat_rep *))
{
	struct pb_stats st;
	double *v, m = NAN;

	if (!c->nreps || !(v = malloc(c->nreps * sizeof(*v))))
		return NAN;
	for (size_t i = 0; i < c->nreps; i++)
		if (isnan(v[i] = f(&c->reps[i])))
			goto out;
	if (!pb_stats_compute(v, c->nreps, &st))
		m = st.median;
out:
	free(v);
	return m;
}

static double f_p50(const struct lat_rep *r)
{
	return (double)r->p[0];
}

/* Each measured row's stability: two modes of its round trips, its
 * repetitions' p50s, the machine. */
static void judge(struct lat_run *run)
{
	struct pb_stab_machine m;

	pb_stab_machine_now(&m);
	for (size_t i = 0; i < run->ncells; i++) {
		struct lat_cell *c = &run->cells[i];
		struct pb_stats st;
		double *v;

		struct pb_stab_machine mc = m;

		if (!c->nreps)
			continue;
		v = malloc(c->nreps * sizeof(*v));
		/* the parties' migrations, where both were counted */
		mc.migrations = 0;
		mc.pinned = c->cpu_a >= 0;
		for (size_t r = 0; r < c->nreps; r++) {
			const struct lat_rep *rp = &c->reps[r];

			if (v)
				v[r] = f_p50(rp);
			mc.ops += (long long)rp->round_trips;
			mc.migrations = pb_lat_add_ctr(mc.migrations,
						       pb_lat_add_ctr(rp->a.migrations, rp->b.migrations));
		}
		c->stab = pb_stab_judge(v && !pb_stats_compute(v, c->nreps, &st) ? &st : NULL,
					&c->merged, &mc, c->stab_why, sizeof(c->stab_why));
		free(v);
	}
}

static double f_vol(const struct lat_rep *r)
{
	return per_rt(r->a.vol_ctxsw, r->b.vol_ctxsw, r->round_trips);
}

static double f_invol(const struct lat_rep *r)
{
	return per_rt(r->a.invol_ctxsw, r->b.invol_ctxsw, r->round_trips);
}

static double f_cs(const struct lat_rep *r)
{
	return per_rt(r->a.ctxsw, r->b.ctxsw, r->round_trips);
}

static double f_mig(const struct lat_rep *r)
{
	return per_rt(r->a.migrations, r->b.migrations, r->round_trips);
}

static double f_user(const struct lat_rep *r)
{
	return per_rt(r->a.user_ns, r->b.user_ns, r->round_trips);
}

static double f_sys(const struct lat_rep *r)
{
	return per_rt(r->a.sys_ns, r->b.sys_ns, r->round_trips);
}

static double f_faults(const struct lat_rep *r)
{
	return per_rt(r->a.faults, r->b.faults, r->round_trips);
}

/* P50 or P99 of C over that of the first kind of its row; 0 when undefined. */
static double ratio(const struct lat_cell *c, const struct lat_cell *f, double pct)
{
	uint64_t a, b;

	if (!c->merged.count || !f->merged.count)
		return 0;
	a = pb_hist_percentile(&c->merged, pct);
	b = pb_hist_percentile(&f->merged, pct);
	return b ? (double)a / (double)b : 0;
}

/* The CPUs the parties ran on over all repetitions, "A/B". */
static void ran_on(const struct lat_cell *c, char *buf, size_t len)
{
	struct pb_lat_party a = { 0 }, b = { 0 };
	char sa[64], sb[64];

	CPU_ZERO(&a.seen);
	CPU_ZERO(&b.seen);
	for (size_t r = 0; r < c->nreps; r++) {
		CPU_OR(&a.seen, &a.seen, &c->reps[r].a.seen);
		CPU_OR(&b.seen, &b.seen, &c->reps[r].b.seen);
	}
	seen_list(&a, sa, sizeof(sa));
	seen_list(&b, sb, sizeof(sb));
	snprintf(buf, len, "%s/%s", sa, sb);
}

static void topo_text(const struct lat_run *run, char *buf, size_t len)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	for (size_t i = 0; i < run->topo.n; i++)
		CPU_SET(run->topo.cpu[i].cpu, &s);
	pb_format_cpu_list(&s, buf, len);
}

static void fmt_us(double ns, char *buf, size_t len)
{
	if (isnan(ns))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", ns / 1e3);
}

static void fmt_num(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", v);
}

/* --copies: the row of C's kind, size, wait and io with the fewest copies,
 * the reference of its scaling. */
static const struct lat_cell *scale_ref(const struct lat_run *run, const struct lat_cell *c)
{
	size_t idx = (size_t)(c - run->cells);

	return &run->cells[idx % (run->ncells / run->p->ncopies)];
}

/* C's round trips per second (every copy's over the slowest copy's time;
 * the median over repetitions) per copy, over the reference row's per
 * copy: 1 is linear scaling; NAN when either was not measured. */
static double efficiency(const struct lat_run *run, const struct lat_cell *c)
{
	const struct lat_cell *r = scale_ref(run, c);
	double a, b;

	if (!c->copies || !c->nreps || !r->nreps || c->skip || r->skip)
		return NAN;
	a = median_of(c, rep_rate) / c->copies;
	b = median_of(r, rep_rate) / r->copies;
	return b > 0 ? a / b : NAN;
}

/* --copies in text: a line per kind, size, wait and io, each count's
 * round trips per second, a copy's share and the efficiency. */
static void scaling_text(const struct lat_run *run, FILE *fp)
{
	const struct lat_params *p = run->p;
	size_t per = run->ncells / p->ncopies;

	fprintf(fp, "\nscaling     round trips/s of every copy over the slowest copy's time; a "
		"copy's share; against linear scaling from %u %s\n", p->copies[0],
		pb_plural(p->copies[0], "copy", "copies"));
	for (size_t i = 0; i < per; i++) {
		char sz[32];

		if (run->cells[i].skip)
			continue;
		pb_format_size(run->cells[i].size, sz, sizeof(sz));
		fprintf(fp, "  %s %s %s%s%s:", pb_kind_names[run->cells[i].kind], sz,
			pb_lat_wait_words[run->cells[i].wait], run->cells[i].uring ? " " : "",
			run->cells[i].uring ? io_name(&run->cells[i]) : "");
		for (size_t k = 0; k < p->ncopies; k++) {
			const struct lat_cell *c = &run->cells[k * per + i];
			double r = median_of(c, rep_rate);

			if (c->nreps)
				pb_copies_scaling_item(fp, k == 0, c->copies, r, efficiency(run, c), 0);
		}
		fputc('\n', fp);
	}
}

/* --profile in text: each measured row's categories and top functions,
 * both parties' samples together. */
static void profile_text(const struct lat_run *run, FILE *fp)
{
	bool any = false;

	for (size_t i = 0; run->prof.ok && i < run->ncells; i++) {
		const struct lat_cell *c = &run->cells[i];
		char label[128];

		if (!c->nreps || !c->prof_sum)
			continue;
		if (!any)
			fprintf(fp, "\nprofile     share of the sampled time of both parties, and per "
				"round trip:\n");
		any = true;
		fprintf(fp, "  %s\n", row_label(run, c, label, sizeof(label)));
		pb_prof_text(fp, "    ", c->prof_sum, run->prof.period_ns,
			     (double)c->merged.count, "round trip");
	}
}

static void emit_text(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct lat_run *run = r_;
	const struct lat_params *p = run->p;
	struct pb_stab_text st;
	char usable[256];

	topo_text(run, usable, sizeof(usable));
	fprintf(fp, "kernel      Linux %s %s, %ld CPUs online, load average %.2f\n",
		si->kernel_release, si->machine, si->cpus_online, si->loadavg_1m);
	pb_text_machine(fp, "machine     ");
	fprintf(fp, "clock       CLOCK_MONOTONIC, %llu ns per read (subtracted from every round "
		"trip)\n", (unsigned long long)run->clock_cost);
	fprintf(fp, "counters    %s\n", run->source_why);
	fprintf(fp, "cpus        usable %s; party A times, party B is a %s\n", usable,
		p->threads ? "thread" : "process");
	if (p->loops)
		fprintf(fp, "settings    %llu round trips", (unsigned long long)p->loops);
	else
		fprintf(fp, "settings    %.3g s of round trips", (double)p->duration_ns / 1e9);
	fprintf(fp, " per repetition, %llu %s (+%llu warmup)", (unsigned long long)p->repeat,
		pb_plural(p->repeat, "repetition", "repetitions"), (unsigned long long)p->warmup);
	if (has_kind(p, PB_KIND_FIFO))
		fprintf(fp, ", FIFOs in %s", p->dir);
	if (p->ncopies)
		fprintf(fp, ", copies of the pair at once (both parties of a copy on a CPU of its "
			"own when they fit)");
	pb_uring_probe_text(fp, run->uring, run->uring_probed, p->kinds, p->nkinds);
	pb_prof_run_text(&run->prof, fp);
	fprintf(fp, "\n\n%-10s %7s %-6s %-5s ", "kind", "size", "place", "wait");
	if (show_io(p))
		fprintf(fp, "%-8s ", "io");
	fprintf(fp, "%-7s %-9s %8s %8s %8s %8s %8s %8s %8s %8s %9s %11s "
		"%6s %6s %6s %s\n", "cpus", "ran A/B", "mean",
		"stddev", "min", "p50", "p90", "p99", "p99.9", "p99.99", "max", "rt/s", "vcs/rt",
		"ics/rt", "mig/rt", "p50 vs first");
	for (size_t i = 0; i < run->ncells; i++) {
		const struct lat_cell *c = &run->cells[i], *f = first_of_row(run, c);
		const struct pb_hist *h = &c->merged;
		char sz[32], cpus[32], ran[160], v[10][24], rt[32], ctr[3][24], rat[48] = "";
		char kl[48];
		double q50;

		pb_format_size(c->size, sz, sizeof(sz));
		asked_cpus(c, cpus, sizeof(cpus));
		if (c->skip) {
			/* One line per size, placement and io: kinds and waits skip alike. */
			if (c->kind == p->kinds[0] && c->wait == p->waits[0]) {
				fprintf(fp, "%-10s %7s %-6s %-5s ", p->nkinds > 1 ? "*" :
					kind_label(c, kl, sizeof(kl)), sz, place_name(run, c),
					p->nwaits > 1 ? "*" : pb_lat_wait_words[c->wait]);
				if (show_io(p))
					fprintf(fp, "%-8s ", io_name(c));
				fprintf(fp, "skip: %s\n", c->reason);
			}
			continue;
		}
		if (!c->nreps)
			continue;
		ran_on(c, ran, sizeof(ran));
		fmt_us(pb_hist_mean(h), v[0], sizeof(v[0]));
		fmt_us(pb_hist_stddev(h), v[1], sizeof(v[1]));
		fmt_us((double)h->min, v[2], sizeof(v[2]));
		for (size_t k = 0; k < NPCT; k++)
			fmt_us((double)pb_hist_percentile(h, pcts[k]), v[3 + k], sizeof(v[3 + k]));
		fmt_us((double)h->max, v[8], sizeof(v[8]));
		snprintf(rt, sizeof(rt), "%.0f", median_of(c, rep_rate));
		fmt_num(median_of(c, f_vol), ctr[0], sizeof(ctr[0]));
		fmt_num(median_of(c, f_invol), ctr[1], sizeof(ctr[1]));
		fmt_num(median_of(c, f_mig), ctr[2], sizeof(ctr[2]));
		q50 = f != c ? ratio(c, f, 50) : 0;
		if (q50 > 0)
			snprintf(rat, sizeof(rat), "%s/%s %.2fx", pb_kind_names[c->kind],
				 pb_kind_names[f->kind], q50);
		fprintf(fp, "%-10s %7s %-6s %-5s ", kind_label(c, kl, sizeof(kl)), sz,
			place_name(run, c), pb_lat_wait_words[c->wait]);
		if (show_io(p))
			fprintf(fp, "%-8s ", io_name(c));
		fprintf(fp, "%-7s %-9s %8s %8s %8s %8s %8s %8s %8s %8s %9s %11s "
			"%6s %6s %6s %s\n", cpus, ran, v[0], v[1], v[2], v[3], v[4], v[5],
			v[6], v[7], v[8], rt, ctr[0], ctr[1], ctr[2], rat);
		for (size_t r = 0; r < c->nreps && c->reps[r].niv; r++) {
			fprintf(fp, "  intervals of repetition %zu (end s: p50/p99 us):", r + 1);
			for (size_t k = 0; k < c->reps[r].niv; k++) {
				const struct pb_lat_interval *iv = &c->reps[r].iv[k];

				fprintf(fp, " %.2f: %.2f/%.2f", (double)iv->end_ns / 1e9,
					(double)iv->p50_ns / 1e3, (double)iv->p99_ns / 1e3);
			}
			fputc('\n', fp);
		}
	}
	fprintf(fp, "\ntimes in microseconds from every round trip of %llu %s%s (histogram, <1%% "
		"bucket error); rt/s and counters per round trip (vcs voluntary, ics involuntary "
		"context switches, mig migrations; both parties) are medians over repetitions\n",
		(unsigned long long)p->repeat, pb_plural(p->repeat, "repetition", "repetitions"),
		p->precision > 0 ? " and those --precision added" : "");
	for (size_t i = 0; i < run->ncells; i++)
		if (run->cells[i].spin_yield && run->cells[i].nreps) {
			fprintf(fp, "spin on one CPU yields: a party whose nonblocking read or write "
				"would block calls sched_yield(), so the other party can run\n");
			break;
		}
	profile_text(run, fp);
	pb_stab_text_begin(&st, fp, 11);
	for (size_t i = 0; i < run->ncells; i++) {
		const struct lat_cell *c = &run->cells[i];
		char label[128];

		if (c->skip || !c->nreps)
			continue;
		pb_stab_text_row(&st, row_label(run, c, label, sizeof(label)), c->stab, c->stab_why);
	}
	pb_stab_text_end(&st);
	if (p->precision > 0)
		precision_text(run, fp);
	if (p->ncopies > 1)
		scaling_text(run, fp);
}

static struct json_object *buckets_json(const struct lat_bucket *bk, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		struct json_object *b = json_object_new_array();

		json_object_array_add(b, json_object_new_int64((int64_t)bk[i].lo));
		json_object_array_add(b, json_object_new_int64((int64_t)bk[i].hi));
		json_object_array_add(b, json_object_new_int64((int64_t)bk[i].count));
		json_object_array_add(a, b);
	}
	return a;
}

/* A repetition's scalar fields: an entry of JSON's repetitions (then its
 * intervals and histogram), a CSV row's columns after the identity and the
 * repetition's number. */
static void rep_fields(struct pb_row *x, const struct lat_rep *r)
{
	char ca[64], cb[64];

	pb_row_int(x, "round_trips", (int64_t)r->round_trips);
	pb_row_int(x, "elapsed_ns", (int64_t)r->elapsed_ns);
	pb_row_double(x, "rtt_mean_ns", r->mean);
	pb_row_double(x, "rtt_stddev_ns", r->stddev);
	pb_row_int(x, "rtt_min_ns", (int64_t)r->min);
	for (size_t k = 0; k < NPCT; k++)
		pb_row_int(x, pct_keys[k], (int64_t)r->p[k]);
	pb_row_int(x, "rtt_max_ns", (int64_t)r->max);
	pb_row_double(x, "round_trips_per_s", rep_rate(r));
	pb_row_double(x, "voluntary_ctxsw_per_round_trip", f_vol(r));
	pb_row_double(x, "involuntary_ctxsw_per_round_trip", f_invol(r));
	pb_row_double(x, "context_switches_per_round_trip", f_cs(r));
	pb_row_double(x, "migrations_per_round_trip", f_mig(r));
	pb_row_double(x, "cpu_user_ns_per_round_trip", f_user(r));
	pb_row_double(x, "cpu_sys_ns_per_round_trip", f_sys(r));
	pb_row_double(x, "page_faults_per_round_trip", f_faults(r));
	seen_list(&r->a, ca, sizeof(ca));
	seen_list(&r->b, cb, sizeof(cb));
	pb_row_str(x, "cpus_a", ca);
	pb_row_str(x, "cpus_b", cb);
}

static struct json_object *rep_json(const struct lat_rep *r)
{
	struct json_object *x = json_object_new_object(), *iv;
	struct pb_row row = pb_row_json(x);

	rep_fields(&row, r);
	if (r->niv) {
		iv = json_object_new_array();
		for (size_t k = 0; k < r->niv; k++) {
			struct json_object *e = json_object_new_object();

			pb_json_add_int(e, "end_ns", (int64_t)r->iv[k].end_ns);
			pb_json_add_int(e, "round_trips", (int64_t)r->iv[k].round_trips);
			pb_json_add_int(e, "rtt_p50_ns", (int64_t)r->iv[k].p50_ns);
			pb_json_add_int(e, "rtt_p99_ns", (int64_t)r->iv[k].p99_ns);
			json_object_array_add(iv, e);
		}
		json_object_object_add(x, "intervals", iv);
	}
	json_object_object_add(x, "histogram", buckets_json(r->bk, r->nbk));
	return x;
}

/* A result's identity: its JSON object's first fields (spin_yield follows
 * them there), the CSV's first columns. */
static void cell_fields(struct pb_row *o, const struct lat_run *run, const struct lat_cell *c)
{
	char cpus[32];

	pb_row_str(o, "kind", pb_kind_names[c->kind]);
	pb_row_int(o, "size_bytes", (int64_t)c->size);
	pb_row_str(o, "placement", place_name(run, c));
	pb_row_str(o, "wait", pb_lat_wait_words[c->wait]);
	pb_row_str(o, "io", io_name(c));
	if (c->copies)
		pb_row_int(o, "copies", c->copies);
	pb_row_str(o, "mode", run->p->threads ? "thread" : "process");
	asked_cpus(c, cpus, sizeof(cpus));
	pb_row_str(o, "asked_cpus", cpus);
}

static struct json_object *cell_json(const struct lat_run *run, const struct lat_cell *c)
{
	struct json_object *o = json_object_new_object(), *reps, *sum;
	const struct lat_cell *f = first_of_row(run, c);
	const struct pb_hist *h = &c->merged;
	struct pb_row row = pb_row_json(o);

	cell_fields(&row, run, c);
	json_object_object_add(o, "spin_yield", json_object_new_boolean(c->spin_yield));
	if (c->skip) {
		pb_json_add_str(o, "status", "skip");
		pb_json_add_str(o, "reason", c->reason);
		return o;
	}
	pb_json_add_str(o, "status", c->nreps ? "ok" : "not run");
	if (c->nreps)
		pb_stab_fields(&row, c->stab, c->stab_why);
	if (c->nreps && run->p->precision > 0)
		json_object_object_add(o, "precision", pb_precision_json(run->p->precision,
									 c->precision));
	reps = json_object_new_array();
	for (size_t r = 0; r < c->nreps; r++) {
		struct json_object *x = rep_json(&c->reps[r]);

		if (c->copies)
			pb_copies_rep_json(x, &c->copy_rate[r * c->copies],
					   &c->copy_place[r * c->copies], c->copies,
					   "copy_round_trips_per_s");
		json_object_array_add(reps, x);
	}
	sum = pb_bench_json_reps(o, reps, c->nreps);
	if (!sum)
		return o;
	pb_json_add_int(sum, "round_trips", (int64_t)h->count);
	pb_json_add_double(sum, "rtt_mean_ns", pb_hist_mean(h));
	pb_json_add_double(sum, "rtt_stddev_ns", pb_hist_stddev(h));
	pb_json_add_int(sum, "rtt_min_ns", (int64_t)h->min);
	for (size_t k = 0; k < NPCT; k++)
		pb_json_add_int(sum, pct_keys[k], (int64_t)pb_hist_percentile(h, pcts[k]));
	pb_json_add_int(sum, "rtt_max_ns", (int64_t)h->max);
	pb_json_add_double(sum, "round_trips_per_s", median_of(c, rep_rate));
	pb_json_add_double(sum, "voluntary_ctxsw_per_round_trip", median_of(c, f_vol));
	pb_json_add_double(sum, "involuntary_ctxsw_per_round_trip", median_of(c, f_invol));
	pb_json_add_double(sum, "context_switches_per_round_trip", median_of(c, f_cs));
	pb_json_add_double(sum, "migrations_per_round_trip", median_of(c, f_mig));
	pb_json_add_double(sum, "cpu_user_ns_per_round_trip", median_of(c, f_user));
	pb_json_add_double(sum, "cpu_sys_ns_per_round_trip", median_of(c, f_sys));
	pb_json_add_double(sum, "page_faults_per_round_trip", median_of(c, f_faults));
	{
		struct lat_bucket *bk = calloc(PB_HIST_BUCKETS, sizeof(*bk));
		size_t n = 0;

		for (size_t i = 0; bk && i < PB_HIST_BUCKETS; i++)
			if (h->counts[i])
				bk[n++] = (struct lat_bucket){ pb_hist_lowest(i), pb_hist_highest(i),
							       h->counts[i] };
		json_object_object_add(sum, "histogram", buckets_json(bk, n));
		free(bk);
	}
	if (c->copies) {
		pb_json_add_double(sum, "round_trips_per_s_per_copy",
				   median_of(c, rep_rate) / c->copies);
		pb_json_add_double(o, "efficiency", efficiency(run, c));
		pb_json_add_int(o, "scaling_reference_copies", scale_ref(run, c)->copies);
	}
	if (c->uring)
		pb_uring_probe_fields(o, &run->uring[c->kind], run->uring_probed[c->kind]);
	if (c->prof_sum && run->prof.ok)
		json_object_object_add(o, "profile", pb_prof_json(c->prof_sum, run->prof.period_ns,
								  (double)h->count, "round_trip", 0));
	if (f != c && ratio(c, f, 50) > 0) {
		char label[48];

		snprintf(label, sizeof(label), "%s/%s", pb_kind_names[c->kind],
			 pb_kind_names[f->kind]);
		pb_json_add_str(o, "ratio_label", label);
		pb_json_add_double(o, "p50_ratio_to_first", ratio(c, f, 50));
		pb_json_add_double(o, "p99_ratio_to_first", ratio(c, f, 99));
	}
	return o;
}

static struct json_object *params_json(const struct lat_params *p)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "kinds", PB_JSON_WORDS(pb_kind_names, p->kinds, p->nkinds));
	json_object_object_add(o, "sizes_bytes", pb_json_u64_array(p->sizes, p->nsizes));
	json_object_object_add(o, "placements", PB_JSON_WORDS(pb_place_words, p->places,
							       p->pinned ? 0 : p->nplaces));
	json_object_object_add(o, "waits", PB_JSON_WORDS(pb_lat_wait_words, p->waits, p->nwaits));
	{
		struct json_object *io = json_object_new_array();

		for (size_t i = 0; i < p->nios; i++)
			json_object_array_add(io, json_object_new_string(io_words[p->ios[i]]));
		json_object_object_add(o, "io", io);
	}
	json_object_object_add(o, "copies", p->ncopies ? json_object_new_array() : NULL);
	for (size_t i = 0; i < p->ncopies; i++)
		json_object_array_add(json_object_object_get(o, "copies"),
				      json_object_new_int((int32_t)p->copies[i]));
	pb_json_add_str(o, "mode", p->threads ? "thread" : "process");
	pb_json_add_int(o, "loops", (int64_t)p->loops);
	pb_json_add_int(o, "duration_ns", (int64_t)p->duration_ns);
	pb_json_add_int(o, "interval_ns", (int64_t)p->interval_ns);
	pb_json_add_int(o, "repeat", (int64_t)p->repeat);
	pb_json_add_int(o, "warmup", (int64_t)p->warmup);
	json_object_object_add(o, "precision_pct", p->precision > 0 ?
			       json_object_new_double(p->precision) : NULL);
	pb_json_add_int(o, "precision_budget_ns", (int64_t)p->precision_budget_ns);
	pb_json_add_str(o, "cpus", p->pinned ? p->cpu_list : NULL);
	pb_json_add_str(o, "dir", p->dir);
	pb_json_add_int(o, "timeout_ns", (int64_t)p->timeout_ns);
	pb_json_add_str(o, "counters", pb_lat_counter_words[p->counters]);
	return o;
}

static void emit_json(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct lat_run *run = r_;
	struct json_object *doc = pb_doc_new(NAME, si), *res = json_object_new_array();
	struct json_object *ck = json_object_new_object(), *ct = json_object_new_object();
	struct json_object *sum = json_object_new_object();
	size_t measured = 0, skipped = 0;
	char usable[256];

	json_object_object_add(doc, "params", params_json(run->p));
	/* the watchdog actually armed: --timeout, or the default bound */
	pb_json_add_int(doc, "watchdog_ns", (int64_t)run->watchdog_ns);
	pb_json_add_str(ck, "id", "CLOCK_MONOTONIC");
	pb_json_add_int(ck, "read_ns", (int64_t)run->clock_cost);
	json_object_object_add(doc, "clock", ck);
	pb_json_add_str(ct, "source", run->source == PB_LAT_SRC_PERF ? "perf_event" : "rusage+sched");
	pb_json_add_str(ct, "detail", run->source_why);
	json_object_object_add(doc, "counters", ct);
	topo_text(run, usable, sizeof(usable));
	pb_json_add_str(doc, "usable_cpus", usable);
	json_object_object_add(doc, "profile", pb_prof_run_json(&run->prof));
	for (size_t i = 0; i < run->ncells; i++) {
		json_object_array_add(res, cell_json(run, &run->cells[i]));
		measured += run->cells[i].nreps > 0;
		skipped += run->cells[i].skip;
	}
	json_object_object_add(doc, "results", res);
	pb_json_add_int(sum, "results", (int64_t)run->ncells);
	pb_json_add_int(sum, "measured", (int64_t)measured);
	pb_json_add_int(sum, "skipped", (int64_t)skipped);
	if (run->p->precision > 0) {
		json_object_object_add(sum, "precision_reached",
				       json_object_new_boolean(run->precision_reached));
		pb_json_add_int(sum, "precision_extra_ns", (int64_t)run->precision_ns);
	}
	pb_doc_finish(doc, sum, run->error, run->status, fp);
}

/* One CSV row (or, for a header sink, the header) per repetition. */
static void csv_row(struct pb_row r, const struct lat_run *run, const struct lat_cell *c,
		    size_t n, const struct lat_rep *rep)
{
	cell_fields(&r, run, c);
	pb_row_int(&r, "repetition", (int64_t)n + 1);
	rep_fields(&r, rep);
	pb_stab_fields(&r, c->stab, c->stab_why);
	if (run->prof.ok)
		pb_prof_row_fields(&r, c->prof_sum);
	pb_row_end(&r);
}

static void emit_csv(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct lat_run *run = r_;
	static const struct lat_cell no_cell;
	static const struct lat_rep no_rep;
	struct pb_csv csv;

	pb_csv_begin(&csv, fp, si);
	csv_row(pb_row_csv_header(&csv), run, &no_cell, 0, &no_rep);
	for (size_t i = 0; i < run->ncells; i++) {
		const struct lat_cell *c = &run->cells[i];

		for (size_t n = 0; n < c->nreps; n++)
			csv_row(pb_row_csv(&csv), run, c, n, &c->reps[n]);
	}
}

/* --copies with FIFOs: each copy's two FIFOs in directories of their own. */
static void make_copy_dirs(struct lat_run *run)
{
	unsigned n = 2 * run->p->copies[run->p->ncopies - 1];

	run->copy_dir = calloc(n, sizeof(*run->copy_dir));
	if (!run->copy_dir) {
		set_error(run, PB_EXIT_ERROR, "out of memory");
		return;
	}
	for (; run->ncopy_dirs < n; run->ncopy_dirs++)
		if (PB_TMPDIR_MAKE(run, run->tmpdir[0], run->copy_dir[run->ncopy_dirs]))
			return;
}

/*
 * --mode io_uring: a ring must be possible here, else its rows are skipped
 * with the reason (io_uring disabled, seccomp, no liburing); then how this
 * kernel completes the reads of each pipe kind measured.
 */
static void setup_uring(struct lat_run *run)
{
	const struct lat_params *p = run->p;
	struct pb_uring *u;
	const char *what;
	bool wanted = false;
	int r;

	for (size_t i = 0; i < p->nios; i++)
		wanted |= p->ios[i];
	if (!wanted)
		return;
	r = pb_uring_open(&u, &what);
	if (r) {
		snprintf(run->uring_skip, sizeof(run->uring_skip), "io_uring unavailable: %s: %s",
			 what, pb_uring_why(-r));
		for (size_t i = 0; i < run->ncells; i++)
			if (run->cells[i].uring && !run->cells[i].skip) {
				run->cells[i].skip = true;
				snprintf(run->cells[i].reason, sizeof(run->cells[i].reason), "%s",
					 run->uring_skip);
			}
		return;
	}
	pb_uring_close(u);
	for (size_t k = 0; k < p->nkinds && !run->status; k++) {
		enum pb_kind kind = p->kinds[k];

		if (kind == PB_KIND_SOCKETPAIR)
			continue;
		r = pb_uring_probe(kind, run->tmpdir[0][0] ? run->tmpdir[0] : p->dir,
				   &run->uring[kind]);
		if (r)
			set_error(run, PB_EXIT_ERROR, "io_uring probe: fork: %s", strerror(-r));
		else
			run->uring_probed[kind] = true;
	}
}

static int exec_params(struct pb_cli *cli, void *params)
{
	const struct lat_params *p = params;
	struct lat_run run = { .p = p };
	struct pb_sysinfo si;
	struct pb_out out;
	size_t measured = 0;

	pb_sysinfo_collect(&si);
	if (pb_out_open(&out)) {
		pb_err(NAME, "cannot allocate output buffer");
		return PB_EXIT_ERROR;
	}
	if (setup(&run))
		set_error(&run, PB_EXIT_ERROR, "out of memory");
	for (int i = 0; i < 2 && !run.status && has_kind(p, PB_KIND_FIFO); i++)
		PB_TMPDIR_MAKE(&run, p->dir, run.tmpdir[i]);
	if (!run.status && p->ncopies && has_kind(p, PB_KIND_FIFO))
		make_copy_dirs(&run);
	if (!run.status)
		setup_uring(&run);
	run.clock_cost = pb_lat_clock_cost();
	if (pb_lat_counters_probe(p->counters, &run.source, run.source_why,
				  sizeof(run.source_why)) && !run.status)
		set_error(&run, PB_EXIT_ERROR, "%s", run.source_why);
	run.watchdog_ns = p->timeout_ns ? p->timeout_ns : default_watchdog_ns(&run);
	pb_watchdog_arm((double)run.watchdog_ns / 1e9,
			p->timeout_ns ? "--timeout" : "watchdog (no --timeout given)");
	pb_prof_run_begin(&run.prof, p->profile, true);
	progress_start(&run, pb_cli_progress(cli));
	if (!run.status)
		measure(&run);
	for (size_t i = 0; p->profile && i < run.ncells; i++)
		if (run.cells[i].nreps)
			pb_prof_summarize(run.prof.syms, run.cells[i].prof, run.cells[i].prof_sum);
	pb_progress_end(&run.pg);
	pb_watchdog_arm(0, NULL);
	judge(&run);
	for (size_t i = 0; i < run.ncells; i++)
		measured += run.cells[i].nreps > 0;
	if (!run.status && !measured)
		set_error(&run, PB_EXIT_NA, "nothing to measure: every row asked for was skipped "
			  "(%s)", run.ncells ? run.cells[0].reason : "none");
	if (run.error[0])
		pb_err(NAME, "%s", run.error);
	pb_cli_emit(cli, &run, &si, out.fp);
	teardown(&run);
	if (pb_out_finish(&out, NAME, cli->common.output) && run.status == 0)
		run.status = PB_EXIT_ERROR;
	return run.status;
}

#define P struct lat_params
static const struct pb_opt options[] = {
	{ PB_OPT("kind", 'k', PB_OPT_WORDS, P, kind_words), .words = pb_kind_words,
	  .def = "anon", .arg = "LIST", .help = "channel kinds" },
	{ PB_OPT("size", 's', PB_OPT_SIZES, P, sizes), .off_n = offsetof(P, nsizes), .min = 1,
	  .max = MAX_SIZE, .max_items = MAX_SIZES, .def = "1", .arg = "LIST",
	  .help = "message size; K, M suffixes; comma list for a sweep; at most 1M" },
	{ PB_OPT("threads", 'T', PB_OPT_FLAG, P, threads), .def_help = "processes",
	  .help = "party B is a thread instead of a process" },
	{ PB_OPT("loops", 'n', PB_OPT_COUNT, P, loops), .min = 1, .max = 1000000000ULL,
	  .def = "10000", .arg = "N", .help = "round trips per repetition" },
	{ PB_OPT("duration", '\0', PB_OPT_DURATION, P, duration_ns), .min = 1000000ULL,
	  .max = 86400ULL * 1000000000ULL, .def_help = "use --loops", .arg = "DURATION",
	  .help = "round trips for this long per repetition instead of --loops",
	  .excludes = "loops" },
	{ PB_OPT("placement", '\0', PB_OPT_WORDS, P, place_words), .words = pb_place_words,
	  .def = "any", .arg = "LIST",
	  .help = "CPU pairs" },
	{ PB_OPT("cpu", 'c', PB_OPT_CPUS, P, cpus), .def_help = "from --placement", .arg = "A,B",
	  .help = "pin party A and party B (one CPU: both on it)" },
	{ PB_OPT("wait", '\0', PB_OPT_WORDS, P, wait_words), .words = pb_lat_wait_words,
	  .def = "block", .arg = "LIST", .help = "how to wait" },
	{ PB_OPT("mode", '\0', PB_OPT_WORDS, P, io_words), .words = io_words,
	  .def = "rw", .arg = "LIST",
	  .help = "how the parties write and read (rw: write/read; io_uring: through a ring "
		  "each)" },
	PB_OPT_COPIES(P, copies_arg, "pairs"),
	{ PB_OPT("counters", '\0', PB_OPT_WORD, P, counters), .words = pb_lat_counter_words,
	  .def = "auto", .arg = "WORD",
	  .help = "context switch and migration counters: auto, perf (perf_event_open), rusage" },
	{ PB_OPT("interval", '\0', PB_OPT_DURATION, P, interval_ns), .min = 1000000ULL,
	  .max = 86400ULL * 1000000000ULL, .def_help = "none", .arg = "DURATION",
	  .help = "also p50 and p99 per interval of this length" },
	{ PB_OPT("dir", 'd', PB_OPT_DIR, P, dir), .arg = "DIR", .help = "directory for FIFOs" },
	PB_OPT_REPEAT(P, repeat, "measured repetitions"),
	PB_OPT_PRECISION(P, precision, precision_budget_ns, "every row's median p50", "60 s"),
	PB_OPT_PROFILE(P, profile),
	PB_OPT_WARMUP(P, warmup),
	{ PB_OPT("timeout", 't', PB_OPT_DURATION, P, timeout_ns), .min = 1,
	  .max = 86400ULL * 1000000000ULL, .def_help = "a watchdog from the run's size",
	  .arg = "DURATION", .help = "give up with exit 3 after this long, e.g. 90s" },
	PB_OPT_END
};

/* Latency: KIND[-xCOPIES]-SIZEB-PLACEMENT-WAIT[-io_uring]-p50 / -p99 (ns) and
 * -rate (round trips/s);
 * a placement the machine cannot provide makes the three skip cases. */
static void lava_cases(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *a = pb_json_get(doc, "results");

	for (size_t i = 0; i < pb_json_len(a); i++) {
		struct json_object *r = json_object_array_get_idx(a, i);
		const char *st = pb_json_str(r, "status");
		char name[160];

		pb_lava_item(l, r);
		const char *io = pb_json_str(r, "io");
		long long copies = pb_json_int(r, "copies", 0);
		char xn[32] = "";

		if (copies)
			snprintf(xn, sizeof(xn), "-x%lld", copies);
		snprintf(name, sizeof(name), "%s%s-%lldB-%s-%s%s%s",
			 pb_json_str(r, "kind") ? pb_json_str(r, "kind") : "?", xn,
			 pb_json_int(r, "size_bytes", 0),
			 pb_json_str(r, "placement") ? pb_json_str(r, "placement") : "?",
			 pb_json_str(r, "wait") ? pb_json_str(r, "wait") : "?",
			 io && strcmp(io, "rw") ? "-" : "", io && strcmp(io, "rw") ? io : "");
		if (st && strcmp(st, "ok") != 0) {
			pb_lava_case(l, "skip", "%s-p50", name);
			pb_lava_case(l, "skip", "%s-p99", name);
			pb_lava_case(l, "skip", "%s-rate", name);
			continue;
		}
		pb_lava_measure(l, pb_json_num(r, "summary.rtt_p50_ns"), "ns", "%s-p50", name);
		pb_lava_measure(l, pb_json_num(r, "summary.rtt_p99_ns"), "ns", "%s-p99", name);
		pb_lava_measure(l, pb_json_num(r, "summary.round_trips_per_s"), "rt/s", "%s-rate", name);
		pb_lava_stability(l, r, name);
		pb_lava_profile(l, r, name);
	}
}

static const struct pb_format formats[] = {
	{ .name = "text", .emit = emit_text, .text = true },
	{ .name = "json", .emit = emit_json },
	{ .name = "csv", .emit = emit_csv },
	PB_FORMAT_END
};

const struct pb_cmd pb_cmd_latency = {
	.lava_cases = lava_cases,
	.name = NAME, .opts = options, .formats = formats, .params_size = sizeof(struct lat_params),
	.check = check_params, .exec = exec_params,
	.summary = "round-trip latency percentiles per CPU placement, with scheduler counters",
};
