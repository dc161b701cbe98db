/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TAP version 13 with YAML diagnostics (output.h) */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "output.h"

void pb_tap_text(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '#' || *s == '\\')
			fputc('\\', fp);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, fp);
	}
}

void pb_yaml_quoted(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\x%02x", *p);
		else
			fputc(*p, fp);
	}
	fputc('"', fp);
}

void pb_tap_begin(struct pb_tap *t, FILE *fp, size_t plan)
{
	t->fp = fp;
	t->n = 0;
	t->yaml = false;
	fprintf(fp, "TAP version 13\n1..%zu\n", plan);
}

void pb_tap_skip_all(FILE *fp, const char *why)
{
	fputs("TAP version 13\n1..0 # SKIP ", fp);
	pb_tap_text(fp, why);
	fputc('\n', fp);
}

void pb_tap_end(struct pb_tap *t)
{
	if (t->yaml)
		fputs("  ...\n", t->fp);
	t->yaml = false;
}

void pb_tap_point(struct pb_tap *t, bool ok, enum pb_tap_directive d, const char *reason,
		  const char *fmt, ...)
{
	char desc[1024];
	va_list ap;

	pb_tap_end(t);
	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	fprintf(t->fp, "%s %u - ", ok ? "ok" : "not ok", ++t->n);
	pb_tap_text(t->fp, desc);
	if (d != PB_TAP_NONE) {
		fputs(d == PB_TAP_SKIP ? " # SKIP" : " # TODO", t->fp);
		if (reason && *reason) {
			fputc(' ', t->fp);
			pb_tap_text(t->fp, reason);
		}
	}
	fputc('\n', t->fp);
}

static void yaml_key(struct pb_tap *t, const char *key)
{
	if (!t->yaml)
		fputs("  ---\n", t->fp);
	t->yaml = true;
	fprintf(t->fp, "  %s: ", key);
}

void pb_tap_yaml_str(struct pb_tap *t, const char *key, const char *val)
{
	yaml_key(t, key);
	if (val)
		pb_yaml_quoted(t->fp, val);
	else
		fputs("null", t->fp);
	fputc('\n', t->fp);
}

void pb_tap_yaml_word(struct pb_tap *t, const char *key, const char *word)
{
	yaml_key(t, key);
	fprintf(t->fp, "%s\n", word);
}

void pb_tap_yaml_int(struct pb_tap *t, const char *key, int64_t v)
{
	yaml_key(t, key);
	fprintf(t->fp, "%lld\n", (long long)v);
}

void pb_tap_comment(struct pb_tap *t, const char *fmt, ...)
{
	va_list ap;

	pb_tap_end(t);
	fputs("# ", t->fp);
	va_start(ap, fmt);
	vfprintf(t->fp, fmt, ap);
	va_end(ap);
	fputc('\n', t->fp);
}
