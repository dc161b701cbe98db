/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conformance checks FIFO-*: FIFO creation and open rules (see pipebench(1)
 * CHECKS).  Each check makes its own FIFO in its private directory; the
 * opens that must block are bounded by the non-restarting interrupt timer
 * (harness rule 4), and helper processes are always reaped.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checkproc.h"
#include "conformance.h"

/* The guard for opens that must return at once (FIFO-02/05/06).  Shorter
 * than the catalogue's 5 s for FIFO-05 so it fires before the runner's
 * default 5 s watchdog and the check can say what hung. */
#define GUARD_MS 2000

static void fifo_path(const struct pb_check_ctx *ctx, const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s", ctx->dir, name);
}

/* Make the FIFO NAME in ctx->dir; false when impossible: mkfifo failing in
 * the check's own empty directory is the kernel's FAIL (ERROR only for
 * ENOMEM and the like, see pb_check_setup). */
static bool make_fifo(struct pb_check_ctx *ctx, const char *name, char *path, size_t n)
{
	fifo_path(ctx, name, path, n);
	if (ctx->sys->mkfifo(path, 0600) == 0)
		return true;
	pb_check_setup(ctx, PB_RES_PIPE, errno, "mkfifo(%s, 0600) in an empty private "
		       "directory: %s; POSIX requires it to make a FIFO", name,
		       pb_checkproc_errname(errno));
	return false;
}

/* Open with the interrupt timer armed; *E gets errno. */
static int guarded_open(const struct pb_sysops *s, const char *path, int flags, unsigned ms,
			int *e)
{
	int fd;

	pb_check_arm_interrupt(ms);
	errno = 0;
	fd = s->open(path, flags | O_CLOEXEC, 0);
	*e = errno;
	pb_check_disarm();
	return fd;
}

/*
 * guarded_open() of a step that must succeed: on failure the verdict is
 * recorded per pb_check_setup (FAIL, ERROR for EMFILE and the like) with
 * "WHAT: ERRNO" (" (blocked)" when the watchdog had to interrupt it),
 * CLOSE_ON_FAIL (unless -1) is closed and -1 returned.
 */
static int open_or_fail(struct pb_check_ctx *ctx, const char *path, int flags, const char *what,
			int close_on_fail)
{
	int e, fd = guarded_open(ctx->sys, path, flags, GUARD_MS, &e);

	if (fd >= 0)
		return fd;
	pb_check_setup(ctx, PB_RES_PIPE, e, "%s: %s%s", what, pb_checkproc_errname(e),
		       e == EINTR ? " (blocked)" : "");
	if (close_on_fail >= 0)
		ctx->sys->close(close_on_fail);
	return -1;
}

/* Two open_or_fail()s of PATH into FD[0] and FD[1]: false (nothing left
 * open) when either fails. */
static bool open_both_or_fail(struct pb_check_ctx *ctx, const char *path, int flags0,
			      const char *what0, int flags1, const char *what1, int fd[2])
{
	fd[0] = open_or_fail(ctx, path, flags0, what0, -1);
	fd[1] = fd[0] < 0 ? -1 : open_or_fail(ctx, path, flags1, what1, fd[0]);
	return fd[1] >= 0;
}

/* mknod(S_IFIFO|0600) at PATH, in a directory anyone may write; 0 or errno. */
static int mknod_fifo(const struct pb_sysops *s, const char *path)
{
	return s->mknod(path, S_IFIFO | 0600, 0) == 0 ? 0 : errno;
}

/* mknod_fifo(ARG) as uid 65534: 0 or its errno in VALUE. */
static void mknod_nobody(const struct pb_sysops *s, void *arg, struct pb_nobody_out *out)
{
	out->value = mknod_fifo(s, arg);
}

/* Run mknod_fifo(NAME) in DIR as uid/gid 65534 in a child: 0, the mknod
 * errno, or PB_NOBODY_ERROR/SKIP/HUNG (see pb_check_as_nobody; WHY says why
 * for SKIP).  The child enters DIR while still privileged, so the ancestors
 * of DIR need not be searchable by uid 65534. */
static int mknod_fifo_unprivileged(struct pb_check_ctx *ctx, const char *dir, const char *name,
				   char *why, size_t len)
{
	struct pb_nobody_out out = { 0, 0 };
	int r = pb_check_as_nobody(ctx, dir, GUARD_MS, mknod_nobody, (void *)name, &out, why,
				   len);

	return r == PB_NOBODY_OK ? (int)out.value : r;
}

/* FIFO-01.  XSH mkfifo(), mknod(). */
static void fifo01(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200], sub[4200], node[4200], missing[4200], why[200] = "";
	struct stat st;
	const char *who;
	int r;

	umask(022);
	fifo_path(ctx, "made.fifo", path, sizeof(path));
	if (s->mkfifo(path, 0666) != 0) {
		pb_check_fail(ctx, "mkfifo: %s", strerror(errno));
		return;
	}
	if (s->stat(path, &st) != 0) {
		pb_check_fail(ctx, "stat of the new FIFO: %s", strerror(errno));
		return;
	}
	if (!S_ISFIFO(st.st_mode))
		pb_check_fail(ctx, "mkfifo made mode %#o, not a FIFO", (unsigned)st.st_mode);
	else if ((st.st_mode & 07777) != (0666 & ~022))
		pb_check_fail(ctx, "mode %04o, expected 0644 (0666 & ~umask 022)",
			      (unsigned)(st.st_mode & 07777));
	else if (st.st_size != 0)
		pb_check_fail(ctx, "st_size %lld, expected 0", (long long)st.st_size);
	if (ctx->verdict == PB_FAIL)
		return;
	errno = 0;
	r = s->mkfifo(path, 0666);
	if (!(r == -1 && errno == EEXIST))
		pb_check_fail(ctx, "repeated mkfifo: %s, expected EEXIST", pb_check_err_name(r, errno));
	fifo_path(ctx, "no/such/dir.fifo", missing, sizeof(missing));
	errno = 0;
	r = s->mkfifo(missing, 0666);
	if (!(r == -1 && errno == ENOENT))
		pb_check_fail(ctx, "mkfifo in a missing directory: %s, expected ENOENT",
			      pb_check_err_name(r, errno));

	/* mknod(S_IFIFO) needs no privilege: prove it without CAP_MKNOD. */
	fifo_path(ctx, "open", sub, sizeof(sub));
	if (mkdir(sub, 0777) != 0 || chmod(sub, 0777) != 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "cannot prepare a directory: %s",
			       strerror(errno));
		rmdir(sub);
		return;
	}
	fifo_path(ctx, "open/node", node, sizeof(node));
	if (!pb_check_has_cap(PB_CAP_MKNOD)) {
		r = mknod_fifo(s, node);
		who = "without CAP_MKNOD";
	} else if (pb_check_has_cap(PB_CAP_SETUID)) {
		r = mknod_fifo_unprivileged(ctx, sub, "node", why, sizeof(why));
		who = "as uid 65534";
		if (r == PB_NOBODY_SKIP) {
			/* The identity is not available here: cover what can be covered. */
			r = mknod_fifo(s, node);
			who = "with CAP_MKNOD";
		}
	} else {
		r = mknod_fifo(s, node);
		who = "with CAP_MKNOD (unprivileged case not covered)";
	}
	if (r == PB_NOBODY_ERROR)
		; /* recorded */
	else if (r == PB_NOBODY_HUNG)
		pb_check_fail(ctx, "mknod(S_IFIFO|0600) as uid 65534 did not return within %d ms",
			      GUARD_MS);
	else if (r > 0)
		pb_check_fail(ctx, "mknod(S_IFIFO|0600) %s: %s", who, strerror(r));
	else if (s->stat(node, &st) != 0 || !S_ISFIFO(st.st_mode) || (st.st_mode & 0777) != 0600)
		pb_check_fail(ctx, "mknod(S_IFIFO|0600) %s made mode %#o", who,
			      (unsigned)st.st_mode);
	else if (ctx->verdict == PB_PASS)
		pb_check_set(ctx, PB_PASS, "mode %#o, size 0; EEXIST, ENOENT; mknod %s works%s%s",
			     (unsigned)(S_IFIFO | 0644), who,
			     why[0] ? "; unprivileged mknod skipped: " : "", why);
	unlink(node);
	rmdir(sub);
}

/* FIFO-02.  XSH open(): "O_NONBLOCK is set... open() for reading-only shall
 * return without delay". */
static void fifo02(struct pb_check_ctx *ctx)
{
	char path[4200];
	int fd, e;

	if (!make_fifo(ctx, "f.fifo", path, sizeof(path)))
		return;
	fd = guarded_open(ctx->sys, path, O_RDONLY | O_NONBLOCK, GUARD_MS, &e);
	if (fd >= 0) {
		ctx->sys->close(fd);
		pb_check_set(ctx, PB_PASS, "O_RDONLY|O_NONBLOCK returned at once with no writer");
	} else if (e == EINTR) {
		pb_check_fail(ctx, "O_RDONLY|O_NONBLOCK blocked until the %d ms timer (EINTR)",
			      GUARD_MS);
	} else {
		pb_check_fail(ctx, "O_RDONLY|O_NONBLOCK failed: %s", pb_checkproc_errname(e));
	}
}

/* FIFO-03.  XSH open() [ENXIO]; fifo(7). */
static void fifo03(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200];
	int fd, pair[2], e;

	if (!make_fifo(ctx, "f.fifo", path, sizeof(path)))
		return;
	fd = guarded_open(s, path, O_WRONLY | O_NONBLOCK, GUARD_MS, &e);
	if (fd >= 0) {
		s->close(fd);
		pb_check_fail(ctx, "O_WRONLY|O_NONBLOCK succeeded without a reader");
		return;
	}
	if (e != ENXIO) {
		pb_check_fail(ctx, "O_WRONLY|O_NONBLOCK without a reader: %s, expected ENXIO",
			      pb_checkproc_errname(e));
		return;
	}
	if (!open_both_or_fail(ctx, path, O_RDONLY | O_NONBLOCK, "reader open O_RDONLY|O_NONBLOCK",
			       O_WRONLY | O_NONBLOCK, "O_WRONLY|O_NONBLOCK with a reader", pair))
		return;
	pb_check_close_pair(s, pair);
	pb_check_set(ctx, PB_PASS, "ENXIO without a reader, success with one");
}

/* FIFO-04.  XSH open(): "O_NONBLOCK is clear, an open() for reading-only shall
 * block... until a thread opens the file for writing" (and vice versa). */
static void fifo04(struct pb_check_ctx *ctx)
{
	static const struct { int flags; const char *name; } cases[] = {
		{ O_RDONLY, "O_RDONLY with no writer" },
		{ O_WRONLY, "O_WRONLY with no reader" },
	};
	char path[4200];

	if (!make_fifo(ctx, "f.fifo", path, sizeof(path)))
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int e, fd = guarded_open(ctx->sys, path, cases[i].flags, 300, &e);

		if (fd >= 0) {
			ctx->sys->close(fd);
			pb_check_fail(ctx, "%s returned at once", cases[i].name);
		} else if (e != EINTR) {
			pb_check_fail(ctx, "%s: %s, expected to block (EINTR)", cases[i].name,
				      pb_checkproc_errname(e));
		}
	}
	if (ctx->verdict == PB_PASS)
		pb_check_set(ctx, PB_PASS, "both blocking opens blocked until the timer (EINTR)");
}

/* FIFO-05.  XSH open(). */
static void fifo05(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200];
	int fd, e, status = 0;
	ssize_t n;
	pid_t pid;

	if (!make_fifo(ctx, "f.fifo", path, sizeof(path)))
		return;
	pid = pb_checkproc_fork();
	if (pid < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "fork: %s", strerror(errno));
		unlink(path);
		return;
	}
	if (pid == 0) {
		char buf[8];
		size_t got = 0;

		/* Exit 0: got "abc", then EOF; 1: open interrupted; 2: wrong
		 * data; 3: more than the 3 bytes written. */
		fd = guarded_open(s, path, O_RDONLY, GUARD_MS, &e);
		if (fd < 0)
			_exit(1);
		pb_check_arm_interrupt(GUARD_MS);
		while (got < 3 && (n = s->read(fd, buf + got, 3 - got)) > 0)
			got += (size_t)n;
		if (got != 3 || memcmp(buf, "abc", 3) != 0)
			_exit(2);
		n = s->read(fd, buf, sizeof(buf));  /* the writer has closed, or will */
		pb_check_disarm();
		_exit(n == 0 ? 0 : 3);
	}
	fd = guarded_open(s, path, O_WRONLY, GUARD_MS, &e);
	if (fd < 0) {
		kill(pid, SIGKILL);
		pb_checkproc_wait(pid, 1000, &status);
		pb_check_fail(ctx, "the writer's blocking open: %s%s", pb_checkproc_errname(e),
			      e == EINTR ? " (no rendezvous within the guard)" : "");
		return;
	}
	n = s->write(fd, "abc", 3);
	s->close(fd);
	pb_checkproc_wait(pid, GUARD_MS + 1000, &status);
	if (n != 3)
		pb_check_fail(ctx, "write of 3 bytes returned %zd", n);
	else if (!WIFEXITED(status))
		pb_check_fail(ctx, "the reader child did not finish");
	else if (WEXITSTATUS(status) == 1)
		pb_check_fail(ctx, "the reader's blocking open never completed");
	else if (WEXITSTATUS(status) == 3)
		pb_check_fail(ctx, "the reader got more than the 3 bytes written (no EOF after "
			      "\"abc\" and the writer's close)");
	else if (WEXITSTATUS(status) != 0)
		pb_check_fail(ctx, "the reader did not get \"abc\"");
	else
		pb_check_set(ctx, PB_PASS, "both opens completed; 3 bytes passed");
}

/* FIFO-06.  fifo(7); XSH open() O_RDWR. */
static void fifo06(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200], buf[8];
	int rw[2], fd, wfd;
	ssize_t n;

	if (!make_fifo(ctx, "f.fifo", path, sizeof(path)))
		return;
	if (!open_both_or_fail(ctx, path, O_RDWR, "blocking O_RDWR", O_RDWR | O_NONBLOCK,
			       "O_RDWR|O_NONBLOCK", rw))
		return;
	fd = rw[0];
	s->close(rw[1]);
	/* The O_RDWR opener counts as a reader. */
	wfd = open_or_fail(ctx, path, O_WRONLY | O_NONBLOCK,
			   "O_WRONLY|O_NONBLOCK with only an O_RDWR opener", -1);
	if (wfd >= 0)
		s->close(wfd);
	n = s->write(fd, "xyz", 3);
	if (n == 3) {
		pb_check_arm_interrupt(GUARD_MS);
		n = s->read(fd, buf, sizeof(buf));
		pb_check_disarm();
		if (n != 3 || memcmp(buf, "xyz", 3) != 0)
			pb_check_fail(ctx, "looping 3 bytes to itself read back %zd bytes", n);
	} else {
		pb_check_fail(ctx, "write through the O_RDWR descriptor returned %zd", n);
	}
	s->close(fd);
	if (ctx->verdict == PB_PASS)
		pb_check_set(ctx, PB_PASS, "O_RDWR opens at once (blocking and nonblocking), "
			     "counts as a reader, loops data to itself");
}

/* A nonblocking call that must find nothing to do: N -1 with errno E EAGAIN. */
static void want_eagain(struct pb_check_ctx *ctx, ssize_t n, int e, const char *what)
{
	if (!(n == -1 && e == EAGAIN))
		pb_check_fail(ctx, "%s: %zd (%s), expected -1/EAGAIN", what, n,
			      pb_check_err_name(n, e));
}

/* FIFO-07.  XSH read(); XSH write(); LTP read03/write04. */
static void fifo07(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	static char big[32 << 10];
	char path[4200], buf[16];
	int rfd, wfd, e;
	ssize_t n;
	long filled;

	if (!make_fifo(ctx, "f.fifo", path, sizeof(path)))
		return;
	rfd = open_or_fail(ctx, path, O_RDONLY | O_NONBLOCK, "reader open", -1);
	if (rfd < 0)
		return;
	errno = 0;
	n = s->read(rfd, buf, sizeof(buf));
	e = errno;
	if (n != 0) {
		pb_check_fail(ctx, "read with no writer ever: %zd (%s), expected 0 (EOF)", n,
			      pb_check_err_name(n, e));
		s->close(rfd);
		return;
	}
	wfd = open_or_fail(ctx, path, O_WRONLY | O_NONBLOCK, "writer open", rfd);
	if (wfd < 0)
		return;
	errno = 0;
	n = s->read(rfd, buf, sizeof(buf));
	want_eagain(ctx, n, errno, "nonblocking read with a writer present");
	ctx->kind = PB_KIND_FIFO;  /* so a fill failure's detail says "FIFO" */
	filled = pb_check_fill_or_fail(ctx, wfd);
	if (filled > 0) {
		errno = 0;
		n = s->write(wfd, big, sizeof(big));
		want_eagain(ctx, n, errno, "write(32 KiB) into a full FIFO");
	}
	s->close(wfd);
	s->close(rfd);
	if (ctx->verdict == PB_PASS)
		pb_check_set(ctx, PB_PASS, "EOF with no writer ever; EAGAIN when empty with a "
			     "writer; EAGAIN into a full FIFO (%ld bytes)", filled);
}

/* FIFO-08.  XSH fstat(); XSH lseek() [ESPIPE]; fifo(7). */
static void fifo08(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200];
	struct stat fst, pst;
	int pair[2], rfd, wfd, e, cap, avail = -1;
	off_t off;
	ssize_t n;

	if (!make_fifo(ctx, "f.fifo", path, sizeof(path)))
		return;
	if (!open_both_or_fail(ctx, path, O_RDONLY | O_NONBLOCK, "open", O_WRONLY | O_NONBLOCK,
			       "open", pair))
		return;
	rfd = pair[0];
	wfd = pair[1];
	n = s->write(wfd, "hello", 5);
	if (n != 5)
		pb_check_fail(ctx, "write of 5 bytes returned %zd", n);
	if (s->fstat(rfd, &fst) != 0 || s->stat(path, &pst) != 0) {
		pb_check_fail(ctx, "fstat/stat: %s", strerror(errno));
	} else {
		if (fst.st_ino != pst.st_ino || fst.st_dev != pst.st_dev)
			pb_check_fail(ctx, "fstat(fd) inode %llu differs from stat(path) %llu",
				      (unsigned long long)fst.st_ino,
				      (unsigned long long)pst.st_ino);
		if (fst.st_size != 0 || pst.st_size != 0)
			pb_check_fail(ctx, "st_size grew with writes: fstat %lld, stat %lld",
				      (long long)fst.st_size, (long long)pst.st_size);
	}
	errno = 0;
	cap = s->fcntl(wfd, F_GETPIPE_SZ, 0);
	if (cap <= 0)
		pb_check_fail(ctx, "F_GETPIPE_SZ on a FIFO: %s", pb_checkproc_errname(errno));
	if (s->ioctl(rfd, FIONREAD, &avail) != 0 || avail != 5)
		pb_check_fail(ctx, "FIONREAD on a FIFO: %d, expected 5", avail);
	errno = 0;
	off = s->lseek(rfd, 0, SEEK_CUR);
	e = errno;
	if (!(off == -1 && e == ESPIPE))
		pb_check_fail(ctx, "lseek on a FIFO: %lld (%s), expected -1/ESPIPE", (long long)off,
			      off < 0 ? pb_checkproc_errname(e) : "success");
	s->close(wfd);
	s->close(rfd);
	if (ctx->verdict == PB_PASS)
		pb_check_set(ctx, PB_PASS, "same inode; st_size 0 after 5 bytes; F_GETPIPE_SZ %d; "
			     "FIONREAD 5; lseek ESPIPE", cap);
}

const struct pb_check pb_checks_fifo[] = {
	{ "FIFO-01", "fifo", "P17", "mkfifo() and mknod(S_IFIFO) create a FIFO node",
	  "XSH mkfifo(), mknod()", 0, fifo01 },
	{ "FIFO-02", "fifo", "P17", "O_RDONLY|O_NONBLOCK returns at once with no writer",
	  "XSH open(): \"O_NONBLOCK is set… open() for reading-only shall return without "
	  "delay\"", 0, fifo02 },
	{ "FIFO-03", "fifo", "P17",
	  "O_WRONLY|O_NONBLOCK: ENXIO without a reader, success with one",
	  "XSH open() [ENXIO]; fifo(7)", 0, fifo03 },
	{ "FIFO-04", "fifo", "P17", "A blocking open waits for the peer",
	  "XSH open(): \"O_NONBLOCK is clear, an open() for reading-only shall block… until "
	  "a thread opens the file for writing\" (and vice versa)", 0, fifo04 },
	{ "FIFO-05", "fifo", "P17", "Blocking opens rendezvous", "XSH open()", 0, fifo05 },
	{ "FIFO-06", "fifo", "LX (P17: O_RDWR on a FIFO \"undefined\")",
	  "O_RDWR open succeeds and never blocks", "fifo(7); XSH open() O_RDWR", 0, fifo06 },
	{ "FIFO-07", "fifo", "P17", "FIFO read/write follow the pipe rules",
	  "XSH read(); XSH write(); LTP read03/write04", 0, fifo07 },
	{ "FIFO-08", "fifo", "P17 + LX", "FIFO descriptor identity and metadata",
	  "XSH fstat(); XSH lseek() [ESPIPE]; fifo(7)", 0, fifo08 },
	{ .id = NULL },
};
