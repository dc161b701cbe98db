/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Conformance checks LX-*: see pipebench(1) CHECKS. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checkproc.h"
#include "clock.h"
#include "conformance.h"

#ifndef O_NOTIFICATION_PIPE
#define O_NOTIFICATION_PIPE O_EXCL  /* linux/watch_queue.h */
#endif

static const char pipe_max_path[] = "/proc/sys/fs/pipe-max-size";

/* LX-01: pipe(2) O_DIRECT */
static void lx01(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	static char big[4106], buf[8192];
	int fd[2];
	ssize_t n;

	if (!pb_check_anon_pipe(ctx, fd, O_DIRECT | O_NONBLOCK | O_CLOEXEC))
		return;
	if (!pb_check_io_exact(ctx, s->write(fd[1], "abc", 3), 3, "write(\"abc\") into the empty end") ||
	    !pb_check_io_exact(ctx, s->write(fd[1], "defgh", 5), 5, "write(\"defgh\") after it"))
		goto out;
	n = s->read(fd[0], buf, 100);
	if (n != 3 || memcmp(buf, "abc", 3) != 0) {
		pb_check_fail(ctx, "packets \"abc\",\"defgh\": read(100) gave %zd, expected 3 "
			      "(\"abc\"): byte-stream behaviour", n);
		goto out;
	}
	n = s->read(fd[0], buf, 2);
	if (n != 2 || memcmp(buf, "de", 2) != 0) {
		pb_check_fail(ctx, "read(2) of packet \"defgh\" gave %zd, expected 2 (\"de\")", n);
		goto out;
	}
	n = s->read(fd[0], buf, 100);
	if (!(n < 0 && errno == EAGAIN)) {
		pb_check_fail(ctx, "the rest of a packet read short must be discarded: next read "
			      "gave %zd%s, expected EAGAIN", n, n > 0 ? " bytes" : "");
		goto out;
	}
	memset(big, 'p', sizeof(big));
	if (!pb_check_io_exact(ctx, s->write(fd[1], big, sizeof(big)), sizeof(big),
			       "write(4106) into the empty O_DIRECT end"))
		goto out;
	n = s->read(fd[0], buf, sizeof(buf));
	if (n != 4096 || (n = s->read(fd[0], buf, sizeof(buf))) != 10) {
		pb_check_fail(ctx, "a %zu-byte write must split into packets of 4096 and 10; "
			      "a read gave %zd", sizeof(big), n);
		goto out;
	}
	n = s->write(fd[1], buf, 0);
	if (n != 0) {
		pb_check_fail(ctx, "write(0) gave %zd, expected 0", n);
		goto out;
	}
	if (!pb_check_io_exact(ctx, s->write(fd[1], "x", 1), 1,
			       "write(\"x\") into the empty O_DIRECT end"))
		goto out;
	n = s->read(fd[0], buf, 100);
	if (n != 1 || buf[0] != 'x')
		pb_check_fail(ctx, "write(0) then \"x\": read gave %zd, expected 1 (%s)", n,
			      n == 0 ? "an empty packet was returned" : "\"x\"");
	else
		pb_check_note(ctx, "packets kept; short read discards the rest; 4106 -> 4096+10; "
			      "write(0) adds no packet");
out:
	pb_check_close_pair(ctx->sys, fd);
}

/* Packet mode is on for WFD->RFD: two 2-byte writes read back as 2. */
static int packet_mode(struct pb_check_ctx *ctx, int rfd, int wfd)
{
	char buf[16];
	ssize_t n;

	if (ctx->sys->write(wfd, "ab", 2) != 2 || ctx->sys->write(wfd, "cd", 2) != 2)
		return -1;
	n = ctx->sys->read(rfd, buf, sizeof(buf));
	while (ctx->sys->read(rfd, buf, sizeof(buf)) > 0)
		;
	return n == 2;
}

/* LX-02: pipe(2) O_DIRECT; fifo quirk (man-pages FIXME) */
static void lx02(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200];
	int fd[2] = { -1, -1 }, rfl, wfl, pm, ffd = -1, quirk_open;

	if (!pb_check_anon_pipe(ctx, fd, O_DIRECT | O_NONBLOCK | O_CLOEXEC))
		return;
	rfl = s->fcntl(fd[0], F_GETFL, 0);
	wfl = s->fcntl(fd[1], F_GETFL, 0);
	if (rfl < 0 || wfl < 0) {
		pb_check_fail(ctx, "F_GETFL: %s", strerror(errno));
		goto out;
	}
	if (!(wfl & O_DIRECT) || (rfl & O_DIRECT))
		pb_check_fail(ctx, "pipe2(O_DIRECT): F_GETFL O_DIRECT on read end %s, write end "
			      "%s; expected the write end only", rfl & O_DIRECT ? "set" : "clear",
			      wfl & O_DIRECT ? "set" : "clear");
	pb_check_close_pair(ctx->sys, fd);
	if (!pb_check_anon_pipe(ctx, fd, O_NONBLOCK | O_CLOEXEC))
		return;
	wfl = s->fcntl(fd[1], F_GETFL, 0);
	if (s->fcntl(fd[1], F_SETFL, wfl | O_DIRECT) != 0) {
		pb_check_fail(ctx, "F_SETFL O_DIRECT on a plain pipe's write end: %s",
			      strerror(errno));
		goto out;
	}
	pm = packet_mode(ctx, fd[0], fd[1]);
	if (pm != 1) {
		pb_check_fail(ctx, "F_SETFL O_DIRECT on the write end did not turn packet mode on");
		goto out;
	}
	pb_check_close_pair(ctx->sys, fd);
	if (ctx->verdict != PB_PASS)
		return;

	/* The FIFO quirk: reported, never a failure. */
	snprintf(path, sizeof(path), "%s/lx02.fifo", ctx->dir);
	if (s->mkfifo(path, 0600) != 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "mkfifo(0600) in an empty private directory: "
			       "%s; POSIX requires a new FIFO", pb_checkproc_errname(errno));
		return;
	}
	ffd = s->open(path, O_RDWR | O_DIRECT | O_NONBLOCK | O_CLOEXEC, 0);
	quirk_open = ffd < 0 ? errno : 0;
	pb_check_close(ctx->sys, &ffd);
	ffd = s->open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC, 0);
	pm = -1;
	if (ffd >= 0 && s->fcntl(ffd, F_SETFL, s->fcntl(ffd, F_GETFL, 0) | O_DIRECT) == 0)
		pm = packet_mode(ctx, ffd, ffd);
	if (quirk_open == EINVAL && pm == 1)
		pb_check_note(ctx, "write end only; F_SETFL enables packets; FIFO quirk verified: "
			      "open(O_RDWR|O_DIRECT) EINVAL, F_SETFL O_DIRECT enables packets");
	else
		pb_check_info(ctx, "pipe O_DIRECT as expected; FIFO differs from the known quirk: "
			      "open(O_RDWR|O_DIRECT) %s, F_SETFL O_DIRECT packet mode %s",
			      quirk_open ? pb_checkproc_errname(quirk_open) : "succeeded",
			      pm == 1 ? "on" : pm == 0 ? "off" : "could not be set");
	pb_check_close(ctx->sys, &ffd);
	unlink(path);
	return;
out:
	pb_check_close_pair(ctx->sys, fd);
}

/* Descriptors of the pipes LX-03 makes. */
struct pipe_list {
	int *fd;
	long n, cap;
};

static int list_add(struct pipe_list *l, const int fd[2])
{
	if (l->n + 2 > l->cap)
		return -ENOMEM;
	l->fd[l->n++] = fd[0];
	l->fd[l->n++] = fd[1];
	return 0;
}

static void list_close(struct pb_check_ctx *ctx, struct pipe_list *l)
{
	for (long i = 0; i < l->n; i++)
		ctx->sys->close(l->fd[i]);
	free(l->fd);
	l->fd = NULL;
	l->n = 0;
}

/*
 * Judge the first pipe past the soft limit (the pipe15 regression, EPERM).
 * Its size is whatever the kernel gives, 1 page before 46c4c9d1beb7 (5.14,
 * widely backported) or 2 since; the verdict comes from what such a pipe
 * does: filled, then read down to 1 byte, it must take another byte
 * (a 1-slot pipe stalls there: LTP pipe15).  uname only adds context.
 */
static void lx03_small(struct pb_check_ctx *ctx, const int fd[2], long index, long page)
{
	static char buf[2 * 65536];
	long size;
	ssize_t n;

	size = ctx->sys->fcntl(fd[1], F_GETPIPE_SZ, 0);
	if (size != page && size != 2 * page) {
		pb_check_fail(ctx, "pipe #%ld (first past the soft limit) has %ld bytes, expected "
			      "%ld (2 pages; 1 before 5.14)", index, size, 2 * page);
		return;
	}
	if (size <= (long)sizeof(buf)) {
		if (!pb_check_io_exact(ctx, ctx->sys->write(fd[1], buf, (size_t)size),
				       (size_t)size, "filling the small pipe with one write") ||
		    !pb_check_io_exact(ctx, ctx->sys->read(fd[0], buf, (size_t)size - 1),
				       (size_t)size - 1, "reading all but 1 byte back"))
			return;
		n = ctx->sys->write(fd[1], "x", 1);
		if (n != 1) {
			int e = errno;
			char rel[160] = "", release[65];

			if (pb_check_kernel_at_least(ctx, 5, 14, release, sizeof(release)) == 0)
				snprintf(rel, sizeof(rel), " (kernel %.60s predates the 5.14 fix "
					 "46c4c9d1beb7)", release);
			pb_check_fail(ctx, "small pipe (%ld bytes) holding 1 byte: nonblocking "
				      "write(1) gave %zd (%s): the pipe15 stall%s", size, n,
				      n < 0 ? strerror(e) : "", rel);
			return;
		}
	}
	if (ctx->sys->fcntl(fd[1], F_SETPIPE_SZ, 16 * page) >= 0)
		pb_check_fail(ctx, "F_SETPIPE_SZ(%ld) over the soft limit succeeded, expected "
			      "EPERM", 16 * page);
	else if (errno != EPERM)
		pb_check_fail(ctx, "F_SETPIPE_SZ(%ld) over the soft limit: %s, expected EPERM",
			      16 * page, pb_checkproc_errname(errno));
}

/* The descriptors open below LIM, counted without opening one (at EMFILE
 * there is none to open). */
static int lx03_open_below(int lim)
{
	int n = 0;

	for (int i = 0; i < lim; i++)
		n += fcntl(i, F_GETFD) != -1;
	return n;
}

/*
 * One more pipe for LX-03's list.  RLIMIT_NOFILE (LIM) was raised for the
 * descriptors open when the check began (BASE) and the pipe ends the list
 * holds, so an EMFILE with more open than those is not the harness's
 * limit: pipe2 itself left descriptors open that it never returned, and
 * that is the kernel's FAIL.
 */
static bool lx03_pipe(struct pb_check_ctx *ctx, struct pipe_list *l, int fd[2], long made,
		      int base, int lim)
{
	int e, open_now;

	if (ctx->sys->pipe2(fd, O_NONBLOCK | O_CLOEXEC) == 0) {
		list_add(l, fd);
		return true;
	}
	e = errno;
	if (e == EMFILE && (open_now = lx03_open_below(lim)) > base + l->n) {
		fd[0] = fd[1] = -1;
		pb_check_fail(ctx, "pipe2 #%ld: EMFILE with %d descriptors open, but the check "
			      "holds %ld pipe ends beside the %d it began with: pipe2 left %ld "
			      "descriptors open that it never returned", made, open_now, l->n,
			      base, open_now - base - l->n);
		return false;
	}
	errno = e;
	pb_check_anon_pipe_failed(ctx, fd, O_NONBLOCK | O_CLOEXEC);
	return false;
}

/* LX-03: pipe(7) /proc files; LTP pipe15 */
static void lx03(struct pb_check_ctx *ctx)
{
	long page = pb_check_page_size(), soft, hard, maxsz, def_pages, full, limit, made = 0;
	struct pipe_list l = { 0 };
	struct rlimit rl;
	uid_t uid = (uid_t)(1500000000u + (unsigned)getpid());  /* fresh: no pipes yet */
	int fd[2], base;

	soft = pb_check_proc_long("/proc/sys/fs/pipe-user-pages-soft");
	hard = pb_check_proc_long("/proc/sys/fs/pipe-user-pages-hard");
	maxsz = pb_check_proc_long("/proc/sys/fs/pipe-max-size");
	if (soft < 0 || hard < 0 || maxsz < 0) {
		pb_check_skip(ctx, "cannot read /proc/sys/fs/pipe-* values");
		return;
	}
	if (soft == 0) {
		pb_check_skip(ctx, "pipe-user-pages-soft is 0 (no soft limit)");
		return;
	}
	if (!pb_check_has_cap(PB_CAP_SETUID)) {
		pb_check_skip(ctx, "needs CAP_SETUID to become a fresh unprivileged user");
		return;
	}
	def_pages = maxsz / page < 16 ? maxsz / page : 16;
	if (def_pages < 2) {
		pb_check_skip(ctx, "pipe-max-size %ld is below 2 pages", maxsz);
		return;
	}
	full = soft / def_pages;                  /* pipes that still get the default */
	limit = full + 1;
	if (hard > 0)
		limit = full + 1 + (hard > soft ? (hard - soft) / 2 : 0) + 2;
	if (limit > 4096) {
		pb_check_skip(ctx, "limits need %ld pipes; too expensive (bound 4096)", limit);
		return;
	}
	/* Room for every pipe end plus what the process already holds. */
	rl.rlim_cur = rl.rlim_max = (rlim_t)(2 * limit + 64);
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
		struct rlimit cur;

		if (getrlimit(RLIMIT_NOFILE, &cur) != 0 || cur.rlim_max < rl.rlim_cur) {
			pb_check_skip(ctx, "cannot raise RLIMIT_NOFILE to %ju", (uintmax_t)rl.rlim_cur);
			return;
		}
		cur.rlim_cur = rl.rlim_cur;
		if (setrlimit(RLIMIT_NOFILE, &cur) != 0) {
			pb_check_skip(ctx, "cannot raise RLIMIT_NOFILE: %s", strerror(errno));
			return;
		}
	}
	/* Accounting is per user; this process is the runner's disposable child. */
	if (setgroups(0, NULL) != 0 || setgid((gid_t)uid) != 0 || setuid(uid) != 0) {
		pb_check_skip(ctx, "cannot switch to uid %u: %s", (unsigned)uid, strerror(errno));
		return;
	}
	if (pb_check_has_limit_cap(PB_CAP_SYS_RESOURCE) ||
	    pb_check_has_limit_cap(PB_CAP_SYS_ADMIN)) {
		pb_check_skip(ctx, "uid %u still has CAP_SYS_RESOURCE or CAP_SYS_ADMIN",
			      (unsigned)uid);
		return;
	}
	l.cap = 2 * limit;
	l.fd = calloc((size_t)l.cap, sizeof(int));
	if (!l.fd) {
		pb_check_setup(ctx, PB_RES_HARNESS, ENOMEM, "out of memory");
		return;
	}
	base = lx03_open_below((int)rl.rlim_cur);
	for (made = 1; made <= full; made++) {
		long sz;

		if (!lx03_pipe(ctx, &l, fd, made, base, (int)rl.rlim_cur))
			goto out;
		sz = ctx->sys->fcntl(fd[1], F_GETPIPE_SZ, 0);
		if (sz != def_pages * page) {
			pb_check_fail(ctx, "pipe #%ld (within the soft limit %ld pages) has %ld "
				      "bytes, expected %ld", made, soft, sz, def_pages * page);
			goto out;
		}
	}
	if (!lx03_pipe(ctx, &l, fd, made, base, (int)rl.rlim_cur))
		goto out;
	lx03_small(ctx, fd, made, page);
	if (ctx->verdict != PB_PASS)
		goto out;
	pb_check_note(ctx, "uid %u: pipes 1-%ld get %ld, #%ld gets %ld; write(1) after "
		      "read(n-1) ok; grow EPERM", (unsigned)uid, full, def_pages * page, made,
		      (long)ctx->sys->fcntl(fd[1], F_GETPIPE_SZ, 0));
	if (hard == 0) {
		pb_check_note(ctx, "hard limit: skip (pipe-user-pages-hard=0)");
		goto out;
	}
	for (made++; made <= limit; made++) {
		if (ctx->sys->pipe2(fd, O_NONBLOCK | O_CLOEXEC) != 0)
			break;
		list_add(&l, fd);
	}
	if (made > limit)
		pb_check_fail(ctx, "hard limit %ld pages: %ld pipes made without ENFILE", hard,
			      limit);
	else if (errno != ENFILE)
		pb_check_fail(ctx, "past the hard limit pipe2 gave %s, expected ENFILE",
			      pb_checkproc_errname(errno));
	else
		pb_check_note(ctx, "hard limit %ld pages: ENFILE at pipe #%ld", hard, made);
out:
	list_close(ctx, &l);
}

/* LX-04: pipe(2); kernel/watch_queue */
static void lx04(struct pb_check_ctx *ctx)
{
	int fd[2] = { -1, -1 };
	ssize_t n;

	if (ctx->sys->pipe2(fd, O_NOTIFICATION_PIPE | O_CLOEXEC) != 0) {
		int e = errno;

		if (e == ENOPKG)
			pb_check_skip(ctx, "pipe2(O_NOTIFICATION_PIPE): ENOPKG "
				      "(CONFIG_WATCH_QUEUE off)");
		else if (e == EINVAL)
			/* The flag is unknown here (it came in 5.8): an absent extension. */
			pb_check_skip(ctx, "pipe2(O_NOTIFICATION_PIPE): EINVAL: this kernel does "
				      "not know the flag%s",
				      pb_check_kernel_at_least(ctx, 5, 8, NULL, 0) == 0 ?
				      " (older than 5.8)" : "");
		else
			pb_check_fail(ctx, "pipe2(O_NOTIFICATION_PIPE): %s, expected success or "
				      "ENOPKG", pb_checkproc_errname(e));
		return;
	}
	signal(SIGPIPE, SIG_IGN);
	n = ctx->sys->write(fd[1], "x", 1);
	if (n >= 0)
		pb_check_fail(ctx, "user write() into a notification pipe returned %zd, expected "
			      "EXDEV", n);
	else if (errno != EXDEV)
		pb_check_fail(ctx, "user write() into a notification pipe: %s, expected EXDEV",
			      pb_checkproc_errname(errno));
	else
		pb_check_note(ctx, "notification pipe made; user write() EXDEV");
	pb_check_close_pair(ctx->sys, fd);
}

// LX-05: splice(2), tee(2), vmsplice(2); LTP splice*/tee*/vmsplice*
static void lx05(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int a[2] = { -1, -1 }, b[2] = { -1, -1 };
	struct iovec iov = { .iov_base = (void *)"x", .iov_len = 1 };
	loff_t off = 0;
	char buf[32];
	ssize_t n;
	long fa, fb, filled;

	if (!pb_check_anon_pipe(ctx, a, O_NONBLOCK | O_CLOEXEC) ||
	    !pb_check_anon_pipe(ctx, b, O_NONBLOCK | O_CLOEXEC))
		goto out;
	if (!pb_check_io_exact(ctx, s->write(a[1], "hello", 5), 5,
			       "write(\"hello\") into the empty end"))
		goto out;
	n = s->tee(a[0], b[1], 5, SPLICE_F_NONBLOCK);
	fa = pb_check_fionread(s, a[0]), fb = pb_check_fionread(s, b[0]);
	if (n != 5 || fa != 5 || fb != 5)
		pb_check_fail(ctx, "tee(5): returned %zd, source holds %ld, destination %ld; "
			      "expected 5, 5, 5 (tee must not consume)", n, fa, fb);
	n = s->splice(a[0], &off, b[1], NULL, 5, SPLICE_F_NONBLOCK);
	if (!(n < 0 && errno == ESPIPE))
		pb_check_fail(ctx, "splice with off_in on a pipe gave %zd (%s), expected ESPIPE",
			      n, pb_check_err_name(n, errno));
	n = s->splice(a[0], NULL, b[1], NULL, 5, SPLICE_F_NONBLOCK);
	fa = pb_check_fionread(s, a[0]), fb = pb_check_fionread(s, b[0]);
	if (n != 5 || fa != 0 || fb != 10)
		pb_check_fail(ctx, "splice(5): returned %zd, source holds %ld, destination %ld; "
			      "expected 5, 0, 10", n, fa, fb);
	n = s->read(b[0], buf, sizeof(buf));
	if (n != 10 || memcmp(buf, "hellohello", 10) != 0)
		pb_check_fail(ctx, "destination read gave %zd bytes, expected \"hellohello\"", n);
	n = s->tee(a[0], a[1], 1, SPLICE_F_NONBLOCK);
	if (!(n < 0 && errno == EINVAL))
		pb_check_fail(ctx, "tee of a pipe into itself gave %zd (%s), expected EINVAL", n,
			      pb_check_err_name(n, errno));
	filled = pb_check_fill_or_fail(ctx, b[1]);
	if (filled < 0)
		goto out;
	n = s->vmsplice(b[1], &iov, 1, SPLICE_F_NONBLOCK);
	if (!(n < 0 && errno == EAGAIN))
		pb_check_fail(ctx, "vmsplice(SPLICE_F_NONBLOCK) into a full pipe gave %zd (%s), "
			      "expected EAGAIN", n, pb_check_err_name(n, errno));
	if (ctx->verdict == PB_PASS)
		pb_check_note(ctx, "tee 5/5/5; splice off_in ESPIPE; splice 5/0/10; tee self "
			      "EINVAL; vmsplice full EAGAIN");
out:
	pb_check_close_pair(ctx->sys, a);
	pb_check_close_pair(ctx->sys, b);
}

/* LX-06: LTP dirtypipe */
static void lx06(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	static char page[65536];
	char path[4200], got[4];
	long psz = pb_check_page_size();
	int fd[2] = { -1, -1 }, file = -1;
	loff_t off = 0;
	ssize_t n;

	if (psz > (long)sizeof(page))
		psz = sizeof(page);
	snprintf(path, sizeof(path), "%s/lx06.dat", ctx->dir);
	file = s->open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	memset(page, 'A', (size_t)psz);
	if (file < 0 || s->write(file, page, (size_t)psz) != psz) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "temp file: %s", strerror(errno));
		goto out;
	}
	pb_check_close(ctx->sys, &file);
	file = s->open(path, O_RDONLY | O_CLOEXEC, 0);
	if (file < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "reopening the temp file read-only: %s",
			       strerror(errno));
		goto out;
	}
	if (!pb_check_anon_pipe(ctx, fd, O_NONBLOCK | O_CLOEXEC))
		goto out;
	/* Every slot gets a buffer that may merge (CAN_MERGE), then is emptied. */
	if (pb_check_fill_or_fail(ctx, fd[1]) < 0)
		goto out;
	while (s->read(fd[0], page, (size_t)psz) > 0)
		;
	n = s->splice(file, &off, fd[1], NULL, 1, SPLICE_F_NONBLOCK);
	if (n != 1) {
		if (n < 0)
			pb_check_setup(ctx, PB_RES_PIPE, errno, "splice(SPLICE_F_NONBLOCK) of 1 byte "
				       "of a file into an empty pipe: %s; splice(2) requires 1",
				       pb_checkproc_errname(errno));
		else
			pb_check_fail(ctx, "setup: splice(SPLICE_F_NONBLOCK) of 1 byte of a file into "
				      "an empty pipe returned %zd; splice(2) requires 1", n);
		goto out;
	}
	if (!pb_check_io_exact(ctx, s->write(fd[1], "XYZ", 3), 3,
			       "write(\"XYZ\") after the spliced byte"))
		goto out;
	n = s->pread(file, got, sizeof(got), 0);
	if (n != 4) {
		pb_check_setup(ctx, PB_RES_HARNESS, n < 0 ? errno : 0, "pread of the temp file: %s",
			       n < 0 ? strerror(errno) : "short");
		goto out;
	}
	if (memcmp(got, "AAAA", 4) != 0)
		pb_check_fail(ctx, "VULNERABLE to Dirty Pipe (CVE-2022-0847): a read-only file "
			      "now reads \"%.4s\", expected \"AAAA\" (fix 9d2231c5d74e)", got);
	else
		pb_check_note(ctx, "not vulnerable: the file still reads \"AAAA\"");
out:
	pb_check_close(ctx->sys, &file);
	pb_check_close_pair(ctx->sys, fd);
	unlink(path);
}

/* Write VALUE to pipe-max-size through ctx->sys: 0 or -errno. */
static int sysctl_write(const struct pb_sysops *s, const char *value)
{
	int fd = s->open(pipe_max_path, O_WRONLY | O_CLOEXEC, 0), ret = 0;
	size_t len = strlen(value);

	if (fd < 0)
		return -errno;
	if (s->write(fd, value, len) != (ssize_t)len)
		ret = -errno;
	s->close(fd);
	return ret;
}

static long sysctl_read(const struct pb_sysops *s)
{
	char buf[64];
	int fd = s->open(pipe_max_path, O_RDONLY | O_CLOEXEC, 0);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = s->read(fd, buf, sizeof(buf) - 1);
	s->close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* What LX-07 tells its guardian, through shared memory: never a pipe, the
 * harness must not trust what it tests. */
struct guardian_page {
	int restored;  /* the check put the original value back */
};

/*
 * A guardian process that restores pipe-max-size to ORIG if this process
 * dies (even by SIGKILL from the watchdog) before saying it restored it: it
 * watches the shared flag and its parent (reparented = the check is gone).
 * Returns the shared page, or NULL with the verdict recorded.
 */
static struct guardian_page *guardian_start(struct pb_check_ctx *ctx, const char *orig)
{
	const struct pb_sysops *s = ctx->sys;
	struct guardian_page *g = pb_check_shared(ctx, sizeof(*g));
	pid_t parent = getpid(), pid;

	if (!g)
		return NULL;
	pid = fork();
	if (pid < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "cannot start the restore guardian: "
			       "fork: %s", strerror(errno));
		munmap(g, sizeof(*g));
		return NULL;
	}
	if (pid == 0) {
		struct timespec ms = { 0, 1000000 };

		signal(SIGINT, SIG_IGN), signal(SIGTERM, SIG_IGN), signal(SIGHUP, SIG_IGN);
		/* Its own session: the harness kills the check's process group. */
		setsid();
		for (int f = 3; f < 1024; f++)
			close(f);
		while (!__atomic_load_n(&g->restored, __ATOMIC_SEQ_CST) && getppid() == parent)
			nanosleep(&ms, NULL);
		if (!__atomic_load_n(&g->restored, __ATOMIC_SEQ_CST))
			sysctl_write(s, orig);
		_exit(0);
	}
	return g;
}

/* As uid 65534 (pb_check_as_nobody): a new pipe's F_GETPIPE_SZ in VALUE,
 * or -1 with pipe2's errno in ERR. */
static void nobody_pipe_size(const struct pb_sysops *s, void *arg, struct pb_nobody_out *out)
{
	int fd[2];

	(void)arg;
	out->value = -1;
	if (s->pipe2(fd, O_CLOEXEC) != 0) {
		out->err = errno;
		return;
	}
	out->value = s->fcntl(fd[1], F_GETPIPE_SZ, 0);
}

/*
 * Capacity of a new pipe made by uid 65534 (fork + setuid): > 0, or 0 when
 * that identity is not available here (WHY says why: e.g. 65534 unmapped in
 * a user namespace), or -1 with the verdict recorded.
 */
static long unpriv_pipe_size(struct pb_check_ctx *ctx, char *why, size_t len)
{
	struct pb_nobody_out out = { -1, 0 };

	/* Bounded: the child does a few syscalls; give up after 2 s. */
	switch (pb_check_as_nobody(ctx, NULL, 2000, nobody_pipe_size, NULL, &out, why, len)) {
	case PB_NOBODY_OK:
		break;
	case PB_NOBODY_SKIP:
		return 0;
	case PB_NOBODY_HUNG:
		pb_check_fail(ctx, "as uid 65534, pipe2 and F_GETPIPE_SZ did not return within "
			      "2 s");
		return -1;
	default:
		return -1;
	}
	if (out.value < 0) {
		pb_check_setup(ctx, PB_RES_PIPE, out.err, "pipe2 as uid 65534: %s",
			       pb_checkproc_errname(out.err));
		return -1;
	}
	return out.value;
}

/* LX-07: pipe(7) /proc files; fcntl35 (086e774a57fb, 4.9) */
static void lx07(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	long page = pb_check_page_size(), orig_v, v, unpriv, priv;
	char orig[32], pagestr[32], why[160] = "no CAP_SETUID";
	bool has_res = pb_check_has_limit_cap(PB_CAP_SYS_RESOURCE);
	struct guardian_page *guard;
	int ret, fd[2];

	if (!(ctx->run_flags & PB_RUN_ALLOW_GLOBAL)) {
		pb_check_skip(ctx, "changes /proc/sys/fs/pipe-max-size: needs "
			      "--allow-global-changes");
		return;
	}
	orig_v = sysctl_read(s);
	if (orig_v <= 0) {
		pb_check_skip(ctx, "cannot read %s: %s", pipe_max_path, strerror((int)-orig_v));
		return;
	}
	snprintf(orig, sizeof(orig), "%ld", orig_v);
	snprintf(pagestr, sizeof(pagestr), "%ld", page);
	guard = guardian_start(ctx, orig);
	if (!guard)
		return;
	ret = sysctl_write(s, pagestr);
	if (ret) {
		/* Nothing changed: no restore needed. */
		if (ret == -EACCES || ret == -EROFS || ret == -EPERM)
			pb_check_skip(ctx, "%s is not writable here: %s", pipe_max_path,
				      strerror(-ret));
		else
			pb_check_error(ctx, "write %s: %s", pipe_max_path, strerror(-ret));
		if (sysctl_read(s) == orig_v)
			__atomic_store_n(&guard->restored, 1, __ATOMIC_SEQ_CST);
		munmap(guard, sizeof(*guard));
		return;
	}
	v = sysctl_read(s);
	if (v != page)
		pb_check_fail(ctx, "wrote %ld, reads back %ld", page, v);
	/* Unprivileged side: this process, or a setuid child if it is privileged. */
	if (!has_res) {
		unpriv = -1;
		if (pb_check_anon_pipe(ctx, fd, O_CLOEXEC)) {
			unpriv = s->fcntl(fd[1], F_GETPIPE_SZ, 0);
			pb_check_close_pair(ctx->sys, fd);
		}
	} else {
		unpriv = pb_check_has_cap(PB_CAP_SETUID) ? unpriv_pipe_size(ctx, why, sizeof(why))
							  : 0;
	}
	if (unpriv > 0 && unpriv != page)
		pb_check_fail(ctx, "with pipe-max-size %ld a pipe made without CAP_SYS_RESOURCE "
			      "got %ld bytes, expected %ld", page, unpriv, page);
	priv = 0;
	if (has_res && pb_check_anon_pipe(ctx, fd, O_CLOEXEC)) {
		priv = s->fcntl(fd[1], F_GETPIPE_SZ, 0);
		pb_check_close_pair(ctx->sys, fd);
		if (priv != 16 * page)
			pb_check_fail(ctx, "with CAP_SYS_RESOURCE a new pipe got %ld, expected %ld",
				      priv, 16 * page);
	}
	ret = sysctl_write(s, "5000");
	v = sysctl_read(s);
	if (ret || v != 2 * page)
		pb_check_fail(ctx, "writing 5000: %s, reads back %ld, expected %ld",
			      ret ? strerror(-ret) : "accepted", v, 2 * page);
	ret = sysctl_write(s, "1");
	v = sysctl_read(s);
	if (!ret && v != page)
		pb_check_fail(ctx, "writing 1 was accepted but reads back %ld, expected %ld "
			      "(rounded up to a page)", v, page);
	if (ctx->verdict == PB_PASS)
		pb_check_note(ctx, "max %ld: unprivileged pipe %ld%s%s%s; privileged %s; 5000 -> "
			      "%ld; write of 1 %s", page, unpriv,
			      unpriv == 0 ? " (not tested: " : "", unpriv == 0 ? why : "",
			      unpriv == 0 ? ")" : "",
			      has_res ? "16 pages" : "skipped: no CAP_SYS_RESOURCE", 2 * page,
			      ret ? "rejected (as pipe(7) says)" :
			      "accepted, reads back a page (pipe(7) says EINVAL: stale)");
	ret = sysctl_write(s, orig);
	v = sysctl_read(s);
	if (ret || v != orig_v)
		pb_check_error(ctx, "could not restore %s to %s (%s); the guardian retries",
			       pipe_max_path, orig, ret ? strerror(-ret) : "reads back wrong");
	else
		__atomic_store_n(&guard->restored, 1, __ATOMIC_SEQ_CST);
	munmap(guard, sizeof(*guard));
}

/* ---- wake-ups: LX-08, LX-09 */

#define LX_WAKE_OPS 4   /* one-byte writes (and reads) whose notifications count */

/* The SIG signals queued now (F_SETSIG: one per notification), taken: how
 * many; WHY (when empty) gets the first that is not for FD with BAND. */
static int take_signals(int sig, int fd, long band, char *why, size_t len)
{
	struct timespec zero = { 0, 0 };
	sigset_t one;
	siginfo_t si;
	int n = 0;

	sigemptyset(&one);
	sigaddset(&one, sig);
	while (sigtimedwait(&one, &si, &zero) == sig) {
		n++;
		if (!*why && (si.si_fd != fd || !(si.si_band & band)))
			snprintf(why, len, "a signal for fd %d with band %#lx, expected fd %d with %s",
				 si.si_fd, (long)si.si_band, fd, band == POLLIN ? "POLLIN" : "POLLOUT");
	}
	return n;
}

/*
 * LX-08.  fe67f4dd8daa (5.14, "pipe: do FASYNC notifications for every pipe
 * IO, not just state changes"): with O_ASYNC, F_SETOWN and F_SETSIG (a
 * realtime signal, so each notification is queued and counted) on both
 * ends, every write signals the reader (POLL_IN) and every read the writer
 * (POLL_OUT).  Before it, only a write into the empty pipe and a read from
 * the full one did: stress-ng's sigio stressor lost 99.3% of its rate.
 */
static void lx08(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int sig[2] = { SIGRTMIN + 1, SIGRTMIN + 2 }, fd[2], n = 0, fl;
	static const char *const end[2] = { "read", "write" };
	char why[160] = "", c = 'x', rb[32];
	sigset_t both, old;
	ssize_t r;

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	sigemptyset(&both);
	sigaddset(&both, sig[0]);
	sigaddset(&both, sig[1]);
	sigprocmask(SIG_BLOCK, &both, &old);
	for (int e = 0; e < 2; e++) {
		fl = s->fcntl(fd[e], F_GETFL, 0);
		if (fl < 0 || s->fcntl(fd[e], F_SETOWN, getpid()) != 0 ||
		    s->fcntl(fd[e], F_SETSIG, sig[e]) != 0 ||
		    s->fcntl(fd[e], F_SETFL, fl | O_ASYNC) != 0) {
			pb_check_fail(ctx, "F_SETOWN, F_SETSIG and F_SETFL O_ASYNC on the %s end: %s",
				      end[e], pb_checkproc_errname(errno));
			goto out;
		}
	}
	n = take_signals(sig[0], fd[0], POLLIN, why, sizeof(why)) +
	    take_signals(sig[1], fd[1], POLLOUT, why, sizeof(why));
	if (n) {
		pb_check_fail(ctx, "%d %s queued before any write or read", n,
			      n == 1 ? "signal" : "signals");
		goto out;
	}
	for (int i = 1; i <= LX_WAKE_OPS; i++)
		if ((r = s->write(fd[1], &c, 1)) != 1) {
			pb_check_fail(ctx, "write #%d of 1 byte: %s", i,
				      pb_check_res(r, errno, rb, sizeof(rb)));
			goto out;
		}
	n = take_signals(sig[0], fd[0], POLLIN, why, sizeof(why));
	if (why[0]) {
		pb_check_fail(ctx, "after the writes, %s", why);
		goto out;
	}
	if (n < LX_WAKE_OPS) {
		pb_check_fail(ctx, "%d one-byte writes signalled the reader %d %s: %s",
			      LX_WAKE_OPS, n, n == 1 ? "time" : "times",
			      n == 1 ? "only the write into the empty pipe (before 5.14: "
			      "fe67f4dd8daa)" : "not every write");
		goto out;
	}
	for (int i = 1; i <= LX_WAKE_OPS; i++)
		if ((r = s->read(fd[0], &c, 1)) != 1) {
			pb_check_fail(ctx, "read #%d of 1 byte: %s", i,
				      pb_check_res(r, errno, rb, sizeof(rb)));
			goto out;
		}
	n = take_signals(sig[1], fd[1], POLLOUT, why, sizeof(why));
	if (why[0])
		pb_check_fail(ctx, "after the reads, %s", why);
	else if (n < LX_WAKE_OPS)
		pb_check_fail(ctx, "%d one-byte reads signalled the writer %d %s: not every read "
			      "(before 5.14: fe67f4dd8daa)", LX_WAKE_OPS, n, n == 1 ? "time" : "times");
	else
		pb_check_set(ctx, PB_PASS, "%d one-byte writes signalled the reader %d times "
			     "(POLL_IN), %d reads the writer %d times (POLL_OUT)", LX_WAKE_OPS,
			     LX_WAKE_OPS, LX_WAKE_OPS, n);
out:
	for (int e = 0; e < 2; e++) {
		fl = s->fcntl(fd[e], F_GETFL, 0);
		if (fl >= 0)
			s->fcntl(fd[e], F_SETFL, fl & ~O_ASYNC);
	}
	pb_check_close_pair(ctx->sys, fd);
	why[0] = '\0';
	take_signals(sig[0], -1, 0, why, sizeof(why));
	take_signals(sig[1], -1, 0, why, sizeof(why));
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The events epoll_wait reports now (timeout 0): their number, or -1 after
 * a FAIL saying so; *EV the first one's. */
static int ready_now(struct pb_check_ctx *ctx, int ep, uint32_t *ev)
{
	struct epoll_event out[2];
	int n = ctx->sys->epoll_wait(ep, out, 2, 0);

	if (n < 0)
		pb_check_fail(ctx, "epoll_wait: %s", pb_checkproc_errname(errno));
	*ev = n > 0 ? out[0].events : 0;
	return n;
}

/*
 * LX-09.  3a34b13a88ca (5.14, "pipe: make pipe writes always wake up
 * readers"), kept for readers that poll by 3b844826b6c6 ("pipe: avoid
 * unnecessary EPOLLET wakeups under normal loads"): an edge-triggered
 * epoll reader of the read end gets EPOLLIN for every write, also into a
 * pipe that is not empty, and none without a write.
 */
static void lx09(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };
	int fd[2], ep, n;
	uint32_t got;
	char c = 'x', rb[32];
	ssize_t r;

	if (!pb_check_make_pipe(ctx, fd, O_NONBLOCK))
		return;
	ep = s->epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0) {
		pb_check_error(ctx, "harness: epoll_create1: %s", pb_checkproc_errname(errno));
		goto close_pipe;
	}
	ev.data.fd = fd[0];
	if (s->epoll_ctl(ep, EPOLL_CTL_ADD, fd[0], &ev) != 0) {
		pb_check_fail(ctx, "epoll_ctl(EPOLL_CTL_ADD, the read end, EPOLLIN|EPOLLET): %s",
			      pb_checkproc_errname(errno));
		goto out;
	}
	if ((n = ready_now(ctx, ep, &got)) != 0) {
		if (n > 0)
			pb_check_fail(ctx, "the empty pipe reported events %#x before any write",
				      (unsigned)got);
		goto out;
	}
	for (int i = 1; i <= 2; i++) {
		if ((r = s->write(fd[1], &c, 1)) != 1) {
			pb_check_fail(ctx, "write #%d of 1 byte: %s", i,
				      pb_check_res(r, errno, rb, sizeof(rb)));
			goto out;
		}
		if ((n = ready_now(ctx, ep, &got)) < 0)
			goto out;
		if (n == 0 && i == 1) {
			pb_check_fail(ctx, "no event after a write into the empty pipe");
			goto out;
		}
		if (n == 0) {
			pb_check_fail(ctx, "no event after a write into the pipe holding 1 byte: an "
				      "EPOLLET reader is woken only when the pipe was empty (before "
				      "5.14: 3a34b13a88ca)");
			goto out;
		}
		if (!(got & EPOLLIN)) {
			pb_check_fail(ctx, "after write #%d the event is %#x, without EPOLLIN", i,
				      (unsigned)got);
			goto out;
		}
		if ((n = ready_now(ctx, ep, &got)) != 0) {
			if (n > 0)
				pb_check_fail(ctx, "after write #%d an event %#x again with no new "
					      "write: not edge-triggered", i, (unsigned)got);
			goto out;
		}
	}
	pb_check_set(ctx, PB_PASS, "EPOLLIN for each of 2 writes, the second into a non-empty "
		     "pipe; none without a write");
out:
	s->close(ep);
close_pipe:
	pb_check_close_pair(ctx->sys, fd);
}

/* Process PID's voluntary context switches per /proc/PID/status; -1 when
 * they cannot be read. */
static long voluntary_switches(pid_t pid)
{
	char path[64], line[160];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/*
 * LX-10.  0ddad21d3e99 (5.5, "pipe: use exclusive waits when reading or
 * writing"): a write wakes one of the readers blocked on the empty pipe,
 * not every one.  A reader woken for nothing finds the pipe empty and
 * sleeps again, which adds a voluntary context switch to its count in
 * /proc/PID/status; a reader that stays asleep adds none.  4 readers block
 * on one byte each; one byte is written; exactly one reader returns and the
 * other three's counts do not move.  They are read once all three are
 * asleep again (a reader woken for nothing is runnable from the write on,
 * and asleep again only after its switch is counted), 20 ms later.
 */
static void lx10(struct pb_check_ctx *ctx)
{
	enum { N = 4 };
	const struct pb_sysops *s = ctx->sys;
	pid_t pid[N];
	long before[N];
	bool done[N] = { false };
	int fd[2], nstarted = 0, winner = -1, woken = 0, status;
	char c = 'x', rb[32];
	uint64_t t0;
	ssize_t r;

	if (!pb_check_make_pipe(ctx, fd, 0))
		return;
	for (; nstarted < N; nstarted++) {
		pid_t p = pb_checkproc_fork();

		if (p < 0) {
			pb_check_setup(ctx, PB_RES_HARNESS, errno, "fork: %s",
				       pb_checkproc_errname(errno));
			goto out;
		}
		if (p == 0) {
			s->close(fd[1]);
			r = s->read(fd[0], &c, 1);
			_exit(r == 1 ? 0 : r == 0 ? 1 : 2);
		}
		pid[nstarted] = p;
	}
	pb_check_close(s, &fd[0]);
	for (int i = 0; i < N; i++) {
		if (!pb_check_wait_sleeping(pid[i], 2000)) {
			if (pb_checkproc_wait(pid[i], 0, &status) == 0 && WIFEXITED(status)) {
				done[i] = true;
				pb_check_fail(ctx, "a blocking read of the empty pipe returned %s "
					      "before any write", WEXITSTATUS(status) == 1 ? "0 (EOF)" :
					      WEXITSTATUS(status) == 0 ? "a byte" : "-1");
			} else {
				done[i] = true;
				pb_check_set(ctx, PB_SKIP, "reader %d of %d was not seen asleep in "
					     "2 s (a loaded machine?): nothing to judge", i + 1, N);
			}
			goto out;
		}
		before[i] = voluntary_switches(pid[i]);
		if (before[i] < 0) {
			pb_check_set(ctx, PB_SKIP, "no voluntary_ctxt_switches in /proc/%d/status: "
				     "nothing to judge", (int)pid[i]);
			goto out;
		}
	}
	if ((r = s->write(fd[1], &c, 1)) != 1) {
		pb_check_fail(ctx, "write of 1 byte: %s", pb_check_res(r, errno, rb, sizeof(rb)));
		goto out;
	}
	/* The reader that got the byte, within 2 s; then 20 ms for another. */
	t0 = pb_clock_ns();
	while (pb_clock_ns() - t0 < (winner < 0 ? 2000000000ULL : 20000000ULL)) {
		struct timespec ms = { 0, 1000000 };

		for (int i = 0; i < N; i++) {
			if (done[i] || waitpid(pid[i], &status, WNOHANG) != pid[i])
				continue;
			done[i] = true;
			if (winner >= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
				pb_check_fail(ctx, "after a 1-byte write reader %d of %d returned %s%s",
					      i + 1, N, !WIFEXITED(status) ? "by a signal" :
					      WEXITSTATUS(status) == 0 ? "a byte" :
					      WEXITSTATUS(status) == 1 ? "0 (EOF)" : "-1",
					      winner >= 0 ? " as well" : "");
				goto out;
			}
			winner = i;
			t0 = pb_clock_ns();
		}
		nanosleep(&ms, NULL);
	}
	if (winner < 0) {
		pb_check_fail(ctx, "no blocked reader returned within 2 s of a 1-byte write");
		goto out;
	}
	for (int i = 0; i < N; i++) {
		if (i == winner || pb_check_wait_sleeping(pid[i], 2000))
			continue;
		if (waitpid(pid[i], &status, WNOHANG) == pid[i]) {
			done[i] = true;
			pb_check_fail(ctx, "after a 1-byte write reader %d of %d returned %s as well",
				      i + 1, N, !WIFEXITED(status) ? "by a signal" :
				      WEXITSTATUS(status) == 0 ? "a byte" :
				      WEXITSTATUS(status) == 1 ? "0 (EOF)" : "-1");
		} else {
			pb_check_set(ctx, PB_SKIP, "reader %d of %d was not seen asleep again in 2 s "
				     "(a loaded machine?): nothing to judge", i + 1, N);
		}
		goto out;
	}
	{
		struct timespec settle = { 0, 20000000 };

		nanosleep(&settle, NULL);
	}
	for (int i = 0; i < N; i++)
		woken += i != winner && voluntary_switches(pid[i]) > before[i];
	if (woken)
		pb_check_fail(ctx, "a 1-byte write woke %d of the %d other blocked readers for "
			      "nothing (they found the pipe empty and slept again): their waits are "
			      "not exclusive (before 5.5: 0ddad21d3e99)", woken, N - 1);
	else
		pb_check_set(ctx, PB_PASS, "a 1-byte write woke one of %d blocked readers; the "
			     "other %d slept on (voluntary context switches unchanged)", N, N - 1);
out:
	/* The writer's close gives the readers still blocked EOF. */
	pb_check_close(s, &fd[0]);
	pb_check_close(s, &fd[1]);
	t0 = pb_clock_ns();
	for (int i = 0; i < nstarted; i++) {
		uint64_t spent = (pb_clock_ns() - t0) / 1000000;

		/* one 2 s budget for all; a reader still there then is killed */
		if (!done[i])
			pb_checkproc_wait(pid[i], spent < 2000 ? (unsigned)(2000 - spent) : 0,
					  &status);
	}
}

const struct pb_check pb_checks_linux[] = {
	{ "LX-01", "linux", "LX (3.4, 9883035ae7ed)", "O_DIRECT packet mode",
	  "pipe(2) O_DIRECT", 0, lx01 },
	{ "LX-02", "linux", "LX (4.5, 0dbf5f206521)", "Where the O_DIRECT flag lives",
	  "pipe(2) O_DIRECT; fifo quirk (man-pages FIXME)", 0, lx02 },
	{ "LX-03", "linux", "LX, priv, env (4.5; 2-page floor since 5.14, 46c4c9d1beb7)",
	  "Per-user pipe limits: pipe-user-pages-soft and -hard",
	  "pipe(7) /proc files; LTP pipe15", PB_CHECK_PRIV, lx03 },
	{ "LX-04", "linux", "LX (5.8, c73be61cede5), env", "O_NOTIFICATION_PIPE",
	  "pipe(2); kernel/watch_queue", 0, lx04 },
	{ "LX-05", "linux", "LX", "splice, tee and vmsplice basics",
	  "splice(2), tee(2), vmsplice(2); LTP splice*/tee*/vmsplice*", 0, lx05 },
	{ "LX-06", "linux", "LX security regression",
	  "Dirty Pipe, CVE-2022-0847 (fix 9d2231c5d74e)", "LTP dirtypipe", 0, lx06 },
	{ "LX-07", "linux", "LX, opt-in, priv", "/proc/sys/fs/pipe-max-size sysctl semantics",
	  "pipe(7) /proc files; fcntl35 (086e774a57fb, 4.9)",
	  PB_CHECK_GLOBAL | PB_CHECK_PRIV, lx07 },
	{ "LX-08", "linux", "LX (5.14, fe67f4dd8daa)",
	  "Every write signals an O_ASYNC reader, every read an O_ASYNC writer",
	  "fcntl(2) F_SETSIG, O_ASYNC; stress-ng sigio", PB_CHECK_BOTH_KINDS, lx08 },
	{ "LX-09", "linux", "LX (5.14, 3a34b13a88ca)",
	  "Every write wakes an edge-triggered epoll reader",
	  "epoll(7) EPOLLET; 3b844826b6c6", PB_CHECK_BOTH_KINDS, lx09 },
	{ "LX-10", "linux", "LX (5.5, 0ddad21d3e99)",
	  "One write wakes one of several blocked readers, not every one",
	  "pipe_read()'s exclusive wait; /proc/PID/status", PB_CHECK_BOTH_KINDS, lx10 },
	{ .id = NULL },
};
