/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Conformance checks RD-*: see pipebench(1) CHECKS. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checkproc.h"
#include "clock.h"
#include "conformance.h"

#define EN pb_checkproc_errname

/*
 * RD-01 (P17): XSH read().  With 10 bytes queued, read(100) returns the 10
 * at once; a kernel that waits to fill the buffer shows as EINTR from the
 * 2 s guard timer.
 */
static void rd01(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int fd[2];
	char buf[100], rb[32];
	ssize_t r;

	if (!pb_check_make_pipe(ctx, fd, 0))
		return;
	if (s->write(fd[1], "0123456789", 10) != 10) {
		pb_check_fail(ctx, "write of 10 bytes: %s", EN(errno));
		goto out;
	}
	r = pb_check_timed_read(s, fd[0], buf, sizeof(buf), 2000);
	if (r == -1 && errno == EINTR)
		pb_check_fail(ctx, "read(100) with 10 bytes queued blocked (EINTR after 2 s)");
	else if (r != 10 || memcmp(buf, "0123456789", 10) != 0)
		pb_check_fail(ctx, "read(100) with 10 bytes queued = %s",
			      pb_check_res(r, errno, rb, sizeof(rb)));
	else
		pb_check_note(ctx, "read(100) returned the 10 queued bytes at once");
out:
	pb_check_close_pair(s, fd);
}

/*
 * RD-02 (P17): XSH read(): "If no process has the pipe open for writing,
 * read() shall return 0".  Data written before the close comes first, then
 * EOF, and EOF persists.
 */
static void rd02(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	ssize_t got[3];
	char buf[16], rb[32];
	int fd[2];

	if (!pb_check_make_pipe(ctx, fd, 0))
		return;
	if (s->write(fd[1], "hello", 5) != 5) {
		pb_check_fail(ctx, "write of 5 bytes: %s", EN(errno));
		goto out;
	}
	pb_check_close(s, &fd[1]);
	for (int i = 0; i < 3; i++) {
		got[i] = pb_check_timed_read(s, fd[0], buf, sizeof(buf), 2000);
		if (got[i] != (i ? 0 : 5)) {
			pb_check_fail(ctx, "after writing 5 bytes and closing the writer, read #%d "
				      "= %s (expected %d)", i + 1,
				      pb_check_res(got[i], errno, rb, sizeof(rb)), i ? 0 : 5);
			goto out;
		}
		if (i == 0 && memcmp(buf, "hello", 5) != 0) {
			pb_check_fail(ctx, "the 5 bytes read back differ from those written");
			goto out;
		}
	}
	pb_check_note(ctx, "reads after the writer closed: 5, 0, 0");
out:
	pb_check_close_pair(s, fd);
}

/*
 * RD-03 (P17): XSH read().  O_NONBLOCK (set with F_SETFL), empty, a writer
 * exists: -1/EAGAIN; 0 would be misread as EOF.  See also FIFO-07.
 */
static void rd03(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int fd[2], fl;
	char c, rb[32];
	ssize_t r;

	if (!pb_check_make_pipe(ctx, fd, 0))
		return;
	fl = s->fcntl(fd[0], F_GETFL, 0);
	if (fl < 0 || s->fcntl(fd[0], F_SETFL, fl | O_NONBLOCK) != 0) {
		pb_check_fail(ctx, "F_SETFL O_NONBLOCK: %s", EN(errno));
		goto out;
	}
	r = pb_check_timed_read(s, fd[0], &c, 1, 2000);
	if (r == -1 && errno == EAGAIN)
		pb_check_note(ctx, "nonblocking read of an empty %s with a writer: -1/EAGAIN",
			      pb_check_kind_word(ctx));
	else if (r == -1 && errno == EINTR)
		pb_check_fail(ctx, "nonblocking read blocked (EINTR after 2 s)");
	else
		pb_check_fail(ctx, "nonblocking read of an empty %s with a writer = %s, not "
			      "-1/EAGAIN%s", pb_check_kind_word(ctx),
			      pb_check_res(r, errno, rb, sizeof(rb)), r == 0 ? " (looks like EOF)" : "");
out:
	pb_check_close_pair(s, fd);
}

/*
 * RD-04 (P17): XSH read(); XSH 2.4 (EINTR).  Harness rule 4: nothing can
 * satisfy the read, so only EINTR from the 300 ms timer is a pass.
 */
static void rd04(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int fd[2];
	char c, rb[32];
	ssize_t r;

	if (!pb_check_make_pipe(ctx, fd, 0))
		return;
	r = pb_check_timed_read(s, fd[0], &c, 1, 300);
	if (r == -1 && errno == EINTR)
		pb_check_note(ctx, "blocking read of an empty %s blocked until the 300 ms "
			      "SIGALRM (EINTR)", pb_check_kind_word(ctx));
	else
		pb_check_fail(ctx, "blocking read of an empty %s with a writer returned %s "
			      "instead of blocking", pb_check_kind_word(ctx),
			      pb_check_res(r, errno, rb, sizeof(rb)));
	pb_check_close_pair(s, fd);
}

/* What RD-05's reader reports, in shared memory (never through a pipe). */
struct rd05_shared {
	int ready;      /* the handler is installed; the read is next */
	int handled;    /* the SIGUSR1 handler ran */
	int done;       /* the read returned: r, err, c are set */
	int err;
	ssize_t r;
	char c;
};

static struct rd05_shared *rd05_sh;

static void rd05_handler(int sig)
{
	(void)sig;
	__atomic_store_n(&rd05_sh->handled, 1, __ATOMIC_SEQ_CST);
}

/* The reader's read returned before the signal or before 'X' was written. */
static void rd05_early(struct pb_check_ctx *ctx, const struct rd05_shared *sh, bool signalled)
{
	const char *when = signalled ? "after the SA_RESTART handler ran but before any data "
				       "was written" : "before any data was written or any signal sent";

	if (sh->r == 0)
		pb_check_fail(ctx, "read() returned EOF while a write end was open (%s); POSIX: "
			      "0 only when no process has the %s open for writing", when,
			      pb_check_kind_word(ctx));
	else if (sh->r < 0)
		pb_check_fail(ctx, "read() returned -1/%s %s%s", EN(sh->err), when,
			      sh->err == EINTR ? " despite SA_RESTART" : "");
	else
		pb_check_fail(ctx, "read() returned %zd byte(s) %s", sh->r, when);
}

/*
 * RD-05 (P17): XSH sigaction() SA_RESTART; XSH 2.4.4.  The reader sleeps in
 * read(); after /proc shows it asleep (coverage only) it gets SIGUSR1 with
 * an SA_RESTART handler that raises a flag in shared memory; only then is
 * 'X' written.  The read must resume and return 'X', never EINTR; a read
 * that returns before (EOF with the write end open, an error, data from
 * nowhere) is a fail naming what it returned.
 */
static void rd05(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	struct rd05_shared *sh;
	int fd[2], status;
	char rb[32];
	bool slept;
	pid_t pid;

	sh = pb_check_shared(ctx, sizeof(*sh));
	if (!sh)
		return;
	rd05_sh = sh;
	if (!pb_check_make_pipe(ctx, fd, 0))
		goto unmap;
	pid = pb_checkproc_fork();
	if (pid < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "fork: %s", EN(errno));
		goto out;
	}
	if (pid == 0) {
		struct sigaction sa;
		ssize_t r;
		char c = 0;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = rd05_handler;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		s->close(fd[1]);
		sigaction(SIGUSR1, &sa, NULL);
		/* Say "ready" only once the handler is in place. */
		__atomic_store_n(&sh->ready, 1, __ATOMIC_SEQ_CST);
		errno = 0;
		r = s->read(fd[0], &c, 1);
		sh->err = errno;
		sh->r = r;
		sh->c = c;
		__atomic_store_n(&sh->done, 1, __ATOMIC_SEQ_CST);
		if (r == 1 && c == 'X')
			_exit(0);
		_exit(r == -1 && sh->err == EINTR ? 1 : 2);
	}
	pb_check_close(s, &fd[0]);
	if (!pb_check_wait_flag(&sh->ready, 2000)) {
		pb_check_setup(ctx, PB_RES_HARNESS, 0, "the reader process did not start "
			       "within 2 s");
		pb_checkproc_wait(pid, 0, &status);
		goto out;
	}
	slept = pb_check_wait_sleeping(pid, 1000);
	if (__atomic_load_n(&sh->done, __ATOMIC_SEQ_CST)) {
		rd05_early(ctx, sh, false);
		pb_checkproc_wait(pid, 0, &status);
		goto out;
	}
	kill(pid, SIGUSR1);
	/* The handler ran before any data exists. */
	if (!pb_check_wait_flag(&sh->handled, 3000)) {
		if (__atomic_load_n(&sh->done, __ATOMIC_SEQ_CST))
			rd05_early(ctx, sh, false);
		else
			pb_check_fail(ctx, "SIGUSR1 sent to a reader blocked in read() on an empty "
				      "%s: its handler did not run within 3 s; a blocked pipe read "
				      "must be interruptible (XSH 2.4.4)", pb_check_kind_word(ctx));
		pb_checkproc_wait(pid, 0, &status);
		goto out;
	}
	/* Give a read that wrongly returns EINTR time to show it before data exists. */
	pb_check_wait_flag(&sh->done, 20);
	if (__atomic_load_n(&sh->done, __ATOMIC_SEQ_CST) && !(sh->r == -1 && sh->err == EINTR)) {
		rd05_early(ctx, sh, true);
		pb_checkproc_wait(pid, 0, &status);
		goto out;
	}
	/* A reader that already returned EINTR is gone: EPIPE, judged below. */
	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	if (s->write(fd[1], "X", 1) != 1 && errno != EPIPE) {
		pb_check_fail(ctx, "write of 1 byte ('X') into the empty %s with a reader = -1/%s; "
			      "POSIX requires 1", pb_check_kind_word(ctx), EN(errno));
		pb_checkproc_wait(pid, 0, &status);
		goto out;
	}
	if (pb_checkproc_wait(pid, 3000, &status) != 0)
		pb_check_fail(ctx, "the reader never returned after the restart and the write");
	else if (sh->done && sh->r == 1 && sh->c == 'X')
		pb_check_note(ctx, "read() restarted after the SA_RESTART handler and returned "
			      "'X'%s", slept ? " (reader seen asleep first)" : "");
	else if (sh->done && sh->r == -1 && sh->err == EINTR)
		pb_check_fail(ctx, "read() returned -1/EINTR despite SA_RESTART");
	else if (sh->done)
		pb_check_fail(ctx, "after 'X' was written the restarted read() returned %s%s",
			      pb_check_res(sh->r, sh->err, rb, sizeof(rb)),
			      sh->r == 1 ? " byte, not 'X'" : sh->r == 0 ? " (EOF)" : "");
	else
		pb_check_fail(ctx, "the reader died (status %#x) without its read returning",
			      status);
out:
	pb_check_close_pair(s, fd);
unmap:
	munmap(sh, sizeof(*sh));
}

/*
 * RD-06 (P17): XSH read(); pipe(7).  EOF only after every write
 * descriptor is closed: a dup() of the write end keeps the pipe open.
 */
static void rd06(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int fd[2], wdup = -1;
	char c, rb[32];
	ssize_t r;

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	wdup = s->dup(fd[1]);
	if (wdup < 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "dup of the write end = -1/%s; POSIX "
			       "requires a new descriptor", EN(errno));
		goto out;
	}
	pb_check_close(s, &fd[1]);
	r = pb_check_timed_read(s, fd[0], &c, 1, 2000);
	if (!(r == -1 && errno == EAGAIN)) {
		pb_check_fail(ctx, "write end closed but its dup open: read = %s, not "
			      "-1/EAGAIN%s", pb_check_res(r, errno, rb, sizeof(rb)),
			      r == 0 ? " (premature EOF)" : "");
		goto out;
	}
	pb_check_close(s, &wdup);
	r = pb_check_timed_read(s, fd[0], &c, 1, 2000);
	if (r != 0)
		pb_check_fail(ctx, "all write descriptors closed: read = %s, not 0 (EOF)",
			      pb_check_res(r, errno, rb, sizeof(rb)));
	else
		pb_check_note(ctx, "dup of the write end open: EAGAIN; all closed: EOF");
out:
	pb_check_close_pair(s, fd);
	pb_check_close(s, &wdup);
}

/*
 * RD-07 (P17, LX regression 6551d5c56eb0): XSH read(); LTP pipe13.  The
 * last writer's close wakes every blocked reader, not just one.
 */
static void rd07(struct pb_check_ctx *ctx)
{
	enum { N = 6 };
	const struct pb_sysops *s = ctx->sys;
	pid_t pid[N];
	int fd[2], nstarted = 0, asleep = 0, eof = 0, stuck = 0, other = 0;
	uint64_t t0;

	if (!pb_check_make_pipe(ctx, fd, 0))
		return;
	for (; nstarted < N; nstarted++) {
		pid_t p = pb_checkproc_fork();
		char c;

		if (p < 0) {
			pb_check_setup(ctx, PB_RES_HARNESS, errno, "fork: %s", EN(errno));
			break;
		}
		if (p == 0) {
			/* Rule 6: a reader holding the write end would never see EOF. */
			s->close(fd[1]);
			_exit(s->read(fd[0], &c, 1) == 0 ? 0 : 1);
		}
		pid[nstarted] = p;
	}
	pb_check_close(s, &fd[0]);
	for (int i = 0; i < nstarted; i++)
		asleep += pb_check_wait_sleeping(pid[i], 300);
	pb_check_close(s, &fd[1]);
	t0 = pb_clock_ns();
	for (int i = 0; i < nstarted; i++) {
		uint64_t spent = (pb_clock_ns() - t0) / 1000000;
		int status;

		/* One 2 s budget for all: a missing wakeup costs 2 s, not 6 x 2 s. */
		if (pb_checkproc_wait(pid[i], spent < 2000 ? (unsigned)(2000 - spent) : 0,
				      &status) != 0)
			stuck++;
		else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			eof++;
		else
			other++;
	}
	if (ctx->verdict == PB_ERROR)
		return;
	if (stuck || other)
		pb_check_fail(ctx, "after the last writer closed: %d of %d readers saw EOF, %d "
			      "stayed asleep, %d got something else", eof, N, stuck, other);
	else
		pb_check_note(ctx, "%d/%d blocked readers woke with EOF (%d/%d confirmed sleeping)",
			      eof, N, asleep, N);
}

const struct pb_check pb_checks_read[] = {
	{ "RD-01", "read", "P17", "A short read returns what is available", "XSH read()",
	  PB_CHECK_BOTH_KINDS, rd01 },
	{ "RD-02", "read", "P17", "EOF after drain, and EOF persists",
	  "XSH read(): \"If no process has the pipe open for writing, read() shall return 0\"",
	  PB_CHECK_BOTH_KINDS, rd02 },
	{ "RD-03", "read", "P17",
	  "Nonblocking read of an empty pipe while a writer exists gives EAGAIN", "XSH read()",
	  PB_CHECK_BOTH_KINDS, rd03 },
	{ "RD-04", "read", "P17",
	  "A blocking read of an empty pipe blocks until data or until all writers close",
	  "XSH read(); XSH 2.4 (EINTR)", PB_CHECK_BOTH_KINDS, rd04 },
	{ "RD-05", "read", "P17", "SA_RESTART restarts an interrupted pipe read",
	  "XSH sigaction() SA_RESTART; XSH 2.4.4", PB_CHECK_BOTH_KINDS, rd05 },
	{ "RD-06", "read", "P17", "EOF only after all write descriptors are closed",
	  "XSH read(); pipe(7)", PB_CHECK_BOTH_KINDS, rd06 },
	{ "RD-07", "read", "P17, LX regression (6551d5c56eb0)",
	  "The last writer's close wakes every blocked reader", "XSH read(); LTP pipe13",
	  PB_CHECK_BOTH_KINDS, rd07 },
	{ .id = NULL },
};
