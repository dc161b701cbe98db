/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <check.h>
#include <sys/resource.h>
#include <signal.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
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

START_TEST(finish_reports_full_device)
{
	struct pb_out out;

	ck_assert_msg(access("/dev/full", W_OK) == 0,
		      "/dev/full is not writable here; finish_reports_file_limit covers the path");
	ck_assert_int_eq(pb_out_open(&out), 0);
	fputs("data\n", out.fp);
	ck_assert_int_eq(pb_out_finish(&out, "test", "/dev/full"), -ENOSPC);
}
END_TEST

/* The same write-error path without /dev/full (containers may lack it): a
 * file size limit of 4 bytes makes the 5-byte document fail with EFBIG. */
START_TEST(finish_reports_file_limit)
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
END_TEST

static Suite *output_suite(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("emitters");

	tcase_add_test(tc, csv_quoting);
	tcase_add_test(tc, document_shape);
	suite_add_tcase(s, tc);
	tc = tcase_create("destination");
	tcase_add_test(tc, finish_to_file);
	if (access("/dev/full", W_OK) == 0)
		tcase_add_test(tc, finish_reports_full_device);
	tcase_add_test(tc, finish_reports_file_limit);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(output_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
