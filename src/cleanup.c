/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "msg.h"

#define MAX_PATHS 64
#define MAX_CHILDREN 4096

static struct {
	char path[PATH_MAX];
	volatile sig_atomic_t used;
	int is_dir;
} paths[MAX_PATHS];

static volatile pid_t children[MAX_CHILDREN];
/* Slots below these have been used: a forked child clears only those, since
 * touching all of both tables costs each child some 70 page faults. */
static int paths_hw, children_hw;
static char msg_prefix[96];
static char watchdog_msg[256];
static volatile sig_atomic_t watchdog_fired;
static volatile sig_atomic_t defer_signals, interrupted;
static struct timespec interrupted_at;

static void put(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));

	(void)r;
}

void pb_cleanup_empty_dir(const char *dir)
{
	char buf[4096];
	long n;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);

			if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..") &&
			    unlinkat(fd, d->d_name, 0) != 0)
				unlinkat(fd, d->d_name, AT_REMOVEDIR);
			off += d->d_reclen;
		}
	close(fd);
}

/*
 * Children first: SIGTERM lets a child that is itself a pipebench command
 * (report's parts) remove its own FIFOs and directories; whoever has not
 * gone after a grace period is killed.  Then files before directories: a
 * FIFO lives inside its temporary directory.
 */
static void cleanup_now(void)
{
	struct timespec tick = { 0, 10000000 };
	int left = 0;

	/* A child may lead a process group of its own (a conformance check
	 * and its helpers): signal the group too; -pid names no other. */
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0) {
			kill(-children[i], SIGTERM);
			if (kill(children[i], SIGTERM) == 0)
				left++;
		}
	for (int t = 0; left && t < 200; t++) {
		left = 0;
		for (int i = 0; i < MAX_CHILDREN; i++)
			if (children[i] > 0) {
				if (waitpid(children[i], NULL, WNOHANG) != 0)
					children[i] = 0;
				else
					left++;
			}
		if (left)
			nanosleep(&tick, NULL);
	}
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0) {
			kill(-children[i], SIGKILL);
			kill(children[i], SIGKILL);
			waitpid(children[i], NULL, 0);
			children[i] = 0;
		}
	for (int pass = 0; pass < 2; pass++)
		for (int i = MAX_PATHS - 1; i >= 0; i--) {
			if (!paths[i].used || paths[i].is_dir != pass)
				continue;
			if (pass) {
				pb_cleanup_empty_dir(paths[i].path);
				rmdir(paths[i].path);
			} else {
				unlink(paths[i].path);
			}
			paths[i].used = 0;
		}
}

static void on_signal(int sig)
{
	if (defer_signals && interrupted == sig) {
		/* The same signal again within a second is the same request
		 * sent twice (timeout(1) signals its child, then its group). */
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - interrupted_at.tv_sec < 1 ||
		    (now.tv_sec - interrupted_at.tv_sec == 1 && now.tv_nsec < interrupted_at.tv_nsec))
			return;
	}
	if (defer_signals && !interrupted) {
		clock_gettime(CLOCK_MONOTONIC, &interrupted_at);
		/* Record it and stop the children; the command writes what it
		 * has and calls pb_cleanup_exit_interrupted().  A second signal
		 * ends at once. */
		interrupted = sig;
		for (int i = 0; i < MAX_CHILDREN; i++)
			if (children[i] > 0) {
				kill(-children[i], SIGTERM);
				kill(children[i], SIGTERM);
			}
		return;
	}
	cleanup_now();
	_exit(128 + sig);
}

void pb_cleanup_defer_signals(bool on)
{
	defer_signals = on;
}

int pb_cleanup_interrupted(void)
{
	return interrupted;
}

void pb_cleanup_exit_interrupted(void)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	cleanup_now();
	_exit(128 + interrupted);
}

/*
 * First expiry: raise the flag that loops able to stop cleanly poll
 * (pb_watchdog_fired), so the command can still write its document with
 * the error in it; arm a backstop.  Second expiry: the command did not
 * stop, so clean up and exit 3 from here.
 */
static void on_alarm(int sig)
{
	struct itimerval it = { .it_value = { PB_WATCHDOG_GRACE_S, 0 } };

	(void)sig;
	if (!watchdog_fired) {
		watchdog_fired = 1;
		setitimer(ITIMER_REAL, &it, NULL);
		return;
	}
	put(watchdog_msg);
	cleanup_now();
	_exit(3);
}

bool pb_watchdog_fired(void)
{
	return watchdog_fired != 0;
}

void pb_cleanup_install(const char *cmd)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	snprintf(msg_prefix, sizeof(msg_prefix), "%s%s%s", PB_PROG, cmd ? " " : "",
		 cmd ? cmd : "");
	memset(&sa, 0, sizeof(sa));
	sigfillset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
}

void pb_cleanup_child_reset(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGALRM };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	for (int i = 0; i < paths_hw; i++)
		paths[i].used = 0;
	for (int i = 0; i < children_hw; i++)
		children[i] = 0;
	paths_hw = children_hw = 0;
	defer_signals = interrupted = 0;
}

/* Block the cleanup signals while the registry is being changed. */
static void block(sigset_t *old)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	sigaddset(&s, SIGALRM);
	sigprocmask(SIG_BLOCK, &s, old);
}

static void unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

pid_t pb_cleanup_fork(void)
{
	sigset_t old;
	pid_t pid;
	int e;

	block(&old);
	pid = fork();
	if (pid == 0) {
		pb_cleanup_child_reset();
		unblock(&old);
		return 0;
	}
	e = errno;
	if (pid > 0 && pb_cleanup_add_child(pid) != 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
		e = EAGAIN;
	}
	unblock(&old);
	errno = e;
	return pid;
}

static bool path_slot_used(int i)
{
	return paths[i].used;
}

static bool child_slot_used(int i)
{
	return children[i] != 0;
}

/*
 * With signals blocked: the first of MAX slots that USED says is free, the
 * high-water mark *HW (what the handler walks) raised past it; -1 when
 * every slot is taken.
 */
static int take_slot(int max, int *hw, bool (*used)(int))
{
	for (int i = 0; i < max; i++)
		if (!used(i)) {
			if (i >= *hw)
				*hw = i + 1;
			return i;
		}
	return -1;
}

int pb_cleanup_add_path(const char *path, int is_dir)
{
	sigset_t old;
	int r = -ENOSPC;

	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	block(&old);
	int i = take_slot(MAX_PATHS, &paths_hw, path_slot_used);

	if (i >= 0) {
		strcpy(paths[i].path, path);
		paths[i].is_dir = is_dir;
		paths[i].used = 1;
		r = 0;
	}
	unblock(&old);
	return r;
}

void pb_cleanup_del_path(const char *path)
{
	sigset_t old;

	block(&old);
	for (int i = 0; i < MAX_PATHS; i++)
		if (paths[i].used && strcmp(paths[i].path, path) == 0) {
			paths[i].used = 0;
			break;
		}
	unblock(&old);
}

int pb_cleanup_add_child(pid_t pid)
{
	sigset_t old;
	int r = -ENOSPC;

	block(&old);
	int i = take_slot(MAX_CHILDREN, &children_hw, child_slot_used);

	if (i >= 0) {
		children[i] = pid;
		r = 0;
	}
	unblock(&old);
	return r;
}

void pb_cleanup_del_child(pid_t pid)
{
	sigset_t old;

	block(&old);
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid) {
			children[i] = 0;
			break;
		}
	unblock(&old);
}

void pb_watchdog_arm(double seconds, const char *what)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	watchdog_fired = 0;
	if (seconds > 0) {
		snprintf(watchdog_msg, sizeof(watchdog_msg), "%s: %s: timed out after %g s\n",
			 msg_prefix, what, seconds);
		it.it_value.tv_sec = (time_t)seconds;
		it.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
		if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
			it.it_value.tv_usec = 1;
	}
	setitimer(ITIMER_REAL, &it, NULL);
}

const char *pb_tmpdir_base(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t ? t : "/tmp";
}

int pb_dir_usable(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (access(dir, W_OK | X_OK) != 0)
		return -errno;
	return 0;
}

int pb_tmpdir_make(const char *base, char *out, size_t len)
{
	sigset_t old;
	int r;

	if (!base)
		base = pb_tmpdir_base();
	if ((size_t)snprintf(out, len, "%s/pipebench.XXXXXX", base) >= len)
		return -ENAMETOOLONG;
	/* Block signals so the directory cannot exist unregistered. */
	block(&old);
	if (!mkdtemp(out)) {
		r = -errno;
	} else {
		r = pb_cleanup_add_path(out, 1);
		if (r)
			rmdir(out);
	}
	unblock(&old);
	return r;
}

void pb_tmpdir_remove(const char *dir)
{
	rmdir(dir);
	pb_cleanup_del_path(dir);
}

int pb_dir_probe(const char *dir, const char **step)
{
	char sub[4096];
	int r;

	*step = "";
	if ((r = pb_dir_usable(dir)) != 0)
		return r;
	*step = "cannot make a directory in it: mkdir";
	if ((r = pb_tmpdir_make(dir, sub, sizeof(sub))) != 0)
		return r;
	pb_tmpdir_remove(sub);
	return 0;
}
