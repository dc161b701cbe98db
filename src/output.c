/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "msg.h"
#include "output.h"
#include "stats.h"
#include "sysinfo.h"

int pb_out_open(struct pb_out *out)
{
	out->buf = NULL;
	out->len = 0;
	out->fp = open_memstream(&out->buf, &out->len);
	return out->fp ? 0 : -errno;
}

void pb_out_discard(struct pb_out *out)
{
	if (out->fp)
		fclose(out->fp);
	free(out->buf);
	out->fp = NULL;
	out->buf = NULL;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Make a temporary file next to PATH (same directory, so rename() is
 * atomic), registered for removal on a signal.  The signals are blocked
 * meanwhile so it cannot exist unregistered.  Returns the fd or -errno.
 */
static int make_sibling(const char *path, char *tmp, size_t len)
{
	const char *slash = strrchr(path, '/');
	int dlen = slash ? (int)(slash - path + 1) : 0;
	sigset_t s, old;
	int fd, e = 0;

	if ((size_t)snprintf(tmp, len, "%.*s.%s.XXXXXX", dlen, path, slash ? slash + 1 : path)
	    >= len)
		return -ENAMETOOLONG;
	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	sigaddset(&s, SIGALRM);
	sigprocmask(SIG_BLOCK, &s, &old);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		e = -errno;
	} else if ((e = pb_cleanup_add_path(tmp, 0)) != 0) {
		close(fd);
		unlink(tmp);
		fd = -1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return fd < 0 ? e : fd;
}

/*
 * Whether PATH may be replaced by rename(): absent, or a plain file of ours
 * with one link.  Anything else (a device, a FIFO, a symbolic link, a file
 * of another user or with other names) is written in place.
 */
static bool replaceable(const char *path, mode_t *mode)
{
	struct stat st;
	mode_t mask;

	if (lstat(path, &st) == 0) {
		*mode = st.st_mode & 07777;
		return S_ISREG(st.st_mode) && st.st_nlink == 1 && st.st_uid == geteuid();
	}
	if (errno != ENOENT)
		return false;
	mask = umask(0);
	umask(mask);
	*mode = 0666 & ~mask;
	return true;
}

/*
 * To a file: written whole into a temporary file beside it, then renamed
 * over it, so a reader (or a run interrupted while writing) never sees half
 * a document.  When no temporary file can be made there, in place.
 */
static int finish_file(const struct pb_out *out, const char *cmd, const char *path)
{
	char tmp[PATH_MAX];
	mode_t mode = 0666;
	int fd = -1, r;

	if (replaceable(path, &mode))
		fd = make_sibling(path, tmp, sizeof(tmp));
	if (fd < 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0) {
			r = -errno;
			pb_err(cmd, "--output: cannot create '%s': %s", path, strerror(-r));
			return r;
		}
		tmp[0] = '\0';
	} else if (fchmod(fd, mode) != 0) {
		/* mkstemp's 0600 stays: stricter, still safe. */
	}
	r = write_all(fd, out->buf, out->len);
	if (close(fd) != 0 && r == 0)
		r = -errno;
	if (tmp[0]) {
		if (r == 0 && rename(tmp, path) != 0)
			r = -errno;
		if (r)
			unlink(tmp);
		pb_cleanup_del_path(tmp);
	}
	if (r)
		pb_err(cmd, "cannot write %s: %s", path, strerror(-r));
	return r;
}

/* The document transform --format asked for (pb_out_set_transform), or NULL. */
static pb_out_transform out_transform;

void pb_out_set_transform(pb_out_transform fn)
{
	out_transform = fn;
}

/* OUT's buffer, one JSON document, rewritten by the transform in place.
 * Anything that is not one JSON document is left as it is. */
static void out_apply_transform(struct pb_out *out)
{
	struct json_object *doc = out->buf ? json_tokener_parse(out->buf) : NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if (!doc)
		return;
	fp = open_memstream(&buf, &len);
	if (fp) {
		out_transform(doc, fp);
		if (fclose(fp) == 0) {
			free(out->buf);
			out->buf = buf;
			out->len = len;
		} else {
			free(buf);
		}
	}
	json_object_put(doc);
}

int pb_out_finish(struct pb_out *out, const char *cmd, const char *path)
{
	int r;

	if (fclose(out->fp) != 0) {
		r = -errno;
		out->fp = NULL;
		pb_out_discard(out);
		pb_err(cmd, "output: %s", strerror(-r));
		return r;
	}
	out->fp = NULL;
	if (out_transform)
		out_apply_transform(out);
	if (path) {
		r = finish_file(out, cmd, path);
	} else {
		r = write_all(STDOUT_FILENO, out->buf, out->len);
		if (r && r != -EPIPE)
			pb_err(cmd, "cannot write standard output: %s", strerror(-r));
	}
	pb_out_discard(out);
	return r;
}

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

void pb_status_set(int *status_out, char *buf, size_t len, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	*status_out = status;
}

int pb_tmpdir_make_or_error(const char *base, char *out, size_t len, int *status, char *error,
			    size_t errlen, int st)
{
	int r = pb_tmpdir_make(base, out, len);

	if (r) {
		out[0] = '\0';
		pb_status_set(status, error, errlen, st, "cannot make a directory in %s: %s",
			      base, strerror(-r));
	}
	return r;
}

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

int pb_format_eta(double seconds, char *buf, size_t len)
{
	unsigned long long s;

	if (!isfinite(seconds) || seconds < 0)
		return snprintf(buf, len, "%s", "");
	if (ceil(seconds) >= 100 * 3600)
		return snprintf(buf, len, "ETA >99h");
	s = (unsigned long long)ceil(seconds);
	if (s < 60)
		return snprintf(buf, len, "ETA %llus", s);
	if (s < 3600)
		return snprintf(buf, len, "ETA %llum%02llus", s / 60, s % 60);
	return snprintf(buf, len, "ETA %lluh%02llum", s / 3600, s / 60 % 60);
}

void pb_progress_start(struct pb_progress *p, const char *cmd, bool on, uint64_t total)
{
	*p = (struct pb_progress){ .fp = stderr, .cmd = cmd, .on = on, .total = total,
				   .t0_ns = pb_clock_ns() };
}

void pb_progress_budget(struct pb_progress *p, uint64_t ns)
{
	p->budget_ns = ns;
}

double pb_progress_eta(const struct pb_progress *p, uint64_t now_ns)
{
	double elapsed = now_ns > p->t0_ns ? (double)(now_ns - p->t0_ns) / 1e9 : 0;
	bool paced = p->total && p->done && p->done <= p->total;
	bool budget = p->budget_ns && elapsed < (double)p->budget_ns / 1e9;

	/* A budget is the plan until a tenth of the work shows the pace: the
	 * first items (a report's 30 ms timestamps part) say little. */
	if (paced && (!budget || p->done >= (p->total + 9) / 10))
		return elapsed / (double)p->done * (double)(p->total - p->done);
	if (budget)
		return (double)p->budget_ns / 1e9 - elapsed;
	return NAN;
}

static void progress_vshow(struct pb_progress *p, uint64_t units, const char *fmt, va_list ap)
{
	char eta[32] = "";

	/* The items before this one are done: the rate so far gives the rest. */
	p->done += p->current;
	p->current = units ? units : 1;
	if (!p->on)
		return;
	pb_format_eta(pb_progress_eta(p, pb_clock_ns()), eta, sizeof(eta));
	fprintf(p->fp, "\r\033[K%s %s: ", PB_PROG, p->cmd);
	vfprintf(p->fp, fmt, ap);
	if (eta[0])
		fprintf(p->fp, " (%s)", eta);
	fflush(p->fp);
}

void pb_progress_show(struct pb_progress *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	progress_vshow(p, 1, fmt, ap);
	va_end(ap);
}

void pb_progress_item(struct pb_progress *p, uint64_t units, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	progress_vshow(p, units, fmt, ap);
	va_end(ap);
}

void pb_progress_end(struct pb_progress *p)
{
	if (p->on)
		fputs("\r\033[K", p->fp);
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
