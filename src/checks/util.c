/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by conformance checks (see conformance.h). */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "checkproc.h"
#include "conformance.h"
#include "tsprobe.h"
#include "sysinfo.h"

/* Make a pipe of ctx->kind: anonymous via sys->pipe2(FLAGS), or a FIFO in
 * ctx->dir opened read end O_RDONLY|O_NONBLOCK first, then the write end;
 * FLAGS' O_NONBLOCK/O_CLOEXEC are applied to both ends.  0 or -errno. */
static int make_pipe(struct pb_check_ctx *ctx, int fd[2], int flags)
{
	const struct pb_sysops *s = ctx->sys;
	char path[4200];
	int rfd, wfd, extra = flags & (O_NONBLOCK | O_CLOEXEC);

	if (ctx->kind != PB_KIND_FIFO)
		return s->pipe2(fd, flags) == 0 ? 0 : -errno;
	snprintf(path, sizeof(path), "%s/check.fifo", ctx->dir);
	if (s->mkfifo(path, 0600) != 0 && errno != EEXIST)
		return -errno;
	rfd = s->open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
	if (rfd < 0)
		return -errno;
	wfd = s->open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC, 0);
	if (wfd < 0) {
		int e = errno;

		s->close(rfd);
		return -e;
	}
	if (!(extra & O_NONBLOCK)) {
		s->fcntl(rfd, F_SETFL, s->fcntl(rfd, F_GETFL, 0) & ~O_NONBLOCK);
		s->fcntl(wfd, F_SETFL, s->fcntl(wfd, F_GETFL, 0) & ~O_NONBLOCK);
	}
	if (!(extra & O_CLOEXEC)) {
		s->fcntl(rfd, F_SETFD, 0);
		s->fcntl(wfd, F_SETFD, 0);
	}
	fd[0] = rfd;
	fd[1] = wfd;
	return 0;
}

const char *pb_check_kind_word(const struct pb_check_ctx *ctx)
{
	return ctx->kind == PB_KIND_FIFO ? "FIFO" : "pipe";
}

void pb_check_close(const struct pb_sysops *sys, int *fd)
{
	if (*fd >= 0)
		sys->close(*fd);
	*fd = -1;
}

bool pb_check_make_pipe(struct pb_check_ctx *ctx, int fd[2], int flags)
{
	int r = make_pipe(ctx, fd, flags | O_CLOEXEC);

	if (r) {
		fd[0] = fd[1] = -1;
		pb_check_setup(ctx, PB_RES_PIPE, -r, "cannot make a %s: %s",
			       pb_check_kind_word(ctx), pb_checkproc_errname(-r));
	}
	return r == 0;
}

long pb_check_fill(const struct pb_sysops *sys, int wfd)
{
	static char page[65536];
	long page_size = sysconf(_SC_PAGESIZE), total = 0;

	if (page_size <= 0 || page_size > (long)sizeof(page))
		page_size = 4096;
	for (;;) {
		ssize_t n = sys->write(wfd, page, (size_t)page_size);

		if (n < 0)
			return errno == EAGAIN ? total : -errno;
		if (n == 0)
			return PB_FILL_ZERO;
		total += n;
		if (total > (64L << 20))
			return -EOVERFLOW;
	}
}

long pb_check_fill_or_fail(struct pb_check_ctx *ctx, int wfd)
{
	long n = pb_check_fill(ctx->sys, wfd);
	const char *w = pb_check_kind_word(ctx);

	if (n == PB_FILL_ZERO)
		pb_check_fail(ctx, "setup: write() on a full nonblocking %s returned 0; "
			      "POSIX requires -1 with EAGAIN", w);
	else if (n == -EOVERFLOW)
		pb_check_fail(ctx, "setup: a nonblocking %s took more than 64 MiB without EAGAIN", w);
	else if (n == 0)
		pb_check_fail(ctx, "setup: write() on an empty nonblocking %s failed with EAGAIN", w);
	else if (n < 0)
		pb_check_setup(ctx, PB_RES_PIPE, (int)-n, "filling the %s: write: %s", w,
			       pb_checkproc_errname((int)-n));
	return n > 0 ? n : -1;
}

long pb_check_full_pipe(struct pb_check_ctx *ctx, int fd[2], int flags)
{
	if (!pb_check_make_pipe(ctx, fd, flags | O_NONBLOCK))
		return -1;
	return pb_check_fill_or_fail(ctx, fd[1]);
}

void *pb_check_shared(struct pb_check_ctx *ctx, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		pb_check_error(ctx, "harness: mmap of a shared page: %s", strerror(errno));
		return NULL;
	}
	return p;
}

bool pb_check_wait_flag(const volatile int *flag, unsigned ms)
{
	struct timespec ts = { 0, 200000 };

	for (unsigned i = 0; i < ms * 5; i++) {
		if (__atomic_load_n(flag, __ATOMIC_SEQ_CST))
			return true;
		nanosleep(&ts, NULL);
	}
	return __atomic_load_n(flag, __ATOMIC_SEQ_CST) != 0;
}

static void on_interrupt(int sig)
{
	(void)sig;
}

void pb_check_arm_interrupt(unsigned ms)
{
	struct sigaction sa;
	struct itimerval it;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;  /* no SA_RESTART: blocked calls get EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = ms / 1000;
	it.it_value.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	setitimer(ITIMER_REAL, &it, NULL);
}

void pb_check_disarm(void)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	signal(SIGALRM, SIG_DFL);
}

char pb_check_proc_stat(pid_t pid, long *cpu_ms)
{
	char path[64], buf[512], *p, st;
	unsigned long ut, kt;
	long tck = sysconf(_SC_CLK_TCK);
	ssize_t n;
	int fd;

	if (cpu_ms)
		*cpu_ms = -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* comm may contain spaces and parentheses */
	if (!p || p[1] != ' ')
		return '?';
	/* state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
	 * cmajflt utime stime */
	if (cpu_ms && tck > 0 &&
	    sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &st, &ut,
		   &kt) == 3)
		*cpu_ms = (long)((ut + kt) * 1000 / (unsigned long)tck);
	return p[2];
}

bool pb_check_wait_sleeping(pid_t pid, unsigned ms)
{
	struct timespec ts = { 0, 1000000 };

	for (unsigned i = 0; i < ms; i++) {
		if (pb_check_proc_stat(pid, NULL) == 'S')
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

int pb_check_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory stream's own descriptor */
}

bool pb_check_has_cap(int cap)
{
	return pb_sysinfo_has_cap(cap);
}

/* ---- one copy of what the check groups used to keep privately ---- */

void pb_check_close_pair(const struct pb_sysops *sys, int fd[2])
{
	pb_check_close(sys, &fd[0]);
	pb_check_close(sys, &fd[1]);
}

/* One read (WBUF NULL) or write through SYS under the non-restart timer. */
static ssize_t timed_io(const struct pb_sysops *sys, int fd, void *rbuf, const void *wbuf,
			size_t n, unsigned ms)
{
	ssize_t r;
	int e;

	errno = 0;
	pb_check_arm_interrupt(ms);
	r = wbuf ? sys->write(fd, wbuf, n) : sys->read(fd, rbuf, n);
	e = errno;
	pb_check_disarm();
	errno = e;
	return r;
}

ssize_t pb_check_timed_read(const struct pb_sysops *sys, int fd, void *buf, size_t n,
			    unsigned ms)
{
	return timed_io(sys, fd, buf, NULL, n, ms);
}

ssize_t pb_check_timed_write(const struct pb_sysops *sys, int fd, const void *buf, size_t n,
			     unsigned ms)
{
	return timed_io(sys, fd, NULL, buf, n, ms);
}

int pb_check_set_nonblock(const struct pb_sysops *sys, int fd, bool on)
{
	int fl = sys->fcntl(fd, F_GETFL, 0);

	if (fl < 0)
		return -errno;
	fl = on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	return sys->fcntl(fd, F_SETFL, fl) == 0 ? 0 : -errno;
}

long pb_check_fionread(const struct pb_sysops *sys, int fd)
{
	int n = -1;

	return sys->ioctl(fd, FIONREAD, &n) == 0 ? n : -1;
}

long pb_check_page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? p : 4096;
}

long pb_check_proc_long(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

int pb_check_kernel_at_least(const struct pb_check_ctx *ctx, int major, int minor, char *rel,
			     size_t len)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (rel)
		snprintf(rel, len, "unknown");
	if (ctx->sys->uname(&u) != 0)
		return -1;
	if (rel)
		snprintf(rel, len, "%s", u.release);
	if (sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return -1;
	return ma > major || (ma == major && mi >= minor);
}

const char *pb_check_err_name(long ret, int err)
{
	return ret < 0 ? pb_checkproc_errname(err) : "success";
}

const char *pb_check_res(ssize_t r, int err, char *buf, size_t len)
{
	if (r < 0)
		snprintf(buf, len, "-1/%s", pb_checkproc_errname(err));
	else
		snprintf(buf, len, "%zd", r);
	return buf;
}

bool pb_check_io_exact(struct pb_check_ctx *ctx, ssize_t got, size_t n, const char *call)
{
	if (got == (ssize_t)n)
		return true;
	if (got < 0)
		pb_check_setup(ctx, PB_RES_PIPE, errno, "%s on a %s: %s; POSIX requires all %zu "
			       "bytes", call, pb_check_kind_word(ctx),
			       pb_checkproc_errname(errno), n);
	else
		pb_check_fail(ctx, "setup: %s on a %s returned %zd; POSIX requires all %zu "
			      "bytes", call, pb_check_kind_word(ctx), got, n);
	return false;
}

bool pb_check_anon_pipe(struct pb_check_ctx *ctx, int fd[2], int flags)
{
	if (ctx->sys->pipe2(fd, flags) == 0)
		return true;
	pb_check_anon_pipe_failed(ctx, fd, flags);
	return false;
}

void pb_check_anon_pipe_failed(struct pb_check_ctx *ctx, int fd[2], int flags)
{
	char names[64];

	fd[0] = fd[1] = -1;
	snprintf(names, sizeof(names), "%s%s%s", flags & O_DIRECT ? "O_DIRECT|" : "",
		 flags & O_NONBLOCK ? "O_NONBLOCK|" : "", flags & O_CLOEXEC ? "O_CLOEXEC|" : "");
	if (names[0])
		names[strlen(names) - 1] = '\0';
	else
		snprintf(names, sizeof(names), "0");
	pb_check_setup(ctx, PB_RES_PIPE, errno, "pipe2(%s): %s; %s requires a new pipe", names,
		       pb_checkproc_errname(errno), flags & O_DIRECT ? "Linux" : "POSIX");
}

/* Whether this process runs in the initial user namespace (see
 * pb_check_has_limit_cap).  Unknown (no /proc): assume the initial one. */
static bool initial_userns(void)
{
	FILE *f = fopen("/proc/self/uid_map", "re");
	unsigned long in, out, count;
	bool init = true;

	if (f) {
		init = fscanf(f, "%lu %lu %lu", &in, &out, &count) == 3 && in == 0 && out == 0 &&
		       count == 4294967295UL;
		fclose(f);
	}
	return init;
}

bool pb_check_has_limit_cap(int cap)
{
	return pb_check_has_cap(cap) && initial_userns();
}

/* What the uid 65534 helper reports (shared memory, written by the child). */
struct nobody_page {
	int step;     /* NB_*: the switch that failed, NB_OK when it worked */
	int err;      /* that step's errno */
	int started;  /* FN began */
	int done;     /* written last */
	struct pb_nobody_out out;
};

enum { NB_OK, NB_CHDIR, NB_SETGROUPS, NB_SETGID, NB_SETUID };

int pb_check_as_nobody(struct pb_check_ctx *ctx, const char *dir, unsigned ms,
		       pb_nobody_fn *fn, void *arg, struct pb_nobody_out *out, char *why,
		       size_t len)
{
	static const char *const step[] = { "", "chdir", "setgroups", "setgid", "setuid" };
	struct nobody_page *np = pb_check_shared(ctx, sizeof(*np));
	int status = 0, ret;
	pid_t pid;

	if (!np)
		return PB_NOBODY_ERROR;
	pid = pb_checkproc_fork();
	if (pid < 0) {
		pb_check_setup(ctx, PB_RES_HARNESS, errno, "fork of the uid 65534 helper: %s",
			       strerror(errno));
		munmap(np, sizeof(*np));
		return PB_NOBODY_ERROR;
	}
	if (pid == 0) {
		np->step = dir && chdir(dir) != 0 ? NB_CHDIR : setgroups(0, NULL) != 0 ?
			   NB_SETGROUPS : setgid(65534) != 0 ? NB_SETGID : setuid(65534) != 0 ?
			   NB_SETUID : NB_OK;
		np->err = errno;
		if (np->step == NB_OK) {
			__atomic_store_n(&np->started, 1, __ATOMIC_SEQ_CST);
			fn(ctx->sys, arg, &np->out);
		}
		__atomic_store_n(&np->done, 1, __ATOMIC_SEQ_CST);
		_exit(0);
	}
	pb_checkproc_wait(pid, ms, &status);
	if (!__atomic_load_n(&np->done, __ATOMIC_SEQ_CST)) {
		if (__atomic_load_n(&np->started, __ATOMIC_SEQ_CST)) {
			ret = PB_NOBODY_HUNG;
		} else {
			pb_check_error(ctx, "harness: the uid 65534 helper died before it switched "
				       "identity (wait status %#x)", (unsigned)status);
			ret = PB_NOBODY_ERROR;
		}
	} else if (np->step == NB_OK) {
		*out = np->out;
		ret = PB_NOBODY_OK;
	} else if (np->step != NB_CHDIR && (np->err == EINVAL || np->err == EPERM)) {
		snprintf(why, len, "cannot become uid 65534: %s: %s%s", step[np->step],
			 pb_checkproc_errname(np->err), np->err == EINVAL ?
			 " (65534 is not mapped in this user namespace)" :
			 " (not permitted here, e.g. setgroups denied in a user namespace)");
		ret = PB_NOBODY_SKIP;
	} else {
		pb_check_error(ctx, "harness: the uid 65534 helper: %s: %s", step[np->step],
			       strerror(np->err));
		ret = PB_NOBODY_ERROR;
	}
	munmap(np, sizeof(*np));
	return ret;
}

bool pb_check_wait_clock_past(const struct timespec *t, int n, unsigned ms)
{
	struct timespec limit = { 0, 0 }, now, nap = { 0, 200000 };
	bool whole = true;

	for (int i = 0; i < n; i++) {
		if (pb_ts_cmp(&t[i], &limit) > 0)
			limit = t[i];
		whole = whole && t[i].tv_nsec == 0;
	}
	if (whole)
		limit.tv_sec++;
	for (unsigned i = 0; i < ms * 5; i++) {
		clock_gettime(CLOCK_REALTIME_COARSE, &now);
		if (pb_ts_cmp(&now, &limit) > 0)
			return true;
		nanosleep(&nap, NULL);
	}
	return false;
}

long pb_check_capacity(struct pb_check_ctx *ctx, int wfd)
{
	long cap;

	errno = 0;
	cap = ctx->sys->fcntl(wfd, F_GETPIPE_SZ, 0);
	if (cap > 0)
		return cap;
	if (cap < 0)
		pb_check_setup(ctx, PB_RES_PIPE, errno, "fcntl(F_GETPIPE_SZ) on the write end = "
			       "-1/%s; Linux requires the capacity", pb_checkproc_errname(errno));
	else
		pb_check_fail(ctx, "setup: fcntl(F_GETPIPE_SZ) on the write end = %ld; Linux "
			      "requires the capacity in bytes", cap);
	return -1;
}

long pb_check_fill_but_96(struct pb_check_ctx *ctx, int wfd, long cap, long page)
{
	static char buf[65536];
	long total = 0, slots = page > 0 ? cap / page : 0;
	char b[32];

	if (page > (long)sizeof(buf) || cap < page || page <= 96) {
		pb_check_skip(ctx, "capacity %ld is below one page (%ld)", cap, page);
		return -1;
	}
	for (long i = 0; i < slots; i++) {
		size_t n = (size_t)(i < slots - 1 ? page : page - 96);
		ssize_t r = pb_check_timed_write(ctx->sys, wfd, buf, n, 2000);

		if (r != (ssize_t)n) {
			int e = r < 0 ? errno : 0;

			/* -1 with EMFILE/ENFILE/ENOMEM is the harness's: ERROR. */
			pb_check_setup(ctx, PB_RES_PIPE, e, "filling the %ld-byte %s to 96 bytes "
				       "free, with %ld bytes queued a nonblocking write(%zu) with "
				       "room = %s; POSIX requires all %zu (there is room)", cap,
				       pb_check_kind_word(ctx), total, n,
				       pb_check_res(r, e, b, sizeof(b)), n);
			return -1;
		}
		total += r;
	}
	return total;
}
