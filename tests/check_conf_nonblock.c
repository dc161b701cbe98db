/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The nonblocking-I/O checks, NB-* (src/checks/nonblock.c): each one FAILs
 * on a kernel broken the way it looks for (an injected pb_sysops), first its
 * main bug, then each later condition on its own (a write that reports
 * EAGAIN but still queued bytes, a boundary at its value and one past it,
 * ...); it gives the exact verdict the fail/error rule asks for (a pipe or
 * FIFO misbehaving at any step, setup included, is FAIL; a harness resource
 * is ERROR; a capacity too small to test is SKIP); and on the real kernel it
 * says exactly what the kernel did, its figures following from the page
 * size and the capacity.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fast_time.h"  /* first: check_conf.h's row runners use it */
#include "check_conf.h"
#include "check_main.h"
#include "checks/conformance.h"

/* ---- misbehaving system calls, each imitating one kernel or libc bug ---- */

/* write_torn, write_small, write_enomem_on_pipes, write_zero_when_full,
 * write_eio_on_pipes, ioctl_fionread_plus_1, dup_eio and
 * fcntl_getpipesz_eio: tests/check_conf.h. */

/* Page-sized writes into pipes fail (a fill step; the checks' own writes of
 * other sizes work): with EIO, or out of memory. */
static ssize_t write_page_fails(int fd, const void *buf, size_t n, int e)
{
	if (is_pipe_fd(fd) && (long)n == sysconf(_SC_PAGESIZE)) {
		errno = e;
		return -1;
	}
	return write(fd, buf, n);
}

static ssize_t write_page_eio(int fd, const void *buf, size_t n)
{
	return write_page_fails(fd, buf, n, EIO);
}

static ssize_t write_page_enomem(int fd, const void *buf, size_t n)
{
	return write_page_fails(fd, buf, n, ENOMEM);
}

/* FIONBIO accepted but ignored. */
static int ioctl_fionbio_noop(int fd, unsigned long req, void *arg)
{
	return req == FIONBIO ? 0 : ioctl(fd, req, arg);
}

/* F_GETPIPE_SZ says one page and F_SETPIPE_SZ is refused (a user over
 * pipe-user-pages-soft): an environment limit, not a kernel bug. */
static int fcntl_one_page(int fd, int cmd, long arg)
{
	if (cmd == F_GETPIPE_SZ)
		return (int)sysconf(_SC_PAGESIZE);
	if (cmd == F_SETPIPE_SZ) {
		errno = EPERM;
		return -1;
	}
	return fcntl(fd, cmd, arg);
}

/* ---- the table: each check and the bug it must catch ---- */

enum bug {
	WRITE_TORN, WRITE_FULL_ZERO, WRITE_SMALL, IOCTL_FIONBIO, IOCTL_FIONREAD, WRITE_EIO,
	WRITE_ENOMEM, WRITE_PAGE_EIO, WRITE_PAGE_ENOMEM, PIPES_EIO, DUP_EIO,
	FCNTL_GETPIPESZ_EIO, FCNTL_ONE_PAGE,
};

static struct pb_sysops broken_ops(enum bug b)
{
	struct pb_sysops s = pb_sysops_real;

	switch (b) {
	case WRITE_TORN: s.write = write_torn; break;
	case WRITE_FULL_ZERO: s.write = write_zero_when_full; break;
	case WRITE_SMALL: s.write = write_small; break;
	case IOCTL_FIONBIO: s.ioctl = ioctl_fionbio_noop; break;
	case IOCTL_FIONREAD: s.ioctl = ioctl_fionread_plus_1; break;
	case WRITE_EIO: s.write = write_eio_on_pipes; break;
	case WRITE_ENOMEM: s.write = write_enomem_on_pipes; break;
	case WRITE_PAGE_EIO: s.write = write_page_eio; break;
	case WRITE_PAGE_ENOMEM: s.write = write_page_enomem; break;
	case PIPES_EIO: s.pipe2 = pipe2_eio; s.mkfifo = mkfifo_eio; break;
	case DUP_EIO: s.dup = dup_eio; break;
	case FCNTL_GETPIPESZ_EIO: s.fcntl = fcntl_getpipesz_eio; break;
	case FCNTL_ONE_PAGE: s.fcntl = fcntl_one_page; break;
	}
	return s;
}

static const struct pb_test_bug broken_kernels[] = {
	{ "NB-01", WRITE_TORN }, { "NB-02", WRITE_FULL_ZERO }, { "NB-03", WRITE_SMALL },
	{ "NB-04", IOCTL_FIONBIO }, { "NB-05", IOCTL_FIONREAD },
};
#define NBROKEN (int)(sizeof(broken_kernels) / sizeof(broken_kernels[0]))

/* Loop index i: row i/2, anon for even i and fifo for odd (both-kind
 * checks).  The first also asks that every check has a row. */
START_TEST(broken_kernel_fails)
{
	struct pb_sysops s = broken_ops(broken_kernels[_i / 2].bug);

	if (_i == 0)
		pb_test_every_check_has_a_row(pb_checks_nonblock, broken_kernels, NBROKEN,
					      sizeof(broken_kernels[0]), "broken-kernel");
	pb_test_fails_on_broken_kernel(broken_kernels[_i / 2].id, &s, _i,
				       "nonblock.broken_kernel");
}
END_TEST

/* Exact verdicts for situations the table above does not show: the
 * fail/error rule (a pipe or FIFO call misbehaving at any step, setup
 * included, is FAIL naming it; a harness resource is ERROR), and a small
 * capacity.  WORDS must be in the detail. */
static const struct pb_test_verdict verdicts[] = {
	/* write() on a full nonblocking pipe returns 0 instead of -1/EAGAIN */
	{ "NB-01", WRITE_FULL_ZERO, PB_KIND_ANON, PB_FAIL, "returned 0; POSIX requires -1 with EAGAIN" },
	{ "NB-01", WRITE_FULL_ZERO, PB_KIND_FIFO, PB_FAIL, "returned 0; POSIX requires -1 with EAGAIN" },
	{ "NB-02", WRITE_FULL_ZERO, PB_KIND_ANON, PB_FAIL, "returned 0; POSIX requires -1 with EAGAIN" },
	/* a write with room that is short, during setup */
	{ "NB-05", WRITE_SMALL, PB_KIND_ANON, PB_FAIL, "with room" },
	/* a write failing during setup: FAIL naming the errno; out of memory: ERROR */
	{ "NB-05", WRITE_EIO, PB_KIND_ANON, PB_FAIL, "EIO" },
	{ "NB-05", WRITE_ENOMEM, PB_KIND_ANON, PB_ERROR, "harness" },
	{ "NB-03", WRITE_PAGE_EIO, PB_KIND_ANON, PB_FAIL, "two free pages" },
	{ "NB-03", WRITE_PAGE_EIO, PB_KIND_ANON, PB_FAIL, "EIO" },
	{ "NB-03", WRITE_PAGE_ENOMEM, PB_KIND_ANON, PB_ERROR, "harness" },
	/* pipe/FIFO creation or dup broken: FAIL */
	{ "NB-03", PIPES_EIO, PB_KIND_FIFO, PB_FAIL, "cannot make a FIFO" },
	{ "NB-04", DUP_EIO, PB_KIND_ANON, PB_FAIL, "dup of the write end" },
	/* fcntl on a pipe failing during setup */
	{ "NB-01", FCNTL_GETPIPESZ_EIO, PB_KIND_ANON, PB_FAIL, "F_GETPIPE_SZ" },
	{ "NB-03", FCNTL_GETPIPESZ_EIO, PB_KIND_ANON, PB_FAIL, "F_GETPIPE_SZ" },
	{ "NB-05", FCNTL_GETPIPESZ_EIO, PB_KIND_ANON, PB_FAIL, "F_GETPIPE_SZ" },
	/* a small capacity is the environment's: SKIP, not ERROR */
	{ "NB-03", FCNTL_ONE_PAGE, PB_KIND_ANON, PB_SKIP, "pipe-user-pages-soft" },
	{ "NB-05", FCNTL_ONE_PAGE, PB_KIND_ANON, PB_SKIP, "pipe-user-pages-soft" },
};
#define NVERDICTS (int)(sizeof(verdicts) / sizeof(verdicts[0]))

START_TEST(verdict_per_situation)
{
	struct pb_sysops s = broken_ops(verdicts[_i].bug);

	pb_test_verdict_is(&verdicts[_i], &s, _i, "nonblock.verdict_per_situation");
}
END_TEST

/* ---- later conditions, one at a time (pb_test_later) ---- */

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

/* Bytes queued in the pipe FD is an end of. */
static long queued(int fd)
{
	int q = 0;

	return ioctl(fd, FIONREAD, &q) == 0 ? q : -1;
}

/* NB-01: after PIPE_BUF bytes, a nonblocking write(1) says EAGAIN. */
static ssize_t write_1_after_pipe_buf_eagain(int fd, const void *buf, size_t n)
{
	if (n == 1 && is_nonblock(fd) && queued(fd) == PIPE_BUF)
		return fail_with(EAGAIN);
	return write(fd, buf, n);
}

/* NB-01: a write(PIPE_BUF) into a full pipe fails with EIO; the write(1)
 * before it, and the fill, see EAGAIN as they should. */
static bool full_write_1_seen;
static ssize_t write_full_pipe_buf_eio(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	if (r < 0 && errno == EAGAIN && n == 1)
		full_write_1_seen = true;
	else if (r < 0 && errno == EAGAIN && n == PIPE_BUF && full_write_1_seen)
		errno = EIO;
	return r;
}

/* NB-01: 96 bytes free in the last page, a write(96) says EAGAIN. */
static ssize_t write_96_eagain(int fd, const void *buf, size_t n)
{
	return n == 96 && is_nonblock(fd) ? fail_with(EAGAIN) : write(fd, buf, n);
}

/* NB-03: a nonblocking write of more than PIPE_BUF moves at most LIMIT bytes. */
static ssize_t write_big_capped(int fd, const void *buf, size_t n, size_t limit)
{
	if (n > PIPE_BUF && is_nonblock(fd) && n > limit)
		n = limit;
	return write(fd, buf, n);
}

static ssize_t write_big_pipe_buf(int fd, const void *buf, size_t n)
{
	return write_big_capped(fd, buf, n, PIPE_BUF);
}

static ssize_t write_big_pipe_buf_less_1(int fd, const void *buf, size_t n)
{
	return write_big_capped(fd, buf, n, PIPE_BUF - 1);
}

/* NB-03: a nonblocking write of more than PIPE_BUF (but not the 5-page one)
 * says one byte more than it moved. */
static ssize_t write_big_overcounts(int fd, const void *buf, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	ssize_t r = write(fd, buf, n);

	return r > 0 && n > PIPE_BUF && n != (size_t)(5 * page) ? r + 1 : r;
}

/* NB-03: the write(5 pages) into two free pages says one byte more than it
 * moved, or returns 0. */
static ssize_t write_5_pages_overcounts(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	return r > 0 && n == (size_t)(5 * sysconf(_SC_PAGESIZE)) ? r + 1 : r;
}

static ssize_t write_5_pages_zero(int fd, const void *buf, size_t n)
{
	return n == (size_t)(5 * sysconf(_SC_PAGESIZE)) ? 0 : write(fd, buf, n);
}

/* NB-04: the dup of the write end, whose flags the wrappers below misreport. */
static int nb04_dup = -1;
static int dup_remembered(int fd)
{
	return nb04_dup = dup(fd);
}

/* F_GETFL: the read end says O_NONBLOCK, whatever it is. */
static int fcntl_read_end_nonblock(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	if (cmd == F_GETFL && r >= 0 && is_pipe_fd(fd) && (r & O_ACCMODE) == O_RDONLY)
		r |= O_NONBLOCK;
	return r;
}

/* F_GETFL: the dup never says O_NONBLOCK. */
static int fcntl_dup_blocking(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == F_GETFL && r >= 0 && fd == nb04_dup ? r & ~O_NONBLOCK : r;
}

/* F_SETFL on the dup fails with EIO, or is accepted and ignored. */
static int fcntl_dup_setfl_eio(int fd, int cmd, long arg)
{
	if (cmd == F_SETFL && fd == nb04_dup) {
		errno = EIO;
		return -1;
	}
	return fcntl(fd, cmd, arg);
}

static int fcntl_dup_setfl_ignored(int fd, int cmd, long arg)
{
	return cmd == F_SETFL && fd == nb04_dup ? 0 : fcntl(fd, cmd, arg);
}

/* F_GETFL fails with EIO on its Nth call in NB-04 (1: the write end, 2: the
 * dup, 3: the read end, 4: the write end after F_SETFL on the dup). */
static int nb04_getfl_calls;
static int fcntl_getfl_eio_nth(int fd, int cmd, long arg, int nth)
{
	if (cmd == F_GETFL && ++nb04_getfl_calls == nth) {
		errno = EIO;
		return -1;
	}
	return fcntl(fd, cmd, arg);
}
#define GETFL_EIO(n) \
	static int fcntl_getfl_eio_##n(int fd, int cmd, long arg) \
	{ \
		return fcntl_getfl_eio_nth(fd, cmd, arg, n); \
	}
GETFL_EIO(1)
GETFL_EIO(2)
GETFL_EIO(3)
GETFL_EIO(4)

/* NB-03: F_SETPIPE_SZ says the pipe now holds 0 bytes (it must say at least
 * what was asked). */
static int fcntl_setpipe_sz_0(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == F_SETPIPE_SZ && r >= 0 ? 0 : r;
}

/* NB-05: a nonblocking write(1) that cannot be done says 1. */
static ssize_t write_1_lies(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	return r < 0 && errno == EAGAIN && n == 1 ? 1 : r;
}

/* NB-05: a write(10000) with 96 bytes free says 96 but moves none. */
static ssize_t write_10000_lies(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	return r < 0 && errno == EAGAIN && n == 10000 ? 96 : r;
}

/* ---- more later conditions: each step's outcome and its boundaries ---- */

/* NB-01: a write(PIPE_BUF) into an empty nonblocking pipe is refused with
 * EAGAIN. */
static ssize_t write_empty_pipe_buf_eagain(int fd, const void *buf, size_t n)
{
	if (n == PIPE_BUF && is_nonblock(fd) && queued(fd) == 0)
		return fail_with(EAGAIN);
	return write(fd, buf, n);
}

/* The fill's end (the first page-sized write that finds the pipe full)
 * says EIO instead of EAGAIN; the pipe is full all the same, and every
 * later write sees the kernel's own answer. */
static bool fill_end_seen;
static ssize_t write_fill_end_eio(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	if (r < 0 && errno == EAGAIN && (long)n == sysconf(_SC_PAGESIZE) && !fill_end_seen) {
		fill_end_seen = true;
		errno = EIO;
	}
	return r;
}

/* NB-01: with 96 bytes free, the write(200) that the kernel refuses with
 * EAGAIN says SAID instead (errno stays EAGAIN), or fails with EIO. */
static ssize_t write_200_says(int fd, const void *buf, size_t n, ssize_t said)
{
	ssize_t r = write(fd, buf, n);

	return n == 200 && r < 0 && errno == EAGAIN ? said : r;
}

static ssize_t write_200_says_0(int fd, const void *buf, size_t n)
{
	return write_200_says(fd, buf, n, 0);
}

static ssize_t write_200_says_1(int fd, const void *buf, size_t n)
{
	return write_200_says(fd, buf, n, 1);
}

static ssize_t write_200_says_199(int fd, const void *buf, size_t n)
{
	return write_200_says(fd, buf, n, 199);
}

static ssize_t write_200_says_200(int fd, const void *buf, size_t n)
{
	return write_200_says(fd, buf, n, 200);
}

static ssize_t write_200_eio(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	if (n == 200 && r < 0 && errno == EAGAIN)
		errno = EIO;
	return r;
}

/* FIONREAD on the read end says one more on its second call (NB-01: the
 * one after the full pipe's write(1)). */
static int fionread_calls;
static int ioctl_2nd_fionread_plus_1(int fd, unsigned long req, void *arg)
{
	int r = ioctl(fd, req, arg);

	if (r == 0 && req == FIONREAD && is_read_end(fd) && ++fionread_calls == 2)
		(*(int *)arg)++;
	return r;
}

/* FIONREAD answered on the read end only (the write end: ENOTTY): the
 * checks count what is queued where it is read. */
static int ioctl_write_end_fionread_enotty(int fd, unsigned long req, void *arg)
{
	return ioctl_fionread_end(fd, req, arg, O_WRONLY, ENOTTY);
}

/* The pipe's size asked of or set through its read end fails (EBADF): the
 * checks size a pipe through its write end. */
static int fcntl_size_write_end_only(int fd, int cmd, long arg)
{
	if ((cmd == F_GETPIPE_SZ || cmd == F_SETPIPE_SZ) && is_read_end(fd))
		return ifail_with(EBADF);
	return fcntl(fd, cmd, arg);
}

/* A page-sized write into a pipe with room returns 0, errno left ENOMEM: a
 * count of 0 is no out-of-memory failure, whatever errno says. */
static ssize_t write_page_zero_enomem(int fd, const void *buf, size_t n)
{
	if (is_pipe_fd(fd) && (long)n == sysconf(_SC_PAGESIZE)) {
		errno = ENOMEM;
		return 0;
	}
	return write(fd, buf, n);
}

/* A write of WHICH bytes moves only MOVES of them (a lawful partial write). */
static ssize_t write_moves_only(int fd, const void *buf, size_t n, size_t which, size_t moves)
{
	return write(fd, buf, is_pipe_fd(fd) && n == which ? moves : n);
}

/* NB-03: the write(5 pages) into two free pages moves one byte. */
static ssize_t write_5_pages_moves_1(int fd, const void *buf, size_t n)
{
	return write_moves_only(fd, buf, n, (size_t)(5 * sysconf(_SC_PAGESIZE)), 1);
}

/* NB-05: with 96 bytes free in the last page, write(10000) moves 1 or 96
 * bytes; write(page + 50) moves 1. */
static ssize_t write_10000_moves_1(int fd, const void *buf, size_t n)
{
	return write_moves_only(fd, buf, n, 10000, 1);
}

static ssize_t write_10000_moves_96(int fd, const void *buf, size_t n)
{
	return write_moves_only(fd, buf, n, 10000, 96);
}

static ssize_t write_page_50_moves_1(int fd, const void *buf, size_t n)
{
	return write_moves_only(fd, buf, n, (size_t)sysconf(_SC_PAGESIZE) + 50, 1);
}

/* NB-04: FIONBIO fails with EIO. */
static int ioctl_fionbio_eio(int fd, unsigned long req, void *arg)
{
	return req == FIONBIO ? ifail_with(EIO) : ioctl(fd, req, arg);
}

/* NB-04: F_GETFL on the write end itself (not its dup) never says
 * O_NONBLOCK. */
static int fcntl_write_end_blocking(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == F_GETFL && r >= 0 && fd != nb04_dup && is_write_end(fd) ?
	       r & ~O_NONBLOCK : r;
}

/* NB-04: the fourth F_GETFL (the write end after F_SETFL on the dup) says 0:
 * a successful call with no flag set, not a failure. */
static int fcntl_getfl_4_zero(int fd, int cmd, long arg)
{
	if (cmd == F_GETFL && ++nb04_getfl_calls == 4)
		return 0;
	return fcntl(fd, cmd, arg);
}

/* NB-04: F_GETFL on the write end (not its dup) also says O_APPEND, and
 * F_SETFL on the dup takes nothing but the dup's own flags less
 * O_NONBLOCK (EINVAL else): the check clears O_NONBLOCK from what the dup
 * itself said. */
static int fcntl_setfl_own_flags_only(int fd, int cmd, long arg)
{
	int r;

	if (cmd == F_SETFL && fd == nb04_dup && arg != (fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		return ifail_with(EINVAL);
	r = fcntl(fd, cmd, arg);
	return cmd == F_GETFL && r >= 0 && fd != nb04_dup && is_write_end(fd) ? r | O_APPEND : r;
}

/* NB-04: a successful F_GETFL leaves errno at -1 (errno is unspecified
 * after a call that succeeds): only a failed call's errno is judged. */
static int fcntl_getfl_errno_left(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	if (cmd == F_GETFL && r >= 0)
		errno = -1;
	return r;
}

/* A close of descriptor 0 or of a negative number kills the check: it
 * closes only what it opened. */
static int close_negative_dies(int fd)
{
	if (fd <= 0)
		kill(getpid(), SIGKILL);
	return close(fd);
}

/* NB-05: F_GETPIPE_SZ says half the real capacity: the pipe takes more than
 * the capacity the check was told. */
static int fcntl_half_capacity(int fd, int cmd, long arg)
{
	int r = fcntl(fd, cmd, arg);

	return cmd == F_GETPIPE_SZ && r > 0 ? r / 2 : r;
}

/* NB-05: a write(1) into a pipe already holding bytes queues it but says 0. */
static ssize_t write_1_queued_says_0(int fd, const void *buf, size_t n)
{
	ssize_t r;

	if (n != 1 || queued(fd) <= 0)
		return write(fd, buf, n);
	r = write(fd, buf, n);
	return r == 1 ? 0 : r;
}

/* NB-05: filling to 96 bytes free, the last page's write fails with EIO;
 * any write after it kills the check (it must stop at the failure). */
static bool last_page_failed;
static ssize_t write_last_page_eio_then_dies(int fd, const void *buf, size_t n)
{
	if (last_page_failed)
		kill(getpid(), SIGKILL);
	if (is_pipe_fd(fd) && (long)n == sysconf(_SC_PAGESIZE) - 96) {
		last_page_failed = true;
		return fail_with(EIO);
	}
	return write(fd, buf, n);
}

static const struct pb_test_later later[] = {
	{ "NB-01", { .write = write_eagain_but_queued },
	  "96 bytes free: write(200) = -1/EAGAIN, FIONREAD" },
	{ "NB-01", { .write = write_full_eio }, "full pipe: write(1) = -1/EIO" },
	{ "NB-01", { .write = write_eio_after_3 }, "EIO" },
	{ "NB-01", { .write = write_never_full }, "more than 64 MiB without EAGAIN" },
	/* NB-01: each step on its own; NB-03: PIPE_BUF at the value and -1,
	 * the capacity and two free pages at the value (the real kernel) and +1 */
	{ "NB-01", { .write = write_1_after_pipe_buf_eagain }, "write(1) after PIPE_BUF bytes" },
	{ "NB-01", { .write = write_full_pipe_buf_eio }, "full pipe: write(4096) = -1/EIO" },
	{ "NB-01", { .write = write_96_eagain }, "last page: write(96) = -1/EAGAIN" },
	{ "NB-03", { .write = write_big_pipe_buf }, NULL },
	{ "NB-03", { .write = write_big_pipe_buf_less_1 }, "= 4095, expected at least PIPE_BUF" },
	{ "NB-03", { .write = write_big_overcounts }, "= 65537, more than the capacity" },
	{ "NB-03", { .write = write_5_pages_overcounts }, "expected a partial write of at most" },
	{ "NB-03", { .write = write_5_pages_zero }, ") = 0, expected a partial write" },
	{ "NB-04", { .dup = dup_remembered, .fcntl = fcntl_read_end_nonblock }, "read end yes" },
	{ "NB-04", { .dup = dup_remembered, .fcntl = fcntl_dup_blocking }, "its dup no" },
	{ "NB-04", { .dup = dup_remembered, .fcntl = fcntl_dup_setfl_eio }, "F_SETFL on the dup: EIO" },
	{ "NB-04", { .dup = dup_remembered, .fcntl = fcntl_dup_setfl_ignored },
	  "did not clear it on the original" },
	{ "NB-05", { .write = write_1_lies }, "FIONREAD says" },
	{ "NB-05", { .write = write_10000_lies }, "96 B free: write(10000) = 96" },
	/* NB-04: F_GETFL failing on each descriptor in turn is a FAIL naming it */
	{ "NB-04", { .fcntl = fcntl_getfl_eio_1 }, "F_GETFL on the write end: EIO" },
	{ "NB-04", { .fcntl = fcntl_getfl_eio_2 }, "F_GETFL on the dup of the write end: EIO" },
	{ "NB-04", { .fcntl = fcntl_getfl_eio_3 }, "F_GETFL on the read end: EIO" },
	{ "NB-04", { .fcntl = fcntl_getfl_eio_4 }, "after F_SETFL on the dup, F_GETFL on the write "
	  "end: EIO" },
	{ "NB-03", { .fcntl = fcntl_setpipe_sz_0 }, "empty 0-byte pipe: write(1048576) = 65536, "
	  "more than the capacity F_SETPIPE_SZ gave" },
	/* NB-01: each step's outcome; the count of the write(200) at 0, 1,
	 * 199 and 200; the setup's failure is the end of the check */
	{ "NB-01", { .write = write_empty_pipe_buf_eagain }, "empty pipe: write(PIPE_BUF) = -1/EAGAIN" },
	{ "NB-01", { .write = write_fill_end_eio }, "filling the pipe: write: EIO" },
	{ "NB-02", { .write = write_fill_end_eio }, "filling the pipe: write: EIO" },
	{ "NB-01", { .write = write_1_lies }, "full pipe: write(1) = 1, FIONREAD" },
	{ "NB-01", { .ioctl = ioctl_2nd_fionread_plus_1 }, "full pipe: write(1) = -1/EAGAIN, FIONREAD" },
	{ "NB-01", { .ioctl = ioctl_write_end_fionread_enotty }, NULL },
	{ "NB-01", { .write = write_200_says_0 }, "96 bytes free: write(200) = 0, FIONREAD" },
	{ "NB-01", { .write = write_200_says_1 }, "write(200) = 1 (a partial write), FIONREAD" },
	{ "NB-01", { .write = write_200_says_199 }, "write(200) = 199 (a partial write), FIONREAD" },
	{ "NB-01", { .write = write_200_says_200 }, "96 bytes free: write(200) = 200, FIONREAD" },
	{ "NB-01", { .write = write_200_eio }, "96 bytes free: write(200) = -1/EIO, FIONREAD" },
	/* NB-03: a count of 0 with ENOMEM left in errno; one byte moved is a
	 * partial write; the pipe sized through its write end */
	{ "NB-03", { .write = write_page_zero_enomem }, "a page-sized write into a pipe with room "
	  "gave 0" },
	{ "NB-03", { .write = write_5_pages_moves_1 }, NULL },
	{ "NB-03", { .fcntl = fcntl_size_write_end_only }, NULL },
	/* NB-04: FIONBIO failing; the write end alone not nonblocking; F_GETFL
	 * of 0; F_SETFL given the dup's own flags; no close of -1 */
	{ "NB-04", { .ioctl = ioctl_fionbio_eio }, "ioctl(FIONBIO): EIO" },
	{ "NB-04", { .dup = dup_remembered, .fcntl = fcntl_write_end_blocking },
	  "O_NONBLOCK: write end no, its dup yes, read end no" },
	{ "NB-04", { .fcntl = fcntl_getfl_4_zero }, NULL },
	{ "NB-04", { .dup = dup_remembered, .fcntl = fcntl_setfl_own_flags_only }, NULL },
	{ "NB-04", { .dup = dup_eio, .close = close_negative_dies }, "dup of the write end = -1/EIO" },
	/* NB-05: FIONREAD and the size asked where they belong; a count of 0
	 * with ENOMEM; more accepted than the capacity said (with FIONREAD on
	 * the read end only, and with the write(1) that queued saying 0); the
	 * fill's failure is the end; partial writes of 1 and 96 bytes */
	{ "NB-05", { .ioctl = ioctl_write_end_fionread_enotty }, NULL },
	{ "NB-05", { .fcntl = fcntl_size_write_end_only }, NULL },
	{ "NB-05", { .write = write_page_zero_enomem }, "with room = 0; POSIX requires all of it" },
	{ "NB-05", { .fcntl = fcntl_half_capacity }, "96 B free: write(10000) = " },
	{ "NB-05", { .fcntl = fcntl_half_capacity, .ioctl = ioctl_write_end_fionread_enotty },
	  "96 B free: write(10000) = " },
	{ "NB-05", { .fcntl = fcntl_half_capacity, .write = write_1_queued_says_0 },
	  "96 B free: write(10000) = " },
	{ "NB-05", { .write = write_last_page_eio_then_dies }, "to 96 bytes free" },
	{ "NB-05", { .write = write_10000_moves_1 }, NULL },
	{ "NB-05", { .write = write_10000_moves_96 }, NULL },
	{ "NB-05", { .write = write_page_50_moves_1 }, NULL },
	/* NB-04: errno after a successful F_GETFL is not judged */
	{ "NB-04", { .fcntl = fcntl_getfl_errno_left }, NULL },
};
#define NLATER (sizeof(later) / sizeof(later[0]))

START_TEST(later_condition_fails)
{
	fill_writes = 0;
	full_write_1_seen = false;
	nb04_dup = -1;
	nb04_getfl_calls = 0;
	fill_end_seen = false;
	fionread_calls = 0;
	last_page_failed = false;
	pb_test_later_condition_fails(&later[_i], _i, "nonblock.later_condition");
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

/* A pipe of two pages that cannot grow: F_GETPIPE_SZ of a fresh (64 KiB)
 * pipe first really shrinks it to two pages; F_SETPIPE_SZ to four pages
 * fails with EPERM (pipe-user-pages-soft reached). */
static int fcntl_two_pages_stuck(int fd, int cmd, long arg)
{
	long page = sysconf(_SC_PAGESIZE);

	if (cmd == F_GETPIPE_SZ && fcntl(fd, F_GETPIPE_SZ) == 65536 &&
	    fcntl(fd, F_SETPIPE_SZ, 2 * page) < 0)
		return -1;
	if (cmd == F_SETPIPE_SZ && arg == 4 * page) {
		errno = EPERM;
		return -1;
	}
	return fcntl(fd, cmd, arg);
}

/* ... and one whose first F_GETPIPE_SZ says two pages of a pipe that
 * still has 64 KiB: a failed F_SETPIPE_SZ leaves the capacity measured,
 * it asks no more (the size it would see now is not what was measured). */
static int fcntl_two_pages_said_once(int fd, int cmd, long arg)
{
	static bool said;
	long page = sysconf(_SC_PAGESIZE);

	if (cmd == F_GETPIPE_SZ && !said && fcntl(fd, F_GETPIPE_SZ) == 65536) {
		said = true;
		return (int)(2 * page);
	}
	if (cmd == F_SETPIPE_SZ && arg == 4 * page) {
		errno = EPERM;
		return -1;
	}
	return fcntl(fd, cmd, arg);
}

/* A capacity too small to test: F_GETPIPE_SZ says half a page
 * (fcntl_half_page), and NB-01, which leaves 96 bytes free in a full pipe,
 * skips, saying why; NB-03 needs three pages to leave two free: with two it
 * skips, saying why. */
START_TEST(small_capacity_skips)
{
	const struct pb_sysops half = { .fcntl = fcntl_half_page };
	long page = sysconf(_SC_PAGESIZE);
	char want[96];

	snprintf(want, sizeof(want), "capacity %ld is below one page (%ld)", page / 2, page);
	pb_test_skips_saying("NB-01", &half, want);
	snprintf(want, sizeof(want), "capacity %ld, and F_SETPIPE_SZ cannot grow it",
		 2 * sysconf(_SC_PAGESIZE));
	pb_test_skips_saying("NB-03", &(struct pb_sysops){ .fcntl = fcntl_two_pages_stuck }, want);
	pb_test_skips_saying("NB-03", &(struct pb_sysops){ .fcntl = fcntl_two_pages_said_once },
			     want);
}
END_TEST

/* NB-03's note on this kernel: the partial write with two pages free first
 * (at most two pages, more than none), then the two fills. */
START_TEST(nb03_note)
{
	const struct pb_check *c = pb_test_find_check("NB-03");
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;
	long page = sysconf(_SC_PAGESIZE), n = -1;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	if (r.verdict == PB_SKIP)
		return;
	ck_assert_msg(r.verdict == PB_PASS, "%s: %s", pb_verdict_names[r.verdict], r.detail);
	ck_assert_msg(sscanf(r.detail, "2 pages free: write(5 pages)=%ld; ", &n) == 1 && n > 0 &&
		      n <= 2 * page && strstr(r.detail, "; empty "), "%s", r.detail);
}
END_TEST

/* NB-05's info line on this kernel: the figures it names follow from the
 * capacity (F_GETPIPE_SZ of a fresh pipe) and the page size. */
START_TEST(nb05_figures)
{
	const struct pb_check *c = pb_test_find_check("NB-05");
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;
	long page = sysconf(_SC_PAGESIZE), cap;
	char want[160];
	int fd[2];

	ck_assert_int_eq(pipe(fd), 0);
	cap = fcntl(fd[1], F_GETPIPE_SZ);
	close(fd[0]);
	close(fd[1]);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	if (r.verdict == PB_SKIP)
		return;  /* one page: nothing to count */
	ck_assert_msg(r.verdict == PB_INFO, "%s: %s", pb_verdict_names[r.verdict], r.detail);
	snprintf(want, sizeof(want), "1 B + %ld pages: FIONREAD %ld of %ld, write(1) = ",
		 cap / page - 1, 1 + (cap / page - 1) * page, cap);
	ck_assert_msg(strstr(r.detail, want), "no '%s' in: %s", want, r.detail);
	snprintf(want, sizeof(want), "write(%ld) = ", page + 50);
	ck_assert_msg(strstr(r.detail, want), "no '%s' in: %s", want, r.detail);
}
END_TEST

/* ---- later conditions, every descriptor from open() counted (pb_test_counted) ---- */

/* ---- NB-02: the big write into a full pipe ---- */

enum big { BIG_EIO, BIG_ONE, BIG_ONE_EINTR, BIG_BLOCKS };

static ssize_t write_big_full(int fd, const void *buf, size_t n, enum big how)
{
	ssize_t r = write(fd, buf, n);

	if (!(r < 0 && errno == EAGAIN && n == 3 * PIPE_BUF))
		return r;
	if (how == BIG_EIO)
		return fail_with(EIO);
	if (how == BIG_ONE)
		return 1;  /* errno stays EAGAIN */
	if (how == BIG_ONE_EINTR) {
		errno = EINTR;  /* a count is no interrupted call */
		return 1;
	}
	pause();
	return fail_with(EINTR);
}

static ssize_t write_big_eio(int fd, const void *b, size_t n)
{
	return write_big_full(fd, b, n, BIG_EIO);
}

static ssize_t write_big_one(int fd, const void *b, size_t n)
{
	return write_big_full(fd, b, n, BIG_ONE);
}

static ssize_t write_big_one_eintr(int fd, const void *b, size_t n)
{
	return write_big_full(fd, b, n, BIG_ONE_EINTR);
}

static ssize_t write_big_blocks(int fd, const void *b, size_t n)
{
	return write_big_full(fd, b, n, BIG_BLOCKS);
}

static const struct pb_test_counted counted[] = {
	/* NB-02: EIO, a count with EAGAIN, blocking; the FIFO */
	{ "NB-02", 0, { .write = write_big_eio }, false, "full pipe: write(3*PIPE_BUF) = -1/EIO", PB_NEED_ANY },
	{ "NB-02", 0, { .write = write_big_one }, false, "full pipe: write(3*PIPE_BUF) = 1", PB_NEED_ANY },
	{ "NB-02", 0, { .write = write_big_one_eintr }, false, "full pipe: write(3*PIPE_BUF) = 1$",
	  PB_NEED_ANY },
	{ "NB-02", 0, { .write = write_big_blocks }, false, "= -1/EINTR (it blocked)", PB_NEED_ANY },
	{ "NB-02", PB_KIND_FIFO, { .write = write_big_eio }, false,
	  "full FIFO: write(3*PIPE_BUF) = -1/EIO", PB_NEED_ANY },
};
#define NCOUNTED (sizeof(counted) / sizeof(counted[0]))

START_TEST(counted_condition)
{
	pb_test_counted_condition(&counted[_i], _i, "nonblock.counted_condition");
}
END_TEST

/* NB-04 whose dup lands on descriptor 0 (lawful: 0 is free when a process
 * closed it): the check closes it as it closes any other.  The fake keeps
 * the test's own descriptor 0 on another number for the rest of the check
 * (one more descriptor, which the dup's close balances), so that with the
 * descriptor audit (PB_CHECK_FD_AUDIT) a dup at 0 left open is an ERROR. */
static int dup_lands_on_0(int fd)
{
	if (dup(0) < 0 || close(0) != 0)
		return -1;
	return dup(fd);
}

static int close_any(int fd)
{
	return close(fd);
}

START_TEST(nb04_dup_on_0_closed)
{
	struct pb_sysops s = pb_test_sysops(&(const struct pb_sysops){
		.dup = dup_lands_on_0, .close = close_any });
	struct pb_check_result r = pb_test_run("NB-04", &s, PB_KIND_ANON, 0);

	ck_assert_msg(r.verdict == PB_PASS, "NB-04 with its dup on descriptor 0: %s: %s",
		      pb_verdict_names[r.verdict], r.detail);
}
END_TEST

/* ---- what each check asks of the kernel, call by call ---- */

/* Shared with the check's process: writes that got EAGAIN, and a trace of
 * the pipe-size requests ("S<bytes><end>" for F_SETPIPE_SZ, "G<end>" for
 * F_GETPIPE_SZ; the end w, r, or ? for neither). */
static long *eagains;
static char *size_trace;
#define SIZE_TRACE_LEN 256

static ssize_t write_eagain_counted(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	if (r < 0 && errno == EAGAIN)
		__atomic_add_fetch(eagains, 1, __ATOMIC_SEQ_CST);
	return r;
}

/* NB-01 on this kernel: it passes, and four writes see EAGAIN: the fill's
 * last, the full pipe's write(1) and write(PIPE_BUF), once each, and the
 * write(200) with 96 bytes free. */
START_TEST(nb01_probes_once)
{
	struct pb_sysops s = pb_test_sysops(&(const struct pb_sysops){
		.write = write_eagain_counted });
	struct pb_check_result r;

	eagains = mmap(NULL, sizeof(*eagains), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(eagains, MAP_FAILED);
	*eagains = 0;
	r = pb_test_run("NB-01", &s, PB_KIND_ANON, 0);
	if (r.verdict == PB_SKIP)
		return;  /* a capacity below one page */
	pb_test_assert_verdict(r, PB_PASS);
	ck_assert_int_eq(*eagains, 4);
	munmap(eagains, sizeof(*eagains));
}
END_TEST

/* Pipes made hold this many pages (0: the kernel's default); F_SETPIPE_SZ
 * of this size fails with EPERM (0: none); the first F_GETPIPE_SZ fails
 * with EIO. */
static long trace_pages, trace_setsz_eperm;
static bool trace_getsz_eio, trace_getsz_failed;

/* Pipes hold a power of two of pages: a pipe of three is one of four whose
 * F_GETPIPE_SZ says three (when trace_says_3 is set) and whose write(5
 * pages) with two of them free moves those two. */
static bool trace_says_3;

static ssize_t write_5_pages_moves_2(int fd, const void *buf, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);

	return write_moves_only(fd, buf, n, (size_t)(5 * page), (size_t)(2 * page));
}

static void trace_add(const char *what, long arg, int fd)
{
	size_t len = strlen(size_trace);
	char end = is_write_end(fd) ? 'w' : is_read_end(fd) ? 'r' : '?';

	if (arg >= 0)
		snprintf(size_trace + len, SIZE_TRACE_LEN - len, "%s%s%ld%c", len ? " " : "", what,
			 arg, end);
	else
		snprintf(size_trace + len, SIZE_TRACE_LEN - len, "%s%s%c", len ? " " : "", what, end);
}

static int pipe2_of_trace_pages(int fd[2], int flags)
{
	int r = (int)syscall(SYS_pipe2, fd, flags);

	if (r == 0 && trace_pages > 0 &&
	    fcntl(fd[1], F_SETPIPE_SZ, trace_pages * sysconf(_SC_PAGESIZE)) < 0) {
		close(fd[0]);
		close(fd[1]);
		return ifail_with(EIO);
	}
	return r;
}

static int fcntl_size_traced(int fd, int cmd, long arg)
{
	if (cmd == F_SETPIPE_SZ) {
		trace_add("S", arg, fd);
		if (trace_setsz_eperm && arg == trace_setsz_eperm)
			return ifail_with(EPERM);
	} else if (cmd == F_GETPIPE_SZ) {
		long page = sysconf(_SC_PAGESIZE);
		int r;

		trace_add("G", -1, fd);
		if (trace_getsz_eio && !trace_getsz_failed) {
			trace_getsz_failed = true;
			return ifail_with(EIO);
		}
		r = fcntl(fd, cmd, arg);
		return trace_says_3 && r == 4 * page ? (int)(3 * page) : r;
	}
	return fcntl(fd, cmd, arg);
}

/* NB-03's pipe-size requests: F_SETPIPE_SZ(64 KiB) and (one page) for the
 * two empty pipes, F_GETPIPE_SZ of the third, and only below three pages
 * F_SETPIPE_SZ(four pages) and F_GETPIPE_SZ again: all through the write
 * end.  PAGES: the pipes' size (0: the default); the verdict and a phrase
 * of the detail. */
static const struct {
	long pages, setsz_eperm;
	bool getsz_eio;
	enum pb_verdict v;
	const char *phrase;
	bool grows;
} nb03_sizes[] = {
	{ 0, 0, false, PB_PASS, "2 pages free: write(5 pages)=", false },
	{ 2, 0, false, PB_PASS, "2 pages free: write(5 pages)=", true },
	{ 3, 0, false, PB_PASS, "2 pages free: write(5 pages)=8192;", false },
	{ 0, 65536, false, PB_PASS, "; F_SETPIPE_SZ(65536): EPERM, not tried; empty ", false },
	{ 0, 0, true, PB_FAIL, "fcntl(F_GETPIPE_SZ) on the write end = -1/EIO", false },
};

START_TEST(nb03_size_requests)
{
	struct pb_sysops s = pb_test_sysops(&(const struct pb_sysops){
		.pipe2 = pipe2_of_trace_pages, .fcntl = fcntl_size_traced });
	long page = sysconf(_SC_PAGESIZE);
	struct pb_check_result r;
	char want[SIZE_TRACE_LEN];

	trace_says_3 = nb03_sizes[_i].pages == 3;
	if (trace_says_3)
		s.write = write_5_pages_moves_2;

	if (!pb_test_reference_machine())
		return;  /* the default capacity decides whether it grows */
	size_trace = mmap(NULL, SIZE_TRACE_LEN, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			  -1, 0);
	ck_assert_ptr_ne(size_trace, MAP_FAILED);
	size_trace[0] = '\0';
	trace_pages = trace_says_3 ? 4 : nb03_sizes[_i].pages;
	trace_setsz_eperm = nb03_sizes[_i].setsz_eperm;
	trace_getsz_eio = nb03_sizes[_i].getsz_eio;
	trace_getsz_failed = false;
	if (nb03_sizes[_i].v == PB_FAIL)
		pb_fast_time_on();
	r = pb_test_run("NB-03", &s, PB_KIND_ANON, 0);
	pb_fast_time_off();
	pb_test_assert_verdict(r, nb03_sizes[_i].v);
	ck_assert_msg(strstr(r.detail, nb03_sizes[_i].phrase), "'%s' lacks '%s'", r.detail,
		      nb03_sizes[_i].phrase);
	snprintf(want, sizeof(want), "S65536w S%ldw Gw%s", page,
		 nb03_sizes[_i].grows ? " S16384w Gw" : "");
	ck_assert_str_eq(size_trace, want);
	munmap(size_trace, SIZE_TRACE_LEN);
}
END_TEST

/* NB-05 on pipes of two pages, the least it takes: it counts them (INFO),
 * it does not skip. */
START_TEST(nb05_two_pages_counted)
{
	struct pb_sysops s = pb_test_sysops(&(const struct pb_sysops){
		.pipe2 = pipe2_of_trace_pages });
	long page = sysconf(_SC_PAGESIZE);
	struct pb_check_result r;
	char want[96];

	trace_pages = 2;
	r = pb_test_run("NB-05", &s, PB_KIND_ANON, 0);
	pb_test_assert_verdict(r, PB_INFO);
	snprintf(want, sizeof(want), "1 B + 1 pages: FIONREAD %ld of %ld, write(1) = -1/EAGAIN",
		 page + 1, 2 * page);
	ck_assert_msg(strstr(r.detail, want), "'%s' lacks '%s'", r.detail, want);
}
END_TEST

/* ---- on the real kernel, word for word (pb_test_note) ---- */

static const struct pb_test_note notes[] = {
	{ "NB-01", PB_PASS, "empty: write(PIPE_BUF)=4096, write(1)=1; full: write(1) and "
	  "write(PIPE_BUF) EAGAIN, FIONREAD unchanged; 96 B free: write(200) EAGAIN, write(96)=96",
	  NULL },
	{ "NB-02", PB_PASS, "full pipe: write(3*PIPE_BUF) = -1/EAGAIN",
	  "full FIFO: write(3*PIPE_BUF) = -1/EAGAIN" },
	{ "NB-03", PB_PASS, "2 pages free: write(5 pages)=8192; empty 65536 B: write(1048576)=65536; "
	  "empty 4096 B: write(12288)=4096", NULL },
	{ "NB-04", PB_PASS, "FIONBIO on the write end: seen by its dup, not by the read end; "
	  "F_SETFL on the dup: seen by the original", NULL },
	{ "NB-05", PB_INFO, "1 B + 15 pages: FIONREAD 61441 of 65536, write(1) = -1/EAGAIN; 96 B "
	  "free in the last page: write(10000) = -1/EAGAIN, write(4146) = 50", NULL },
};
#define NNOTES (int)(sizeof(notes) / sizeof(notes[0]))

/* Loop index i: row i/2, anon for even i and fifo for odd.  The first also
 * asks that every check has a row. */
START_TEST(says_what_the_kernel_did)
{
	if (_i == 0)
		pb_test_every_check_has_a_row(pb_checks_nonblock, notes, NNOTES, sizeof(notes[0]),
					      "real-kernel");
	pb_test_says_what_the_kernel_did(&notes[_i / 2], _i);
}
END_TEST

PB_CHECK_SUITE_MAIN("conf_nonblock",
	PB_TCASE_LOOP("broken_kernel", 30, broken_kernel_fails, 2 * NBROKEN),
	PB_TCASE_LOOP("verdicts", 30, verdict_per_situation, NVERDICTS),
	PB_TCASE_LOOP("later_conditions", 30, later_condition_fails, NLATER),
	PB_TCASE_LOOP("counted_conditions", 90, counted_condition, NCOUNTED),
	PB_TCASE_LOOP("real_kernel", 120, says_what_the_kernel_did, 2 * NNOTES),
	PB_TCASE_TIMED("figures", 30, nb05_figures, nb03_note, small_capacity_skips),
	PB_TCASE("fill", fill_bound_is_64_mib, nb04_dup_on_0_closed),
	PB_TCASE_TIMED("calls", 30, nb01_probes_once, nb05_two_pages_counted),
	PB_TCASE_LOOP("nb03_sizes", 30, nb03_size_requests,
		      (int)(sizeof(nb03_sizes) / sizeof(nb03_sizes[0]))))
