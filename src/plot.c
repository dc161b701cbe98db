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

const char *const pb_plot_chart_words[] = {
	"auto", "sweep", "cdf", "bars", "change", "grid", "intervals", "scaling", NULL
};

const char *pb_plot_chart_name(enum pb_plot_chart c)
{
	return (unsigned)c <= PB_PLOT_SCALING ? pb_plot_chart_words[c] : "?";
}

const char *pb_plot_term_name(enum pb_plot_term t)
{
	static const char *const names[] = { "svg", "png", "pdfcairo", "jpeg" };

	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "svg";
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

		if (p->o->labels && p->o->labels[i]) {
			snprintf(p->labels[i], sizeof(p->labels[i]), "%s", p->o->labels[i]);
			continue;
		}
		if (!h)
			h = jstr(p->docs[i], "system.hostname");
		if (!k)
			k = jstr(p->docs[i], "system.kernel_release");
		snprintf(p->labels[i], sizeof(p->labels[i]), "%s %s", h ? h : "?", k ? k : "?");
	}
	/* Two documents with one label (one host and kernel, or --label saying so):
	 * their position tells them apart. */
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

/* The unit of a time axis whose largest value is MAX ns: the largest of
 * ns, µs, ms and s that keeps that value at 1 or more.  Its size in ns. */
static double time_unit(double max, const char **name)
{
	static const struct { const char *name; double ns; } u[] = {
		{ "s", 1e9 }, { "ms", 1e6 }, { "\xc2\xb5s", 1e3 }, { "ns", 1 },
	};
	size_t i = 0;

	while (i + 1 < sizeof(u) / sizeof(u[0]) && !(isfinite(max) && max >= u[i].ns))
		i++;
	*name = u[i].name;
	return u[i].ns;
}

/* How a metric is drawn: in words, its unit, the factor to that unit. */
struct axis {
	char words[96];    /* "throughput" */
	char label[128];   /* "throughput (MiB/s)" */
	double scale;
};

enum unit_kind { U_COUNT, U_MIBS, U_TIME };

/* The metrics of pipebench's documents, in words.  Others are their name
 * with spaces, the unit from the suffix (_ns, _bytes_per_s, _per_s, _bytes). */
static const struct {
	const char *metric, *words, *unit;
	enum unit_kind kind;
} metric_words[] = {
	{ "rate_bytes_per_s", "throughput", NULL, U_MIBS },
	{ "rate_messages_per_s", "message rate", "messages/s", U_COUNT },
	{ "round_trips_per_s", "round-trip rate", "round trips/s", U_COUNT },
	{ "tt_ns", "total time", NULL, U_TIME },
	{ "tw_ns", "write time", NULL, U_TIME },
	{ "tr_ns", "read time", NULL, U_TIME },
	{ "ns_per_syscall", "time per system call", NULL, U_TIME },
	{ "elapsed_ns", "elapsed time", NULL, U_TIME },
	{ "cpu_user_ns", "user CPU time", NULL, U_TIME },
	{ "cpu_sys_ns", "system CPU time", NULL, U_TIME },
	{ "rtt_mean_ns", "mean round-trip time", NULL, U_TIME },
	{ "rtt_stddev_ns", "round-trip time standard deviation", NULL, U_TIME },
	{ "rtt_min_ns", "shortest round trip", NULL, U_TIME },
	{ "rtt_max_ns", "longest round trip", NULL, U_TIME },
	{ "syscalls", "system calls", "calls", U_COUNT },
	{ "write_calls", "write calls", "calls", U_COUNT },
	{ "read_calls", "read calls", "calls", U_COUNT },
	{ "bytes", "bytes moved", "bytes", U_COUNT },
	{ "messages", "messages", "messages", U_COUNT },
	{ "round_trips", "round trips", "round trips", U_COUNT },
	{ "verified_loops", "verified loops", "loops", U_COUNT },
};

static bool ends_with(const char *s, const char *tail, size_t *stem)
{
	size_t n = strlen(s), t = strlen(tail);

	*stem = n > t ? n - t : 0;
	return n > t && strcmp(s + n - t, tail) == 0;
}

/* METRIC in words with its unit; MAX (the largest value, NAN: unknown)
 * picks a time unit. */
static void metric_axis(const char *metric, double max, struct axis *a)
{
	const char *unit = NULL, *tu;
	enum unit_kind kind = U_COUNT;
	size_t stem = strlen(metric);
	unsigned pc, pf;
	int end = 0;

	a->words[0] = '\0';
	for (size_t i = 0; i < sizeof(metric_words) / sizeof(metric_words[0]); i++)
		if (strcmp(metric, metric_words[i].metric) == 0) {
			snprintf(a->words, sizeof(a->words), "%s", metric_words[i].words);
			unit = metric_words[i].unit;
			kind = metric_words[i].kind;
		}
	if (!a->words[0] && sscanf(metric, "rtt_p%u_%u_ns%n", &pc, &pf, &end) == 2 &&
	    !metric[end]) {
		snprintf(a->words, sizeof(a->words), "round-trip time, p%u.%u", pc, pf);
		kind = U_TIME;
	} else if (!a->words[0] && sscanf(metric, "rtt_p%u_ns%n", &pc, &end) == 1 &&
		   !metric[end]) {
		snprintf(a->words, sizeof(a->words), "round-trip time, p%u", pc);
		kind = U_TIME;
	} else if (!a->words[0]) {
		if (ends_with(metric, "_ns", &stem))
			kind = U_TIME;
		else if (ends_with(metric, "_bytes_per_s", &stem))
			kind = U_MIBS;
		else if (ends_with(metric, "_per_s", &stem))
			unit = "per second";
		else if (ends_with(metric, "_bytes", &stem))
			unit = "bytes";
		else
			stem = strlen(metric);
		snprintf(a->words, sizeof(a->words), "%.*s", (int)stem, metric);
		for (char *c = a->words; *c; c++)
			if (*c == '_')
				*c = ' ';
	}
	a->scale = 1.0;
	if (kind == U_MIBS) {
		unit = "MiB/s";
		a->scale = 1.0 / 1048576.0;
	} else if (kind == U_TIME) {
		a->scale = 1.0 / time_unit(max, &tu);
		unit = tu;
	}
	if (unit)
		snprintf(a->label, sizeof(a->label), "%s (%s)", a->words, unit);
	else
		snprintf(a->label, sizeof(a->label), "%s", a->words);
}

/* The largest value of the metric among the measured results of every document. */
static double metric_max(struct plot *p)
{
	double max = NAN;

	for (size_t d = 0; d < p->n; d++) {
		struct json_object *rs = results_of(p->docs[d]);

		for (size_t i = 0; i < jlen(rs); i++) {
			struct json_object *r = json_object_array_get_idx(rs, i);
			struct span s;

			if (measured(r) && metric_span(r, p->metric, &s) &&
			    (isnan(max) || s.hi > max))
				max = s.hi;
		}
	}
	return max;
}

/* ------------------------------------------------------------ labels */

/* The fields that tell results apart, in the order they are shown. */
static const char *const id_fields[] = {
	"kind", "mode", "io", "role", "label", "size_bytes", "groups", "placement", "wait", "copies",
	NULL
};

static void field_text(struct json_object *res, const char *f, bool tp, char *buf, size_t len)
{
	struct json_object *v = jget(res, f);

	buf[0] = '\0';
	if (!v) {
		/* A throughput result without a mode is the read/write loop, as
		 * is a latency result without io. */
		if ((tp && strcmp(f, "mode") == 0) || strcmp(f, "io") == 0)
			snprintf(buf, len, "rw");
		return;
	}
	if (strcmp(f, "size_bytes") == 0 && is_num(v))
		pb_format_size((uint64_t)json_object_get_int64(v), buf, len);
	else if (strcmp(f, "groups") == 0 && is_num(v))
		snprintf(buf, len, "%" PRId64 " groups", json_object_get_int64(v));
	else if (strcmp(f, "copies") == 0 && is_num(v))
		snprintf(buf, len, "x%" PRId64, json_object_get_int64(v));
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
	static const char *const ext[] = { "svg", "png", "pdf", "jpg" };
	const char *term = pb_plot_term_name(p->o->term);

	fprintf(fp, "# render: gnuplot THIS-FILE > chart.%s\n", ext[p->o->term]);
	if (p->o->term != PB_PLOT_SVG)
		/* A gnuplot built without the terminal says so in one line, the one
		 * cmd_plot.c recognises, instead of a parse error. */
		fprintf(fp, "if (!strstrt(\" \".GPVAL_TERMINALS.\" \", \" %s \")) {\n"
			"    print \"" PB_PLOT_NO_TERMINAL "%s terminal (for %s output): "
			"try svg, or --format gnuplot and a gnuplot that has it\"\n    exit\n}\n",
			term, term, ext[p->o->term]);
	if (p->o->term == PB_PLOT_PDF)
		fprintf(fp, "set terminal pdfcairo size %gin,%gin noenhanced font \"sans,9\"\n",
			w / 100.0, h / 100.0);
	else if (p->o->term != PB_PLOT_SVG)
		fprintf(fp, "set terminal %s size %d,%d noenhanced font \"sans,10\"\n", term, w, h);
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
	char title[512];
	struct axis ax;
	double scale;

	metric_axis(p->metric, metric_max(p), &ax);
	scale = ax.scale;
	varying(p, true, show, "size_bytes");
	npts = intern_points(p, 0, show, true, names, &ns, "series");
	if (npts < 0)
		return (int)npts;
	if (!npts)
		return fail(p, "%s: no result has %s", p->paths[0], p->metric);
	snprintf(title, sizeof(title), "pipebench throughput: %s by message size (%s)", ax.words,
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
	q(fp, ax.label);
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

/*
 * One throughput or latency document with several --copies counts: the
 * metric against the count, a line per row identity with the repetitions' range as
 * error bars, and beside each a dashed line of linear scaling from its
 * smallest count (the value there times the count over it).
 */
static int chart_scaling(struct plot *p, FILE *fp)
{
	struct json_object *rs = results_of(p->docs[0]);
	static char names[MAX_ITEMS][160];
	size_t ns = 0;
	long npts;
	bool show[16];
	char title[512];
	struct axis ax;

	metric_axis(p->metric, metric_max(p), &ax);
	varying(p, true, show, "copies");
	npts = intern_points(p, 0, show, true, names, &ns, "series");
	if (npts < 0)
		return (int)npts;
	if (!npts)
		return fail(p, "%s: no result has %s", p->paths[0], p->metric);
	snprintf(title, sizeof(title), "pipebench %s: %s by copies, against linear "
		 "scaling (%s)", p->command, ax.words, p->labels[0]);
	header(p, PB_PLOT_SCALING, fp, 900, 560, title);
	fputs("set xlabel \"copies\"\nset xtics 1\nset ylabel ", fp);
	q(fp, ax.label);
	fputs("\nset xrange [0:*]\nset yrange [0:*]\nset offsets graph 0.04, graph 0.04, 0, 0\n"
	      "set key outside right top vertical\n", fp);
	for (size_t k = 0; k < ns; k++) {
		double pts[1024][4];
		size_t np = 0;

		for (size_t i = 0; i < jlen(rs) && np < 1024; i++) {
			char lab[160];
			struct span s;

			if (!result_point(rs, i, p->metric, show, true, &s, lab, sizeof(lab)) ||
			    strcmp(lab, names[k]) != 0)
				continue;
			pts[np][0] = jnum(jget(json_object_array_get_idx(rs, i), "copies"));
			pts[np][1] = s.med * ax.scale;
			pts[np][2] = s.lo * ax.scale;
			pts[np][3] = s.hi * ax.scale;
			np++;
		}
		qsort(pts, np, sizeof(pts[0]), cmp_first);
		fprintf(fp, "$s%zu << EOD\n", k);
		for (size_t i = 0; i < np; i++) {
			for (int c = 0; c < 4; c++)
				num(fp, pts[i][c]);
			/* linear scaling from the smallest count */
			num(fp, np && pts[0][0] > 0 ? pts[0][1] * pts[i][0] / pts[0][0] : NAN);
			fputc('\n', fp);
		}
		fputs("EOD\n", fp);
	}
	fputs("plot ", fp);
	for (size_t k = 0; k < ns; k++) {
		fprintf(fp, "%s$s%zu using 1:2:3:4 with yerrorlines lw 2 pt 7 lc %zu title ",
			k ? ", \\\n     " : "", k, k + 1);
		q(fp, names[k]);
		fprintf(fp, ", \\\n     $s%zu using 1:5 with lines dt 2 lw 1 lc %zu title ", k,
			k + 1);
		{
			char t[200];

			snprintf(t, sizeof(t), "%.160s, linear", names[k]);
			q(fp, t);
		}
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
	char title[512], xlabel[64];
	double min = NAN, unit;
	const char *uname;

	varying(p, false, show, NULL);
	snprintf(title, sizeof(title), "pipebench latency: round-trip time CDF (%s)", p->labels[0]);
	for (size_t i = 0; i < jlen(rs); i++) {
		double total, lo;
		struct json_object *h = cdf_histogram(json_object_array_get_idx(rs, i), &total);

		lo = h ? jnum(json_object_array_get_idx(json_object_array_get_idx(h, 0), 0)) : NAN;
		if (isfinite(lo) && (isnan(min) || lo < min))
			min = lo;
	}
	/* A log axis: the unit from the shortest round trip, so that a long
	 * tail does not put the bulk of the curve below 0.01. */
	unit = time_unit(min, &uname);
	snprintf(xlabel, sizeof(xlabel), "round-trip time (%s)", uname);
	for (size_t i = 0; i < jlen(rs); i++) {
		struct json_object *r = json_object_array_get_idx(rs, i);
		double total, cum = 0;
		struct json_object *h = cdf_histogram(r, &total);

		if (!h)
			continue;
		if (!nser++) {
			header(p, PB_PLOT_CDF, fp, 900, 560, title);
			fputs("set logscale x 10\nset xlabel ", fp);
			q(fp, xlabel);
			fputs("\nset ylabel \"fraction of round trips\"\nset yrange [0:1.02]\n"
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
				num(fp, (lo > 0 ? lo : 1) / unit);
				num(fp, 0);
				fputc('\n', fp);
			}
			cum += c;
			num(fp, (hi + 1) / unit);
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
	char title[512];
	struct axis ax;
	double scale, w = 0.8 / (double)p->n;

	metric_axis(p->metric, metric_max(p), &ax);
	scale = ax.scale;
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
		snprintf(title, sizeof(title), "pipebench %s: %s (%s)", p->command, ax.words,
			 p->labels[0]);
	else
		snprintf(title, sizeof(title), "pipebench %s: %s per document", p->command,
			 ax.words);
	header(p, PB_PLOT_BARS, fp, (int)(700 + 40 * nc * (p->n > 2 ? p->n / 2 : 1)), 600, title);
	fputs("set style fill solid 0.75 border -1\nset ylabel ", fp);
	q(fp, ax.label);
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
			struct axis ax;

			if (!isfinite(jnum(jget(r, "change_pct"))) || !m ||
			    (p->o->metric && strcmp(m, p->o->metric)))
				continue;
			metric_axis(m, NAN, &ax);
			snprintf(lab, sizeof(lab), "%s%s%s%s%s %s", nf ? nf : "",
				 nf ? ": " : "", part ? part : "", part ? ": " : "",
				 id ? id : "?", ax.words);
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

/* The interval series of a measured latency result (the repetitions with
 * one), or false. */
static bool has_intervals(struct json_object *r)
{
	struct json_object *reps = jget(r, "repetitions");

	if (!measured(r))
		return false;
	for (size_t i = 0; i < jlen(reps); i++)
		if (jlen(jget(json_object_array_get_idx(reps, i), "intervals")))
			return true;
	return false;
}

static bool doc_has_intervals(struct json_object *doc)
{
	struct json_object *rs = results_of(doc);

	for (size_t i = 0; i < jlen(rs); i++)
		if (has_intervals(json_object_array_get_idx(rs, i)))
			return true;
	return false;
}

/* A walk over a result's intervals: what is done with each. */
struct ivisit {
	void (*point)(struct ivisit *v, double t, double p50, double p99);
	void (*newrep)(struct ivisit *v);
	FILE *fp;
	double tmax, ymax, tunit, yunit;
};

/*
 * V's point() for every interval of result R with its end in ns from the
 * start of the first repetition (repetitions follow one another, each
 * starting where the one before ended) and its p50 and p99; newrep()
 * between repetitions.
 */
static void each_interval(struct json_object *r, struct ivisit *v)
{
	struct json_object *reps = jget(r, "repetitions");
	double base = 0;
	bool any = false;

	for (size_t k = 0; k < jlen(reps); k++) {
		struct json_object *rep = json_object_array_get_idx(reps, k);
		struct json_object *iv = jget(rep, "intervals");
		double end = 0, el = jnum(jget(rep, "elapsed_ns"));

		if (!jlen(iv))
			continue;
		if (any && v->newrep)
			v->newrep(v);
		any = true;
		for (size_t i = 0; i < jlen(iv); i++) {
			struct json_object *o = json_object_array_get_idx(iv, i);
			double t = jnum(jget(o, "end_ns"));
			double a = jnum(jget(o, "rtt_p50_ns")), b = jnum(jget(o, "rtt_p99_ns"));

			if (!isfinite(t))
				continue;
			if (t > end)
				end = t;
			if (isfinite(a) && isfinite(b))
				v->point(v, base + t, a, b);
		}
		base += isfinite(el) && el > end ? el : end;
	}
}

static void iv_max(struct ivisit *v, double t, double p50, double p99)
{
	(void)p50;
	if (t > v->tmax)
		v->tmax = t;
	if (p99 > v->ymax)
		v->ymax = p99;
}

static void iv_row(struct ivisit *v, double t, double p50, double p99)
{
	num(v->fp, t / v->tunit);
	num(v->fp, p50 / v->yunit);
	num(v->fp, p99 / v->yunit);
	fputc('\n', v->fp);
}

/* A blank line: gnuplot does not join one repetition's line to the next. */
static void iv_gap(struct ivisit *v)
{
	fputc('\n', v->fp);
}

/* One latency document with --interval: p50 and p99 per interval over time. */
static int chart_intervals(struct plot *p, FILE *fp)
{
	struct json_object *rs = results_of(p->docs[0]);
	struct ivisit v = { .point = iv_max };
	bool show[16];
	char title[512], xl[64], yl[64];
	const char *tu, *yu;
	size_t nser = 0;

	varying(p, false, show, NULL);
	for (size_t i = 0; i < jlen(rs); i++)
		if (has_intervals(json_object_array_get_idx(rs, i)))
			each_interval(json_object_array_get_idx(rs, i), &v);
	if (!(v.tmax > 0))
		return fail(p, "%s: no measured result has --interval series", p->paths[0]);
	v.tunit = time_unit(v.tmax, &tu);
	v.yunit = time_unit(v.ymax, &yu);
	snprintf(xl, sizeof(xl), "time into the run (%s)", tu);
	snprintf(yl, sizeof(yl), "round-trip time (%s)", yu);
	snprintf(title, sizeof(title), "pipebench latency: round-trip time per interval (%s)",
		 p->labels[0]);
	header(p, PB_PLOT_INTERVALS, fp, 1000, 560, title);
	fputs("set xlabel ", fp);
	q(fp, xl);
	fputs("\nset ylabel ", fp);
	q(fp, yl);
	fputs("\nset xrange [0:*]\nset yrange [0:*]\nset key outside right top vertical\n", fp);
	v.point = iv_row;
	v.newrep = iv_gap;
	v.fp = fp;
	for (size_t i = 0; i < jlen(rs); i++) {
		if (!has_intervals(json_object_array_get_idx(rs, i)))
			continue;
		fprintf(fp, "$i%zu << EOD\n", i);
		each_interval(json_object_array_get_idx(rs, i), &v);
		fputs("EOD\n", fp);
	}
	fputs("plot ", fp);
	for (size_t i = 0; i < jlen(rs); i++) {
		struct json_object *r = json_object_array_get_idx(rs, i);
		char lab[160], t[180];

		if (!has_intervals(r))
			continue;
		result_label(r, show, false, lab, sizeof(lab));
		nser++;
		snprintf(t, sizeof(t), "%s p50", lab);
		fprintf(fp, "%s$i%zu using 1:2 with lines lw 2 lc %zu title ", nser > 1 ? ", \\\n     " : "",
			i, nser);
		q(fp, t);
		snprintf(t, sizeof(t), "%s p99", lab);
		fprintf(fp, ", \\\n     $i%zu using 1:3 with lines lw 1 dt 2 lc %zu title ", i, nser);
		q(fp, t);
	}
	fputc('\n', fp);
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
static size_t distinct_values(struct json_object *doc, const char *field)
{
	struct json_object *rs = results_of(doc);
	double seen[64];
	size_t n = 0;

	for (size_t i = 0; i < jlen(rs) && n < 64; i++) {
		double s = jnum(jget(json_object_array_get_idx(rs, i), field));
		bool dup = false;

		for (size_t k = 0; k < n; k++)
			dup |= seen[k] == s;
		if (isfinite(s) && !dup)
			seen[n++] = s;
	}
	return n;
}

static size_t distinct_sizes(struct json_object *doc)
{
	return distinct_values(doc, "size_bytes");
}

/* --copies counts in one throughput or latency document: the scaling chart. */
static bool has_scaling(struct plot *p, struct json_object *doc)
{
	return p->n == 1 && (!strcmp(p->command, "throughput") || !strcmp(p->command, "latency")) &&
	       distinct_values(doc, "copies") > 1;
}

/* The parts of a report that plot draws, the default first, in the order
 * --help and the manual give. */
static const char *const report_parts[] = {
	"throughput", "throughput_64k", "latency", "messaging", "o_noatime", "conformance", NULL
};

/* The names of the report's parts, for an error message. */
static void part_names(struct json_object *parts, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	if (!parts || !json_object_is_type(parts, json_type_object))
		return;
	json_object_object_foreach(parts, key, val) {
		(void)val;
		if (off + strlen(key) + 3 >= len)
			break;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", key);
	}
}

/*
 * Report documents stand for their part O->part (default: the first of
 * report_parts the first report has): PD[i] is the document drawn for
 * DOCS[i].  Returns 0, or fail()'s -EINVAL.
 */
static int pick_parts(struct plot *p, struct json_object *const *docs,
		      struct json_object **pd)
{
	const char *part = p->o->part;

	for (size_t i = 0; i < p->n; i++) {
		const char *c = jstr(docs[i], "command");
		struct json_object *parts = jget(docs[i], "parts"), *d;
		char have[256];

		pd[i] = docs[i];
		if (!c || strcmp(c, "report")) {
			if (p->o->part)
				return fail(p, "--part: %s is a %s document, not a report", p->paths[i],
					    c ? c : "non-pipebench");
			continue;
		}
		for (size_t k = 0; !part && report_parts[k]; k++)
			if (jget(parts, report_parts[k]))
				part = report_parts[k];
		part_names(parts, have, sizeof(have));
		if (!part)
			return fail(p, "%s: the report has no part plot draws (it has: %s)",
				    p->paths[i], *have ? have : "none");
		d = jget(parts, part);
		if (!d)
			return fail(p, "%s: the report has no %s part (it has: %s)", p->paths[i], part,
				    *have ? have : "none");
		if (!jstr(d, "command"))
			return fail(p, "%s: the report's %s part is not a document", p->paths[i], part);
		pd[i] = d;
	}
	return 0;
}

/* Whether the chart C fits; else fail()'s -EINVAL saying why. */
static int chart_fits(struct plot *p, enum pb_plot_chart c)
{
	const char *cmd = p->command;
	bool one = p->n == 1;

	switch (c) {
	case PB_PLOT_SWEEP:
		if (one && !strcmp(cmd, "throughput") && distinct_sizes(p->docs[0]) > 1)
			return 0;
		return fail(p, "--chart sweep: draws one throughput document with several sizes");
	case PB_PLOT_SCALING:
		if (has_scaling(p, p->docs[0]))
			return 0;
		return fail(p, "--chart scaling: draws one throughput or latency document with "
			    "several --copies counts");
	case PB_PLOT_CDF:
		if (one && !strcmp(cmd, "latency") && !p->o->metric)
			return 0;
		return fail(p, "--chart cdf: draws one latency document, without --metric");
	case PB_PLOT_INTERVALS:
		if (one && !strcmp(cmd, "latency") && !p->o->metric && doc_has_intervals(p->docs[0]))
			return 0;
		return fail(p, "--chart intervals: draws one latency document run with --interval, "
			    "without --metric");
	case PB_PLOT_BARS:
		if (strcmp(cmd, "compare") && strcmp(cmd, "conformance"))
			return 0;
		return fail(p, "--chart bars: draws metrics, not %s documents", cmd);
	case PB_PLOT_CHANGE:
		return !strcmp(cmd, "compare") ? 0 :
		       fail(p, "--chart change: draws a compare document, not %s documents", cmd);
	default:
		return !strcmp(cmd, "conformance") ? 0 :
		       fail(p, "--chart grid: draws conformance documents, not %s documents", cmd);
	}
}

int pb_plot_script(struct json_object *const *docs, const char *const *paths, size_t n,
		   const struct pb_plot_opts *o, FILE *fp, enum pb_plot_chart *chart,
		   char *err, size_t errlen)
{
	struct plot *p;
	struct json_object *pd[PB_PLOT_MAX_DOCS];
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
	*p = (struct plot){ .docs = pd, .paths = paths, .n = n, .o = o, .err = err,
			    .errlen = errlen };
	rc = pick_parts(p, docs, pd);
	if (rc)
		goto out;
	p->command = jstr(pd[0], "command");
	if (!p->command) {
		rc = fail(p, "%s: not a pipebench result document (no command)", paths[0]);
		goto out;
	}
	for (size_t i = 1; i < n; i++) {
		const char *ci = jstr(pd[i], "command");

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
		rc = fail(p, "%s: plot draws throughput, latency, messaging, o_noatime, compare, "
			  "conformance and report documents, not %s documents", paths[0],
			  p->command);
		goto out;
	}
	p->metric = o->metric ? o->metric : defaults[k].metric;
	/* latency's scaling chart: the rate, which copies add up */
	if (!o->metric && !strcmp(p->command, "latency") && has_scaling(p, pd[0]) &&
	    (o->chart == PB_PLOT_AUTO || o->chart == PB_PLOT_SCALING))
		p->metric = "round_trips_per_s";
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
			if (!results_of(pd[i])) {
				rc = fail(p, "%s: no results to draw", paths[i]);
				goto out;
			}
		if (has_scaling(p, pd[0]))
			c = PB_PLOT_SCALING;
		else if (n == 1 && !strcmp(p->command, "throughput") && distinct_sizes(pd[0]) > 1)
			c = PB_PLOT_SWEEP;
		else if (n == 1 && !strcmp(p->command, "latency") && !o->metric)
			c = doc_has_intervals(pd[0]) ? PB_PLOT_INTERVALS : PB_PLOT_CDF;
		else
			c = PB_PLOT_BARS;
	}
	if (o->chart != PB_PLOT_AUTO && o->chart != c) {
		rc = chart_fits(p, o->chart);
		if (rc)
			goto out;
		c = o->chart;
	}
	switch (c) {
	case PB_PLOT_SWEEP: rc = chart_sweep(p, fp); break;
	case PB_PLOT_SCALING: rc = chart_scaling(p, fp); break;
	case PB_PLOT_CDF: rc = chart_cdf(p, fp); break;
	case PB_PLOT_INTERVALS: rc = chart_intervals(p, fp); break;
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
