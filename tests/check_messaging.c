/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The messaging workload: message accounting and failure paths that leave nothing behind. */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "checks/conformance.h"
#include "messaging.h"

/* The descriptors this process has open (pb_check_count_fds), counted. */
static int open_fds(void)
{
	int n = pb_check_count_fds();

	ck_assert_int_ge(n, 0);
	return n;
}

/* No child of ours is left, running or zombie. */
static void assert_no_children(void)
{
	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}

/* Nothing of a run is left: no descriptor beyond the BEFORE it started with, no child. */
static void assert_nothing_left(int before)
{
	ck_assert_int_eq(open_fds(), before);
	assert_no_children();
}

/* A run of P fails with ERR (-errno) and an error that names PHRASE, leaving nothing. */
static void run_fails(const struct pb_messaging_params *p, int before, int err,
		      const char *phrase)
{
	struct pb_messaging_result res;
	char msg[256] = "";

	ck_assert_int_eq(pb_messaging_run(p, &res, msg, sizeof(msg)), err);
	ck_assert_msg(strstr(msg, phrase), "'%s' lacks '%s'", msg, phrase);
	assert_nothing_left(before);
}

static void run_ok(enum pb_messaging_kind kind, bool threads, uint64_t g, uint64_t n,
		   uint64_t l, uint64_t s)
{
	struct pb_messaging_params p = { .kind = kind, .threads = threads, .groups = g,
					 .fds = n, .loops = l, .size = s };
	struct pb_messaging_result res;
	char err[256] = "x";
	int before = open_fds();

	ck_assert_int_eq(pb_messaging_run(&p, &res, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "");
	ck_assert_uint_eq(res.messages, g * n * n * l);
	ck_assert_uint_eq(res.bytes, g * n * n * l * s);
	ck_assert_uint_gt(res.elapsed_ns, 0);
	/* Every worker at least blocked once waiting for the start byte. */
	ck_assert_uint_ge(res.voluntary_ctxsw, 1);
	ck_assert_uint_gt(res.cpu_user_ns + res.cpu_sys_ns, 0);
	assert_nothing_left(before);
}

START_TEST(process_pipe_accounting)
{
	run_ok(PB_MESSAGING_PIPE, false, 2, 3, 5, 100);
}
END_TEST

START_TEST(thread_pipe_accounting)
{
	run_ok(PB_MESSAGING_PIPE, true, 2, 3, 5, 100);
}
END_TEST

START_TEST(socketpair_both_modes)
{
	run_ok(PB_MESSAGING_SOCKETPAIR, false, 1, 4, 3, 10);
	run_ok(PB_MESSAGING_SOCKETPAIR, true, 1, 4, 3, 10);
}
END_TEST

/* Messages larger than the pipe buffer arrive in pieces and must still add up. */
START_TEST(big_messages_partial_io)
{
	run_ok(PB_MESSAGING_PIPE, false, 1, 2, 2, 200000);
	run_ok(PB_MESSAGING_PIPE, true, 1, 2, 2, 200000);
	run_ok(PB_MESSAGING_PIPE, false, 1, 1, 3, 1);
}
END_TEST

START_TEST(workers_count)
{
	struct pb_messaging_params p = { .groups = 10, .fds = 20 };

	ck_assert_uint_eq(pb_messaging_workers(&p), 400);
}
END_TEST

static void set_nofile(rlim_t n)
{
	struct rlimit rl;

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl.rlim_cur = n;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
}

START_TEST(limits_fd_too_low)
{
	struct pb_messaging_params p = { .groups = 1, .fds = 20, .loops = 1, .size = 1 };
	char why[256] = "";

	ck_assert_int_eq(pb_messaging_check_limits(&p, why, sizeof(why)), 0);
	set_nofile(16);
	ck_assert_int_eq(pb_messaging_check_limits(&p, why, sizeof(why)), -EMFILE);
	ck_assert_ptr_nonnull(strstr(why, "RLIMIT_NOFILE is 16"));
	/* Threads hold every group's pipes at once; processes one group's. */
	set_nofile(64);
	p.fds = 10;
	p.groups = 4;
	ck_assert_int_eq(pb_messaging_check_limits(&p, why, sizeof(why)), 0);
	p.threads = true;
	ck_assert_int_eq(pb_messaging_check_limits(&p, why, sizeof(why)), -EMFILE);
}
END_TEST

/* Past the up-front check, pipe() itself fails half-way: all undone. */
START_TEST(run_fd_limit_processes)
{
	struct pb_messaging_params p = { .groups = 2, .fds = 20, .loops = 1, .size = 1 };
	int before = open_fds();

	set_nofile((rlim_t)before + 12);
	run_fails(&p, before, -EMFILE, "pipe: Too many open files");
}
END_TEST

START_TEST(run_fd_limit_threads)
{
	struct pb_messaging_params p = { .threads = true, .groups = 4, .fds = 5, .loops = 1,
					 .size = 1 };
	int before = open_fds();

	set_nofile((rlim_t)before + 20);
	run_fails(&p, before, -EMFILE, "pipe");
}
END_TEST

/* fork() fails half-way (RLIMIT_NPROC): the children started are killed and reaped. */
START_TEST(run_fork_fails)
{
	struct pb_messaging_params p = { .groups = 1, .fds = 10, .loops = 1, .size = 1 };
	struct rlimit rl = { 6, 6 };
	char why[256] = "";
	int before = open_fds();

	if (geteuid() == 0) {
		/* Root ignores RLIMIT_NPROC: become nobody in this forked test. */
		struct passwd *pw = getpwnam("nobody");
		uid_t uid = pw ? pw->pw_uid : 65534;

		ck_assert_int_eq(setgid(uid), 0);
		ck_assert_int_eq(setuid(uid), 0);
	}
	ck_assert_int_eq(setrlimit(RLIMIT_NPROC, &rl), 0);
	ck_assert_int_eq(pb_messaging_check_limits(&p, why, sizeof(why)), -EAGAIN);
	ck_assert_ptr_nonnull(strstr(why, "RLIMIT_NPROC"));
	run_fails(&p, before, -EAGAIN, "fork");
}
END_TEST

/* Thread mode blocks SIGPIPE in its workers only: the caller's mask comes back. */
START_TEST(thread_mode_restores_mask)
{
	struct pb_messaging_params p = { .threads = true, .groups = 1, .fds = 2, .loops = 3,
					 .size = 10 };
	struct pb_messaging_result res;
	char err[256];
	sigset_t cur;

	signal(SIGPIPE, SIG_DFL);
	ck_assert_int_eq(pb_messaging_run(&p, &res, err, sizeof(err)), 0);
	/* The caller's mask is restored. */
	sigprocmask(SIG_SETMASK, NULL, &cur);
	ck_assert(!sigismember(&cur, SIGPIPE));
}
END_TEST

/* Kill the first worker found among the main thread's children. */
static void *killer(void *arg)
{
	pid_t tid = *(pid_t *)arg;
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)tid);
	for (int tries = 0; tries < 400; tries++) {
		FILE *f = fopen(path, "r");
		int pid = 0;

		usleep(10000);
		if (!f)
			continue;
		if (fscanf(f, "%d", &pid) == 1 && pid > 0) {
			/* Let the run get going, then kill a worker. */
			usleep(50000);
			kill(pid, SIGKILL);
			fclose(f);
			return NULL;
		}
		fclose(f);
	}
	return NULL;
}

/* A worker dying mid-run: the others are killed, the run ends with its cause. */
START_TEST(dead_worker_ends_run)
{
	/* Endless unless the guard works: 10^9 loops. */
	struct pb_messaging_params p = { .groups = 1, .fds = 3, .loops = 1000000000ULL,
					 .size = 100 };
	struct pb_messaging_result res;
	char err[256] = "";
	pid_t tid = getpid();
	pthread_t t;
	int before = open_fds();

	ck_assert_int_eq(pthread_create(&t, NULL, killer, &tid), 0);
	ck_assert_int_eq(pb_messaging_run(&p, &res, err, sizeof(err)), -EIO);
	pthread_join(t, NULL);
	/* The first worker reaped is the one killed or a peer that saw it go. */
	ck_assert_msg(strstr(err, "killed by signal 9") || strstr(err, "Broken pipe") ||
		      strstr(err, "end of file"), "err: %s", err);
	assert_nothing_left(before);
}
END_TEST

PB_CHECK_SUITE_MAIN("messaging",
	PB_TCASE("accounting", process_pipe_accounting, thread_pipe_accounting,
		 socketpair_both_modes, big_messages_partial_io, workers_count),
	PB_TCASE("limits", limits_fd_too_low, run_fd_limit_processes, run_fd_limit_threads,
		 run_fork_fails),
	PB_TCASE("failures", dead_worker_ends_run, thread_mode_restores_mask))
