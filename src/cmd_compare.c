/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench compare: BASE.json against one or more NEW.json documents, in
 * the kernel test robot's layout (`231874 ~ 1%  -7.3%  214834 ~ 2%`), with
 * Welch's t-test over the repetitions and a regression threshold for exit 1.
 * Loading, matching and the rules live in compare.c.
 *
 * A CI gate must not pass what it could not compare: a run that failed, or
 * a NEW that matches nothing in BASE, is refused (exit 2) unless
 * --allow-partial; coverage lost is listed, and fails with --strict.
 */
#include <config.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "msg.h"
#include "output.h"
#include "sysinfo.h"
#include "units.h"

#define NAME "compare"
/* A fleet: BASE and up to 63 NEW documents (the text stays readable: past
 * three NEW it is a block per metric and a line per document). */
#define MAX_NEW 63
#define FLEET_FROM 4


struct cmp_input {
	const char *path;
	struct json_object *doc;
	char differ[1024];       /* params that differ from BASE */
	size_t ndiffer;
	char state[1024];        /* machine state that differs from BASE's */
	size_t nstate;
	char failed[512];        /* why the run did not complete, or "" */
	struct pb_cmp_result res;
};

struct cmp_run {
	const char *base_path;
	struct json_object *base;
	struct cmp_input in[MAX_NEW];
	size_t nin;
	double threshold;
	int force, allow_partial, strict;
	const char *metrics;     /* --metrics, or NULL */
	int all_metrics;         /* --all-metrics: text shows every row */
	char base_failed[512];
	char ignore[4096];       /* union of differing params: left out of identities */
	struct json_object *warnings;
	const char *label_opt;   /* --label */
	char *labels[MAX_NEW + 1]; /* column labels, BASE first (make_labels) */
	size_t label_w;          /* the longest label */
	int status;              /* the exit status, for the JSON document */
};

/* A document measured on a machine busier than it has CPUs: say so. */
static void busy_note(const char *path, struct json_object *doc, FILE *fp)
{
	struct json_object *sys, *load, *cpus;

	if (!json_object_object_get_ex(doc, "system", &sys) ||
	    !json_object_object_get_ex(sys, "loadavg_1m", &load) || !load ||
	    !json_object_object_get_ex(sys, "cpus_online", &cpus) || !cpus)
		return;
	if (json_object_get_double(load) > (double)json_object_get_int(cpus))
		fprintf(fp, "note: %s was measured with a load average of %.1f on %d CPUs: its "
			"figures carry other work's noise\n", path, json_object_get_double(load),
			json_object_get_int(cpus));
}

static const char *doc_kernel(struct json_object *doc)
{
	struct json_object *sys, *v;

	if (json_object_object_get_ex(doc, "system", &sys) &&
	    json_object_object_get_ex(sys, "kernel_release", &v) &&
	    json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return "?";
}

static const char *doc_command(struct json_object *doc)
{
	struct json_object *v;

	json_object_object_get_ex(doc, "command", &v);
	return json_object_get_string(v);
}

static void add_ignore(struct cmp_run *run, const char *list)
{
	size_t off = strlen(run->ignore);

	if (!*list)
		return;
	snprintf(run->ignore + off, sizeof(run->ignore) - off, "%s%s", off ? "," : "", list);
}

/* A warning on stderr that the JSON document repeats. */
static void warn(struct cmp_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct cmp_run *run, const char *fmt, ...)
{
	char msg[1400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pb_warn(NAME, "%s", msg);
	json_object_array_add(run->warnings, json_object_new_string(msg));
}

/* Whether PATH's run completed; if not, an error unless --allow-partial. */
static int vet_run(struct cmp_run *run, const char *path, struct json_object *doc,
		   char *failed, size_t len)
{
	if (!pb_cmp_run_failed(doc, failed, len)) {
		failed[0] = '\0';
		return 0;
	}
	if (run->allow_partial)
		return 0;
	pb_err(NAME, "%s: %s; use --allow-partial to compare what it has", path, failed);
	return -1;
}

/* Whether DOC's figures depend on the machine: every command but the
 * verdicts of conformance and timestamps. */
static bool measures(struct json_object *doc)
{
	struct json_object *c;
	const char *cmd;

	if (!json_object_object_get_ex(doc, "command", &c) || !c)
		return false;
	cmd = json_object_get_string(c);
	return strcmp(cmd, "conformance") != 0 && strcmp(cmd, "timestamps") != 0;
}

/* Load and vet every file before comparing anything: errors are exit 2,
 * documents of machines in another state -2 (exit 4, cannot decide). */
static int load_all(struct cmp_run *run)
{
	char err[512];

	if (pb_cmp_load(run->base_path, &run->base, err, sizeof(err))) {
		pb_err(NAME, "%s: %s", run->base_path, err);
		return -1;
	}
	if (vet_run(run, run->base_path, run->base, run->base_failed, sizeof(run->base_failed)))
		return -1;
	for (size_t i = 0; i < run->nin; i++) {
		struct cmp_input *in = &run->in[i];

		if (pb_cmp_load(in->path, &in->doc, err, sizeof(err))) {
			pb_err(NAME, "%s: %s", in->path, err);
			return -1;
		}
		if (vet_run(run, in->path, in->doc, in->failed, sizeof(in->failed)))
			return -1;
		if (pb_cmp_compatible(run->base, in->doc, err, sizeof(err))) {
			pb_err(NAME, "%s: %s (%s)", in->path, err, run->base_path);
			return -1;
		}
		in->ndiffer = pb_cmp_params_diff(run->base, in->doc, in->differ,
						 sizeof(in->differ));
		if (in->ndiffer && !run->force) {
			pb_err(NAME, "%s: parameters differ from %s: %s (--force compares anyway)",
			       in->path, run->base_path, in->differ);
			return -1;
		}
		/* Verdicts are the kernel's; figures are the machine's too. */
		if (measures(in->doc))
			in->nstate = pb_cmp_state_diff(run->base, in->doc, in->state,
						       sizeof(in->state));
		if (in->nstate && !run->force) {
			pb_err(NAME, "%s: measured on a machine in another state than %s: %s "
			       "(cannot decide; --force compares anyway)", in->path, run->base_path,
			       in->state);
			return -2;
		}
	}
	if (run->base_failed[0])
		warn(run, "%s: %s; compared what it has (--allow-partial)", run->base_path,
		     run->base_failed);
	for (size_t i = 0; i < run->nin; i++) {
		struct cmp_input *in = &run->in[i];

		char dirs[512];

		if (in->failed[0])
			warn(run, "%s: %s; compared what it has (--allow-partial)", in->path,
			     in->failed);
		if (in->nstate)
			warn(run, "%s: measured on a machine in another state than %s: %s; compared "
			     "anyway (--force)", in->path, run->base_path, in->state);
		if (pb_cmp_dirs_diff(run->base, in->doc, dirs, sizeof(dirs)))
			warn(run, "%s: the FIFO directory differs from %s (%s); compared: only "
			     "the filesystem a FIFO is on can change a figure", in->path,
			     run->base_path, dirs);
		if (!in->ndiffer)
			continue;
		warn(run, "%s: parameters differ from %s: %s; compared anyway, totals such as "
		     "times per unit of work", in->path, run->base_path, in->differ);
		add_ignore(run, in->differ);
	}
	return 0;
}

/*
 * Why nothing of IN could be compared with BASE, or NULL when something
 * was.  Used after comparing.
 */
static const char *nothing_matched(const struct cmp_run *run, const struct cmp_input *in,
				   char *why, size_t len, const char **who)
{
	const struct pb_cmp_result *r = &in->res;

	if (r->matched)
		return NULL;
	*who = in->path;
	if (!r->base_results && !r->new_results)
		snprintf(why, len, "nothing to compare: neither it nor %s has results",
			 run->base_path);
	else if (!r->new_results)
		snprintf(why, len, "it has no results (%s has %zu)", run->base_path,
			 r->base_results);
	else if (!r->base_results) {
		*who = run->base_path;
		snprintf(why, len, "it has no results (%s has %zu)", in->path, r->new_results);
	} else if (!r->paired) {
		snprintf(why, len, "none of its %zu results matches one of %s's %zu",
			 r->new_results, run->base_path, r->base_results);
	} else if (r->nlost) {
		char more[48] = "";

		if (r->nlost > 1)
			snprintf(more, sizeof(more), "; and %zu more", r->nlost - 1);
		snprintf(why, len, "nothing in it can be compared with %s (%s%s%s: %s%s)",
			 run->base_path, r->lost[0].part ? r->lost[0].part : "",
			 r->lost[0].part ? ": " : "", r->lost[0].label, r->lost[0].why, more);
	} else {
		*who = run->base_path;
		snprintf(why, len, "none of its %zu results holds a measurement to compare with "
			 "%s's", r->base_results, in->path);
	}
	return why;
}

/*
 * Metrics whose neutral (workload) counts changed by more than 1%: the runs
 * did different work, so their times say little (e.g. --pipe-size 8K moves
 * an eighth of the bytes per loop).
 */
static size_t workload_changed(const struct cmp_run *run)
{
	size_t n = 0;

	for (size_t k = 0; k < run->nin; k++)
		for (size_t i = 0; i < run->in[k].res.nm; i++) {
			n += pb_cmp_workload_changed(&run->in[k].res.m[i]);
		}
	return n;
}

static size_t not_comparable(const struct cmp_run *run)
{
	size_t n = 0;

	for (size_t k = 0; k < run->nin; k++)
		n += run->in[k].res.not_comparable;
	return n;
}

static size_t inconclusive(const struct cmp_run *run)
{
	size_t n = 0;

	for (size_t k = 0; k < run->nin; k++)
		n += run->in[k].res.inconclusive;
	return n;
}

static size_t coverage_lost(const struct cmp_run *run)
{
	size_t n = 0;

	for (size_t k = 0; k < run->nin; k++)
		n += run->in[k].res.nlost;
	return n;
}

/* ------------------------------------------------------------ text */

static void fmt_num(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else if (fabs(v) >= 1e12)
		snprintf(buf, len, "%.4g", v);
	else if (fabs(v) >= 100 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* V of METRIC in human units for the text: times (*_ns, ns_per_*,
 * *_ns_per_*) in ns, us, ms or s; byte rates (*bytes_per_s) in B/s, kB/s,
 * MB/s or GB/s (powers of ten); other rates (rate_*, *_per_s) per second
 * with k, M or G; anything else as a plain number (fmt_num).  Four
 * significant digits. */
static void fmt_value(const char *metric, double v, char *buf, size_t len)
{
	static const char *const time_u[] = { "ns", "us", "ms", "s" };
	static const char *const byte_u[] = { "B/s", "kB/s", "MB/s", "GB/s" };
	static const char *const rate_u[] = { "/s", "k/s", "M/s", "G/s" };
	const char *const *u = NULL;
	int i = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (ends_with(metric, "_ns") || strstr(metric, "_ns_per_") || !strncmp(metric, "ns_per_", 7))
		u = time_u;
	else if (ends_with(metric, "bytes_per_s"))
		u = byte_u;
	else if (pb_cmp_is_rate(metric))
		u = rate_u;
	if (!u) {
		fmt_num(v, buf, len);
		return;
	}
	for (; i < 3 && fabs(v) >= 1000; i++)
		v /= 1000;
	snprintf(buf, len, "%.4g %s", v, u[i]);
}

/* A metric's "mean ~ rsd" cell, the mean in human units (fmt_value). */
static void fmt_mean_rsd(const char *metric, const struct pb_stats *s, char *buf, size_t len)
{
	char num[48];

	fmt_value(metric, s->mean, num, sizeof(num));
	snprintf(buf, len, "%12s ~%3.0f%%", num, s->rsd * 100);
}

/* A NEW metric's %change ("+3.2%", "n/a") and its "mean ~ rsd" cell. */
static void fmt_change(const struct pb_cmp_metric *m, char *chg, size_t chg_len, char *cell,
		       size_t cell_len)
{
	if (isfinite(m->change_pct))
		snprintf(chg, chg_len, "%+.1f%%", m->change_pct);
	else
		snprintf(chg, chg_len, "n/a");
	fmt_mean_rsd(m->metric, &m->cur, cell, cell_len);
}

static char marker(const struct pb_cmp_metric *m)
{
	if (m->regression)
		return '!';
	if (!m->comparable)
		return '~';
	if (m->inconclusive)
		return 'u';
	if (m->significant)
		return '*';
	if (m->p < 0)
		return '?';
	return ' ';
}

static bool same_row(const struct pb_cmp_metric *a, const struct pb_cmp_metric *b)
{
	return !strcmp(a->label, b->label) && !strcmp(a->metric, b->metric) &&
	       ((!a->part && !b->part) || (a->part && b->part && !strcmp(a->part, b->part)));
}

static const struct pb_cmp_metric *find_row(const struct pb_cmp_result *r,
					    const struct pb_cmp_metric *want)
{
	for (size_t i = 0; i < r->nm; i++)
		if (same_row(&r->m[i], want))
			return &r->m[i];
	return NULL;
}

/* Whether the row WANT was already printed from an earlier input's result. */
static bool printed_before(const struct cmp_run *run, size_t k, const struct pb_cmp_metric *want)
{
	for (size_t j = 0; j < k; j++)
		if (find_row(&run->in[j].res, want))
			return true;
	return false;
}

/* Whether the text shows ROW: every row with --all-metrics; else not the
 * workload counts (bytes, syscalls, messages, round trips...), and not the
 * side counters (context switches, CPU time, migrations) and the details
 * (pb_cmp_is_detail) unless --metrics makes them gate; always a
 * regression. */
static bool shown(const struct cmp_run *run, const struct pb_cmp_metric *row)
{
	if (run->all_metrics ||
	    (!pb_cmp_is_workload(row->metric) &&
	     (!row->side || (!row->detail && pb_cmp_gates(row->metric, NULL)))))
		return true;
	for (size_t k = 0; k < run->nin; k++) {
		const struct pb_cmp_metric *m = find_row(&run->in[k].res, row);

		if (m && m->regression)
			return true;
	}
	return false;
}

static void count_hidden(const struct cmp_run *run, const struct pb_cmp_metric *row, void *arg)
{
	*(size_t *)arg += !shown(run, row);
}

/* Whether M is the first significant change of its result in R that the
 * text shows. */
static bool first_significant(const struct cmp_run *run, const struct pb_cmp_result *r,
			      const struct pb_cmp_metric *m)
{
	for (const struct pb_cmp_metric *x = r->m; x < m; x++)
		if (x->significant && shown(run, x) && !strcmp(x->label, m->label) &&
		    ((!x->part && !m->part) || (x->part && m->part && !strcmp(x->part, m->part))))
			return false;
	return true;
}

static void emit_row(const struct cmp_run *run, const struct pb_cmp_metric *row, FILE *fp)
{
	char cell[96];

	fmt_mean_rsd(row->metric, &row->base, cell, sizeof(cell));
	fputs(cell, fp);
	for (size_t k = 0; k < run->nin; k++) {
		const struct pb_cmp_metric *m = find_row(&run->in[k].res, row);
		char chg[32];

		if (!m) {
			fprintf(fp, "  %9s   %18s", "-", "-");
			continue;
		}
		fmt_change(m, chg, sizeof(chg), cell, sizeof(cell));
		fprintf(fp, "  %9s %c %s", chg, marker(m), cell);
	}
	fprintf(fp, "  %s%s%s %s\n", row->part ? row->part : "", row->part ? ": " : "",
		row->label, row->metric);
	/* --profile on both sides: what moved, under the result's first
	 * significant change */
	for (size_t k = 0; k < run->nin; k++) {
		const struct pb_cmp_metric *m = find_row(&run->in[k].res, row);

		if (m && m->moved && m->significant && first_significant(run, &run->in[k].res, m))
			fprintf(fp, "%20s what moved%s%s: %s\n", "", run->nin > 1 ? " in " : "",
				run->nin > 1 ? run->in[k].path : "", m->moved);
	}
}

/* ------------------------------------------------------------ fleet */

/* Member PATH ("a.b") of O as a string (numbers and lists as JSON), or NULL. */
static const char *jpath(struct json_object *o, const char *path)
{
	o = pb_json_get(o, path);
	if (!o)
		return NULL;
	return json_object_is_type(o, json_type_string) ? json_object_get_string(o) :
	       json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
}

static struct json_object *doc_at(const struct cmp_run *run, size_t i)
{
	return i ? run->in[i - 1].doc : run->base;
}

static const char *path_at(const struct cmp_run *run, size_t i)
{
	return i ? run->in[i - 1].path : run->base_path;
}

/* The document's host and kernel: from `run`, else `system` (older documents). */
static const char *doc_host(struct json_object *doc)
{
	const char *h = jpath(doc, "run.hostname");

	return h ? h : jpath(doc, "system.hostname") ? jpath(doc, "system.hostname") : "?";
}

static const char *doc_release(struct json_object *doc)
{
	const char *k = jpath(doc, "run.kernel.release");

	return k ? k : doc_kernel(doc);
}

/*
 * Column labels, BASE first: --label's comma-separated words in order, else
 * HOST/KERNEL from the document's `run`; a label given twice gets "#N" (its
 * position) so that no two columns look alike.  -1 after a usage error.
 */
static int make_labels(struct cmp_run *run)
{
	size_t n = run->nin + 1;
	long given = pb_cli_labels(run->label_opt, run->labels, n);
	char buf[512];

	if (given < 0)
		return -ENOMEM;
	if ((size_t)given > n) {
		for (size_t i = 0; i < n; i++) {
			free(run->labels[i]);
			run->labels[i] = NULL;
		}
		pb_usage_err(NAME, "--label: %ld labels for %zu documents", given, n);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (run->labels[i])
			continue;
		snprintf(buf, sizeof(buf), "%s/%s", doc_host(doc_at(run, i)),
			 doc_release(doc_at(run, i)));
		run->labels[i] = strdup(buf);
	}
	for (size_t i = 0; i < n; i++)
		if (!run->labels[i])
			return -ENOMEM;
	/* Every label that is not unique, all of them. */
	{
		bool dup[MAX_NEW + 1] = { false };

		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				dup[i] |= j != i && strcmp(run->labels[i], run->labels[j]) == 0;
		for (size_t i = 0; i < n; i++) {
			if (!dup[i])
				continue;
			snprintf(buf, sizeof(buf), "%s#%zu", run->labels[i], i);
			free(run->labels[i]);
			run->labels[i] = strdup(buf);
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t len = run->labels[i] ? strlen(run->labels[i]) : 0;

		if (!len)
			return -ENOMEM;
		if (len > run->label_w)
			run->label_w = len;
	}
	return 0;
}

/* What makes coverage and numbers differ between documents: the user, the
 * capabilities and pipebench's version. */
static const struct {
	const char *what, *path, *alt;
} fleet_keys[] = {
	{ "users (euid)", "run.user.euid", NULL },
	{ "capabilities", "run.user.capabilities", "system.capabilities" },
	{ "pipebench versions", "run.pipebench.version", "version" },
};
#define NFLEET_KEYS (sizeof(fleet_keys) / sizeof(fleet_keys[0]))

static const char *fleet_value(const struct cmp_run *run, size_t i, size_t key)
{
	const char *v = jpath(doc_at(run, i), fleet_keys[key].path);

	if (!v && fleet_keys[key].alt)
		v = jpath(doc_at(run, i), fleet_keys[key].alt);
	return v ? v : "unknown";
}

static bool fleet_differs(const struct cmp_run *run, size_t key)
{
	for (size_t i = 1; i <= run->nin; i++)
		if (strcmp(fleet_value(run, 0, key), fleet_value(run, i, key)) != 0)
			return true;
	return false;
}

/* Capabilities of document I against BASE's: "-CAP_X +CAP_Y", at most a few. */
static void caps_diff(const struct cmp_run *run, size_t i, char *buf, size_t len)
{
	struct json_object *b = json_tokener_parse(fleet_value(run, 0, 1));
	struct json_object *d = json_tokener_parse(fleet_value(run, i, 1));
	size_t off = 0, shown = 0, more = 0;

	buf[0] = '\0';
	if (!json_object_is_type(b, json_type_array) || !json_object_is_type(d, json_type_array)) {
		snprintf(buf, len, "%s", fleet_value(run, i, 1));
	} else if (json_object_array_length(d) == 0) {
		snprintf(buf, len, "none (base has %zu)", json_object_array_length(b));
	} else {
		for (int side = 0; side < 2; side++) {
			struct json_object *from = side ? d : b, *other = side ? b : d;

			for (size_t k = 0; k < json_object_array_length(from); k++) {
				const char *c = json_object_get_string(json_object_array_get_idx(from, k));
				bool in = false;

				for (size_t j = 0; j < json_object_array_length(other) && !in; j++)
					in = !strcmp(c, json_object_get_string(
						json_object_array_get_idx(other, j)));
				if (in)
					continue;
				if (shown++ < 4 && off < len)
					off += (size_t)snprintf(buf + off, len - off, "%s%c%s",
								off ? " " : "", side ? '+' : '-', c);
				else
					more++;
			}
		}
		if (more && off < len)
			snprintf(buf + off, len - off, " and %zu more", more);
	}
	json_object_put(b);
	json_object_put(d);
}

/* A note per way the documents differ, naming the documents that differ from BASE. */
static void fleet_notes_text(const struct cmp_run *run, FILE *fp)
{
	char buf[512];

	for (size_t key = 0; key < NFLEET_KEYS; key++) {
		if (!fleet_differs(run, key))
			continue;
		fprintf(fp, "note: the documents ran under different %s, so coverage and numbers "
			"differ; base %s has %s, these differ:\n", fleet_keys[key].what,
			run->labels[0], key == 1 ? "its own set" : fleet_value(run, 0, key));
		for (size_t i = 1; i <= run->nin; i++) {
			if (!strcmp(fleet_value(run, 0, key), fleet_value(run, i, key)))
				continue;
			if (key == 1)
				caps_diff(run, i, buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "%s", fleet_value(run, i, key));
			fprintf(fp, "  %-*s %s\n", (int)run->label_w, run->labels[i], buf);
		}
	}
}

/* The verdict rows: every (part, label, key) that changed in some NEW. */
struct grid_row {
	const struct pb_cmp_verdict *first;
};

static bool same_verdict(const struct pb_cmp_verdict *a, const struct pb_cmp_verdict *b)
{
	return !strcmp(a->label, b->label) && !strcmp(a->key, b->key) &&
	       ((!a->part && !b->part) || (a->part && b->part && !strcmp(a->part, b->part)));
}

static size_t grid_rows(const struct cmp_run *run, const struct pb_cmp_verdict **rows, size_t max)
{
	size_t n = 0;

	for (size_t k = 0; k < run->nin; k++)
		for (size_t i = 0; i < run->in[k].res.nv; i++) {
			const struct pb_cmp_verdict *v = &run->in[k].res.v[i];
			bool seen = false;

			for (size_t j = 0; j < n && !seen; j++)
				seen = same_verdict(rows[j], v);
			if (!seen && n < max)
				rows[n++] = v;
		}
	return n;
}

/* The verdict of ROW in document I (0: BASE); *REG when it is a regression. */
static const char *grid_cell(const struct cmp_run *run, const struct pb_cmp_verdict *row, size_t i,
			     bool *reg)
{
	*reg = false;
	if (i == 0)
		return row->base;
	for (size_t j = 0; j < run->in[i - 1].res.nv; j++) {
		const struct pb_cmp_verdict *v = &run->in[i - 1].res.v[j];

		if (same_verdict(v, row)) {
			*reg = v->regression;
			return v->cur;
		}
	}
	return row->base;        /* unchanged in that document */
}

static const char *short_verdict(const char *v)
{
	static const char *const map[][2] = {
		{ "pass", "ok" }, { "fail", "FAIL" }, { "error", "ERR" }, { "skip", "skip" },
		{ "known-deviation", "kdev" }, { "info", "info" }, { "updated", "upd" },
		{ "frozen", "frzn" },
	};

	if (!v)
		return "-";
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(v, map[i][0]) == 0)
			return map[i][1];
	return v;
}

#define MAX_GRID 4096

static void grid_text(const struct cmp_run *run, FILE *fp)
{
	const struct pb_cmp_verdict **rows = calloc(MAX_GRID, sizeof(*rows));
	size_t n = rows ? grid_rows(run, rows, MAX_GRID) : 0, w = 4;

	if (!n) {
		free(rows);
		return;
	}
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i <= run->nin; i++) {
			bool reg;
			size_t len = strlen(short_verdict(grid_cell(run, rows[r], i, &reg)));

			if (len > w)
				w = len;
		}
	fprintf(fp, "\nverdicts that changed, checks x documents (ok pass, kdev known-deviation, "
		"ERR error, upd updated, frzn frozen, - absent, ! regression):\n  ");
	for (size_t i = 0; i <= run->nin; i++)
		fprintf(fp, " %*zu ", (int)w, i);
	fputc('\n', fp);
	for (size_t r = 0; r < n; r++) {
		fputs("  ", fp);
		for (size_t i = 0; i <= run->nin; i++) {
			bool reg;
			const char *c = short_verdict(grid_cell(run, rows[r], i, &reg));

			fprintf(fp, " %*s%c", (int)w, c, reg ? '!' : ' ');
		}
		fprintf(fp, "  %s%s%s %s\n", rows[r]->part ? rows[r]->part : "",
			rows[r]->part ? ": " : "", rows[r]->label, rows[r]->key);
	}
	free(rows);
}

/* Every metric row once: the first input that has it. */
static void each_row(const struct cmp_run *run,
		     void (*fn)(const struct cmp_run *, const struct pb_cmp_metric *, void *),
		     void *arg)
{
	for (size_t k = 0; k < run->nin; k++)
		for (size_t i = 0; i < run->in[k].res.nm; i++)
			if (!printed_before(run, k, &run->in[k].res.m[i]))
				fn(run, &run->in[k].res.m[i], arg);
}

/* The fleet layout: a block per metric, a line per document, labels whole. */
static void block_row(const struct cmp_run *run, const struct pb_cmp_metric *row, void *arg)
{
	FILE *fp = arg;
	char cell[96];

	if (!shown(run, row))
		return;
	fprintf(fp, "\n%s%s%s %s (%s)\n", row->part ? row->part : "", row->part ? ": " : "",
		row->label, row->metric, pb_cmp_dir_name(row->dir));
	fmt_mean_rsd(row->metric, &row->base, cell, sizeof(cell));
	fprintf(fp, "  %-*s %s  base\n", (int)run->label_w, run->labels[0], cell);
	for (size_t k = 0; k < run->nin; k++) {
		const struct pb_cmp_metric *m = find_row(&run->in[k].res, row);
		char chg[32];

		if (!m) {
			fprintf(fp, "  %-*s %18s\n", (int)run->label_w, run->labels[k + 1], "-");
			continue;
		}
		fmt_change(m, chg, sizeof(chg), cell, sizeof(cell));
		fprintf(fp, "  %-*s %s  %9s %c\n", (int)run->label_w, run->labels[k + 1], cell, chg,
			marker(m));
	}
}

static void fleet_header_text(const struct cmp_run *run, FILE *fp)
{
	fprintf(fp, "documents (%zu; column N below is document N):\n", run->nin + 1);
	for (size_t i = 0; i <= run->nin; i++)
		fprintf(fp, "%3zu %-*s %s%s\n", i, (int)run->label_w, run->labels[i], path_at(run, i),
			i ? "" : " (base)");
	fleet_notes_text(run, fp);
}

/* Markdown: the documents, the metrics (a column per document) and the grid. */
static void md_cell(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', fp);
		fputc(*s == '\n' ? ' ' : *s, fp);
	}
}

static void md_row(const struct cmp_run *run, const struct pb_cmp_metric *row, void *arg)
{
	FILE *fp = arg;
	char num[48];

	fputs("| ", fp);
	if (row->part) {
		md_cell(fp, row->part);
		fputs(": ", fp);
	}
	md_cell(fp, row->label);
	fprintf(fp, " | %s |", row->metric);
	fmt_num(row->base.mean, num, sizeof(num));
	fprintf(fp, " %s ~%.0f%% |", num, row->base.rsd * 100);
	for (size_t k = 0; k < run->nin; k++) {
		const struct pb_cmp_metric *m = find_row(&run->in[k].res, row);

		if (!m) {
			fputs(" - |", fp);
			continue;
		}
		fmt_num(m->cur.mean, num, sizeof(num));
		fprintf(fp, " %s ~%.0f%%", num, m->cur.rsd * 100);
		if (isfinite(m->change_pct)) {
			char mk = marker(m);

			fprintf(fp, " (%+.1f%%", m->change_pct);
			if (mk != ' ')
				fprintf(fp, " %s%c", mk == '*' ? "\\" : "", mk);
			fputc(')', fp);
		}
		fputs(" |", fp);
	}
	fputc('\n', fp);
}


/* The rest of a markdown table header: a column per document, then the
 * separator row starting with LEAD. */
static void md_label_header(FILE *fp, const struct cmp_run *run, const char *lead)
{
	for (size_t i = 0; i <= run->nin; i++) {
		fputc(' ', fp);
		md_cell(fp, run->labels[i]);
		fputs(" |", fp);
	}
	fprintf(fp, "\n%s", lead);
	for (size_t i = 0; i <= run->nin; i++)
		fputs("---|", fp);
	fputc('\n', fp);
}

static void emit_markdown(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct cmp_run *run = r_;

	(void)si;
	const struct pb_cmp_verdict **rows = calloc(MAX_GRID, sizeof(*rows));
	size_t n = rows ? grid_rows(run, rows, MAX_GRID) : 0;

	fprintf(fp, "## Documents\n\n| # | label | file | command | kernel | euid | capabilities | pipebench |\n"
		"|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i <= run->nin; i++) {
		fprintf(fp, "| %zu%s | ", i, i ? "" : " (base)");
		md_cell(fp, run->labels[i]);
		fputs(" | ", fp);
		md_cell(fp, path_at(run, i));
		fprintf(fp, " | %s | %s | %s | ", doc_command(doc_at(run, i)),
			doc_release(doc_at(run, i)), fleet_value(run, i, 0));
		/* The base's capabilities counted, the others' as a difference. */
		if (i == 0 || !strcmp(fleet_value(run, 0, 1), fleet_value(run, i, 1))) {
			struct json_object *a = json_tokener_parse(fleet_value(run, i, 1));

			if (json_object_is_type(a, json_type_array))
				fprintf(fp, "%s%zu", i ? "same: " : "", json_object_array_length(a));
			else
				md_cell(fp, fleet_value(run, i, 1));
			json_object_put(a);
		} else {
			char buf[512];

			caps_diff(run, i, buf, sizeof(buf));
			md_cell(fp, buf);
		}
		fprintf(fp, " | %s |\n", fleet_value(run, i, 2));
	}
	for (size_t key = 0; key < NFLEET_KEYS; key++)
		if (fleet_differs(run, key))
			fprintf(fp, "\n**Note:** the documents ran under different %s, so coverage "
				"and numbers differ.\n", fleet_keys[key].what);
	fprintf(fp, "\n## Metrics\n\nmean ~ rsd (%%change, `!` regression, `*` significant, "
		"`~` not comparable, `?` too few repetitions)\n\n| result | metric |");
	md_label_header(fp, run, "|---|---|");
	each_row(run, md_row, fp);
	if (n) {
		fputs("\n## Verdicts that changed\n\n| check |", fp);
		md_label_header(fp, run, "|---|");
		for (size_t r = 0; r < n; r++) {
			fputs("| ", fp);
			if (rows[r]->part) {
				md_cell(fp, rows[r]->part);
				fputs(": ", fp);
			}
			md_cell(fp, rows[r]->label);
			fprintf(fp, " %s |", rows[r]->key);
			for (size_t i = 0; i <= run->nin; i++) {
				bool reg;
				const char *c = grid_cell(run, rows[r], i, &reg);

				fprintf(fp, " %s%s |", c ? c : "-", reg ? " **!**" : "");
			}
			fputc('\n', fp);
		}
	}
	free(rows);
}

/* CSV: one row per metric and document, then one per changed verdict and
 * document; host and kernel are the document's. */
static void csv_doc_end(const struct cmp_run *run, struct pb_csv *c, size_t i)
{
	c->host = doc_host(doc_at(run, i));
	c->kernel = doc_release(doc_at(run, i));
	pb_csv_row_end(c);
}

static void csv_row(const struct cmp_run *run, const struct pb_cmp_metric *row, void *arg)
{
	struct pb_csv *c = arg;

	for (size_t i = 0; i <= run->nin; i++) {
		const struct pb_cmp_metric *m = i ? find_row(&run->in[i - 1].res, row) : row;
		char mk[2] = { 0, 0 };

		if (!m)
			continue;
		pb_csv_str(c, "metric");
		pb_csv_str(c, row->part);
		pb_csv_str(c, row->label);
		pb_csv_str(c, row->metric);
		pb_csv_int(c, (int64_t)i);
		pb_csv_str(c, run->labels[i]);
		pb_csv_str(c, path_at(run, i));
		pb_csv_double(c, i ? m->cur.mean : m->base.mean);
		pb_csv_double(c, i ? m->cur.rsd : m->base.rsd);
		pb_csv_double(c, i ? m->change_pct : NAN);
		mk[0] = i ? marker(m) : ' ';
		pb_csv_str(c, mk[0] == ' ' ? "" : mk);
		pb_csv_str(c, "");
		csv_doc_end(run, c, i);
	}
}

static void emit_csv(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct cmp_run *run = r_;

	(void)si;
	static const char *const cols[] = {
		"type", "part", "result", "metric", "document", "label", "file", "mean", "rsd",
		"change_pct", "marker", "verdict", NULL,
	};
	const struct pb_cmp_verdict **rows = calloc(MAX_GRID, sizeof(*rows));
	size_t n = rows ? grid_rows(run, rows, MAX_GRID) : 0;
	struct pb_csv c;

	pb_csv_begin(&c, fp, NULL);
	pb_csv_header(&c, cols);
	each_row(run, csv_row, &c);
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i <= run->nin; i++) {
			bool reg;
			const char *v = grid_cell(run, rows[r], i, &reg);

			pb_csv_str(&c, "verdict");
			pb_csv_str(&c, rows[r]->part);
			pb_csv_str(&c, rows[r]->label);
			pb_csv_str(&c, rows[r]->key);
			pb_csv_int(&c, (int64_t)i);
			pb_csv_str(&c, run->labels[i]);
			pb_csv_str(&c, path_at(run, i));
			pb_csv_str(&c, "");
			pb_csv_str(&c, "");
			pb_csv_str(&c, "");
			pb_csv_str(&c, reg ? "!" : "");
			pb_csv_str(&c, v ? v : "");
			csv_doc_end(run, &c, i);
		}
	free(rows);
}

/* The JSON members of the fleet view: labels, differences, the grid. */
static void fleet_json(const struct cmp_run *run, struct json_object *doc)
{
	const struct pb_cmp_verdict **rows = calloc(MAX_GRID, sizeof(*rows));
	size_t n = rows ? grid_rows(run, rows, MAX_GRID) : 0;
	struct json_object *inputs, *diff = json_object_new_array(), *grid = json_object_new_array();

	if (json_object_object_get_ex(doc, "inputs", &inputs))
		for (size_t i = 0; i <= run->nin && i < json_object_array_length(inputs); i++) {
			struct json_object *o = json_object_array_get_idx(inputs, i);

			pb_json_add_str(o, "label", run->labels[i]);
			pb_json_add_str(o, "host", doc_host(doc_at(run, i)));
		}
	for (size_t key = 0; key < NFLEET_KEYS; key++)
		if (fleet_differs(run, key))
			json_object_array_add(diff, json_object_new_string(fleet_keys[key].path));
	json_object_object_add(doc, "documents_differ_in", diff);
	for (size_t r = 0; r < n; r++) {
		struct json_object *o = json_object_new_object(), *cells = json_object_new_array();

		pb_json_add_str(o, "part", rows[r]->part);
		pb_json_add_str(o, "id", rows[r]->label);
		pb_json_add_str(o, "key", rows[r]->key);
		for (size_t i = 0; i <= run->nin; i++) {
			bool reg;
			const char *v = grid_cell(run, rows[r], i, &reg);

			json_object_array_add(cells, v ? json_object_new_string(v) : NULL);
		}
		json_object_object_add(o, "verdicts", cells);
		json_object_array_add(grid, o);
	}
	json_object_object_add(doc, "verdict_grid", grid);
	free(rows);
}

static void emit_text(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct cmp_run *run = r_;

	(void)si;
	size_t metrics = 0, sig = 0, regs = 0, vregs = 0, vchanges = 0, only_b = 0, only_n = 0;
	size_t lost = 0, n, hidden = 0;
	bool fleet = run->nin >= FLEET_FROM;

	if (fleet)
		fleet_header_text(run, fp);
	fprintf(fp, "base   %s: %s, Linux %s\n", run->base_path, doc_command(run->base),
		doc_kernel(run->base));
	for (size_t k = 0; k < run->nin; k++)
		fprintf(fp, "new%-3zu %s: %s, Linux %s%s%s\n", k + 1, run->in[k].path,
			doc_command(run->in[k].doc), doc_kernel(run->in[k].doc),
			run->in[k].ndiffer ? "; parameters differ: " : "",
			run->in[k].ndiffer ? run->in[k].differ : "");
	if (!fleet) {
		fleet_notes_text(run, fp);
		fprintf(fp, "\n%18s", "base");
		for (size_t k = 0; k < run->nin; k++)
			fprintf(fp, "  %32s", run->labels[k + 1]);
		fprintf(fp, "\n%18s", "mean ~ rsd");
		for (size_t k = 0; k < run->nin; k++)
			fprintf(fp, "  %9s   %18s", "%change", "mean ~ rsd");
		fputc('\n', fp);
	} else {
		each_row(run, block_row, fp);
	}
	for (size_t k = 0; k < run->nin; k++) {
		const struct pb_cmp_result *r = &run->in[k].res;

		for (size_t i = 0; i < r->nm; i++)
			if (!fleet && !printed_before(run, k, &r->m[i]) && shown(run, &r->m[i]))
				emit_row(run, &r->m[i], fp);
		metrics += r->nm;
		for (size_t i = 0; i < r->nm; i++) {
			sig += r->m[i].significant;
			regs += r->m[i].regression;
		}
		vchanges += r->nv;
		only_b += r->only_base;
		only_n += r->only_new;
	}
	each_row(run, count_hidden, &hidden);
	if (hidden)
		fprintf(fp, "\n%zu more %s: workload counts, side counters (context switches, "
			"CPU time, migrations) and details (totals beside their rates, round-trip "
			"extremes); --all-metrics shows them\n", hidden, hidden == 1 ? "row" : "rows");
	fprintf(fp, "\n! regression: significant and worse by more than %g%%; "
		"* significant (p < %g: Welch's t-test, Mann-Whitney U from %d repetitions a "
		"side); ? fewer than 2 repetitions\n", run->threshold, PB_CMP_ALPHA,
		PB_CMP_RANK_MIN_N);
	if (not_comparable(run))
		fprintf(fp, "~ not comparable: a total (time, CPU time, context switches) of runs "
			"that did different work; never a regression, see its _per_ rows\n");
	if (inconclusive(run))
		fprintf(fp, "u inconclusive: the result is not stable on a side (noisy, bimodal or "
			"disturbed; its stability_reason says why); never a regression\n");
	fprintf(fp, "%s\n", run->metrics ? "only the metrics --metrics names can be a regression" :
		"context switches, CPU time, migrations and details are never a regression "
		"(--metrics chooses what can be)");
	for (size_t k = 0; k < run->nin; k++) {
		const struct pb_cmp_result *r = &run->in[k].res;

		if (!r->nv)
			continue;
		for (size_t i = 0; fleet && i < r->nv; i++)
			vregs += r->v[i].regression;
		if (fleet)
			continue;
		fprintf(fp, "\nverdict changes in %s (%zu unchanged):\n", run->in[k].path,
			r->verdicts_same);
		for (size_t i = 0; i < r->nv; i++) {
			const struct pb_cmp_verdict *v = &r->v[i];

			vregs += v->regression;
			fprintf(fp, "%c %s%s%s: %s %s -> %s\n", v->regression ? '!' : ' ',
				v->part ? v->part : "", v->part ? ": " : "", v->label, v->key,
				v->base ? v->base : "(absent)", v->cur ? v->cur : "(absent)");
		}
	}
	if (run->nin > 1)
		grid_text(run, fp);
	for (size_t k = 0; k < run->nin; k++) {
		const struct pb_cmp_result *r = &run->in[k].res;

		if (!r->nlost)
			continue;
		fprintf(fp, "\ncoverage lost in %s (%zu measured in base, skipped or absent "
			"here)%s:\n", run->in[k].path, r->nlost, run->strict ? " [--strict: fail]" : "");
		for (size_t i = 0; i < r->nlost; i++) {
			const struct pb_cmp_lost *l = &r->lost[i];

			lost += 1;
			fprintf(fp, "%c %s%s%s: %s\n", run->strict ? '!' : '-',
				l->part ? l->part : "", l->part ? ": " : "", l->label, l->why);
		}
	}
	fprintf(fp, "\n%zu comparisons, %zu significant, %zu regressions beyond %g%%; "
		"%zu verdict changes, %zu of them regressions (now fail or error); "
		"%zu coverage lost", metrics, sig, regs, run->threshold, vchanges, vregs, lost);
	if (only_b || only_n)
		fprintf(fp, "; unmatched results: %zu only in base, %zu only in new", only_b,
			only_n);
	if ((n = not_comparable(run)))
		fprintf(fp, "; %zu totals not comparable", n);
	if ((n = inconclusive(run)))
		fprintf(fp, "; %zu inconclusive (not stable)", n);
	fputc('\n', fp);
	busy_note(run->base_path, run->base, fp);
	for (size_t k = 0; k < run->nin; k++)
		busy_note(run->in[k].path, run->in[k].doc, fp);
	if ((n = workload_changed(run)))
		fprintf(fp, "note: %zu workload counts (neutral metrics) changed by more than 1%%: "
			"the runs did different work, so times are compared per unit of work\n", n);
}

/* ------------------------------------------------------------ json */

/*
 * A number with ten significant digits: json-c's default prints doubles to
 * 17 digits (0.050000000000000003), which is noise in a comparison.
 */
static void add_num(struct json_object *o, const char *key, double v)
{
	char buf[64];

	if (!isfinite(v)) {
		json_object_object_add(o, key, NULL);
		return;
	}
	snprintf(buf, sizeof(buf), "%.10g", v);
	json_object_object_add(o, key, json_object_new_double_s(v, buf));
}

/* The members every metric, verdict and lost row starts with: where it is. */
static struct json_object *place_json(const struct cmp_input *in, const char *part,
				      const char *label, struct json_object *ids)
{
	struct json_object *o = json_object_new_object();

	pb_json_add_str(o, "new_file", in->path);
	pb_json_add_str(o, "part", part);
	pb_json_add_str(o, "id", label);
	json_object_object_add(o, "ids", json_object_get(ids));  /* NULL stays null */
	return o;
}

static struct json_object *metric_json(const struct cmp_input *in,
				       const struct pb_cmp_metric *m)
{
	struct json_object *o = place_json(in, m->part, m->label, m->ids);

	pb_json_add_str(o, "metric", m->metric);
	pb_json_add_str(o, "direction", pb_cmp_dir_name(m->dir));
	pb_json_add_int(o, "base_n", (int64_t)m->base.n);
	add_num(o, "base_mean", m->base.mean);
	add_num(o, "base_rsd", m->base.rsd);
	pb_json_add_int(o, "new_n", (int64_t)m->cur.n);
	add_num(o, "new_mean", m->cur.mean);
	add_num(o, "new_rsd", m->cur.rsd);
	add_num(o, "change_pct", m->change_pct);
	add_num(o, "p_value", m->p >= 0 ? m->p : NAN);
	add_num(o, "p_welch", m->p_welch >= 0 ? m->p_welch : NAN);
	add_num(o, "p_mann_whitney", m->p_rank >= 0 ? m->p_rank : NAN);
	pb_json_add_str(o, "decided_by", m->p < 0 ? NULL : m->by_rank ? "mann_whitney" : "welch");
	add_num(o, "shift", m->shift);
	add_num(o, "shift_low", m->shift_lo);
	add_num(o, "shift_high", m->shift_hi);
	json_object_object_add(o, "significant", json_object_new_boolean(m->significant));
	json_object_object_add(o, "regression", json_object_new_boolean(m->regression));
	json_object_object_add(o, "comparable", json_object_new_boolean(m->comparable));
	json_object_object_add(o, "derived", json_object_new_boolean(m->derived));
	json_object_object_add(o, "gates", json_object_new_boolean(!m->side));
	json_object_object_add(o, "detail", json_object_new_boolean(m->detail));
	json_object_object_add(o, "inconclusive", json_object_new_boolean(m->inconclusive));
	pb_json_add_str(o, "base_stability", m->base_stab[0] ? m->base_stab : NULL);
	pb_json_add_str(o, "new_stability", m->cur_stab[0] ? m->cur_stab : NULL);
	pb_json_add_str(o, "moved", m->moved);
	return o;
}

static struct json_object *verdict_json(const struct cmp_input *in,
					const struct pb_cmp_verdict *v)
{
	struct json_object *o = place_json(in, v->part, v->label, v->ids);

	pb_json_add_str(o, "key", v->key);
	pb_json_add_str(o, "base", v->base);
	pb_json_add_str(o, "new", v->cur);
	json_object_object_add(o, "regression", json_object_new_boolean(v->regression));
	return o;
}

static struct json_object *lost_json(const struct cmp_input *in, const struct pb_cmp_lost *l)
{
	struct json_object *o = place_json(in, l->part, l->label, l->ids);

	pb_json_add_str(o, "reason", l->why);
	return o;
}

static void emit_json(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct cmp_run *run = r_;
	struct json_object *doc, *p, *files, *res, *vc, *sum, *inputs, *lost;
	size_t metrics = 0, sig = 0, regs = 0, only_b = 0, only_n = 0, vsame = 0;

	doc = pb_doc_new(NAME, si);
	p = json_object_new_object();
	pb_json_add_str(p, "base", run->base_path);
	files = json_object_new_array();
	for (size_t k = 0; k < run->nin; k++)
		json_object_array_add(files, json_object_new_string(run->in[k].path));
	json_object_object_add(p, "new", files);
	add_num(p, "threshold_pct", run->threshold);
	add_num(p, "alpha", PB_CMP_ALPHA);
	json_object_object_add(p, "force", json_object_new_boolean(run->force));
	json_object_object_add(p, "allow_partial", json_object_new_boolean(run->allow_partial));
	json_object_object_add(p, "strict", json_object_new_boolean(run->strict));
	pb_json_add_str(p, "metrics", run->metrics);
	json_object_object_add(p, "all_metrics", json_object_new_boolean(run->all_metrics));
	json_object_object_add(doc, "params", p);

	inputs = json_object_new_array();
	for (size_t k = 0; k <= run->nin; k++) {
		struct json_object *d = k ? run->in[k - 1].doc : run->base, *o;

		o = json_object_new_object();
		pb_json_add_str(o, "file", k ? run->in[k - 1].path : run->base_path);
		pb_json_add_str(o, "command", doc_command(d));
		pb_json_add_str(o, "kernel_release", doc_kernel(d));
		pb_json_add_str(o, "run_failed", k ? (run->in[k - 1].failed[0] ? run->in[k - 1].failed
							   : NULL)
					       : (run->base_failed[0] ? run->base_failed : NULL));
		if (k) {
			pb_json_add_str(o, "params_differ",
					run->in[k - 1].ndiffer ? run->in[k - 1].differ : NULL);
			pb_json_add_int(o, "matched", (int64_t)run->in[k - 1].res.matched);
		}
		json_object_array_add(inputs, o);
	}
	json_object_object_add(doc, "inputs", inputs);
	fleet_json(run, doc);

	res = json_object_new_array();
	vc = json_object_new_array();
	lost = json_object_new_array();
	for (size_t k = 0; k < run->nin; k++) {
		const struct cmp_input *in = &run->in[k];

		for (size_t i = 0; i < in->res.nm; i++) {
			json_object_array_add(res, metric_json(in, &in->res.m[i]));
			sig += in->res.m[i].significant;
		}
		for (size_t i = 0; i < in->res.nv; i++)
			json_object_array_add(vc, verdict_json(in, &in->res.v[i]));
		for (size_t i = 0; i < in->res.nlost; i++)
			json_object_array_add(lost, lost_json(in, &in->res.lost[i]));
		metrics += in->res.nm;
		regs += in->res.regressions;
		only_b += in->res.only_base;
		only_n += in->res.only_new;
		vsame += in->res.verdicts_same;
	}
	json_object_object_add(doc, "results", res);
	json_object_object_add(doc, "verdict_changes", vc);
	json_object_object_add(doc, "coverage_lost", lost);
	sum = json_object_new_object();
	pb_json_add_int(sum, "comparisons", (int64_t)metrics);
	pb_json_add_int(sum, "significant", (int64_t)sig);
	pb_json_add_int(sum, "verdict_changes", (int64_t)json_object_array_length(vc));
	pb_json_add_int(sum, "verdicts_unchanged", (int64_t)vsame);
	pb_json_add_int(sum, "regressions", (int64_t)regs);
	pb_json_add_int(sum, "only_in_base", (int64_t)only_b);
	pb_json_add_int(sum, "only_in_new", (int64_t)only_n);
	pb_json_add_int(sum, "workload_changed", (int64_t)workload_changed(run));
	pb_json_add_int(sum, "not_comparable", (int64_t)not_comparable(run));
	pb_json_add_int(sum, "inconclusive", (int64_t)inconclusive(run));
	pb_json_add_int(sum, "coverage_lost", (int64_t)coverage_lost(run));
	json_object_object_add(doc, "summary", sum);
	json_object_object_add(doc, "warnings", json_object_get(run->warnings));
	pb_doc_finish(doc, NULL, NULL, run->status, fp);
}

/* Whether --metrics makes any compared metric able to be a regression; a
 * list that matches none of them (a misspelt name) is a usage error, said
 * here: with it nothing could ever be a regression. */
static bool metrics_gate_any(const struct cmp_run *run)
{
	size_t n = 0;

	for (size_t k = 0; k < run->nin; k++)
		for (size_t i = 0; i < run->in[k].res.nm; i++, n++)
			if (!run->in[k].res.m[i].side)
				return true;
	if (n == 0)
		return true;   /* no figures at all (verdicts only): nothing to gate */
	pb_usage_err(NAME, "--metrics: '%s' matches none of the %zu metrics compared", run->metrics,
		     n);
	return false;
}

/* ------------------------------------------------------------ main */

static int execute(struct pb_cli *cli, struct cmp_run *run)
{
	struct pb_out out;
	struct pb_sysinfo si;
	int status = PB_EXIT_OK;

	switch (load_all(run)) {
	case 0: break;
	case -2: return PB_EXIT_NA;
	default: return PB_EXIT_USAGE;
	}
	switch (make_labels(run)) {
	case 0: break;
	case -1: return PB_EXIT_USAGE;
	default: pb_err(NAME, "out of memory"); return PB_EXIT_ERROR;
	}
	for (size_t k = 0; k < run->nin; k++) {
		struct cmp_input *in = &run->in[k];

		struct pb_cmp_opts opts = {
			.ignore = run->ignore, .differ = in->differ, .threshold_pct = run->threshold,
			.metrics = run->metrics,
		};
		const char *who;
		char why[1024];

		if (pb_cmp_compare(run->base, in->doc, &opts, &in->res)) {
			pb_err(NAME, "out of memory");
			return PB_EXIT_ERROR;
		}
		if (nothing_matched(run, in, why, sizeof(why), &who)) {
			if (!run->allow_partial) {
				pb_err(NAME, "%s: %s; use --allow-partial to compare anyway", who, why);
				return PB_EXIT_USAGE;
			}
			warn(run, "%s: %s; compared anyway (--allow-partial)", who, why);
		}
		if (in->res.regressions || (run->strict && in->res.nlost))
			status = PB_EXIT_FAIL;
	}
	if (run->metrics && !metrics_gate_any(run))
		return PB_EXIT_USAGE;
	if (pb_out_open(&out)) {
		pb_err(NAME, "cannot allocate output buffer");
		return PB_EXIT_ERROR;
	}
	/* The machine compare ran on (the compared documents carry their own). */
	pb_sysinfo_collect(&si);
	run->status = status;
	pb_cli_emit(cli, run, &si, out.fp);
	if (pb_out_finish(&out, NAME, cli->common.output))
		status = PB_EXIT_ERROR;
	return status;
}

static void teardown(struct cmp_run *run)
{
	json_object_put(run->base);
	for (size_t k = 0; k < run->nin; k++) {
		json_object_put(run->in[k].doc);
		pb_cmp_result_free(&run->in[k].res);
	}
	json_object_put(run->warnings);
	for (size_t i = 0; i <= MAX_NEW; i++)
		free(run->labels[i]);
}

struct cmp_params {
	double threshold;
	int force, allow_partial, strict;
	const char *label;
	const char *metrics;
	int all_metrics;
};

static int exec_params(struct pb_cli *cli, void *params)
{
	const struct cmp_params *p = params;
	struct cmp_run run;
	int rc;

	memset(&run, 0, sizeof(run));
	if (cli->nargs - 1 > MAX_NEW) {
		pb_usage_err(NAME, "at most %d NEW files", MAX_NEW);
		return PB_EXIT_USAGE;
	}
	run.threshold = p->threshold;
	run.metrics = p->metrics;
	run.all_metrics = p->all_metrics;
	run.base_path = cli->args[0];
	run.nin = (size_t)cli->nargs - 1;
	for (size_t k = 0; k < run.nin; k++)
		run.in[k].path = cli->args[k + 1];
	run.force = p->force;
	run.allow_partial = p->allow_partial;
	run.strict = p->strict;
	run.label_opt = p->label;
	run.warnings = json_object_new_array();
	rc = execute(cli, &run);
	teardown(&run);
	return rc;
}

#define P struct cmp_params
static const struct pb_opt options[] = {
	{ PB_OPT("threshold", '\0', PB_OPT_DOUBLE, P, threshold), .dmin = 0, .dmax = 1e9,
	  .def = "5" /* PB_CMP_DEFAULT_THRESHOLD */, .arg = "PCT",
	  .help = "exit 1 when a significant change for the worse exceeds PCT percent" },
	{ PB_OPT("metrics", '\0', PB_OPT_STRING, P, metrics), .arg = "PATTERN,...",
	  .def_help = "all but context switches, CPU time and migrations",
	  .help = "the metrics that can be a regression: shell patterns, comma-separated "
	  "(e.g. 'rtt_p99_ns,*_per_byte')" },
	{ PB_OPT("all-metrics", '\0', PB_OPT_FLAG, P, all_metrics),
	  .help = "text: every metric, the workload counts and side counters too (JSON, CSV "
	  "and markdown always have them)" },
	{ PB_OPT("force", '\0', PB_OPT_FLAG, P, force),
	  .help = "compare even when the runs' parameters or the machines' state differ (warns; "
	  "totals such as times are then compared per unit of work)" },
	{ PB_OPT("allow-partial", '\0', PB_OPT_FLAG, P, allow_partial),
	  .help = "compare what a failed or interrupted run has, or files that match nothing "
	  "(warns) instead of refusing them" },
	{ PB_OPT("strict", '\0', PB_OPT_FLAG, P, strict),
	  .help = "exit 1 when coverage is lost: a result measured in BASE is skipped or "
	  "absent in a NEW" },
	PB_OPT_LABEL(P, label, "column labels, comma-separated, BASE first (default: host/kernel "
		     "from each document's run)"),
	PB_OPT_END
};

static const struct pb_format formats[] = {
	{ .name = "text", .emit = emit_text, .text = true },
	{ .name = "json", .emit = emit_json },
	{ .name = "csv", .emit = emit_csv },
	{ .name = "markdown", .emit = emit_markdown },
	PB_FORMAT_END
};

const struct pb_cmd pb_cmd_compare = {
	.name = NAME, .opts = options, .formats = formats, .params_size = sizeof(struct cmp_params),
	.exec = exec_params,
	.args = "BASE.json NEW.json [NEW.json...]", .min_args = 2, .max_args = -1,
	.operands = "file",
	.summary = "compare JSON results: change, significance and regressions",
};
