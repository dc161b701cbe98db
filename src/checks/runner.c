/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

	/* The first FAIL/ERROR is the story; later calls must not hide it (a
	 * harness error after a pipe misbehaved is likely its consequence, and
	 * the run must still say the kernel failed). */
	if (rank(ctx->verdict) >= rank(PB_FAIL))
		return;
	ctx->verdict = v;
	va_start(ap, fmt);
	vsnprintf(ctx->detail, sizeof(ctx->detail), fmt, ap);
	va_end(ap);
}

bool pb_check_err_is_resource(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOMEM;
}

void pb_check_setup(struct pb_check_ctx *ctx, enum pb_res res, int err, const char *fmt, ...)
{
	enum pb_verdict v = PB_FAIL;
	char what[400];
	va_list ap;

	if (res == PB_RES_HARNESS || pb_check_err_is_resource(err))
		v = PB_ERROR;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (v == PB_ERROR) {
		/* What POSIX requires of the call is beside the point when the
		 * environment ran out of a resource: drop it from the detail. */
		char *req = strstr(what, "; POSIX requires");

		if (!req)
			req = strstr(what, "; Linux requires");
		if (req)
			*req = '\0';
		pb_check_set(ctx, v, "harness: %s", what);
	}
	else
		pb_check_set(ctx, v, "setup: %s", what);
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

/*
 * The verdict page: a MAP_SHARED anonymous mapping the child fills before it
 * exits.  Not a pipe: a kernel whose pipes are broken must still be able to
 * report that they are (a torn write would otherwise turn every verdict into
 * a harness error).  MAGIC is written last, after a barrier, so a child that
 * dies half-way through leaves no half-written verdict behind.
 */
#define VERDICT_MAGIC 0x70627664u /* "pbvd" */
struct verdict_page {
	struct pb_check_result r;
	volatile uint32_t magic;
};

static void child(const struct pb_check *c, const struct pb_run_opts *o, const char *dir,
		  struct verdict_page *page)
{
	struct pb_check_ctx ctx = {
		.sys = o->sys ? o->sys : &pb_sysops_real,
		.dir = dir,
		.kind = o->kind,
		.run_flags = o->flags,
		.verdict = PB_PASS,
	};

	reset_child_state();
	/* Its own process group, so helpers it forks can be killed with it. */
	setpgid(0, 0);
	const char *audit = getenv("PB_CHECK_FD_AUDIT");
	int fds = audit && !strcmp(audit, "1") ? pb_check_count_fds() : -1;

	if (chdir(dir) != 0)
		_exit(120);
	c->run(&ctx);
	/* The test suite's audit (HACKING): a check that did not fail leaves no
	 * descriptor open (after a FAIL it may be the kernel's own leak, which
	 * CRE-07 to CRE-10 look for). */
	if (fds >= 0 && ctx.verdict != PB_FAIL) {
		int left = pb_check_count_fds() - fds;

		if (left > 0) {
			char said[300];

			memcpy(said, ctx.detail, sizeof(said) - 1);
			said[sizeof(said) - 1] = '\0';
			ctx.verdict = PB_ERROR;
			snprintf(ctx.detail, sizeof(ctx.detail), "harness: the check left %d "
				 "descriptor(s) open (PB_CHECK_FD_AUDIT); it said: %s", left, said);
		}
	}
	page->r.verdict = ctx.verdict;
	memcpy(page->r.detail, ctx.detail, sizeof(page->r.detail));
	page->r.detail[sizeof(page->r.detail) - 1] = '\0';
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	page->magic = VERDICT_MAGIC;
	_exit(0);
}

/* Sleep a little, longer as the wait goes on: checks mostly end in a few
 * milliseconds, a few take seconds. */
static void wait_tick(unsigned *round)
{
	long ns = *round < 20 ? 100000L : *round < 200 ? 1000000L : 10000000L;
	struct timespec ts = { 0, ns };

	(*round)++;
	nanosleep(&ts, NULL);
}

int pb_conformance_run_one(const struct pb_check *c, const struct pb_run_opts *o,
			   struct pb_check_result *r)
{
	double timeout = o->timeout_s > 0 ? o->timeout_s : 5;
	struct verdict_page *page;
	char dir[4096];
	int status = 0, ret, intr = 0;
	unsigned round = 0;
	bool reaped = false, have = false;
	uint64_t t0 = pb_clock_ns(), deadline;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->verdict = PB_ERROR;
	ret = pb_tmpdir_make(o->base_dir, dir, sizeof(dir));
	if (ret) {
		snprintf(r->detail, sizeof(r->detail), "harness: cannot make a directory: %s",
			 strerror(-ret));
		return ret;
	}
	page = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	if (page == MAP_FAILED) {
		ret = -errno;
		snprintf(r->detail, sizeof(r->detail), "harness: mmap: %s", strerror(errno));
		pb_tmpdir_remove(dir);
		return ret;
	}
	memset(page, 0, sizeof(*page));
	pid = pb_cleanup_fork();
	if (pid < 0) {
		ret = -errno;
		snprintf(r->detail, sizeof(r->detail), "harness: fork: %s", strerror(errno));
		munmap(page, sizeof(*page));
		pb_tmpdir_remove(dir);
		return ret;
	}
	if (pid == 0)
		child(c, o, dir, page);
	/*
	 * Watchdog: wait for the child itself (not for a message over a pipe,
	 * nor for helpers the check forked, which may outlive it).
	 */
	deadline = t0 + (uint64_t)(timeout * 1e9);
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid) {
			reaped = true;
			break;
		}
		if (w < 0 && errno != EINTR)
			break;
		if ((intr = pb_cleanup_interrupted()) != 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			break;
		}
		if (pb_clock_ns() >= deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			r->timed_out = true;
			break;
		}
		wait_tick(&round);
	}
	while (!reaped && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL); /* helpers the check left behind */
	pb_cleanup_del_child(pid);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (page->magic == VERDICT_MAGIC) {
		have = true;
		r->verdict = page->r.verdict;
		memcpy(r->detail, page->r.detail, sizeof(r->detail));
	}
	munmap(page, sizeof(*page));
	r->duration_ns = pb_clock_ns() - t0;
	if (intr && !have) {
		r->verdict = PB_ERROR;
		snprintf(r->detail, sizeof(r->detail), "interrupted by SIG%s",
			 sigabbrev_np(intr) ? sigabbrev_np(intr) : "?");
	} else if (r->timed_out && !have) {
		r->verdict = PB_FAIL;
		snprintf(r->detail, sizeof(r->detail),
			 "timed out after %g s (watchdog killed the check)", timeout);
	} else if (r->timed_out) {
		r->timed_out = false; /* the verdict was in: only a helper lingered */
	} else if (!have && WIFSIGNALED(status)) {
		r->signal = WTERMSIG(status);
		r->verdict = PB_FAIL;
		snprintf(r->detail, sizeof(r->detail), "check process killed by signal SIG%s (%d)",
			 sigabbrev_np(r->signal) ? sigabbrev_np(r->signal) : "?", r->signal);
	} else if (!have) {
		r->verdict = PB_ERROR;
		snprintf(r->detail, sizeof(r->detail), "harness: check exited %d without a verdict",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	r->detail[sizeof(r->detail) - 1] = '\0';
	pb_cleanup_empty_dir(dir);  /* whatever a killed check left */
	pb_tmpdir_remove(dir);
	return 0;
}
