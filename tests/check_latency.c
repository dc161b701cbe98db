/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The latency command's library: the log-linear histogram (bucket error,
 * percentiles against an exact sorted list, merge), the topology parser
 * with its placement choices, fed fake sysfs trees, and the ping-pong runs:
 * scripted migration counters, party B's exit and the errors' words, and
 * the command's figures under a scripted clock.  Nothing here is timed.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "cleanup.h"
#include "cli.h"
#include "cmd.h"
#include "checks/conformance.h"
#include "histogram.h"
#include "latency.h"
#include "output.h"
#include "topology.h"
#include "uring.h"

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
	/* two values are the fewest with a spread: 1000 and 3000, sqrt(2e6) */
	pb_hist_reset(&h);
	pb_hist_record(&h, 1000);
	pb_hist_record(&h, 3000);
	ck_assert_double_eq_tol(pb_hist_stddev(&h), sqrt(2e6), 1e-6);
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

/* ------------------------------------------- scripted counters and clock */

/*
 * The library reads migrations from /proc/thread-self/sched with fopen and
 * times round trips with clock_gettime(CLOCK_MONOTONIC); this program's own
 * fopen and clock_gettime come before libc's for the statically linked
 * library, so the tests below can script both.  Off, or for any other path
 * or clock, they do what libc does (fopen through open and fdopen).
 */
enum { SCHED_MISSING = -100, SCHED_NO_LINE = -101 };

static bool sched_on;
static pid_t script_pid;            /* the test process: party A */
static int64_t sched_script[2][3];  /* [0] party A's process, [1] B's: by reading */
static unsigned sched_reads;        /* this process's readings (fork copies it) */
static char sched_text[160];

static FILE *plain_fopen(const char *path, const char *mode)
{
	int flags, fd;
	FILE *f;

	switch (mode[0]) {
	case 'r': flags = O_RDONLY; break;
	case 'w': flags = O_WRONLY | O_CREAT | O_TRUNC; break;
	case 'a': flags = O_WRONLY | O_CREAT | O_APPEND; break;
	default: errno = EINVAL; return NULL;
	}
	if (strchr(mode, '+'))
		flags = (flags & ~O_ACCMODE) | O_RDWR;
	if (strchr(mode, 'e'))
		flags |= O_CLOEXEC;
	if (strchr(mode, 'x'))
		flags |= O_EXCL;
	fd = open(path, flags, 0666);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

/* Party B's process killed (SIGKILL) at its second look at its counters,
 * after its round trips, when party A waits for it to end. */
static bool sched_kills_b;
static int b_sched_reads;

/* Party B, a thread, waits at its first look until party A has asked the
 * watchdog (which then says it fired: below). */
static bool b_waits_for_watchdog, wd_asked;

/* perf_event_paranoid's text for perf_refusal, with sched_on (NULL: no
 * such file). */
static const char *paranoid_text;

FILE *fopen(const char *path, const char *mode)
{
	int64_t v;

	if (sched_on && !strcmp(path, "/proc/sys/kernel/perf_event_paranoid")) {
		if (!paranoid_text) {
			errno = ENOENT;
			return NULL;
		}
		return fmemopen((void *)paranoid_text, strlen(paranoid_text), "r");
	}
	if (!sched_on || strcmp(path, "/proc/thread-self/sched") != 0)
		return plain_fopen(path, mode);
	if (b_waits_for_watchdog && gettid() != getpid())
		while (!__atomic_load_n(&wd_asked, __ATOMIC_ACQUIRE))
			usleep(100);
	if (sched_kills_b && getpid() != script_pid && ++b_sched_reads == 2)
		raise(SIGKILL);
	v = sched_script[getpid() == script_pid ? 0 : 1][sched_reads < 3 ? sched_reads : 2];
	sched_reads++;
	if (v == SCHED_MISSING) {
		errno = ENOENT;   /* a kernel without CONFIG_SCHED_DEBUG */
		return NULL;
	}
	if (v == SCHED_NO_LINE)
		snprintf(sched_text, sizeof(sched_text), "se.exec_start : 123.456\n");
	else
		snprintf(sched_text, sizeof(sched_text), "se.exec_start : 123.456\n"
			 "se.nr_migrations                             :                    %lld\n",
			 (long long)v);
	return fmemopen(sched_text, strlen(sched_text), "r");
}

/*
 * The scripted clock: party A's process only, every reading moves on by the
 * step of its number modulo 2000.  Any 2000 consecutive readings, such as a
 * repetition's 2000 round trips (one reading each, nothing else reads the
 * clock in between), then take the same 2000 steps in some order, and the
 * clock's cost (20000 consecutive readings) is the mean step.  Twenty steps
 * are 1 ns (round trips below the cost: 0); the others 10 ms + 100 ns apart,
 * the two largest stretched so that p99, p99.9 and the maximum differ.
 */
static bool clk_on;
static uint64_t clk_now, clk_reads;
/* Or, when set, the steps of this table in turn, its last one repeated. */
static const uint64_t *clk_table;
static size_t clk_len;

static uint64_t clk_step(uint64_t k)
{
	unsigned r = (unsigned)(k % 2000), j;

	if (r % 100 == 0)
		return 1;
	j = r - r / 100 - 1;  /* 0 .. 1979 */
	return 10000000 + 100 * (uint64_t)j + (j == 1979 ? 400000 : j == 1978 ? 200000 : 0);
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (clk_on && id == CLOCK_MONOTONIC && getpid() == script_pid) {
		clk_now += clk_table ? clk_table[clk_reads < clk_len ? clk_reads : clk_len - 1]
				     : clk_step(clk_reads);
		clk_reads++;
		ts->tv_sec = (time_t)(clk_now / 1000000000u);
		ts->tv_nsec = (long)(clk_now % 1000000000u);
		return 0;
	}
	return (int)syscall(SYS_clock_gettime, id, ts);
}

/* How party B's process ended, from the SIGCHLD it sent. */
static volatile sig_atomic_t chld_code, chld_status, chld_count;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	chld_code = si->si_code;
	chld_status = si->si_status;
	chld_count++;
}

/* One repetition with O (PROF: the row's samples, or NULL), its histogram
 * and intervals freed after; SIGCHLD recorded. */
static int lat_run_with(const struct pb_lat_opts *o, struct pb_prof_ips *prof,
			struct pb_lat_result *r, char *err, size_t len)
{
	struct sigaction sa = { .sa_sigaction = on_chld, .sa_flags = SA_SIGINFO | SA_RESTART },
			 old;
	int rc;

	memset(r, 0, sizeof(*r));
	r->prof = prof;
	ck_assert_int_eq(pb_hist_init(&r->hist), 0);
	chld_count = 0;
	ck_assert_int_eq(sigaction(SIGCHLD, &sa, &old), 0);
	script_pid = getpid();
	rc = pb_lat_run(o, r, err, len);
	sigaction(SIGCHLD, &old, NULL);
	pb_hist_free(&r->hist);
	free(r->iv);
	return rc;
}

/* One repetition of 10 round trips of 1 byte on an anonymous pipe, party B
 * a process, counters from getrusage and /proc. */
static int lat_run_once(int cpu_a, int cpu_b, struct pb_lat_result *r, char *err, size_t len)
{
	struct pb_lat_opts o = { .kind = PB_KIND_ANON, .size = 1, .wait = PB_LAT_BLOCK,
				 .cpu_a = cpu_a, .cpu_b = cpu_b, .loops = 10,
				 .source = PB_LAT_SRC_PROC };

	return lat_run_with(&o, NULL, r, err, len);
}

/*
 * A party's migrations are the counter's rise over the repetition: 0 when
 * it did not move, even from 0; unknown (-1) when a reading is missing
 * (no file, no se.nr_migrations line) at either end or the counter went
 * back, each party on its own.  Without perf there is no total of context
 * switches (-1).
 */
START_TEST(migrations_are_the_rise_or_unknown)
{
	static const struct {
		int64_t a0, a1, b0, b1, want_a, want_b;
	} rows[] = {
		{ 5, 5, 5, 5, 0, 0 },
		{ 5, 6, 0, 0, 1, 0 },
		{ 0, 1, 7, 9, 1, 2 },
		{ 5, 4, 7, 9, -1, 2 },
		{ 3, 3, 9, 8, 0, -1 },
		{ SCHED_MISSING, 5, 5, SCHED_MISSING, -1, -1 },
		{ 5, SCHED_MISSING, 2, 3, -1, 1 },
		{ SCHED_NO_LINE, 5, 3, SCHED_NO_LINE, -1, -1 },
		{ 1, 2, SCHED_MISSING, 4, 1, -1 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pb_lat_result r;
		char err[256];

		sched_script[0][0] = rows[i].a0;
		sched_script[0][1] = rows[i].a1;
		sched_script[1][0] = rows[i].b0;
		sched_script[1][1] = rows[i].b1;
		sched_reads = 0;
		sched_on = true;
		ck_assert_msg(lat_run_once(-1, -1, &r, err, sizeof(err)) == 0, "row %zu: %s", i, err);
		sched_on = false;
		ck_assert_msg(r.a.migrations == rows[i].want_a && r.b.migrations == rows[i].want_b,
			      "row %zu: migrations A %lld B %lld, want %lld %lld", i,
			      (long long)r.a.migrations, (long long)r.b.migrations,
			      (long long)rows[i].want_a, (long long)rows[i].want_b);
		ck_assert_int_eq(r.a.ctxsw, -1);
		ck_assert_int_eq(r.b.ctxsw, -1);
	}
}
END_TEST

/* Party B's process killed by a signal: the run fails naming the signal
 * (from B's wait status), not as a party that merely ended early. */
START_TEST(party_b_killed_by_a_signal)
{
	struct pb_lat_result r;
	char err[256] = "";
	int rc;

	memset(sched_script, 0, sizeof(sched_script));
	sched_reads = b_sched_reads = 0;
	sched_on = sched_kills_b = true;
	rc = lat_run_once(-1, -1, &r, err, sizeof(err));
	sched_on = sched_kills_b = false;
	ck_assert_int_lt(rc, 0);
	ck_assert_str_eq(err, "party B (process) was killed by signal 9 (SIGKILL)");
}
END_TEST

/*
 * Party B's process exits 0 after a clean run and 1 when it failed (here:
 * it cannot pin itself), the failure named in ERR; a clean run leaves ERR
 * empty, and party A's own failure (it cannot pin itself) keeps its words
 * rather than a bare strerror.
 */
START_TEST(party_exits_and_errors)
{
	struct pb_lat_result r;
	char err[256], want[128];
	int bad = CPU_SETSIZE - 1;   /* no such CPU: EINVAL */

	ck_assert_int_eq(lat_run_once(-1, -1, &r, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(r.round_trips, 10);
	ck_assert_int_eq(chld_count, 1);
	ck_assert_int_eq(chld_code, CLD_EXITED);
	ck_assert_int_eq(chld_status, 0);

	ck_assert_int_lt(lat_run_once(-1, bad, &r, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "party B: cannot pin to CPU %d: %s", bad, strerror(EINVAL));
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(chld_count, 1);
	ck_assert_int_eq(chld_code, CLD_EXITED);
	ck_assert_int_eq(chld_status, 1);

	ck_assert_int_eq(lat_run_once(bad, -1, &r, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "party A: cannot pin to CPU %d: %s", bad, strerror(EINVAL));
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(chld_count, 1);
	ck_assert_int_eq(chld_code, CLD_EXITED);
	ck_assert_int_eq(chld_status, 0);
}
END_TEST

/* Party A pins the calling process for the run and gives it back its own
 * CPUs after: a pinned cell must not pin the next one, nor the command. */
START_TEST(pinned_run_restores_affinity)
{
	struct pb_lat_result r;
	cpu_set_t before, after;
	char err[256];
	int cpu = -1;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(before), &before), 0);
	for (int i = 0; i < CPU_SETSIZE && cpu < 0; i++)
		if (CPU_ISSET(i, &before))
			cpu = i;
	ck_assert_int_ge(cpu, 0);
	ck_assert_msg(lat_run_once(cpu, cpu, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(after), &after), 0);
	ck_assert(CPU_EQUAL(&before, &after));
}
END_TEST

/* The command's output, run here with ARGV (NULL-terminated), into a string. */
static char *latency_output(const char **argv, const char *path)
{
	int argc = 0;
	char *text = NULL;
	long n;
	FILE *f;

	while (argv[argc])
		argc++;
	sched_reads = clk_reads = clk_now = 0;
	script_pid = getpid();
	sched_on = clk_on = true;
	ck_assert_int_eq(pb_cmd_run(&pb_cmd_latency, argc, argv), PB_EXIT_OK);
	sched_on = clk_on = false;
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_gt(n, 0);
	rewind(f);
	text = calloc(1, (size_t)n + 1);
	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	ck_assert_int_eq(unlink(path), 0);
	return text;
}

static void us(double ns, char *buf, size_t len)
{
	snprintf(buf, len, "%.2f", ns / 1e3);
}

/*
 * Every figure of the text row and of the JSON repetition, recomputed from
 * the round trips the scripted clock makes: the mean, standard deviation,
 * minimum, p50, p90, p99, p99.9, p99.99 (the maximum, with 2000 round trips)
 * and maximum each under its own heading, the rate from the elapsed time,
 * migrations per round trip from both parties' counters (A 5 -> 7, B 3 ->
 * 5: 4 in 2000), the CPUs asked and those the parties ran on, the clock's
 * cost.  A column printed under another's heading, or a figure left out,
 * fails here.
 */
START_TEST(figures_under_a_scripted_clock)
{
	char dir[] = "/tmp/pb-check-lat.XXXXXX", path[64], cpu[16], cpus[40], ran[40];
	const char *av[] = { "latency", "-n", "2000", "-r", "1", "-w", "0", "-c", cpu,
			     "--counters", "rusage", "-q", "-f", "text", "-o", path, NULL };
	static const double pcts[] = { 50, 90, 99, 99.9, 99.99 };
	static const char *const keys[] = { "rtt_p50_ns", "rtt_p90_ns", "rtt_p99_ns",
					     "rtt_p99_9_ns", "rtt_p99_99_ns" };
	char want[10][32], line[64], *text, *row, *tok[24], *save = NULL;
	uint64_t sum = 0, cost;
	struct json_object *doc, *rep;
	struct pb_hist h;
	cpu_set_t allowed;
	size_t ntok = 0;
	int c = 0;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	while (!CPU_ISSET(c, &allowed))
		c++;
	snprintf(cpu, sizeof(cpu), "%d", c);
	snprintf(cpus, sizeof(cpus), "%d,%d", c, c);
	snprintf(ran, sizeof(ran), "%d/%d", c, c);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	/* the probe's reading, then each party's at its start and end */
	sched_script[0][0] = 0;
	sched_script[0][1] = 5;
	sched_script[0][2] = 7;
	sched_script[1][1] = 3;
	sched_script[1][2] = 5;

	/* The round trips: each step less the cost, 0 below it. */
	for (uint64_t k = 0; k < 2000; k++)
		sum += clk_step(k);
	cost = sum / 2000;
	ck_assert_int_eq(pb_hist_init(&h), 0);
	for (uint64_t k = 0; k < 2000; k++)
		pb_hist_record(&h, clk_step(k) > cost ? clk_step(k) - cost : 0);
	us(pb_hist_mean(&h), want[0], sizeof(want[0]));
	us(pb_hist_stddev(&h), want[1], sizeof(want[1]));
	us((double)h.min, want[2], sizeof(want[2]));
	for (size_t k = 0; k < 5; k++)
		us((double)pb_hist_percentile(&h, pcts[k]), want[3 + k], sizeof(want[3 + k]));
	us((double)h.max, want[8], sizeof(want[8]));
	snprintf(want[9], sizeof(want[9]), "%.0f", 2000 * 1e9 / (double)sum);
	/* The script tells the columns apart: min < p50 < p90 < p99 < p99.9 < max. */
	for (size_t k = 2; k < 7; k++)
		ck_assert_msg(atof(want[k]) < atof(want[k + 1]), "%s %s", want[k], want[k + 1]);
	ck_assert_str_eq(want[7], want[8]);

	text = latency_output(av, path);
	snprintf(line, sizeof(line), "\nclock       CLOCK_MONOTONIC, %llu ns per read",
		 (unsigned long long)cost);
	ck_assert_msg(strstr(text, line), "no '%s' in:\n%s", line + 1, text);
	row = strstr(text, "\nanon ");
	ck_assert_msg(row, "no anon row in:\n%s", text);
	row[strcspn(row + 1, "\n") + 1] = '\0';
	for (char *t = strtok_r(row, " \n", &save); t && ntok < 24; t = strtok_r(NULL, " \n", &save))
		tok[ntok++] = t;
	/* anon, 1, B, cpu, block, asked, ran, 9 times, rt/s, vcs, ics, mig */
	ck_assert_uint_eq(ntok, 20);
	ck_assert_str_eq(tok[3], "cpu");
	ck_assert_str_eq(tok[4], "block");
	ck_assert_str_eq(tok[5], cpus);
	ck_assert_str_eq(tok[6], ran);
	for (size_t k = 0; k < 10; k++)
		ck_assert_msg(!strcmp(tok[7 + k], want[k]), "column %zu: '%s', want '%s'", 7 + k,
			      tok[7 + k], want[k]);
	ck_assert_str_eq(tok[19], "0.002");
	free(text);

	av[13] = "json";
	text = latency_output(av, path);
	doc = json_tokener_parse(text);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(pb_json_int(doc, "clock.read_ns", -1), (long long)cost);
	rep = json_object_array_get_idx(pb_json_get(doc, "results"), 0);
	ck_assert_ptr_nonnull(rep);
	ck_assert_str_eq(pb_json_str(rep, "asked_cpus"), cpus);
	rep = json_object_array_get_idx(pb_json_get(rep, "repetitions"), 0);
	ck_assert_ptr_nonnull(rep);
	ck_assert_int_eq(pb_json_int(rep, "round_trips", -1), 2000);
	ck_assert_int_eq(pb_json_int(rep, "elapsed_ns", -1), (long long)sum);
	ck_assert_double_eq_tol(pb_json_num(rep, "rtt_mean_ns"), pb_hist_mean(&h), 1e-6);
	ck_assert_double_eq_tol(pb_json_num(rep, "rtt_stddev_ns"), pb_hist_stddev(&h), 1e-6);
	ck_assert_int_eq(pb_json_int(rep, "rtt_min_ns", -1), (long long)h.min);
	for (size_t k = 0; k < 5; k++)
		ck_assert_msg(pb_json_int(rep, keys[k], -1) ==
			      (long long)pb_hist_percentile(&h, pcts[k]), "%s", keys[k]);
	ck_assert_int_eq(pb_json_int(rep, "rtt_max_ns", -1), (long long)h.max);
	ck_assert_double_eq_tol(pb_json_num(rep, "round_trips_per_s"), 2000 * 1e9 / (double)sum,
				1e-6);
	ck_assert_double_eq_tol(pb_json_num(rep, "migrations_per_round_trip"), 0.002, 1e-12);
	ck_assert_str_eq(pb_json_str(rep, "cpus_a"), cpu);
	ck_assert_str_eq(pb_json_str(rep, "cpus_b"), cpu);
	json_object_put(doc);
	free(text);
	pb_hist_free(&h);
	ck_assert_int_eq(rmdir(dir), 0);   /* nothing left in it */
}
END_TEST

/* calloc fails (ENOMEM) for a histogram's buckets while set: Makefile.am
 * links this test with -Wl,--wrap=calloc. */
static bool bucket_calloc_fails;
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);

void *__wrap_calloc(size_t n, size_t size)
{
	if (bucket_calloc_fails && n == PB_HIST_BUCKETS && size == sizeof(uint64_t)) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_calloc(n, size);
}

/* pb_hist_init says -ENOMEM, as histogram.h promises, and leaves an empty
 * histogram that pb_hist_free takes. */
START_TEST(histogram_without_memory)
{
	struct pb_hist h;

	bucket_calloc_fails = true;
	ck_assert_int_eq(pb_hist_init(&h), -ENOMEM);
	bucket_calloc_fails = false;
	ck_assert_ptr_null(h.counts);
	ck_assert_uint_eq(h.count, 0);
	pb_hist_free(&h);
}
END_TEST

/* Counts added where both are known, -1 (not counted) where either is,
 * on either side: a pinned row's migrations must not be B's -1 added to
 * A's count. */
START_TEST(counters_add_or_are_unknown)
{
	ck_assert_int_eq(pb_lat_add_ctr(3, 4), 7);
	ck_assert_int_eq(pb_lat_add_ctr(0, 0), 0);
	ck_assert_int_eq(pb_lat_add_ctr(2, -1), -1);
	ck_assert_int_eq(pb_lat_add_ctr(-1, 2), -1);
	ck_assert_int_eq(pb_lat_add_ctr(-1, -1), -1);
	ck_assert_int_eq(pb_lat_add_ctr(pb_lat_add_ctr(0, 2), pb_lat_add_ctr(1, -1)), -1);
}
END_TEST

/*
 * A transfer that moved its bytes returns them, whatever errno held
 * before (read and write leave it as it was on success): a stale
 * ETIMEDOUT or EAGAIN is not the watchdog.  EOF before a message is 0,
 * inside one -EPIPE; a write to a pipe without a reader -EPIPE.
 */
START_TEST(xfer_ignores_a_stale_errno)
{
	static const enum pb_lat_wait waits[] = { PB_LAT_BLOCK, PB_LAT_POLL, PB_LAT_SPIN };
	int fd[2];
	char buf[4] = "abc";

	for (size_t i = 0; i < sizeof(waits) / sizeof(waits[0]); i++) {
		ck_assert_int_eq(pipe(fd), 0);
		errno = ETIMEDOUT;
		ck_assert_int_eq(pb_lat_xfer(NULL, fd[1], buf, 3, false, waits[i], false), 3);
		errno = ETIMEDOUT;
		ck_assert_int_eq(pb_lat_xfer(NULL, fd[0], buf, 2, true, waits[i], false), 2);
		errno = EAGAIN;
		ck_assert_int_eq(pb_lat_xfer(NULL, fd[0], buf, 1, true, waits[i], false), 1);
		ck_assert_int_eq(write(fd[1], "x", 1), 1);
		close(fd[1]);
		errno = ETIMEDOUT;
		ck_assert_int_eq(pb_lat_xfer(NULL, fd[0], buf, 2, true, waits[i], false), -EPIPE);
		errno = ETIMEDOUT;
		ck_assert_int_eq(pb_lat_xfer(NULL, fd[0], buf, 2, true, waits[i], false), 0);
		close(fd[0]);
	}
	ck_assert_int_eq(pipe(fd), 0);
	close(fd[0]);
	signal(SIGPIPE, SIG_IGN);
	ck_assert_int_eq(pb_lat_xfer(NULL, fd[1], buf, 1, false, PB_LAT_BLOCK, false), -EPIPE);
	signal(SIGPIPE, SIG_DFL);
	close(fd[1]);
}
END_TEST

/* What pb_lat_run merges into the row's profile from party B. */
static uint64_t merged_b_samples;
static int merges;
void __real_pb_prof_merge(struct pb_prof_ips *sum, const struct pb_prof_ips *a);
void __wrap_pb_prof_merge(struct pb_prof_ips *sum, const struct pb_prof_ips *a);

void __wrap_pb_prof_merge(struct pb_prof_ips *sum, const struct pb_prof_ips *a)
{
	merges++;
	merged_b_samples += a->samples;
	__real_pb_prof_merge(sum, a);
}

/*
 * --profile where CPU-wide events are refused: each party samples its own
 * thread, and B's samples reach the row (merged once, more than none over
 * 20000 round trips), B a process or a thread.
 */
START_TEST(party_b_samples_itself)
{
	struct pb_prof probe = { 0 };

	if (pb_prof_open(&probe, 1000000, NULL, 0) != 0) {
		fprintf(stderr, "# party_b_samples_itself: skipped: no per-task perf sampler here\n");
		return;
	}
	pb_prof_close(&probe);
	for (int threads = 0; threads < 2; threads++) {
		struct pb_lat_opts o = { .kind = PB_KIND_ANON, .size = 1, .wait = PB_LAT_BLOCK,
					 .cpu_a = -1, .cpu_b = -1, .loops = 20000,
					 .source = PB_LAT_SRC_PROC, .threads = threads,
					 .prof_period_ns = 100000 };
		struct pb_prof_ips *prof = calloc(1, sizeof(*prof));
		struct pb_lat_result r;
		char err[256];

		ck_assert_ptr_nonnull(prof);
		merges = 0;
		merged_b_samples = 0;
		ck_assert_msg(lat_run_with(&o, prof, &r, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(merges, 1);
		ck_assert_msg(merged_b_samples > 0, "B (a %s) sampled nothing; the row has %llu",
			      threads ? "thread" : "process", (unsigned long long)prof->samples);
		ck_assert_uint_gt(prof->samples, merged_b_samples);
		free(prof);
	}
}
END_TEST

/* Rings opened and writes through them, by party A (the calling thread)
 * and by B (a thread here). */
static int ring_opens[2], ring_writes[2];
int __real_pb_uring_open(struct pb_uring **u, const char **what);
int __wrap_pb_uring_open(struct pb_uring **u, const char **what);
ssize_t __real_pb_uring_write_wait(struct pb_uring *u, int fd, const void *buf, size_t n);
ssize_t __wrap_pb_uring_write_wait(struct pb_uring *u, int fd, const void *buf, size_t n);

static int party_index(void)
{
	return syscall(SYS_gettid) == getpid() ? 0 : 1;
}

/* The party whose ring cannot be opened (ENOSYS, io_uring_setup), -1:
 * none (party() is below: 0 is A, the test's thread, 1 is B). */
static int ring_fails_party = -1;
static int party(void);

int __wrap_pb_uring_open(struct pb_uring **u, const char **what)
{
	int r;

	if (ring_fails_party >= 0 && party() == ring_fails_party) {
		*what = "io_uring_setup";
		return -ENOSYS;
	}
	r = __real_pb_uring_open(u, what);

	if (r == 0)
		__atomic_add_fetch(&ring_opens[party_index()], 1, __ATOMIC_RELAXED);
	return r;
}

ssize_t __wrap_pb_uring_write_wait(struct pb_uring *u, int fd, const void *buf, size_t n)
{
	__atomic_add_fetch(&ring_writes[party_index()], 1, __ATOMIC_RELAXED);
	return __real_pb_uring_write_wait(u, fd, buf, n);
}

/* --io uring: each party opens its own ring and moves its messages
 * through it, A as well as B (20 round trips: 20 writes each). */
START_TEST(both_parties_use_their_rings)
{
	struct pb_lat_opts o = { .kind = PB_KIND_ANON, .size = 1, .wait = PB_LAT_BLOCK,
				 .cpu_a = -1, .cpu_b = -1, .loops = 20, .threads = true,
				 .uring = true, .source = PB_LAT_SRC_PROC };
	struct pb_lat_result r;
	struct pb_uring *u;
	const char *what;
	char err[256];

	if (__real_pb_uring_open(&u, &what) != 0) {
		fprintf(stderr, "# both_parties_use_their_rings: skipped: no io_uring here\n");
		return;
	}
	pb_uring_close(u);
	memset(ring_opens, 0, sizeof(ring_opens));
	memset(ring_writes, 0, sizeof(ring_writes));
	ck_assert_msg(lat_run_with(&o, NULL, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(r.round_trips, 20);
	ck_assert_int_eq(ring_opens[0], 1);
	ck_assert_int_eq(ring_opens[1], 1);
	ck_assert_int_eq(ring_writes[0], 20);
	ck_assert_int_eq(ring_writes[1], 20);
}
END_TEST

/*
 * Unpinned parties that migrate more than once per 100 round trips: the
 * stability judge says so, counting both parties' migrations (A 0 -> 30,
 * B 0 -> 30) against every round trip of the row (2000); at one in 100
 * exactly (A 0 -> 10, B 0 -> 10) it says nothing of migrations.
 */
START_TEST(migrations_judge_unpinned_stability)
{
	char dir[] = "/tmp/pb-check-lat.XXXXXX", path[64];
	const char *av[] = { "latency", "-n", "2000", "-r", "1", "-w", "0", "--counters", "rusage",
			     "-q", "-f", "json", "-o", path, NULL };
	static const struct { int64_t rise; const char *want; } rows[] = {
		{ 30, "60 migrations in 2000 operations (one in 33)" },
		{ 10, NULL },
	};

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct json_object *doc;
		const char *why;
		char *text;

		memset(sched_script, 0, sizeof(sched_script));
		sched_script[0][2] = sched_script[1][2] = rows[i].rise;
		text = latency_output(av, path);
		doc = json_tokener_parse(text);
		ck_assert_ptr_nonnull(doc);
		why = pb_json_str(json_object_array_get_idx(pb_json_get(doc, "results"), 0),
				  "stability_reason");
		if (rows[i].want)
			ck_assert_msg(why && strstr(why, rows[i].want), "row %zu: '%s' lacks '%s'", i,
				      why ? why : "(none)", rows[i].want);
		else
			ck_assert_msg(!why || !strstr(why, "migrations in"), "row %zu: '%s'", i, why);
		json_object_put(doc);
		free(text);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* ------------------------------------------------ the engine under faults */

/*
 * The calls the engine makes, interposed (Makefile.am: -Wl,--wrap=...) so
 * that the tests below can count them and make one misbehave on request:
 * read and write (one party's Nth call fails or returns 0, every call
 * capped at a few bytes), poll, sched_yield, sched_getcpu, getrusage,
 * perf_event_open (through syscall, a memfd of scripted counter values),
 * pb_watchdog_fired, pthread_create, pb_cleanup_fork, the shared mmap and
 * the message buffer's malloc.  Off, each does what the real call does.
 * The parties: 0 is A (the test's own thread), 1 is B (a thread of this
 * process, or a forked process, which works on its copy of the script).
 */
static int party(void)
{
	return getpid() != script_pid || gettid() != getpid() ? 1 : 0;
}

static bool io_on;
static int io_calls[2][2];          /* [party][rd]: read and write calls made */
static size_t io_cap;               /* 0, or the most bytes one call moves */
static size_t io_asked[16];         /* party A's asks, by call, while capped */
static struct {
	int party, rd, at;          /* the party's AT-th read (rd) or write */
	int errnum;                 /* fails with it; 0: returns 0 (EOF) */
} io_fault = { -1, 0, 0, 0 };
static int nonblock_seen = -1;      /* O_NONBLOCK of party A's first read's fd */

ssize_t __real_read(int fd, void *buf, size_t n);
ssize_t __wrap_read(int fd, void *buf, size_t n);
ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);

/* A counted call of party P: -2 to go on, else what it returns. */
static ssize_t io_script(bool rd, size_t *n)
{
	int p = party(), k = __atomic_add_fetch(&io_calls[p][rd], 1, __ATOMIC_RELAXED);

	if (p == 0 && k <= 16 && io_cap)
		io_asked[k - 1] = *n;
	if (io_cap && *n > io_cap)
		*n = io_cap;
	if (io_fault.party == p && io_fault.rd == rd && io_fault.at == k) {
		errno = io_fault.errnum;
		return io_fault.errnum ? -1 : 0;
	}
	return -2;
}

ssize_t __wrap_read(int fd, void *buf, size_t n)
{
	ssize_t k;

	if (!io_on)
		return __real_read(fd, buf, n);
	if (party() == 0 && nonblock_seen < 0)
		nonblock_seen = (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0;
	k = io_script(true, &n);
	return k == -2 ? __real_read(fd, buf, n) : k;
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	ssize_t k;

	if (!io_on)
		return __real_write(fd, buf, n);
	k = io_script(false, &n);
	return k == -2 ? __real_write(fd, buf, n) : k;
}

/* poll: counted by party; the party's POLL_FAIL_AT-th call fails with
 * POLL_ERRNO.  sched_yield: counted by party. */
static int poll_calls[2], poll_fail_at, poll_errno, yields[2];
int __real_poll(struct pollfd *p, nfds_t n, int timeout);
int __wrap_poll(struct pollfd *p, nfds_t n, int timeout);
int __real_sched_yield(void);
int __wrap_sched_yield(void);

int __wrap_poll(struct pollfd *p, nfds_t n, int timeout)
{
	int k;

	if (!io_on)
		return __real_poll(p, n, timeout);
	k = __atomic_add_fetch(&poll_calls[party()], 1, __ATOMIC_RELAXED);
	if (party() == 0 && k == poll_fail_at) {
		errno = poll_errno;
		return -1;
	}
	return __real_poll(p, n, timeout);
}

int __wrap_sched_yield(void)
{
	if (io_on)
		__atomic_add_fetch(&yields[party()], 1, __ATOMIC_RELAXED);
	return __real_sched_yield();
}

/*
 * pb_watchdog_fired: WD_AFTER_WRITES > 0: true once party A has made that
 * many writes (every round trip starts with one); WD_ALWAYS: true, and
 * WD_ASKED records that A asked (party B waits for that, below).
 */
static int wd_after_writes;
static bool wd_always;
bool __real_pb_watchdog_fired(void);
bool __wrap_pb_watchdog_fired(void);

bool __wrap_pb_watchdog_fired(void)
{
	if (wd_always) {
		__atomic_store_n(&wd_asked, true, __ATOMIC_RELEASE);
		return true;
	}
	if (wd_after_writes)
		return __atomic_load_n(&io_calls[0][0], __ATOMIC_RELAXED) >= wd_after_writes;
	return __real_pb_watchdog_fired();
}

/* sched_getcpu: party P's Nth call (from 0) says CPU cpu_script(P, N). */
static bool cpu_on;
static int cpu_calls[2];
int __real_sched_getcpu(void);
int __wrap_sched_getcpu(void);

static int cpu_script(int p, int n)
{
	if (p == 0 && n == 1)
		return -1;          /* unknown: no CPU to add */
	return 2 * n + p;
}

int __wrap_sched_getcpu(void)
{
	int p;

	if (!cpu_on)
		return __real_sched_getcpu();
	p = party();
	return cpu_script(p, __atomic_fetch_add(&cpu_calls[p], 1, __ATOMIC_RELAXED));
}

/* getrusage: party P's first call says ru_script[P][0], the others [1];
 * a call for anything but the calling thread is counted in RU_NOT_THREAD. */
static bool ru_on;
static int ru_calls[2], ru_not_thread;
static struct rusage ru_script[2][2];
int __real_getrusage(int who, struct rusage *ru);
int __wrap_getrusage(int who, struct rusage *ru);

int __wrap_getrusage(int who, struct rusage *ru)
{
	int p, k;

	if (!ru_on)
		return __real_getrusage(who, ru);
	if (who != RUSAGE_THREAD)
		ru_not_thread++;
	p = party();
	k = __atomic_fetch_add(&ru_calls[p], 1, __ATOMIC_RELAXED);
	*ru = ru_script[p][k ? 1 : 0];
	return 0;
}

/*
 * perf_event_open, through syscall: a software counter of the calling
 * task on any CPU, close-on-exec, every other attribute zero, or the call
 * is counted in PERF_BAD and fails (EINVAL).  PERF_ERRNO: refused with
 * it.  Else a memfd that reads perf_script[party][config is migrations]
 * in turn (PERF_SHORT: 4 bytes only), counted in perf_opens[party].
 */
enum { PERF_SHORT = -7 };
static bool perf_on;
static int perf_errno, perf_bad, perf_opens[2];
static int64_t perf_script[2][2][2];
long __real_syscall(long n, ...);
long __wrap_syscall(long n, ...);

static long fake_perf_open(const struct perf_event_attr *a, long pid, long cpu, long group,
			   long flags)
{
	struct perf_event_attr rest = *a;
	static const struct perf_event_attr zero;
	int p = party(), fd;

	rest.type = 0;
	rest.size = 0;
	rest.config = 0;
	if (a->type != PERF_TYPE_SOFTWARE || a->size != sizeof(*a) ||
	    (a->config != PERF_COUNT_SW_CONTEXT_SWITCHES &&
	     a->config != PERF_COUNT_SW_CPU_MIGRATIONS) || memcmp(&rest, &zero, sizeof(rest)) ||
	    (int)pid != 0 || (int)cpu != -1 || (int)group != -1 ||
	    (unsigned long)flags != PERF_FLAG_FD_CLOEXEC) {
		__atomic_add_fetch(&perf_bad, 1, __ATOMIC_RELAXED);
		errno = EINVAL;
		return -1;
	}
	if (perf_errno) {
		errno = perf_errno;
		return -1;
	}
	fd = memfd_create("pb-fake-perf", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		int64_t v = perf_script[p][a->config == PERF_COUNT_SW_CPU_MIGRATIONS][i];

		if (__real_write(fd, &v, v == PERF_SHORT ? 4 : sizeof(v)) < 0)
			return -1;
		if (v == PERF_SHORT)
			break;
	}
	lseek(fd, 0, SEEK_SET);
	__atomic_add_fetch(&perf_opens[p], 1, __ATOMIC_RELAXED);
	return fd;
}

/* The arguments the library's calls of syscall() pass: only those are read
 * (reading more is undefined, and AddressSanitizer says so). */
static int syscall_nargs(long n)
{
	switch (n) {
	case SYS_pipe2: return 2;
	case SYS_getdents64: return 3;
	case SYS_perf_event_open: return 5;
	default: return 6;
	}
}

long __wrap_syscall(long n, ...)
{
	long a[6] = { 0 };
	int k = syscall_nargs(n);
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < k; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (perf_on && n == SYS_perf_event_open)
		return fake_perf_open((const struct perf_event_attr *)a[0], a[1], a[2], a[3], a[4]);
	return __real_syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* The setup calls that fail on request: pthread_create (EAGAIN), the fork
 * of party B (EAGAIN), the shared mmap (ENOMEM), a malloc of one size. */
static bool pthread_fails, fork_fails, shared_mmap_fails;
static size_t malloc_fails_size;
int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);
pid_t __real_pb_cleanup_fork(void);
pid_t __wrap_pb_cleanup_fork(void);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);
static bool realloc_fails;
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);

/* realloc fails (ENOMEM) while REALLOC_FAILS: the intervals' array. */
void *__wrap_realloc(void *p, size_t n)
{
	if (realloc_fails) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_realloc(p, n);
}

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	return pthread_fails ? EAGAIN : __real_pthread_create(t, a, fn, arg);
}

pid_t __wrap_pb_cleanup_fork(void)
{
	if (fork_fails) {
		errno = EAGAIN;
		return -1;
	}
	return __real_pb_cleanup_fork();
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (shared_mmap_fails && (flags & MAP_SHARED) && (flags & MAP_ANONYMOUS)) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return __real_mmap(addr, len, prot, flags, fd, off);
}

void *__wrap_malloc(size_t n)
{
	if (malloc_fails_size && n == malloc_fails_size) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_malloc(n);
}

/* Every script off and every count zero. */
static void faults_reset(void)
{
	io_on = cpu_on = ru_on = perf_on = wd_always = wd_asked = b_waits_for_watchdog = false;
	pthread_fails = fork_fails = shared_mmap_fails = false;
	sched_on = sched_kills_b = clk_on = false;
	memset(io_calls, 0, sizeof(io_calls));
	memset(io_asked, 0, sizeof(io_asked));
	memset(poll_calls, 0, sizeof(poll_calls));
	memset(yields, 0, sizeof(yields));
	memset(cpu_calls, 0, sizeof(cpu_calls));
	memset(ru_calls, 0, sizeof(ru_calls));
	memset(perf_opens, 0, sizeof(perf_opens));
	script_pid = getpid();
	io_fault.party = -1;
	io_cap = 0;
	nonblock_seen = -1;
	poll_fail_at = poll_errno = 0;
	wd_after_writes = 0;
	ru_not_thread = perf_errno = perf_bad = 0;
	malloc_fails_size = 0;
	realloc_fails = false;
	ring_fails_party = -1;
	memset(ring_opens, 0, sizeof(ring_opens));
	merges = 0;
	merged_b_samples = 0;
}

/* The options of a plain run: N round trips of SIZE bytes on an
 * anonymous pipe, B a process (or a thread), counters from /proc. */
static struct pb_lat_opts plain_opts(uint64_t n, uint64_t size, bool threads)
{
	return (struct pb_lat_opts){ .kind = PB_KIND_ANON, .size = size, .wait = PB_LAT_BLOCK,
				     .cpu_a = -1, .cpu_b = -1, .loops = n, .threads = threads,
				     .source = PB_LAT_SRC_PROC };
}

/* One repetition into R, whose histogram the caller made and frees (with
 * lat_done), as it does R's intervals; SIGCHLD recorded; no descriptor
 * left behind, whatever the outcome. */
static int lat_go(const struct pb_lat_opts *o, struct pb_lat_result *r, char *err, size_t len)
{
	struct sigaction sa = { .sa_sigaction = on_chld, .sa_flags = SA_SIGINFO | SA_RESTART },
			 old;
	int rc, fds = pb_check_count_fds();

	ck_assert_int_ge(fds, 0);
	chld_count = 0;
	ck_assert_int_eq(sigaction(SIGCHLD, &sa, &old), 0);
	script_pid = getpid();
	rc = pb_lat_run(o, r, err, len);
	sigaction(SIGCHLD, &old, NULL);
	ck_assert_int_eq(pb_check_count_fds(), fds);
	return rc;
}

static void lat_init(struct pb_lat_result *r)
{
	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(pb_hist_init(&r->hist), 0);
}

static void lat_done(struct pb_lat_result *r)
{
	pb_hist_free(&r->hist);
	free(r->iv);
	r->iv = NULL;
}

/* A run of O that must fail with RC and the words WANT, after ROUND_TRIPS
 * round trips (each one in the histogram, none more). */
static void want_failure(const struct pb_lat_opts *o, int rc, const char *want,
			 uint64_t round_trips)
{
	struct pb_lat_result r;
	char err[256] = "";
	int got;

	lat_init(&r);
	got = lat_go(o, &r, err, sizeof(err));
	io_on = false;
	ck_assert_msg(got == rc, "rc %d (%s), want %d", got, err, rc);
	ck_assert_str_eq(err, want);
	ck_assert_uint_eq(r.round_trips, round_trips);
	ck_assert_uint_eq(r.hist.count, round_trips);
	lat_done(&r);
}

/*
 * Party A's own transfer fails: the run stops there with that error and
 * A's words, the round trips before it counted (a write that fails on the
 * 5th round trip: 4), B (a process) ending cleanly on the end of file.  A's
 * read finding the end of file is B ending early on the B-to-A channel; a
 * write's EPIPE, on the A-to-B channel; the end of file inside a message
 * (4 bytes, one a call) is EPIPE too.
 */
START_TEST(party_a_transfer_fails)
{
	struct pb_lat_opts o = plain_opts(10, 1, false);

	faults_reset();
	io_on = true;
	io_fault.party = 0;
	io_fault.rd = 0;
	io_fault.at = 5;
	io_fault.errnum = ENOSPC;
	want_failure(&o, -ENOSPC, "party A: No space left on device", 4);
	ck_assert_int_eq(chld_count, 1);
	ck_assert_int_eq(chld_code, CLD_EXITED);
	ck_assert_int_eq(chld_status, 0);

	faults_reset();
	io_on = true;
	io_fault = (typeof(io_fault)){ 0, 1, 3, 0 };
	want_failure(&o, -ECONNRESET, "party B ended early: end of file on the B-to-A channel", 2);

	faults_reset();
	io_on = true;
	io_fault = (typeof(io_fault)){ 0, 0, 2, EPIPE };
	want_failure(&o, -EPIPE, "party B ended early: EPIPE on the A-to-B channel", 1);

	faults_reset();
	o.size = 4;
	io_on = true;
	io_cap = 1;
	io_fault = (typeof(io_fault)){ 0, 1, 6, 0 };   /* the 2nd message's 2nd byte */
	want_failure(&o, -EPIPE, "party B ended early: EPIPE on the A-to-B channel", 1);
	faults_reset();
}
END_TEST

/*
 * Party B's transfer fails: its words reach ERR (a read's end of file
 * inside a message said so, any other error by its strerror), B's process
 * exits 1, and the run fails (A then finds the end of file or EPIPE,
 * whichever comes first), the round trips before it counted.
 */
START_TEST(party_b_transfer_fails)
{
	static const struct {
		bool threads;
		int rd, at, errnum;
		size_t size;
		uint64_t done;
		const char *want;
	} rows[] = {
		{ false, 1, 3, EIO, 1, 2, "party B: read/write: Input/output error" },
		{ false, 0, 2, ENOSPC, 1, 1, "party B: read/write: No space left on device" },
		{ false, 1, 6, 0, 4, 1, "party B: read: end of file inside a message" },
		{ true, 1, 3, EIO, 1, 2, "party B: read/write: Input/output error" },
		{ true, 1, 6, 0, 4, 1, "party B: read: end of file inside a message" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pb_lat_opts o = plain_opts(10, rows[i].size, rows[i].threads);
		struct pb_lat_result r;
		char err[256] = "";
		int rc;

		faults_reset();
		io_on = true;
		io_cap = rows[i].size > 1 ? 1 : 0;
		io_fault = (typeof(io_fault)){ 1, rows[i].rd, rows[i].at, rows[i].errnum };
		lat_init(&r);
		rc = lat_go(&o, &r, err, sizeof(err));
		faults_reset();
		ck_assert_msg(rc == -ECONNRESET || rc == -EPIPE, "row %zu: rc %d", i, rc);
		ck_assert_msg(!strcmp(err, rows[i].want), "row %zu: '%s'", i, err);
		ck_assert_uint_eq(r.round_trips, rows[i].done);
		if (!rows[i].threads) {
			ck_assert_int_eq(chld_count, 1);
			ck_assert_int_eq(chld_code, CLD_EXITED);
			ck_assert_int_eq(chld_status, 1);
		}
		lat_done(&r);
	}
}
END_TEST

/*
 * pb_lat_xfer counts the bytes each call returned, not those it asked for:
 * calls that move two bytes at most ask for what is left (5, 3, 1) at the
 * place it is left, and a read takes no byte of the next message.  A write
 * that moves nothing is -EIO (not 0, not a stale errno); an error is its
 * errno.
 */
START_TEST(xfer_counts_bytes_returned)
{
	int fd[2];
	char buf[8] = "", msg[] = "abcde";

	faults_reset();
	ck_assert_int_eq(pipe(fd), 0);
	io_on = true;
	io_cap = 2;
	ck_assert_int_eq(pb_lat_xfer(NULL, fd[1], msg, 5, false, PB_LAT_BLOCK, false), 5);
	ck_assert_int_eq(io_asked[0], 5);
	ck_assert_int_eq(io_asked[1], 3);
	ck_assert_int_eq(io_asked[2], 1);
	ck_assert_int_eq(io_calls[0][0], 3);
	ck_assert_int_eq(__real_write(fd[1], "fg", 2), 2);
	ck_assert_int_eq(pb_lat_xfer(NULL, fd[0], buf, 5, true, PB_LAT_BLOCK, false), 5);
	ck_assert_int_eq(io_asked[0], 5);
	ck_assert_int_eq(io_asked[1], 3);
	ck_assert_int_eq(io_asked[2], 1);
	ck_assert_int_eq(io_calls[0][1], 3);
	ck_assert_str_eq(buf, "abcde");
	io_cap = 0;
	ck_assert_int_eq(__real_read(fd[0], buf, sizeof(buf)), 2);
	ck_assert_int_eq(memcmp(buf, "fg", 2), 0);

	/* a write of nothing, errno left 0: an I/O error all the same */
	io_fault = (typeof(io_fault)){ 0, 0, 1, 0 };
	io_calls[0][0] = 0;
	ck_assert_int_eq(pb_lat_xfer(NULL, fd[1], msg, 1, false, PB_LAT_BLOCK, false), -EIO);
	io_fault = (typeof(io_fault)){ 0, 1, 1, EBADF };
	io_calls[0][1] = 0;
	ck_assert_int_eq(pb_lat_xfer(NULL, fd[0], buf, 1, true, PB_LAT_BLOCK, false), -EBADF);
	io_fault = (typeof(io_fault)){ 0, 0, 1, ENOSPC };
	io_calls[0][0] = 0;
	ck_assert_int_eq(pb_lat_xfer(NULL, fd[1], msg, 1, false, PB_LAT_SPIN, true), -ENOSPC);
	ck_assert_int_eq(yields[0], 0);
	faults_reset();
	close(fd[0]);
	close(fd[1]);
}
END_TEST

/*
 * EINTR and EAGAIN are retried, the call made again, until the watchdog
 * fires (-ETIMEDOUT); a spinner with YIELD gives up the CPU on EAGAIN
 * only (not on EINTR, not without YIELD).  POLL polls before each read
 * (never before a write, nor in the other modes): a poll that EINTR
 * interrupts is made again, another error is the transfer's.
 */
START_TEST(xfer_retries_and_waits)
{
	static const struct {
		int errnum;
		bool yield, wd;
		ssize_t ret;
		int reads, yields;
	} rows[] = {
		{ EINTR, false, false, 1, 2, 0 },
		{ EINTR, true, false, 1, 2, 0 },
		{ EAGAIN, false, false, 1, 2, 0 },
		{ EAGAIN, true, false, 1, 2, 1 },
		{ EINTR, true, true, -ETIMEDOUT, 1, 0 },
		{ EAGAIN, true, true, -ETIMEDOUT, 1, 0 },
	};
	static const enum pb_lat_wait waits[] = { PB_LAT_BLOCK, PB_LAT_POLL, PB_LAT_SPIN };
	int fd[2];
	char buf[4], zz[] = "zz";

	ck_assert_int_eq(pipe(fd), 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		faults_reset();
		ck_assert_int_eq(__real_write(fd[1], "y", 1), 1);
		io_on = true;
		wd_always = rows[i].wd;
		io_fault = (typeof(io_fault)){ 0, 1, 1, rows[i].errnum };
		ck_assert_msg(pb_lat_xfer(NULL, fd[0], buf, 1, true, PB_LAT_SPIN, rows[i].yield) ==
			      rows[i].ret, "row %zu", i);
		ck_assert_msg(io_calls[0][1] == rows[i].reads && yields[0] == rows[i].yields,
			      "row %zu: %d reads, %d yields", i, io_calls[0][1], yields[0]);
		if (rows[i].wd) {
			io_on = false;
			ck_assert_int_eq(__real_read(fd[0], buf, 1), 1);   /* left unread */
		}
	}
	for (size_t i = 0; i < 3; i++) {
		faults_reset();
		io_on = true;
		ck_assert_int_eq(pb_lat_xfer(NULL, fd[1], zz, 2, false, waits[i], false), 2);
		ck_assert_int_eq(pb_lat_xfer(NULL, fd[0], buf, 1, true, waits[i], false), 1);
		ck_assert_int_eq(pb_lat_xfer(NULL, fd[0], buf, 1, true, waits[i], false), 1);
		ck_assert_int_eq(poll_calls[0], waits[i] == PB_LAT_POLL ? 2 : 0);
	}
	/* poll interrupted: once more; failing: its errno; interrupted when
	 * the watchdog fired: timed out, nothing read */
	faults_reset();
	ck_assert_int_eq(__real_write(fd[1], "w", 1), 1);
	io_on = true;
	poll_fail_at = 1;
	poll_errno = EINTR;
	ck_assert_int_eq(pb_lat_xfer(NULL, fd[0], buf, 1, true, PB_LAT_POLL, false), 1);
	ck_assert_int_eq(poll_calls[0], 2);
	ck_assert_int_eq(buf[0], 'w');
	poll_calls[0] = 0;
	poll_errno = ENOMEM;
	ck_assert_int_eq(pb_lat_xfer(NULL, fd[0], buf, 1, true, PB_LAT_POLL, false), -ENOMEM);
	ck_assert_int_eq(__real_write(fd[1], "v", 1), 1);
	poll_calls[0] = io_calls[0][1] = 0;
	poll_errno = EINTR;
	wd_always = true;
	ck_assert_int_eq(pb_lat_xfer(NULL, fd[0], buf, 1, true, PB_LAT_POLL, false), -ETIMEDOUT);
	ck_assert_int_eq(io_calls[0][1], 0);
	faults_reset();
	ck_assert_int_eq(__real_read(fd[0], buf, 1), 1);
	ck_assert_int_eq(buf[0], 'v');
	close(fd[0]);
	close(fd[1]);
}
END_TEST

/*
 * The wait modes over a whole run (B a thread): spin makes the channels
 * non-blocking, the others leave them blocking; poll polls before each
 * read, A's one a round trip and B's one more for the end of file; a
 * spinner that may yield still completes every round trip.
 */
START_TEST(wait_modes_over_a_run)
{
	static const enum pb_lat_wait waits[] = { PB_LAT_BLOCK, PB_LAT_POLL, PB_LAT_SPIN };

	for (size_t i = 0; i < 3; i++) {
		struct pb_lat_opts o = plain_opts(50, 1, true);
		struct pb_lat_result r;
		char err[256] = "";

		o.wait = waits[i];
		o.spin_yield = waits[i] == PB_LAT_SPIN;
		faults_reset();
		io_on = true;
		lat_init(&r);
		ck_assert_msg(lat_go(&o, &r, err, sizeof(err)) == 0, "%s", err);
		io_on = false;
		ck_assert_str_eq(err, "");
		ck_assert_uint_eq(r.round_trips, 50);
		ck_assert_int_eq(nonblock_seen, waits[i] == PB_LAT_SPIN);
		ck_assert_int_eq(poll_calls[0], waits[i] == PB_LAT_POLL ? 50 : 0);
		ck_assert_int_eq(poll_calls[1], waits[i] == PB_LAT_POLL ? 51 : 0);
		lat_done(&r);
	}
	faults_reset();
}
END_TEST

/*
 * A setup call that fails fails the run with -errno and its name, leaves
 * no descriptor (lat_go) and gives SIGPIPE back its handler: the shared
 * mmap, the message buffer (twice SIZE), the interval histogram (only with
 * --interval: without it the same failing calloc is never made), the
 * first FIFO, pthread_create for a thread B, the fork for a process B.
 */
static void on_pipe(int sig)
{
	(void)sig;
}

START_TEST(setup_failures)
{
	struct pb_lat_opts o = plain_opts(10, 777, false);
	struct sigaction sa = { .sa_handler = on_pipe }, old, now;
	struct pb_lat_result r;
	char err[256], gone[64];

	ck_assert_int_eq(sigaction(SIGPIPE, &sa, &old), 0);
	faults_reset();
	shared_mmap_fails = true;
	want_failure(&o, -ENOMEM, "mmap: Cannot allocate memory", 0);
	faults_reset();
	malloc_fails_size = 2 * 777;
	want_failure(&o, -ENOMEM, "out of memory", 0);
	faults_reset();

	o.interval_ns = 1000000;
	lat_init(&r);
	bucket_calloc_fails = true;
	ck_assert_int_eq(lat_go(&o, &r, err, sizeof(err)), -ENOMEM);
	bucket_calloc_fails = false;
	ck_assert_str_eq(err, "out of memory");
	lat_done(&r);
	o.interval_ns = 0;
	lat_init(&r);
	bucket_calloc_fails = true;
	ck_assert_int_eq(lat_go(&o, &r, err, sizeof(err)), 0);
	bucket_calloc_fails = false;
	ck_assert_uint_eq(r.round_trips, 10);
	lat_done(&r);

	snprintf(gone, sizeof(gone), "/nonexistent-pb-lat-%d", (int)getpid());
	o.kind = PB_KIND_FIFO;
	o.dir[0] = o.dir[1] = gone;
	want_failure(&o, -ENOENT, "fifo: mkfifo: No such file or directory", 0);
	o.kind = PB_KIND_ANON;

	o.threads = true;
	pthread_fails = true;
	want_failure(&o, -EAGAIN, "pthread_create: Resource temporarily unavailable", 0);
	faults_reset();
	o.threads = false;
	fork_fails = true;
	want_failure(&o, -EAGAIN, "fork: Resource temporarily unavailable", 0);
	faults_reset();
	ck_assert_int_eq(sigaction(SIGPIPE, &old, &now), 0);
	ck_assert_ptr_eq(now.sa_handler, on_pipe);
}
END_TEST

/*
 * The watchdog fires in A's loop (after 5 round trips: 5 counted), or while
 * A waits for B to start (B, a thread, not ready until A has asked): the
 * run is "timed out", -ETIMEDOUT, and B still ends cleanly.
 */
START_TEST(watchdog_stops_the_run)
{
	struct pb_lat_opts o = plain_opts(100, 1, false);

	faults_reset();
	io_on = true;
	wd_after_writes = 5;
	want_failure(&o, -ETIMEDOUT, "timed out", 5);
	ck_assert_int_eq(chld_status, 0);

	faults_reset();
	o.threads = true;
	sched_on = wd_always = b_waits_for_watchdog = true;
	want_failure(&o, -ETIMEDOUT, "timed out", 0);
	faults_reset();
}
END_TEST

/*
 * Party B's process killed before it is ready: A, waiting for it, reaps it
 * and fails the run naming the signal, having timed nothing.
 */
START_TEST(party_b_killed_before_ready)
{
	struct pb_lat_opts o = plain_opts(10, 1, false);

	faults_reset();
	memset(sched_script, 0, sizeof(sched_script));
	sched_reads = 0;
	b_sched_reads = 1;
	sched_on = sched_kills_b = true;
	want_failure(&o, -ECONNRESET, "party B (process) was killed by signal 9 (SIGKILL)", 0);
	faults_reset();
}
END_TEST

/*
 * Each party's counters over its loop, B a process and then a thread:
 * getrusage of the calling thread only, each figure the rise from the
 * loop's start to its end (voluntary and involuntary switches, user and
 * system time in ns, minor plus major faults); with perf, context switches
 * and migrations the rise of each counter, -1 where a reading is short or
 * the counter went back; the counters' descriptors closed (lat_go).
 */
static struct rusage ru_at(long nv, long niv, long us_user, long us_sys, long minflt, long majflt)
{
	struct rusage ru = { 0 };

	ru.ru_nvcsw = nv;
	ru.ru_nivcsw = niv;
	ru.ru_utime = (struct timeval){ us_user / 1000000, us_user % 1000000 };
	ru.ru_stime = (struct timeval){ us_sys / 1000000, us_sys % 1000000 };
	ru.ru_minflt = minflt;
	ru.ru_majflt = majflt;
	return ru;
}

START_TEST(party_counters_are_each_rise)
{
	for (int threads = 0; threads < 2; threads++) {
		struct pb_lat_opts o = plain_opts(10, 1, threads);
		struct pb_lat_result r;
		char err[256] = "";

		faults_reset();
		o.source = PB_LAT_SRC_PERF;
		ru_on = perf_on = true;
		ru_script[0][0] = ru_at(10, 20, 1999999, 500000, 100, 3);
		ru_script[0][1] = ru_at(15, 27, 2500001, 700000, 150, 5);
		ru_script[1][0] = ru_at(40, 1, 10, 20, 7, 0);
		ru_script[1][1] = ru_at(49, 4, 30, 70, 8, 1);
		/* [party][context switches, migrations][start, end] */
		memcpy(perf_script, (int64_t[2][2][2]){ { { 100, 140 }, { 7, 9 } },
							{ { 50, 50 }, { 9, 8 } } },
		       sizeof(perf_script));
		lat_init(&r);
		ck_assert_msg(lat_go(&o, &r, err, sizeof(err)) == 0, "%s", err);
		ru_on = perf_on = false;
		ck_assert_int_eq(ru_not_thread, 0);
		ck_assert_int_eq(perf_bad, 0);
		if (threads) {
			ck_assert_int_eq(ru_calls[0], 2);
			ck_assert_int_eq(ru_calls[1], 2);
			ck_assert_int_eq(perf_opens[0], 2);
			ck_assert_int_eq(perf_opens[1], 2);
		}
		ck_assert_int_eq(r.a.vol_ctxsw, 5);
		ck_assert_int_eq(r.a.invol_ctxsw, 7);
		ck_assert_int_eq(r.a.user_ns, 500002000);
		ck_assert_int_eq(r.a.sys_ns, 200000000);
		ck_assert_int_eq(r.a.faults, 52);
		ck_assert_int_eq(r.a.ctxsw, 40);
		ck_assert_int_eq(r.a.migrations, 2);
		ck_assert_int_eq(r.b.vol_ctxsw, 9);
		ck_assert_int_eq(r.b.invol_ctxsw, 3);
		ck_assert_int_eq(r.b.user_ns, 20000);
		ck_assert_int_eq(r.b.sys_ns, 50000);
		ck_assert_int_eq(r.b.faults, 2);
		ck_assert_int_eq(r.b.ctxsw, 0);
		ck_assert_int_eq(r.b.migrations, -1);   /* went back */
		lat_done(&r);
	}
	/* a short reading at either end: unknown */
	for (int end = 0; end < 2; end++) {
		struct pb_lat_opts o = plain_opts(10, 1, true);
		struct pb_lat_result r;
		char err[256] = "";

		faults_reset();
		o.source = PB_LAT_SRC_PERF;
		perf_on = true;
		memcpy(perf_script, (int64_t[2][2][2]){ { { 1, 2 }, { 3, 4 } },
							{ { 5, 6 }, { 7, 8 } } },
		       sizeof(perf_script));
		perf_script[0][end][end] = PERF_SHORT;
		lat_init(&r);
		ck_assert_msg(lat_go(&o, &r, err, sizeof(err)) == 0, "%s", err);
		perf_on = false;
		ck_assert_int_eq(perf_bad, 0);
		ck_assert_int_eq(r.a.ctxsw, end ? 1 : -1);
		ck_assert_int_eq(r.a.migrations, end ? -1 : 1);
		ck_assert_int_eq(r.b.ctxsw, 1);
		ck_assert_int_eq(r.b.migrations, 1);
		lat_done(&r);
	}
}
END_TEST

/*
 * The CPUs each party ran on, sampled on its first round trip and then
 * every 256th: 511 round trips are two samples, 513 three (one more or
 * fewer between samples shows).  A's second sample is unknown (-1: no CPU
 * added); B's samples are its own.
 */
START_TEST(cpus_sampled_every_256th)
{
	static const struct { uint64_t n; int a, b; } rows[] = {
		{ 511, 1, 2 }, { 513, 2, 3 }, { 1, 1, 1 },
	};

	for (int threads = 0; threads < 2; threads++)
		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			struct pb_lat_opts o = plain_opts(rows[i].n, 1, threads);
			struct pb_lat_result r;
			char err[256] = "";

			faults_reset();
			cpu_on = true;
			lat_init(&r);
			ck_assert_msg(lat_go(&o, &r, err, sizeof(err)) == 0, "%s", err);
			faults_reset();
			ck_assert_msg(CPU_COUNT(&r.a.seen) == rows[i].a &&
				      CPU_COUNT(&r.b.seen) == rows[i].b,
				      "%llu round trips: A %d CPUs, B %d",
				      (unsigned long long)rows[i].n, CPU_COUNT(&r.a.seen),
				      CPU_COUNT(&r.b.seen));
			/* sample k: A on CPU 2k (k = 1: unknown), B on 2k + 1 */
			for (int k = 0; k < rows[i].b; k++) {
				ck_assert(CPU_ISSET(2 * k + 1, &r.b.seen));
				ck_assert(k == 1 || CPU_ISSET(2 * k, &r.a.seen));
			}
			lat_done(&r);
		}
}
END_TEST

/*
 * Where the counters come from.  AUTO takes /proc/thread-self/sched's
 * migrations when the file has them and then never opens a perf counter;
 * without them it opens one (closed again: no descriptor left) and takes
 * perf, or, refused, says why next to "no migrations".  PERF opens one
 * even with the file, and when refused fails with the refusal's errno and
 * its reason (perf_event_paranoid's value where the file can be read).
 * RUSAGE never opens one and names no refusal.
 */

START_TEST(counter_sources)
{
	static const char perf_why[] = "perf_event_open software counters (context switches, "
		"migrations; per-task counters add a cost to every context switch) and getrusage "
		"(voluntary, involuntary)";
	static const char sched_why[] = "getrusage (voluntary, involuntary) and "
		"/proc/thread-self/sched (migrations)";
	static const char none_why[] = "getrusage (voluntary, involuntary) and no migrations (no "
		"se.nr_migrations in /proc/thread-self/sched)";
	char denied[128], want[400];
	static const struct {
		enum pb_lat_counters want;
		int64_t sched;
		int perf_errno;
		int rc, src, opens;
		const char *why;     /* NULL: below */
	} rows[] = {
		{ PB_LAT_CTR_AUTO, 4, 0, 0, PB_LAT_SRC_PROC, 0, sched_why },
		{ PB_LAT_CTR_AUTO, SCHED_MISSING, 0, 0, PB_LAT_SRC_PERF, 1, perf_why },
		{ PB_LAT_CTR_AUTO, SCHED_NO_LINE, 0, 0, PB_LAT_SRC_PERF, 1, perf_why },
		{ PB_LAT_CTR_AUTO, SCHED_MISSING, EACCES, 0, PB_LAT_SRC_PROC, 0, NULL },
		{ PB_LAT_CTR_PERF, 4, 0, 0, PB_LAT_SRC_PERF, 1, perf_why },
		{ PB_LAT_CTR_PERF, 4, EACCES, -EACCES, -1, 0, NULL },
		{ PB_LAT_CTR_RUSAGE, SCHED_MISSING, 0, 0, PB_LAT_SRC_PROC, 0, none_why },
		{ PB_LAT_CTR_RUSAGE, 4, 0, 0, PB_LAT_SRC_PROC, 0, sched_why },
	};
	int fds = pb_check_count_fds();

	snprintf(denied, sizeof(denied), "perf_event_open: %s; perf_event_paranoid 3",
		 strerror(EACCES));
	for (int para = 0; para < 2; para++)
		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			enum pb_lat_source src = (enum pb_lat_source)-1;
			char why[400] = "";
			int rc;

			faults_reset();
			paranoid_text = para ? NULL : "3\n";
			if (para)
				snprintf(denied, sizeof(denied), "perf_event_open: %s",
					 strerror(EACCES));
			sched_script[0][0] = rows[i].sched;
			sched_reads = 0;
			script_pid = getpid();
			sched_on = perf_on = true;
			perf_errno = rows[i].perf_errno;
			rc = pb_lat_counters_probe(rows[i].want, &src, why, sizeof(why));
			sched_on = perf_on = false;
			paranoid_text = NULL;
			ck_assert_msg(rc == rows[i].rc, "row %zu: %d", i, rc);
			ck_assert_msg((int)src == rows[i].src, "row %zu: source %d", i, (int)src);
			ck_assert_int_eq(perf_bad, 0);
			ck_assert_msg(perf_opens[0] == rows[i].opens, "row %zu: %d opened", i,
				      perf_opens[0]);
			if (rows[i].why)
				snprintf(want, sizeof(want), "%s", rows[i].why);
			else if (rows[i].want == PB_LAT_CTR_PERF)
				snprintf(want, sizeof(want), "--counters perf: %s", denied);
			else
				snprintf(want, sizeof(want), "%s (%s)", none_why, denied);
			ck_assert_msg(!strcmp(why, want), "row %zu: '%s', want '%s'", i, why, want);
			ck_assert_int_eq(pb_check_count_fds(), fds);
		}
}
END_TEST

/*
 * --interval under a scripted clock (one reading a round trip, one more
 * after each interval's bookkeeping; 100 ns of clock cost off each round
 * trip).  The first interval's 100 round trips, all different, end exactly
 * on its boundary (595 us): its p50 and p99 are theirs (nearest rank: the
 * 50th and 99th of them).  Then a stall of two intervals and more: one
 * interval of one round trip, and the next boundary two intervals on.  Ten
 * round trips reach it exactly; the last two are the partial interval,
 * merged with the others into the run's histogram (113 round trips), the
 * elapsed time up to the last reading.
 */

START_TEST(intervals_under_a_scripted_clock)
{
	enum { IV = 595000, STALL = 2 * IV + 1000, N1 = 100 };
	struct pb_lat_opts o = plain_opts(113, 1, true);
	uint64_t steps[1 + N1 + 1 + 1 + 1 + 10 + 1 + 2], *s = steps;
	struct pb_hist want, one;
	struct pb_lat_result r;
	char err[256] = "";

	o.interval_ns = IV;
	o.clock_cost_ns = 100;
	ck_assert_int_eq(pb_hist_init(&want), 0);
	ck_assert_int_eq(pb_hist_init(&one), 0);
	*s++ = 7;                                  /* t0 */
	for (int j = 0; j < N1; j++) {             /* 1000 .. 10900 ns, shuffled */
		*s++ = 1000 + 100 * (uint64_t)((j * 37) % N1);
		pb_hist_record(&one, s[-1] - 100);
	}
	/* each percentile its own value: one rank more or less shows */
	ck_assert_uint_lt(pb_hist_percentile(&one, 49), pb_hist_percentile(&one, 50));
	ck_assert_uint_lt(pb_hist_percentile(&one, 50), pb_hist_percentile(&one, 51));
	ck_assert_uint_lt(pb_hist_percentile(&one, 98), pb_hist_percentile(&one, 99));
	ck_assert_uint_lt(pb_hist_percentile(&one, 99), pb_hist_percentile(&one, 100));
	*s++ = 500;                                /* bookkeeping: not a round trip */
	*s++ = STALL;
	*s++ = 500;
	for (int j = 0; j < 10; j++)               /* 593000 ns to the next boundary */
		*s++ = 59300;
	*s++ = 500;
	*s++ = 1000;
	*s++ = 1000;
	ck_assert_uint_eq(s - steps, sizeof(steps) / sizeof(steps[0]));

	faults_reset();
	clk_table = steps;
	clk_len = sizeof(steps) / sizeof(steps[0]);
	clk_reads = clk_now = 0;
	clk_on = true;
	lat_init(&r);
	ck_assert_msg(lat_go(&o, &r, err, sizeof(err)) == 0, "%s", err);
	clk_on = false;
	clk_table = NULL;
	ck_assert_uint_eq(r.round_trips, 113);
	ck_assert_uint_eq(r.elapsed_ns, 4 * IV + 500 + 2000);
	ck_assert_uint_eq(r.niv, 3);
	ck_assert_uint_eq(r.iv[0].end_ns, IV);
	ck_assert_uint_eq(r.iv[0].round_trips, N1);
	ck_assert_uint_eq(r.iv[0].p50_ns, pb_hist_percentile(&one, 50));
	ck_assert_uint_eq(r.iv[0].p99_ns, pb_hist_percentile(&one, 99));
	ck_assert_uint_eq(r.iv[1].end_ns, IV + 500 + STALL);
	ck_assert_uint_eq(r.iv[1].round_trips, 1);
	pb_hist_merge(&want, &one);
	pb_hist_reset(&one);
	pb_hist_record(&one, STALL - 100);
	ck_assert_uint_eq(r.iv[1].p50_ns, pb_hist_percentile(&one, 50));
	ck_assert_uint_eq(r.iv[1].p99_ns, pb_hist_percentile(&one, 99));
	ck_assert_uint_eq(r.iv[2].end_ns, 4 * IV);
	ck_assert_uint_eq(r.iv[2].round_trips, 10);
	pb_hist_merge(&want, &one);
	pb_hist_reset(&one);
	for (int j = 0; j < 10; j++)
		pb_hist_record(&one, 59200);
	ck_assert_uint_eq(r.iv[2].p50_ns, pb_hist_percentile(&one, 50));
	ck_assert_uint_eq(r.iv[2].p99_ns, pb_hist_percentile(&one, 99));
	pb_hist_merge(&want, &one);
	pb_hist_record(&want, 900);
	pb_hist_record(&want, 900);
	ck_assert_uint_eq(r.hist.count, want.count);
	ck_assert_uint_eq(r.hist.min, want.min);
	ck_assert_uint_eq(r.hist.max, want.max);
	ck_assert_int_eq(memcmp(r.hist.counts, want.counts, PB_HIST_BUCKETS * sizeof(*want.counts)),
			 0);
	lat_done(&r);
	pb_hist_free(&want);
	pb_hist_free(&one);

	/* No memory for the first interval's entry: the run stops there, out
	 * of memory, its round trips still counted. */
	faults_reset();
	clk_table = steps;
	clk_reads = clk_now = 0;
	clk_on = realloc_fails = true;
	lat_init(&r);
	ck_assert_int_eq(lat_go(&o, &r, err, sizeof(err)), -ENOMEM);
	clk_on = realloc_fails = false;
	clk_table = NULL;
	ck_assert_str_eq(err, "party A: Cannot allocate memory");
	ck_assert_uint_eq(r.niv, 0);
	ck_assert_uint_eq(r.round_trips, N1);
	lat_done(&r);
}
END_TEST

/*
 * A run of a duration under the scripted clock (1 us a round trip): it
 * ends with the round trip that reaches it (10 us: 10 round trips), or
 * sooner at its number of round trips.
 */
START_TEST(duration_ends_the_run)
{
	static const struct { uint64_t loops, duration, want; } rows[] = {
		{ 0, 10000, 10 }, { 0, 9999, 10 }, { 0, 10001, 11 }, { 4, 10000, 4 },
	};
	static const uint64_t one_us[] = { 3, 1000 };

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pb_lat_opts o = plain_opts(rows[i].loops, 1, true);
		struct pb_lat_result r;
		char err[256] = "";

		o.duration_ns = rows[i].duration;
		faults_reset();
		clk_table = one_us;
		clk_len = 2;
		clk_reads = clk_now = 0;
		clk_on = true;
		lat_init(&r);
		ck_assert_msg(lat_go(&o, &r, err, sizeof(err)) == 0, "%s", err);
		clk_on = false;
		clk_table = NULL;
		ck_assert_msg(r.round_trips == rows[i].want, "row %zu: %llu round trips", i,
			      (unsigned long long)r.round_trips);
		ck_assert_uint_eq(r.elapsed_ns, 1000 * rows[i].want);
		ck_assert_uint_eq(r.hist.min, 1000);
		ck_assert_uint_eq(r.hist.max, 1000);
		lat_done(&r);
	}
}
END_TEST

/*
 * B's profile samples reach the row's only when the run succeeded (a
 * failed run's samples are not the row's), and whether or not anything was
 * sampled; a run without a profile merges nothing.
 */
START_TEST(profile_merged_only_on_success)
{
	struct pb_lat_opts o = plain_opts(10, 1, false);
	struct pb_prof_ips *prof = calloc(1, sizeof(*prof));
	struct pb_lat_result r;
	char err[256] = "";

	ck_assert_ptr_nonnull(prof);
	faults_reset();
	lat_init(&r);
	r.prof = prof;
	ck_assert_msg(lat_go(&o, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(merges, 1);
	lat_done(&r);

	faults_reset();
	io_on = true;
	io_fault = (typeof(io_fault)){ 0, 0, 3, ENOSPC };
	lat_init(&r);
	r.prof = prof;
	ck_assert_int_eq(lat_go(&o, &r, err, sizeof(err)), -ENOSPC);
	faults_reset();
	ck_assert_int_eq(merges, 0);
	lat_done(&r);

	lat_init(&r);
	ck_assert_msg(lat_go(&o, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(merges, 0);
	lat_done(&r);
	free(prof);
}
END_TEST

/*
 * --io uring where one party cannot open its ring: the run fails with that
 * party's words and the call's error; B's failure (B a thread) leaves A
 * with nobody to time (-ECONNRESET), A's (B a process) is A's own error,
 * no round trip timed either way.  A opens its ring only while the run is
 * still good.
 */
START_TEST(ring_open_failures)
{
	struct pb_lat_opts o = plain_opts(10, 1, true);
	struct pb_uring *u;
	const char *what;

	if (__real_pb_uring_open(&u, &what) != 0) {
		fprintf(stderr, "# ring_open_failures: skipped: no io_uring here\n");
		return;
	}
	pb_uring_close(u);
	o.uring = true;
	faults_reset();
	ring_fails_party = 1;
	want_failure(&o, -ECONNRESET, "party B: io_uring_setup: Function not implemented", 0);
	ck_assert_int_eq(ring_opens[0], 1);
	o.threads = false;
	faults_reset();
	ring_fails_party = 0;
	want_failure(&o, -ENOSYS, "party A: io_uring_setup: Function not implemented", 0);
	ck_assert_int_eq(chld_code, CLD_EXITED);
	ck_assert_int_eq(chld_status, 0);
	/* A run that has already failed (timed out waiting for B) opens no
	 * ring for A: its failure is the timeout, not the ring's */
	o.threads = true;
	faults_reset();
	ring_fails_party = 0;
	sched_on = wd_always = b_waits_for_watchdog = true;
	want_failure(&o, -ETIMEDOUT, "timed out", 0);
	faults_reset();
}
END_TEST

static Suite *latency_suite(void)
{
	Suite *s = suite_create("latency");
	/* a loaded machine and a sanitizer build are slow: Check's 4 s is short */
	TCase *h = pb_test_tcase(PB_TCASE_TIMED("histogram", 60, bucket_bounds_hold_their_values,
						percentiles_match_a_sorted_list,
						small_values_are_exact,
						merge_equals_recording_everything,
						histogram_without_memory));
	TCase *t = pb_test_tcase(PB_TCASE("topology", one_cpu, smt_pairs,
					  core_is_never_an_smt_pair, two_llcs, two_numa_nodes,
					  offline_cpus_do_not_count, cpuset_of_one_cpu,
					  no_cache_or_node_information));

	suite_add_tcase(s, h);
	suite_add_tcase(s, pb_test_tcase(PB_TCASE_TIMED("errors", 30,
							second_fifo_failure_leaves_nothing)));
	suite_add_tcase(s, pb_test_tcase(PB_TCASE_TIMED("runs", 30,
							migrations_are_the_rise_or_unknown,
							party_exits_and_errors, party_b_killed_by_a_signal,
							pinned_run_restores_affinity,
							figures_under_a_scripted_clock,
							migrations_judge_unpinned_stability,
							counters_add_or_are_unknown,
							xfer_ignores_a_stale_errno,
							party_b_samples_itself,
							both_parties_use_their_rings)));
	suite_add_tcase(s, pb_test_tcase(PB_TCASE_TIMED("faults", 30,
							party_a_transfer_fails,
							party_b_transfer_fails,
							xfer_counts_bytes_returned,
							xfer_retries_and_waits,
							wait_modes_over_a_run,
							setup_failures,
							watchdog_stops_the_run,
							party_b_killed_before_ready,
							party_counters_are_each_rise,
							cpus_sampled_every_256th,
							counter_sources,
							intervals_under_a_scripted_clock,
							duration_ends_the_run,
							profile_merged_only_on_success,
							ring_open_failures)));
	tcase_add_checked_fixture(t, tree_setup, tree_teardown);
	suite_add_tcase(s, t);
	return s;
}

PB_CHECK_MAIN(latency_suite)
