/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format kcidb on constructed documents: every check's every verdict,
 * figures and their units, exit statuses, ids, the kernel's checkout and
 * build, the options, and nothing outside KCIDB v5.3's keys.
 */
#include <config.h>

#include <check.h>
#include <json-c/json.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "checks/conformance.h"
#include "kcidb.h"

#define RUN "\"run\":{\"start\":\"2026-01-02T03:04:05.250Z\",\"end\":\"2026-01-02T03:04:07.750Z\"," \
	"\"hostname\":\"box\",\"kernel\":{\"release\":\"6.1.0-9\",\"version\":\"#1 SMP\"," \
	"\"machine\":\"X86-64\"},\"user\":{\"uid\":0},\"pipebench\":{\"argv\":[\"pipebench\"]}}"

static void params(const char *origin, const char *build_id)
{
	pb_kcidb_params.origin = origin;
	pb_kcidb_params.build_id = build_id;
}

/* The report made of the JSON text DOC. */
static struct json_object *report_of(const char *doc)
{
	struct json_object *d = json_tokener_parse(doc), *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(d);
	pb_kcidb_doc(d, fp);
	fclose(fp);
	r = json_tokener_parse(buf);
	ck_assert_msg(r != NULL, "not JSON: %s", buf);
	free(buf);
	json_object_put(d);
	return r;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* The test whose path is PATH in report R, or NULL. */
static struct json_object *test_at(struct json_object *r, const char *path)
{
	struct json_object *t = get(r, "tests");

	for (size_t i = 0; i < json_object_array_length(t); i++) {
		const char *p = str(json_object_array_get_idx(t, i), "path");

		if (p && strcmp(p, path) == 0)
			return json_object_array_get_idx(t, i);
	}
	return NULL;
}

static bool only_keys(struct json_object *o, const char *const *keys)
{
	json_object_object_foreach(o, key, v) {
		size_t i = 0;

		(void)v;
		while (keys[i] && strcmp(keys[i], key) != 0)
			i++;
		if (!keys[i])
			return false;
	}
	return true;
}

static bool matches(const char *re, const char *s)
{
	regex_t rx;
	bool ok;

	ck_assert_int_eq(regcomp(&rx, re, REG_EXTENDED | REG_NOSUB), 0);
	ok = s && regexec(&rx, s, 0, NULL, 0) == 0;
	regfree(&rx);
	return ok;
}

/* Every key of report R is one KCIDB v5.3 allows; the required ones are
 * there and shaped as the schema says; ids are unique. */
static void assert_shape(struct json_object *r)
{
	static const char *const top[] = { "version", "checkouts", "builds", "tests", NULL };
	static const char *const test[] = { "id", "origin", "build_id", "path", "status",
					    "start_time", "duration", "environment", "misc",
					    "number", "log_excerpt", "comment", NULL };
	static const char *const env[] = { "comment", "misc", NULL };
	static const char *const num[] = { "value", "unit", "prefix", NULL };
	struct json_object *t = get(r, "tests"), *seen = json_object_new_object();

	ck_assert(only_keys(r, top));
	ck_assert_int_eq(json_object_get_int(get(get(r, "version"), "major")), 5);
	ck_assert_int_eq(json_object_get_int(get(get(r, "version"), "minor")), 3);
	for (size_t i = 0; i < json_object_array_length(t); i++) {
		struct json_object *x = json_object_array_get_idx(t, i), *n = get(x, "number");
		const char *id = str(x, "id"), *ex = str(x, "log_excerpt");

		ck_assert_msg(only_keys(x, test), "test %zu has a key KCIDB refuses", i);
		ck_assert(matches("^[a-z0-9_]+:.", id));
		ck_assert(matches("^[a-z0-9_]+:.", str(x, "build_id")));
		ck_assert(matches("^[a-z0-9_]+$", str(x, "origin")));
		ck_assert(matches("^([a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*)?$", str(x, "path")));
		ck_assert(matches("^(FAIL|ERROR|MISS|PASS|DONE|SKIP)$", str(x, "status")));
		ck_assert(only_keys(get(x, "environment"), env));
		ck_assert(json_object_is_type(get(x, "misc"), json_type_object));
		ck_assert_msg(!json_object_object_get_ex(seen, id, NULL), "id %s twice", id);
		json_object_object_add(seen, id, NULL);
		if (ex)
			ck_assert_uint_le(strlen(ex), 16384);
		if (n) {
			ck_assert(only_keys(n, num));
			ck_assert(json_object_is_type(get(n, "value"), json_type_double) ||
				  json_object_is_type(get(n, "value"), json_type_int));
			ck_assert_str_eq(str(x, "status"), "DONE");
		}
	}
	json_object_put(seen);
}

/* Each of the six verdicts of every check of the catalogue. */
START_TEST(every_check_every_verdict)
{
	static const char *const want[] = { "pass", "PASS", "fail", "FAIL", "skip", "SKIP",
					    "error", "ERROR", "known-deviation", "PASS",
					    "info", "DONE" };
	size_t nchecks = 0;

	params("lab", "lab:b1");
	for (size_t v = 0; v < sizeof(want) / sizeof(want[0]); v += 2) {
		char *doc = NULL;
		size_t len = 0, i = 0;
		FILE *fp = open_memstream(&doc, &len);
		struct json_object *r;

		ck_assert_str_eq(pb_kcidb_status(want[v]), want[v + 1]);
		fprintf(fp, "{\"command\":\"conformance\",\"exit_status\":0," RUN ",\"checks\":[");
		for (const struct pb_check *const *g = pb_check_groups; *g; g++)
			for (const struct pb_check *c = *g; c->id; c++, i++)
				fprintf(fp, "%s{\"id\":\"%s\",\"status\":\"%s\",\"detail\":\"why %s\","
					"\"duration_ns\":%zu}", i ? "," : "", c->id, want[v], c->id,
					1500000000 + i);
		fprintf(fp, "]}");
		fclose(fp);
		r = report_of(doc);
		free(doc);
		assert_shape(r);
		nchecks = i;
		i = 0;
		for (const struct pb_check *const *g = pb_check_groups; *g; g++) {
			for (const struct pb_check *c = *g; c->id; c++, i++) {
				char path[64], why[64];
				struct json_object *t;
				bool failed = strcmp(want[v + 1], "FAIL") == 0 ||
					      strcmp(want[v + 1], "ERROR") == 0;

				snprintf(path, sizeof(path), "pipebench.conformance.%s", c->id);
				snprintf(why, sizeof(why), "why %s", c->id);
				t = test_at(r, path);
				ck_assert_msg(t != NULL, "no test %s", path);
				ck_assert_str_eq(str(t, "status"), want[v + 1]);
				ck_assert_str_eq(str(get(t, "misc"), "verdict"), want[v]);
				ck_assert_str_eq(str(get(t, "misc"), "detail"), why);
				ck_assert_double_eq_tol(json_object_get_double(get(t, "duration")),
							1.5 + (double)i * 1e-9, 1e-12);
				if (failed)
					ck_assert_str_eq(str(t, "log_excerpt"), why);
				else
					ck_assert_ptr_null(get(t, "log_excerpt"));
				ck_assert_str_eq(str(t, "build_id"), "lab:b1");
				ck_assert_str_eq(str(t, "origin"), "lab");
				ck_assert_str_eq(str(t, "start_time"), "2026-01-02T03:04:05.250Z");
			}
		}
		/* The checks and exit-status, nothing else. */
		ck_assert_uint_eq(json_object_array_length(get(r, "tests")), nchecks + 1);
		json_object_put(r);
	}
	ck_assert_uint_eq(nchecks, 68);
	ck_assert_ptr_null(pb_kcidb_status("ok"));
	ck_assert_ptr_null(pb_kcidb_status(NULL));
}
END_TEST

/* A check that did not run is MISS; a check run for a kind is ID.KIND. */
START_TEST(not_run_and_kinds)
{
	struct json_object *r, *t;

	params("pipebench", NULL);
	r = report_of("{\"command\":\"conformance\",\"exit_status\":3," RUN ",\"params\":{\"kind\":\"all\"},"
		      "\"checks\":[{\"id\":\"WR-01\",\"kind\":\"fifo\",\"status\":\"pass\"}],"
		      "\"not_run\":[\"RD-03\"],\"errors\":[\"interrupted by SIGTERM\"]}");
	assert_shape(r);
	t = test_at(r, "pipebench.conformance.RD-03");
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(str(t, "status"), "MISS");
	ck_assert_str_eq(str(get(t, "misc"), "verdict"), "not run");
	ck_assert_ptr_nonnull(test_at(r, "pipebench.conformance.WR-01.fifo"));
	t = test_at(r, "pipebench.conformance.exit-status");
	ck_assert_str_eq(str(t, "status"), "ERROR");
	ck_assert_ptr_nonnull(strstr(str(t, "log_excerpt"), "interrupted by SIGTERM"));
	json_object_put(r);
}
END_TEST

/* Figures are DONE with number: ns as seconds, rates with metric prefixes,
 * the row's parameters in misc; a missing figure ERROR; a skipped row SKIP. */
START_TEST(figures)
{
	struct json_object *r, *t, *n;

	params("pipebench", "ci:7");
	r = report_of("{\"command\":\"throughput\",\"exit_status\":0," RUN ",\"results\":["
		      "{\"kind\":\"fifo\",\"mode\":\"rw\",\"size_bytes\":4096,\"status\":\"ok\","
		      "\"repetitions\":[1,2],\"summary\":{\"rate_bytes_per_s\":2.5e9,\"ns_per_syscall\":812.5}},"
		      "{\"kind\":\"anon\",\"mode\":\"splice\",\"size_bytes\":100,\"status\":\"ok\","
		      "\"summary\":{\"ns_per_syscall\":90}},"
		      "{\"kind\":\"socketpair\",\"mode\":\"tee\",\"size_bytes\":1,\"status\":\"skip\","
		      "\"reason\":\"tee needs pipes\"}]}");
	assert_shape(r);
	t = test_at(r, "pipebench.throughput.fifo-4096B-rate");
	ck_assert_ptr_nonnull(t);
	n = get(t, "number");
	ck_assert_double_eq(json_object_get_double(get(n, "value")), 2.5e9);
	ck_assert_str_eq(str(n, "unit"), "B/s");
	ck_assert_str_eq(str(n, "prefix"), "metric");
	ck_assert_str_eq(str(get(get(t, "misc"), "params"), "kind"), "fifo");
	ck_assert_int_eq(json_object_get_int(get(get(get(t, "misc"), "params"), "size_bytes")), 4096);
	/* Only the row's own scalars, not its repetitions or summary. */
	ck_assert_ptr_null(get(get(get(t, "misc"), "params"), "repetitions"));
	ck_assert_ptr_null(get(get(get(t, "misc"), "params"), "summary"));
	n = get(test_at(r, "pipebench.throughput.fifo-4096B-syscall"), "number");
	ck_assert_double_eq_tol(json_object_get_double(get(n, "value")), 812.5e-9, 1e-18);
	ck_assert_str_eq(str(n, "unit"), "s");
	ck_assert_str_eq(str(n, "prefix"), "metric");
	t = test_at(r, "pipebench.throughput.anon-splice-100B-rate");
	ck_assert_str_eq(str(t, "status"), "ERROR");
	ck_assert_ptr_null(get(t, "number"));
	ck_assert_ptr_nonnull(str(t, "log_excerpt"));
	t = test_at(r, "pipebench.throughput.socketpair-tee-1B-rate");
	ck_assert_str_eq(str(t, "status"), "SKIP");
	ck_assert_str_eq(str(get(t, "misc"), "detail"), "tee needs pipes");
	ck_assert_str_eq(str(test_at(r, "pipebench.throughput.exit-status"), "status"), "PASS");
	/* A build id given: no checkout or build of pipebench's own. */
	ck_assert_ptr_null(get(r, "checkouts"));
	ck_assert_ptr_null(get(r, "builds"));
	ck_assert_str_eq(str(t, "build_id"), "ci:7");
	json_object_put(r);

	/* A ratio has no unit; a rate of messages a metric prefix. */
	r = report_of("{\"command\":\"o_noatime\",\"exit_status\":0," RUN ",\"summary\":{\"tt_ratio_median\":1.25}}");
	n = get(test_at(r, "pipebench.o_noatime.tt-ratio"), "number");
	ck_assert_double_eq(json_object_get_double(get(n, "value")), 1.25);
	ck_assert_ptr_null(get(n, "unit"));
	ck_assert_ptr_null(get(n, "prefix"));
	json_object_put(r);
}
END_TEST

/* Every command's rows carry their parameters: latency's and messaging's
 * figures; timestamps' expectation (its excerpt is the expectation itself),
 * and nothing of it leaks into the cases after it. */
START_TEST(rows_of_every_command)
{
	struct json_object *r, *t;

	params("pipebench", "x:y");
	r = report_of("{\"command\":\"latency\",\"exit_status\":0," RUN ",\"results\":["
		      "{\"kind\":\"fifo\",\"size_bytes\":64,\"placement\":\"same\",\"wait\":\"spin\","
		      "\"status\":\"ok\",\"summary\":{\"rtt_p50_ns\":3000,\"rtt_p99_ns\":9000,"
		      "\"round_trips_per_s\":2e5}}]}");
	assert_shape(r);
	t = test_at(r, "pipebench.latency.fifo-64B-same-spin-p99");
	ck_assert_double_eq_tol(json_object_get_double(get(get(t, "number"), "value")), 9e-6, 1e-15);
	ck_assert_str_eq(str(get(get(t, "misc"), "params"), "placement"), "same");
	t = test_at(r, "pipebench.latency.fifo-64B-same-spin-rate");
	ck_assert_str_eq(str(get(t, "number"), "unit"), "rt/s");
	ck_assert_str_eq(str(get(get(t, "misc"), "params"), "wait"), "spin");
	json_object_put(r);

	r = report_of("{\"command\":\"messaging\",\"exit_status\":0," RUN ",\"results\":["
		      "{\"kind\":\"pipe\",\"mode\":\"thread\",\"groups\":2,\"fds\":4,\"size_bytes\":100,"
		      "\"summary\":{\"rate_messages_per_s\":{\"median\":5e5},\"elapsed_ns\":{\"median\":4e6}}}]}");
	assert_shape(r);
	t = test_at(r, "pipebench.messaging.pipe-thread-g2-f4-100B-rate");
	ck_assert_str_eq(str(get(t, "number"), "unit"), "msg/s");
	ck_assert_str_eq(str(get(get(t, "misc"), "params"), "mode"), "thread");
	t = test_at(r, "pipebench.messaging.pipe-thread-g2-f4-100B-elapsed");
	ck_assert_double_eq_tol(json_object_get_double(get(get(t, "number"), "value")), 4e-3, 1e-12);
	ck_assert_int_eq(json_object_get_int(get(get(get(t, "misc"), "params"), "groups")), 2);
	json_object_put(r);

	r = report_of("{\"command\":\"timestamps\",\"exit_status\":1," RUN ",\"expectations\":["
		      "{\"kind\":\"anon\",\"expected\":\"updated\",\"observed\":\"frozen\",\"holds\":false}],"
		      "\"summary\":{\"expectations_hold\":false}}");
	assert_shape(r);
	t = test_at(r, "pipebench.timestamps.anon.expect");
	ck_assert_str_eq(str(t, "status"), "FAIL");
	ck_assert_str_eq(str(get(get(t, "misc"), "params"), "observed"), "frozen");
	ck_assert_ptr_nonnull(strstr(str(t, "log_excerpt"), "\"expected\""));
	t = test_at(r, "pipebench.timestamps.expectations");
	ck_assert_str_eq(str(t, "status"), "FAIL");
	ck_assert_ptr_null(get(get(t, "misc"), "params"));
	ck_assert_ptr_null(get(t, "log_excerpt"));
	json_object_put(r);
}
END_TEST

/* Exit status 0 PASS, 1 FAIL, 4 SKIP, else ERROR; the duration is the run's. */
START_TEST(exit_statuses)
{
	static const char *const want[] = { "PASS", "FAIL", "ERROR", "ERROR", "SKIP", "ERROR" };

	params("pipebench", "x:y");
	for (int st = 0; st < 6; st++) {
		char doc[1024];
		struct json_object *r, *t;

		snprintf(doc, sizeof(doc), "{\"command\":\"timestamps\",\"exit_status\":%d," RUN
			 ",\"errors\":[\"E%d\"]}", st, st);
		r = report_of(doc);
		t = test_at(r, "pipebench.timestamps.exit-status");
		ck_assert_str_eq(str(t, "status"), want[st]);
		ck_assert_int_eq(json_object_get_int(get(get(t, "misc"), "exit_status")), st);
		ck_assert_double_eq_tol(json_object_get_double(get(t, "duration")), 2.5, 1e-9);
		if (st == 0 || st == 4)
			ck_assert_ptr_null(get(t, "log_excerpt"));
		else
			ck_assert_str_eq(str(t, "log_excerpt"), st == 1 ? "E1\n" : st == 2 ? "E2\n" :
					 st == 3 ? "E3\n" : "E5\n");
		json_object_put(r);
	}
}
END_TEST

/* A failing set's exit-status names its failed tests; a report part that
 * left no document is an ERROR of its own. */
START_TEST(failures_named)
{
	struct json_object *r, *t;
	const char *ex;

	params("pipebench", NULL);
	r = report_of("{\"command\":\"report\",\"exit_status\":1," RUN ",\"parts\":{"
		      "\"conformance\":{\"command\":\"conformance\",\"exit_status\":1," RUN ",\"checks\":["
		      "{\"id\":\"RD-03\",\"status\":\"fail\",\"detail\":\"read gave 0 with a writer\"},"
		      "{\"id\":\"RD-04\",\"status\":\"pass\"}]},\"latency\":null},"
		      "\"part_runs\":{\"conformance\":{\"exit_status\":1}}}");
	assert_shape(r);
	ex = str(test_at(r, "pipebench.conformance.exit-status"), "log_excerpt");
	ck_assert_ptr_nonnull(ex);
	ck_assert_ptr_nonnull(strstr(ex, "FAIL pipebench.conformance.RD-03: read gave 0 with a writer"));
	ck_assert_ptr_null(strstr(ex, "RD-04"));
	t = test_at(r, "pipebench.latency.exit-status");
	ck_assert_str_eq(str(t, "status"), "ERROR");
	ck_assert_ptr_nonnull(strstr(str(t, "log_excerpt"), "latency left no document"));
	ck_assert_str_eq(str(test_at(r, "pipebench.report.conformance"), "status"), "FAIL");
	ck_assert_str_eq(str(test_at(r, "pipebench.report.exit-status"), "status"), "FAIL");
	json_object_put(r);
}
END_TEST

/* Ids: the same document gives the same ids; another run other ones. */
START_TEST(ids_stable)
{
	const char *a = "{\"command\":\"conformance\",\"exit_status\":0," RUN ",\"checks\":[{\"id\":\"RD-01\",\"status\":\"pass\"}]}";
	struct json_object *r1, *r2, *r3;
	char *b = strdup(a);

	params("ci_lab", NULL);
	r1 = report_of(a);
	r2 = report_of(a);
	memcpy(strstr(b, "05.250Z"), "06", 2);
	r3 = report_of(b);
	ck_assert_str_eq(str(test_at(r1, "pipebench.conformance.RD-01"), "id"),
			 str(test_at(r2, "pipebench.conformance.RD-01"), "id"));
	ck_assert_str_ne(str(test_at(r1, "pipebench.conformance.RD-01"), "id"),
			 str(test_at(r3, "pipebench.conformance.RD-01"), "id"));
	ck_assert(matches("^ci_lab:[0-9a-f]{16}\\.pipebench\\.conformance\\.RD-01$",
			  str(test_at(r1, "pipebench.conformance.RD-01"), "id")));
	json_object_put(r1);
	json_object_put(r2);
	json_object_put(r3);
	free(b);
}
END_TEST

/* No build id: a checkout and a build of the running kernel, tied together. */
START_TEST(kernel_objects)
{
	struct json_object *r, *co, *b, *t;

	params("lab", NULL);
	r = report_of("{\"command\":\"conformance\",\"exit_status\":0," RUN ",\"checks\":[]}");
	assert_shape(r);
	ck_assert_uint_eq(json_object_array_length(get(r, "checkouts")), 1);
	ck_assert_uint_eq(json_object_array_length(get(r, "builds")), 1);
	co = json_object_array_get_idx(get(r, "checkouts"), 0);
	b = json_object_array_get_idx(get(r, "builds"), 0);
	t = test_at(r, "pipebench.conformance.exit-status");
	ck_assert_str_eq(str(b, "checkout_id"), str(co, "id"));
	ck_assert_str_eq(str(t, "build_id"), str(b, "id"));
	ck_assert_str_eq(str(b, "architecture"), "x86_64");
	ck_assert_str_eq(str(b, "origin"), "lab");
	ck_assert_str_eq(str(co, "origin"), "lab");
	ck_assert(matches("^lab:", str(co, "id")));
	ck_assert_str_eq(str(get(co, "misc"), "kernel_release"), "6.1.0-9");
	ck_assert_ptr_nonnull(strstr(str(b, "comment"), "Linux 6.1.0-9 #1 SMP X86-64"));
	/* The machine goes with every test; the user and command line do not. */
	ck_assert_str_eq(str(get(t, "environment"), "comment"), "box: Linux 6.1.0-9 X86-64");
	ck_assert_str_eq(str(get(get(t, "environment"), "misc"), "hostname"), "box");
	ck_assert_ptr_null(get(get(get(t, "environment"), "misc"), "user"));
	ck_assert_ptr_null(get(get(get(t, "environment"), "misc"), "pipebench"));
	json_object_put(r);
}
END_TEST

/* A long failure detail is cut to 16384 bytes, never inside a character;
 * names with characters a path refuses become _. */
START_TEST(excerpt_and_path)
{
	size_t n = 20001;
	char *detail = malloc(2 * n + 1), *doc = malloc(2 * n + 512);
	struct json_object *r, *t;
	const char *ex;

	for (size_t i = 0; i < n; i++)
		memcpy(detail + 2 * i, "\xc3\xa9", 2);
	detail[2 * n] = '\0';
	sprintf(doc, "{\"command\":\"conformance\",\"exit_status\":1," RUN ",\"checks\":["
		"{\"id\":\"A b/..c\",\"status\":\"fail\",\"detail\":\"x%s\"}]}", detail);
	params("pipebench", NULL);
	r = report_of(doc);
	assert_shape(r);
	t = test_at(r, "pipebench.conformance.A_b_._.c");
	ck_assert_ptr_nonnull(t);
	ex = str(t, "log_excerpt");
	ck_assert_uint_eq(strlen(ex), 16383);          /* "x" and 8191 whole "é" */
	ck_assert_int_eq(ex[0], 'x');
	ck_assert_int_eq((unsigned char)ex[16382], 0xa9);
	json_object_put(r);
	free(detail);
	free(doc);
}
END_TEST

/* The options: an origin of [a-z0-9_]+, a build id ORIGIN:something. */
START_TEST(options_checked)
{
	static const struct { const char *origin, *build; int rc; } cases[] = {
		{ "pipebench", NULL, 0 }, { "lab_2", "lab_2:b", 0 }, { "Lab", NULL, -1 },
		{ "", NULL, -1 }, { "a-b", NULL, -1 }, { "ok", "nocolon", -1 },
		{ "ok", "ok:", -1 }, { "ok", ":x", -1 }, { "ok", "Ok:x", -1 }, { "ok", "o k:x", -1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		params(cases[i].origin, cases[i].build);
		ck_assert_msg(pb_kcidb_check("conformance") == cases[i].rc, "case %zu", i);
	}
}
END_TEST

PB_CHECK_SUITE_MAIN("kcidb",
	PB_TCASE("mapping", every_check_every_verdict, not_run_and_kinds, figures, exit_statuses,
		 failures_named, rows_of_every_command),
	PB_TCASE("identity", ids_stable, kernel_objects, excerpt_and_path, options_checked))
