/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON documents: the one shape, the typed adders, the statistics object, path lookups (output.h) */
#include <config.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "stats.h"
#include "sysinfo.h"

struct json_object *pb_doc_new(const char *command, const struct pb_sysinfo *si)
{
	struct json_object *doc = json_object_new_object();

	json_object_object_add(doc, "tool", json_object_new_string(PACKAGE_NAME));
	json_object_object_add(doc, "version", json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(doc, "schema_version", json_object_new_int(PB_SCHEMA_VERSION));
	json_object_object_add(doc, "command", json_object_new_string(command));
	if (si)
		json_object_object_add(doc, "system", pb_sysinfo_json(si));
	json_object_object_add(doc, "errors", json_object_new_array());
	return doc;
}

void pb_doc_add_error(struct json_object *doc, const char *msg)
{
	struct json_object *errs;

	if (!json_object_object_get_ex(doc, "errors", &errs)) {
		errs = json_object_new_array();
		json_object_object_add(doc, "errors", errs);
	}
	json_object_array_add(errs, json_object_new_string(msg));
}

void pb_doc_write(struct json_object *doc, int exit_status, FILE *fp)
{
	/* When, where and as whom: built now, so `end` is the document's end. */
	if (!json_object_object_get_ex(doc, "run", NULL))
		json_object_object_add(doc, "run", pb_run_json());
	json_object_object_add(doc, "exit_status", json_object_new_int(exit_status));
	fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), fp);
	fputc('\n', fp);
}

void pb_doc_finish(struct json_object *doc, struct json_object *summary, const char *error,
		   int exit_status, FILE *fp)
{
	if (summary)
		json_object_object_add(doc, "summary", summary);
	if (error && *error)
		pb_doc_add_error(doc, error);
	pb_doc_write(doc, exit_status, fp);
	json_object_put(doc);
}

void pb_json_add_int(struct json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

void pb_json_add_double(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, isfinite(v) ? json_object_new_double(v) : NULL);
}

struct json_object *pb_json_u64_array(const uint64_t *v, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int64((int64_t)v[i]));
	return a;
}

void pb_json_add_str(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
}

struct json_object *pb_json_stats(const struct pb_stats *s, bool integer)
{
	struct json_object *o = json_object_new_object();

	if (integer) {
		pb_json_add_int(o, "median", (int64_t)s->median);
		pb_json_add_int(o, "min", (int64_t)s->min);
		pb_json_add_int(o, "max", (int64_t)s->max);
	} else {
		pb_json_add_double(o, "median", s->median);
		pb_json_add_double(o, "min", s->min);
		pb_json_add_double(o, "max", s->max);
	}
	pb_json_add_double(o, "mean", s->mean);
	pb_json_add_double(o, "stddev", s->stddev);
	pb_json_add_double(o, "rsd", s->rsd);
	pb_json_add_double(o, "spread", s->spread);
	pb_json_add_int(o, "n", (int64_t)s->n);
	return o;
}

struct json_object *pb_json_get(struct json_object *o, const char *path)
{
	char key[64];

	while (o && *path) {
		size_t n = strcspn(path, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (path[n] == '.');
	}
	return o;
}

const char *pb_json_str(struct json_object *o, const char *path)
{
	struct json_object *v = pb_json_get(o, path);

	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

double pb_json_num(struct json_object *o, const char *path)
{
	struct json_object *v = pb_json_get(o, path);

	return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int) ?
	       json_object_get_double(v) : NAN;
}

long long pb_json_int(struct json_object *o, const char *path, long long dflt)
{
	struct json_object *v = pb_json_get(o, path);

	return json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : dflt;
}

size_t pb_json_len(struct json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}
