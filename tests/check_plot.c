/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.c: the chart chosen for a set of documents, and the script's data
 * (medians, ranges, CDF steps, change classes, verdict cells) from small
 * hand-made documents.  gnuplot is not run here (tests/plot.sh does).
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

/* Plot the JSON texts in DOCS (NULL-terminated); the script in `script`. */
static int plot_docs(const char *metric, const char *const *texts)
{
	struct json_object *docs[8];
	const char *paths[8] = { "a.json", "b.json", "c.json", "d.json" };
	struct pb_plot_opts o = { .metric = metric, .term = PB_PLOT_SVG };
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
	rc = pb_plot_script(docs, paths, n, &o, fp, &chart, err, sizeof(err));
	fclose(fp);
	for (size_t i = 0; i < n; i++)
		json_object_put(docs[i]);
	return rc;
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
		 TEXTS("\n 10 0\n 11 0.25\n 24 0.75\n 48 1\nEOD\n", "title \"anon same\""));
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
		 spans_take_every_repetition, latency_cdf_from_buckets, compare_change_classes, conformance_grid_cells),
	PB_TCASE("inputs", bad_inputs_are_refused, titles_are_quoted))
