/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by conformance checks (see conformance.h). */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "checkproc.h"
#include "conformance.h"
#include "sysinfo.h"

int pb_check_pipe(struct pb_check_ctx *ctx, int fd[2], int flags)
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
	int r = pb_check_pipe(ctx, fd, flags | O_CLOEXEC);

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

static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

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
	return p && p[1] == ' ' ? p[2] : '?';
}

bool pb_check_wait_sleeping(pid_t pid, unsigned ms)
{
	struct timespec ts = { 0, 1000000 };

	for (unsigned i = 0; i < ms; i++) {
		if (proc_state(pid) == 'S')
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
