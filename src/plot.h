/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipebench plot: the chart a set of result documents calls for, as a
 * gnuplot script with its data inline (datablocks), so the same text is
 * what `plot --format gnuplot` writes and what `plot` pipes into gnuplot.
 * No drawing happens here: gnuplot is the renderer (cmd_plot.c runs it).
 *
 * The chart follows the documents (pipebench(1), plot):
 *   one throughput document with a size sweep: rate against size, log2 x,
 *     one line per kind x mode (a missing mode is "rw"), error bars from
 *     the repetitions' range;
 *   one latency document: CDF of the round-trip time per kind x placement
 *     from the histogram buckets, log x;
 *   several documents of one command (or one without a sweep, or --metric
 *     on latency): grouped bars of the metric's median per result, a bar
 *     per document labelled host/kernel, the range as error bars;
 *   a compare document: %change bars, significant ones marked;
 *   conformance documents: a verdict grid, checks x documents.
 */
#ifndef PB_PLOT_H
#define PB_PLOT_H

#include <stddef.h>
#include <stdio.h>

struct json_object;

enum pb_plot_term { PB_PLOT_SVG, PB_PLOT_PNG };

enum pb_plot_chart {
	PB_PLOT_SWEEP, PB_PLOT_CDF, PB_PLOT_BARS, PB_PLOT_CHANGE, PB_PLOT_GRID,
};

struct pb_plot_opts {
	const char *title;        /* NULL: a title from the documents */
	const char *metric;       /* NULL: the command's default metric */
	enum pb_plot_term term;
};

/* At most this many documents in one chart. */
#define PB_PLOT_MAX_DOCS 64

/*
 * Write a complete gnuplot script for the N documents DOCS (read from
 * PATHS) to FP: terminal, labels, inline data, plot command; the image goes
 * to gnuplot's standard output.  *CHART (may be NULL) gets the chart
 * chosen.  Returns 0; -EINVAL for documents that cannot be drawn together
 * (mixed commands, a command plot does not draw, no results, an unknown
 * metric), with a one-line reason naming the file in ERR; -ENOMEM.
 */
int pb_plot_script(struct json_object *const *docs, const char *const *paths, size_t n,
		   const struct pb_plot_opts *o, FILE *fp, enum pb_plot_chart *chart,
		   char *err, size_t errlen);

/* The chart's name ("sweep", "cdf", "bars", "change", "grid"). */
const char *pb_plot_chart_name(enum pb_plot_chart c);

#endif
