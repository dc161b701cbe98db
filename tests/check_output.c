/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <check.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/mount.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_conf.h"
#include "check_main.h"
#include "format.h"
#include "lava.h"
#include "output.h"
#include "stats.h"
#include "sysinfo.h"

static char *capture(void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	fn(fp, arg);
	fclose(fp);
	return buf;
}

static void csv_fn(FILE *fp, const void *arg)
{
	pb_csv_field(fp, arg);
}

START_TEST(csv_quoting)
{
	char *s = capture(csv_fn, "plain");

	ck_assert_str_eq(s, "plain");
	free(s);
	s = capture(csv_fn, "a,b");
	ck_assert_str_eq(s, "\"a,b\"");
	free(s);
	s = capture(csv_fn, "say \"hi\"");
	ck_assert_str_eq(s, "\"say \"\"hi\"\"\"");
	free(s);
	s = capture(csv_fn, "two\nlines");
	ck_assert_str_eq(s, "\"two\nlines\"");
	free(s);
}
END_TEST

static void doc_fn(FILE *fp, const void *arg)
{
	const struct pb_sysinfo *si = arg;
	struct json_object *doc = pb_doc_new("throughput", si);

	pb_json_add_double(doc, "nan_value", 0.0 / 0.0);
	pb_json_add_int(doc, "big_ns", 9007199254740993LL);
	pb_doc_add_error(doc, "something \"quoted\"\n");
	pb_doc_write(doc, 3, fp);
	json_object_put(doc);
}

/* Under an empty /proc (a tmpfs of this test's own, in a mount namespace
 * of its own) what /proc tells is unknown: -1, never 0 or a stale value. */
START_TEST(system_facts_unknown_without_proc)
{
	struct pb_sysinfo si;

	if (!pb_test_own_tmpfs("/proc", 0)) {
		fprintf(stderr, "# system_facts_unknown_without_proc: not run (%s)\n",
			strerror(errno));
		return;
	}
	pb_sysinfo_collect(&si);
	ck_assert_int_eq(umount2("/proc", MNT_DETACH), 0);
	ck_assert_double_eq(si.loadavg_1m, -1);
	ck_assert_int_eq(si.pipe_max_size, -1);
	ck_assert_int_eq(si.pipe_user_pages_soft, -1);
	ck_assert_int_eq(si.pipe_user_pages_hard, -1);
	ck_assert_int_gt(si.pipe_default_size, 0);   /* F_GETPIPE_SZ, not /proc */
}
END_TEST

START_TEST(document_shape)
{
	struct pb_sysinfo si;
	struct json_object *doc, *v;
	char *s;

	pb_sysinfo_collect(&si);
	s = capture(doc_fn, &si);
	doc = json_tokener_parse(s);
	ck_assert_msg(doc != NULL, "not JSON: %s", s);
	ck_assert(json_object_object_get_ex(doc, "tool", &v));
	ck_assert_str_eq(json_object_get_string(v), "pipebench");
	ck_assert(json_object_object_get_ex(doc, "schema_version", &v));
	ck_assert_int_eq(json_object_get_int(v), PB_SCHEMA_VERSION);
	ck_assert(json_object_object_get_ex(doc, "command", &v));
	ck_assert_str_eq(json_object_get_string(v), "throughput");
	ck_assert(json_object_object_get_ex(doc, "exit_status", &v));
	ck_assert_int_eq(json_object_get_int(v), 3);
	ck_assert(json_object_object_get_ex(doc, "nan_value", &v));
	ck_assert(v == NULL); /* null, never NaN */
	ck_assert(json_object_object_get_ex(doc, "big_ns", &v));
	ck_assert_int_eq(json_object_get_int64(v), 9007199254740993LL);
	ck_assert(json_object_object_get_ex(doc, "errors", &v));
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(v, 0)),
			 "something \"quoted\"\n");
	ck_assert(json_object_object_get_ex(doc, "system", &v));
	ck_assert(json_object_object_get_ex(v, "page_size_bytes", &v));
	ck_assert_int_eq(json_object_get_int(v), sysconf(_SC_PAGESIZE));
	json_object_put(doc);
	free(s);
}
END_TEST

/* Open a memory stream; read_mem() closes it and returns the text. */
struct mem {
	char *buf;
	size_t len;
	FILE *fp;
};

static FILE *mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	ck_assert_ptr_nonnull(m->fp);
	return m->fp;
}

static char *mem_text(struct mem *m)
{
	fclose(m->fp);
	return m->buf;
}

static double num(struct json_object *o, const char *key)
{
	struct json_object *v;

	ck_assert_msg(json_object_object_get_ex(o, key, &v) && v, "no %s", key);
	return json_object_get_double(v);
}

/* The one statistics object: every key, integer or number as asked. */
START_TEST(stats_shape)
{
	static const char *const keys[] = { "median", "mean", "min", "max", "stddev", "rsd",
					    "spread", "n", NULL };
	const double v[] = { 4, 1, 3, 2 };
	struct pb_stats st;
	struct json_object *o, *x;
	size_t nkeys = 0;

	ck_assert_int_eq(pb_stats_compute(v, 4, &st), 0);
	o = pb_json_stats(&st, false);
	for (size_t i = 0; keys[i]; i++, nkeys++)
		ck_assert_msg(json_object_object_get_ex(o, keys[i], NULL), "no %s", keys[i]);
	ck_assert_int_eq(json_object_object_length(o), (int)nkeys);
	ck_assert_double_eq(num(o, "median"), 2.5);
	ck_assert_double_eq(num(o, "mean"), 2.5);
	ck_assert_double_eq(num(o, "min"), 1);
	ck_assert_double_eq(num(o, "max"), 4);
	ck_assert_double_eq_tol(num(o, "stddev"), 1.2909944487, 1e-9);
	ck_assert_double_eq_tol(num(o, "spread"), 1.2, 1e-12);
	ck_assert_int_eq((int)num(o, "n"), 4);
	ck_assert(json_object_object_get_ex(o, "median", &x));
	ck_assert(json_object_is_type(x, json_type_double));
	json_object_put(o);
	o = pb_json_stats(&st, true);
	ck_assert(json_object_object_get_ex(o, "median", &x));
	ck_assert(json_object_is_type(x, json_type_int));
	ck_assert(json_object_object_get_ex(o, "max", &x));
	ck_assert_int_eq(json_object_get_int(x), 4);
	ck_assert(json_object_object_get_ex(o, "n", &x));
	ck_assert(json_object_is_type(x, json_type_int));
	json_object_put(o);
}
END_TEST

/* Header once, host and kernel last, numbers that read back exactly. */
START_TEST(csv_rows)
{
	static const char *const cols[] = { "kind", "note", "count", "rate", NULL };
	struct pb_sysinfo si = { 0 };
	struct pb_csv c;
	struct mem m;
	char *s;

	snprintf(si.hostname, sizeof(si.hostname), "box,1");
	snprintf(si.kernel_release, sizeof(si.kernel_release), "6.18.0");
	pb_csv_begin(&c, mem_open(&m), &si);
	pb_csv_header(&c, cols);
	pb_csv_header(&c, cols);
	pb_csv_str(&c, "anon");
	pb_csv_str(&c, "a \"b\"");
	pb_csv_int(&c, -7);
	pb_csv_double(&c, 0.1);
	pb_csv_row_end(&c);
	pb_csv_str(&c, "fifo");
	pb_csv_str(&c, NULL);
	pb_csv_int(&c, 9007199254740993LL);
	pb_csv_double(&c, 0.0 / 0.0);
	pb_csv_row_end(&c);
	pb_csv_str(&c, "x");
	pb_csv_str(&c, "");
	pb_csv_int(&c, 0);
	pb_csv_double(&c, 354.6149245969839);
	pb_csv_row_end(&c);
	s = mem_text(&m);
	ck_assert_str_eq(s, "kind,note,count,rate,host,kernel\n"
			 "anon,\"a \"\"b\"\"\",-7,0.1,\"box,1\",6.18.0\n"
			 "fifo,,9007199254740993,,\"box,1\",6.18.0\n"
			 "x,,0,354.6149245969839,\"box,1\",6.18.0\n");
	free(s);
}
END_TEST

/* '#' would start a directive and '\' escapes it: both get a backslash in
 * descriptions and reasons; a newline would end the line. */
START_TEST(tap_escaping)
{
	struct pb_tap t;
	struct mem m;
	char *s;

	pb_tap_begin(&t, mem_open(&m), 3);
	pb_tap_point(&t, true, PB_TAP_NONE, NULL, "issue %s", "#13 a\\b");
	pb_tap_point(&t, false, PB_TAP_TODO, "see #4\nlater", "two\nlines");
	pb_tap_point(&t, true, PB_TAP_SKIP, "", "no reason");
	pb_tap_end(&t);
	s = mem_text(&m);
	ck_assert_str_eq(s, "TAP version 13\n1..3\n"
			 "ok 1 - issue \\#13 a\\\\b\n"
			 "not ok 2 - two lines # TODO see \\#4 later\n"
			 "ok 3 - no reason # SKIP\n");
	free(s);
	mem_open(&m);
	pb_tap_skip_all(m.fp, "nothing # here");
	s = mem_text(&m);
	ck_assert_str_eq(s, "TAP version 13\n1..0 # SKIP nothing \\# here\n");
	free(s);
}
END_TEST

/* YAML diagnostics follow their point and are closed once. */
START_TEST(tap_yaml)
{
	struct pb_tap t;
	struct mem m;
	char *s;

	pb_tap_begin(&t, mem_open(&m), 2);
	pb_tap_point(&t, false, PB_TAP_NONE, NULL, "RD-01");
	pb_tap_yaml_str(&t, "detail", "say \"x\" # \\ \x01");
	pb_tap_yaml_word(&t, "status", "fail");
	pb_tap_yaml_int(&t, "duration_ns", 12);
	pb_tap_yaml_str(&t, "none", NULL);
	pb_tap_point(&t, true, PB_TAP_NONE, NULL, "RD-02");
	pb_tap_comment(&t, "done %d", 2);
	pb_tap_end(&t);
	s = mem_text(&m);
	ck_assert_str_eq(s, "TAP version 13\n1..2\nnot ok 1 - RD-01\n  ---\n"
			 "  detail: \"say \\\"x\\\" # \\\\ \\x01\"\n  status: fail\n"
			 "  duration_ns: 12\n  none: null\n  ...\nok 2 - RD-02\n# done 2\n");
	free(s);
}
END_TEST

START_TEST(eta_format)
{
	static const struct { double s; const char *want; } cases[] = {
		{ 0, "ETA 0s" }, { 0.2, "ETA 1s" }, { 42, "ETA 42s" }, { 59.5, "ETA 1m00s" },
		{ 60, "ETA 1m00s" }, { 187, "ETA 3m07s" }, { 3599, "ETA 59m59s" },
		{ 3600, "ETA 1h00m" }, { 7500, "ETA 2h05m" }, { 99 * 3600 + 3599, "ETA 99h59m" },
		{ 100 * 3600, "ETA >99h" }, { 99 * 3600 + 3599.5, "ETA >99h" }, { 1e300, "ETA >99h" }, { -1, "" },
		{ 0.0 / 0.0, "" }, { 1.0 / 0.0, "" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = pb_format_eta(cases[i].s, buf, sizeof(buf));

		ck_assert_msg(strcmp(buf, cases[i].want) == 0, "%g: got '%s', want '%s'",
			      cases[i].s, buf, cases[i].want);
		ck_assert_int_eq(n, (int)strlen(buf));
	}
	pb_format_eta(187, buf, 6);
	ck_assert_str_eq(buf, "ETA 3");
}
END_TEST

/* What UNITS calls of pb_progress_show() and, if END, pb_progress_end() print. */
static char *progress_text(const char *cmd, bool on, uint64_t total, int units, bool end)
{
	struct pb_progress p;
	struct mem m;

	pb_progress_start(&p, cmd, on, total);
	p.fp = mem_open(&m);
	for (int i = 0; i < units; i++)
		pb_progress_show(&p, "unit %d", i + 1);
	if (end)
		pb_progress_end(&p);
	return mem_text(&m);
}

/* Off: nothing at all.  On: the line, redrawn in place, then cleared; no
 * ETA for the first unit (nothing done yet) or when the total is unknown. */
START_TEST(progress_line)
{
	char *s = progress_text("throughput", false, 3, 2, true);

	ck_assert_str_eq(s, "");
	free(s);
	s = progress_text("throughput", true, 3, 1, true);
	ck_assert_str_eq(s, "\r\033[Kpipebench throughput: unit 1\r\033[K");
	free(s);
	s = progress_text("report", true, 0, 2, false);
	ck_assert_str_eq(s, "\r\033[Kpipebench report: unit 1\r\033[Kpipebench report: unit 2");
	free(s);
	s = progress_text("messaging", true, 2, 2, false);
	ck_assert_msg(strstr(s, "messaging: unit 2 (ETA ") != NULL, "no ETA on the second unit: %s",
		      s);
	free(s);
	/* a budget gives an ETA from the first unit on, without a total */
	{
		struct pb_progress p;
		struct mem m;

		pb_progress_start(&p, "throughput", true, 0);
		pb_progress_budget(&p, 36000ULL * 1000000000ULL);
		p.fp = mem_open(&m);
		pb_progress_show(&p, "calibrating");
		s = mem_text(&m);
		ck_assert_msg(strstr(s, "throughput: calibrating (ETA ") != NULL &&
			      strstr(s, "h") != NULL, "no ETA from the budget: %s", s);
		free(s);
	}
}
END_TEST

/* The ETA: from the rate of the units done, weighted items counted by their
 * weight, the item in progress counted as left; else what a budget leaves;
 * else unknown. */
START_TEST(progress_eta)
{
	const uint64_t s = 1000000000ULL;
	struct pb_progress p;

	pb_progress_start(&p, "latency", false, 10);
	ck_assert(isnan(pb_progress_eta(&p, p.t0_ns + 5 * s)));   /* nothing done */
	pb_progress_show(&p, "1");
	pb_progress_show(&p, "2");
	pb_progress_show(&p, "3");
	ck_assert_uint_eq(p.done, 2);
	/* 2 units in 4 s: 2 s each, 8 left (the third included) */
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns + 4 * s), 16.0, 1e-9);
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns), 0.0, 1e-9);
	p.done = 10;
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns + 4 * s), 0.0, 1e-9);
	p.done = 11;                                               /* more than planned */
	ck_assert(isnan(pb_progress_eta(&p, p.t0_ns + 4 * s)));

	/* Weighted items (report's parts): 3 units done in 6 s, 7 left. */
	pb_progress_start(&p, "report", false, 10);
	pb_progress_item(&p, 3, "a");
	pb_progress_item(&p, 7, "b");
	ck_assert_uint_eq(p.done, 3);
	ck_assert_uint_eq(p.current, 7);
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns + 6 * s), 14.0, 1e-9);
	pb_progress_item(&p, 0, "c");                              /* 0 counts as 1 */
	pb_progress_item(&p, 1, "d");
	ck_assert_uint_eq(p.done, 11);

	/* A budget: 30 s in all, 10 s gone; spent: unknown.  Counted units,
	 * once some are done, win over the budget. */
	pb_progress_start(&p, "throughput", false, 0);
	ck_assert(isnan(pb_progress_eta(&p, p.t0_ns + 10 * s)));
	pb_progress_budget(&p, 30 * s);
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns + 10 * s), 20.0, 1e-9);
	ck_assert(isnan(pb_progress_eta(&p, p.t0_ns + 30 * s)));
	ck_assert(isnan(pb_progress_eta(&p, p.t0_ns + 31 * s)));
	pb_progress_start(&p, "latency", false, 4);
	pb_progress_budget(&p, 40 * s);
	pb_progress_show(&p, "1");
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns + 1 * s), 39.0, 1e-9);
	pb_progress_show(&p, "2");
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns + 12 * s), 36.0, 1e-9);
	/* a clock before the start counts as no time gone */
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns - 1), 0.0, 1e-9);
	/* the budget holds until a tenth of the units is done, or it is spent */
	pb_progress_start(&p, "report", false, 100);
	pb_progress_budget(&p, 100 * s);
	p.done = 9;
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns + 20 * s), 80.0, 1e-9);
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns + 180 * s), 1820.0, 1e-9);
	p.done = 10;
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns + 20 * s), 180.0, 1e-9);
	p.total = 101;                                            /* a tenth rounds up */
	ck_assert_double_eq_tol(pb_progress_eta(&p, p.t0_ns + 20 * s), 80.0, 1e-9);
}
END_TEST

START_TEST(finish_to_file)
{
	char path[] = "/tmp/pb-check-output-XXXXXX", buf[64] = "";
	struct pb_out out;
	FILE *fp;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(pb_out_open(&out), 0);
	fprintf(out.fp, "hello %d\n", 42);
	ck_assert_int_eq(pb_out_finish(&out, "test", path), 0);
	fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	unlink(path);
	ck_assert_str_eq(buf, "hello 42\n");
}
END_TEST



/* The same write-error path without /dev/full (containers may lack it): a
 * file size limit of 4 bytes makes the 5-byte document fail with EFBIG. */
/* A 5-byte document under a 4-byte file size limit: EFBIG, reported. */
static void finish_over_file_limit(void)
{
	const char *tmp = getenv("TMPDIR");
	struct rlimit rl = { 4, 4 };
	struct pb_out out;
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/pb-check-output.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	ck_assert_int_eq(pb_out_open(&out), 0);
	fputs("data\n", out.fp);
	ck_assert_int_eq(pb_out_finish(&out, "test", path), -EFBIG);
	unlink(path);
}

/* A full device: ENOSPC.  Without /dev/full (some containers) the same
 * write-error path is asserted through the file size limit instead, so the
 * test never passes without asserting. */
START_TEST(finish_reports_full_device)
{
	struct pb_out out;

	if (access("/dev/full", W_OK) != 0) {
		finish_over_file_limit();
		return;
	}
	ck_assert_int_eq(pb_out_open(&out), 0);
	fputs("data\n", out.fp);
	ck_assert_int_eq(pb_out_finish(&out, "test", "/dev/full"), -ENOSPC);
}
END_TEST

START_TEST(finish_reports_file_limit)
{
	finish_over_file_limit();
}
END_TEST

/* ---- the run object and the LAVA emitter ---- */

START_TEST(os_release_values)
{
	char v[32];

	ck_assert(pb_os_release_value("ID=debian\n", "ID", v, sizeof(v)));
	ck_assert_str_eq(v, "debian");
	ck_assert(!pb_os_release_value("ID_LIKE=debian\n", "ID", v, sizeof(v)));
	ck_assert(!pb_os_release_value("VERSION_ID=12\n", "ID", v, sizeof(v)));
	ck_assert(pb_os_release_value("PRETTY_NAME=\"Debian \\\"x\\\" 12\"\n", "PRETTY_NAME", v,
				      sizeof(v)));
	ck_assert_str_eq(v, "Debian \"x\" 12");
	ck_assert(pb_os_release_value("VERSION_ID='3.18'\n", "VERSION_ID", v, sizeof(v)));
	ck_assert_str_eq(v, "3.18");
	ck_assert(pb_os_release_value("ID=abcdefghij\n", "ID", v, 4));
	ck_assert_str_eq(v, "abc");
}
END_TEST

START_TEST(rfc3339_utc)
{
	char b[40];

	pb_format_rfc3339(0, b, sizeof(b));
	ck_assert_str_eq(b, "1970-01-01T00:00:00.000Z");
	pb_format_rfc3339(1796080406305093676LL, b, sizeof(b));
	ck_assert_str_eq(b, "2026-11-30T23:13:26.305Z");
}
END_TEST

START_TEST(caps_list)
{
	struct json_object *a = pb_caps_json((1ULL << 0) | (1ULL << 24) | (1ULL << 40) | (1ULL << 63));

	ck_assert_int_eq(json_object_array_length(a), 4);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 0)), "CAP_CHOWN");
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 1)), "CAP_SYS_RESOURCE");
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 2)),
			 "CAP_CHECKPOINT_RESTORE");
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 3)), "cap_63");
	json_object_put(a);
}
END_TEST

START_TEST(run_object_types)
{
	const char *argv[] = { "pipebench", "timestamps", "--format", "json" };
	struct json_object *run, *v;

	pb_run_set_argv(4, argv);
	run = pb_run_json();
	ck_assert(json_object_object_get_ex(run, "start", &v));
	ck_assert_int_eq(strlen(json_object_get_string(v)), 24);
	ck_assert(json_object_get_string(v)[23] == 'Z');
	ck_assert(json_object_object_get_ex(json_object_object_get(run, "user"), "capabilities", &v));
	ck_assert(v == NULL || json_object_is_type(v, json_type_array));
	ck_assert(json_object_is_type(json_object_object_get(json_object_object_get(run, "user"),
							     "euid"), json_type_int));
	v = json_object_object_get(json_object_object_get(run, "pipebench"), "argv");
	ck_assert_int_eq(json_object_array_length(v), 4);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(v, 3)), "json");
	ck_assert(json_object_is_type(json_object_object_get(json_object_object_get(run, "pipebench"),
							     "static"), json_type_boolean));
	json_object_put(run);
}
END_TEST

START_TEST(lava_names_numbers_results)
{
	char b[64];

	pb_lava_name(b, sizeof(b), "WR-01 [fifo] a/b=c>");
	ck_assert_str_eq(b, "WR-01__fifo__a_b_c_");
	pb_lava_number(1.5e9, b, sizeof(b));
	ck_assert_str_eq(b, "1500000000");
	pb_lava_number(0.000125, b, sizeof(b));
	ck_assert_str_eq(b, "0.000125");
	pb_lava_number(203.25, b, sizeof(b));
	ck_assert_str_eq(b, "203.25");
	pb_lava_number(42, b, sizeof(b));
	ck_assert_str_eq(b, "42");
	ck_assert_str_eq(pb_lava_result("known-deviation"), "pass");
	ck_assert_str_eq(pb_lava_result("info"), "pass");
	ck_assert_str_eq(pb_lava_result("error"), "unknown");
	ck_assert_str_eq(pb_lava_result("fail"), "fail");
	ck_assert_str_eq(pb_lava_result("skip"), "skip");
	ck_assert_str_eq(pb_lava_result(NULL), "unknown");
	ck_assert_str_eq(pb_lava_exit_result(1), "fail");
	ck_assert_str_eq(pb_lava_exit_result(3), "unknown");
	ck_assert_str_eq(pb_lava_exit_result(4), "skip");
}
END_TEST

static void lava_doc_fn(FILE *fp, const void *arg)
{
	struct json_object *doc = json_tokener_parse(arg);

	pb_lava_doc(doc, fp);
	json_object_put(doc);
}

START_TEST(lava_documents)
{
	char *s = capture(lava_doc_fn,
		"{\"command\":\"conformance\",\"exit_status\":3,\"checks\":["
		"{\"id\":\"WR-01\",\"kind\":\"anon\",\"status\":\"pass\"},"
		"{\"id\":\"WR-01\",\"kind\":\"fifo\",\"status\":\"fail\"},"
		"{\"id\":\"MD-04\",\"kind\":null,\"status\":\"known-deviation\"},"
		"{\"id\":\"FD-01\",\"kind\":\"anon\",\"status\":\"error\"}]}");

	ck_assert_str_eq(s, "<LAVA_SIGNAL_TESTSET START conformance>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=WR-01.anon RESULT=pass>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=WR-01.fifo RESULT=fail>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=MD-04 RESULT=pass>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=FD-01 RESULT=unknown>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=unknown>\n"
			 "<LAVA_SIGNAL_TESTSET STOP>\n");
	free(s);
	s = capture(lava_doc_fn,
		"{\"command\":\"throughput\",\"exit_status\":0,\"results\":["
		"{\"kind\":\"fifo\",\"size_bytes\":100,\"summary\":{\"rate_bytes_per_s\":2.5e8,"
		"\"ns_per_syscall\":null}}]}");
	ck_assert_str_eq(s, "<LAVA_SIGNAL_TESTSET START throughput>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=fifo-100B-rate RESULT=pass "
			 "MEASUREMENT=250000000 UNITS=B/s>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=fifo-100B-syscall RESULT=unknown>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=pass>\n"
			 "<LAVA_SIGNAL_TESTSET STOP>\n");
	free(s);
	s = capture(lava_doc_fn,
		"{\"command\":\"report\",\"exit_status\":1,\"parts\":{"
		"\"timestamps\":{\"command\":\"timestamps\",\"exit_status\":1,\"summary\":"
		"{\"anon\":\"updated\",\"fifo\":null,\"expectations_hold\":false},"
		"\"expectations\":[{\"kind\":\"anon\",\"holds\":false}],"
		"\"results\":[{\"kind\":\"anon\",\"verdict\":\"updated\",\"operations\":["
		"{\"operation\":\"write\",\"supported\":true,\"fields\":{"
		"\"atime\":{\"updated\":0,\"unchanged\":3},\"mtime\":{\"updated\":3,\"unchanged\":0},"
		"\"ctime\":{\"updated\":0,\"unchanged\":0}}}]}]},"
		"\"messaging\":null},\"part_runs\":{\"timestamps\":{\"exit_status\":1},"
		"\"messaging\":{\"exit_status\":null}}}");
	ck_assert_str_eq(s, "<LAVA_SIGNAL_TESTSET START timestamps>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon.write.atime RESULT=pass "
			 "MEASUREMENT=0 UNITS=ratio>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon.write.mtime RESULT=pass "
			 "MEASUREMENT=1 UNITS=ratio>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon.write.ctime RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon.expect RESULT=fail>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=expectations RESULT=fail>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=fail>\n"
			 "<LAVA_SIGNAL_TESTSET STOP>\n"
			 "<LAVA_SIGNAL_TESTSET START messaging>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=unknown>\n"
			 "<LAVA_SIGNAL_TESTSET STOP>\n"
			 "<LAVA_SIGNAL_TESTSET START report>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=timestamps RESULT=fail>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=messaging RESULT=unknown>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=fail>\n"
			 "<LAVA_SIGNAL_TESTSET STOP>\n");
	free(s);
}
END_TEST

/* A case's name never depends on what the kernel did: the same check, probe
 * or metric has the same name whatever its verdict or value. */
START_TEST(lava_names_stable)
{
	char *s = capture(lava_doc_fn,
		"{\"command\":\"conformance\",\"exit_status\":130,\"params\":{\"kind\":\"fifo\"},"
		"\"checks\":[{\"id\":\"WR-01\",\"kind\":\"fifo\",\"status\":\"fail\"}],"
		"\"not_run\":[{\"id\":\"WR-02\",\"kind\":\"fifo\"},{\"id\":\"MD-04\",\"kind\":null}]}");

	ck_assert_str_eq(s, "<LAVA_SIGNAL_TESTSET START conformance>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=WR-01.fifo RESULT=fail>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=WR-02.fifo RESULT=unknown>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=MD-04 RESULT=unknown>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=unknown>\n"
			 "<LAVA_SIGNAL_TESTSET STOP>\n");
	free(s);
	s = capture(lava_doc_fn,
		"{\"command\":\"o_noatime\",\"exit_status\":0,\"pipe2_o_noatime\":{\"accepted\":true},"
		"\"timestamps\":[{\"kind\":\"fifo\",\"verdict\":\"mixed\",\"operations\":["
		"{\"operation\":\"read\",\"supported\":true,\"fields\":{"
		"\"atime\":{\"updated\":1,\"unchanged\":3}}},"
		"{\"operation\":\"tee_in\",\"supported\":false,\"fields\":null}]}],"
		"\"summary\":{\"tt_ratio_median\":null}}");
	ck_assert_str_eq(s, "<LAVA_SIGNAL_TESTSET START o_noatime>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=pipe2_o_noatime RESULT=pass "
			 "MEASUREMENT=1 UNITS=accepted>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=timestamps.fifo.read.atime RESULT=pass "
			 "MEASUREMENT=0.25 UNITS=ratio>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=timestamps.fifo.read.mtime RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=timestamps.fifo.read.ctime RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=timestamps.fifo.tee_in.atime RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=timestamps.fifo.tee_in.mtime RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=timestamps.fifo.tee_in.ctime RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=tt-ratio RESULT=unknown>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=pass>\n"
			 "<LAVA_SIGNAL_TESTSET STOP>\n");
	free(s);
	s = capture(lava_doc_fn,
		"{\"command\":\"throughput\",\"exit_status\":4,\"results\":["
		"{\"kind\":\"fifo\",\"mode\":\"splice\",\"size_bytes\":100,\"status\":\"skip\"}]}");
	ck_assert_str_eq(s, "<LAVA_SIGNAL_TESTSET START throughput>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=fifo-splice-100B-rate RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=fifo-splice-100B-syscall RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTSET STOP>\n");
	free(s);
	s = capture(lava_doc_fn,
		"{\"command\":\"latency\",\"exit_status\":0,\"results\":["
		"{\"kind\":\"anon\",\"size_bytes\":1,\"placement\":\"numa\",\"wait\":\"block\","
		"\"status\":\"skip\"}]}");
	ck_assert_str_eq(s, "<LAVA_SIGNAL_TESTSET START latency>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-1B-numa-block-p50 RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-1B-numa-block-p99 RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=anon-1B-numa-block-rate RESULT=skip>\n"
			 "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=exit-status RESULT=pass>\n"
			 "<LAVA_SIGNAL_TESTSET STOP>\n");
	free(s);
}
END_TEST

PB_CHECK_SUITE_MAIN("output",
	PB_TCASE("emitters", csv_quoting, document_shape, system_facts_unknown_without_proc,
		 stats_shape, csv_rows, tap_escaping, tap_yaml, eta_format, progress_line,
		 progress_eta),
	PB_TCASE("fleet", os_release_values, rfc3339_utc, caps_list, run_object_types,
		 lava_names_numbers_results, lava_documents, lava_names_stable),
	PB_TCASE("destination", finish_to_file, finish_reports_full_device,
		 finish_reports_file_limit))
