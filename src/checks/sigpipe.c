/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conformance checks SIG-*: EOF, SIGPIPE and EPIPE (see pipebench(1) CHECKS).
 *
 * Every write whose outcome is judged goes through ctx->sys, also in the
 * helper processes and threads the checks start, so a test can give a check
 * a write() that misbehaves and see FAIL.  Helpers report through shared
 * memory or their exit status, never through a pipe.  Children are always
 * reaped before the check returns.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checkproc.h"
#include "clock.h"
#include "conformance.h"

/* A pipe of ctx->kind whose read end is already closed: no reader at all. */
static int readerless_pipe(struct pb_check_ctx *ctx, int *wfd)
{
	int fd[2];

	if (!pb_check_make_pipe(ctx, fd, 0))
		return -1;
	ctx->sys->close(fd[0]);
	*wfd = fd[1];
	return 0;
}

/*
 * SIG-01.  XSH write() [EPIPE] "A SIGPIPE signal shall also be sent to the
 * thread"; XBD <signal.h> (default action T).
 */
static void sig01(struct pb_check_ctx *ctx)
{
	int wfd, status = 0;
	pid_t pid;

	if (readerless_pipe(ctx, &wfd))
		return;
	pid = fork();
	if (pid < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "fork: %s", strerror(errno));
		ctx->sys->close(wfd);
		return;
	}
	if (pid == 0) {
		ssize_t n;

		signal(SIGPIPE, SIG_DFL);
		alarm(3); /* a write that blocks dies of SIGALRM, not of a hang */
		n = ctx->sys->write(wfd, "x", 1);
		_exit(n == 1 ? 1 : n < 0 && errno == EPIPE ? 2 : 3);
	}
	ctx->sys->close(wfd);
	if (pb_checkproc_wait(pid, 4000, &status)) {
		pb_check_fail(ctx, "the writer neither died nor exited");
		return;
	}
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE)
		pb_check_set(ctx, PB_PASS, "writer killed by SIGPIPE");
	else if (WIFSIGNALED(status))
		pb_check_fail(ctx, "writer killed by signal %s, not SIGPIPE",
			      sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
	else
		pb_check_fail(ctx, "writer exited normally (%s) with SIGPIPE at SIG_DFL",
			      WEXITSTATUS(status) == 1 ? "write returned 1"
			      : WEXITSTATUS(status) == 2 ? "write gave EPIPE" : "write failed");
}

static volatile sig_atomic_t sigpipe_count;

static void count_sigpipe(int sig)
{
	(void)sig;
	sigpipe_count++;
}

/* SIG-02.  XSH write() [EPIPE]. */
static void sig02(struct pb_check_ctx *ctx)
{
	struct sigaction sa;
	ssize_t n;
	int wfd, e, seen;

	if (readerless_pipe(ctx, &wfd))
		return;
	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	n = ctx->sys->write(wfd, "x", 1);
	e = errno;
	if (!(n == -1 && e == EPIPE))
		pb_check_fail(ctx, "SIG_IGN: write returned %zd (%s), expected -1/EPIPE", n,
			      pb_check_err_name(n, e));

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = count_sigpipe;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	sigpipe_count = 0;
	errno = 0;
	n = ctx->sys->write(wfd, "x", 1);
	e = errno;
	seen = sigpipe_count; /* read before any other call can deliver signals */
	signal(SIGPIPE, SIG_DFL);
	ctx->sys->close(wfd);
	if (!(n == -1 && e == EPIPE))
		pb_check_fail(ctx, "handler: write returned %zd (%s), expected -1/EPIPE", n,
			      pb_check_err_name(n, e));
	else if (seen != 1)
		pb_check_fail(ctx, "handler ran %d times before write returned, expected 1", seen);
	else
		pb_check_set(ctx, PB_PASS, "SIG_IGN: EPIPE; handler: EPIPE, handler ran once first");
}

struct pending_probe {
	int has_sigpipe;
};

static void *probe_pending(void *arg)
{
	struct pending_probe *p = arg;
	sigset_t set;

	sigemptyset(&set);
	sigpending(&set);
	p->has_sigpipe = sigismember(&set, SIGPIPE);
	return NULL;
}

/* SIG-03.  XSH write(): "sent to the thread"; XSH 2.4.1. */
static void sig03(struct pb_check_ctx *ctx)
{
	struct timespec zero = { 0, 0 };
	struct pending_probe other = { -1 };
	sigset_t block, pend;
	pthread_t t;
	ssize_t n;
	int wfd, e, mine, rc;

	if (readerless_pipe(ctx, &wfd))
		return;
	/* Blocked here before the other thread exists, so in every thread. */
	sigemptyset(&block);
	sigaddset(&block, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	errno = 0;
	n = ctx->sys->write(wfd, "x", 1);
	e = errno;
	ctx->sys->close(wfd);
	sigemptyset(&pend);
	sigpending(&pend);
	mine = sigismember(&pend, SIGPIPE);
	/* A new thread starts with no thread-directed signals of its own, so
	 * what it sees pending is only what was sent to the whole process. */
	rc = pthread_create(&t, NULL, probe_pending, &other);
	if (rc == 0)
		pthread_join(t, NULL);
	while (sigtimedwait(&block, NULL, &zero) == SIGPIPE)
		;
	pthread_sigmask(SIG_UNBLOCK, &block, NULL);
	if (rc) {
		pb_check_setup(ctx, PB_RES_HARNESS, rc, "pthread_create: %s", strerror(rc));
		return;
	}
	if (!(n == -1 && e == EPIPE))
		pb_check_fail(ctx, "write returned %zd (%s), expected -1/EPIPE", n,
			      pb_check_err_name(n, e));
	else if (!mine)
		pb_check_fail(ctx, "SIGPIPE not pending in the writing thread (lost)");
	else if (other.has_sigpipe)
		pb_check_fail(ctx, "SIGPIPE pending in another thread too (process-directed)");
	else
		pb_check_set(ctx, PB_PASS, "SIGPIPE pending in the writing thread only");
}

/* What SIG-04's writer reports, in shared memory (never through a pipe). */
struct sig04_report {
	ssize_t first, second;
	int first_errno, second_errno;
	int sigs_first, sigs_second;
	int done;   /* set last */
};

/* The blocked writer of SIG-04: reports both writes through REP. */
static void __attribute__((noreturn))
sig04_writer(const struct pb_sysops *sys, int wfd, struct sig04_report *rep, size_t n)
{
	static char buf[4 << 20];
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = count_sigpipe;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	sigpipe_count = 0;
	alarm(3); /* a missing wakeup kills us by SIGALRM: reported as a hang */
	if (n > sizeof(buf))
		n = sizeof(buf);
	errno = 0;
	rep->first = sys->write(wfd, buf, n);
	rep->first_errno = errno;
	rep->sigs_first = sigpipe_count;
	errno = 0;
	rep->second = sys->write(wfd, "x", 1);
	rep->second_errno = errno;
	rep->sigs_second = sigpipe_count;
	alarm(0);
	__atomic_store_n(&rep->done, 1, __ATOMIC_SEQ_CST);
	_exit(0);
}

/* Wait (bounded by MS) until FIONREAD on RFD reaches WANT; the last value. */
static int wait_fill(const struct pb_sysops *sys, int rfd, int want, unsigned ms)
{
	struct timespec ts = { 0, 1000000 };
	int avail = -1;

	for (unsigned i = 0; i < ms; i++) {
		if ((avail = (int)pb_check_fionread(sys, rfd)) < 0)
			return -1;
		if (avail >= want)
			break;
		nanosleep(&ts, NULL);
	}
	return avail;
}

/* A writer that had the CPU for a quarter of the time SIG-04 watched it,
 * without filling the pipe or sleeping, was running, not starved. */
#define SIG04_BUSY_SHARE 4

/*
 * SIG-04.  XSH write() [EPIPE]; XSH 2.4.4; LTP pipe13 (reader side only).
 */
static void sig04(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	struct sig04_report *rep;
	int fd[2], cap, avail, status = 0;
	bool slept, early;
	char rb[32], state = '?';
	long cpu_ms = -1, watched_ms = 0;
	uint64_t t0;
	pid_t pid;

	rep = pb_check_shared(ctx, sizeof(*rep));
	if (!rep)
		return;
	if (!pb_check_make_pipe(ctx, fd, 0))
		goto unmap;
	cap = (int)pb_check_capacity(ctx, fd[1]);
	if (cap < 0) {
		pb_check_close_pair(s, fd);
		goto unmap;
	}
	pid = fork();
	if (pid < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "fork: %s", strerror(errno));
		pb_check_close_pair(s, fd);
		goto unmap;
	}
	if (pid == 0) {
		s->close(fd[0]); /* else our copy keeps a reader alive (rule 6) */
		sig04_writer(s, fd[1], rep, 2 * (size_t)cap);
	}
	t0 = pb_clock_ns();
	s->close(fd[1]);
	avail = wait_fill(s, fd[0], cap, 2000);
	slept = pb_check_wait_sleeping(pid, 1000);
	if (avail < cap && !slept) {  /* what the writer is doing instead */
		state = pb_check_proc_stat(pid, &cpu_ms);
		watched_ms = (long)((pb_clock_ns() - t0) / 1000000);
	}
	/* Both writes returned while the reader was still open and reading nothing. */
	early = __atomic_load_n(&rep->done, __ATOMIC_SEQ_CST);
	s->close(fd[0]);
	pb_checkproc_wait(pid, 4000, &status); /* bounded by the writer's alarm */
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		pb_check_fail(ctx, "the blocked writer never woke after the last reader closed "
			      "(FIONREAD was %d of %d)", avail, cap);
		goto unmap;
	}
	if (!__atomic_load_n(&rep->done, __ATOMIC_SEQ_CST)) {
		pb_check_fail(ctx, "the writer died without a report (status %#x)", status);
		goto unmap;
	}
	if (early && rep->first >= 0 && rep->first < 2 * cap)
		pb_check_fail(ctx, "a blocking write(%d) into an empty %d-byte %s returned %zd "
			      "while the reader was still open: POSIX requires it to wait for "
			      "room (a partial count only when interrupted)", 2 * cap, cap,
			      pb_check_kind_word(ctx), rep->first);
	else if (early)
		pb_check_fail(ctx, "a blocking write(%d) into a %d-byte %s returned %s while "
			      "the reader was still open and had read nothing", 2 * cap, cap,
			      pb_check_kind_word(ctx),
			      pb_check_res(rep->first, rep->first_errno, rb, sizeof(rb)));
	else if (avail < cap && !slept) {
		/* the pipe not full and the writer never asleep: its state says why */
		if (state == 'D')
			pb_check_fail(ctx, "the writer queued only %d of %d bytes within 2 s and "
				      "then sat in an uninterruptible wait (state D) inside "
				      "write(%d), never an interruptible sleep", avail, cap, 2 * cap);
		else if (cpu_ms >= 0 && cpu_ms * SIG04_BUSY_SHARE >= watched_ms)
			pb_check_fail(ctx, "the writer used %ld ms of CPU in %ld ms inside write(%d) "
				      "but queued only %d of %d bytes and was never seen asleep: a "
				      "blocking write must fill the pipe, then wait", cpu_ms,
				      watched_ms, 2 * cap, avail, cap);
		else
			pb_check_setup(ctx, PB_RES_HARNESS, 0, "the writer queued only %d of %d "
				       "bytes within 2 s, was never seen blocked and used %s ms of "
				       "CPU (state %c) in %ld ms: the machine gave it no time "
				       "(overloaded?)", avail, cap, cpu_ms < 0 ? "an unknown number of" :
				       (snprintf(rb, sizeof(rb), "%ld", cpu_ms), rb), state, watched_ms);
	} else if (rep->first == -1)
		pb_check_fail(ctx, "write returned -1/%s after %d bytes were accepted",
			      pb_checkproc_errname(rep->first_errno), avail);
	else if (rep->first != cap)
		pb_check_fail(ctx, "write returned %zd, expected the partial count %d",
			      rep->first, cap);
	else if (!(rep->second == -1 && rep->second_errno == EPIPE))
		pb_check_fail(ctx, "the next write returned %zd (%s), expected -1/EPIPE",
			      rep->second, rep->second < 0 ? pb_checkproc_errname(rep->second_errno)
			      : "success");
	else if (rep->sigs_second != rep->sigs_first + 1)
		pb_check_fail(ctx, "the EPIPE write raised SIGPIPE %d times, expected once",
			      rep->sigs_second - rep->sigs_first);
	else
		pb_check_set(ctx, PB_PASS, "write returned %zd of %d; SIGPIPE x%d after the "
			     "partial write, x%d after the next; then EPIPE%s", rep->first,
			     2 * cap, rep->sigs_first, rep->sigs_second,
			     slept ? "" : " (writer not seen asleep)");
unmap:
	munmap(rep, sizeof(*rep));
}

/* SIG-05.  XSH close(): "any data remaining in the pipe or FIFO shall be discarded". */
static void sig05(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200], buf[16];
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof(path), "%s/sig05.fifo", ctx->dir);
	if (s->mkfifo(path, 0600) != 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "mkfifo in an empty writable directory = "
			       "-1/%s; POSIX requires 0", pb_checkproc_errname(errno));
		return;
	}
	fd = s->open(path, O_RDWR | O_CLOEXEC, 0);
	if (fd < 0) {
		pb_check_fail(ctx, "open O_RDWR: %s", strerror(errno));
		goto out;
	}
	n = s->write(fd, "data", 4);
	s->close(fd);
	if (n != 4) {
		pb_check_fail(ctx, "write of 4 bytes returned %zd", n);
		goto out;
	}
	fd = s->open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC, 0);
	if (fd < 0) {
		pb_check_fail(ctx, "reopen O_RDWR|O_NONBLOCK: %s", strerror(errno));
		goto out;
	}
	errno = 0;
	n = s->read(fd, buf, sizeof(buf));
	e = errno;
	s->close(fd);
	if (n > 0)
		pb_check_fail(ctx, "%zd bytes of stale data readable after the last close", n);
	else if (!(n == -1 && e == EAGAIN))
		pb_check_fail(ctx, "read after reopen returned %zd (%s), expected -1/EAGAIN", n,
			      n < 0 ? pb_checkproc_errname(e) : "EOF");
	else
		pb_check_set(ctx, PB_PASS, "data discarded: the reopened FIFO is empty (EAGAIN)");
out:
	unlink(path);   /* the check's own FIFO: nothing left behind, whatever the verdict */
}

const struct pb_check pb_checks_sigpipe[] = {
	{ "SIG-01", "sigpipe", "P17",
	  "With the default disposition, writing with no reader kills the writer",
	  "XSH write() [EPIPE] \"A SIGPIPE signal shall also be sent to the thread\"; "
	  "XBD <signal.h> (default action T)", PB_CHECK_BOTH_KINDS, sig01 },
	{ "SIG-02", "sigpipe", "P17", "Ignored or caught SIGPIPE gives EPIPE",
	  "XSH write() [EPIPE]", PB_CHECK_BOTH_KINDS, sig02 },
	{ "SIG-03", "sigpipe", "P17", "SIGPIPE is thread-directed",
	  "XSH write(): \"sent to the thread\"; XSH 2.4.1", PB_CHECK_BOTH_KINDS, sig03 },
	{ "SIG-04", "sigpipe", "P17 + LX detail",
	  "A writer blocked on a full pipe wakes when the last reader closes",
	  "XSH write() [EPIPE]; XSH 2.4.4; LTP pipe13 (reader side only)",
	  PB_CHECK_BOTH_KINDS, sig04 },
	{ "SIG-05", "sigpipe", "P17", "Data is discarded when the last descriptor closes",
	  "XSH close(): \"any data remaining in the pipe or FIFO shall be discarded\"", 0,
	  sig05 },
	{ .id = NULL },
};
