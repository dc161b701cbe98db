/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict grid of documents across kernels (grid.h) */
#include <config.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "grid.h"
#include "lava.h"
#include "output.h"
#include "stats.h"

int pb_grid_init(struct pb_grid *g, size_t ncols, double threshold_pct)
{
	memset(g, 0, sizeof(*g));
	g->ncols = ncols;
	g->threshold_pct = threshold_pct;
	return ncols ? 0 : -EINVAL;
}

void pb_grid_free(struct pb_grid *g)
{
	for (size_t r = 0; r < g->nrows; r++) {
		struct pb_grid_row *row = &g->rows[r];

		for (size_t c = 0; c < g->ncols; c++)
			free(row->cells[c].samples);
		free(row->cells);
		free(row->set);
		free(row->name);
		free(row->units);
		free(row->metric);
	}
	free(g->rows);
	memset(g, 0, sizeof(*g));
}

/* The row SET/NAME, made (in order of first appearance) when new; NULL: no memory. */
static struct pb_grid_row *row_at(struct pb_grid *g, const char *set, const char *name)
{
	struct pb_grid_row *rows, *row;

	for (size_t r = 0; r < g->nrows; r++)
		if (strcmp(g->rows[r].set, set) == 0 && strcmp(g->rows[r].name, name) == 0)
			return &g->rows[r];
	rows = realloc(g->rows, (g->nrows + 1) * sizeof(*rows));
	if (!rows)
		return NULL;
	g->rows = rows;
	row = &rows[g->nrows];
	memset(row, 0, sizeof(*row));
	row->first_bad = -1;
	row->set = strdup(set);
	row->name = strdup(name);
	row->cells = calloc(g->ncols, sizeof(*row->cells));
	if (!row->set || !row->name || !row->cells) {
		free(row->set);
		free(row->name);
		free(row->cells);
		return NULL;
	}
	for (size_t c = 0; c < g->ncols; c++) {
		row->cells[c].value = NAN;
		row->cells[c].change_pct = NAN;
		row->cells[c].p = -1;
	}
	g->nrows++;
	return row;
}

struct collect {
	struct pb_grid *g;
	size_t col;
	int err;
};

static void set_result(struct pb_grid_cell *cell, const char *word)
{
	cell->present = true;
	snprintf(cell->result, sizeof(cell->result), "%s", word);
}

static bool is_verdict(const char *w)
{
	static const char *const words[] = { "pass", "fail", "skip", "error", "known-deviation",
					     "info" };

	for (size_t i = 0; w && i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(w, words[i]) == 0)
			return true;
	return false;
}

/* A check's own verdict when the case came from one, else the kit's word
 * (a check not run is "not-run"). */
static void grid_case(const struct pb_lava *l, const char *name, const char *result)
{
	struct collect *c = l->ctx;
	char lname[256];
	struct pb_grid_row *row;
	const char *own = pb_json_str(l->item, "status");

	pb_lava_name(lname, sizeof(lname), name);    /* as a LAVA log names it */
	row = row_at(c->g, l->set, lname);

	if (!row) {
		c->err = -ENOMEM;
		return;
	}
	set_result(&row->cells[c->col], is_verdict(own) ? own :
		   strcmp(result, "unknown") == 0 ? "not-run" : result);
}

/* The repetitions of ITEM whose member's median is V: the samples behind a
 * figure the command summarised as their median.  The member's name into
 * *KEY.  NULL when there is none. */
static double *samples_of(struct json_object *item, double v, size_t *n, const char **key)
{
	struct json_object *reps = pb_json_get(item, "repetitions"), *first;
	size_t nr = pb_json_len(reps);
	double *s;

	if (nr == 0 || !isfinite(v))
		return NULL;
	first = json_object_array_get_idx(reps, 0);
	if (!json_object_is_type(first, json_type_object) || !(s = calloc(nr, sizeof(*s))))
		return NULL;
	json_object_object_foreach(first, k, kv) {
		struct pb_stats st;
		size_t got = 0;

		if (!json_object_is_type(kv, json_type_double) && !json_object_is_type(kv, json_type_int))
			continue;
		for (size_t i = 0; i < nr; i++) {
			double x = pb_json_num(json_object_array_get_idx(reps, i), k);

			if (isfinite(x))
				s[got++] = x;
		}
		if (got == nr && pb_stats_compute(s, got, &st) == 0 &&
		    fabs(st.median - v) <= 1e-9 * fmax(1, fabs(v))) {
			*n = got;
			*key = k;
			return s;
		}
	}
	free(s);
	return NULL;
}

static enum pb_cmp_dir units_dir(const char *units)
{
	if (!units)
		return PB_CMP_NEUTRAL;
	if (strchr(units, '/'))
		return PB_CMP_HIGHER;       /* B/s, msg/s, rt/s */
	if (strcmp(units, "ns") == 0)
		return PB_CMP_LOWER;
	return PB_CMP_NEUTRAL;
}

static void grid_figure(struct collect *c, const char *set, const char *name, double v,
			const char *units, struct json_object *item)
{
	struct pb_grid_row *row = row_at(c->g, set, name);
	struct pb_grid_cell *cell;
	const char *key = NULL;

	if (!row) {
		c->err = -ENOMEM;
		return;
	}
	cell = &row->cells[c->col];
	cell->present = true;
	cell->result[0] = '\0';
	cell->value = v;
	free(cell->samples);
	cell->samples = samples_of(item, v, &cell->n, &key);
	row->figure = true;
	if (!row->units && units)
		row->units = strdup(units);
	if (!row->metric && key)
		row->metric = strdup(key);
	row->dir = row->metric && pb_cmp_direction(row->metric) != PB_CMP_NEUTRAL ?
		   pb_cmp_direction(row->metric) : units_dir(row->units);
}

static void grid_measure(const struct pb_lava *l, const char *name, double v, const char *units)
{
	char lname[256];

	pb_lava_name(lname, sizeof(lname), name);
	grid_figure(l->ctx, l->set, lname, v, units, l->item);
}

static void grid_exit(const struct pb_lava *l, struct json_object *doc)
{
	static const char *const words[] = { "pass", "fail", "usage", "error", "skip" };
	struct collect *c = l->ctx;
	struct pb_grid_row *row = row_at(c->g, l->set, "exit-status");
	long long st = doc ? pb_json_int(doc, "exit_status", 3) : -1;

	if (!row) {
		c->err = -ENOMEM;
		return;
	}
	set_result(&row->cells[c->col], st >= 0 && st <= 4 ? words[st] : "not-run");
}

int pb_grid_add_doc(struct pb_grid *g, size_t col, struct json_object *doc)
{
	static const struct pb_lava_sink sink = { grid_case, grid_measure, grid_exit };
	struct collect c = { .g = g, .col = col };
	struct pb_lava l = { .sink = &sink, .ctx = &c };

	pb_cases_doc(&l, doc, NULL);
	return c.err;
}

/* The value of " KEY=" in LINE (up to a space or '>') into BUF. */
static bool lava_field(const char *line, const char *key, char *buf, size_t len)
{
	char pat[32];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return false;
	p += strlen(pat);
	n = strcspn(p, " >\n");
	snprintf(buf, len, "%.*s", (int)n, p);
	return true;
}

int pb_grid_add_lava(struct pb_grid *g, size_t col, const char *text)
{
	struct collect c = { .g = g, .col = col };
	char set[128] = "pipebench", name[256], result[32], num[64], units[64];
	size_t signals = 0;

	for (const char *line = text, *eol; line && *line; line = eol ? eol + 1 : NULL) {
		const char *s;
		char sig[1024];

		eol = strchr(line, '\n');
		s = memmem(line, eol ? (size_t)(eol - line) : strlen(line), "<LAVA_SIGNAL_", 13);
		if (!s)
			continue;
		/* The signal's own line only: a field it lacks (a skip's
		 * MEASUREMENT, UNITS) is not the next line's. */
		snprintf(sig, sizeof(sig), "%.*s", (int)(eol ? (size_t)(eol - s) : strlen(s)), s);
		s = sig;
		if (sscanf(s, "<LAVA_SIGNAL_TESTSET START %127[^> \n]>", set) == 1) {
			signals++;
			continue;
		}
		if (strncmp(s, "<LAVA_SIGNAL_TESTCASE ", 22) != 0 ||
		    !lava_field(s, "TEST_CASE_ID", name, sizeof(name)) ||
		    !lava_field(s, "RESULT", result, sizeof(result)))
			continue;
		signals++;
		if (lava_field(s, "MEASUREMENT", num, sizeof(num))) {
			if (!lava_field(s, "UNITS", units, sizeof(units)))
				units[0] = '\0';
			grid_figure(&c, set, name, strtod(num, NULL), units[0] ? units : NULL, NULL);
		} else {
			struct pb_grid_row *row = row_at(g, set, name);

			if (!row)
				return -ENOMEM;
			set_result(&row->cells[col], strcmp(result, "unknown") == 0 ? "not-run" : result);
		}
		if (c.err)
			return c.err;
	}
	return signals ? 0 : -EINVAL;
}

static bool bad_word(const char *w)
{
	return strcmp(w, "fail") == 0 || strcmp(w, "error") == 0;
}

void pb_grid_finish(struct pb_grid *g)
{
	g->bad = 0;
	for (size_t r = 0; r < g->nrows; r++) {
		struct pb_grid_row *row = &g->rows[r];
		struct pb_grid_cell *base = &row->cells[0];
		size_t from = 1;

		/* The reference is the row's first column that has it. */
		while (from < g->ncols && !base->present)
			base = &row->cells[from++];
		row->first_bad = -1;
		for (size_t c = 0; c < g->ncols; c++) {
			struct pb_grid_cell *cell = &row->cells[c];
			struct pb_stats st;

			cell->rsd = cell->n >= 2 && pb_stats_compute(cell->samples, cell->n, &st) == 0 ?
				    st.rsd : 0;
			cell->noisy = cell->rsd > PB_GRID_NOISY_RSD;
		}
		for (size_t c = from; c < g->ncols; c++) {
			struct pb_grid_cell *cell = &row->cells[c];

			if (!cell->present)
				continue;
			if (cell->result[0]) {
				/* A verdict: bad where it fails and did not in the first column. */
				if (row->first_bad < 0 && bad_word(cell->result) &&
				    !(base->present && base->result[0] && bad_word(base->result)))
					row->first_bad = (long)c;
				continue;
			}
			if (!base->present || base->result[0] || !isfinite(base->value) ||
			    !isfinite(cell->value))
				continue;
			/* The change of the figures shown; its significance from the
			 * repetitions behind them, when both columns have them. */
			cell->change_pct = base->value != 0 ?
				(cell->value - base->value) / fabs(base->value) * 100 : NAN;
			if (base->n >= 2 && cell->n >= 2) {
				struct pb_cmp_metric m = { .dir = row->dir };

				pb_cmp_metric_eval(&m, base->samples, base->n, cell->samples, cell->n,
						   g->threshold_pct);
				cell->p = m.p;
				cell->significant = m.significant;
			}
			cell->worse = isfinite(cell->change_pct) &&
				      ((row->dir == PB_CMP_LOWER && cell->change_pct > 0) ||
				       (row->dir == PB_CMP_HIGHER && cell->change_pct < 0));
			/* The noise can explain a change in a noisy column: never a regression. */
			cell->regression = cell->worse && cell->significant && !cell->noisy &&
					   !base->noisy && fabs(cell->change_pct) > g->threshold_pct;
			if (row->first_bad < 0 && cell->regression)
				row->first_bad = (long)c;
		}
		g->bad += row->first_bad >= 0;
	}
}
