/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "lava.h"
#include "output.h"

void pb_lava_name(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	if (!len)
		return;
	for (; src && *src && i + 1 < len; src++, i++) {
		unsigned char c = (unsigned char)*src;

		dst[i] = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			 c == '_' || c == '.' || c == '-' ? (char)c : '_';
	}
	dst[i] = '\0';
}

void pb_lava_number(double v, char *buf, size_t len)
{
	char *dot, *e;

	int dec = 9;

	/* LAVA stores a decimal: no exponent; about ten significant digits
	 * (nine decimals at most, for small values). */
	if (fabs(v) >= 1)
		dec = 9 - (int)floor(log10(fabs(v)));
	snprintf(buf, len, "%.*f", dec < 0 ? 0 : dec > 9 ? 9 : dec, v);
	dot = strchr(buf, '.');
	if (!dot)
		return;
	for (e = buf + strlen(buf); e > dot + 1 && e[-1] == '0'; e--)
		;
	if (e == dot + 1)
		e = dot;
	*e = '\0';
	if (strcmp(buf, "-0") == 0)
		snprintf(buf, len, "0");
}

void pb_lava_end(struct pb_lava *l)
{
	if (l->open && !l->sink)
		fputs("<LAVA_SIGNAL_TESTSET STOP>\n", l->fp);
	l->open = false;
}

void pb_lava_begin(struct pb_lava *l, FILE *fp, const char *set)
{
	char name[128];

	if (l->fp == fp)
		pb_lava_end(l);
	l->fp = fp;
	snprintf(l->set, sizeof(l->set), "%s", set);
	l->open = true;
	if (l->sink)
		return;
	pb_lava_name(name, sizeof(name), set);
	fprintf(fp, "<LAVA_SIGNAL_TESTSET START %s>\n", name);
}

void pb_lava_item(struct pb_lava *l, struct json_object *item)
{
	l->item = item;
}

void pb_lava_exit(struct pb_lava *l, struct json_object *doc)
{
	if (l->sink)
		l->sink->exit(l, doc);
	else
		pb_lava_case(l, doc ? pb_lava_exit_result((int)pb_json_int(doc, "exit_status", 3)) :
			     "unknown", "exit-status");
}

static void lava_case_v(struct pb_lava *l, const char *result, const char *num, const char *units,
			const char *fmt, va_list ap)
{
	char raw[256], name[256];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	if (l->sink) {
		l->sink->kase(l, raw, result);
		return;
	}
	pb_lava_name(name, sizeof(name), raw);
	fprintf(l->fp, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s", name, result);
	if (num) {
		pb_lava_name(raw, sizeof(raw), units);
		/* A unit keeps its '/' (B/s): LAVA splits on spaces only. */
		for (size_t i = 0; units[i] && i < sizeof(raw) - 1; i++)
			if (units[i] == '/')
				raw[i] = '/';
		fprintf(l->fp, " MEASUREMENT=%s UNITS=%s", num, raw);
	}
	fputs(">\n", l->fp);
}

void pb_lava_case(struct pb_lava *l, const char *result, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lava_case_v(l, result, NULL, NULL, fmt, ap);
	va_end(ap);
}

void pb_lava_measure(struct pb_lava *l, double v, const char *units, const char *fmt, ...)
{
	char num[64];
	va_list ap;

	va_start(ap, fmt);
	if (l->sink) {
		char raw[256];

		vsnprintf(raw, sizeof(raw), fmt, ap);
		l->sink->measure(l, raw, v, units);
	} else if (isfinite(v)) {
		pb_lava_number(v, num, sizeof(num));
		lava_case_v(l, "pass", num, units, fmt, ap);
	} else {
		lava_case_v(l, "unknown", NULL, NULL, fmt, ap);
	}
	va_end(ap);
}

void pb_lava_stability(struct pb_lava *l, struct json_object *row, const char *name)
{
	const char *v = pb_json_str(row, "stability");

	if (v)
		pb_lava_case(l, strcmp(v, "stable") == 0 ? "pass" : "skip", "%s-stable", name);
}

void pb_lava_profile(struct pb_lava *l, struct json_object *row, const char *name)
{
	struct json_object *cats = pb_json_get(row, "profile.categories");

	if (!cats || !json_object_is_type(cats, json_type_object))
		return;
	json_object_object_foreach(cats, cat, v) {
		struct json_object *share;

		if (json_object_object_get_ex(v, "share", &share))
			pb_lava_measure(l, 100 * json_object_get_double(share), "percent",
					"%s-profile-%s", name, cat);
	}
}

const char *pb_lava_result(const char *verdict)
{
	static const char *const map[][2] = {
		{ "pass", "pass" }, { "fail", "fail" }, { "skip", "skip" },
		{ "known-deviation", "pass" }, { "info", "pass" },
	};

	for (size_t i = 0; verdict && i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(verdict, map[i][0]) == 0)
			return map[i][1];
	return "unknown";
}

const char *pb_lava_exit_result(int status)
{
	switch (status) {
	case 0: return "pass";
	case 1: return "fail";
	case 4: return "skip";
	default: return "unknown";
	}
}

void pb_lava_expectations(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *e = pb_json_get(doc, "summary.expectations_hold");

	if (json_object_is_type(e, json_type_boolean))
		pb_lava_case(l, json_object_get_boolean(e) ? "pass" : "fail", "expectations");
}

void pb_lava_ts_targets(struct pb_lava *l, const char *prefix, struct json_object *a)
{
	static const char *const times[] = { "atime", "mtime", "ctime" };

	for (size_t i = 0; i < pb_json_len(a); i++) {
		struct json_object *t = json_object_array_get_idx(a, i);
		struct json_object *ops = pb_json_get(t, "operations");
		const char *kind = pb_json_str(t, "kind");

		for (size_t j = 0; kind && j < pb_json_len(ops); j++) {
			struct json_object *op = json_object_array_get_idx(ops, j);
			struct json_object *sup = pb_json_get(op, "supported");
			const char *name = pb_json_str(op, "operation");

			for (size_t f = 0; name && f < 3; f++) {
				struct json_object *fld = json_object_object_get(
					pb_json_get(op, "fields"), times[f]);
				long long up = pb_json_int(fld, "updated", 0), un = pb_json_int(fld, "unchanged", 0);

				if (!json_object_get_boolean(sup) || up + un <= 0)
					pb_lava_case(l, "skip", "%s%s.%s.%s", prefix, kind, name,
						     times[f]);
				else
					pb_lava_measure(l, (double)up / (double)(up + un), "ratio",
							"%s%s.%s.%s", prefix, kind, name, times[f]);
			}
		}
	}
}
