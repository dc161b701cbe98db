/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench throughput: the nonblocking fill/drain loop of the 2025
 * "pipe: don't update {a,c,m}time for anonymous pipes" mails, on anonymous
 * pipes, FIFOs and a socketpair reference, with repetitions and statistics.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchcmd.h"
#include "cleanup.h"
#include "cli.h"
#include "clock.h"
#include "copies.h"
#include "endpoint.h"
#include "engine.h"
#include "msg.h"
#include "lava.h"
#include "output.h"
#include "stats.h"
#include "stability.h"
#include "sysinfo.h"
#include "tp_mw.h"
#include "units.h"
#include "zerocopy.h"

#define MAX_SIZES 32
#define MAX_CHUNK (64ULL << 20)
#define NAME "throughput"


struct tp_params {
	unsigned kind_words;         /* --kind, bits of pb_kind_words */
	enum pb_kind kinds[PB_KIND_COUNT];
	size_t nkinds;
	unsigned mode_words;         /* --mode, bits of pb_mode_words */
	enum pb_mode modes[PB_MODE_COUNT];
	size_t nmodes;
	unsigned verify;             /* --verify, enum pb_verify */
	uint64_t sizes[MAX_SIZES];
	size_t nsizes;
	uint64_t loops, repeat, warmup, pipe_size, timeout_ns;
	uint64_t duration_ns;        /* --duration, 0: --loops decides */
	double precision;            /* --precision PCT, 0: off */
	uint64_t precision_budget_ns; /* --precision-budget, 0: --duration, else 60 s */
	unsigned flags;
	const char *dir;
	int pinned;
	cpu_set_t cpus;
	char cpu_list[256];
	/* --writers/--readers: many writers and readers on one pipe (tp_mw.h) */
	uint64_t writers, readers;
	unsigned wait_words;         /* --wait, bits of pb_mw_wait_words */
	bool contention;
	struct pb_tp_mw_params mw;
	/* --copies: N independent copies of each row at once, for each N */
	const char *copies_arg;
	unsigned copies[64];
	size_t ncopies;
	int profile;                 /* --profile */
};

struct tp_cell {
	enum pb_kind kind;
	enum pb_mode mode;
	const char *skip;            /* why this mode cannot run on this kind */
	uint64_t size;
	long pipe_size;
	size_t nreps, cap;
	struct pb_engine_result *reps;
	double precision;            /* --precision: the median TT's 95% interval, % of it;
					NAN: too few repetitions */
	struct pb_stats tw, tr, tt;
	double bytes, syscalls;      /* medians per repetition */
	enum pb_stab stab;           /* of TT over the repetitions, and the machine */
	char stab_why[240];
	unsigned copies;             /* --copies: this row's N; 0 without */
	double *copy_rate;           /* --copies: per repetition, each copy's B/s */
	struct pb_copy_place *copy_place; /* ... and where each ran */
	struct pb_prof_ips *prof;    /* --profile: the measured repetitions' samples */
	struct pb_prof_summary *prof_sum;
};

struct tp_run {
	const struct tp_params *p;
	struct tp_cell *cells;      /* nsizes x nmodes x nkinds, size-major */
	size_t ncells;
	struct pb_prof_run prof;    /* --profile */
	struct pb_prof sampler;     /* ... of this thread, the loops' */
	struct pb_ctrs ctrs;        /* the loops' counters */
	char tmpdir[4096];
	void *buf;
	uint64_t maxsize;
	struct pb_zc zc[PB_MODE_COUNT]; /* buffers of each zero-copy mode in use */
	int cpu_start, cpu_end;
	uint64_t precision_ns;      /* --precision: how long the extra rounds took */
	bool precision_reached;
	struct pb_tp_mw mw;         /* --writers/--readers: its rows instead */
	char (*copy_dir)[4096];     /* --copies with FIFOs: a directory per copy */
	unsigned ncopy_dirs;
	char uring_skip[240];       /* --mode io_uring: why it cannot run here ("" it can) */
	struct pb_uring_probe uring[PB_KIND_COUNT]; /* its path on each pipe kind */
	bool uring_probed[PB_KIND_COUNT];
	struct pb_bench b;
};

static bool has_kind(const struct tp_params *p, enum pb_kind k)
{
	return pb_kind_listed(p->kinds, p->nkinds, k);
}

/*
 * --writers and --readers (either one makes the other 1): records of at most
 * PIPE_BUF bytes, so that each write is atomic; pipes and FIFOs (a stream
 * socket has no atomic writes); the fill/drain loop's own options not with
 * them.  --wait only with them.
 */
static int check_contention(struct pb_cli *cli, struct tp_params *p)
{
	static const char *const alone[] = { "mode", "verify", "precision", NULL };

	p->contention = pb_cli_given(cli, "writers") || pb_cli_given(cli, "readers");
	if (p->contention && p->profile) {
		pb_usage_err(NAME, "--profile: the fill/drain loop's rows only, not with --writers "
			     "or --readers");
		return -1;
	}
	if (!p->contention) {
		if (pb_cli_given(cli, "wait")) {
			pb_usage_err(NAME, "--wait %s: only with --writers or --readers",
				     pb_cli_value(cli, "wait"));
			return -1;
		}
		return 0;
	}
	for (int i = 0; alone[i]; i++)
		if (pb_cli_given(cli, alone[i])) {
			pb_usage_err(NAME, "--%s: not with --writers or --readers (records are "
				     "written and read, whole)", alone[i]);
			return -1;
		}
	if (has_kind(p, PB_KIND_SOCKETPAIR)) {
		pb_usage_err(NAME, "--kind socketpair: not with --writers or --readers (a stream "
			     "socket has no atomic writes to keep records whole)");
		return -1;
	}
	if (cli->fmt && !strcmp(cli->fmt->name, "seed")) {
		pb_usage_err(NAME, "--format seed: the fill/drain loop's lines; not with --writers "
			     "or --readers");
		return -1;
	}
	for (size_t i = 0; i < p->nsizes; i++)
		if (p->sizes[i] < PB_MW_HEADER || p->sizes[i] > PIPE_BUF) {
			pb_usage_err(NAME, "--size %llu with --writers or --readers: records of %d "
				     "to %d bytes (PIPE_BUF, so that each write is atomic)",
				     (unsigned long long)p->sizes[i], PB_MW_HEADER, PIPE_BUF);
			return -1;
		}
	p->mw = (struct pb_tp_mw_params){
		.kinds = p->kinds, .nkinds = p->nkinds, .sizes = p->sizes, .nsizes = p->nsizes,
		.waits = p->wait_words, .writers = p->writers ? (unsigned)p->writers : 1,
		.readers = p->readers ? (unsigned)p->readers : 1, .records = p->loops,
		.duration_ns = p->duration_ns, .repeat = p->repeat, .warmup = p->warmup,
		.pipe_size = (long)p->pipe_size, .flags = p->flags,
	};
	return 0;
}

/* --copies: the list, and what it does not go with. */
static int check_copies(struct pb_cli *cli, struct tp_params *p)
{
	static const char *const alone[] = { "precision", "writers", "readers", "profile", NULL };
	cpu_set_t allowed;

	if (!p->copies_arg)
		return 0;
	if (p->pinned)
		allowed = p->cpus;
	else if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	if (pb_bench_copies_check(cli, NAME, p->copies_arg, &allowed, p->copies,
				  sizeof(p->copies) / sizeof(p->copies[0]), &p->ncopies, alone))
		return -1;
	if (p->nmodes != 1 || p->modes[0] != PB_MODE_RW) {
		pb_usage_err(NAME, "--copies: with --mode rw only");
		return -1;
	}
	if (cli->fmt && !strcmp(cli->fmt->name, "seed")) {
		pb_usage_err(NAME, "--format seed: the fill/drain loop's lines of one copy; not "
			     "with --copies");
		return -1;
	}
	return 0;
}

/* After the rows: the kinds in order, and the pinning. */
static int check_params(struct pb_cli *cli, void *params)
{
	struct tp_params *p = params;
	unsigned mask = pb_kind_mask(p->kind_words, 0);

	if (pb_precision_check(cli, NAME))
		return -1;
	for (int k = 0; k < PB_KIND_COUNT; k++)
		if (mask & (1u << k))
			p->kinds[p->nkinds++] = (enum pb_kind)k;
	for (int m = 0; m < PB_MODE_COUNT; m++)
		if (p->mode_words & (1u << m | 1u << PB_MODE_COUNT))
			p->modes[p->nmodes++] = (enum pb_mode)m;
	if (CPU_COUNT(&p->cpus) > 0) {
		p->pinned = 1;
		pb_format_cpu_list(&p->cpus, p->cpu_list, sizeof(p->cpu_list));
	}
	if (check_copies(cli, p))
		return -1;
	return check_contention(cli, p);
}

#define set_error PB_SET_ERROR

/* Cells per size: every mode of every kind. */
static size_t ncols(const struct tp_params *p)
{
	return p->nmodes * p->nkinds;
}

/* Rows: every size, for each --copies count. */
static size_t nrows(const struct tp_params *p)
{
	return p->nsizes * (p->ncopies ? p->ncopies : 1);
}

/* --copies: a copy's endpoint (in its own process), and what it returns. */
struct copy_arg {
	struct tp_run *run;
	const struct tp_cell *cell;
	uint64_t loops;
};

struct copy_out {
	struct pb_engine_result res;
	uint64_t limit;
	char what[24];              /* the call that failed to make the endpoint */
};

static struct pb_endpoint copy_ep;  /* each copy's own, in its process */

static int copy_prepare(void *arg_, unsigned i, void *out_)
{
	const struct copy_arg *a = arg_;
	struct copy_out *out = out_;
	const struct tp_params *p = a->run->p;
	struct pb_endpoint_opts eo = {
		.nonblock = true, .flags = p->flags, .pipe_size = (long)p->pipe_size,
		.dir = i < a->run->ncopy_dirs ? a->run->copy_dir[i] : a->run->tmpdir,
	};
	const char *what = NULL;
	int r = pb_endpoint_open(&copy_ep, a->cell->kind, &eo, &what);

	if (r)
		snprintf(out->what, sizeof(out->what), "%s", what ? what : "open");
	else
		out->limit = pb_engine_fill_limit(copy_ep.pipe_size, a->cell->size);
	return r;
}

static int copy_work(void *arg_, unsigned i, void *out_)
{
	const struct copy_arg *a = arg_;
	struct copy_out *out = out_;

	(void)i;
	return pb_engine_run(copy_ep.rfd, copy_ep.wfd, a->run->buf, a->cell->size, a->loops,
			     out->limit, &out->res);
}

static int copy_finish(void *arg_, unsigned i, void *out_)
{
	(void)arg_;
	(void)i;
	(void)out_;
	pb_endpoint_close(&copy_ep);
	return 0;
}

/*
 * One repetition of a --copies row: CELL->copies copies at once, each with
 * its own pipe or FIFO and LOOPS loops.  RES gets their sums, with TW and
 * TR of the slowest copy (the one whose TT is longest): its rate is every
 * byte moved over the time the last copy needed.  A measured repetition
 * (RES in the cell's own) also keeps each copy's rate and place.
 */
static int run_copies(struct tp_run *run, struct tp_cell *cell, uint64_t loops,
		      struct pb_engine_result *res)
{
	struct copy_arg a = { run, cell, loops };
	const struct tp_params *p = run->p;
	cpu_set_t allowed;
	struct pb_copies_opts o = { .n = cell->copies, .prepare = copy_prepare,
				    .work = copy_work, .finish = copy_finish, .arg = &a,
				    .out_size = sizeof(struct copy_out) };
	struct pb_copies_run cr;
	size_t rep = (size_t)(res - cell->reps);
	bool keep = res >= cell->reps && rep < cell->cap && cell->copy_rate;
	uint64_t slowest = 0;
	char label[64], sz[32];
	int rc = 0;

	pb_format_size(cell->size, sz, sizeof(sz));
	snprintf(label, sizeof(label), "%s %s x%u", pb_kind_names[cell->kind], sz, cell->copies);
	if (p->pinned)
		allowed = p->cpus;
	else if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	o.allowed = &allowed;
	memset(res, 0, sizeof(*res));
	if (pb_copies_run(&o, &cr)) {
		if (cr.timed_out)
			set_error(&run->b, PB_EXIT_ERROR, "--timeout: timed out after %g s",
				  (double)run->b.timeout_ns / 1e9);
		else
			set_error(&run->b, PB_EXIT_ERROR, "%s: %s: %s", label, cr.harness_what,
				  strerror(cr.harness_err));
		pb_copies_free(&o, &cr);
		return -EIO;
	}
	for (unsigned i = 0; i < cell->copies && !rc; i++) {
		const struct copy_out *c = (const struct copy_out *)cr.out + i;
		uint64_t tt = c->res.tw_ns + c->res.tr_ns;

		if (cr.rc[i]) {
			char why[256];

			rc = cr.rc[i];
			if (c->what[0])
				set_error(&run->b, PB_EXIT_ERROR, "%s: copy %u: %s: %s", label, i + 1,
					  c->what, strerror(-rc));
			else if (rc == -ECHILD)
				set_error(&run->b, PB_EXIT_ERROR, "%s: copy %u died", label, i + 1);
			else {
				pb_engine_strerror(rc, &c->res, c->limit, why, sizeof(why));
				set_error(&run->b, PB_EXIT_ERROR, "%s: copy %u: %s", label, i + 1, why);
			}
			break;
		}
		res->bytes_written += c->res.bytes_written;
		res->bytes_read += c->res.bytes_read;
		res->write_calls += c->res.write_calls;
		res->read_calls += c->res.read_calls;
		res->loops_done += c->res.loops_done;
		res->verified_loops += c->res.verified_loops;
		if (tt >= slowest) {
			slowest = tt;
			res->tw_ns = c->res.tw_ns;
			res->tr_ns = c->res.tr_ns;
		}
		if (keep) {
			cell->copy_rate[rep * cell->copies + i] =
				tt ? (double)c->res.bytes_written * 1e9 / (double)tt : NAN;
			cell->copy_place[rep * cell->copies + i] = cr.place[i];
		}
	}
	pb_copies_free(&o, &cr);
	return rc;
}

static int run_one_copy(struct tp_run *run, const struct tp_cell *cell, uint64_t loops,
			struct pb_engine_result *res);

/* One repetition of one cell: fresh endpoints, LOOPS loops (each copy). */
static int run_one(struct tp_run *run, struct tp_cell *cell, uint64_t loops,
		   struct pb_engine_result *res)
{
	/* --profile: a measured repetition's samples are the row's */
	run->b.prof_into = res >= cell->reps && res < cell->reps + cell->cap ? cell->prof : NULL;
	if (cell->copies)
		return run_copies(run, cell, loops, res);
	return run_one_copy(run, cell, loops, res);
}

/* One copy: the fill/drain loop of the 2025 mails. */
static int run_one_copy(struct tp_run *run, const struct tp_cell *cell, uint64_t loops,
			struct pb_engine_result *res)
{
	const struct tp_params *p = run->p;
	struct pb_endpoint_opts eo = {
		.nonblock = true,
		.flags = cell->kind == PB_KIND_SOCKETPAIR ? 0 : p->flags,
		.pipe_size = (long)p->pipe_size,
		.dir = run->tmpdir,
	};

	char label[64];

	if (cell->skip)
		return -EOPNOTSUPP;
	snprintf(label, sizeof(label), "%s%s%s", pb_kind_names[cell->kind],
		 cell->mode == PB_MODE_RW ? "" : " ",
		 cell->mode == PB_MODE_RW ? "" : pb_mode_words[cell->mode]);
	return pb_bench_fill_drain_zc(&run->b, label, cell->kind, &eo, &run->zc[cell->mode],
				      run->buf, cell->size, loops, res);
}

static void progress(struct tp_run *run, const struct tp_cell *cell, const char *phase,
		     uint64_t i, uint64_t n)
{
	char sz[32];

	pb_format_size(cell->size, sz, sizeof(sz));
	pb_progress_show(&run->b.pg, "%s %s %s %s %llu/%llu", pb_kind_names[cell->kind],
			 pb_mode_words[cell->mode], sz, phase, (unsigned long long)i,
			 (unsigned long long)n);
}

static int summarize(struct tp_cell *c)
{
	double *v = malloc(5 * c->nreps * sizeof(*v));
	double *tw = v, *tr = v + c->nreps, *tt = v + 2 * c->nreps;
	double *by = v + 3 * c->nreps, *sc = v + 4 * c->nreps;
	struct pb_stats s;
	int r = -ENOMEM;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < c->nreps; i++) {
		tw[i] = (double)c->reps[i].tw_ns;
		tr[i] = (double)c->reps[i].tr_ns;
		tt[i] = tw[i] + tr[i];
		by[i] = (double)c->reps[i].bytes_written;
		sc[i] = (double)(c->reps[i].write_calls + c->reps[i].read_calls);
	}
	if (pb_stats_compute(tw, c->nreps, &c->tw) || pb_stats_compute(tr, c->nreps, &c->tr) ||
	    pb_stats_compute(tt, c->nreps, &c->tt))
		goto out;
	if (pb_stats_compute(by, c->nreps, &s))
		goto out;
	c->bytes = s.median;
	if (pb_stats_compute(sc, c->nreps, &s))
		goto out;
	c->syscalls = s.median;
	r = 0;
out:
	free(v);
	return r;
}

/* A calibration round: every cell once, with LOOPS loops. */
static int calibration_round(void *ctx, uint64_t loops)
{
	struct tp_run *run = ctx;
	struct pb_engine_result scratch;

	pb_progress_show(&run->b.pg, "calibrating, %llu %s", (unsigned long long)loops,
			 pb_plural(loops, "loop", "loops"));
	for (size_t i = 0; i < run->ncells && !run->b.status; i++)
		run_one(run, &run->cells[i], loops, &scratch);
	return run->b.status;
}

/* The median TT's 95% interval, in percent of it (NAN: too few). */
static double median_precision(const struct tp_cell *c)
{
	double *v = malloc(c->nreps * sizeof(*v)), r = NAN;

	if (!v)
		return NAN;
	for (size_t i = 0; i < c->nreps; i++)
		v[i] = (double)(c->reps[i].tw_ns + c->reps[i].tr_ns);
	r = pb_stats_median_precision(v, c->nreps);
	free(v);
	return r;
}

/*
 * --precision: rounds of one more repetition of every row, until each
 * row's median TT is known within the asked percent (its 95% interval), or
 * the budget counted from START is spent (pb_precision_spent).
 */
static void refine(struct tp_run *run, uint64_t start)
{
	const struct tp_params *p = run->p;
	uint64_t t0 = pb_clock_ns();

	for (size_t round = 1; !run->b.status && !pb_cleanup_interrupted(); round++) {
		double worst = 0;
		bool all = true;

		for (size_t i = 0; i < run->ncells; i++) {
			struct tp_cell *c = &run->cells[i];

			if (c->skip || !c->nreps)
				continue;
			c->precision = median_precision(c);
			if (!(c->precision <= p->precision))
				all = false;
			if (pb_stats_precision_worse(c->precision, worst))
				worst = c->precision;
		}
		run->precision_reached = all;
		if (all || pb_precision_spent(start, p->precision_budget_ns, p->duration_ns))
			break;
		pb_progress_show(&run->b.pg, "precision %.1f%% of %g%% wanted, round %zu", worst,
				 p->precision, round);
		for (size_t i = 0; i < run->ncells && !run->b.status; i++) {
			struct tp_cell *c = &run->cells[i];
			struct pb_engine_result *r;

			if (c->skip || !c->nreps)
				continue;
			r = pb_bench_room(c->reps, c->nreps, &c->cap, sizeof(*r));
			if (!r) {
				set_error(&run->b, PB_EXIT_ERROR, "--precision: out of memory");
				break;
			}
			c->reps = r;
			if (run_one(run, c, run->b.loops, &c->reps[c->nreps]) == 0)
				c->nreps++;
		}
	}
	run->precision_ns = pb_clock_ns() - t0;
}

/* Sizes outer, repetitions interleaved across kinds so drift hits all alike. */
static void measure(struct tp_run *run)
{
	const struct tp_params *p = run->p;
	struct pb_stab_machine m;
	uint64_t start = pb_clock_ns();
	int r;

	if (p->duration_ns) {
		/* The calibration counts as unknown work on the progress line. */
		r = pb_bench_calibrate(&run->b, p->repeat + p->warmup, PB_BUDGET_MAX_LOOPS,
				       calibration_round, run);
		if (r)
			return;
	}
	size_t runnable = 0;

	for (size_t i = 0; i < run->ncells; i++)
		runnable += !run->cells[i].skip;
	pb_bench_progress_start(&run->b, runnable * (p->warmup + p->repeat));
	for (size_t s = 0; s < nrows(p) && !run->b.status; s++) {
		struct tp_cell *row = &run->cells[s * ncols(p)];
		struct pb_engine_result scratch;

		for (uint64_t w = 0; w < p->warmup && !run->b.status; w++)
			for (size_t k = 0; k < ncols(p) && !run->b.status; k++) {
				if (row[k].skip)
					continue;
				progress(run, &row[k], "warmup", w + 1, p->warmup);
				run_one(run, &row[k], run->b.loops, &scratch);
			}
		for (uint64_t i = 0; i < p->repeat && !run->b.status; i++)
			for (size_t k = 0; k < ncols(p) && !run->b.status; k++) {
				if (row[k].skip)
					continue;
				progress(run, &row[k], "repetition", i + 1, p->repeat);
				if (run_one(run, &row[k], run->b.loops, &row[k].reps[i]) == 0)
					row[k].nreps = i + 1;
			}
	}
	if (p->precision > 0)
		refine(run, start);
	pb_progress_end(&run->b.pg);
	for (size_t i = 0; i < run->ncells; i++)
		if (run->cells[i].nreps && summarize(&run->cells[i]))
			set_error(&run->b, PB_EXIT_ERROR, "statistics: out of memory");
	pb_stab_machine_now(&m);
	for (size_t i = 0; i < run->ncells; i++) {
		struct tp_cell *c = &run->cells[i];

		if (c->nreps)
			c->stab = pb_stab_judge(&c->tt, NULL, &m, c->stab_why, sizeof(c->stab_why));
	}
}

static double rate(double count, double ns)
{
	return ns > 0 ? count * 1e9 / ns : 0;
}

/* Per-repetition rates, the same in JSON and CSV. */
static double rep_rate(const struct pb_engine_result *e)
{
	return rate((double)e->bytes_written, (double)(e->tw_ns + e->tr_ns));
}

static double rep_ns_per_syscall(const struct pb_engine_result *e)
{
	return (double)(e->tw_ns + e->tr_ns) / (double)(e->write_calls + e->read_calls);
}

/*
 * Cost of C relative to F (the first kind of its row, or rw of its kind):
 * median time per byte moved.  Kinds can move different amounts per loop
 * (a socketpair's buffer is not a pipe's), so a plain TT ratio would
 * mislead; with equal bytes the two are the same.  NAN (JSON null, not
 * shown) when undefined: F is NULL or C itself, either has no repetition
 * or moved no byte, or F's time is zero.
 */
static double cost_ratio(const struct tp_cell *c, const struct tp_cell *f)
{
	if (!f || f == c || !c->nreps || !f->nreps || c->bytes <= 0 || f->bytes <= 0 ||
	    f->tt.median <= 0)
		return NAN;
	return (c->tt.median / c->bytes) / (f->tt.median / f->bytes);
}

static const struct tp_cell *first_of_row(const struct tp_run *run, const struct tp_cell *c)
{
	size_t idx = (size_t)(c - run->cells);

	return &run->cells[idx - idx % run->p->nkinds];
}

/* The rw cell of C's kind and size, or NULL when rw is not measured or C is
 * rw itself (the modes are in enum order, so rw comes first). */
static const struct tp_cell *rw_of(const struct tp_run *run, const struct tp_cell *c)
{
	size_t idx = (size_t)(c - run->cells), n = ncols(run->p);

	if (c->mode == PB_MODE_RW || run->p->modes[0] != PB_MODE_RW)
		return NULL;
	return &run->cells[idx - idx % n + idx % run->p->nkinds];
}

/* Only a run with a zero-copy mode shows the mode column: rw alone prints
 * the seed's table. */
static bool show_modes(const struct tp_params *p)
{
	return p->nmodes > 1 || p->modes[0] != PB_MODE_RW;
}

/* How each mode moves its bytes, for the text and the JSON. */
static const char *mode_description(enum pb_mode m)
{
	switch (m) {
	case PB_MODE_VMSPLICE:
		return "writer vmsplice(2)s user pages into the pipe, reader read(2)s";
	case PB_MODE_SPLICE:
		return "writer splice(2)s from a memfd into the pipe, reader splice(2)s from the "
		       "pipe into the memfd past the source (not /dev/null: its bytes are "
		       "checked)";
	case PB_MODE_TEE:
		return "writer write(2)s, tee(2) duplicates the pipe into a second pipe, reader "
		       "read(2)s both";
	case PB_MODE_IO_URING:
		return "each write and read an io_uring submission (IORING_OP_WRITE, "
		       "IORING_OP_READ) and its completion";
	default:
		return "write(2) and read(2), the 2025 mail's loop";
	}
}

static void describe_flags(unsigned flags, char *buf, size_t len)
{
	size_t off = 0;

	snprintf(buf, len, "none");
	for (int i = 0; pb_flag_names[i]; i++)
		if (flags & (1u << i))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "",
						pb_flag_names[i]);
}

static void placement(const struct tp_run *run, const struct pb_sysinfo *si, char *buf,
		      size_t len)
{
	if (run->p->pinned)
		snprintf(buf, len, "pinned to CPU %s; ran on CPU %d at start, %d at end",
			 run->p->cpu_list, run->cpu_start, run->cpu_end);
	else
		snprintf(buf, len, "not pinned (allowed CPUs %s); ran on CPU %d at start, %d at end",
			 si->allowed_list, run->cpu_start, run->cpu_end);
}

/* --mode io_uring: the probe's findings on KIND, in its row. */
static void uring_json(struct json_object *o, const struct tp_run *run, enum pb_kind kind)
{
	pb_uring_probe_fields(o, &run->uring[kind], run->uring_probed[kind]);
}

/* --mode io_uring in text: the path of each kind's reads. */
static void uring_text(const struct tp_run *run, FILE *fp)
{
	pb_uring_probe_text(fp, run->uring, run->uring_probed, run->p->kinds, run->p->nkinds);
}

/* The kind column: "anon", or "anon x4" for a row of 4 copies. */
static const char *kind_label(const struct tp_cell *c, char *buf, size_t len)
{
	if (!c->copies)
		return pb_kind_names[c->kind];
	snprintf(buf, len, "%s x%u", pb_kind_names[c->kind], c->copies);
	return buf;
}

/* --copies: the row of C's kind, mode and size with the fewest copies,
 * the reference of its scaling. */
static const struct tp_cell *scale_ref(const struct tp_run *run, const struct tp_cell *c)
{
	size_t idx = (size_t)(c - run->cells);

	return &run->cells[idx % (run->p->nsizes * ncols(run->p))];
}

/* --copies: C's rate (every copy's bytes over the slowest copy's TT) per
 * copy, over the reference row's per copy: 1 is linear scaling; NAN when
 * either was not measured. */
static double efficiency(const struct tp_run *run, const struct tp_cell *c)
{
	const struct tp_cell *r = scale_ref(run, c);
	double a, b;

	if (!c->copies || !c->nreps || c->skip)
		return NAN;
	a = rate(c->bytes, c->tt.median) / c->copies;
	/* a reference not measured (skipped, no repetition) has no rate: 0 */
	b = rate(r->bytes, r->tt.median) / r->copies;
	return b > 0 ? a / b : NAN;
}

/* --copies in text: a line per kind, mode and size, each count's rate,
 * its rate a copy and its efficiency. */
static void scaling_text(const struct tp_run *run, FILE *fp)
{
	const struct tp_params *p = run->p;
	size_t per = p->nsizes * ncols(p);

	fprintf(fp, "\nscaling     MB/s of every copy's bytes over the slowest copy's TT; a copy's "
		"share; against linear scaling from %u %s\n", p->copies[0],
		pb_plural(p->copies[0], "copy", "copies"));
	for (size_t i = 0; i < per; i++) {
		char sz[32];

		if (run->cells[i].skip)
			continue;
		pb_format_size(run->cells[i].size, sz, sizeof(sz));
		fprintf(fp, "  %s%s%s %s:", pb_kind_names[run->cells[i].kind],
			show_modes(p) ? " " : "", show_modes(p) ? pb_mode_words[run->cells[i].mode] : "",
			sz);
		for (size_t k = 0; k < p->ncopies; k++) {
			const struct tp_cell *c = &run->cells[k * per + i];
			double r = rate(c->bytes, c->tt.median) / 1e6;

			if (c->nreps)
				pb_copies_scaling_item(fp, k == 0, c->copies, r, efficiency(run, c), 1);
		}
		fputc('\n', fp);
	}
}

/* --precision in text: reached, or how close it came and where. */
static void precision_text(const struct tp_run *run, FILE *fp)
{
	const struct tp_cell *worst = NULL;
	size_t most = 0;
	char sz[32], where[64];

	for (size_t i = 0; i < run->ncells; i++) {
		const struct tp_cell *c = &run->cells[i];

		if (c->skip || !c->nreps)
			continue;
		most = c->nreps > most ? c->nreps : most;
		/* too few repetitions for an interval (NAN) is the worst */
		if (!worst || pb_stats_precision_worse(c->precision, worst->precision))
			worst = c;
	}
	if (!worst)
		return;
	pb_format_size(worst->size, sz, sizeof(sz));
	snprintf(where, sizeof(where), "%s %s", pb_kind_names[worst->kind], sz);
	pb_precision_text(fp, run->p->precision, run->precision_reached, worst->precision,
			  run->precision_reached ? most : worst->nreps,
			  pb_precision_budget(run->p->precision_budget_ns, run->p->duration_ns),
			  "every row's median TT", where);
}

/* The counters of C's measured repetitions, summed, and their system calls
 * and bytes. */
static void ctr_totals(const struct tp_cell *c, struct pb_ctr_values *ctr, double *sys,
		       double *bytes)
{
	memset(ctr, 0, sizeof(*ctr));
	for (size_t r = 0; r < c->nreps; r++)
		pb_ctr_add(ctr, &c->reps[r].ctr, r == 0);
	pb_bench_reps_ops(c->reps, c->nreps, sys, bytes);
}

/* The counters per system call of each measured row (not --copies: the
 * copies count in their own processes). */
static void counters_text(const struct tp_run *run, FILE *fp)
{
	bool any = false;

	for (size_t i = 0; i < run->ncells; i++) {
		const struct tp_cell *c = &run->cells[i];
		struct pb_ctr_values v;
		double sys, bytes, cpu;
		char sz[32], kl[32];

		if (!c->nreps || c->copies)
			continue;
		ctr_totals(c, &v, &sys, &bytes);
		if (!sys)   /* (every repetition has getrusage's CPU times) */
			continue;
		if (!any)
			fprintf(fp, "\ncounters    per syscall (CPU time: task-clock, user/system from "
				"getrusage); %s\n", run->ctrs.hw ? "cycles and instructions "
				"counted" : run->ctrs.hw_why);
		any = true;
		pb_format_size(c->size, sz, sizeof(sz));
		cpu = v.v[PB_CTR_USER_NS] + v.v[PB_CTR_SYS_NS];
		fprintf(fp, "  %s%s%s %s:", kind_label(c, kl, sizeof(kl)),
			show_modes(run->p) ? " " : "", show_modes(run->p) ? pb_mode_words[c->mode] : "",
			sz);
		if (v.have[PB_CTR_TASK_CLOCK])
			fprintf(fp, " %.1f ns CPU", v.v[PB_CTR_TASK_CLOCK] / sys);
		if (cpu > 0)
			fprintf(fp, " (user %.0f%%, system %.0f%%)", 100 * v.v[PB_CTR_USER_NS] / cpu,
				100 * v.v[PB_CTR_SYS_NS] / cpu);
		fprintf(fp, ", %.2g context switches, %.2g page faults", v.v[PB_CTR_CTXSW] / sys,
			v.v[PB_CTR_FAULTS] / sys);
		if (v.have[PB_CTR_MIGRATIONS])
			fprintf(fp, ", %.2g migrations", v.v[PB_CTR_MIGRATIONS] / sys);
		if (v.have[PB_CTR_CYCLES] && v.have[PB_CTR_INSTRUCTIONS])
			fprintf(fp, ", %.0f cycles, %.0f instructions (IPC %.2f)",
				v.v[PB_CTR_CYCLES] / sys, v.v[PB_CTR_INSTRUCTIONS] / sys,
				pb_ctr_ipc(&v));
		fputc('\n', fp);
	}
}

/* --profile in text: each measured row's categories and top functions. */
static void profile_text(const struct tp_run *run, FILE *fp)
{
	bool any = false;

	for (size_t i = 0; run->prof.ok && i < run->ncells; i++) {
		const struct tp_cell *c = &run->cells[i];
		char sz[32], kl[32];
		double sys, bytes;

		if (!c->nreps || !c->prof_sum)
			continue;
		if (!any)
			fprintf(fp, "\nprofile     share of the sampled time, and per syscall:\n");
		any = true;
		pb_format_size(c->size, sz, sizeof(sz));
		pb_bench_reps_ops(c->reps, c->nreps, &sys, &bytes);
		fprintf(fp, "  %s%s%s %s\n", kind_label(c, kl, sizeof(kl)),
			show_modes(run->p) ? " " : "", show_modes(run->p) ? pb_mode_words[c->mode] : "",
			sz);
		pb_prof_text(fp, "    ", c->prof_sum, run->prof.period_ns, sys, "syscall");
	}
}

static void emit_text(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct tp_run *run = r_;
	const struct tp_params *p = run->p;
	char b1[64], b2[64], fl[64], place[384];
	struct pb_stab_text st;
	size_t reps = 0;

	if (run->b.status && !run->ncells && !p->contention)
		return;           /* nothing measured: the error says why */
	placement(run, si, place, sizeof(place));
	describe_flags(p->flags, fl, sizeof(fl));
	fprintf(fp, "kernel      Linux %s %s, %ld CPUs online, load average %.2f\n",
		si->kernel_release, si->machine, si->cpus_online, si->loadavg_1m);
	pb_text_machine(fp, "machine     ");
	fprintf(fp, "placement   %s\n", place);
	pb_format_size((uint64_t)si->page_size, b1, sizeof(b1));
	fprintf(fp, "pages       %s; PIPE_BUF %ld B; pipe-max-size %ld B\n", b1, si->pipe_buf,
		si->pipe_max_size);
	if (p->contention) {
		fprintf(fp, "settings    flags %s", fl);
		if (p->pipe_size)
			fprintf(fp, ", --pipe-size %llu", (unsigned long long)p->pipe_size);
		if (has_kind(p, PB_KIND_FIFO))
			fprintf(fp, ", FIFOs in %s", p->dir);
		fputc('\n', fp);
		pb_tp_mw_text(&run->mw, fp);
		return;
	}
	fprintf(fp, "pipe size  ");
	for (size_t k = 0; k < p->nkinds && run->ncells; k++) {
		const struct tp_cell *c = &run->cells[k];

		if (c->pipe_size > 0)
			pb_format_size((uint64_t)c->pipe_size, b2, sizeof(b2));
		else
			snprintf(b2, sizeof(b2), "n/a");
		fprintf(fp, " %s %s%s", pb_kind_names[c->kind], b2, k + 1 < p->nkinds ? ";" : "");
	}
	fprintf(fp, "\nsettings    %llu loops, %llu %s (+%llu warmup), flags %s%s",
		(unsigned long long)run->b.loops, (unsigned long long)p->repeat,
		pb_plural(p->repeat, "repetition", "repetitions"),
		(unsigned long long)p->warmup, fl,
		p->flags && has_kind(p, PB_KIND_SOCKETPAIR) ? " (not applied to socketpair)" : "");
	if (has_kind(p, PB_KIND_FIFO))
		fprintf(fp, ", FIFOs in %s", p->dir);
	for (size_t i = 0; i < p->nsizes && run->ncells; i++)
		if (run->cells[0].pipe_size > 0 && p->sizes[i] > (uint64_t)run->cells[0].pipe_size) {
			pb_format_size(p->sizes[i], b1, sizeof(b1));
			pb_format_size((uint64_t)run->cells[0].pipe_size, b2, sizeof(b2));
			fprintf(fp, "\nnote        --size %s is larger than the %s pipe buffer: "
				"every write is partial", b1, b2);
			break;
		}
	for (size_t m = 0; m < p->nmodes && show_modes(p); m++)
		fprintf(fp, "\n%-11s %s: %s", m ? "" : "modes", pb_mode_words[p->modes[m]],
			mode_description(p->modes[m]));
	uring_text(run, fp);
	pb_prof_run_text(&run->prof, fp);
	if (show_modes(p))
		fprintf(fp, "\nverify      %s%s", pb_verify_words[p->verify],
			p->verify == PB_VERIFY_SAMPLE ? " (the bytes of loop 0, every 16th loop and "
			"the last; rw is not checked)" : p->verify == PB_VERIFY_ALL ?
			" (the bytes of every loop; rw is not checked)" : "");
	fputc('\n', fp);
	pb_budget_text(&run->b.budget, fp, 11);
	fprintf(fp, "\n%-10s %s%8s %8s %8s %8s %17s %7s %12s %11s %9s %8s %7s %s\n", "kind",
		show_modes(p) ? "mode     " : "", "size", "TW s", "TR s", "TT s", "TT min-max s", "spread", "bytes", "syscalls", "MB/s",
		"Msys/s", "ns/sys", show_modes(p) ? "time/byte vs first, vs rw" : "time/byte vs first");
	for (size_t i = 0; i < run->ncells; i++) {
		const struct tp_cell *c = &run->cells[i], *f = first_of_row(run, c);
		const struct tp_cell *rw = rw_of(run, c);
		char range[40], ratio[96] = "", kl[32];
		double q_first, q_rw;
		size_t off = 0;

		char md[16] = "";

		pb_format_size(c->size, b1, sizeof(b1));
		if (show_modes(p))
			snprintf(md, sizeof(md), "%-8s ", pb_mode_words[c->mode]);
		if (c->skip) {
			fprintf(fp, "%-10s %s%8s skip: %s\n", kind_label(c, kl, sizeof(kl)), md, b1,
				c->skip);
			continue;
		}
		if (!c->nreps)
			continue;
		snprintf(range, sizeof(range), "%.3f-%.3f", c->tt.min / 1e9, c->tt.max / 1e9);
		q_first = cost_ratio(c, f);
		q_rw = cost_ratio(c, rw);
		if (isfinite(q_first))
			off += (size_t)snprintf(ratio, sizeof(ratio), "%s/%s %.2fx",
						pb_kind_names[c->kind], pb_kind_names[f->kind],
						q_first);
		if (isfinite(q_rw))
			snprintf(ratio + off, sizeof(ratio) - off, "%s%s/rw %.2fx", off ? ", " : "",
				 pb_mode_words[c->mode], q_rw);
		fprintf(fp, "%-10s %s%8s %8.3f %8.3f %8.3f %17s %6.1f%% %12.0f %11.0f %9.1f %8.3f %7.1f%s%s\n",
			kind_label(c, kl, sizeof(kl)), md, b1, c->tw.median / 1e9, c->tr.median / 1e9,
			c->tt.median / 1e9, range, c->tt.spread * 100, c->bytes, c->syscalls,
			rate(c->bytes, c->tt.median) / 1e6, rate(c->syscalls, c->tt.median) / 1e6,
			c->syscalls > 0 ? c->tt.median / c->syscalls : 0, ratio[0] ? " " : "", ratio);
	}
	for (size_t i = 0; i < run->ncells; i++)
		reps = run->cells[i].nreps > reps ? run->cells[i].nreps : reps;
	fprintf(fp, "\nmedians of %s%zu %s; spread = (max-min)/median of TT; MB = 10^6 bytes; "
		"time/byte vs first = (TT/bytes) / (TT/bytes of the row's first kind)%s\n",
		reps > p->repeat ? "up to " : "", reps > p->repeat ? reps : (size_t)p->repeat,
		pb_plural(reps > p->repeat ? reps : p->repeat, "repetition", "repetitions"),
		show_modes(p) ? "; vs rw: the same against the rw loop of the kind and size" : "");
	if (p->ncopies)
		scaling_text(run, fp);
	counters_text(run, fp);
	profile_text(run, fp);
	pb_stab_text_begin(&st, fp, 11);
	for (size_t i = 0; i < run->ncells; i++) {
		const struct tp_cell *c = &run->cells[i];
		char label[128], kl[32];

		if (c->skip || !c->nreps)
			continue;
		pb_format_size(c->size, b1, sizeof(b1));
		snprintf(label, sizeof(label), "%s%s%s %s", kind_label(c, kl, sizeof(kl)),
			 show_modes(p) ? " " : "", show_modes(p) ? pb_mode_words[c->mode] : "", b1);
		pb_stab_text_row(&st, label, c->stab, c->stab_why);
	}
	pb_stab_text_end(&st);
	if (p->precision > 0)
		precision_text(run, fp);
}

static void emit_seed(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct tp_run *run = r_;

	(void)si;
	for (size_t i = 0; i < run->ncells; i++) {
		char sz[32];

		/* One kind and size: exactly the mail's lines.  Several: a comment
		 * line names each block. */
		pb_format_size(run->cells[i].size, sz, sizeof(sz));
		if (run->cells[i].skip)
			continue;
		if (run->ncells > 1)
			fprintf(fp, "# %s %s%s%s\n", pb_kind_names[run->cells[i].kind], sz,
				run->cells[i].mode == PB_MODE_RW ? "" : " ",
				run->cells[i].mode == PB_MODE_RW ? "" :
				pb_mode_words[run->cells[i].mode]);
		for (size_t r = 0; r < run->cells[i].nreps; r++) {
			const struct pb_engine_result *e = &run->cells[i].reps[r];
			uint64_t tt = e->tw_ns + e->tr_ns;

			/* The mail's format: seconds with milliseconds. */
			fprintf(fp, "TW = %llu.%03llu TR = %llu.%03llu TT = %llu.%03llu\n",
				(unsigned long long)(e->tw_ns / 1000000000ULL),
				(unsigned long long)(e->tw_ns / 1000000ULL % 1000),
				(unsigned long long)(e->tr_ns / 1000000000ULL),
				(unsigned long long)(e->tr_ns / 1000000ULL % 1000),
				(unsigned long long)(tt / 1000000000ULL),
				(unsigned long long)(tt / 1000000ULL % 1000));
		}
	}
}

/* A result's identity: its JSON object's first fields, the CSV's first columns. */
static void cell_fields(struct pb_row *r, const struct tp_cell *c)
{
	pb_row_str(r, "kind", pb_kind_names[c->kind]);
	pb_row_str(r, "mode", pb_mode_words[c->mode]);
	pb_row_int(r, "size_bytes", (int64_t)c->size);
	if (c->copies)
		pb_row_int(r, "copies", c->copies);
	pb_row_int_or_null(r, "pipe_size_bytes", c->pipe_size > 0, c->pipe_size);
}

/* A repetition's fields: an entry of JSON's repetitions, a CSV row's columns
 * after the identity and the repetition's number. */
static void rep_fields(struct pb_row *r, const struct pb_engine_result *e)
{
	pb_row_int(r, "tw_ns", (int64_t)e->tw_ns);
	pb_row_int(r, "tr_ns", (int64_t)e->tr_ns);
	pb_row_int(r, "tt_ns", (int64_t)(e->tw_ns + e->tr_ns));
	pb_row_int(r, "bytes", (int64_t)e->bytes_written);
	pb_row_int(r, "write_calls", (int64_t)e->write_calls);
	pb_row_int(r, "read_calls", (int64_t)e->read_calls);
	pb_row_int(r, "syscalls", (int64_t)(e->write_calls + e->read_calls));
	/* Per-repetition rates, so compare can judge cost per byte even
	 * when two runs moved different amounts. */
	pb_row_double(r, "rate_bytes_per_s", rep_rate(e));
	pb_row_double(r, "ns_per_syscall", rep_ns_per_syscall(e));
	pb_row_int(r, "verified_loops", (int64_t)e->verified_loops);
	/* the loop's counters (null where not counted) */
	for (int k = 0; k < PB_CTR_COUNT; k++)
		pb_row_int_or_null(r, pb_ctr_names[k], e->ctr.have[k], (int64_t)e->ctr.v[k]);
}

/* One CSV row (or, for HEAD, the header) per repetition. */
static void csv_row(struct pb_row r, const struct tp_cell *c, size_t rep,
		    const struct pb_engine_result *e, bool profile)
{
	cell_fields(&r, c);
	pb_row_int(&r, "repetition", (int64_t)rep + 1);
	rep_fields(&r, e);
	pb_stab_fields(&r, c->stab, c->stab_why);
	if (profile)
		pb_prof_row_fields(&r, c->prof_sum);
	pb_row_end(&r);
}

/* The JSON's per-repetition fields, one row each, with the result's identity. */
static void emit_csv(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct tp_run *run = r_;
	struct tp_cell no_cell = { .copies = run->p->ncopies ? 1 : 0 };  /* the header's columns */
	static const struct pb_engine_result no_rep;
	struct pb_csv csv;

	pb_csv_begin(&csv, fp, si);
	if (run->p->contention) {
		pb_tp_mw_csv(&run->mw, &csv);
		return;
	}
	csv_row(pb_row_csv_header(&csv), &no_cell, 0, &no_rep, run->prof.ok);
	for (size_t i = 0; i < run->ncells; i++) {
		const struct tp_cell *c = &run->cells[i];

		for (size_t r = 0; r < c->nreps; r++)
			csv_row(pb_row_csv(&csv), c, r, &c->reps[r], run->prof.ok);
	}
}

static struct json_object *params_json(const struct tp_run *run)
{
	const struct tp_params *p = run->p;
	struct json_object *o = json_object_new_object();
	char fl[64];

	json_object_object_add(o, "kinds", PB_JSON_WORDS(pb_kind_names, p->kinds, p->nkinds));
	json_object_object_add(o, "modes", PB_JSON_WORDS(pb_mode_words, p->modes, p->nmodes));
	pb_json_add_str(o, "verify", pb_verify_words[p->verify]);
	json_object_object_add(o, "sizes_bytes", pb_json_u64_array(p->sizes, p->nsizes));
	json_object_object_add(o, "loops", pb_bench_loops_json(run->b.loops));
	json_object_object_add(o, "duration_ns", pb_budget_duration_json(&run->b.budget));
	pb_json_add_int(o, "repeat", (int64_t)p->repeat);
	pb_json_add_int(o, "warmup", (int64_t)p->warmup);
	json_object_object_add(o, "pipe_size_bytes",
			       p->pipe_size ? json_object_new_int64((int64_t)p->pipe_size) : NULL);
	describe_flags(p->flags, fl, sizeof(fl));
	pb_json_add_str(o, "flags", fl);
	pb_json_add_str(o, "dir", p->dir);
	pb_json_add_str(o, "cpus", p->pinned ? p->cpu_list : NULL);
	pb_json_add_int(o, "timeout_ns", (int64_t)p->timeout_ns);
	json_object_object_add(o, "precision_pct", p->precision > 0 ?
			       json_object_new_double(p->precision) : NULL);
	pb_json_add_int(o, "precision_budget_ns", (int64_t)p->precision_budget_ns);
	json_object_object_add(o, "copies", p->ncopies ? json_object_new_array() : NULL);
	for (size_t i = 0; i < p->ncopies; i++)
		json_object_array_add(json_object_object_get(o, "copies"),
				       json_object_new_int64(p->copies[i]));
	/* many writers and readers on one pipe: null without them */
	json_object_object_add(o, "writers", p->contention ?
			       json_object_new_int64((int64_t)p->mw.writers) : NULL);
	json_object_object_add(o, "readers", p->contention ?
			       json_object_new_int64((int64_t)p->mw.readers) : NULL);
	if (p->contention) {
		struct json_object *w = json_object_new_array();

		for (int i = 0; i < PB_MW_WAIT_COUNT; i++)
			if ((p->wait_words >> i) & 1)
				json_object_array_add(w, json_object_new_string(pb_mw_wait_words[i]));
		json_object_object_add(o, "waits", w);
	} else {
		json_object_object_add(o, "waits", NULL);
	}
	return o;
}

/* --copies: repetition R's copies, each one's rate and where it ran. */
static void copies_json(struct json_object *x, const struct tp_cell *c, size_t r)
{
	pb_copies_rep_json(x, &c->copy_rate[r * c->copies], &c->copy_place[r * c->copies],
			   c->copies, "copy_rates_bytes_per_s");
}

static struct json_object *prof_json(const struct tp_run *run, const struct tp_cell *c)
{
	double sys, bytes;

	if (!run->prof.ok)
		return NULL;
	pb_bench_reps_ops(c->reps, c->nreps, &sys, &bytes);
	return pb_prof_json(c->prof_sum, run->prof.period_ns, sys, "syscall", bytes);
}

static struct json_object *cell_json(const struct tp_run *run, const struct tp_cell *c)
{
	struct json_object *o = json_object_new_object(), *reps = json_object_new_array(), *sum;
	const struct tp_cell *f = first_of_row(run, c), *rw = rw_of(run, c);
	double q_first;
	struct pb_row row = pb_row_json(o);

	cell_fields(&row, c);
	if (c->skip) {
		/* No repetitions: compare judges the status. */
		json_object_put(reps);
		pb_json_add_str(o, "status", "skip");
		pb_json_add_str(o, "reason", c->skip);
		return o;
	}
	pb_json_add_str(o, "status", "ok");
	pb_json_add_str(o, "mode_description", mode_description(c->mode));
	if (c->mode == PB_MODE_IO_URING)
		uring_json(o, run, c->kind);
	pb_stab_fields(&row, c->stab, c->stab_why);
	if (run->p->precision > 0)
		json_object_object_add(o, "precision", pb_precision_json(run->p->precision,
									 c->precision));
	for (size_t r = 0; r < c->nreps; r++) {
		struct json_object *x = json_object_new_object();
		struct pb_row xr = pb_row_json(x);

		rep_fields(&xr, &c->reps[r]);
		if (c->copies)
			copies_json(x, c, r);
		json_object_array_add(reps, x);
	}
	sum = pb_bench_json_reps(o, reps, c->nreps);
	if (!sum)
		return o;
	json_object_object_add(sum, "tw_ns", pb_json_stats(&c->tw, true));
	json_object_object_add(sum, "tr_ns", pb_json_stats(&c->tr, true));
	json_object_object_add(sum, "tt_ns", pb_json_stats(&c->tt, true));
	pb_json_add_int(sum, "bytes", (int64_t)c->bytes);
	pb_json_add_int(sum, "syscalls", (int64_t)c->syscalls);
	pb_json_add_double(sum, "rate_bytes_per_s", rate(c->bytes, c->tt.median));
	pb_json_add_double(sum, "rate_syscalls_per_s", rate(c->syscalls, c->tt.median));
	pb_json_add_double(sum, "ns_per_syscall",
			   c->syscalls > 0 ? c->tt.median / c->syscalls : 0);
	q_first = cost_ratio(c, f);
	pb_json_add_double(o, "cost_ratio_to_first", q_first);
	if (isfinite(q_first)) {
		char label[48];

		snprintf(label, sizeof(label), "%s/%s", pb_kind_names[c->kind],
			 pb_kind_names[f->kind]);
		pb_json_add_str(o, "ratio_label", label);
	}
	if (c->mode != PB_MODE_RW)
		pb_json_add_double(o, "cost_ratio_to_rw", cost_ratio(c, rw));
	if (c->prof_sum)
		json_object_object_add(o, "profile", prof_json(run, c));
	if (c->nreps && !c->copies) {
		struct pb_ctr_values ctr;
		double sys, bytes, ipc;

		ctr_totals(c, &ctr, &sys, &bytes);
		json_object_object_add(sum, "counters_per_syscall", pb_ctr_per_json(&ctr, sys));
		json_object_object_add(sum, "counters_per_byte", pb_ctr_per_json(&ctr, bytes));
		ipc = pb_ctr_ipc(&ctr);
		json_object_object_add(sum, "ipc", isfinite(ipc) ? json_object_new_double(ipc)
							      : NULL);
	}
	if (c->copies) {
		pb_json_add_double(sum, "rate_per_copy_bytes_per_s",
				   rate(c->bytes, c->tt.median) / c->copies);
		pb_json_add_double(o, "efficiency", efficiency(run, c));
		pb_json_add_int(o, "scaling_reference_copies", scale_ref(run, c)->copies);
	}
	return o;
}

static void emit_json(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct tp_run *run = r_;
	struct json_object *doc = pb_doc_new(NAME, si), *res = json_object_new_array();
	struct json_object *pl = json_object_new_object(), *sum = json_object_new_object();

	json_object_object_add(doc, "params", params_json(run));
	json_object_object_add(doc, "budget", pb_budget_json(&run->b.budget));
	json_object_object_add(pl, "pinned", json_object_new_boolean(run->p->pinned));
	pb_json_add_str(pl, "cpus", run->p->pinned ? run->p->cpu_list : si->allowed_list);
	pb_json_add_int(pl, "cpu_at_start", run->cpu_start);
	pb_json_add_int(pl, "cpu_at_end", run->cpu_end);
	json_object_object_add(doc, "placement", pl);
	json_object_object_add(doc, "profile", pb_prof_run_json(&run->prof));
	if (!run->p->contention) {
		struct json_object *ct = json_object_new_object();

		json_object_object_add(ct, "hardware", json_object_new_boolean(run->ctrs.hw));
		pb_json_add_str(ct, "hardware_reason", run->ctrs.hw ? NULL : run->ctrs.hw_why);
		json_object_object_add(doc, "counters", ct);
	}
	for (size_t i = 0; i < run->ncells; i++)
		json_object_array_add(res, cell_json(run, &run->cells[i]));
	if (run->p->contention) {
		json_object_put(res);
		res = pb_tp_mw_results_json(&run->mw);
		pb_json_add_int(sum, "integrity_failures", run->mw.failed);
	}
	json_object_object_add(doc, "results", res);
	pb_json_add_int(sum, "results", (int64_t)(run->p->contention ? run->mw.ncells : run->ncells));
	if (run->p->precision > 0) {
		json_object_object_add(sum, "precision_reached",
				       json_object_new_boolean(run->precision_reached));
		pb_json_add_int(sum, "precision_extra_ns", (int64_t)run->precision_ns);
	}
	pb_doc_finish(doc, sum, run->b.error, run->b.status, fp);
}

static int setup(struct tp_run *run)
{
	const struct tp_params *p = run->p;
	uint64_t maxsize = 0;
	size_t ncells = nrows(p) * ncols(p);

	/* rows: each --copies count (outermost), then each size */
	run->cells = calloc(ncells, sizeof(*run->cells));
	if (!run->cells)
		return -ENOMEM;   /* no cells: the document has no rows */
	run->ncells = ncells;
	for (size_t row = 0; row < nrows(p); row++) {
		size_t s = row % p->nsizes;

		if (p->sizes[s] > maxsize)
			maxsize = p->sizes[s];
		for (size_t k = 0; k < ncols(p); k++) {
			struct tp_cell *c = &run->cells[row * ncols(p) + k];

			c->kind = p->kinds[k % p->nkinds];
			c->mode = p->modes[k / p->nkinds];
			c->skip = pb_zc_unsupported(c->mode, c->kind);
			c->size = p->sizes[s];
			c->reps = calloc(p->repeat, sizeof(*c->reps));
			if (!c->reps)
				return -ENOMEM;
			c->cap = p->repeat;
			if (p->profile && (!(c->prof = calloc(1, sizeof(*c->prof))) ||
					   !(c->prof_sum = calloc(1, sizeof(*c->prof_sum)))))
				return -ENOMEM;
			if (!p->ncopies)
				continue;
			c->copies = p->copies[row / p->nsizes];
			c->copy_rate = calloc(p->repeat * c->copies, sizeof(*c->copy_rate));
			c->copy_place = calloc(p->repeat * c->copies, sizeof(*c->copy_place));
			if (!c->copy_rate || !c->copy_place)
				return -ENOMEM;
		}
	}
	/* Page-aligned: a misaligned buffer makes the kernel's copies measurably
	 * slower (about 20% at 4 KiB) and would measure the allocator, not pipes. */
	if (posix_memalign(&run->buf, (size_t)sysconf(_SC_PAGESIZE), maxsize))
		return -ENOMEM;
	memset(run->buf, 'p', maxsize);
	run->maxsize = maxsize;
	return 0;
}

/* The zero-copy modes' buffers; exit 4 when no cell can run. */
static int setup_modes(struct tp_run *run)
{
	const struct tp_params *p = run->p;
	const char *why = NULL;
	size_t ok = 0;

	for (size_t m = 0; m < p->nmodes; m++) {
		const char *what;
		int r;

		if (p->modes[m] == PB_MODE_RW)
			continue;
		r = pb_zc_open(&run->zc[p->modes[m]], p->modes[m], (enum pb_verify)p->verify,
			       (size_t)run->maxsize, &what);
		if (r && p->modes[m] == PB_MODE_IO_URING) {
			/* disabled or absent: the mode's rows are skipped, saying why */
			snprintf(run->uring_skip, sizeof(run->uring_skip), "io_uring unavailable: "
				 "%s: %s", what, pb_uring_why(-r));
			for (size_t i = 0; i < run->ncells; i++)
				if (run->cells[i].mode == PB_MODE_IO_URING)
					run->cells[i].skip = run->uring_skip;
			continue;
		}
		if (r) {
			set_error(&run->b, PB_EXIT_ERROR, "--mode %s: %s: %s",
				  pb_mode_words[p->modes[m]], what, strerror(-r));
			return r;
		}
	}
	for (size_t i = 0; i < run->ncells; i++) {
		if (!run->cells[i].skip)
			ok++;
		else
			why = run->cells[i].skip;
	}
	if (!ok) {
		set_error(&run->b, PB_EXIT_NA, "nothing applies: %s", why);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Open each kind once to learn its buffer size (and refuse what cannot run). */
static int probe_kinds(struct tp_run *run)
{
	for (size_t k = 0; k < run->p->nkinds; k++) {
		struct tp_cell *c = &run->cells[k];
		struct pb_endpoint_opts eo = {
			.nonblock = true,
			.flags = c->kind == PB_KIND_SOCKETPAIR ? 0 : run->p->flags,
			.pipe_size = (long)run->p->pipe_size,
			.dir = run->tmpdir,
		};
		struct pb_endpoint ep;
		const char *what;
		int r = pb_endpoint_open(&ep, c->kind, &eo, &what);

		if (r) {
			if (r == -EINVAL && c->kind == PB_KIND_ANON && (run->p->flags & PB_FLAG_NOATIME))
				set_error(&run->b, PB_EXIT_NA,
					  "pipe2(O_NOATIME) is not supported by this kernel "
					  "(EINVAL); nothing to measure");
			else if (r == -EPERM && run->p->pipe_size &&
				 !pb_sysinfo_has_cap(PB_CAP_SYS_RESOURCE))
				set_error(&run->b, PB_EXIT_ERROR,
					  "%s: --pipe-size %llu: not permitted (above "
					  "pipe-max-size without CAP_SYS_RESOURCE, or over the "
					  "per-user limit)", pb_kind_names[c->kind],
					  (unsigned long long)run->p->pipe_size);
			else
				set_error(&run->b, PB_EXIT_ERROR, "%s: %s: %s", pb_kind_names[c->kind],
					  what, strerror(-r));
			return r;
		}
		for (size_t s = 0; s < run->p->nsizes; s++)
			for (size_t m = 0; m < run->p->nmodes; m++)
				run->cells[s * ncols(run->p) + m * run->p->nkinds + k].pipe_size =
					ep.pipe_size;
		pb_endpoint_close(&ep);
	}
	return 0;
}

static void teardown(struct tp_run *run)
{
	for (size_t i = 0; run->cells && i < run->ncells; i++) {
		free(run->cells[i].reps);
		free(run->cells[i].copy_rate);
		free(run->cells[i].copy_place);
		free(run->cells[i].prof);
		free(run->cells[i].prof_sum);
	}
	pb_prof_run_end(&run->prof);
	pb_copies_dirs_free(run->copy_dir, run->ncopy_dirs);
	free(run->cells);
	free(run->buf);
	for (int m = 0; m < PB_MODE_COUNT; m++)
		if (run->zc[m].src)
			pb_zc_close(&run->zc[m]);
	if (run->tmpdir[0])
		pb_tmpdir_remove(run->tmpdir);
}

/* --mode io_uring: how this kernel completes a pipe's io_uring reads, on
 * each pipe kind measured (a process of its own each, a few 100 ms). */
static void probe_uring(struct tp_run *run)
{
	const struct tp_params *p = run->p;
	bool wanted = false;

	for (size_t m = 0; m < p->nmodes; m++)
		wanted |= p->modes[m] == PB_MODE_IO_URING;
	if (!wanted || run->uring_skip[0])
		return;
	for (size_t k = 0; k < p->nkinds; k++) {
		enum pb_kind kind = p->kinds[k];
		int r;

		if (kind == PB_KIND_SOCKETPAIR)
			continue;
		r = pb_uring_probe(kind, run->tmpdir, &run->uring[kind]);
		if (r) {
			set_error(&run->b, PB_EXIT_ERROR, "io_uring probe: fork: %s", strerror(-r));
			return;
		}
		run->uring_probed[kind] = true;
	}
}

/* --copies with FIFOs: each copy's FIFO in a directory of its own. */
static void make_copy_dirs(struct tp_run *run)
{
	unsigned n = run->p->copies[run->p->ncopies - 1];

	run->copy_dir = calloc(n, sizeof(*run->copy_dir));
	if (!run->copy_dir) {
		set_error(&run->b, PB_EXIT_ERROR, "out of memory");
		return;
	}
	for (; run->ncopy_dirs < n; run->ncopy_dirs++)
		if (PB_TMPDIR_MAKE(&run->b, run->tmpdir, run->copy_dir[run->ncopy_dirs]))
			return;
}

/* --writers/--readers: their rows instead of the fill/drain loop's. */
static int execute_contention(struct pb_cli *cli, struct tp_run *run)
{
	const struct tp_params *p = run->p;

	if (pb_tp_mw_setup(&run->mw, &p->mw))
		set_error(&run->b, PB_EXIT_ERROR, "out of memory");
	if (!run->b.status && p->pinned && sched_setaffinity(0, sizeof(p->cpus), &p->cpus) != 0)
		set_error(&run->b, PB_EXIT_ERROR, "--cpu %s: cannot pin: %s", p->cpu_list,
			  strerror(errno));
	if (!run->b.status && has_kind(p, PB_KIND_FIFO))
		PB_TMPDIR_MAKE(&run->b, p->dir, run->tmpdir);
	pb_bench_arm(&run->b);
	run->cpu_start = sched_getcpu();
	if (!run->b.status)
		pb_tp_mw_measure(&run->mw, &run->b, run->tmpdir);
	run->cpu_end = sched_getcpu();
	pb_bench_disarm(&run->b);
	pb_cli_emit(cli, run, &run->b.si, run->b.out.fp);
	pb_tp_mw_free(&run->mw);
	if (run->tmpdir[0])
		pb_tmpdir_remove(run->tmpdir);
	return pb_bench_end(&run->b, cli->common.output, cli->fmt->text &&
			    run->b.status == PB_EXIT_ERROR && !run->mw.ncells);
}

/* --profile: this thread's sampler for the loops (they run here), or why
 * not; never an error. */
static void start_profile(struct tp_run *run)
{
	pb_bench_profile_begin(&run->b, &run->prof, &run->sampler, run->p->profile);
}

static void end_profile(struct tp_run *run)
{
	pb_bench_profile_end(&run->b, &run->sampler);
	for (size_t i = 0; run->p->profile && i < run->ncells; i++)
		if (run->cells[i].nreps)
			pb_prof_summarize(run->prof.syms, run->cells[i].prof, run->cells[i].prof_sum);
}

static int execute(struct pb_cli *cli, void *params)
{
	const struct tp_params *p = params;
	struct tp_run run = { .p = p };
	int r = pb_bench_begin(&run.b, NAME, cli, p->timeout_ns, p->loops, p->duration_ns);

	if (r)
		return r;
	if (p->contention)
		return execute_contention(cli, &run);
	if (setup(&run))
		set_error(&run.b, PB_EXIT_ERROR, "out of memory");
	if (!run.b.status)
		setup_modes(&run);
	/* A failed pin goes into the document like any other error. */
	if (!run.b.status && p->pinned && sched_setaffinity(0, sizeof(p->cpus), &p->cpus) != 0)
		set_error(&run.b, PB_EXIT_ERROR, "--cpu %s: cannot pin: %s", p->cpu_list,
			  strerror(errno));
	if (!run.b.status && has_kind(p, PB_KIND_FIFO))
		PB_TMPDIR_MAKE(&run.b, p->dir, run.tmpdir);
	if (!run.b.status && has_kind(p, PB_KIND_FIFO) && p->ncopies)
		make_copy_dirs(&run);
	if (!run.b.status)
		probe_kinds(&run);
	if (!run.b.status)
		probe_uring(&run);
	start_profile(&run);
	pb_ctrs_open(&run.ctrs);
	run.b.ctrs = &run.ctrs;
	pb_bench_arm(&run.b);
	run.cpu_start = sched_getcpu();
	if (!run.b.status)
		measure(&run);
	run.cpu_end = sched_getcpu();
	run.b.ctrs = NULL;
	pb_ctrs_close(&run.ctrs);
	end_profile(&run);
	pb_bench_disarm(&run.b);
	pb_cli_emit(cli, &run, &run.b.si, run.b.out.fp);
	teardown(&run);
	/* Text with nothing measured: the message says why. */
	return pb_bench_end(&run.b, cli->common.output, cli->fmt->text &&
			    run.b.status && run.b.status != PB_EXIT_ERROR);
}

#define P struct tp_params
static const struct pb_opt options[] = {
	{ PB_OPT("kind", 'k', PB_OPT_WORDS, P, kind_words), .words = pb_kind_words,
	  .def = "anon", .arg = "LIST", .help = "pipe kinds" },
	{ PB_OPT("mode", '\0', PB_OPT_WORDS, P, mode_words), .words = pb_mode_words,
	  .def = "rw", .arg = "LIST",
	  .help = "how the bytes move (rw: write/read)" },
	{ PB_OPT("verify", '\0', PB_OPT_WORD, P, verify), .words = pb_verify_words,
	  .def = "sample", .arg = "WHAT",
	  .help = "which loops of the zero-copy modes have their bytes checked" },
	{ PB_OPT("dir", 'd', PB_OPT_DIR, P, dir), .arg = "DIR", .help = "directory for FIFOs" },
	{ PB_OPT("loops", 'n', PB_OPT_COUNT, P, loops), .min = 1, .max = PB_BUDGET_MAX_LOOPS,
	  .def = "3000", .arg = "N", .help = "fill/drain loops per repetition" },
	PB_OPT_BUDGET(P, duration_ns),
	{ PB_OPT("size", 's', PB_OPT_SIZES, P, sizes), .off_n = offsetof(P, nsizes), .min = 1,
	  .max = MAX_CHUNK, .max_items = MAX_SIZES, .def = "100", .arg = "LIST",
	  .help = "chunk size per write/read; K, M suffixes; comma list for a sweep; at most 64M" },
	/* The kernel's round_pipe_size() takes at most 1 GiB as an int. */
	{ PB_OPT("pipe-size", 'p', PB_OPT_SIZE, P, pipe_size), .min = 1, .max = 1ULL << 30,
	  .def_help = "kernel default", .arg = "BYTES",
	  .help = "set the pipe buffer with F_SETPIPE_SZ" },
	{ PB_OPT("flags", 'F', PB_OPT_WORDS, P, flags), .words = pb_flag_names,
	  .def_help = "none", .arg = "LIST",
	  .help = "pipe2 flags (direct: O_DIRECT packet mode; noatime: O_NOATIME)" },
	PB_OPT_REPEAT(P, repeat, "measured repetitions"),
	PB_OPT_WARMUP(P, warmup),
	PB_OPT_PRECISION(P, precision, precision_budget_ns, "every row's median TT",
			 "--duration, else 60 s"),
	{ PB_OPT("cpu", 'c', PB_OPT_CPUS, P, cpus), .def_help = "not pinned", .arg = "LIST",
	  .help = "pin to these CPUs, e.g. 0 or 0-1" },
	{ PB_OPT("writers", '\0', PB_OPT_COUNT, P, writers), .min = 1, .max = PB_MW_MAX,
	  .def_help = "none: the fill/drain loop", .arg = "N",
	  .help = "N writer threads on one pipe, records of --size bytes (24 to PIPE_BUF) that "
		  "the readers check arrive whole and once; --loops: records per writer" },
	{ PB_OPT("readers", '\0', PB_OPT_COUNT, P, readers), .min = 1, .max = PB_MW_MAX,
	  .def_help = "1 with --writers", .arg = "N",
	  .help = "N reader threads on that pipe" },
	{ PB_OPT("wait", '\0', PB_OPT_WORDS, P, wait_words), .words = pb_mw_wait_words,
	  .def = "block", .arg = "LIST",
	  .help = "with --writers/--readers: block in read/write, or poll (O_NONBLOCK ends, "
		  "poll() on EAGAIN)" },
	PB_OPT_COPIES(P, copies_arg, "copies of each row"),
	PB_OPT_PROFILE(P, profile),
	PB_OPT_TIMEOUT(P, timeout_ns),
	PB_OPT_END
};

/* Throughput: KIND[-MODE]-SIZEB-rate (B/s) and -syscall (ns per call); a mode
 * other than rw is named, and a skipped kind x mode makes both skip cases. */
static void lava_cases(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *a = pb_json_get(doc, "results");

	for (size_t i = 0; i < pb_json_len(a); i++) {
		struct json_object *r = json_object_array_get_idx(a, i);
		const char *kind = pb_json_str(r, "kind"), *mode = pb_json_str(r, "mode"), *st = pb_json_str(r, "status");
		long long size = pb_json_int(r, "size_bytes", -1);
		char name[128];

		if (pb_json_get(r, "writers")) {
			pb_tp_mw_lava(l, r);
			continue;
		}
		pb_lava_item(l, r);
		/* KIND[-MODE]-SIZEB: rw (or a document without modes) keeps the old names. */
		snprintf(name, sizeof(name), "%s%s%s-%lldB", kind ? kind : "?",
			 mode && strcmp(mode, "rw") != 0 ? "-" : "",
			 mode && strcmp(mode, "rw") != 0 ? mode : "", size);
		if (pb_json_get(r, "copies")) {
			size_t n = strlen(name);

			snprintf(name + n, sizeof(name) - n, "-x%lld", pb_json_int(r, "copies", 0));
		}
		if (st && strcmp(st, "skip") == 0) {
			pb_lava_case(l, "skip", "%s-rate", name);
			pb_lava_case(l, "skip", "%s-syscall", name);
			continue;
		}
		pb_lava_measure(l, pb_json_num(r, "summary.rate_bytes_per_s"), "B/s", "%s-rate", name);
		pb_lava_measure(l, pb_json_num(r, "summary.ns_per_syscall"), "ns", "%s-syscall", name);
		pb_lava_stability(l, r, name);
		pb_lava_profile(l, r, name);
	}
}

static const struct pb_format formats[] = {
	{ .name = "text", .emit = emit_text, .text = true },
	{ .name = "json", .emit = emit_json },
	{ .name = "csv", .emit = emit_csv },
	{ .name = "seed", .emit = emit_seed },
	PB_FORMAT_END
};

const struct pb_cmd pb_cmd_throughput = {
	.lava_cases = lava_cases,
	.name = NAME, .opts = options, .formats = formats, .params_size = sizeof(struct tp_params),
	.check = check_params, .exec = execute,
	.summary = "nonblocking fill/drain throughput of pipes, FIFOs and socketpairs",
};
