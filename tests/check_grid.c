/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grid on constructed series: the first column where a check stops
 * passing and where a figure regresses; a noisy figure and one without
 * repetitions are never called bad; JSON documents and LAVA logs line up
 * by case name.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "grid.h"

static struct pb_grid_row *row_of(struct pb_grid *g, const char *set, const char *name)
{
	for (size_t r = 0; r < g->nrows; r++)
		if (!strcmp(g->rows[r].set, set) && !strcmp(g->rows[r].name, name))
			return &g->rows[r];
	return NULL;
}

static void add(struct pb_grid *g, size_t col, const char *text)
{
	struct json_object *d = json_tokener_parse(text);

	ck_assert_msg(d != NULL, "not JSON: %s", text);
	ck_assert_int_eq(pb_grid_add_doc(g, col, d), 0);
	json_object_put(d);
}

/* A conformance document with RD-03 and WR-01 as given. */
static void conf(struct pb_grid *g, size_t col, const char *rd03, const char *wr01)
{
	char doc[512];

	snprintf(doc, sizeof(doc), "{\"command\":\"conformance\",\"exit_status\":0,\"checks\":["
		 "{\"id\":\"RD-03\",\"status\":\"%s\"},{\"id\":\"WR-01\",\"status\":\"%s\"}]}",
		 rd03, wr01);
	add(g, col, doc);
}

/* A check that fails from the third column is bad there, not before or
 * after; one that failed in the first column already never goes bad; an
 * error counts as failing; a known deviation does not. */
START_TEST(check_stops_passing)
{
	struct pb_grid g;
	static const char *const rd03[] = { "pass", "known-deviation", "fail", "fail", "pass" };
	static const char *const wr01[] = { "fail", "fail", "error", "pass", "fail" };

	ck_assert_int_eq(pb_grid_init(&g, 5, 5), 0);
	for (size_t c = 0; c < 5; c++)
		conf(&g, c, rd03[c], wr01[c]);
	pb_grid_finish(&g);
	ck_assert_int_eq(row_of(&g, "conformance", "RD-03")->first_bad, 2);
	ck_assert_int_eq(row_of(&g, "conformance", "WR-01")->first_bad, -1);
	ck_assert_str_eq(row_of(&g, "conformance", "RD-03")->cells[1].result, "known-deviation");
	ck_assert_int_eq(row_of(&g, "conformance", "exit-status")->first_bad, -1);
	ck_assert_uint_eq(g.bad, 1);
	pb_grid_free(&g);

	/* An error from the second column is bad there. */
	ck_assert_int_eq(pb_grid_init(&g, 2, 5), 0);
	conf(&g, 0, "pass", "pass");
	conf(&g, 1, "error", "pass");
	pb_grid_finish(&g);
	ck_assert_int_eq(row_of(&g, "conformance", "RD-03")->first_bad, 1);
	pb_grid_free(&g);
}
END_TEST

/* A throughput document whose anon 4 KiB row has repetitions at RATE
 * times (1 + each of the spreads); the summary is their median. */
static void tp(struct pb_grid *g, size_t col, double rate, const double *spread, size_t n)
{
	char doc[2048];
	double v[16];
	size_t off;

	for (size_t i = 0; i < n; i++)
		v[i] = rate * (1 + spread[i]);
	off = (size_t)snprintf(doc, sizeof(doc), "{\"command\":\"throughput\",\"exit_status\":0,"
			       "\"results\":[{\"kind\":\"anon\",\"mode\":\"rw\",\"size_bytes\":4096,"
			       "\"status\":\"ok\",\"repetitions\":[");
	for (size_t i = 0; i < n; i++)
		off += (size_t)snprintf(doc + off, sizeof(doc) - off,
					"%s{\"tt_ns\":%zu,\"rate_bytes_per_s\":%.6f}", i ? "," : "",
					1000 + i, v[i]);
	/* The median: the spreads below are sorted, n odd. */
	snprintf(doc + off, sizeof(doc) - off, "],\"summary\":{\"rate_bytes_per_s\":%.6f,"
		 "\"ns_per_syscall\":null}}]}", v[n / 2]);
	add(g, col, doc);
}

static const double tight[] = { -0.01, -0.005, 0, 0.005, 0.01 };
static const double wide[] = { -0.45, -0.3, 0, 0.3, 0.45 };

/* A figure 10% worse from the fourth column on, with tight repetitions, is
 * bad there; a 20% worse one whose repetitions vary by 30% is noisy and never
 * bad; the figure and its repetitions' member are found. */
START_TEST(figure_regresses)
{
	struct pb_grid g;
	struct pb_grid_row *row;

	ck_assert_int_eq(pb_grid_init(&g, 6, 5), 0);
	for (size_t c = 0; c < 6; c++)
		tp(&g, c, c < 3 ? 1e9 : 0.9e9, tight, 5);
	pb_grid_finish(&g);
	row = row_of(&g, "throughput", "anon-4096B-rate");
	ck_assert_ptr_nonnull(row);
	ck_assert_str_eq(row->metric, "rate_bytes_per_s");
	ck_assert_str_eq(row->units, "B/s");
	ck_assert_int_eq(row->dir, PB_CMP_HIGHER);
	ck_assert_uint_eq(row->cells[3].n, 5);
	ck_assert_double_eq_tol(row->cells[3].change_pct, -10, 1e-6);
	ck_assert(row->cells[3].significant && row->cells[3].worse && row->cells[3].regression);
	ck_assert(!row->cells[2].regression);
	ck_assert(!row->cells[1].worse);          /* no change is not worse */
	ck_assert_double_eq(row->cells[1].change_pct, 0);
	ck_assert_int_eq(row->first_bad, 3);
	/* The figure nobody measured (null) is a figure of no value. */
	ck_assert(isnan(row_of(&g, "throughput", "anon-4096B-syscall")->cells[0].value));
	ck_assert_int_eq(row_of(&g, "throughput", "anon-4096B-syscall")->first_bad, -1);
	pb_grid_free(&g);

	/* Noisy: 20% worse on average, repetitions from -45% to +45%. */
	ck_assert_int_eq(pb_grid_init(&g, 4, 5), 0);
	for (size_t c = 0; c < 4; c++)
		tp(&g, c, c < 1 ? 1e9 : 0.8e9, wide, 5);
	pb_grid_finish(&g);
	row = row_of(&g, "throughput", "anon-4096B-rate");
	ck_assert(row->cells[2].noisy);
	ck_assert(row->cells[2].worse);
	ck_assert(!row->cells[2].regression);
	ck_assert_int_eq(row->first_bad, -1);
	ck_assert_uint_eq(g.bad, 0);
	pb_grid_free(&g);

	/* Within the threshold: 3% worse and significant is not bad at 5%. */
	ck_assert_int_eq(pb_grid_init(&g, 2, 5), 0);
	tp(&g, 0, 1e9, tight, 5);
	tp(&g, 1, 0.97e9, tight, 5);
	pb_grid_finish(&g);
	row = row_of(&g, "throughput", "anon-4096B-rate");
	ck_assert(row->cells[1].significant && row->cells[1].worse && !row->cells[1].regression);
	pb_grid_free(&g);
}
END_TEST

/* A LAVA log and a JSON document line up by set and case; a figure from a
 * log has no repetitions, so it is never tested and never bad. */
START_TEST(lava_lines_up)
{
	struct pb_grid g;
	struct pb_grid_row *row;
	const char *log = "+ noise from the shell\n"
			  "<LAVA_SIGNAL_TESTSET START throughput>\n"
			  "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-4096B-stable RESULT=skip>\n"
			  "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-4096B-loops RESULT=pass MEASUREMENT=7>\n"
			  "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-4096B-rate RESULT=pass MEASUREMENT=500000000 UNITS=B/s>\n"
			  "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=pass>\n"
			  "<LAVA_SIGNAL_TESTSET STOP>\n"
			  "<LAVA_SIGNAL_TESTSET START conformance>\n"
			  "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=RD-03 RESULT=fail>\n"
			  "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=WR-01 RESULT=unknown>\n"
			  "<LAVA_SIGNAL_TESTSET STOP>\n";

	ck_assert_int_eq(pb_grid_init(&g, 3, 5), 0);
	tp(&g, 0, 1e9, tight, 5);
	conf(&g, 0, "pass", "pass");
	ck_assert_int_eq(pb_grid_add_lava(&g, 1, log), 0);
	ck_assert_int_eq(pb_grid_add_lava(&g, 2, "no signals here\n"), -EINVAL);
	pb_grid_finish(&g);
	row = row_of(&g, "throughput", "anon-4096B-rate");
	ck_assert_double_eq(row->cells[1].value, 5e8);
	ck_assert_double_eq_tol(row->cells[1].change_pct, -50, 1e-9);
	ck_assert(row->cells[1].worse && !row->cells[1].significant && row->cells[1].p < 0);
	ck_assert_int_eq(row->first_bad, -1);
	ck_assert_str_eq(row_of(&g, "throughput", "exit-status")->cells[1].result, "pass");
	/* A line's fields are its own: a skip has no figure, a count no
	 * units, though the next line has both. */
	row = row_of(&g, "throughput", "anon-4096B-stable");
	ck_assert_str_eq(row->cells[1].result, "skip");
	ck_assert_ptr_null(row->units);
	row = row_of(&g, "throughput", "anon-4096B-loops");
	ck_assert_double_eq(row->cells[1].value, 7);
	ck_assert_ptr_null(row->units);
	ck_assert_int_eq(row_of(&g, "conformance", "RD-03")->first_bad, 1);
	ck_assert_str_eq(row_of(&g, "conformance", "WR-01")->cells[1].result, "not-run");
	ck_assert_int_eq(row_of(&g, "conformance", "WR-01")->first_bad, -1);
	/* The same rows, no others: 5 of throughput, 3 of conformance. */
	ck_assert_uint_eq(g.nrows, 8);
	pb_grid_free(&g);
}
END_TEST

/* exit-status rows say the status's word; a report's parts are their own sets. */
START_TEST(exit_words_and_parts)
{
	static const char *const words[] = { "pass", "fail", "usage", "error", "skip" };
	struct pb_grid g;

	ck_assert_int_eq(pb_grid_init(&g, 6, 5), 0);
	for (size_t c = 0; c < 5; c++) {
		char doc[128];

		snprintf(doc, sizeof(doc), "{\"command\":\"timestamps\",\"exit_status\":%zu}", c);
		add(&g, c, doc);
	}
	add(&g, 5, "{\"command\":\"report\",\"exit_status\":0,\"parts\":{\"conformance\":"
	    "{\"command\":\"conformance\",\"exit_status\":0,\"checks\":[{\"id\":\"RD-03\","
	    "\"status\":\"pass\"}]},\"latency\":null}}");
	pb_grid_finish(&g);
	for (size_t c = 0; c < 5; c++)
		ck_assert_str_eq(row_of(&g, "timestamps", "exit-status")->cells[c].result, words[c]);
	ck_assert_str_eq(row_of(&g, "conformance", "RD-03")->cells[5].result, "pass");
	ck_assert_str_eq(row_of(&g, "latency", "exit-status")->cells[5].result, "not-run");
	ck_assert_str_eq(row_of(&g, "report", "exit-status")->cells[5].result, "pass");
	/* exit 1 and 3 after a first column of 0: bad from the second column. */
	ck_assert_int_eq(row_of(&g, "timestamps", "exit-status")->first_bad, 1);
	pb_grid_free(&g);
}
END_TEST

PB_CHECK_SUITE_MAIN("grid",
	PB_TCASE("first_bad", check_stops_passing, figure_regresses, lava_lines_up,
		 exit_words_and_parts))
