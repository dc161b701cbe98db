/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "cmd.h"
#include "msg.h"
#include "tp_mw.h"
#include "units.h"

const char *const pb_mw_wait_words[] = { "block", "poll", NULL };

#define set_error PB_SET_ERROR
#define MIN_RUN_NS 10000000ULL      /* a --duration run's share: at least 10 ms */

int pb_tp_mw_setup(struct pb_tp_mw *mw, const struct pb_tp_mw_params *p)
{
	size_t i = 0;

	memset(mw, 0, sizeof(*mw));
	mw->p = p;
	for (int w = 0; w < PB_MW_WAIT_COUNT; w++)
		mw->ncells += (p->waits >> w) & 1;
	mw->ncells *= p->nsizes * p->nkinds;
	mw->cells = calloc(mw->ncells ? mw->ncells : 1, sizeof(*mw->cells));
	if (!mw->cells)
		return -ENOMEM;
	for (size_t s = 0; s < p->nsizes; s++)
		for (int w = 0; w < PB_MW_WAIT_COUNT; w++) {
			if (!((p->waits >> w) & 1))
				continue;
			for (size_t k = 0; k < p->nkinds; k++, i++) {
				struct pb_tp_mw_cell *c = &mw->cells[i];

				c->kind = p->kinds[k];
				c->size = p->sizes[s];
				c->wait = (enum pb_mw_wait)w;
				c->reps = calloc(p->repeat, sizeof(*c->reps));
				if (!c->reps)
					return -ENOMEM;
			}
		}
	if (p->duration_ns) {
		uint64_t runs = mw->ncells * (p->repeat + p->warmup);

		mw->per_run_ns = runs ? p->duration_ns / runs : p->duration_ns;
		if (mw->per_run_ns < MIN_RUN_NS)
			mw->per_run_ns = MIN_RUN_NS;
	}
	return 0;
}

void pb_tp_mw_free(struct pb_tp_mw *mw)
{
	for (size_t i = 0; mw->cells && i < mw->ncells; i++)
		free(mw->cells[i].reps);
	free(mw->cells);
	mw->cells = NULL;
}

static void cell_label(const struct pb_tp_mw *mw, const struct pb_tp_mw_cell *c, char *buf,
		       size_t len)
{
	char sz[32];

	pb_format_size(c->size, sz, sizeof(sz));
	snprintf(buf, len, "%s %s %ux%u %s", pb_kind_names[c->kind], sz, mw->p->writers,
		 mw->p->readers, pb_mw_wait_words[c->wait]);
}

/* One run of cell C into RES: a fresh pipe or FIFO, its ends handed to
 * pb_mw_run.  0, or the status it calls for (1 the kernel's, 3 ours). */
static int run_one(struct pb_tp_mw *mw, struct pb_bench *b, const char *tmpdir,
		   struct pb_tp_mw_cell *c, struct pb_mw_result *res)
{
	const struct pb_tp_mw_params *p = mw->p;
	struct pb_endpoint_opts eo = { .nonblock = c->wait == PB_MW_POLL, .flags = p->flags,
				       .pipe_size = p->pipe_size, .dir = tmpdir };
	struct pb_mw_opts o = { .size = c->size, .writers = p->writers, .readers = p->readers,
				.nonblock = c->wait == PB_MW_POLL,
				.records = p->duration_ns ? 0 : p->records,
				.duration_ns = mw->per_run_ns };
	struct pb_endpoint ep;
	const char *what = NULL;
	char label[96];
	int r;

	cell_label(mw, c, label, sizeof(label));
	r = pb_endpoint_open(&ep, c->kind, &eo, &what);
	if (r) {
		set_error(b, PB_EXIT_ERROR, "%s: %s: %s", label, what ? what : "open", strerror(-r));
		return PB_EXIT_ERROR;
	}
	c->pipe_size = ep.pipe_size;
	/* pb_mw_run owns its own ends: the readers' EOF needs every write end closed */
	o.rfd = fcntl(ep.rfd, F_DUPFD_CLOEXEC, 0);
	o.wfd = fcntl(ep.wfd, F_DUPFD_CLOEXEC, 0);
	pb_endpoint_close(&ep);
	if (o.rfd < 0 || o.wfd < 0) {
		set_error(b, PB_EXIT_ERROR, "%s: dup: %s", label, strerror(errno));
		if (o.rfd >= 0)
			close(o.rfd);
		if (o.wfd >= 0)
			close(o.wfd);
		return PB_EXIT_ERROR;
	}
	r = pb_mw_run(&o, res);
	if (pb_watchdog_fired()) {
		set_error(b, PB_EXIT_ERROR, "%s: timed out", label);
		return PB_EXIT_ERROR;
	}
	if (res->harness_err) {
		set_error(b, PB_EXIT_ERROR, "%s: %s: %s", label, res->harness_what,
			  strerror(res->harness_err));
		return PB_EXIT_ERROR;
	}
	if (r == -EIO) {
		if (!c->bad++)
			snprintf(c->bad_why, sizeof(c->bad_why), "%s", res->first_bad);
		set_error(b, PB_EXIT_FAIL, "%s: records not delivered whole and once: %s", label,
			  res->first_bad);
		return PB_EXIT_FAIL;
	}
	if (r) {
		if (!c->bad++)
			snprintf(c->bad_why, sizeof(c->bad_why), "%s: %s", res->call_what,
				 strerror(res->call_err));
		set_error(b, PB_EXIT_FAIL, "%s: %s: %s", label, res->call_what,
			  strerror(res->call_err));
		return PB_EXIT_FAIL;
	}
	return 0;
}

/* The default watchdog: 30 s, and per run 10 ms a record each writer
 * writes (or three times the run's share of --duration): a lost wake-up
 * ends with status 3 instead of hanging. */
static double watchdog_s(const struct pb_tp_mw *mw)
{
	const struct pb_tp_mw_params *p = mw->p;
	double runs = (double)mw->ncells * (double)(p->repeat + p->warmup);
	double per = p->duration_ns ? 3.0 * (double)mw->per_run_ns / 1e9
				    : 0.01 * (double)p->records * p->writers;

	return 30.0 + runs * per;
}

static int summarize(struct pb_tp_mw_cell *c)
{
	double *v = malloc((c->nreps ? c->nreps : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < c->nreps; i++)
		v[i] = (double)c->reps[i].elapsed_ns;
	if (c->nreps)
		pb_stats_compute(v, c->nreps, &c->tt);
	free(v);
	return 0;
}

void pb_tp_mw_measure(struct pb_tp_mw *mw, struct pb_bench *b, const char *tmpdir)
{
	const struct pb_tp_mw_params *p = mw->p;
	size_t nk = p->nkinds;
	struct pb_stab_machine m;
	bool own_watchdog = !b->timeout_ns;

	if (own_watchdog)
		pb_watchdog_arm(watchdog_s(mw), "watchdog (no --timeout given)");
	pb_bench_progress_start(b, mw->ncells * (p->warmup + p->repeat));
	for (size_t g = 0; g < mw->ncells && b->status != PB_EXIT_ERROR; g += nk) {
		struct pb_tp_mw_cell *row = &mw->cells[g];

		for (uint64_t i = 0; i < p->warmup + p->repeat; i++) {
			bool measured = i >= p->warmup;

			for (size_t k = 0; k < nk; k++) {
				struct pb_tp_mw_cell *c = &row[k];
				struct pb_mw_result scratch, *res = measured ? &c->reps[c->nreps] : &scratch;
				char label[96];
				int st;

				if (b->status == PB_EXIT_ERROR || pb_cleanup_interrupted())
					goto out;
				cell_label(mw, c, label, sizeof(label));
				pb_progress_show(&b->pg, "%s %s %llu/%llu", label,
						 measured ? "repetition" : "warmup",
						 (unsigned long long)(measured ? i - p->warmup : i) + 1,
						 (unsigned long long)(measured ? p->repeat : p->warmup));
				st = run_one(mw, b, tmpdir, c, res);
				/* a failure of the kernel is measured all the same */
				if (measured && st != PB_EXIT_ERROR)
					c->nreps++;
			}
		}
	}
out:
	pb_progress_end(&b->pg);
	if (own_watchdog)
		pb_watchdog_arm(0, NULL);
	pb_stab_machine_now(&m);
	for (size_t i = 0; i < mw->ncells; i++) {
		struct pb_tp_mw_cell *c = &mw->cells[i];

		mw->failed += c->bad > 0;
		if (!c->nreps)
			continue;
		if (summarize(c))
			set_error(b, PB_EXIT_ERROR, "statistics: out of memory");
		c->stab = pb_stab_judge(&c->tt, NULL, &m, c->stab_why, sizeof(c->stab_why));
	}
}

/* ---- a repetition's figures */

static uint64_t bytes_of(const struct pb_mw_party *v, unsigned n, uint64_t *each)
{
	uint64_t t = 0;

	for (unsigned i = 0; i < n; i++) {
		each[i] = v[i].bytes;
		t += v[i].bytes;
	}
	return t;
}

/* How many of N parties moved nothing. */
static unsigned idle(const uint64_t *v, unsigned n)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		k += v[i] == 0;
	return k;
}

static uint64_t records_read(const struct pb_mw_result *e, unsigned n)
{
	uint64_t t = 0;

	for (unsigned i = 0; i < n; i++)
		t += e->r[i].records;
	return t;
}

/* Context switches of every thread (voluntary or not) per record read;
 * NAN when a thread's were not counted. */
static double switches_per_record(const struct pb_mw_result *e, unsigned nw, unsigned nr,
				  bool voluntary)
{
	uint64_t recs = records_read(e, nr);
	int64_t t = 0;

	for (unsigned i = 0; i < nw + nr; i++) {
		const struct pb_mw_party *p = i < nw ? &e->w[i] : &e->r[i - nw];
		int64_t v = voluntary ? p->vcsw : p->ivcsw;

		if (v < 0)
			return NAN;
		t += v;
	}
	return recs ? (double)t / (double)recs : NAN;
}

static void rep_fields(struct pb_row *x, const struct pb_tp_mw *mw, const struct pb_mw_result *e)
{
	unsigned nw = mw->p->writers, nr = mw->p->readers;
	uint64_t wb[PB_MW_MAX], rb[PB_MW_MAX], eagain = 0;
	uint64_t bytes = bytes_of(e->r, nr, rb), recs = records_read(e, nr);

	bytes_of(e->w, nw, wb);
	for (unsigned i = 0; i < nw; i++)
		eagain += e->w[i].eagain;
	for (unsigned i = 0; i < nr; i++)
		eagain += e->r[i].eagain;
	pb_row_int(x, "tt_ns", (int64_t)e->elapsed_ns);
	pb_row_int(x, "bytes", (int64_t)bytes);
	pb_row_int(x, "records", (int64_t)recs);
	pb_row_double(x, "rate_bytes_per_s", e->elapsed_ns ? (double)bytes * 1e9 /
			  (double)e->elapsed_ns : NAN);
	pb_row_double(x, "ns_per_record", recs ? (double)e->elapsed_ns / (double)recs : NAN);
	pb_row_double(x, "fairness_writers", pb_mw_fairness(wb, nw));
	pb_row_double(x, "fairness_readers", pb_mw_fairness(rb, nr));
	pb_row_int(x, "writers_idle", (int64_t)idle(wb, nw));
	pb_row_int(x, "readers_idle", (int64_t)idle(rb, nr));
	pb_row_double(x, "voluntary_ctxsw_per_record", switches_per_record(e, nw, nr, true));
	pb_row_double(x, "involuntary_ctxsw_per_record", switches_per_record(e, nw, nr, false));
	pb_row_int(x, "eagain", (int64_t)eagain);
	pb_row_int(x, "short_writes", (int64_t)e->short_writes);
	pb_row_int(x, "torn", (int64_t)e->torn);
	pb_row_int(x, "out_of_order", (int64_t)e->disorder);
	pb_row_int(x, "lost", (int64_t)e->lost);
	pb_row_int(x, "duplicated", (int64_t)e->duplicated);
}

/* The median over C's repetitions of field F of rep_fields (via JSON). */
static double median_field(const struct pb_tp_mw *mw, const struct pb_tp_mw_cell *c,
			   const char *f)
{
	double *v = malloc((c->nreps ? c->nreps : 1) * sizeof(*v)), m = NAN;
	struct pb_stats st;
	size_t n = 0;

	for (size_t i = 0; v && i < c->nreps; i++) {
		struct json_object *o = json_object_new_object(), *x;
		struct pb_row r = pb_row_json(o);

		rep_fields(&r, mw, &c->reps[i]);
		if (json_object_object_get_ex(o, f, &x) && x)
			v[n++] = json_object_get_double(x);
		json_object_put(o);
	}
	if (v && n == c->nreps && n && !pb_stats_compute(v, n, &st))
		m = st.median;
	free(v);
	return m;
}

static void cell_fields(struct pb_row *r, const struct pb_tp_mw *mw,
			const struct pb_tp_mw_cell *c)
{
	pb_row_str(r, "kind", pb_kind_names[c->kind]);
	pb_row_str(r, "mode", "rw");
	pb_row_int(r, "size_bytes", (int64_t)c->size);
	pb_row_int(r, "writers", mw->p->writers);
	pb_row_int(r, "readers", mw->p->readers);
	pb_row_str(r, "wait", pb_mw_wait_words[c->wait]);
	pb_row_int_or_null(r, "pipe_size_bytes", c->pipe_size > 0, c->pipe_size);
}

static uint64_t total(const struct pb_tp_mw_cell *c, size_t off)
{
	uint64_t t = 0;

	for (size_t i = 0; i < c->nreps; i++)
		t += *(const uint64_t *)((const char *)&c->reps[i] + off);
	return t;
}

#define TOTAL(c, f) total((c), offsetof(struct pb_mw_result, f))

struct json_object *pb_tp_mw_results_json(const struct pb_tp_mw *mw)
{
	struct json_object *res = json_object_new_array();
	unsigned nw = mw->p->writers, nr = mw->p->readers;

	for (size_t i = 0; i < mw->ncells; i++) {
		const struct pb_tp_mw_cell *c = &mw->cells[i];
		struct json_object *o = json_object_new_object(), *reps = json_object_new_array();
		struct json_object *sum;
		struct pb_row row = pb_row_json(o);

		cell_fields(&row, mw, c);
		pb_json_add_str(o, "status", c->nreps ? "ok" : "not run");
		if (c->nreps)
			pb_stab_fields(&row, c->stab, c->stab_why);
		for (size_t r = 0; r < c->nreps; r++) {
			struct json_object *x = json_object_new_object(), *wa, *ra;
			struct pb_row xr = pb_row_json(x);

			rep_fields(&xr, mw, &c->reps[r]);
			wa = json_object_new_array();
			ra = json_object_new_array();
			for (unsigned k = 0; k < nw; k++)
				json_object_array_add(wa, json_object_new_int64(
						      (int64_t)c->reps[r].w[k].bytes));
			for (unsigned k = 0; k < nr; k++)
				json_object_array_add(ra, json_object_new_int64(
						      (int64_t)c->reps[r].r[k].bytes));
			json_object_object_add(x, "writer_bytes", wa);
			json_object_object_add(x, "reader_bytes", ra);
			json_object_array_add(reps, x);
		}
		sum = pb_bench_json_reps(o, reps, c->nreps);
		if (sum) {
			json_object_object_add(sum, "tt_ns", pb_json_stats(&c->tt, true));
			pb_json_add_double(sum, "rate_bytes_per_s",
					   median_field(mw, c, "rate_bytes_per_s"));
			pb_json_add_double(sum, "ns_per_record", median_field(mw, c, "ns_per_record"));
			pb_json_add_double(sum, "fairness_writers",
					   median_field(mw, c, "fairness_writers"));
			pb_json_add_double(sum, "fairness_readers",
					   median_field(mw, c, "fairness_readers"));
			pb_json_add_double(sum, "voluntary_ctxsw_per_record",
					   median_field(mw, c, "voluntary_ctxsw_per_record"));
			pb_json_add_double(sum, "involuntary_ctxsw_per_record",
					   median_field(mw, c, "involuntary_ctxsw_per_record"));
		}
		/* The kernel's verdict on the records, whatever was measured. */
		pb_json_add_str(o, "integrity", c->bad ? "fail" : c->nreps ? "ok" : NULL);
		pb_json_add_str(o, "integrity_detail", c->bad ? c->bad_why : NULL);
		pb_json_add_int(o, "short_writes", (int64_t)TOTAL(c, short_writes));
		pb_json_add_int(o, "torn", (int64_t)TOTAL(c, torn));
		pb_json_add_int(o, "out_of_order", (int64_t)TOTAL(c, disorder));
		pb_json_add_int(o, "lost", (int64_t)TOTAL(c, lost));
		pb_json_add_int(o, "duplicated", (int64_t)TOTAL(c, duplicated));
		json_object_array_add(res, o);
	}
	return res;
}

void pb_tp_mw_csv(const struct pb_tp_mw *mw, struct pb_csv *csv)
{
	static const struct pb_tp_mw_cell no_cell;
	static const struct pb_mw_result no_rep;
	struct pb_row h = pb_row_csv_header(csv);

	cell_fields(&h, mw, &no_cell);
	pb_row_int(&h, "repetition", 0);
	rep_fields(&h, mw, &no_rep);
	pb_stab_fields(&h, PB_STAB_STABLE, NULL);
	pb_row_end(&h);
	for (size_t i = 0; i < mw->ncells; i++) {
		const struct pb_tp_mw_cell *c = &mw->cells[i];

		for (size_t n = 0; n < c->nreps; n++) {
			struct pb_row r = pb_row_csv(csv);

			cell_fields(&r, mw, c);
			pb_row_int(&r, "repetition", (int64_t)n + 1);
			rep_fields(&r, mw, &c->reps[n]);
			pb_stab_fields(&r, c->stab, c->stab_why);
			pb_row_end(&r);
		}
	}
}

static void fmt_rate(double bps, char *buf, size_t len)
{
	if (!isfinite(bps))
		snprintf(buf, len, "-");
	else if (bps >= 1e9)
		snprintf(buf, len, "%.2f GB/s", bps / 1e9);
	else
		snprintf(buf, len, "%.1f MB/s", bps / 1e6);
}

static void fmt_x(double v, const char *unit, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f%s", v, unit);
}

/* A fairness cell: the median ratio, or how many parties moved nothing
 * ("3 idle", the most of any repetition) when one did. */
static void fmt_fair(const struct pb_tp_mw *mw, const struct pb_tp_mw_cell *c, const char *who,
		     char *buf, size_t len)
{
	char f[32];
	unsigned most = 0;

	snprintf(f, sizeof(f), "%s_idle", who);
	for (size_t i = 0; i < c->nreps; i++) {
		double v = median_field(mw, &(struct pb_tp_mw_cell){ .nreps = 1,
					 .reps = &c->reps[i] }, f);

		most = isfinite(v) && v > most ? (unsigned)v : most;
	}
	if (most) {
		snprintf(buf, len, "%u idle", most);
		return;
	}
	snprintf(f, sizeof(f), "fairness_%s", who);
	fmt_x(median_field(mw, c, f), "x", buf, len);
}

void pb_tp_mw_text(const struct pb_tp_mw *mw, FILE *fp)
{
	const struct pb_tp_mw_params *p = mw->p;
	struct pb_stab_text st;
	char rec[64];

	if (p->duration_ns)
		snprintf(rec, sizeof(rec), "for %.3g s a run", (double)mw->per_run_ns / 1e9);
	else
		snprintf(rec, sizeof(rec), "%llu records a writer", (unsigned long long)p->records);
	fprintf(fp, "contention  %u %s x %u %s on one pipe, %s, %llu %s (+%llu warmup)\n",
		p->writers, pb_plural(p->writers, "writer", "writers"), p->readers,
		pb_plural(p->readers, "reader", "readers"), rec, (unsigned long long)p->repeat,
		pb_plural(p->repeat, "repetition", "repetitions"), (unsigned long long)p->warmup);
	fprintf(fp, "\n%-10s %7s %-5s %12s %10s %8s %8s %7s %7s  %s\n", "kind", "size", "wait",
		"rate", "ns/record", "fair W", "fair R", "vcs/rec", "ics/rec", "records");
	for (size_t i = 0; i < mw->ncells; i++) {
		const struct pb_tp_mw_cell *c = &mw->cells[i];
		char sz[32], r[32], ns[32], fw[32], fr[32], vc[32], ic[32];

		pb_format_size(c->size, sz, sizeof(sz));
		if (!c->nreps) {
			fprintf(fp, "%-10s %7s %-5s not measured%s%s\n", pb_kind_names[c->kind], sz,
				pb_mw_wait_words[c->wait], c->bad ? ": " : "", c->bad ? c->bad_why : "");
			continue;
		}
		fmt_rate(median_field(mw, c, "rate_bytes_per_s"), r, sizeof(r));
		fmt_x(median_field(mw, c, "ns_per_record"), "", ns, sizeof(ns));
		fmt_fair(mw, c, "writers", fw, sizeof(fw));
		fmt_fair(mw, c, "readers", fr, sizeof(fr));
		fmt_x(median_field(mw, c, "voluntary_ctxsw_per_record"), "", vc, sizeof(vc));
		fmt_x(median_field(mw, c, "involuntary_ctxsw_per_record"), "", ic, sizeof(ic));
		fprintf(fp, "%-10s %7s %-5s %12s %10s %8s %8s %7s %7s  %s%s\n",
			pb_kind_names[c->kind], sz, pb_mw_wait_words[c->wait], r, ns, fw, fr, vc, ic,
			c->bad ? "NOT WHOLE: " : "whole and once",
			c->bad ? c->bad_why : "");
	}
	fprintf(fp, "\nrate: bytes read per second; fair W, fair R: the most bytes one writer "
		"(reader) moved over the fewest (- alone; N idle: N moved nothing); vcs, ics: "
		"voluntary and involuntary context switches of every thread per record; medians "
		"over repetitions; records: each read whole (writer, sequence number, payload), "
		"none lost or read twice\n");
	pb_stab_text_begin(&st, fp, 11);
	for (size_t i = 0; i < mw->ncells; i++) {
		const struct pb_tp_mw_cell *c = &mw->cells[i];
		char label[96];

		if (!c->nreps)
			continue;
		cell_label(mw, c, label, sizeof(label));
		pb_stab_text_row(&st, label, c->stab, c->stab_why);
	}
	pb_stab_text_end(&st);
}

void pb_tp_mw_lava(struct pb_lava *l, struct json_object *r)
{
	const char *kind = pb_json_str(r, "kind"), *wait = pb_json_str(r, "wait");
	const char *integ = pb_json_str(r, "integrity");
	char name[128];

	snprintf(name, sizeof(name), "%s-%lldB-%lldx%lld%s%s", kind ? kind : "?",
		 pb_json_int(r, "size_bytes", -1), pb_json_int(r, "writers", -1),
		 pb_json_int(r, "readers", -1), wait && strcmp(wait, "block") ? "-" : "",
		 wait && strcmp(wait, "block") ? wait : "");
	pb_lava_item(l, r);
	pb_lava_case(l, !integ ? "skip" : strcmp(integ, "ok") == 0 ? "pass" : "fail",
		     "%s-integrity", name);
	if (!pb_json_get(r, "summary.rate_bytes_per_s"))
		return;
	pb_lava_measure(l, pb_json_num(r, "summary.rate_bytes_per_s"), "B/s", "%s-rate", name);
	pb_lava_measure(l, pb_json_num(r, "summary.fairness_writers"), "x", "%s-fairness-writers",
			name);
	pb_lava_measure(l, pb_json_num(r, "summary.fairness_readers"), "x", "%s-fairness-readers",
			name);
	pb_lava_stability(l, r, name);
}
