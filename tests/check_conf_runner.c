/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The conformance runner (src/checks/runner.c), the catalogue as a whole,
 * and the helpers every check group shares (src/checks/util.c; and the
 * tests' own pattern matcher, tests/check_conf.h).  The runner: the
 * watchdog (a check that blocks forever), a check killed by a signal or
 * exiting without a verdict, a helper it leaves behind, an interruption,
 * the fail/error rule decided in one place, the naps it waits for a check
 * with, and its own resources failing (the page it shares with a check's
 * process, the conformance command's tables: mmap and calloc fail on
 * request).  The catalogue: unique IDs in sequence, every check carrying
 * its metadata, the checks that run in-process closing and removing what
 * they made.  Each helper on a case where it must tell a misbehaving call
 * or environment from a good one.  A check's own tests are in
 * tests/check_conf_GROUP.c.
 */
#include <config.h>

#include <check.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_conf.h"
#include "check_main.h"
#include "cleanup.h"
#include "cli.h"
#include "cmd.h"
#include "checks/conformance.h"
#include "tsprobe.h"

/* ---- the harness's own resources failing on request ---- */

/* When calloc_nmemb is nonzero, the calloc_nth calloc of that many
 * elements (counted in calloc_seen) fails with ENOMEM. */
static size_t calloc_nmemb;
static int calloc_nth, calloc_seen;

void *calloc(size_t nmemb, size_t size)
{
	static void *(*real)(size_t, size_t);

	if (calloc_nmemb && nmemb == calloc_nmemb && ++calloc_seen == calloc_nth) {
		errno = ENOMEM;
		return NULL;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "calloc");
	return real(nmemb, size);
}

/* When nonzero, sysconf(_SC_PAGESIZE) answers this (a machine with other
 * pages than this one's). */
static long fake_page_size;

long sysconf(int name)
{
	static long (*real)(int);

	if (fake_page_size && name == _SC_PAGESIZE)
		return fake_page_size;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "sysconf");
	return real(name);
}

/* When set, the next shared anonymous mmap fails with ENOMEM (the page the
 * runner shares with a check's process), once. */
static bool shared_mmap_fails;

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);

	if (shared_mmap_fails && (flags & MAP_SHARED) && (flags & MAP_ANONYMOUS)) {
		shared_mmap_fails = false;
		errno = ENOMEM;
		return MAP_FAILED;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "mmap");
	return real(addr, len, prot, flags, fd, off);
}

/* ---- the catalogue ---- */

START_TEST(ids_unique)
{
	for (size_t g = 0; pb_check_groups[g]; g++)
		for (const struct pb_check *c = pb_check_groups[g]; c->id; c++)
			ck_assert_ptr_eq(pb_test_find_check(c->id), c);
}
END_TEST

/* The catalogue's counts, IDs in sequence from 01 (never renumbered: new
 * checks are appended), unique, and every check carries its metadata. */
START_TEST(registry_complete)
{
	static const struct {
		const struct pb_check *group;
		const char *prefix;
		int count;
	} g[] = {
		{ pb_checks_creation, "CRE-", 10 },
		{ pb_checks_read, "RD-", 7 },
		{ pb_checks_write, "WR-", 6 },
		{ pb_checks_nonblock, "NB-", 5 },
		{ pb_checks_sigpipe, "SIG-", 5 },
		{ pb_checks_fifo, "FIFO-", 8 },
		{ pb_checks_fcntl, "FC-", 6 },
		{ pb_checks_poll, "PL-", 5 },
		{ pb_checks_metadata, "MD-", 6 },
		{ pb_checks_linux, "LX-", 10 },
	};

	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		int n = 0;

		for (const struct pb_check *c = g[i].group; c->id; c++, n++) {
			char want[24];

			snprintf(want, sizeof(want), "%s%02d", g[i].prefix, n + 1);
			ck_assert_str_eq(c->id, want);
			ck_assert_ptr_eq(pb_test_find_check(c->id), c);
			ck_assert(c->group && c->tag && c->title && c->citation && c->run);
			ck_assert(c->tag[0] && c->title[0] && c->citation[0]);
		}
		ck_assert_int_eq(n, g[i].count);
	}
	ck_assert(pb_test_check("LX-07")->flags & PB_CHECK_GLOBAL);
	ck_assert(pb_test_check("LX-07")->flags & PB_CHECK_PRIV);
	ck_assert(pb_test_check("LX-03")->flags & PB_CHECK_PRIV);
}
END_TEST

/* Every check (but the setuid and global ones) closes what it opens. */
START_TEST(no_fd_leaks)
{
	static const struct pb_check *const groups[] = {
		pb_checks_poll, pb_checks_metadata, pb_checks_linux
	};
	char dir[4096];

	ck_assert_int_eq(pb_tmpdir_make(NULL, dir, sizeof(dir)), 0);
	for (size_t g = 0; g < 3; g++)
		for (const struct pb_check *c = groups[g]; c->id; c++) {
			struct pb_check_ctx ctx = { .sys = &pb_sysops_real, .dir = dir,
						    .kind = PB_KIND_ANON, .verdict = PB_PASS };
			int before, after;

			if (c->flags & (PB_CHECK_GLOBAL | PB_CHECK_PRIV))
				continue;
			before = pb_check_count_fds();
			c->run(&ctx);
			after = pb_check_count_fds();
			ck_assert_msg(after == before, "%s leaves %d descriptors open", c->id,
				      after - before);
		}
	pb_tmpdir_remove(dir);
}
END_TEST

/*
 * The checks that make a file of their own in their directory (LX-02's
 * FIFO for the O_DIRECT quirk, LX-06's temporary file, PL-04's two FIFOs,
 * WR-05's and SIG-05's FIFO) remove it themselves: run here, in this process, with no
 * runner to empty the directory after them, they leave it empty.  (The
 * runner's clean-up is for a check that was killed.)
 */
START_TEST(checks_leave_their_directory_empty)
{
	static const char *const ids[] = { "LX-02", "LX-06", "PL-04", "WR-05", "SIG-05" };

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct pb_check_ctx ctx = { .sys = &pb_sysops_real, .kind = PB_KIND_ANON,
					    .verdict = PB_PASS };
		char dir[4096], left[512] = "";
		struct dirent *e;
		DIR *d;

		ck_assert_int_eq(pb_tmpdir_make(NULL, dir, sizeof(dir)), 0);
		ctx.dir = dir;
		pb_test_find_check(ids[i])->run(&ctx);
		pb_check_disarm();
		d = opendir(dir);
		ck_assert_ptr_nonnull(d);
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
				snprintf(left + strlen(left), sizeof(left) - strlen(left), " %s",
					 e->d_name);
		closedir(d);
		pb_cleanup_empty_dir(dir);
		pb_tmpdir_remove(dir);
		ck_assert_msg(ctx.verdict != PB_FAIL && ctx.verdict != PB_ERROR, "%s: %s: %s",
			      ids[i], pb_verdict_names[ctx.verdict], ctx.detail);
		ck_assert_msg(!left[0], "%s (%s) left in its directory:%s", ids[i],
			      pb_verdict_names[ctx.verdict], left);
	}
}
END_TEST

/* ---- the runner ---- */

static void block_forever(struct pb_check_ctx *ctx)
{
	(void)ctx;
	for (;;)
		pause();
}

static void die_of_sigpipe(struct pb_check_ctx *ctx)
{
	int fd[2];

	if (pipe(fd) == 0) {
		close(fd[0]);
		(void)!write(fd[1], "x", 1);  /* SIGPIPE is SIG_DFL in a check */
	}
	pb_check_set(ctx, PB_PASS, "survived");
}

START_TEST(watchdog_kills_blocked_check)
{
	const struct pb_check c = { "T-01", "test", "T", "blocks forever", "none", 0,
				    block_forever };
	struct pb_check_result r;

	pb_test_run_check(&c, NULL, PB_KIND_ANON, 0.3, &r);
	ck_assert_int_eq(r.verdict, PB_FAIL);
	ck_assert(r.timed_out);
	ck_assert_msg(strstr(r.detail, "timed out") != NULL, "%s", r.detail);
	/* The runner goes on: the next check runs normally. */
	pb_test_run_check(pb_test_find_check("RD-01"), NULL, PB_KIND_ANON, 5, &r);
	ck_assert_int_eq(r.verdict, PB_PASS);
}
END_TEST

START_TEST(signal_is_fail_naming_it)
{
	const struct pb_check c = { "T-02", "test", "T", "dies", "none", 0, die_of_sigpipe };
	struct pb_check_result r;

	signal(SIGPIPE, SIG_IGN);  /* the runner must reset it in the child */
	pb_test_run_check(&c, NULL, PB_KIND_ANON, 5, &r);
	ck_assert_int_eq(r.verdict, PB_FAIL);
	ck_assert_int_eq(r.signal, SIGPIPE);
	ck_assert(!r.timed_out);
	ck_assert_msg(strstr(r.detail, "SIGPIPE") != NULL, "%s", r.detail);
}
END_TEST

/* A check that forks a long-lived helper (it inherits the result pipe),
 * tells the test its pid, and dies. */
static int helper_pid_pipe[2];

static void die_leaving_helper(struct pb_check_ctx *ctx)
{
	pid_t h = fork();

	(void)ctx;
	if (h == 0) {
		sleep(20);
		_exit(0);
	}
	if (write(helper_pid_pipe[1], &h, sizeof(h)) != sizeof(h))
		_exit(1);
	kill(getpid(), SIGKILL);
}

START_TEST(helper_holding_result_pipe)
{
	const struct pb_check c = { "T-03", "test", "T", "dies, helper lives", "none", 0,
				    die_leaving_helper };
	struct pb_check_result r;
	pid_t h = 0;
	int gone = 0;

	ck_assert_int_eq(pipe(helper_pid_pipe), 0);
	pb_test_run_check(&c, NULL, PB_KIND_ANON, 5, &r);
	/* Seen as killed by SIGKILL at once, not as a 5 s timeout. */
	ck_assert_int_eq(r.verdict, PB_FAIL);
	ck_assert_int_eq(r.signal, SIGKILL);
	ck_assert(!r.timed_out);
	ck_assert_int_eq(read(helper_pid_pipe[0], &h, sizeof(h)), (ssize_t)sizeof(h));
	/* The helper went with the check's process group. */
	for (int i = 0; i < 200 && !gone; i++) {
		char path[64], st = '?';
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)h);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%*d (%*[^)]) %c", &st) != 1 || st == 'Z')
			gone = 1;
		if (f)
			fclose(f);
		if (!gone)
			usleep(10000);
	}
	ck_assert_msg(gone, "helper %d survived its check", (int)h);
}
END_TEST

/* The verdict channel is not a descriptor: a check that closes every fd it
 * has (as a kernel that breaks pipes would break a result pipe) still
 * reports. */
static void close_every_fd(struct pb_check_ctx *ctx)
{
	for (int fd = 0; fd < 1024; fd++)
		close(fd);
	pb_check_set(ctx, PB_PASS, "closed everything");
}

static void exit_without_verdict(struct pb_check_ctx *ctx)
{
	pb_check_fail(ctx, "never delivered");
	_exit(7);
}

START_TEST(verdict_survives_closed_descriptors)
{
	const struct pb_check c = { "T-04", "test", "T", "closes fds", "none", 0, close_every_fd };
	struct pb_check_result r;

	pb_test_run_check(&c, NULL, PB_KIND_ANON, 5, &r);
	ck_assert_int_eq(r.verdict, PB_PASS);
	ck_assert_str_eq(r.detail, "closed everything");
}
END_TEST

START_TEST(exit_without_verdict_is_error)
{
	const struct pb_check c = { "T-05", "test", "T", "exits", "none", 0, exit_without_verdict };
	struct pb_check_result r;

	pb_test_run_check(&c, NULL, PB_KIND_ANON, 5, &r);
	ck_assert_int_eq(r.verdict, PB_ERROR);
	ck_assert_msg(strstr(r.detail, "exited 7 without a verdict") != NULL, "%s", r.detail);
}
END_TEST

/* An interruption (deferred signal) stops the running check at once and
 * marks it error, naming the signal. */
START_TEST(interrupted_check_is_error)
{
	const struct pb_check c = { "T-06", "test", "T", "blocks forever", "none", 0,
				    block_forever };
	struct pb_check_result r;

	pb_cleanup_install("test");
	pb_cleanup_defer_signals(true);
	raise(SIGTERM);
	ck_assert_int_eq(pb_cleanup_interrupted(), SIGTERM);
	pb_test_run_check(&c, NULL, PB_KIND_ANON, 5, &r);
	ck_assert_int_eq(r.verdict, PB_ERROR);
	ck_assert(!r.timed_out);
	ck_assert_str_eq(r.detail, "interrupted by SIGTERM");
}
END_TEST

/* The fail/error rule of HACKING, decided in one place. */
START_TEST(setup_rule)
{
	struct pb_check_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	pb_check_setup(&ctx, PB_RES_PIPE, EAGAIN, "write returned %d", 0);
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_str_eq(ctx.detail, "setup: write returned 0");
	for (int i = 0; i < 3; i++) {
		static const int res_errs[] = { EMFILE, ENFILE, ENOMEM };

		memset(&ctx, 0, sizeof(ctx));
		pb_check_setup(&ctx, PB_RES_PIPE, res_errs[i], "pipe2");
		ck_assert_int_eq(ctx.verdict, PB_ERROR);
		ck_assert_str_eq(ctx.detail, "harness: pipe2");
		ck_assert(pb_check_err_is_resource(res_errs[i]));
	}
	memset(&ctx, 0, sizeof(ctx));
	pb_check_setup(&ctx, PB_RES_PIPE, EMFILE, "pipe2: EMFILE; POSIX requires a new pipe");
	ck_assert_str_eq(ctx.detail, "harness: pipe2: EMFILE");
	memset(&ctx, 0, sizeof(ctx));
	pb_check_setup(&ctx, PB_RES_PIPE, EINVAL, "pipe2: EINVAL; POSIX requires a new pipe");
	ck_assert_str_eq(ctx.detail, "setup: pipe2: EINVAL; POSIX requires a new pipe");
	ck_assert(!pb_check_err_is_resource(EINVAL));
	ck_assert(!pb_check_err_is_resource(EBADF));
	memset(&ctx, 0, sizeof(ctx));
	pb_check_setup(&ctx, PB_RES_HARNESS, 0, "fork");
	ck_assert_int_eq(ctx.verdict, PB_ERROR);
	memset(&ctx, 0, sizeof(ctx));
	pb_check_setup(&ctx, PB_RES_PIPE, EINVAL, "fcntl");
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
}
END_TEST

/* The first FAIL or ERROR stays; lower verdicts replace each other. */
START_TEST(first_failure_stays)
{
	struct pb_check_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	pb_check_skip(&ctx, "no cap");
	ck_assert_int_eq(ctx.verdict, PB_SKIP);
	pb_check_info(&ctx, "size %d", 4);
	ck_assert_int_eq(ctx.verdict, PB_INFO);
	pb_check_fail(&ctx, "first");
	pb_check_error(&ctx, "then a harness error");
	pb_check_set(&ctx, PB_PASS, "then a pass");
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_str_eq(ctx.detail, "first");
	memset(&ctx, 0, sizeof(ctx));
	pb_check_error(&ctx, "harness first");
	pb_check_fail(&ctx, "then a failure");
	ck_assert_int_eq(ctx.verdict, PB_ERROR);
	ck_assert_str_eq(ctx.detail, "harness first");
	memset(&ctx, 0, sizeof(ctx));
	pb_check_set(&ctx, PB_PASS, "a");
	pb_check_note(&ctx, "b %d", 1);
	ck_assert_str_eq(ctx.detail, "a; b 1");
	ck_assert_int_eq(ctx.verdict, PB_PASS);
}
END_TEST

/*
 * The runner waits for its check's process with naps that lengthen as the
 * wait goes on, so a check that ends in a few milliseconds is seen to end
 * within a tenth of one: the 1st to 20th naps are 0.1 ms, the 21st to
 * 200th 1 ms, the later ones 10 ms.  The runner's naps are recorded here
 * (this program's nanosleep, in memory shared with the check), and the
 * check ends only once the runner has napped 202 times: the sequence, not
 * any time, is asserted.
 */
#define NAPS 202
struct nap_log {
	int n;
	long ns[NAPS + 64];
};
static struct nap_log *naps;  /* NULL: nothing recorded */
static pid_t nap_runner;

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	if (naps && req && getpid() == nap_runner) {
		int n = __atomic_load_n(&naps->n, __ATOMIC_SEQ_CST);

		if (n < NAPS + 64) {
			naps->ns[n] = (long)req->tv_sec * 1000000000L + req->tv_nsec;
			__atomic_store_n(&naps->n, n + 1, __ATOMIC_SEQ_CST);
		}
	}
	return (int)syscall(SYS_nanosleep, req, rem);
}

static void wait_for_the_naps(struct pb_check_ctx *ctx)
{
	const struct timespec ms = { 0, 1000000 };

	while (__atomic_load_n(&naps->n, __ATOMIC_SEQ_CST) < NAPS)
		nanosleep(&ms, NULL);
	pb_check_set(ctx, PB_PASS, "the runner napped %d times", NAPS);
}

START_TEST(runner_naps_lengthen)
{
	const struct pb_check c = { "T-01", "test", "T", "waits for the runner", "none", 0,
				    wait_for_the_naps };
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;

	naps = mmap(NULL, sizeof(*naps), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		    0);
	ck_assert_ptr_ne(naps, MAP_FAILED);
	memset(naps, 0, sizeof(*naps));
	nap_runner = getpid();
	ck_assert_int_eq(pb_conformance_run_one(&c, &o, &r), 0);
	ck_assert_msg(r.verdict == PB_PASS, "%s: %s", pb_verdict_names[r.verdict], r.detail);
	ck_assert_int_ge(naps->n, NAPS);
	for (int i = 0; i < naps->n; i++) {
		long want = i < 20 ? 100000L : i < 200 ? 1000000L : 10000000L;

		ck_assert_msg(naps->ns[i] == want, "nap %d of the runner: %ld ns, expected %ld",
			      i + 1, naps->ns[i], want);
	}
	munmap(naps, sizeof(*naps));
	naps = NULL;
}
END_TEST

/* ---- the helpers every check group shares (src/checks/util.c) ---- */

/* A context on the real kernel, or on SYS. */
static struct pb_check_ctx helper_ctx(const struct pb_sysops *sys, enum pb_kind kind)
{
	struct pb_check_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.sys = sys ? sys : &pb_sysops_real;
	ctx.dir = "/nonexistent";
	ctx.kind = kind;
	return ctx;
}

static int closes;
static int counting_close(int fd)
{
	closes++;
	return close(fd);
}

START_TEST(helper_close_pair)
{
	struct pb_sysops sys = pb_sysops_real;
	int fd[2];

	sys.close = counting_close;
	ck_assert_int_eq(pipe(fd), 0);
	closes = 0;
	pb_check_close_pair(&sys, fd);
	ck_assert_int_eq(closes, 2);
	ck_assert_int_eq(fd[0], -1);
	ck_assert_int_eq(fd[1], -1);
	pb_check_close_pair(&sys, fd);  /* already closed: no close() at all */
	ck_assert_int_eq(closes, 2);
}
END_TEST

/* A call that would block forever comes back -1/EINTR; one that can go on
 * returns at once with errno as the call left it.  (No time is measured.) */
START_TEST(helper_timed_io)
{
	const struct pb_sysops *s = &pb_sysops_real;
	char buf[8];
	int fd[2];
	long cap;

	ck_assert_int_eq(pipe(fd), 0);
	ck_assert_int_eq(pb_check_timed_read(s, fd[0], buf, sizeof(buf), 50), -1);
	ck_assert_int_eq(errno, EINTR);
	ck_assert_int_eq(pb_check_timed_write(s, fd[1], "abc", 3, 2000), 3);
	ck_assert_int_eq(errno, 0);
	ck_assert_int_eq(pb_check_timed_read(s, fd[0], buf, sizeof(buf), 2000), 3);
	ck_assert(memcmp(buf, "abc", 3) == 0);
	ck_assert_int_eq(pb_check_timed_read(s, -1, buf, 1, 2000), -1);
	ck_assert_int_eq(errno, EBADF);
	/* Full and blocking: the write is interrupted, nothing is queued. */
	ck_assert_int_eq(pb_check_set_nonblock(s, fd[1], true), 0);
	ck_assert(fcntl(fd[1], F_GETFL) & O_NONBLOCK);
	cap = pb_check_fill(s, fd[1]);
	ck_assert_int_gt(cap, 0);
	ck_assert_int_eq(pb_check_fionread(s, fd[0]), cap);
	ck_assert_int_eq(pb_check_set_nonblock(s, fd[1], false), 0);
	ck_assert(!(fcntl(fd[1], F_GETFL) & O_NONBLOCK));
	ck_assert_int_eq(pb_check_timed_write(s, fd[1], "x", 1, 50), -1);
	ck_assert_int_eq(errno, EINTR);
	ck_assert_int_eq(pb_check_fionread(s, fd[0]), cap);
	close(fd[0]);
	close(fd[1]);
	ck_assert_int_eq(pb_check_set_nonblock(s, fd[1], true), -EBADF);
	ck_assert_int_eq(pb_check_fionread(s, fd[0]), -1);
	ck_assert(signal(SIGALRM, SIG_DFL) == SIG_DFL);  /* disarmed */
}
END_TEST

/* pb_check_fill writes a page at a time: the machine's page when it is
 * 1 byte to 64 KiB (its buffer), else 4096; it stops at EAGAIN with the
 * total, at a 0 write with PB_FILL_ZERO, past 64 MiB with -EOVERFLOW. */
static size_t fill_sizes[4], fill_calls;
static long fill_cap;
static ssize_t fill_write(int fd, const void *buf, size_t n)
{
	(void)fd;
	(void)buf;
	if (fill_calls < 4)
		fill_sizes[fill_calls] = n;
	fill_calls++;
	if (fill_cap == 0)
		return 0;
	if (fill_cap > 0 && (long)(n * fill_calls) > fill_cap) {
		errno = EAGAIN;
		return -1;
	}
	return (ssize_t)n;
}

START_TEST(helper_fill_page)
{
	static const struct { long page, used; } rows[] = {
		{ 16384, 16384 }, { 65536, 65536 }, { 65537, 4096 }, { 131072, 4096 },
		{ 1, 1 }, { -1, 4096 }, { 4096, 4096 },
	};
	struct pb_sysops sys = pb_sysops_real;

	sys.write = fill_write;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		fake_page_size = rows[i].page;
		fill_calls = 0;
		fill_cap = 3 * rows[i].used;
		ck_assert_int_eq(pb_check_fill(&sys, 1), 3 * rows[i].used);
		ck_assert_uint_eq(fill_calls, 4);
		ck_assert_uint_eq(fill_sizes[0], (size_t)rows[i].used);
		ck_assert_uint_eq(fill_sizes[3], (size_t)rows[i].used);
	}
	fake_page_size = 4096;
	fill_calls = 0;
	fill_cap = 0;
	ck_assert_int_eq(pb_check_fill(&sys, 1), PB_FILL_ZERO);
	ck_assert_uint_eq(fill_calls, 1);
	fill_calls = 0;
	fill_cap = -1;  /* never full: stops past 64 MiB */
	ck_assert_int_eq(pb_check_fill(&sys, 1), -EOVERFLOW);
	ck_assert_uint_eq(fill_calls, (64u << 20) / 4096 + 1);
	fake_page_size = 0;
}
END_TEST

START_TEST(helper_timespecs)
{
	const struct timespec a = { 5, 10 }, b = { 5, 20 }, c = { 6, 0 }, past = { 1000, 0 };
	const struct timespec far = { INT32_MAX, 0 };

	ck_assert_int_eq(pb_ts_cmp(&a, &b), -1);
	ck_assert_int_eq(pb_ts_cmp(&b, &a), 1);
	ck_assert_int_eq(pb_ts_cmp(&b, &c), -1);
	ck_assert_int_eq(pb_ts_cmp(&c, &b), 1);
	ck_assert_int_eq(pb_ts_cmp(&a, &a), 0);
	ck_assert(pb_check_wait_clock_past(&past, 1, 3000));
	ck_assert(!pb_check_wait_clock_past(&far, 1, 1));
}
END_TEST

static const char *fake_release;
static int fake_uname(struct utsname *u)
{
	if (!fake_release) {
		errno = EFAULT;
		return -1;
	}
	memset(u, 0, sizeof(*u));
	snprintf(u->release, sizeof(u->release), "%s", fake_release);
	return 0;
}

/* uname gives context only; an unknown or unparsable release is -1. */
START_TEST(helper_kernel_at_least)
{
	struct pb_sysops sys = pb_sysops_real;
	struct pb_check_ctx ctx;
	char rel[64];

	sys.uname = fake_uname;
	ctx = helper_ctx(&sys, PB_KIND_ANON);
	fake_release = "6.15.2-test";
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 6, 15, rel, sizeof(rel)), 1);
	ck_assert_str_eq(rel, "6.15.2-test");
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 6, 16, NULL, 0), 0);
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 5, 99, NULL, 0), 1);
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 7, 0, NULL, 0), 0);
	fake_release = "weird";
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 6, 15, rel, sizeof(rel)), -1);
	ck_assert_str_eq(rel, "weird");
	fake_release = NULL;
	ck_assert_int_eq(pb_check_kernel_at_least(&ctx, 6, 15, rel, sizeof(rel)), -1);
	ck_assert_str_eq(rel, "unknown");
	ck_assert_int_eq(ctx.verdict, PB_PASS);
}
END_TEST

START_TEST(helper_words)
{
	char path[] = "/tmp/pb-checkutil-XXXXXX", buf[32];
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, " 42\n", 4), 4);
	close(fd);
	ck_assert_int_eq(pb_check_proc_long(path), 42);
	fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_eq(write(fd, "many", 4), 4);
	close(fd);
	ck_assert_int_eq(pb_check_proc_long(path), -1);
	unlink(path);
	ck_assert_int_eq(pb_check_proc_long(path), -1);
	ck_assert_int_eq(pb_check_page_size(), sysconf(_SC_PAGESIZE));
	ck_assert_str_eq(pb_check_err_name(-1, EAGAIN), "EAGAIN");
	ck_assert_str_eq(pb_check_err_name(0, EAGAIN), "success");
	ck_assert_str_eq(pb_check_err_name(-ESPIPE, ESPIPE), "ESPIPE");
	ck_assert_str_eq(pb_check_res(-1, EPIPE, buf, sizeof(buf)), "-1/EPIPE");
	ck_assert_str_eq(pb_check_res(96, EPIPE, buf, sizeof(buf)), "96");
	ck_assert_str_eq(pb_check_res(0, 0, buf, sizeof(buf)), "0");
}
END_TEST

/* Setup I/O that moves less than asked is FAIL naming the call; an errno
 * that is the environment's limit is ERROR (pb_check_setup). */
START_TEST(helper_io_exact)
{
	struct pb_check_ctx ctx = helper_ctx(NULL, PB_KIND_FIFO);

	ck_assert(pb_check_io_exact(&ctx, 5, 5, "write(5)"));
	ck_assert_int_eq(ctx.verdict, PB_PASS);
	ck_assert(!pb_check_io_exact(&ctx, 3, 5, "write(5) into the empty end"));
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_str_eq(ctx.detail, "setup: write(5) into the empty end on a FIFO returned 3; "
			 "POSIX requires all 5 bytes");
	ctx = helper_ctx(NULL, PB_KIND_ANON);
	errno = EIO;
	ck_assert(!pb_check_io_exact(&ctx, -1, 1, "read(1)"));
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_str_eq(ctx.detail, "setup: read(1) on a pipe: EIO; POSIX requires all 1 bytes");
	ctx = helper_ctx(NULL, PB_KIND_ANON);
	errno = ENOMEM;
	ck_assert(!pb_check_io_exact(&ctx, -1, 1, "read(1)"));
	ck_assert_int_eq(ctx.verdict, PB_ERROR);
}
END_TEST

static int pipe2_einval_garbage(int fd[2], int flags)
{
	(void)flags;
	fd[0] = fd[1] = 42;  /* garbage the helper must not hand back */
	errno = EINVAL;
	return -1;
}

START_TEST(helper_anon_pipe)
{
	struct pb_sysops sys = pb_sysops_real;
	struct pb_check_ctx ctx = helper_ctx(NULL, PB_KIND_FIFO);
	int fd[2];

	ck_assert(pb_check_anon_pipe(&ctx, fd, O_CLOEXEC));
	ck_assert(fcntl(fd[0], F_GETFD) & FD_CLOEXEC);
	ck_assert_int_eq(lseek(fd[0], 0, SEEK_CUR), -1);  /* a pipe, not a FIFO */
	pb_check_close_pair(ctx.sys, fd);
	sys.pipe2 = pipe2_einval_garbage;
	ctx = helper_ctx(&sys, PB_KIND_ANON);
	ck_assert(!pb_check_anon_pipe(&ctx, fd, O_DIRECT | O_CLOEXEC));
	ck_assert_int_eq(fd[0], -1);
	ck_assert_int_eq(fd[1], -1);
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_str_eq(ctx.detail, "setup: pipe2(O_DIRECT|O_CLOEXEC): EINVAL; Linux requires "
			 "a new pipe");
	ctx = helper_ctx(&sys, PB_KIND_ANON);
	ck_assert(!pb_check_anon_pipe(&ctx, fd, 0));
	ck_assert_str_eq(ctx.detail, "setup: pipe2(0): EINVAL; POSIX requires a new pipe");
}
END_TEST

static int getpipesz_ret;
static int fcntl_getpipesz(int fd, int cmd, long arg)
{
	if (cmd == F_GETPIPE_SZ) {
		errno = getpipesz_ret < 0 ? EIO : 0;
		return getpipesz_ret;
	}
	return fcntl(fd, cmd, arg);
}

static ssize_t write_short(int fd, const void *buf, size_t n)
{
	return write(fd, buf, n > 10 ? n - 10 : n);
}

/* The capacity is > 0 or the check has said why; filling to 96 bytes free
 * leaves exactly that, and a short write with room is FAIL; a full pipe is
 * full, or the check has said why. */
START_TEST(helper_capacity_and_fill)
{
	struct pb_sysops sys = pb_sysops_real;
	struct pb_check_ctx ctx = helper_ctx(NULL, PB_KIND_ANON);
	long page = pb_check_page_size(), cap, q;
	int fd[2];

	ck_assert(pb_check_make_pipe(&ctx, fd, O_NONBLOCK));
	cap = pb_check_capacity(&ctx, fd[1]);
	ck_assert_int_gt(cap, 0);
	q = pb_check_fill_but_96(&ctx, fd[1], cap, page);
	ck_assert_int_eq(q, cap - 96);
	ck_assert_int_eq(pb_check_fionread(ctx.sys, fd[0]), cap - 96);
	ck_assert_int_eq(ctx.verdict, PB_PASS);
	pb_check_close_pair(ctx.sys, fd);
	ck_assert_int_eq(pb_check_fill_but_96(&ctx, -1, page - 1, page), -1);
	ck_assert_int_eq(ctx.verdict, PB_SKIP);
	/* each bound of the guard on its own, at its value and one past it:
	 * a page of 96 bytes or less, or over the 64 KiB buffer, is skipped */
	{
		static const struct { long cap, page; bool skip; } g[] = {
			{ 3880, 96, true }, { 3880, 97, false },
			{ 4096, 4096, false }, { 4095, 4096, true },
			{ 131072, 65537, true }, { 65536, 65536, false },
		};

		for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
			long slots = g[i].cap / g[i].page;

			ctx = helper_ctx(NULL, PB_KIND_ANON);
			ck_assert(pb_check_make_pipe(&ctx, fd, O_NONBLOCK));
			ck_assert_int_ge(fcntl(fd[1], F_SETPIPE_SZ, 65536), 65536);
			q = pb_check_fill_but_96(&ctx, fd[1], g[i].cap, g[i].page);
			ck_assert_msg(g[i].skip ? q == -1 && ctx.verdict == PB_SKIP :
				      q == slots * g[i].page - 96 && ctx.verdict == PB_PASS,
				      "cap %ld page %ld: %ld, verdict %d", g[i].cap, g[i].page, q,
				      (int)ctx.verdict);
			pb_check_close_pair(ctx.sys, fd);
		}
		ctx = helper_ctx(NULL, PB_KIND_ANON);
	}

	q = pb_check_full_pipe(&ctx, fd, 0);
	ck_assert_int_gt(q, 0);
	ck_assert_int_eq(pb_check_fionread(ctx.sys, fd[0]), q);
	ck_assert(fcntl(fd[1], F_GETFL) & O_NONBLOCK);
	pb_check_close_pair(ctx.sys, fd);
	sys.pipe2 = pipe2_einval_garbage;
	ctx = helper_ctx(&sys, PB_KIND_ANON);
	ck_assert_int_eq(pb_check_full_pipe(&ctx, fd, 0), -1);
	ck_assert_int_eq(fd[0], -1);
	ck_assert_int_eq(ctx.verdict, PB_FAIL);

	sys = pb_sysops_real;
	sys.fcntl = fcntl_getpipesz;
	for (int i = 0; i < 2; i++) {
		getpipesz_ret = i ? 0 : -1;
		ctx = helper_ctx(&sys, PB_KIND_ANON);
		ck_assert_int_eq(pb_check_capacity(&ctx, 0), -1);
		ck_assert_int_eq(ctx.verdict, PB_FAIL);
		ck_assert_ptr_nonnull(strstr(ctx.detail, "F_GETPIPE_SZ"));
	}
	sys = pb_sysops_real;
	sys.write = write_short;
	ctx = helper_ctx(&sys, PB_KIND_FIFO);
	ck_assert(pb_check_anon_pipe(&ctx, fd, O_NONBLOCK | O_CLOEXEC));
	cap = fcntl(fd[1], F_GETPIPE_SZ);
	ck_assert_int_eq(pb_check_fill_but_96(&ctx, fd[1], cap, page), -1);
	ck_assert_int_eq(ctx.verdict, PB_FAIL);
	ck_assert_ptr_nonnull(strstr(ctx.detail, "there is room"));
	ck_assert_ptr_nonnull(strstr(ctx.detail, "FIFO"));
	pb_check_close_pair(ctx.sys, fd);
}
END_TEST

static void report_ids(const struct pb_sysops *s, void *arg, struct pb_nobody_out *out)
{
	(void)s;
	(void)arg;
	out->value = (long)getuid() << 20 | (long)getgid();
	out->err = getgroups(0, NULL);
}

static void sleep_forever(const struct pb_sysops *s, void *arg, struct pb_nobody_out *out)
{
	(void)s, (void)arg, (void)out;
	for (;;)
		pause();
}

/*
 * The uid 65534 helper: the function runs under that identity with no
 * supplementary groups; a function that never returns is HUNG; a missing
 * directory is the harness's ERROR.  Without CAP_SETUID the switch is
 * refused (EPERM): a SKIP with the reason, never an error.
 */
START_TEST(helper_as_nobody)
{
	struct pb_check_ctx ctx = helper_ctx(NULL, PB_KIND_ANON);
	struct pb_nobody_out out = { -7, -7 };
	char why[200] = "";
	int r = pb_check_as_nobody(&ctx, NULL, 3000, report_ids, NULL, &out, why, sizeof(why));

	if (!pb_check_has_cap(PB_CAP_SETUID)) {
		ck_assert_int_eq(r, PB_NOBODY_SKIP);
		ck_assert_ptr_nonnull(strstr(why, "cannot become uid 65534"));
		ck_assert_int_eq(ctx.verdict, PB_PASS);
		return;
	}
	if (r == PB_NOBODY_SKIP)
		return;  /* 65534 is not mapped here (a user namespace) */
	ck_assert_int_eq(r, PB_NOBODY_OK);
	ck_assert_int_eq(out.value, 65534L << 20 | 65534L);
	ck_assert_int_eq(out.err, 0);
	r = pb_check_as_nobody(&ctx, NULL, 100, sleep_forever, NULL, &out, why, sizeof(why));
	ck_assert_int_eq(r, PB_NOBODY_HUNG);
	ck_assert_int_eq(ctx.verdict, PB_PASS);  /* the caller words the FAIL */
	r = pb_check_as_nobody(&ctx, "/nonexistent/dir", 3000, report_ids, NULL, &out, why,
			       sizeof(why));
	ck_assert_int_eq(r, PB_NOBODY_ERROR);
	ck_assert_int_eq(ctx.verdict, PB_ERROR);
	ck_assert_ptr_nonnull(strstr(ctx.detail, "chdir"));
}
END_TEST

/* A capability held only inside a user namespace does not lift the pipe
 * limits: the kernel checks it in the initial namespace. */
START_TEST(helper_limit_cap_userns)
{
	int status = 0;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWUSER) != 0)
			_exit(77);
		_exit(pb_check_has_cap(PB_CAP_SYS_RESOURCE) &&
		      !pb_check_has_limit_cap(PB_CAP_SYS_RESOURCE) ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert(WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 77);
}
END_TEST

/*
 * The conformance command's two tables (its results and its items, 2 x N + 1
 * entries each for N checks selected) cannot be had, each on its own: the
 * command says "out of memory" and exits 3 before anything is run or
 * written (the --output file is not made), having asked for both tables
 * and nothing more of their size.  Run in this process: its stderr goes to
 * a file for the while.
 */
START_TEST(conformance_tables_out_of_memory)
{
	char dir[4096], out[4200], errs[4200], msg[512];
	const char *argv[] = { "conformance", "--only=RD-*,WR-*", "-q", "-o", out, NULL };
	size_t n = 0;

	for (const struct pb_check *c = pb_checks_read; c->id; c++)
		n++;
	for (const struct pb_check *c = pb_checks_write; c->id; c++)
		n++;
	ck_assert_int_eq(pb_tmpdir_make(NULL, dir, sizeof(dir)), 0);
	snprintf(out, sizeof(out), "%s/out.txt", dir);
	snprintf(errs, sizeof(errs), "%s/stderr.txt", dir);
	for (int nth = 1; nth <= 2; nth++) {
		int keep = dup(2), fd = open(errs, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		int status;
		ssize_t len;

		ck_assert(keep >= 0 && fd >= 0);
		ck_assert_int_eq(dup2(fd, 2), 2);
		close(fd);
		calloc_nmemb = 2 * n + 1;
		calloc_nth = nth;
		calloc_seen = 0;
		status = pb_cmd_run(pb_cmd_find("conformance"), 5, argv);
		calloc_nmemb = 0;
		ck_assert_int_eq(dup2(keep, 2), 2);
		close(keep);
		fd = open(errs, O_RDONLY | O_CLOEXEC);
		len = read(fd, msg, sizeof(msg) - 1);
		close(fd);
		msg[len > 0 ? len : 0] = '\0';
		unlink(errs);
		ck_assert_msg(status == PB_EXIT_ERROR, "table %d of 2 missing: exit %d", nth, status);
		ck_assert_msg(strstr(msg, "pipebench conformance: out of memory\n"), "table %d: "
			      "stderr: %s", nth, msg);
		ck_assert_msg(access(out, F_OK) != 0 && errno == ENOENT, "table %d: %s was made",
			      nth, out);
		ck_assert_int_eq(calloc_seen, 2);
	}
	pb_tmpdir_remove(dir);
}
END_TEST

/* The runner without the page it shares with the check's process: an
 * error of the harness's, naming mmap, and the check's private directory
 * removed (its base directory is left empty). */
START_TEST(runner_without_its_shared_page)
{
	char base[4096];
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 10, .base_dir = base };
	struct pb_check_result r;
	DIR *d;
	struct dirent *e;
	int left = 0;

	ck_assert_int_eq(pb_tmpdir_make(NULL, base, sizeof(base)), 0);
	shared_mmap_fails = true;
	ck_assert_int_eq(pb_conformance_run_one(pb_test_find_check("RD-01"), &o, &r), -ENOMEM);
	shared_mmap_fails = false;
	ck_assert_int_eq(r.verdict, PB_ERROR);
	ck_assert_str_eq(r.detail, "harness: mmap: Cannot allocate memory");
	d = opendir(base);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		left += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	ck_assert_msg(left == 0, "%d entries left in the base directory", left);
	pb_tmpdir_remove(base);
}
END_TEST

/* pb_check_count_fds agrees with a count by fcntl(F_GETFD) over every
 * descriptor below the limit, and moves by exactly one per descriptor. */
START_TEST(count_fds_is_exact)
{
	int by_fcntl = 0, before, fd;

	for (int i = 0; i < 4096; i++)
		if (fcntl(i, F_GETFD) >= 0)
			by_fcntl++;
	before = pb_check_count_fds();
	ck_assert_int_eq(before, by_fcntl);
	fd = dup(0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pb_check_count_fds(), before + 1);
	close(fd);
	ck_assert_int_eq(pb_check_count_fds(), before);
}
END_TEST

/* The tests' pattern matcher itself (pb_test_matches): '#' is one or more
 * digits, a final '*' anything, all else literal. */
START_TEST(pattern_matcher)
{
	ck_assert(pb_test_matches("fds #,# x", "fds 3,4 x"));
	ck_assert(pb_test_matches("a #", "a 1234567"));
	ck_assert(!pb_test_matches("a #", "a "));
	ck_assert(!pb_test_matches("a #", "a x"));
	ck_assert(!pb_test_matches("a #", "a 12x"));
	ck_assert(!pb_test_matches("a b", "a bc"));
	ck_assert(!pb_test_matches("a bc", "a b"));
	ck_assert(pb_test_matches("", ""));
	ck_assert(pb_test_matches("read \\#2 x", "read #2 x"));
	ck_assert(!pb_test_matches("read \\#2", "read 12"));
	ck_assert(pb_test_matches("a*", "a"));
	ck_assert(pb_test_matches("a*", "abc; more"));
	ck_assert(!pb_test_matches("a*", "b"));
	ck_assert(!pb_test_matches("a", "a*"));
}
END_TEST

PB_CHECK_SUITE_MAIN("conf_runner",
	PB_TCASE("catalogue", ids_unique, registry_complete),
	PB_TCASE_TIMED("fd_leaks", 10, no_fd_leaks),
	PB_TCASE_TIMED("left_behind", 30, checks_leave_their_directory_empty),
	PB_TCASE_TIMED("runner", 30, watchdog_kills_blocked_check, signal_is_fail_naming_it,
		       helper_holding_result_pipe, verdict_survives_closed_descriptors,
		       exit_without_verdict_is_error, interrupted_check_is_error,
		       setup_rule, first_failure_stays, conformance_tables_out_of_memory,
		       runner_without_its_shared_page),
	PB_TCASE_TIMED("runner_naps", 10, runner_naps_lengthen),
	PB_TCASE_TIMED("helpers", 30, helper_close_pair, helper_timed_io, helper_fill_page, helper_timespecs,
		       helper_kernel_at_least, helper_words, helper_io_exact,
		       helper_anon_pipe, helper_capacity_and_fill, helper_as_nobody,
		       helper_limit_cap_userns),
	PB_TCASE("quick_helpers", count_fds_is_exact, pattern_matcher))
