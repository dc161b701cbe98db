/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CSV: quoting, rows with host and kernel, and the pb_row field sinks shared with JSON (output.h) */
#include <config.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "sysinfo.h"

void pb_csv_field(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

void pb_csv_begin(struct pb_csv *c, FILE *fp, const struct pb_sysinfo *si)
{
	c->fp = fp;
	c->host = si ? si->hostname : "";
	c->kernel = si ? si->kernel_release : "";
	c->any = false;
	c->header_done = false;
}

static void csv_sep(struct pb_csv *c)
{
	if (c->any)
		fputc(',', c->fp);
	c->any = true;
}

void pb_csv_header(struct pb_csv *c, const char *const *cols)
{
	if (c->header_done)
		return;
	for (size_t i = 0; cols[i]; i++)
		pb_csv_str(c, cols[i]);
	pb_csv_str(c, "host");
	pb_csv_str(c, "kernel");
	fputc('\n', c->fp);
	c->any = false;
	c->header_done = true;
}

void pb_csv_str(struct pb_csv *c, const char *s)
{
	csv_sep(c);
	pb_csv_field(c->fp, s ? s : "");
}

void pb_csv_int(struct pb_csv *c, int64_t v)
{
	csv_sep(c);
	fprintf(c->fp, "%lld", (long long)v);
}

void pb_csv_double(struct pb_csv *c, double v)
{
	char buf[40];

	csv_sep(c);
	if (!isfinite(v))
		return;
	/* The fewest digits that read back as the same double. */
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, c->fp);
}

void pb_csv_row_end(struct pb_csv *c)
{
	pb_csv_str(c, c->host);
	pb_csv_str(c, c->kernel);
	fputc('\n', c->fp);
	c->any = false;
}

struct pb_row pb_row_json(struct json_object *obj)
{
	return (struct pb_row){ .kind = PB_ROW_JSON, .obj = obj };
}

struct pb_row pb_row_csv_header(struct pb_csv *c)
{
	return (struct pb_row){ .kind = PB_ROW_CSV_HEADER, .csv = c->header_done ? NULL : c };
}

struct pb_row pb_row_csv(struct pb_csv *c)
{
	return (struct pb_row){ .kind = PB_ROW_CSV, .csv = c };
}

void pb_row_int_or_null(struct pb_row *r, const char *name, bool have, int64_t v)
{
	switch (r->kind) {
	case PB_ROW_JSON:
		json_object_object_add(r->obj, name, have ? json_object_new_int64(v) : NULL);
		break;
	case PB_ROW_CSV_HEADER:
		if (r->csv)
			pb_csv_str(r->csv, name);
		break;
	case PB_ROW_CSV:
		if (have)
			pb_csv_int(r->csv, v);
		else
			pb_csv_str(r->csv, NULL);
		break;
	}
}

void pb_row_int(struct pb_row *r, const char *name, int64_t v)
{
	pb_row_int_or_null(r, name, true, v);
}

void pb_row_double(struct pb_row *r, const char *name, double v)
{
	switch (r->kind) {
	case PB_ROW_JSON: pb_json_add_double(r->obj, name, v); break;
	case PB_ROW_CSV_HEADER: if (r->csv) pb_csv_str(r->csv, name); break;
	case PB_ROW_CSV: pb_csv_double(r->csv, v); break;
	}
}

void pb_row_str(struct pb_row *r, const char *name, const char *v)
{
	switch (r->kind) {
	case PB_ROW_JSON: pb_json_add_str(r->obj, name, v); break;
	case PB_ROW_CSV_HEADER: if (r->csv) pb_csv_str(r->csv, name); break;
	case PB_ROW_CSV: pb_csv_str(r->csv, v); break;
	}
}

void pb_row_end(struct pb_row *r)
{
	if (r->kind == PB_ROW_CSV)
		pb_csv_row_end(r->csv);
	if (r->kind != PB_ROW_CSV_HEADER || !r->csv)
		return;
	pb_csv_str(r->csv, "host");
	pb_csv_str(r->csv, "kernel");
	fputc('\n', r->csv->fp);
	r->csv->any = false;
	r->csv->header_done = true;
}
