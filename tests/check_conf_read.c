/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The read checks, RD-* (src/checks/read.c): each one FAILs on a kernel
 * broken the way it looks for (an injected pb_sysops), first its main bug,
 * then each later condition on its own (every descriptor a check gets from
 * open() counted); it gives the exact verdict the fail/error rule asks for
 * (a pipe or FIFO misbehaving at any step is FAIL; a harness resource limit,
 * a fork the environment refuses, is ERROR); and on the real kernel it says
 * exactly what the kernel did.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <unistd.h>

/* first: check_conf.h's row runners use it; RD-04's timer is interposed below */
#define PB_FAST_TIME_OWN_SETITIMER
#include "fast_time.h"
#include "check_conf.h"
#include "check_main.h"
#include "checks/conformance.h"

/* ---- misbehaving system calls, each imitating one kernel or libc bug ---- */

/* Waits to fill the whole buffer. */
static ssize_t read_greedy(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* An empty pipe reads as EOF even with writers. */
static ssize_t read_empty_is_eof(int fd, void *buf, size_t n)
{
	int q = 0;

	if (ioctl(fd, FIONREAD, &q) == 0 && q == 0)
		return 0;
	return read(fd, buf, n);
}

/* Interrupted reads are not restarted (a wait that ignores SA_RESTART). */
static ssize_t read_no_restart(int fd, void *buf, size_t n)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, -1) < 0)
		return -1;
	return read(fd, buf, n);
}

/* The last writer's close never wakes the reader. */
static ssize_t read_no_eof_wakeup(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	while (r == 0 && n > 0)
		pause();
	return r;
}

/* A read that cannot be interrupted: signals stay pending while it sleeps. */
static ssize_t read_uninterruptible(int fd, void *buf, size_t n)
{
	sigset_t all, old;
	ssize_t r;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	r = read(fd, buf, n);
	PB_KEEP_ERRNO(sigprocmask(SIG_SETMASK, &old, NULL));
	return r;
}

/* ---- the table: each check and the bug it must catch ---- */

enum bug {
	READ_GREEDY, READ_EOF_ERROR, READ_EMPTY_EOF, READ_NO_RESTART, READ_NO_WAKEUP,
	READ_UNINTERRUPTIBLE, PIPES_EIO, PIPE2_EMFILE, DUP_EIO, DUP_EMFILE,
};

static struct pb_sysops broken_ops(enum bug b)
{
	struct pb_sysops s = pb_sysops_real;

	switch (b) {
	case READ_GREEDY: s.read = read_greedy; break;
	case READ_EOF_ERROR: s.read = read_eof_eio; break;
	case READ_EMPTY_EOF: s.read = read_empty_is_eof; break;
	case READ_NO_RESTART: s.read = read_no_restart; break;
	case READ_NO_WAKEUP: s.read = read_no_eof_wakeup; break;
	case READ_UNINTERRUPTIBLE: s.read = read_uninterruptible; break;
	case PIPES_EIO: s.pipe2 = pipe2_eio; s.mkfifo = mkfifo_eio; break;
	case PIPE2_EMFILE: s.pipe2 = pipe2_emfile; break;
	case DUP_EIO: s.dup = dup_eio; break;
	case DUP_EMFILE: s.dup = dup_emfile; break;
	}
	return s;
}

static const struct pb_test_bug broken_kernels[] = {
	{ "RD-01", READ_GREEDY }, { "RD-02", READ_EOF_ERROR }, { "RD-03", READ_EMPTY_EOF },
	{ "RD-04", READ_EMPTY_EOF }, { "RD-05", READ_NO_RESTART }, { "RD-06", READ_EMPTY_EOF },
	{ "RD-07", READ_NO_WAKEUP },
};
#define NBROKEN (int)(sizeof(broken_kernels) / sizeof(broken_kernels[0]))

/* Loop index i: row i/2, anon for even i and fifo for odd (both-kind
 * checks).  The first also asks that every check has a row. */
START_TEST(broken_kernel_fails)
{
	struct pb_sysops s = broken_ops(broken_kernels[_i / 2].bug);

	if (_i == 0)
		pb_test_every_check_has_a_row(pb_checks_read, broken_kernels, NBROKEN,
					      sizeof(broken_kernels[0]), "broken-kernel");
	pb_test_fails_on_broken_kernel(broken_kernels[_i / 2].id, &s, _i, "read.broken_kernel");
}
END_TEST

/* Exact verdicts for situations the table above does not show: the
 * fail/error rule (a pipe or FIFO call misbehaving at any step, setup
 * included, is FAIL naming it; a harness resource is ERROR).  WORDS must be
 * in the detail. */
static const struct pb_test_verdict verdicts[] = {
	/* the read end sees EOF while a write end is open */
	{ "RD-05", READ_EMPTY_EOF, PB_KIND_ANON, PB_FAIL, "EOF while a write end was open" },
	{ "RD-05", READ_EMPTY_EOF, PB_KIND_FIFO, PB_FAIL, "EOF while a write end was open" },
	{ "RD-05", READ_NO_RESTART, PB_KIND_ANON, PB_FAIL, "EINTR despite SA_RESTART" },
	{ "RD-05", READ_UNINTERRUPTIBLE, PB_KIND_ANON, PB_FAIL, "must be interruptible" },
	/* pipe/FIFO creation or dup broken: FAIL; out of descriptors: ERROR */
	{ "RD-05", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "cannot make a pipe" },
	{ "RD-01", PIPE2_EMFILE, PB_KIND_ANON, PB_ERROR, "harness" },
	{ "RD-06", DUP_EIO, PB_KIND_ANON, PB_FAIL, "dup of the write end" },
	{ "RD-06", DUP_EMFILE, PB_KIND_ANON, PB_ERROR, "harness" },
};
#define NVERDICTS (int)(sizeof(verdicts) / sizeof(verdicts[0]))

START_TEST(verdict_per_situation)
{
	struct pb_sysops s = broken_ops(verdicts[_i].bug);

	pb_test_verdict_is(&verdicts[_i], &s, _i, "read.verdict_per_situation");
}
END_TEST

/* ---- later conditions, one at a time (pb_test_later) ---- */

/* RD-01: read_one_short and read_flips_last are in check_conf.h. */

/* RD-02: EOF does not persist: the second EOF is -1/EIO. */
static int eofs_seen;
static ssize_t read_second_eof_eio(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	return r == 0 && n > 0 && ++eofs_seen > 1 ? fail_with(EIO) : r;
}

/* RD-03: a nonblocking read of an empty pipe blocks until a signal. */
static ssize_t read_nonblock_blocks(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	if (r < 0 && errno == EAGAIN) {
		pause();
		return fail_with(EINTR);
	}
	return r;
}

/* RD-06: EOF, once every writer is gone, reads as -1/EAGAIN. */
static ssize_t read_eof_eagain(int fd, void *buf, size_t n)
{
	return read_eof_fails(EAGAIN, fd, buf, n);
}

/* The write of RD-01's 10 bytes fails: the setup write, not a read. */
static ssize_t write_ten_eio(int fd, const void *buf, size_t n)
{
	return n == 10 ? fail_with(EIO) : write(fd, buf, n);
}

static const struct pb_test_later later[] = {
	/* RD: the later conditions */
	{ "RD-01", { .read = read_one_short }, "read(100) with 10 bytes queued = 9" },
	{ "RD-01", { .read = read_flips_last }, "read(100) with 10 bytes queued = 10" },
	{ "RD-02", { .read = read_flips_last }, "differ from those written" },
	{ "RD-02", { .read = read_second_eof_eio }, "read #3 = -1/EIO (expected 0)" },
	{ "RD-03", { .read = read_nonblock_blocks }, "nonblocking read blocked" },
	{ "RD-06", { .read = read_eof_eagain }, "all write descriptors closed: read = -1/EAGAIN" },
	/* appended (conf_details.tab numbers the rows) */
	{ "RD-01", { .write = write_ten_eio }, "write of 10 bytes: EIO" },
};
#define NLATER (sizeof(later) / sizeof(later[0]))

START_TEST(later_condition_fails)
{
	eofs_seen = 0;
	pb_test_later_condition_fails(&later[_i], _i, "read.later_condition");
}
END_TEST

/* ---- later conditions, every descriptor from open() counted (pb_test_counted) ---- */

/* ---- RD-04: a blocking read that fails at once, or says 1 on EINTR ---- */

static ssize_t read_empty_eio_at_once(int fd, void *buf, size_t n)
{
	return is_pipe_fd(fd) && n == 1 ? fail_with(EIO) : read(fd, buf, n);
}

static ssize_t read_eintr_says_1(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	return r < 0 && errno == EINTR && n == 1 ? 1 : r;  /* errno stays EINTR */
}

/* The interrupt timer the check last armed (ITIMER_REAL, in microseconds):
 * setitimer() is interposed here, in the test's own executable. */
static long armed_us = -1;

int setitimer(__itimer_which_t which, const struct itimerval *nv, struct itimerval *ov)
{
	if (which == ITIMER_REAL && nv)
		armed_us = nv->it_value.tv_sec * 1000000L + nv->it_value.tv_usec;
	return pb_fast_setitimer(which, nv, ov);
}

/* Lawful, but the read first looks at the interrupt timer: the detail says
 * 300 ms, so a timer of any other length makes the read say EIO. */
static ssize_t read_timer_300(int fd, void *buf, size_t n)
{
	return armed_us != 300000L ? fail_with(EIO) : read(fd, buf, n);
}

/* ---- RD-05: what the reader's read returns, before or after 'X' ---- */

static ssize_t read_early(int fd, void *buf, size_t n, ssize_t r, int err)
{
	if (!is_pipe_fd(fd) || n != 1)
		return read(fd, buf, n);
	*(char *)buf = 'Y';
	errno = err;
	return r;
}

static ssize_t read_early_eio(int fd, void *buf, size_t n)
{
	return read_early(fd, buf, n, -1, EIO);
}

static ssize_t read_early_eintr(int fd, void *buf, size_t n)
{
	return read_early(fd, buf, n, -1, EINTR);
}

static ssize_t read_early_byte(int fd, void *buf, size_t n)
{
	return read_early(fd, buf, n, 1, 0);
}

/* The SA_RESTART handler runs, and the read returns a byte from nowhere. */
static ssize_t read_byte_after_signal(int fd, void *buf, size_t n)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (is_pipe_fd(fd) && n == 1 && poll(&p, 1, 5000) < 0 && errno == EINTR) {
		*(char *)buf = 'Y';
		return 1;
	}
	return read(fd, buf, n);
}

/* After 'X' arrives: the read says 'Y', EIO, EOF, kills the reader, or
 * swallows it and reads on. */
enum after_x { AX_Y, AX_EIO, AX_EOF, AX_DIE, AX_SWALLOW };

static ssize_t read_after_x(int fd, void *buf, size_t n, enum after_x how)
{
	ssize_t r = read(fd, buf, n);

	if (r != 1 || *(char *)buf != 'X')
		return r;
	switch (how) {
	case AX_Y:
		*(char *)buf = 'Y';
		return 1;
	case AX_EIO:
		return fail_with(EIO);
	case AX_EOF:
		return 0;
	case AX_DIE:
		kill(getpid(), SIGKILL);
		return r;
	case AX_SWALLOW:
		return read(fd, buf, n);
	}
	return r;
}

static ssize_t read_x_as_y(int fd, void *b, size_t n) { return read_after_x(fd, b, n, AX_Y); }
static ssize_t read_x_eio(int fd, void *b, size_t n) { return read_after_x(fd, b, n, AX_EIO); }
static ssize_t read_x_eof(int fd, void *b, size_t n) { return read_after_x(fd, b, n, AX_EOF); }
static ssize_t read_x_dies(int fd, void *b, size_t n) { return read_after_x(fd, b, n, AX_DIE); }
static ssize_t read_x_swallowed(int fd, void *b, size_t n)
{
	return read_after_x(fd, b, n, AX_SWALLOW);
}

/* The reader's process ends with its read: any judged call it makes after
 * (the check's own code run by the reader) is counted in *pb_test_stray. */
static ssize_t read_x_eio_marks(int fd, void *b, size_t n)
{
	ssize_t r = read_after_x(fd, b, n, AX_EIO);

	pb_test_reader_returned = r < 0 && errno == EIO;
	return r;
}

static int close_stray(int fd)
{
	if (pb_test_reader_returned)
		__atomic_add_fetch(pb_test_stray, 1, __ATOMIC_SEQ_CST);
	return close(fd);
}

static ssize_t write_x_eio(int fd, const void *buf, size_t n)
{
	return n == 1 && *(const char *)buf == 'X' ? fail_with(EIO) : write(fd, buf, n);
}

/* ---- RD-07: EOF reads as EIO for one reader or all; one stays asleep ---- */

static ssize_t read_first_eof(int fd, void *buf, size_t n, bool hang)
{
	ssize_t r = read(fd, buf, n);

	if (r != 0 || n == 0 || __atomic_fetch_add(pb_test_shared_count, 1, __ATOMIC_SEQ_CST) != 0)
		return r;
	if (hang)
		for (;;)
			pause();
	return fail_with(EIO);
}

static ssize_t read_one_eof_eio(int fd, void *buf, size_t n)
{
	return read_first_eof(fd, buf, n, false);
}

static ssize_t read_one_eof_hangs(int fd, void *buf, size_t n)
{
	return read_first_eof(fd, buf, n, true);
}

static const struct pb_test_counted counted[] = {
	/* RD-04: an error at once, a count with EINTR, the 300 ms timer */
	{ "RD-04", 0, { .read = read_empty_eio_at_once }, false,
	  "returned -1/EIO instead of blocking", PB_NEED_ANY },
	{ "RD-04", 0, { .read = read_eintr_says_1 }, false, "returned 1 instead of blocking", PB_NEED_ANY },
	{ "RD-04", 0, { .read = read_timer_300 }, true, "until the 300 ms SIGALRM (EINTR)", PB_NEED_ANY },
	{ "RD-04", PB_KIND_FIFO, { .read = read_empty_eio_at_once }, false,
	  "blocking read of an empty FIFO with a writer returned -1/EIO", PB_NEED_ANY },
	/* RD-05: before the signal, after it, after 'X'; the write of 'X' */
	{ "RD-05", 0, { .read = read_early_eio }, false, "read() returned -1/EIO before", PB_NEED_ANY },
	{ "RD-05", 0, { .read = read_early_eintr }, false, "read() returned -1/EINTR before any data "
	  "was written or any signal sent despite SA_RESTART", PB_NEED_ANY },
	{ "RD-05", 0, { .read = read_early_eio }, false, "or any signal sent$", PB_NEED_ANY },
	{ "RD-05", 0, { .read = read_early_byte }, false, "read() returned 1 byte(s) before", PB_NEED_ANY },
	{ "RD-05", 0, { .read = read_byte_after_signal }, false, "returned 1 byte", PB_NEED_ANY },
	{ "RD-05", 0, { .read = read_x_as_y }, false, "the restarted read() returned 1 byte, not 'X'", PB_NEED_ANY },
	{ "RD-05", 0, { .read = read_x_eio }, false, "the restarted read() returned -1/EIO", PB_NEED_ANY },
	{ "RD-05", 0, { .read = read_x_eof }, false, "the restarted read() returned 0 (EOF)", PB_NEED_ANY },
	{ "RD-05", 0, { .read = read_x_dies }, false, "the reader died (status 0x9)", PB_NEED_ANY },
	{ "RD-05", 0, { .read = read_x_swallowed }, false, "the reader never returned", PB_NEED_ANY },
	{ "RD-05", 0, { .read = read_x_eio_marks, .close = close_stray }, false,
	  "the restarted read() returned -1/EIO", PB_NEED_ANY },
	{ "RD-05", 0, { .write = write_x_eio }, false,
	  "write of 1 byte ('X') into the empty pipe with a reader = -1/EIO", PB_NEED_ANY },
	{ "RD-05", 0, { 0 }, true, "read() restarted after the SA_RESTART handler and returned 'X'", PB_NEED_ANY },
	/* RD-07: all readers, or one, get EIO; one stays asleep */
	{ "RD-07", 0, { .read = read_eof_eio }, false,
	  "0 of 6 readers saw EOF, 0 stayed asleep, 6 got something else", PB_NEED_ANY },
	{ "RD-07", 0, { .read = read_one_eof_eio }, false,
	  "5 of 6 readers saw EOF, 0 stayed asleep, 1 got something else", PB_NEED_ANY },
	{ "RD-07", 0, { .read = read_one_eof_hangs }, false,
	  "5 of 6 readers saw EOF, 1 stayed asleep, 0 got something else", PB_NEED_ANY },
	{ "RD-07", PB_KIND_FIFO, { .read = read_one_eof_eio }, false, "1 got something else", PB_NEED_ANY },
	{ "RD-07", 0, { 0 }, true, "6/6 blocked readers woke with EOF", PB_NEED_ANY },
};
#define NCOUNTED (sizeof(counted) / sizeof(counted[0]))

START_TEST(counted_condition)
{
	pb_test_counted_condition(&counted[_i], _i, "read.counted_condition");
}
END_TEST

/* RD-07 that cannot fork its readers (a fresh uid of this test's own with
 * RLIMIT_NPROC 4: the test, the check and two readers) is a harness error
 * naming the fork, not a verdict on the pipe. */
START_TEST(rd07_fork_fails)
{
	const struct pb_check *c = pb_test_find_check("RD-07");
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 20 };
	uid_t uid = (uid_t)(1600000000u + (unsigned)getpid());
	struct pb_check_result r;

	char dir[] = "/tmp/pb-rd07.XXXXXX";  /* TMPDIR may be root's alone */

	ck_assert_ptr_nonnull(c);
	if (!mkdtemp(dir) || chown(dir, uid, (gid_t)uid) != 0) {
		fprintf(stderr, "# rd07_fork_fails: not run (%s: %s)\n", dir, strerror(errno));
		return;
	}
	if (!pb_test_fresh_uid("rd07_fork_fails", uid, 4)) {
		rmdir(dir);
		return;
	}
	ck_assert_int_eq(setenv("TMPDIR", dir, 1), 0);
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(rmdir(dir) == 0, "%s: %s (left behind)", dir, strerror(errno));
	ck_assert_msg(r.verdict == PB_ERROR && strstr(r.detail, "fork: EAGAIN"), "RD-07: %s: %s",
		      pb_verdict_names[r.verdict], r.detail);
}
END_TEST

/* ---- on the real kernel, word for word (pb_test_note) ---- */

static const struct pb_test_note notes[] = {
	{ "RD-01", PB_PASS, "read(100) returned the 10 queued bytes at once", NULL },
	{ "RD-02", PB_PASS, "reads after the writer closed: 5, 0, 0", NULL },
	{ "RD-03", PB_PASS, "nonblocking read of an empty pipe with a writer: -1/EAGAIN",
	  "nonblocking read of an empty FIFO with a writer: -1/EAGAIN" },
	{ "RD-04", PB_PASS, "blocking read of an empty pipe blocked until the 300 ms SIGALRM (EINTR)",
	  "blocking read of an empty FIFO blocked until the 300 ms SIGALRM (EINTR)" },
	{ "RD-05", PB_PASS, "read() restarted after the SA_RESTART handler and returned 'X'*",
	  NULL },
	{ "RD-06", PB_PASS, "dup of the write end open: EAGAIN; all closed: EOF", NULL },
	{ "RD-07", PB_PASS, "6/6 blocked readers woke with EOF (#/6 confirmed sleeping)", NULL },
};
#define NNOTES (int)(sizeof(notes) / sizeof(notes[0]))

/* Loop index i: row i/2, anon for even i and fifo for odd.  The first also
 * asks that every check has a row. */
START_TEST(says_what_the_kernel_did)
{
	if (_i == 0)
		pb_test_every_check_has_a_row(pb_checks_read, notes, NNOTES, sizeof(notes[0]),
					      "real-kernel");
	pb_test_says_what_the_kernel_did(&notes[_i / 2], _i);
}
END_TEST

PB_CHECK_SUITE_MAIN("conf_read",
	PB_TCASE_LOOP("broken_kernel", 30, broken_kernel_fails, 2 * NBROKEN),
	PB_TCASE_LOOP("verdicts", 30, verdict_per_situation, NVERDICTS),
	PB_TCASE_LOOP("later_conditions", 30, later_condition_fails, NLATER),
	PB_TCASE_LOOP("counted_conditions", 90, counted_condition, NCOUNTED),
	PB_TCASE_LOOP("real_kernel", 120, says_what_the_kernel_did, 2 * NNOTES),
	PB_TCASE_TIMED("fork", 30, rd07_fork_fails))
