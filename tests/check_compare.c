/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check_main.h"
#include "cli.h"
#include "cmd.h"
#include "compare.h"

/*
 * What a test parses and compares belongs to the test case's fixture, which
 * releases it after the test: the documents parsed and the latest result.
 */
static struct json_object *parsed[64];
static size_t nparsed;
static struct pb_cmp_result result;
static bool result_held;

static void release(void)
{
	while (nparsed)
		json_object_put(parsed[--nparsed]);
	if (result_held)
		pb_cmp_result_free(&result);
	result_held = false;
}

static struct json_object *parse(const char *s)
{
	struct json_object *o = json_tokener_parse(s);

	ck_assert_ptr_nonnull(o);
	ck_assert_uint_lt(nparsed, sizeof(parsed) / sizeof(parsed[0]));
	parsed[nparsed++] = o;
	return o;
}

/* Compare with --threshold 5; IGNORE doubles as the differing params. */
static const char *metrics_opt;  /* --metrics for cmp(); NULL: the default */

static int cmp(struct json_object *a, struct json_object *b, const char *ignore,
	       struct pb_cmp_result *r)
{
	struct pb_cmp_opts o = { .ignore = ignore, .differ = ignore, .threshold_pct = 5,
				 .metrics = metrics_opt };

	return pb_cmp_compare(a, b, &o, r);
}

static const struct pb_cmp_metric *find_metric(const struct pb_cmp_result *r, const char *label,
					       const char *metric)
{
	for (size_t i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].label, label) && !strcmp(r->m[i].metric, metric))
			return &r->m[i];
	return NULL;
}

/* The metric that must be there. */
static const struct pb_cmp_metric *get_metric(const struct pb_cmp_result *r, const char *label,
					      const char *metric)
{
	const struct pb_cmp_metric *m = find_metric(r, label, metric);

	ck_assert_msg(m != NULL, "no %s of %s; first label '%s'", metric, label,
		      r->nm ? r->m[0].label : "");
	return m;
}

/* Offsets of the named members of type T that a spec may name. */
struct member {
	const char *name;
	size_t off;
};

#define MEMBER(T, f) { #f, offsetof(T, f) }

static const struct member *member(const struct member *table, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	ck_abort_msg("no member %s", name);
	return NULL;
}

/* Each word of SPEC holds for M: "significant" true, "!regression" false. */
static void want_flags(const struct pb_cmp_metric *m, const char *spec)
{
#define FLAG(f) MEMBER(struct pb_cmp_metric, f)
	static const struct member flags[] = {
		FLAG(significant), FLAG(regression), FLAG(comparable), FLAG(derived),
		FLAG(inconclusive), FLAG(side),
	};
#undef FLAG
	char word[32];
	int used;

	for (const char *s = spec; sscanf(s, " %31s%n", word, &used) == 1; s += used) {
		bool want = word[0] != '!';
		const struct member *f = member(flags, sizeof(flags) / sizeof(flags[0]),
						word + !want);

		ck_assert_msg(*(const bool *)((const char *)m + f->off) == want, "%s %s: not %s",
			      m->label ? m->label : "", m->metric ? m->metric : "", word);
	}
}

/* Each "name=N" of SPEC is a count R has. */
static void want_counts(const struct pb_cmp_result *r, const char *spec)
{
#define COUNT(f) MEMBER(struct pb_cmp_result, f)
	static const struct member counts[] = {
		COUNT(nm), COUNT(nv), COUNT(nlost), COUNT(verdicts_same), COUNT(only_base),
		COUNT(only_new), COUNT(regressions), COUNT(not_comparable), COUNT(inconclusive),
		COUNT(base_results), COUNT(new_results), COUNT(matched), COUNT(paired),
	};
#undef COUNT
	char name[32];
	size_t want;
	int used = 0;
	const char *s = spec;

	for (; sscanf(s, " %31[a-z_]=%zu%n", name, &want, &used) == 2; s += used) {
		const struct member *c = member(counts, sizeof(counts) / sizeof(counts[0]), name);
		size_t got = *(const size_t *)((const char *)r + c->off);

		ck_assert_msg(got == want, "%s is %zu, want %zu", name, got, want);
	}
	ck_assert_msg(s[strspn(s, " ")] == '\0', "count spec '%s' not understood", s);
}

/* The result of comparing A with B (cmp), which succeeds with the counts of SPEC. */
static const struct pb_cmp_result *compared(struct json_object *a, struct json_object *b,
					    const char *ignore, const char *spec)
{
	if (result_held)
		pb_cmp_result_free(&result);
	result_held = false;
	ck_assert_int_eq(cmp(a, b, ignore, &result), 0);
	result_held = true;
	want_counts(&result, spec);
	return &result;
}

/* pb_cmp_metric_eval into M succeeds, and the flags of FLAGS hold. */
static void eval_as(struct pb_cmp_metric *m, const double *base, size_t nb, const double *cur,
		    size_t nc, double threshold_pct, const char *flags)
{
	ck_assert_int_eq(pb_cmp_metric_eval(m, base, nb, cur, nc, threshold_pct), 0);
	want_flags(m, flags);
}

static const struct pb_cmp_verdict *find_verdict(const struct pb_cmp_result *r,
						 const char *label)
{
	for (size_t i = 0; i < r->nv; i++)
		if (!strcmp(r->v[i].label, label))
			return &r->v[i];
	return NULL;
}

/* The verdict that must be there. */
static const struct pb_cmp_verdict *get_verdict(const struct pb_cmp_result *r, const char *label)
{
	const struct pb_cmp_verdict *v = find_verdict(r, label);

	ck_assert_msg(v != NULL, "no verdict of %s", label);
	return v;
}

/* LABEL's verdict on one SIDE is WANT (NULL: none). */
static void want_side(const char *label, const char *side, const char *got, const char *want)
{
	if (!want)
		ck_assert_msg(!got, "%s: %s in %s", label, got, side);
	else
		ck_assert_msg(got && !strcmp(got, want), "%s: %s in %s, want %s", label,
			      got ? got : "none", side, want);
}

/* ------------------------------------------------------------ direction */

START_TEST(direction_table)
{
	static const struct { const char *name; enum pb_cmp_dir dir; } cases[] = {
		{ "tt_ns", PB_CMP_LOWER }, { "tw_ns", PB_CMP_LOWER },
		{ "elapsed_ns", PB_CMP_LOWER }, { "duration_ns", PB_CMP_LOWER },
		{ "cpu_user_ns", PB_CMP_LOWER }, { "cpu_sys_ns", PB_CMP_LOWER },
		{ "voluntary_ctxsw", PB_CMP_LOWER }, { "involuntary_ctxsw", PB_CMP_LOWER },
		{ "ns_per_syscall", PB_CMP_LOWER }, { "syscalls_per_message", PB_CMP_LOWER },
		{ "rate_bytes_per_s", PB_CMP_HIGHER }, { "rate_messages_per_s", PB_CMP_HIGHER },
		{ "loops_per_s", PB_CMP_HIGHER },
		{ "bytes", PB_CMP_NEUTRAL }, { "messages", PB_CMP_NEUTRAL },
		{ "write_calls", PB_CMP_NEUTRAL }, { "read_calls", PB_CMP_NEUTRAL },
		{ "syscalls", PB_CMP_NEUTRAL }, { "something_new", PB_CMP_NEUTRAL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(pb_cmp_direction(cases[i].name) == cases[i].dir,
			      "%s: got %s", cases[i].name,
			      pb_cmp_dir_name(pb_cmp_direction(cases[i].name)));
	ck_assert_str_eq(pb_cmp_dir_name(PB_CMP_LOWER), "lower-is-better");
	ck_assert_str_eq(pb_cmp_dir_name(PB_CMP_HIGHER), "higher-is-better");
	ck_assert_str_eq(pb_cmp_dir_name(PB_CMP_NEUTRAL), "neutral");
}
END_TEST

/* IS holds for each name of YES and for none of NO (space-separated lists). */
static void want_names(bool (*is)(const char *), const char *what, const char *yes,
		       const char *no)
{
	char name[64];
	int used;

	for (const char *s = yes; sscanf(s, " %63s%n", name, &used) == 1; s += used)
		ck_assert_msg(is(name), "%s is not %s", name, what);
	for (const char *s = no; sscanf(s, " %63s%n", name, &used) == 1; s += used)
		ck_assert_msg(!is(name), "%s is %s", name, what);
}

START_TEST(metric_keys_are_not_identity)
{
	want_names(pb_cmp_is_metric_key, "a metric key", "tt_ratio_to_first duration_ns bytes",
		   "kind size_bytes pipe_size_bytes groups");
}
END_TEST

static bool detail_beside_rate(const char *m)
{
	return pb_cmp_is_detail(m, true);
}

static bool detail_alone(const char *m)
{
	return pb_cmp_is_detail(m, false);
}

/* Rates, and the details: totals beside a rate, a round trip's extremes. */
START_TEST(rates_and_details)
{
	want_names(pb_cmp_is_rate, "a rate", "rate_bytes_per_s rate_messages_per_s round_trips_per_s",
		   "ns_per_syscall tt_ns bytes_per_syscall rates per_s x_per_sec");
	want_names(detail_beside_rate, "a detail beside a rate",
		   "tt_ns tw_ns tr_ns elapsed_ns rtt_min_ns rtt_max_ns rtt_stddev_ns rtt_p99_9_ns "
		   "rtt_p99_99_ns",
		   "rate_bytes_per_s ns_per_syscall rtt_p50_ns rtt_p90_ns rtt_p99_ns rtt_mean_ns "
		   "tt_ns_per_byte tt_ratio voluntary_ctxsw bytes");
	want_names(detail_alone, "a detail without a rate",
		   "rtt_min_ns rtt_max_ns rtt_stddev_ns rtt_p99_9_ns rtt_p99_99_ns",
		   "tt_ns tw_ns elapsed_ns rtt_p50_ns tt_ratio");
}
END_TEST

/* ------------------------------------------------------------ significance */

START_TEST(welch_flags_clear_shift)
{
	const double base[] = { 100, 101, 99, 100, 100 }, slow[] = { 110, 111, 109, 110, 110 };
	struct pb_cmp_metric m = { .dir = PB_CMP_LOWER };

	eval_as(&m, base, 5, slow, 5, 5, "significant regression");
	ck_assert_double_eq_tol(m.change_pct, 10, 1e-9);
	ck_assert(m.p_welch >= 0 && m.p_welch < 0.001);
	/* five a side: the rank test decides, every slow value above every
	 * base one (U = 25 of 25; with the ties, normal: p = 0.010176); the
	 * shift is 10 [9, 11] */
	ck_assert(m.by_rank);
	ck_assert_double_eq_tol(m.p, 0.0101762, 1e-6);
	ck_assert(m.p == m.p_rank);
	ck_assert(m.shift == 10 && m.shift_lo == 9 && m.shift_hi == 11);
	/* four a side: Welch decides */
	eval_as(&m, base, 4, slow, 4, 5, "significant regression");
	ck_assert(!m.by_rank && m.p == m.p_welch);
	/* Same change, but beyond what the threshold tolerates? No. */
	eval_as(&m, base, 5, slow, 5, 15, "significant !regression");
	/* Higher is better: +10% is an improvement. */
	m.dir = PB_CMP_HIGHER;
	eval_as(&m, base, 5, slow, 5, 5, "!regression");
	eval_as(&m, slow, 5, base, 5, 5, "regression");
	/* Neutral never regresses. */
	m.dir = PB_CMP_NEUTRAL;
	eval_as(&m, base, 5, slow, 5, 0, "significant !regression");
}
END_TEST

START_TEST(welch_ignores_noise)
{
	const double a[] = { 100, 120, 80, 110, 90 }, b[] = { 104, 125, 82, 112, 93 };
	struct pb_cmp_metric m = { .dir = PB_CMP_LOWER };

	eval_as(&m, a, 5, b, 5, 0, "!significant !regression");
	ck_assert(m.change_pct > 2);
	ck_assert(m.p > 0.05);
}
END_TEST

START_TEST(too_few_repetitions_is_na)
{
	const double one[] = { 100 }, many[] = { 200, 201, 199 };
	struct pb_cmp_metric m = { .dir = PB_CMP_LOWER };

	eval_as(&m, one, 1, many, 3, 5, "!significant !regression");
	ck_assert_double_eq(m.p, -1);
	eval_as(&m, many, 3, one, 1, 5, "!regression");
	ck_assert_int_eq(pb_cmp_metric_eval(&m, one, 0, many, 3, 5), -EINVAL);
}
END_TEST

START_TEST(constant_samples)
{
	const double a[] = { 7, 7, 7 }, b[] = { 9, 9, 9 };
	struct pb_cmp_metric m = { .dir = PB_CMP_LOWER };

	eval_as(&m, a, 3, a, 3, 0, "!significant");
	eval_as(&m, a, 3, b, 3, 0, "significant regression");
}
END_TEST

START_TEST(zero_base_mean)
{
	const double z[] = { 0, 0, 0 }, b[] = { 1, 2, 3 };
	struct pb_cmp_metric m = { .dir = PB_CMP_LOWER };

	eval_as(&m, z, 3, b, 3, 0, "!regression");
	ck_assert(isnan(m.change_pct));
}
END_TEST

START_TEST(regression_rule)
{
	ck_assert(pb_cmp_is_regression(PB_CMP_LOWER, 6, true, 5));
	ck_assert(!pb_cmp_is_regression(PB_CMP_LOWER, 5, true, 5));
	ck_assert(!pb_cmp_is_regression(PB_CMP_LOWER, 6, false, 5));
	ck_assert(!pb_cmp_is_regression(PB_CMP_LOWER, -50, true, 5));
	ck_assert(pb_cmp_is_regression(PB_CMP_HIGHER, -6, true, 5));
	ck_assert(!pb_cmp_is_regression(PB_CMP_HIGHER, 50, true, 5));
	ck_assert(!pb_cmp_is_regression(PB_CMP_NEUTRAL, 500, true, 0));
	ck_assert(!pb_cmp_is_regression(PB_CMP_LOWER, NAN, true, 0));
	ck_assert(pb_cmp_is_regression(PB_CMP_LOWER, 0.1, true, 0));
}
END_TEST

/* Either side of the 0.05 significance level: {0, 2} against {x, x + 2}
 * has df = 2 and p = 1 - t / sqrt(t^2 + 2) with t = x / sqrt(2): x = 6 gives
 * p = 0.0513, x = 6.2 gives p = 0.0483. */
START_TEST(significance_boundary)
{
	const double base[] = { 0, 2 }, near_miss[] = { 6, 8 }, near_hit[] = { 6.2, 8.2 };
	struct pb_cmp_metric m;

	memset(&m, 0, sizeof(m));
	m.dir = PB_CMP_LOWER;
	eval_as(&m, base, 2, near_miss, 2, 5, "!significant !regression");
	ck_assert_double_eq_tol(m.p, 0.0513, 1e-4);
	ck_assert_double_eq_tol(m.change_pct, 600, 1e-9);
	eval_as(&m, base, 2, near_hit, 2, 5, "significant regression");
	ck_assert_double_eq_tol(m.p, 0.0483, 1e-4);
	/* the same shift on a higher-is-better metric is an improvement */
	m.dir = PB_CMP_HIGHER;
	eval_as(&m, base, 2, near_hit, 2, 5, "significant !regression");
	/* and the regression threshold is exclusive at its edge: +20% at 20 */
	m.dir = PB_CMP_LOWER;
	eval_as(&m, (const double[]){ 100, 100 }, 2, (const double[]){ 120, 120 }, 2, 20,
		"significant !regression");
	eval_as(&m, (const double[]){ 100, 100 }, 2, (const double[]){ 120, 120 }, 2, 19.9,
		"regression");
	/* constant and equal: certainly not different */
	eval_as(&m, (const double[]){ 100, 100 }, 2, (const double[]){ 100, 100 }, 2, 0,
		"!significant");
	ck_assert_double_eq(m.p, 1);
	/* one repetition against two equal ones: no test, though both
	 * variances are 0 (the constant-samples rule needs n >= 2 on both) */
	eval_as(&m, (const double[]){ 100 }, 1, (const double[]){ 200, 200 }, 2, 0,
		"!significant !regression");
	ck_assert_double_eq(m.p, -1);
	/* one repetition on either side: no test */
	eval_as(&m, (const double[]){ 100 }, 1, (const double[]){ 200, 201 }, 2, 0, "!significant");
	ck_assert_double_eq(m.p, -1);
	eval_as(&m, (const double[]){ 200, 201 }, 2, (const double[]){ 100 }, 1, 0, "");
	ck_assert_double_eq(m.p, -1);
}
END_TEST

START_TEST(verdict_regression_rule)
{
	ck_assert(pb_cmp_verdict_regression("pass", "fail"));
	ck_assert(pb_cmp_verdict_regression("pass", "error"));
	ck_assert(pb_cmp_verdict_regression(NULL, "fail"));
	ck_assert(pb_cmp_verdict_regression("fail", "error"));
	ck_assert(!pb_cmp_verdict_regression("fail", "fail"));
	ck_assert(!pb_cmp_verdict_regression("error", "error"));
	ck_assert(!pb_cmp_verdict_regression("fail", "pass"));
	ck_assert(!pb_cmp_verdict_regression("pass", "known-deviation"));
	ck_assert(!pb_cmp_verdict_regression("pass", NULL));
}
END_TEST

/* ------------------------------------------------------------ matching */

#define DOC(cmd, params, body) \
	"{\"tool\":\"pipebench\",\"version\":\"0.1.0\",\"schema_version\":1," \
	"\"command\":\"" cmd "\",\"params\":" params "," body "}"

static const char base_tp[] = DOC("throughput", "{\"loops\":200,\"repeat\":3}",
	"\"results\":["
	"{\"kind\":\"anon\",\"size_bytes\":100,\"pipe_size_bytes\":65536,\"tt_ratio_to_first\":null,"
	" \"repetitions\":[{\"tt_ns\":100,\"bytes\":5},{\"tt_ns\":101,\"bytes\":5},{\"tt_ns\":99,\"bytes\":5}],"
	" \"summary\":{\"tt_ns\":{\"mean\":100}}},"
	"{\"kind\":\"fifo\",\"size_bytes\":100,\"pipe_size_bytes\":65536,\"tt_ratio_to_first\":1.2,"
	" \"ratio_label\":\"fifo/anon\","
	" \"repetitions\":[{\"tt_ns\":120,\"bytes\":5},{\"tt_ns\":121,\"bytes\":5},{\"tt_ns\":119,\"bytes\":5}]},"
	"{\"kind\":\"socketpair\",\"size_bytes\":100,\"pipe_size_bytes\":null,"
	" \"repetitions\":[{\"tt_ns\":50,\"bytes\":5},{\"tt_ns\":50,\"bytes\":5}]}"
	"]");

/* Reordered, fifo 10% slower (a ratio changed too), socketpair missing, one extra. */
static const char new_tp[] = DOC("throughput", "{\"loops\":200,\"repeat\":5}",
	"\"results\":["
	"{\"kind\":\"fifo\",\"size_bytes\":100,\"pipe_size_bytes\":65536,\"tt_ratio_to_first\":1.32,"
	" \"ratio_label\":\"fifo/anon\","
	" \"repetitions\":[{\"tt_ns\":132,\"bytes\":5},{\"tt_ns\":133,\"bytes\":5},{\"tt_ns\":131,\"bytes\":5}]},"
	"{\"kind\":\"anon\",\"size_bytes\":100,\"pipe_size_bytes\":65536,\"tt_ratio_to_first\":null,"
	" \"repetitions\":[{\"tt_ns\":100,\"bytes\":5},{\"tt_ns\":100,\"bytes\":5},{\"tt_ns\":100,\"bytes\":5}]},"
	"{\"kind\":\"anon\",\"size_bytes\":4096,\"pipe_size_bytes\":65536,"
	" \"repetitions\":[{\"tt_ns\":10,\"bytes\":5}]}"
	"]");

START_TEST(matching_by_identity)
{
	struct json_object *a = parse(base_tp), *b = parse(new_tp);
	const struct pb_cmp_result *r;
	const struct pb_cmp_metric *m;

	/* anon and fifo: tt_ns, bytes */
	r = compared(a, b, NULL, "nm=4 only_base=1 only_new=1 regressions=1");
	m = get_metric(r, "kind=fifo size_bytes=100 pipe_size_bytes=65536", "tt_ns");
	ck_assert_double_eq_tol(m->change_pct, 10, 1e-9);
	want_flags(m, "significant regression");
	ck_assert_int_eq(m->dir, PB_CMP_LOWER);
	m = get_metric(r, "kind=anon size_bytes=100 pipe_size_bytes=65536", "tt_ns");
	want_flags(m, "!regression");
	ck_assert_uint_eq(m->base.n, 3);
	m = get_metric(r, "kind=anon size_bytes=100 pipe_size_bytes=65536", "bytes");
	ck_assert_int_eq(m->dir, PB_CMP_NEUTRAL);
}
END_TEST

/* throughput --mode: results match by mode; a document from before --mode
 * (no "mode", no "modes") measured rw and matches rw only. */
START_TEST(matching_by_mode)
{
	struct json_object *a = parse(DOC("throughput", "{\"modes\":[\"rw\",\"splice\"]}",
		"\"results\":["
		"{\"kind\":\"anon\",\"mode\":\"rw\",\"repetitions\":[{\"tt_ns\":100},{\"tt_ns\":110}]},"
		"{\"kind\":\"anon\",\"mode\":\"splice\",\"repetitions\":[{\"tt_ns\":50},{\"tt_ns\":55}]}]"));
	struct json_object *b = parse(DOC("throughput", "{\"modes\":[\"rw\",\"splice\"]}",
		"\"results\":["
		"{\"kind\":\"anon\",\"mode\":\"splice\",\"repetitions\":[{\"tt_ns\":50},{\"tt_ns\":55}]},"
		"{\"kind\":\"anon\",\"mode\":\"rw\",\"repetitions\":[{\"tt_ns\":200},{\"tt_ns\":220}]}]"));
	struct json_object *old = parse(DOC("throughput", "{\"loops\":3}",
		"\"results\":[{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":100},{\"tt_ns\":110}]}]"));
	struct json_object *rw = parse(DOC("throughput",
		"{\"loops\":3,\"modes\":[\"rw\"],\"verify\":\"sample\"}",
		"\"results\":[{\"kind\":\"anon\",\"mode\":\"rw\","
		"\"repetitions\":[{\"tt_ns\":100},{\"tt_ns\":110}]}]"));
	struct json_object *sp = parse(DOC("throughput", "{\"loops\":3,\"modes\":[\"splice\"]}",
		"\"results\":[{\"kind\":\"anon\",\"mode\":\"splice\","
		"\"repetitions\":[{\"tt_ns\":100},{\"tt_ns\":110}]}]"));
	const struct pb_cmp_metric *m;
	const struct pb_cmp_result *r;
	char diff[128];

	r = compared(a, b, NULL, "nm=2 only_base=0 only_new=0");
	m = get_metric(r, "kind=anon mode=rw", "tt_ns");
	ck_assert_double_eq_tol(m->change_pct, 100, 1e-9);
	m = get_metric(r, "kind=anon mode=splice", "tt_ns");
	ck_assert_double_eq_tol(m->change_pct, 0, 1e-9);

	ck_assert_uint_eq(pb_cmp_params_diff(old, rw, diff, sizeof(diff)), 0);
	ck_assert_uint_eq(pb_cmp_params_diff(rw, old, diff, sizeof(diff)), 0);
	compared(old, rw, NULL, "nm=1 only_base=0 only_new=0");
	compared(rw, old, NULL, "nm=1");

	/* Which modes ran is a selection, like --only: results match by mode. */
	ck_assert_uint_eq(pb_cmp_params_diff(old, sp, diff, sizeof(diff)), 0);
	compared(old, sp, NULL, "nm=0 only_base=1 only_new=1");
	/* and the other way round: matching needs each side to cover the other */
	compared(sp, old, NULL, "nm=0 only_base=1 only_new=1");
}
END_TEST

START_TEST(ignored_members_rematch)
{
	struct json_object *a = parse(DOC("throughput", "{\"pipe_size_bytes\":null}",
		"\"results\":[{\"kind\":\"anon\",\"pipe_size_bytes\":65536,"
		"\"repetitions\":[{\"tt_ns\":100},{\"tt_ns\":110}]}]")),
		*b = parse(DOC("throughput", "{\"pipe_size_bytes\":8192}",
		"\"results\":[{\"kind\":\"anon\",\"pipe_size_bytes\":8192,"
		"\"repetitions\":[{\"tt_ns\":10},{\"tt_ns\":11}]}]"));
	const struct pb_cmp_result *r;
	char diff[128];

	ck_assert_uint_eq(pb_cmp_params_diff(a, b, diff, sizeof(diff)), 1);
	ck_assert_str_eq(diff, "pipe_size_bytes");
	compared(a, b, NULL, "nm=0 only_base=1");
	r = compared(a, b, diff, "nm=1");
	ck_assert_str_eq(r->m[0].label, "kind=anon");
	ck_assert(r->m[0].change_pct < -80);
	want_flags(&r->m[0], "!regression");
}
END_TEST

START_TEST(params_diff_lists_keys)
{
	struct json_object *a = parse(DOC("messaging",
		"{\"loops\":100,\"groups\":2,\"repeat\":3,\"warmup\":1,\"timeout_ns\":0,\"mode\":\"thread\"}",
		"\"results\":[]"));
	struct json_object *b = parse(DOC("messaging",
		"{\"loops\":200,\"groups\":2,\"repeat\":9,\"warmup\":0,\"timeout_ns\":5,\"fds\":20}",
		"\"results\":[]"));
	char diff[128];

	ck_assert_uint_eq(pb_cmp_params_diff(a, b, diff, sizeof(diff)), 3);
	ck_assert_str_eq(diff, "loops,mode,fds");
	ck_assert_uint_eq(pb_cmp_params_diff(a, a, diff, sizeof(diff)), 0);
	ck_assert_str_eq(diff, "");
	ck_assert_uint_eq(pb_cmp_dirs_diff(a, b, diff, sizeof(diff)), 0);
	ck_assert_str_eq(diff, "");
}
END_TEST

/* The FIFO directory, of the document and of a part, is never a differing
 * parameter; pb_cmp_dirs_diff names it, where it differs and where one
 * side lacks it. */
START_TEST(dirs_diff_apart)
{
	struct json_object *a = parse("{\"command\":\"report\",\"params\":{\"dir\":\"/a\"},"
		"\"parts\":{\"x\":{\"params\":{\"dir\":\"/a\",\"loops\":1}},"
		"\"y\":{\"params\":{\"dir\":\"/a\"}},\"z\":{\"params\":{}}}}");
	struct json_object *b = parse("{\"command\":\"report\",\"params\":{\"dir\":\"/b\"},"
		"\"parts\":{\"x\":{\"params\":{\"dir\":\"/b\",\"loops\":2}},"
		"\"y\":{\"params\":{\"dir\":\"/a\"}},\"z\":{\"params\":{\"dir\":\"/c\"}}}}");
	char diff[128];

	ck_assert_uint_eq(pb_cmp_params_diff(a, b, diff, sizeof(diff)), 1);
	ck_assert_str_eq(diff, "x.loops");
	ck_assert_uint_eq(pb_cmp_dirs_diff(a, b, diff, sizeof(diff)), 3);
	ck_assert_str_eq(diff, "dir,x.dir,z.dir");
	ck_assert_uint_eq(pb_cmp_dirs_diff(a, a, diff, sizeof(diff)), 0);
	ck_assert_str_eq(diff, "");
}
END_TEST

/* ------------------------------------------------------------ verdicts */

START_TEST(verdict_diffs)
{
	struct json_object *a = parse(DOC("conformance", "{}",
		"\"checks\":["
		"{\"id\":\"CRE-01\",\"status\":\"pass\",\"detail\":\"took 3 ms\",\"duration_ns\":3},"
		"{\"id\":\"CRE-02\",\"status\":\"pass\",\"detail\":\"x\"},"
		"{\"id\":\"CRE-03\",\"status\":\"skip\"},"
		"{\"id\":\"CRE-04\",\"status\":\"pass\"}]"));
	struct json_object *b = parse(DOC("conformance", "{}",
		"\"checks\":["
		"{\"id\":\"CRE-02\",\"status\":\"pass\",\"detail\":\"y\"},"
		"{\"id\":\"CRE-01\",\"status\":\"fail\",\"detail\":\"took 4 ms\",\"duration_ns\":4},"
		"{\"id\":\"CRE-03\",\"status\":\"pass\"},"
		"{\"id\":\"CRE-05\",\"status\":\"error\"}]"));
	static const struct {
		const char *label, *base, *cur;  /* NULL: absent on that side */
		bool regression;
	} want[] = {
		{ "CRE-01", "pass", "fail", true }, { "CRE-03", "skip", "pass", false },
		{ "CRE-04", "pass", NULL, false }, { "CRE-05", NULL, "error", true },
	};
	const struct pb_cmp_result *r;

	r = compared(a, b, NULL, "nm=0 nv=4 verdicts_same=1 regressions=2");
	/* CRE-02 changed its detail only: not a verdict that changed */
	ck_assert_ptr_null(find_verdict(r, "CRE-02"));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct pb_cmp_verdict *v = get_verdict(r, want[i].label);

		ck_assert_str_eq(v->key, "status");
		want_side(want[i].label, "BASE", v->base, want[i].base);
		want_side(want[i].label, "NEW", v->cur, want[i].cur);
		ck_assert_msg(v->regression == want[i].regression, "%s", want[i].label);
	}
}
END_TEST

START_TEST(result_verdicts_and_report_parts)
{
	struct json_object *a = parse(DOC("report", "{}",
		"\"parts\":{"
		" \"timestamps\":" DOC("timestamps", "{}",
		"  \"results\":[{\"kind\":\"anon\",\"verdict\":\"frozen\"},"
		"             {\"kind\":\"fifo\",\"verdict\":\"updated\"}]") ","
		" \"throughput\":" DOC("throughput", "{\"loops\":1}",
		"  \"results\":[{\"kind\":\"anon\",\"repetitions\":"
		"   [{\"rate_bytes_per_s\":100},{\"rate_bytes_per_s\":102},{\"rate_bytes_per_s\":98}]}]")
		"}"));
	struct json_object *b = parse(DOC("report", "{}",
		"\"parts\":{"
		" \"timestamps\":" DOC("timestamps", "{}",
		"  \"results\":[{\"kind\":\"anon\",\"verdict\":\"frozen\"},"
		"             {\"kind\":\"fifo\",\"verdict\":\"mixed\"}]") ","
		" \"throughput\":" DOC("throughput", "{\"loops\":2}",
		"  \"results\":[{\"kind\":\"anon\",\"repetitions\":"
		"   [{\"rate_bytes_per_s\":80},{\"rate_bytes_per_s\":81},{\"rate_bytes_per_s\":79}]}]")
		"}"));
	struct json_object *c = parse(DOC("report", "{}",
		"\"parts\":{\"timestamps\":" DOC("conformance", "{}", "\"checks\":[]") "}"));
	const struct pb_cmp_result *r;
	char diff[128], err[256];

	ck_assert_int_eq(pb_cmp_compatible(a, b, err, sizeof(err)), 0);
	ck_assert_int_eq(pb_cmp_compatible(a, c, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "timestamps"));
	ck_assert_uint_eq(pb_cmp_params_diff(a, b, diff, sizeof(diff)), 1);
	ck_assert_str_eq(diff, "throughput.loops");
	r = compared(a, b, diff, "nv=1 verdicts_same=1 nm=1");
	ck_assert_str_eq(r->v[0].part, "timestamps");
	ck_assert_str_eq(r->v[0].label, "kind=fifo");
	ck_assert_str_eq(r->v[0].key, "verdict");
	ck_assert_str_eq(r->v[0].base, "updated");
	ck_assert_str_eq(r->v[0].cur, "mixed");
	ck_assert(!r->v[0].regression);
	ck_assert_str_eq(r->m[0].part, "throughput");
	ck_assert_int_eq(r->m[0].dir, PB_CMP_HIGHER);
	want_flags(&r->m[0], "regression");
}
END_TEST

START_TEST(incompatible_documents)
{
	struct json_object *a = parse(DOC("throughput", "{}", "\"results\":[]"));
	struct json_object *b = parse(DOC("messaging", "{}", "\"results\":[]"));
	struct json_object *c = parse("{\"tool\":\"pipebench\",\"schema_version\":2,"
				      "\"command\":\"throughput\"}");
	char err[256];

	ck_assert_int_eq(pb_cmp_compatible(a, a, err, sizeof(err)), 0);
	ck_assert_int_eq(pb_cmp_compatible(a, b, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "messaging"));
	ck_assert_int_eq(pb_cmp_compatible(a, c, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "schema_version"));
}
END_TEST

/* ------------------------------------------------------------ failed runs */

START_TEST(run_failed_reasons)
{
	static const struct { const char *doc; bool failed; const char *want; } cases[] = {
		{ DOC("throughput", "{}", "\"results\":[],\"errors\":[],\"exit_status\":0"), false, "" },
		{ DOC("conformance", "{}", "\"checks\":[],\"errors\":[],\"exit_status\":1"), false, "" },
		{ DOC("throughput", "{}", "\"results\":[]"), false, "" },
		{ DOC("throughput", "{}", "\"results\":[],\"errors\":[\"--timeout: timed out after 5 s\"],"
		      "\"exit_status\":3"), true,
		  "the run failed (exit status 3: --timeout: timed out after 5 s)" },
		{ DOC("throughput", "{}", "\"results\":[],\"errors\":[],\"exit_status\":3"), true,
		  "the run failed (exit status 3)" },
		{ DOC("conformance", "{}", "\"checks\":[],\"errors\":[\"RD-01: x\",\"RD-02: y\"],"
		      "\"exit_status\":0"), true,
		  "the run reported 2 errors (exit status 0: RD-01: x (and 1 more))" },
		{ DOC("conformance", "{}", "\"checks\":[],\"errors\":[\"CRE-01: x\"],"
		      "\"exit_status\":1"), true,
		  "the run reported 1 error (exit status 1: CRE-01: x)" },
		{ DOC("conformance", "{}", "\"checks\":[],\"errors\":[],\"exit_status\":143"), true,
		  "the run was interrupted (exit status 143)" },
		{ DOC("throughput", "{}", "\"results\":[],\"errors\":[\"nothing to measure\"],"
		      "\"exit_status\":4"), true,
		  "the run had nothing to measure (exit status 4: nothing to measure)" },
		{ DOC("report", "{}", "\"parts\":{\"timestamps\":null,\"o_noatime\":"
		      DOC("o_noatime", "{}", "\"errors\":[\"n/a\"],\"exit_status\":4") ","
		      "\"throughput\":" DOC("throughput", "{}", "\"errors\":[\"anon: timed out\"],"
					  "\"exit_status\":3") "},"
		      "\"errors\":[\"anon: timed out\"],\"exit_status\":3"), true,
		  "part throughput: the run failed (exit status 3: anon: timed out)" },
		{ DOC("report", "{}", "\"parts\":{\"throughput\":null},"
		      "\"errors\":[\"exit status 2 without a JSON document\"],\"exit_status\":3"), true,
		  "the run failed (exit status 3: exit status 2 without a JSON document)" },
		/* no errors member at all; an error that is not a string is
		 * counted, the first string one quoted */
		{ DOC("throughput", "{}", "\"results\":[],\"exit_status\":3"), true,
		  "the run failed (exit status 3)" },
		{ DOC("throughput", "{}", "\"results\":[],\"errors\":[7,\"x\"],\"exit_status\":0"),
		  true, "the run reported 2 errors (exit status 0: x (and 1 more))" },
		{ DOC("throughput", "{}", "\"results\":[],\"errors\":[7],\"exit_status\":3"), true,
		  "the run failed (exit status 3)" },
		/* no exit status: 0; errors without a string among them; 128 is a failure */
		{ DOC("throughput", "{}", "\"results\":[],\"errors\":[\"x\"]"), true,
		  "the run reported 1 error (exit status 0: x)" },
		{ DOC("throughput", "{}", "\"results\":[],\"errors\":[7,8],\"exit_status\":3"), true,
		  "the run failed (exit status 3)" },
		{ DOC("throughput", "{}", "\"errors\":[],\"exit_status\":128"), true,
		  "the run failed (exit status 128)" },
		{ DOC("throughput", "{}", "\"errors\":[],\"exit_status\":129"), true,
		  "the run was interrupted (exit status 129)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct json_object *d = parse(cases[i].doc);
		char why[256] = "";

		ck_assert_msg(pb_cmp_run_failed(d, why, sizeof(why)) == cases[i].failed,
			      "case %zu: %s", i, why);
		if (cases[i].failed)
			ck_assert_str_eq(why, cases[i].want);
	}
}
END_TEST

/* ------------------------------------------------------------ coverage */

static const struct pb_cmp_lost *find_lost(const struct pb_cmp_result *r, const char *label)
{
	for (size_t i = 0; i < r->nlost; i++)
		if (!strcmp(r->lost[i].label, label))
			return &r->lost[i];
	return NULL;
}

/* LABEL's coverage is lost, and WHY (NULL: it is not lost). */
static const struct pb_cmp_lost *want_lost(const struct pb_cmp_result *r, const char *label,
					   const char *why)
{
	const struct pb_cmp_lost *l = find_lost(r, label);

	if (!why) {
		ck_assert_msg(l == NULL, "%s lost: %s", label, l ? l->why : "");
		return NULL;
	}
	ck_assert_msg(l != NULL, "%s not lost", label);
	ck_assert_str_eq(l->why, why);
	return l;
}

START_TEST(coverage_lost_checks)
{
	struct json_object *a = parse(DOC("conformance", "{}",
		"\"checks\":["
		"{\"id\":\"FIFO-01\",\"status\":\"pass\"},"
		"{\"id\":\"LX-03\",\"status\":\"fail\"},"
		"{\"id\":\"LX-04\",\"status\":\"skip\"},"
		"{\"id\":\"LX-05\",\"status\":\"pass\"},"
		"{\"id\":\"CRE-01\",\"status\":\"pass\"}]"));
	struct json_object *b = parse(DOC("conformance", "{}",
		"\"checks\":["
		"{\"id\":\"FIFO-01\",\"status\":\"skip\",\"detail\":\"needs root\"},"
		"{\"id\":\"LX-03\",\"status\":\"skip\"},"
		"{\"id\":\"CRE-01\",\"status\":\"pass\"},"
		"{\"id\":\"CRE-02\",\"status\":\"skip\"}]"));
	const struct pb_cmp_result *r;

	/* coverage is not a regression */
	r = compared(a, b, NULL, "nlost=3 regressions=0 base_results=5 new_results=4 matched=3");
	ck_assert_ptr_nonnull(want_lost(r, "FIFO-01", "skip in NEW: needs root")->ids);
	want_lost(r, "LX-03", "skip in NEW");
	want_lost(r, "LX-05", "absent in NEW");
	want_lost(r, "LX-04", NULL);  /* skipped in BASE too */
	want_lost(r, "CRE-02", NULL); /* new in NEW */
	/* Nothing lost the other way round but LX-04 was not covered anyway. */
	compared(b, a, NULL, "nlost=0");
}
END_TEST

START_TEST(coverage_lost_results)
{
	struct json_object *a = parse(DOC("throughput", "{}",
		"\"results\":["
		"{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":100,\"tw_ns\":50},{\"tt_ns\":101,\"tw_ns\":51}],"
		" \"summary\":{\"tt_ns\":{\"mean\":100}}},"
		"{\"kind\":\"fifo\",\"repetitions\":[{\"tt_ns\":100,\"tw_ns\":50},{\"tt_ns\":101,\"tw_ns\":51}]},"
		"{\"kind\":\"socketpair\",\"repetitions\":[{\"tt_ns\":100},{\"tt_ns\":101}]},"
		"{\"kind\":\"vmsplice\",\"repetitions\":[]}]"));
	/* anon: timed out (no repetitions, summary null); fifo: tw_ns missing;
	 * socketpair: absent; vmsplice had nothing in BASE either. */
	struct json_object *b = parse(DOC("throughput", "{}",
		"\"results\":["
		"{\"kind\":\"anon\",\"repetitions\":[],\"summary\":null},"
		"{\"kind\":\"fifo\",\"repetitions\":[{\"tt_ns\":100},{\"tt_ns\":101}]}]"));
	const struct pb_cmp_result *r;

	r = compared(a, b, NULL, "nlost=3 nm=1 matched=1 paired=2");
	want_lost(r, "kind=anon", "no repetitions in NEW");
	want_lost(r, "kind=fifo", "not measured in NEW: tw_ns");
	want_lost(r, "kind=socketpair", "absent in NEW");
	want_lost(r, "kind=vmsplice", NULL);

	/* repetitions on one side only: lost only where BASE had some and NEW
	 * none; BASE without them (or with none) loses nothing */
	a = parse(DOC("throughput", "{}",
		"\"results\":["
		"{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":100},{\"tt_ns\":101}]},"
		"{\"kind\":\"fifo\",\"tt_ns\":100},"
		"{\"kind\":\"socketpair\",\"repetitions\":[]}]"));
	b = parse(DOC("throughput", "{}",
		"\"results\":["
		"{\"kind\":\"anon\",\"tt_ns\":100},"
		"{\"kind\":\"fifo\",\"repetitions\":[{\"tt_ns\":100},{\"tt_ns\":101}]},"
		"{\"kind\":\"socketpair\",\"tt_ns\":100}]"));
	r = compared(a, b, NULL, "nlost=1");
	want_lost(r, "kind=anon", "no repetitions in NEW");
	want_lost(r, "kind=fifo", NULL);
	want_lost(r, "kind=socketpair", NULL);
}
END_TEST

START_TEST(coverage_lost_verdicts_and_parts)
{
	struct json_object *a = parse(DOC("report", "{}",
		"\"parts\":{"
		" \"timestamps\":" DOC("timestamps", "{}",
		"  \"results\":[{\"kind\":\"anon\",\"verdict\":\"frozen\"},"
		"             {\"kind\":\"fifo\",\"verdict\":\"updated\"}]") ","
		" \"throughput\":" DOC("throughput", "{}",
		"  \"results\":[{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]}]") ","
		" \"messaging\":" DOC("messaging", "{}",
		"  \"results\":[{\"kind\":\"pipe\",\"repetitions\":[{\"elapsed_ns\":1},{\"elapsed_ns\":2}]}]")
		"}"));
	struct json_object *b = parse(DOC("report", "{}",
		"\"parts\":{"
		" \"timestamps\":" DOC("timestamps", "{}",
		"  \"results\":[{\"kind\":\"anon\",\"verdict\":\"frozen\"},"
		"             {\"kind\":\"fifo\",\"verdict\":\"undetermined\","
		"              \"verdict_detail\":\"clock too coarse\"}]") ","
		" \"throughput\":null},"
		"\"part_runs\":{\"throughput\":{\"exit_status\":null,\"error\":\"timed out after 120 s\"}}"));
	const struct pb_cmp_result *r;
	const struct pb_cmp_lost *l;

	r = compared(a, b, NULL, "nlost=3 base_results=4 new_results=2");
	l = want_lost(r, "kind=fifo", "undetermined in NEW: clock too coarse");
	ck_assert_str_eq(l->part, "timestamps");
	for (size_t i = 0; i < r->nlost; i++) {
		l = &r->lost[i];
		if (!strcmp(l->part, "throughput")) {
			ck_assert_str_eq(l->label, "(all results)");
			ck_assert_ptr_null(l->ids);
			ck_assert_str_eq(l->why, "part not measured in NEW (timed out after 120 s)");
		} else if (!strcmp(l->part, "messaging")) {
			ck_assert_str_eq(l->why, "part absent in NEW");
		} else {
			ck_assert_str_eq(l->part, "timestamps");
		}
	}
}
END_TEST

/* A part that is a document with parts of its own (a report of reports):
 * its results are counted at every depth, lost when BASE has it alone and
 * new when NEW has it alone. */
START_TEST(nested_parts_count_their_results)
{
	struct json_object *a = parse(DOC("report", "{}",
		"\"parts\":{"
		" \"outer\":" DOC("report", "{}",
		"  \"parts\":{\"inner\":" DOC("throughput", "{}",
		"   \"results\":[{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]},"
		"               {\"kind\":\"fifo\",\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]}]") ","
		"   \"note\":\"not a document\"}")
		"}"));
	struct json_object *b = parse(DOC("report", "{}", "\"parts\":{}"));

	compared(a, b, NULL, "base_results=2 new_results=0 nlost=1");
	compared(b, a, NULL, "base_results=0 new_results=2 nlost=0");
	/* a part named "" (an empty key is still a part): compared, as any */
	a = parse(DOC("report", "{}", "\"parts\":{\"\":" DOC("throughput", "{}",
		"\"results\":[{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]}]") "}"));
	compared(a, a, NULL, "base_results=1 new_results=1 nm=1 regressions=0");
}
END_TEST

START_TEST(nothing_in_common)
{
	struct json_object *a = parse(DOC("throughput", "{}",
		"\"results\":[{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]}]"));
	struct json_object *b = parse(DOC("throughput", "{}",
		"\"results\":[{\"kind\":\"fifo\",\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]}]"));
	struct json_object *e = parse(DOC("throughput", "{}", "\"results\":[]"));

	compared(a, b, NULL, "matched=0 paired=0 base_results=1 new_results=1 nlost=1");
	compared(a, e, NULL, "matched=0 new_results=0");
	compared(a, a, NULL, "matched=1 nlost=0");
}
END_TEST

/* Descriptive members (by name, and by each of the suffixes _detail,
 * _description and _label) differ between the sides: they identify nothing,
 * so the rows still pair and no label names them. */
START_TEST(descriptive_members_identify_nothing)
{
	static const char *const keys[] = { "note", "verdict_detail", "mode_description",
					     "size_label", "ratio_label", "_detail" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char da[512], db[512];
		struct json_object *a, *b;
		const struct pb_cmp_result *r;

		snprintf(da, sizeof(da), DOC("throughput", "{}",
			"\"results\":[{\"kind\":\"anon\",\"%s\":\"fifo/anon\","
			"\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]}]"), keys[i]);
		snprintf(db, sizeof(db), DOC("throughput", "{}",
			"\"results\":[{\"kind\":\"anon\",\"%s\":\"anon/fifo\","
			"\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]}]"), keys[i]);
		a = parse(da);
		b = parse(db);
		r = compared(a, b, NULL, "matched=1 paired=1 nlost=0 only_base=0 only_new=0");
		ck_assert_uint_ge(r->nm, 1);
		for (size_t j = 0; j < r->nm; j++)
			ck_assert_msg(!strcmp(r->m[j].label, "kind=anon"), "%s: label %s", keys[i],
				      r->m[j].label);
	}
}
END_TEST

/* A BASE result absent in NEW is lost only when it held a measurement: a
 * repetition or a directional number; one with only identity, words and
 * neutral numbers held none. */
START_TEST(absent_without_data_is_not_lost)
{
	struct json_object *a = parse(DOC("throughput", "{}",
		"\"results\":[{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]},"
		"{\"kind\":\"fifo\",\"size_bytes\":100,\"skipped\":\"no directory\"},"
		"{\"kind\":\"socketpair\",\"repetitions\":[]},"
		"{\"kind\":\"vmsplice\",\"size_bytes\":100,\"rate_bytes_per_s\":5}]"));
	struct json_object *b = parse(DOC("throughput", "{}",
		"\"results\":[{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]}]"));
	const struct pb_cmp_result *r;

	r = compared(a, b, NULL, "only_base=3 nlost=1");
	ck_assert_str_eq(r->lost[0].why, "absent in NEW");
	ck_assert_ptr_nonnull(strstr(r->lost[0].label, "kind=vmsplice"));
}
END_TEST

/* A report part without a command on one side (a part that never ran) and
 * with one on the other: compatible, each side's command read only where it
 * is. */
START_TEST(part_without_command)
{
	struct json_object *a = parse(DOC("report", "{}",
		"\"parts\":{\"timestamps\":{\"tool\":\"pipebench\",\"schema_version\":1,"
		"\"params\":{},\"results\":[]}}"));
	struct json_object *b = parse(DOC("report", "{}",
		"\"parts\":{\"timestamps\":" DOC("timestamps", "{}", "\"results\":[]") "}"));
	char err[256] = "";

	ck_assert_int_eq(pb_cmp_compatible(a, b, err, sizeof(err)), 0);
	ck_assert_int_eq(pb_cmp_compatible(b, a, err, sizeof(err)), 0);
}
END_TEST

/* With alloc_fails_at N, the library's Nth allocation from then on
 * (malloc, calloc, realloc or strdup, counted in allocs_seen) fails: each
 * way out of memory in turn.  json-c's own allocations are never counted. */
static unsigned alloc_fails_at, allocs_seen;

static bool alloc_fails(void)
{
	return alloc_fails_at && ++allocs_seen == alloc_fails_at;
}

void *__real_malloc(size_t size);

/* strdup of this text fails with ENOMEM while set (the library is linked
 * statically, so its calls come here). */
static const char *strdup_fails_for;

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p;

	if (strdup_fails_for && strcmp(s, strdup_fails_for) == 0) {
		errno = ENOMEM;
		return NULL;
	}
	p = __real_malloc(n);
	return p ? memcpy(p, s, n) : NULL;
}

/* Out of memory copying a verdict's part name: the comparison fails with
 * ENOMEM, never a verdict without its part. */
START_TEST(verdict_part_out_of_memory)
{
	struct json_object *a = parse(DOC("report", "{}",
		"\"parts\":{\"timestamps\":" DOC("timestamps", "{}",
		"\"results\":[{\"kind\":\"anon\",\"verdict\":\"frozen\"}]") "}"));
	struct json_object *b = parse(DOC("report", "{}",
		"\"parts\":{\"timestamps\":" DOC("timestamps", "{}",
		"\"results\":[{\"kind\":\"anon\",\"verdict\":\"updated\"}]") "}"));
	struct pb_cmp_result r;
	int rc;

	compared(a, b, NULL, "nv=1 verdicts_same=0");
	ck_assert_str_eq(result.v[0].part, "timestamps");
	strdup_fails_for = "timestamps";
	rc = cmp(a, b, NULL, &r);
	strdup_fails_for = NULL;
	ck_assert_int_eq(rc, -ENOMEM);
}
END_TEST

/* calloc of the verdict grid's rows (4096 pointers) fails while set; the
 * library's calls come here (linked with -Wl,--wrap=calloc). */
static bool grid_calloc_fails;
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);

void *__wrap_calloc(size_t n, size_t size)
{
	if ((grid_calloc_fails && n == 4096 && size == sizeof(void *)) || alloc_fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_calloc(n, size);
}

/* With stats_malloc_fails, the library's malloc of 13 doubles (a metric's
 * samples sorted by pb_stats_compute, 13 repetitions) fails (linked with
 * -Wl,--wrap=malloc); every other allocation goes on. */
static bool stats_malloc_fails;
void *__wrap_malloc(size_t size);

void *__wrap_malloc(size_t size)
{
	if ((stats_malloc_fails && size == 13 * sizeof(double)) || alloc_fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_malloc(size);
}

/* A metric whose statistics cannot be had (no memory) makes the comparison
 * fail with ENOMEM: never a result with the metric silently left out, nor
 * one with only the coverage BASE's other metric lost in NEW. */
START_TEST(metric_without_memory_is_an_error)
{
	char doc[2][2048];
	struct json_object *d[2];
	struct pb_cmp_opts o = { .threshold_pct = 5 };

	for (int k = 0; k < 2; k++) {
		int off = snprintf(doc[k], sizeof(doc[k]), "%s", "{\"tool\":\"pipebench\","
				   "\"schema_version\":1,\"command\":\"throughput\",\"params\":{},"
				   "\"results\":[{\"kind\":\"anon\",\"mode\":\"rw\",\"size_bytes\":4096,"
				   "\"repetitions\":[");

		for (int i = 0; i < 13; i++)  /* BASE's tt_ns first: lost in NEW, seen first */
			off += snprintf(doc[k] + off, sizeof(doc[k]) - (size_t)off,
					"%s{%s\"rate_bytes_per_s\":%d}", i ? "," : "",
					k ? "" : "\"tt_ns\":5,", 1000 + i + k);
		snprintf(doc[k] + off, sizeof(doc[k]) - (size_t)off, "]}]}");
		d[k] = parse(doc[k]);
	}
	ck_assert_int_eq(pb_cmp_compare(d[0], d[1], &o, &result), 0);
	ck_assert_ptr_nonnull(find_metric(&result, "kind=anon mode=rw size_bytes=4096",
					  "rate_bytes_per_s"));
	pb_cmp_result_free(&result);
	/* freed, the result is empty, and freeing it again does nothing */
	ck_assert_ptr_null(result.m);
	ck_assert_uint_eq(result.nm, 0);
	pb_cmp_result_free(&result);
	for (int differ = 0; differ < 2; differ++) {  /* and with parameters that differ */
		o.differ = differ ? "loops" : NULL;
		stats_malloc_fails = true;
		ck_assert_int_eq(pb_cmp_compare(d[0], d[1], &o, &result), -ENOMEM);
		stats_malloc_fails = false;   /* pb_cmp_compare freed what it had made */
	}
}
END_TEST

/* With strdup_fails_for set, strdup() of that exact text fails (linked
 * with -Wl,--wrap=strdup): one place's copy, the rest go on. */
static const char *strdup_fails_for;
char *__real_strdup(const char *s);
char *__wrap_strdup(const char *s);

char *__wrap_strdup(const char *s)
{
	if ((strdup_fails_for && s && !strcmp(s, strdup_fails_for)) || alloc_fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_strdup(s);
}

/* A result lost in NEW whose reason or label cannot be copied: the
 * comparison fails with ENOMEM (not another errno, and not a lost entry
 * without one). */
START_TEST(lost_without_memory_is_an_error)
{
	struct json_object *a = parse(base_tp), *b = parse(new_tp);
	struct pb_cmp_result r;

	strdup_fails_for = "absent in NEW";
	ck_assert_int_eq(cmp(a, b, NULL, &r), -ENOMEM);
	strdup_fails_for = NULL;
	ck_assert_int_eq(cmp(a, b, NULL, &r), 0);
	ck_assert_uint_eq(r.nlost, 1);
	ck_assert_str_eq(r.lost[0].why, "absent in NEW");
	/* and its label */
	char label[128];

	snprintf(label, sizeof(label), "%s", r.lost[0].label);
	pb_cmp_result_free(&r);
	strdup_fails_for = label;
	ck_assert_int_eq(cmp(a, b, NULL, &r), -ENOMEM);
	strdup_fails_for = NULL;
}
END_TEST

/* compare BASE NEW1 NEW2 with a verdict that changed: the grid of verdicts
 * x documents in the text; without memory for it, the rest still printed
 * and the exit status the same. */
START_TEST(grid_without_memory_is_left_out)
{
	char dir[] = "/tmp/pb-check-cmpgrid.XXXXXX", f[4][96];
	static const char *const docs[3] = {
		DOC("timestamps", "{}", "\"results\":[{\"kind\":\"fifo\",\"verdict\":\"updated\"}]"),
		DOC("timestamps", "{}", "\"results\":[{\"kind\":\"fifo\",\"verdict\":\"frozen\"}]"),
		DOC("timestamps", "{}", "\"results\":[{\"kind\":\"fifo\",\"verdict\":\"mixed\"}]"),
	};
	const char *av[] = { "compare", "-q", "--output", f[3], f[0], f[1], f[2], NULL };
	int first = -1;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (int i = 0; i < 4; i++)
		snprintf(f[i], sizeof(f[i]), "%s/%d", dir, i);
	for (int i = 0; i < 3; i++) {
		FILE *fp = fopen(f[i], "we");

		ck_assert_ptr_nonnull(fp);
		fputs(docs[i], fp);
		ck_assert_int_eq(fclose(fp), 0);
	}
	for (int fails = 0; fails < 2; fails++) {
		FILE *fp;
		char text[4096];
		size_t n;
		int rc;

		grid_calloc_fails = fails;
		rc = pb_cmd_run(&pb_cmd_compare, 7, av);
		grid_calloc_fails = false;
		ck_assert(rc == PB_EXIT_OK || rc == PB_EXIT_FAIL);
		if (first < 0)
			first = rc;
		ck_assert_int_eq(rc, first);
		fp = fopen(f[3], "re");
		ck_assert_ptr_nonnull(fp);
		n = fread(text, 1, sizeof(text) - 1, fp);
		text[n] = '\0';
		fclose(fp);
		ck_assert_msg(strstr(text, "kind=fifo: verdict updated -> frozen"), "%s", text);
		ck_assert_msg((strstr(text, "verdicts that changed, checks x documents") == NULL) == fails,
			      "%s", text);
	}
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(unlink(f[i]), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* ------------------------------------------------------------ workloads */

START_TEST(extensive_metrics)
{
	want_names(pb_cmp_is_extensive, "extensive", "tt_ns elapsed_ns cpu_user_ns voluntary_ctxsw",
		   "ns_per_syscall syscalls_per_message rate_bytes_per_s bytes tt_ratio");
	want_names(pb_cmp_is_workload, "a workload", "bytes messages syscalls", "tt_ratio tt_ns");
}
END_TEST

/* Twice the loops: twice the time and bytes; the same cost per byte. */
static const char work1[] = DOC("throughput", "{\"loops\":100}",
	"\"results\":[{\"kind\":\"anon\",\"repetitions\":["
	"{\"tt_ns\":1000,\"bytes\":100,\"rate_bytes_per_s\":1e8},"
	"{\"tt_ns\":1010,\"bytes\":100,\"rate_bytes_per_s\":0.99e8},"
	"{\"tt_ns\":990,\"bytes\":100,\"rate_bytes_per_s\":1.01e8}]}]");
static const char work2[] = DOC("throughput", "{\"loops\":200}",
	"\"results\":[{\"kind\":\"anon\",\"repetitions\":["
	"{\"tt_ns\":2000,\"bytes\":200,\"rate_bytes_per_s\":1e8},"
	"{\"tt_ns\":2020,\"bytes\":200,\"rate_bytes_per_s\":0.99e8},"
	"{\"tt_ns\":1980,\"bytes\":200,\"rate_bytes_per_s\":1.01e8}]}]");
/* Twice the loops, three times the time: 50% more per byte. */
static const char work3[] = DOC("throughput", "{\"loops\":200}",
	"\"results\":[{\"kind\":\"anon\",\"repetitions\":["
	"{\"tt_ns\":3000,\"bytes\":200},{\"tt_ns\":3030,\"bytes\":200},{\"tt_ns\":2970,\"bytes\":200}]}]");

/* Twice the loops, and 0 bytes counted (a run that moved nothing): nothing
 * to divide by. */
static const char work4[] = DOC("throughput", "{\"loops\":200}",
	"\"results\":[{\"kind\":\"anon\",\"repetitions\":["
	"{\"tt_ns\":3000,\"bytes\":0},{\"tt_ns\":3030,\"bytes\":0},"
	"{\"tt_ns\":2970,\"bytes\":0}]}]");

START_TEST(different_work_compared_per_unit)
{
	struct json_object *a = parse(work1), *b = parse(work2), *c = parse(work3), *d = parse(work4);
	const struct pb_cmp_result *r;
	const struct pb_cmp_metric *m;
	const char *k = "kind=anon";
	char diff[64];

	ck_assert_uint_eq(pb_cmp_params_diff(a, b, diff, sizeof(diff)), 1);
	r = compared(a, b, diff, "regressions=0 not_comparable=1");
	m = get_metric(r, k, "tt_ns");
	ck_assert_double_eq_tol(m->change_pct, 100, 1e-9);
	want_flags(m, "significant !comparable !regression");
	want_flags(get_metric(r, k, "rate_bytes_per_s"), "comparable !regression");
	m = get_metric(r, k, "tt_ns_per_byte");
	want_flags(m, "derived comparable !regression");
	ck_assert_int_eq(m->dir, PB_CMP_LOWER);
	ck_assert_double_eq_tol(m->base.mean, 10, 1e-9);
	ck_assert_double_eq_tol(m->change_pct, 0, 1e-9);

	r = compared(a, c, diff, "regressions=1");
	want_flags(get_metric(r, k, "tt_ns"), "!regression");
	m = get_metric(r, k, "tt_ns_per_byte");
	ck_assert_double_eq_tol(m->change_pct, 50, 1e-9);
	want_flags(m, "regression");

	/* Same parameters but a workload count that moved: the same rule. */
	r = compared(a, c, NULL, "");
	want_flags(get_metric(r, k, "tt_ns"), "!comparable");
	want_flags(get_metric(r, k, "tt_ns_per_byte"), "regression");
	/* Same work: times are compared as they are, and nothing is derived. */
	r = compared(c, c, NULL, "");
	want_flags(get_metric(r, k, "tt_ns"), "comparable");
	ck_assert_ptr_null(find_metric(r, k, "tt_ns_per_byte"));
	/* NEW moved no bytes: the total is not comparable and no per-byte
	 * figure is made up, in either direction; the comparison goes on. */
	r = compared(a, d, diff, "regressions=0 not_comparable=1");
	want_flags(get_metric(r, k, "tt_ns"), "!comparable");
	ck_assert_ptr_null(find_metric(r, k, "tt_ns_per_byte"));
	r = compared(d, a, diff, "regressions=0 not_comparable=1");
	ck_assert_ptr_null(find_metric(r, k, "tt_ns_per_byte"));
}
END_TEST

START_TEST(different_work_per_part)
{
	/* Only throughput's parameters differ: messaging's times still count. */
	struct json_object *a = parse(DOC("report", "{}",
		"\"parts\":{\"throughput\":" DOC("throughput", "{\"loops\":1}",
		"  \"results\":[{\"kind\":\"anon\",\"repetitions\":"
		"   [{\"tt_ns\":100,\"syscalls\":10},{\"tt_ns\":101,\"syscalls\":10},{\"tt_ns\":99,\"syscalls\":10}]}]") ","
		" \"messaging\":" DOC("messaging", "{\"loops\":1}",
		"  \"results\":[{\"kind\":\"pipe\",\"repetitions\":"
		"   [{\"elapsed_ns\":100,\"messages\":10},{\"elapsed_ns\":101,\"messages\":10},"
		"    {\"elapsed_ns\":99,\"messages\":10}]}]") "}"));
	struct json_object *b = parse(DOC("report", "{}",
		"\"parts\":{\"throughput\":" DOC("throughput", "{\"loops\":2}",
		"  \"results\":[{\"kind\":\"anon\",\"repetitions\":"
		"   [{\"tt_ns\":200,\"syscalls\":10},{\"tt_ns\":202,\"syscalls\":10},{\"tt_ns\":198,\"syscalls\":10}]}]") ","
		" \"messaging\":" DOC("messaging", "{\"loops\":1}",
		"  \"results\":[{\"kind\":\"pipe\",\"repetitions\":"
		"   [{\"elapsed_ns\":200,\"messages\":10},{\"elapsed_ns\":202,\"messages\":10},"
		"    {\"elapsed_ns\":198,\"messages\":10}]}]") "}"));
	const struct pb_cmp_result *r;
	char diff[64];

	ck_assert_uint_eq(pb_cmp_params_diff(a, b, diff, sizeof(diff)), 1);
	ck_assert_str_eq(diff, "throughput.loops");
	r = compared(a, b, diff, "regressions=2 not_comparable=1");
	for (size_t i = 0; i < r->nm; i++) {
		const struct pb_cmp_metric *m = &r->m[i];

		if (!strcmp(m->metric, "tt_ns"))
			want_flags(m, "!comparable !regression");
		else if (!strcmp(m->metric, "tt_ns_per_syscall"))
			want_flags(m, "derived regression");
		else if (!strcmp(m->metric, "elapsed_ns"))
			want_flags(m, "comparable regression");
		else
			ck_assert_msg(pb_cmp_is_workload(m->metric), "unexpected %s", m->metric);
	}
}
END_TEST

/* ------------------------------------------------------------ loading */

static int load_text(const char *text, char *err, size_t errlen)
{
	char dir[] = "/tmp/pb-check-compare.XXXXXX", path[64];
	struct json_object *doc = NULL;
	FILE *fp;
	int r;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f.json", dir);
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	r = pb_cmp_load(path, &doc, err, errlen);
	unlink(path);
	rmdir(dir);
	if (r == 0)
		json_object_put(doc);
	else
		ck_assert_ptr_null(doc);
	return r;
}

/* Latency: percentiles and counters per round trip are lower-is-better and
 * are not totals, so a --duration run that made fewer round trips is still
 * judged on them; its elapsed time is compared per round trip. */
#define LAT_REP(rt, p50, p99, rate, mig) \
	"{\"round_trips\":" rt ",\"elapsed_ns\":1000000,\"rtt_p50_ns\":" p50 "," \
	"\"rtt_p99_ns\":" p99 ",\"round_trips_per_s\":" rate "," \
	"\"migrations_per_round_trip\":" mig ",\"cpus_a\":\"0\",\"histogram\":[[1,1,1]]}"
/* A latency document: "same" measured with REPS (three LAT_REPs), "numa" skipped. */
#define LAT_DOC(reps) DOC("latency", "{\"duration_ns\":1000000}", \
	"\"results\":[{\"kind\":\"anon\",\"placement\":\"same\",\"asked_cpus\":\"0,0\"," \
	"\"status\":\"ok\",\"repetitions\":[" reps "]}," \
	"{\"kind\":\"anon\",\"placement\":\"numa\",\"asked_cpus\":\"any\"," \
	"\"status\":\"skip\",\"reason\":\"one node\"}]")
static const char lat_base[] = LAT_DOC(
	LAT_REP("1000", "50", "100", "1e6", "0.01") ","
	LAT_REP("1001", "51", "101", "1.001e6", "0.011") ","
	LAT_REP("999", "49", "99", "0.999e6", "0.009"));
static const char lat_new[] = LAT_DOC(
	LAT_REP("900", "50", "200", "0.9e6", "0.05") ","
	LAT_REP("901", "51", "201", "0.901e6", "0.051") ","
	LAT_REP("899", "49", "199", "0.899e6", "0.049"));

START_TEST(latency_documents)
{
	struct json_object *a = parse(lat_base), *b = parse(lat_new);
	const struct pb_cmp_result *r;
	const char *k = "kind=anon placement=same asked_cpus=0,0";

	ck_assert_int_eq(pb_cmp_direction("rtt_p99_99_ns"), PB_CMP_LOWER);
	ck_assert_int_eq(pb_cmp_direction("round_trips_per_s"), PB_CMP_HIGHER);
	ck_assert_int_eq(pb_cmp_direction("migrations_per_round_trip"), PB_CMP_LOWER);
	ck_assert_int_eq(pb_cmp_direction("context_switches_per_round_trip"), PB_CMP_LOWER);
	ck_assert_int_eq(pb_cmp_direction("voluntary_ctxsw_per_round_trip"), PB_CMP_LOWER);
	ck_assert_int_eq(pb_cmp_direction("round_trips"), PB_CMP_NEUTRAL);
	want_names(pb_cmp_is_extensive, "extensive", "elapsed_ns", "rtt_p99_ns");
	r = compared(a, b, NULL, "regressions=3 inconclusive=0");
	want_flags(get_metric(r, k, "rtt_p99_ns"), "comparable regression !side");
	want_flags(get_metric(r, k, "rtt_p50_ns"), "comparable !regression");
	ck_assert_int_eq(get_metric(r, k, "round_trips_per_s")->dir, PB_CMP_HIGHER);
	want_flags(get_metric(r, k, "round_trips_per_s"), "regression");
	/* a side counter: significantly worse, shown, no regression */
	want_flags(get_metric(r, k, "migrations_per_round_trip"), "significant side !regression");
	/* --metrics: only what it names gates, side counters too */
	metrics_opt = "migrations_*,nothing";
	r = compared(a, b, NULL, "regressions=1");
	want_flags(get_metric(r, k, "migrations_per_round_trip"), "!side regression");
	want_flags(get_metric(r, k, "rtt_p99_ns"), "side !regression");
	metrics_opt = "rtt_p99*";
	r = compared(a, b, NULL, "regressions=1");
	want_flags(get_metric(r, k, "rtt_p99_ns"), "regression");
	metrics_opt = NULL;
	r = compared(a, b, NULL, "regressions=3");
	/* Fewer round trips in the same time: the total is not comparable, the
	 * time per round trip is (and got worse). */
	want_flags(get_metric(r, k, "elapsed_ns"), "!comparable !regression");
	want_flags(get_metric(r, k, "elapsed_ns_per_round_trip"), "derived regression");
	/* Against itself: nothing. */
	compared(a, a, NULL, "regressions=0");
}
END_TEST

/* Side counters and --metrics patterns. */
START_TEST(gating_metrics)
{
	static const char *const side[] = { "voluntary_ctxsw", "involuntary_ctxsw",
		"context_switches_per_round_trip", "cpu_user_ns", "cpu_sys_ns",
		"migrations_per_round_trip", NULL };
	static const char *const headline[] = { "tt_ns", "rtt_p99_ns", "elapsed_ns",
		"rate_bytes_per_s", "ns_per_syscall", "tt_ns_per_byte", "round_trips_per_s", NULL };

	for (size_t i = 0; side[i]; i++)
		ck_assert_msg(!pb_cmp_gates(side[i], NULL), "%s gates", side[i]);
	for (size_t i = 0; headline[i]; i++)
		ck_assert_msg(pb_cmp_gates(headline[i], NULL), "%s does not gate", headline[i]);
	ck_assert(pb_cmp_gates("cpu_sys_ns", "cpu_*"));
	ck_assert(pb_cmp_gates("tt_ns", "rtt_*,tt_ns"));
	ck_assert(!pb_cmp_gates("tt_ns_per_byte", "rtt_*,tt_ns"));
	ck_assert(!pb_cmp_gates("tt_ns", ""));
	ck_assert(!pb_cmp_gates("tt_ns", ",,"));
	ck_assert(pb_cmp_gates("tt_ns", ",tt_ns,"));
}
END_TEST

/* A throughput document in BUF: one anon result with stability STAB
 * (NULL: none, an older document) and tt_ns AT - 1, AT, AT + 1. */
static const char *tp_stab_doc(char *buf, size_t len, const char *stab, int at)
{
	char member[64] = "";

	if (stab)
		snprintf(member, sizeof(member), "\"stability\":\"%s\",", stab);
	snprintf(buf, len, DOC("throughput", "{}",
		"\"results\":[{\"kind\":\"anon\",%s\"repetitions\":[{\"tt_ns\":%d},"
		"{\"tt_ns\":%d},{\"tt_ns\":%d}]}]"), member, at, at + 1, at - 1);
	return buf;
}

/* A result whose stability is not stable on either side: every metric of
 * it inconclusive, none a regression; stable on both, or no verdict (an
 * older document), judged as before. */
START_TEST(unstable_is_inconclusive)
{
	static const char *const words[] = { "noisy", "bimodal", "disturbed" };
	char doc_a[400], doc_b[400];
	const struct pb_cmp_result *r;

	for (int side = 0; side < 2; side++)
		for (size_t w = 0; w < 3; w++) {
			r = compared(parse(tp_stab_doc(doc_a, sizeof(doc_a), side ? "stable" : words[w],
						       100)),
				     parse(tp_stab_doc(doc_b, sizeof(doc_b), side ? words[w] : "stable",
						       200)), NULL, "regressions=0 inconclusive=1");
			want_flags(&r->m[0], "significant inconclusive !regression");
			ck_assert_str_eq(r->m[0].base_stab, side ? "stable" : words[w]);
			ck_assert_str_eq(r->m[0].cur_stab, side ? words[w] : "stable");
			release();
		}
	tp_stab_doc(doc_a, sizeof(doc_a), "stable", 100);
	r = compared(parse(doc_a), parse(tp_stab_doc(doc_b, sizeof(doc_b), "stable", 200)), NULL,
		     "regressions=1 inconclusive=0");
	want_flags(&r->m[0], "regression !inconclusive");
	release();
	r = compared(parse(doc_a), parse(tp_stab_doc(doc_b, sizeof(doc_b), NULL, 200)), NULL,
		     "regressions=1 inconclusive=0");
	ck_assert_str_eq(r->m[0].cur_stab, "");
}
END_TEST

/* Each governing key differing on its own is named; one document lacking
 * it (an older one) or both the same is nothing; mitigations only where
 * both record one. */
START_TEST(state_differs)
{
	static const char *const keys[] = {
		"run.cpu.model", "run.virtualization.virtualized",
		"run.virtualization.hypervisor", "run.virtualization.container",
		"run.state.cpufreq.driver", "run.state.cpufreq.governor",
		"run.state.cpufreq.boost", "run.state.cpuidle.driver", "run.state.smt.control",
		"run.state.smt.active", "run.state.cgroup.cpu_limit", "run.state.cgroup.cpus",
		"system.page_size_bytes", "system.pipe_default_size_bytes",
		"system.pipe_max_size_bytes",
	};
	static const char base[] = "{\"run\":{\"cpu\":{\"model\":\"X\"},"
		"\"virtualization\":{\"virtualized\":true,\"hypervisor\":null,\"container\":null},"
		"\"state\":{\"cpufreq\":{\"driver\":\"d\",\"governor\":\"g\",\"boost\":true},"
		"\"cpuidle\":{\"driver\":\"i\"},\"smt\":{\"control\":\"on\",\"active\":true},"
		"\"cgroup\":{\"cpu_limit\":null,\"cpus\":\"0-1\"},"
		"\"mitigations\":{\"a\":\"Not affected\",\"b\":\"Vulnerable\"}}},"
		"\"system\":{\"page_size_bytes\":4096,\"pipe_default_size_bytes\":65536,"
		"\"pipe_max_size_bytes\":1048576}}";
	struct json_object *a = parse(base), *b;
	char diff[512];

	ck_assert_uint_eq(pb_cmp_state_diff(a, a, diff, sizeof(diff)), 0);
	ck_assert_str_eq(diff, "");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct json_object *o = NULL;
		const char *k = keys[i], *dot;
		char name[64];

		b = parse(base);
		o = b;
		while ((dot = strchr(k, '.'))) {
			snprintf(name, sizeof(name), "%.*s", (int)(dot - k), k);
			o = json_object_object_get(o, name);
			k = dot + 1;
		}
		json_object_object_add(o, k, json_object_new_string("other"));
		ck_assert_uint_eq(pb_cmp_state_diff(a, b, diff, sizeof(diff)), 1);
		ck_assert_str_eq(diff, keys[i]);
		/* absent from one side: not compared */
		json_object_object_del(o, k);
		ck_assert_uint_eq(pb_cmp_state_diff(a, b, diff, sizeof(diff)), 0);
		release();
		a = parse(base);
	}
	b = parse(base);
	json_object_object_add(json_object_object_get(json_object_object_get(json_object_object_get(
		b, "run"), "state"), "mitigations"), "b", json_object_new_string("Mitigation: x"));
	json_object_object_add(json_object_object_get(json_object_object_get(json_object_object_get(
		b, "run"), "state"), "mitigations"), "c", json_object_new_string("new file"));
	ck_assert_uint_eq(pb_cmp_state_diff(a, b, diff, sizeof(diff)), 1);
	ck_assert_str_eq(diff, "run.state.mitigations.b");
	/* an older document without run.state: nothing to compare */
	b = parse("{\"run\":{\"cpu\":{\"model\":\"X\"}}}");
	ck_assert_uint_eq(pb_cmp_state_diff(a, b, diff, sizeof(diff)), 0);
}
END_TEST

/* ------------------------------------------------------------ what moved */

/* One anon result, tt_ns 100 -> 120, with the profile PROF (a JSON member
 * list, or "" for none). */
static struct json_object *profiled(bool slow, const char *prof)
{
	char doc[2048];

	snprintf(doc, sizeof(doc), DOC("throughput", "{\"loops\":200,\"repeat\":3}",
		 "\"results\":[{\"kind\":\"anon\",\"size_bytes\":100,\"pipe_size_bytes\":65536,"
		 " \"repetitions\":[{\"tt_ns\":%d},{\"tt_ns\":%d},{\"tt_ns\":%d}]%s%s%s}]"),
		 slow ? 120 : 100, slow ? 121 : 101, slow ? 119 : 99, *prof ? ", \"profile\":{" : "",
		 prof, *prof ? "}" : "");
	return parse(doc);
}

/* The tt_ns row's "what moved" words comparing BASE's profile with NEW's. */
static const char *moved_words(const char *base, const char *new)
{
	const struct pb_cmp_result *r = compared(profiled(false, base), profiled(true, new), NULL,
						 "nm=1 regressions=1");

	return get_metric(r, "kind=anon size_bytes=100 pipe_size_bytes=65536", "tt_ns")->moved;
}

/* a profile: its sample count, its categories (CAT), the end */
#define S(n) "\"samples\":" #n ",\"categories\":{"
#define NOS "\"categories\":{"
#define E "}"
#define CAT(name, share, op, ns) "\"" name "\":{\"share\":" #share ",\"ns_per_byte\":0.5,\"ns_per_" op "\":" #ns "}"

/*
 * --profile on both sides: the categories whose time per operation moved
 * most, at most three, largest first, each with its shares and its ns per
 * operation; one whose ns per operation did not move at all, or whose share
 * moved within the sampling error (1.96 standard errors), is left out; when
 * the two sides count different operations the share's move ranks it (and no
 * ns is given); nothing without both profiles and samples on both sides.
 */
START_TEST(what_moved_words)
{
	static const struct { const char *base, *new, *want; } rows[] = {
		{ S(1000)
		    CAT("timestamps", 0.10, "syscall", 20) ","
		    CAT("copy", 0.30, "syscall", 60) ","
		    CAT("locking", 0.20, "syscall", 40) ","
		    CAT("syscall", 0.20, "syscall", 40) E,
		  S(1000)
		    CAT("timestamps", 0.30, "syscall", 80) ","
		    CAT("copy", 0.20, "syscall", 60) ","
		    CAT("locking", 0.10, "syscall", 30) ","
		    CAT("syscall", 0.21, "syscall", 45) E,
		  "timestamps 10.0% -> 30.0% of samples, +60.0 ns/syscall; "
		    "locking 20.0% -> 10.0% of samples, -10.0 ns/syscall" },
		/* four moved: the three largest; different operations rank by share */
		{ S(2000)
		    CAT("sched", 0.05, "syscall", 10) ","
		    CAT("timestamps", 0.10, "syscall", 20) ","
		    CAT("copy", 0.30, "syscall", 60) ","
		    CAT("locking", 0.20, "syscall", 40) E,
		  S(2000)
		    CAT("sched", 0.15, "message", 10) ","
		    CAT("timestamps", 0.30, "syscall", 80) ","
		    CAT("copy", 0.20, "syscall", 55) ","
		    CAT("locking", 0.10, "syscall", 30) E,
		  "sched 5.0% -> 15.0% of samples; "
		    "timestamps 10.0% -> 30.0% of samples, +60.0 ns/syscall; "
		    "locking 20.0% -> 10.0% of samples, -10.0 ns/syscall" },
		/* nothing beyond sampling: 0.20 -> 0.21 of 1000 is within 1.96 SE (0.035) */
		{ S(1000) CAT("copy", 0.20, "syscall", 40) E,
		  S(1000) CAT("copy", 0.21, "syscall", 45) E,
		  NULL },
		/* ... but beyond it with ten times the samples */
		{ S(100000) CAT("copy", 0.20, "syscall", 40) E,
		  S(100000) CAT("copy", 0.21, "syscall", 45) E,
		  "copy 20.0% -> 21.0% of samples, +5.0 ns/syscall" },
		/* one side without a profile, or without samples */
		{ "",
		  S(1000) CAT("copy", 0.2, "syscall", 40) E,
		  NULL },
		{ S(1000) CAT("copy", 0.2, "syscall", 40) E,
		  "",
		  NULL },
		/* one sample is a profile (its share's error is 0) */
		{ S(1) CAT("copy", 1.0, "syscall", 40) E,
		  S(1000) CAT("copy", 0.5, "syscall", 90) E,
		  "copy 100.0% -> 50.0% of samples, +50.0 ns/syscall" },
		{ S(1000) CAT("copy", 0.5, "syscall", 40) E,
		  S(1) CAT("copy", 1.0, "syscall", 90) E,
		  "copy 50.0% -> 100.0% of samples, +50.0 ns/syscall" },
		/* a side without a time per operation: ranked by share, no ns given */
		{ "\"samples\":1000,\"categories\":{\"copy\":{\"share\":0.2}}",
		  S(1000) CAT("copy", 0.5, "syscall", 90) E,
		  "copy 20.0% -> 50.0% of samples" },
		{ S(1000) CAT("copy", 0.5, "syscall", 90) E,
		  "\"samples\":1000,\"categories\":{\"copy\":{\"share\":0.2}}",
		  "copy 50.0% -> 20.0% of samples" },
		/* no sample count on a side: nothing to judge a share by */
		{ NOS CAT("copy", 0.0, "syscall", 40) E,
		  S(1000) CAT("copy", 0.5, "syscall", 90) E,
		  NULL },
		{ S(1000) CAT("copy", 0.5, "syscall", 40) E,
		  NOS CAT("copy", 0.0, "syscall", 90) E,
		  NULL },
		/* (no samples: every share 0, and no standard error to judge by) */
		{ S(0) CAT("copy", 0.0, "syscall", 0) E,
		  S(1000) CAT("copy", 0.5, "syscall", 90) E,
		  NULL },
		{ S(1000) CAT("copy", 0.5, "syscall", 40) E,
		  S(0) CAT("copy", 0.0, "syscall", 0) E,
		  NULL },
		/* two ranked by share (their operations differ): the larger move first */
		{ S(1000)
		    CAT("sched", 0.30, "syscall", 10) ","
		    CAT("memory", 0.10, "syscall", 10) E,
		  S(1000)
		    CAT("sched", 0.45, "message", 10) ","
		    CAT("memory", 0.40, "message", 10) E,
		  "memory 10.0% -> 40.0% of samples; sched 30.0% -> 45.0% of samples" },
		/* equal moves keep the documents' order */
		{ S(1000) CAT("a", 0.1, "syscall", 10) "," CAT("b", 0.1, "syscall", 10) E,
		  S(1000) CAT("a", 0.3, "syscall", 30) "," CAT("b", 0.3, "syscall", 30) E,
		  "a 10.0% -> 30.0% of samples, +20.0 ns/syscall; "
		    "b 10.0% -> 30.0% of samples, +20.0 ns/syscall" },
		/* a share missing: nothing to weigh; 0.50 -> 0.52 of 1000 is within 1.96
		 * standard errors (0.044) */
		{ "\"samples\":1000,\"categories\":{\"copy\":{\"ns_per_byte\":1}}",
		  "\"samples\":1000,\"categories\":{\"copy\":{\"share\":0.5}}",
		  NULL },
		{ S(1000) CAT("copy", 0.50, "syscall", 40) E,
		  S(1000) CAT("copy", 0.52, "syscall", 45) E,
		  NULL },
		/* a share that did not move, with no sampling error to judge it by */
		{ S(1000) CAT("copy", 1.0, "syscall", 40) E,
		  S(1000) CAT("copy", 1.0, "syscall", 90) E,
		  NULL },
		/* a member that only looks like a time per operation, or is not a number */
		{ "\"samples\":1000,\"categories\":{\"copy\":{\"share\":0.2,\"ns_perx\":10}}",
		  "\"samples\":1000,\"categories\":{\"copy\":{\"share\":0.5,\"ns_perx\":30}}",
		  "copy 20.0% -> 50.0% of samples" },
		{ "\"samples\":1000,\"categories\":{\"copy\":{\"share\":0.2,\"ns_per_syscall\":\"x\"}}",
		  S(1000) CAT("copy", 0.5, "syscall", 90) E,
		  "copy 20.0% -> 50.0% of samples" },
	};
	const char *words;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		words = moved_words(rows[i].base, rows[i].new);
		ck_assert_msg(rows[i].want ? words && !strcmp(words, rows[i].want) : !words,
			      "row %zu: '%s', want '%s'", i, words ? words : "(null)",
			      rows[i].want ? rows[i].want : "(null)");
	}

	/* the first 16 categories are weighed, not a 17th: c16 (the 16th,
	 * +16 ns) leads, c17 (+17 ns) is not seen */
	char b[4096] = "\"samples\":1000,\"categories\":{", c[4096];
	size_t ob = strlen(b), oc;

	snprintf(c, sizeof(c), "%s", b);
	oc = strlen(c);
	for (int i = 1; i <= 17; i++) {
		ob += (size_t)snprintf(b + ob, sizeof(b) - ob, "%s\"c%d\":{\"share\":0.03,"
				       "\"ns_per_syscall\":10}", i > 1 ? "," : "", i);
		oc += (size_t)snprintf(c + oc, sizeof(c) - oc, "%s\"c%d\":{\"share\":0.3,"
				       "\"ns_per_syscall\":%d}", i > 1 ? "," : "", i, 10 + i);
	}
	snprintf(b + ob, sizeof(b) - ob, "}");
	snprintf(c + oc, sizeof(c) - oc, "}");
	ck_assert_pstr_eq(moved_words(b, c), "c16 3.0% -> 30.0% of samples, +16.0 ns/syscall; "
			  "c15 3.0% -> 30.0% of samples, +15.0 ns/syscall; c14 3.0% -> 30.0% of "
			  "samples, +14.0 ns/syscall");

	/* words past 511 bytes are cut there, not written past: cut in a
	 * name, and in a time per operation */
	static const size_t lens[][3] = { { 199, 199, 199 }, { 190, 190, 2 } };
	char name[3][200], want[1024];

	for (size_t k = 0; k < 2; k++) {
		for (int i = 0; i < 3; i++) {
			memset(name[i], 'a' + i, lens[k][i]);
			name[i][lens[k][i]] = '\0';
		}
		snprintf(b, sizeof(b), "\"samples\":1000,\"categories\":{\"%s\":{\"share\":0.1,"
			 "\"ns_per_syscall\":10},\"%s\":{\"share\":0.1,\"ns_per_syscall\":10},\"%s\":"
			 "{\"share\":0.1,\"ns_per_syscall\":10}}", name[0], name[1], name[2]);
		snprintf(c, sizeof(c), "\"samples\":1000,\"categories\":{\"%s\":{\"share\":0.3,"
			 "\"ns_per_syscall\":40},\"%s\":{\"share\":0.3,\"ns_per_syscall\":30},\"%s\":"
			 "{\"share\":0.3,\"ns_per_syscall\":20}}", name[0], name[1], name[2]);
		snprintf(want, sizeof(want), "%s 10.0%% -> 30.0%% of samples, +30.0 ns/syscall; %s "
			 "10.0%% -> 30.0%% of samples, +20.0 ns/syscall; %s 10.0%% -> 30.0%% of "
			 "samples, +10.0 ns/syscall", name[0], name[1], name[2]);
		want[511] = '\0';
		words = moved_words(b, c);
		ck_assert_pstr_eq(words, want);
		release();
	}
}
END_TEST
#undef CAT
#undef S
#undef NOS
#undef E

/* With realloc_fails_at N, the library's Nth realloc from then on fails
 * (linked with -Wl,--wrap=realloc). */
static int realloc_fails_at, reallocs_seen;
void *__real_realloc(void *p, size_t size);
void *__wrap_realloc(void *p, size_t size);

static size_t realloc_last_size;  /* the size the latest realloc asked for */

void *__wrap_realloc(void *p, size_t size)
{
	realloc_last_size = size;
	if ((realloc_fails_at && ++reallocs_seen == realloc_fails_at) || alloc_fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_realloc(p, size);
}

/* pb_cmp_read_file: every byte of a file of any size, around the sizes where
 * its buffer grows (64 KiB, doubling, growing while 4 KiB or less is
 * free), NUL-terminated; an empty file; a directory and a missing file by
 * their errno; a buffer that cannot grow, ENOMEM and nothing kept. */
START_TEST(read_file_sizes)
{
	/* each size, and how many times the buffer is had (64 KiB, then doubled) */
	static const struct { size_t size; int grows; } sizes[] = {
		{ 0, 1 }, { 1, 1 }, { 61439, 1 }, { 61440, 1 }, { 61441, 2 }, { 65535, 2 },
		{ 65536, 2 }, { 65537, 2 }, { 126975, 2 }, { 126976, 2 }, { 126977, 3 },
		{ 200000, 3 },
	};
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	int fd;
	unsigned char *want = malloc(200000);
	char *buf;
	size_t len;

	snprintf(path, sizeof(path), "%s/pb-check-compare-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_nonnull(want);
	for (size_t i = 0; i < 200000; i++)
		want[i] = (unsigned char)(1 + (i * 7 + i / 251) % 255);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t size = sizes[k].size;

		ck_assert_int_eq(ftruncate(fd, 0), 0);
		ck_assert_int_eq(pwrite(fd, want, size, 0), (ssize_t)size);
		buf = NULL;
		len = 12345;
		reallocs_seen = 0;
		realloc_fails_at = 1000;  /* counts, fails none */
		ck_assert_int_eq(pb_cmp_read_file(path, &buf, &len), 0);
		realloc_fails_at = 0;
		ck_assert_msg(reallocs_seen == sizes[k].grows && realloc_last_size ==
			      (size_t)65536 << (sizes[k].grows - 1), "a %zu-byte file: %d reallocs, "
			      "the last %zu bytes", size, reallocs_seen, realloc_last_size);
		ck_assert_msg(len == size, "a %zu-byte file read as %zu", size, len);
		ck_assert_msg(memcmp(buf, want, len) == 0, "a %zu-byte file read wrong", size);
		ck_assert_int_eq(buf[len], '\0');
		free(buf);
	}
	/* the 200000-byte file needs 64 KiB, 128 KiB, 256 KiB: the second
	 * growth refused */
	reallocs_seen = 0;
	realloc_fails_at = 2;
	buf = (char *)1;
	ck_assert_int_eq(pb_cmp_read_file(path, &buf, &len), -ENOMEM);
	ck_assert_ptr_eq(buf, (char *)1);
	realloc_fails_at = 0;
	close(fd);
	unlink(path);
	ck_assert_int_eq(pb_cmp_read_file(path, &buf, &len), -ENOENT);
	ck_assert_int_eq(pb_cmp_read_file("/", &buf, &len), -EISDIR);
	free(want);
}
END_TEST

START_TEST(loading)
{
	struct json_object *doc = (struct json_object *)1;
	char err[256];

	ck_assert_int_eq(pb_cmp_load("/nonexistent/x.json", &doc, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_null(doc);
	ck_assert_ptr_nonnull(strstr(err, "cannot read"));
	ck_assert_int_eq(load_text(DOC("throughput", "{}", "\"results\":[]") "\n", err,
				   sizeof(err)), 0);
	ck_assert_int_eq(load_text("hello", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "not a JSON document"));
	ck_assert_ptr_null(strstr(err, "unexpected end of file"));
	ck_assert_int_eq(load_text("", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(load_text("{\"tool\":\"pipebench\"", err, sizeof(err)), -EINVAL);
	/* Cut short: said so, not the parser's "continue". */
	ck_assert_ptr_nonnull(strstr(err, "not a JSON document (unexpected end of file)"));
	ck_assert_int_eq(load_text("{} {}", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "single"));
	ck_assert_int_eq(load_text("[1,2]", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "not a pipebench"));
	ck_assert_int_eq(load_text("{\"tool\":\"iperf3\",\"schema_version\":1,\"command\":\"x\"}",
				   err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "not a pipebench"));
	ck_assert_str_eq(err, "not a pipebench result document (no \"tool\": \"pipebench\")");
	/* each member the document needs, missing or of the wrong type, named */
	err[0] = '\0';
	ck_assert_int_eq(load_text("{\"tool\":\"pipebench\",\"schema_version\":1}", err,
				   sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "not a pipebench result document (no \"command\")");
	err[0] = '\0';
	ck_assert_int_eq(load_text("{\"tool\":\"pipebench\",\"schema_version\":1,\"command\":7}",
				   err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "not a pipebench result document (no \"command\")");
	err[0] = '\0';
	ck_assert_int_eq(load_text("{\"tool\":\"pipebench\",\"command\":\"throughput\"}", err,
				   sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "not a pipebench result document (no \"schema_version\")");
	err[0] = '\0';
	ck_assert_int_eq(load_text("{\"tool\":\"pipebench\",\"schema_version\":\"1\","
				   "\"command\":\"throughput\"}", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "not a pipebench result document (no \"schema_version\")");
	err[0] = '\0';
	ck_assert_int_eq(load_text("{\"tool\":7,\"schema_version\":1,\"command\":\"x\"}", err,
				   sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "not a pipebench result document (no \"tool\": \"pipebench\")");
	ck_assert_int_eq(load_text("{\"tool\":\"pipebench\",\"schema_version\":99,"
				   "\"command\":\"throughput\"}", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "schema_version 99"));
}
END_TEST


/* ------------------------------------------------------------ memory */

/* The least the heap in use grew by in one run of STEP(ARG), of twenty
 * after ten: a leak grows it every run, by a chunk of 32 bytes at least,
 * once the ten have used up what glibc's thread cache kept of its size
 * (a freed chunk it caches, seven a size, counts as in use); glibc moving
 * chunks between its caches and bins makes a run grow it now and then,
 * never every run. */
static long heap_growth(void (*step)(const void *), const void *arg)
{
	long least = LONG_MAX;

	for (int i = 0; i < 30; i++) {
		size_t before = mallinfo2().uordblks;
		long grew;

		step(arg);
		grew = (long)(mallinfo2().uordblks - before);
		if (i >= 10 && grew < least)
			least = grew;
	}
	return least;
}

/* The report every way out of memory is tried on: results, checks and
 * parts, per-unit figures, verdicts on both sides and NEW's alone, results
 * and a part lost. */
#define OOM_TP(tt, tw, bytes, verdict) DOC("throughput", "{\"loops\":1}", \
	"\"results\":[{\"kind\":\"anon\",\"size_bytes\":100,\"repetitions\":[" \
	"{\"tt_ns\":" tt "0,\"tw_ns\":" tw "0,\"bytes\":" bytes "}," \
	"{\"tt_ns\":" tt "1,\"tw_ns\":" tw "1,\"bytes\":" bytes "}," \
	"{\"tt_ns\":" tt "2,\"tw_ns\":" tw "2,\"bytes\":" bytes "}]}]," \
	"\"checks\":[{\"id\":\"P-1\",\"status\":\"" verdict "\"}]")
static const char oom_base[] = DOC("report", "{}",
	"\"results\":[{\"kind\":\"anon\",\"size_bytes\":100,\"repetitions\":["
	"{\"tt_ns\":100,\"tw_ns\":50,\"bytes\":10},{\"tt_ns\":101,\"tw_ns\":51,\"bytes\":10},"
	"{\"tt_ns\":99,\"tw_ns\":49,\"bytes\":10}]},"
	"{\"kind\":\"gone\",\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]}],"
	"\"checks\":[{\"id\":\"A-1\",\"status\":\"pass\"},{\"id\":\"A-2\",\"status\":\"pass\"}],"
	"\"parts\":{\"tp\":" OOM_TP("10", "5", "10", "pass") ","
	"\"gone\":" DOC("throughput", "{}", "\"results\":[{\"kind\":\"x\",\"tt_ns\":5}]") "}");
static const char oom_new[] = DOC("report", "{}",
	"\"results\":[{\"kind\":\"anon\",\"size_bytes\":100,\"repetitions\":["
	"{\"tt_ns\":300,\"tw_ns\":150,\"bytes\":20},{\"tt_ns\":301,\"tw_ns\":151,\"bytes\":20},"
	"{\"tt_ns\":299,\"tw_ns\":149,\"bytes\":20}]}],"
	"\"checks\":[{\"id\":\"A-1\",\"status\":\"fail\"},{\"id\":\"N-1\",\"status\":\"error\"}],"
	"\"parts\":{\"tp\":" OOM_TP("30", "9", "10", "fail") "}}");
#undef OOM_TP

/* The comparison of the documents of ARG (two) with the Nth allocation
 * failing (alloc_fails_at): ENOMEM when it failed, else success. */
static unsigned oom_at;

static void compare_failing(const void *arg)
{
	struct json_object *const *d = arg;
	struct pb_cmp_opts o = { .differ = "tp.loops", .threshold_pct = 5 };
	struct pb_cmp_result r;
	int rc;

	allocs_seen = 0;
	alloc_fails_at = oom_at;
	rc = pb_cmp_compare(d[0], d[1], &o, &r);
	alloc_fails_at = 0;
	ck_assert_msg(rc == (allocs_seen >= oom_at ? -ENOMEM : 0), "allocation %u failing: %d",
		      oom_at, rc);
	if (!rc)
		pb_cmp_result_free(&r);
}

/* Each allocation of a comparison failing in turn: the comparison fails
 * with ENOMEM, whatever it had made freed; with none failing it succeeds,
 * and freeing its result leaves nothing allocated. */
START_TEST(compare_without_memory)
{
	struct json_object *d[2] = { parse(oom_base), parse(oom_new) };
	struct pb_cmp_opts o = { .differ = "tp.loops", .threshold_pct = 5 };

	ck_assert_int_eq(pb_cmp_compare(d[0], d[1], &o, &result), 0);
	result_held = true;
	want_counts(&result, "nv=4 nlost=3 not_comparable=4");
	for (oom_at = 1; oom_at < 1000; oom_at++) {
		long grew = heap_growth(compare_failing, d);

		ck_assert_msg(grew <= 0, "allocation %u failing: %ld bytes left a run", oom_at, grew);
		if (allocs_seen < oom_at)
			break;
	}
	ck_assert_uint_gt(oom_at, 20);
}
END_TEST

static char leak_path[4200];

static void leak_read(const void *arg)
{
	(void)arg;
	char *buf;
	size_t len;

	ck_assert_int_eq(pb_cmp_read_file(leak_path, &buf, &len), 0);
	free(buf);
}

static void leak_read_nomem(const void *arg)
{
	(void)arg;
	char *buf;
	size_t len;

	reallocs_seen = 0;
	realloc_fails_at = 2;  /* the file is past 64 KiB: its second growth */
	ck_assert_int_eq(pb_cmp_read_file(leak_path, &buf, &len), -ENOMEM);
	realloc_fails_at = 0;
}

static void leak_load(const void *arg)
{
	(void)arg;
	struct json_object *doc;
	char err[128];

	ck_assert_int_eq(pb_cmp_load(leak_path, &doc, err, sizeof(err)), 0);
	json_object_put(doc);
}

static void leak_parse_bad(const void *arg)
{
	(void)arg;
	static const char *const bad[] = { "{} {}", "hello", "[1,2]", "{\"tool\":\"x\"}" };
	struct json_object *doc;
	char err[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(pb_cmp_parse(bad[i], strlen(bad[i]), &doc, err, sizeof(err)),
				 -EINVAL);
}

static void leak_params(const void *arg)
{
	(void)arg;
	char diff[64];

	ck_assert_uint_eq(pb_cmp_params_diff(parse(work1), parse(work2), diff, sizeof(diff)), 1);
	release();
}

static void leak_compare_profiled(const void *arg)
{
	(void)arg;
	static const char prof_b[] = "\"samples\":1000,\"categories\":{\"copy\":{\"share\":0.1,"
				     "\"ns_per_syscall\":10}}";
	static const char prof_c[] = "\"samples\":1000,\"categories\":{\"copy\":{\"share\":0.5,"
				     "\"ns_per_syscall\":50}}";
	struct pb_cmp_result r;

	ck_assert_int_eq(cmp(profiled(false, prof_b), profiled(true, prof_c), NULL, &r), 0);
	ck_assert_ptr_nonnull(r.m[0].moved);
	pb_cmp_result_free(&r);
	release();
}

/* Each way in and out of reading, parsing and comparing leaves the heap as
 * it found it (each run twice, the second measured). */
START_TEST(nothing_left_allocated)
{
	static void (*const steps[])(const void *) = {
		leak_read, leak_read_nomem, leak_load, leak_parse_bad, leak_params,
		leak_compare_profiled,
	};
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	FILE *fp;

	snprintf(dir, sizeof(dir), "%s/pb-check-cmpleak.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(leak_path, sizeof(leak_path), "%s/d.json", dir);
	fp = fopen(leak_path, "we");
	ck_assert_ptr_nonnull(fp);
	fputs(DOC("throughput", "{}", "\"results\":[]"), fp);
	for (int i = 0; i < 70000; i++)   /* past the first 64 KiB read */
		fputc(' ', fp);
	ck_assert_int_eq(fclose(fp), 0);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		long grew = heap_growth(steps[i], NULL);

		ck_assert_msg(grew <= 0, "step %zu left %ld bytes a run", i, grew);
	}
	ck_assert_int_eq(unlink(leak_path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* ------------------------------------------------------------ edges */

/*
 * TEXT copied into a fresh mapping with a page no access is allowed to on
 * either side: starting at the first byte after the one before it
 * (AT_END false), or ending, its NUL included, at the last byte before the
 * one after it.  A byte read outside the text kills the test.
 */
static char *guarded(const char *text, bool at_end, void **map)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = strlen(text) + 1;
	char *p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_uint_lt(n, page);
	ck_assert_int_eq(mprotect(p, page, PROT_NONE), 0);
	ck_assert_int_eq(mprotect(p + 2 * page, page, PROT_NONE), 0);
	*map = p;
	p = at_end ? p + 2 * page - n : p + page;
	memcpy(p, text, n);
	return p;
}

static void unguard(void *map)
{
	ck_assert_int_eq(munmap(map, 3 * (size_t)sysconf(_SC_PAGESIZE)), 0);
}

/* Names shorter than a suffix, a document that ends at the end of its
 * memory: nothing is read outside them. */
START_TEST(reads_stay_inside)
{
	static const char *const shorts[] = { "s", "ns", "x", "_s" };
	struct json_object *doc, *a, *b;
	char err[128];
	void *map;
	char *s;

	for (size_t i = 0; i < sizeof(shorts) / sizeof(shorts[0]); i++) {
		s = guarded(shorts[i], false, &map);
		ck_assert_int_eq(pb_cmp_direction(s), PB_CMP_NEUTRAL);
		ck_assert(!pb_cmp_is_rate(s));
		unguard(map);
	}
	s = guarded(DOC("throughput", "{}", "\"results\":[]") " \n", true, &map);
	ck_assert_int_eq(pb_cmp_parse(s, strlen(s), &doc, err, sizeof(err)), 0);
	json_object_put(doc);
	unguard(map);
	/* a member named "l", shorter than each descriptive suffix, is
	 * identity: the rows differ */
	s = guarded("l", false, &map);
	a = parse(DOC("throughput", "{}",
		"\"results\":[{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]}]"));
	b = parse(DOC("throughput", "{}",
		"\"results\":[{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1},{\"tt_ns\":2}]}]"));
	json_object_object_add_ex(json_object_array_get_idx(json_object_object_get(a, "results"), 0),
				  s, json_object_new_string("p"), JSON_C_OBJECT_KEY_IS_CONSTANT);
	json_object_object_add_ex(json_object_array_get_idx(json_object_object_get(b, "results"), 0),
				  s, json_object_new_string("q"), JSON_C_OBJECT_KEY_IS_CONSTANT);
	compared(a, b, NULL, "paired=0 only_base=1 only_new=1");
	release();
	unguard(map);
}
END_TEST

/* The naming rules at their edges: a suffix that is the whole name, a
 * prefix that is one letter short, a workload that moved by 1% or more. */
START_TEST(names_at_the_edges)
{
	static const struct { const char *name; enum pb_cmp_dir dir; } dirs[] = {
		{ "_per_s", PB_CMP_HIGHER }, { "_ns", PB_CMP_LOWER },
		{ "_per_round_trip", PB_CMP_LOWER }, { "rate_", PB_CMP_HIGHER },
	};
	static const struct { double change; bool changed; } work[] = {
		{ 0.5, false }, { 1, false }, { -1, false }, { 1.5, true }, { -1.5, true },
		{ 2.5, true }, { INFINITY, false }, { -INFINITY, false }, { NAN, false },
	};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		ck_assert_msg(pb_cmp_direction(dirs[i].name) == dirs[i].dir, "%s", dirs[i].name);
	want_names(pb_cmp_is_extensive, "extensive", "rttx_ns", "rtt_x_ns rtt_ns");
	want_names(pb_cmp_is_rate, "a rate", "rate_x rate_ a_per_s", "_per_s ratf_x r_per_sx");
	char bytes[] = "bytes", tt[] = "tt_ns";

	for (size_t i = 0; i < sizeof(work) / sizeof(work[0]); i++) {
		struct pb_cmp_metric m = { .metric = bytes, .change_pct = work[i].change };

		ck_assert_msg(pb_cmp_workload_changed(&m) == work[i].changed, "%g", work[i].change);
		m.metric = tt;
		ck_assert(!pb_cmp_workload_changed(&m));
	}
	/* an infinite change is no regression; the threshold is exclusive */
	ck_assert(!pb_cmp_is_regression(PB_CMP_LOWER, INFINITY, true, 5));
	ck_assert(!pb_cmp_is_regression(PB_CMP_HIGHER, -INFINITY, true, 5));
	ck_assert(!pb_cmp_is_regression(PB_CMP_HIGHER, -5, true, 5));
	ck_assert(pb_cmp_is_regression(PB_CMP_HIGHER, -5.1, true, 5));
	/* --metrics patterns: plain fnmatch, no flags; an empty one matches nothing */
	ck_assert(pb_cmp_gates("x/y", "x*"));
	ck_assert(pb_cmp_gates(".x", "*x"));
	ck_assert(!pb_cmp_gates("TT_NS", "tt_ns"));
	ck_assert(pb_cmp_gates("a*", "a\\*"));
	ck_assert(!pb_cmp_gates("", ","));
	ck_assert(!pb_cmp_gates("", ""));
}
END_TEST

/* Welch's p, the rank test's p and which decides, at the sample counts
 * where each applies; expected values worked by hand (or, for the rank
 * test's own p, by pb_stats_mann_whitney). */
START_TEST(eval_sample_counts)
{
	static const struct {
		double b[6], c[6];
		size_t nb, nc;
		double p_welch;   /* -2: only not -1 */
		bool rank_p, by_rank;
	} rows[] = {
		/* one side constant, the other not: Welch with df = 1, t = 3,
		 * p = 1 - 2 atan(3) / pi */
		{ { 1, 3 }, { 5, 5 }, 2, 2, 0.204833, true, false },
		{ { 5, 5 }, { 1, 3 }, 2, 2, 0.204833, true, false },
		/* both constant, one a single value: no test */
		{ { 100, 100 }, { 200 }, 2, 1, -1, false, false },
		{ { 200 }, { 100, 100 }, 1, 2, -1, false, false },
		{ { 200 }, { 100 }, 1, 1, -1, false, false },
		{ { 1, 2, 3 }, { 7 }, 3, 1, -1, false, false },
		{ { 7 }, { 1, 2, 3 }, 1, 3, -1, false, false },
		/* the rank test decides from five a side */
		{ { 1, 2, 3, 4 }, { 5, 6, 7, 8, 9 }, 4, 5, -2, true, false },
		{ { 1, 2, 3, 4, 5 }, { 6, 7, 8, 9 }, 5, 4, -2, true, false },
		{ { 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10 }, 5, 5, -2, true, true },
	};
	double many[13] = { 0 };

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pb_cmp_metric m = { .dir = PB_CMP_LOWER };
		struct pb_rank_test rt;

		ck_assert_int_eq(pb_cmp_metric_eval(&m, rows[i].b, rows[i].nb, rows[i].c, rows[i].nc,
						    5), 0);
		ck_assert_int_eq(pb_stats_mann_whitney(rows[i].b, rows[i].nb, rows[i].c, rows[i].nc,
						       &rt), 0);
		if (rows[i].p_welch == -2)
			ck_assert_msg(m.p_welch >= 0, "row %zu: p %g", i, m.p_welch);
		else
			ck_assert_msg(fabs(m.p_welch - rows[i].p_welch) < 1e-5, "row %zu: p %g", i,
				      m.p_welch);
		ck_assert_msg(m.p_rank == (rows[i].rank_p ? rt.p : -1) && m.by_rank == rows[i].by_rank,
			      "row %zu: rank p %g, by rank %d", i, m.p_rank, m.by_rank);
		ck_assert(m.p == (m.by_rank ? m.p_rank : m.p_welch));
		ck_assert(m.significant == (m.p >= 0 && m.p < 0.05));
	}
	/* BASE's statistics cannot be had: ENOMEM, though NEW's could */
	stats_malloc_fails = true;
	ck_assert_int_eq(pb_cmp_metric_eval(&(struct pb_cmp_metric){ 0 }, many, 13, many, 3, 5),
			 -ENOMEM);
	stats_malloc_fails = false;
}
END_TEST

/* ------------------------------------------------------------ pairs */

#define TP(results) DOC("throughput", "{}", "\"results\":[" results "]")
#define REP2(m, x, y) "\"repetitions\":[{\"" m "\":" #x "},{\"" m "\":" #y "}]"
/* a report with one result of its own and the same in part "tp" */
#define TWO_LEVELS DOC("report", "{}", "\"results\":[{\"kind\":\"anon\",\"repetitions\":[" \
	"{\"tt_ns\":100,\"bytes\":9},{\"tt_ns\":101,\"bytes\":9}]}],\"parts\":{\"tp\":" \
	TP("{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":100,\"bytes\":9}," \
	   "{\"tt_ns\":101,\"bytes\":9}]}") "}")
#define PART_RESULT(extra) DOC("report", "{}", "\"parts\":{\"tp\":" \
	TP("{\"kind\":\"anon\"," extra REP2("tt_ns", 1, 2) "}") "}")
#define LOST_PART(runs) DOC("report", "{}", "\"parts\":{\"tp\":null}" runs)
#define MANY(v) "{\"tt_ns\":" #v "}"
#define TWENTY MANY(1) "," MANY(2) "," MANY(3) "," MANY(4) "," MANY(5) "," MANY(6) "," \
	MANY(7) "," MANY(8) "," MANY(9) "," MANY(10) "," MANY(11) "," MANY(12) "," MANY(13) \
	"," MANY(14) "," MANY(15) "," MANY(16) "," MANY(17) "," MANY(18) "," MANY(19) "," MANY(20)
#define PER_UNIT(units) TP("{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":7," units "}," \
	"{\"tt_ns\":9," units "}]}")
#define BESIDE_RATE(t) TP("{\"kind\":\"anon\",\"repetitions\":[" \
	"{\"tt_ns\":" t "0,\"rate_bytes_per_s\":5},{\"tt_ns\":" t "1,\"rate_bytes_per_s\":5}," \
	"{\"tt_ns\":" t "2,\"rate_bytes_per_s\":5}]}")
#define CHECK(rest) DOC("conformance", "{}", "\"checks\":[{\"id\":\"X\"" rest "}]")

/*
 * Pairs of documents and what comparing them gives: the counts, and where
 * named, a metric's flags and %change (NAN: not checked) and the first
 * coverage lost.  DIFFER is both the differing parameters and --ignore;
 * METRICS --metrics.
 */
START_TEST(pairs_compared)
{
	static const struct {
		const char *base, *new, *differ, *metrics, *counts, *metric, *flags;
		double change;
		const char *lost;
	} rows[] = {
		/* results without repetitions: their directional numbers */
		{ TP("{\"kind\":\"anon\",\"tt_ns\":100,\"bytes\":5}"),
		  TP("{\"kind\":\"anon\",\"tt_ns\":110,\"bytes\":5}"), NULL, NULL, "nm=1 matched=1",
		  "tt_ns", "", 10, NULL },
		/* repetitions that are not objects, or none: nothing to compare */
		{ TP("{\"kind\":\"anon\",\"repetitions\":[1,2]}"),
		  TP("{\"kind\":\"anon\",\"repetitions\":[1,2]}"), NULL, NULL,
		  "nm=0 paired=1 matched=0", NULL, NULL, NAN, NULL },
		{ TP("{\"kind\":\"anon\",\"repetitions\":[]}"),
		  TP("{\"kind\":\"anon\",\"repetitions\":[]}"), NULL, NULL, "nm=0 paired=1 nlost=0",
		  NULL, NULL, NAN, NULL },
		/* the metrics are the first repetition's */
		{ TP("{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1,\"tw_ns\":2},{\"tt_ns\":2}]}"),
		  TP("{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1,\"tw_ns\":2},{\"tt_ns\":2}]}"),
		  NULL, NULL, "nm=2", "tw_ns", "", NAN, NULL },
		/* repetitions on one side only: not matched */
		{ TP("{\"kind\":\"anon\"," REP2("tt_ns", 1, 2) "}"),
		  TP("{\"kind\":\"anon\",\"tt_ns\":1}"), NULL, NULL, "matched=0 paired=1 nlost=1",
		  NULL, NULL, NAN, "no repetitions in NEW" },
		/* a second result with nothing in common is not matched */
		{ TP("{\"kind\":\"anon\"," REP2("tt_ns", 1, 2) "},{\"kind\":\"fifo\","
		     REP2("tt_ns", 1, 2) "}"),
		  TP("{\"kind\":\"anon\"," REP2("tt_ns", 1, 2) "},{\"kind\":\"fifo\","
		     REP2("tw_ns", 1, 2) "}"), NULL, NULL, "matched=1 nm=1 nlost=1", NULL, NULL, NAN,
		  "not measured in NEW: tt_ns" },
		/* every metric NEW lacks is named */
		{ TP("{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1,\"tw_ns\":2,\"tr_ns\":3},"
		     "{\"tt_ns\":1,\"tw_ns\":2,\"tr_ns\":3}]}"),
		  TP("{\"kind\":\"anon\"," REP2("tt_ns", 1, 2) "}"), NULL, NULL, "nm=1 nlost=1", NULL,
		  NULL, NAN, "not measured in NEW: tw_ns, tr_ns" },
		/* a repetition whose value is not a number is not a sample */
		{ TP("{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":100},{\"tt_ns\":100},"
		     "{\"tt_ns\":\"x\"}]}"),
		  TP("{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":100},{\"tt_ns\":100}]}"), NULL,
		  NULL, "nm=1", "tt_ns", "!significant", 0, NULL },
		/* two BASE results alike pair with NEW's one once */
		{ TP("{\"kind\":\"anon\"," REP2("tt_ns", 1, 2) "},{\"kind\":\"anon\","
		     REP2("tt_ns", 1, 2) "}"),
		  TP("{\"kind\":\"anon\"," REP2("tt_ns", 1, 2) "}"), NULL, NULL,
		  "paired=1 only_base=1", NULL, NULL, NAN, NULL },
		/* one repetition is a measurement; a number in words is none */
		{ TP("{\"kind\":\"anon\",\"repetitions\":[{\"tt_ns\":1}]}"), TP(""), NULL, NULL,
		  "only_base=1 nlost=1", NULL, NULL, NAN, "absent in NEW" },
		{ TP("{\"kind\":\"anon\",\"tt_ns\":\"n/a\"}"), TP(""), NULL, NULL,
		  "only_base=1 nlost=0", NULL, NULL, NAN, NULL },
		/* a fractional member is no identity */
		{ TP("{\"kind\":\"anon\",\"weight\":1.5," REP2("tt_ns", 1, 2) "}"),
		  TP("{\"kind\":\"anon\",\"weight\":2.5," REP2("tt_ns", 1, 2) "}"), NULL, NULL,
		  "paired=1", NULL, NULL, NAN, NULL },
		/* --ignore of a part's member: exactly that name, anywhere in the list */
		{ PART_RESULT("\"pipe_size_bytes\":1,"), PART_RESULT("\"pipe_size_bytes\":2,"),
		  "tp.pipe_size_bytes", NULL, "paired=1", NULL, NULL, NAN, NULL },
		{ PART_RESULT("\"pipe_size_bytes\":1,"), PART_RESULT("\"pipe_size_bytes\":2,"),
		  "x,tp.pipe_size_bytes", NULL, "paired=1", NULL, NULL, NAN, NULL },
		{ PART_RESULT("\"pipe_size_bytes\":1,"), PART_RESULT("\"pipe_size_bytes\":2,"),
		  "tp.pipe_size_bytesX", NULL, "paired=0", NULL, NULL, NAN, NULL },
		{ PART_RESULT("\"pipe_size_bytes\":1,"), PART_RESULT("\"pipe_size_bytes\":2,"),
		  "tp.pipe_size_byteX", NULL, "paired=0", NULL, NULL, NAN, NULL },
		/* which parameters concern which level */
		{ TWO_LEVELS, TWO_LEVELS, ".loops", NULL, "not_comparable=0", NULL, NULL, NAN, NULL },
		{ TWO_LEVELS, TWO_LEVELS, "tp.loops", NULL, "not_comparable=1", NULL, NULL, NAN, NULL },
		{ TWO_LEVELS, TWO_LEVELS, "tpx.loops", NULL, "not_comparable=0", NULL, NULL, NAN, NULL },
		{ TWO_LEVELS, TWO_LEVELS, "tX.loops", NULL, "not_comparable=0", NULL, NULL, NAN, NULL },
		{ TWO_LEVELS, TWO_LEVELS, "a.b,tp.loops", NULL, "not_comparable=1", NULL, NULL, NAN,
		  NULL },
		{ TWO_LEVELS, TWO_LEVELS, "loops", NULL, "not_comparable=2", NULL, NULL, NAN, NULL },
		/* per unit of work: messages first; none to divide by; 1 byte is one;
		 * a count in words is none */
		{ PER_UNIT("\"messages\":2,\"bytes\":4"), PER_UNIT("\"messages\":2,\"bytes\":4"),
		  "loops", NULL, "nm=4", "tt_ns_per_message", "derived", 0, NULL },
		{ TP("{\"kind\":\"anon\"," REP2("tt_ns", 1, 2) "}"),
		  TP("{\"kind\":\"anon\"," REP2("tt_ns", 1, 2) "}"), "loops", NULL,
		  "nm=1 not_comparable=1", "tt_ns", "!comparable", NAN, NULL },
		{ PER_UNIT("\"bytes\":1"), PER_UNIT("\"bytes\":1"), "loops", NULL, "nm=3",
		  "tt_ns_per_byte", "derived", 0, NULL },
		{ PER_UNIT("\"bytes\":\"100\""), PER_UNIT("\"bytes\":\"100\""), "loops", NULL, "nm=1",
		  NULL, NULL, NAN, NULL },
		/* a total beside a rate is a detail: shown, never gating, unless --metrics
		 * names it */
		{ BESIDE_RATE("10"), BESIDE_RATE("20"), NULL, NULL, "regressions=0", "tt_ns",
		  "significant side !regression", NAN, NULL },
		{ BESIDE_RATE("10"), BESIDE_RATE("20"), NULL, "tt_*", "regressions=1", "tt_ns",
		  "!side regression", NAN, NULL },
		/* twenty repetitions a side */
		{ TP("{\"kind\":\"anon\",\"repetitions\":[" TWENTY "]}"),
		  TP("{\"kind\":\"anon\",\"repetitions\":[" TWENTY "]}"), NULL, NULL, "nm=1",
		  "tt_ns", "!significant", 0, NULL },
		/* a part BASE had with no results, gone: nothing lost */
		{ DOC("report", "{}", "\"parts\":{\"e\":" TP("") "}"), DOC("report", "{}", "\"parts\":{}"),
		  NULL, NULL, "nlost=0 base_results=0", NULL, NULL, NAN, NULL },
		/* a part NEW did not measure, in its words */
		{ PART_RESULT(""), LOST_PART(",\"part_runs\":{\"tp\":{\"exit_status\":3}}"), NULL,
		  NULL, "nlost=1", NULL, NULL, NAN, "part not measured in NEW" },
		{ PART_RESULT(""), LOST_PART(""), NULL, NULL, "nlost=1", NULL, NULL, NAN,
		  "part not measured in NEW" },
		{ PART_RESULT(""),
		  LOST_PART(",\"part_runs\":{\"tp\":{\"exit_status\":3,\"error\":\"boom\"}}"), NULL,
		  NULL, "nlost=1", NULL, NULL, NAN, "part not measured in NEW (exit status 3: boom)" },
		/* a verdict NEW has no word for, or skipped without saying why */
		{ CHECK(",\"status\":\"pass\""), CHECK(""), NULL, NULL, "nlost=1", NULL, NULL, NAN,
		  "no status in NEW" },
		{ CHECK(",\"status\":\"pass\""), CHECK(",\"status\":\"skip\",\"detail\":\"\""), NULL,
		  NULL, "nlost=1", NULL, NULL, NAN, "skip in NEW" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct pb_cmp_result *r;
		const struct pb_cmp_metric *m = NULL;

		metrics_opt = rows[i].metrics;
		r = compared(parse(rows[i].base), parse(rows[i].new), rows[i].differ,
			     rows[i].counts);
		metrics_opt = NULL;
		for (size_t j = 0; rows[i].metric && j < r->nm && !m; j++)
			if (!strcmp(r->m[j].metric, rows[i].metric))
				m = &r->m[j];
		ck_assert_msg(!rows[i].metric || m, "row %zu: no %s", i, rows[i].metric);
		if (m)
			want_flags(m, rows[i].flags);
		if (m && !isnan(rows[i].change))
			ck_assert_msg(fabs(m->change_pct - rows[i].change) < 1e-9, "row %zu: %g%%", i,
				      m->change_pct);
		if (rows[i].lost)
			ck_assert_msg(r->nlost && !strcmp(r->lost[0].why, rows[i].lost),
				      "row %zu: lost '%s'", i, r->nlost ? r->lost[0].why : "");
		release();
	}
}
END_TEST
#undef TP
#undef REP2
#undef TWO_LEVELS
#undef PART_RESULT
#undef LOST_PART
#undef MANY
#undef TWENTY
#undef PER_UNIT
#undef BESIDE_RATE
#undef CHECK

/* ------------------------------------------------------------ documents */

#define PARTS(p) "{\"command\":\"report\",\"schema_version\":1,\"parts\":{" p "}}"
#define SV "{\"schema_version\":1,\"params\":{\"loops\":1}}"
#define NOSV "{\"params\":{\"loops\":2}}"

/* Which pairs are compatible, which parameters differ, part by part: a
 * part on one side only, or not a document, is neither. */
START_TEST(parts_one_sided)
{
	static const struct { const char *a, *b; int compatible; size_t ndiff; } rows[] = {
		{ PARTS("\"x\":" SV), PARTS("\"x\":" NOSV), -EINVAL, 1 },
		{ PARTS("\"x\":" NOSV), PARTS("\"x\":" SV), -EINVAL, 1 },
		{ PARTS("\"x\":" SV), PARTS("\"y\":" SV), 0, 0 },
		{ PARTS("\"x\":null"), PARTS("\"x\":" SV), 0, 0 },
		{ "{\"command\":\"report\",\"schema_version\":1}", PARTS("\"x\":" SV), 0, 0 },
		{ PARTS("\"x\":" SV), "{\"command\":\"report\",\"schema_version\":1}", 0, 0 },
	};
	char err[256], diff[64];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct json_object *a = parse(rows[i].a), *b = parse(rows[i].b);

		ck_assert_msg(pb_cmp_compatible(a, b, err, sizeof(err)) == rows[i].compatible,
			      "row %zu: %s", i, err);
		ck_assert_msg(pb_cmp_params_diff(a, b, diff, sizeof(diff)) == rows[i].ndiff,
			      "row %zu: %s", i, diff);
	}
	/* a mode that differs is named even when one side's is the default */
	ck_assert_uint_eq(pb_cmp_params_diff(parse("{\"params\":{\"mode\":\"rw\"}}"),
					     parse("{\"params\":{\"mode\":\"splice\"}}"), diff,
					     sizeof(diff)), 1);
	ck_assert_str_eq(diff, "mode");
}
END_TEST
#undef PARTS
#undef SV
#undef NOSV

/* The differing names cut to the buffer: "..." where they did not fit,
 * when there is room for it, and never a byte past it. */
START_TEST(params_diff_cut)
{
	static const struct { size_t len; const char *want; } rows[] = {
		{ 4, "loo" }, { 5, "l..." }, { 6, "lo..." }, { 8, "loop..." }, { 12, "loops,mo..." },
		{ 15, "loops,mode,fds" }, { 64, "loops,mode,fds" },
	};
	struct json_object *a = parse("{\"params\":{\"loops\":1,\"mode\":\"a\"}}");
	struct json_object *b = parse("{\"params\":{\"loops\":2,\"mode\":\"b\",\"fds\":3}}");
	struct json_object *c = parse("{\"params\":{\"x\":1,\"y\":1}}");
	struct json_object *d = parse("{\"params\":{\"x\":2,\"y\":2}}");
	char buf[80];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(buf, 'Z', sizeof(buf));
		ck_assert_uint_eq(pb_cmp_params_diff(a, b, buf, rows[i].len), 3);
		ck_assert_str_eq(buf, rows[i].want);
		for (size_t j = rows[i].len; j < sizeof(buf); j++)
			ck_assert_msg(buf[j] == 'Z', "len %zu: byte %zu written", rows[i].len, j);
	}
	/* one-letter names */
	ck_assert_uint_eq(pb_cmp_params_diff(c, d, buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "x,y");
}
END_TEST

/* Run state recorded on one side only, or mitigations that are not an
 * object: nothing differs. */
START_TEST(state_one_sided)
{
	static const char *const docs[] = {
		"{\"run\":{\"cpu\":{\"model\":\"X\"}}}",
		"{\"run\":{}}",
		"{\"run\":{\"state\":{\"mitigations\":\"x\"}}}",
		"{\"run\":{\"state\":{\"mitigations\":{\"a\":\"y\"}}}}",
		"{\"run\":{\"state\":{\"mitigations\":{\"b\":\"z\"}}}}",
	};
	char diff[128];

	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		for (size_t j = 0; j < sizeof(docs) / sizeof(docs[0]); j++)
			ck_assert_msg(pb_cmp_state_diff(parse(docs[i]), parse(docs[j]), diff,
							sizeof(diff)) == 0, "%zu %zu: %s", i, j, diff);
}
END_TEST

/* Binary data is no document: said so, EINVAL. */
START_TEST(binary_is_no_document)
{
	static const char bin[] = "{}\0{}";
	struct json_object *doc;
	char err[128] = "";

	ck_assert_int_eq(pb_cmp_parse(bin, sizeof(bin) - 1, &doc, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "not a JSON document (binary data)");
	ck_assert_ptr_null(doc);
}
END_TEST

static Suite *compare_suite(void)
{
	const struct pb_tcase *const tcases[] = {
		PB_TCASE("direction", direction_table, metric_keys_are_not_identity,
			 rates_and_details),
		PB_TCASE("significance", welch_flags_clear_shift, welch_ignores_noise,
			 too_few_repetitions_is_na, constant_samples, zero_base_mean, regression_rule,
			 significance_boundary, verdict_regression_rule),
		PB_TCASE("matching", matching_by_identity, matching_by_mode, ignored_members_rematch,
			 params_diff_lists_keys, dirs_diff_apart, incompatible_documents),
		PB_TCASE("verdicts", verdict_diffs, result_verdicts_and_report_parts),
		PB_TCASE("partial", run_failed_reasons, coverage_lost_checks, coverage_lost_results,
			 coverage_lost_verdicts_and_parts, nested_parts_count_their_results,
			 nothing_in_common,
			 descriptive_members_identify_nothing, verdict_part_out_of_memory,
			 absent_without_data_is_not_lost, grid_without_memory_is_left_out,
			 metric_without_memory_is_an_error, lost_without_memory_is_an_error, part_without_command),
		PB_TCASE("workloads", extensive_metrics, different_work_compared_per_unit,
			 different_work_per_part, latency_documents),
		PB_TCASE("gating", gating_metrics, unstable_is_inconclusive, state_differs),
		PB_TCASE("loading", loading, read_file_sizes),
		PB_TCASE("profile", what_moved_words),
		PB_TCASE("edges", reads_stay_inside, names_at_the_edges, eval_sample_counts,
			 pairs_compared, parts_one_sided, params_diff_cut, state_one_sided,
			 binary_is_no_document),
		PB_TCASE("memory", compare_without_memory, nothing_left_allocated),
		NULL
	};
	Suite *s = suite_create("compare");

	for (const struct pb_tcase *const *t = tcases; *t; t++) {
		TCase *tc = pb_test_tcase(*t);

		tcase_add_checked_fixture(tc, NULL, release);
		suite_add_tcase(s, tc);
	}
	return s;
}

PB_CHECK_MAIN(compare_suite)
