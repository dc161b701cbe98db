/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The other conditions of checks that test several: a broken kernel that
 * trips the first condition of a check proves little about the rest.  Each
 * case here breaks one later condition only (a write that reports EAGAIN
 * but still queued bytes, an EINTR that still queued bytes, a torn write of
 * a size the first condition does not use, a pipe whose read end is the
 * lowest free descriptor but whose write end is not, ...) and requires FAIL
 * with the detail that names that condition.  Also the shared helpers those
 * checks use (filling, descriptor counting).
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check_conf.h"
#include "check_main.h"
#include "conformance.h"

/* ---- misbehaving calls, each breaking one later condition ---- */

/* A nonblocking write that cannot be done whole says EAGAIN, but one byte
 * of it was queued anyway. */
static ssize_t write_eagain_but_queued(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	if (r < 0 && errno == EAGAIN && n > 1) {
		(void)!write(fd, buf, 1);
		errno = EAGAIN;
	}
	return r;
}

/* A one-byte write into a full pipe fails with EIO instead of EAGAIN. */
static ssize_t write_full_eio(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	if (r < 0 && errno == EAGAIN && n == 1)
		errno = EIO;
	return r;
}

/* A blocking write(200) queues 10 bytes, then blocks and is interrupted:
 * EINTR although bytes were queued. */
static ssize_t write_eintr_but_queued(int fd, const void *buf, size_t n)
{
	if (n == 200 && !(fcntl(fd, F_GETFL) & O_NONBLOCK)) {
		ssize_t r = write(fd, buf, 10);

		if (r != 10)
			return r;
	}
	return write(fd, buf, n);
}

/* A blocking write(200) with room for 96 writes 50 and returns 50. */
static ssize_t write_torn_50(int fd, const void *buf, size_t n)
{
	if (n == 200 && !(fcntl(fd, F_GETFL) & O_NONBLOCK))
		return write(fd, buf, 50);
	return write(fd, buf, n);
}

/* Filling fails with EIO after three pages. */
static int fill_writes;
static ssize_t write_eio_after_3(int fd, const void *buf, size_t n)
{
	if (n >= 4096 && ++fill_writes > 3) {
		errno = EIO;
		return -1;
	}
	return write(fd, buf, n);
}

/* The pipe never fills: every write "succeeds" without queueing. */
static ssize_t write_never_full(int fd, const void *buf, size_t n)
{
	if (n >= 4096)
		return (ssize_t)n;
	return write(fd, buf, n);
}

/* The number of fill writes, counted across the check's fork. */
static long *shared_writes;

/* The pipe never fills, and every write is counted. */
static ssize_t write_never_full_counted(int fd, const void *buf, size_t n)
{
	if (n >= 4096) {
		__atomic_add_fetch(shared_writes, 1, __ATOMIC_SEQ_CST);
		return (ssize_t)n;
	}
	return write(fd, buf, n);
}

/* A failed pipe2 (invalid flags) writes the write end's slot only. */
static int pipe2_clobber_second(int fd[2], int flags)
{
	int r = (int)syscall(SYS_pipe2, fd, flags);

	if (r != 0) {
		int e = errno;

		fd[1] = 99;
		errno = e;
	}
	return r;
}

/* A read of an empty nonblocking pipe fails with EIO instead of EAGAIN. */
static ssize_t read_empty_eio(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	if (r < 0 && errno == EAGAIN)
		errno = EIO;
	return r;
}

/* Both ends on the same descriptor. */
static int pipe2_same_fd(int fd[2], int flags)
{
	if (syscall(SYS_pipe2, fd, flags) != 0)
		return -1;
	close(fd[1]);
	fd[1] = fd[0];
	return 0;
}

/* The read end is the lowest free descriptor, the write end is not. */
static int pipe2_high_write_end(int fd[2], int flags)
{
	int h;

	if (syscall(SYS_pipe2, fd, flags) != 0)
		return -1;
	h = fcntl(fd[1], F_DUPFD, 100);
	close(fd[1]);
	fd[1] = h;
	return 0;
}

static const struct {
	const char *id;
	struct pb_sysops sys;  /* the calls broken; the rest are real */
	const char *phrase;    /* the detail names the condition that broke */
} cases[] = {
	{ "NB-01", { .write = write_eagain_but_queued },
	  "96 bytes free: write(200) = -1/EAGAIN, FIONREAD" },
	{ "NB-01", { .write = write_full_eio }, "full pipe: write(1) = -1/EIO" },
	{ "WR-01", { .write = write_eintr_but_queued }, "gave EINTR but FIONREAD went" },
	{ "WR-01", { .write = write_torn_50 }, "returned 50: a torn atomic write" },
	{ "NB-01", { .write = write_eio_after_3 }, "EIO" },
	{ "NB-01", { .write = write_never_full }, "more than 64 MiB without EAGAIN" },
	{ "CRE-01", { .pipe2 = pipe2_same_fd }, "pipe returned fds" },
	{ "CRE-02", { .pipe2 = pipe2_high_write_end }, "(the two lowest free), got" },
	{ "CRE-05", { .pipe2 = pipe2_clobber_second }, "failed but wrote pipefd" },
	{ "CRE-04", { .read = read_empty_eio }, "read of the empty pipe gave -1/EIO" },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

START_TEST(later_condition_fails)
{
	const struct pb_check *c = pb_test_find_check(cases[_i].id);
	struct pb_sysops s = pb_test_sysops(&cases[_i].sys);
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 10 };
	struct pb_check_result r;

	ck_assert_ptr_nonnull(c);
	fill_writes = 0;
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(r.verdict == PB_FAIL, "%s case %d: %s: %s", cases[_i].id, _i,
		      pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(strstr(r.detail, cases[_i].phrase) != NULL, "%s case %d: '%s' lacks '%s'",
		      cases[_i].id, _i, r.detail, cases[_i].phrase);
}
END_TEST

/* A pipe that never fills is given up after 64 MiB: the page writes up to
 * the one that passes the bound, not more. */
START_TEST(fill_bound_is_64_mib)
{
	const struct pb_check *c = pb_test_find_check("NB-01");
	struct pb_sysops s = pb_sysops_real;
	struct pb_run_opts o = { .sys = &s, .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;
	long page = sysconf(_SC_PAGESIZE);

	shared_writes = mmap(NULL, sizeof(*shared_writes), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(shared_writes, MAP_FAILED);
	*shared_writes = 0;
	s.write = write_never_full_counted;
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_int_eq(r.verdict, PB_FAIL);
	ck_assert_ptr_nonnull(strstr(r.detail, "more than 64 MiB without EAGAIN"));
	/* NB-01 writes PIPE_BUF once before filling; then the fill's pages */
	ck_assert_int_ge(*shared_writes, (64L << 20) / page + 1);
	ck_assert_int_le(*shared_writes, (64L << 20) / page + 2);
	munmap(shared_writes, sizeof(*shared_writes));
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

PB_CHECK_SUITE_MAIN("conf_conditions",
	PB_TCASE_LOOP("later_conditions", 30, later_condition_fails, NCASES),
	PB_TCASE_TIMED("helpers", 0, count_fds_is_exact, fill_bound_is_64_mib))
