/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SIGPIPE checks, SIG-* (src/checks/sigpipe.c): each one is run through
 * the real runner on this kernel (its verdict must be the catalogue's, and
 * its note exactly what the kernel did) and with a pb_sysops in which one
 * call misbehaves the way a broken kernel would (its verdict must be FAIL,
 * naming the condition that broke).  Also the fail/error rule (a pipe
 * misbehaving in setup is FAIL; a harness resource, a thread
 * pthread_create refuses or a writer that got no CPU, is ERROR) and
 * SIG-03's signal mask, left as it was found.
 */
#include <config.h>

#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fast_time.h"  /* first: check_conf.h's row runners use it */
#include "check_conf.h"
#include "check_main.h"
#include "checks/conformance.h"

/* ---- misbehaving system calls, each imitating one kernel or libc bug ---- */

/* mkfifo_regular and ioctl_read_end_enotty: tests/check_conf.h. */

/* SIGPIPE never kills: the writer survives with EPIPE. */
static ssize_t w_no_sigpipe(int fd, const void *b, size_t n)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	ssize_t r;

	sigaction(SIGPIPE, &ign, &old);
	r = write(fd, b, n);
	PB_KEEP_ERRNO(sigaction(SIGPIPE, &old, NULL));
	return r;
}

/* A write to a reader-less pipe "succeeds". */
static ssize_t w_epipe_succeeds(int fd, const void *b, size_t n)
{
	ssize_t r = write(fd, b, n);

	return r < 0 && errno == EPIPE ? (ssize_t)n : r;
}

/* SIGPIPE is turned into a process-directed signal. */
static ssize_t w_process_directed(int fd, const void *b, size_t n)
{
	struct timespec zero = { 0, 0 };
	ssize_t r = write(fd, b, n);
	sigset_t set;
	int e = errno;

	if (r < 0 && e == EPIPE) {
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		sigtimedwait(&set, NULL, &zero);
		kill(getpid(), SIGPIPE);
	}
	errno = e;
	return r;
}

/* Bytes accepted, then -1/EPIPE: silent data loss. */
static ssize_t w_partial_is_epipe(int fd, const void *b, size_t n)
{
	return write_partial_as(EPIPE, fd, b, n);
}

static bool handler_installed(void)
{
	struct sigaction sa;

	return sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN &&
	       sa.sa_handler != SIG_DFL;
}

/* SIG-01: no SIGPIPE; instead of EPIPE the write says N, EIO, or the
 * writer gets SIGUSR1. */
static ssize_t w_quiet_success(int fd, const void *b, size_t n)
{
	ssize_t r = w_no_sigpipe(fd, b, n);

	return r < 0 && errno == EPIPE ? (ssize_t)n : r;
}

static ssize_t w_quiet_eio(int fd, const void *b, size_t n)
{
	ssize_t r = w_no_sigpipe(fd, b, n);

	if (r < 0 && errno == EPIPE)
		errno = EIO;
	return r;
}

static ssize_t w_quiet_sigusr1(int fd, const void *b, size_t n)
{
	ssize_t r = w_no_sigpipe(fd, b, n);

	if (r < 0 && errno == EPIPE)
		PB_KEEP_ERRNO(raise(SIGUSR1));
	return r;
}

/* SIG-02: under a handler (SIG_IGN is right) the write succeeds, the
 * handler runs twice, or not at all. */
static ssize_t w_handler_success(int fd, const void *b, size_t n)
{
	bool h = handler_installed();
	ssize_t r = write(fd, b, n);

	return h && r < 0 && errno == EPIPE ? (ssize_t)n : r;
}

static ssize_t w_sigpipe_twice(int fd, const void *b, size_t n)
{
	ssize_t r = write(fd, b, n);

	if (r < 0 && errno == EPIPE && handler_installed())
		PB_KEEP_ERRNO(raise(SIGPIPE));
	return r;
}

static ssize_t w_handler_no_sigpipe(int fd, const void *b, size_t n)
{
	return handler_installed() ? w_no_sigpipe(fd, b, n) : write(fd, b, n);
}

/* SIG-03: the thread's SIGPIPE is lost (taken off the pending set). */
static ssize_t w_sigpipe_lost(int fd, const void *b, size_t n)
{
	struct timespec zero = { 0, 0 };
	ssize_t r = write(fd, b, n);
	sigset_t set;

	if (r < 0 && errno == EPIPE) {
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		PB_KEEP_ERRNO(sigtimedwait(&set, NULL, &zero));
	}
	return r;
}

/* SIG-04: the blocked writer's writes return at once (what fits, then
 * EAGAIN), or its big write fails with EIO at once; its partial write says
 * one byte short of what it moved, or never returns; the next write(1)
 * after the reader left succeeds, or raises SIGPIPE twice. */
static ssize_t w_never_blocks(int fd, const void *b, size_t n)
{
	int fl = fcntl(fd, F_GETFL);
	ssize_t r;

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	r = write(fd, b, n);
	PB_KEEP_ERRNO(fcntl(fd, F_SETFL, fl));
	return r;
}

/* SIG-04: until the reader has gone, the big write neither queues a byte
 * nor sleeps: it spins on the CPU, or waits uninterruptibly (a vfork's
 * parent shows state D), or stays stopped with no CPU at all (SIGSTOP, a
 * helper sends SIGCONT): the last is a starved writer, the harness's
 * machine, not the kernel.  Then it is the real write (EPIPE).  The
 * writer's alarm is pushed past the watch first. */
static bool reader_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

static ssize_t w_spins(int fd, const void *b, size_t n)
{
	if (n > PIPE_BUF) {
		alarm(20);
		while (!reader_gone(fd))
			;
	}
	return write(fd, b, n);
}

static ssize_t w_uninterruptible(int fd, const void *b, size_t n)
{
	if (n > PIPE_BUF) {
		alarm(20);
		if (vfork() == 0) {
			while (!reader_gone(fd))
				usleep(1000);
			_exit(0);
		}
	}
	return write(fd, b, n);
}

static ssize_t w_stopped(int fd, const void *b, size_t n)
{
	if (n > PIPE_BUF) {
		alarm(20);
		if (fork() == 0) {
			while (!reader_gone(fd))
				usleep(1000);
			kill(getppid(), SIGCONT);
			_exit(0);
		}
		raise(SIGSTOP);
	}
	return write(fd, b, n);
}

static ssize_t w_big_eio(int fd, const void *b, size_t n)
{
	return n > PIPE_BUF ? (errno = EIO, -1) : write(fd, b, n);
}

static ssize_t w_partial_undercounts(int fd, const void *b, size_t n)
{
	ssize_t r = write(fd, b, n);

	return r > 1 && (size_t)r < n ? r - 1 : r;
}

static ssize_t w_partial_never_returns(int fd, const void *b, size_t n)
{
	ssize_t r = write(fd, b, n);

	if (r > 0 && (size_t)r < n)
		for (;;)
			pause();
	return r;
}

static ssize_t w_one_success(int fd, const void *b, size_t n)
{
	ssize_t r = write(fd, b, n);

	return n == 1 && r < 0 && errno == EPIPE ? 1 : r;
}

/* SIG-05: the reopened empty FIFO reads as EOF, or the write says 3. */
/* SIG-05: one stale byte where the reopened FIFO should be empty. */
static ssize_t r_one_stale_byte(int fd, void *b, size_t n)
{
	ssize_t r = read(fd, b, n);

	if (r < 0 && errno == EAGAIN && n > 0) {
		*(char *)b = 'x';
		return 1;
	}
	return r;
}

static ssize_t r_eagain_is_eof(int fd, void *b, size_t n)
{
	ssize_t r = read(fd, b, n);

	return r < 0 && errno == EAGAIN ? 0 : r;
}

static ssize_t w_4_says_3(int fd, const void *b, size_t n)
{
	ssize_t r = write(fd, b, n);

	return r == 4 ? 3 : r;
}

/* SIG-01: no SIGPIPE, and the write says 0 with errno EPIPE: a count,
 * not an EPIPE failure. */
static ssize_t w_quiet_zero_epipe(int fd, const void *b, size_t n)
{
	ssize_t r = w_no_sigpipe(fd, b, n);

	return r < 0 && errno == EPIPE ? 0 : r;
}

/* SIG-01: the write into a reader-less pipe never returns (the writer's
 * alarm ends it). */
static ssize_t w_blocks_forever(int fd, const void *b, size_t n)
{
	if (is_pipe_fd(fd))
		for (;;)
			pause();
	return write(fd, b, n);
}

/* Instead of -1/EPIPE a write into a reader-less pipe says -1/EIO, after
 * the real write (its SIGPIPE sent); only under a handler (SIG-02's second
 * write), or always. */
static ssize_t w_epipe_is_eio(int fd, const void *b, size_t n)
{
	ssize_t r = write(fd, b, n);

	if (r < 0 && errno == EPIPE)
		errno = EIO;
	return r;
}

static ssize_t w_handler_epipe_is_eio(int fd, const void *b, size_t n)
{
	return handler_installed() ? w_epipe_is_eio(fd, b, n) : write(fd, b, n);
}

/* A write into a pipe fails with -1 but sets no errno (whatever the caller
 * left there stays): under SIG_IGN (SIG-02's first write), under a handler
 * (its second), or always. */
static ssize_t w_fails_no_errno(int fd, const void *b, size_t n)
{
	return is_pipe_fd(fd) ? -1 : write(fd, b, n);
}

static ssize_t w_ign_fails_no_errno(int fd, const void *b, size_t n)
{
	return handler_installed() ? write(fd, b, n) : w_fails_no_errno(fd, b, n);
}

static ssize_t w_handler_fails_no_errno(int fd, const void *b, size_t n)
{
	return handler_installed() ? w_fails_no_errno(fd, b, n) : write(fd, b, n);
}

/* After a pipe2 that failed the check has no descriptor: a write or a
 * close it makes kills it. */
static ssize_t w_dies(int fd, const void *b, size_t n)
{
	(void)fd, (void)b, (void)n;
	kill(getpid(), SIGKILL);
	return -1;
}

static int close_dies(int fd)
{
	(void)fd;
	kill(getpid(), SIGKILL);
	return -1;
}

/* SIG-01: the write never returns and the writer's alarm cannot end it
 * (SIGALRM blocked): the writer neither dies nor exits. */
static ssize_t w_blocks_alarm_blocked(int fd, const void *b, size_t n)
{
	sigset_t alrm;

	if (!is_pipe_fd(fd))
		return write(fd, b, n);
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, NULL);
	for (;;)
		pause();
}

/* SIG-05: the second open of the FIFO (the reopen) fails with EIO; a read
 * of the reopened FIFO fails with EIO. */
static int o_fifo_opens;
static int open_second_fifo_eio(const char *path, int flags, mode_t mode)
{
	if (is_fifo_path(path) && ++o_fifo_opens == 2)
		return ifail_with(EIO);
	return open(path, flags, mode);
}

static ssize_t r_fifo_eio(int fd, void *b, size_t n)
{
	return read_eio_on_pipes(fd, b, n);
}

/* ---- the harness's own resources failing on request ---- */

/* When set, pthread_create fails with EAGAIN (the process is out of
 * threads): a check's helper thread is the harness's resource. */
static bool threads_fail;

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

	if (threads_fail)
		return EAGAIN;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	return real(t, attr, fn, arg);
}

/* ---- a kernel broken the way each row says: FAIL (pb_test_broken) ---- */

static const struct pb_test_broken broken_kernels[] = {
	{ "SIG-01", "writer survives", .sys.write = w_no_sigpipe },
	{ "SIG-02", "write succeeds", .sys.write = w_epipe_succeeds },
	{ "SIG-03", "process-directed", .sys.write = w_process_directed },
	{ "SIG-04", "EPIPE after bytes", .sys.write = w_partial_is_epipe },
	{ "SIG-05", "stale data", .sys.mkfifo = mkfifo_regular },
	/* Each later condition on its own. */
	{ "SIG-01", "write says 1", .sys.write = w_quiet_success, .says = "write returned 1" },
	{ "SIG-01", "write EIO", .sys.write = w_quiet_eio, .says = "(write failed)" },
	{ "SIG-01", "SIGUSR1", .sys.write = w_quiet_sigusr1, .says = "signal USR1, not SIGPIPE" },
	{ "SIG-02", "handler: success", .sys.write = w_handler_success,
	  .says = "handler: write returned 1" },
	{ "SIG-02", "handler twice", .sys.write = w_sigpipe_twice, .says = "handler ran 2 times" },
	{ "SIG-02", "no handler", .sys.write = w_handler_no_sigpipe, .says = "handler ran 0 times" },
	{ "SIG-03", "write succeeds", .sys.write = w_epipe_succeeds, .says = "write returned 1" },
	{ "SIG-03", "SIGPIPE lost", .sys.write = w_sigpipe_lost, .says = "not pending in the writing" },
	{ "SIG-04", "returns at once", .sys.write = w_never_blocks, .says = "to wait for room" },
	{ "SIG-04", "EIO at once", .sys.write = w_big_eio, .says = "returned -1/EIO while" },
	{ "SIG-04", "count one short", .sys.write = w_partial_undercounts,
	  .says = "expected the partial count" },
	{ "SIG-04", "never woke", .sys.write = w_partial_never_returns, .says = "never woke" },
	{ "SIG-04", "next write 1", .sys.write = w_one_success, .says = "the next write returned 1" },
	{ "SIG-04", "SIGPIPE twice", .sys.write = w_sigpipe_twice, .says = "SIGPIPE 2 times" },
	{ "SIG-04", "no SIGPIPE", .sys.write = w_no_sigpipe, .says = "SIGPIPE 0 times" },
	{ "SIG-05", "EOF, not EAGAIN", .sys.read = r_eagain_is_eof, .says = "returned 0 (EOF)" },
	{ "SIG-05", "write says 3", .sys.write = w_4_says_3, .says = "returned 3" },
	/* SIG-04's writer that neither queues a byte nor sleeps: it spins, or
	 * waits uninterruptibly */
	{ "SIG-04", "spins in write", .sys.write = w_spins, .says = "ms of CPU in " },
	{ "SIG-04", "state D in write", .sys.write = w_uninterruptible,
	  .says = "uninterruptible wait (state D) inside write(" },
	/* the writer never wakes and FIONREAD on the read end fails: the
	 * detail says FIONREAD gave -1, not a count of 0 */
	{ "SIG-04", "never woke, FIONREAD ENOTTY", .sys.write = w_partial_never_returns,
	  .sys.ioctl = ioctl_read_end_enotty, .says = "(FIONREAD was -1 of " },
	/* a single stale byte is stale data, named as such */
	{ "SIG-05", "one stale byte", .sys.read = r_one_stale_byte,
	  .says = "1 bytes of stale data readable after the last close" },
	/* SIG-01: a count of 0 with errno EPIPE is no EPIPE failure; a write
	 * that blocks is ended by the writer's alarm */
	{ "SIG-01", "write says 0, errno EPIPE", .sys.write = w_quiet_zero_epipe,
	  .says = "(write failed)" },
	{ "SIG-01", "write blocks", .sys.write = w_blocks_forever,
	  .says = "writer killed by signal ALRM, not SIGPIPE" },
	/* SIG-02, SIG-03: -1 with another errno; -1 with errno not set (the
	 * check's own errno = 0 shows) */
	{ "SIG-02", "SIG_IGN: EIO", .sys.write = w_epipe_is_eio,
	  .says = "SIG_IGN: write returned -1 (EIO), expected -1/EPIPE" },
	{ "SIG-02", "handler: EIO", .sys.write = w_handler_epipe_is_eio,
	  .says = "handler: write returned -1 (EIO), expected -1/EPIPE" },
	{ "SIG-02", "SIG_IGN: no errno", .sys.write = w_ign_fails_no_errno,
	  .says = "SIG_IGN: write returned -1 (0), expected -1/EPIPE" },
	{ "SIG-02", "handler: no errno", .sys.write = w_handler_fails_no_errno,
	  .says = "handler: write returned -1 (0), expected -1/EPIPE" },
	{ "SIG-03", "EIO", .sys.write = w_epipe_is_eio,
	  .says = "write returned -1 (EIO), expected -1/EPIPE" },
	{ "SIG-03", "no errno", .sys.write = w_fails_no_errno,
	  .says = "write returned -1 (0), expected -1/EPIPE" },
	/* no pipe: the check stops there, writing and closing nothing */
	{ "SIG-01", "no pipe", .sys = { .pipe2 = pipe2_eio, .write = w_dies, .close = close_dies },
	  .says = "cannot make a pipe: EIO" },
	{ "SIG-02", "no pipe", .sys = { .pipe2 = pipe2_eio, .write = w_dies, .close = close_dies },
	  .says = "cannot make a pipe: EIO" },
	{ "SIG-03", "no pipe", .sys = { .pipe2 = pipe2_eio, .write = w_dies, .close = close_dies },
	  .says = "cannot make a pipe: EIO" },	/* SIG-05: each step's failure named: the open, the reopen, the read */
	{ "SIG-05", "open EIO", .sys.open = open_fifo_eio, .says = "open O_RDWR: Input/output error" },
	{ "SIG-05", "reopen EIO", .sys.open = open_second_fifo_eio,
	  .says = "reopen O_RDWR|O_NONBLOCK: Input/output error" },
	{ "SIG-05", "read EIO", .sys.read = r_fifo_eio,
	  .says = "read after reopen returned -1 (EIO), expected -1/EAGAIN" },	{ "SIG-01", "write never returns", .sys.write = w_blocks_alarm_blocked,
	  .says = "the writer neither died nor exited" },
};
#define NBROKEN (int)(sizeof(broken_kernels) / sizeof(broken_kernels[0]))

START_TEST(broken_kernel_fails)
{
	pb_test_broken_kernel_fails(&broken_kernels[_i], _i, "sigpipe.broken_kernel");
}
END_TEST

/* SIG-04's details name the sizes: the big write is twice the capacity of
 * a fresh pipe (F_GETPIPE_SZ), in this kernel's pass and whichever way it
 * went wrong. */
START_TEST(sig04_detail_sizes)
{
	ssize_t (*writes[])(int, const void *, size_t) = { w_never_blocks, w_big_eio };
	struct pb_run_opts real = { .kind = PB_KIND_ANON, .timeout_s = 20 };
	struct pb_check_result r;
	char want[96];
	int fd[2], cap;

	ck_assert_int_eq(pipe(fd), 0);
	cap = fcntl(fd[1], F_GETPIPE_SZ);
	close(fd[0]);
	close(fd[1]);
	ck_assert_int_gt(cap, 0);
	ck_assert_int_eq(pb_conformance_run_one(pb_test_find_check("SIG-04"), &real, &r), 0);
	ck_assert_msg(r.verdict == PB_PASS, "SIG-04: %s: %s", pb_verdict_names[r.verdict], r.detail);
	snprintf(want, sizeof(want), " of %d; ", 2 * cap);
	ck_assert_msg(strstr(r.detail, want), "SIG-04: no \"%s\" in: %s", want, r.detail);
	for (size_t i = 0; i < 2; i++) {
		struct pb_sysops base = { .write = writes[i] };
		struct pb_sysops sys = pb_test_sysops(&base);
		/* its own watchdog: the waits of SIG-04 add up to more than 5 s on a
		 * loaded machine */
		struct pb_run_opts o = { .sys = &sys, .kind = PB_KIND_ANON, .timeout_s = 20 };

		pb_fast_time_on();
		ck_assert_int_eq(pb_conformance_run_one(pb_test_find_check("SIG-04"), &o, &r), 0);
		pb_fast_time_off();

		ck_assert_int_eq(r.verdict, PB_FAIL);
		snprintf(want, sizeof(want), "a blocking write(%d) into %s%d-byte pipe returned",
			 2 * cap, i ? "a " : "an empty ", cap);
		ck_assert_msg(strstr(r.detail, want), "no \"%s\" in: %s", want, r.detail);
	}
}
END_TEST

/* SIG-04's writer that got no CPU, neither filling the pipe nor sleeping:
 * the machine's doing, ERROR. */
START_TEST(sig04_starved_writer_is_error)
{
	static const char *const ids[] = { "SIG-04" };
	struct pb_sysops sys = pb_sysops_real;

	sys.write = w_stopped;
	pb_test_all_error(ids, 1, &sys, "was never seen blocked and used ");
}
END_TEST

/* ---- the verdict on this kernel (pb_test_expect) ---- */

static const struct pb_test_expect here[] = {
	{ "SIG-01", PB_PASS, PB_PASS },
	{ "SIG-02", PB_PASS, PB_PASS },
	{ "SIG-03", PB_PASS, PB_PASS },
	{ "SIG-04", PB_PASS, PB_PASS },
	{ "SIG-05", PB_PASS, PB_PASS },
};
#define NHERE (int)(sizeof(here) / sizeof(here[0]))

/* The first also asks that every check has a row, and one only. */
START_TEST(this_kernel)
{
	if (_i == 0) {
		pb_test_every_check_has_a_row(pb_checks_sigpipe, here, NHERE, sizeof(here[0]),
					      "this-kernel");
		ck_assert_int_eq(NHERE, pb_test_group_size(pb_checks_sigpipe));
	}
	pb_test_this_kernel(&here[_i]);
}
END_TEST

/* ---- the fail/error rule: exact verdicts (pb_test_verdict) ---- */

enum bug { WRITE_SMALL, PIPES_EIO, PIPE2_EMFILE, FCNTL_GETPIPESZ_EIO, THREADS_EAGAIN };

static struct pb_sysops broken_ops(enum bug b)
{
	struct pb_sysops s = pb_sysops_real;

	threads_fail = b == THREADS_EAGAIN;
	switch (b) {
	case THREADS_EAGAIN: break;
	case WRITE_SMALL: s.write = write_small; break;
	case PIPES_EIO: s.pipe2 = pipe2_eio; s.mkfifo = mkfifo_eio; break;
	case PIPE2_EMFILE: s.pipe2 = pipe2_emfile; break;
	case FCNTL_GETPIPESZ_EIO: s.fcntl = fcntl_getpipesz_eio; break;
	}
	return s;
}

/* A pipe or FIFO call misbehaving at any step, setup included, is FAIL
 * naming it; a harness resource is ERROR.  WORDS must be in the detail. */
static const struct pb_test_verdict verdicts[] = {
	/* a write with room that is short, during setup */
	{ "SIG-04", WRITE_SMALL, PB_KIND_ANON, PB_FAIL, "while the reader was still open" },
	/* pipe/FIFO creation broken: FAIL; out of descriptors: ERROR */
	{ "SIG-01", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "cannot make a pipe" },
	{ "SIG-04", PIPES_EIO, PB_KIND_FIFO, PB_FAIL, "cannot make a FIFO" },
	{ "SIG-05", PIPES_EIO, PB_KIND_ANON, PB_FAIL, "mkfifo" },
	{ "SIG-04", PIPE2_EMFILE, PB_KIND_ANON, PB_ERROR, "harness" },
	/* fcntl on a pipe failing during setup */
	{ "SIG-04", FCNTL_GETPIPESZ_EIO, PB_KIND_ANON, PB_FAIL, "F_GETPIPE_SZ" },
	/* the check cannot make its helper thread: the harness's resource, named */
	{ "SIG-03", THREADS_EAGAIN, PB_KIND_ANON, PB_ERROR,
	  "harness: pthread_create: Resource temporarily unavailable" },
	{ "SIG-03", THREADS_EAGAIN, PB_KIND_FIFO, PB_ERROR,
	  "harness: pthread_create: Resource temporarily unavailable" },
};
#define NVERDICTS (int)(sizeof(verdicts) / sizeof(verdicts[0]))

START_TEST(verdict_per_situation)
{
	struct pb_sysops s = broken_ops(verdicts[_i].bug);

	pb_test_verdict_is(&verdicts[_i], &s, _i, "sigpipe.verdict_per_situation");
}
END_TEST

/* ---- one condition at a time, the Nth call faked (pb_test_step) ---- */

/* SIG-02: a write into a reader-less pipe that says 1 but leaves errno EPIPE. */
static ssize_t write_1_errno_epipe(int fd, const void *buf, size_t n)
{
	(void)buf, (void)n;
	if (!is_pipe_fd(fd))
		return write(fd, buf, n);
	errno = EPIPE;
	return 1;
}

#define A PB_KIND_ANON
static const struct pb_test_step steps[] = {
	{ "SIG-02", A, { .write = write_1_errno_epipe }, .v = PB_FAIL,
	  .phrase = "SIG_IGN: write returned 1 (success), expected -1/EPIPE" },
};
#undef A
#define NSTEPS (sizeof(steps) / sizeof(steps[0]))

START_TEST(one_condition)
{
	pb_test_one_condition(&steps[_i], _i, "sigpipe.one_condition");
}
END_TEST

/* Check ID run in this process (not the runner's child) on the real
 * kernel, in a directory of its own (DIR, removed by the caller): it must
 * PASS; what it did to this process's signals is the caller's to see. */
static void run_here(const char *id, struct pb_check_ctx *ctx, char *dir, size_t len)
{
	*ctx = (struct pb_check_ctx){ .sys = &pb_sysops_real, .kind = PB_KIND_ANON,
				      .verdict = PB_PASS };
	ck_assert_int_eq(pb_tmpdir_make(NULL, dir, len), 0);
	ctx->dir = dir;
	pb_test_find_check(id)->run(ctx);
	ck_assert_msg(ctx->verdict == PB_PASS, "%s: %s", id, ctx->detail);
}

/* SIG-03 blocks SIGPIPE to see where it is pending, and unblocks it again:
 * run in this process (no runner child to throw the mask away), it leaves
 * the mask as it found it, and nothing pending. */
START_TEST(sig03_restores_mask)
{
	struct pb_check_ctx ctx;
	sigset_t mask, pend;
	char dir[4096];

	sigemptyset(&mask);
	ck_assert_int_eq(sigprocmask(SIG_SETMASK, &mask, NULL), 0);
	run_here("SIG-03", &ctx, dir, sizeof(dir));
	ck_assert_int_eq(sigprocmask(SIG_SETMASK, NULL, &mask), 0);
	ck_assert_msg(!sigismember(&mask, SIGPIPE), "SIG-03 left SIGPIPE blocked");
	sigpending(&pend);
	ck_assert(!sigismember(&pend, SIGPIPE));
	pb_tmpdir_remove(dir);
}
END_TEST

/* SIG-02 sets SIGPIPE to SIG_IGN and then to a handler: run in this
 * process, it leaves it at the default, as it found it. */
START_TEST(sig02_restores_default)
{
	struct pb_check_ctx ctx;
	struct sigaction sa;
	char dir[4096];

	signal(SIGPIPE, SIG_DFL);
	run_here("SIG-02", &ctx, dir, sizeof(dir));
	ck_assert_int_eq(sigaction(SIGPIPE, NULL, &sa), 0);
	ck_assert_msg(sa.sa_handler == SIG_DFL, "SIG-02 left SIGPIPE at %s",
		      sa.sa_handler == SIG_IGN ? "SIG_IGN" : "its handler");
	pb_tmpdir_remove(dir);
}
END_TEST

/* SIG-03 in this process with every signal but SIGPIPE blocked and a
 * SIGUSR1 pending: it blocks and unblocks SIGPIPE alone, and takes no
 * signal but SIGPIPE off the pending set. */
START_TEST(sig03_keeps_other_signals)
{
	struct pb_check_ctx ctx;
	sigset_t mask, after, pend;
	char dir[4096];

	sigfillset(&mask);
	sigdelset(&mask, SIGPIPE);
	ck_assert_int_eq(pthread_sigmask(SIG_SETMASK, &mask, NULL), 0);
	ck_assert_int_eq(pthread_sigmask(SIG_SETMASK, NULL, &mask), 0);
	raise(SIGUSR1);
	run_here("SIG-03", &ctx, dir, sizeof(dir));
	ck_assert_int_eq(pthread_sigmask(SIG_SETMASK, NULL, &after), 0);
	for (int sig = 1; sig < NSIG; sig++)
		ck_assert_msg(sigismember(&after, sig) == sigismember(&mask, sig),
			      "SIG-03 changed the mask of signal %d", sig);
	sigpending(&pend);
	ck_assert_msg(sigismember(&pend, SIGUSR1), "SIG-03 took a pending SIGUSR1");
	signal(SIGUSR1, SIG_IGN);  /* discards the pending one */
	pb_tmpdir_remove(dir);
}
END_TEST

/* SIG-01's writer sets SIGPIPE to the default itself: run in this process
 * with SIGPIPE ignored, it still sees its writer killed, and leaves the
 * disposition it found. */
START_TEST(sig01_writer_takes_default)
{
	struct pb_check_ctx ctx;
	struct sigaction sa;
	char dir[4096];

	signal(SIGPIPE, SIG_IGN);
	run_here("SIG-01", &ctx, dir, sizeof(dir));
	ck_assert_int_eq(sigaction(SIGPIPE, NULL, &sa), 0);
	ck_assert(sa.sa_handler == SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
	pb_tmpdir_remove(dir);
}
END_TEST

/* SIG-01 and SIG-04 that cannot fork their writer (a fresh uid of this
 * test's own with RLIMIT_NPROC 2: the test and the check) are a harness
 * error naming the fork, not a verdict on the pipe; the check closes what
 * it made (the runner's descriptor audit would say so). */
START_TEST(fork_fails_is_error)
{
	static const char *const ids[] = { "SIG-01", "SIG-04" };
	const struct pb_check *c = pb_test_find_check(ids[_i]);
	struct pb_run_opts o = { .kind = PB_KIND_ANON, .timeout_s = 20 };
	uid_t uid = (uid_t)(1600000000u + (unsigned)getpid());
	struct pb_check_result r;
	char dir[] = "/tmp/pb-sigfork.XXXXXX";  /* TMPDIR may be root's alone */

	ck_assert_ptr_nonnull(c);
	if (!mkdtemp(dir) || chown(dir, uid, (gid_t)uid) != 0) {
		fprintf(stderr, "# fork_fails_is_error: not run (%s: %s)\n", dir, strerror(errno));
		return;
	}
	if (!pb_test_fresh_uid("fork_fails_is_error", uid, 2)) {
		rmdir(dir);
		return;
	}
	ck_assert_int_eq(setenv("TMPDIR", dir, 1), 0);
	ck_assert_int_eq(pb_conformance_run_one(c, &o, &r), 0);
	ck_assert_msg(rmdir(dir) == 0, "%s: %s (left behind)", dir, strerror(errno));
	ck_assert_msg(r.verdict == PB_ERROR &&
		      strcmp(r.detail, "harness: fork: Resource temporarily unavailable") == 0,
		      "%s: %s: %s", ids[_i], pb_verdict_names[r.verdict], r.detail);
}
END_TEST

/* ---- on the real kernel, word for word (pb_test_note) ---- */

static const struct pb_test_note notes[] = {
	{ "SIG-01", PB_PASS, "writer killed by SIGPIPE", NULL },
	{ "SIG-02", PB_PASS, "SIG_IGN: EPIPE; handler: EPIPE, handler ran once first", NULL },
	{ "SIG-03", PB_PASS, "SIGPIPE pending in the writing thread only", NULL },
	{ "SIG-04", PB_PASS, "write returned 65536 of 131072; SIGPIPE x1 after the partial write, "
	  "x2 after the next; then EPIPE*", NULL },
	{ "SIG-05", PB_PASS, "data discarded: the reopened FIFO is empty (EAGAIN)", NULL },
};
#define NNOTES (int)(sizeof(notes) / sizeof(notes[0]))

/* Loop index i: row i/2, anon for even i and fifo for odd. */
START_TEST(says_what_the_kernel_did)
{
	pb_test_says_what_the_kernel_did(&notes[_i / 2], _i);
}
END_TEST

PB_CHECK_SUITE_MAIN("conf_sigpipe",
	PB_TCASE_LOOP("broken_kernel", 60, broken_kernel_fails, NBROKEN,
		      sig04_starved_writer_is_error),
	PB_TCASE_LOOP("this_kernel", 0, this_kernel, NHERE),
	PB_TCASE_LOOP("verdicts", 30, verdict_per_situation, NVERDICTS),
	PB_TCASE_LOOP("one_condition", 30, one_condition, NSTEPS),
	PB_TCASE_LOOP("real_kernel", 120, says_what_the_kernel_did, 2 * NNOTES),
	PB_TCASE_TIMED("sig04_sizes", 30, sig04_detail_sizes),
	PB_TCASE_TIMED("sig03", 10, sig03_restores_mask, sig03_keeps_other_signals),
	PB_TCASE_TIMED("sig02", 10, sig02_restores_default, sig01_writer_takes_default),
	PB_TCASE_LOOP("fork_fails", 30, fork_fails_is_error, 2))
