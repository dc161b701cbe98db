/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Conformance checks CRE-*: see pipebench(1) CHECKS. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checkproc.h"
#include "conformance.h"

#define EN pb_checkproc_errname

/* Read exactly N bytes, each call bounded by a 2 s non-restart timer. */
static ssize_t read_exact(const struct pb_sysops *s, int fd, char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r;

		pb_check_arm_interrupt(2000);
		r = s->read(fd, buf + got, n - got);
		pb_check_disarm();
		if (r <= 0)
			return got ? (ssize_t)got : r;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static void close2(const struct pb_sysops *s, int fd[2])
{
	if (fd[0] >= 0)
		s->close(fd[0]);
	if (fd[1] >= 0)
		s->close(fd[1]);
	fd[0] = fd[1] = -1;
}

static const char *accmode_name(int fl)
{
	switch (fl & O_ACCMODE) {
	case O_RDONLY: return "O_RDONLY";
	case O_WRONLY: return "O_WRONLY";
	case O_RDWR: return "O_RDWR";
	default: return "?";
	}
}

/*
 * CRE-01 (P17): XSH pipe(); XSH read()/write() [EBADF].  Two distinct fds,
 * FIFO order, no O_NONBLOCK or FD_CLOEXEC; the wrong-end calls give EBADF
 * unless an end is bidirectional, which POSIX allows (INFO).
 */
static void cre01(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int fd[2] = { -1, -1 }, fl[2], fdfl[2];
	char buf[8] = "";
	ssize_t r;
	bool bidir = false;

	if (s->pipe2(fd, 0) != 0) {
		pb_check_fail(ctx, "pipe2(fd, 0) = -1/%s", EN(errno));
		return;
	}
	if (fd[0] < 0 || fd[1] < 0 || fd[0] == fd[1]) {
		pb_check_fail(ctx, "pipe returned fds %d and %d", fd[0], fd[1]);
		return;
	}
	if (s->write(fd[1], "abc", 3) != 3 || s->write(fd[1], "def", 3) != 3) {
		pb_check_fail(ctx, "write of 3 bytes into an empty pipe failed: %s", EN(errno));
		goto out;
	}
	r = read_exact(s, fd[0], buf, 6);
	if (r != 6 || memcmp(buf, "abcdef", 6) != 0) {
		pb_check_fail(ctx, "wrote \"abc\" then \"def\", read back %zd bytes \"%.6s\"", r, buf);
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		fl[i] = s->fcntl(fd[i], F_GETFL, 0);
		fdfl[i] = s->fcntl(fd[i], F_GETFD, 0);
		if (fl[i] < 0 || fdfl[i] < 0) {
			pb_check_fail(ctx, "fcntl on fd[%d]: %s", i, EN(errno));
			goto out;
		}
		if (fl[i] & O_NONBLOCK)
			pb_check_fail(ctx, "O_NONBLOCK set on fd[%d] of a plain pipe", i);
		if (fdfl[i] & FD_CLOEXEC)
			pb_check_fail(ctx, "FD_CLOEXEC set on fd[%d] of a plain pipe", i);
		if ((fl[i] & O_ACCMODE) == O_RDWR)
			bidir = true;
		else if ((fl[i] & O_ACCMODE) != (i ? O_WRONLY : O_RDONLY))
			pb_check_fail(ctx, "fd[%d] is %s", i, accmode_name(fl[i]));
	}
	if (ctx->verdict == PB_FAIL)
		goto out;
	if ((fl[0] & O_ACCMODE) != O_RDWR) {
		errno = 0;
		r = s->write(fd[0], "x", 1);
		if (r != -1 || errno != EBADF) {
			pb_check_fail(ctx, "write on the read end gave %zd/%s, not -1/EBADF", r,
				      EN(errno));
			goto out;
		}
	}
	if ((fl[1] & O_ACCMODE) != O_RDWR) {
		errno = 0;
		pb_check_arm_interrupt(2000);
		r = s->read(fd[1], buf, 1);
		pb_check_disarm();
		if (r != -1 || errno != EBADF) {
			pb_check_fail(ctx, "read on the write end gave %zd/%s, not -1/EBADF", r,
				      EN(errno));
			goto out;
		}
	}
	if (bidir)
		pb_check_info(ctx, "data in order; fd[0] %s, fd[1] %s: an end is bidirectional "
			      "(POSIX leaves this unspecified)", accmode_name(fl[0]),
			      accmode_name(fl[1]));
	else
		pb_check_note(ctx, "fds %d,%d distinct; \"abcdef\" in order; O_RDONLY/O_WRONLY, "
			      "no O_NONBLOCK or FD_CLOEXEC; wrong-end read/write give EBADF",
			      fd[0], fd[1]);
out:
	close2(s, fd);
}

/* The lowest descriptor >= FROM that is not open. */
static int lowest_free(const struct pb_sysops *s, int from)
{
	for (int i = from; i < (1 << 20); i++)
		if (s->fcntl(i, F_GETFD, 0) == -1 && errno == EBADF)
			return i;
	return -1;
}

/*
 * CRE-02 (P17): XSH pipe(): "Their integer values shall be the two lowest
 * available".  A hole is punched below higher open fds so that "lowest"
 * and "next after the highest" differ.
 */
static void cre02(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int n, a, b, lo1, lo2, fd[2] = { -1, -1 };

	n = s->open("/dev/null", O_RDONLY | O_CLOEXEC, 0);
	if (n < 0) {
		pb_check_error(ctx, "open /dev/null: %s", EN(errno));
		return;
	}
	a = s->dup(n);
	b = s->dup(n);
	if (a < 0 || b < 0) {
		pb_check_error(ctx, "dup: %s", EN(errno));
		goto out;
	}
	s->close(a);
	lo1 = lowest_free(s, 0);
	lo2 = lo1 < 0 ? -1 : lowest_free(s, lo1 + 1);
	if (s->pipe2(fd, 0) != 0) {
		pb_check_fail(ctx, "pipe2(fd, 0) = -1/%s", EN(errno));
		goto out;
	}
	if (!((fd[0] == lo1 && fd[1] == lo2) || (fd[0] == lo2 && fd[1] == lo1)))
		pb_check_fail(ctx, "expected {%d,%d} (the two lowest free), got {%d,%d}", lo1, lo2,
			      fd[0], fd[1]);
	else
		pb_check_note(ctx, "{%d,%d} expected and got; read end on the %s one", lo1, lo2,
			      fd[0] < fd[1] ? "lower" : "higher");
	close2(s, fd);
out:
	s->close(n);
	if (b >= 0)
		s->close(b);
}

/*
 * Run the fd probe (/proc/self/exe --conformance-fd-probe FD0 FD1) and return
 * its exit status: bit i set when fd i survived exec; -1 if it did not run.
 */
static int exec_probe(int fd0, int fd1)
{
	char a0[16], a1[16];
	int status;
	pid_t pid;

	snprintf(a0, sizeof(a0), "%d", fd0);
	snprintf(a1, sizeof(a1), "%d", fd1);
	pid = pb_checkproc_fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl("/proc/self/exe", "pipebench", PB_CHECKPROC_PROBE_ARG, a0, a1, (char *)NULL);
		_exit(127);
	}
	if (pb_checkproc_wait(pid, 3000, &status) || !WIFEXITED(status) ||
	    WEXITSTATUS(status) > 3)
		return -1;
	return WEXITSTATUS(status);
}

/*
 * CRE-03 (P24, LX 2.6.27, glibc 2.9): XSH pipe2() (Issue 8); pipe(2).
 * FD_CLOEXEC on both ends, and both really closed in a new image: a libc
 * emulating pipe2 with pipe()+fcntl() passes the flag test but races.
 */
static void cre03(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int fd[2] = { -1, -1 }, ctl[2] = { -1, -1 }, got, ctl_got;

	if (s->pipe2(fd, O_CLOEXEC) != 0) {
		pb_check_fail(ctx, "pipe2(O_CLOEXEC) = -1/%s", EN(errno));
		return;
	}
	for (int i = 0; i < 2; i++) {
		int f = s->fcntl(fd[i], F_GETFD, 0);

		if (f < 0 || !(f & FD_CLOEXEC)) {
			pb_check_fail(ctx, "FD_CLOEXEC not set on fd[%d] (F_GETFD = %d)", i, f);
			goto out;
		}
	}
	if (s->pipe2(ctl, 0) != 0) {
		pb_check_error(ctx, "control pipe: %s", EN(errno));
		goto out;
	}
	ctl_got = exec_probe(ctl[0], ctl[1]);
	got = exec_probe(fd[0], fd[1]);
	if (ctl_got != 3) {
		pb_check_skip(ctx, "FD_CLOEXEC set on both ends; the exec probe is unusable "
			      "(control pipe: %d)", ctl_got);
		goto out;
	}
	if (got != 0)
		pb_check_fail(ctx, "FD_CLOEXEC set, but after execve %s still open",
			      got == 3 ? "both ends are" : got == 1 ? "the read end is" :
			      got == 2 ? "the write end is" : "the probe failed and one end is");
	else
		pb_check_note(ctx, "FD_CLOEXEC on both ends; both closed after execve "
			      "(control pipe stayed open)");
out:
	close2(s, fd);
	close2(s, ctl);
}

/*
 * CRE-04 (P24): XSH pipe2(); pipe(2).  O_NONBLOCK on both open file
 * descriptions, and an empty read gives EAGAIN.
 */
static void cre04(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int fd[2] = { -1, -1 };
	char c;
	ssize_t r;

	if (s->pipe2(fd, O_NONBLOCK) != 0) {
		pb_check_fail(ctx, "pipe2(O_NONBLOCK) = -1/%s", EN(errno));
		return;
	}
	for (int i = 0; i < 2; i++) {
		int f = s->fcntl(fd[i], F_GETFL, 0);

		if (f < 0 || !(f & O_NONBLOCK)) {
			pb_check_fail(ctx, "O_NONBLOCK not set on fd[%d] (F_GETFL = %#x)", i, f);
			goto out;
		}
	}
	errno = 0;
	pb_check_arm_interrupt(2000);
	r = s->read(fd[0], &c, 1);
	pb_check_disarm();
	if (r != -1 || errno != EAGAIN)
		pb_check_fail(ctx, "read of the empty pipe gave %zd/%s, not -1/EAGAIN", r,
			      EN(errno));
	else
		pb_check_note(ctx, "O_NONBLOCK on both ends; empty read -1/EAGAIN");
out:
	close2(s, fd);
}

/*
 * CRE-05 (LX; P24 [EINVAL]): pipe(2) ERRORS; the kernel accepts only
 * O_CLOEXEC|O_NONBLOCK|O_DIRECT|O_NOTIFICATION_PIPE.  O_EXCL is not tried:
 * it is the bit of O_NOTIFICATION_PIPE (LX-04).  O_CLOFORK (P24) is a known
 * deviation: Linux has none.
 */
static void cre05(struct pb_check_ctx *ctx)
{
	static const struct { int flag; const char *name; } bad[] = {
		{ O_APPEND, "O_APPEND" }, { O_NOATIME, "O_NOATIME" }, { O_RDWR, "O_RDWR" },
		{ O_TRUNC, "O_TRUNC" }, { O_SYNC, "O_SYNC" }, { (int)(1u << 31), "bit 31" },
	};
	const struct pb_sysops *s = ctx->sys;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int fd[2] = { -7, -7 }, r;

		errno = 0;
		r = s->pipe2(fd, bad[i].flag);
		if (r == 0) {
			pb_check_fail(ctx, "pipe2(%s) succeeded: the flag was silently ignored",
				      bad[i].name);
			close2(s, fd);
			return;
		}
		if (errno != EINVAL) {
			pb_check_fail(ctx, "pipe2(%s) = -1/%s, not EINVAL", bad[i].name, EN(errno));
			return;
		}
		if (fd[0] != -7 || fd[1] != -7) {
			pb_check_fail(ctx, "pipe2(%s) failed but wrote pipefd {%d,%d}", bad[i].name,
				      fd[0], fd[1]);
			return;
		}
	}
#ifdef O_CLOFORK
	{
		int fd[2] = { -7, -7 };

		if (s->pipe2(fd, O_CLOFORK) == 0) {
			close2(s, fd);
			pb_check_note(ctx, "O_APPEND, O_NOATIME, O_RDWR, O_TRUNC, O_SYNC and bit 31 "
				      "give EINVAL with pipefd untouched; O_CLOFORK accepted");
			return;
		}
		pb_check_set(ctx, PB_KNOWN_DEVIATION,
			     "O_APPEND, O_NOATIME, O_RDWR, O_TRUNC, O_SYNC and bit 31 give EINVAL "
			     "with pipefd untouched; O_CLOFORK (POSIX.1-2024): pipe2 gives %s",
			     EN(errno));
	}
#else
	pb_check_set(ctx, PB_KNOWN_DEVIATION,
		     "O_APPEND, O_NOATIME, O_RDWR, O_TRUNC, O_SYNC and bit 31 give EINVAL with "
		     "pipefd untouched; O_CLOFORK (POSIX.1-2024): not defined by this libc, "
		     "Linux has no O_CLOFORK");
#endif
}

/* Open descriptors below LIMIT, found without opening one (none may be free). */
static int count_below(const struct pb_sysops *s, int limit)
{
	int n = 0;

	for (int i = 0; i < limit; i++)
		if (s->fcntl(i, F_GETFD, 0) >= 0)
			n++;
	return n;
}

/*
 * CRE-06 (P17): XSH pipe() [EMFILE]; TC2 (pipefd unmodified on failure).
 * With one free fd: EMFILE, pipefd untouched, no half-pipe leaked; with
 * two it succeeds.  RLIMIT_NOFILE is set here, never inherited.
 */
static void cre06(struct pb_check_ctx *ctx)
{
	enum { LIMIT = 64 };
	const struct pb_sysops *s = ctx->sys;
	struct rlimit rl;
	int held[LIMIT], nheld = 0, base, before, after, fd[2] = { -7, -7 }, r, e;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_max < LIMIT) {
		pb_check_skip(ctx, "RLIMIT_NOFILE hard limit below %d", LIMIT);
		return;
	}
	rl.rlim_cur = LIMIT;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
		pb_check_error(ctx, "setrlimit(RLIMIT_NOFILE, %d): %s", LIMIT, EN(errno));
		return;
	}
	base = s->open("/dev/null", O_RDONLY | O_CLOEXEC, 0);
	if (base < 0) {
		pb_check_error(ctx, "open /dev/null: %s", EN(errno));
		return;
	}
	while (nheld < LIMIT) {
		int d = s->dup(base);

		if (d < 0)
			break;
		held[nheld++] = d;
	}
	if (nheld == 0 || nheld == LIMIT) {
		pb_check_error(ctx, "could not exhaust descriptors (held %d)", nheld);
		goto out;
	}
	s->close(held[--nheld]);     /* exactly one free */
	before = count_below(s, LIMIT);
	errno = 0;
	r = s->pipe2(fd, 0);
	e = errno;
	after = count_below(s, LIMIT);
	if (r == 0) {
		pb_check_fail(ctx, "pipe2 with one free fd succeeded: {%d,%d}", fd[0], fd[1]);
		close2(s, fd);
		goto out;
	}
	if (e != EMFILE)
		pb_check_fail(ctx, "pipe2 with one free fd = -1/%s, not EMFILE", EN(e));
	else if (fd[0] != -7 || fd[1] != -7)
		pb_check_fail(ctx, "pipe2 failed but wrote pipefd {%d,%d}", fd[0], fd[1]);
	else if (after != before)
		pb_check_fail(ctx, "open fds %d before and %d after the failed pipe2: a "
			      "half-pipe leaked", before, after);
	if (ctx->verdict == PB_FAIL)
		goto out;
	s->close(held[--nheld]);     /* two free */
	if (s->pipe2(fd, 0) != 0) {
		pb_check_fail(ctx, "pipe2 with two free fds = -1/%s", EN(errno));
		goto out;
	}
	close2(s, fd);
	pb_check_note(ctx, "1 free fd: -1/EMFILE, pipefd untouched, %d fds before and after; "
		      "2 free fds: success", before);
out:
	while (nheld > 0)
		s->close(held[--nheld]);
	s->close(base);
}

/*
 * CRE-07 (LX): pipe(2) ERRORS.  EFAULT for a bad pointer and for a
 * read-only page, with no descriptor left behind (the kernel installs the
 * fds only after copy_to_user succeeded).
 */
static void cre07(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	long page = sysconf(_SC_PAGESIZE);
	int *ro, before, after = -1, r, e;
	struct { int *p; const char *what; } cases[2];

	ro = mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED) {
		pb_check_error(ctx, "mmap: %s", EN(errno));
		return;
	}
	cases[0].p = (int *)8;
	cases[0].what = "(int *)8";
	cases[1].p = ro;
	cases[1].what = "a PROT_READ page";
	before = pb_check_count_fds();
	for (int i = 0; i < 2; i++) {
		errno = 0;
		r = s->pipe2(cases[i].p, 0);
		e = errno;
		after = pb_check_count_fds();
		if (r == 0)
			pb_check_fail(ctx, "pipe2(%s) succeeded", cases[i].what);
		else if (e != EFAULT)
			pb_check_fail(ctx, "pipe2(%s) = -1/%s, not EFAULT", cases[i].what, EN(e));
		else if (before >= 0 && after != before)
			pb_check_fail(ctx, "pipe2(%s): open fds %d -> %d: descriptors leaked",
				      cases[i].what, before, after);
		if (ctx->verdict == PB_FAIL)
			break;
	}
	munmap(ro, (size_t)page);
	if (ctx->verdict != PB_FAIL)
		pb_check_note(ctx, "(int *)8 and a read-only page: -1/EFAULT; open fds %d -> %d",
			      before, after);
}

const struct pb_check pb_checks_creation[] = {
	{ "CRE-01", "creation", "P17", "Basic contract of pipe()",
	  "XSH pipe(); XSH read()/write() [EBADF]", 0, cre01 },
	{ "CRE-02", "creation", "P17", "fds are the two lowest available",
	  "XSH pipe(): \"Their integer values shall be the two lowest available\"", 0, cre02 },
	{ "CRE-03", "creation", "P24, LX (2.6.27, glibc 2.9)", "pipe2(O_CLOEXEC)",
	  "XSH pipe2() (Issue 8); pipe(2)", 0, cre03 },
	{ "CRE-04", "creation", "P24", "pipe2(O_NONBLOCK)", "XSH pipe2(); pipe(2)", 0, cre04 },
	{ "CRE-05", "creation", "LX; P24 [EINVAL]",
	  "pipe2() rejects invalid flags; pipefd untouched",
	  "pipe(2) ERRORS; kernel allows only O_CLOEXEC|O_NONBLOCK|O_DIRECT|O_NOTIFICATION_PIPE",
	  0, cre05 },
	{ "CRE-06", "creation", "P17",
	  "EMFILE when fewer than 2 fds are free, with no partial allocation",
	  "XSH pipe() [EMFILE]; TC2 (pipefd unmodified on failure)", 0, cre06 },
	{ "CRE-07", "creation", "LX", "EFAULT on a bad pointer, with no fd leak",
	  "pipe(2) ERRORS", 0, cre07 },
	{ .id = NULL },
};
