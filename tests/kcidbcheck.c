/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test helper: kcidbcheck FILE
 * Checks that FILE is a KCIDB v5.3 report as the schema has it (the keys
 * each object may have, the required ones, the id, origin, path, status,
 * time and number shapes, the excerpt's length), that ids are unique and
 * that every build_id and checkout_id names an object of the report or,
 * for a test, the one build id all tests share.  Prints one line per test,
 * "PATH STATUS", and each problem on stderr; exits 1 when there is one.
 */
#include <config.h>

#include <json-c/json.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int problems;

static void bad(const char *what, size_t i, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kcidbcheck: %s[%zu]: ", what, i);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	problems++;
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static size_t len(struct json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static bool match(const char *re, struct json_object *v)
{
	regex_t rx;
	bool ok;

	if (!json_object_is_type(v, json_type_string))
		return false;
	if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB))
		exit(3);
	ok = regexec(&rx, json_object_get_string(v), 0, NULL, 0) == 0;
	regfree(&rx);
	return ok;
}

/* Keys of O outside ALLOWED, and REQUIRED keys missing. */
static void keys(const char *what, size_t i, struct json_object *o, const char *allowed,
		 const char *required)
{
	char k[64];

	if (!json_object_is_type(o, json_type_object)) {
		bad(what, i, "not an object");
		return;
	}
	json_object_object_foreach(o, key, v) {
		(void)v;
		snprintf(k, sizeof(k), " %s ", key);
		if (!strstr(allowed, k))
			bad(what, i, "key '%s' is not in the schema", key);
	}
	for (const char *r = required; *r; r += strcspn(r, " ") + (r[strcspn(r, " ")] != '\0')) {
		snprintf(k, sizeof(k), "%.*s", (int)strcspn(r, " "), r);
		if (!get(o, k))
			bad(what, i, "no '%s'", k);
	}
}

#define ID_RE "^[a-z0-9_]+:"
#define TIME_RE "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"

static void common(const char *what, size_t i, struct json_object *o, struct json_object *ids)
{
	struct json_object *id = get(o, "id"), *ex = get(o, "log_excerpt");

	if (!match(ID_RE, id))
		bad(what, i, "id is not ORIGIN:...");
	else if (get(ids, json_object_get_string(id)))
		bad(what, i, "id %s twice", json_object_get_string(id));
	else
		json_object_object_add(ids, json_object_get_string(id), json_object_new_boolean(1));
	if (!match("^[a-z0-9_]+$", get(o, "origin")))
		bad(what, i, "origin is not [a-z0-9_]+");
	if (get(o, "start_time") && !match(TIME_RE, get(o, "start_time")))
		bad(what, i, "start_time is not RFC 3339");
	if (get(o, "misc") && !json_object_is_type(get(o, "misc"), json_type_object))
		bad(what, i, "misc is not an object");
	if (get(o, "duration") && !json_object_is_type(get(o, "duration"), json_type_double) &&
	    !json_object_is_type(get(o, "duration"), json_type_int))
		bad(what, i, "duration is not a number");
	if (ex) {
		size_t chars = 0;

		for (const char *s = json_object_get_string(ex); *s; s++)
			chars += ((unsigned char)*s & 0xc0) != 0x80;
		if (!json_object_is_type(ex, json_type_string) || chars > 16384)
			bad(what, i, "log_excerpt is not a string of at most 16384 characters");
	}
}

int main(int argc, char **argv)
{
	struct json_object *r, *ids = json_object_new_object(), *builds, *checkouts, *tests, *v;

	if (argc != 2) {
		fprintf(stderr, "usage: kcidbcheck FILE\n");
		return 2;
	}
	r = json_object_from_file(argv[1]);
	if (!r) {
		fprintf(stderr, "kcidbcheck: %s: not one JSON document\n", argv[1]);
		return 1;
	}
	keys("report", 0, r, " version checkouts builds tests issues incidents ", "version");
	v = get(r, "version");
	keys("version", 0, v, " major minor ", "major");
	if (json_object_get_int(get(v, "major")) != 5 || !json_object_is_type(get(v, "minor"), json_type_int) ||
	    json_object_get_int(get(v, "minor")) > 3 || json_object_get_int(get(v, "minor")) < 0)
		bad("version", 0, "not 5.0 to 5.3");
	checkouts = get(r, "checkouts");
	for (size_t i = 0; i < len(checkouts); i++) {
		struct json_object *c = json_object_array_get_idx(checkouts, i);

		keys("checkouts", i, c, " _timestamp comment git_commit_hash git_commit_message "
		     "git_commit_name git_commit_tags git_repository_branch git_repository_branch_tip "
		     "git_repository_url id log_excerpt log_url message_id misc origin "
		     "origin_builds_finish_time origin_tests_finish_time patchset_files patchset_hash "
		     "start_time tree_name valid ", "id origin");
		common("checkouts", i, c, ids);
	}
	builds = get(r, "builds");
	for (size_t i = 0; i < len(builds); i++) {
		struct json_object *b = json_object_array_get_idx(builds, i);

		keys("builds", i, b, " _timestamp architecture checkout_id command comment compiler "
		     "config_name config_url duration id input_files log_excerpt log_url misc origin "
		     "output_files start_time status ", "checkout_id id origin");
		common("builds", i, b, ids);
		if (get(b, "architecture") && !match("^[a-z0-9_]*$", get(b, "architecture")))
			bad("builds", i, "architecture is not [a-z0-9_]*");
		if (!json_object_is_type(get(b, "checkout_id"), json_type_string) ||
		    !get(ids, json_object_get_string(get(b, "checkout_id"))))
			bad("builds", i, "checkout_id names no checkout of the report");
	}
	tests = get(r, "tests");
	for (size_t i = 0; i < len(tests); i++) {
		struct json_object *t = json_object_array_get_idx(tests, i), *n = get(t, "number");
		struct json_object *env = get(t, "environment"), *st = get(t, "status");
		const char *bid = json_object_get_string(get(t, "build_id"));

		keys("tests", i, t, " _timestamp build_id comment duration environment id input_files "
		     "log_excerpt log_url misc number origin output_files path start_time status ",
		     "build_id id origin");
		common("tests", i, t, ids);
		if (match("^[a-z0-9_]+$", get(t, "origin")) && match(ID_RE, get(t, "id")) &&
		    strncmp(json_object_get_string(get(t, "id")), json_object_get_string(get(t, "origin")),
			    strlen(json_object_get_string(get(t, "origin")))) != 0)
			bad("tests", i, "id does not start with the origin");
		if (!match(ID_RE, get(t, "build_id")))
			bad("tests", i, "build_id is not ORIGIN:...");
		else if (len(builds) && !get(ids, bid))
			bad("tests", i, "build_id %s names no build of the report", bid);
		if (!match("^([a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*)?$", get(t, "path")))
			bad("tests", i, "path is not dot-separated [a-zA-Z0-9_-]+");
		if (!match("^(FAIL|ERROR|MISS|PASS|DONE|SKIP)$", st))
			bad("tests", i, "status is not a KCIDB status");
		if (env)
			keys("environment", i, env, " comment compatible misc ", "");
		if (n) {
			struct json_object *val = get(n, "value");

			keys("number", i, n, " value unit prefix ", "value");
			if (!json_object_is_type(val, json_type_double) && !json_object_is_type(val, json_type_int))
				bad("number", i, "value is not a number");
			if (get(n, "prefix") && !match("^(metric|binary)$", get(n, "prefix")))
				bad("number", i, "prefix is not metric or binary");
			if (get(n, "unit") && !json_object_is_type(get(n, "unit"), json_type_string))
				bad("number", i, "unit is not a string");
			if (!match("^(FAIL|ERROR|PASS|DONE)$", st))
				bad("number", i, "a number on a test that did not run");
		}
		printf("%s %s\n", json_object_get_string(get(t, "path")), json_object_get_string(st));
	}
	json_object_put(ids);
	json_object_put(r);
	return problems ? 1 : 0;
}
