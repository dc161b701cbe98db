/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stability verdicts of measured rows (stability.h). */
#include <config.h>

#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "machine.h"
#include "output.h"
#include "stability.h"
#include "units.h"

const char *const pb_stab_names[] = {
	[PB_STAB_STABLE] = "stable",
	[PB_STAB_NOISY] = "noisy",
	[PB_STAB_BIMODAL] = "bimodal",
	[PB_STAB_DISTURBED] = "disturbed",
};

void pb_stab_machine_now(struct pb_stab_machine *m)
{
	struct pb_machine_delta d;
	cpu_set_t set;

	m->load = pb_machine_start_load();
	m->cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : -1;
	pb_machine_since_start(&d);
	m->steal_pct = d.steal_pct;
	m->others_pct = d.others_pct;
	m->throttled = d.throttled;
	m->migrations = -1;
	m->ops = 0;
	m->pinned = false;
}

/* ---- two modes of a histogram */

/* Coarse bins: PB_STAB_BINS per power of two (about 19% wide), so that the
 * fine buckets' noise does not make peaks of its own. */
#define PB_STAB_BINS 4
#define NCOARSE (64 * PB_STAB_BINS + 1)

static int coarse_of(uint64_t v)
{
	return v < 1 ? 0 : (int)floor(log2((double)v) * PB_STAB_BINS);
}

static uint64_t mid(size_t i)
{
	return pb_hist_lowest(i) / 2 + pb_hist_highest(i) / 2;
}

/* The value at rank K (0-based) among the values of H whose coarse bin
 * lies in [LO, HI). */
static double rank_in(const struct pb_hist *h, int lo, int hi, uint64_t k)
{
	uint64_t seen = 0;

	for (size_t i = 0; i < PB_HIST_BUCKETS; i++) {
		int b;

		if (!h->counts[i])
			continue;
		b = coarse_of(mid(i));
		if (b < lo || b >= hi)
			continue;
		seen += h->counts[i];
		if (seen > k)
			return (double)mid(i);
	}
	return 0;
}

bool pb_stab_bimodal(const struct pb_hist *h, struct pb_stab_modes *modes)
{
	uint64_t c[NCOARSE] = { 0 }, best = 0, low = 0;
	int p1 = 0, p2 = -1, split = -1;

	if (!h || !h->counts || h->count < 50)
		return false;
	for (size_t i = 0; i < PB_HIST_BUCKETS; i++)
		if (h->counts[i])
			c[coarse_of(mid(i))] += h->counts[i];
	for (int j = 1; j < NCOARSE; j++)
		if (c[j] > c[p1])
			p1 = j;
	/* The highest other peak with a valley at most half the lower peak
	 * between them and, on each side of the valley, PB_STAB_MODE_PCT of the
	 * values. */
	for (int j = 0; j < NCOARSE; j++) {
		int a = j < p1 ? j : p1, b = j < p1 ? p1 : j, v = a + 1;
		uint64_t left = 0;

		if (b - a < 2 || !c[j] || (j > 0 && c[j - 1] > c[j]) ||
		    (j + 1 < NCOARSE && c[j + 1] > c[j]) || c[j] <= best)
			continue;
		for (int k = a + 1; k < b; k++)
			if (c[k] < c[v])
				v = k;
		if (2 * c[v] > c[j])  /* c[j] <= c[p1] */
			continue;
		for (int k = 0; k < v; k++)
			left += c[k];
		left += c[v] / 2;
		if (100.0 * (double)left < PB_STAB_MODE_PCT * (double)h->count ||
		    100.0 * (double)(h->count - left) < PB_STAB_MODE_PCT * (double)h->count)
			continue;
		best = c[j];
		p2 = j;
		split = v;
		low = left;
	}
	if (p2 < 0)
		return false;
	if (modes) {
		uint64_t below = 0, above = 0;

		/* each mode's median, the valley's own bin left out of both */
		for (int k = 0; k < NCOARSE; k++)
			*(k < split ? &below : &above) += k == split ? 0 : c[k];
		modes->at_ns[0] = rank_in(h, 0, split, below / 2);
		modes->at_ns[1] = rank_in(h, split + 1, NCOARSE, above / 2);
		modes->pct[0] = 100.0 * (double)low / (double)h->count;
		modes->pct[1] = 100.0 - modes->pct[0];
	}
	return true;
}

/* ---- the verdict */

/* NS in words: "850 ns", "3.2 us", "11.8 ms". */
static void ns_words(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
}

enum pb_stab pb_stab_judge(const struct pb_stats *reps, const struct pb_hist *hist,
			   const struct pb_stab_machine *m, char *why, size_t len)
{
	bool disturbed = false, bimodal = false, noisy = false;
	struct pb_stab_modes md;
	size_t off = 0;

	if (len)
		why[0] = '\0';
	/* the load average counts the run's own tasks too: only where the
	 * others' share is not known, and as it was at the start */
	if (m && m->others_pct < 0 && m->load >= 0 && m->cpus > 0 && m->load > (double)m->cpus) {
		disturbed = true;
		pb_format_add(why, len, &off, "; ", "load average %.2f on %ld CPUs at the start",
			      m->load, m->cpus);
	}
	if (m && m->others_pct > PB_STAB_OTHERS_PCT) {
		disturbed = true;
		pb_format_add(why, len, &off, "; ", "other work used %.0f%% of its CPUs",
			      m->others_pct);
	}
	if (m && m->steal_pct > PB_STAB_STEAL_PCT) {
		disturbed = true;
		pb_format_add(why, len, &off, "; ", "steal %.1f%%", m->steal_pct);
	}
	if (m && m->throttled > 0) {
		disturbed = true;
		pb_format_add(why, len, &off, "; ", "cgroup throttled %lld periods", m->throttled);
	}
	if (m && m->migrations > 0 && m->pinned) {
		disturbed = true;
		pb_format_add(why, len, &off, "; ", "%lld %s of pinned parties (their affinity "
			      "changed under the run?)", m->migrations,
			      m->migrations == 1 ? "migration" : "migrations");
	} else if (m && m->migrations > 0 && m->ops > 0 &&
		   m->migrations * PB_STAB_MIGRATE_EVERY > m->ops) {
		disturbed = true;
		pb_format_add(why, len, &off, "; ", "%lld migrations in %lld operations (one in "
			      "%.0f)", m->migrations, m->ops, (double)m->ops / (double)m->migrations);
	}
	if (pb_stab_bimodal(hist, &md)) {
		char a[32], b[32];

		bimodal = true;
		ns_words(md.at_ns[0], a, sizeof(a));
		ns_words(md.at_ns[1], b, sizeof(b));
		pb_format_add(why, len, &off, "; ", "two modes: %s (%.0f%%) and %s (%.0f%%)", a,
			      md.pct[0], b, md.pct[1]);
	}
	noisy = reps && reps->n >= 2 &&
		(100 * reps->rsd > PB_STAB_RSD_PCT || 100 * reps->spread > PB_STAB_SPREAD_PCT);
	/* the repetitions' figures: a reason when noisy, what made it stable */
	if (reps && reps->n >= 2 && (noisy || (!disturbed && !bimodal)))
		pb_format_add(why, len, &off, "; ", "CV %.1f%%, spread %.1f%% over %zu repetitions",
			      100 * reps->rsd, 100 * reps->spread, reps->n);
	else if (reps && !disturbed && !bimodal)
		pb_format_add(why, len, &off, "; ", "one repetition: no spread to judge");
	return disturbed ? PB_STAB_DISTURBED : bimodal ? PB_STAB_BIMODAL :
	       noisy ? PB_STAB_NOISY : PB_STAB_STABLE;
}

void pb_stab_fields(struct pb_row *r, enum pb_stab v, const char *why)
{
	pb_row_str(r, "stability", pb_stab_names[v]);
	pb_row_str(r, "stability_reason", why);
}

/* ---- text */

void pb_stab_text_begin(struct pb_stab_text *t, FILE *fp, int width)
{
	t->fp = fp;
	t->width = width;
	t->rows = t->stable = t->lines = 0;
}

static void text_line(struct pb_stab_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void text_line(struct pb_stab_text *t, const char *fmt, ...)
{
	va_list ap;

	fprintf(t->fp, "%-*s ", t->width, t->lines++ ? "" : "stability");
	va_start(ap, fmt);
	vfprintf(t->fp, fmt, ap);
	va_end(ap);
	fputc('\n', t->fp);
}

void pb_stab_text_row(struct pb_stab_text *t, const char *label, enum pb_stab v,
		      const char *why)
{
	t->rows++;
	if (v == PB_STAB_STABLE)
		t->stable++;
	else
		text_line(t, "%s: %s: %s", label, pb_stab_names[v], why);
}

void pb_stab_text_end(struct pb_stab_text *t)
{
	if (!t->rows)
		return;
	if (t->stable == t->rows)
		text_line(t, "%s stable (limits: CV %.0f%%, spread %.0f%%; nothing else using the CPUs)",
			  t->rows == 1 ? "the row is" : "every row is", PB_STAB_RSD_PCT,
			  PB_STAB_SPREAD_PCT);
	else
		text_line(t, "%u of %u %s stable", t->stable, t->rows, t->rows == 1 ? "row" : "rows");
}
