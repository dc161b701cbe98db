/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "conformance.h"

const char *const pb_verdict_names[] = {
	"pass", "fail", "known-deviation", "info", "skip", "error", NULL
};

const struct pb_check *const pb_check_groups[] = {
	pb_checks_creation, pb_checks_read, pb_checks_write, pb_checks_nonblock,
	pb_checks_sigpipe, pb_checks_fifo, pb_checks_fcntl, pb_checks_poll,
	pb_checks_metadata, pb_checks_linux, NULL
};

static int rank(enum pb_verdict v)
{
	switch (v) {
	case PB_ERROR: return 5;
	case PB_FAIL: return 4;
	case PB_KNOWN_DEVIATION: return 3;
	case PB_SKIP: return 2;
	case PB_INFO: return 1;
	default: return 0;
	}
}

void pb_check_set(struct pb_check_ctx *ctx, enum pb_verdict v, const char *fmt, ...)
{
	va_list ap;

	/* The first FAIL/ERROR is the story; later calls must not hide it. */
	if (rank(ctx->verdict) >= rank(PB_FAIL) && rank(v) <= rank(ctx->verdict))
		return;
	ctx->verdict = v;
	va_start(ap, fmt);
	vsnprintf(ctx->detail, sizeof(ctx->detail), fmt, ap);
	va_end(ap);
}

void pb_check_note(struct pb_check_ctx *ctx, const char *fmt, ...)
{
	size_t len = strlen(ctx->detail);
	va_list ap;

	if (len && len + 2 < sizeof(ctx->detail)) {
		strcpy(ctx->detail + len, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(ctx->detail + len, sizeof(ctx->detail) - len, fmt, ap);
	va_end(ap);
}

/* Harness rule 2: the child starts from a known state, not the caller's. */
static void reset_child_state(void)
{
	sigset_t none;

	pb_cleanup_child_reset();
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	umask(022);
	alarm(0);
}

static void child(const struct pb_check *c, const struct pb_run_opts *o, const char *dir,
		  int wfd)
{
	struct pb_check_ctx ctx = {
		.sys = o->sys ? o->sys : &pb_sysops_real,
		.dir = dir,
		.kind = o->kind,
		.run_flags = o->flags,
		.verdict = PB_PASS,
	};
	struct pb_check_result r;
	ssize_t w;

	reset_child_state();
	/* Its own process group, so helpers it forks can be killed with it. */
	setpgid(0, 0);
	if (chdir(dir) != 0)
		_exit(120);
	c->run(&ctx);
	memset(&r, 0, sizeof(r));
	r.verdict = ctx.verdict;
	memcpy(r.detail, ctx.detail, sizeof(r.detail));
	r.detail[sizeof(r.detail) - 1] = '\0';
	w = write(wfd, &r, sizeof(r));
	_exit(w == (ssize_t)sizeof(r) ? 0 : 121);
}

/* Remove whatever a killed check left in its private directory. */
static void empty_dir(const char *dir)
{
	DIR *d = opendir(dir);

	if (d) {
		struct dirent *e;

		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
}

int pb_conformance_run_one(const struct pb_check *c, const struct pb_run_opts *o,
			   struct pb_check_result *r)
{
	double timeout = o->timeout_s > 0 ? o->timeout_s : 5;
	char dir[4096];
	int p[2], status = 0, ret;
	bool reaped = false;
	uint64_t t0 = pb_clock_ns(), deadline;
	pid_t pid;
	ssize_t n;

	memset(r, 0, sizeof(*r));
	r->verdict = PB_ERROR;
	ret = pb_tmpdir_make(o->base_dir, dir, sizeof(dir));
	if (ret) {
		snprintf(r->detail, sizeof(r->detail), "harness: cannot make a directory: %s",
			 strerror(-ret));
		return ret;
	}
	if (pipe2(p, O_CLOEXEC) != 0) {
		ret = -errno;
		snprintf(r->detail, sizeof(r->detail), "harness: pipe2: %s", strerror(errno));
		pb_tmpdir_remove(dir);
		return ret;
	}
	pid = pb_cleanup_fork();
	if (pid < 0) {
		ret = -errno;
		snprintf(r->detail, sizeof(r->detail), "harness: fork: %s", strerror(errno));
		close(p[0]), close(p[1]);
		pb_tmpdir_remove(dir);
		return ret;
	}
	if (pid == 0) {
		close(p[0]);
		child(c, o, dir, p[1]);
	}
	close(p[1]);
	/*
	 * Watchdog: poll the result pipe, and the child itself, since a helper
	 * the check forked may hold the pipe open after the check has died.
	 */
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	deadline = t0 + (uint64_t)(timeout * 1e9);
	for (;;) {
		uint64_t now = pb_clock_ns();
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		int left = now >= deadline ? 0 : (int)((deadline - now) / 1000000) + 1;

		if (left == 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			r->timed_out = true;
			break;
		}
		if (poll(&pfd, 1, left < 20 ? left : 20) > 0)
			break;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			reaped = true;
			break;
		}
	}
	n = r->timed_out ? 0 : read(p[0], r, sizeof(*r));
	close(p[0]);
	while (!reaped && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL); /* helpers the check left behind */
	pb_cleanup_del_child(pid);
	r->duration_ns = pb_clock_ns() - t0;
	if (r->timed_out) {
		r->verdict = PB_FAIL;
		snprintf(r->detail, sizeof(r->detail),
			 "timed out after %g s (watchdog killed the check)", timeout);
	} else if (WIFSIGNALED(status)) {
		r->signal = WTERMSIG(status);
		r->verdict = PB_FAIL;
		snprintf(r->detail, sizeof(r->detail), "check process killed by signal SIG%s (%d)",
			 sigabbrev_np(r->signal) ? sigabbrev_np(r->signal) : "?", r->signal);
	} else if (n != (ssize_t)sizeof(*r)) {
		r->verdict = PB_ERROR;
		snprintf(r->detail, sizeof(r->detail), "harness: check exited %d without a verdict",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	r->detail[sizeof(r->detail) - 1] = '\0';
	empty_dir(dir);
	pb_tmpdir_remove(dir);
	return 0;
}
