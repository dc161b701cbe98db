/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Conformance checks PL-*: see pipebench(1) CHECKS. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

#include "checkproc.h"
#include "conformance.h"

/* revents of one fd after a zero-timeout poll (never blocks); -1 when poll
 * itself failed (FAIL recorded: POSIX gives a pipe no reason to refuse). */
static int poll_now(struct pb_check_ctx *ctx, int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n = ctx->sys->poll(&p, 1, 0);

	if (n < 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "poll() of one %s end with timeout 0: "
			       "%s; POSIX requires the number of ready descriptors",
			       pb_check_kind_word(ctx), pb_checkproc_errname(errno));
		return -1;
	}
	return n == 0 ? 0 : p.revents;
}

/* FAIL unless FD's revents for EVENTS are WANT: "STATE: revents 0x.., expected
 * EXPECTED" (EXPECTED names WANT in words). */
static void expect_revents(struct pb_check_ctx *ctx, int fd, short events, int want,
			   const char *state, const char *expected)
{
	int r = poll_now(ctx, fd, events);

	if (r >= 0 && r != want)
		pb_check_fail(ctx, "%s: revents 0x%x, expected %s", state, r, expected);
}

/* PL-01: XSH poll() */
static void pl01(struct pb_check_ctx *ctx)
{
	char buf[PIPE_BUF];
	int fd[2], r, w;
	long filled;

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK | O_CLOEXEC))
		return;
	r = poll_now(ctx, fd[0], POLLIN);
	w = poll_now(ctx, fd[1], POLLOUT);
	if (r < 0 || w < 0)
		goto out;
	if (r != 0)
		pb_check_fail(ctx, "empty pipe: read end revents 0x%x, expected 0", r);
	if (w != POLLOUT)
		pb_check_fail(ctx, "empty pipe: write end revents 0x%x, expected POLLOUT", w);
	if (!pb_check_io_exact(ctx, ctx->sys->write(fd[1], "x", 1), 1,
			       "write(1) into the empty end"))
		goto out;
	r = poll_now(ctx, fd[0], POLLIN);
	if (r >= 0 && r != POLLIN)
		pb_check_fail(ctx, "1 byte queued: read end revents 0x%x, expected POLLIN", r);
	if (!pb_check_io_exact(ctx, ctx->sys->read(fd[0], buf, 1), 1,
			       "read(1) with 1 byte queued"))
		goto out;
	filled = pb_check_fill_or_fail(ctx, fd[1]);
	if (filled < 0)
		goto out;
	w = poll_now(ctx, fd[1], POLLOUT);
	if (w >= 0 && (w & POLLOUT))
		pb_check_fail(ctx, "full pipe (%ld bytes): write end revents 0x%x has POLLOUT",
			      filled, w);
	if (!pb_check_io_exact(ctx, ctx->sys->read(fd[0], buf, sizeof(buf)), sizeof(buf),
			       "read(PIPE_BUF) when full"))
		goto out;
	w = poll_now(ctx, fd[1], POLLOUT);
	if (w >= 0 && w != POLLOUT)
		pb_check_fail(ctx, "after reading PIPE_BUF from a full pipe: write end revents "
			      "0x%x, expected POLLOUT", w);
	if (ctx->verdict == PB_PASS)
		pb_check_note(ctx, "empty: 0/POLLOUT; data: POLLIN; full (%ld bytes): no POLLOUT; "
			      "POLLOUT again after reading %d", filled, PIPE_BUF);
out:
	pb_check_close_pair(ctx->sys, fd);
}

/*
 * PL-02: XSH poll() POLLHUP: "a pipe or FIFO has been closed by the last process that
 * had it open for writing... mutually-exclusive with POLLOUT"; LTP poll03
 */
static void pl02(struct pb_check_ctx *ctx)
{
	char buf[16];
	int fd[2], r;

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK | O_CLOEXEC))
		return;
	if (!pb_check_io_exact(ctx, ctx->sys->write(fd[1], "hello", 5), 5,
			       "write(5) into the empty end"))
		goto out;
	ctx->sys->close(fd[1]);
	fd[1] = -1;
	r = poll_now(ctx, fd[0], POLLIN | POLLOUT);
	if (r >= 0 && r != (POLLIN | POLLHUP))
		pb_check_fail(ctx, "writer gone, data left: revents 0x%x, expected 0x%x "
			      "(POLLIN|POLLHUP)", r, POLLIN | POLLHUP);
	if (!pb_check_io_exact(ctx, ctx->sys->read(fd[0], buf, sizeof(buf)), 5,
			       "read(16) with 5 bytes queued and the writer gone"))
		goto out;
	r = poll_now(ctx, fd[0], POLLIN | POLLOUT);
	if (r >= 0 && r != POLLHUP)
		pb_check_fail(ctx, "writer gone, drained: revents 0x%x, expected 0x%x (POLLHUP)",
			      r, POLLHUP);
	if (ctx->verdict == PB_PASS)
		pb_check_note(ctx, "data left: 0x%x; drained: 0x%x", POLLIN | POLLHUP, POLLHUP);
out:
	pb_check_close_pair(ctx->sys, fd);
}

/* PL-03: poll(2); fs/pipe.c pipe_poll */
static void pl03(struct pb_check_ctx *ctx)
{
	int fd[2], w;

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK | O_CLOEXEC))
		return;
	ctx->sys->close(fd[0]);
	fd[0] = -1;
	w = poll_now(ctx, fd[1], POLLOUT);
	if (w >= 0 && w != (POLLOUT | POLLERR))
		pb_check_fail(ctx, "no readers: write end revents 0x%x, expected 0x%x "
			      "(POLLOUT|POLLERR)", w, POLLOUT | POLLERR);
	else if (w >= 0)
		pb_check_note(ctx, "revents 0x%x", w);
	pb_check_close_pair(ctx->sys, fd);
}

/* Readable per select() with a zero timeout: 1, 0, or -1 on error. */
static int select_now(struct pb_check_ctx *ctx, int fd, bool for_write)
{
	struct timeval tv = { 0, 0 };
	fd_set set;
	int n;

	if (fd >= FD_SETSIZE) {
		pb_check_setup(ctx, PB_RES_HARNESS, 0, "fd %d beyond FD_SETSIZE", fd);
		return -1;
	}
	FD_ZERO(&set);
	FD_SET(fd, &set);
	n = for_write ? ctx->sys->select(fd + 1, NULL, &set, NULL, &tv)
		      : ctx->sys->select(fd + 1, &set, NULL, NULL, &tv);
	if (n < 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "select() of one %s end with timeout 0: "
			       "%s; POSIX requires the number of ready descriptors",
			       pb_check_kind_word(ctx), pb_checkproc_errname(errno));
		return -1;
	}
	return n > 0 && FD_ISSET(fd, &set);
}

/* open(PATH, FLAGS|O_NONBLOCK|O_CLOEXEC) of a FIFO; its failure is the
 * kernel's: "WHAT: errno; POSIX requires REQUIRED". */
static int open_fifo_end(struct pb_check_ctx *ctx, const char *path, int flags,
			 const char *what, const char *required)
{
	int fd = ctx->sys->open(path, flags | O_NONBLOCK | O_CLOEXEC, 0);

	if (fd < 0)
		pb_check_setup(ctx, PB_RES_PIPE, errno, "%s: %s; POSIX requires %s", what,
			       pb_checkproc_errname(errno), required);
	return fd;
}

/*
 * PL-04: XSH poll() POLLHUP ("persist until some process opens the FIFO for writing");
 * XSH select() ("ready for reading when... would not block"); kernel fifo_open comment
 * "suppress POLLHUP until we have seen a writer"
 */
static void pl04(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200], path2[4200], c;
	int rfd = -1, wfd = -1, rfd2 = -1, ready;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/pl04.fifo", ctx->dir);
	snprintf(path2, sizeof(path2), "%s/pl04b.fifo", ctx->dir);
	if (s->mkfifo(path, 0600) != 0 || s->mkfifo(path2, 0600) != 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "mkfifo(0600) in an empty private "
			       "directory: %s; POSIX requires a new FIFO",
			       pb_checkproc_errname(errno));
		goto out;
	}
	rfd = open_fifo_end(ctx, path, O_RDONLY, "open(O_RDONLY|O_NONBLOCK) of a new FIFO",
			    "it to return at once");
	if (rfd < 0)
		goto out;
	expect_revents(ctx, rfd, POLLIN, 0, "no writer ever",
		       "0 (HUP before any writer makes poll loops spin)");
	wfd = open_fifo_end(ctx, path, O_WRONLY,
			    "open(O_WRONLY|O_NONBLOCK) of a FIFO with a reader", "success");
	if (wfd < 0)
		goto out;
	expect_revents(ctx, rfd, POLLIN, 0, "writer open", "0");
	s->close(wfd);
	wfd = -1;
	expect_revents(ctx, rfd, POLLIN, POLLHUP, "writer closed", "POLLHUP");
	wfd = open_fifo_end(ctx, path, O_WRONLY, "reopening a writer of a FIFO with a reader",
			    "success");
	if (wfd < 0)
		goto out;
	expect_revents(ctx, rfd, POLLIN, 0, "new writer open", "0 (HUP not cleared)");
	if (ctx->verdict != PB_PASS)
		goto out;

	/* The select nuance, on a FIFO that never had a writer. */
	rfd2 = open_fifo_end(ctx, path2, O_RDONLY,
			     "open(O_RDONLY|O_NONBLOCK) of a second new FIFO", "it to return at once");
	if (rfd2 < 0)
		goto out;
	ready = select_now(ctx, rfd2, false);
	if (ready < 0)
		goto out;
	s->fcntl(rfd2, F_SETFL, s->fcntl(rfd2, F_GETFL, 0) & ~O_NONBLOCK);
	pb_check_arm_interrupt(2000);
	n = s->read(rfd2, &c, 1);
	pb_check_disarm();
	if (n < 0 && errno == EINTR)
		pb_check_fail(ctx, "blocking read of a FIFO that never had a writer blocked "
			      "(EINTR after 2 s), expected 0 (EOF)");
	else if (n != 0)
		pb_check_fail(ctx, "blocking read of a FIFO that never had a writer returned "
			      "%zd (%s), expected 0", n, n < 0 ? strerror(errno) : "data");
	else
		pb_check_note(ctx, "HUP state 0/0/POLLHUP/0; select nuance: %s (ready=%d, "
			      "read=0)", ready ? "none, select says readable"
			      : "LX!=P, select says not readable yet read returns 0", ready);
out:
	if (rfd >= 0)
		s->close(rfd);
	if (rfd2 >= 0)
		s->close(rfd2);
	if (wfd >= 0)
		s->close(wfd);
	unlink(path);
	unlink(path2);
}

/*
 * PL-05: XSH select(): "ready for writing when a call to an output function... would not
 * block, whether or not the function would transfer data successfully"
 */
static void pl05(struct pb_check_ctx *ctx)
{
	int a[2] = { -1, -1 }, b[2] = { -1, -1 }, rd, wr;
	long filled;

	signal(SIGPIPE, SIG_IGN);  /* a stray write to the reader-less pipe must not kill */
	if (!pb_check_make_pipe(ctx, a, O_NONBLOCK | O_CLOEXEC))
		return;
	ctx->sys->close(a[1]);
	a[1] = -1;
	rd = select_now(ctx, a[0], false);
	if (rd == 0)
		pb_check_fail(ctx, "read end at EOF not readable per select()");
	pb_check_close_pair(ctx->sys, a);
	filled = pb_check_full_pipe(ctx, b, O_NONBLOCK | O_CLOEXEC);
	if (filled < 0)
		goto out;
	ctx->sys->close(b[0]);
	b[0] = -1;
	wr = select_now(ctx, b[1], true);
	if (wr == 0)
		pb_check_fail(ctx, "full write end with no readers (%ld bytes queued) not "
			      "writable per select(): a writer would deadlock", filled);
	if (ctx->verdict == PB_PASS)
		pb_check_note(ctx, "EOF read end readable; full reader-less write end writable");
out:
	pb_check_close_pair(ctx->sys, b);
}

const struct pb_check pb_checks_poll[] = {
	{ "PL-01", "poll", "P17", "Basic readiness", "XSH poll()",
	  PB_CHECK_BOTH_KINDS, pl01 },
	{ "PL-02", "poll", "P17", "POLLHUP on the read end once the last writer is gone",
	  "XSH poll() POLLHUP: \"a pipe or FIFO has been closed by the last process that had "
	  "it open for writing... mutually-exclusive with POLLOUT\"; LTP poll03",
	  PB_CHECK_BOTH_KINDS, pl02 },
	{ "PL-03", "poll", "LX", "POLLERR on the write end when there are no readers",
	  "poll(2); fs/pipe.c pipe_poll", PB_CHECK_BOTH_KINDS, pl03 },
	{ "PL-04", "poll", "P17 (HUP state) + LX!=P (select)", "FIFO hangup state",
	  "XSH poll() POLLHUP (\"persist until some process opens the FIFO for writing\"); "
	  "XSH select() (\"ready for reading when... would not block\"); kernel fifo_open "
	  "comment \"suppress POLLHUP until we have seen a writer\"", 0, pl04 },
	{ "PL-05", "poll", "P17", "select() readiness at EOF and EPIPE",
	  "XSH select(): \"ready for writing when a call to an output function... would not "
	  "block, whether or not the function would transfer data successfully\"",
	  PB_CHECK_BOTH_KINDS, pl05 },
	{ .id = NULL },
};
