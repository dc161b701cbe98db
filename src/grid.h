/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict grid of `pipebench grid`: documents as columns, in the order
 * given, and as rows every case --format lava makes of them (src/lava.h):
 * a check's verdict, a timestamps probe, a figure, each command's
 * exit-status.  A JSON document's cases come from its command's
 * lava_cases, a LAVA log's from its signals, so the two line up by name.
 *
 * A figure is compared with the row's first column that has it (its
 * reference; for most rows the first column): when both columns have the
 * repetitions behind it (JSON documents), Welch's t-test on them
 * (compare.h) says whether the change is significant; a column whose
 * repetitions vary by more than PB_GRID_NOISY_RSD is noisy and never
 * counts as a regression.  A row goes bad in the first column where a
 * check that did not fail in the reference says fail or error, or a figure
 * is a regression: significant, worse and beyond the threshold.
 */
#ifndef PB_GRID_H
#define PB_GRID_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"

struct json_object;

/* A column whose repetitions' relative standard deviation is above this is noisy. */
#define PB_GRID_NOISY_RSD 0.10

struct pb_grid_cell {
	bool present;
	char result[32];     /* a verdict word (pass, fail, known-deviation, ...), or "" for a figure */
	double value;        /* a figure (NAN: the run gave none) */
	double *samples;     /* the repetitions behind the figure, or NULL */
	size_t n;
	/* Against the row's reference column (figures): */
	double change_pct;   /* NAN when there is nothing to compare */
	double p;            /* Welch's p, or -1 when not tested (a side without repetitions) */
	bool significant, worse, noisy, regression;
	double rsd;          /* of this column's repetitions (0 without) */
};

struct pb_grid_row {
	char *set, *name;    /* the LAVA test set (command or report part) and case */
	char *units;         /* a figure's units, or NULL */
	char *metric;        /* the repetitions' member behind the figure, or NULL */
	enum pb_cmp_dir dir;
	bool figure;         /* some column has a figure */
	struct pb_grid_cell *cells;   /* one per column */
	long first_bad;      /* the column where it went bad, or -1 */
};

struct pb_grid {
	size_t ncols, nrows;
	struct pb_grid_row *rows;
	double threshold_pct;
	size_t bad;          /* rows that went bad */
};

/* An empty grid of NCOLS columns.  0 or -ENOMEM. */
int pb_grid_init(struct pb_grid *g, size_t ncols, double threshold_pct);
/* DOC (a pipebench JSON document) as column COL.  0 or -ENOMEM. */
int pb_grid_add_doc(struct pb_grid *g, size_t col, struct json_object *doc);
/* TEXT, LAVA test-shell signals (pipebench --format lava), as column COL.
 * 0, -ENOMEM, or -EINVAL when it holds no signal. */
int pb_grid_add_lava(struct pb_grid *g, size_t col, const char *text);
/* The comparisons with the first column and each row's first bad column. */
void pb_grid_finish(struct pb_grid *g);
void pb_grid_free(struct pb_grid *g);

#endif
