/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conformance checks FC-*: fcntl and ioctl pipe controls (see pipebench(1)
 * CHECKS).  Sizes come from sysconf and F_GETPIPE_SZ, never constants;
 * capabilities are read from CapEff, never inferred from the euid.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "checkproc.h"
#include "conformance.h"

#define FS "/proc/sys/fs/"  /* the pipe limits; read as the environment, not judged */

/* FC-01.  pipe(7). */
static void fc01(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	static const char data[123];
	int fd[2], rn = -1, wn = -1, re = 0, we = 0;

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	if (!pb_check_io_exact(ctx, s->write(fd[1], data, sizeof(data)), sizeof(data),
			       "queueing 123 bytes: write(123) into the empty end")) {
		pb_check_close_pair(ctx->sys, fd);
		return;
	}
	if (s->ioctl(fd[0], FIONREAD, &rn) != 0)
		re = errno;
	if (s->ioctl(fd[1], FIONREAD, &wn) != 0)
		we = errno;
	pb_check_close_pair(ctx->sys, fd);
	if (re)
		pb_check_fail(ctx, "FIONREAD on the read end: -1/%s", pb_checkproc_errname(re));
	else if (rn != 123)
		pb_check_fail(ctx, "FIONREAD on the read end: %d, expected 123", rn);
	if (we)
		pb_check_fail(ctx, "FIONREAD on the write end: -1/%s", pb_checkproc_errname(we));
	else if (wn != 123)
		pb_check_fail(ctx, "FIONREAD on the write end: %d, expected 123", wn);
	if (ctx->verdict == PB_PASS)
		pb_check_set(ctx, PB_PASS, "FIONREAD 123 on both ends");
}

/* FC-02.  pipe(7) "Pipe capacity", /proc files. */
static void fc02(struct pb_check_ctx *ctx)
{
	long page = pb_check_page_size(), def = 16 * page;
	long max = pb_check_proc_long(FS "pipe-max-size");
	int fd[2], cap;

	if (!pb_check_make_pipe(ctx, fd, 0))
		return;
	errno = 0;
	cap = ctx->sys->fcntl(fd[0], F_GETPIPE_SZ, 0);
	pb_check_close_pair(ctx->sys, fd);
	if (cap < 0) {
		pb_check_fail(ctx, "F_GETPIPE_SZ: %s", pb_checkproc_errname(errno));
	} else if (cap < PIPE_BUF) {
		pb_check_fail(ctx, "default capacity %d is below PIPE_BUF (%d)", cap, PIPE_BUF);
	} else if (cap == def) {
		pb_check_set(ctx, PB_PASS, "default capacity %d (16 pages of %ld)", cap, page);
	} else if (!pb_check_has_limit_cap(PB_CAP_SYS_RESOURCE) && max > 0 && max < def &&
		   cap == max) {
		pb_check_info(ctx, "default capacity %d: pipe-max-size %ld is below 16 pages and "
			      "the caller lacks CAP_SYS_RESOURCE", cap, max);
	} else if ((cap == 2 * page || cap == page) &&
		   !pb_check_has_limit_cap(PB_CAP_SYS_RESOURCE) &&
		   !pb_check_has_limit_cap(PB_CAP_SYS_ADMIN)) {
		pb_check_info(ctx, "default capacity %d: this user is over pipe-user-pages-soft "
			      "(%ld)", cap, pb_check_proc_long(FS "pipe-user-pages-soft"));
	} else {
		pb_check_info(ctx, "default capacity %d differs from 16 pages (%ld) for no known "
			      "reason", cap, def);
	}
}

/*
 * An unprivileged user over pipe-user-pages-soft gets 2-page pipes that may
 * not grow (EPERM), which is FC-02's business, not a resize failure: SKIP.
 * True (SKIP recorded) in that case.
 */
static bool over_soft_limit(struct pb_check_ctx *ctx, int fd)
{
	long page = pb_check_page_size(), max = pb_check_proc_long(FS "pipe-max-size");
	int cap = ctx->sys->fcntl(fd, F_GETPIPE_SZ, 0);

	if (cap <= 0 || cap >= 16 * page || (max > 0 && cap >= max) ||
	    pb_check_has_limit_cap(PB_CAP_SYS_RESOURCE) ||
	    pb_check_has_limit_cap(PB_CAP_SYS_ADMIN))
		return false;
	pb_check_skip(ctx, "default capacity %d: this user is over pipe-user-pages-soft, "
		      "pipes may not grow (see FC-02)", cap);
	return true;
}

/* Whether an unprivileged caller may set SIZE (pipe-max-size). */
static bool may_set(long size)
{
	long max = pb_check_proc_long(FS "pipe-max-size");

	return pb_check_has_limit_cap(PB_CAP_SYS_RESOURCE) || max <= 0 || size <= max;
}

/* F_SETPIPE_SZ REQ on FD; expect WANT back and WANT from F_GETPIPE_SZ on OTHER. */
static void expect_set(struct pb_check_ctx *ctx, int fd, int other, long req, long want)
{
	const struct pb_sysops *s = ctx->sys;
	int got, seen;

	errno = 0;
	got = s->fcntl(fd, F_SETPIPE_SZ, req);
	if (got < 0) {
		pb_check_fail(ctx, "F_SETPIPE_SZ(%ld): %s, expected %ld", req,
			      pb_checkproc_errname(errno), want);
		return;
	}
	seen = s->fcntl(other, F_GETPIPE_SZ, 0);
	if (got != want)
		pb_check_fail(ctx, "F_SETPIPE_SZ(%ld) returned %d, expected %ld", req, got, want);
	else if (seen != want)
		pb_check_fail(ctx, "F_SETPIPE_SZ(%ld) gave %d but the other end reads %d", req,
			      got, seen);
}

/* FC-03.  fcntl(2) F_SETPIPE_SZ; round_pipe_size(). */
static void fc03(struct pb_check_ctx *ctx)
{
	long page = pb_check_page_size();
	static const long reqs[] = { 5000, 0, 65537, -3 };  /* -3: three pages */
	char done[256] = "", *p = done;
	int fd[2];

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	if (over_soft_limit(ctx, fd[1])) {
		pb_check_close_pair(ctx->sys, fd);
		return;
	}
	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		long req = reqs[i] < 0 ? -reqs[i] * page : reqs[i], want = page;

		while (want < req) /* a power-of-two number of pages */
			want *= 2;
		if (!may_set(want)) {
			p += snprintf(p, sizeof(done) - (size_t)(p - done),
				      "%ld not tried (pipe-max-size), ", req);
			continue;
		}
		expect_set(ctx, fd[1], fd[0], req, want);
		p += snprintf(p, sizeof(done) - (size_t)(p - done), "%ld -> %ld, ", req, want);
	}
	pb_check_close_pair(ctx->sys, fd);
	if (ctx->verdict == PB_PASS)
		pb_check_set(ctx, PB_PASS, "%sthe other end agrees", done);
}

/* FC-04.  fcntl(2) ERRORS; LTP fcntl37. */
static void fc04(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	static unsigned char page_buf[3][65536];
	static unsigned char back[3 * 65536];
	static const struct { long arg; const char *name; } bad[] = {
		{ (long)((1UL << 31) + 1), "(1U<<31)+1" },
		{ (long)(int)-1, "(int)-1" },
	};
	long page = pb_check_page_size();
	int fd[2], size0, size1, avail = -1, got, e, rfd;
	char path[4200];
	long n = 0;

	if (page > 65536) {
		pb_check_skip(ctx, "page size %ld is larger than this check's buffers", page);
		return;
	}
	if (!may_set(4 * page)) {
		pb_check_skip(ctx, "pipe-max-size is below 4 pages");
		return;
	}
	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	if (over_soft_limit(ctx, fd[1])) {
		pb_check_close_pair(ctx->sys, fd);
		return;
	}
	for (int i = 0; i < 3; i++) {
		memset(page_buf[i], 'a' + i, (size_t)page);
		if (!pb_check_io_exact(ctx, s->write(fd[1], page_buf[i], (size_t)page),
				       (size_t)page, "queueing 3 pages: write(one page) with room")) {
			pb_check_close_pair(ctx->sys, fd);
			return;
		}
	}
	size0 = s->fcntl(fd[1], F_GETPIPE_SZ, 0);
	errno = 0;
	got = s->fcntl(fd[1], F_SETPIPE_SZ, 2 * page);
	e = errno;
	size1 = s->fcntl(fd[1], F_GETPIPE_SZ, 0);
	s->ioctl(fd[0], FIONREAD, &avail);
	if (!(got == -1 && e == EBUSY))
		pb_check_fail(ctx, "F_SETPIPE_SZ(2 pages) with 3 pages queued: %d (%s), "
			      "expected -1/EBUSY", got, pb_check_err_name(got, e));
	else if (size1 != size0 || avail != 3 * page)
		pb_check_fail(ctx, "after EBUSY: size %d (was %d), FIONREAD %d (was %ld)", size1,
			      size0, avail, 3 * page);
	expect_set(ctx, fd[1], fd[0], 4 * page, 4 * page);
	while (n < 3 * page) {
		ssize_t r = s->read(fd[0], back + n, (size_t)(3 * page - n));

		if (r <= 0)
			break;
		n += r;
	}
	if (n != 3 * page || memcmp(back, page_buf[0], (size_t)page) ||
	    memcmp(back + page, page_buf[1], (size_t)page) ||
	    memcmp(back + 2 * page, page_buf[2], (size_t)page))
		pb_check_fail(ctx, "data changed by the resizes: read back %ld of %ld bytes", n,
			      3 * page);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		got = s->fcntl(fd[1], F_SETPIPE_SZ, bad[i].arg);
		e = errno;
		if (!(got == -1 && e == EINVAL))
			pb_check_fail(ctx, "F_SETPIPE_SZ(%s): %d (%s), expected -1/EINVAL",
				      bad[i].name, got, pb_check_err_name(got, e));
	}
	pb_check_close_pair(ctx->sys, fd);

	snprintf(path, sizeof(path), "%s/regular", ctx->dir);
	rfd = s->open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (rfd < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "cannot make a regular file: %s",
			       strerror(errno));
		return;
	}
	for (int cmd = 0; cmd < 2; cmd++) {
		errno = 0;
		got = s->fcntl(rfd, cmd ? F_SETPIPE_SZ : F_GETPIPE_SZ, cmd ? page : 0);
		e = errno;
		if (!(got == -1 && e == EBADF))
			pb_check_fail(ctx, "%s on a regular file: %d (%s), expected -1/EBADF",
				      cmd ? "F_SETPIPE_SZ" : "F_GETPIPE_SZ", got,
				      pb_check_err_name(got, e));
	}
	s->close(rfd);
	unlink(path);
	if (ctx->verdict == PB_PASS)
		pb_check_set(ctx, PB_PASS, "EBUSY below the occupied slots (size and data kept), "
			     "4 pages then set; EINVAL for (1U<<31)+1 and -1; EBADF on a regular "
			     "file");
}

static const char *const fc05_messages[] = {
	"pass",
	"F_SETPIPE_SZ(max+1) succeeded without CAP_SYS_RESOURCE",
	"F_SETPIPE_SZ(max+1) failed with an errno other than EPERM",
	"F_SETPIPE_SZ(max) did not give max",
};

/* The unprivileged half of FC-05 on pipe FD: an index into fc05_messages. */
static int fc05_unpriv(const struct pb_sysops *s, int fd, long max)
{
	errno = 0;
	if (s->fcntl(fd, F_SETPIPE_SZ, max + 1) >= 0)
		return 1;
	if (errno != EPERM)
		return 2;
	return s->fcntl(fd, F_SETPIPE_SZ, max) == max ? 0 : 3;
}

/* What fc05_unpriv_child hands pb_check_as_nobody. */
struct fc05_arg {
	int fd;
	long max;
};

/* fc05_unpriv as uid 65534: the message index in VALUE. */
static void fc05_nobody(const struct pb_sysops *s, void *arg, struct pb_nobody_out *out)
{
	const struct fc05_arg *a = arg;

	out->value = fc05_unpriv(s, a->fd, a->max);
}

/* Run fc05_unpriv as uid/gid 65534 in a child: the message index, or
 * PB_NOBODY_ERROR/SKIP/HUNG (see pb_check_as_nobody; WHY says why for SKIP). */
static int fc05_unpriv_child(struct pb_check_ctx *ctx, int fd, long max, char *why, size_t len)
{
	struct fc05_arg a = { fd, max };
	struct pb_nobody_out out = { 0, 0 };
	int r = pb_check_as_nobody(ctx, NULL, 3000, fc05_nobody, &a, &out, why, len);

	return r == PB_NOBODY_OK ? (int)out.value : r;
}

/* FC-05.  pipe(7) /proc files; fcntl(2) EPERM. */
static void fc05(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	long max = pb_check_proc_long(FS "pipe-max-size");
	bool res = pb_check_has_limit_cap(PB_CAP_SYS_RESOURCE);
	const char *unpriv = "skipped: needs CAP_SETUID to drop CAP_SYS_RESOURCE";
	const char *priv = pb_check_has_cap(PB_CAP_SYS_RESOURCE) ?
		"skipped: CAP_SYS_RESOURCE is held only inside a user namespace, and the "
		"kernel checks it in the initial one" : "skipped: no CAP_SYS_RESOURCE";
	char why[200], unpriv_buf[240];
	int fd[2], got;

	if (max <= 0) {
		pb_check_skip(ctx, "/proc/sys/fs/pipe-max-size is not readable");
		return;
	}
	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	if (!res && over_soft_limit(ctx, fd[1])) {
		pb_check_close_pair(ctx->sys, fd);
		return;
	}
	if (!res) {
		int i = fc05_unpriv(s, fd[1], max);

		if (i)
			pb_check_fail(ctx, "%s (pipe-max-size %ld)", fc05_messages[i], max);
		unpriv = "pass as caller";
	} else if (pb_check_has_cap(PB_CAP_SETUID)) {
		int i = fc05_unpriv_child(ctx, fd[1], max, why, sizeof(why));

		if (i == PB_NOBODY_HUNG)
			pb_check_fail(ctx, "as uid 65534: F_SETPIPE_SZ did not return within 3 s");
		else if (i > 0)
			pb_check_fail(ctx, "as uid 65534: %s (pipe-max-size %ld)", fc05_messages[i],
				      max);
		if (i == PB_NOBODY_SKIP) {
			snprintf(unpriv_buf, sizeof(unpriv_buf), "skipped: %s", why);
			unpriv = unpriv_buf;
		} else {
			unpriv = "pass as uid 65534";
		}
	}
	if (res) {
		got = s->fcntl(fd[1], F_SETPIPE_SZ, 2 * max);
		if (got < 2 * max)
			pb_check_fail(ctx, "with CAP_SYS_RESOURCE F_SETPIPE_SZ(2*%ld): %d (%s)", max,
				      got, pb_check_err_name(got, errno));
		priv = "pass";
	}
	pb_check_close_pair(ctx->sys, fd);
	if (ctx->verdict == PB_PASS)
		pb_check_set(ctx, PB_PASS, "pipe-max-size %ld; unprivileged side: %s; "
			     "privileged side: %s", max, unpriv, priv);
}

/* FC-06.  pipe(7) "Open file status flags"; fcntl(2). */
static void fc06(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	struct timespec zero = { 0, 0 };
	sigset_t io, old, pend;
	int fd[2], before, after, again, fl;

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	sigemptyset(&io);
	sigaddset(&io, SIGIO);
	sigprocmask(SIG_BLOCK, &io, &old);
	fl = s->fcntl(fd[0], F_GETFL, 0);
	if (s->fcntl(fd[0], F_SETOWN, getpid()) != 0 ||
	    fl < 0 || s->fcntl(fd[0], F_SETFL, fl | O_ASYNC) != 0) {
		pb_check_fail(ctx, "F_SETOWN/F_SETFL O_ASYNC on the read end: %s",
			      pb_checkproc_errname(errno));
		goto out;
	}
	sigpending(&pend);
	before = sigismember(&pend, SIGIO);
	s->write(fd[1], "x", 1);
	sigpending(&pend);
	after = sigismember(&pend, SIGIO);
	while (sigtimedwait(&io, NULL, &zero) == SIGIO)
		;
	/* Since 5.14 (fe67f4dd8daa) every write signals, not just empty -> non-empty. */
	s->write(fd[1], "x", 1);
	sigpending(&pend);
	again = sigismember(&pend, SIGIO);
	if (before)
		pb_check_fail(ctx, "SIGIO was pending before any write");
	else if (!after)
		pb_check_fail(ctx, "no SIGIO after a write with O_ASYNC and F_SETOWN");
	else
		pb_check_set(ctx, PB_PASS, "SIGIO pending after the write, not before; a second "
			     "write into a non-empty pipe %s", again ? "signals again (5.14+)"
			     : "does not signal (pre-5.14 behaviour)");
out:
	fl = s->fcntl(fd[0], F_GETFL, 0);
	if (fl >= 0)
		s->fcntl(fd[0], F_SETFL, fl & ~O_ASYNC);
	pb_check_close_pair(ctx->sys, fd);
	while (sigtimedwait(&io, NULL, &zero) == SIGIO)
		;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

const struct pb_check pb_checks_fcntl[] = {
	{ "FC-01", "fcntl", "LX", "FIONREAD on both ends", "pipe(7)", PB_CHECK_BOTH_KINDS, fc01 },
	{ "FC-02", "fcntl", "LX, env", "Default capacity",
	  "pipe(7) \"Pipe capacity\", /proc files", PB_CHECK_BOTH_KINDS, fc02 },
	{ "FC-03", "fcntl", "LX", "F_SETPIPE_SZ rounds up and is shared by both ends",
	  "fcntl(2) F_SETPIPE_SZ; round_pipe_size()", PB_CHECK_BOTH_KINDS, fc03 },
	{ "FC-04", "fcntl", "LX", "F_SETPIPE_SZ and F_GETPIPE_SZ errors",
	  "fcntl(2) ERRORS; LTP fcntl37", PB_CHECK_BOTH_KINDS, fc04 },
	{ "FC-05", "fcntl", "LX, priv, env", "/proc/sys/fs/pipe-max-size enforcement",
	  "pipe(7) /proc files; fcntl(2) EPERM", PB_CHECK_BOTH_KINDS | PB_CHECK_PRIV, fc05 },
	{ "FC-06", "fcntl", "LX", "O_ASYNC with F_SETOWN delivers SIGIO",
	  "pipe(7) \"Open file status flags\"; fcntl(2)", PB_CHECK_BOTH_KINDS, fc06 },
	{ .id = NULL },
};
