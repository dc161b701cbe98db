/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot scripts from result documents (plot.h).  Everything the chart
 * shows is in the script: the data travels inline as datablocks
 * ($name << EOD), so the script alone reproduces the figure.
 */
#include <config.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "plot.h"
#include "stats.h"
#include "units.h"

#define MAX_ITEMS 4096   /* series, clusters or rows in one chart */

struct plot {
	struct json_object *const *docs;
	const char *const *paths;
	size_t n;
	const struct pb_plot_opts *o;
	const char *command;
	const char *metric;
	char *err;
	size_t errlen;
	char labels[PB_PLOT_MAX_DOCS][160];   /* host/kernel per document */
};

static int fail(struct plot *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct plot *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *pb_plot_chart_name(enum pb_plot_chart c)
{
	static const char *const names[] = { "sweep", "cdf", "bars", "change", "grid" };

	return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

/* ------------------------------------------------------------ JSON */

static struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* Member PATH ("a.b") of O as a string, or NULL when absent or not a string. */
static const char *jstr(struct json_object *o, const char *path)
{
	o = pb_json_get(o, path);
	return o && json_object_is_type(o, json_type_string) ? json_object_get_string(o) : NULL;
}

static bool is_num(struct json_object *v)
{
	return v && (json_object_is_type(v, json_type_int) ||
		     json_object_is_type(v, json_type_double));
}

static double jnum(struct json_object *v)
{
	return is_num(v) ? json_object_get_double(v) : NAN;
}

static size_t jlen(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static struct json_object *results_of(struct json_object *doc)
{
	struct json_object *r = jget(doc, "results");

	return jlen(r) ? r : NULL;
}

/* ------------------------------------------------------------ text */

/* A gnuplot double-quoted string: backslash and quote escaped, control
 * characters dropped. */
static void q(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; s && *s; s++) {
		if ((unsigned char)*s < 0x20)
			continue;
		if (*s == '"' || *s == '\\')
			fputc('\\', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

static void doc_labels(struct plot *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const char *h = jstr(p->docs[i], "run.hostname");
		const char *k = jstr(p->docs[i], "run.kernel.release");

		if (!h)
			h = jstr(p->docs[i], "system.hostname");
		if (!k)
			k = jstr(p->docs[i], "system.kernel_release");
		snprintf(p->labels[i], sizeof(p->labels[i]), "%s %s", h ? h : "?", k ? k : "?");
	}
	/* Two documents from one host and kernel: their position tells them apart. */
	{
		bool dup[PB_PLOT_MAX_DOCS] = { false };

		for (size_t i = 0; i < p->n; i++)
			for (size_t j = 0; j < p->n; j++)
				dup[i] |= j != i && strcmp(p->labels[i], p->labels[j]) == 0;
		for (size_t i = 0; i < p->n; i++) {
			size_t len = strlen(p->labels[i]);

			if (dup[i])
				snprintf(p->labels[i] + len, sizeof(p->labels[i]) - len, " #%zu", i + 1);
		}
	}
}

/* ------------------------------------------------------------ values */

/* Rows of doubles by their first: the sweep's points in size order. */
static int cmp_first(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct span {
	double med, lo, hi;
};

/*
 * The metric's median and range over a result's repetitions (every one
 * with the metric), else (or without memory for their values) from its
 * summary (a statistics object or a number).  False when it has none.
 */
static bool metric_span(struct json_object *res, const char *metric, struct span *s)
{
	struct json_object *reps = jget(res, "repetitions"), *sum;
	double *v = jlen(reps) ? malloc(jlen(reps) * sizeof(*v)) : NULL;
	struct pb_stats st;
	size_t n = 0;

	for (size_t i = 0; v && i < jlen(reps); i++) {
		double x = jnum(jget(json_object_array_get_idx(reps, i), metric));

		if (isfinite(x))
			v[n++] = x;
	}
	if (n && pb_stats_compute(v, n, &st) == 0) {
		s->lo = st.min;
		s->hi = st.max;
		s->med = st.median;
		free(v);
		return true;
	}
	free(v);
	sum = jget(jget(res, "summary"), metric);
	if (!sum)
		sum = jget(res, metric);
	if (is_num(sum)) {
		s->med = s->lo = s->hi = jnum(sum);
		return isfinite(s->med);
	}
	s->med = jnum(jget(sum, "median"));
	s->lo = jnum(jget(sum, "min"));
	s->hi = jnum(jget(sum, "max"));
	if (!isfinite(s->lo) || !isfinite(s->hi))
		s->lo = s->hi = s->med;
	return isfinite(s->med);
}

/* A result that was measured (latency marks skipped placements). */
static bool measured(struct json_object *res)
{
	const char *st = jstr(res, "status");

	return !st || strcmp(st, "ok") == 0;
}

/* The numeric members of the first repetition (or summary) of DOC, for an error message. */
static void metric_names(struct json_object *doc, char *buf, size_t len)
{
	struct json_object *r = json_object_array_get_idx(results_of(doc), 0);
	struct json_object *o = json_object_array_get_idx(jget(r, "repetitions"), 0);
	size_t off = 0;

	buf[0] = '\0';
	if (!o)
		o = jget(r, "summary");
	if (!o || !json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, val) {
		if (!is_num(val) && !is_num(jget(val, "median")))
			continue;
		if (off + strlen(key) + 3 >= len)
			break;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", key);
	}
}

static double scale_of(const char *metric, char *ylabel, size_t len)
{
	size_t ml = strlen(metric);

	if (ml > 12 && strcmp(metric + ml - 12, "_bytes_per_s") == 0) {
		snprintf(ylabel, len, "%s (MiB/s)", metric);
		return 1.0 / 1048576.0;
	}
	snprintf(ylabel, len, "%s", metric);
	return 1.0;
}

/* ------------------------------------------------------------ labels */

/* The fields that tell results apart, in the order they are shown. */
static const char *const id_fields[] = {
	"kind", "mode", "role", "label", "size_bytes", "groups", "placement", "wait", NULL
};

static void field_text(struct json_object *res, const char *f, bool tp, char *buf, size_t len)
{
	struct json_object *v = jget(res, f);

	buf[0] = '\0';
	if (!v) {
		/* A throughput result without a mode is the read/write loop. */
		if (tp && strcmp(f, "mode") == 0)
			snprintf(buf, len, "rw");
		return;
	}
	if (strcmp(f, "size_bytes") == 0 && is_num(v))
		pb_format_size((uint64_t)json_object_get_int64(v), buf, len);
	else if (strcmp(f, "groups") == 0 && is_num(v))
		snprintf(buf, len, "%" PRId64 " groups", json_object_get_int64(v));
	else
		snprintf(buf, len, "%s", json_object_get_string(v));
}

/* Which id fields vary among the results of all documents (kind always shows). */
static void varying(struct plot *p, bool tp, bool *show, const char *skip)
{
	char first[sizeof(id_fields) / sizeof(id_fields[0])][96];
	bool seen = false;

	memset(show, 0, sizeof(bool) * (sizeof(id_fields) / sizeof(id_fields[0])));
	for (size_t d = 0; d < p->n; d++) {
		struct json_object *rs = results_of(p->docs[d]);

		for (size_t i = 0; i < jlen(rs); i++) {
			struct json_object *r = json_object_array_get_idx(rs, i);

			for (size_t f = 0; id_fields[f]; f++) {
				char t[96];

				field_text(r, id_fields[f], tp, t, sizeof(t));
				if (!seen)
					snprintf(first[f], sizeof(first[f]), "%s", t);
				else if (strcmp(first[f], t) != 0)
					show[f] = true;
			}
			seen = true;
		}
	}
	show[0] = true;
	if (tp)
		show[1] = true;
	for (size_t f = 0; skip && id_fields[f]; f++)
		if (strcmp(id_fields[f], skip) == 0)
			show[f] = false;
}

static void result_label(struct json_object *res, const bool *show, bool tp, char *buf,
			 size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t f = 0; id_fields[f]; f++) {
		char t[96];

		if (!show[f])
			continue;
		field_text(res, id_fields[f], tp, t, sizeof(t));
		if (!*t)
			continue;
		off += (size_t)snprintf(buf + off, len > off ? len - off : 0, "%s%s",
					off ? " " : "", t);
		if (off >= len)
			break;
	}
	if (!*buf)
		snprintf(buf, len, "result");
}

/* Index of LABEL in NAMES (adding it), or -1 when full. */
/* Result I of RS, when it was measured and has METRIC: its span in S and
 * its series label in LAB. */
static bool result_point(struct json_object *rs, size_t i, const char *metric, const bool *show,
			 bool tp, struct span *s, char *lab, size_t len)
{
	struct json_object *r = json_object_array_get_idx(rs, i);

	if (!measured(r) || !metric_span(r, metric, s))
		return false;
	result_label(r, show, tp, lab, len);
	return true;
}

static int intern(char (*names)[160], size_t *n, const char *label)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(names[i], label) == 0)
			return (int)i;
	if (*n == MAX_ITEMS)
		return -1;
	snprintf(names[*n], 160, "%s", label);
	return (int)(*n)++;
}

/*
 * The series label of every point of document D that has the metric, added
 * to NAMES (*N of them): how many points, or fail()'s -EINVAL when there
 * are more distinct labels than a chart holds; WHAT names them in that error.
 */
static long intern_points(struct plot *p, size_t d, const bool *show, bool tp,
			  char (*names)[160], size_t *n, const char *what)
{
	struct json_object *rs = results_of(p->docs[d]);
	long pts = 0;

	for (size_t i = 0; i < jlen(rs); i++) {
		char lab[160];
		struct span s;

		if (!result_point(rs, i, p->metric, show, tp, &s, lab, sizeof(lab)))
			continue;
		if (intern(names, n, lab) < 0)
			return fail(p, "%s: too many %s", p->paths[d], what);
		pts++;
	}
	return pts;
}

/* ------------------------------------------------------------ script */

static void header(struct plot *p, enum pb_plot_chart c, FILE *fp, int w, int h,
		   const char *title)
{
	fprintf(fp, "# pipebench plot: %s chart of %zu %s document%s\n", pb_plot_chart_name(c),
		p->n, p->command, p->n == 1 ? "" : "s");
	fprintf(fp, "# render: gnuplot THIS-FILE > chart.%s\n",
		p->o->term == PB_PLOT_PNG ? "png" : "svg");
	if (p->o->term == PB_PLOT_PNG)
		fprintf(fp, "set terminal png size %d,%d noenhanced font \"sans,10\"\n", w, h);
	else
		fprintf(fp, "set terminal svg size %d,%d dynamic noenhanced font \"sans,11\" "
			"background rgb \"white\"\n", w, h);
	fputs("set encoding utf8\nset title ", fp);
	q(fp, p->o->title ? p->o->title : title);
	fputs("\nset grid\n", fp);
}

static void num(FILE *fp, double v)
{
	fprintf(fp, " %.10g", v);
}

/* One throughput document: the metric against the size, a line per kind x mode. */
static int chart_sweep(struct plot *p, FILE *fp)
{
	struct json_object *rs = results_of(p->docs[0]);
	static char names[MAX_ITEMS][160];
	size_t ns = 0;
	long npts;
	bool show[16];
	char ylabel[128], title[512];
	double scale = scale_of(p->metric, ylabel, sizeof(ylabel));

	varying(p, true, show, "size_bytes");
	npts = intern_points(p, 0, show, true, names, &ns, "series");
	if (npts < 0)
		return (int)npts;
	if (!npts)
		return fail(p, "%s: no result has %s", p->paths[0], p->metric);
	snprintf(title, sizeof(title), "pipebench throughput: %s by message size (%s)", p->metric,
		 p->labels[0]);
	header(p, PB_PLOT_SWEEP, fp, 900, 560, title);
	fputs("set logscale x 2\nset xlabel \"message size (bytes)\"\nset xtics (", fp);
	{
		/* A tic at each size measured, labelled as --size takes it. */
		double seen[64];
		size_t nseen = 0;

		for (size_t i = 0; i < jlen(rs) && nseen < 64; i++) {
			double sz = jnum(jget(json_object_array_get_idx(rs, i), "size_bytes"));
			bool dup = false;
			char t[32];

			for (size_t k = 0; k < nseen; k++)
				dup |= seen[k] == sz;
			if (!isfinite(sz) || sz <= 0 || dup)
				continue;
			seen[nseen] = sz;
			pb_format_size((uint64_t)sz, t, sizeof(t));
			fputs(nseen++ ? ", " : "", fp);
			q(fp, t);
			num(fp, sz);
		}
	}
	fputs(")\nset ylabel ", fp);
	q(fp, ylabel);
	fputs("\nset yrange [0:*]\nset offsets graph 0.04, graph 0.04, 0, 0\n"
	      "set key outside right top vertical\n", fp);
	for (size_t k = 0; k < ns; k++) {
		/* Points in size order (results come in sweep order, but need not). */
		double pts[1024][4];
		size_t np = 0;

		for (size_t i = 0; i < jlen(rs) && np < 1024; i++) {
			struct json_object *r = json_object_array_get_idx(rs, i);
			char lab[160];
			struct span s;

			if (!measured(r) || !metric_span(r, p->metric, &s))
				continue;
			result_label(r, show, true, lab, sizeof(lab));
			if (strcmp(lab, names[k]) != 0)
				continue;
			pts[np][0] = jnum(jget(r, "size_bytes"));
			pts[np][1] = s.med * scale;
			pts[np][2] = s.lo * scale;
			pts[np][3] = s.hi * scale;
			np++;
		}
		qsort(pts, np, sizeof(pts[0]), cmp_first);
		fprintf(fp, "$s%zu << EOD\n", k);
		for (size_t i = 0; i < np; i++) {
			for (int c = 0; c < 4; c++)
				num(fp, pts[i][c]);
			fputc('\n', fp);
		}
		fputs("EOD\n", fp);
	}
	fputs("plot ", fp);
	for (size_t k = 0; k < ns; k++) {
		fprintf(fp, "%s$s%zu using 1:2:3:4 with yerrorlines lw 2 pt 7 title ",
			k ? ", \\\n     " : "", k);
		q(fp, names[k]);
	}
	fputc('\n', fp);
	return 0;
}

/* The histogram of a measured latency result with round trips in it (their
 * number in *TOTAL), or NULL. */
static struct json_object *cdf_histogram(struct json_object *r, double *total)
{
	struct json_object *h = jget(jget(r, "summary"), "histogram");

	*total = 0;
	if (!measured(r) || !jlen(h))
		return NULL;
	for (size_t b = 0; b < jlen(h); b++)
		*total += jnum(json_object_array_get_idx(json_object_array_get_idx(h, b), 2));
	return *total > 0 ? h : NULL;
}

/* One latency document: CDF of the round-trip time from the histogram buckets. */
static int chart_cdf(struct plot *p, FILE *fp)
{
	struct json_object *rs = results_of(p->docs[0]);
	bool show[16];
	size_t nser = 0;
	char title[512];

	varying(p, false, show, NULL);
	snprintf(title, sizeof(title), "pipebench latency: round-trip time CDF (%s)", p->labels[0]);
	for (size_t i = 0; i < jlen(rs); i++) {
		struct json_object *r = json_object_array_get_idx(rs, i);
		double total, cum = 0;
		struct json_object *h = cdf_histogram(r, &total);

		if (!h)
			continue;
		if (!nser++) {
			header(p, PB_PLOT_CDF, fp, 900, 560, title);
			fputs("set logscale x 10\nset xlabel \"round-trip time (ns)\"\n"
			      "set ylabel \"fraction of round trips\"\nset yrange [0:1.02]\n"
			      "set key bottom right\n", fp);
		}
		fprintf(fp, "$c%zu << EOD\n", i);
		for (size_t b = 0; b < jlen(h); b++) {
			struct json_object *bk = json_object_array_get_idx(h, b);
			double lo = jnum(json_object_array_get_idx(bk, 0));
			double hi = jnum(json_object_array_get_idx(bk, 1));
			double c = jnum(json_object_array_get_idx(bk, 2));

			if (!isfinite(lo) || !isfinite(hi) || !isfinite(c))
				return fail(p, "%s: a histogram bucket is not [low, high, count]",
					    p->paths[0]);
			if (b == 0) {
				num(fp, lo > 0 ? lo : 1);
				num(fp, 0);
				fputc('\n', fp);
			}
			cum += c;
			num(fp, hi + 1);
			num(fp, cum / total);
			fputc('\n', fp);
		}
		fputs("EOD\n", fp);
	}
	if (!nser)
		return fail(p, "%s: no measured result has a histogram", p->paths[0]);
	fputs("plot ", fp);
	nser = 0;
	for (size_t i = 0; i < jlen(rs); i++) {
		struct json_object *r = json_object_array_get_idx(rs, i);
		char lab[160];
		double total;

		if (!cdf_histogram(r, &total))
			continue;
		result_label(r, show, false, lab, sizeof(lab));
		fprintf(fp, "%s$c%zu using 1:2 with steps lw 2 title ", nser++ ? ", \\\n     " : "", i);
		q(fp, lab);
	}
	fputc('\n', fp);
	return 0;
}

static void tics(FILE *fp, const char *axis, char (*names)[160], size_t n, const char *extra)
{
	fprintf(fp, "set %stics (", axis);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", fp);
		q(fp, names[i]);
		fprintf(fp, " %zu", i);
	}
	fprintf(fp, ")%s\n", extra);
}

/* Grouped bars: a cluster per result, a bar per document, the range as error bars. */
static int chart_bars(struct plot *p, FILE *fp)
{
	static char names[MAX_ITEMS][160];
	size_t nc = 0, longest = 0;
	bool tp = strcmp(p->command, "throughput") == 0, show[16];
	char ylabel[128], title[512];
	double scale = scale_of(p->metric, ylabel, sizeof(ylabel));
	double w = 0.8 / (double)p->n;

	varying(p, tp, show, NULL);
	for (size_t d = 0; d < p->n; d++) {
		long found = intern_points(p, d, show, tp, names, &nc, "results");

		if (found < 0)
			return (int)found;
		if (!found) {
			char have[512];

			metric_names(p->docs[d], have, sizeof(have));
			return fail(p, "%s: no result has the metric %s%s%s%s", p->paths[d], p->metric,
				    *have ? " (it has: " : "", have, *have ? ")" : "");
		}
	}
	for (size_t i = 0; i < nc; i++)
		if (strlen(names[i]) > longest)
			longest = strlen(names[i]);
	if (p->n == 1)
		snprintf(title, sizeof(title), "pipebench %s: %s (%s)", p->command, p->metric,
			 p->labels[0]);
	else
		snprintf(title, sizeof(title), "pipebench %s: %s per document", p->command,
			 p->metric);
	header(p, PB_PLOT_BARS, fp, (int)(700 + 40 * nc * (p->n > 2 ? p->n / 2 : 1)), 600, title);
	fputs("set style fill solid 0.75 border -1\nset ylabel ", fp);
	q(fp, ylabel);
	fprintf(fp, "\nset xlabel \"result\"\nset yrange [0:*]\nset xrange [-0.6:%g]\n"
		"set grid noxtics\nset key outside right top vertical\n", (double)nc - 0.4);
	tics(fp, "x", names, nc, longest > 12 || nc > 6 ? " rotate by -30 noenhanced" : "");
	for (size_t d = 0; d < p->n; d++) {
		struct json_object *rs = results_of(p->docs[d]);

		fprintf(fp, "$b%zu << EOD\n", d);
		for (size_t i = 0; i < jlen(rs); i++) {
			char lab[160];
			struct span s;
			int c;

			if (!result_point(rs, i, p->metric, show, tp, &s, lab, sizeof(lab)))
				continue;
			c = intern(names, &nc, lab);
			num(fp, c + ((double)d - (double)(p->n - 1) / 2) * w);
			num(fp, s.med * scale);
			num(fp, s.lo * scale);
			num(fp, s.hi * scale);
			num(fp, w);
			fputc('\n', fp);
		}
		fputs("EOD\n", fp);
	}
	fputs("plot ", fp);
	for (size_t d = 0; d < p->n; d++) {
		fprintf(fp, "%s$b%zu using 1:2:3:4:5 with boxerrorbars title ",
			d ? ", \\\n     " : "", d);
		q(fp, p->labels[d]);
	}
	fputc('\n', fp);
	return 0;
}

/* One class of boxes a chart draws as one series: its key title and colour. */
struct series_class {
	const char *name, *color;
};

/*
 * The plot line of a chart that wrote one data block $<var>K per class K:
 * one boxxyerror series per class that has data, in class order.
 */
static void plot_classes(FILE *fp, const char *var, const char *using,
			 const struct series_class *cls, const bool *has, size_t n)
{
	const char *sep = "";

	fputs("plot ", fp);
	for (size_t k = 0; k < n; k++) {
		if (!has[k])
			continue;
		fprintf(fp, "%s$%s%zu using %s with boxxyerror lc rgb \"%s\" title ", sep, var, k,
			using, cls[k].color);
		q(fp, cls[k].name);
		sep = ", \\\n     ";
	}
	fputc('\n', fp);
}

/* A compare document: %change per metric, significant ones marked. */
static int chart_change(struct plot *p, FILE *fp)
{
	static char names[MAX_ITEMS][160];
	static const struct series_class cls[] = {
		{ "significant, regression", "#d62728" },
		{ "significant", "#1f77b4" },
		{ "not significant", "#b0b0b0" },
	};
	struct json_object *rs = jget(p->docs[0], "results");
	struct json_object *news = jget(jget(p->docs[0], "params"), "new");
	size_t nr = 0, longest = 0;
	bool has[3];
	char title[512];
	const char *base = jstr(p->docs[0], "params.base");

	for (size_t pass = 0; pass < 2; pass++) {
		for (int k = 0; pass && k < 3; k++) {
			bool any = false;

			for (size_t i = 0, row = 0; i < jlen(rs); i++) {
				struct json_object *r = json_object_array_get_idx(rs, i);
				double chg = jnum(jget(r, "change_pct"));
				bool sig = json_object_get_boolean(jget(r, "significant"));
				bool reg = json_object_get_boolean(jget(r, "regression"));
				const char *m = jstr(r, "metric");

				if (!isfinite(chg) || !m || (p->o->metric && strcmp(m, p->o->metric)))
					continue;
				row++;
				if ((reg ? 0 : sig ? 1 : 2) != k)
					continue;
				if (!any)
					fprintf(fp, "$g%d << EOD\n", k);
				any = true;
				num(fp, chg / 2);
				num(fp, (double)row - 1);
				num(fp, fabs(chg) / 2);
				fputc('\n', fp);
			}
			if ((has[k] = any))
				fputs("EOD\n", fp);
		}
		if (pass)
			break;
		for (size_t i = 0; i < jlen(rs); i++) {
			struct json_object *r = json_object_array_get_idx(rs, i);
			const char *m = jstr(r, "metric"), *id = jstr(r, "id"), *part = jstr(r, "part");
			const char *nf = jlen(news) > 1 ? jstr(r, "new_file") : NULL;
			char lab[160];

			if (!isfinite(jnum(jget(r, "change_pct"))) || !m ||
			    (p->o->metric && strcmp(m, p->o->metric)))
				continue;
			snprintf(lab, sizeof(lab), "%s%s%s%s%s %s", nf ? nf : "",
				 nf ? ": " : "", part ? part : "", part ? ": " : "",
				 id ? id : "?", m);
			if (nr == MAX_ITEMS)
				return fail(p, "%s: too many comparisons", p->paths[0]);
			snprintf(names[nr++], 160, "%s", lab);
			if (strlen(lab) > longest)
				longest = strlen(lab);
		}
		if (!nr)
			return p->o->metric ?
			       fail(p, "%s: no comparison of the metric %s has a change", p->paths[0],
				    p->o->metric) :
			       fail(p, "%s: no comparison has a change to draw", p->paths[0]);
		snprintf(title, sizeof(title), "pipebench compare: change of the mean against %s",
			 base ? base : "the base");
		header(p, PB_PLOT_CHANGE, fp, (int)(900 + 7 * longest), (int)(180 + 22 * nr), title);
		fputs("set style fill solid 0.8 border -1\nset xlabel \"change of the mean (%)\"\n"
		      "set ylabel \"metric\"\nset grid noytics\n"
		      "set arrow from 0, graph 0 to 0, graph 1 nohead lw 1.5\n"
		      "set offsets graph 0.08, graph 0.08, 0, 0\n"
		      "set key outside right top vertical\n", fp);
		fprintf(fp, "set yrange [%g:-0.6]\n", (double)nr - 0.4);
		tics(fp, "y", names, nr, " noenhanced");
	}
	plot_classes(fp, "g", "1:2:3:(0.38)", cls, has, 3);
	return 0;
}

/* Conformance documents: a verdict grid, checks down, documents across. */
static int chart_grid(struct plot *p, FILE *fp)
{
	static char names[MAX_ITEMS][160];
	static const struct series_class st[] = {
		{ "pass", "#2ca02c" }, { "fail", "#d62728" }, { "error", "#9467bd" },
		{ "known-deviation", "#ff7f0e" }, { "info", "#17becf" }, { "skip", "#b0b0b0" },
	};
	size_t nck = 0;
	bool has[sizeof(st) / sizeof(st[0])];
	char title[256];

	for (size_t d = 0; d < p->n; d++) {
		struct json_object *cs = jget(p->docs[d], "checks");

		if (!jlen(cs))
			return fail(p, "%s: no checks to draw", p->paths[d]);
		for (size_t i = 0; i < jlen(cs); i++) {
			const char *id = jstr(json_object_array_get_idx(cs, i), "id");

			if (id && intern(names, &nck, id) < 0)
				return fail(p, "%s: too many checks", p->paths[d]);
		}
	}
	snprintf(title, sizeof(title), "pipebench conformance: verdicts per document");
	header(p, PB_PLOT_GRID, fp, (int)(420 + 140 * p->n), (int)(160 + 14 * nck), title);
	fputs("set style fill solid 0.9 border rgb \"white\"\nset xlabel \"document\"\n"
	      "set ylabel \"check\"\nunset grid\nset key outside right top\n", fp);
	fprintf(fp, "set xrange [-0.5:%g]\nset yrange [%g:-0.5]\n", (double)p->n - 0.5,
		(double)nck - 0.5);
	fputs("set ytics font \",8\"\n", fp);
	{
		char (*dl)[160] = p->labels;

		tics(fp, "x", dl, p->n, p->n > 3 ? " rotate by -30" : "");
	}
	tics(fp, "y", names, nck, "");
	for (size_t k = 0; k < sizeof(st) / sizeof(st[0]); k++) {
		size_t rows = 0;

		for (size_t d = 0; d < p->n; d++) {
			struct json_object *cs = jget(p->docs[d], "checks");

			for (size_t i = 0; i < jlen(cs); i++) {
				struct json_object *c = json_object_array_get_idx(cs, i);
				const char *id = jstr(c, "id"), *s = jstr(c, "status");

				if (!id || !s || strcmp(s, st[k].name))
					continue;
				if (!rows++)
					fprintf(fp, "$v%zu << EOD\n", k);
				num(fp, (double)d);
				num(fp, intern(names, &nck, id));
				fputc('\n', fp);
			}
		}
		if ((has[k] = rows > 0))
			fputs("EOD\n", fp);
	}
	plot_classes(fp, "v", "1:2:(0.46):(0.42)", st, has, sizeof(st) / sizeof(st[0]));
	return 0;
}

/* ------------------------------------------------------------ choice */

static const struct {
	const char *command, *metric;
} defaults[] = {
	{ "throughput", "rate_bytes_per_s" },
	{ "latency", "rtt_p50_ns" },
	{ "messaging", "rate_messages_per_s" },
	{ "o_noatime", "tt_ns" },
	{ "compare", NULL },
	{ "conformance", NULL },
};

/* Distinct sizes among DOC's measured results. */
static size_t distinct_sizes(struct json_object *doc)
{
	struct json_object *rs = results_of(doc);
	double seen[64];
	size_t n = 0;

	for (size_t i = 0; i < jlen(rs) && n < 64; i++) {
		double s = jnum(jget(json_object_array_get_idx(rs, i), "size_bytes"));
		bool dup = false;

		for (size_t k = 0; k < n; k++)
			dup |= seen[k] == s;
		if (isfinite(s) && !dup)
			seen[n++] = s;
	}
	return n;
}

int pb_plot_script(struct json_object *const *docs, const char *const *paths, size_t n,
		   const struct pb_plot_opts *o, FILE *fp, enum pb_plot_chart *chart,
		   char *err, size_t errlen)
{
	struct plot *p;
	enum pb_plot_chart c;
	size_t known = sizeof(defaults) / sizeof(defaults[0]), k;
	int rc;

	if (!n || n > PB_PLOT_MAX_DOCS) {
		snprintf(err, errlen, "between 1 and %d documents", PB_PLOT_MAX_DOCS);
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	*p = (struct plot){ .docs = docs, .paths = paths, .n = n, .o = o, .err = err,
			    .errlen = errlen };
	p->command = jstr(docs[0], "command");
	if (!p->command) {
		rc = fail(p, "%s: not a pipebench result document (no command)", paths[0]);
		goto out;
	}
	for (size_t i = 1; i < n; i++) {
		const char *ci = jstr(docs[i], "command");

		if (!ci || strcmp(ci, p->command)) {
			rc = fail(p, "%s is a %s document and %s a %s document: plot documents "
				  "of one command together", paths[0], p->command, paths[i],
				  ci ? ci : "non-pipebench");
			goto out;
		}
	}
	for (k = 0; k < known && strcmp(defaults[k].command, p->command); k++)
		;
	if (k == known) {
		rc = fail(p, "%s: plot draws throughput, latency, messaging, o_noatime, compare "
			  "and conformance documents, not %s documents", paths[0], p->command);
		goto out;
	}
	p->metric = o->metric ? o->metric : defaults[k].metric;
	doc_labels(p);
	if (!strcmp(p->command, "compare")) {
		if (n > 1) {
			rc = fail(p, "%s: plot draws one compare document at a time (%zu given)",
				  paths[1], n);
			goto out;
		}
		c = PB_PLOT_CHANGE;
	} else if (!strcmp(p->command, "conformance")) {
		if (o->metric) {
			rc = fail(p, "--metric: conformance documents have verdicts, not metrics");
			goto out;
		}
		c = PB_PLOT_GRID;
	} else {
		for (size_t i = 0; i < n; i++)
			if (!results_of(docs[i])) {
				rc = fail(p, "%s: no results to draw", paths[i]);
				goto out;
			}
		if (n == 1 && !strcmp(p->command, "throughput") && distinct_sizes(docs[0]) > 1)
			c = PB_PLOT_SWEEP;
		else if (n == 1 && !strcmp(p->command, "latency") && !o->metric)
			c = PB_PLOT_CDF;
		else
			c = PB_PLOT_BARS;
	}
	switch (c) {
	case PB_PLOT_SWEEP: rc = chart_sweep(p, fp); break;
	case PB_PLOT_CDF: rc = chart_cdf(p, fp); break;
	case PB_PLOT_BARS: rc = chart_bars(p, fp); break;
	case PB_PLOT_CHANGE: rc = chart_change(p, fp); break;
	default: rc = chart_grid(p, fp); break;
	}
	if (!rc && chart)
		*chart = c;
out:
	free(p);
	return rc;
}
