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
	ck_assert_int_eq(plot_docs(NULL, (const char *[]){ tp_sweep, NULL }), 0);
	ck_assert_int_eq(chart, PB_PLOT_SWEEP);
	/* A missing mode is the read/write loop; the median with the range, in MiB/s. */
	ck_assert_ptr_nonnull(strstr(script, "title \"anon rw\""));
	ck_assert_ptr_nonnull(strstr(script, "title \"fifo splice\""));
	ck_assert_ptr_nonnull(strstr(script, "\n 1024 2 1 3\n 4096 4 4 4\n"));
	ck_assert_ptr_nonnull(strstr(script, "set logscale x 2"));
	ck_assert_ptr_nonnull(strstr(script, "\"1 KiB\" 1024"));
	/* One document: its host and kernel, no position mark. */
	ck_assert_ptr_nonnull(strstr(script, "(h1 6.1)\"\n"));
}
END_TEST

START_TEST(one_size_or_several_documents_are_bars)
{
	ck_assert_int_eq(plot_docs(NULL, (const char *[]){ tp_single, NULL }), 0);
	ck_assert_int_eq(chart, PB_PLOT_BARS);
	ck_assert_int_eq(plot_docs(NULL, (const char *[]){ tp_single, tp_single, NULL }), 0);
	ck_assert_int_eq(chart, PB_PLOT_BARS);
	/* Same host and kernel twice: told apart by position. */
	ck_assert_ptr_nonnull(strstr(script, "title \"h1 6.1 #1\""));
	ck_assert_ptr_nonnull(strstr(script, "title \"h1 6.1 #2\""));
	/* Bar centres either side of the cluster, median 2 MiB/s, range 1..3, width 0.4. */
	ck_assert_ptr_nonnull(strstr(script, "$b0 << EOD\n -0.2 2 1 3 0.4\n"));
	ck_assert_ptr_nonnull(strstr(script, "$b1 << EOD\n 0.2 2 1 3 0.4\n"));
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
	ck_assert_int_eq(plot_docs(NULL, (const char *[]){ lat, NULL }), 0);
	ck_assert_int_eq(chart, PB_PLOT_CDF);
	ck_assert_ptr_nonnull(strstr(script, "\n 10 0\n 11 0.25\n 24 0.75\n 48 1\nEOD\n"));
	ck_assert_ptr_nonnull(strstr(script, "title \"anon same\""));
	ck_assert_ptr_null(strstr(script, "smt"));   /* skipped placements are left out */
	ck_assert_int_eq(plot_docs("rtt_p50_ns", (const char *[]){ lat, NULL }), 0);
	ck_assert_int_eq(chart, PB_PLOT_BARS);
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
	ck_assert_int_eq(plot_docs(NULL, (const char *[]){ cmp, NULL }), 0);
	ck_assert_int_eq(chart, PB_PLOT_CHANGE);
	ck_assert_ptr_nonnull(strstr(script, "$g0 << EOD\n 5 0 5\nEOD"));
	ck_assert_ptr_nonnull(strstr(script, "$g1 << EOD\n -2 1 2\nEOD"));
	ck_assert_ptr_nonnull(strstr(script, "$g2 << EOD\n 0.5 2 0.5\nEOD"));
	ck_assert_ptr_nonnull(strstr(script, "title \"significant, regression\""));
	ck_assert_ptr_null(strstr(script, "bytes"));   /* no change, no bar */
	ck_assert_int_eq(plot_docs("tw_ns", (const char *[]){ cmp, NULL }), 0);
	ck_assert_ptr_null(strstr(script, "$g0"));
	ck_assert_int_eq(plot_docs("nosuch", (const char *[]){ cmp, NULL }), -EINVAL);
	ck_assert_int_eq(plot_docs(NULL, (const char *[]){ cmp, cmp, NULL }), -EINVAL);
}
END_TEST

static const char *const cf =
	"{\"command\": \"conformance\", " RUN ", \"checks\": ["
	"{\"id\": \"CRE-01\", \"status\": \"pass\"}, {\"id\": \"WR-02\", \"status\": \"fail\"}]}";

START_TEST(conformance_grid_cells)
{
	ck_assert_int_eq(plot_docs(NULL, (const char *[]){ cf, cf, NULL }), 0);
	ck_assert_int_eq(chart, PB_PLOT_GRID);
	ck_assert_ptr_nonnull(strstr(script, "$v0 << EOD\n 0 0\n 1 0\nEOD"));  /* pass */
	ck_assert_ptr_nonnull(strstr(script, "$v1 << EOD\n 0 1\n 1 1\nEOD"));  /* fail */
	ck_assert_ptr_nonnull(strstr(script, "set ytics (\"CRE-01\" 0, \"WR-02\" 1)"));
	ck_assert_int_eq(plot_docs("x", (const char *[]){ cf, NULL }), -EINVAL);
}
END_TEST

START_TEST(bad_inputs_are_refused)
{
	ck_assert_int_eq(plot_docs(NULL, (const char *[]){ tp_single, lat, NULL }), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "plot documents of one command"));
	ck_assert_int_eq(plot_docs(NULL, (const char *[]){
		"{\"command\": \"timestamps\", \"results\": []}", NULL }), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "not timestamps documents"));
	ck_assert_int_eq(plot_docs(NULL, (const char *[]){
		"{\"command\": \"throughput\", \"results\": []}", NULL }), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "no results"));
	ck_assert_int_eq(plot_docs("nosuch", (const char *[]){ tp_single, NULL }), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "(it has: rate_bytes_per_s)"));
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
		 latency_cdf_from_buckets, compare_change_classes, conformance_grid_cells),
	PB_TCASE("inputs", bad_inputs_are_refused, titles_are_quoted))
