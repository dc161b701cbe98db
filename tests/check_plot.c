/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.c: the chart chosen for a set of documents, and the script's data
 * (medians, ranges, CDF steps, change classes, verdict cells, interval
 * series), axes in words and units, --label, report parts, the terminal and
 * its check, from small hand-made documents.  gnuplot is not run here
 * (tests/plot.sh does).
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "plot.h"

static char *script;
static char err[512];
static enum pb_plot_chart chart;

/* Plot the JSON texts in DOCS (NULL-terminated) with O; the script in `script`. */
static int plot_with(const struct pb_plot_opts *o, const char *const *texts)
{
	struct json_object *docs[8];
	const char *paths[8] = { "a.json", "b.json", "c.json", "d.json" };
	size_t n = 0, len = 0;
	FILE *fp;
	int rc;

	free(script);
	script = NULL;
	for (; texts[n]; n++) {
		docs[n] = json_tokener_parse(texts[n]);
		ck_assert_msg(docs[n] != NULL, "test document %zu parses", n);
	}
	fp = open_memstream(&script, &len);
	ck_assert(fp != NULL);
	err[0] = '\0';
	rc = pb_plot_script(docs, paths, n, o, fp, &chart, err, sizeof(err));
	fclose(fp);
	for (size_t i = 0; i < n; i++)
		json_object_put(docs[i]);
	return rc;
}

static int plot_docs(const char *metric, const char *const *texts)
{
	struct pb_plot_opts o = { .metric = metric, .term = PB_PLOT_SVG };

	return plot_with(&o, texts);
}

/* A NULL-terminated list of strings: documents to plot, phrases to find. */
#define TEXTS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Each of HAS (NULL-terminated; NULL: none) is in TEXT (the script or the error). */
static void want_all(const char *text, const char *const *has)
{
	for (; has && *has; has++)
		ck_assert_msg(strstr(text, *has), "no '%s' in:\n%s", *has, text);
}

/* The documents TEXTS plot, as a WANT chart whose script has each of HAS. */
static void plots_as(const char *metric, const char *const *texts, enum pb_plot_chart want,
		     const char *const *has)
{
	ck_assert_int_eq(plot_docs(metric, texts), 0);
	ck_assert_int_eq(chart, want);
	want_all(script, has);
}

#define RUN "\"run\": {\"hostname\": \"h1\", \"kernel\": {\"release\": \"6.1\"}}"
#define REP(x) "{\"rate_bytes_per_s\": " #x "}"
#define TP_RES(kind, mode, size, a, b, c) \
	"{\"kind\": \"" kind "\"" mode ", \"size_bytes\": " #size ", \"repetitions\": [" \
	REP(a) ", " REP(b) ", " REP(c) "]}"

static const char *const tp_sweep =
	"{\"command\": \"throughput\", " RUN ", \"results\": ["
	TP_RES("anon", "", 1024, 3145728, 1048576, 2097152) ", "
	TP_RES("anon", "", 4096, 4194304, 4194304, 4194304) ", "
	TP_RES("fifo", ", \"mode\": \"splice\"", 1024, 1048576, 1048576, 1048576) ", "
	TP_RES("fifo", ", \"mode\": \"splice\"", 4096, 2097152, 2097152, 2097152) "]}";

static const char *const tp_single =
	"{\"command\": \"throughput\", " RUN ", \"results\": ["
	TP_RES("anon", "", 100, 1048576, 2097152, 3145728) "]}";

START_TEST(sweep_lines_per_kind_and_mode)
{
	plots_as(NULL, TEXTS(tp_sweep), PB_PLOT_SWEEP, TEXTS(
		/* A missing mode is the read/write loop; the median with the range, in MiB/s. */
		"title \"anon rw\"", "title \"fifo splice\"", "\n 1024 2 1 3\n 4096 4 4 4\n",
		"set logscale x 2", "\"1 KiB\" 1024",
		/* The axis and title in words, not the member's name. */
		"set ylabel \"throughput (MiB/s)\"\n", "throughput: throughput by message size",
		/* One document: its host and kernel, no position mark. */
		"(h1 6.1)\"\n"));
}
END_TEST

START_TEST(one_size_or_several_documents_are_bars)
{
	plots_as(NULL, TEXTS(tp_single), PB_PLOT_BARS, NULL);
	plots_as(NULL, TEXTS(tp_single, tp_single), PB_PLOT_BARS, TEXTS(
		/* Same host and kernel twice: told apart by position. */
		"title \"h1 6.1 #1\"", "title \"h1 6.1 #2\"",
		/* Bar centres either side of the cluster, median 2 MiB/s, range 1..3, width 0.4. */
		"$b0 << EOD\n -0.2 2 1 3 0.4\n", "$b1 << EOD\n 0.2 2 1 3 0.4\n"));
}
END_TEST

/* Medians and ranges take every repetition: 1025 of them, the smallest last. */
START_TEST(spans_take_every_repetition)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&doc, &len);

	ck_assert(fp != NULL);
	fputs("{\"command\": \"throughput\", " RUN ", \"results\": [{\"kind\": \"anon\", "
	      "\"size_bytes\": 100, \"repetitions\": [", fp);
	for (int i = 0; i < 1025; i++)
		fprintf(fp, "%s" REP(%d), i ? ", " : "", (i < 1024 ? i + 2 : 1) * 1048576);
	fputs("]}]}", fp);
	ck_assert_int_eq(fclose(fp), 0);
	/* The median of 1..1025 MiB/s is 513, the range 1..1025. */
	plots_as(NULL, TEXTS(doc), PB_PLOT_BARS, TEXTS(" 513 1 1025 "));
	free(doc);
}
END_TEST

static const char *const lat =
	"{\"command\": \"latency\", " RUN ", \"results\": ["
	"{\"kind\": \"anon\", \"placement\": \"same\", \"status\": \"ok\", "
	" \"repetitions\": [{\"rtt_p50_ns\": 5}], "
	" \"summary\": {\"histogram\": [[10, 10, 1], [20, 23, 2], [40, 47, 1]]}}, "
	"{\"kind\": \"anon\", \"placement\": \"smt\", \"status\": \"skip\"}]}";

START_TEST(latency_cdf_from_buckets)
{
	plots_as(NULL, TEXTS(lat), PB_PLOT_CDF,
		 TEXTS("\n 10 0\n 11 0.25\n 24 0.75\n 48 1\nEOD\n", "title \"anon same\"",
		       /* Round trips under a microsecond stay in ns. */
		       "set xlabel \"round-trip time (ns)\"\n"));
	ck_assert_ptr_null(strstr(script, "smt"));   /* skipped placements are left out */
	plots_as("rtt_p50_ns", TEXTS(lat), PB_PLOT_BARS, NULL);
}
END_TEST

static const char *const cmp =
	"{\"command\": \"compare\", " RUN ", \"params\": {\"base\": \"b.json\", \"new\": [\"n.json\"]},"
	" \"results\": ["
	"{\"id\": \"kind=anon\", \"metric\": \"tt_ns\", \"change_pct\": 10, \"significant\": true,"
	" \"regression\": true}, "
	"{\"id\": \"kind=anon\", \"metric\": \"tw_ns\", \"change_pct\": -4, \"significant\": true,"
	" \"regression\": false}, "
	"{\"id\": \"kind=anon\", \"metric\": \"tr_ns\", \"change_pct\": 1, \"significant\": false,"
	" \"regression\": false}, "
	"{\"id\": \"kind=anon\", \"metric\": \"bytes\", \"change_pct\": null}]}";

START_TEST(compare_change_classes)
{
	plots_as(NULL, TEXTS(cmp), PB_PLOT_CHANGE, TEXTS(
		"$g0 << EOD\n 5 0 5\nEOD", "$g1 << EOD\n -2 1 2\nEOD",
		"$g2 << EOD\n 0.5 2 0.5\nEOD", "title \"significant, regression\""));
	ck_assert_ptr_null(strstr(script, "bytes"));   /* no change, no bar */
	want_all(script, TEXTS("\"kind=anon total time\" 0", "\"kind=anon write time\" 1"));
	ck_assert_int_eq(plot_docs("tw_ns", TEXTS(cmp)), 0);
	ck_assert_ptr_null(strstr(script, "$g0"));
	ck_assert_int_eq(plot_docs("nosuch", TEXTS(cmp)), -EINVAL);
	ck_assert_int_eq(plot_docs(NULL, TEXTS(cmp, cmp)), -EINVAL);
}
END_TEST

static const char *const cf =
	"{\"command\": \"conformance\", " RUN ", \"checks\": ["
	"{\"id\": \"CRE-01\", \"status\": \"pass\"}, {\"id\": \"WR-02\", \"status\": \"fail\"}]}";

START_TEST(conformance_grid_cells)
{
	plots_as(NULL, TEXTS(cf, cf), PB_PLOT_GRID, TEXTS(
		"$v0 << EOD\n 0 0\n 1 0\nEOD",  /* pass */
		"$v1 << EOD\n 0 1\n 1 1\nEOD",  /* fail */
		"set ytics (\"CRE-01\" 0, \"WR-02\" 1)"));
	ck_assert_int_eq(plot_docs("x", TEXTS(cf)), -EINVAL);
}
END_TEST

/* Latency in µs: the CDF's axis and steps, bars of a percentile, scaled. */
static const char *const lat_us =
	"{\"command\": \"latency\", " RUN ", \"results\": ["
	"{\"kind\": \"anon\", \"repetitions\": [{\"rtt_p99_ns\": 4000}, {\"rtt_p99_ns\": 6000},"
	" {\"rtt_p99_ns\": 5000}], \"summary\": {\"histogram\": [[4000, 4999, 1], [5000, 5999, 1]]}}]}";

START_TEST(axes_in_words_and_units)
{
	plots_as(NULL, TEXTS(lat_us), PB_PLOT_CDF, TEXTS(
		"set xlabel \"round-trip time (\xc2\xb5s)\"\n", "\n 4 0\n 5 0.5\n 6 1\nEOD\n"));
	plots_as("rtt_p99_ns", TEXTS(lat_us), PB_PLOT_BARS, TEXTS(
		"set ylabel \"round-trip time, p99 (\xc2\xb5s)\"\n", "\n 0 5 4 6 0.8\n",
		"pipebench latency: round-trip time, p99 (h1 6.1)"));
	/* Past a second: seconds.  A metric plot does not know: its name in
	 * words, the unit from its suffix. */
	plots_as("tt_ns", TEXTS("{\"command\": \"o_noatime\", \"results\": [{\"kind\": \"fifo\","
				" \"repetitions\": [{\"tt_ns\": 2000000000}]}]}"), PB_PLOT_BARS,
		 TEXTS("set ylabel \"total time (s)\"\n", " 0 2 2 2 0.8\n"));
	plots_as("queue_wait_ns", TEXTS("{\"command\": \"messaging\", \"results\": [{\"kind\": \"pipe\","
				" \"repetitions\": [{\"queue_wait_ns\": 3000000}]}]}"), PB_PLOT_BARS,
		 TEXTS("set ylabel \"queue wait (ms)\"\n", " 0 3 3 3 0.8\n"));
	plots_as("rtt_p99_9_ns", TEXTS("{\"command\": \"latency\", \"results\": [{\"kind\": \"anon\","
				       " \"repetitions\": [{\"rtt_p99_9_ns\": 12}]}]}"), PB_PLOT_BARS,
		 TEXTS("set ylabel \"round-trip time, p99.9 (ns)\"\n"));
	plots_as(NULL, TEXTS("{\"command\": \"messaging\", \"results\": [{\"kind\": \"pipe\","
			     " \"repetitions\": [{\"rate_messages_per_s\": 7}]}]}"), PB_PLOT_BARS,
		 TEXTS("set ylabel \"message rate (messages/s)\"\n"));
}
END_TEST

START_TEST(labels_name_the_documents)
{
	const char *const two[] = { "old", "new" }, *const one_kept[] = { NULL, "new" };
	const char *const same[] = { "x", "x" };
	struct pb_plot_opts o = { .labels = two };

	ck_assert_int_eq(plot_with(&o, TEXTS(tp_single, tp_single)), 0);
	want_all(script, TEXTS("title \"old\"", "title \"new\""));
	ck_assert_ptr_null(strstr(script, " #1"));
	o.labels = one_kept;
	ck_assert_int_eq(plot_with(&o, TEXTS(tp_single, tp_single)), 0);
	want_all(script, TEXTS("title \"h1 6.1\"", "title \"new\""));
	o.labels = same;
	ck_assert_int_eq(plot_with(&o, TEXTS(cf, cf)), 0);
	want_all(script, TEXTS("set xtics (\"x #1\" 0, \"x #2\" 1)"));
	o.labels = two;
	ck_assert_int_eq(plot_with(&o, TEXTS(tp_single)), 0);   /* one document: one label */
	want_all(script, TEXTS("(old)\"\n"));
}
END_TEST

START_TEST(terminals_and_their_check)
{
	static const struct { enum pb_plot_term t; const char *set, *check; } c[] = {
		{ PB_PLOT_PNG, "set terminal png size 900,560 ", "\" png \")) {" },
		{ PB_PLOT_PDF, "set terminal pdfcairo size 9in,5.6in ", "\" pdfcairo \")) {" },
		{ PB_PLOT_JPEG, "set terminal jpeg size 900,560 ", "\" jpeg \")) {" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pb_plot_opts o = { .term = c[i].t };

		ck_assert_int_eq(plot_with(&o, TEXTS(tp_sweep)), 0);
		want_all(script, TEXTS(c[i].set, c[i].check, "GPVAL_TERMINALS",
				       "print \"" PB_PLOT_NO_TERMINAL, "\n    exit\n}\n"));
		/* The check comes before the terminal is set. */
		ck_assert(strstr(script, "GPVAL_TERMINALS") < strstr(script, c[i].set));
	}
	ck_assert_int_eq(plot_docs(NULL, TEXTS(tp_sweep)), 0);
	ck_assert_ptr_null(strstr(script, "GPVAL_TERMINALS"));   /* every gnuplot has svg */
	ck_assert_str_eq(pb_plot_term_name(PB_PLOT_PDF), "pdfcairo");
}
END_TEST

#define REPORT(parts) "{\"command\": \"report\", " RUN ", \"parts\": {" parts "}}"

START_TEST(report_parts)
{
	char tp[2048], both[4096], t64[4096];
	struct pb_plot_opts o = { .part = "latency" };

	snprintf(tp, sizeof(tp), REPORT("\"timestamps\": {\"command\": \"timestamps\"}, "
					"\"throughput\": %s"), tp_sweep);
	snprintf(both, sizeof(both), REPORT("\"throughput\": %s, \"latency\": %s"), tp_sweep, lat);
	/* Default: the throughput part, drawn as a throughput document. */
	plots_as(NULL, TEXTS(tp), PB_PLOT_SWEEP, TEXTS("title \"fifo splice\"",
						       "sweep chart of 1 throughput document"));
	plots_as(NULL, TEXTS(both), PB_PLOT_SWEEP, NULL);   /* throughput before latency */
	/* ... and, without it, throughput_64k before latency (--help's order),
	 * whichever the report names first */
	snprintf(t64, sizeof(t64), REPORT("\"latency\": %s, \"throughput_64k\": %s"), lat, tp_sweep);
	plots_as(NULL, TEXTS(t64), PB_PLOT_SWEEP, TEXTS("sweep chart of 1 throughput document"));
	ck_assert_int_eq(plot_with(&o, TEXTS(both)), 0);
	ck_assert_int_eq(chart, PB_PLOT_CDF);
	ck_assert_int_eq(plot_with(&o, TEXTS(both, both)), 0);
	ck_assert_int_eq(chart, PB_PLOT_BARS);
	/* With the part's own command's documents. */
	ck_assert_int_eq(plot_with(&o, TEXTS(both, lat)), -EINVAL);
	want_all(err, TEXTS("--part: b.json is a latency document, not a report"));
	ck_assert_int_eq(plot_with(&o, TEXTS(tp)), -EINVAL);
	want_all(err, TEXTS("a.json: the report has no latency part (it has: timestamps, throughput)"));
	o.part = "timestamps";
	ck_assert_int_eq(plot_with(&o, TEXTS(tp)), -EINVAL);
	want_all(err, TEXTS("not timestamps documents"));
	ck_assert_int_eq(plot_docs(NULL, TEXTS(REPORT("\"timestamps\": {\"command\": \"timestamps\"}"))),
			 -EINVAL);
	want_all(err, TEXTS("the report has no part plot draws (it has: timestamps)"));
}
END_TEST

#define IV(end, a, b) "{\"end_ns\": " #end ", \"rtt_p50_ns\": " #a ", \"rtt_p99_ns\": " #b "}"
static const char *const lat_iv =
	"{\"command\": \"latency\", " RUN ", \"results\": [{\"kind\": \"anon\", \"placement\": \"same\","
	" \"repetitions\": ["
	"{\"elapsed_ns\": 2500000, \"intervals\": [" IV(1000000, 4000, 9000) ", "
	IV(2000000, 5000, 12000) "]}, "
	"{\"elapsed_ns\": 2000000, \"intervals\": [" IV(1000000, 4500, 8000) ", "
	IV(2000000, 4200, null) "]}], "
	" \"summary\": {\"histogram\": [[4000, 4999, 1]]}}]}";

START_TEST(interval_series)
{
	struct pb_plot_opts o = { .chart = PB_PLOT_CDF };

	plots_as(NULL, TEXTS(lat_iv), PB_PLOT_INTERVALS, TEXTS(
		/* The second repetition starts where the first ended (2.5 ms), after a
		 * gap; an interval without a percentile is left out. */
		"$i0 << EOD\n 1 4 9\n 2 5 12\n\n 3.5 4.5 8\nEOD\n",
		"set xlabel \"time into the run (ms)\"\n",
		"set ylabel \"round-trip time (\xc2\xb5s)\"\n",
		"using 1:2 with lines lw 2 lc 1 title \"anon p50\"",
		"using 1:3 with lines lw 1 dt 2 lc 1 title \"anon p99\""));
	/* --chart: the CDF of the same run; intervals only where there are some. */
	ck_assert_int_eq(plot_with(&o, TEXTS(lat_iv)), 0);
	ck_assert_int_eq(chart, PB_PLOT_CDF);
	o.chart = PB_PLOT_INTERVALS;
	ck_assert_int_eq(plot_with(&o, TEXTS(lat)), -EINVAL);
	want_all(err, TEXTS("--chart intervals"));
	o.chart = PB_PLOT_SWEEP;
	ck_assert_int_eq(plot_with(&o, TEXTS(tp_single)), -EINVAL);
	o.chart = PB_PLOT_BARS;
	ck_assert_int_eq(plot_with(&o, TEXTS(cf)), -EINVAL);
	ck_assert_int_eq(plot_with(&o, TEXTS(tp_sweep)), 0);
	ck_assert_int_eq(chart, PB_PLOT_BARS);
	ck_assert_str_eq(pb_plot_chart_name(PB_PLOT_INTERVALS), "intervals");
}
END_TEST

START_TEST(bad_inputs_are_refused)
{
	const struct { const char *metric; const char *const *texts; const char *err; } c[] = {
		{ NULL, TEXTS(tp_single, lat), "plot documents of one command" },
		{ NULL, TEXTS("{\"command\": \"timestamps\", \"results\": []}"),
		  "not timestamps documents" },
		{ NULL, TEXTS("{\"command\": \"throughput\", \"results\": []}"), "no results" },
		{ "nosuch", TEXTS(tp_single), "(it has: rate_bytes_per_s)" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ck_assert_int_eq(plot_docs(c[i].metric, c[i].texts), -EINVAL);
		want_all(err, TEXTS(c[i].err));
	}
	ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

START_TEST(titles_are_quoted)
{
	struct pb_plot_opts o = { .title = "a \"b\" \\c\nd", .term = PB_PLOT_PNG };
	struct json_object *doc = json_tokener_parse(tp_single);
	const char *path = "a.json";
	size_t len = 0;
	FILE *fp;

	free(script);
	script = NULL;
	fp = open_memstream(&script, &len);
	ck_assert_int_eq(pb_plot_script(&doc, &path, 1, &o, fp, NULL, err, sizeof(err)), 0);
	fclose(fp);
	json_object_put(doc);
	ck_assert_ptr_nonnull(strstr(script, "set title \"a \\\"b\\\" \\\\cd\"\n"));
	ck_assert_ptr_nonnull(strstr(script, "set terminal png "));
}
END_TEST

PB_CHECK_SUITE_MAIN("plot",
	PB_TCASE("charts", sweep_lines_per_kind_and_mode, one_size_or_several_documents_are_bars,
		 spans_take_every_repetition, latency_cdf_from_buckets, compare_change_classes,
		 conformance_grid_cells, interval_series, report_parts),
	PB_TCASE("axes", axes_in_words_and_units, labels_name_the_documents,
		 terminals_and_their_check),
	PB_TCASE("inputs", bad_inputs_are_refused, titles_are_quoted))
