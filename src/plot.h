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
 *   conformance documents: a verdict grid, checks x documents;
 *   one latency document with --interval series: p50 and p99 per interval
 *     against the time into the run;
 *   one throughput document with several --copies counts: the metric
 *     against the count, a line per kind x mode x size, and a dashed line
 *     of linear scaling from the smallest count;
 *   report documents: the chart of one of their parts (each part is a
 *     document of its own command).
 * Axes are labelled in words with a unit ("throughput (MiB/s)"); times are
 * drawn in ns, µs, ms or s, whichever suits the largest value.
 */
#ifndef PB_PLOT_H
#define PB_PLOT_H

#include <stddef.h>
#include <stdio.h>

struct json_object;

enum pb_plot_term { PB_PLOT_SVG, PB_PLOT_PNG, PB_PLOT_PDF, PB_PLOT_JPEG };

enum pb_plot_chart {
	PB_PLOT_AUTO,             /* pb_plot_opts.chart: the one the documents call for */
	PB_PLOT_SWEEP, PB_PLOT_CDF, PB_PLOT_BARS, PB_PLOT_CHANGE, PB_PLOT_GRID,
	PB_PLOT_INTERVALS, PB_PLOT_SCALING,
};

struct pb_plot_opts {
	const char *title;        /* NULL: a title from the documents */
	const char *metric;       /* NULL: the command's default metric */
	const char *part;         /* report documents: the part drawn (NULL: throughput, else
				   * the first part plot draws) */
	const char *const *labels; /* NULL, or one per document (NULL: host and kernel) */
	enum pb_plot_chart chart; /* PB_PLOT_AUTO, or a chart asked for (checked) */
	enum pb_plot_term term;
};

/*
 * The first line gnuplot prints on its standard error, and then exits 0 with
 * nothing drawn, when it lacks the terminal the script asks for.
 */
#define PB_PLOT_NO_TERMINAL "pipebench plot: this gnuplot has no "

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

/* The chart's name ("auto", "sweep", "cdf", "bars", "change", "grid",
 * "intervals"); pb_plot_chart_words lists them in enum order, NULL-terminated. */
const char *pb_plot_chart_name(enum pb_plot_chart c);
extern const char *const pb_plot_chart_words[];

/* The terminal's gnuplot name ("svg", "png", "pdfcairo", "jpeg"). */
const char *pb_plot_term_name(enum pb_plot_term t);

#endif
