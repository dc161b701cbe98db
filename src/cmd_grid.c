/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench grid: documents of many kernels side by side (grid.h), as one
 * self-contained HTML page (no script, style sheet, font or image from
 * elsewhere; the trends are inline SVG) or its markdown twin.
 */
#include <config.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "grid.h"
#include "msg.h"
#include "output.h"

#define NAME "grid"
#define MAX_DOCS 256

struct grid_run {
	struct pb_grid g;
	char *labels[MAX_DOCS];
	char *orig[MAX_DOCS];     /* a label before its number was added */
	const char *paths[MAX_DOCS];
};

struct grid_params {
	double threshold;
	const char *label;
};

/* ---- cell text, shared by both formats -------------------------------- */

/* V in UNITS, with a metric prefix ("2.95 GB/s", "812 ns", "1.25"). */
static void human(char *buf, size_t len, double v, const char *units)
{
	static const char *const pfx[] = { "", "k", "M", "G", "T" };
	size_t i = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "none");
		return;
	}
	if (units && strchr(units, '/')) {
		while (fabs(v) >= 1000 && i + 1 < sizeof(pfx) / sizeof(pfx[0]))
			v /= 1000, i++;
		snprintf(buf, len, "%.3g %s%s", v, pfx[i], units);
	} else if (units && strcmp(units, "ns") == 0) {
		if (fabs(v) >= 1e6)
			snprintf(buf, len, "%.3g ms", v / 1e6);
		else if (fabs(v) >= 1e3)
			snprintf(buf, len, "%.3g us", v / 1e3);
		else
			snprintf(buf, len, "%.3g ns", v);
	} else {
		snprintf(buf, len, "%.4g", v);
	}
}

/* A figure's change against the row's reference column and its marks:
 * "+4.1%" then "*" significant, "~" noisy, "?" not tested (no repetitions). */
static void change_text(char *buf, size_t len, const struct pb_grid_cell *c)
{
	if (!isfinite(c->change_pct)) {
		snprintf(buf, len, "%s", c->noisy ? "~" : "");
		return;
	}
	snprintf(buf, len, "%+.1f%%%s%s%s", c->change_pct, c->significant ? "*" : "",
		 c->noisy ? "~" : "", c->p < 0 ? "?" : "");
}

/* The class of a cell: pass, fail, other; a figure: ok, worse (beyond the
 * threshold, but not a regression: untested, not significant or noisy), bad. */
static const char *cell_class(const struct pb_grid_cell *c, double threshold)
{
	if (!c->present)
		return "none";
	if (c->result[0]) {
		if (!strcmp(c->result, "pass") || !strcmp(c->result, "known-deviation"))
			return "pass";
		if (!strcmp(c->result, "fail") || !strcmp(c->result, "error"))
			return "fail";
		return "other";
	}
	return c->regression ? "bad" : c->worse && isfinite(c->change_pct) &&
	       fabs(c->change_pct) > threshold ? "worse" : "ok";
}

/* ---- HTML -------------------------------------------------------------- */

static void html_text(FILE *fp, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default: fputc(*s, fp);
		}
	}
}

/* The row's figures across the columns as a small SVG line. */
static void sparkline(FILE *fp, const struct pb_grid *g, const struct pb_grid_row *row)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t n = 0;
	const double w = 96, h = 18;

	for (size_t c = 0; c < g->ncols; c++) {
		double v = row->cells[c].present && !row->cells[c].result[0] ? row->cells[c].value : NAN;

		if (isfinite(v)) {
			lo = fmin(lo, v);
			hi = fmax(hi, v);
			n++;
		}
	}
	if (n < 2)
		return;
	fprintf(fp, "<svg class=\"spark\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\" "
		"role=\"img\" aria-label=\"trend\"><polyline fill=\"none\" stroke=\"#345\" "
		"stroke-width=\"1.5\" points=\"", w, h, w, h);
	for (size_t c = 0, k = 0; c < g->ncols; c++) {
		double v = row->cells[c].present && !row->cells[c].result[0] ? row->cells[c].value : NAN;

		if (!isfinite(v))
			continue;
		/* n >= 2 figures: at least two columns */
		fprintf(fp, "%s%.1f,%.1f", k++ ? " " : "",
			2 + (w - 4) * (double)c / (double)(g->ncols - 1),
			hi > lo ? h - 2 - (h - 4) * (v - lo) / (hi - lo) : h / 2);
	}
	fputs("\"/></svg>", fp);
}

static void emit_html(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct grid_run *run = r_;
	const struct pb_grid *g = &run->g;

	(void)si;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>pipebench grid</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:1em;color:#111;background:#fff}\n"
	      "table{border-collapse:collapse;font-size:13px}\n"
	      "th,td{border:1px solid #bbb;padding:2px 6px;text-align:left;vertical-align:top}\n"
	      "thead th{background:#eee;position:sticky;top:0}\n"
	      "td.pass{background:#d9f2d9}td.fail{background:#f6c6c6;font-weight:bold}\n"
	      "td.other{background:#eee}td.bad{background:#f6c6c6;font-weight:bold}\n"
	      "td.worse{background:#fbeed0}td.ok{background:#fff}td.none{color:#888}\n"
	      "td.firstbad{font-weight:bold;color:#a00}small{color:#444}\n"
	      "</style>\n</head>\n<body>\n<h1>pipebench grid</h1>\n", fp);
	fprintf(fp, "<p>%zu document%s, %zu row%s; %zu went bad. A figure's change is against "
		"the row's first column that has it: * significant (Welch, p &lt; %.2f), ~ noisy "
		"(repetitions vary by more than %.0f%%), ? not tested (no repetitions); bad = "
		"significant, worse and beyond %g%%, never when noisy.</p>\n", g->ncols,
		g->ncols == 1 ? "" : "s", g->nrows, g->nrows == 1 ? "" : "s", g->bad, PB_CMP_ALPHA, PB_GRID_NOISY_RSD * 100,
		g->threshold_pct);
	fputs("<table class=\"grid\">\n<thead><tr><th scope=\"col\">set</th>"
	      "<th scope=\"col\">case</th>", fp);
	for (size_t c = 0; c < g->ncols; c++) {
		fputs("<th scope=\"col\">", fp);
		html_text(fp, run->labels[c]);
		fputs("</th>", fp);
	}
	fputs("<th scope=\"col\">first bad</th><th scope=\"col\">trend</th></tr></thead>\n<tbody>\n", fp);
	for (size_t r = 0; r < g->nrows; r++) {
		const struct pb_grid_row *row = &g->rows[r];

		fputs("<tr><th scope=\"row\">", fp);
		html_text(fp, row->set);
		fputs("</th><td>", fp);
		html_text(fp, row->name);
		fputs("</td>", fp);
		for (size_t c = 0; c < g->ncols; c++) {
			const struct pb_grid_cell *cell = &row->cells[c];
			char v[64], ch[64];

			fprintf(fp, "<td class=\"%s\">", cell_class(cell, g->threshold_pct));
			if (!cell->present) {
				fputs("-", fp);
			} else if (cell->result[0]) {
				html_text(fp, cell->result);
			} else {
				human(v, sizeof(v), cell->value, row->units);
				change_text(ch, sizeof(ch), cell);
				html_text(fp, v);
				if (ch[0]) {
					fputs(" <small>", fp);
					html_text(fp, ch);
					fputs("</small>", fp);
				}
				if (cell->regression)
					fputs(" bad", fp);
			}
			fputs("</td>", fp);
		}
		if (row->first_bad >= 0) {
			fputs("<td class=\"firstbad\">", fp);
			html_text(fp, run->labels[row->first_bad]);
			fputs("</td>", fp);
		} else {
			fputs("<td>-</td>", fp);
		}
		fputs("<td>", fp);
		if (row->figure)
			sparkline(fp, g, row);
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody>\n</table>\n</body>\n</html>\n", fp);
}

/* ---- markdown ---------------------------------------------------------- */

static void md_text(FILE *fp, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			fputc('\\', fp);
		fputc(*s == '\n' ? ' ' : *s, fp);
	}
}

static void emit_markdown(const void *r_, const struct pb_sysinfo *si, FILE *fp)
{
	const struct grid_run *run = r_;
	const struct pb_grid *g = &run->g;

	(void)si;
	fprintf(fp, "# pipebench grid\n\n%zu document%s, %zu row%s; %zu went bad.  A figure's "
		"change is against the row's first column that has it: \\* significant (Welch, "
		"p < %.2f), ~ noisy, ? not tested; bad = significant, worse and beyond %g%%, "
		"never when noisy.\n\n",
		g->ncols, g->ncols == 1 ? "" : "s", g->nrows, g->nrows == 1 ? "" : "s", g->bad,
		PB_CMP_ALPHA, g->threshold_pct);
	fputs("| set | case |", fp);
	for (size_t c = 0; c < g->ncols; c++) {
		fputc(' ', fp);
		md_text(fp, run->labels[c]);
		fputs(" |", fp);
	}
	fputs(" first bad |\n|---|---|", fp);
	for (size_t c = 0; c < g->ncols; c++)
		fputs("---|", fp);
	fputs("---|\n", fp);
	for (size_t r = 0; r < g->nrows; r++) {
		const struct pb_grid_row *row = &g->rows[r];

		fputs("| ", fp);
		md_text(fp, row->set);
		fputs(" | ", fp);
		md_text(fp, row->name);
		fputs(" |", fp);
		for (size_t c = 0; c < g->ncols; c++) {
			const struct pb_grid_cell *cell = &row->cells[c];
			const char *cls = cell_class(cell, g->threshold_pct);
			char v[64], ch[64];

			fputc(' ', fp);
			if (!cell->present) {
				fputs("-", fp);
			} else if (cell->result[0]) {
				if (!strcmp(cls, "fail"))
					fputs("**", fp);
				md_text(fp, cell->result);
				if (!strcmp(cls, "fail"))
					fputs("**", fp);
			} else {
				human(v, sizeof(v), cell->value, row->units);
				change_text(ch, sizeof(ch), cell);
				md_text(fp, v);
				if (ch[0]) {
					fputc(' ', fp);
					md_text(fp, ch);
				}
				if (cell->regression)
					fputs(" **bad**", fp);
			}
			fputs(" |", fp);
		}
		fputc(' ', fp);
		if (row->first_bad >= 0)
			md_text(fp, run->labels[row->first_bad]);
		else
			fputc('-', fp);
		fputs(" |\n", fp);
	}
}

/* ---- the command ------------------------------------------------------- */

/* Column I's label: --label's word, else host/release of a document, else
 * the LAVA log's file name. */
static int make_label(struct grid_run *run, size_t i, struct json_object *doc)
{
	const char *host = pb_json_str(doc, "run.hostname"), *rel = pb_json_str(doc, "run.kernel.release");
	const char *base = strrchr(run->paths[i], '/');
	char buf[512];

	if (run->labels[i])
		return 0;
	if (doc)
		snprintf(buf, sizeof(buf), "%s/%s", host ? host : pb_json_str(doc, "system.hostname") ?
			 pb_json_str(doc, "system.hostname") : "?", rel ? rel :
			 pb_json_str(doc, "system.kernel_release") ?
			 pb_json_str(doc, "system.kernel_release") : "?");
	else
		snprintf(buf, sizeof(buf), "%s", base ? base + 1 : run->paths[i]);
	run->labels[i] = strdup(buf);
	return run->labels[i] ? 0 : -ENOMEM;
}

static int load(struct grid_run *run, size_t i)
{
	const char *path = run->paths[i];
	char err[512];
	char *text = NULL;
	size_t len = 0;
	int rc = pb_cmp_read_file(path, &text, &len);
	const char *p = text;
	struct json_object *doc = NULL;

	if (rc) {
		pb_err(NAME, "%s: cannot read: %s", path, strerror(-rc));
		return PB_EXIT_USAGE;
	}
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	if (*p == '{') {
		rc = pb_cmp_parse(text, len, &doc, err, sizeof(err));
		free(text);
		if (rc) {
			pb_err(NAME, "%s: %s", path, err);
			return PB_EXIT_USAGE;
		}
		rc = pb_grid_add_doc(&run->g, i, doc);
	} else {
		rc = pb_grid_add_lava(&run->g, i, text);
		free(text);
		if (rc == -EINVAL) {
			pb_err(NAME, "%s: neither a pipebench JSON document nor pipebench's LAVA "
			       "signals", path);
			return PB_EXIT_USAGE;
		}
	}
	if (!rc)
		rc = make_label(run, i, doc);
	json_object_put(doc);
	if (rc) {
		pb_err(NAME, "out of memory");
		return PB_EXIT_ERROR;
	}
	return PB_EXIT_OK;
}

/* "LABEL (#I)" for a label other columns share. */
static int dup_label(struct grid_run *run, size_t i)
{
	char *l = NULL;

	if (asprintf(&l, "%s (#%zu)", run->labels[i], i + 1) < 0)
		return -ENOMEM;
	run->orig[i] = run->labels[i];
	run->labels[i] = l;
	return 0;
}

static int exec_grid(struct pb_cli *cli, void *params)
{
	const struct grid_params *p = params;
	struct grid_run *run = calloc(1, sizeof(*run));
	size_t n = (size_t)cli->nargs;
	struct pb_out out;
	int rc = PB_EXIT_OK;

	if (!run) {
		pb_err(NAME, "out of memory");
		return PB_EXIT_ERROR;
	}
	if (n > MAX_DOCS) {
		pb_usage_err(NAME, "at most %d documents", MAX_DOCS);
		free(run);
		return PB_EXIT_USAGE;
	}
	if (p->label && (rc = pb_cli_labels_one_each(NAME, p->label, run->labels, n)) != PB_EXIT_OK)
		goto done;
	pb_grid_init(&run->g, n, p->threshold);
	for (size_t i = 0; i < n && rc == PB_EXIT_OK; i++) {
		run->paths[i] = cli->args[i];
		rc = load(run, i);
	}
	if (rc != PB_EXIT_OK)
		goto done;
	/* Labels that are not unique get their column's number. */
	{
		bool dup[MAX_DOCS] = { false };

		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				dup[i] |= j != i && strcmp(run->labels[i], run->labels[j]) == 0;
		for (size_t i = 0; i < n && rc == PB_EXIT_OK; i++)
			if (dup[i] && dup_label(run, i) < 0)
				rc = PB_EXIT_ERROR;
	}
	if (rc != PB_EXIT_OK)
		goto done;
	pb_grid_finish(&run->g);
	if (pb_out_open(&out)) {
		pb_err(NAME, "cannot allocate output buffer");
		rc = PB_EXIT_ERROR;
		goto done;
	}
	pb_cli_emit(cli, run, NULL, out.fp);
	rc = run->g.bad ? PB_EXIT_FAIL : PB_EXIT_OK;
	if (pb_out_finish(&out, NAME, cli->common.output))
		rc = PB_EXIT_ERROR;
done:
	pb_grid_free(&run->g);
	for (size_t i = 0; i < MAX_DOCS; i++) {
		free(run->labels[i]);
		free(run->orig[i]);
	}
	free(run);
	return rc;
}

#define P struct grid_params
static const struct pb_opt options[] = {
	{ PB_OPT("threshold", '\0', PB_OPT_DOUBLE, P, threshold), .dmin = 0, .dmax = 1e9,
	  .def = "5" /* PB_CMP_DEFAULT_THRESHOLD */, .arg = "PCT",
	  .help = "a figure significantly worse than its row's first column by more than PCT "
	  "percent has gone bad" },
	PB_OPT_LABEL(P, label, "column labels, comma-separated, one per file (default: host/kernel "
		     "from each document's run, a LAVA log's file name)"),
	PB_OPT_END
};

static const struct pb_format formats[] = {
	{ .name = "html", .emit = emit_html },
	{ .name = "markdown", .emit = emit_markdown },
	PB_FORMAT_END
};

const struct pb_cmd pb_cmd_grid = {
	.name = NAME, .opts = options, .formats = formats, .params_size = sizeof(struct grid_params),
	.exec = exec_grid,
	.args = "FILE [FILE...]", .min_args = 1, .max_args = -1,
	.operands = "file",
	.summary = "a verdict grid of documents across kernels: HTML page or markdown",
};
