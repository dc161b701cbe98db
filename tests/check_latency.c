/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The latency command's library: the log-linear histogram (bucket error,
 * percentiles against an exact sorted list, merge) and the topology parser
 * with its placement choices, fed fake sysfs trees.  Nothing here is timed.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "cleanup.h"
#include "conformance.h"
#include "histogram.h"
#include "latency.h"
#include "topology.h"

/* A deterministic generator (xorshift64*), so a failure can be replayed. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* Log-uniform values from 1 to 2^40: every bucket scale gets its share. */
static uint64_t rnd_value(void)
{
	unsigned bits = (unsigned)(rnd() % 40) + 1;

	return (rnd() & ((1ULL << bits) - 1)) | 1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

START_TEST(bucket_bounds_hold_their_values)
{
	/* Every value lands in a bucket whose bounds hold it, and the bucket is
	 * narrower than 1% of its lowest value (exact below 256). */
	for (int i = 0; i < 30000; i++) {
		uint64_t v = i < 1000 ? (uint64_t)i : rnd_value() << (rnd() % 24);
		size_t b = pb_hist_index(v);
		uint64_t lo = pb_hist_lowest(b), hi = pb_hist_highest(b);

		ck_assert_uint_lt(b, PB_HIST_BUCKETS);
		ck_assert_uint_le(lo, v);
		ck_assert_uint_ge(hi, v);
		if (lo < 256)
			ck_assert_uint_eq(lo, hi);
		else
			ck_assert((double)(hi - lo + 1) / (double)lo <= 0.01);
	}
	/* The extremes fit, and buckets tile the range without gaps. */
	ck_assert_uint_eq(pb_hist_index(UINT64_MAX), PB_HIST_BUCKETS - 1);
	ck_assert_uint_eq(pb_hist_highest(PB_HIST_BUCKETS - 1), UINT64_MAX);
	for (size_t b = 1; b < PB_HIST_BUCKETS; b++)
		ck_assert_uint_eq(pb_hist_lowest(b), pb_hist_highest(b - 1) + 1);
}
END_TEST

START_TEST(percentiles_match_a_sorted_list)
{
	static const double pcts[] = { 0.1, 1, 25, 50, 90, 99, 99.9, 99.99, 100 };
	enum { N = 100003 };
	uint64_t *v = malloc(N * sizeof(*v));
	struct pb_hist h;
	long double sum = 0;

	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(pb_hist_init(&h), 0);
	for (size_t i = 0; i < N; i++) {
		/* A latency-like shape: a body near 5 us and a long tail. */
		v[i] = rnd() % 8 ? 4000 + rnd() % 2000 : rnd_value();
		pb_hist_record(&h, v[i]);
		sum += v[i];
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	ck_assert_uint_eq(h.count, N);
	ck_assert_uint_eq(h.min, v[0]);
	ck_assert_uint_eq(h.max, v[N - 1]);
	ck_assert(fabs(pb_hist_mean(&h) - (double)(sum / N)) < 1e-6 * (double)(sum / N));
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		size_t rank = (size_t)ceil(pcts[i] / 100 * N);
		uint64_t exact = v[rank - 1], got = pb_hist_percentile(&h, pcts[i]);

		ck_assert_msg(fabs((double)got - (double)exact) <= 0.01 * (double)exact,
			      "p%g: %llu, exact %llu", pcts[i], (unsigned long long)got,
			      (unsigned long long)exact);
	}
	pb_hist_free(&h);
	free(v);
}
END_TEST

START_TEST(small_values_are_exact)
{
	struct pb_hist h;

	ck_assert_int_eq(pb_hist_init(&h), 0);
	for (uint64_t i = 1; i <= 100; i++)
		pb_hist_record(&h, i);
	ck_assert_uint_eq(pb_hist_percentile(&h, 50), 50);
	ck_assert_uint_eq(pb_hist_percentile(&h, 99), 99);
	ck_assert_uint_eq(pb_hist_percentile(&h, 99.5), 100);   /* nearest rank rounds up */
	ck_assert_uint_eq(pb_hist_percentile(&h, 100), 100);
	ck_assert_double_eq_tol(pb_hist_mean(&h), 50.5, 1e-9);
	ck_assert_double_eq_tol(pb_hist_stddev(&h), 29.011491975882016, 1e-9);
	pb_hist_reset(&h);
	ck_assert_uint_eq(h.count, 0);
	ck_assert_uint_eq(pb_hist_percentile(&h, 50), 0);
	/* one value, then the same value again: no spread (0, not negative) */
	pb_hist_record(&h, 7);
	ck_assert_double_eq(pb_hist_stddev(&h), 0);
	ck_assert_double_eq_tol(pb_hist_mean(&h), 7, 1e-12);
	pb_hist_record(&h, 7);
	ck_assert_double_eq(pb_hist_stddev(&h), 0);
	pb_hist_record(&h, 10);
	ck_assert_double_eq_tol(pb_hist_stddev(&h), sqrt(3.0), 1e-9);
	pb_hist_free(&h);
}
END_TEST

START_TEST(merge_equals_recording_everything)
{
	struct pb_hist a, b, all;

	ck_assert_int_eq(pb_hist_init(&a), 0);
	ck_assert_int_eq(pb_hist_init(&b), 0);
	ck_assert_int_eq(pb_hist_init(&all), 0);
	for (int i = 0; i < 50000; i++) {
		uint64_t v = rnd_value();

		pb_hist_record(i % 3 ? &a : &b, v);
		pb_hist_record(&all, v);
	}
	pb_hist_merge(&a, &b);
	ck_assert_uint_eq(a.count, all.count);
	ck_assert_uint_eq(a.min, all.min);
	ck_assert_uint_eq(a.max, all.max);
	ck_assert_int_eq(memcmp(a.counts, all.counts, PB_HIST_BUCKETS * sizeof(*a.counts)), 0);
	ck_assert_uint_eq(pb_hist_percentile(&a, 99.9), pb_hist_percentile(&all, 99.9));
	ck_assert_double_eq_tol(pb_hist_mean(&a), pb_hist_mean(&all), 1e-6);
	/* Into an empty histogram: a copy, minimum included. */
	pb_hist_reset(&b);
	pb_hist_merge(&b, &all);
	ck_assert_uint_eq(b.min, all.min);
	ck_assert_uint_eq(b.count, all.count);
	/* Merging an empty histogram changes nothing, min included. */
	pb_hist_reset(&b);
	pb_hist_merge(&a, &b);
	ck_assert_uint_eq(a.min, all.min);
	ck_assert_uint_eq(a.count, all.count);
	pb_hist_free(&a);
	pb_hist_free(&b);
	pb_hist_free(&all);
}
END_TEST

/* ------------------------------------------------------------ fake sysfs */

static char root[256];

static void put(const char *rel, const char *text)
{
	char path[512], dir[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(s - path), path);
		mkdir(dir, 0755);
	}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* CPU with its SMT siblings, L1 private, L3 shared with L3, NUMA node (-1: none). */
static void cpu(int c, const char *siblings, const char *l3, int node)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "cpu%d/topology/thread_siblings_list", c);
	put(rel, siblings);
	snprintf(rel, sizeof(rel), "cpu%d/topology/physical_package_id", c);
	put(rel, "0");
	snprintf(rel, sizeof(rel), "cpu%d/cache/index0/level", c);
	put(rel, "1");
	snprintf(rel, sizeof(rel), "cpu%d/cache/index0/shared_cpu_list", c);
	put(rel, siblings);
	if (l3) {
		snprintf(rel, sizeof(rel), "cpu%d/cache/index3/level", c);
		put(rel, "3");
		snprintf(rel, sizeof(rel), "cpu%d/cache/index3/shared_cpu_list", c);
		put(rel, l3);
	}
	if (node >= 0) {
		snprintf(rel, sizeof(rel), "cpu%d/node%d/.keep", c, node);
		put(rel, "");
	}
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void tree_setup(void)
{
	snprintf(root, sizeof(root), "%s/pbtopo.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static void tree_teardown(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * A fake machine of up to four CPUs and what pb_topo_read and pb_topo_pick
 * must make of it.  A pick is a pair of CPUs (PAIR), a refusal whose reason
 * holds a phrase (NONE; NULL: any reason), or, with ANY_CPU, a CPU not looked
 * at.
 */
#define ANY_CPU INT_MIN

struct topo_pick {
	bool set;
	enum pb_place place;
	int ret, a, b;
	const char *why;
};

#define PAIR(p, x, y) { true, PB_PLACE_##p, 0, (x), (y), NULL }
#define NONE(p, text) { true, PB_PLACE_##p, 1, ANY_CPU, ANY_CPU, (text) }

struct topo_case {
	struct { const char *siblings, *l3; int node; } cpu[4];  /* siblings NULL: absent */
	const char *online;           /* NULL: no online file (all of them) */
	int allowed;                  /* the one CPU of the cpuset, -1: no cpuset */
	size_t n;                     /* usable CPUs it must count, 0: not checked */
	struct topo_pick picks[6];
};

static void want_picks(const struct pb_topo *t, const struct topo_pick *p, size_t n)
{
	for (const struct topo_pick *end = p + n; p < end && p->set; p++) {
		char why[256] = "";
		int a, b;

		ck_assert_msg(pb_topo_pick(t, p->place, &a, &b, why, sizeof(why)) == p->ret,
			      "place %d: not %d (%s)", (int)p->place, p->ret, why);
		if (p->a != ANY_CPU)
			ck_assert_int_eq(a, p->a);
		if (p->b != ANY_CPU)
			ck_assert_int_eq(b, p->b);
		if (p->why)
			ck_assert_msg(strstr(why, p->why), "place %d: '%s' lacks '%s'",
				      (int)p->place, why, p->why);
	}
}

/* Writes machine M under root, reads it into T and checks its picks. */
static void topo_case(const struct topo_case *m, struct pb_topo *t)
{
	cpu_set_t allowed;

	for (int c = 0; c < 4 && m->cpu[c].siblings; c++)
		cpu(c, m->cpu[c].siblings, m->cpu[c].l3, m->cpu[c].node);
	if (m->online)
		put("online", m->online);
	CPU_ZERO(&allowed);
	if (m->allowed >= 0)
		CPU_SET(m->allowed, &allowed);
	ck_assert_int_eq(pb_topo_read(root, m->allowed >= 0 ? &allowed : NULL, t), 0);
	if (m->n)
		ck_assert_uint_eq(t->n, m->n);
	want_picks(t, m->picks, sizeof(m->picks) / sizeof(m->picks[0]));
}

/* A test that is its machine's table and nothing else. */
#define TOPO_TEST(name, machine) \
	START_TEST(name) { struct pb_topo t; topo_case(&(machine), &t); } END_TEST

static const struct topo_case one_cpu_machine = {
	{ { "0", "0", 0 } }, "0", -1, 1,
	{ { true, PB_PLACE_ANY, 0, -1, ANY_CPU, NULL }, PAIR(SAME, 0, 0),
	  NONE(SMT, "only one usable CPU"), NONE(CORE, "only one usable CPU"),
	  NONE(LLC, "only one usable CPU"), NONE(NUMA, "only one usable CPU") },
};
TOPO_TEST(one_cpu, one_cpu_machine)

static const struct topo_case smt_pairs_machine = {
	{ { "0,2", "0-3", 0 }, { "1,3", "0-3", 0 }, { "0,2", "0-3", 0 }, { "1,3", "0-3", 0 } },
	"0-3", -1, 4,
	{ PAIR(SMT, 0, 2), PAIR(CORE, 0, 1), NONE(LLC, "share one last-level cache (L3)"),
	  NONE(NUMA, "NUMA node 0") },
};
TOPO_TEST(smt_pairs, smt_pairs_machine)

static const struct topo_case two_cores_machine = {
	{ { "0-1", "0-3", 0 }, { "0-1", "0-3", 0 }, { "2-3", "0-3", 0 }, { "2-3", "0-3", 0 } },
	"0-3", -1, 0, { PAIR(SMT, 0, 1), PAIR(CORE, 0, 2) },
};

START_TEST(core_is_never_an_smt_pair)
{
	/* One core with two threads: no pair of cores at all. */
	static const struct topo_pick one_core[] = { NONE(CORE, "different cores") };
	struct pb_topo t;

	topo_case(&two_cores_machine, &t);
	put("online", "0-1");
	ck_assert_int_eq(pb_topo_read(root, NULL, &t), 0);
	want_picks(&t, one_core, 1);
}
END_TEST

static const struct topo_case two_llcs_machine = {
	{ { "0", "0-1", 0 }, { "1", "0-1", 0 }, { "2", "2-3", 0 }, { "3", "2-3", 0 } },
	NULL, -1, 4,
	{ NONE(SMT, "SMT siblings"), PAIR(CORE, 0, 1), PAIR(LLC, 0, 2), NONE(NUMA, NULL) },
};
TOPO_TEST(two_llcs, two_llcs_machine)

static const struct topo_case two_numa_nodes_machine = {
	{ { "0", "0-1", 0 }, { "1", "0-1", 0 }, { "2", "2-3", 1 }, { "3", "2-3", 1 } },
	"0-3", -1, 0, { PAIR(NUMA, 0, 2) },
};

START_TEST(two_numa_nodes)
{
	struct pb_topo t;

	topo_case(&two_numa_nodes_machine, &t);
	ck_assert_int_eq(t.cpu[3].node, 1);
}
END_TEST

static const struct topo_case offline_cpus_machine = {
	{ { "0", "0-3", 0 }, { "1", "0-3", 0 }, { "2", "0-3", 0 }, { "3", "0-3", 0 } },
	"0,3", -1, 2, { PAIR(CORE, 0, 3) },
};
TOPO_TEST(offline_cpus_do_not_count, offline_cpus_machine)

static const struct topo_case cpuset_machine = {
	{ { "0,1", "0-1", 0 }, { "0,1", "0-1", 0 } }, "0-1", 1, 1,
	{ PAIR(SAME, 1, 1), { true, PB_PLACE_SMT, 1, -1, ANY_CPU, "only one usable CPU (1" } },
};
TOPO_TEST(cpuset_of_one_cpu, cpuset_machine)

static const struct topo_case no_cache_machine = {
	{ { "0", NULL, -1 }, { "1", NULL, -1 } }, NULL, -1, 0,
	/* Only private L1 caches: no two cores share a last-level cache. */
	{ NONE(CORE, "different cores sharing"), NONE(NUMA, "no NUMA topology") },
};

START_TEST(no_cache_or_node_information)
{
	struct pb_topo t;

	topo_case(&no_cache_machine, &t);
	ck_assert_int_eq(t.cpu[0].llc_level, 1);
	/* A root that does not exist is an error, not an empty machine. */
	ck_assert_int_lt(pb_topo_read("/nonexistent/pipebench", NULL, &t), 0);
}
END_TEST

/*
 * The second FIFO cannot be made (its directory is gone): the run fails
 * naming the call, and the first FIFO is closed and removed, its
 * directory left as empty as it was.
 */
START_TEST(second_fifo_failure_leaves_nothing)
{
	char t0[512], gone[64], err[256], path[600];
	struct pb_lat_opts o = { .kind = PB_KIND_FIFO, .size = 1, .wait = PB_LAT_BLOCK,
				 .cpu_a = -1, .cpu_b = -1, .loops = 10,
				 .source = PB_LAT_SRC_PROC };
	struct pb_lat_result r = { 0 };
	int fds;

	ck_assert_int_eq(pb_tmpdir_make(NULL, t0, sizeof(t0)), 0);
	snprintf(gone, sizeof(gone), "/nonexistent-pb-lat-%d", (int)getpid());
	o.dir[0] = t0;
	o.dir[1] = gone;
	ck_assert_int_eq(pb_hist_init(&r.hist), 0);
	fds = pb_check_count_fds();
	ck_assert_int_ge(fds, 0);
	ck_assert_int_lt(pb_lat_run(&o, &r, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "mkfifo"), "%s", err);
	snprintf(path, sizeof(path), "%s/fifo", t0);
	ck_assert_msg(access(path, F_OK) != 0, "%s left behind", path);
	ck_assert_int_eq(pb_check_count_fds(), fds);
	ck_assert_int_eq(rmdir(t0), 0); /* empty: nothing left in it */
	pb_tmpdir_remove(t0);
	pb_hist_free(&r.hist);
}
END_TEST

static Suite *latency_suite(void)
{
	Suite *s = suite_create("latency");
	/* a loaded machine and a sanitizer build are slow: Check's 4 s is short */
	TCase *h = pb_test_tcase(PB_TCASE_TIMED("histogram", 60, bucket_bounds_hold_their_values,
						percentiles_match_a_sorted_list,
						small_values_are_exact,
						merge_equals_recording_everything));
	TCase *t = pb_test_tcase(PB_TCASE("topology", one_cpu, smt_pairs,
					  core_is_never_an_smt_pair, two_llcs, two_numa_nodes,
					  offline_cpus_do_not_count, cpuset_of_one_cpu,
					  no_cache_or_node_information));

	suite_add_tcase(s, h);
	suite_add_tcase(s, pb_test_tcase(PB_TCASE_TIMED("errors", 30,
							second_fifo_failure_leaves_nothing)));
	tcase_add_checked_fixture(t, tree_setup, tree_teardown);
	suite_add_tcase(s, t);
	return s;
}

PB_CHECK_MAIN(latency_suite)
