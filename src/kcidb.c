/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --format kcidb: a document as a KCIDB v5.3 report (kcidb.h) */
#include <config.h>

#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "format.h"
#include "kcidb.h"
#include "lava.h"
#include "msg.h"
#include "output.h"

/* KCIDB refuses a log excerpt longer than this (characters). */
#define KCIDB_EXCERPT_MAX 16384

struct pb_kcidb_params pb_kcidb_params;

const struct pb_opt pb_kcidb_opts[] = {
	{ PB_OPT("kcidb-origin", '\0', PB_OPT_STRING, struct pb_kcidb_params, origin),
	  .def = "pipebench", .arg = "NAME",
	  .help = "--format kcidb: the CI system's origin, [a-z0-9_]+" },
	{ PB_OPT("kcidb-build-id", '\0', PB_OPT_STRING, struct pb_kcidb_params, build_id),
	  .arg = "ID", .def_help = "a checkout and build made from the running kernel",
	  .help = "--format kcidb: the tested build's KCIDB id, ORIGIN:..." },
	PB_OPT_END
};

/* [a-z0-9_]+ */
static bool origin_ok(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

int pb_kcidb_check(const char *cmd)
{
	const struct pb_kcidb_params *p = &pb_kcidb_params;
	const char *colon = p->build_id ? strchr(p->build_id, ':') : NULL;

	if (!origin_ok(p->origin, strlen(p->origin))) {
		pb_usage_err(cmd, "--kcidb-origin '%s': only lower-case letters, digits and _",
			     p->origin);
		return -1;
	}
	if (p->build_id && (!colon || !origin_ok(p->build_id, (size_t)(colon - p->build_id)) ||
			    !colon[1])) {
		pb_usage_err(cmd, "--kcidb-build-id '%s': not ORIGIN:ID (ORIGIN of [a-z0-9_])",
			     p->build_id);
		return -1;
	}
	return 0;
}

const char *pb_kcidb_status(const char *verdict)
{
	static const char *const map[][2] = {
		{ "pass", "PASS" }, { "fail", "FAIL" }, { "skip", "SKIP" }, { "error", "ERROR" },
		{ "known-deviation", "PASS" }, { "info", "DONE" },
	};

	for (size_t i = 0; verdict && i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(verdict, map[i][0]) == 0)
			return map[i][1];
	return NULL;
}

struct pb_kcidb {
	struct json_object *tests;     /* the report's tests */
	struct json_object *ids;       /* the ids given so far (a set) */
	struct json_object *env;       /* every test's environment */
	const char *origin, *build_id;
	char run_id[17];               /* stable for one document */
};

/* 64-bit FNV-1a of S, continuing from H. */
static uint64_t fnv(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;  /* a separator between strings */
}

/* "pipebench.SET.CASE" with each segment of [A-Za-z0-9_-]+ into BUF. */
static void test_path(char *buf, size_t len, const char *set, const char *name)
{
	char raw[512];
	size_t o = 0;
	bool seg_empty = true;

	snprintf(raw, sizeof(raw), "pipebench.%s.%s", set, name);
	for (const char *s = raw; *s && o + 2 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '.') {
			if (seg_empty)
				buf[o++] = '_';
			buf[o++] = '.';
			seg_empty = true;
			continue;
		}
		buf[o++] = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			   (c >= '0' && c <= '9') || c == '_' || c == '-' ? (char)c : '_';
		seg_empty = false;
	}
	if (seg_empty && o + 1 < len)
		buf[o++] = '_';
	buf[o] = '\0';
}

/* TEXT cut to what KCIDB takes as a log excerpt, never inside a UTF-8 character. */
static void add_excerpt(struct json_object *t, const char *text)
{
	size_t n = strlen(text);

	if (!n)
		return;
	if (n > KCIDB_EXCERPT_MAX) {
		n = KCIDB_EXCERPT_MAX;
		while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
			n--;
	}
	json_object_object_add(t, "log_excerpt", json_object_new_string_len(text, (int)n));
}

/* A new test of the open set L->set called NAME with STATUS, in the report. */
static struct json_object *new_test(const struct pb_lava *l, const char *name, const char *status)
{
	struct pb_kcidb *k = l->ctx;
	struct json_object *t = json_object_new_object(), *misc = json_object_new_object();
	char path[384], id[512];
	const char *start = pb_json_str(l->doc, "run.start");

	test_path(path, sizeof(path), l->set, name);
	snprintf(id, sizeof(id), "%s:%s.%s", k->origin, k->run_id, path);
	/* A name made twice in one document (never, today) still gets its own id. */
	for (int n = 2; json_object_object_get_ex(k->ids, id, NULL); n++)
		snprintf(id, sizeof(id), "%s:%s.%s.%d", k->origin, k->run_id, path, n);
	json_object_object_add(k->ids, id, NULL);
	pb_json_add_str(t, "id", id);
	pb_json_add_str(t, "origin", k->origin);
	pb_json_add_str(t, "build_id", k->build_id);
	pb_json_add_str(t, "path", path);
	pb_json_add_str(t, "status", status);
	if (start)
		pb_json_add_str(t, "start_time", start);
	json_object_object_add(t, "environment", json_object_get(k->env));
	pb_json_add_str(misc, "command", pb_json_str(l->doc, "command"));
	json_object_object_add(t, "misc", misc);
	json_object_array_add(k->tests, t);
	return t;
}

/* ITEM's scalar members (a measured row's parameters) into MISC.params. */
static void add_params(struct json_object *misc, struct json_object *item)
{
	struct json_object *p = json_object_new_object();

	json_object_object_foreach(item, key, v) {
		json_type ty = json_object_get_type(v);

		if (ty == json_type_string || ty == json_type_int || ty == json_type_double ||
		    ty == json_type_boolean)
			json_object_object_add(p, key, json_object_get(v));
	}
	json_object_object_add(misc, "params", p);
}

/* pipebench's own verdict word VERDICT (or the kit's RESULT when the item has none). */
static void kcidb_case(const struct pb_lava *l, const char *name, const char *result)
{
	const char *verdict = pb_json_str(l->item, "status");
	const char *status = pb_kcidb_status(verdict);
	const char *detail = pb_json_str(l->item, "detail");
	struct json_object *t, *misc;

	if (!status) {
		/* The kit's words: pass, fail, skip; unknown is a check or
		 * part that did not run (interrupted). */
		verdict = result;
		status = strcmp(result, "unknown") == 0 ? "MISS" : pb_kcidb_status(result);
		if (!status)
			status = "ERROR";
	}
	if (!detail)
		detail = pb_json_str(l->item, "reason");
	t = new_test(l, name, status);
	misc = json_object_object_get(t, "misc");
	pb_json_add_str(misc, "verdict", strcmp(status, "MISS") == 0 ? "not run" : verdict);
	if (detail)
		pb_json_add_str(misc, "detail", detail);
	if (pb_json_get(l->item, "duration_ns"))
		json_object_object_add(t, "duration",
				       json_object_new_double(pb_json_num(l->item, "duration_ns") / 1e9));
	/* A failure's excerpt: the check's detail, else the object it came from. */
	if (strcmp(status, "FAIL") == 0 || strcmp(status, "ERROR") == 0)
		add_excerpt(t, detail ? detail : l->item ? json_object_to_json_string(l->item) : "");
	if (l->item && !pb_json_get(l->item, "id"))
		add_params(misc, l->item);
}

/* A figure: DONE with number; ns become seconds, rates get metric prefixes. */
static void kcidb_measure(const struct pb_lava *l, const char *name, double v, const char *units)
{
	struct json_object *t, *num, *misc;
	const char *unit = units, *prefix = NULL;

	if (!isfinite(v)) {
		t = new_test(l, name, "ERROR");
		add_excerpt(t, "the run gave no value for this figure");
		misc = json_object_object_get(t, "misc");
		if (l->item)
			add_params(misc, l->item);
		return;
	}
	if (strcmp(units, "ns") == 0)
		v /= 1e9, unit = "s", prefix = "metric";
	else if (strchr(units, '/'))
		prefix = "metric";          /* B/s, msg/s, rt/s */
	else if (strcmp(units, "ratio") == 0 || strcmp(units, "accepted") == 0)
		unit = NULL;                /* dimensionless */
	t = new_test(l, name, "DONE");
	num = json_object_new_object();
	json_object_object_add(num, "value", json_object_new_double(v));
	if (unit)
		pb_json_add_str(num, "unit", unit);
	if (prefix)
		pb_json_add_str(num, "prefix", prefix);
	json_object_object_add(t, "number", num);
	misc = json_object_object_get(t, "misc");
	pb_json_add_str(misc, "units", units);
	if (l->item)
		add_params(misc, l->item);
}

/* Seconds from the RFC 3339 time A to B (both "YYYY-MM-DDTHH:MM:SS.mmmZ"), or NAN. */
static double seconds_between(const char *a, const char *b)
{
	struct tm ta = { 0 }, tb = { 0 };
	double fa = 0, fb = 0;
	const char *ea = a ? strptime(a, "%Y-%m-%dT%H:%M:%S", &ta) : NULL;
	const char *eb = b ? strptime(b, "%Y-%m-%dT%H:%M:%S", &tb) : NULL;

	if (!ea || !eb)
		return NAN;
	if (*ea == '.')
		fa = strtod(ea, NULL);
	if (*eb == '.')
		fb = strtod(eb, NULL);
	return difftime(timegm(&tb), timegm(&ta)) + fb - fa;
}

static void kcidb_exit(const struct pb_lava *l, struct json_object *doc)
{
	static const char *const st[] = { "PASS", "FAIL", "ERROR", "ERROR", "SKIP" };
	long long status = doc ? pb_json_int(doc, "exit_status", 3) : 3;
	struct json_object *t = new_test(l, "exit-status", status >= 0 && status <= 4 ?
					 st[status] : "ERROR");
	struct json_object *misc = json_object_object_get(t, "misc"), *errs;
	double d = seconds_between(pb_json_str(doc, "run.start"), pb_json_str(doc, "run.end"));
	char prefix[160], *log = NULL;
	size_t loglen = 0;
	FILE *fp;

	json_object_object_add(misc, "exit_status", doc ? json_object_new_int64(status) : NULL);
	if (isfinite(d) && d >= 0)
		json_object_object_add(t, "duration", json_object_new_double(d));
	if (status == 0 || status == 4)
		return;
	/* The excerpt: the document's errors, then this set's failed tests. */
	fp = open_memstream(&log, &loglen);
	if (!fp)
		return;
	if (!doc)
		fprintf(fp, "%s left no document\n", l->set);
	errs = pb_json_get(doc, "errors");
	for (size_t i = 0; i < pb_json_len(errs); i++) {
		struct json_object *e = json_object_array_get_idx(errs, i);

		fprintf(fp, "%s\n", json_object_is_type(e, json_type_string) ?
			json_object_get_string(e) : json_object_to_json_string(e));
	}
	test_path(prefix, sizeof(prefix), l->set, "");
	prefix[strlen(prefix) - 1] = '\0';      /* "pipebench.SET." */
	for (size_t i = 0; i < pb_json_len(((struct pb_kcidb *)l->ctx)->tests); i++) {
		struct json_object *o = json_object_array_get_idx(((struct pb_kcidb *)l->ctx)->tests, i);
		const char *s = pb_json_str(o, "status"), *p = pb_json_str(o, "path");

		if (o != t && p && strncmp(p, prefix, strlen(prefix)) == 0 &&
		    (strcmp(s, "FAIL") == 0 || strcmp(s, "ERROR") == 0))
			fprintf(fp, "%s %s: %s\n", s, p, pb_json_str(o, "log_excerpt") ?
				pb_json_str(o, "log_excerpt") : "");
	}
	if (fclose(fp) == 0)
		add_excerpt(t, log);
	free(log);
}

/* The run's fingerprint: a hash of the host, start time and command line. */
static void make_run_id(struct pb_kcidb *k, struct json_object *doc)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct json_object *argv = pb_json_get(doc, "run.pipebench.argv");

	h = fnv(h, pb_json_str(doc, "run.hostname"));
	h = fnv(h, pb_json_str(doc, "run.start"));
	h = fnv(h, pb_json_str(doc, "command"));
	for (size_t i = 0; i < pb_json_len(argv); i++)
		h = fnv(h, json_object_get_string(json_object_array_get_idx(argv, i)));
	snprintf(k->run_id, sizeof(k->run_id), "%016llx", (unsigned long long)h);
}

/* [a-z0-9_] of S (upper case lowered, anything else '_') into BUF. */
static void lower_word(char *buf, size_t len, const char *s)
{
	size_t o = 0;

	for (; s && *s && o + 1 < len; s++) {
		char c = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;

		buf[o++] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '_';
	}
	buf[o] = '\0';
}

/*
 * No --kcidb-build-id: a checkout and a build standing for the running
 * kernel (its release, version and machine are all pipebench can know of
 * it), into REPORT; their ids into BUILD_ID.
 */
static void make_kernel_objects(struct json_object *report, struct json_object *doc,
				const char *origin, char *build_id, size_t len)
{
	const char *rel = pb_json_str(doc, "run.kernel.release");
	const char *ver = pb_json_str(doc, "run.kernel.version");
	const char *mach = pb_json_str(doc, "run.kernel.machine");
	uint64_t h = fnv(fnv(fnv(0xcbf29ce484222325ULL, rel), ver), mach);
	struct json_object *co = json_object_new_object(), *b = json_object_new_object();
	struct json_object *cos = json_object_new_array(), *bs = json_object_new_array(), *misc;
	char id[256], arch[64], comment[512];

	snprintf(comment, sizeof(comment), "the running kernel, Linux %s %s %s (pipebench knows no "
		 "source or build of it; give --kcidb-build-id to name the CI system's)",
		 rel ? rel : "?", ver ? ver : "?", mach ? mach : "?");
	snprintf(id, sizeof(id), "%s:kernel-%016llx", origin, (unsigned long long)h);
	pb_json_add_str(co, "id", id);
	pb_json_add_str(co, "origin", origin);
	pb_json_add_str(co, "comment", comment);
	misc = json_object_new_object();
	pb_json_add_str(misc, "kernel_release", rel);
	pb_json_add_str(misc, "kernel_version", ver);
	json_object_object_add(co, "misc", misc);
	json_object_array_add(cos, co);

	pb_json_add_str(b, "checkout_id", id);
	snprintf(build_id, len, "%s:kernel-%016llx-build", origin, (unsigned long long)h);
	pb_json_add_str(b, "id", build_id);
	pb_json_add_str(b, "origin", origin);
	pb_json_add_str(b, "comment", comment);
	lower_word(arch, sizeof(arch), mach);
	if (arch[0])
		pb_json_add_str(b, "architecture", arch);
	misc = json_object_new_object();
	pb_json_add_str(misc, "kernel_release", rel);
	pb_json_add_str(misc, "kernel_version", ver);
	pb_json_add_str(misc, "machine", mach);
	json_object_object_add(b, "misc", misc);
	json_object_array_add(bs, b);

	json_object_object_add(report, "checkouts", cos);
	json_object_object_add(report, "builds", bs);
}

void pb_kcidb_doc(struct json_object *doc, FILE *fp)
{
	struct json_object *report = json_object_new_object(), *ver = json_object_new_object();
	struct json_object *run = pb_json_get(doc, "run");
	struct pb_kcidb k = { .tests = json_object_new_array(), .ids = json_object_new_object(),
			      .env = json_object_new_object(), .origin = pb_kcidb_params.origin };
	static const struct pb_lava_sink sink = { kcidb_case, kcidb_measure, kcidb_exit };
	struct pb_lava l = { .fp = fp, .sink = &sink, .ctx = &k };
	char build_id[320], comment[256];

	json_object_object_add(ver, "major", json_object_new_int(5));
	json_object_object_add(ver, "minor", json_object_new_int(3));
	json_object_object_add(report, "version", ver);
	if (!k.origin)
		k.origin = "pipebench";
	if (pb_kcidb_params.build_id) {
		k.build_id = pb_kcidb_params.build_id;
	} else {
		make_kernel_objects(report, doc, k.origin, build_id, sizeof(build_id));
		k.build_id = build_id;
	}
	make_run_id(&k, doc);
	snprintf(comment, sizeof(comment), "%s: Linux %s %s", pb_json_str(run, "hostname") ?
		 pb_json_str(run, "hostname") : "?", pb_json_str(run, "kernel.release") ?
		 pb_json_str(run, "kernel.release") : "?", pb_json_str(run, "kernel.machine") ?
		 pb_json_str(run, "kernel.machine") : "?");
	pb_json_add_str(k.env, "comment", comment);
	/* The machine, not the user or the command line (misc of each test). */
	if (json_object_is_type(run, json_type_object)) {
		struct json_object *m = json_object_new_object();

		json_object_object_foreach(run, key, v)
			if (strcmp(key, "user") != 0 && strcmp(key, "pipebench") != 0)
				json_object_object_add(m, key, json_object_get(v));
		json_object_object_add(k.env, "misc", m);
	}
	pb_cases_doc(&l, doc, fp);
	json_object_object_add(report, "tests", k.tests);
	fprintf(fp, "%s\n", json_object_to_json_string_ext(report, JSON_C_TO_STRING_PRETTY |
							    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(report);
	json_object_put(k.ids);
	json_object_put(k.env);
}
