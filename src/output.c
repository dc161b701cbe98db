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

static bool out_lava;
static void out_to_lava(struct pb_out *out);

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
	if (out_lava)
		out_to_lava(out);
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

/* ---- LAVA test-shell signals ----------------------------------------- */

void pb_out_set_lava(bool on)
{
	out_lava = on;
}

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
	if (l->open)
		fputs("<LAVA_SIGNAL_TESTSET STOP>\n", l->fp);
	l->open = false;
}

void pb_lava_begin(struct pb_lava *l, FILE *fp, const char *set)
{
	char name[128];

	if (l->fp == fp)
		pb_lava_end(l);
	l->fp = fp;
	pb_lava_name(name, sizeof(name), set);
	fprintf(fp, "<LAVA_SIGNAL_TESTSET START %s>\n", name);
	l->open = true;
}

static void lava_case_v(struct pb_lava *l, const char *result, const char *num, const char *units,
			const char *fmt, va_list ap)
{
	char raw[256], name[256];

	vsnprintf(raw, sizeof(raw), fmt, ap);
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
	if (isfinite(v)) {
		pb_lava_number(v, num, sizeof(num));
		lava_case_v(l, "pass", num, units, fmt, ap);
	} else {
		lava_case_v(l, "unknown", NULL, NULL, fmt, ap);
	}
	va_end(ap);
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

static const char *jstr(struct json_object *o, const char *path)
{
	struct json_object *v = pb_json_get(o, path);

	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static double jnum(struct json_object *o, const char *path)
{
	struct json_object *v = pb_json_get(o, path);

	return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int) ?
	       json_object_get_double(v) : NAN;
}

static long long jint(struct json_object *o, const char *path, long long dflt)
{
	struct json_object *v = pb_json_get(o, path);

	return json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : dflt;
}

static size_t jlen(struct json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* --expect: a case only when expectations were given. */
static void lava_expectations(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *e = pb_json_get(doc, "summary.expectations_hold");

	if (json_object_is_type(e, json_type_boolean))
		pb_lava_case(l, json_object_get_boolean(e) ? "pass" : "fail", "expectations");
}

/* Is check ID listed with a kind more than once in the arrays A and B? */
static bool lava_id_twice(struct json_object *a, struct json_object *b, const char *id)
{
	unsigned seen = 0;

	for (int k = 0; k < 2; k++) {
		struct json_object *arr = k ? b : a;

		for (size_t j = 0; id && j < jlen(arr); j++) {
			const char *other = jstr(json_object_array_get_idx(arr, j), "id");

			seen += other && strcmp(other, id) == 0;
		}
	}
	return seen > 1;
}

/* Conformance: one case per check, named by its ID, ID.KIND when the run
 * asked for FIFOs (--kind fifo or all) or the document holds the check for
 * several kinds: the name follows the options, never the verdicts.  A check
 * not run (interrupted) is unknown under the same name. */
static void lava_conformance(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *a = pb_json_get(doc, "checks"), *nr = pb_json_get(doc, "not_run");
	const char *asked = jstr(doc, "params.kind");
	bool by_kind = asked && strcmp(asked, "anon") != 0;

	for (int not_run = 0; not_run < 2; not_run++) {
		struct json_object *arr = not_run ? nr : a;

		for (size_t i = 0; i < jlen(arr); i++) {
			struct json_object *c = json_object_array_get_idx(arr, i);
			const char *id = json_object_is_type(c, json_type_string) ?
					 json_object_get_string(c) : jstr(c, "id");
			const char *kind = jstr(c, "kind");
			const char *result = not_run ? "unknown" : pb_lava_result(jstr(c, "status"));

			if (!not_run && !pb_json_get(c, "status"))
				continue;        /* a listing (--list), not a result */
			if (kind && (by_kind || lava_id_twice(a, nr, id)))
				pb_lava_case(l, result, "%s.%s", id ? id : "?", kind);
			else
				pb_lava_case(l, result, "%s", id ? id : "?");
		}
	}
}

/* --expect of timestamps: KIND.expect, pass or fail, per kind expected. */
static void lava_ts_expect(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *a = pb_json_get(doc, "expectations");

	for (size_t i = 0; i < jlen(a); i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		struct json_object *holds = pb_json_get(e, "holds");

		if (jstr(e, "kind") && json_object_is_type(holds, json_type_boolean))
			pb_lava_case(l, json_object_get_boolean(holds) ? "pass" : "fail", "%s.expect",
				     jstr(e, "kind"));
	}
}

/*
 * The timestamp probes of the targets in A: a case PREFIXKIND.OPERATION.TIME
 * (anon.write.mtime) per probed operation and time.  What the kernel did is
 * the measurement, never the name: the fraction of the repetitions in which
 * the operation changed that time (1 updated, 0 unchanged, between them
 * inconsistent), UNITS=ratio.  An operation the kernel refuses, or a time no
 * repetition could judge, is skip.
 */
static void lava_ts_targets(struct pb_lava *l, const char *prefix, struct json_object *a)
{
	static const char *const times[] = { "atime", "mtime", "ctime" };

	for (size_t i = 0; i < jlen(a); i++) {
		struct json_object *t = json_object_array_get_idx(a, i);
		struct json_object *ops = pb_json_get(t, "operations");
		const char *kind = jstr(t, "kind");

		for (size_t j = 0; kind && j < jlen(ops); j++) {
			struct json_object *op = json_object_array_get_idx(ops, j);
			struct json_object *sup = pb_json_get(op, "supported");
			const char *name = jstr(op, "operation");

			for (size_t f = 0; name && f < 3; f++) {
				struct json_object *fld = json_object_object_get(
					pb_json_get(op, "fields"), times[f]);
				long long up = jint(fld, "updated", 0), un = jint(fld, "unchanged", 0);

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

/* Timestamps: the probes' cases, then the expectations. */
static void lava_timestamps(struct pb_lava *l, struct json_object *doc)
{
	lava_ts_targets(l, "", pb_json_get(doc, "results"));
	lava_ts_expect(l, doc);
	lava_expectations(l, doc);
}

/* o_noatime: pipe2_o_noatime (1 accepted, 0 refused), the timestamp probes
 * as timestamps.KIND.OPERATION.TIME, tt-ratio, and the expectation. */
static void lava_o_noatime(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *acc = pb_json_get(doc, "pipe2_o_noatime.accepted");

	if (json_object_is_type(acc, json_type_boolean))
		pb_lava_measure(l, json_object_get_boolean(acc) ? 1 : 0, "accepted",
				"pipe2_o_noatime");
	else
		pb_lava_case(l, "unknown", "pipe2_o_noatime");
	lava_ts_targets(l, "timestamps.", pb_json_get(doc, "timestamps"));
	pb_lava_measure(l, jnum(doc, "summary.tt_ratio_median"), "ratio", "tt-ratio");
	lava_expectations(l, doc);
}

/* Throughput: KIND[-MODE]-SIZEB-rate (B/s) and -syscall (ns per call); a mode
 * other than rw is named, and a skipped kind x mode makes both skip cases. */
static void lava_throughput(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *a = pb_json_get(doc, "results");

	for (size_t i = 0; i < jlen(a); i++) {
		struct json_object *r = json_object_array_get_idx(a, i);
		const char *kind = jstr(r, "kind"), *mode = jstr(r, "mode"), *st = jstr(r, "status");
		long long size = jint(r, "size_bytes", -1);
		char name[128];

		/* KIND[-MODE]-SIZEB: rw (or a document without modes) keeps the old names. */
		snprintf(name, sizeof(name), "%s%s%s-%lldB", kind ? kind : "?",
			 mode && strcmp(mode, "rw") != 0 ? "-" : "",
			 mode && strcmp(mode, "rw") != 0 ? mode : "", size);
		if (st && strcmp(st, "skip") == 0) {
			pb_lava_case(l, "skip", "%s-rate", name);
			pb_lava_case(l, "skip", "%s-syscall", name);
			continue;
		}
		pb_lava_measure(l, jnum(r, "summary.rate_bytes_per_s"), "B/s", "%s-rate", name);
		pb_lava_measure(l, jnum(r, "summary.ns_per_syscall"), "ns", "%s-syscall", name);
	}
}

/* Messaging: KIND-MODE-gGROUPS-fFDS-SIZEB-rate (messages/s) and -elapsed (ns). */
static void lava_messaging(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *a = pb_json_get(doc, "results");

	for (size_t i = 0; i < jlen(a); i++) {
		struct json_object *r = json_object_array_get_idx(a, i);
		char name[160];

		snprintf(name, sizeof(name), "%s-%s-g%lld-f%lld-%lldB", jstr(r, "kind") ?
			 jstr(r, "kind") : "?", jstr(r, "mode") ? jstr(r, "mode") : "?",
			 jint(r, "groups", 0), jint(r, "fds", 0), jint(r, "size_bytes", 0));
		pb_lava_measure(l, jnum(r, "summary.rate_messages_per_s.median"), "msg/s", "%s-rate",
				name);
		pb_lava_measure(l, jnum(r, "summary.elapsed_ns.median"), "ns", "%s-elapsed", name);
	}
}

/* Latency: KIND-SIZEB-PLACEMENT-WAIT-p50 / -p99 (ns) and -rate (round trips/s);
 * a placement the machine cannot provide makes the three skip cases. */
static void lava_latency(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *a = pb_json_get(doc, "results");

	for (size_t i = 0; i < jlen(a); i++) {
		struct json_object *r = json_object_array_get_idx(a, i);
		const char *st = jstr(r, "status");
		char name[160];

		snprintf(name, sizeof(name), "%s-%lldB-%s-%s", jstr(r, "kind") ? jstr(r, "kind") : "?",
			 jint(r, "size_bytes", 0), jstr(r, "placement") ? jstr(r, "placement") : "?",
			 jstr(r, "wait") ? jstr(r, "wait") : "?");
		if (st && strcmp(st, "ok") != 0) {
			pb_lava_case(l, "skip", "%s-p50", name);
			pb_lava_case(l, "skip", "%s-p99", name);
			pb_lava_case(l, "skip", "%s-rate", name);
			continue;
		}
		pb_lava_measure(l, jnum(r, "summary.rtt_p50_ns"), "ns", "%s-p50", name);
		pb_lava_measure(l, jnum(r, "summary.rtt_p99_ns"), "ns", "%s-p99", name);
		pb_lava_measure(l, jnum(r, "summary.round_trips_per_s"), "rt/s", "%s-rate", name);
	}
}

/* The commands whose results become cases; a new command adds a row
 * (report, a set per part, is pb_lava_doc's own). */
static const struct {
	const char *command;
	void (*cases)(struct pb_lava *l, struct json_object *doc);
} lava_cmds[] = {
	{ "conformance", lava_conformance }, { "timestamps", lava_timestamps },
	{ "o_noatime", lava_o_noatime }, { "throughput", lava_throughput },
	{ "messaging", lava_messaging }, { "latency", lava_latency },
};

/* One test set SET for DOC: its cases, then exit-status. */
static void lava_set(struct pb_lava *l, FILE *fp, const char *set, struct json_object *doc)
{
	const char *cmd = jstr(doc, "command");

	pb_lava_begin(l, fp, set);
	for (size_t i = 0; cmd && i < sizeof(lava_cmds) / sizeof(lava_cmds[0]); i++)
		if (strcmp(cmd, lava_cmds[i].command) == 0)
			lava_cmds[i].cases(l, doc);
	pb_lava_case(l, pb_lava_exit_result((int)jint(doc, "exit_status", 3)), "exit-status");
	pb_lava_end(l);
}

/* Report: one test set per part (named by the part), then `report`. */
static void lava_report(struct pb_lava *l, struct json_object *doc)
{
	struct json_object *parts = pb_json_get(doc, "parts");

	if (json_object_is_type(parts, json_type_object)) {
		json_object_object_foreach(parts, name, part) {
			if (json_object_is_type(part, json_type_object)) {
				lava_set(l, l->fp, name, part);
				continue;
			}
			pb_lava_begin(l, l->fp, name);
			pb_lava_case(l, "unknown", "exit-status");
			pb_lava_end(l);
		}
	}
	pb_lava_begin(l, l->fp, "report");
	if (json_object_is_type(parts, json_type_object)) {
		json_object_object_foreach(parts, name, part) {
			(void)part;
			char path[128];

			snprintf(path, sizeof(path), "part_runs.%s.exit_status", name);
			pb_lava_case(l, pb_lava_exit_result((int)jint(doc, path, 3)), "%s", name);
		}
	}
	if (pb_json_get(doc, "summary.copy_ceiling")) {
		pb_lava_measure(l, jnum(doc, "summary.copy_ceiling.memcpy_bytes_per_s"), "B/s",
				"memcpy-rate");
		pb_lava_measure(l, jnum(doc, "summary.copy_ceiling.pipe_fraction_of_ceiling"), "ratio",
				"pipe-64k-fraction-of-ceiling");
	}
}

void pb_lava_doc(struct json_object *doc, FILE *fp)
{
	struct pb_lava l = { .fp = NULL, .open = false };
	const char *cmd = jstr(doc, "command");

	if (cmd && strcmp(cmd, "report") == 0) {
		l.fp = fp;
		lava_report(&l, doc);
		pb_lava_case(&l, pb_lava_exit_result((int)jint(doc, "exit_status", 3)), "exit-status");
		pb_lava_end(&l);
		return;
	}
	lava_set(&l, fp, cmd ? cmd : "pipebench", doc);
}

/* The collected JSON document as LAVA signals, in place of OUT's buffer.
 * Anything that is not one JSON document is left as it is. */
static void out_to_lava(struct pb_out *out)
{
	struct json_object *doc = out->buf ? json_tokener_parse(out->buf) : NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if (!doc)
		return;
	fp = open_memstream(&buf, &len);
	if (fp) {
		pb_lava_doc(doc, fp);
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
