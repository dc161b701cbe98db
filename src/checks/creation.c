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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checkproc.h"
#include "conformance.h"
#include "tsprobe.h"

#define EN pb_checkproc_errname

/* Read exactly N bytes, each call bounded by a 2 s non-restart timer. */
static ssize_t read_exact(const struct pb_sysops *s, int fd, char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pb_check_timed_read(s, fd, buf + got, n - got, 2000);

		if (r <= 0)
			return got ? (ssize_t)got : r;
		got += (size_t)r;
	}
	return (ssize_t)got;
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
	char buf[8] = "", rb[32];
	ssize_t r;
	bool bidir = false;

	if (!pb_check_anon_pipe(ctx, fd, 0))
		return;
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
			pb_check_fail(ctx, "write on the read end gave %s, not -1/EBADF",
				      pb_check_res(r, errno, rb, sizeof(rb)));
			goto out;
		}
	}
	if ((fl[1] & O_ACCMODE) != O_RDWR) {
		r = pb_check_timed_read(s, fd[1], buf, 1, 2000);
		if (r != -1 || errno != EBADF) {
			pb_check_fail(ctx, "read on the write end gave %s, not -1/EBADF",
				      pb_check_res(r, errno, rb, sizeof(rb)));
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
	pb_check_close_pair(s, fd);
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
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "open /dev/null: %s", EN(errno));
		return;
	}
	a = s->dup(n);
	b = s->dup(n);
	if (a < 0 || b < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "dup of /dev/null: %s", EN(errno));
		goto out;
	}
	s->close(a);
	a = -1;
	lo1 = lowest_free(s, 0);
	lo2 = lo1 < 0 ? -1 : lowest_free(s, lo1 + 1);
	if (s->pipe2(fd, 0) != 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "pipe2(fd, 0) = -1/%s; POSIX requires 0 "
			       "with two free descriptors", EN(errno));
		goto out;
	}
	if (fd[0] < 0 || fd[1] < 0)
		pb_check_fail(ctx, "pipe2(fd, 0) = 0 but gave {%d,%d}: not two descriptors", fd[0],
			      fd[1]);
	else if (!((fd[0] == lo1 && fd[1] == lo2) || (fd[0] == lo2 && fd[1] == lo1)))
		pb_check_fail(ctx, "expected {%d,%d} (the two lowest free), got {%d,%d}", lo1, lo2,
			      fd[0], fd[1]);
	else
		pb_check_note(ctx, "{%d,%d} expected and got; read end on the %s one", lo1, lo2,
			      fd[0] < fd[1] ? "lower" : "higher");
	pb_check_close_pair(s, fd);
out:
	s->close(n);
	if (a >= 0)
		s->close(a);
	if (b >= 0)
		s->close(b);
}

/*
 * Run the fd probe (/proc/self/exe --conformance-fd-probe FD0 FD1) and return
 * its exit status: bit i set when fd i survived exec; -1 if it gave no
 * answer (killed, past 3 s); -2 when it could not be forked (said in CTX:
 * the harness's resource).
 */
static int exec_probe(struct pb_check_ctx *ctx, int fd0, int fd1)
{
	char a0[16], a1[16];
	int status;
	pid_t pid;

	snprintf(a0, sizeof(a0), "%d", fd0);
	snprintf(a1, sizeof(a1), "%d", fd1);
	pid = pb_checkproc_fork();
	if (pid < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "fork for the exec probe: %s",
			       EN(errno));
		return -2;
	}
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
 * CRE-03, CRE-04: the flag pipe2 was given shows on both ends, in what
 * fcntl(CMD) returns (F_GETFD: FD_CLOEXEC; F_GETFL: O_NONBLOCK).  FAIL naming
 * the end that lacks it.
 */
static bool both_ends_have(struct pb_check_ctx *ctx, const int fd[2], int cmd, int flag,
			   const char *flag_name)
{
	for (int i = 0; i < 2; i++) {
		int f = ctx->sys->fcntl(fd[i], cmd, 0);

		if (f < 0 || !(f & flag)) {
			if (cmd == F_GETFD)
				pb_check_fail(ctx, "%s not set on fd[%d] (F_GETFD = %d)", flag_name,
					      i, f);
			else
				pb_check_fail(ctx, "%s not set on fd[%d] (F_GETFL = %#x)", flag_name,
					      i, f);
			return false;
		}
	}
	return true;
}

/*
 * CRE-03 (P24, LX 2.6.27, glibc 2.9): XSH pipe2() (Issue 8); pipe(2).
 * FD_CLOEXEC on both ends, and both really closed in a new image: a libc
 * emulating pipe2 with pipe()+fcntl() passes the flag test but races.  The
 * control that proves the exec probe sees open descriptors is two
 * descriptors of /dev/null, not a pipe: the harness does not rely on what it
 * tests.  The probe answers through its exit status.
 */
static void cre03(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int fd[2] = { -1, -1 }, ctl[2] = { -1, -1 }, got, ctl_got;

	if (!pb_check_anon_pipe(ctx, fd, O_CLOEXEC))
		return;
	if (!both_ends_have(ctx, fd, F_GETFD, FD_CLOEXEC, "FD_CLOEXEC"))
		goto out;
	for (int i = 0; i < 2; i++) {
		ctl[i] = open("/dev/null", O_RDONLY); /* no O_CLOEXEC: must survive exec */
		if (ctl[i] < 0) {
			pb_check_setup(ctx, PB_RES_HARNESS, errno, "control descriptor: open "
				       "/dev/null: %s", EN(errno));
			goto out;
		}
	}
	ctl_got = exec_probe(ctx, ctl[0], ctl[1]);
	if (ctl_got == -2)
		goto out;
	got = exec_probe(ctx, fd[0], fd[1]);
	if (got == -2)
		goto out;
	if (ctl_got != 3) {
		pb_check_skip(ctx, "FD_CLOEXEC set on both ends; the exec probe is unusable "
			      "(control descriptors: %d)", ctl_got);
		goto out;
	}
	if (got < 0)  /* it answered for the control descriptors: the harness's trouble */
		pb_check_setup(ctx, PB_RES_HARNESS, 0, "the exec probe of the pipe's descriptors "
			       "gave no answer (killed, or past 3 s)");
	else if (got != 0)
		pb_check_fail(ctx, "FD_CLOEXEC set, but after execve %s still open",
			      got == 3 ? "both ends are" : got == 1 ? "the read end is" :
			      "the write end is");
	else
		pb_check_note(ctx, "FD_CLOEXEC on both ends; both closed after execve "
			      "(control descriptors stayed open)");
out:
	pb_check_close_pair(s, fd);
	for (int i = 0; i < 2; i++)
		if (ctl[i] >= 0)
			close(ctl[i]);
}

/*
 * CRE-04 (P24): XSH pipe2(); pipe(2).  O_NONBLOCK on both open file
 * descriptions, and an empty read gives EAGAIN.
 */
static void cre04(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	int fd[2] = { -1, -1 };
	char c, rb[32];
	ssize_t r;

	if (!pb_check_anon_pipe(ctx, fd, O_NONBLOCK))
		return;
	if (!both_ends_have(ctx, fd, F_GETFL, O_NONBLOCK, "O_NONBLOCK"))
		goto out;
	r = pb_check_timed_read(s, fd[0], &c, 1, 2000);
	if (r != -1 || errno != EAGAIN)
		pb_check_fail(ctx, "read of the empty pipe gave %s, not -1/EAGAIN",
			      pb_check_res(r, errno, rb, sizeof(rb)));
	else
		pb_check_note(ctx, "O_NONBLOCK on both ends; empty read -1/EAGAIN");
out:
	pb_check_close_pair(s, fd);
}

/* ---- CRE-05: what an accepted pipe2(O_NOATIME) does ---- */

enum { TS_A, TS_M, TS_C, TS_N };

/* "atime", "mtime/ctime", ... for a mask of TS_* bits. */
static const char *ts_fields(unsigned mask, char *buf, size_t len)
{
	static const char *const name[TS_N] = { "atime", "mtime", "ctime" };
	size_t used = 0;

	buf[0] = '\0';
	for (int f = 0; f < TS_N; f++)
		if (mask & (1u << f))
			used += (size_t)snprintf(buf + used, len > used ? len - used : 0, "%s%s",
						 used ? "/" : "", name[f]);
	return buf;
}

static int stat_times(const struct pb_sysops *s, int fd, struct timespec t[TS_N])
{
	struct stat st;

	if (s->fstat(fd, &st) != 0)
		return -1;
	t[TS_A] = st.st_atim;
	t[TS_M] = st.st_mtim;
	t[TS_C] = st.st_ctim;
	return 0;
}

/*
 * pipe2(O_NOATIME) was accepted and gave NFD.  Observe whether the flag does
 * anything: one write and one read on it, and the same on a control pipe
 * from plain pipe2(0), after one wait for the coarse clock; fstat before and
 * after.  Writes to OUT the part of the detail that concerns O_NOATIME and
 * returns PB_KNOWN_DEVIATION, or records FAIL/ERROR and returns PB_FAIL.
 *
 * Accepted and effective (frozen while the control moves) is the Feb 2025
 * proposal; accepted and ineffective (or only partly effective) is a fail;
 * accepted while the control is frozen too (anonymous pipes since Linux
 * 6.15) cannot be judged by its effect.  That last case is a
 * known-deviation, not info: accepting the flag is itself an observed
 * difference from upstream, which rejects it with EINVAL, and neither a pass
 * nor a fail is supported by what can be seen.
 */
static enum pb_verdict noatime_effect(struct pb_check_ctx *ctx, int nfd[2], char *out,
				      size_t len)
{
	static const char *const who[2] = { "the pipe2(O_NOATIME) pipe", "a pipe2(fd, 0) pipe" };
	const struct pb_sysops *s = ctx->sys;
	int cfd[2] = { -1, -1 }, *fds[2] = { nfd, cfd };
	struct timespec before[2][TS_N], after[2][TS_N];
	unsigned moved[2] = { 0, 0 };
	char b1[32], b2[32], rb[32];

	if (s->pipe2(cfd, 0) != 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "control pipe: pipe2(fd, 0) = -1/%s; "
			       "POSIX requires 0", EN(errno));
		cfd[0] = cfd[1] = -1;
		return PB_FAIL;
	}
	for (int p = 0; p < 2; p++)
		if (stat_times(s, fds[p][0], before[p]) != 0) {
			pb_check_setup(ctx, PB_RES_PIPE, errno, "fstat on %s = -1/%s; POSIX "
				       "requires 0", who[p], EN(errno));
			goto out;
		}
	if (!pb_check_wait_clock_past(&before[0][0], 2 * TS_N, 2500)) {
		pb_check_setup(ctx, PB_RES_HARNESS, 0, "CLOCK_REALTIME_COARSE did not pass the "
			       "pipes' timestamps within 2.5 s");
		goto out;
	}
	for (int p = 0; p < 2; p++) {
		ssize_t w, r;
		char c = 0;

		errno = 0;
		pb_check_arm_interrupt(2000);
		w = s->write(fds[p][1], "t", 1);
		r = w == 1 ? s->read(fds[p][0], &c, 1) : -1;
		pb_check_disarm();
		if (w == 1 && r == 1 && c != 't') {
			pb_check_fail(ctx, "O_NOATIME accepted; on %s, the byte read back differs "
				      "from the one written", who[p]);
			goto out;
		}
		if (w != 1 || r != 1) {
			pb_check_fail(ctx, "O_NOATIME accepted; on %s, %s of 1 byte = %s; POSIX "
				      "requires 1", who[p], w != 1 ? "a write into the empty pipe" :
				      "a read with 1 byte queued",
				      pb_check_res(w != 1 ? w : r, errno, rb, sizeof(rb)));
			goto out;
		}
		if (stat_times(s, fds[p][0], after[p]) != 0) {
			pb_check_setup(ctx, PB_RES_PIPE, errno, "fstat on %s = -1/%s; POSIX "
				       "requires 0", who[p], EN(errno));
			goto out;
		}
		for (int f = 0; f < TS_N; f++)
			if (pb_ts_cmp(&before[p][f], &after[p][f]) != 0)
				moved[p] |= 1u << f;
	}
	if (moved[0] & ~moved[1])
		pb_check_fail(ctx, "pipe2(O_NOATIME) accepted, and write+read moved its %s while "
			      "those of a plain pipe2(fd, 0) pipe stayed put",
			      ts_fields(moved[0] & ~moved[1], b1, sizeof(b1)));
	else if (!moved[1])
		snprintf(out, len, "O_NOATIME accepted (the Feb 2025 pipe2(O_NOATIME) proposal, "
			 "not merged upstream, which gives EINVAL), but its effect cannot be "
			 "observed: write+read move no timestamp of a plain pipe2(fd, 0) pipe "
			 "either (anonymous pipes frozen, as since Linux 6.15)");
	else if (!moved[0])
		snprintf(out, len, "O_NOATIME accepted and effective: write+read left %s of that "
			 "pipe unchanged while a plain pipe2(fd, 0) pipe's moved (the Feb 2025 "
			 "pipe2(O_NOATIME) proposal, not merged upstream)",
			 ts_fields(moved[1], b1, sizeof(b1)));
	else if (moved[0] == moved[1])
		pb_check_fail(ctx, "pipe2(O_NOATIME) accepted but ineffective: write+read moved "
			      "its %s as on a plain pipe2(fd, 0) pipe; the flag must be rejected "
			      "(EINVAL) or honoured", ts_fields(moved[0], b1, sizeof(b1)));
	else
		pb_check_fail(ctx, "pipe2(O_NOATIME) accepted but only partly effective: "
			      "write+read left its %s unchanged but moved its %s, as on a plain "
			      "pipe2(fd, 0) pipe (the proposal freezes all three)",
			      ts_fields(moved[1] & ~moved[0], b1, sizeof(b1)),
			      ts_fields(moved[0], b2, sizeof(b2)));
out:
	pb_check_close_pair(s, cfd);
	return ctx->verdict == PB_PASS ? PB_KNOWN_DEVIATION : PB_FAIL;
}

/*
 * CRE-05 (LX; P24 [EINVAL]): pipe(2) ERRORS; the kernel accepts only
 * O_CLOEXEC|O_NONBLOCK|O_DIRECT|O_NOTIFICATION_PIPE.  O_EXCL is not tried:
 * it is the bit of O_NOTIFICATION_PIPE (LX-04).  O_CLOFORK (P24) is a known
 * deviation: Linux has none.  O_NOATIME accepted is judged by its effect
 * (noatime_effect above), not as "silently ignored".
 */
static void cre05(struct pb_check_ctx *ctx)
{
	static const struct { int flag; const char *name; } bad[] = {
		{ O_APPEND, "O_APPEND" }, { O_NOATIME, "O_NOATIME" }, { O_RDWR, "O_RDWR" },
		{ O_TRUNC, "O_TRUNC" }, { O_SYNC, "O_SYNC" }, { (int)(1u << 31), "bit 31" },
	};
	const struct pb_sysops *s = ctx->sys;
	char noatime[400] = "", detail[512];
	const char *rejected = "O_APPEND, O_NOATIME, O_RDWR, O_TRUNC, O_SYNC and bit 31 give "
			       "EINVAL with pipefd untouched";
	bool deviation = false;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int fd[2] = { -7, -7 }, r;

		errno = 0;
		r = s->pipe2(fd, bad[i].flag);
		if (r == 0 && bad[i].flag == O_NOATIME) {
			enum pb_verdict v = noatime_effect(ctx, fd, noatime, sizeof(noatime));

			pb_check_close_pair(s, fd);
			if (v == PB_FAIL)
				return;
			deviation = true;
			rejected = "O_APPEND, O_RDWR, O_TRUNC, O_SYNC and bit 31 give EINVAL with "
				   "pipefd untouched";
			continue;
		}
		if (r == 0) {
			pb_check_fail(ctx, "pipe2(%s) succeeded: the flag was silently ignored",
				      bad[i].name);
			pb_check_close_pair(s, fd);
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
	snprintf(detail, sizeof(detail), "%s%s%s", rejected, noatime[0] ? "; " : "", noatime);
#ifdef O_CLOFORK
	{
		int fd[2] = { -7, -7 };

		if (s->pipe2(fd, O_CLOFORK) == 0) {
			pb_check_close_pair(s, fd);
			pb_check_set(ctx, deviation ? PB_KNOWN_DEVIATION : PB_PASS,
				     "%.400s; O_CLOFORK accepted", detail);
			return;
		}
		pb_check_set(ctx, PB_KNOWN_DEVIATION, "%.400s; O_CLOFORK (POSIX.1-2024): pipe2 "
			     "gives %s", detail, EN(errno));
	}
#else
	(void)deviation;
	pb_check_set(ctx, PB_KNOWN_DEVIATION, "%.400s; O_CLOFORK (POSIX.1-2024): not defined by "
		     "this libc, Linux has no O_CLOFORK", detail);
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
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "setrlimit(RLIMIT_NOFILE, %d): %s", LIMIT,
			       EN(errno));
		return;
	}
	base = s->open("/dev/null", O_RDONLY | O_CLOEXEC, 0);
	if (base < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "open /dev/null: %s", EN(errno));
		return;
	}
	while (nheld < LIMIT) {
		int d = s->dup(base);

		if (d < 0)
			break;
		held[nheld++] = d;
	}
	if (nheld == 0 || nheld == LIMIT) {
		pb_check_setup(ctx, PB_RES_HARNESS, 0, "could not exhaust descriptors by dup of "
			       "/dev/null (held %d)", nheld);
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
		pb_check_close_pair(s, fd);
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
	pb_check_close_pair(s, fd);
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
	long page = pb_check_page_size();
	int *ro, before, after = -1, r, e;
	struct { int *p; const char *what; } cases[2];

	ro = mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "mmap: %s", EN(errno));
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

/* ---- CRE-08..10: descriptors counted around successful calls ---- */

/* Open descriptors per /proc/self/fd, or SKIP (once) and -1 without it. */
static int fds_now(struct pb_check_ctx *ctx)
{
	int n = pb_check_count_fds();

	if (n < 0)
		pb_check_skip(ctx, "cannot count open descriptors: /proc/self/fd: %s", EN(-n));
	return n;
}

/* Whether FD is an open descriptor (F_GETFD through the judged calls). */
static bool fd_open(const struct pb_sysops *s, int fd)
{
	return fd >= 0 && s->fcntl(fd, F_GETFD, 0) >= 0;
}

/*
 * CRE-08 (P17, P24): XSH pipe(), pipe2(): "shall create a pipe and place two
 * file descriptors".  Every successful pipe() and pipe2() (flags 0,
 * O_CLOEXEC, O_NONBLOCK, O_DIRECT) adds exactly its two descriptors, and
 * closing them brings the count back: a kernel leaving a third descriptor
 * open on success passes every other check.  pipe() is libc's; the pipe2()
 * calls go through the judged system-call table.
 */
static void cre08(struct pb_check_ctx *ctx)
{
	static const struct { int flags; const char *name; } call[] = {
		{ -1, "pipe()" }, { 0, "pipe2(fd, 0)" }, { O_CLOEXEC, "pipe2(O_CLOEXEC)" },
		{ O_NONBLOCK, "pipe2(O_NONBLOCK)" }, { O_DIRECT, "pipe2(O_DIRECT)" },
	};
	const struct pb_sysops *s = ctx->sys;
	int before, after, done = 0;
	char nodirect[64] = "";

	before = fds_now(ctx);
	if (before < 0)
		return;
	for (size_t i = 0; i < sizeof(call) / sizeof(call[0]); i++) {
		int fd[2] = { -1, -1 }, r;

		errno = 0;
		r = call[i].flags < 0 ? pipe(fd) : s->pipe2(fd, call[i].flags);
		if (r != 0) {
			if (call[i].flags == O_DIRECT && errno == EINVAL) {
				snprintf(nodirect, sizeof(nodirect), "; O_DIRECT not supported "
					 "(before Linux 3.4)");
				continue;
			}
			pb_check_setup(ctx, PB_RES_PIPE, errno, "%s = -1/%s; POSIX requires 0 with "
				       "descriptors free", call[i].name, EN(errno));
			return;
		}
		after = pb_check_count_fds();
		if (after != before + 2) {
			pb_check_fail(ctx, "%s returned {%d,%d}, but open descriptors went %d -> %d: "
				      "%s", call[i].name, fd[0], fd[1], before, after,
				      after > before + 2 ? "a descriptor beyond the two returned "
				      "was left open" : "fewer than two new descriptors are open");
			pb_check_close_pair(s, fd);
			return;
		}
		if (!fd_open(s, fd[0]) || !fd_open(s, fd[1])) {
			pb_check_fail(ctx, "%s returned {%d,%d}, but fd %d is not open", call[i].name,
				      fd[0], fd[1], fd_open(s, fd[0]) ? fd[1] : fd[0]);
			pb_check_close_pair(s, fd);
			return;
		}
		pb_check_close_pair(s, fd);
		after = pb_check_count_fds();
		if (after != before) {
			pb_check_fail(ctx, "after %s and closing both ends, %d descriptors are open, "
				      "%d before the call: one was leaked", call[i].name, after,
				      before);
			return;
		}
		done++;
	}
	pb_check_note(ctx, "%d calls (pipe(), pipe2() with 0, O_CLOEXEC, O_NONBLOCK%s): each "
		      "added exactly its two descriptors (%d -> %d), closing both brought back %d%s",
		      done, nodirect[0] ? "" : ", O_DIRECT", before, before + 2, before, nodirect);
}

/* Open PATH through the judged table and require exactly one new descriptor. */
static int fifo_open_counted(struct pb_check_ctx *ctx, const char *path, int flags,
			     const char *name, int *count)
{
	int fd = ctx->sys->open(path, flags | O_CLOEXEC, 0), now;

	if (fd < 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "open(FIFO, %s) = -1/%s; POSIX requires "
			       "a descriptor (%s)", name, EN(errno), (flags & O_ACCMODE) == O_RDONLY ?
			       "a nonblocking read-only open returns at once" :
			       "a reader is open");
		return -1;
	}
	now = pb_check_count_fds();
	if (now != *count + 1) {
		pb_check_fail(ctx, "open(FIFO, %s) returned fd %d, but open descriptors went %d -> "
			      "%d: %s", name, fd, *count, now, now > *count + 1 ?
			      "a descriptor beyond the one returned was left open" :
			      "no new descriptor is open");
		ctx->sys->close(fd);
		return -1;
	}
	*count = now;
	return fd;
}

/*
 * CRE-09 (P17): XSH mkfifo() (makes a node, opens nothing); XSH open() (one
 * new descriptor).  mkfifo adds no descriptor; opening the read end
 * (O_RDONLY|O_NONBLOCK) and then the write end (O_WRONLY|O_NONBLOCK) adds
 * one each; closing both brings the count back.
 */
static void cre09(struct pb_check_ctx *ctx)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200];
	int before, count, rfd = -1, wfd = -1;

	snprintf(path, sizeof(path), "%s/cre09.fifo", ctx->dir);
	before = fds_now(ctx);
	if (before < 0)
		return;
	if (s->mkfifo(path, 0600) != 0) {
		pb_check_setup(ctx, PB_RES_PIPE, errno, "mkfifo = -1/%s; POSIX requires 0 in an "
			       "empty writable directory", EN(errno));
		return;
	}
	count = pb_check_count_fds();
	if (count != before) {
		pb_check_fail(ctx, "mkfifo opened nothing, but open descriptors went %d -> %d",
			      before, count);
		goto out;
	}
	rfd = fifo_open_counted(ctx, path, O_RDONLY | O_NONBLOCK, "O_RDONLY|O_NONBLOCK", &count);
	if (rfd < 0)
		goto out;
	wfd = fifo_open_counted(ctx, path, O_WRONLY | O_NONBLOCK, "O_WRONLY|O_NONBLOCK", &count);
	if (wfd < 0)
		goto out;
	pb_check_close(s, &rfd);
	pb_check_close(s, &wfd);
	count = pb_check_count_fds();
	if (count != before)
		pb_check_fail(ctx, "after mkfifo, opening both ends and closing them, %d "
			      "descriptors are open, %d before: one was leaked", count, before);
	else
		pb_check_note(ctx, "mkfifo: %d -> %d descriptors; open read end, write end: %d -> "
			      "%d -> %d; both closed: %d", before, before, before, before + 1,
			      before + 2, count);
out:
	pb_check_close(s, &rfd);
	pb_check_close(s, &wfd);
	unlink(path);
}

/*
 * CRE-10 (P17): XSH close(): "deallocate the file descriptor ... made
 * available for return by subsequent calls".  After a successful pipe
 * (or FIFO) is made, close() of each end returns 0, the descriptor is gone
 * (F_GETFD: EBADF) and the open count drops by one each time.
 */
static void cre10(struct pb_check_ctx *ctx)
{
	static const char *const end[2] = { "read end", "write end" };
	const struct pb_sysops *s = ctx->sys;
	int fd[2], count, now;

	if (!pb_check_make_pipe(ctx, fd, 0))
		return;
	count = fds_now(ctx);
	if (count < 0)
		goto out;
	for (int i = 0; i < 2; i++) {
		int r, e, f;

		errno = 0;
		r = s->close(fd[i]);
		e = errno;
		f = fd[i];
		fd[i] = -1;
		now = pb_check_count_fds();
		if (r != 0) {
			pb_check_fail(ctx, "close of the %s's %s (fd %d) = -1/%s; POSIX requires 0",
				      pb_check_kind_word(ctx), end[i], f, EN(e));
			goto out;
		}
		if (now != count - 1 || fd_open(s, f)) {
			pb_check_fail(ctx, "close of the %s's %s (fd %d) returned 0, but %s (open "
				      "descriptors %d -> %d): close must free it",
				      pb_check_kind_word(ctx), end[i], f,
				      fd_open(s, f) ? "the fd is still open" :
				      "a descriptor stayed open", count, now);
			goto out;
		}
		count = now;
	}
	pb_check_note(ctx, "close of each end returned 0, freed its fd (EBADF after) and "
		      "dropped the open count by one, to %d", count);
out:
	pb_check_close_pair(s, fd);
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
	{ "CRE-08", "creation", "P17, P24",
	  "A successful pipe()/pipe2() adds exactly two descriptors",
	  "XSH pipe(), pipe2(): \"shall create a pipe and place two file descriptors\"", 0,
	  cre08 },
	{ "CRE-09", "creation", "P17",
	  "mkfifo adds no descriptor; each open of a FIFO end adds exactly one",
	  "XSH mkfifo(); XSH open(): \"return a file descriptor\"", 0, cre09 },
	{ "CRE-10", "creation", "P17", "close of each end frees its descriptor",
	  "XSH close(): \"deallocate the file descriptor\"", PB_CHECK_BOTH_KINDS, cre10 },
	{ .id = NULL },
};
